//! The battle the document would start: the editor's table is drawn from it, by the same
//! drawing as play, so what is authored is what is played.

use super::Doc;
use crate::battle::{Battle, Event};
use crate::data::validate::LoadedScenario;

/// What the battle needs of a scenario to be built at all (every name it looks up is there);
/// the rest of the validator's checks are [`super::problems`]'s. `None` when it can be built.
pub fn unbuildable(doc: &Doc) -> Option<String> {
    let sc = &doc.scenario;
    if sc.sides.len() != 2 || doc.armies.len() != 2 {
        return Some("a scenario has two sides".into());
    }
    let mut ids = std::collections::BTreeSet::new();
    for (s, side) in sc.sides.iter().enumerate() {
        let army = &doc.armies[s];
        for c in &side.commanders {
            if army.command(&c.row).is_none() {
                return Some(format!("commander {}: no row \"{}\" in {}", c.id, c.row, army.name));
            }
            if !ids.insert(c.id.as_str()) {
                return Some(format!("two commanders are called {}", c.id));
            }
        }
        for u in &side.units {
            if army.troop(&u.row).is_none() {
                return Some(format!("unit {}: no row \"{}\" in {}", u.id, u.row, army.name));
            }
            if !side.commanders.iter().any(|c| c.id == u.commander) {
                return Some(format!("unit {}: no commander {} on its side", u.id, u.commander));
            }
        }
    }
    None
}

/// The battle at its start with `seed`, or why it cannot be built.
pub fn preview(doc: &Doc, seed: u64) -> Result<(Battle, Vec<Event>), String> {
    if let Some(why) = unbuildable(doc) {
        return Err(why);
    }
    // The battle keeps only the content hash of the file; the document has no file yet, so it
    // stands in the hash of its path (writing the RON to hash it would cost most of the
    // preview: 5.5 of 6 ms on Gettysburg, `benches/editor.rs`).
    let loaded = LoadedScenario {
        path: doc.path.clone(),
        content_hash: crate::data::content_hash(doc.path.display().to_string().as_bytes()),
        text: String::new(),
        scenario: doc.scenario.clone(),
        armies: doc.armies.clone(),
    };
    let mut rules = doc.rules.clone();
    rules.switches = rules.switches.union(&doc.scenario.switches);
    Ok(Battle::new(&loaded, rules, seed))
}
