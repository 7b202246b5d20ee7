//! Hot-seat hand-over: when the decision passes to the other player the table is hidden until
//! that player takes the seat and clicks.

use crate::battle::ecs::BattleState;
use crate::ui::common::side_colour;
use crate::ui::common::{Screen, Selection};
use crate::ui::session::Seats;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, handover.run_if(in_state(Screen::Handover)));
}

fn handover(
    mut contexts: EguiContexts,
    battle: Res<BattleState>,
    mut seats: ResMut<Seats>,
    mut selection: ResMut<Selection>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let b = &battle.0;
    let actor = b.actor();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "handover".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::CentralPanel::default()
        .frame(egui::Frame::new().fill(egui::Color32::from_rgb(30, 26, 22)))
        .show(&mut root, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(ui.available_height() * 0.3);
                ui.label(egui::RichText::new("Hand over").size(30.0));
                ui.add_space(12.0);
                ui.label(
                    egui::RichText::new(format!("{} to act", b.sides[actor].name))
                        .size(24.0)
                        .color(side_colour(actor)),
                );
                ui.label(format!(
                    "Turn {} · {} phase",
                    b.game_turn,
                    crate::battle::log::phase_word(b.phase)
                ));
                ui.add_space(20.0);
                let button = egui::Button::new(
                    egui::RichText::new(format!("I play {} — show the table", b.sides[actor].name)).size(18.0),
                );
                if ui.add(button).clicked() {
                    seats.viewer = Some(actor);
                    *selection = Selection::default();
                    next.set(Screen::Battle);
                }
            });
        });
    Ok(())
}
