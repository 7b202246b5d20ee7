//! Hardtack's artillery: round shot that bounces, shell, canister that blasts through.

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ArtilleryEvent {
    /// One gun's round shot (DECISIONS "Artillery: round shot with bounce"): the whole flight,
    /// every roll and point of it, and the attack dice each unit in an impact strip takes.
    RoundShot {
        firer: UnitId,
        trace: ShotTrace,
        attacked: Vec<(UnitId, u32)>,
    },
    /// One gun's shell (DECISIONS "Shell and howitzers"): the aim, the accuracy roll, the
    /// deviation (d12 clock, the d6s, cm), where it burst or why it was lost, and the dice each
    /// unit within the burst takes.
    ShellFired {
        firer: UnitId,
        gun: V2,
        aim: V2,
        high_angle: bool,
        accuracy_roll: u32,
        accuracy_need: u32,
        deviation: Option<(u32, Vec<u32>, f64)>,
        burst: V2,
        lost: Option<ShellLost>,
        attacked: Vec<(UnitId, u32)>,
        /// BPT "Air Burst Shell Fire": burst in the air (2 cm, one die fewer, as in the open).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        air_burst: bool,
    },
    /// Canister blasts through the unit in front (DECISIONS "Artillery: canister with
    /// blast-through"): the corridor, the next unit, and the score it is attacked at (None: the
    /// score would pass 6, so the blast stops).
    BlastThrough {
        firer: UnitId,
        corridor: [V2; 4],
        next: UnitId,
        damaged_in_front: u32,
        to_hit: Option<u32>,
    },
}
