//! The battle screen's panels (bevy_egui): the phase bar on top; the selected unit or
//! commander and its orders on the left; the dice, victory state, battle log and terrain
//! legend on the right. The table shows in what is left, which the camera is told about.

pub mod box_select;
mod by_intent;
pub mod dice;
pub mod entry;
pub mod legend;
pub mod log;
pub mod orders;
pub mod overlays;
pub mod phase_bar;
pub mod replay;
pub mod roster;
pub mod tooltip;
pub mod unit_card;
pub mod victory;
mod who;

use super::camera::TableViewport;
pub use super::common::{Asks, LegalCache, PanelsSet, heading, plain, side_colour};
use super::common::{Preview, Screen, Selection};
use super::screens::handover::held;
use super::session::{BattleLog, GameRecord, Seats};
use super::settings::Binding;
use super::undo::UndoStack;
use crate::app::{ActionRequest, BattleState};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((overlays::plugin, tooltip::plugin, roster::plugin, box_select::plugin));
    app.add_systems(EguiPrimaryContextPass, scale_panels.before(PanelsSet));
    app.add_systems(
        Update,
        (|s: Res<crate::ui::settings::Settings>| crate::ui::palette::set_text_palette(s.palette))
            .run_if(resource_exists_and_changed::<crate::ui::settings::Settings>),
    );
    app.init_resource::<LegalCache>()
        .init_resource::<OrdersShown>()
        .init_resource::<crate::ui::common::OverWindow>()
        .add_systems(
            EguiPrimaryContextPass,
            battle_panels
                .in_set(PanelsSet)
                .run_if(in_state(Screen::Battle).or_else(in_state(Screen::Result))),
        );
}

/// The game the panels show: the battle, who sits where and whose turn it is, the log (its
/// status line is written), the record (for saving), the undo stack and the computer's
/// thinking.
#[derive(SystemParam)]
struct PanelGame<'w> {
    battle: Res<'w, BattleState>,
    seats: Res<'w, Seats>,
    turn: Res<'w, State<crate::ui::session::Turn>>,
    log: ResMut<'w, BattleLog>,
    record: Res<'w, GameRecord>,
    undo: Res<'w, UndoStack>,
    thinking: Option<Res<'w, crate::ui::play::Thinking>>,
    prompt: Option<Res<'w, crate::ui::prompt::WindowPrompt>>,
    /// A melee held on the table (`handover::ResultPause`): nobody acts till the player goes on.
    pause: Option<Res<'w, crate::ui::screens::handover::ResultPause>>,
}

/// What the panels share with the table: the selection, the previewed action (and the one
/// pinned), the legal actions, the table's part of the window and whether the pointer is
/// over a floating window.
#[derive(SystemParam)]
struct TableShared<'w> {
    selection: ResMut<'w, Selection>,
    preview: ResMut<'w, Preview>,
    pinned: Option<Res<'w, crate::ui::common::PinnedPreview>>,
    legal: ResMut<'w, LegalCache>,
    viewport: ResMut<'w, TableViewport>,
    over_window: ResMut<'w, crate::ui::common::OverWindow>,
    orders_shown: ResMut<'w, OrdersShown>,
    intent: Option<Res<'w, crate::ui::intent::IntentInHand>>,
    boxed: Option<ResMut<'w, crate::ui::common::BoxedGroup>>,
    standing: Option<Res<'w, crate::ui::intent::StandingIntents>>,
    computer_plan: Option<Res<'w, crate::ui::follow::ComputerPlan>>,
}

/// The orders panel's buttons as last drawn: label and window rect (the probe's `orders`).
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct OrdersShown(pub Vec<(String, [f32; 4])>);

/// The panels' two questions: the open "end the phase?" (with the settings: its "do not ask
/// again" and the keys it names) and the open "leave the battle?".
#[derive(SystemParam)]
struct Dialogs<'w, 's> {
    end_ask: ResMut<'w, crate::ui::screens::battle::EndPhaseAsk>,
    settings: Option<ResMut<'w, crate::ui::settings::Settings>>,
    leaving: Local<'s, bool>,
}

