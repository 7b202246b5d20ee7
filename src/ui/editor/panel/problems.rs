//! The validator's problems with the scenario; a click selects the piece a problem is about.

use crate::ui::common::heading;
use crate::ui::editor::state::{Editor, Tool};
use bevy::prelude::*;
use bevy_egui::egui;

pub(super) fn problems_section(ui: &mut egui::Ui, editor: &mut Editor) {
    if let Some(why) = &editor.unbuilt {
        ui.colored_label(
            egui::Color32::from_rgb(255, 120, 90),
            format!("The table cannot show it: {why}"),
        );
    }
    if editor.problems.is_empty() {
        ui.colored_label(
            egui::Color32::from_rgb(140, 220, 140),
            "No problems: volley check accepts this scenario.",
        );
        return;
    }
    heading(ui, &format!("Problems ({})", editor.problems.len()));
    let mut pick = None;
    for p in &editor.problems {
        let text = format!("line {}: {}", p.line, p.msg);
        let r = ui.add(
            egui::Label::new(egui::RichText::new(text).color(egui::Color32::from_rgb(255, 140, 120)))
                .sense(egui::Sense::click()),
        );
        if r.clicked() {
            pick = p.piece;
        }
    }
    if pick.is_some() {
        editor.selected = pick;
        editor.tool = Tool::Select;
    }
}
