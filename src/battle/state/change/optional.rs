//! Changes to the engineers' works and the constructions, and to the orders on their way.

use super::super::*;
use crate::battle::works::Bridging;

/// A change to the table's works (BPT "Engineering", "Constructions").
#[derive(Clone, Debug, PartialEq)]
pub enum WorksChange {
    /// A work finished: its task, its linear feature, where, and the terrain as it leaves
    /// it (the line of sight is prepared again on it, the units still blocking it).
    Laid(crate::battle::works::Task, u32, V2, Arc<Terrain>),
    /// The bridges under construction, as they now stand.
    Bridging(Vec<Bridging>),
    /// Hits noted against a building.
    ConstructionHits(u32, u32),
    /// A building collapsed.
    Collapsed(u32),
}

impl WorksChange {
    pub(super) fn apply(&self, s: &mut State) {
        match self {
            WorksChange::Laid(task, linear, at, terrain) => {
                s.terrain = terrain.clone();
                s.works.done.push((*task, *linear, *at));
                s.los.set_terrain(terrain);
            }
            WorksChange::Bridging(b) => s.works.bridging = b.clone(),
            WorksChange::ConstructionHits(i, h) => {
                s.constructions.hits.insert(*i, *h);
            }
            WorksChange::Collapsed(i) => {
                s.constructions.collapsed.insert(*i);
            }
        }
    }
}

/// A change to the orders on their way (switch `OrderDelay`).
#[derive(Clone, Debug, PartialEq)]
pub enum OrderDelayChange {
    /// The orders on their way, as they now stand.
    Pending(Vec<PendingOrder>),
}

impl OrderDelayChange {
    pub(super) fn apply(&self, pending: &mut Vec<PendingOrder>) {
        match self {
            OrderDelayChange::Pending(p) => *pending = p.clone(),
        }
    }
}
