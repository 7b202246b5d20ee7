//! Optional rule "Fixed Formations": units attached to another formation.

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FormationsEvent {
    /// BPT "Fixed Formations" (switch `FixedFormations`): the CO attached a unit of his own
    /// formation to an HQ's, for the rest of the battle.
    Attached { unit: UnitId, co: CmdId, hq: CmdId },
}
