//! The `volley` command line.

use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use volley::agents;
use volley::battle::Battle;
use volley::replay::Recording;
use volley::rules::odds;
use volley::sim;

const DEFAULT_SCENARIO: &str = "maps/skirmish.ron";

#[derive(Parser)]
#[command(name = "volley", version, about = "Black Powder Tactical Commander on the computer")]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Play a battle in a window (or, with --terminal, turn by turn in the terminal).
    Play {
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
        #[arg(long)]
        load: Option<PathBuf>,
        /// Optional rules and variants to play with, by name, repeated or with commas:
        /// weather, morale-grades, saber-charge, air-burst, prone, fixed-formations, scouting,
        /// constructions, engineers, multi-national, order-delay, initiative-passing.
        #[arg(long = "rule")]
        rules: Vec<String>,
    },
    /// Play a whole game headless.
    Simulate {
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
        /// Optional rules and variants to play with, by name, repeated or with commas:
        /// weather, morale-grades, saber-charge, air-burst, prone, fixed-formations, scouting,
        /// constructions, engineers, multi-national, order-delay, initiative-passing.
        #[arg(long = "rule")]
        rules: Vec<String>,
    },
    /// Agent against agent over many seeds, sides swapped every game: how strong an agent is.
    Match {
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
        /// Optional rules and variants to play with, by name, repeated or with commas:
        /// weather, morale-grades, saber-charge, air-burst, prone, fixed-formations, scouting,
        /// constructions, engineers, multi-national, order-delay, initiative-passing.
        #[arg(long = "rule")]
        rules: Vec<String>,
    },
    /// Play N seeded games and report each side's win rate (95% interval), game length and losses.
    Balance {
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
        /// Optional rules and variants to play with, by name, repeated or with commas:
        /// weather, morale-grades, saber-charge, air-burst, prone, fixed-formations, scouting,
        /// constructions, engineers, multi-national, order-delay, initiative-passing.
        #[arg(long = "rule")]
        rules: Vec<String>,
    },
    /// Watch a recorded game in the window: play, pause, step, jump to a turn, take command.
    Replay { recording: PathBuf },
    /// Open a scenario in the scenario editor (new scenarios: from the main menu's "Scenario
    /// editor"); default maps/skirmish.ron.
    Edit { scenario: Option<PathBuf> },
    /// Re-play a recording headless: `ok <state_hash>`, or where it diverges.
    Verify { recording: PathBuf },
    /// Draw a scenario's battle in a window, save it as a PNG and quit.
    Screenshot {
        scenario: PathBuf,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 1600)]
        width: u32,
        #[arg(long, default_value_t = 1000)]
        height: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Show only part of the table: X,Y,WIDTH in cm (centre and width shown).
        #[arg(long, value_parser = parse_focus)]
        focus: Option<[f32; 3]>,
        /// Let the `eager` agent play both sides for N actions first.
        #[arg(long, default_value_t = 0)]
        play: u64,
        /// Picture the main menu instead of the battle.
        #[arg(long)]
        menu: bool,
        /// Picture the replay viewer on this recording instead (the scenario is the one it names).
        #[arg(long)]
        replay: Option<PathBuf>,
        /// With --replay: after this many actions (default 0).
        #[arg(long)]
        at: Option<usize>,
        /// Overlays to show: arc, cone, command, los=X1:Y1:X2:Y2, tape=X1:Y1:X2:Y2 (commas between).
        #[arg(long)]
        overlay: Option<String>,
        /// Select the unit or commander whose name contains this.
        #[arg(long)]
        select: Option<String>,
        /// Preview the selection's first legal action of a group (move, fire, charge, deploy, order).
        #[arg(long)]
        preview: Option<String>,
        /// Optional rules and variants to play with, by name, repeated or with commas:
        /// weather, morale-grades, saber-charge, air-burst, prone, fixed-formations, scouting,
        /// constructions, engineers, multi-national, order-delay, initiative-passing.
        #[arg(long = "rule")]
        rules: Vec<String>,
    },
    /// Check that a PNG shows a drawn battle (not blank, both sides' colours present).
    CheckScreenshot { png: PathBuf },
    /// Validate maps, scenarios, army lists and rules files.
    Check {
        files: Vec<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// The exact distribution of hits of a fire: the fire preview's maths.
    Odds {
        #[arg(long)]
        dice: u32,
        #[arg(long = "to-hit")]
        to_hit: u32,
        #[arg(long)]
        save: Option<u32>,
        /// Artillery: `shot` (with --accuracy: the crew's accuracy score) or `canister` (with
        /// --behind: the to-hit scores of the units behind the target in the corridor).
        #[arg(long)]
        ammo: Option<String>,
        #[arg(long, default_value_t = 4)]
        accuracy: u32,
        #[arg(long, value_delimiter = ',')]
        behind: Vec<u32>,
        /// Artillery: the first time the unit fires, +1 to every hit roll (BPT's first-fire
        /// bonus), through the whole canister chain too.
        #[arg(long = "first-fire")]
        first_fire: bool,
        #[arg(long)]
        json: bool,
    },
}

