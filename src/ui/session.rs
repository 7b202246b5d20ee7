//! The game being played in the window, as separate resources: who sits at each side
//! (`Seats`), the record of the game for saves (`GameRecord`), and the battle log with the
//! dice panel, the last refusal and the status line (`BattleLog`). The undo stack is
//! `undo::UndoStack`; `ui::play` sets them up and runs the systems that keep them.

use crate::agents::{self, Agent};
use crate::battle::{Battle, Event, Refusal, SideId};
use crate::replay::Recording;
use crate::view::{PlayerView, Viewer};
use bevy::prelude::*;
use std::path::{Path, PathBuf};

/// Where the window autosaves at the end of every player turn (the terminal game keeps one
/// autosave a scenario: `terminal::autosave_for`).
pub const AUTOSAVE: &str = crate::terminal::AUTOSAVE;

/// What a side is shown for an action of the other side's it may not read (as an online
/// game shows it: `online::table::their_heading`).
pub const UNSEEN_ACTION: &str = "an action your side did not see";

/// One line of the battle log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    pub game_turn: u32,
    /// An action (a heading) or what it caused.
    pub action: bool,
    pub text: String,
    /// The dice the line's event rolled, to draw as faces (`report::Throw`).
    pub throws: Vec<crate::report::Throw>,
    /// The event the line tells (none for a heading, a title or a computer player's reason):
    /// what reads the log for what happened (the hand-over) reads this, never the words.
    pub event: Option<Event>,
    /// Which sides may read the line (`view::told`): by the units it names, as the side knew
    /// of them when it was written. The log and dice panels show a side only its own.
    pub readers: [bool; 2],
}

impl LogLine {
    /// A line without dice.
    pub fn text(game_turn: u32, action: bool, text: String) -> LogLine {
        LogLine {
            game_turn,
            action,
            text,
            throws: Vec::new(),
            event: None,
            readers: [true; 2],
        }
    }

    /// A line of words (a heading, a computer's reason), read only by the sides that know
    /// every unit it names on `b` (`view::told::readers`).
    pub fn told(b: &Battle, game_turn: u32, action: bool, text: String) -> LogLine {
        let readers = crate::view::told::readers(b, &text);
        LogLine {
            readers,
            ..LogLine::text(game_turn, action, text)
        }
    }

    /// What `viewer` (a side; none: everyone) is shown of the line: its words, an action's
    /// heading it may not read as "an action your side did not see", nothing of another line
    /// it may not read.
    pub fn shown_to(&self, viewer: Option<SideId>) -> Option<&str> {
        match viewer {
            Some(s) if !self.readers[s.min(1)] => self.action.then_some(UNSEEN_ACTION),
            _ => Some(&self.text),
        }
    }

    /// What an event did, in words and dice.
    pub fn event(b: &Battle, e: &Event) -> LogLine {
        LogLine {
            game_turn: b.game_turn,
            action: false,
            text: crate::report::line(b, e),
            throws: crate::report::throws(e),
            event: Some(e.clone()),
            readers: crate::view::told::event_readers(b, e),
        }
    }
}

/// The seat of the side played on another machine (an online game: `ui::online`).
pub const REMOTE: &str = "online";

/// Who plays each side and who sits at the table.
#[derive(Resource, Clone, Debug)]
pub struct Seats {
    /// `human`, an agent's name, `replay` (nobody: a replay watched) or [`REMOTE`], by side.
    pub sides: [String; 2],
    /// The side whose player sits at the table (hot-seat).
    pub viewer: Option<SideId>,
    /// Never hide the table (screenshots, a game with at most one human).
    pub no_handover: bool,
}

impl Seats {
    pub fn new(battle: &Battle, sides: [String; 2], no_handover: bool) -> Seats {
        let humans: Vec<SideId> = (0..2).filter(|&s| sides[s] == "human").collect();
        let viewer = if humans.len() == 1 || no_handover {
            Some(humans.first().copied().unwrap_or(battle.actor()))
        } else {
            None
        };
        Seats {
            sides,
            viewer,
            no_handover: no_handover || humans.len() < 2,
        }
    }

    /// The side whose player looks at the table, for the fog of hidden set-up (the tooltip,
    /// the names on the table, the roster, the first view): the seat's viewer in a game with
    /// a human, else none (a game of agents shows everything), as the table's fog.
    pub fn fog_viewer(&self) -> Option<SideId> {
        self.sides.iter().any(|x| x == "human").then_some(self.viewer).flatten()
    }

