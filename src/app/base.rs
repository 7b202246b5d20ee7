//! The ground floor of the battle's Bevy world: the battle as a resource and the sets its
//! systems run in.

use crate::battle::state::Battle;
use bevy::prelude::*;

/// The battle being played.
#[derive(Resource, Clone)]
pub struct BattleState(pub Battle);

/// The battle's systems, in the order they run within a frame.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BattleSystems {
    /// Requests sent through `Battle::step`.
    Apply,
    /// The phase state machine follows the battle.
    Follow,
    /// The pieces take the battle's positions and status.
    Sync,
    /// What is derived from the pieces: sight, arcs.
    Derive,
}
