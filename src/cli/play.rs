//! `volley play`: a battle in the window, or turn by turn in the terminal.

use super::args::{DEFAULT_SCENARIO, Rules};
use super::game::{Start, terminal};
use super::refusal::Refusal;
use super::window;
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct Play {
    /// The scenario (default maps/skirmish.ron); not with --load, which plays the save's.
    scenario: Option<PathBuf>,
    /// Play in the terminal instead of a window.
    #[arg(long)]
    terminal: bool,
    /// NAME=human or NAME=AGENT for a side (agents: random, eager, greedy, scheduler,
    /// scheduler-easy, scheduler-hard); default: both human (hot-seat).
    #[arg(long = "side")]
    sides: Vec<String>,
    /// The seed of the battle's dice (default 1); not with --load.
    #[arg(long)]
    seed: Option<u64>,
    /// Continue a saved game (a recording), e.g. saves/game.ron or
    /// saves/autosave-first_battle.ron.
    /// Its scenario, seed and optional rules are the save's.
    #[arg(long, conflicts_with_all = ["scenario", "seed", "rules"])]
    load: Option<PathBuf>,
    #[command(flatten)]
    rules: Rules,
}

/// Why `--load` goes with none of the scenario, `--seed` and `--rule`.
pub(super) const REFUSALS: &[Refusal] = &[
    Refusal::conflict(
        "load",
        "scenario",
        "--load plays the scenario the save names: leave out the scenario",
    ),
    Refusal::conflict(
        "load",
        "seed",
        "--load continues the save with its own seed: leave out --seed",
    ),
    Refusal::conflict(
        "load",
        "rules",
        "--load continues the save with its own optional rules: leave out --rule",
    ),
];

impl Play {
    pub fn run(self) -> Result<(), String> {
        let start = Start {
            scenario: self.scenario.unwrap_or_else(|| DEFAULT_SCENARIO.into()),
            sides: self.sides,
            seed: self.seed.unwrap_or(1),
            load: self.load,
            rules: self.rules,
        };
        if self.terminal {
            terminal(start)
        } else {
            window::play(start, false)
        }
    }
}
