//! Saving the document: only what `volley check` accepts, atomically.
//!
//! A document with problems ([`problems`]) is not saved. Otherwise its text
//! ([`write_scenario`], the original's comments kept) is written to a temporary file beside
//! the target, synced, checked as `volley check` checks a scenario (read back from the disk
//! with [`crate::data::load_scenario`]), and only then renamed over the target
//! ([`crate::replay::save_atomically_checked`], the helper saved games use). Whatever fails,
//! the temporary file is removed and the target left as it was.

use super::Doc;
use super::problems::problems;
use super::write::write_scenario;
use crate::data::scenario::Scenario;
use std::path::Path;

/// The most problems listed when a save is refused.
pub const MAX_LISTED: usize = 20;

/// Saves the document at `path` (its folder made if missing), and marks it saved there.
///
/// Refused, with nothing written, when the document has problems: the error lists them, one a
/// line, `line:col: message` (lines of the text the document would be saved as). A document
/// unchanged since it was opened or saved at `path` is not written again.
pub fn save(doc: &mut Doc, path: &Path) -> Result<(), String> {
    let found = problems(doc, MAX_LISTED);
    if !found.is_empty() {
        let lines: Vec<String> = found.iter().map(|p| format!("{}:{}: {}", p.line, p.col, p.msg)).collect();
        return Err(lines.join("\n"));
    }
    if !doc.dirty() && doc.original.is_some() && path == doc.path {
        return Ok(());
    }
    let text = write_scenario(&doc.scenario, doc.original.as_deref()).text;
    let back = crate::data::parse_ron::<Scenario>(&text, path).map_err(|e| e.to_string())?;
    if back != doc.scenario {
        return Err(format!(
            "cannot save {}: the scenario does not read back the same as it was written",
            path.display()
        ));
    }
    let armies_dir = crate::assets_dir().join("armies");
    let fp = doc.footprints;
    crate::replay::save_atomically_checked(path, text.as_bytes(), |tmp| {
        crate::data::load_scenario(tmp, &armies_dir, &fp)
            .map(|_| ())
            .map_err(|e| std::io::Error::other(format!("the file written does not pass the check: {e}")))
    })
    .map_err(|e| format!("cannot save {}: {e}", path.display()))?;
    doc.mark_saved(path, text);
    Ok(())
}
