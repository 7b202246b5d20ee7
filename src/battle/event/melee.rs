//! Charges and the combats they start (BPT "Charge Phase", "Resolution", "Consolidate").

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MeleeEvent {
    ChargeDeclared {
        unit: UnitId,
        target: UnitId,
        held_at: Pose,
    },
    ChargeContact {
        unit: UnitId,
        target: UnitId,
        aspect: Aspect,
    },
    ChargeFailed {
        unit: UnitId,
        target: UnitId,
        why: ChargeFailure,
    },
    Supporting {
        unit: UnitId,
        friend: UnitId,
    },
    CombatRound {
        round: u32,
        target: UnitId,
        /// Side index → (dice, modifiers, to_hit, rolls, hits before saves, saved, hits).
        sides: Vec<CombatSide>,
    },
    CombatResult {
        target: UnitId,
        winner: Option<SideId>,
        by_double: bool,
        hits: [u32; 2],
    },
    Retreated {
        unit: UnitId,
        from: Pose,
        to: Pose,
    },
    Consolidated {
        unit: UnitId,
        from: Pose,
        to: Pose,
    },
}
