//! The scenario being edited: the scenario itself, its sides' army lists, the file it came
//! from, and undo and redo of every edit (whole-scenario snapshots: a scenario is a few
//! kilobytes, and a snapshot cannot get an edit's inverse wrong).

use crate::data::army::ArmyList;
use crate::data::scenario::{Scenario, SideSpec, TableSize};
use crate::data::validate::Footprints;
use crate::data::{DataError, load_army, parse_ron};
use crate::rules::params::Rules;
use std::path::{Path, PathBuf};

/// The most edits kept for undo.
pub const UNDO_DEPTH: usize = 500;

/// A scenario in the editor.
#[derive(Clone, Debug)]
pub struct Doc {
    pub scenario: Scenario,
    /// One army list per side (by the side's `army` stem).
    pub armies: Vec<ArmyList>,
    /// Where it is saved.
    pub path: PathBuf,
    /// The file's text as opened or last saved (its comments are carried into the next save).
    pub original: Option<String>,
    /// The scenario as opened or last saved: the document is dirty when it differs.
    saved: Option<Scenario>,
    undo: Vec<Scenario>,
    redo: Vec<Scenario>,
    /// Counts every change (edits, undo, redo): what is drawn from the document follows it.
    pub version: u64,
    pub rules: Rules,
    pub footprints: Footprints,
}

/// A file for a new scenario in `maps/` that does not exist yet: `{stem}.ron`, `{stem}_2.ron`, …
pub fn unused_path(stem: &str) -> PathBuf {
    let at = |name: String| Path::new("maps").join(name);
    std::iter::once(at(format!("{stem}.ron")))
        .chain((2..).map(|n| at(format!("{stem}_{n}.ron"))))
        .find(|p| !p.exists())
        .expect("unbounded")
}

/// The army lists the editor offers: the file stems in `assets/armies/`.
pub fn army_stems() -> Vec<String> {
    let dir = crate::assets_dir().join("armies");
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter_map(|e| {
                    let p = e.path();
                    (p.extension()? == "ron").then(|| p.file_stem()?.to_str().map(str::to_string))?
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The army lists the editor offers, each with its name as a player reads it ("ACW Union
/// Army"): (file stem, name), read once. A list that does not load is offered by its stem.
pub fn army_names() -> &'static [(String, String)] {
    static NAMES: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let dir = crate::assets_dir().join("armies");
        army_stems()
            .into_iter()
            .map(|stem| {
                let name = load_army(&dir.join(format!("{stem}.ron"))).map_or_else(|_| stem.clone(), |a| a.name);
                (stem, name)
            })
            .collect()
    })
}

fn load_armies(sc: &Scenario) -> Result<Vec<ArmyList>, DataError> {
    let dir = crate::assets_dir().join("armies");
    sc.sides
        .iter()
        .map(|s| {
            let stem = &s.army;
            if stem.is_empty() || !stem.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                return Err(DataError::whole_file(
                    &dir,
                    format!("army \"{stem}\" must be a file stem in assets/armies/"),
                ));
            }
            load_army(&dir.join(format!("{stem}.ron")))
        })
        .collect()
}

impl Doc {
    fn with(scenario: Scenario, path: PathBuf, original: Option<String>) -> Result<Doc, DataError> {
        let armies = load_armies(&scenario)?;
        let rules = crate::load_rules(None)?;
        let footprints = crate::footprints(&rules);
        let saved = original.is_some().then(|| scenario.clone());
        Ok(Doc {
            scenario,
            armies,
            path,
            original,
            saved,
            undo: Vec::new(),
            redo: Vec::new(),
            version: 0,
            rules,
            footprints,
        })
    }

