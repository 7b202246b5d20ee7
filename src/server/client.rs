//! The client's end of the server's protocol (reqwest), and a bot that plays a seat through
//! it: the online game's other player in tests, and a sparring partner on a server.

use super::protocol::*;
use crate::battle::Action;
use rand::{Rng, SeedableRng};
use reqwest::StatusCode;
use std::time::Duration;

/// Why a request did not get its answer.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientError {
    /// The server answered with a refusal.
    Refused(u16, Refused),
    /// No answer: the server is down or the connection dropped (try again).
    Network(String),
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Refused(status, r) => write!(f, "refused ({status} {}): {}", r.code, r.reason),
            ClientError::Network(e) => write!(f, "no answer from the server: {e}"),
        }
    }
}

impl ClientError {
    /// The refusal's code, if the server refused.
    pub fn code(&self) -> Option<&str> {
        match self {
            ClientError::Refused(_, r) => Some(&r.code),
            ClientError::Network(_) => None,
        }
    }
}

/// A connection to a server, as one seat (or none, to host or join).
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
    token: Option<String>,
}

impl Client {
    /// A client of the server at `base` (`http://127.0.0.1:7878`).
    pub fn new(base: &str) -> Client {
        Client {
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .expect("an HTTP client"),
            base: base.trim_end_matches('/').to_string(),
            token: None,
        }
    }

    /// The same server, acting with a seat's token.
    pub fn seated(&self, token: &str) -> Client {
        Client {
            token: Some(token.to_string()),
            ..self.clone()
        }
    }

    /// The answer to `req` (with the seat's token): its body, or the server's refusal.
    async fn answer(&self, req: reqwest::RequestBuilder) -> Result<Vec<u8>, ClientError> {
        let req = match &self.token {
            Some(t) => req.bearer_auth(t),
            None => req,
        };
        let res = req.send().await.map_err(|e| ClientError::Network(e.to_string()))?;
        let status = res.status();
        let bytes = res.bytes().await.map_err(|e| ClientError::Network(e.to_string()))?;
        if status == StatusCode::OK {
            return Ok(bytes.to_vec());
        }
        let refused = serde_json::from_slice(&bytes).unwrap_or_else(|_| Refused {
            code: "http".into(),
            reason: String::from_utf8_lossy(&bytes).into_owned(),
        });
        Err(ClientError::Refused(status.as_u16(), refused))
    }