/// Where the panels' answers go: the action requests, the next screen, and the world
/// commands (undo, replay seek, centring the camera).
#[derive(SystemParam)]
struct Outbox<'w, 's> {
    requests: MessageWriter<'w, ActionRequest>,
    next: ResMut<'w, NextState<Screen>>,
    commands: Commands<'w, 's>,
}

fn battle_panels(
    mut contexts: EguiContexts,
    mut game: PanelGame,
    mut shared: TableShared,
    mut dialogs: Dialogs,
    mut viewer: Option<ResMut<crate::ui::replay::Viewer>>,
    mut out: Outbox,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let b = &game.battle.0;
    shared.legal.refresh(b);
    let may_act = crate::ui::session::at_table(game.turn.get(), &game.seats, held(&game.pause));
    let mut asks = Asks::default();
    let mut replay_asks = crate::ui::replay::ReplayAsks::default();
    let free = show_panels(
        ctx,
        &game,
        &shared,
        dialogs.settings.as_deref(),
        (viewer.as_deref_mut(), &mut replay_asks),
        &mut asks,
        &mut out.commands,
    );
    // egui's points are the window's logical pixels times the panels' scale.
    let k = ctx.zoom_factor();
    let rect = Rect::new(free.min.x * k, free.min.y * k, free.max.x * k, free.max.y * k);
    if shared.viewport.0 != Some(rect) {
        shared.viewport.0 = Some(rect);
    }
    // Ending the command phase while units still hold orders: ask first (as Enter does).
    if asks.request == Some(crate::battle::Action::EndPhase) {
        let confirm = dialogs.settings.as_ref().is_none_or(|s| s.confirm_end_phase);
        asks.request = crate::ui::screens::battle::end_phase_request(b, &mut dialogs.end_ask, confirm, false);
    }
    if dialogs.end_ask.open(b) && may_act {
        end_phase_dialog(ctx, b, &mut dialogs, &mut asks);
    }
    if let Some(a) = asks.request.take() {
        out.requests.write(ActionRequest(a));
    }
    let busy = shared.intent.as_ref().is_some_and(|i| i.0.is_some());
    if let Some(ask) = asks.intent.take() {
        match crate::ui::intent::Hand::new(b, ask) {
            // One intent at a time: the one in hand plays out first.
            Ok(_) if busy => {
                game.log.status = Some("an intent is still being played out: the next when it is done".into());
            }
            Ok(h) => {
                game.log.status = Some(format!("{}: {}", h.who, h.run.intent.words(b)));
                out.commands.insert_resource(crate::ui::intent::IntentInHand(Some(h)));
            }
            Err(why) => game.log.status = Some(why),
        }
    }
    let shown = std::mem::take(&mut asks.shown);
    if shared.orders_shown.0 != shown {
        shared.orders_shown.0 = shown;
    }
    // A floating window (not the panels' own background layer) under the pointer takes its
    // clicks; the table's click is gated on it (`table::input`).
    let over = ctx
        .pointer_latest_pos()
        .and_then(|p| ctx.layer_id_at(p))
        .is_some_and(|l| l.order != egui::Order::Background);
    if shared.over_window.0 != over {
        shared.over_window.0 = over;
    }
    let hover = asks
        .hover
        .take()
        .or_else(|| shared.pinned.as_ref().and_then(|p| p.0.clone()));
    if shared.preview.0 != hover {
        shared.preview.0 = hover;
    }
    if let Some(s) = asks.select
        && *shared.selection != s
    {
        *shared.selection = s;
        if let Some(g) = shared.boxed.as_mut() {
            **g = Default::default();
        }
    }
    if asks.save {
        game.log.status = Some(if game.seats.online() {
            "an online game is kept by its server (come back to it from Play online, My games); its recording is saved when it is over".into()
        } else {
            game.record.save(&save_path(&game.record))
        });
    }
    // Leaving for the menu asks first; a finished game (the result screen) goes at once.
    if asks.menu {
        if game.battle.0.is_over() || game.record.recording.actions.is_empty() {
            out.next.set(Screen::Menu);
        } else {
            *dialogs.leaving = true;
        }
    }
    if *dialogs.leaving {
        leave_dialog(ctx, &mut dialogs.leaving, &mut game, &mut out.next);
    }
    queue_world_asks(&mut out.commands, asks.undo, replay_asks);
    Ok(())
}