/// The most dice `odds` works out: far beyond any fire on the table, and the binomial's
/// floating point stays exact enough (at 1,100 dice and more it underflows to NaN).
const ODDS_MAX_DICE: u32 = 1000;

/// Writing into a closed pipe (`volley check maps/*.ron | head -1`) ends the program quietly,
/// as it does for other command-line tools, instead of panicking in `println!`.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// For a command that has something to keep when its reader goes away (`simulate --record`,
/// the terminal game): writing into a closed pipe is an error it handles, not the end.
fn keep_going_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: ignoring SIGPIPE; called from the main thread before the command's work starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// Output that cannot be written where `println!` is still used (`check`'s report, a line
/// printed by the library): a message and a failure, not a panic. An error writing to standard
/// error itself, or into a closed pipe, ends the program without a word.
fn clean_exit_on_output_errors() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info.payload_as_str().unwrap_or("");
        if let Some(reason) = msg.strip_prefix("failed printing to stdout: ") {
            if !reason.contains("Broken pipe") {
                let reason = reason.find(" (os error ").map_or(reason, |i| &reason[..i]);
                let _ = writeln!(std::io::stderr(), "volley: cannot write the output: {reason}");
            }
            std::process::exit(1);
        }
        if msg.starts_with("failed printing to stderr: ") {
            std::process::exit(1);
        }
        default(info)
    }));
}

/// The error of a command whose report cannot be written.
fn output_failed(e: std::io::Error) -> String {
    format!("cannot write the output: {}", volley::terminal::io_reason(&e))
}

/// A line of a command's report on standard output; an error writing it ends the command
/// with [`output_failed`] (`?` in a function returning `Result<_, String>`).
macro_rules! out {
    ($w:expr, $($t:tt)*) => {
        writeln!($w, $($t)*).map_err(output_failed)?
    };
}

/// Standard output, for a report written with [`out!`].
fn stdout() -> std::io::StdoutLock<'static> {
    std::io::stdout().lock()
}

/// The end of a report: what is still buffered is written, or the command fails.
fn done(mut w: impl Write) -> Result<(), String> {
    w.flush().map_err(output_failed)
}

