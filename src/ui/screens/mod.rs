//! The screens, as Bevy states (`Screen`): the main menu, the battle, the hot-seat hand-over
//! and the result.

pub mod battle;
pub mod handover;
pub mod menu;
pub mod result;
pub mod settings;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    // The battle screen's keys come with `ui::play_plugin`.
    app.add_plugins((menu::plugin, handover::plugin, result::plugin, settings::plugin));
}
