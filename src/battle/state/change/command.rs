//! Changes to the command phase's book-keeping and to the initiative passing's.

use super::super::*;
use crate::battle::action::{Ground, Purpose};
use crate::battle::reasons::PassReason;

/// A change to the command phase's book-keeping.
#[derive(Clone, Debug, PartialEq)]
pub enum CommandChange {
    /// A new player turn's book-keeping: nothing ordered yet.
    Reset,
    /// A unit's orders this turn, as they now are.
    Order(UnitId, OrderState),
    /// A commander has finished ordering.
    Done(CmdId),
    /// An HQ failed to order the unit (`true`), or the CO has since tried it (`false`).
    HqFailed(UnitId, bool),
    /// The army CO failed: no more orders by anyone this turn.
    AllStopped,
    /// The commander whose order is current.
    Current(Option<CmdId>),
    /// A commander moved this phase.
    Moved(CmdId),
    /// Order delay: the unit acts on an order that arrived this phase (`true`), or has been
    /// ordered since (`false`).
    Arrived(UnitId, bool),
    /// Order delay: one more order passed to the unit this phase and held.
    Held(UnitId),
}

impl CommandChange {
    pub(super) fn apply(&self, c: &mut CommandState) {
        match self {
            CommandChange::Reset => *c = CommandState::default(),
            CommandChange::Order(u, o) => {
                c.orders.insert(*u, o.clone());
            }
            CommandChange::Done(id) => {
                c.done.insert(*id);
            }
            CommandChange::HqFailed(u, true) => {
                c.hq_failed.insert(*u);
            }
            CommandChange::HqFailed(u, false) => {
                c.hq_failed.remove(u);
            }
            CommandChange::AllStopped => c.all_stopped = true,
            CommandChange::Current(id) => c.current = *id,
            CommandChange::Moved(id) => {
                c.moved.insert(*id);
            }
            CommandChange::Arrived(u, true) => {
                c.arrived.insert(*u);
            }
            CommandChange::Arrived(u, false) => {
                c.arrived.remove(u);
            }
            CommandChange::Held(u) => *c.held.entry(*u).or_insert(0) += 1,
        }
    }
}

/// A change to *Glory Days!*' initiative-passing book-keeping (switch `InitiativePassing`).
#[derive(Clone, Debug, PartialEq)]
pub enum PassingChange {
    /// The unit activated last (only it may be activated again).
    Activated(Option<UnitId>),
    /// The unit moved on this initiative.
    Moved(UnitId),
    /// The unit fired on this initiative.
    Fired(UnitId),
    /// The running count of hits landed by fire this phase.
    Landed(u32),
    /// The initiative has passed, for this reason.
    Passed(PassReason),
    /// What the activated unit's activation is for, and the worst terrain it may enter.
    Purpose(Purpose, Ground),
}

impl PassingChange {
    pub(super) fn apply(&self, p: &mut Passing) {
        match self {
            PassingChange::Activated(u) => p.activated = *u,
            PassingChange::Moved(u) => {
                p.moved.insert(*u);
            }
            PassingChange::Fired(u) => {
                p.fired.insert(*u);
            }
            PassingChange::Landed(n) => p.landed = *n,
            PassingChange::Passed(r) => p.passed = Some(*r),
            PassingChange::Purpose(purpose, ground) => {
                p.purpose = Some(*purpose);
                p.ground = *ground;
            }
        }
    }
}
