//! The panel's file part (new, open, undo, redo, save) and the scenario's settings.

use super::shared::*;
use crate::data::scenario::Weather;
use crate::ui::common::heading;
use crate::ui::editor::state::Editor;
use bevy::prelude::*;
use bevy_egui::egui;
use std::path::PathBuf;

/// The new-scenario form.
pub struct NewForm {
    pub title: String,
    pub width: f64,
    pub height: f64,
    pub armies: [String; 2],
    pub path: String,
}

impl Default for NewForm {
    fn default() -> Self {
        NewForm {
            title: "A new battle".into(),
            width: 180.0,
            height: 120.0,
            armies: ["acw_union".into(), "acw_confederate".into()],
            path: crate::editor::doc::unused_path("my_battle").display().to_string(),
        }
    }
}

/// The army list of a side, by its name (the file keeps the list's file stem).
pub(super) fn army_combo(ui: &mut egui::Ui, id: &str, value: &mut String) -> bool {
    let mut changed = false;
    let armies = crate::editor::doc::army_names();
    let shown = armies
        .iter()
        .find(|(stem, _)| stem == value)
        .map_or_else(|| value.clone(), |(_, name)| name.clone());
    egui::ComboBox::from_id_salt(id).selected_text(shown).show_ui(ui, |ui| {
        for (stem, name) in armies {
            changed |= ui.selectable_value(value, stem.clone(), name).changed();
        }
    });
    changed
}

pub(super) fn file_section(ui: &mut egui::Ui, editor: &mut Editor, form: &mut NewForm, asks: &mut PanelAsks) {
    ui.horizontal(|ui| {
        heading(ui, "Scenario editor");
        if ui.button("Main menu").clicked() {
            asks.menu = true;
        }
    });
    if let Some(doc) = &editor.doc {
        ui.label(egui::RichText::new(&doc.scenario.title).size(16.0));
    }
    egui::CollapsingHeader::new("New scenario")
        .id_salt("ed_new")
        .default_open(editor.doc.is_none())
        .show(ui, |ui| {
            egui::Grid::new("ed_new_grid").num_columns(2).show(ui, |ui| {
                ui.label("Title");
                ui.text_edit_singleline(&mut form.title);
                ui.end_row();
                ui.label("Table (cm)");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut form.width).range(30.0..=480.0));
                    ui.label("×");
                    ui.add(egui::DragValue::new(&mut form.height).range(30.0..=480.0));
                });
                ui.end_row();
                for s in 0..2 {
                    ui.label(format!("Side {} army", s + 1));
                    army_combo(ui, &format!("ed_new_army{s}"), &mut form.armies[s]);
                    ui.end_row();
                }
                ui.label("File");
                ui.text_edit_singleline(&mut form.path);
                ui.end_row();
            });
            if ui.button("Create").clicked() {
                asks.new = true;
            }
        });
    egui::CollapsingHeader::new("Open a scenario")
        .id_salt("ed_open")
        .show(ui, |ui| {
            for e in crate::ui::screens::menu::list_scenarios(std::path::Path::new("maps")) {
                if ui
                    .selectable_label(false, &e.title)
                    .on_hover_text(e.path.display().to_string())
                    .clicked()
                {
                    asks.open = Some(e.path.clone());
                }
            }
        });
    let Some(doc) = &editor.doc else { return };
    let (can_undo, can_redo) = (doc.can_undo(), doc.can_redo());
    ui.horizontal(|ui| {
        if ui
            .add_enabled(can_undo, egui::Button::new("Undo"))
            .on_hover_text("Ctrl+Z")
            .clicked()
        {
            editor.undo();
        }
        if ui
            .add_enabled(can_redo, egui::Button::new("Redo"))
            .on_hover_text("Ctrl+Y")
            .clicked()
        {
            editor.redo();
        }
        let r = ui.button("Save").on_hover_text("Ctrl+S");
        remember(editor, ui, "Save", &r);
        if r.clicked() {
            asks.save = editor.doc.as_ref().map(|d| d.path.clone());
        }
    });
    ui.horizontal(|ui| {
        ui.label("Save as");
        ui.add(egui::TextEdit::singleline(&mut editor.path_text).desired_width(200.0));
        if ui.button("Save").clicked() {
            asks.save = Some(PathBuf::from(editor.path_text.trim()));
        }
    });
}

pub(super) fn scenario_section(ui: &mut egui::Ui, editor: &mut Editor) {
    egui::CollapsingHeader::new("Scenario settings")
        .id_salt("ed_settings")
        .show(ui, |ui| {
            edit_copy(editor, |sc, _| {
                egui::Grid::new("ed_settings_grid").num_columns(2).show(ui, |ui| {
                    ui.label("Title");
                    ui.text_edit_singleline(&mut sc.title);
                    ui.end_row();
                    ui.label("Table (cm)");
                    ui.horizontal(|ui| {
                        ui.add(egui::DragValue::new(&mut sc.table.width).range(30.0..=480.0));
                        ui.label("×");
                        ui.add(egui::DragValue::new(&mut sc.table.height).range(30.0..=480.0));
                    });
                    ui.end_row();
                    ui.label("Turn limit");
                    ui.add(egui::DragValue::new(&mut sc.turn_limit).range(1..=99));
                    ui.end_row();
                    ui.label("Weather");
                    egui::ComboBox::from_id_salt("ed_weather")
                        .selected_text(format!("{:?}", sc.weather))
                        .show_ui(ui, |ui| {
                            for w in [Weather::Normal, Weather::Poor, Weather::Extreme] {
                                ui.selectable_value(&mut sc.weather, w, format!("{w:?}"));
                            }
                        });
                    ui.end_row();
                    ui.label("First side");
                    ui.horizontal(|ui| {
                        for s in 0..sc.sides.len() {
                            let name = sc.sides[s].name.clone();
                            ui.selectable_value(&mut sc.first_side, s, name);
                        }
                    });
                    ui.end_row();
                    for s in 0..sc.sides.len() {
                        ui.label(format!("Side {}", s + 1));
                        ui.horizontal(|ui| {
                            ui.add(egui::TextEdit::singleline(&mut sc.sides[s].name).desired_width(90.0));
                            army_combo(ui, &format!("ed_army{s}"), &mut sc.sides[s].army);
                        });
                        ui.end_row();
                    }
                });
                ui.horizontal(|ui| {
                    ui.checkbox(&mut sc.wet_ground, "wet ground");
                    ui.checkbox(&mut sc.night, "night");
                    ui.checkbox(&mut sc.historical, "historical weather");
                });
                ui.label("Brief");
                ui.add(
                    egui::TextEdit::multiline(&mut sc.brief)
                        .desired_rows(3)
                        .desired_width(f32::INFINITY),
                );
                crate::ui::screens::menu::optional_rules(ui, &Default::default(), &mut sc.switches);
            });
        });
}
