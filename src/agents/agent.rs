//! The ground floor of the agents: what every program that plays a side is.

use crate::battle::{Action, Battle};

/// Something that chooses actions for a side. `Send`, so the window can let it think on
/// another thread while it keeps drawing.
pub trait Agent: Send {
    /// Pick one of `legal` (never empty) for the current state.
    fn choose(&mut self, battle: &Battle, legal: &[Action]) -> usize;
    fn name(&self) -> &'static str;
    /// Why it made its last choice, one line for the battle log (the scheduler and greedy).
    fn reason(&self) -> Option<String> {
        None
    }
}
