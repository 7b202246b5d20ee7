//! The terminal's online game: one seat of a game held by a server (`volley serve`). The
//! client holds nothing of the battle but its side's snapshot, set on its own copy of the
//! scenario (`view::mirror`) so the terminal's words and lists serve it as they serve a game
//! at this terminal. The server rolls every die and applies every action; while the other
//! side decides, the client waits on the server's events.

use super::{Line, Out, list_lines, read_line, view};
use crate::battle::{Action, Battle};
use crate::server::client::{Client, ClientError};
use crate::server::kept::save_recording;
use crate::server::protocol::{Seat, State};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The client's side of the game: the server, the seat, the scenario at its set-up (the
/// mirror's ground), and the actions whose events were shown.
struct Online<W: Write> {
    rt: tokio::runtime::Runtime,
    client: Client,
    server: String,
    seat: Seat,
    saves: PathBuf,
    start: Option<Battle>,
    shown: u64,
    show_list: bool,
    out: Out<W>,
}

/// Play `seat` of a game on `server` in the terminal, reading the player's lines from
/// `input`, until the game is over (its recording then saved in `saves`), the player leaves
/// (`q`) or the input ends.
pub fn run_online(
    server: &str,
    seat: Seat,
    saves: &Path,
    input: impl BufRead,
    output: impl Write,
) -> Result<(), String> {
    let rt = crate::server::runtime()?;
    let client = Client::new(server).seated(&seat.token);
    let mut g = Online {
        rt,
        client,
        server: server.to_string(),
        seat,
        saves: saves.to_path_buf(),
        start: None,
        shown: 0,
        show_list: true,
        out: Out {
            w: output,
            failed: None,
        },
    };
    g.run(input)
}

impl<W: Write> Online<W> {
    /// A request, tried again while the server does not answer (a dropped connection comes
    /// back on its own), at most a minute.
    fn ask<T>(&mut self, f: impl AsyncFn(&Client) -> Result<T, ClientError>) -> Result<T, ClientError> {
        let started = std::time::Instant::now();
        let mut said = false;
        loop {
            match self.rt.block_on(f(&self.client)) {
                Err(ClientError::Network(e)) if started.elapsed() < Duration::from_secs(60) => {
                    if !said {
                        say!(self.out, "  (no answer from the server: {e}; trying again…)");
                        said = true;
                    }
                    std::thread::sleep(Duration::from_millis(500));
                }
                other => return other,
            }
        }
    }

    /// The mirror of the battle the snapshot describes, on the scenario set up here.
    fn mirror(&mut self, st: &State) -> Result<Battle, String> {
        if self.start.is_none() {
            self.start = Some(crate::server::client::scenario_for(&st.snapshot)?.1);
        }
        let start = self.start.as_ref().expect("set above");
        crate::view::mirror::mirror(start, &st.snapshot).map_err(|e| e.to_string())
    }

    fn leave_line(&self) -> String {
        format!(
            "The game goes on on the server; come back to it with: volley play --server {} --game {} --terminal",
            self.server, self.seat.game
        )
    }

