//! The optional rules' own tables, keyed by unit: the ground floor of the seam (the battle
//! state holds them; the rules' hooks read and write them). Each table belongs to one rule.

use crate::battle::ids::UnitId;
use std::collections::{BTreeMap, BTreeSet};

/// The optional rules' own tables, keyed by unit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tables {
    /// BPT "Prone Movement": who lies prone.
    pub prone: Prone,
    /// BPT "Saber Charge": who drew sabers, and in which player turn.
    pub sabers: Sabers,
}

/// BPT "Prone Movement": the units lying prone, and the targets that already had their hit
/// taken off in the fire being resolved (one unit firing; cleared as each fire begins).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Prone {
    lying: BTreeSet<UnitId>,
    pub(crate) spent: Vec<UnitId>,
}

impl Prone {
    pub fn is_prone(&self, unit: UnitId) -> bool {
        self.lying.contains(&unit)
    }
    /// Lie `unit` down (`true`) or stand it up.
    pub fn set(&mut self, unit: UnitId, down: bool) {
        if down {
            self.lying.insert(unit);
        } else {
            self.lying.remove(&unit);
        }
    }
}

/// BPT "Saber Charge": the player turn in which each unit that did announced a saber charge.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sabers {
    drawn: BTreeMap<UnitId, u32>,
}

impl Sabers {
    /// The player turn `unit` last drew sabers in.
    pub fn drawn_in(&self, unit: UnitId) -> Option<u32> {
        self.drawn.get(&unit).copied()
    }
    /// Set (or clear) the player turn `unit` drew sabers in.
    pub fn set(&mut self, unit: UnitId, player_turn: Option<u32>) {
        match player_turn {
            Some(t) => self.drawn.insert(unit, t),
            None => self.drawn.remove(&unit),
        };
    }
}
