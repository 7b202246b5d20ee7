//! The tools of the panel, and the drafts: what the next placed piece will be.

use super::shared::*;
use super::widgets::*;
use crate::data::army::Arm;
use crate::editor::names;
use crate::editor::piece::capitalized;
use crate::rules::terrain::{AreaKind, LinearKind};
use crate::ui::common::heading;
use crate::ui::editor::state::{Editor, Tool};
use bevy::prelude::*;
use bevy_egui::egui;

pub(super) fn tool_button(ui: &mut egui::Ui, editor: &mut Editor, tool: Tool, label: &str) {
    let r = ui.selectable_label(editor.tool == tool, label);
    remember(editor, ui, label, &r);
    if r.clicked() {
        editor.tool = tool;
        editor.drawing.clear();
    }
}

pub(super) fn tools_section(ui: &mut egui::Ui, editor: &mut Editor) {
    heading(ui, "Tools");
    ui.horizontal_wrapped(|ui| {
        tool_button(ui, editor, Tool::Select, "Select");
        tool_button(ui, editor, Tool::Hill, "Hill");
        tool_button(ui, editor, Tool::Building, "Building");
        tool_button(ui, editor, Tool::Objective, "Objective");
        tool_button(ui, editor, Tool::Commander, "Commander");
        tool_button(ui, editor, Tool::Unit, "Unit");
        tool_button(ui, editor, Tool::Deployment, "Deployment zone");
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Areas:");
        for k in AreaKind::ALL {
            tool_button(ui, editor, Tool::Area(k), &capitalized(k.name()));
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Lines:");
        for k in LinearKind::ALL {
            tool_button(ui, editor, Tool::Linear(k), &capitalized(k.name()));
        }
    });
    ui.label(egui::RichText::new(tool_help(editor.tool)).small().weak());
    drafts(ui, editor);
}

pub(super) fn tool_help(tool: Tool) -> &'static str {
    match tool {
        Tool::Select => {
            "Click a piece to select it, drag to move it; drag its yellow points; Ctrl+click an edge adds a point, right-click a point deletes it; R / Shift+R or the wheel while dragging turns it; Delete removes it."
        }
        Tool::Hill => "Click the contour's points. With a hill selected, the outline becomes its next contour up.",
        Tool::Building | Tool::Objective | Tool::Unit | Tool::Commander => "Click the table to place it.",
        _ => "Click the outline's points; click the first point, press Enter or right-click to finish.",
    }
}

pub(super) fn side_picker(ui: &mut egui::Ui, editor: &mut Editor) {
    let Some(doc) = &editor.doc else { return };
    let names: Vec<String> = doc.scenario.sides.iter().map(|s| s.name.clone()).collect();
    let mut side = editor.drafts.side;
    ui.horizontal(|ui| {
        ui.label("Side");
        for (s, n) in names.iter().enumerate() {
            ui.selectable_value(&mut side, s, n);
        }
    });
    if side != editor.drafts.side {
        editor.drafts.side = side;
        editor.fill_drafts();
    }
}

