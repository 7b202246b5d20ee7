//! The editor's state (`Editor`): the document and how it is being worked on (the tool, the
//! selection, the outline being drawn, the drag, the drafts of what is placed next, the
//! problems found, the status line).

use crate::data::army::CommandLevel;
use crate::data::scenario::{Ammo, Grade, ObjectiveLevel};
use crate::editor::problems::Problem;
use crate::editor::{Doc, Piece, Vertex};
use crate::rules::formation::Formation;
use crate::rules::geometry::V2;
use crate::rules::terrain::{AreaKind, LinearKind, Material};
use bevy::prelude::*;

/// What a click on the table does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Tool {
    /// Pick a piece; drag it or its points; Delete removes.
    #[default]
    Select,
    /// Draw area terrain of this kind point by point.
    Area(AreaKind),
    /// Draw linear terrain of this kind point by point.
    Linear(LinearKind),
    /// Draw a hill's contour (a new hill, or the next contour of the selected hill).
    Hill,
    /// Draw the deployment zone of the side in the drafts.
    Deployment,
    /// Place a building, an objective, a unit or a commander as the drafts say.
    Building,
    Objective,
    Unit,
    Commander,
}

impl Tool {
    /// Tools that draw an outline point by point.
    pub fn draws(self) -> bool {
        matches!(self, Tool::Area(_) | Tool::Linear(_) | Tool::Hill | Tool::Deployment)
    }
    /// The fewest points of the outline it draws.
    pub fn min_points(self) -> usize {
        if matches!(self, Tool::Linear(_)) { 2 } else { 3 }
    }
}

/// What the next placed piece will be: set in the panel.
#[derive(Clone, Debug)]
pub struct Drafts {
    pub side: usize,
    pub troop_row: String,
    pub stands: u32,
    pub formation: Formation,
    pub grade: Grade,
    pub loaded: Option<Ammo>,
    pub limbered: bool,
    /// The commander of the next unit (id); the side's first when empty.
    pub commander: String,
    pub command_row: String,
    /// The superior of the next commander (id); none for a side's CO.
    pub superior: String,
    pub building: (f64, f64, Material),
    pub linear_width: f64,
    pub objective_level: ObjectiveLevel,
    pub objective_radius: f64,
    pub name: String,
    /// The height of a new hill's first contour.
    pub hill_height: u32,
}

impl Default for Drafts {
    fn default() -> Self {
        Drafts {
            side: 0,
            troop_row: String::new(),
            stands: 4,
            formation: Formation::Line,
            grade: Grade::Regular,
            loaded: None,
            limbered: false,
            commander: String::new(),
            command_row: String::new(),
            superior: String::new(),
            building: (6.0, 4.0, Material::Brick),
            linear_width: 2.0,
            objective_level: ObjectiveLevel::Major,
            objective_radius: 5.0,
            name: String::new(),
            hill_height: 1,
        }
    }
}

/// A drag on the table in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gesture {
    /// A point of the selected piece's outline.
    Vertex(Vertex),
    /// The whole piece, from where it was grabbed (its last position).
    Move { piece: Piece, last: V2 },
}

/// The editor's state: the document and how it is being worked on.
#[derive(Resource, Default)]
pub struct Editor {
    pub doc: Option<Doc>,
    pub tool: Tool,
    pub selected: Option<Piece>,
    /// The outline being drawn (table points).
    pub drawing: Vec<V2>,
    pub gesture: Option<Gesture>,
    /// The table point under the pointer.
    pub pointer: Option<V2>,
    pub drafts: Drafts,
    /// What the editor last said (a refusal, "saved …").
    pub status: Option<String>,
    /// The validator's problems with the document, as of `checked`.
    pub problems: Vec<Problem>,
    pub checked: Option<u64>,
    /// The document version on the table (`BattleState`), and why it could not be built.
    pub shown: Option<u64>,
    pub unbuilt: Option<String>,
    /// The file name typed in the panel (Save as, Open).
    pub path_text: String,
    /// Back to the editor when the play-test's battle is left.
    pub playtesting: bool,
    /// The panel's buttons as last drawn: label and window rect [x0, y0, x1, y1] in pixels
    /// (for the probe, so a test can click them).
    pub buttons: Vec<(String, [f32; 4])>,
    /// Leaving a document with unsaved changes: asked first (save, discard or stay).
    pub leaving: Option<GoTo>,
}

/// Where the editor goes from the document it has open.
#[derive(Clone, Debug)]
pub enum GoTo {
    /// Back to the main menu.
    Menu,
    /// Another scenario file.
    Open(std::path::PathBuf),
    /// A new document (a new scenario).
    Replace(Box<Doc>),
}

impl Editor {
    /// Opens `doc` in the editor (nothing selected, the select tool).
    pub fn open(&mut self, doc: Doc) {
        self.path_text = doc.path.display().to_string();
        self.doc = Some(doc);
        self.selected = None;
        self.drawing.clear();
        self.gesture = None;
        self.tool = Tool::Select;
        self.checked = None;
        self.shown = None;
        self.status = None;
        self.fill_drafts();
    }

