//! Optional rule "Initiative Passing" (*Glory Days!*): activations, charge tests, rallies, D-markers.

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PassingEvent {
    /// *Glory Days!* "Activation" (switch `InitiativePassing`): one d6 ≥ the target.
    ActivationRoll {
        unit: UnitId,
        modifiers: Vec<Modifier>,
        target: i32,
        roll: u32,
        success: bool,
    },
    /// *Glory Days!* "Melee": the charge test after a charge activation, one d6 ≥ the
    /// target; a failure stops the charger 2" short of `enemy` and passes the initiative.
    ChargeTest {
        unit: UnitId,
        enemy: UnitId,
        modifiers: Vec<Modifier>,
        target: i32,
        roll: u32,
        success: bool,
    },
    /// *Glory Days!* "Rallying": one d6 ≥ the target removes a D-marker.
    RallyRoll {
        unit: UnitId,
        modifiers: Vec<Modifier>,
        target: i32,
        roll: u32,
        success: bool,
    },
    /// *Glory Days!* D-markers gained (positive) or rallied off (negative); `total` after.
    DMarkers {
        unit: UnitId,
        change: i32,
        total: u32,
        why: DMarkerWhy,
    },
    /// *Glory Days!* "Core Concepts": the initiative passes to the opponent (the active
    /// player's command phase ends once any open window closes).
    InitiativePassed { side: SideId, reason: PassReason },
}
