//! The result screen: who won and why, over the final table.

use crate::battle::ecs::BattleState;
use crate::ui::Screen;
use crate::ui::panels::side_colour;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        result_window
            .after(crate::ui::panels::PanelsSet)
            .run_if(in_state(Screen::Result)),
    );
}

fn result_window(
    mut contexts: EguiContexts,
    battle: Res<BattleState>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let b = &battle.0;
    egui::Window::new("The battle is over")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            match &b.outcome {
                Some(o) => {
                    match o.winner {
                        Some(s) => ui.label(
                            egui::RichText::new(format!("{:?} victory for {}", o.result, b.sides[s].name))
                                .size(22.0)
                                .color(side_colour(s)),
                        ),
                        None => ui.label(egui::RichText::new("A draw").size(22.0)),
                    };
                    ui.label(&o.reason);
                    for s in 0..2 {
                        ui.label(format!(
                            "{}: {} victory points, {} units lost",
                            b.sides[s].name, o.victory_points[s], o.units_lost[s]
                        ));
                    }
                }
                None => {
                    ui.label("The battle is over.");
                }
            }
            ui.label(format!(
                "{} actions; the game is saved in {}",
                b.actions,
                crate::ui::session::AUTOSAVE
            ));
            ui.horizontal(|ui| {
                if ui.button("Main menu").clicked() {
                    next.set(Screen::Menu);
                }
                if ui.button("Quit").clicked() {
                    exit.write(AppExit::Success);
                }
            });
        });
    Ok(())
}
