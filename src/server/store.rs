//! Where the server keeps its games: games, seats, invites and every accepted action, in an
//! SQL database through sqlx's `Any` driver, so the same statements run on an embedded SQLite
//! file (`sqlite://volley-server.db`, nothing to install) and on PostgreSQL
//! (`postgres://…`, several server processes sharing one database).
//!
//! A game's actions are numbered from 0 and keyed by (game, number): two processes that
//! accept an action for the same game at once both try to store number N, and the database
//! lets one of them in ([`Stored::Taken`] for the other). An action is stored before the
//! client is told it was accepted.

use sqlx::AnyPool;
use sqlx::Row;
use sqlx::any::AnyPoolOptions;

/// A failure of the database itself (not a refusal of the player's).
#[derive(Debug)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "storage: {}", self.0)
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        StoreError(e.to_string())
    }
}

/// A game as stored: what it takes to set it up again (the seed never leaves the server).
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub id: String,
    /// The bundled scenario's name (`first_battle`).
    pub scenario: String,
    pub seed: u64,
    /// The optional rules by name, comma-separated.
    pub rules: String,
    pub max_turns: Option<u32>,
    /// Who plays each side: `human` or an agent's name.
    pub players: [String; 2],
    /// The spectators' code.
    pub watch: String,
    /// Seconds since the epoch of the last accepted action (or of its creation).
    pub touched: i64,
    pub expired: bool,
}

/// What became of an action sent to be stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    Kept,
    /// Another process stored an action with that number first.
    Taken,
}

/// The server's database.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
}

const SCHEMA: [&str; 5] = [
    "CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, scenario TEXT NOT NULL, seed BIGINT NOT NULL, \
     rules TEXT NOT NULL, max_turns BIGINT NOT NULL, player0 TEXT NOT NULL, player1 TEXT NOT NULL, \
     watch TEXT NOT NULL UNIQUE, touched BIGINT NOT NULL, expired BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS seats (token_hash TEXT PRIMARY KEY, game TEXT NOT NULL, side BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS invites (code TEXT PRIMARY KEY, game TEXT NOT NULL, side BIGINT NOT NULL, \
     used BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS moves (game TEXT NOT NULL, idx BIGINT NOT NULL, action TEXT NOT NULL, \
     hash TEXT NOT NULL, PRIMARY KEY (game, idx))",
    // A server's computer player's plan, said before move `idx` (JSON of a `PlanNote`).
    "CREATE TABLE IF NOT EXISTS plans (game TEXT NOT NULL, idx BIGINT NOT NULL, note TEXT NOT NULL, \
     PRIMARY KEY (game, idx))",
];