    /// Rows and commanders of the side in the drafts that exist (after a change of side or list).
    pub fn fill_drafts(&mut self) {
        let Some(doc) = &self.doc else { return };
        let s = self.drafts.side.min(doc.armies.len().saturating_sub(1));
        self.drafts.side = s;
        let Some(army) = doc.armies.get(s) else { return };
        if army.troop(&self.drafts.troop_row).is_none() {
            self.drafts.troop_row = army.troops.first().map(|t| t.id.clone()).unwrap_or_default();
        }
        if army.command(&self.drafts.command_row).is_none() {
            self.drafts.command_row = army
                .commands
                .iter()
                .find(|c| c.level == CommandLevel::Brigade)
                .or(army.commands.first())
                .map(|c| c.id.clone())
                .unwrap_or_default();
        }
        let side = &doc.scenario.sides[s];
        if !side.commanders.iter().any(|c| c.id == self.drafts.commander) {
            self.drafts.commander = side.commanders.first().map(|c| c.id.clone()).unwrap_or_default();
        }
        if !self.drafts.superior.is_empty() && !side.commanders.iter().any(|c| c.id == self.drafts.superior) {
            self.drafts.superior.clear();
        }
    }

    /// Runs an edit on the document; a refusal goes to the status line. The selection is
    /// dropped if its piece is gone.
    pub fn edit<R>(&mut self, f: impl FnOnce(&mut crate::data::scenario::Scenario) -> R) -> Option<R> {
        let doc = self.doc.as_mut()?;
        match doc.edit(f) {
            Ok(r) => {
                self.after_change();
                Some(r)
            }
            Err(e) => {
                self.status = Some(e);
                None
            }
        }
    }

    /// After any change: a selection whose piece is gone goes.
    pub fn after_change(&mut self) {
        if let (Some(doc), Some(p)) = (&self.doc, self.selected)
            && !p.exists(&doc.scenario)
        {
            self.selected = None;
        }
        self.fill_drafts();
    }

    pub fn undo(&mut self) {
        if let Some(d) = self.doc.as_mut() {
            let done = d.undo();
            self.status = Some(if done {
                "undone".into()
            } else {
                "nothing to undo".into()
            });
            self.gesture = None;
            self.after_change();
        }
    }

    pub fn redo(&mut self) {
        if let Some(d) = self.doc.as_mut() {
            let done = d.redo();
            self.status = Some(if done {
                "redone".into()
            } else {
                "nothing to redo".into()
            });
            self.gesture = None;
            self.after_change();
        }
    }

    /// Saves to `path`; what the validator refuses goes to the status line and the file is
    /// not touched.
    pub fn save(&mut self, path: &std::path::Path) -> bool {
        let Some(doc) = self.doc.as_mut() else { return false };
        match crate::editor::save::save(doc, path) {
            Ok(()) => {
                self.path_text = path.display().to_string();
                self.status = Some(format!("saved {} (volley check accepts it)", path.display()));
                true
            }
            Err(e) => {
                self.status = Some(format!("not saved: {}", e.lines().next().unwrap_or("")));
                false
            }
        }
    }

    /// Goes where `to` says now, or, when the document has unsaved changes, asks first
    /// (`leaving`); `GoTo::Menu` is returned to the caller to do (it owns the screen state).
    pub fn leave_or_ask(&mut self, to: GoTo) -> Option<GoTo> {
        if self.doc.as_ref().is_some_and(Doc::dirty) {
            self.leaving = Some(to);
            return None;
        }
        self.go(to)
    }

    /// Goes where `to` says, whatever the document holds; `GoTo::Menu` is returned.
    pub fn go(&mut self, to: GoTo) -> Option<GoTo> {
        self.leaving = None;
        match to {
            GoTo::Menu => return Some(GoTo::Menu),
            GoTo::Open(path) => match Doc::open(&path) {
                Ok(doc) => {
                    self.open(doc);
                    self.status = Some(format!("opened {}", path.display()));
                }
                Err(e) => self.status = Some(e.to_string()),
            },
            GoTo::Replace(doc) => {
                self.open(*doc);
                self.status = Some("new scenario: draw terrain, place commanders and units, then save".into());
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn leaving_unsaved_changes_asks_first_and_loses_nothing() {
        let mut e = Editor::default();
        e.open(Doc::open(Path::new("maps/first_battle.ron")).unwrap());
        // Unchanged: another file opens at once.
        assert!(e.leave_or_ask(GoTo::Open("maps/skirmish.ron".into())).is_none());
        assert_eq!(
            e.doc.as_ref().unwrap().scenario.title,
            "Skirmish at Miller's Crossroads"
        );
        // Changed: the question is asked and the document kept as it is.
        e.edit(|sc| sc.turn_limit = 3);
        assert!(e.leave_or_ask(GoTo::Open("maps/first_battle.ron".into())).is_none());
        assert!(matches!(e.leaving, Some(GoTo::Open(_))));
        assert_eq!(e.doc.as_ref().unwrap().scenario.turn_limit, 3);
        // The menu, asked the same way; answered "drop the changes", it is the caller's to go.
        assert!(e.leave_or_ask(GoTo::Menu).is_none());
        assert!(matches!(e.go(GoTo::Menu), Some(GoTo::Menu)));
        assert!(e.leaving.is_none());
        // A bad file is a message, and the document stays.
        e.go(GoTo::Open("maps/no_such_map.ron".into()));
        assert!(e.status.as_deref().unwrap_or("").contains("no_such_map"));
        assert_eq!(e.doc.as_ref().unwrap().scenario.turn_limit, 3);
    }
}
