//! What the panel's parts share: its width, what it asks for this frame, editing a copy of
//! the scenario, and keeping a button's place for the probe.

use crate::data::army::ArmyList;
use crate::data::scenario::Scenario;
use crate::ui::editor::state::Editor;
use crate::ui::editor::trial::TrialAsk;
use bevy::prelude::*;
use bevy_egui::egui;
use std::path::PathBuf;

/// The width of the panel, in egui points.
pub const PANEL_WIDTH: f32 = 360.0;

/// What the panel asks for this frame (done after it is drawn).
#[derive(Default)]
pub(super) struct PanelAsks {
    pub(super) new: bool,
    pub(super) open: Option<PathBuf>,
    pub(super) save: Option<PathBuf>,
    pub(super) menu: bool,
    pub(super) trial: Option<TrialAsk>,
    pub(super) balance: Option<(u64, [String; 2])>,
}

/// Shows `f` on a copy of the scenario; an edit if it changed it.
pub(super) fn edit_copy(editor: &mut Editor, f: impl FnOnce(&mut Scenario, &[ArmyList])) {
    let Some(doc) = &editor.doc else { return };
    let mut copy = doc.scenario.clone();
    f(&mut copy, &doc.armies);
    if copy != doc.scenario {
        editor.edit(move |sc| *sc = copy);
    }
}

/// Keeps a button's place in window pixels for the probe.
pub(super) fn remember(editor: &mut Editor, ui: &egui::Ui, label: &str, r: &egui::Response) {
    let k = ui.ctx().zoom_factor();
    let rect = [r.rect.min.x * k, r.rect.min.y * k, r.rect.max.x * k, r.rect.max.y * k];
    editor.buttons.push((label.to_string(), rect));
}
