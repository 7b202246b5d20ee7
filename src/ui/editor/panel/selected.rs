//! The selected piece: its name and fields, edited in place (each change one undo step).

use super::shared::*;
use super::widgets::*;
use crate::data::army::{Arm, ArmyList};
use crate::data::scenario::{Grade, Scenario};
use crate::editor::Piece;
use crate::editor::names;
use crate::editor::piece::capitalized;
use crate::rules::terrain::{AreaKind, LinearKind};
use crate::ui::common::heading;
use crate::ui::editor::state::Editor;
use bevy::prelude::*;
use bevy_egui::egui;

pub(super) fn selected_section(ui: &mut egui::Ui, editor: &mut Editor) {
    let Some(sel) = editor.selected else {
        heading(ui, "Nothing selected");
        return;
    };
    let label = editor.doc.as_ref().map(|d| sel.label(&d.scenario)).unwrap_or_default();
    ui.add(egui::Label::new(egui::RichText::new(&label).strong().size(15.0)).wrap_mode(egui::TextWrapMode::Wrap));
    ui.horizontal(|ui| {
        if ui.button("Delete").on_hover_text("or press the Delete key").clicked() {
            match editor.edit(|sc| crate::editor::piece::remove(sc, sel)) {
                Some(Err(e)) => editor.status = Some(e),
                _ => editor.selected = None,
            }
        }
    });
    edit_copy(editor, |sc, armies| properties(ui, sc, armies, sel));
}

