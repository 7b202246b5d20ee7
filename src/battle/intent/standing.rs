//! Intents that stand over turns (issue 65: "the legal move, or moves over turns, that best
//! serves it"): an intent whose run ended short of it (a unit not there, not in range) is kept
//! for its side, and offered again in that side's next command phases ("Carry on: Archer's
//! brigade to McPherson's Ridge") until it is met, replaced by a new intent for the same
//! units, or nothing is left to do it with. Carrying one on plays a new [`IntentRun`]: the
//! rolls are the rules' as ever, so a save still holds only the actions.
//!
//! They belong to the interface playing the side (the window's, the terminal's), as a
//! player's notes would; a save does not keep them.

use super::kinds::Intent;
use super::run::IntentRun;
use crate::battle::state::{Battle, SideId, UnitId};
use std::collections::BTreeSet;

/// A formation's intent carried over turns.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingIntent {
    pub side: SideId,
    pub units: Vec<UnitId>,
    /// Who they are in words ("Archer's brigade").
    pub who: String,
    pub intent: Intent,
    /// The player turn it was last played in: it is offered in a later one.
    pub played: u32,
}

/// A run's tally for its closing line and for standing over: the units it acted for, those
/// that moved, those that met the intent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub units: Vec<UnitId>,
    pub moved: BTreeSet<UnitId>,
    pub met: BTreeSet<UnitId>,
}

impl Tally {
    pub fn new(units: &[UnitId]) -> Self {
        Tally {
            units: units.to_vec(),
            ..Tally::default()
        }
    }
    /// One unit's step: it moved (`acted`), and whether that met the intent.
    pub fn step(&mut self, unit: UnitId, acted: bool, met: bool) {
        if acted {
            self.moved.insert(unit);
        }
        if met {
            self.met.insert(unit);
        }
    }
    /// The closing line: "Archer's brigade: 5 of 5 moved, 2 of 5 there."; a hold says why.
    pub fn closing(&self, who: &str, intent: &Intent, why: &str) -> String {
        let n = self.units.len();
        if matches!(intent, Intent::Hold) {
            format!("{who}: {why}.")
        } else {
            format!(
                "{who}: {} of {n} moved, {} of {n} there.",
                self.moved.len(),
                self.met.len()
            )
        }
    }
}

/// A side's standing intents, a formation's at most once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing(pub Vec<StandingIntent>);

impl Standing {
    /// A run of `side` is over with `tally`: kept if some of its units did not meet it (not a
    /// hold), replacing any standing intent sharing a unit with it; dropped if it was met.
    pub fn ended(&mut self, b: &Battle, run: &IntentRun, who: &str, tally: &Tally) {
        let units: BTreeSet<UnitId> = tally.units.iter().copied().collect();
        self.0
            .retain(|s| s.side != run.side || s.units.iter().all(|u| !units.contains(u)));
        let short = tally.units.iter().any(|u| !tally.met.contains(u) && b.unit(*u).alive());
        if short && !matches!(run.intent, Intent::Hold) {
            self.0.push(StandingIntent {
                side: run.side,
                units: tally.units.clone(),
                who: who.to_string(),
                intent: run.intent.clone(),
                played: b.player_turn,
            });
        }
    }

    /// The standing intents `side` may carry on now: in its command phase, played in an
    /// earlier player turn, with a unit left (those only), their enemy (if they name one)
    /// still there and known to the side.
    pub fn offered(&self, b: &Battle, side: SideId) -> Vec<StandingIntent> {
        if b.phase != crate::battle::Phase::Command || b.active != side || b.is_over() {
            return Vec::new();
        }
        let alive = |u: UnitId| b.units.get(u as usize).is_some_and(|x| x.alive());
        self.0
            .iter()
            .filter(|s| s.side == side && s.played != b.player_turn)
            .filter(|s| s.intent.enemy().is_none_or(|e| alive(e) && b.known_to(side, e)))
            .map(|s| StandingIntent {
                units: s.units.iter().copied().filter(|&u| alive(u)).collect(),
                ..s.clone()
            })
            .filter(|s| !s.units.is_empty())
            .collect()
    }

    /// The words a player reads for one: "Archer's brigade to McPherson's Ridge".
    pub fn words(b: &Battle, s: &StandingIntent) -> String {
        format!("{} {}", s.who, s.intent.words(b))
    }
}