impl Store {
    /// Open (and create, for SQLite) the database at `url` and make its tables.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let url = if sqlite && !url.contains('?') && !url.contains(":memory:") {
            format!("{url}?mode=rwc")
        } else {
            url.to_string()
        };
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 8 })
            .connect(&url)
            .await?;
        if sqlite {
            // Readers do not wait for a writer, and a write survives the process's death once
            // it is committed.
            sqlx::query("PRAGMA journal_mode=WAL").execute(&pool).await?;
        }
        // Two processes making the tables at once on PostgreSQL may collide on its catalogue:
        // the one that lost tries again and finds them made.
        for attempt in 0.. {
            let mut made = Ok(());
            for s in SCHEMA {
                made = sqlx::query(s).execute(&pool).await.map(|_| ());
                if made.is_err() {
                    break;
                }
            }
            match made {
                Ok(()) => break,
                Err(_) if attempt < 5 => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
                Err(e) => return Err(e.into()),
            }
        }
        Ok(Store { pool })
    }

    /// Store a new game with its seats and invite in one transaction.
    pub async fn create_game(
        &self,
        g: &GameRow,
        seats: &[(String, usize)],
        invite: Option<(&str, usize)>,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, scenario, seed, rules, max_turns, player0, player1, watch, touched, expired) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0)",
        )
        .bind(g.id.clone())
        .bind(g.scenario.clone())
        .bind(g.seed as i64)
        .bind(g.rules.clone())
        .bind(g.max_turns.map_or(0, i64::from))
        .bind(g.players[0].clone())
        .bind(g.players[1].clone())
        .bind(g.watch.clone())
        .bind(g.touched)
        .execute(&mut *tx)
        .await?;
        for (hash, side) in seats {
            sqlx::query("INSERT INTO seats (token_hash, game, side) VALUES ($1, $2, $3)")
                .bind(hash.clone())
                .bind(g.id.clone())
                .bind(*side as i64)
                .execute(&mut *tx)
                .await?;
        }
        if let Some((code, side)) = invite {
            sqlx::query("INSERT INTO invites (code, game, side, used) VALUES ($1, $2, $3, 0)")
                .bind(code.to_string())
                .bind(g.id.clone())
                .bind(side as i64)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Use an invite once: its game and side and the new seat's token hash stored; `None`
    /// for a code that does not exist or was used.
    pub async fn use_invite(&self, code: &str, token_hash: &str) -> Result<Option<(String, usize)>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let taken = sqlx::query("UPDATE invites SET used = 1 WHERE code = $1 AND used = 0")
            .bind(code.to_string())
            .execute(&mut *tx)
            .await?;
        if taken.rows_affected() != 1 {
            return Ok(None);
        }
        let row = sqlx::query("SELECT game, side FROM invites WHERE code = $1")
            .bind(code.to_string())
            .fetch_one(&mut *tx)
            .await?;
        let (game, side): (String, i64) = (row.try_get(0)?, row.try_get(1)?);
        sqlx::query("INSERT INTO seats (token_hash, game, side) VALUES ($1, $2, $3)")
            .bind(token_hash.to_string())
            .bind(game.clone())
            .bind(side)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Some((game, side as usize)))
    }

    /// The game and side of a seat's token hash.
    pub async fn seat(&self, token_hash: &str) -> Result<Option<(String, usize)>, StoreError> {
        let row = sqlx::query("SELECT game, side FROM seats WHERE token_hash = $1")
            .bind(token_hash.to_string())
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some((r.try_get(0)?, r.try_get::<i64, _>(1)? as usize)),
            None => None,
        })
    }

    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, scenario, seed, rules, max_turns, player0, player1, watch, touched, expired FROM games WHERE id = $1",
        )
        .bind(id.to_string())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| game_row(&r)).transpose()
    }

    /// The game a spectators' code shows.
    pub async fn watched(&self, code: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT id FROM games WHERE watch = $1")
            .bind(code.to_string())
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get(0)?),
            None => None,
        })
    }

    /// How many games are stored and not expired.
    pub async fn live_games(&self) -> Result<u64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) FROM games WHERE expired = 0")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<i64, _>(0)? as u64)
    }

    /// Mark the games untouched since `before` (seconds since the epoch) expired; how many.
    pub async fn expire(&self, before: i64) -> Result<u64, StoreError> {
        let r = sqlx::query("UPDATE games SET expired = 1 WHERE expired = 0 AND touched < $1")
            .bind(before)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    /// The actions of game `id` from number `from` on, in order, as JSON text with the state
    /// hash after each.
    pub async fn moves(&self, id: &str, from: u64) -> Result<Vec<(u64, String, String)>, StoreError> {
        let rows = sqlx::query("SELECT idx, action, hash FROM moves WHERE game = $1 AND idx >= $2 ORDER BY idx")
            .bind(id.to_string())
            .bind(from as i64)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<i64, _>(0)? as u64, r.try_get(1)?, r.try_get(2)?)))
            .collect()
    }

    /// The plans of game `id`'s computer said before its actions from number `from` on, in
    /// order (JSON of each [`crate::replay::PlanNote`]).
    pub async fn plans(&self, id: &str, from: u64) -> Result<Vec<(u64, String)>, StoreError> {
        let rows = sqlx::query("SELECT idx, note FROM plans WHERE game = $1 AND idx >= $2 ORDER BY idx")
            .bind(id.to_string())
            .bind(from as i64)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<i64, _>(0)? as u64, r.try_get(1)?)))
            .collect()
    }

    /// Store action number `idx` of game `id` (JSON) and the state hash after it, with the
    /// plan (JSON) the server's computer said before it if any, and mark the game touched at
    /// `now`. All or nothing.
    pub async fn push_move(
        &self,
        id: &str,
        idx: u64,
        (action, plan): (&str, Option<&str>),
        hash: u64,
        now: i64,
    ) -> Result<Stored, StoreError> {
        let mut tx = self.pool.begin().await?;
        let put = sqlx::query("INSERT INTO moves (game, idx, action, hash) VALUES ($1, $2, $3, $4)")
            .bind(id.to_string())
            .bind(idx as i64)
            .bind(action.to_string())
            .bind(hash.to_string())
            .execute(&mut *tx)
            .await;
        match put {
            Ok(_) => {}
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => return Ok(Stored::Taken),
            Err(e) => return Err(e.into()),
        }
        if let Some(note) = plan {
            sqlx::query("INSERT INTO plans (game, idx, note) VALUES ($1, $2, $3)")
                .bind(id.to_string())
                .bind(idx as i64)
                .bind(note.to_string())
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("UPDATE games SET touched = $1 WHERE id = $2")
            .bind(now)
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Stored::Kept)
    }
}

fn game_row(r: &sqlx::any::AnyRow) -> Result<GameRow, StoreError> {
    let max_turns: i64 = r.try_get(4)?;
    Ok(GameRow {
        id: r.try_get(0)?,
        scenario: r.try_get(1)?,
        seed: r.try_get::<i64, _>(2)? as u64,
        rules: r.try_get(3)?,
        max_turns: (max_turns > 0).then_some(max_turns as u32),
        players: [r.try_get(5)?, r.try_get(6)?],
        watch: r.try_get(7)?,
        touched: r.try_get(8)?,
        expired: r.try_get::<i64, _>(9)? != 0,
    })
}
