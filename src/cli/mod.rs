//! The `volley` command line: one file a command, each a clap `Args` struct with its `run()`;
//! the commands that open the window are in [`window`]. Options that may not go together, or
//! that need another, are declared to clap; clap refuses them, with the reason (a [`Refusal`])
//! as its tip.

/// A line of a command's report on standard output; an error writing it ends the command
/// with `out::output_failed` (`?` in a function returning `Result<_, String>`).
macro_rules! out {
    ($w:expr, $($t:tt)*) => {
        writeln!($w, $($t)*).map_err(output_failed)?
    };
}

mod args;
mod balance;
mod bot;
mod check;
mod game;
mod r#match;
mod odds;
mod out;
mod play;
mod refusal;
mod serve;
mod simulate;
mod verify;
mod view;
mod watch;
mod window;

pub use out::{clean_exit_on_output_errors, quiet_on_closed_pipe};
use refusal::Refusal;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::parser::ValueSource;
use clap::{CommandFactory, Parser, Subcommand};
use std::ffi::OsString;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "volley", version, about = "Black Powder Tactical Commander on the computer")]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play a battle in a window (or, with --terminal, turn by turn in the terminal).
    Play(play::Play),
    /// Play a whole game headless.
    Simulate(simulate::Simulate),
    /// Agent against agent over many seeds, sides swapped every game: how strong an agent is.
    Match(r#match::Match),
    /// Play N seeded games and report each side's win rate (95% interval), game length and losses.
    Balance(balance::Balance),
    /// Watch a recorded game in the window: play, pause, step, jump to a turn, take command.
    Replay(window::Replay),
    /// Open a scenario in the scenario editor (new scenarios: from the main menu's "Scenario
    /// editor"); default maps/skirmish.ron.
    Edit(window::Edit),
    /// Re-play a recording headless: `ok <state_hash>`, or where it diverges.
    Verify(verify::Verify),
    /// Draw a scenario's battle in a window, save it as a PNG and quit.
    Screenshot(window::Screenshot),
    /// Check that a PNG shows a drawn battle (not blank, both sides' colours present).
    CheckScreenshot(window::CheckScreenshot),
    /// Validate maps, scenarios, army lists and rules files.
    Check(check::Check),
    /// The exact distribution of hits of a fire: the fire preview's maths.
    Odds(odds::Odds),
    /// A recorded game as one side may know it (what a server would send it), as JSON or RON.
    View(view::View),
    /// Run the game server: games between machines, live or a turn at a time.
    Serve(serve::Serve),
    /// A bot that plays one seat of a game on a server (host one, or join by code).
    Bot(bot::Bot),
    /// Follow a game on a server as a spectator: each side's view some actions behind,
    /// everything once it is over.
    Watch(watch::Watch),
}

impl Cli {
    /// Run the command (`volley` alone opens the window on the main menu).
    pub fn run(self) -> Result<(), String> {
        match self.command {
            None => window::play(game::Start::menu(), true),
            Some(Command::Play(c)) => c.run(),
            Some(Command::Simulate(c)) => c.run(),
            Some(Command::Match(c)) => c.run(),
            Some(Command::Balance(c)) => c.run(),
            Some(Command::Replay(c)) => c.run(),
            Some(Command::Edit(c)) => c.run(),
            Some(Command::Verify(c)) => c.run(),
            Some(Command::Screenshot(c)) => c.run(),
            Some(Command::CheckScreenshot(c)) => c.run(),
            Some(Command::Check(c)) => c.run(),
            Some(Command::Odds(c)) => c.run(),
            Some(Command::View(c)) => c.run(),
            Some(Command::Serve(c)) => c.run(),
            Some(Command::Bot(c)) => c.run(),
            Some(Command::Watch(c)) => c.run(),
        }
    }

    /// Parse `args` (the program's name first): clap's error for options that do not go
    /// together carries the [`Refusal`]'s reason as a tip.
    pub fn parse_args(args: Vec<OsString>) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(&args).map_err(|e| explain(e, args))
    }
}

/// The refusals of the command named `name`.
fn refusals(name: &str) -> &'static [Refusal] {
    match name {
        "play" => play::REFUSALS,
        "odds" => odds::REFUSALS,
        "screenshot" => window::SCREENSHOT_REFUSALS,
        _ => &[],
    }
}

