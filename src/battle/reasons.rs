//! Why the initiative passed and why the game ended: kept in the state (`Passing::passed`,
//! `Outcome::reason`) and told by events, so they sit below both.

use super::ids::UnitId;
use serde::{Deserialize, Serialize};

/// Why the initiative passed (*Glory Days!* "Core Concepts"); the unit's name is the report's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PassReason {
    ActivationFailed {
        unit: UnitId,
    },
    ChargeTestFailed {
        unit: UnitId,
        target: UnitId,
    },
    RallyFailed {
        unit: UnitId,
    },
    /// The unit's fire landed fewer hits than keep the initiative.
    FireLanded {
        unit: UnitId,
        hits: u32,
    },
    /// Reaction fire landed this many hits on the moving unit: its move stops.
    ReactionStopped {
        unit: UnitId,
        hits: u32,
    },
}

impl PassReason {
    /// The units the reason names.
    pub fn units(&self) -> Vec<UnitId> {
        match *self {
            PassReason::ActivationFailed { unit }
            | PassReason::RallyFailed { unit }
            | PassReason::FireLanded { unit, .. }
            | PassReason::ReactionStopped { unit, .. } => vec![unit],
            PassReason::ChargeTestFailed { unit, target } => vec![unit, target],
        }
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    Breakpoint,
    CommandDestroyed,
    MajorObjective,
    TurnLimit,
    /// Not ended by the rules: stopped (a turn cap, a look-ahead, a result read mid-game).
    Unfinished,
}
