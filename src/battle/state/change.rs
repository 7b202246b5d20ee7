//! The one mutator: every change the battle makes in play is a [`Change`], applied by
//! [`Battle::apply_change`] and kept in the action's journal. Changes come in families by
//! what they change, each family's module owning its variants and how they apply. A change
//! is what the rules decided, worked out and rolled: applying it reads nothing but the change.

mod command;
mod optional;
mod table;
mod turn;
mod unit;

pub use command::{CommandChange, PassingChange};
pub use optional::{OrderDelayChange, WorksChange};
pub use table::{CommanderChange, SideChange};
pub use turn::{ChargeChange, TurnChange};
pub use unit::UnitChange;

use super::*;
pub use crate::battle::optional::tables::{ProneChange, SaberChange};

/// One change to the battle, by family.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    Unit(UnitId, UnitChange),
    Commander(CmdId, CommanderChange),
    Side(SideId, SideChange),
    Turn(TurnChange),
    Charge(ChargeChange),
    Command(CommandChange),
    Passing(PassingChange),
    Works(WorksChange),
    OrderDelay(OrderDelayChange),
    /// BPT "Prone Movement" (switch `Prone`): its own table.
    Prone(ProneChange),
    /// BPT "Saber Charge" (switch `SaberCharge`): its own table.
    Saber(SaberChange),
}

impl Battle {
    /// The only code that changes the battle in play: apply `change` and keep it in the
    /// action's journal.
    pub(crate) fn apply_change(&mut self, change: Change) {
        let s = &mut self.state;
        match &change {
            Change::Unit(id, c) => c.apply(&mut s.units[*id as usize]),
            Change::Commander(id, c) => c.apply(&mut s.commanders[*id as usize]),
            Change::Side(id, c) => c.apply(&mut s.sides[*id]),
            Change::Turn(c) => c.apply(s),
            Change::Charge(c) => c.apply(s),
            Change::Command(c) => c.apply(&mut s.cmd),
            Change::Passing(c) => c.apply(&mut s.cmd.passing),
            Change::Works(c) => c.apply(s),
            Change::OrderDelay(c) => c.apply(&mut s.pending),
            Change::Prone(c) => c.apply(&mut s.optional.prone),
            Change::Saber(c) => c.apply(&mut s.optional.sabers),
        }
        self.journal.push(change);
    }

    /// Follow changes another copy of this battle made (its [`Battle::last_changes`]): each
    /// through the one mutator, so the battle as it was before an action, with these, is the
    /// battle after it (the dice apart: they are rolled, not changed).
    pub fn apply_changes(&mut self, changes: &[Change]) {
        for c in changes {
            self.apply_change(c.clone());
        }
        self.refresh_geometry();
    }

    /// Change unit `id`.
    pub(crate) fn change_unit(&mut self, id: UnitId, c: UnitChange) {
        self.apply_change(Change::Unit(id, c));
    }

    /// Make unit `now.id` into `now` (a copy of it the rules worked a change out on).
    pub(crate) fn change_unit_to(&mut self, now: &Unit) {
        for c in UnitChange::between(self.unit(now.id), now) {
            self.change_unit(now.id, c);
        }
    }

    /// Change side `side`.
    pub(crate) fn change_side(&mut self, side: SideId, c: SideChange) {
        self.apply_change(Change::Side(side, c));
    }

    /// Change commander `id`.
    pub(crate) fn change_commander(&mut self, id: CmdId, c: CommanderChange) {
        self.apply_change(Change::Commander(id, c));
    }

    /// Change the turn, the phase or the step.
    pub(crate) fn change_turn(&mut self, c: TurnChange) {
        self.apply_change(Change::Turn(c));
    }

    /// The charges to fight, as they now stand.
    pub(crate) fn set_combats(&mut self, combats: Vec<Combat>) {
        self.apply_change(Change::Charge(ChargeChange::Combats(combats)));
    }

    /// Change the command phase's book-keeping.
    pub(crate) fn change_command(&mut self, c: CommandChange) {
        self.apply_change(Change::Command(c));
    }

    /// Change the initiative-passing book-keeping.
    pub(crate) fn change_passing(&mut self, c: PassingChange) {
        self.apply_change(Change::Passing(c));
    }

    /// Change a unit's orders this turn, if it has any: `f` edits a copy of them, and the
    /// result is set.
    pub(crate) fn change_order(&mut self, unit: UnitId, f: impl FnOnce(&mut OrderState)) {
        if let Some(o) = self.cmd.orders.get(&unit) {
            let mut o = o.clone();
            f(&mut o);
            self.change_command(CommandChange::Order(unit, o));
        }
    }

    /// Change a unit's orders this turn, starting from none by `by` if it has none.
    pub(crate) fn change_order_or_new(&mut self, unit: UnitId, by: CmdId, f: impl FnOnce(&mut OrderState)) {
        let mut o = self.cmd.orders.get(&unit).cloned().unwrap_or(OrderState::new(by));
        f(&mut o);
        self.change_command(CommandChange::Order(unit, o));
    }

    /// Finish the orders of every unit but `keep` (none: all).
    pub(crate) fn finish_orders_but(&mut self, keep: Option<UnitId>) {
        let open: Vec<UnitId> = self
            .cmd
            .orders
            .iter()
            .filter(|(u, o)| Some(**u) != keep && !o.finished)
            .map(|(u, _)| *u)
            .collect();
        for u in open {
            self.change_order(u, |o| o.finished = true);
        }
    }
}
