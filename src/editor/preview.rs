//! The battle the document would start: the editor's table is drawn from it, by the same
//! drawing as play, so what is authored is what is played.

use super::Doc;
use crate::battle::{Battle, Event};
use crate::data::validate::LoadedScenario;

/// What the battle needs of a scenario to be built at all (every name it looks up is there);
/// the rest of the validator's checks are [`super::problems`]'s. `None` when it can be built.
/// Said with the pieces' names ([`super::names`]); a row the army list lacks is quoted as the
/// file has it (it names nothing).
pub fn unbuildable(doc: &Doc) -> Option<String> {
    use super::names::{commander_words, unit_words};
    let sc = &doc.scenario;
    if sc.sides.len() != 2 || doc.armies.len() != 2 {
        return Some("a scenario has two sides".into());
    }
    // Each commander id seen so far: its side and index.
    let mut ids = std::collections::BTreeMap::new();
    for (s, side) in sc.sides.iter().enumerate() {
        let army = &doc.armies[s];
        for (i, c) in side.commanders.iter().enumerate() {
            if army.command(&c.row).is_none() {
                return Some(format!(
                    "{}: no command row \"{}\" in {}",
                    commander_words(sc, s, i),
                    c.row,
                    army.name
                ));
            }
            if let Some(&(s0, i0)) = ids.get(c.id.as_str()) {
                return Some(format!(
                    "{} and {} have one id in the file: each commander needs an id of his own",
                    commander_words(sc, s0, i0),
                    commander_words(sc, s, i)
                ));
            }
            ids.insert(c.id.as_str(), (s, i));
        }
        for (i, u) in side.units.iter().enumerate() {
            if army.troop(&u.row).is_none() {
                return Some(format!(
                    "{}: no troop row \"{}\" in {}",
                    unit_words(sc, s, i),
                    u.row,
                    army.name
                ));
            }
            if !side.commanders.iter().any(|c| c.id == u.commander) {
                return Some(format!(
                    "{} answers to no commander of the {}",
                    unit_words(sc, s, i),
                    side.name
                ));
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
