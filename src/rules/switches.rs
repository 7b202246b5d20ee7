//! Optional rules and variants (issue 8): named switches. The rules file, the scenario, the
//! new-battle screen and the command line (`--rule NAME`) each may turn them on; the battle
//! plays the union, and a recording names every switch that was on.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// One optional rule or variant. The doc comment names the book and section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Switch {
    /// BPT "Weather (Optional Rule)": roll the weather before the game (2d6: 12 extreme,
    /// 10–11 poor) and test for a change at the end of every game turn (double six worse,
    /// double one better). Night stays night.
    Weather,
    /// BPT "Morale Grades": unmotivated / regular / motivated replace suppression and
    /// fall-back scores, and the score to hit in a charge. A unit the scenario gives no
    /// `morale` is regular while it is on (the army lists carry no grade).
    MoraleGrades,
    /// BPT "Saber Charge (Optional Rule)": cavalry announce it; +1 attack per stand, no firing.
    SaberCharge,
    /// BPT "Air Burst Shell Fire (Optional Rule)": shell against troops in the open may burst
    /// in the air: a 2 cm zone, −1 die, cover ignored.
    AirBurst,
    /// BPT "Prone Movement (Optional Rule)": an order to go prone; one hit less per firing unit.
    Prone,
    /// BPT "Fixed Formations (Optional Rule)": units take orders only from their own HQ or CO.
    FixedFormations,
    /// BPT "Scouting Cavalry (Optional Rule)" with hidden set-up.
    Scouting,
    /// BPT "Constructions (Optional Rule)": buildings and works with their own hits and saves.
    Constructions,
    /// BPT "Engineering": obstacle clearance, bridging, demolition.
    Engineers,
    /// BPT "Multi-National Armies": orders only from the army HQ or an HQ of the unit's nation.
    MultiNational,
    /// *A Perfect Sheet of Flame*, "Writing and executing orders": an order takes effect at once
    /// within command distance, a game turn later (the side's next turn) at up to twice it,
    /// two game turns later beyond; each unit by its own distance from the commander.
    OrderDelay,
    /// *Glory Days!* "Activation", "Reaction Fire", "Effect of Hits": the active player acts
    /// unit by unit until an activation roll fails; hits may be taken as D-markers.
    InitiativePassing,
}

impl Switch {
    pub const ALL: [Switch; 12] = [
        Switch::Weather,
        Switch::MoraleGrades,
        Switch::SaberCharge,
        Switch::AirBurst,
        Switch::Prone,
        Switch::FixedFormations,
        Switch::Scouting,
        Switch::Constructions,
        Switch::Engineers,
        Switch::MultiNational,
        Switch::OrderDelay,
        Switch::InitiativePassing,
    ];

