//! Players that are programs: they choose among the legal actions, through the same pipeline
//! as a person.

pub mod agent;
pub mod greedy;
pub mod perception;
pub mod random;
pub mod scheduler;

pub use agent::Agent;

/// Every agent name `by_name` knows.
pub const AGENTS: [&str; 6] = [
    "random",
    "eager",
    "greedy",
    "scheduler",
    "scheduler-easy",
    "scheduler-hard",
];

/// Make an agent by name (`random`), seeded from the game seed and the side.
pub fn by_name(name: &str, seed: u64, side: usize) -> Result<Box<dyn Agent>, String> {
    match name {
        "random" => Ok(Box::new(random::RandomAgent::new(agent_seed(seed, side)))),
        "eager" => Ok(Box::new(random::RandomAgent::eager(agent_seed(seed, side)))),
        "greedy" => Ok(Box::new(greedy::GreedyAgent::new())),
        // The one-step judge: today's yardstick, fast.
        "scheduler-easy" => Ok(Box::new(scheduler::Scheduler::new(agent_seed(seed, side)))),
        // The one-step judge with a look-ahead over the player turn.
        "scheduler" => Ok(Box::new(scheduler::lookahead::Lookahead::new(
            agent_seed(seed, side),
            scheduler::lookahead::NORMAL,
            "scheduler",
        ))),
        "scheduler-hard" => Ok(Box::new(scheduler::lookahead::Lookahead::new(
            agent_seed(seed, side),
            scheduler::lookahead::HARD,
            "scheduler-hard",
        ))),
        other => Err(format!("unknown agent '{other}' (known: {})", AGENTS.join(", "))),
    }
}

/// An agent's own stream, apart from the game's dice.
fn agent_seed(seed: u64, side: usize) -> u64 {
    seed ^ 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(side as u64 + 1)
}