/// The three panels round the table (the phase bar on top, the replay bar below when
/// replaying, the unit, orders and roster on the left, the dice, victory, legend and log on
/// the right), gathering what the player asks in `asks` and `replay.1`; the free rectangle
/// they leave for the table, in egui points.
fn show_panels(
    ctx: &egui::Context,
    game: &PanelGame,
    shared: &TableShared,
    settings: Option<&crate::ui::settings::Settings>,
    replay: (
        Option<&mut crate::ui::replay::Viewer>,
        &mut crate::ui::replay::ReplayAsks,
    ),
    asks: &mut Asks,
    commands: &mut Commands,
) -> egui::Rect {
    let b = &game.battle.0;
    let (seats, log, selection) = (&*game.seats, &*game.log, &*shared.selection);
    let legal = &shared.legal.actions;
    let may_act = crate::ui::session::at_table(game.turn.get(), seats, held(&game.pause));
    let mut root = egui::Ui::new(
        ctx.clone(),
        "battle".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::Panel::top("phase_bar").show(&mut root, |ui| {
        let bar = phase_bar::BarGame {
            seats,
            log,
            undo: &game.undo,
            thinking: game.thinking.as_ref().is_some_and(|t| t.side.is_some()),
            end_key: crate::ui::settings::key_label(
                settings.map_or(Binding::EndPhase.default_key(), |s| s.key(Binding::EndPhase)),
            ),
            prompt: game.prompt.as_ref().and_then(|p| p.0.as_deref()),
        };
        phase_bar::show(ui, b, bar, legal, may_act, asks);
    });
    let (viewer, replay_asks) = replay;
    if let Some(v) = viewer {
        egui::Panel::bottom("replay").show(&mut root, |ui| replay::show(ui, v, replay_asks));
    }
    egui::Panel::left("left")
        .exact_size(300.0)
        .resizable(false)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().id_salt("left_scroll").show(ui, |ui| {
                unit_card::show(ui, b, &seats.view(b), selection);
                ui.separator();
                let standing = match shared.standing.as_ref() {
                    Some(s) if may_act => s.0.offered(b, b.actor()),
                    _ => Vec::new(),
                };
                let extras = orders::Extras {
                    boxed: shared.boxed.as_deref(),
                    standing: &standing,
                    plan: shared.computer_plan.as_ref().and_then(|p| p.0[b.actor()].as_deref()),
                };
                orders::show(ui, b, seats, (selection, extras), legal, may_act, asks);
                ui.separator();
                let side = seats.fog_viewer().unwrap_or(b.active);
                if let Some(s) = roster::show(ui, b, side, selection) {
                    asks.select = Some(s);
                    commands.insert_resource(roster::CentreOn(roster::clicked_piece(b, s)));
                }
            });
        });
    egui::Panel::right("right")
        .exact_size(330.0)
        .resizable(false)
        .show(&mut root, |ui| {
            // The log and the dice as the side at the table may read them.
            let viewer = seats.fog_viewer();
            dice::show(ui, log, b, viewer);
            ui.separator();
            victory::show(ui, b);
            ui.separator();
            legend::show(ui, b);
            ui.separator();
            log::show(ui, log, viewer);
        });
    root.available_rect_before_wrap()
}

