//! `volley balance`: N seeded games, each side's win rate with its interval, game length and
//! losses (a progress bar on a terminal while it runs).

use super::args::{Rules, check_games_and_seed, side_agents};
use super::out::{done, output_failed, progress_bar, stdout};
use crate::sim;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct Balance {
    scenario: PathBuf,
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// The first seed (the games play seeds from it on).
    #[arg(long, default_value_t = 1)]
    first_seed: u64,
    /// Also print one line per game (units lost, charges, fires, first contact).
    #[arg(long)]
    per_game: bool,
    /// NAME=AGENT for a side (default: scheduler for both).
    #[arg(long = "side")]
    sides: Vec<String>,
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: Rules,
}

impl Balance {
    pub fn run(self) -> Result<(), String> {
        let (first_seed, games) = (self.first_seed, self.games);
        check_games_and_seed(games, first_seed)?;
        let rules = self.rules.switches()?;
        let (b, _) = crate::load_battle_with(&self.scenario, 1, &rules).map_err(|e| e.to_string())?;
        let agents = side_agents(&b, &self.sides, "scheduler")?;
        let r = sim::balance(&self.scenario, &agents, games, first_seed, &rules, &progress_bar(games))?;
        let mut w = stdout();
        if self.json {
            out!(w, "{}", serde_json::to_string(&r).expect("serialises"));
            return done(w);
        }
        out!(
            w,
            "{} — {} games, seeds {}–{}; optional rules: {}",
            r.scenario,
            r.games,
            first_seed,
            first_seed + games - 1,
            r.rules
        );
        out!(
            w,
            "{:<14} {:<16} {:>5} {:>7} {:>17} {:>11} {:>15} {:>8} {:>8}",
            "side",
            "agent",
            "wins",
            "win %",
            "95% interval",
            "units lost",
            "brigades lost",
            "charges",
            "fires"
        );
        for s in &r.sides {
            out!(
                w,
                "{:<14} {:<16} {:>5} {:>6.1}% {:>7.1}% – {:>5.1}% {:>11.2} {:>15.2} {:>8.2} {:>8.2}",
                s.side,
                s.agent,
                s.wins,
                s.win_rate * 100.0,
                s.ci95[0] * 100.0,
                s.ci95[1] * 100.0,
                s.avg_units_lost,
                s.avg_brigades_lost,
                s.avg_charges,
                s.avg_fires
            );
        }
        out!(
            w,
            "draws {}; average game length {:.1} game turns; first fire or charge in turn {} on average; {} games without any",
            r.draws,
            r.avg_game_turns,
            r.avg_first_contact.map_or("–".into(), |t| format!("{t:.1}")),
            r.quiet_games
        );
        if self.per_game {
            per_game(&mut w, &r)?;
        }
        done(w)
    }
}

/// `--per-game`: one line a game.
fn per_game(w: &mut impl Write, r: &sim::BalanceResult) -> Result<(), String> {
    out!(
        w,
        "seed   winner        turns  units lost  brigades lost  charges  fires    first contact"
    );
    for g in &r.per_game {
        out!(
            w,
            "{:<6} {:<13} {:>5}  {:>4} {:>4}  {:>6} {:>6}  {:>4} {:>3}  {:>4} {:>4}  {}",
            g.seed,
            g.winner.map_or("draw", |w| r.sides[w].side.as_str()),
            g.game_turns,
            g.units_lost[0],
            g.units_lost[1],
            g.brigades_lost[0],
            g.brigades_lost[1],
            g.charges[0],
            g.charges[1],
            g.fires[0],
            g.fires[1],
            g.first_contact.map_or("none".into(), |t| format!("turn {t}"))
        );
    }
    Ok(())
}
