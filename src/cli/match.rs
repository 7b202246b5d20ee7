//! `volley match`: agent against agent over many seeds, sides swapped every game.

use super::args::{DEFAULT_SCENARIO, Rules, check_games_and_seed};
use super::out::{done, output_failed, progress_bar, stdout};
use crate::sim;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct Match {
    #[arg(default_value = DEFAULT_SCENARIO)]
    scenario: PathBuf,
    /// The agent measured (e.g. scheduler; a look-ahead level may take a budget for a
    /// trial: scheduler:sims=96,width=12,turns=4,work=400000,sure=1).
    #[arg(long)]
    agent: String,
    /// Its opponent (e.g. greedy or random).
    #[arg(long)]
    against: String,
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// The first seed (the games play seeds from it on): keep the seeds an agent was
    /// tuned on apart from those its strength is reported on.
    #[arg(long, default_value_t = 1)]
    first_seed: u64,
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: Rules,
}

impl Match {
    pub fn run(self) -> Result<(), String> {
        let games = self.games;
        check_games_and_seed(games, self.first_seed)?;
        let switches = self.rules.switches()?;
        let r = sim::play_match(
            &self.scenario,
            &self.agent,
            &self.against,
            games,
            self.first_seed,
            &switches,
            &progress_bar(games),
        )?;
        let mut w = stdout();
        if self.json {
            out!(w, "{}", serde_json::to_string(&r).expect("serialises"));
        } else {
            out!(
                w,
                "{} against {} on {}: won {}, drew {}, lost {} of {} ({:.0}% won, 95% interval {:.0}–{:.0}%; seeds {}–{}, sides swapped every game)",
                r.agent,
                r.against,
                r.scenario,
                r.won,
                r.drawn,
                r.lost,
                r.games,
                r.win_rate * 100.0,
                r.ci95[0] * 100.0,
                r.ci95[1] * 100.0,
                r.first_seed,
                r.first_seed + r.games - 1,
            );
        }
        done(w)
    }
}
