//! What the game server and its clients say to each other: JSON bodies over HTTP.
//!
//! A client never receives what its side may not know: its state is a
//! [`Snapshot`](crate::view::snapshot::Snapshot) of its side's player view, its events those
//! [`view::events::visible`](crate::view::events::visible) lets through, and the actions open
//! to it only when the decision is its own. The seed never leaves the server.

use crate::battle::{Action, Event};
use crate::view::snapshot::Snapshot;
use serde::{Deserialize, Serialize};

/// Who plays the seat the host does not take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Opponent {
    /// A person, who joins with the invite code.
    Human,
    /// One of the game's agents (`scheduler`, `greedy`, `random`), played on the server.
    Agent(String),
}

/// `POST /games`: host a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// A bundled scenario by name (`first_battle`: `maps/first_battle.ron` on the server).
    pub scenario: String,
    /// The side the host plays (0 or 1).
    pub host_side: usize,
    pub opponent: Opponent,
    /// Optional rules by name, as `volley play --rule`.
    #[serde(default)]
    pub rules: Vec<String>,
    /// End the game after this many game turns.
    #[serde(default)]
    pub max_turns: Option<u32>,
}

/// `POST /join`: take the seat an invite code was made for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Join {
    pub invite: String,
}

/// A seat in a game: what hosting or joining returns. The token is the seat's secret: it acts
/// for this side only; keep it, it is shown once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seat {
    pub game: String,
    pub side: usize,
    pub side_name: String,
    pub token: String,
    /// For the host of a game against a person: the code the other player joins with.
    pub invite: Option<String>,
    /// The spectators' code (`GET /watch/{code}`).
    pub watch: String,
}

/// `GET /games/{id}`: the game as this seat's side may know it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Actions applied so far: the `seq` an action sent now must carry.
    pub seq: u64,
    pub side: usize,
    /// Is the battle waiting for this side's decision?
    pub your_decision: bool,
    /// The actions open to this side (empty when the decision is not its own).
    pub legal: Vec<Action>,
    pub snapshot: Snapshot,
    pub over: bool,
}

/// `POST /games/{id}/actions`: one action, for the game at `seq` actions (so a message sent
/// twice, or after the game moved on, is refused, not applied again).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submit {
    pub seq: u64,
    pub action: Action,
}

/// What an accepted action did: stored before this answer was sent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Accepted {
    /// Actions applied now (the action's own number is `seq - 1`; the server's agent may have
    /// acted after it).
    pub seq: u64,
}

/// The events of one action as a side may see them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Batch {
    /// The action's number, from 0.
    pub action: u64,
    /// The side that took it (whose decision it was: both sides know whose turn it is).
    #[serde(default)]
    pub side: usize,
    /// The action itself, sent only to the side that took it: the other side's action may
    /// name units it does not know of (their events, filtered, tell it what it may see).
    #[serde(default)]
    pub act: Option<Action>,
    pub events: Vec<Event>,
    /// The plan the server's computer player made or changed before this action (a big
    /// battle), as this side may read it: only the formations it could see then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<PlanSaid>,
}

/// A computer player's plan as a side was told it: which computer, and the words ("plan made
/// (turn 1, the battle begins): …").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanSaid {
    pub agent: String,
    pub text: String,
}

/// `GET /games/{id}/events?after=N&wait=S`: the events of the actions after the first `N`,
/// waiting up to `S` seconds for one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Updates {
    pub seq: u64,
    pub batches: Vec<Batch>,
    pub over: bool,
}

/// One game in `POST /my-games` (given the seats' tokens).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MyGame {
    pub game: String,
    pub title: String,
    pub side: usize,
    pub seq: u64,
    pub your_decision: bool,
    pub over: bool,
}

/// `GET /watch/{code}`: a game for a spectator: while it is played, each side's view some
/// actions behind; once it is over, everything.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Watch {
    /// The action the views are at.
    pub seq: u64,
    pub over: bool,
    pub views: Vec<Snapshot>,
}

/// Every refusal: a reason a person reads and a short code a program tests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Refused {
    pub code: String,
    pub reason: String,
}