    fn run(&mut self, mut input: impl BufRead) -> Result<(), String> {
        let game = self.seat.game.clone();
        say!(
            self.out,
            "Online game {game}: you play {} (side {}).",
            self.seat.side_name,
            self.seat.side
        );
        if let Some(code) = &self.seat.invite {
            say!(
                self.out,
                "The other player joins with: volley play --server {} --join {code} --terminal",
                self.server
            );
        }
        say!(
            self.out,
            "Spectators follow it with: volley watch --server {} --code {}",
            self.server,
            self.seat.watch
        );
        say!(
            self.out,
            "Type a number to act, or a command: units, map, l WORD, help, q (leave)."
        );
        loop {
            if let Some(e) = self.out.failed.take() {
                return Err(format!(
                    "cannot write the output: {}; {}",
                    super::io_reason(&e),
                    self.leave_line()
                ));
            }
            let st = self.ask(async |c| c.state(&game).await).map_err(|e| e.to_string())?;
            let b = self.mirror(&st)?;
            let shown = self.shown;
            let news = self
                .ask(async |c| c.events(&game, shown, 0).await)
                .map_err(|e| e.to_string())?;
            let fresh: Vec<_> = news.batches.into_iter().filter(|x| x.action >= self.shown).collect();
            for batch in &fresh {
                // The server's computer's plan, as this side was told it, before its action.
                if let Some(said) = &batch.plan {
                    let side = &b.sides[batch.side.min(1)].name;
                    say!(
                        self.out,
                        "  {}",
                        crate::report::computer_says(side, &said.agent, &said.text)
                    );
                }
                for e in &batch.events {
                    say!(self.out, "  {}", crate::report::line(&b, e));
                }
                self.shown = batch.action + 1;
                self.show_list = true;
            }
            if st.over {
                for line in view::result(&b) {
                    say!(self.out, "{line}");
                }
                return self.save_recording();
            }
            if !st.your_decision {
                say!(self.out, "Waiting for {}…", b.sides[1 - self.seat.side].name);
                let seq = st.seq;
                self.ask(async |c| c.events(&game, seq, 20).await)
                    .map_err(|e| e.to_string())?;
                continue;
            }
            if self.show_list {
                say!(
                    self.out,
                    "\n{} to act (turn {} of {}, {:?} phase, {}):",
                    self.seat.side_name,
                    b.game_turn,
                    b.turn_limit,
                    b.phase,
                    view::conditions(&b)
                );
                for line in list_lines(&b, &st.legal, None, false) {
                    say!(self.out, "{line}");
                }
                self.show_list = false;
            }
            self.out.prompt(format_args!(
                "{}, turn {}, {:?}> ",
                self.seat.side_name, b.game_turn, b.phase
            ));
            let line = match read_line(&mut input) {
                Line::Text(l) => l,
                Line::Interrupted => continue,
                Line::TooLong | Line::NotText => {
                    say!(
                        self.out,
                        "  That line is not a command; nothing was done. Type `help` for the commands."
                    );
                    continue;
                }
                Line::Ended | Line::Endless => {
                    say!(self.out, "\nThe input ended. {}", self.leave_line());
                    return Ok(());
                }
            };
            let (cmd, arg) = match line.split_once(char::is_whitespace) {
                Some((c, a)) => (c.to_lowercase(), a.trim().to_string()),
                None => (line.to_lowercase(), String::new()),
            };
            match cmd.as_str() {
                "q" | "quit" => {
                    say!(self.out, "{}", self.leave_line());
                    return Ok(());
                }
                "help" | "h" | "?" => {
                    say!(
                        self.out,
                        "  a number: take that action (the server rolls the dice and tells both sides)"
                    );
                    say!(
                        self.out,
                        "  units: your units and the enemy's you know of; map: the table; l WORD: the actions naming WORD"
                    );
                    say!(self.out, "  q: leave (the game waits on the server for you)");
                }
                "units" | "u" => {
                    for l in view::units_asked(&b, self.seat.side, &arg) {
                        say!(self.out, "{l}");
                    }
                }
                "map" | "m" => {
                    for l in view::map(&b, self.seat.side, view::terminal_width()) {
                        say!(self.out, "{l}");
                    }
                }
                "l" | "list" => {
                    let filter = (!arg.is_empty()).then_some(arg.as_str());
                    for l in list_lines(&b, &st.legal, filter, true) {
                        say!(self.out, "{l}");
                    }
                }
                "" => self.show_list = true,
                _ => match line.parse::<usize>() {
                    Ok(n) if n < st.legal.len() => self.act(&game, st.seq, &st.legal[n]),
                    _ => say!(
                        self.out,
                        "  '{}' is neither an action's number (0 to {}) nor a command; type `help`.",
                        super::words::echo(&line),
                        st.legal.len() - 1
                    ),
                },
            }
        }
    }

    /// Send an action; the server's refusal is said, and the state read again.
    fn act(&mut self, game: &str, seq: u64, action: &Action) {
        let a = action.clone();
        match self.ask(async |c| c.act(game, seq, &a).await) {
            Ok(_) => self.show_list = true,
            Err(e) => {
                say!(self.out, "  The server did not take it: {e}");
                self.show_list = true;
            }
        }
    }

    /// The finished game's recording, saved to `<saves>/online-<game>.ron`.
    fn save_recording(&mut self) -> Result<(), String> {
        let game = self.seat.game.clone();
        let text = self
            .ask(async |c| c.recording(&game).await)
            .map_err(|e| e.to_string())?;
        let path = save_recording(&self.saves, &game, &text)?;
        say!(
            self.out,
            "The game's recording is saved to {} (volley verify checks it; volley replay shows it).",
            path.display()
        );
        Ok(())
    }
}
