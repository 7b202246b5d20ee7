//! Optional rule "Scouting Cavalry" and hidden set-up.

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ScoutingEvent {
    /// Hidden set-up (switch `Scouting`): a hidden unit is found (`by` the enemy unit that
    /// spotted it, at `distance`; `None`: it gave itself away by acting).
    Revealed {
        unit: UnitId,
        by: Option<UnitId>,
        distance: f64,
    },
    /// BPT "Scouting Cavalry": a scout fired on or contacted leaves the table, not lost.
    ScoutRetired { unit: UnitId, why: RetiredWhy },
    /// BPT "Scouting Cavalry": a scout that passed its command roll moves without orders.
    ScoutFree { unit: UnitId },
}
