//! Changes to a commander and to a side.

use super::super::*;

/// A change to one commander.
#[derive(Clone, Debug, PartialEq)]
pub enum CommanderChange {
    Pos(V2),
    Mounted(bool),
    CommandValue(i32),
    KnockedOut(bool),
    Replaced(bool),
    PlacedTurn(Option<u32>),
    Suppressed(Option<Suppression>),
    Hits(u32),
}

impl CommanderChange {
    pub(super) fn apply(&self, c: &mut Commander) {
        match self {
            CommanderChange::Pos(p) => c.pos = *p,
            CommanderChange::Mounted(m) => c.mounted = *m,
            CommanderChange::CommandValue(v) => c.command_value = *v,
            CommanderChange::KnockedOut(k) => c.knocked_out = *k,
            CommanderChange::Replaced(r) => c.replaced = *r,
            CommanderChange::PlacedTurn(t) => c.placed_turn = *t,
            CommanderChange::Suppressed(s) => c.suppressed = *s,
            CommanderChange::Hits(h) => c.hits = *h,
        }
    }
}

/// A change to one side.
#[derive(Clone, Debug, PartialEq)]
pub enum SideChange {
    /// BPT "Breakpoint": it broke (or its command was destroyed).
    Broken(bool),
    /// The player turn it broke in.
    BrokeTurn(Option<u32>),
}

impl SideChange {
    pub(super) fn apply(&self, s: &mut Side) {
        match self {
            SideChange::Broken(b) => s.broken = *b,
            SideChange::BrokeTurn(t) => s.broke_turn = *t,
        }
    }
}
