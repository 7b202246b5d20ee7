//! Playing online in the window: one seat of a game held by a server (`volley serve`).
//!
//! - `menu`: "Play online" from the main menu (host, join by code, my games), the server's
//!   address remembered in the settings;
//! - `link`: the line to the server, on a thread of its own (sending actions, waiting on
//!   events, reconnecting on its own);
//! - `table`: the table's actions sent to the server and its answers made the table's
//!   battle, a mirror of the seat's snapshot, with its events applied as a hot-seat action's.
//!
//! The table holds only what the seat's side may know: the server sends nothing else.

pub mod link;
pub mod menu;
pub mod table;

use crate::app::BattleSystems;
use crate::ui::common::Screen;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub use link::Link;
pub use menu::OnlineMenu;
pub use table::OnlineGame;

pub(crate) fn plugin(app: &mut App) {
    app.add_plugins(table_plugin);
    app.init_resource::<OnlineMenu>()
        .add_systems(OnEnter(Screen::Menu), (menu::close, menu::list_kept))
        .add_systems(
            EguiPrimaryContextPass,
            (
                menu::open_when_asked.run_if(in_state(Screen::Menu)),
                menu::online_window.run_if(in_state(Screen::Menu).and_then(|m: Res<OnlineMenu>| m.open)),
                online_panel.run_if(
                    resource_exists::<OnlineGame>.and_then(in_state(Screen::Battle).or_else(in_state(Screen::Result))),
                ),
            ),
        );
}

/// The online table's systems that need no window (a headless app runs them too): the
/// table's actions to the server, and the server's news into the table.
pub fn table_plugin(app: &mut App) {
    app.add_systems(
        Update,
        (table::send_requests, table::receive)
            .chain()
            .in_set(BattleSystems::Apply)
            .run_if(resource_exists::<Link>),
    );
}

/// The online game's corner of the battle screen: the game, the seat, the invite code the
/// other player joins with, whose decision it waits on, and the connection.
fn online_panel(
    mut contexts: EguiContexts,
    game: Res<OnlineGame>,
    link: Res<Link>,
    battle: Res<crate::app::BattleState>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let b = &battle.0;
    egui::Window::new("Online")
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -8.0])
        .collapsible(true)
        .resizable(false)
        .title_bar(false)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label(
                    egui::RichText::new(format!(
                        "Online game {} on {}: you play {}",
                        link.seat.game, link.server, link.seat.side_name
                    ))
                    .strong(),
                );
            });
            if let Some(code) = &link.seat.invite {
                ui.horizontal(|ui| {
                    ui.label("Invite code for the other player:");
                    ui.label(egui::RichText::new(code).monospace().strong());
                    if ui.small_button("Copy").clicked() {
                        ui.ctx().copy_text(code.clone());
                    }
                });
            }
            ui.label(
                egui::RichText::new(format!(
                    "Spectators: volley watch --server {} --code {}",
                    link.server, link.seat.watch
                ))
                .small()
                .weak(),
            );
            let (text, colour) = if !game.connected {
                (
                    "no answer from the server: trying again…".to_string(),
                    egui::Color32::from_rgb(255, 170, 60),
                )
            } else if game.over {
                (
                    match &game.recording {
                        Some(p) => format!("the game is over; its recording is saved to {}", p.display()),
                        None => "the game is over".to_string(),
                    },
                    egui::Color32::LIGHT_GRAY,
                )
            } else if game.sent.is_some() {
                ("your action is with the server…".to_string(), egui::Color32::LIGHT_GRAY)
            } else if game.your_decision {
                ("your decision".to_string(), egui::Color32::from_rgb(150, 220, 150))
            } else {
                (
                    format!(
                        "waiting for {}: you may leave, the game waits on the server (My games)",
                        b.sides[b.actor()].name
                    ),
                    egui::Color32::LIGHT_GRAY,
                )
            };
            ui.colored_label(colour, text);
        });
    Ok(())
}