pub(super) fn properties(ui: &mut egui::Ui, sc: &mut Scenario, armies: &[ArmyList], sel: Piece) {
    if !sel.exists(sc) {
        return;
    }
    let side_names: Vec<String> = sc.sides.iter().map(|s| s.name.clone()).collect();
    let t = &mut sc.terrain;
    match sel {
        Piece::Area(i) => {
            let a = &mut t.areas[i];
            name_field(ui, &mut a.name);
            egui::ComboBox::from_id_salt("ed_p_area")
                .selected_text(capitalized(a.kind.name()))
                .show_ui(ui, |ui| {
                    for k in AreaKind::ALL {
                        ui.selectable_value(&mut a.kind, k, capitalized(k.name()));
                    }
                });
        }
        Piece::Linear(i) => {
            let l = &mut t.linears[i];
            name_field(ui, &mut l.name);
            ui.horizontal(|ui| {
                egui::ComboBox::from_id_salt("ed_p_lin")
                    .selected_text(capitalized(l.kind.name()))
                    .show_ui(ui, |ui| {
                        for k in LinearKind::ALL {
                            ui.selectable_value(&mut l.kind, k, capitalized(k.name()));
                        }
                    });
                ui.label("width");
                ui.add(egui::DragValue::new(&mut l.width).range(0.1..=20.0).speed(0.1));
            });
        }
        Piece::Hill(i) => {
            let h = &mut t.hills[i];
            name_field(ui, &mut h.name);
            ui.checkbox(&mut h.mountain, "mountain (impassable but to foot)");
            for (k, c) in h.contours.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    ui.label(format!("contour {} height", k + 1));
                    ui.add(egui::DragValue::new(&mut c.height).range(1..=9));
                });
            }
            if h.contours.len() > 1 && ui.button("Remove the top contour").clicked() {
                h.contours.pop();
            }
        }
        Piece::Building(i) => {
            let b = &mut t.buildings[i];
            name_field(ui, &mut b.name);
            material_combo(ui, "ed_p_mat", &mut b.material);
        }
        Piece::Objective(i) => {
            let o = &mut sc.objectives[i];
            name_field(ui, &mut o.name);
            ui.horizontal(|ui| {
                level_combo(ui, "ed_p_level", &mut o.level);
                ui.label("radius");
                ui.add(egui::DragValue::new(&mut o.radius).range(1.0..=30.0));
            });
            ui.horizontal(|ui| {
                ui.label("for");
                for n in &side_names {
                    ui.selectable_value(&mut o.side, n.clone(), n);
                }
            });
        }
        Piece::Unit { side, i } => {
            // The side's commanders by name (the file links them by id).
            let cmds: Vec<(String, String)> = (0..sc.sides[side].commanders.len())
                .map(|k| {
                    (
                        sc.sides[side].commanders[k].id.clone(),
                        names::commander_words(sc, side, k),
                    )
                })
                .collect();
            let commander = names::commander_of_side(sc, side, &sc.sides[side].units[i].commander);
            let u = &mut sc.sides[side].units[i];
            name_field(ui, &mut u.name);
            egui::ComboBox::from_id_salt("ed_p_row")
                .width(PANEL_WIDTH - 30.0)
                .selected_text(armies[side].troop(&u.row).map_or(u.row.clone(), |r| r.name.clone()))
                .show_ui(ui, |ui| {
                    for r in &armies[side].troops {
                        ui.selectable_value(&mut u.row, r.id.clone(), &r.name);
                    }
                });
            ui.horizontal(|ui| {
                ui.label("stands");
                ui.add(egui::DragValue::new(&mut u.stands).range(1..=12));
                formation_combo(ui, "ed_p_form", &mut u.formation);
            });
            ui.horizontal(|ui| {
                ui.label("facing°");
                ui.add(egui::DragValue::new(&mut u.facing).range(0.0..=359.0));
                let mut g = u.grade.unwrap_or(Grade::Regular);
                grade_combo(ui, "ed_p_grade", &mut g);
                u.grade = (g != Grade::Regular).then_some(g).or(u.grade.filter(|x| *x == g));
            });
            ui.horizontal(|ui| {
                ui.label("commander");
                egui::ComboBox::from_id_salt("ed_p_cmd")
                    .selected_text(commander)
                    .show_ui(ui, |ui| {
                        for (id, name) in &cmds {
                            ui.selectable_value(&mut u.commander, id.clone(), name);
                        }
                    });
            });
            if armies[side].troop(&u.row).is_some_and(|r| r.arm == Arm::Artillery) {
                ui.horizontal(|ui| {
                    ui.checkbox(&mut u.limbered, "limbered");
                    ammo_combo(ui, "ed_p_ammo", &mut u.loaded);
                });
            }
        }
        Piece::Commander { side, i } => {
            // The other commanders of the side by name (the file links them by id).
            let others: Vec<(String, String)> = (0..sc.sides[side].commanders.len())
                .filter(|k| *k != i)
                .map(|k| {
                    (
                        sc.sides[side].commanders[k].id.clone(),
                        names::commander_words(sc, side, k),
                    )
                })
                .collect();
            let superior = match &sc.sides[side].commanders[i].superior {
                None => "nobody (the CO)".to_string(),
                Some(id) => names::commander_of_side(sc, side, id),
            };
            let c = &mut sc.sides[side].commanders[i];
            name_field(ui, &mut c.name);
            let row = names::row_words(&armies[side], &c.row).unwrap_or_else(|| format!("\"{}\" (no such row)", c.row));
            egui::ComboBox::from_id_salt("ed_p_cmdrow")
                .width(PANEL_WIDTH - 30.0)
                .selected_text(row)
                .show_ui(ui, |ui| {
                    for r in &armies[side].commands {
                        ui.selectable_value(&mut c.row, r.id.clone(), names::command_row_words(r));
                    }
                });
            ui.horizontal(|ui| {
                ui.label("answers to");
                egui::ComboBox::from_id_salt("ed_p_sup")
                    .selected_text(superior)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut c.superior, None, "nobody (the CO)");
                        for (id, name) in &others {
                            ui.selectable_value(&mut c.superior, Some(id.clone()), name);
                        }
                    });
            });
            ui.checkbox(&mut c.mounted, "mounted");
        }
        Piece::Deployment(_) => {
            ui.label("Drag its points; Delete removes the zone.");
        }
    }
}
