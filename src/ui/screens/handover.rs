//! Hot-seat hand-over: when the decision passes to the other player the table is hidden until
//! that player takes the seat and clicks; meanwhile it sums up in a few lines what happened
//! since the last hand-over (moves, charges, fire, failed orders, results, losses), from the
//! events the battle log keeps, and only what the incoming player may see.
//!
//! Before it, the player whose action ended their part of the turn sees its melee: when that
//! action fought a charge (the charge phase resolves charges as the command phase ends), the
//! table stays theirs with the melee's result and dice over it (`ResultPause`) until they hand
//! over (the button or Enter).
//!
//! In solo play the same panel holds every melee the player may see, the computer's and their
//! own, as soon as the action that fought it is applied (`play::on_applied`): nobody acts, the
//! computer included, until the player goes on ("Continue", or Enter).

use crate::app::BattleState;
use crate::battle::Battle;
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

/// The melee the player at the table has not seen yet: what the last action caused, shown on
/// the table before the hand-over (hot-seat) or before anyone acts again (solo) (`None`: no
/// pause).
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct ResultPause(pub Option<Vec<LogLine>>);

/// A melee is held on the table (`ResultPause`): nobody acts till the player goes on.
pub fn held(pause: &Option<Res<ResultPause>>) -> bool {
    pause.as_ref().is_some_and(|p| p.0.is_some())
}

/// What the last action in `lines` caused, when it fought a melee (a combat round among its
/// events): its events' lines but the phase headings (computer players' reasons carry no
/// event). Empty when it fought none.
pub fn melee_to_show(lines: &[LogLine]) -> Vec<LogLine> {
    use crate::report::Mark;
    let mark = |l: &LogLine| l.event.as_ref().map(|e| crate::report::facts(e).mark);
    // What the last action caused, reaching back over the winners' consolidations (BPT
    // "Consolidate", each chosen in its own window after the melee it follows).
    let mut end = lines.len();
    let start = loop {
        let start = lines[..end].iter().rposition(|l| l.action).map_or(0, |i| i + 1);
        let stretch = &lines[start..end];
        let chosen = stretch.iter().any(|l| mark(l) == Some(Some(Mark::Consolidated)));
        if start == 0 || !chosen || stretch.iter().any(|l| mark(l) == Some(Some(Mark::Melee))) {
            break start;
        }
        end = start - 1;
    };
    let caused = &lines[start..];
    if !caused.iter().any(|l| mark(l) == Some(Some(Mark::Melee))) {
        return Vec::new();
    }
    caused
        .iter()
        .filter(|l| mark(l).is_some_and(|m| !matches!(m, Some(Mark::PhaseStarted { .. }))))
        .cloned()
        .collect()
}

/// [`melee_to_show`] as `viewer`'s side may know it: nothing of a unit hidden from it (the
/// rule of the hand-over's summary, `report::recap`); `None` shows all.
pub fn melee_seen(b: &Battle, lines: &[LogLine], viewer: Option<crate::battle::SideId>) -> Vec<LogLine> {
    melee_to_show(lines)
        .into_iter()
        .filter(|l| {
            l.event
                .as_ref()
                .is_none_or(|e| crate::report::recap::may_tell(b, e, viewer))
        })
        .collect()
}

/// Whether `events` fought a melee (a combat round among them).
pub fn fought_melee(events: &[crate::battle::Event]) -> bool {
    events
        .iter()
        .any(|e| crate::report::facts(e).mark == Some(crate::report::Mark::Melee))
}

/// What happened in `lines` (the log since the last hand-over), in a few lines
/// ([`crate::report::recap::recap`], read from the lines' events); `viewer` is the side about to
/// take the seat: nothing is said of a unit hidden from it.
pub fn summary(b: &Battle, lines: &[LogLine], viewer: Option<crate::battle::SideId>) -> Vec<String> {
    crate::report::recap::recap(b, lines.iter().map(|l| (l.event.as_ref(), l.text.as_str())), viewer)
}

/// What the player taking the seat is told: the battle, the log since the last hand-over and
/// what an open decision window asks of them (`ui::prompt`).
#[derive(bevy::ecs::system::SystemParam)]
struct Told<'w> {
    battle: Res<'w, BattleState>,
    log: Res<'w, BattleLog>,
    prompt: Option<Res<'w, crate::ui::prompt::WindowPrompt>>,
}

fn handover(
    mut contexts: EguiContexts,
    told: Told,
    mut seats: ResMut<Seats>,
    mut selection: ResMut<Selection>,
    mut next: ResMut<NextState<Screen>>,
    mut mark: ResMut<HandoverMark>,
) -> Result {
    let (battle, log) = (&told.battle, &told.log);
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
                    crate::report::phase_word(b.phase)
                ));
                // The decision the rules ask of them (an opportunity fire, a counter-charge...).
                if let Some(p) = told.prompt.as_ref().and_then(|p| p.0.as_deref()) {
                    ui.add_space(6.0);
                    ui.label(egui::RichText::new(crate::ui::common::plain(p)).color(side_colour(actor)));
                }
                ui.add_space(16.0);
                ui.label(egui::RichText::new("Since the last hand-over").strong());
                for line in summary(b, &log.lines[mark.0..], Some(actor)) {
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

/// The melee's result over the table: in hot-seat for the player who fought it, until they
/// hand over; in solo for the player, whoever fought it, until they go on. Enter lets it go
/// once it has been drawn: the Enter that ended the phase and fought the melee (in solo, held
/// in the same frame) is not taken for it. `shown`: the lines drawn in the frame before.
fn result_pause(
    mut contexts: EguiContexts,
    battle: Res<BattleState>,
    seats: Res<Seats>,
    mut pause: ResMut<ResultPause>,
    mut next: ResMut<NextState<Screen>>,
    mut shown: Local<Option<Vec<LogLine>>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(lines) = pause.0.clone() else { return Ok(()) };
    let fresh = shown.as_ref() != Some(&lines);
    if fresh {
        *shown = Some(lines.clone());
    }
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
            // Solo (and any game with one seat): the same player goes on at the table.
            let words = if seats.no_handover {
                "Continue (Enter)".to_string()
            } else {
                format!("Hand over to {} (Enter)", b.sides[actor].name)
            };
            let button = egui::Button::new(egui::RichText::new(words).strong());
            let enter = !fresh && ui.input(|i| i.key_pressed(egui::Key::Enter));
            done = ui.add(button).clicked() || enter;
        });
    if done {
        pause.0 = None;
        *shown = None;
        if !seats.no_handover {
            next.set(Screen::Handover);
        }
    }
    Ok(())
}
