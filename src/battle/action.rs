//! Every decision a player can make, as a value. `Battle::apply` is the one door through
//! which they change the battle.

use super::ids::{CmdId, UnitId};
use crate::data::scenario::Ammo;
use crate::rules::formation::Formation;
use crate::rules::geometry::{Pose, V2};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A change of formation or mode (BPT "Actions": Deploy).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Deploy {
    Formation(Formation),
    /// Cavalry get off their horses (ACW note 3).
    Dismount,
    Mount,
    /// Guns hook up to the limber / unhook and deploy (BPT "Limbered or Unlimbered").
    Limber,
    Unlimber,
    /// Pivot an unlimbered gun to a new facing, radians (BPT "Towed Guns": a deploy action).
    Pivot(f64),
    /// Load a gun (Hardtack; the artillery issue uses the choice).
    Load(Ammo),
    /// Swing the end stands of a line back 45° (BPT "Refuse the Flank Movement");
    /// both false dresses the line again.
    RefuseFlank {
        left: bool,
        right: bool,
    },
    /// BPT "Prone Movement" (switch `Prone`): lie down (`true`) or stand up (`false`), on an order.
    Prone(bool),
}

/// *Glory Days!* terrain for activation ("Effects of Terrain on Movement"): open, difficult
/// (+1) or godforsaken (+2). Which BPT areas are which is in the rules file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Ground {
    #[default]
    Open,
    Difficult,
    Godforsaken,
}

impl std::fmt::Display for Ground {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Ground::Open => "open ground",
            Ground::Difficult => "difficult terrain",
            Ground::Godforsaken => "godforsaken terrain",
        })
    }
}

/// What a *Glory Days!* activation is for: each has its own table ("Activation", "Changing
/// Formation") and allows its own actions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Purpose {
    /// Move (or move into support): the movement table.
    #[default]
    Move,
    /// Any deploy (formation, mount/dismount, limber/unlimber, load, pivot, prone…): the
    /// "Changing Formation" table.
    Formation,
    /// Move, or charge after passing the charge test ("Melee"): the movement table.
    Charge,
}