/// "End the command phase?": the units still holding orders, end the phase or keep ordering,
/// and "do not ask again" (which clears the setting). Ending puts the request in `asks`; an
/// answer closes the question.
fn end_phase_dialog(ctx: &egui::Context, b: &crate::battle::Battle, dialogs: &mut Dialogs, asks: &mut Asks) {
    let holding = crate::ui::screens::battle::units_holding_orders(b);
    let settings = &mut dialogs.settings;
    let key = |k: Binding| crate::ui::settings::key_label(settings.as_ref().map_or(k.default_key(), |s| s.key(k)));
    let (end_label, keep_label) = (key(Binding::EndPhase), key(Binding::Deselect));
    let end_ask = &mut dialogs.end_ask;
    let mut dont_ask = false;
    egui::Window::new("End the command phase?")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(format!(
                "{} still {} orders: {}.",
                crate::report::count(holding.len() as i64, "unit"),
                if holding.len() == 1 { "holds" } else { "hold" },
                holding.join(", ")
            ));
            ui.label("Their actions are lost when the phase ends.");
            ui.horizontal(|ui| {
                if ui.button(format!("End the phase ({end_label})")).clicked() {
                    asks.request = Some(crate::battle::Action::EndPhase);
                }
                if ui.button(format!("Keep ordering ({keep_label})")).clicked() {
                    end_ask.0 = None;
                }
            });
            ui.checkbox(&mut dont_ask, "Do not ask again (Settings)");
        });
    if dont_ask && let Some(s) = settings.as_mut() {
        s.confirm_end_phase = false;
    }
    if asks.request.is_some() {
        end_ask.0 = None;
    }
}

/// "Leave the battle?": resume, save and leave, or leave without saving (to the menu).
fn leave_dialog(ctx: &egui::Context, leaving: &mut bool, game: &mut PanelGame, next: &mut NextState<Screen>) {
    egui::Window::new("Leave the battle?")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(format!(
                "The game is saved at the start of every player turn in {}; what was played since is kept only if you save now.",
                crate::ui::session::AUTOSAVE
            ));
            ui.horizontal(|ui| {
                if ui.button("Resume").clicked() {
                    *leaving = false;
                }
                if ui.button("Save and leave").clicked() {
                    game.log.status = Some(game.record.save(&save_path(&game.record)));
                    *leaving = false;
                    next.set(Screen::Menu);
                }
                if ui.button("Leave without saving").clicked() {
                    *leaving = false;
                    next.set(Screen::Menu);
                }
            });
        });
}

/// What the panels ask of the whole world, run after this frame's systems: undo the last
/// step, seek the replay, take command of a replayed game (a refusal goes to the log's
/// status line).
fn queue_world_asks(commands: &mut Commands, undo: bool, replay: crate::ui::replay::ReplayAsks) {
    if undo {
        commands.queue(|world: &mut World| {
            crate::ui::undo::undo_world(world);
        });
    }
    if let Some(n) = replay.seek {
        commands.queue(move |world: &mut World| crate::ui::replay::seek_world(world, n));
    }
    if let Some(sides) = replay.take_command {
        commands.queue(move |world: &mut World| {
            if let Err(e) = crate::ui::replay::take_command(world, sides) {
                world.resource_mut::<BattleLog>().status = Some(e);
            }
        });
    }
}

/// Where "Save" writes: `saves/<scenario>.ron` (the Load list shows every file in `saves/`).
pub fn save_path(record: &GameRecord) -> std::path::PathBuf {
    let stem = record
        .scenario
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "game".into());
    std::path::Path::new("saves").join(format!("{stem}.ron"))
}

/// The panels' scale (`settings::ui_scale`): from the window's size, or as set.
fn scale_panels(
    mut contexts: EguiContexts,
    settings: Option<Res<crate::ui::settings::Settings>>,
    window: Option<Single<&Window, With<bevy::window::PrimaryWindow>>>,
) -> Result {
    let Some(window) = window else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let k = crate::ui::settings::ui_scale(settings.map_or(0.0, |s| s.ui_scale), window.width(), window.height());
    if (ctx.zoom_factor() - k).abs() > 1e-3 {
        ctx.set_zoom_factor(k);
    }
    let min = crate::ui::settings::MIN_TEXT_PT;
    if ctx.global_style().text_styles.values().any(|f| f.size < min) {
        ctx.all_styles_mut(crate::ui::settings::readable);
    }
    Ok(())
}