    /// A new scenario: an empty table of `table` size, two sides with one commander each
    /// (the CO, placed on his edge), to be saved at `path`.
    pub fn blank(title: &str, table: TableSize, armies: [&str; 2], path: PathBuf) -> Result<Doc, DataError> {
        let names = ["Union", "Confederate"];
        let sides = (0..2)
            .map(|s| SideSpec {
                name: if armies[s].contains("british") {
                    "British".into()
                } else if armies[s].contains("french") {
                    "French".into()
                } else {
                    names[s].into()
                },
                army: armies[s].into(),
                deployment: None,
                commanders: Vec::new(),
                units: Vec::new(),
                obeys: Default::default(),
            })
            .collect();
        let scenario = Scenario {
            title: title.into(),
            brief: String::new(),
            table,
            weather: Default::default(),
            wet_ground: false,
            night: false,
            historical: false,
            switches: Default::default(),
            turn_limit: 8,
            decide_on_points: false,
            first_side: 0,
            rules: None,
            terrain: Default::default(),
            objectives: Vec::new(),
            sides,
        };
        let mut doc = Doc::with(scenario, path, None)?;
        for s in 0..2 {
            let row = doc.armies[s]
                .commands
                .iter()
                .find(|c| matches!(c.level, crate::data::army::CommandLevel::Brigade))
                .or(doc.armies[s].commands.first())
                .map(|c| c.id.clone())
                .unwrap_or_default();
            let y = if s == 0 { 8.0 } else { table.height - 8.0 };
            let name = format!("{} commander", doc.scenario.sides[s].name);
            doc.scenario.sides[s]
                .commanders
                .push(crate::data::scenario::CommanderSpec {
                    id: format!("s{s}_co"),
                    name,
                    row,
                    superior: None,
                    pos: crate::rules::geometry::V2::new(table.width * 0.5, y),
                    mounted: true,
                    nation: None,
                    formation: None,
                });
        }
        Ok(doc)
    }

    /// Opens a scenario file. It must parse (its syntax and types); what the validator would
    /// refuse opens, to be put right in the editor.
    pub fn open(path: &Path) -> Result<Doc, DataError> {
        let text = crate::data::load::read_text(path)?;
        let scenario: Scenario = parse_ron(&text, path)?;
        if scenario.sides.len() != 2 {
            return Err(DataError::whole_file(
                path,
                format!("a scenario has two sides, this one {}", scenario.sides.len()),
            ));
        }
        Doc::with(scenario, path.to_path_buf(), Some(text))
    }

    /// Whether it differs from the file (or was never saved).
    pub fn dirty(&self) -> bool {
        self.saved.as_ref() != Some(&self.scenario)
    }

    /// One edit: what it changes can be undone in one step. An edit that changes nothing
    /// leaves no undo step. A change of a side's army list reloads the lists; if one cannot
    /// be loaded the edit is undone and the error returned.
    pub fn edit<R>(&mut self, f: impl FnOnce(&mut Scenario) -> R) -> Result<R, String> {
        let before = self.scenario.clone();
        let r = f(&mut self.scenario);
        if self.scenario == before {
            return Ok(r);
        }
        if let Err(e) = self.after_change(&before) {
            self.scenario = before;
            return Err(e);
        }
        self.undo.push(before);
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.version += 1;
        Ok(r)
    }

