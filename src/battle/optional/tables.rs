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

/// A change to this rule's table (applied by [`Battle::apply_change`] alone).
#[derive(Clone, Debug, PartialEq)]
pub enum ProneChange {
    /// The unit lies down (`true`) or stands up.
    Lying(UnitId, bool),
    /// A fire begins: no target has had its hit taken off yet.
    FireBegins,
    /// The target has had its one hit taken off in this fire.
    Spent(UnitId),
}

impl ProneChange {
    pub(crate) fn apply(&self, t: &mut Prone) {
        match self {
            ProneChange::Lying(u, down) => t.set(*u, *down),
            ProneChange::FireBegins => t.spent.clear(),
            ProneChange::Spent(u) => t.spent.push(*u),
        }
    }
}

/// A change to this rule's table (applied by [`Battle::apply_change`] alone): the player
/// turn the unit drew sabers in, or none.
#[derive(Clone, Debug, PartialEq)]
pub struct SaberChange(pub UnitId, pub Option<u32>);

impl SaberChange {
    pub(crate) fn apply(&self, t: &mut Sabers) {
        t.set(self.0, self.1);
    }
}
