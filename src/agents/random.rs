//! The `random` agent: uniform over the legal actions, from its own seeded stream (the
//! game's dice are never touched by a choice).

use super::agent::Agent;
use crate::battle::{Action, Battle};
use crate::rules::dice::Dice;

pub struct RandomAgent {
    dice: Dice,
    /// Ends a phase or passes only one time in `reluctance` when it has anything else to do
    /// (1 = uniform).
    reluctance: u32,
}

impl RandomAgent {
    /// Uniform over the legal actions.
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            dice: Dice::new(seed),
            reluctance: 1,
        }
    }

    /// Random, but keeps acting: ends a phase or passes one time in 20 when it could act
    /// (the `eager` agent; it exercises far more of the rules than uniform play).
    pub fn eager(seed: u64) -> Self {
        RandomAgent {
            dice: Dice::new(seed),
            reluctance: 20,
        }
    }
}

impl Agent for RandomAgent {
    fn choose(&mut self, _battle: &Battle, legal: &[Action]) -> usize {
        let idle = |a: &Action| matches!(a, Action::EndPhase | Action::Pass);
        let busy: Vec<usize> = (0..legal.len()).filter(|&i| !idle(&legal[i])).collect();
        if self.reluctance > 1 && !busy.is_empty() {
            if self.dice.d(self.reluctance) > 1 {
                return busy[(self.dice.d(busy.len() as u32) - 1) as usize];
            }
            return legal.iter().position(idle).unwrap_or(0);
        }
        (self.dice.d(legal.len() as u32) - 1) as usize
    }
    fn name(&self) -> &'static str {
        if self.reluctance > 1 { "eager" } else { "random" }
    }
}
