//! Units moving and changing formation (BPT "Movement", "Deploying").

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MovementEvent {
    Moved {
        unit: UnitId,
        from: Pose,
        to: Pose,
        kind: MoveKind,
        cost: f64,
    },
    Deployed {
        unit: UnitId,
        what: Deployment,
    },
    Halted {
        unit: UnitId,
        by: UnitId,
    },
}
