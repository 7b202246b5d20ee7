//! Optional rule "Saber Charge".

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SaberEvent {
    /// BPT "Saber Charge": the unit announced a saber charge.
    SabersDrawn { unit: UnitId },
}
