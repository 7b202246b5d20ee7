//! The settings screen, opened from the main menu: the animation speed, the palette, and the
//! key of every remappable action (click the action's key, then press the new one). "Save"
//! writes the settings file; "Close" keeps the changes for this run only.

use crate::ui::common::Screen;
use crate::ui::settings::{Binding, Key, PaletteChoice, Settings, SettingsStore, key_label};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        settings_window.run_if(in_state(Screen::Menu).and_then(|s: Res<SettingsStore>| s.open)),
    );
}

fn settings_window(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    mut store: ResMut<SettingsStore>,
    keys: Res<ButtonInput<KeyCode>>,
    mut capture: Local<Option<Binding>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // Waiting for a key: the first one pressed takes the action.
    if let Some(b) = *capture
        && let Some(&k) = keys.get_just_pressed().find(|k| crate::ui::settings::KEYS.contains(k))
    {
        settings.keys.insert(b, Key(k));
        *capture = None;
    }
    let mut edit = settings.clone();
    egui::Window::new("Settings")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .default_width(420.0)
        .show(ctx, |ui| {
            ui.add(egui::Slider::new(&mut edit.animation_speed, 0.0..=4.0).text("animation speed (0: off)"));
            ui.checkbox(
                &mut edit.confirm_end_phase,
                "Ask before ending the command phase while units still hold orders",
            );
            ui.add(
                egui::Slider::new(&mut edit.ui_scale, 0.0..=2.0)
                    .step_by(0.05)
                    .text("panel size (0: follows the window)"),
            );
            ui.checkbox(
                &mut edit.follow_computer,
                "Follow the computer: the camera pans to each piece it acts with",
            );
            ui.horizontal(|ui| {
                ui.label("Online server");
                ui.text_edit_singleline(&mut edit.server);
            });
            ui.separator();
            ui.label(egui::RichText::new("Palette").strong());
            for p in PaletteChoice::ALL {
                ui.radio_value(&mut edit.palette, p, p.label());
            }
            ui.separator();
            ui.label(egui::RichText::new("Keys").strong());
            ui.label(
                egui::RichText::new("Click a key, then press the new one.")
                    .small()
                    .weak(),
            );
            egui::Grid::new("bindings").num_columns(2).show(ui, |ui| {
                for b in Binding::ALL {
                    ui.label(b.label());
                    let text = if *capture == Some(b) {
                        "press a key…".to_string()
                    } else {
                        key_label(edit.key(b))
                    };
                    if ui.selectable_label(*capture == Some(b), text).clicked() {
                        *capture = Some(b);
                    }
                    ui.end_row();
                }
            });
            ui.label(
                egui::RichText::new("Fixed: arrow keys pan, Home fits, the wheel zooms.")
                    .small()
                    .weak(),
            );
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    match &store.dir {
                        Some(d) => match edit.save(d) {
                            Ok(()) => {
                                store.error = None;
                                store.open = false;
                            }
                            Err(e) => store.error = Some(format!("could not save the settings: {e}")),
                        },
                        None => store.error = Some("no config directory (set HOME or VOLLEY_CONFIG_DIR)".into()),
                    }
                }
                if ui.button("Defaults").clicked() {
                    edit = Settings::default();
                }
                if ui.button("Close").clicked() {
                    store.open = false;
                }
            });
            if let Some(e) = &store.error {
                ui.colored_label(egui::Color32::from_rgb(255, 170, 60), e);
            }
        });
    if edit != *settings {
        *settings = edit;
    }
    Ok(())
}
