//! The battle as a Bevy world. The rules resolve in the plain-data `Battle` behind one door,
//! `Battle::step` (deterministic, cheap to clone for undo, replays and look-ahead); around it
//! this plugin keeps a real world:
//!
//! - `base`: the battle as a resource and the battle's system sets (the ground floor);
//! - `messages`: actions in and events out as messages, and the
//!   system that sends each request through the door;
//! - `phase`: the phase as a Bevy `State` walked through every phase an action passed, with
//!   the decision window (open, counter-initiative, reaction, support) as its sub-state;
//! - `pieces`: every unit an entity, its stands its children with a `Transform` and a base
//!   shape, every commander an entity; only what an action changed is written, so
//!   `Changed<…>` means something;
//! - `movement`: the move envelope of a unit that asks for it, computed off the frame;
//! - `artillery`: where an aimed gun's ball would strike, bounce and stop;
//! - `sight` and `arcs`: who sees whom, and the vision and fire arcs, derived on change by the
//!   same `rules::` functions the core uses.
//!
//! The order within a frame: apply → walk the phases → sync the pieces → derive (sight, arcs).

pub mod arcs;
pub mod artillery;
pub mod base;
pub mod messages;
pub mod movement;
pub mod phase;
pub mod pieces;
pub mod sight;

pub use base::{BattleState, BattleSystems};
pub use messages::{ActionApplied, ActionRefused, ActionRequest, HeldElsewhere};
pub use phase::{DecisionWindow, GamePhase};
pub use pieces::{BaseShape, CommanderBase, PieceIndex, SideOf, Stand, UnitPiece, UnitStatus};

use crate::battle::Battle;
use bevy::prelude::*;

/// Runs the battle inside an app (windowed or headless).
pub fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            BattleSystems::Apply,
            BattleSystems::Follow,
            BattleSystems::Sync,
            BattleSystems::Derive,
        )
            .chain(),
    );
    app.add_plugins((
        messages::plugin,
        phase::plugin,
        pieces::plugin,
        sight::plugin,
        arcs::plugin,
        movement::plugin,
        artillery::plugin,
    ));
}

/// A headless app running `battle`: `MinimalPlugins`, states, transforms and the battle plugin.
pub fn headless_app(battle: Battle) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        bevy::state::app::StatesPlugin,
        bevy::transform::TransformPlugin,
    ));
    app.insert_resource(BattleState(battle));
    app.add_plugins(plugin);
    app.update();
    app
}
