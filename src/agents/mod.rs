//! Players that are programs: they choose among the legal actions, through the same pipeline
//! as a person.

pub mod agent;
pub mod general;
pub mod greedy;
pub mod perception;
pub mod random;
pub mod scheduler;

pub use agent::Agent;

/// Every agent name `by_name` knows.
pub const AGENTS: [&str; 7] = [
    "random",
    "eager",
    "greedy",
    "general",
    "scheduler",
    "scheduler-easy",
    "scheduler-hard",
];

/// Make an agent by name (`random`), seeded from the game seed and the side. A look-ahead
/// level may carry its budget after a colon for trials, e.g.
/// `scheduler:sims=96,width=12,turns=4` ([`scheduler::lookahead::Budget::with`]).
pub fn by_name(name: &str, seed: u64, side: usize) -> Result<Box<dyn Agent>, String> {
    let (level, spec) = match name.split_once(':') {
        Some((level, spec)) => (level, Some(spec)),
        None => (name, None),
    };
    let look = |budget: scheduler::lookahead::Budget, label: &'static str| -> Result<Box<dyn Agent>, String> {
        let budget = match spec {
            Some(spec) => budget.with(spec).map_err(|e| format!("agent '{name}': {e}"))?,
            None => budget,
        };
        Ok(Box::new(scheduler::lookahead::Lookahead::new(
            agent_seed(seed, side),
            budget,
            label,
        )))
    };
    match level {
        // The one-step judge with a look-ahead over the player turn; wider and longer.
        "scheduler" => look(scheduler::lookahead::NORMAL, "scheduler"),
        "scheduler-hard" => look(scheduler::lookahead::HARD, "scheduler-hard"),
        _ if spec.is_some() => Err(format!(
            "agent '{name}': only scheduler and scheduler-hard take a budget after ':'"
        )),
        "random" => Ok(Box::new(random::RandomAgent::new(agent_seed(seed, side)))),
        "eager" => Ok(Box::new(random::RandomAgent::eager(agent_seed(seed, side)))),
        "greedy" => Ok(Box::new(greedy::GreedyAgent::new())),
        // Commands by intent, a brigade at a time (issue 65): the planning opponent's floor.
        "general" => Ok(Box::new(general::General::new())),
        // The one-step judge: today's yardstick, fast.
        "scheduler-easy" => Ok(Box::new(scheduler::Scheduler::new(agent_seed(seed, side)))),
        other => Err(format!("unknown agent '{other}' (known: {})", AGENTS.join(", "))),
    }
}

/// Whether `name` is an agent [`by_name`] makes, its budget within bounds: the check a name
/// read from a file (a save's `players`) gets, the same as one on the command line.
pub fn check_name(name: &str) -> Result<(), String> {
    by_name(name, 0, 0).map(|_| ())
}

/// Whether `player` may play a side: `human`, or an agent ([`check_name`]).
pub fn check_player(player: &str) -> Result<(), String> {
    if player == "human" { Ok(()) } else { check_name(player) }
}

/// An agent's own stream, apart from the game's dice.
fn agent_seed(seed: u64, side: usize) -> u64 {
    seed ^ 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(side as u64 + 1)
}