    /// The name the command line takes (`--rule saber-charge`).
    pub fn key(self) -> &'static str {
        match self {
            Switch::Weather => "weather",
            Switch::MoraleGrades => "morale-grades",
            Switch::SaberCharge => "saber-charge",
            Switch::AirBurst => "air-burst",
            Switch::Prone => "prone",
            Switch::FixedFormations => "fixed-formations",
            Switch::Scouting => "scouting",
            Switch::Constructions => "constructions",
            Switch::Engineers => "engineers",
            Switch::MultiNational => "multi-national",
            Switch::OrderDelay => "order-delay",
            Switch::InitiativePassing => "initiative-passing",
        }
    }

    /// What a player reads in the new-battle screen.
    pub fn title(self) -> &'static str {
        match self {
            Switch::Weather => "Changing weather",
            Switch::MoraleGrades => "Morale grades",
            Switch::SaberCharge => "Saber charge",
            Switch::AirBurst => "Air-burst shell",
            Switch::Prone => "Prone movement",
            Switch::FixedFormations => "Fixed formations",
            Switch::Scouting => "Scouting cavalry, hidden set-up",
            Switch::Constructions => "Constructions",
            Switch::Engineers => "Engineers",
            Switch::MultiNational => "Multi-national commands",
            Switch::OrderDelay => "Order delay (A Perfect Sheet of Flame)",
            Switch::InitiativePassing => "Initiative passing (Glory Days!)",
        }
    }

    /// A variant from another book rather than one of BPT's own optional rules.
    pub fn is_variant(self) -> bool {
        matches!(self, Switch::OrderDelay | Switch::InitiativePassing)
    }

    /// Whether the game plays this switch yet. A switch the game does not play is refused
    /// wherever it is asked for, with this said, rather than silently ignored.
    pub fn implemented(self) -> bool {
        matches!(
            self,
            Switch::Weather
                | Switch::MoraleGrades
                | Switch::Prone
                | Switch::MultiNational
                | Switch::FixedFormations
                | Switch::SaberCharge
                | Switch::Constructions
                | Switch::AirBurst
                | Switch::Scouting
                | Switch::Engineers
                | Switch::InitiativePassing
                | Switch::OrderDelay
        )
    }

    /// Switches refused together with this one: under initiative passing (*Glory Days!*)
    /// commanders give no orders, so the rules that change who may order a unit (fixed
    /// formations, multi-national) or when an order arrives (order delay) would be recorded
    /// and do nothing (issue 64). Symmetric: see [`Switches::clash`].
    pub fn refused_with(self) -> &'static [Switch] {
        match self {
            Switch::InitiativePassing => &[Switch::OrderDelay, Switch::FixedFormations, Switch::MultiNational],
            Switch::OrderDelay | Switch::FixedFormations | Switch::MultiNational => &[Switch::InitiativePassing],
            _ => &[],
        }
    }

    /// One line of what it does (the doc comment, for players).
    pub fn summary(self) -> &'static str {
        match self {
            Switch::Weather => {
                "Weather rolled before the battle (2d6: 12 extreme, 10-11 poor) and tested at the end of every game turn: double six worse, double one better."
            }
            Switch::MoraleGrades => {
                "Unmotivated, regular and motivated troops: suppressed on 4+/5+/6, knocked out falling back beyond 5/10/15 cm. A unit given no grade is regular (5+, 10 cm) while the rule is on."
            }
            Switch::SaberCharge => "Cavalry may charge with drawn sabers: +1 attack per stand, no firing.",
            Switch::AirBurst => "Shell may burst in the air over troops in the open: 2 cm zone, -1 die, cover ignored.",
            Switch::Prone => {
                "Units may be ordered prone: one hit less per firing unit; close order cannot fire or move."
            }
            Switch::FixedFormations => "Units take orders only from their own HQ or the army CO.",
            Switch::Scouting => "Hidden set-up; cavalry deployed as scouts find hidden enemy.",
            Switch::Constructions => "Buildings and works take hits of their own and collapse.",
            Switch::Engineers => "Engineers clear obstacles, bridge rivers and demolish works.",
            Switch::MultiNational => "Units take orders only from the army HQ or HQs of their own nation.",
            Switch::OrderDelay => {
                "Orders reach each unit at once within 20 cm of the commander, a game turn later (the side's next turn) at 20-40 cm, two game turns later beyond."
            }
            Switch::InitiativePassing => {
                "The active player acts unit by unit until an activation roll fails; hits may become D-markers (at most three)."
            }
        }
    }
}

impl std::fmt::Display for Switch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

impl std::str::FromStr for Switch {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let norm = s.trim().to_ascii_lowercase().replace('_', "-");
        Switch::ALL.into_iter().find(|w| w.key() == norm).ok_or_else(|| {
            let names: Vec<&str> = Switch::ALL.iter().map(|w| w.key()).collect();
            // BPT "Night" is the scenario's, not a switch (issue 64): say where it is set.
            let night = if norm == "night" {
                "; a battle at night is the scenario's: `night: true` in its file (BPT Night: poor weather that never changes)"
            } else {
                ""
            };
            format!("no optional rule called {s:?}; the rules are: {}{night}", names.join(", "))
        })
    }
}

/// The switches that are on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Switches(pub BTreeSet<Switch>);

