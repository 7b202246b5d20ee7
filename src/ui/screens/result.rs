//! The result screen: who won and why, over the final table.

use crate::app::BattleState;
use crate::replay::strength::{Strength, strength_by_turn};
use crate::ui::common::Screen;
use crate::ui::common::side_colour;
use crate::ui::session::{BattleLog, GameRecord, Seats};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        result_window
            .after(crate::ui::common::PanelsSet)
            .run_if(in_state(Screen::Result)),
    );
}

/// The chart's points, or why there are none.
type ChartPoints = Result<Vec<Strength>, String>;

fn result_window(
    mut contexts: EguiContexts,
    battle: Res<BattleState>,
    record: Res<GameRecord>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    mut chart: Local<Option<(usize, ChartPoints)>>,
    mut commands: Commands,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let b = &battle.0;
    // The chart, computed once per finished game (re-playing the recording).
    let n = record.recording.actions.len();
    if chart.as_ref().is_none_or(|c| c.0 != n) {
        let points = strength_by_turn(&record.recording, &record.scenario).map_err(|e| e.to_string());
        *chart = Some((n, points));
    }
    egui::Window::new("The battle is over")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            match &b.outcome {
                Some(o) => {
                    match o.winner {
                        Some(s) => ui.label(
                            egui::RichText::new(crate::report::capital(&format!(
                                "{} for {}",
                                crate::report::result_word(&o.result),
                                b.sides[s].name
                            )))
                            .size(22.0)
                            .color(side_colour(s)),
                        ),
                        None => ui.label(egui::RichText::new("A draw").size(22.0)),
                    };
                    ui.label(crate::report::end_reason_words(o.reason));
                    ui.label(crate::terminal::view::decided_by(b, o));
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
            ui.separator();
            ui.label(egui::RichText::new("Strength (stands left) turn by turn").strong());
            match chart.as_ref().map(|c| &c.1) {
                Some(Ok(points)) => strength_chart(ui, points, [&b.sides[0].name, &b.sides[1].name]),
                Some(Err(e)) => {
                    ui.label(format!("no chart: {e}"));
                }
                None => {}
            }
            ui.separator();
            ui.label(format!(
                "{} actions; the game is saved in {}",
                b.actions,
                crate::ui::session::AUTOSAVE
            ));
            ui.horizontal(|ui| {
                if ui.button("Watch the replay").clicked() {
                    commands.queue(watch_replay);
                }
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

/// Lines of each side's stands by game turn, with the turns under them.
fn strength_chart(ui: &mut egui::Ui, points: &[Strength], names: [&str; 2]) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(420.0, 170.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 4.0, egui::Color32::from_gray(24));
    let plot = rect.shrink2(egui::vec2(30.0, 18.0));
    let top = points.iter().flat_map(|p| p.stands).max().unwrap_or(1).max(1) as f32;
    let n = points.len().max(2) - 1;
    let at = |i: usize, v: u32| {
        egui::pos2(
            plot.left() + plot.width() * i as f32 / n as f32,
            plot.bottom() - plot.height() * v as f32 / top,
        )
    };
    let grid = egui::Stroke::new(1.0, egui::Color32::from_gray(60));
    painter.line_segment([plot.left_bottom(), plot.right_bottom()], grid);
    painter.line_segment([plot.left_top(), plot.left_bottom()], grid);
    let font = egui::FontId::proportional(crate::ui::settings::MIN_TEXT_PT);
    let weak = egui::Color32::from_gray(160);
    painter.text(
        plot.left_top(),
        egui::Align2::RIGHT_CENTER,
        format!("{top} "),
        font.clone(),
        weak,
    );
    painter.text(plot.left_bottom(), egui::Align2::RIGHT_CENTER, "0 ", font.clone(), weak);
    for (i, p) in points.iter().enumerate() {
        let label = if p.game_turn == 0 {
            "start".to_string()
        } else {
            format!("{}", p.game_turn)
        };
        painter.text(
            egui::pos2(at(i, 0).x, plot.bottom() + 2.0),
            egui::Align2::CENTER_TOP,
            label,
            font.clone(),
            weak,
        );
    }
    for (s, name) in names.iter().enumerate() {
        // The second side's line 2 px lower, dashed: where the sides had as many stands the
        // two lines still both show.
        let shift = egui::vec2(0.0, 2.0 * s as f32);
        let line: Vec<egui::Pos2> = points
            .iter()
            .enumerate()
            .map(|(i, p)| at(i, p.stands[s]) + shift)
            .collect();
        let stroke = egui::Stroke::new(2.5, side_colour(s));
        if s == 0 {
            painter.add(egui::Shape::line(line.clone(), stroke));
        } else {
            painter.extend(egui::Shape::dashed_line(&line, stroke, 6.0, 4.0));
        }
        for q in line {
            if s == 0 {
                painter.circle_filled(q, 3.0, side_colour(s));
            } else {
                painter.rect_filled(
                    egui::Rect::from_center_size(q, egui::vec2(5.0, 5.0)),
                    0.0,
                    side_colour(s),
                );
            }
        }
        painter.text(
            egui::pos2(plot.right(), plot.top() + 12.0 * s as f32),
            egui::Align2::RIGHT_TOP,
            *name,
            font.clone(),
            side_colour(s),
        );
    }
}

/// "Watch the replay": the finished game in the replay viewer, from the start.
fn watch_replay(world: &mut World) {
    let record = world.resource::<GameRecord>();
    let rec = record.recording.clone();
    let path = record.scenario.clone();
    match crate::replay::timeline::Timeline::build(rec, &path) {
        Ok(t) => {
            // An online game's replay is watched here, from the server's recording.
            crate::ui::online::menu::leave(world);
            world.insert_resource(crate::ui::replay::Viewer::new(t));
            world.insert_non_send(crate::ui::session::Agents([None, None], 0));
            world.resource_mut::<Seats>().sides = ["replay".into(), "replay".into()];
            crate::ui::replay::seek_world(world, 0);
            world.resource_mut::<NextState<Screen>>().set(Screen::Battle);
        }
        Err(e) => world.resource_mut::<BattleLog>().status = Some(format!("cannot replay: {e}")),
    }
}
