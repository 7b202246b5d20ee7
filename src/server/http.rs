//! The server's HTTP face (axum): hosting, joining, a seat's view, its actions, the events it
//! missed (long polling: a live client waits on them, a client back after days reads them at
//! once), its games, spectators and the finished game's recording. Every refusal is a JSON
//! [`Refused`] with a status code; no message a client sends can stop the server.

use super::game::{Live, scenario_path};
use super::limits::{Limits, RateLimiter};
use super::protocol::*;
use super::secret;
use super::store::{GameRow, Store, Stored};
use crate::battle::Action;
use crate::replay::PlanNote;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State as Shared};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{Mutex, watch};

/// A refusal as the client receives it.
#[derive(Debug)]
pub struct Refusal {
    pub status: StatusCode,
    pub body: Refused,
}

fn refuse(status: StatusCode, code: &str, reason: impl Into<String>) -> Refusal {
    Refusal {
        status,
        body: Refused {
            code: code.to_string(),
            reason: reason.into(),
        },
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

impl From<super::store::StoreError> for Refusal {
    fn from(e: super::store::StoreError) -> Self {
        refuse(StatusCode::INTERNAL_SERVER_ERROR, "storage", e.to_string())
    }
}

type Reply<T> = Result<Json<T>, Refusal>;

/// A game in memory with the sender that wakes its waiting clients.
struct Held {
    live: Mutex<Live>,
    seq: watch::Sender<u64>,
}

/// The server: its database, the games in memory, its limits.
pub struct Server {
    store: Store,
    games: Mutex<HashMap<String, Arc<Held>>>,
    limits: Limits,
    rate: RateLimiter,
}

/// The router of a server on `store` with `limits`.
pub fn router(store: Store, limits: Limits) -> Router {
    let server = Arc::new(Server {
        store,
        games: Mutex::new(HashMap::new()),
        rate: RateLimiter::new(limits.actions_per_second, limits.burst),
        limits,
    });
    Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/games", post(host))
        .route("/join", post(join))
        .route("/my-games", post(my_games))
        .route("/games/{id}", get(state))
        .route("/games/{id}/actions", post(act))
        .route("/games/{id}/events", get(events))
        .route("/games/{id}/recording", get(recording))
        .route("/watch/{code}", get(watch_game))
        .layer(DefaultBodyLimit::max(server.limits.max_body))
        .with_state(server)
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn parse<T: serde::de::DeserializeOwned>(body: &Bytes) -> Result<T, Refusal> {
    serde_json::from_slice(body).map_err(|e| {
        refuse(
            StatusCode::BAD_REQUEST,
            "malformed",
            format!("not a valid message: {e}"),
        )
    })
}

impl Server {
    /// The game `id`, from memory or set up again from the database (its stored actions
    /// re-played); any actions another server process stored since are re-played too.
    async fn held(&self, id: &str) -> Result<Arc<Held>, Refusal> {
        let held = {
            let mut games = self.games.lock().await;
            match games.get(id) {
                Some(h) => h.clone(),
                None => {
                    let row = self
                        .store
                        .game(id)
                        .await?
                        .ok_or_else(|| refuse(StatusCode::NOT_FOUND, "no_game", format!("no game '{id}'")))?;
                    let live = Live::start(row).map_err(|e| refuse(StatusCode::INTERNAL_SERVER_ERROR, "setup", e))?;
                    let h = Arc::new(Held {
                        seq: watch::channel(0).0,
                        live: Mutex::new(live),
                    });
                    if games.len() >= self.limits.in_memory {
                        // Let go of the games no request holds (the database has them).
                        games.retain(|_, g| Arc::strong_count(g) > 1);
                    }
                    games.insert(id.to_string(), h.clone());
                    h
                }
            }
        };
        {
            let mut live = held.live.lock().await;
            if live.row.expired {
                return Err(refuse(
                    StatusCode::GONE,
                    "expired",
                    "the game was left idle too long and has expired",
                ));
            }
            self.catch_up(&mut live).await?;
            held.seq.send_replace(live.seq());
        }
        Ok(held)
    }

    /// Re-play the actions stored for this game that it has not applied yet.
    async fn catch_up(&self, live: &mut Live) -> Result<(), Refusal> {
        let plans = self.store.plans(&live.row.id, live.seq()).await?;
        for (idx, text, hash) in self.store.moves(&live.row.id, live.seq()).await? {
            let bad = |why: String| {
                refuse(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "diverged",
                    format!("stored action {idx} of game {}: {why}", live.row.id),
                )
            };
            let action: Action = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
            let (next, events) = live.try_action(&action).map_err(bad)?;
            if next.state_hash().to_string() != hash {
                return Err(bad("its state hash differs from the stored one".into()));
            }
            let plan = match plans.iter().find(|(i, _)| *i == idx) {
                Some((_, note)) => Some(serde_json::from_str(note).map_err(|e| bad(format!("its plan: {e}")))?),
                None => None,
            };
            live.commit(action, next, events, plan);
        }
        Ok(())
    }

    /// The seat a request's bearer token holds, checked against game `id`.
    async fn seat(&self, headers: &HeaderMap, id: &str) -> Result<usize, Refusal> {
        let hash = self.token_hash(headers)?;
        match self.store.seat(&hash).await? {
            Some((game, side)) if game == id => Ok(side),
            Some(_) => Err(refuse(
                StatusCode::FORBIDDEN,
                "other_game",
                "this seat's token is for another game",
            )),
            None => Err(refuse(StatusCode::UNAUTHORIZED, "bad_token", "no seat has this token")),
        }
    }

    fn token_hash(&self, headers: &HeaderMap) -> Result<String, Refusal> {
        let token = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or_else(|| {
                refuse(
                    StatusCode::UNAUTHORIZED,
                    "no_token",
                    "the seat's token is missing (Authorization: Bearer …)",
                )
            })?;
        Ok(secret::hash(token.trim()))
    }

    /// Store and apply `action` for the game, then let the server's agents act until a
    /// person's decision. The game's lock is held throughout.
    async fn play(&self, held: &Held, live: &mut Live, first: (Action, Option<PlanNote>)) -> Result<(), Refusal> {
        let mut next = Some(first);
        while let Some((action, plan)) = next.take() {
            let (battle, events) = live
                .try_action(&action)
                .map_err(|r| refuse(StatusCode::UNPROCESSABLE_ENTITY, "illegal", r))?;
            let text = serde_json::to_string(&action).expect("an action serialises");
            let note = plan
                .as_ref()
                .map(|p| serde_json::to_string(p).expect("a plan serialises"));
            match self
                .store
                .push_move(
                    &live.row.id,
                    live.seq(),
                    (&text, note.as_deref()),
                    battle.state_hash(),
                    now(),
                )
                .await?
            {
                Stored::Kept => live.commit(action, battle, events, plan),
                Stored::Taken => {
                    // Another process took this number: the game moved on without this action.
                    self.catch_up(live).await?;
                    held.seq.send_replace(live.seq());
                    return Err(refuse(
                        StatusCode::CONFLICT,
                        "stale",
                        format!("the game moved on: it is at action {}", live.seq()),
                    ));
                }
            }
            held.seq.send_replace(live.seq());
            next = tokio::task::block_in_place(|| live.agent_choice());
        }
        Ok(())
    }
}

async fn host(Shared(s): Shared<Arc<Server>>, body: Bytes) -> Reply<Seat> {
    let req: NewGame = parse(&body)?;
    let bad = |why: String| refuse(StatusCode::BAD_REQUEST, "bad_game", why);
    if scenario_path(&req.scenario).is_none() {
        return Err(bad(format!("no bundled scenario named '{}'", req.scenario)));
    }
    if req.host_side > 1 {
        return Err(bad("host_side is 0 or 1".into()));
    }
    if s.store.live_games().await? >= s.limits.max_games {
        return Err(refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "full",
            format!("the server holds its {} games already", s.limits.max_games),
        ));
    }
    let other = match &req.opponent {
        Opponent::Human => "human".to_string(),
        Opponent::Agent(name) => {
            crate::agents::by_name(name, 1, 0).map_err(bad)?;
            name.clone()
        }
    };
    let mut players = ["human".to_string(), "human".to_string()];
    players[1 - req.host_side] = other;
    let row = GameRow {
        id: secret::code(16),
        scenario: req.scenario.clone(),
        seed: secret::seed(),
        rules: req.rules.join(","),
        max_turns: req.max_turns,
        players,
        watch: secret::code(12),
        touched: now(),
        expired: false,
    };
    // Set up before it is stored: a wrong rule name or turn count is the host's error.
    let live = Live::start(row.clone()).map_err(bad)?;
    let side_name = live.battle.sides[req.host_side].name.clone();
    let token = secret::token();
    let invite = (req.opponent == Opponent::Human).then(|| secret::code(10));
    s.store
        .create_game(
            &row,
            &[(secret::hash(&token), req.host_side)],
            invite.as_deref().map(|c| (c, 1 - req.host_side)),
        )
        .await?;
    let held = Arc::new(Held {
        seq: watch::channel(0).0,
        live: Mutex::new(live),
    });
    {
        // The server's agent may have the first decision.
        let mut l = held.live.lock().await;
        if let Some(first) = tokio::task::block_in_place(|| l.agent_choice()) {
            s.play(&held, &mut l, first).await?;
        }
    }
    s.games.lock().await.insert(row.id.clone(), held);
    Ok(Json(Seat {
        game: row.id,
        side: req.host_side,
        side_name,
        token,
        invite,
        watch: row.watch,
    }))
}

async fn join(Shared(s): Shared<Arc<Server>>, body: Bytes) -> Reply<Seat> {
    let req: Join = parse(&body)?;
    let token = secret::token();
    let (game, side) = s
        .store
        .use_invite(req.invite.trim(), &secret::hash(&token))
        .await?
        .ok_or_else(|| {
            refuse(
                StatusCode::NOT_FOUND,
                "bad_invite",
                "no game waits for this invite code (or its seat was taken)",
            )
        })?;
    let held = s.held(&game).await?;
    let live = held.live.lock().await;
    Ok(Json(Seat {
        game,
        side,
        side_name: live.battle.sides[side].name.clone(),
        token,
        invite: None,
        watch: live.row.watch.clone(),
    }))
}

async fn state(Shared(s): Shared<Arc<Server>>, Path(id): Path<String>, headers: HeaderMap) -> Reply<State> {
    let side = s.seat(&headers, &id).await?;
    let held = s.held(&id).await?;
    let live = held.live.lock().await;
    Ok(Json(State {
        seq: live.seq(),
        side,
        your_decision: live.waits_for(side),
        legal: tokio::task::block_in_place(|| live.legal_for(side)),
        snapshot: live.snapshot(side),
        over: live.over(),
    }))
}

async fn act(
    Shared(s): Shared<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Reply<Accepted> {
    let side = s.seat(&headers, &id).await?;
    if !s.rate.allow(&s.token_hash(&headers)?) {
        return Err(refuse(
            StatusCode::TOO_MANY_REQUESTS,
            "too_fast",
            format!("at most {} actions a second from one seat", s.limits.actions_per_second),
        ));
    }
    let req: Submit = parse(&body)?;
    let held = s.held(&id).await?;
    let mut live = held.live.lock().await;
    if live.over() {
        return Err(refuse(StatusCode::CONFLICT, "over", "the game is over"));
    }
    if req.seq != live.seq() {
        return Err(refuse(
            StatusCode::CONFLICT,
            "stale",
            format!(
                "the action was sent for action {} but the game is at action {}",
                req.seq,
                live.seq()
            ),
        ));
    }
    if !live.waits_for(side) {
        return Err(refuse(
            StatusCode::CONFLICT,
            "not_your_decision",
            "the battle waits for the other side's decision",
        ));
    }
    s.play(&held, &mut live, (req.action, None)).await?;
    Ok(Json(Accepted { seq: live.seq() }))
}

#[derive(serde::Deserialize)]
struct Since {
    #[serde(default)]
    after: u64,
    /// Seconds to wait for an action (at most 30).
    #[serde(default)]
    wait: u64,
}

async fn events(
    Shared(s): Shared<Arc<Server>>,
    Path(id): Path<String>,
    Query(since): Query<Since>,
    headers: HeaderMap,
) -> Reply<Updates> {
    let side = s.seat(&headers, &id).await?;
    let held = s.held(&id).await?;
    let mut seq = held.seq.subscribe();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(since.wait.min(30));
    // Woken by this process's actions at once; another process's are read from the database
    // every quarter of a second.
    while *seq.borrow() <= since.after && tokio::time::Instant::now() < deadline {
        let tick = std::time::Duration::from_millis(250);
        let _ = tokio::time::timeout(tick, seq.wait_for(|&n| n > since.after)).await;
        if *seq.borrow() <= since.after {
            let mut live = held.live.lock().await;
            s.catch_up(&mut live).await?;
            held.seq.send_replace(live.seq());
        }
    }
    let live = held.live.lock().await;
    Ok(Json(Updates {
        seq: live.seq(),
        batches: live.seen_after(side, since.after),
        over: live.over(),
    }))
}

async fn recording(
    Shared(s): Shared<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<String, Refusal> {
    s.seat(&headers, &id).await?;
    let held = s.held(&id).await?;
    let live = held.live.lock().await;
    live.recording().ok_or_else(|| {
        refuse(
            StatusCode::CONFLICT,
            "not_over",
            "the recording is given once the game is over (it holds the dice's seed)",
        )
    })
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Tokens {
    tokens: Vec<String>,
}

async fn my_games(Shared(s): Shared<Arc<Server>>, body: Bytes) -> Reply<Vec<MyGame>> {
    let req: Tokens = parse(&body)?;
    if req.tokens.len() > 100 {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            "too_many",
            "at most 100 tokens at once",
        ));
    }
    let mut out = Vec::new();
    for token in &req.tokens {
        let Some((game, side)) = s.store.seat(&secret::hash(token)).await? else {
            continue;
        };
        let Ok(held) = s.held(&game).await else { continue };
        let live = held.live.lock().await;
        out.push(MyGame {
            game,
            title: live.battle.title.clone(),
            side,
            seq: live.seq(),
            your_decision: live.waits_for(side),
            over: live.over(),
        });
    }
    Ok(Json(out))
}

async fn watch_game(Shared(s): Shared<Arc<Server>>, Path(code): Path<String>) -> Reply<Watch> {
    let id = s
        .store
        .watched(&code)
        .await?
        .ok_or_else(|| refuse(StatusCode::NOT_FOUND, "bad_watch", "no game has this spectators' code"))?;
    let held = s.held(&id).await?;
    let live = held.live.lock().await;
    let (seq, views) = live.watch();
    Ok(Json(Watch {
        seq,
        over: live.over(),
        views,
    }))
}
