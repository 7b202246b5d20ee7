//! The battle screen's panels (bevy_egui): the phase bar on top; the selected unit or
//! commander and its orders on the left; the dice, victory state, battle log and terrain
//! legend on the right. The table shows in what is left, which the camera is told about.

pub mod box_select;
pub mod dice;
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

use super::camera::TableViewport;
pub use super::common::{Asks, LegalCache, PanelsSet, heading, plain, side_colour};
use super::common::{Preview, Screen, Selection};
use super::session::{BattleLog, GameRecord, Seats};
use super::settings::Binding;
use super::undo::UndoStack;
use crate::battle::ecs::{ActionRequest, BattleState};
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
        .init_resource::<crate::ui::common::OverWindow>()
        .add_systems(
            EguiPrimaryContextPass,
            battle_panels
                .in_set(PanelsSet)
                .run_if(in_state(Screen::Battle).or_else(in_state(Screen::Result))),
        );
}

/// The replay viewer, the open "end the phase?" question, the settings (its "do not ask
/// again"), the open "leave the battle?" question, and whether the pointer is over a floating
/// window.
type Asking<'w, 's> = (
    Option<ResMut<'w, crate::ui::replay::Viewer>>,
    ResMut<'w, crate::ui::screens::battle::EndPhaseAsk>,
    Option<ResMut<'w, crate::ui::settings::Settings>>,
    Local<'s, bool>,
    ResMut<'w, crate::ui::common::OverWindow>,
    Option<Res<'w, crate::ui::play::Thinking>>,
);

#[allow(clippy::too_many_arguments)]
fn battle_panels(
    mut contexts: EguiContexts,
    battle: Res<BattleState>,
    seats: Res<Seats>,
    turn: Res<State<crate::ui::session::Turn>>,
    mut log: ResMut<BattleLog>,
    record: Res<GameRecord>,
    undo: Res<UndoStack>,
    mut selection: ResMut<Selection>,
    mut preview: ResMut<Preview>,
    pinned: Option<Res<crate::ui::common::PinnedPreview>>,
    mut legal: ResMut<LegalCache>,
    mut viewport: ResMut<TableViewport>,
    mut requests: MessageWriter<ActionRequest>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    (mut viewer, mut end_ask, mut settings, mut leaving, mut over_window, thinking): Asking,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let b = &battle.0;
    legal.refresh(b);
    let may_act = crate::ui::session::at_table(turn.get(), &seats);
    let mut asks = Asks::default();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "battle".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::Panel::top("phase_bar").show(&mut root, |ui| {
        let game = phase_bar::BarGame {
            seats: &seats,
            log: &log,
            undo: &undo,
            thinking: thinking.is_some_and(|t| t.side.is_some()),
            end_key: crate::ui::settings::key_label(
                settings
                    .as_ref()
                    .map_or(Binding::EndPhase.default_key(), |s| s.key(Binding::EndPhase)),
            ),
        };
        phase_bar::show(ui, b, game, &legal.actions, may_act, &mut asks);
    });
    let mut replay_asks = crate::ui::replay::ReplayAsks::default();
    if let Some(v) = viewer.as_deref_mut() {
        egui::Panel::bottom("replay").show(&mut root, |ui| replay::show(ui, v, &mut replay_asks));
    }
    egui::Panel::left("left")
        .exact_size(300.0)
        .resizable(false)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().id_salt("left_scroll").show(ui, |ui| {
                unit_card::show(ui, b, &selection);
                ui.separator();
                orders::show(ui, b, &seats, &selection, &legal.actions, may_act, &mut asks);
                ui.separator();
                let side = seats.fog_viewer().unwrap_or(b.active);
                if let Some(s) = roster::show(ui, b, side, &selection) {
                    asks.select = Some(s);
                    commands.insert_resource(roster::CentreOn(roster::clicked_piece(b, s)));
                }
            });
        });
    egui::Panel::right("right")
        .exact_size(330.0)
        .resizable(false)
        .show(&mut root, |ui| {
            dice::show(ui, &log, b);
            ui.separator();
            victory::show(ui, b);
            ui.separator();
            legend::show(ui);
            ui.separator();
            log::show(ui, &log);
        });
    let free = root.available_rect_before_wrap();
    // egui's points are the window's logical pixels times the panels' scale.
    let k = ctx.zoom_factor();
    let rect = Rect::new(free.min.x * k, free.min.y * k, free.max.x * k, free.max.y * k);
    if viewport.0 != Some(rect) {
        viewport.0 = Some(rect);
    }
    // Ending the command phase while units still hold orders: ask first (as Enter does).
    if asks.request == Some(crate::battle::Action::EndPhase) {
        let confirm = settings.as_ref().is_none_or(|s| s.confirm_end_phase);
        asks.request = crate::ui::screens::battle::end_phase_request(b, &mut end_ask, confirm, false);
    }
    if end_ask.open(b) && may_act {
        let holding = crate::ui::screens::battle::units_holding_orders(b);
        let key = |k: Binding| crate::ui::settings::key_label(settings.as_ref().map_or(k.default_key(), |s| s.key(k)));
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
                    if ui
                        .button(format!("End the phase ({})", key(Binding::EndPhase)))
                        .clicked()
                    {
                        asks.request = Some(crate::battle::Action::EndPhase);
                    }
                    if ui
                        .button(format!("Keep ordering ({})", key(Binding::Deselect)))
                        .clicked()
                    {
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
    if let Some(a) = asks.request {
        requests.write(ActionRequest(a));
    }
    // A floating window (not the panels' own background layer) under the pointer takes its
    // clicks; the table's click is gated on it (`camera::pick`).
    let over = ctx
        .pointer_latest_pos()
        .and_then(|p| ctx.layer_id_at(p))
        .is_some_and(|l| l.order != egui::Order::Background);
    if over_window.0 != over {
        over_window.0 = over;
    }
    let hover = asks.hover.or_else(|| pinned.and_then(|p| p.0.clone()));
    if preview.0 != hover {
        preview.0 = hover;
    }
    if let Some(s) = asks.select
        && *selection != s
    {
        *selection = s;
    }
    if asks.save {
        log.status = Some(record.save(&save_path(&record)));
    }
    // Leaving for the menu asks first; a finished game (the result screen) goes at once.
    if asks.menu {
        if b.is_over() || record.recording.actions.is_empty() {
            next.set(Screen::Menu);
        } else {
            *leaving = true;
        }
    }
    if *leaving {
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
                        log.status = Some(record.save(&save_path(&record)));
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
    if asks.undo {
        commands.queue(|world: &mut World| {
            crate::ui::undo::undo_world(world);
        });
    }
    if let Some(n) = replay_asks.seek {
        commands.queue(move |world: &mut World| crate::ui::replay::seek_world(world, n));
    }
    if let Some(sides) = replay_asks.take_command {
        commands.queue(move |world: &mut World| {
            if let Err(e) = crate::ui::replay::take_command(world, sides) {
                world.resource_mut::<BattleLog>().status = Some(e);
            }
        });
    }
    Ok(())
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
    Ok(())
}
