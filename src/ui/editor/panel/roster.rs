//! Each side's roster: its commanders, with their units under them, against the breakpoint.

use crate::editor::Piece;
use crate::ui::editor::state::{Editor, Tool};
use bevy::prelude::*;
use bevy_egui::egui;

pub(super) fn roster_section(ui: &mut egui::Ui, editor: &mut Editor, b: &crate::battle::Battle) {
    let Some(doc) = &editor.doc else { return };
    let mut pick = None;
    for (s, side) in doc.scenario.sides.iter().enumerate() {
        let stands: u32 = side.units.iter().map(|u| u.stands).sum();
        let bp = b.sides.get(s).map(|x| x.breakpoint);
        let title = format!(
            "{}: {} units, {} stands; breaks at {} lost",
            side.name,
            side.units.len(),
            stands,
            bp.map_or("?".into(), |b| b.to_string())
        );
        egui::CollapsingHeader::new(egui::RichText::new(title).color(crate::ui::common::side_colour(s)))
            .id_salt(format!("ed_roster{s}"))
            .show(ui, |ui| {
                ui.label(egui::RichText::new(&doc.armies[s].name).weak());
                for (ci, c) in side.commanders.iter().enumerate() {
                    let depth = commander_depth(side, &c.id);
                    let text = format!("{}{} — {} ({})", "   ".repeat(depth), c.name, c.id, c.row);
                    let piece = Piece::Commander { side: s, i: ci };
                    if ui.selectable_label(editor.selected == Some(piece), text).clicked() {
                        pick = Some(piece);
                    }
                    for (ui_i, u) in side.units.iter().enumerate().filter(|(_, u)| u.commander == c.id) {
                        let piece = Piece::Unit { side: s, i: ui_i };
                        let text = format!(
                            "{}   · {} — {} stands, {}",
                            "   ".repeat(depth),
                            u.name,
                            u.stands,
                            u.formation
                        );
                        if ui.selectable_label(editor.selected == Some(piece), text).clicked() {
                            pick = Some(piece);
                        }
                    }
                }
            });
    }
    if let Some(p) = pick {
        editor.selected = Some(p);
        editor.tool = Tool::Select;
    }
}

/// How many superiors a commander has above him (0 for the CO).
pub(super) fn commander_depth(side: &crate::data::scenario::SideSpec, id: &str) -> usize {
    let mut depth = 0;
    let mut at = id.to_string();
    while let Some(sup) = side
        .commanders
        .iter()
        .find(|c| c.id == at)
        .and_then(|c| c.superior.clone())
    {
        depth += 1;
        at = sup;
        if depth > side.commanders.len() {
            break;
        }
    }
    depth
}