/// Clap's error for a conflict or a missing companion, with the reason of each [`Refusal`]
/// the command line breaks as a tip (the options are read again with clap's checks off).
fn explain(mut e: clap::Error, args: Vec<OsString>) -> clap::Error {
    let needs = match e.kind() {
        ErrorKind::ArgumentConflict => false,
        ErrorKind::MissingRequiredArgument => true,
        _ => return e,
    };
    let Ok(all) = Cli::command().ignore_errors(true).try_get_matches_from(args) else {
        return e;
    };
    let Some((name, m)) = all.subcommand() else {
        return e;
    };
    let given = |id: &str| m.value_source(id) == Some(ValueSource::CommandLine);
    let tips: Vec<_> = refusals(name)
        .iter()
        .filter(|r| r.needs == needs && given(r.given) && given(r.other) != r.needs)
        .map(|r| r.why.into())
        .collect();
    if !tips.is_empty() {
        e.insert(ContextKind::Suggested, ContextValue::StyledStrs(tips));
    }
    e
}

/// The program: parse the command line, run the command; a refused command line exits as
/// clap's errors do (2), a failed command prints `volley: <why>` and exits 1.
pub fn main() -> ExitCode {
    let cli = Cli::parse_args(std::env::args_os().collect()).unwrap_or_else(|e| e.exit());
    match cli.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("volley: {}", crate::data::text::printable(&e));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command line `base` + `extra`: refused by clap with `why` as a tip, where `base`
    /// alone is accepted.
    fn refused_with(base: &[&str], extra: &[&str], why: &str) -> ErrorKind {
        let args = |a: &[&str]| {
            std::iter::once("volley")
                .chain(a.iter().copied())
                .map(OsString::from)
                .collect()
        };
        assert!(Cli::parse_args(args(base)).is_ok(), "{base:?} is accepted");
        let all: Vec<&str> = base.iter().chain(extra).copied().collect();
        let Err(e) = Cli::parse_args(args(&all)) else {
            panic!("{all:?} was accepted")
        };
        let text = e.render().to_string();
        assert!(text.contains(&format!("tip: {why}")), "{all:?}: {text}");
        e.kind()
    }

    #[test]
    fn every_refusal_is_declared_to_clap_and_its_reason_is_the_tip() {
        let cases: [(&[&str], &[&str], &Refusal); 6] = [
            (&["play", "--load", "s.ron"], &["x.ron"], &play::REFUSALS[0]),
            (&["play", "--load", "s.ron"], &["--seed", "2"], &play::REFUSALS[1]),
            (&["play", "--load", "s.ron"], &["--rule", "prone"], &play::REFUSALS[2]),
            (
                &["odds", "--dice", "3", "--to-hit", "4"],
                &["--behind", "4"],
                &odds::REFUSALS[0],
            ),
            (
                &["odds", "--dice", "3", "--to-hit", "4"],
                &["--first-fire"],
                &odds::REFUSALS[1],
            ),
            (
                &["screenshot", "x.ron", "--out", "x.png"],
                &["--at", "3"],
                &window::SCREENSHOT_REFUSALS[0],
            ),
        ];
        for (base, extra, r) in cases {
            let kind = refused_with(base, extra, r.why);
            let want = if r.needs {
                ErrorKind::MissingRequiredArgument
            } else {
                ErrorKind::ArgumentConflict
            };
            assert_eq!(kind, want, "{base:?} {extra:?}");
        }
        let all = ["play", "odds", "screenshot"]
            .map(|c| refusals(c).len())
            .iter()
            .sum::<usize>();
        assert_eq!(all, cases.len(), "every refusal has its case");
        // What the refusal allows stays allowed: --behind and --first-fire with --ammo.
        let ok = [
            "volley",
            "odds",
            "--dice",
            "3",
            "--to-hit",
            "4",
            "--ammo",
            "canister",
            "--behind",
            "4",
            "--first-fire",
        ];
        assert!(Cli::parse_args(ok.map(OsString::from).to_vec()).is_ok());
    }

    #[test]
    fn an_error_that_is_no_refusal_gets_no_tip() {
        let args = ["volley", "simulate", "x.ron", "--json", "--log"]
            .map(OsString::from)
            .to_vec();
        let Err(e) = Cli::parse_args(args) else {
            panic!("--json with --log was accepted")
        };
        assert_eq!(e.kind(), ErrorKind::ArgumentConflict);
        assert!(!e.render().to_string().contains("tip:"), "{}", e.render());
    }
}
