//! What a player may mean: the intents, and what a unit may be told to face.

use super::places::Place;
use crate::battle::state::UnitId;

/// What a player wants a unit or formation to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Intent {
    /// Move to a named place (an objective, a terrain feature), and stop on it.
    To(Place),
    /// Move beside a friendly unit (on its flank nearer the mover).
    Beside(UnitId),
    /// Move until the enemy unit is within the mover's weapon range and in its fire cone.
    IntoRange(UnitId),
    /// Move until the enemy unit is within charge distance (not into contact: the charge is
    /// its own action).
    ChargeReach(UnitId),
    /// Form line (where the unit may) and face an enemy unit or a place, moving no farther
    /// than the turn needs.
    Face(Aim),
    /// Retire behind a feature: to its side away from the nearest enemy the side knows of,
    /// facing that enemy.
    Behind(Place),
    /// Stay where it is: no order, no move.
    Hold,
}

/// What a unit faces: an enemy unit or a place.
#[derive(Clone, Debug, PartialEq)]
pub enum Aim {
    Unit(UnitId),
    Place(Place),
}

impl Intent {
    /// The intent as a player says it: "to Hickory farm", "into range of 12th Virginia".
    pub fn words(&self, b: &crate::battle::Battle) -> String {
        let name = |u: &UnitId| b.units.get(*u as usize).map_or("?", |u| u.name.as_str()).to_string();
        match self {
            Intent::To(p) => format!("to {}", p.name),
            Intent::Beside(u) => format!("beside {}", name(u)),
            Intent::IntoRange(u) => format!("into range of {}", name(u)),
            Intent::ChargeReach(u) => format!("to charge reach of {}", name(u)),
            Intent::Face(Aim::Unit(u)) => format!("form line facing {}", name(u)),
            Intent::Face(Aim::Place(p)) => format!("form line facing {}", p.name),
            Intent::Behind(p) => format!("retire behind {}", p.name),
            Intent::Hold => "hold".into(),
        }
    }

    /// The enemy unit the intent names, if any.
    pub fn enemy(&self) -> Option<UnitId> {
        match self {
            Intent::IntoRange(u) | Intent::ChargeReach(u) | Intent::Face(Aim::Unit(u)) => Some(*u),
            _ => None,
        }
    }
}