/// What a player reads: "form attack column", "pivot to face 69°", "load canister".
impl std::fmt::Display for Deploy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Deploy::Formation(x) => write!(f, "form {x}"),
            Deploy::Dismount => f.write_str("dismount"),
            Deploy::Mount => f.write_str("mount"),
            Deploy::Limber => f.write_str("limber up"),
            Deploy::Unlimber => f.write_str("unlimber"),
            Deploy::Pivot(a) => write!(f, "pivot to face {:.0}°", a.to_degrees().rem_euclid(360.0)),
            Deploy::Load(Ammo::AirBurst) => f.write_str("load shell fused to burst in the air"),
            Deploy::Load(ammo) => write!(f, "load {}", format!("{ammo:?}").to_lowercase()),
            Deploy::RefuseFlank { left, right } => f.write_str(match (left, right) {
                (true, true) => "refuse both flanks",
                (true, false) => "refuse the left flank",
                (false, true) => "refuse the right flank",
                (false, false) => "dress the line",
            }),
            Deploy::Prone(true) => f.write_str("go prone"),
            Deploy::Prone(false) => f.write_str("stand up"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Action {
    // ---- Initiative phase (active player) ----
    /// Fire at the nearest visible enemy within initiative distance.
    InitiativeFire {
        unit: UnitId,
        target: UnitId,
    },
    /// Evade directly away from the nearest visible enemy, a full move.
    InitiativeEvade {
        unit: UnitId,
    },
    /// Mount/dismount, limber/unlimber with an enemy within initiative distance.
    InitiativeDeploy {
        unit: UnitId,
        deploy: Deploy,
    },
    /// Charge the nearest visible enemy within initiative distance.
    InitiativeCharge {
        unit: UnitId,
        target: UnitId,
    },

    // ---- Counter-initiative / response (the charged side) ----
    /// Fire at the charging unit.
    CounterFire {
        unit: UnitId,
    },
    /// The charged unit evades the charger.
    CounterEvade {
        unit: UnitId,
    },
    /// Charged cavalry meet the charge (both count as charging in the first round).
    CounterCharge {
        unit: UnitId,
    },
    /// A charged gun man-handles to face the charge: a pivot of up to 90° (BPT "Charging":
    /// "If charged, artillery may counter initiative by man handling up to 90 degrees to face
    /// a charge"); no other deploy is a counter-initiative.
    CounterDeploy {
        unit: UnitId,
        deploy: Deploy,
    },

    // ---- Command phase (active player) ----
    /// A command roll: `commander` orders `units` as one formation. The order declares
    /// whether any of them will charge or move in dense terrain (each costs −1).
    Order {
        commander: CmdId,
        units: Vec<UnitId>,
        charge: bool,
        dense: bool,
        /// A road order: its units, in march column, travel their entire move along a road,
        /// so the distance modifier does not apply (BPT "Command Modifiers" note 2); any other
        /// move or action under it is refused. Absent in recordings made before it existed.
        #[serde(default, skip_serializing_if = "is_false")]
        road: bool,
    },
    /// An isolated unit orders itself to move towards its nearest commander.
    SelfOrder {
        unit: UnitId,
    },
    /// Move an ordered unit to a new pose (wheel, oblique, about face, retire as the
    /// geometry implies).
    Move {
        unit: UnitId,
        to: Pose,
    },
    Deploy {
        unit: UnitId,
        deploy: Deploy,
    },
    Fire {
        unit: UnitId,
        target: UnitId,
    },
    /// Units of the order in hand fire at one target, all their dice rolled together (BPT
    /// "Firing": "When two or more units are firing at the same target, roll all the dice
    /// together"): one resolution, one suppression test or fall-back. Each spends an action.
    FireTogether {
        unit: UnitId,
        target: UnitId,
        with: Vec<UnitId>,
    },
    Charge {
        unit: UnitId,
        target: UnitId,
    },
    /// Move in support of a friendly unit in a charge (initiative, command or the support window).
    Support {
        unit: UnitId,
        friend: UnitId,
    },
    /// A commander's own move; it issues no more orders this turn.
    CommanderMove {
        commander: CmdId,
        to: V2,
    },

    /// BPT "Engineering" (switch `Engineers`): in the initiative phase, engineers in contact
    /// with linear terrain work on it: clear a fence or hedge, demolish a wall, bridge a river.
    Engineer {
        unit: UnitId,
        /// Index into the table's linear terrain.
        linear: u32,
    },
    /// BPT "Saber Charge" (switch `SaberCharge`): sabre cavalry that may charge now announce
    /// a saber charge: +1 attack per stand in its charges this turn, and no firing.
    DrawSabers {
        unit: UnitId,
    },
    /// BPT "Fixed Formations" (switch `FixedFormations`): the CO's command roll to attach a
    /// unit of his own formation to `hq`'s formation (it is moved to within 10 cm of the HQ).
    Attach {
        unit: UnitId,
        hq: CmdId,
    },
    /// *Glory Days!* "Activation" / "Changing Formation" (switch `InitiativePassing`): roll one
    /// d6 to activate a unit for one action of its `purpose` (a move or support, a deploy, or
    /// a move or charge), declaring the worst terrain the move will go `into` ("Moving
    /// in/into Difficult Terrain +1"). Again only consecutively.
    Activate {
        unit: UnitId,
        purpose: Purpose,
        #[serde(default)]
        into: Ground,
    },
    /// *Glory Days!* "Rallying" (switch `InitiativePassing`): roll to remove one D-marker.
    Rally {
        unit: UnitId,
    },

    // ---- Opportunity fire (inactive player, after an enemy move or fire) ----
    OpportunityFire {
        unit: UnitId,
        target: UnitId,
        /// Further units firing at the same target with `unit`: BPT "When firing multiple
        /// units at a single target, roll all the attacks together" (one resolution).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        with: Vec<UnitId>,
    },

    /// BPT "Consolidate": the unit in the consolidation window moves `to` a pose straight
    /// ahead of it, up to the rules' distance, facing as it likes; its own pose stays.
    Consolidate {
        unit: UnitId,
        to: Pose,
    },

    /// Close a window (counter-initiative, opportunity fire, support) without acting.
    Pass,
    /// End the current phase.
    EndPhase,
}

impl Action {
    /// A short label for logs.
    /// The unit whose decision this is; None for orders, commander moves, pass and end phase.
    pub fn unit(&self) -> Option<UnitId> {
        match self {
            Action::Order { .. } | Action::CommanderMove { .. } | Action::Pass | Action::EndPhase => None,
            Action::InitiativeFire { unit, .. }
            | Action::InitiativeEvade { unit }
            | Action::InitiativeDeploy { unit, .. }
            | Action::InitiativeCharge { unit, .. }
            | Action::Engineer { unit, .. }
            | Action::Attach { unit, .. }
            | Action::DrawSabers { unit }
            | Action::CounterFire { unit }
            | Action::CounterEvade { unit }
            | Action::CounterCharge { unit }
            | Action::CounterDeploy { unit, .. }
            | Action::SelfOrder { unit }
            | Action::Move { unit, .. }
            | Action::Deploy { unit, .. }
            | Action::Fire { unit, .. }
            | Action::Charge { unit, .. }
            | Action::Support { unit, .. }
            | Action::Activate { unit, .. }
            | Action::Rally { unit }
            | Action::FireTogether { unit, .. }
            | Action::Consolidate { unit, .. }
            | Action::OpportunityFire { unit, .. } => Some(*unit),
        }
    }

    /// The unit acting on an order in hand (move, deploy, fire, charge, support).
    /// Every unit and the commander the action names.
    pub fn references(&self) -> (Vec<UnitId>, Option<CmdId>) {
        match self {
            Action::Order { commander, units, .. } => (units.clone(), Some(*commander)),
            Action::CommanderMove { commander, .. } => (Vec::new(), Some(*commander)),
            Action::Attach { unit, hq } => (vec![*unit], Some(*hq)),
            Action::InitiativeFire { unit, target }
            | Action::InitiativeCharge { unit, target }
            | Action::Fire { unit, target }
            | Action::Charge { unit, target }
            | Action::Support { unit, friend: target } => (vec![*unit, *target], None),
            Action::OpportunityFire { unit, target, with } | Action::FireTogether { unit, target, with } => {
                let mut v = vec![*unit, *target];
                v.extend(with);
                (v, None)
            }
            _ => (self.unit().into_iter().collect(), None),
        }
    }

    pub fn ordered_unit(&self) -> Option<UnitId> {
        match self {
            Action::Move { unit, .. }
            | Action::Deploy { unit, .. }
            | Action::Fire { unit, .. }
            | Action::FireTogether { unit, .. }
            | Action::Charge { unit, .. }
            | Action::DrawSabers { unit }
            | Action::Support { unit, .. } => Some(*unit),
            _ => None,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Action::InitiativeFire { .. } => "initiative fire",
            Action::InitiativeEvade { .. } => "initiative evade",
            Action::InitiativeDeploy { .. } => "initiative deploy",
            Action::InitiativeCharge { .. } => "initiative charge",
            Action::Engineer { .. } => "engineer task",
            Action::CounterFire { .. } => "counter-initiative fire",
            Action::CounterEvade { .. } => "counter-initiative evade",
            Action::CounterCharge { .. } => "counter-charge",
            Action::CounterDeploy { .. } => "counter-initiative man-handling",
            Action::Order { .. } => "order",
            Action::SelfOrder { .. } => "self-order",
            Action::Move { .. } => "move",
            Action::Deploy { .. } => "deploy",
            Action::Fire { .. } => "fire",
            Action::FireTogether { .. } => "fire together",
            Action::Charge { .. } => "charge",
            Action::Support { .. } => "support",
            Action::CommanderMove { .. } => "commander move",
            Action::OpportunityFire { .. } => "opportunity fire",
            Action::Activate { .. } => "activate",
            Action::Rally { .. } => "rally",
            Action::Attach { .. } => "attach",
            Action::DrawSabers { .. } => "saber charge",
            Action::Consolidate { .. } => "consolidate",
            Action::Pass => "pass",
            Action::EndPhase => "end phase",
        }
    }
}

/// Why an action was refused: the rule that forbids it, and what was wrong.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Refusal {
    /// The book section, e.g. "BPT Command Phase".
    pub rule: Cow<'static, str>,
    /// What was wrong; empty for a refusal made while the legal-action listing runs
    /// ([`quietly`]), which asks only whether an action is allowed.
    pub reason: Cow<'static, str>,
}

