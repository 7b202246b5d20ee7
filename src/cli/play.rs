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
    /// Play online on this game server (`volley serve`), in the terminal: with --host, --join,
    /// --game or --my-games.
    #[arg(long, requires = "terminal", requires = "online", conflicts_with_all = ["scenario", "load", "seed", "sides"])]
    server: Option<String>,
    /// Host a game of this bundled scenario (`first_battle`) on the server; the other seat's
    /// invite code is printed (or, with --opponent AGENT, the server plays it).
    #[arg(long, group = "online", requires = "server")]
    host: Option<String>,
    /// With --host, or a new game by --turn-file: the side you play (0 or 1).
    #[arg(long = "as", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=1))]
    as_side: u8,
    /// With --host: `human` (joins with the code) or an agent the server plays.
    #[arg(long, default_value = "human", requires = "host")]
    opponent: String,
    /// Join a game on the server by its invite code.
    #[arg(long, group = "online", requires = "server")]
    join: Option<String>,
    /// Come back to a game you host or joined from here (its seat is kept in saves/online/).
    #[arg(long, group = "online", requires = "server")]
    game: Option<String>,
    /// List the games you play on the server from here, and whose decision each waits for.
    #[arg(long, group = "online", requires = "server")]
    my_games: bool,
    /// Play by file, in the terminal: start a game of the scenario into FILE (with --as), or
    /// go on with the game in FILE; it is written back, signed, when the other side is to
    /// decide. See docs/online.md.
    #[arg(long, requires = "terminal", requires = "key", conflicts_with_all = ["load", "server", "sides"])]
    turn_file: Option<PathBuf>,
    /// The key both players agreed on that signs the turn file (or the environment's
    /// VOLLEY_TURN_KEY).
    #[arg(long, env = "VOLLEY_TURN_KEY", hide_env_values = true)]
    key: Option<String>,
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
        if let Some(server) = self.server.clone() {
            return self.online(&server);
        }
        let turn_file = self
            .turn_file
            .clone()
            .map(|f| (f, self.key.clone().unwrap_or_default(), usize::from(self.as_side)));
        let start = Start {
            named: self.scenario.is_some(),
            turn_file,
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

impl Play {
    /// `--server`: host, join, come back to or list online games (the terminal's client).
    fn online(self, server: &str) -> Result<(), String> {
        use crate::server::client::Client;
        use crate::server::kept;
        use crate::server::protocol::{NewGame, Opponent};
        use crate::terminal::online;
        let rt = crate::server::runtime()?;
        let client = Client::new(server);
        if self.my_games {
            let seats: Vec<_> = kept::kept_seats().into_iter().filter(|k| k.server == server).collect();
            let tokens: Vec<String> = seats.iter().map(|k| k.seat.token.clone()).collect();
            let games = rt.block_on(client.my_games(&tokens)).map_err(|e| e.to_string())?;
            if games.is_empty() {
                println!("No games on {server} kept here (saves/online/).");
            }
            for g in games {
                let state = if g.over {
                    "over".to_string()
                } else if g.your_decision {
                    "your decision".to_string()
                } else {
                    "waiting for the other side".to_string()
                };
                println!("{}  {} as side {}, {} actions: {state}", g.game, g.title, g.side, g.seq);
            }
            return Ok(());
        }
        let seat = match (&self.host, &self.join, &self.game) {
            (Some(scenario), _, _) => {
                let opponent = match self.opponent.as_str() {
                    "human" => Opponent::Human,
                    agent => Opponent::Agent(agent.to_string()),
                };
                let game = NewGame {
                    scenario: scenario.clone(),
                    host_side: usize::from(self.as_side),
                    opponent,
                    rules: self.rules.rules.clone(),
                    max_turns: None,
                };
                rt.block_on(client.host(&game)).map_err(|e| e.to_string())?
            }
            (_, Some(code), _) => rt.block_on(client.join(code)).map_err(|e| e.to_string())?,
            (_, _, Some(id)) => kept::kept_seat(id)?.seat,
            _ => return Err("--server needs --host, --join, --game or --my-games".into()),
        };
        drop(rt);
        let kept = kept::keep_seat(server, &seat)?;
        println!(
            "Your seat is kept in {} (its token is your key to the game).",
            kept.display()
        );
        crate::terminal::catch_interrupt();
        online::run_online(
            server,
            seat,
            std::path::Path::new("saves"),
            std::io::stdin().lock(),
            std::io::stdout(),
        )
    }
}
