//! `volley bot`: a bot that plays one seat of a game on a server, choosing at random among the
//! actions offered: host a game for it or join one by code.

use crate::server::client::{Client, play_bot};
use crate::server::protocol::{NewGame, Opponent};
use std::time::Duration;

#[derive(clap::Args)]
pub(super) struct Bot {
    /// The server (`http://127.0.0.1:7878`).
    #[arg(long)]
    server: String,
    /// Join the game this invite code is for.
    #[arg(long, conflicts_with = "host")]
    join: Option<String>,
    /// Host a game of this bundled scenario (`first_battle`) and print the invite code.
    #[arg(long, required_unless_present = "join")]
    host: Option<String>,
    /// The side to host as (0 or 1).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=1))]
    side: u8,
    /// The bot's own seed for its choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// At the end, save the game's recording here (`volley verify` checks it).
    #[arg(long)]
    record: Option<std::path::PathBuf>,
}

impl Bot {
    pub fn run(self) -> Result<(), String> {
        crate::server::runtime()?.block_on(async {
            let client = Client::new(&self.server);
            let seat = match (&self.join, &self.host) {
                (Some(code), _) => client.join(code).await,
                (None, Some(scenario)) => {
                    client
                        .host(&NewGame {
                            scenario: scenario.clone(),
                            host_side: usize::from(self.side),
                            opponent: Opponent::Human,
                            rules: Vec::new(),
                            max_turns: None,
                        })
                        .await
                }
                (None, None) => unreachable!("clap requires --join or --host"),
            }
            .map_err(|e| e.to_string())?;
            println!("game {} as {} (side {})", seat.game, seat.side_name, seat.side);
            if let Some(code) = &seat.invite {
                println!("invite code for the other side: {code}");
            }
            println!("spectators: /watch/{}", seat.watch);
            let me = client.seated(&seat.token);
            let log = play_bot(&me, &seat.game, self.seed, Duration::from_secs(600))
                .await
                .map_err(|e| e.to_string())?;
            println!(
                "game over after {} actions ({} of them the bot's)",
                log.states.last().map_or(0, |s| s.seq),
                log.accepted.len()
            );
            if let Some(path) = &self.record {
                let text = me.recording(&seat.game).await.map_err(|e| e.to_string())?;
                crate::replay::save_atomically(path, text.as_bytes())
                    .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
                println!("recording saved to {}", path.display());
            }
            Ok(())
        })
    }
}
