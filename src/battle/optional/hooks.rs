//! The hooks an optional rule may plug into the core (the ground floor of the seam: the
//! rules' modules implement them, `optional::RULES` registers them, the core calls them
//! through `Battle::optional_*`).

use crate::battle::action::{Action, Deploy, Refusal};
use crate::battle::event::{Event, Modifier};
use crate::battle::state::{Battle, Unit, UnitId};
use crate::rules::switches::Switch;

/// What a unit is about to do, as the hooks that may forbid it see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Act {
    Move,
    Charge,
    Evade,
    Support,
    Fire,
    Deploy(Deploy),
}

/// One optional rule's hooks into the core. Every hook has a default that changes nothing.
pub trait OptionalRule: Sync {
    /// The switch that turns the rule on; its hooks run only then.
    fn switch(&self) -> Switch;
    /// Whether `unit` may do `act` (a refusal citing the rule if not).
    fn check_act(&self, _b: &Battle, _unit: UnitId, _act: Act) -> Result<(), Refusal> {
        Ok(())
    }
    /// A unit's fire action begins.
    fn fire_begins(&self, _b: &mut Battle) {}
    /// The hits after saves one resolution of a fire lands on `target`, as the rule leaves them.
    fn hits_landed(&self, _b: &mut Battle, _target: UnitId, net: u32, _ev: &mut Vec<Event>) -> u32 {
        net
    }
    /// `unit` is forced to move (falls back, retreats, is pushed back).
    fn forced_move(&self, _b: &mut Battle, _unit: UnitId) {}
    /// The attacks a stand of `u` makes in contact, given the core's `attacks`.
    fn contact_attacks(&self, _b: &Battle, _u: &Unit, attacks: u32) -> u32 {
        attacks
    }
    /// A modifier to the dice of `unit` fighting `enemies` in a charge.
    fn fighter_modifier(&self, _b: &Battle, _unit: UnitId, _enemies: &[UnitId]) -> Option<Modifier> {
        None
    }
    /// Actions the rule adds to the legal ones listed so far (`out`).
    fn legal(&self, _b: &Battle, _out: &mut Vec<Action>) {}
}