impl Switches {
    pub fn on(&self, s: Switch) -> bool {
        self.0.contains(&s)
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn set(&mut self, s: Switch, on: bool) {
        if on {
            self.0.insert(s);
        } else {
            self.0.remove(&s);
        }
    }
    /// Both sets together.
    pub fn union(&self, other: &Switches) -> Switches {
        Switches(self.0.union(&other.0).copied().collect())
    }
    pub fn iter(&self) -> impl Iterator<Item = Switch> + '_ {
        self.0.iter().copied()
    }
    /// The first switch asked for that the game does not play yet, if any.
    pub fn unplayable(&self) -> Option<Switch> {
        self.iter().find(|s| !s.implemented())
    }
    /// The first two switches on that are refused together ([`Switch::refused_with`]).
    pub fn clash(&self) -> Option<(Switch, Switch)> {
        self.iter()
            .find_map(|a| a.refused_with().iter().find(|b| self.on(**b)).map(|&b| (a, b)))
    }

    /// Why the switches on cannot be played together, naming both, if they cannot.
    pub fn clash_text(&self) -> Option<String> {
        self.clash().map(|(a, b)| clash_words(a, b))
    }

    /// `weather, order-delay` (or `none`).
    pub fn describe(&self) -> String {
        if self.is_empty() {
            return "none".into();
        }
        self.iter().map(|s| s.key()).collect::<Vec<_>>().join(", ")
    }
    /// From command-line names, commas or repeats: `--rule weather,prone --rule order-delay`.
    pub fn parse_list<S: AsRef<str>>(names: &[S]) -> Result<Switches, String> {
        let mut out = Switches::default();
        for n in names {
            // An empty name (`--rule ""`, `weather,,prone`) is refused like a wrong one.
            for part in n.as_ref().split(',') {
                out.0.insert(part.parse()?);
            }
        }
        match out.clash_text() {
            Some(why) => Err(why),
            None => Ok(out),
        }
    }
}

/// The refusal of two switches together, naming both.
pub fn clash_words(a: Switch, b: Switch) -> String {
    let (passing, other) = if a == Switch::InitiativePassing { (a, b) } else { (b, a) };
    format!(
        "the optional rules {other} and {passing} cannot be played together: with {passing} \
         commanders give no orders (units are activated one by one), so {other} would do nothing"
    )
}

impl FromIterator<Switch> for Switches {
    fn from_iter<I: IntoIterator<Item = Switch>>(it: I) -> Self {
        Switches(it.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_a_wrong_name_lists_the_right_ones() {
        for s in Switch::ALL {
            assert_eq!(s.key().parse::<Switch>(), Ok(s));
        }
        assert_eq!("Saber_Charge".parse::<Switch>(), Ok(Switch::SaberCharge));
        let e = "sabre".parse::<Switch>().unwrap_err();
        assert!(e.contains("saber-charge") && e.contains("\"sabre\""), "{e}");
        assert!(Switches::parse_list(&[""]).is_err(), "an empty name is refused");
        assert!(Switches::parse_list(&["weather,,prone"]).is_err());
        let l = Switches::parse_list(&["weather,prone", "order-delay"]).expect("names");
        assert_eq!(l.describe(), "weather, prone, order-delay");
        assert_eq!(Switches::default().describe(), "none");
    }

    #[test]
    fn night_is_refused_as_a_switch_pointing_at_the_scenarios_night() {
        let e = "night".parse::<Switch>().unwrap_err();
        assert!(e.contains("night: true") && e.contains("scenario"), "{e}");
        assert!(!"sabre".parse::<Switch>().unwrap_err().contains("night: true"));
    }

    #[test]
    fn the_order_rules_are_refused_with_initiative_passing_naming_both() {
        // Issue 64: under Glory Days' initiative passing no commander orders, so order
        // delay, fixed formations and multi-national would be recorded and do nothing.
        for other in ["order-delay", "fixed-formations", "multi-national"] {
            for names in [[other, "initiative-passing"], ["initiative-passing", other]] {
                let e = Switches::parse_list(&names).unwrap_err();
                assert!(e.contains(other) && e.contains("initiative-passing"), "{e}");
            }
        }
        // Each is still played alone, and the others combine with passing.
        for ok in [
            "order-delay,fixed-formations,multi-national,weather",
            "initiative-passing,weather,saber-charge",
        ] {
            let l = Switches::parse_list(&[ok]).expect("combine");
            assert_eq!(l.clash(), None);
        }
        let all: Switches = Switch::ALL.into_iter().collect();
        assert_eq!(all.clash(), Some((Switch::FixedFormations, Switch::InitiativePassing)));
    }
}
