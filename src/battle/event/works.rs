//! Engineers' works and constructions (BPT "Engineering", "Constructions").

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum WorksEvent {
    /// BPT "Engineering": a task carried out (its roll and need, or the bridge built so far).
    EngineerWork {
        unit: UnitId,
        task: crate::battle::works::Task,
        /// The linear feature worked on (its index in the terrain; the report names it).
        linear: u32,
        roll: Option<(u32, u32)>,
        /// Bridging: cm built of the river's width.
        built: Option<(f64, f64)>,
        /// The gap is open / the bridge stands.
        done: bool,
    },
    /// BPT "Constructions": artillery fire at troops inside struck the building too.
    ConstructionHit {
        building: u32,
        rolls: Vec<u32>,
        need: u32,
        save_rolls: Vec<u32>,
        /// Hits after saves.
        hits: u32,
        total: u32,
        value: u32,
    },
    /// BPT "Constructions": the building collapsed.
    ConstructionCollapsed {
        building: u32,
        knocked_out: Vec<UnitId>,
        suppressed: Vec<UnitId>,
    },
}
