//! Orders by intent (issue 65, "Command by intent, at any scale"): what a player means, not
//! the geometry of a move. "7th Wisconsin: to Hickory farm", "Meredith's brigade: into range
//! of 12th Virginia", "hold". The engine turns an intent into the legal actions that best
//! serve it, one at a time, and says what each does; the actions go through the one action
//! pipeline as a geometric move would, so a save or replay holds the moves, never the intent.
//!
//! - [`places`]: the named places of the table an intent may aim at (objectives, woods,
//!   hills, farms, roads, walls), found by a word of their name.
//! - [`resolve`]: one unit's next move for an intent, among the legal ones (its
//!   `check_move`), scored by how far it leaves the intent from done.
//! - [`run`]: a formation's intent (a unit, a brigade, a division) played out action by
//!   action: the order (the command roll) first, then each unit's move in turn, the
//!   formation keeping its frontage by moving no farther than its slowest unit.
//!
//! The computer players may use the same doors; nothing here reads what the side may not
//! know (an enemy named must be known to the side: [`Battle::known_to`]).

pub mod places;
pub mod resolve;
pub mod run;

pub use places::{Place, PlaceKind, name_matches};
pub use resolve::{EnemyThen, IntentMove, Keep};
pub use run::{IntentRun, RunStep};

use super::state::UnitId;

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
    pub fn words(&self, b: &super::Battle) -> String {
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
