//! Players that are programs: they choose among the legal actions, through the same pipeline
//! as a person.

pub mod random;

use crate::battle::{Action, Battle};

/// Something that chooses actions for a side.
pub trait Agent {
    /// Pick one of `legal` (never empty) for the current state.
    fn choose(&mut self, battle: &Battle, legal: &[Action]) -> usize;
    fn name(&self) -> &'static str;
}

/// Make an agent by name (`random`), seeded from the game seed and the side.
pub fn by_name(name: &str, seed: u64, side: usize) -> Result<Box<dyn Agent>, String> {
    match name {
        "random" => Ok(Box::new(random::RandomAgent::new(agent_seed(seed, side)))),
        "eager" => Ok(Box::new(random::RandomAgent::eager(agent_seed(seed, side)))),
        other => Err(format!("unknown agent '{other}' (known: random, eager)")),
    }
}

/// An agent's own stream, apart from the game's dice.
fn agent_seed(seed: u64, side: usize) -> u64 {
    seed ^ 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(side as u64 + 1)
}
