//! The ui's ground floor: what the panels, undo and the replay viewer share, so none of them
//! needs another's module (the legal actions of the moment, what a panel asks for, the text
//! egui can draw).

use crate::battle::Action;
use crate::battle::state::{CmdId, UnitId};
use bevy::prelude::*;
use bevy_egui::egui;

/// The legal actions of the current state, computed once per applied action.
#[derive(Resource, Default)]
pub struct LegalCache {
    key: Option<(u64, u64)>,
    pub actions: Vec<Action>,
}

impl LegalCache {
    pub fn refresh(&mut self, b: &crate::battle::Battle) {
        let key = (b.actions, b.scenario_hash);
        if self.key != Some(key) {
            self.key = Some(key);
            self.actions = b.legal_actions();
        }
    }
}

/// What the orders panel asks: `units` (said `who`) to carry out `intent`.
#[derive(Clone, Debug, PartialEq)]
pub struct IntentAsk {
    pub side: crate::battle::SideId,
    pub units: Vec<crate::battle::UnitId>,
    pub who: String,
    pub intent: crate::battle::intent::Intent,
}

/// What the panels may ask for this frame.
#[derive(Default)]
pub struct Asks {
    pub request: Option<Action>,
    /// An intent to put in hand (`ui::intent`).
    pub intent: Option<IntentAsk>,
    /// The orders panel's buttons as drawn: label and window rect [x0, y0, x1, y1] (the probe).
    pub shown: Vec<(String, [f32; 4])>,
    pub hover: Option<Action>,
    pub select: Option<Selection>,
    pub save: bool,
    pub menu: bool,
    pub undo: bool,
}

/// The battle log's text with the few signs egui's default fonts lack replaced.
pub fn plain(text: &str) -> String {
    text.replace('→', "->").replace('⇒', "=>")
}

/// A heading in the panels' style.
pub fn heading(ui: &mut egui::Ui, text: &str) {
    ui.label(egui::RichText::new(text).strong().size(15.0));
}

/// Which screen shows.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Menu,
    Battle,
    /// Hot-seat: the table is hidden until the next player takes the seat.
    Handover,
    Result,
    /// The scenario editor (`ui::editor`).
    Editor,
}

/// The mouse wheel is taken by something on the table (the editor's drag turns the piece):
/// the camera does not zoom with it. Set each frame by whoever takes it.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct WheelTaken(pub bool);

/// The keyboard is typing into a text field of the panels: the table's keys (camera pan and
/// zoom, the editor's keys) leave it alone. Set each frame by the panels that have fields.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct Typing(pub bool);

/// What the scenario editor opens when it is entered: set by whoever sends the window to it
/// (the main menu), taken by the editor.
#[derive(Clone, Debug, PartialEq)]
pub enum EditWhat {
    /// A new scenario (the editor's "New scenario" form).
    New,
    /// A scenario file.
    File(std::path::PathBuf),
}

/// The editor's next document, see [`EditWhat`].
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct OpenEditor(pub Option<EditWhat>);

/// The stand (unit) or commander the player has picked.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    pub unit: Option<UnitId>,
    pub commander: Option<CmdId>,
}

/// What the mouse pointer is over on the table, by Bevy's picking (`ui::table::picking`): a
/// commander, else a unit's stand; nothing off the table or over a panel.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct TableHover(pub Selection);

/// What a click on the piece under the pointer would do, as an order on the table: with a unit
/// selected, an enemy under the pointer is fired at or charged; with a commander selected, a
/// unit of his is ordered. `lines` are the preview (dice, score, odds, the roll needed with its
/// modifiers) or, when `refused`, the rule that forbids it. Drawn at the pointer with the
/// hovered piece's tooltip.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct PointerOrder {
    pub action: Option<Action>,
    pub lines: Vec<String>,
    pub refused: bool,
}

/// The pointer is over a floating window of the panels (the Overlays window, a question), not
/// the table under it: a click there is the window's, never the table's. Set by the panels.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct OverWindow(pub bool);

/// A box dragged over the table with a commander selected, from an empty spot (window
/// pixels): the units of his command inside it are ordered as one formation when the button
/// is let go; with Shift held the order may charge. `units`: those inside, by `table::orders`.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct BoxSelect {
    pub from: Option<Vec2>,
    pub to: Vec2,
    pub charge: bool,
    pub units: Vec<UnitId>,
}

impl BoxSelect {
    /// The box, once it is more than a click (`BOX_MIN_PX` across).
    pub fn rect(&self) -> Option<Rect> {
        let from = self.from?;
        let r = Rect::from_corners(from, self.to);
        (r.width().max(r.height()) >= BOX_MIN_PX).then_some(r)
    }
}

/// The units the last box ordered, with their commander and the player turn: while he is
/// selected, the orders panel's intents are for them ("the 3 boxed units of Archer's
/// brigade"), not his whole formation. Cleared when the selection changes.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct BoxedGroup {
    pub commander: Option<crate::battle::state::CmdId>,
    pub units: Vec<UnitId>,
    pub turn: u32,
}

/// A drag on empty table shorter than this (pixels) is a click, not a box.
pub const BOX_MIN_PX: f32 = 6.0;

/// The action under the pointer in the orders panel, drawn on the table as a preview.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct Preview(pub Option<Action>);

/// A preview held without the pointer over the orders panel (`volley screenshot --preview`).
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct PinnedPreview(pub Option<Action>);

/// The window's systems in the frame, around the battle's (`app::BattleSystems`):
/// input → requests → apply → follow → sync → derive → animate → draw.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableSystems {
    /// The camera and the pointer: what is under it, what is dragged.
    Input,
    /// Keys and clicks become action requests.
    Request,
    /// The last action's shots and moves play out.
    Animate,
    /// The table's shapes are rebuilt from the pieces.
    Draw,
}

/// The battle panels' system, before any floating window.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PanelsSet;

/// The side colours for text.
pub fn side_colour(side: usize) -> egui::Color32 {
    let [r, g, b] = crate::ui::palette::side_rgb(crate::ui::palette::text_palette())[side.min(1)];
    // Lightened for dark panels.
    egui::Color32::from_rgb(r / 2 + 110, g / 2 + 110, b / 2 + 110)
}

/// A drag of the selected unit or commander on the table: where it was grabbed, how far the
/// wheel has turned it (degrees, anticlockwise) and the move it would make. Kept by the
/// table's input controller (`table::input`); the camera leaves the wheel to it meanwhile.
#[derive(Resource, Default, Debug)]
pub struct Drag {
    pub grab: Option<(Selection, Vec2)>,
    pub turn: f32,
    pub action: Option<Action>,
    /// The move dragged to was refused and the nearest legal one is offered: what it is.
    pub snapped: Option<&'static str>,
}
