//! The seam for optional rules. A rule that needs state of its own keeps it in its own table
//! here, keyed by unit ([`tables::Tables`]), never as fields on `Unit`; its effect on the core is a
//! set of hooks ([`OptionalRule`]), and [`RULES`] registers every rule's hooks in one place.
//! The core calls each hook at one point (may a unit act; a fire begins; the hits a fire
//! lands; a unit forced to move; the attacks a stand makes in contact; a fighter's modifiers;
//! the legal actions), and a hook runs only while its switch is on.
//!
//! Adding a rule: a module here with its table and its hooks, its switch in
//! `rules/switches.rs`, its line in [`RULES`], its events, and its tests (`docs/recipes.md`).
//! Prone and saber charge are on the seam; the other switches still keep their state on the
//! battle (`works`, `constructions`, `pending`) or the unit (`d_markers`, `scout`, `hidden`…).

pub mod hooks;
pub mod prone;
pub mod saber;
pub mod tables;

pub use hooks::{Act, OptionalRule};

use super::action::{Action, Refusal};
use super::event::{Event, Modifier};
use super::state::{Battle, Unit, UnitId};

/// Every optional rule on the seam, in the order their hooks run.
pub static RULES: &[&dyn OptionalRule] = &[&saber::SaberCharge, &prone::ProneMovement];

impl Battle {
    /// The rules on the seam whose switch is on, in [`RULES`] order (the hooks that change the
    /// battle walk `RULES` themselves: this borrows it).
    fn rules_on(&self) -> impl Iterator<Item = &'static dyn OptionalRule> + '_ {
        RULES.iter().copied().filter(|r| self.rules.switches.on(r.switch()))
    }

    /// Whether the optional rules let `unit` do `act`: the first refusal, if any.
    pub fn optional_check(&self, unit: UnitId, act: Act) -> Result<(), Refusal> {
        self.rules_on().try_for_each(|r| r.check_act(self, unit, act))
    }

    /// A unit's fire action begins.
    pub(crate) fn optional_fire_begins(&mut self) {
        for r in RULES {
            if self.rules.switches.on(r.switch()) {
                r.fire_begins(self);
            }
        }
    }

    /// The hits after saves a fire's resolution lands on `target`, through every rule on.
    pub(crate) fn optional_hits_landed(&mut self, target: UnitId, mut net: u32, ev: &mut Vec<Event>) -> u32 {
        for r in RULES {
            if self.rules.switches.on(r.switch()) {
                net = r.hits_landed(self, target, net, ev);
            }
        }
        net
    }

    /// `unit` is forced to move.
    pub(crate) fn optional_forced_move(&mut self, unit: UnitId) {
        for r in RULES {
            if self.rules.switches.on(r.switch()) {
                r.forced_move(self, unit);
            }
        }
    }

    /// The attacks a stand of `u` makes in contact, through every rule on.
    pub(crate) fn optional_contact_attacks(&self, u: &Unit, attacks: u32) -> u32 {
        self.rules_on().fold(attacks, |a, r| r.contact_attacks(self, u, a))
    }

    /// The optional rules' modifiers to `unit`'s dice fighting `enemies` in a charge.
    pub(crate) fn optional_fighter_modifiers(&self, unit: UnitId, enemies: &[UnitId]) -> Vec<Modifier> {
        self.rules_on()
            .filter_map(|r| r.fighter_modifier(self, unit, enemies))
            .collect()
    }

    /// The optional rules' actions added to the legal ones listed so far.
    pub(crate) fn optional_legal(&self, out: &mut Vec<Action>) {
        for r in self.rules_on() {
            r.legal(self, out);
        }
    }
}
