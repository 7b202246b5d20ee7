//! The window's line to the server: a thread of its own with a tokio runtime, so the frame
//! never waits on the network. It sends the table's actions, waits on the server's events
//! (a long poll) and tells the table what came back as [`News`]. A dropped connection is
//! tried again on its own, every second, for as long as the table is open; once it answers,
//! the events missed meanwhile come in the next news (the server keeps them all).

use crate::battle::Action;
use crate::server::client::{Client, ClientError};
use crate::server::protocol::{Batch, Seat, State};
use bevy::prelude::*;
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::Duration;
use tokio::sync::mpsc as tmpsc;

/// What the link tells the table.
#[derive(Debug, Clone)]
pub enum News {
    /// The game as the seat's side knows it now, and what it may see of the actions since
    /// the last news (its own actions with the action itself).
    Update { state: Box<State>, batches: Vec<Batch> },
    /// The server did not take the table's action (nothing was applied): why.
    Refused(String),
    /// The server stopped answering (why), or answers again (None).
    Connection(Option<String>),
    /// The finished game's recording, as the server gave it.
    Recording(Result<String, String>),
    /// The server refused the seat itself (a token it does not know, a game gone): the link
    /// stops.
    Failed(String),
}

/// The link to one seat of a game: the server, the seat, and the two ends of the thread's
/// channels. Dropping it ends the thread (its next wait sees the table gone).
#[derive(Resource)]
pub struct Link {
    pub server: String,
    pub seat: Seat,
    send: tmpsc::UnboundedSender<(u64, Action)>,
    news: Mutex<mpsc::Receiver<News>>,
}

/// How long one wait on the server's events lasts (the server answers at once when there are
/// some).
const WAIT_SECS: u64 = 20;

impl Link {
    /// Open the link: its thread starts reading the game at once.
    pub fn open(server: &str, seat: Seat) -> Result<Link, String> {
        let rt = crate::server::runtime()?;
        let (send, orders) = tmpsc::unbounded_channel();
        let (tell, news) = mpsc::channel();
        let client = Client::new(server).seated(&seat.token);
        let game = seat.game.clone();
        std::thread::Builder::new()
            .name(format!("online {game}"))
            .spawn(move || rt.block_on(work(client, game, orders, tell)))
            .map_err(|e| format!("cannot start the online link: {e}"))?;
        Ok(Link {
            server: server.to_string(),
            seat,
            send,
            news: Mutex::new(news),
        })
    }

    /// Send `action` for the game at `seq` actions.
    pub fn act(&self, seq: u64, action: Action) -> Result<(), String> {
        self.send
            .send((seq, action))
            .map_err(|_| "the link to the server is closed".to_string())
    }

    /// What came in since the last call.
    pub fn news(&self) -> Vec<News> {
        match self.news.lock() {
            Ok(rx) => rx.try_iter().collect(),
            Err(_) => Vec::new(),
        }
    }
}

/// The connection as the worker keeps it: the client, the game, whether it is lost, and
/// where news go.
struct Worker {
    client: Client,
    game: String,
    lost: bool,
    tell: mpsc::Sender<News>,
}

impl Worker {
    /// Tell the table; false once the table is gone.
    fn tell(&self, n: News) -> bool {
        self.tell.send(n).is_ok()
    }

    /// A request's failure: a lost connection is said once and tried again (true); a refusal
    /// of the seat ends the link (false).
    async fn failed(&mut self, e: ClientError) -> bool {
        match e {
            ClientError::Network(why) => {
                if !self.lost {
                    self.lost = true;
                    if !self.tell(News::Connection(Some(why))) {
                        return false;
                    }
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
                true
            }
            refused => {
                self.tell(News::Failed(refused.to_string()));
                false
            }
        }
    }

    /// It answered.
    fn answered(&mut self) -> bool {
        if self.lost {
            self.lost = false;
            return self.tell(News::Connection(None));
        }
        true
    }

    /// Send one action; the server's refusal of it is told (a refusal of the action, not of
    /// the seat: the link goes on).
    async fn act(&mut self, seq: u64, action: &Action) -> bool {
        loop {
            match self.client.act(&self.game, seq, action).await {
                Ok(_) => return self.answered(),
                Err(ClientError::Refused(_, r)) => {
                    return self.answered() && self.tell(News::Refused(r.reason));
                }
                Err(e) => {
                    if !self.failed(e).await {
                        return false;
                    }
                }
            }
        }
    }
}

/// The thread's work: read the events after the last shown and then the state (in that
/// order, so the table never shows a state whose events it has not been told), tell them,
/// then wait for the table's next action or the server's next event.
async fn work(
    client: Client,
    game: String,
    mut orders: tmpsc::UnboundedReceiver<(u64, Action)>,
    tell: mpsc::Sender<News>,
) {
    let mut w = Worker {
        client,
        game,
        lost: false,
        tell,
    };
    let mut shown = 0u64;
    loop {
        if orders.is_closed() {
            return; // the table is gone
        }
        let got = async {
            let updates = w.client.events(&w.game, shown, 0).await?;
            let state = w.client.state(&w.game).await?;
            Ok::<_, ClientError>((updates, state))
        }
        .await;
        let (updates, state) = match got {
            Ok(x) => x,
            Err(e) => {
                if w.failed(e).await {
                    continue;
                }
                return;
            }
        };
        if !w.answered() {
            return;
        }
        let batches: Vec<Batch> = updates.batches.into_iter().filter(|b| b.action >= shown).collect();
        if let Some(last) = batches.last() {
            shown = last.action + 1;
        }
        let (seq, over) = (state.seq, state.over);
        if !w.tell(News::Update {
            state: Box::new(state),
            batches,
        }) {
            return;
        }
        if over && shown >= seq {
            let rec = loop {
                match w.client.recording(&w.game).await {
                    Ok(text) => break Ok(text),
                    Err(e @ ClientError::Network(_)) => {
                        if !w.failed(e).await {
                            return;
                        }
                    }
                    Err(e) => break Err(e.to_string()),
                }
            };
            w.tell(News::Recording(rec));
            return;
        }
        if shown < seq {
            continue; // events to catch up on first
        }
        tokio::select! {
            order = orders.recv() => match order {
                Some((seq, action)) => {
                    if !w.act(seq, &action).await {
                        return;
                    }
                }
                None => return, // the table is gone
            },
            waited = w.client.events(&w.game, shown, WAIT_SECS) => {
                if let Err(e) = waited
                    && !w.failed(e).await
                {
                    return;
                }
            }
        }
    }
}
