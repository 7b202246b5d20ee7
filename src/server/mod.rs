//! The game server (`volley serve`): many games at once, each held authoritatively. Every
//! action is checked through `Battle::step`, every die rolled here (the seed never leaves
//! the server while the game is played), and every accepted action stored before the client
//! is told. Each seat receives only its side's player view and the events it may see.
//!
//! - `protocol`: the JSON messages;
//! - `store`: games, seats and actions in SQLite or PostgreSQL (sqlx);
//! - `game`: one game in memory;
//! - `http`: the routes (axum), the seats' tokens, long polling, refusals;
//! - `limits`, `secret`: what the server allows, and its random secrets;
//! - `client`: the other end (reqwest), and a bot that plays through it.

pub mod client;
pub mod game;
pub mod http;
pub mod kept;
pub mod limits;
pub mod process;
pub mod protocol;
pub mod secret;
pub mod store;

pub use limits::Limits;
pub use store::Store;

/// Serve on `listener` until the process ends: the routes, and every hour the idle games
/// expired.
pub async fn serve(listener: tokio::net::TcpListener, store: Store, limits: Limits) -> std::io::Result<()> {
    let idle = limits.idle_expiry as i64;
    let sweeper = store.clone();
    tokio::spawn(async move {
        loop {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64);
            if let Err(e) = sweeper.expire(now - idle).await {
                eprintln!("volley serve: expiring idle games: {e}");
            }
            tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
        }
    });
    axum::serve(listener, http::router(store, limits)).await
}

/// A multi-threaded runtime for the server or a client.
pub fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the network runtime: {e}"))
}
