//! What the battle leaves on the table for good: the engineers' works (BPT "Engineering") and
//! the hits noted against buildings (BPT "Constructions"). Plain data the state carries; the
//! rules that change them are in `engineers.rs` and `constructions.rs`.

use super::ids::UnitId;
use crate::rules::geometry::V2;
use crate::rules::terrain::LinearKind;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What engineers do to a kind of linear terrain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Task {
    /// "Obstacle Clearance" (fences, hedges).
    Clear,
    /// "Demolition" (walls).
    Demolish,
    /// "Bridging" (rivers).
    Bridge,
}

impl Task {
    pub fn for_kind(kind: LinearKind) -> Option<Task> {
        match kind {
            LinearKind::Fence | LinearKind::Hedge => Some(Task::Clear),
            LinearKind::Wall => Some(Task::Demolish),
            LinearKind::River => Some(Task::Bridge),
            LinearKind::Road | LinearKind::Stream => None,
        }
    }
    pub fn verb(self) -> &'static str {
        match self {
            Task::Clear => "clear",
            Task::Demolish => "demolish",
            Task::Bridge => "bridge",
        }
    }
}

/// A bridge being built: where, and how much of it stands. Every bridging unit at the same
/// crossing (within `same_crossing` of `at` on the same river) adds its section to it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bridging {
    /// The unit that began it.
    pub unit: UnitId,
    pub linear: u32,
    pub at: V2,
    pub built: f64,
}

/// Everything engineers did to the table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Works {
    /// Finished works, in order: (task, linear index, where).
    pub done: Vec<(Task, u32, V2)>,
    pub bridging: Vec<Bridging>,
}

/// Hits noted against buildings, and the buildings that fell.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Constructions {
    pub hits: BTreeMap<u32, u32>,
    pub collapsed: BTreeSet<u32>,
}

impl Constructions {
    pub fn is_empty(&self) -> bool {
        self.hits.is_empty() && self.collapsed.is_empty()
    }
}
