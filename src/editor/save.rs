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
        let lines: Vec<String> = found
            .iter()
            .map(|p| format!("{}:{}: {}", p.line, p.col, p.msg))
            .collect();
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A fresh folder with a copy of a bundled map in it.
    fn folder(name: &str) -> (PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!("volley-editor-save-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let map = dir.join("skirmish.ron");
        std::fs::copy("maps/skirmish.ron", &map).unwrap();
        (dir, map)
    }

    fn temp_files(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn a_doc_with_problems_is_not_saved_and_the_file_is_untouched() {
        let (dir, map) = folder("refused");
        let before = std::fs::read(&map).unwrap();
        let mut doc = Doc::open(&map).unwrap();
        doc.edit(|s| s.sides[0].units[1].pos = s.sides[0].units[0].pos).unwrap();
        let e = save(&mut doc, &map).unwrap_err();
        let p = &problems(&doc, 1)[0];
        assert_eq!(
            e,
            format!(
                "{}:{}: overlapping stands: 20th Maine and 83rd Pennsylvania",
                p.line, p.col
            )
        );
        assert_eq!(std::fs::read(&map).unwrap(), before);
        assert!(temp_files(&dir).is_empty());
        assert!(doc.dirty());
        // Elsewhere neither.
        assert!(save(&mut doc, &dir.join("other.ron")).is_err());
        assert!(!dir.join("other.ron").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_valid_doc_is_saved_where_volley_check_accepts_it() {
        let (dir, map) = folder("saved");
        let mut doc = Doc::open(&map).unwrap();
        doc.edit(|s| {
            s.title = "Miller's Crossroads, again".into();
            s.sides[0].units[0].pos.x -= 2.0;
        })
        .unwrap();
        // Into a folder that is not there yet.
        let out = dir.join("new").join("sub").join("again.ron");
        save(&mut doc, &out).unwrap();
        let r = crate::data::check::check_file(&out).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.title.as_deref(), Some("Miller's Crossroads, again"));
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.starts_with("// The bundled default scenario: a brigade-sized ACW action"));
        assert_eq!(doc.original.as_deref(), Some(text.as_str()));
        assert_eq!((doc.path.as_path(), doc.dirty()), (out.as_path(), false));
        assert_eq!(Doc::open(&out).unwrap().scenario, doc.scenario);
        assert!(temp_files(out.parent().unwrap()).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unchanged_doc_is_not_written_again() {
        let (dir, map) = folder("unchanged");
        let mut doc = Doc::open(&map).unwrap();
        // Changed on the disk since: a save of the unchanged document leaves it.
        let mut text = std::fs::read_to_string(&map).unwrap();
        text.push_str("// Added by hand.\n");
        std::fs::write(&map, &text).unwrap();
        save(&mut doc, &map).unwrap();
        assert_eq!(std::fs::read_to_string(&map).unwrap(), text);
        // Saved elsewhere, it is written.
        let other = dir.join("other.ron");
        save(&mut doc, &other).unwrap();
        assert!(crate::data::check::check_file(&other).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_save_leaves_no_temporary_file_and_the_target_as_it_was() {
        let (dir, map) = folder("failed");
        let before = std::fs::read(&map).unwrap();
        let mut doc = Doc::open(&map).unwrap();
        // A troop row the army list in memory has and the file does not: the editor finds no
        // problem, the check of the file written does.
        let mut row = doc.armies[0].troops[0].clone();
        row.id = "phantom_row".into();
        doc.armies[0].troops.push(row);
        doc.edit(|s| s.sides[0].units[0].row = "phantom_row".into()).unwrap();
        assert!(problems(&doc, 5).is_empty());
        let e = save(&mut doc, &map).unwrap_err();
        assert!(
            e.contains("does not pass the check") && e.contains("phantom_row"),
            "{e}"
        );
        assert_eq!(std::fs::read(&map).unwrap(), before);
        assert!(temp_files(&dir).is_empty());
        assert!(doc.dirty());
        // A folder where the file would go: the rename fails.
        doc.edit(|s| s.sides[0].units[0].row = "regular_infantry_rifled".into())
            .unwrap();
        let blocked = dir.join("blocked.ron");
        std::fs::create_dir(&blocked).unwrap();
        assert!(save(&mut doc, &blocked).is_err());
        assert!(blocked.is_dir() && temp_files(&dir).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
