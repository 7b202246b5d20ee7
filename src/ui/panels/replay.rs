//! The replay viewer's controls: play / pause, one action or one phase back and on, the game
//! turns, a timeline to scrub, the speed, and "take command here".

use crate::ui::replay::{ReplayAsks, Viewer};
use bevy_egui::egui;

pub fn show(ui: &mut egui::Ui, v: &mut Viewer, asks: &mut ReplayAsks) {
    let len = v.timeline.len();
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("Replay").strong());
        if ui.button("⏮").on_hover_text("the start").clicked() {
            asks.seek = Some(0);
        }
        if ui.button("◀").on_hover_text("one action back").clicked() {
            asks.seek = Some(v.at.saturating_sub(1));
        }
        let play = if v.playing { "⏸ pause" } else { "▶ play" };
        if ui.button(play).clicked() {
            v.playing = !v.playing;
        }
        if ui.button("▶|").on_hover_text("one action on").clicked() {
            asks.seek = Some((v.at + 1).min(len));
        }
        if ui.button("▶▶|").on_hover_text("to the end of this phase").clicked() {
            asks.seek = Some(v.next_phase());
        }
        ui.separator();
        ui.label("turn");
        let marks: Vec<(u32, usize)> = v
            .timeline
            .turns()
            .iter()
            .filter(|m| m.side == v.timeline.turns()[0].side)
            .map(|m| (m.game_turn, m.at))
            .collect();
        for (t, at) in marks {
            if ui.selectable_label(false, format!("{t}")).clicked() {
                asks.seek = Some(at);
            }
        }
        ui.separator();
        ui.add(
            egui::Slider::new(&mut v.speed, 0.25..=8.0)
                .logarithmic(true)
                .text("speed"),
        );
        ui.separator();
        ui.menu_button("Take command here", |ui| {
            for (label, sides) in [
                ("Hot-seat (two players)", ["human", "human"]),
                ("Play the first side against the scheduler", ["human", "scheduler"]),
                ("Play the second side against the scheduler", ["scheduler", "human"]),
            ] {
                if ui.button(label).clicked() {
                    asks.take_command = Some(sides.map(String::from));
                    ui.close();
                }
            }
        });
    });
    let mut at = v.at;
    ui.horizontal(|ui| {
        let label = format!("action {} of {len}", v.at);
        ui.label(label);
        // A slider's rail is `slider_width` long whatever space it is given: make it the
        // width that is left.
        ui.spacing_mut().slider_width = (ui.available_width() - 8.0).max(60.0);
        if ui.add(egui::Slider::new(&mut at, 0..=len).show_value(false)).changed() {
            asks.seek = Some(at);
        }
    });
}
