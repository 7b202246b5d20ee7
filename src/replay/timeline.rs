//! A recording laid out for the replay viewer: the state after any action, the start of any
//! game turn or phase, reached quickly from snapshots, and "take command here" (a new game
//! that continues from any point, its recording the old one cut there).

use super::Recording;
use super::verify::{Mismatch, verify_each};
use crate::battle::state::SideId;
use crate::battle::{Battle, Event};
use std::path::Path;

/// Snapshots every this many actions: seeking re-applies at most this many less one.
pub const STRIDE: usize = 16;

/// Where a player turn starts in the recording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnMark {
    pub game_turn: u32,
    pub side: SideId,
    /// The number of actions played before the turn's first action.
    pub at: usize,
}

pub struct Timeline {
    rec: Recording,
    /// `snapshots[k]`: the state after `k * STRIDE` actions.
    snapshots: Vec<Battle>,
    turns: Vec<TurnMark>,
    final_hash: u64,
}

impl Timeline {
    /// Verify the recording (it must re-play to its hashes) and lay it out.
    pub fn build(rec: Recording, recording: &Path) -> Result<Timeline, Mismatch> {
        let mut snapshots = Vec::new();
        let mut turns: Vec<TurnMark> = Vec::new();
        let (_, final_hash) = verify_each(&rec, recording, |n, b| {
            if n % STRIDE == 0 {
                snapshots.push(b.clone());
            }
            let new_turn = turns
                .last()
                .is_none_or(|last| (b.game_turn, b.active) != (last.game_turn, last.side));
            if new_turn && !b.is_over() {
                turns.push(TurnMark {
                    game_turn: b.game_turn,
                    side: b.active,
                    at: n,
                });
            }
        })?;
        Ok(Timeline {
            rec,
            snapshots,
            turns,
            final_hash,
        })
    }

    /// The number of actions in the recording.
    pub fn len(&self) -> usize {
        self.rec.actions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rec.actions.is_empty()
    }

    pub fn recording(&self) -> &Recording {
        &self.rec
    }

    /// The verified hash of the final state.
    pub fn final_hash(&self) -> u64 {
        self.final_hash
    }

    /// Where each player turn starts.
    pub fn turns(&self) -> &[TurnMark] {
        &self.turns
    }

    /// The first action of game turn `t` (its first player turn), if the game got there.
    pub fn turn_start(&self, t: u32) -> Option<usize> {
        self.turns.iter().find(|m| m.game_turn == t).map(|m| m.at)
    }

    /// The state after the first `n` actions (clamped to the recording's length).
    pub fn state_at(&self, n: usize) -> Battle {
        let n = n.min(self.len());
        let k = (n / STRIDE).min(self.snapshots.len() - 1);
        let mut b = self.snapshots[k].clone();
        for a in &self.rec.actions[k * STRIDE..n] {
            b.apply(a).expect("verified when the timeline was built");
        }
        b
    }

    /// The events of action `i` (what the dice panel and the log show for it).
    pub fn events_of(&self, i: usize) -> Vec<Event> {
        if i >= self.len() {
            return Vec::new();
        }
        let mut b = self.state_at(i);
        b.apply(&self.rec.actions[i])
            .expect("verified when the timeline was built")
    }

    /// "Take command here": the state after `n` actions and a recording of the game so far,
    /// to play on from (hot-seat or against the scheduler); the original is left untouched.
    pub fn take_command(&self, n: usize) -> (Battle, Recording) {
        let n = n.min(self.len());
        let b = self.state_at(n);
        let mut rec = self.rec.clone();
        rec.actions.truncate(n);
        rec.checkpoints.retain(|c| (c.action as usize) < n);
        rec.plans.retain(|p| (p.action as usize) < n);
        rec.final_hash = b.state_hash();
        (b, rec)
    }
}