pub(super) fn drafts(ui: &mut egui::Ui, editor: &mut Editor) {
    let tool = editor.tool;
    if tool == Tool::Select {
        return;
    }
    if matches!(tool, Tool::Unit | Tool::Commander | Tool::Objective | Tool::Deployment) {
        side_picker(ui, editor);
    }
    let Some(doc) = &editor.doc else { return };
    let army = doc.armies[editor.drafts.side].clone();
    // The side's commanders by name (the file links them by id).
    let sc = &doc.scenario;
    let side = editor.drafts.side;
    let commanders: Vec<(String, String)> = (0..sc.sides[side].commanders.len())
        .map(|k| {
            (
                sc.sides[side].commanders[k].id.clone(),
                names::commander_words(sc, side, k),
            )
        })
        .collect();
    let commander = names::commander_of_side(sc, side, &editor.drafts.commander);
    let superior = match editor.drafts.superior.as_str() {
        "" => "(the CO)".to_string(),
        id => names::commander_of_side(sc, side, id),
    };
    let d = &mut editor.drafts;
    if tool != Tool::Deployment {
        ui.horizontal(|ui| {
            ui.label("Name");
            ui.add(
                egui::TextEdit::singleline(&mut d.name).hint_text(if tool == Tool::Unit {
                    "(the row's name)"
                } else {
                    "(a name of its own, or none)"
                }),
            );
        });
    }
    match tool {
        Tool::Unit => {
            egui::ComboBox::from_id_salt("ed_row")
                .width(PANEL_WIDTH - 30.0)
                .selected_text(
                    army.troop(&d.troop_row)
                        .map_or("(pick a row)".into(), |r| r.name.clone()),
                )
                .show_ui(ui, |ui| {
                    for r in &army.troops {
                        ui.selectable_value(&mut d.troop_row, r.id.clone(), &r.name);
                    }
                });
            ui.horizontal(|ui| {
                ui.label("Stands");
                ui.add(egui::DragValue::new(&mut d.stands).range(1..=12));
                formation_combo(ui, "ed_formation", &mut d.formation);
                grade_combo(ui, "ed_grade", &mut d.grade);
            });
            ui.horizontal(|ui| {
                ui.label("Commander");
                egui::ComboBox::from_id_salt("ed_cmd")
                    .selected_text(commander)
                    .show_ui(ui, |ui| {
                        for (id, name) in &commanders {
                            ui.selectable_value(&mut d.commander, id.clone(), name);
                        }
                    });
            });
            if army.troop(&d.troop_row).is_some_and(|r| r.arm == Arm::Artillery) {
                ui.horizontal(|ui| {
                    ui.checkbox(&mut d.limbered, "limbered");
                    ammo_combo(ui, "ed_ammo", &mut d.loaded);
                });
            }
        }
        Tool::Commander => {
            egui::ComboBox::from_id_salt("ed_cmdrow")
                .width(PANEL_WIDTH - 30.0)
                .selected_text(
                    army.command(&d.command_row)
                        .map_or("(pick a row)".into(), names::command_row_words),
                )
                .show_ui(ui, |ui| {
                    for c in &army.commands {
                        ui.selectable_value(&mut d.command_row, c.id.clone(), names::command_row_words(c));
                    }
                });
            ui.horizontal(|ui| {
                ui.label("Answers to");
                egui::ComboBox::from_id_salt("ed_sup")
                    .selected_text(superior)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut d.superior, String::new(), "(the CO)");
                        for (id, name) in &commanders {
                            ui.selectable_value(&mut d.superior, id.clone(), name);
                        }
                    });
            });
        }
        Tool::Building => {
            ui.horizontal(|ui| {
                ui.label("Size (cm)");
                ui.add(egui::DragValue::new(&mut d.building.0).range(1.0..=40.0));
                ui.label("×");
                ui.add(egui::DragValue::new(&mut d.building.1).range(1.0..=40.0));
                material_combo(ui, "ed_material", &mut d.building.2);
            });
        }
        Tool::Objective => {
            ui.horizontal(|ui| {
                level_combo(ui, "ed_level", &mut d.objective_level);
                ui.label("Radius (cm)");
                ui.add(egui::DragValue::new(&mut d.objective_radius).range(1.0..=30.0));
            });
        }
        Tool::Linear(LinearKind::Road | LinearKind::Stream | LinearKind::River) => {
            ui.horizontal(|ui| {
                ui.label("Width (cm)");
                ui.add(egui::DragValue::new(&mut d.linear_width).range(0.5..=20.0).speed(0.1));
            });
        }
        Tool::Hill => {
            ui.horizontal(|ui| {
                ui.label("Height of a new hill's first contour");
                ui.add(egui::DragValue::new(&mut d.hill_height).range(1..=9));
            });
        }
        _ => {}
    }
}
