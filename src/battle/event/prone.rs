//! Optional rule "Prone Movement".

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ProneEvent {
    /// BPT "Prone Movement" (switch `Prone`): a prone unit takes one hit fewer from a fire.
    ProneSaved { unit: UnitId, hits: u32, taken: u32 },
}
