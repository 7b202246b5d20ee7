//! The `random` agent: uniform over the legal actions, from its own seeded stream (the
//! game's dice are never touched by a choice).

use super::Agent;
use crate::battle::{Action, Battle};
use crate::rules::dice::Dice;

pub struct RandomAgent {
    dice: Dice,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent { dice: Dice::new(seed) }
    }
}

impl Agent for RandomAgent {
    fn choose(&mut self, _battle: &Battle, legal: &[Action]) -> usize {
        (self.dice.d(legal.len() as u32) - 1) as usize
    }
    fn name(&self) -> &'static str {
        "random"
    }
}
