//! Volley: *Black Powder Tactical Commander* with *Hardtack*'s artillery, as a Bevy game.
//!
//! Data flows one way: input → action → rules → events → state → picture.
//! - [`rules`]: pure maths (geometry, dice and exact odds, line of sight, layouts, parameters).
//! - [`data`]: RON files (rules, army lists, scenarios) with `file:line:col` errors.
//! - [`battle`]: the state, the one action pipeline, the phases, legal actions, the ECS mirror.
//! - [`agents`]: programs that play a side.
//! - [`sim`]: whole games headless, the way `volley simulate` plays them.

pub mod agents;
pub mod battle;
pub mod data;
pub mod replay;
pub mod rules;
pub mod sim;
pub mod terminal;
#[cfg(feature = "gui")]
pub mod ui;

use std::path::{Path, PathBuf};

/// The project's asset folder: `./assets` when run from the project, else the build's own.
pub fn assets_dir() -> PathBuf {
    let local = PathBuf::from("assets");
    if local.join("rules").is_dir() {
        local
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
    }
}

/// Rules file by stem (default `bpt`).
pub fn load_rules(stem: Option<&str>) -> Result<rules::params::Rules, data::DataError> {
    let path = assets_dir()
        .join("rules")
        .join(format!("{}.ron", stem.unwrap_or("bpt")));
    let text = data::load::read_text(&path)?;
    let mut rules: rules::params::Rules = data::parse_ron(&text, &path)?;
    // The numbers, not the comments or the layout: a reworded comment changes nothing.
    rules.content_hash = data::content_hash(ron::ser::to_string(&rules).unwrap_or_default().as_bytes());
    check_rules(&rules, &path)?;
    Ok(rules)
}

/// Refuse rule numbers the game cannot play with, naming the place in the file.
pub fn check_rules(rules: &rules::params::Rules, path: &Path) -> Result<(), data::DataError> {
    if let Some((field, msg)) = rules.problems() {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let (line, col) = data::locate(&text, &format!("{field}:"));
        return Err(data::DataError::new(path, line, col, msg));
    }
    Ok(())
}

/// The footprints the scenario validator uses, from the rules file.
pub fn footprints(r: &rules::params::Rules) -> data::Footprints {
    let f = &r.footprints;
    let s = |x: rules::params::Shape| rules::layout::StandShape {
        width: x.width,
        depth: x.depth,
    };
    data::Footprints {
        infantry: s(f.infantry),
        cavalry: s(f.cavalry),
        gun: s(f.gun),
        limber: s(f.limber),
        command_stand: s(f.command_stand),
        commander_diameter: f.commander_diameter,
        extended_gap: f.extended_gap,
        skirmish_gap: f.skirmish_gap,
    }
}

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
    if let Some(s) = rules.switches.unplayable() {
        let text = std::fs::read_to_string(scenario).unwrap_or_default();
        let (line, col) = if loaded.scenario.switches.on(s) {
            data::locate(&text, "switches")
        } else {
            (0, 0)
        };
        return Err(data::DataError::new(
            scenario,
            line,
            col,
            format!(
                "the optional rule {s} ({}) is not played by this version yet",
                s.title()
            ),
        ));
    }
    Ok(battle::Battle::new(&loaded, rules, seed))
}