    async fn send<T: serde::de::DeserializeOwned>(&self, req: reqwest::RequestBuilder) -> Result<T, ClientError> {
        let bytes = self.answer(req).await?;
        serde_json::from_slice(&bytes).map_err(|e| ClientError::Network(format!("an answer not understood: {e}")))
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn host(&self, game: &NewGame) -> Result<Seat, ClientError> {
        self.send(self.http.post(self.url("/games")).json(game)).await
    }

    pub async fn join(&self, invite: &str) -> Result<Seat, ClientError> {
        let body = Join {
            invite: invite.to_string(),
        };
        self.send(self.http.post(self.url("/join")).json(&body)).await
    }

    pub async fn state(&self, game: &str) -> Result<State, ClientError> {
        self.send(self.http.get(self.url(&format!("/games/{game}")))).await
    }

    pub async fn act(&self, game: &str, seq: u64, action: &Action) -> Result<Accepted, ClientError> {
        let body = Submit {
            seq,
            action: action.clone(),
        };
        self.send(self.http.post(self.url(&format!("/games/{game}/actions"))).json(&body))
            .await
    }

    /// The events after the first `after` actions, waiting up to `wait` seconds for one.
    pub async fn events(&self, game: &str, after: u64, wait: u64) -> Result<Updates, ClientError> {
        self.send(
            self.http
                .get(self.url(&format!("/games/{game}/events?after={after}&wait={wait}"))),
        )
        .await
    }

    pub async fn my_games(&self, tokens: &[String]) -> Result<Vec<MyGame>, ClientError> {
        let body = serde_json::json!({ "tokens": tokens });
        self.send(self.http.post(self.url("/my-games")).json(&body)).await
    }

    pub async fn watch(&self, code: &str) -> Result<Watch, ClientError> {
        self.send(self.http.get(self.url(&format!("/watch/{code}")))).await
    }

    /// The finished game's recording (RON text, as `volley verify` reads it).
    pub async fn recording(&self, game: &str) -> Result<String, ClientError> {
        let bytes = self
            .answer(self.http.get(self.url(&format!("/games/{game}/recording"))))
            .await?;
        String::from_utf8(bytes).map_err(|e| ClientError::Network(format!("a recording not text: {e}")))
    }
}

/// The battle a snapshot's game began as: the bundled scenario (`maps/`) whose hash is the
/// snapshot's, set up with its optional rules: the ground a client mirrors each snapshot on
/// (`view::mirror`).
pub fn scenario_for(
    snap: &crate::view::snapshot::Snapshot,
) -> Result<(std::path::PathBuf, crate::battle::Battle), String> {
    super::game::bundled_scenarios()
        .into_iter()
        .find_map(|p| {
            crate::load_battle_with(&p, 0, &snap.switches)
                .ok()
                .map(|(b, _)| b)
                .filter(|b| b.scenario_hash == snap.scenario_hash)
                .map(|b| (p, b))
        })
        .ok_or_else(|| {
            format!(
                "this game's scenario, {}, is not among the scenarios here (maps/): a different version of the game?",
                snap.title
            )
        })
}

/// What a bot saw and did in its game.
#[derive(Clone, Debug, Default)]
pub struct BotLog {
    /// Every state it was sent.
    pub states: Vec<State>,
    /// Every batch of events it was sent.
    pub batches: Vec<Batch>,
    /// The actions the server accepted from it, with their numbers.
    pub accepted: Vec<(u64, Action)>,
    /// Requests that got no answer (and were tried again).
    pub retries: u32,
    /// How long each accepted action took, sent to answered.
    pub latencies: Vec<Duration>,
}

/// Play `game` as the client's seat to the end, choosing at random (seeded) among the actions
/// the server offers, waiting on the events while the other side decides. A dropped
/// connection is tried again (up to `patience` in all); the server's refusal of a stale
/// action is met by reading the state again.
pub async fn play_bot(client: &Client, game: &str, seed: u64, patience: Duration) -> Result<BotLog, ClientError> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut log = BotLog::default();
    let started = std::time::Instant::now();
    let mut seen = 0u64;
    loop {
        let again = |e: ClientError, log: &mut BotLog| match e {
            ClientError::Network(_) if started.elapsed() < patience => {
                log.retries += 1;
                Ok(())
            }
            e => Err(e),
        };
        let state = match client.state(game).await {
            Ok(s) => s,
            Err(e) => {
                again(e, &mut log)?;
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        if state.over {
            log.states.push(state);
            return Ok(log);
        }
        if state.your_decision && !state.legal.is_empty() {
            let i = (rng.next_u64() % state.legal.len() as u64) as usize;
            let seq = state.seq;
            let action = state.legal[i].clone();
            log.states.push(state);
            let sent = std::time::Instant::now();
            match client.act(game, seq, &action).await {
                Ok(_) => {
                    log.latencies.push(sent.elapsed());
                    log.accepted.push((seq, action));
                }
                Err(ClientError::Refused(_, r)) if r.code == "stale" => {}
                // Faster than the server lets one seat act: wait a little.
                Err(ClientError::Refused(_, r)) if r.code == "too_fast" => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => {
                    again(e, &mut log)?;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        } else {
            // From the last action whose events it has (its own included).
            log.states.push(state);
            match client.events(game, seen, 5).await {
                Ok(u) => {
                    for b in u.batches {
                        if b.action >= seen {
                            seen = b.action + 1;
                            log.batches.push(b);
                        }
                    }
                }
                Err(e) => {
                    again(e, &mut log)?;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }
}
