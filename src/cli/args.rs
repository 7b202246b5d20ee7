//! What several commands read the same way: the optional rules, `NAME=AGENT` sides, game
//! counts and seeds.

use crate::battle::Battle;
use crate::rules::switches::Switches;

/// The scenario `play`, `match`, `edit` and the window open when none is named.
pub(super) const DEFAULT_SCENARIO: &str = "maps/skirmish.ron";

// `--rule`, repeated or with commas (a plain comment: a doc comment would be the `about` of
// the command it is flattened into).
#[derive(clap::Args, Debug, Default)]
pub(super) struct Rules {
    /// Optional rules and variants to play with, by name, repeated or with commas:
    /// weather, morale-grades, saber-charge, air-burst, prone, fixed-formations, scouting,
    /// constructions, engineers, multi-national, order-delay, initiative-passing.
    #[arg(long = "rule")]
    pub rules: Vec<String>,
}

impl Rules {
    /// The names as switches (a wrong name is refused with the list).
    pub fn switches(&self) -> Result<Switches, String> {
        Switches::parse_list(&self.rules)
    }
}

/// Parse `NAME=AGENT` pairs against the battle's side names.
pub(super) fn side_agents(b: &Battle, sides: &[String], default: &str) -> Result<[String; 2], String> {
    let mut out = [default.to_string(), default.to_string()];
    let mut seen = std::collections::BTreeSet::new();
    for s in sides {
        let (name, agent) = s
            .split_once('=')
            .ok_or_else(|| format!("--side wants NAME=AGENT, not '{s}'"))?;
        let i = (0..2)
            .find(|&i| b.sides[i].name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "no side named '{name}' (sides: {}, {})",
                    b.sides[0].name, b.sides[1].name
                )
            })?;
        if !seen.insert(i) {
            return Err(format!("--side {} is given twice", b.sides[i].name));
        }
        out[i] = agent.to_string();
    }
    Ok(out)
}

/// The most games `balance` and `match` play in one run (a run of 100,000 skirmish games with
/// the scheduler takes hours on two cores already).
const MAX_GAMES: u64 = 100_000;

/// `--games` and `--first-seed` of `balance` and `match`: 1 to [`MAX_GAMES`] games, from a
/// seed of 1 or more that leaves room for them.
pub(super) fn check_games_and_seed(games: u64, first: u64) -> Result<(), String> {
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(format!("--games must be 1 to {MAX_GAMES}, not {games}"));
    }
    if !(1..=u64::MAX - MAX_GAMES).contains(&first) {
        return Err(format!(
            "--first-seed must be 1 or more (and leave room for the games), not {first}"
        ));
    }
    Ok(())
}
