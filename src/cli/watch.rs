//! `volley watch`: follow a game on a server as a spectator, by its spectators' code.

#[derive(clap::Args)]
pub(super) struct Watch {
    /// The server (`http://127.0.0.1:7878`).
    #[arg(long)]
    server: String,
    /// The game's spectators' code (the host is told it).
    #[arg(long)]
    code: String,
    /// Show what the views show now and stop (else follow the game to its end).
    #[arg(long)]
    once: bool,
}

impl Watch {
    pub fn run(self) -> Result<(), String> {
        crate::terminal::watch::run_watch(&self.server, &self.code, self.once, std::io::stdout().lock())
    }
}
