//! The rules file (`assets/rules/<stem>.ron`): where the assets are, loading it with its
//! content hash, refusing numbers the game cannot play, and the footprints the scenario
//! validator takes from it.

use super::{DataError, Footprints, content_hash, load::read_text, locate, parse_ron};
use crate::rules;
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
pub fn load_rules(stem: Option<&str>) -> Result<rules::params::Rules, DataError> {
    let path = assets_dir()
        .join("rules")
        .join(format!("{}.ron", stem.unwrap_or("bpt")));
    let text = read_text(&path)?;
    let mut rules: rules::params::Rules = parse_ron(&text, &path)?;
    // The numbers, not the comments or the layout: a reworded comment changes nothing.
    rules.content_hash = content_hash(ron::ser::to_string(&rules).unwrap_or_default().as_bytes());
    check_rules(&rules, &path)?;
    Ok(rules)
}

/// Refuse rule numbers the game cannot play with, naming the place in the file.
pub fn check_rules(rules: &rules::params::Rules, path: &Path) -> Result<(), DataError> {
    if let Some((field, msg)) = rules.problems() {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let (line, col) = locate(&text, &format!("{field}:"));
        return Err(DataError::new(path, line, col, msg));
    }
    Ok(())
}

/// The footprints the scenario validator uses, from the rules file.
pub fn footprints(r: &rules::params::Rules) -> Footprints {
    let f = &r.footprints;
    let s = |x: rules::params::Shape| rules::layout::StandShape {
        width: x.width,
        depth: x.depth,
    };
    Footprints {
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
