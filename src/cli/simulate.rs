//! `volley simulate`: a whole game headless, its result, log, timing and recording.

use super::args::{Rules, side_agents};
use super::out::{keep_going_on_closed_pipe, output_failed, stdout};
use crate::agents;
use crate::replay::Recording;
use crate::sim;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub(super) struct Simulate {
    scenario: PathBuf,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// NAME=AGENT for a side (default: random for both).
    #[arg(long = "side")]
    sides: Vec<String>,
    /// End the game after this many game turns (1 or more).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    max_turns: Option<u32>,
    /// Write the game as a replay file.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Print the result as one JSON object (not with --log or --timing, whose lines would
    /// not be JSON).
    #[arg(long, conflicts_with_all = ["log", "timing"])]
    json: bool,
    /// Print the battle log (every roll and the rule that applied) as the game goes.
    #[arg(long)]
    log: bool,
    /// Also print each side's thinking time per choice (median, 95th percentile, slowest, with
    /// the turn and the reason of the slowest).
    #[arg(long)]
    timing: bool,
    #[command(flatten)]
    rules: Rules,
}

/// The battle log `simulate --log` prints as the game goes: the first error writing it is
/// kept and nothing more is written, and the game goes on to its end (its recording is not
/// lost with the output).
struct GameLog {
    w: std::io::StdoutLock<'static>,
    failed: Option<std::io::Error>,
}

impl GameLog {
    fn line(&mut self, args: std::fmt::Arguments<'_>) {
        if self.failed.is_none()
            && let Err(e) = self.w.write_fmt(args).and_then(|()| self.w.write_all(b"\n"))
        {
            self.failed = Some(e);
        }
    }

    /// The end of the output: what is buffered is written, and the first error, if any.
    fn finish(mut self) -> Option<std::io::Error> {
        if self.failed.is_none()
            && let Err(e) = self.w.flush()
        {
            self.failed = Some(e);
        }
        self.failed
    }
}

fn cannot_record(path: &Path, e: std::io::Error) -> String {
    format!("{}: cannot write: {e}", path.display())
}

impl Simulate {
    pub fn run(self) -> Result<(), String> {
        let seed = self.seed;
        let (mut b, setup) =
            crate::load_battle_with(&self.scenario, seed, &self.rules.switches()?).map_err(|e| e.to_string())?;
        b.cap_turns(self.max_turns);
        let names = side_agents(&b, &self.sides, "random")?;
        let mut agents = [
            agents::by_name(&names[0], seed, 0)?,
            agents::by_name(&names[1], seed, 1)?,
        ];
        if let Some(path) = &self.record {
            // Refused before the game is played, not after.
            crate::replay::refuse_non_recording(path).map_err(|e| cannot_record(path, e))?;
            // The recording must not depend on the reader of the output staying.
            keep_going_on_closed_pipe();
        }
        let scenario = self.scenario.display().to_string();
        let mut rec = Recording::start(&b, &scenario, seed, self.max_turns);
        let mut out = GameLog {
            w: stdout(),
            failed: None,
        };
        let log = self.log;
        // What happened before the first action (the weather rolled before the battle).
        if log && !setup.is_empty() {
            out.line(format_args!("> before the battle"));
            for e in &setup {
                out.line(format_args!("    {}", crate::report::line(&b, e)));
            }
        }
        let (done, times) = sim::play_timed(b, &mut agents, 200_000, |b, a, events, why| {
            if log {
                match why {
                    Some(why) => out.line(format_args!("> {} — {why}", a.name())),
                    None => out.line(format_args!("> {}", a.name())),
                }
                for e in events {
                    out.line(format_args!("    {}", crate::report::line(b, e)));
                }
            }
            rec.push(b, a, events);
        })
        .map_err(|e| e.to_string())?;
        // The computers' plans, whole and as the other side heard them, before the actions they
        // came with (a replay shows them; a loaded game tells them to the person as they were).
        let mut plans: Vec<(u64, usize, &crate::sim::Decision)> = (0..2)
            .flat_map(|s| times[s].iter().filter(|d| d.plan.is_some()).map(move |d| (d.nth, s, d)))
            .collect();
        plans.sort_by_key(|p| (p.0, p.1));
        for (nth, s, d) in plans {
            let text = d.plan.clone().unwrap_or_default();
            rec.plans.push(crate::replay::PlanNote {
                action: nth,
                side: s,
                agent: names[s].clone(),
                to_other: d.plan_to_other.clone(),
                text,
            });
        }
        if let Some(path) = &self.record {
            rec.save(path).map_err(|e| cannot_record(path, e))?;
        }
        self.report(&mut out, &done, &sim::summary(&done, &scenario, seed));
        if self.timing {
            for s in 0..2 {
                let t = sim::Thinking::of(&times[s]);
                let why = t.slowest_why.as_deref().map_or(String::new(), |w| format!(": {w}"));
                out.line(format_args!(
                    "thinking, {} ({}): {} choices, median {:.1} ms, 95th percentile {:.1} ms, slowest {:.1} ms (turn {}{why})",
                    done.sides[s].name, names[s], t.decisions, t.median_ms, t.p95_ms, t.slowest_ms, t.slowest_turn
                ));
            }
        }
        match (out.finish(), &self.record) {
            (None, _) => Ok(()),
            // The reader went away (`| head -1`): the game was played and recorded all the same.
            (Some(e), Some(path)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                eprintln!(
                    "volley: the output stopped ({}); the game was played to its end and recorded to {}",
                    crate::terminal::io_reason(&e),
                    path.display()
                );
                Ok(())
            }
            (Some(e), Some(path)) => Err(format!(
                "{}; the game was played to its end and recorded to {}",
                output_failed(e),
                path.display()
            )),
            (Some(e), None) => Err(output_failed(e)),
        }
    }

    /// The result: one JSON object, or the lines a player reads.
    fn report(&self, out: &mut GameLog, done: &crate::battle::Battle, result: &sim::SimResult) {
        if self.json {
            out.line(format_args!("{}", serde_json::to_string(result).expect("serialises")));
            return;
        }
        out.line(format_args!("{} (seed {})", done.title, self.seed));
        out.line(format_args!(
            "winner: {} ({}) after {} game turns, {} actions — {}",
            result.winner, result.result, result.game_turns, result.actions, result.reason
        ));
        for s in 0..2 {
            let n = &done.sides[s].name;
            out.line(format_args!(
                "  {n}: units lost {}, victory points {}, objective held: {}",
                result.units_lost[n], result.victory_points[n], result.objectives[n]
            ));
        }
        out.line(format_args!("state hash {}", result.state_hash));
    }
}