    /// The battle as the table may show it: the [`PlayerView`] of [`Seats::fog_viewer`].
    pub fn view<'a>(&self, b: &'a Battle) -> PlayerView<'a> {
        PlayerView::of(b, Viewer::of(self.fog_viewer()))
    }

    pub fn human(&self, side: SideId) -> bool {
        self.sides[side] == "human"
    }

    /// An online game: the other side is played elsewhere, the battle held by a server.
    pub fn online(&self) -> bool {
        self.sides.iter().any(|s| s == REMOTE)
    }

    /// Solo play: one side a person's at this table, the other a computer player's. The
    /// person's side.
    pub fn solo(&self) -> Option<SideId> {
        let humans: Vec<SideId> = (0..2).filter(|&s| self.human(s)).collect();
        match humans[..] {
            [me] if !["replay", REMOTE].contains(&self.sides[1 - me].as_str()) => Some(me),
            _ => None,
        }
    }

    /// Is `side`'s hand (its units to act, its orders) hidden from the table? In hot-seat, while
    /// the other side's player still sits at it: the melee shown to the player who charged,
    /// before the hand-over.
    pub fn hides_hand_of(&self, side: SideId) -> bool {
        let at_table = if self.no_handover {
            Viewer::All
        } else {
            Viewer::of(self.viewer)
        };
        !at_table.sees_hand_of(side)
    }
}

/// Whose decision the table waits for: a player at this table, a computer player, nobody
/// here (a replay being watched, the other side of an online game), or nobody any more (the
/// game is over).
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Turn {
    #[default]
    Nobody,
    Player(SideId),
    Computer(SideId),
    Over,
}

impl Turn {
    pub fn of(b: &Battle, seats: &Seats) -> Turn {
        let actor = b.actor();
        if b.is_over() {
            Turn::Over
        } else if seats.human(actor) {
            Turn::Player(actor)
        } else if seats.sides[actor] == "replay" || seats.sides[actor] == REMOTE {
            Turn::Nobody
        } else {
            Turn::Computer(actor)
        }
    }
}

/// The player seated at this table is the one to act (the gate of the table's orders: in
/// hot-seat, not while the table waits to be handed over; never while a melee is `held` on the
/// table, `screens::handover::ResultPause`, until the player goes on).
pub fn at_table(turn: &Turn, seats: &Seats, held: bool) -> bool {
    if held {
        return false;
    }
    match *turn {
        Turn::Player(side) => seats.no_handover || seats.viewer == Some(side),
        _ => false,
    }
}

/// The record of the game: its scenario, seed and every action (what a save writes).
#[derive(Resource, Clone, Debug)]
pub struct GameRecord {
    pub scenario: PathBuf,
    pub seed: u64,
    pub recording: Recording,
}

impl GameRecord {
    /// Save the game so far (a recording: `volley play --load FILE` continues it); what to
    /// say in the status line.
    pub fn save(&self, path: &Path) -> String {
        match self.recording.save(path) {
            Ok(()) => format!("saved to {}", path.display()),
            Err(e) => format!("could not save to {}: {e}", path.display()),
        }
    }
}

/// The battle log, the last action's dice, the last refusal and the status line.
#[derive(Resource, Clone, Debug, Default)]
pub struct BattleLog {
    pub lines: Vec<LogLine>,
    /// The last applied action and what it caused (the dice panel).
    pub last: Option<(String, Vec<String>)>,
    /// The last refused action and why.
    pub refusal: Option<(String, Refusal)>,
    /// A short message for the status line (saved, loaded...).
    pub status: Option<String>,
}

impl BattleLog {
    /// The log of a battle just begun: its title and what the set-up did.
    pub fn new(battle: &Battle, events: &[Event]) -> BattleLog {
        let mut lines = vec![LogLine::text(battle.game_turn, true, battle.title.clone())];
        lines.extend(events.iter().map(|e| LogLine::event(battle, e)));
        BattleLog {
            lines,
            ..Default::default()
        }
    }

    /// Log an action (a heading, marked with `turn`, the game turn it was taken in) and what
    /// it caused (`events`, described on `b`, the state they led to), and show it in the dice
    /// panel.
    pub fn push_action(&mut self, b: &Battle, turn: u32, heading: String, events: &[Event]) {
        self.lines.push(LogLine::told(b, turn, true, heading.clone()));
        let lines: Vec<LogLine> = events.iter().map(|e| LogLine::event(b, e)).collect();
        let texts = lines.iter().map(|l| l.text.clone()).collect();
        self.lines.extend(lines);
        self.last = Some((heading, texts));
    }
}

/// The programs playing a side, and the number of the game they were made for (a thinking
/// agent comes back only to its own game). A side's agent is out of its seat while it thinks
/// (`play::agent_turn` runs its choice off the frame).
pub struct Agents(pub [Option<Box<dyn Agent>>; 2], pub u64);

/// Numbers the games agents are made for.
static GAMES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Agents {
    pub fn new(sides: &[String; 2], seed: u64) -> Result<Agents, String> {
        let mut out: [Option<Box<dyn Agent>>; 2] = [None, None];
        for s in 0..2 {
            // `replay`: the replay viewer moves the table, nobody plays.
            if !["human", "replay", REMOTE].contains(&sides[s].as_str()) {
                out[s] = Some(agents::by_name(&sides[s], seed, s)?);
            }
        }
        Ok(Agents(out, GAMES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)))
    }
}