    /// Starts a gesture (a drag) made of many small changes that undo as one: the state
    /// before it is kept for undo now, and [`Doc::live`] changes it without new steps.
    pub fn begin_gesture(&mut self) {
        self.undo.push(self.scenario.clone());
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Ends a gesture: one that changed nothing leaves no undo step.
    pub fn end_gesture(&mut self) {
        if self.undo.last() == Some(&self.scenario) {
            self.undo.pop();
        }
    }

    /// Changes the scenario inside a gesture (no undo step of its own).
    pub fn live(&mut self, f: impl FnOnce(&mut Scenario)) {
        f(&mut self.scenario);
        self.version += 1;
    }

    fn after_change(&mut self, before: &Scenario) -> Result<(), String> {
        let stems = |s: &Scenario| s.sides.iter().map(|x| x.army.clone()).collect::<Vec<_>>();
        if stems(before) != stems(&self.scenario) {
            self.armies = load_armies(&self.scenario).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Takes back the last edit.
    pub fn undo(&mut self) -> bool {
        let Some(prev) = self.undo.pop() else { return false };
        let now = std::mem::replace(&mut self.scenario, prev);
        let _ = self.after_change(&now);
        self.redo.push(now);
        self.version += 1;
        true
    }

    /// Makes the last undone edit again.
    pub fn redo(&mut self) -> bool {
        let Some(next) = self.redo.pop() else { return false };
        let now = std::mem::replace(&mut self.scenario, next);
        let _ = self.after_change(&now);
        self.undo.push(now);
        self.version += 1;
        true
    }

    /// Marks the document saved as `text` at `path`.
    pub fn mark_saved(&mut self, path: &Path, text: String) {
        self.path = path.to_path_buf();
        self.original = Some(text);
        self.saved = Some(self.scenario.clone());
    }

    /// A unit or commander id not yet used in the scenario: `{stem}`, `{stem}_2`, …
    pub fn fresh_id(&self, stem: &str) -> String {
        let used = |id: &str| {
            self.scenario
                .sides
                .iter()
                .any(|s| s.units.iter().any(|u| u.id == id) || s.commanders.iter().any(|c| c.id == id))
        };
        if !used(stem) {
            return stem.to_string();
        }
        (2..)
            .map(|n| format!("{stem}_{n}"))
            .find(|id| !used(id))
            .expect("unbounded")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::V2;

    fn blank() -> Doc {
        Doc::blank(
            "T",
            TableSize::default(),
            ["acw_union", "acw_confederate"],
            PathBuf::from("x.ron"),
        )
        .unwrap()
    }

    #[test]
    fn edits_undo_and_redo_in_order() {
        let mut d = blank();
        assert!(d.dirty() && !d.can_undo());
        d.edit(|s| s.title = "A".into()).unwrap();
        d.edit(|s| s.turn_limit = 5).unwrap();
        // An edit that changes nothing is no step.
        d.edit(|s| s.turn_limit = 5).unwrap();
        assert!(d.undo());
        assert_eq!((d.scenario.title.as_str(), d.scenario.turn_limit), ("A", 8));
        assert!(d.redo());
        assert_eq!(d.scenario.turn_limit, 5);
        assert!(d.undo() && d.undo() && !d.undo());
        assert_eq!(d.scenario.title, "T");
        // A gesture of many moves undoes at once.
        d.begin_gesture();
        for k in 0..5 {
            d.live(|s| s.sides[0].commanders[0].pos = V2::new(k as f64, 1.0));
        }
        d.end_gesture();
        assert!(d.undo());
        assert_eq!(d.scenario.sides[0].commanders[0].pos, V2::new(120.0, 8.0));
        // A new edit clears what could be redone.
        d.edit(|s| s.title = "B".into()).unwrap();
        assert!(!d.can_redo());
    }

    #[test]
    fn a_missing_army_list_is_refused_and_the_edit_undone() {
        let mut d = blank();
        let e = d.edit(|s| s.sides[1].army = "no_such_army".into()).unwrap_err();
        assert!(e.contains("no_such_army"), "{e}");
        assert_eq!(d.scenario.sides[1].army, "acw_confederate");
        assert!(!d.can_undo());
        d.edit(|s| s.sides[1].army = "nap_french".into()).unwrap();
        assert_eq!(
            d.armies[1].name,
            crate::data::load_army(&crate::assets_dir().join("armies/nap_french.ron"))
                .unwrap()
                .name
        );
    }

    #[test]
    fn every_bundled_scenario_opens() {
        for e in std::fs::read_dir("maps").unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_none_or(|x| x != "ron") {
                continue; // maps/history/: earlier versions, kept for old recordings
            }
            let d = Doc::open(&p).unwrap_or_else(|e| panic!("{e}"));
            assert!(!d.dirty(), "{}", p.display());
        }
    }
}
