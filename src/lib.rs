//! Volley: *Black Powder Tactical Commander* with *Hardtack*'s artillery, as a Bevy game.
//!
//! Data flows one way: input → action → rules → events → state → picture.
//! - [`rules`]: pure maths (geometry, dice and exact odds, line of sight, layouts, parameters).
//! - [`data`]: RON files (rules, army lists, scenarios) with `file:line:col` errors.
//! - [`battle`]: the state, the one action pipeline, the phases, legal actions.
//! - [`view`]: the battle as one side may know it (what the agents, terminal and window read).
//! - [`app`]: the Bevy side: the battle as a world of entities, its plugins and system sets.
//! - [`agents`]: programs that play a side.
//! - [`sim`]: whole games headless, the way `volley simulate` plays them.
//! - [`cli`]: the `volley` command line, one file a command.

pub mod agents;
pub mod app;
pub mod battle;
pub mod cli;
pub mod data;
pub mod editor;
pub mod replay;
pub mod report;
pub mod rules;
pub mod server;
pub mod sim;
pub mod terminal;
#[cfg(feature = "gui")]
pub mod ui;
pub mod view;

use std::path::Path;

pub use data::rules_file::{assets_dir, check_rules, footprints, load_rules};

/// Load a scenario and its rules and start a battle with `seed`.
pub fn load_battle(scenario: &Path, seed: u64) -> Result<(battle::Battle, Vec<battle::Event>), data::DataError> {
    load_battle_with(scenario, seed, &rules::switches::Switches::default())
}

/// [`load_battle`] with optional rules turned on besides those of the rules file and the
/// scenario (the battle plays all of them). A switch the game does not play yet is an error.
pub fn load_battle_with(
    scenario: &Path,
    seed: u64,
    extra: &rules::switches::Switches,
) -> Result<(battle::Battle, Vec<battle::Event>), data::DataError> {
    let base_rules = load_rules(None)?;
    let loaded = data::load_scenario(scenario, &assets_dir().join("armies"), &footprints(&base_rules))?;
    let mut rules = match loaded.scenario.rules.as_deref() {
        Some(stem) => load_rules(Some(stem))?,
        None => base_rules,
    };
    rules.switches = rules.switches.union(&loaded.scenario.switches).union(extra);
    // A switch not played yet, or two that cannot be played together (issue 64): refused,
    // pointed at the scenario's `switches` when it turned one of them on.
    let refusal = match (rules.switches.unplayable(), rules.switches.clash()) {
        (Some(s), _) => Some((
            vec![s],
            format!(
                "the optional rule {s} ({}) is not played by this version yet",
                s.title()
            ),
        )),
        (None, Some((a, b))) => Some((vec![a, b], rules::switches::clash_words(a, b))),
        (None, None) => None,
    };
    if let Some((named, why)) = refusal {
        let text = data::load::read_text(scenario).unwrap_or_default();
        let (line, col) = if named.iter().any(|s| loaded.scenario.switches.on(*s)) {
            data::locate(&text, "switches")
        } else {
            (0, 0)
        };
        return Err(data::DataError::new(scenario, line, col, why));
    }
    Ok(battle::Battle::new(&loaded, rules, seed))
}