impl Refusal {
    pub fn new(rule: &'static str, reason: impl Into<Cow<'static, str>>) -> Self {
        Refusal {
            rule: Cow::Borrowed(rule),
            reason: reason.into(),
        }
    }

    /// A refusal whose words are worked out only when someone may read them: not while the
    /// listing runs ([`quietly`]; issue 66's speed: wording every refused candidate was a
    /// tenth of the listing's time).
    pub fn with(rule: &'static str, reason: impl FnOnce() -> String) -> Self {
        let reason = if QUIET.get() {
            Cow::Borrowed("")
        } else {
            Cow::Owned(reason())
        };
        Refusal {
            rule: Cow::Borrowed(rule),
            reason,
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.reason, self.rule)
    }
}

impl std::error::Error for Refusal {}

/// Shorthand for returning a refusal.
pub fn refuse<T>(rule: &'static str, reason: impl Into<Cow<'static, str>>) -> Result<T, Refusal> {
    Err(Refusal::new(rule, reason))
}

/// Shorthand for returning a refusal worded only when it may be read ([`Refusal::with`]).
pub fn refuse_with<T>(rule: &'static str, reason: impl FnOnce() -> String) -> Result<T, Refusal> {
    Err(Refusal::with(rule, reason))
}

thread_local! {
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Run `f` with refusals left unworded ([`Refusal::with`]): for asking only whether actions
/// are allowed, as the legal-action listing does. What is allowed is the same either way;
/// only the words of a refusal, which nobody reads here, are spared.
pub fn quietly<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            QUIET.set(self.0);
        }
    }
    let _restore = Restore(QUIET.replace(true));
    f()
}

/// For `skip_serializing_if`: a `false` flag is left out, so actions without it serialize as
/// they did before the flag existed.
fn is_false(b: &bool) -> bool {
    !*b
}

#[cfg(test)]
mod display_tests {
    use super::*;

    #[test]
    fn deploys_read_as_words_not_debug_output() {
        assert_eq!(
            Deploy::Formation(Formation::AttackColumn).to_string(),
            "form attack column"
        );
        assert_eq!(Deploy::Pivot(1.2029246563837432).to_string(), "pivot to face 69°");
        assert_eq!(
            Deploy::Pivot(-std::f64::consts::FRAC_PI_2).to_string(),
            "pivot to face 270°"
        );
        assert_eq!(Deploy::Load(Ammo::Canister).to_string(), "load canister");
        assert_eq!(
            Deploy::RefuseFlank {
                left: true,
                right: false
            }
            .to_string(),
            "refuse the left flank"
        );
    }
}
