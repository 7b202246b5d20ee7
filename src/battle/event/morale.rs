//! Hits, suppression, fall-backs, disorder, knock-outs and breakpoints (BPT "Attacks, Hits & Saves", "Suppression", "Breakpoints").

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MoraleEvent {
    HitsTaken {
        unit: UnitId,
        hits: u32,
        total: u32,
        value: u32,
    },
    SuppressionTest {
        unit: UnitId,
        rolls: Vec<u32>,
        need: u32,
        suppressed: bool,
    },
    FellBack {
        unit: UnitId,
        rolls: Vec<u32>,
        distance: f64,
        from: Pose,
        to: Pose,
    },
    Suppressed {
        unit: UnitId,
        why: SuppressedWhy,
    },
    KnockedOut {
        unit: UnitId,
        why: KnockOut,
    },
    StandsRemoved {
        unit: UnitId,
        removed: u32,
        left: u32,
    },
    Disordered {
        unit: UnitId,
    },
    DisorderEnded {
        unit: UnitId,
    },
    SuppressionCleared {
        unit: UnitId,
    },
    BreakpointRoll {
        side: SideId,
        value: i32,
        dice: [u32; 2],
        broken: bool,
    },
    SideBroken {
        side: SideId,
    },
}
