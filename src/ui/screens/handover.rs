//! Hot-seat hand-over: when the decision passes to the other player the table is hidden until
//! that player takes the seat and clicks; meanwhile it sums up in a few lines what happened
//! since the last hand-over (moves, fire, results, losses), from the battle log.
//!
//! Before it, the player whose action ended their part of the turn sees its melee: when that
//! action fought a charge (the charge phase resolves charges as the command phase ends), the
//! table stays theirs with the melee's result and dice over it (`ResultPause`) until they hand
//! over (the button or Enter).

use crate::battle::Battle;
use crate::battle::ecs::BattleState;
use crate::battle::log::count;
use crate::ui::common::side_colour;
use crate::ui::common::{Screen, Selection};
use crate::ui::session::{BattleLog, LogLine, Seats};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HandoverMark>()
        .init_resource::<ResultPause>()
        .add_systems(EguiPrimaryContextPass, handover.run_if(in_state(Screen::Handover)))
        .add_systems(
            EguiPrimaryContextPass,
            result_pause.run_if(in_state(Screen::Battle).and_then(|p: Res<ResultPause>| p.0.is_some())),
        );
}

/// The battle log's length when the table was last handed over: the summary tells what came
/// after.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct HandoverMark(pub usize);

/// The melee the player who is handing over has not seen yet: what the last action caused,
/// shown on the table before the hand-over (`None`: no pause).
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct ResultPause(pub Option<Vec<LogLine>>);

/// What the last action in `lines` caused, when it fought a melee (a "Charge on …" line):
/// its lines but the phase headings and computer players' reasons. Empty when it fought none.
pub fn melee_to_show(lines: &[LogLine]) -> Vec<LogLine> {
    let start = lines.iter().rposition(|l| l.action).map_or(0, |i| i + 1);
    let caused = &lines[start..];
    if !caused.iter().any(|l| l.text.starts_with("Charge on ")) {
        return Vec::new();
    }
    caused
        .iter()
        .filter(|l| !l.text.starts_with('[') && !l.text.starts_with('—'))
        .cloned()
        .collect()
}

/// Most result lines the summary lists (the rest are in the battle log).
pub const SUMMARY_RESULTS: usize = 8;

/// What happened in `lines` (the log since the last hand-over), in a few lines: for each side
/// the units that moved and the fire it opened; then what came of it (hits, falls back,
/// knock-outs, charges won and lost); then the units each side lost.
pub fn summary(b: &Battle, lines: &[LogLine]) -> Vec<String> {
    // The unit a line is about: the longest unit name it starts with.
    fn about<'t>(b: &Battle, text: &'t str) -> Option<(usize, &'t str)> {
        b.units
            .iter()
            .filter(|u| text.starts_with(u.name.as_str()))
            .max_by_key(|u| u.name.len())
            .map(|u| (u.side, &text[u.name.len()..]))
    }
    let mut moved: [std::collections::BTreeSet<&str>; 2] = Default::default();
    let mut fired = [0u32; 2];
    let mut lost = [0u32; 2];
    let mut results = Vec::new();
    for l in lines.iter().filter(|l| !l.action && !l.text.starts_with('[')) {
        let t = l.text.as_str();
        if let Some((side, rest)) = about(b, t) {
            let name = &t[..t.len() - rest.len()];
            if [" moves ", " charges ", " evades ", " moves up in support"]
                .iter()
                .any(|v| rest.starts_with(v))
            {
                moved[side].insert(name);
            } else if rest.starts_with(" fire (") || rest.starts_with(" round shot") || rest.starts_with(" shell") {
                fired[side] += 1;
            } else if rest.starts_with(" is knocked out") {
                lost[side] += 1;
                results.push(t);
            } else if [
                " takes ",
                " loses ",
                " falls back",
                " retreats",
                " is suppressed",
                " is disordered",
            ]
            .iter()
            .any(|v| rest.starts_with(v))
            {
                results.push(t);
            }
        } else if (t.starts_with("Charge on ") && !t.contains(", round ")) || t.contains("withdraws from the field") {
            results.push(t);
        }
    }
    let mut out = Vec::new();
    for s in 0..b.sides.len().min(2) {
        let mut parts = Vec::new();
        if !moved[s].is_empty() {
            let names: Vec<&str> = moved[s].iter().copied().collect();
            parts.push(format!(
                "moved {} ({})",
                count(names.len() as i64, "unit"),
                names.join(", ")
            ));
        }
        if fired[s] > 0 {
            parts.push(format!("fired {}", count(fired[s], "time")));
        }
        if !parts.is_empty() {
            out.push(format!("{} {}.", b.sides[s].name, parts.join(" and ")));
        }
    }
    let more = results.len().saturating_sub(SUMMARY_RESULTS);
    out.extend(results.iter().take(SUMMARY_RESULTS).map(|r| r.to_string()));
    if more > 0 {
        out.push(format!("… and {more} more in the battle log."));
    }
    let losses: Vec<String> = (0..b.sides.len().min(2))
        .filter(|&s| lost[s] > 0)
        .map(|s| format!("{} lost {}", b.sides[s].name, count(lost[s], "unit")))
        .collect();
    if !losses.is_empty() {
        out.push(format!("{}.", losses.join("; ")));
    }
    if out.is_empty() {
        out.push("Nothing moved, fired or was lost.".into());
    }
    out
}

fn handover(
    mut contexts: EguiContexts,
    battle: Res<BattleState>,
    mut seats: ResMut<Seats>,
    mut selection: ResMut<Selection>,
    mut next: ResMut<NextState<Screen>>,
    log: Res<BattleLog>,
    mut mark: ResMut<HandoverMark>,
) -> Result {
    if mark.0 > log.lines.len() {
        // A new game, an undo or a replay's seek: the log is shorter than it was.
        mark.0 = 0;
    }
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
                ui.add_space(ui.available_height() * 0.15);
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
                ui.add_space(16.0);
                ui.label(egui::RichText::new("Since the last hand-over").strong());
                for line in summary(b, &log.lines[mark.0..]) {
                    ui.label(crate::ui::common::plain(&line));
                }
                ui.add_space(20.0);
                let button = egui::Button::new(
                    egui::RichText::new(format!("I play {} — show the table (Space)", b.sides[actor].name)).size(18.0),
                );
                let space = ui.input(|i| i.key_pressed(egui::Key::Space));
                if ui.add(button).clicked() || space {
                    seats.viewer = Some(actor);
                    mark.0 = log.lines.len();
                    *selection = Selection::default();
                    next.set(Screen::Battle);
                }
            });
        });
    Ok(())
}

/// The melee's result over the table, for the player who fought it, until they hand over.
fn result_pause(
    mut contexts: EguiContexts,
    battle: Res<BattleState>,
    mut pause: ResMut<ResultPause>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(lines) = pause.0.clone() else { return Ok(()) };
    let b = &battle.0;
    let actor = b.actor();
    let mut done = false;
    egui::Window::new(egui::RichText::new("The charge is fought").strong())
        .id(egui::Id::new("result_pause"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 60.0))
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
                for l in &lines {
                    ui.label(crate::ui::common::plain(&l.text));
                    for t in &l.throws {
                        crate::ui::panels::dice::throw_row(ui, t, b);
                    }
                }
            });
            ui.add_space(8.0);
            let button = egui::Button::new(
                egui::RichText::new(format!("Hand over to {} (Enter)", b.sides[actor].name)).strong(),
            );
            let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
            done = ui.add(button).clicked() || enter;
        });
    if done {
        pause.0 = None;
        next.set(Screen::Handover);
    }
    Ok(())
}
