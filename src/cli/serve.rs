//! `volley serve`: the game server, for games between machines (see `server`).

use crate::server::{self, Limits, Store};

#[derive(clap::Args)]
pub(super) struct Serve {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:7878")]
    addr: String,
    /// The database: an SQLite file (`sqlite://volley-server.db`, made if missing) or a
    /// PostgreSQL server (`postgres://user@host/db`).
    #[arg(long, default_value = "sqlite://volley-server.db")]
    db: String,
    /// Games held at most.
    #[arg(long, default_value_t = 10_000)]
    max_games: u64,
    /// Actions a second one seat may send, on average.
    #[arg(long, default_value_t = 50.0)]
    rate: f64,
    /// Days a game may stay without an action before it expires.
    #[arg(long, default_value_t = 30)]
    expire_days: u64,
    /// Games kept in memory (the rest are set up again from the database when asked for).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    in_memory: u64,
}

impl Serve {
    pub fn run(self) -> Result<(), String> {
        let limits = Limits {
            max_games: self.max_games,
            actions_per_second: self.rate,
            burst: (self.rate * 2.0).max(1.0),
            idle_expiry: self.expire_days * 24 * 3600,
            in_memory: self.in_memory as usize,
            ..Limits::default()
        };
        server::runtime()?.block_on(async {
            let store = Store::open(&self.db).await.map_err(|e| format!("{}: {e}", self.db))?;
            let listener = tokio::net::TcpListener::bind(&self.addr)
                .await
                .map_err(|e| format!("cannot listen on {}: {e}", self.addr))?;
            let local = listener.local_addr().map_err(|e| e.to_string())?;
            println!("volley server on http://{local} (games in {})", self.db);
            server::serve(listener, store, limits).await.map_err(|e| e.to_string())
        })
    }
}
