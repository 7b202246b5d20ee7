//! Small widgets the panel's parts share: pickers of formation, grade, material, objective
//! level and ammunition, and a name field.

use crate::data::scenario::{Ammo, Grade, ObjectiveLevel};
use crate::rules::formation::Formation;
use crate::rules::terrain::Material;
use bevy::prelude::*;
use bevy_egui::egui;

pub(super) const MATERIALS: [Material; 4] = [
    Material::Wooden,
    Material::Brick,
    Material::Stone,
    Material::Fortification,
];

pub(super) const GRADES: [Grade; 3] = [Grade::Elite, Grade::Regular, Grade::Poor];

pub(super) fn formation_combo(ui: &mut egui::Ui, id: &str, v: &mut Formation) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(v.to_string())
        .show_ui(ui, |ui| {
            for f in Formation::ALL {
                ui.selectable_value(v, f, f.to_string());
            }
        });
}

pub(super) fn grade_combo(ui: &mut egui::Ui, id: &str, v: &mut Grade) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(format!("{v:?}"))
        .show_ui(ui, |ui| {
            for g in GRADES {
                ui.selectable_value(v, g, format!("{g:?}"));
            }
        });
}

pub(super) fn material_combo(ui: &mut egui::Ui, id: &str, v: &mut Material) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(format!("{v:?}"))
        .show_ui(ui, |ui| {
            for m in MATERIALS {
                ui.selectable_value(v, m, format!("{m:?}"));
            }
        });
}

pub(super) fn level_combo(ui: &mut egui::Ui, id: &str, v: &mut ObjectiveLevel) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(format!("{v:?}"))
        .show_ui(ui, |ui| {
            for l in [ObjectiveLevel::Major, ObjectiveLevel::Minor] {
                ui.selectable_value(v, l, format!("{l:?}"));
            }
        });
}

pub(super) fn ammo_combo(ui: &mut egui::Ui, id: &str, v: &mut Option<Ammo>) {
    let text = v.map_or("unloaded".to_string(), |a| format!("loaded: {a:?}"));
    egui::ComboBox::from_id_salt(id).selected_text(text).show_ui(ui, |ui| {
        ui.selectable_value(v, None, "unloaded");
        for a in [Ammo::Shot, Ammo::Canister, Ammo::Shell] {
            ui.selectable_value(v, Some(a), format!("loaded: {a:?}"));
        }
    });
}

pub(super) fn name_field(ui: &mut egui::Ui, name: &mut String) {
    ui.horizontal(|ui| {
        ui.label("Name");
        ui.text_edit_singleline(name);
    });
}
