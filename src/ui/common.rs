//! The ui's ground floor: what the panels, undo and the replay viewer share, so none of them
//! needs another's module (the legal actions of the moment, what a panel asks for, the text
//! egui can draw).

use super::Selection;
use crate::battle::Action;
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

/// What the panels may ask for this frame.
#[derive(Default)]
pub struct Asks {
    pub request: Option<Action>,
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