/// `odds`' numbers within what the dice allow: dice 1 to ODDS_MAX_DICE, scores 2+ to 6+.
fn check_odds_args(
    dice: u32,
    to_hit: u32,
    save: Option<u32>,
    ammo: Option<&str>,
    accuracy: u32,
    behind: &[u32],
    first_fire: bool,
) -> Result<(), String> {
    if !(1..=ODDS_MAX_DICE).contains(&dice) {
        return Err(format!("--dice must be 1 to {ODDS_MAX_DICE}, not {dice}"));
    }
    let score = |what: &str, v: u32| {
        if (2..=6).contains(&v) {
            Ok(())
        } else {
            Err(format!("{what} is the score a d6 must reach, 2 to 6, not {v}"))
        }
    };
    score("--to-hit", to_hit)?;
    if let Some(s) = save {
        score("--save", s)?;
    }
    if ammo.is_none() && !behind.is_empty() {
        return Err("--behind is for canister (--ammo canister)".into());
    }
    if ammo.is_none() && first_fire {
        return Err("--first-fire is for artillery (--ammo); for other fire give the score it needs".into());
    }
    if ammo.is_some() {
        score("--accuracy", accuracy)?;
    }
    for &b in behind {
        score("--behind", b)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    clean_exit_on_output_errors();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Cmd::Play {
            scenario: Some(_),
            load: Some(_),
            ..
        }) => Err("--load plays the scenario the save names: leave out the scenario".into()),
        Some(Cmd::Play {
            seed: Some(_),
            load: Some(_),
            ..
        }) => Err("--load continues the save with its own seed: leave out --seed".into()),
        Some(Cmd::Play {
            rules, load: Some(_), ..
        }) if !rules.is_empty() => {
            Err("--load continues the save with its own optional rules: leave out --rule".into())
        }
        Some(Cmd::Screenshot {
            replay: None,
            at: Some(_),
            ..
        }) => Err("--at goes with --replay (a position in the recording)".into()),
        None => window(PathBuf::from(DEFAULT_SCENARIO), &[], 1, None, true, &[]),
        Some(Cmd::Play {
            scenario,
            terminal: true,
            sides,
            seed,
            load,
            rules,
        }) => play(
            scenario.unwrap_or_else(|| DEFAULT_SCENARIO.into()),
            &sides,
            seed.unwrap_or(1),
            load,
            &rules,
        ),
        Some(Cmd::Play {
            scenario,
            terminal: false,
            sides,
            seed,
            load,
            rules,
        }) => window(
            scenario.unwrap_or_else(|| DEFAULT_SCENARIO.into()),
            &sides,
            seed.unwrap_or(1),
            load,
            false,
            &rules,
        ),
        Some(Cmd::Screenshot {
            scenario,
            out,
            width,
            height,
            seed,
            focus,
            play,
            menu,
            replay,
            at,
            overlay,
            select,
            preview,
            rules,
        }) => screenshot(
            scenario,
            out,
            width,
            height,
            seed,
            focus,
            play,
            menu,
            replay.map(|r| (r, at.unwrap_or(0))),
            (overlay, select, preview),
            &rules,
        ),
        Some(Cmd::CheckScreenshot { png }) => check_screenshot(&png),
        Some(Cmd::Simulate {
            scenario,
            seed,
            sides,
            max_turns,
            record,
            json,
            log,
            timing,
            rules,
        }) => simulate(scenario, seed, &sides, max_turns, record, (json, log, timing), &rules),
        Some(Cmd::Replay { recording }) => replay_window(recording),
        Some(Cmd::Edit { scenario }) => edit_window(scenario.unwrap_or_else(|| DEFAULT_SCENARIO.into())),
        Some(Cmd::Verify { recording }) => volley::replay::verify::verify_report(&recording).and_then(|v| {
            let mut w = stdout();
            out!(w, "ok {v}");
            done(w)
        }),
        Some(Cmd::Check { files, json }) => volley::data::check::run(&files, json, &volley::replay::check_recording),
        Some(Cmd::Balance {
            scenario,
            games,
            first_seed,
            per_game,
            sides,
            json,
            rules,
        }) => balance(&scenario, (first_seed, games), &sides, (json, per_game), &rules),
        Some(Cmd::Match {
            scenario,
            agent,
            against,
            games,
            first_seed,
            json,
            rules,
        }) => check_games(games)
            .and_then(|()| check_seed(first_seed))
            .and_then(|()| switches(&rules))
            .and_then(|w| sim::play_match(&scenario, &agent, &against, games, first_seed, &w, &progress_bar(games)))
            .and_then(|r| {
                let mut w = stdout();
                if json {
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
            }),
        Some(Cmd::Odds {
            dice,
            to_hit,
            save,
            ammo: Some(ammo),
            accuracy,
            behind,
            first_fire,
            json,
        }) => check_odds_args(dice, to_hit, save, Some(&ammo), accuracy, &behind, first_fire).and_then(|()| {
            artillery_odds(
                &ammo,
                &ArtilleryOdds {
                    dice,
                    to_hit,
                    save,
                    accuracy,
                    behind,
                    roll_bonus: u32::from(first_fire),
                },
                json,
            )
        }),
        Some(Cmd::Odds {
            dice,
            to_hit,
            save,
            accuracy,
            behind,
            first_fire,
            json,
            ..
        }) => check_odds_args(dice, to_hit, save, None, accuracy, &behind, first_fire).and_then(|()| {
            let report = odds::odds_report(dice, to_hit, save);
            let mut w = stdout();
            if json {
                out!(w, "{}", serde_json::to_string(&report).expect("serialises"));
            } else {
                write!(w, "{report}").map_err(output_failed)?;
            }
            done(w)
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("volley: {}", volley::data::text::printable(&e));
            ExitCode::FAILURE
        }
    }
}

/// What `volley odds --ammo` is asked.
struct ArtilleryOdds {
    dice: u32,
    to_hit: u32,
    save: Option<u32>,
    accuracy: u32,
    behind: Vec<u32>,
    /// Taken off every score to hit (the first-fire +1), as the game does after the score.
    roll_bonus: u32,
}

/// `volley odds --ammo shot|canister`: the expected hits of a round shot on its target, or of
/// a canister blast on the target and each unit behind it (the fire preview's numbers).
fn artillery_odds(ammo: &str, a: &ArtilleryOdds, json: bool) -> Result<(), String> {
    use volley::rules::artillery as art;
    let ArtilleryOdds {
        dice,
        to_hit,
        save,
        accuracy,
        ref behind,
        roll_bonus,
    } = *a;
    let bonus_note = if roll_bonus > 0 {
        format!(", +{roll_bonus} to hit (first fire)")
    } else {
        String::new()
    };
    let mut w = stdout();
    let value = match ammo {
        "shot" => {
            let on_target = art::p_on_target(accuracy);
            let need = to_hit.saturating_sub(roll_bonus).max(1);
            let given = art::expected_shot_hits(dice, need, save);
            let bounces = art::bounce_chain_odds(&volley::rules::artillery::ArtilleryParams::default(), dice);
            if !json {
                out!(
                    w,
                    "round shot: {} at {to_hit}+, accuracy {accuracy}+{bonus_note}",
                    volley::report::count(dice, "die")
                );
                out!(w, "  lands on the aim point: {:.1}%", on_target * 100.0);
                out!(w, "  expected hits on the first stand if it does: {given:.3}");
                out!(w, "  expected hits from landing on target: {:.3}", on_target * given);
                out!(
                    w,
                    "  bounces on open ground: 1st {:.1}%, 2nd {:.1}%, 3rd {:.1}% (each bounce strikes with one die fewer)",
                    bounces[0] * 100.0,
                    bounces[1] * 100.0,
                    bounces[2] * 100.0
                );
                return done(w);
            }
            serde_json::json!({
                "ammo": "shot", "dice": dice, "to_hit": to_hit, "save": save, "accuracy": accuracy,
                "roll_bonus": roll_bonus,
                "p_on_target": on_target, "hits_if_on_target": given, "expected_hits": on_target * given,
                "p_bounces": bounces,
            })
        }
        "canister" => {
            let mut to_hits = vec![to_hit];
            to_hits.extend_from_slice(behind);
            let saves: Vec<Option<u32>> = std::iter::once(save).chain(behind.iter().map(|_| None)).collect();
            let e = art::canister_expected_hits(dice, &to_hits, &saves, roll_bonus);
            if !json {
                out!(
                    w,
                    "canister: {}; target at {to_hit}+, then {} behind{bonus_note}",
                    volley::report::count(dice, "die"),
                    volley::report::count(behind.len() as i64, "unit")
                );
                for (k, h) in e.iter().enumerate() {
                    let who = if k == 0 {
                        "target".to_string()
                    } else {
                        format!("behind {k}")
                    };
                    out!(w, "  {who:>9}: expected hits {h:.3}");
                }
                return done(w);
            }
            serde_json::json!({
                "ammo": "canister", "dice": dice, "to_hits": to_hits, "save": save, "roll_bonus": roll_bonus,
                "expected_hits": e,
            })
        }
        other => return Err(format!("--ammo wants shot or canister, not '{other}'")),
    };
    out!(w, "{value}");
    done(w)
}

/// `volley balance`: the table (or `--json`), a progress bar on a terminal while it runs.
/// `--rule` names as switches.
fn switches(names: &[String]) -> Result<volley::rules::switches::Switches, String> {
    volley::rules::switches::Switches::parse_list(names)
}

fn balance(
    scenario: &std::path::Path,
    (first_seed, games): (u64, u64),
    sides: &[String],
    (json, per_game): (bool, bool),
    rules: &[String],
) -> Result<(), String> {
    check_games(games)?;
    check_seed(first_seed)?;
    let rules = switches(rules)?;
    let (b, _) = volley::load_battle_with(scenario, 1, &rules).map_err(|e| e.to_string())?;
    let agents = side_agents(&b, sides, "scheduler")?;
    let r = sim::balance(scenario, &agents, games, first_seed, &rules, &progress_bar(games))?;
    let mut w = stdout();
    if json {
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
        "{:<14} {:<16} {:>5} {:>7} {:>17} {:>11} {:>8} {:>8}",
        "side",
        "agent",
        "wins",
        "win %",
        "95% interval",
        "units lost",
        "charges",
        "fires"
    );
    for s in &r.sides {
        out!(
            w,
            "{:<14} {:<16} {:>5} {:>6.1}% {:>7.1}% – {:>5.1}% {:>11.2} {:>8.2} {:>8.2}",
            s.side,
            s.agent,
            s.wins,
            s.win_rate * 100.0,
            s.ci95[0] * 100.0,
            s.ci95[1] * 100.0,
            s.avg_units_lost,
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
    if per_game {
        out!(
            w,
            "seed   winner        turns  units lost  charges  fires    first contact"
        );
        for g in &r.per_game {
            out!(
                w,
                "{:<6} {:<13} {:>5}  {:>4} {:>4}  {:>4} {:>3}  {:>4} {:>4}  {}",
                g.seed,
                g.winner.map_or("draw", |w| r.sides[w].side.as_str()),
                g.game_turns,
                g.units_lost[0],
                g.units_lost[1],
                g.charges[0],
                g.charges[1],
                g.fires[0],
                g.fires[1],
                g.first_contact.map_or("none".into(), |t| format!("turn {t}"))
            );
        }
    }
    done(w)
}

/// The most games `balance` and `match` play in one run (a run of 100,000 skirmish games with
/// the scheduler takes hours on two cores already).
const MAX_GAMES: u64 = 100_000;

fn check_seed(first: u64) -> Result<(), String> {
    if (1..=u64::MAX - MAX_GAMES).contains(&first) {
        Ok(())
    } else {
        Err(format!(
            "--first-seed must be 1 or more (and leave room for the games), not {first}"
        ))
    }
}

fn check_games(games: u64) -> Result<(), String> {
    if (1..=MAX_GAMES).contains(&games) {
        Ok(())
    } else {
        Err(format!("--games must be 1 to {MAX_GAMES}, not {games}"))
    }
}

/// A progress bar on standard error while games run, when it is a terminal: one tick a game.
fn progress_bar(games: u64) -> impl Fn() + Sync {
    use std::io::IsTerminal;
    use std::sync::atomic::{AtomicU64, Ordering};
    let done = AtomicU64::new(0);
    let bar = std::io::stderr().is_terminal();
    move || {
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if bar {
            let w = 30 * n / games.max(1);
            eprint!(
                "\r[{}{}] {n}/{games}",
                "#".repeat(w as usize),
                ".".repeat((30 - w) as usize)
            );
            if n == games {
                eprintln!();
            }
        }
    }
}

/// Parse `NAME=AGENT` pairs against the battle's side names.
fn side_agents(b: &Battle, sides: &[String], default: &str) -> Result<[String; 2], String> {
    let mut out = [default.to_string(), default.to_string()];
    let mut seen = std::collections::BTreeSet::new();
    for s in sides {
        let (name, agent) = s
            .split_once('=')
            .ok_or_else(|| format!("--side wants NAME=AGENT, not '{s}'"))?;
        let i = (0..2)
            .find(|&i| b.sides[i].name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "no side named '{name}' (sides: {}, {})",
                    b.sides[0].name, b.sides[1].name
                )
            })?;
        if !seen.insert(i) {
            return Err(format!("--side {} is given twice", b.sides[i].name));
        }
        out[i] = agent.to_string();
    }
    Ok(out)
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
}

#[allow(clippy::too_many_arguments)]
fn simulate(
    scenario: PathBuf,
    seed: u64,
    sides: &[String],
    max_turns: Option<u32>,
    record: Option<PathBuf>,
    (json, log, timing): (bool, bool, bool),
    rules: &[String],
) -> Result<(), String> {
    let (mut b, _) = volley::load_battle_with(&scenario, seed, &switches(rules)?).map_err(|e| e.to_string())?;
    b.cap_turns(max_turns);
    let names = side_agents(&b, sides, "random")?;
    let mut agents = [
        agents::by_name(&names[0], seed, 0)?,
        agents::by_name(&names[1], seed, 1)?,
    ];
    let cannot_record = |path: &std::path::Path, e: std::io::Error| format!("{}: cannot write: {e}", path.display());
    if let Some(path) = &record {
        // Refused before the game is played, not after.
        volley::replay::refuse_non_recording(path).map_err(|e| cannot_record(path, e))?;
        // The recording must not depend on the reader of the output staying.
        keep_going_on_closed_pipe();
    }
    let mut rec = Recording::start(&b, &scenario.display().to_string(), seed, max_turns);
    let mut out = GameLog {
        w: stdout(),
        failed: None,
    };
    let (done, times) = sim::play_timed(b, &mut agents, 200_000, |b, a, events, why| {
        if log {
            match why {
                Some(why) => out.line(format_args!("> {} — {why}", a.name())),
                None => out.line(format_args!("> {}", a.name())),
            }
            for e in events {
                out.line(format_args!("    {}", volley::report::line(b, e)));
            }
        }
        rec.push(b, a, events);
    })
    .map_err(|e| e.to_string())?;
    let result = sim::summary(&done, &scenario.display().to_string(), seed);
    if let Some(path) = &record {
        rec.save(path).map_err(|e| cannot_record(path, e))?;
    }
    if json {
        out.line(format_args!("{}", serde_json::to_string(&result).expect("serialises")));
    } else {
        out.line(format_args!("{} (seed {})", done.title, seed));
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
    if timing {
        for s in 0..2 {
            let t = sim::Thinking::of(&times[s]);
            let why = t.slowest_why.as_deref().map_or(String::new(), |w| format!(": {w}"));
            out.line(format_args!(
                "thinking, {} ({}): {} choices, median {:.1} ms, 95th percentile {:.1} ms, slowest {:.1} ms (turn {}{why})",
                done.sides[s].name, names[s], t.decisions, t.median_ms, t.p95_ms, t.slowest_ms, t.slowest_turn
            ));
        }
    }
    if out.failed.is_none()
        && let Err(e) = out.w.flush()
    {
        out.failed = Some(e);
    }
    match (out.failed, &record) {
        (None, _) => Ok(()),
        // The reader went away (`| head -1`): the game was played and recorded all the same.
        (Some(e), Some(path)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            eprintln!(
                "volley: the output stopped ({}); the game was played to its end and recorded to {}",
                volley::terminal::io_reason(&e),
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

fn play(scenario: PathBuf, sides: &[String], seed: u64, load: Option<PathBuf>, rules: &[String]) -> Result<(), String> {
    let (b, events, rec, scenario_path, history) = match &load {
        Some(save) => {
            // A save is a recording: re-play it to the moment it was saved.
            let rec = Recording::load(save).map_err(|e| e.to_string())?;
            let (b, _) = volley::replay::verify::verify(&rec, save).map_err(|e| format!("{}: {e}", save.display()))?;
            // An error here shows again, and is handled, at the game's first line.
            let _ = writeln!(
                std::io::stdout(),
                "continuing {} after {} actions",
                volley::data::text::printable(&save.display().to_string()),
                rec.actions.len()
            );
            let path = volley::replay::verify::scenario_path(&rec, save);
            let history = volley::terminal::history(&rec, save);
            (b, Vec::new(), rec, path, history)
        }
        None => {
            let (b, events) =
                volley::load_battle_with(&scenario, seed, &switches(rules)?).map_err(|e| e.to_string())?;
            let rec = Recording::start(&b, &scenario.display().to_string(), seed, None);
            (b, events, rec, scenario.clone(), Vec::new())
        }
    };
    // A loaded game keeps the players it was saved with, unless --side says otherwise.
    let names = match (&rec.players, sides.is_empty()) {
        (Some(players), true) => players.clone(),
        _ => side_agents(&b, sides, "human")?,
    };
    let seed = rec.seed;
    let autosave = volley::terminal::autosave_for(&rec.scenario);
    let game = volley::terminal::Game {
        battle: b,
        events,
        sides: names,
        seed,
        recording: rec,
        brief: volley::terminal::brief_of(&scenario_path),
        history,
        loaded: load,
        autosave,
    };
    // The game saves before it ends, whether the output goes away or Ctrl-C is pressed.
    keep_going_on_closed_pipe();
    volley::terminal::catch_interrupt();
    volley::terminal::run(game, std::io::BufReader::new(volley::terminal::Stdin))
}

/// Open the window: on the main menu, or straight into the battle.
#[cfg(feature = "gui")]
fn window(
    scenario: PathBuf,
    sides: &[String],
    seed: u64,
    load: Option<PathBuf>,
    menu: bool,
    rules: &[String],
) -> Result<(), String> {
    let (battle, events, recording, seed) = match load {
        Some(save) => {
            let rec = Recording::load(&save).map_err(|e| e.to_string())?;
            let (b, _) = volley::replay::verify::verify(&rec, &save).map_err(|e| format!("{}: {e}", save.display()))?;
            let seed = rec.seed;
            (b, Vec::new(), Some(rec), seed)
        }
        None => {
            let (b, events) =
                volley::load_battle_with(&scenario, seed, &switches(rules)?).map_err(|e| e.to_string())?;
            (b, events, None, seed)
        }
    };
    let names = side_agents(&battle, sides, "human")?;
    volley::ui::run(volley::ui::Launch {
        battle,
        events,
        scenario,
        seed,
        sides: names,
        recording,
        menu,
        screenshot: None,
        width: 1600,
        height: 960,
        replay: None,
        edit: None,
    })
}

/// `volley edit FILE`: the scenario editor on the file (the table behind it starts as the
/// default scenario's battle until the document's is built).
#[cfg(feature = "gui")]
fn edit_window(scenario: PathBuf) -> Result<(), String> {
    // The table starts as the document's battle (or, if it cannot be built yet, the bundled
    // default's), wherever the editor is started from.
    let doc = volley::editor::Doc::open(&scenario).map_err(|e| e.to_string())?;
    let (battle, events) = match volley::editor::preview::preview(&doc, 1) {
        Ok(b) => b,
        Err(_) => {
            let default = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_SCENARIO);
            volley::load_battle(&default, 1).map_err(|e| e.to_string())?
        }
    };
    volley::ui::run(volley::ui::Launch {
        battle,
        events,
        scenario: scenario.clone(),
        seed: 1,
        sides: ["human".into(), "human".into()],
        recording: None,
        menu: false,
        screenshot: None,
        width: 1600,
        height: 960,
        replay: None,
        edit: Some(scenario),
    })
}

#[cfg(not(feature = "gui"))]
fn edit_window(scenario: PathBuf) -> Result<(), String> {
    Err(format!(
        "{}: the scenario editor needs the window (build with the gui feature)",
        scenario.display()
    ))
}

/// `volley replay FILE`: verify the recording, then open the viewer on it.
#[cfg(feature = "gui")]
fn replay_window(path: PathBuf) -> Result<(), String> {
    let rec = Recording::load(&path).map_err(|e| e.to_string())?;
    let timeline = volley::replay::timeline::Timeline::build(rec.clone(), &path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let scenario = volley::replay::verify::scenario_path(&rec, &path);
    let battle = timeline.state_at(0);
    volley::ui::run(volley::ui::Launch {
        battle,
        events: Vec::new(),
        scenario,
        seed: rec.seed,
        sides: ["replay".into(), "replay".into()],
        recording: Some(rec),
        menu: false,
        screenshot: None,
        width: 1600,
        height: 960,
        replay: Some((timeline, 0)),
        edit: None,
    })
}

#[cfg(not(feature = "gui"))]
fn replay_window(path: PathBuf) -> Result<(), String> {
    Err(format!(
        "{}: the replay viewer needs the window (build with the gui feature); `volley verify` checks it headless",
        path.display()
    ))
}

#[cfg(not(feature = "gui"))]
fn window(
    scenario: PathBuf,
    sides: &[String],
    seed: u64,
    load: Option<PathBuf>,
    _menu: bool,
    rules: &[String],
) -> Result<(), String> {
    play(scenario, sides, seed, load, rules)
}

/// The groups of legal actions `--preview` can hold (the orders panel's groups).
#[cfg(feature = "gui")]
const PREVIEW_GROUPS: [&str; 5] = ["move", "fire", "charge", "deploy", "order"];

/// Draw the battle, save a PNG, check it shows a battle.
#[cfg(feature = "gui")]
#[allow(clippy::too_many_arguments)]
fn screenshot(
    scenario: PathBuf,
    out: PathBuf,
    width: u32,
    height: u32,
    seed: u64,
    focus: Option<[f32; 3]>,
    play: u64,
    menu: bool,
    replay: Option<(PathBuf, usize)>,
    (overlay, select, preview): (Option<String>, Option<String>, Option<String>),
    rules: &[String],
) -> Result<(), String> {
    let overlays = overlay
        .as_deref()
        .map(volley::ui::measure::parse_overlays)
        .transpose()?;
    if !(64..=8192).contains(&width) || !(64..=8192).contains(&height) {
        return Err(format!("--width and --height must be 64 to 8192, not {width}x{height}"));
    }
    if let Some(p) = &preview
        && !PREVIEW_GROUPS.iter().any(|g| g.eq_ignore_ascii_case(p))
    {
        return Err(format!(
            "--preview wants one of {}, not '{p}'",
            PREVIEW_GROUPS.join(", ")
        ));
    }
    let (battle, events) = volley::load_battle_with(&scenario, seed, &switches(rules)?).map_err(|e| e.to_string())?;
    if let Some(name) = &select {
        let lower = name.to_lowercase();
        let found = battle.commanders.iter().any(|c| c.name.to_lowercase().contains(&lower))
            || battle.units.iter().any(|u| u.name.to_lowercase().contains(&lower));
        if !found {
            return Err(format!(
                "--select: no unit or commander whose name contains '{name}' in {}",
                scenario.display()
            ));
        }
    }
    let mut sides: [String; 2] = ["human".into(), "human".into()];
    let mut recording = None;
    let replay = match replay {
        Some((path, at)) => {
            let rec = Recording::load(&path).map_err(|e| e.to_string())?;
            let t = volley::replay::timeline::Timeline::build(rec.clone(), &path)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            sides = ["replay".into(), "replay".into()];
            recording = Some(rec);
            Some((t, at))
        }
        None => None,
    };
    volley::ui::screenshot::check_before_window(&out, overlays.as_ref(), &battle, replay.as_ref())?;
    volley::ui::run(volley::ui::Launch {
        battle,
        events,
        scenario,
        seed,
        sides: if play > 0 && recording.is_none() {
            ["eager".into(), "eager".into()]
        } else {
            sides
        },
        recording,
        menu,
        screenshot: Some(volley::ui::screenshot::ShotRequest {
            out: out.clone(),
            focus,
            after_actions: play,
            overlays,
            select,
            preview,
        }),
        width,
        height,
        replay,
        edit: None,
    })?;
    if focus.is_some() {
        // A close-up need not show both sides.
        return Ok(());
    }
    // The player's palette (settings) decides which side colours the picture must show.
    let palette = volley::ui::settings::load_from_env().0.palette;
    let stats = volley::ui::screenshot::check_png_with(&out, volley::ui::palette::side_rgb(palette))?;
    match stats.problem() {
        None => {
            let mut w = stdout();
            out!(w, "{}: ok ({stats})", out.display());
            done(w)
        }
        Some(p) => Err(format!("{}: {p}", out.display())),
    }
}

#[cfg(feature = "gui")]
fn check_screenshot(png: &std::path::Path) -> Result<(), String> {
    let stats = volley::ui::screenshot::check_png(png)?;
    match stats.problem() {
        None => {
            let mut w = stdout();
            out!(w, "{}: ok ({stats})", png.display());
            done(w)
        }
        Some(p) => Err(format!("{}: {p}", png.display())),
    }
}

#[cfg(not(feature = "gui"))]
#[allow(clippy::too_many_arguments)]
fn screenshot(
    _: PathBuf,
    _: PathBuf,
    _: u32,
    _: u32,
    _: u64,
    _: Option<[f32; 3]>,
    _: u64,
    _: bool,
    _: Option<(PathBuf, usize)>,
    _: (Option<String>, Option<String>, Option<String>),
    _: &[String],
) -> Result<(), String> {
    Err("this build has no window (built without the `gui` feature)".into())
}

#[cfg(not(feature = "gui"))]
fn check_screenshot(_: &std::path::Path) -> Result<(), String> {
    Err("this build has no window (built without the `gui` feature)".into())
}

/// `X,Y,WIDTH` in cm.
fn parse_focus(s: &str) -> Result<[f32; 3], String> {
    let v: Vec<f32> = s
        .split(',')
        .map(|x| x.trim().parse::<f32>().map_err(|e| format!("'{x}': {e}")))
        .collect::<Result<_, _>>()?;
    match v[..] {
        [x, y, w] if w > 0.0 && x.is_finite() && y.is_finite() && w.is_finite() => Ok([x, y, w]),
        _ => Err(format!("want X,Y,WIDTH in cm with WIDTH > 0, not '{s}'")),
    }
}
