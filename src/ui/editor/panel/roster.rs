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
                    let piece = Piece::Commander { side: s, i: ci };
                    if ui
                        .selectable_label(editor.selected == Some(piece), commander_line(doc, s, ci))
                        .clicked()
                    {
                        pick = Some(piece);
                    }
                    for (ui_i, _) in side.units.iter().enumerate().filter(|(_, u)| u.commander == c.id) {
                        let piece = Piece::Unit { side: s, i: ui_i };
                        if ui
                            .selectable_label(editor.selected == Some(piece), unit_line(doc, s, ui_i))
                            .clicked()
                        {
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

/// The roster's line of commander `ci` of side `s`: indented under his superiors, by name, with
/// his command row in words ("Col. Strong Vincent — Brigade, average (command 7)").
pub fn commander_line(doc: &crate::editor::Doc, s: usize, ci: usize) -> String {
    let side = &doc.scenario.sides[s];
    let c = &side.commanders[ci];
    let row = crate::editor::names::row_words(&doc.armies[s], &c.row).unwrap_or_else(|| format!("\"{}\"", c.row));
    format!(
        "{}{} — {}",
        "   ".repeat(commander_depth(side, &c.id)),
        crate::editor::names::commander_words(&doc.scenario, s, ci),
        row
    )
}

/// The roster's line of unit `i` of side `s`, under its commander's: by name, its stands and
/// formation ("   · 20th Maine — 5 stands, line").
pub fn unit_line(doc: &crate::editor::Doc, s: usize, i: usize) -> String {
    let side = &doc.scenario.sides[s];
    let u = &side.units[i];
    format!(
        "{}   · {} — {}, {}",
        "   ".repeat(commander_depth(side, &u.commander)),
        crate::editor::names::unit_words(&doc.scenario, s, i),
        crate::report::words::count(u.stands, "stand"),
        u.formation
    )
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
