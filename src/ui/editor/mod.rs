//! The scenario editor screen (`Screen::Editor`): a scenario drawn on the table by the same
//! drawing as play (the document's battle is built and put in `BattleState`), edited by mouse
//! with the tools of the left panel, checked live by the same validator as `volley check`,
//! saved atomically, play-tested and balanced. The model is the headless [`crate::editor`].
//!
//! - [`panel`]: the left panel (file, scenario, tools, the selected piece, rosters, problems,
//!   try it).
//! - [`mouse`]: the table's clicks, drags, wheel and keys.
//! - [`draw`]: what the editor adds to the table (deployment zones, the selection and its
//!   handles, the outline being drawn, the pieces with problems).
//! - [`trial`]: play-testing and balance runs.

pub mod draw;
pub mod mouse;
pub mod panel;
pub mod trial;

use crate::battle::ecs::BattleState;
use crate::data::army::CommandLevel;
use crate::data::scenario::{Ammo, Grade, ObjectiveLevel};
use crate::editor::problems::Problem;
use crate::editor::{Doc, Piece, Vertex};
use crate::rules::formation::Formation;
use crate::rules::geometry::V2;
use crate::rules::terrain::{AreaKind, LinearKind, Material};
use crate::ui::common::Screen;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Editor>()
        .add_systems(OnEnter(Screen::Editor), enter)
        .add_systems(OnExit(Screen::Editor), leave)
        .add_systems(
            Update,
            (show_document, check_document).chain().run_if(in_state(Screen::Editor)),
        );
    app.add_plugins((panel::plugin, mouse::plugin, draw::plugin, trial::plugin));
}

/// The headless part of the editor (no window, renderer or egui): the document shown on the
/// table and checked, and the mouse and keys. Tests run it with `MinimalPlugins`.
pub fn headless_plugin(app: &mut App) {
    app.init_resource::<Editor>().add_systems(
        Update,
        (show_document, check_document).chain().run_if(in_state(Screen::Editor)),
    );
    app.add_plugins(mouse::plugin);
}

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

    /// Whether the piece has a problem.
    pub fn has_problem(&self, p: Piece) -> bool {
        self.problems.iter().any(|x| x.piece == Some(p))
    }
}

/// A stand-in scenario hash for the document's battle: the same while the document is open,
/// so the camera does not refit after every edit.
fn doc_hash(doc: &Doc) -> u64 {
    crate::data::content_hash(doc.path.display().to_string().as_bytes())
}

fn enter(mut fit: ResMut<crate::ui::camera::CameraFit>, mut editor: ResMut<Editor>) {
    fit.pending = true;
    fit.moved = false;
    editor.shown = None;
    editor.checked = None;
    editor.playtesting = false;
}

fn leave(mut editor: ResMut<Editor>) {
    editor.gesture = None;
    editor.drawing.clear();
}

/// The document's battle on the table (the same drawing as play): rebuilt when the document
/// changes. A document the battle cannot be built from keeps the last picture and says why.
#[allow(clippy::type_complexity)]
fn show_document(
    mut editor: ResMut<Editor>,
    mut commands: Commands,
    drawn: Option<ResMut<crate::ui::table::terrain::DrawnTerrain>>,
    current: Res<BattleState>,
    pieces: Query<
        Entity,
        Or<(
            With<crate::battle::ecs::UnitPiece>,
            With<crate::battle::ecs::CommanderBase>,
        )>,
    >,
) {
    let Some(doc) = editor.doc.as_ref() else { return };
    if editor.shown == Some(doc.version) {
        return;
    }
    let version = doc.version;
    match crate::editor::preview::preview(doc, 1) {
        Ok((mut b, _)) => {
            b.scenario_hash = doc_hash(doc);
            // Pieces of units or commanders that are gone would name ids the new battle does
            // not have: they go with it (the same command flush), and the rest are spawned anew.
            let old = &current.0;
            if b.units.len() < old.units.len() || b.commanders.len() < old.commanders.len() {
                for e in &pieces {
                    commands.entity(e).despawn();
                }
                commands.insert_resource(crate::battle::ecs::PieceIndex::default());
            }
            commands.insert_resource(BattleState(b));
            if let Some(mut d) = drawn {
                d.0 = None;
            }
            editor.unbuilt = None;
        }
        Err(e) => editor.unbuilt = Some(e),
    }
    editor.shown = Some(version);
}

/// The validator's problems, found again after each change (not while a drag is under way).
fn check_document(mut editor: ResMut<Editor>) {
    if editor.gesture.is_some() {
        return;
    }
    let Some(doc) = editor.doc.as_ref() else { return };
    if editor.checked == Some(doc.version) {
        return;
    }
    let found = crate::editor::problems::problems(doc, 12);
    let v = doc.version;
    editor.problems = found;
    editor.checked = Some(v);
}
