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
pub mod state;
pub mod trial;

pub use state::{Drafts, Editor, Gesture, GoTo, Tool};

use crate::app::BattleState;
use crate::editor::Doc;
use crate::ui::common::Screen;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Editor>()
        .init_resource::<crate::ui::common::OpenEditor>()
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
    app.init_resource::<Editor>()
        .add_systems(OnEnter(Screen::Editor), enter)
        .add_systems(
            Update,
            (show_document, check_document).chain().run_if(in_state(Screen::Editor)),
        );
    app.add_plugins(mouse::plugin);
}

fn enter(
    mut fit: ResMut<crate::ui::camera::CameraFit>,
    mut editor: ResMut<Editor>,
    open: Option<ResMut<crate::ui::common::OpenEditor>>,
) {
    // From the menu: a scenario file, or a new empty table of the default size to draw on at
    // once (the New scenario form starts another with other sizes or armies). A document with
    // unsaved changes is not dropped: the panel asks first.
    let to = match open.and_then(|mut o| o.0.take()) {
        Some(crate::ui::common::EditWhat::File(path)) => Some(GoTo::Open(path)),
        Some(crate::ui::common::EditWhat::New) => {
            let size = crate::data::scenario::TableSize {
                width: 180.0,
                height: 120.0,
            };
            let path = crate::editor::doc::unused_path("my_battle");
            match Doc::blank("A new battle", size, ["acw_union", "acw_confederate"], path) {
                Ok(doc) => Some(GoTo::Replace(Box::new(doc))),
                Err(e) => {
                    editor.status = Some(e.to_string());
                    None
                }
            }
        }
        None => None,
    };
    if let Some(to) = to {
        editor.leave_or_ask(to);
    }
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
    pieces: Query<Entity, Or<(With<crate::app::UnitPiece>, With<crate::app::CommanderBase>)>>,
) {
    let Some(doc) = editor.doc.as_ref() else { return };
    if editor.shown == Some(doc.version) {
        return;
    }
    let version = doc.version;
    match crate::editor::preview::preview(doc, 1) {
        Ok((b, _)) => {
            // Pieces of units or commanders that are gone would name ids the new battle does
            // not have: they go with it (the same command flush), and the rest are spawned anew.
            let old = &current.0;
            if b.units.len() < old.units.len() || b.commanders.len() < old.commanders.len() {
                for e in &pieces {
                    commands.entity(e).despawn();
                }
                commands.insert_resource(crate::app::PieceIndex::default());
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
