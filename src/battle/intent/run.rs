//! A formation's intent played out action by action in the command phase: for each order
//! group (a commander and his own units: a regiment alone, a brigade, each brigade of a
//! division), the order (the command roll) when they have none in hand, then each unit's
//! move in rounds, front units first, the formation going no farther in a round than its
//! slowest unit can (BPT formation orders move together). When the group's actions are spent
//! short of the intent, its commander gives the units not there a successive order (at its
//! -1), up to [`ORDERS_A_RUN`] orders, as a player would; a failed roll ends his orders. It
//! ends when every unit has met the intent, or nothing legal serves it better, or its
//! commanders can order no more.
//!
//! The run only proposes actions; the caller applies each through `Battle::apply` (so each
//! is checked, recorded and reported as any other) and calls [`IntentRun::next`] again. A
//! refused action ends that unit's part ([`IntentRun::refused`]).

use super::kinds::Intent;
use super::resolve::{IntentMove, Keep};
use crate::battle::action::Action;
use crate::battle::state::{Battle, CmdId, Phase, SideId, UnitId};
use crate::rules::geometry::V2;
use std::collections::BTreeSet;

/// The most orders a run gives one group: the first and two successive (each at its -1);
/// the roll that fails ends it sooner.
pub const ORDERS_A_RUN: u32 = 3;

/// What to do next for the intent.
#[derive(Clone, Debug, PartialEq)]
pub enum RunStep {
    /// A commander's order for his units (the command roll).
    Order(Action),
    /// A unit's action serving the intent, with what it comes to.
    Act(Action, IntentMove),
    /// A unit that will do nothing more for it: it has met it, or nothing legal serves.
    Stays(IntentMove),
    /// An order group that cannot be ordered now, with why (its commander has failed or
    /// moved, the order is refused).
    Unordered(String),
    /// The other side acts first (its opportunity fire on a unit that moved): apply its
    /// actions, then ask again; the run goes on where it was.
    Wait,
    /// The run is over, with why.
    Over(String),
}

/// A formation's intent in play.
#[derive(Clone, Debug)]
pub struct IntentRun {
    pub side: SideId,
    pub intent: Intent,
    /// The order groups: a commander and the units he orders together.
    pub groups: Vec<(CmdId, Vec<UnitId>)>,
    group: usize,
    /// The orders the current group has had in this run (or 1 when it held one already).
    orders: u32,
    /// The formation's direction of travel, and each unit's place in it: its offset from the
    /// formation's middle as the run began (kept as the units move).
    dir: V2,
    middle: V2,
    offsets: std::collections::BTreeMap<UnitId, V2>,
    moved: BTreeSet<UnitId>,
    done: BTreeSet<UnitId>,
    cap: Option<f64>,
    last: Option<UnitId>,
}

impl IntentRun {
    /// A run of `intent` for `units` (all of `side`), ordered by their own commanders.
    pub fn new(b: &Battle, side: SideId, units: &[UnitId], intent: Intent) -> Result<Self, String> {
        let alive: Vec<UnitId> = units
            .iter()
            .copied()
            .filter(|&u| b.units.get(u as usize).is_some_and(|x| x.side == side && x.alive()))
            .collect();
        if alive.is_empty() {
            return Err("no unit of yours to order".into());
        }
        let mut groups: Vec<(CmdId, Vec<UnitId>)> = Vec::new();
        for &u in &alive {
            let hq = b.unit(u).hq;
            match groups.iter_mut().find(|(c, _)| *c == hq) {
                Some((_, v)) => v.push(u),
                None => groups.push((hq, vec![u])),
            }
        }
        let n = alive.len() as f64;
        let middle = alive
            .iter()
            .fold(V2::new(0.0, 0.0), |a, &u| a + b.unit(u).pose.pos * (1.0 / n));
        let lead = alive[0];
        let alone = Keep::alone();
        let goal = b
            .intent_goal(lead, &intent, &alone)
            .map(|(g, _)| g - b.unit(lead).pose.pos + middle);
        let dir = goal.map_or(V2::new(0.0, 0.0), |g| {
            let d = g - middle;
            if d.len() > 1e-6 { d.norm() } else { d }
        });
        let offsets = alive.iter().map(|&u| (u, b.unit(u).pose.pos - middle)).collect();
        Ok(IntentRun {
            side,
            intent,
            groups,
            group: 0,
            orders: 0,
            dir,
            middle,
            offsets,
            moved: BTreeSet::new(),
            done: BTreeSet::new(),
            cap: None,
            last: None,
        })
    }

    /// Unit `u`'s place in the formation: its offset from the middle as the run began (none
    /// for a unit alone).
    fn keep(&self, u: UnitId) -> Keep {
        let alone = self.groups.iter().map(|(_, v)| v.len()).sum::<usize>() == 1;
        // A formation keeps together going to a place; at an enemy, each unit closes as it must.
        let together = matches!(self.intent, Intent::To(_) | Intent::Behind(_));
        Keep {
            dir: self.dir,
            cap: self.cap.filter(|_| together),
            offset: if alone {
                V2::new(0.0, 0.0)
            } else {
                self.offsets.get(&u).copied().unwrap_or(V2::new(0.0, 0.0))
            },
        }
    }

    /// The last proposed action was refused: that unit does no more for the intent (or, an
    /// order, its group is passed over).
    pub fn refused(&mut self) {
        match self.last.take() {
            Some(u) => {
                self.done.insert(u);
            }
            None => {
                self.group += 1;
                self.orders = 0;
            }
        }
    }

    /// What to do next.
    pub fn next(&mut self, b: &Battle) -> RunStep {
        self.last = None;
        if matches!(self.intent, Intent::Hold) {
            return RunStep::Over("holds: no order, no move".into());
        }
        if b.phase != Phase::Command || b.active != self.side || b.is_over() {
            return RunStep::Over("intents are ordered in your command phase".into());
        }
        if b.actor() != self.side {
            return RunStep::Wait;
        }
        while let Some((c, units)) = self.groups.get(self.group).cloned() {
            let alive: Vec<UnitId> = units.iter().copied().filter(|&u| b.unit(u).alive()).collect();
            let in_hand = |u: &UnitId| b.cmd.orders.get(u).is_some_and(|o| !o.finished && o.credits > 0);
            let acting: Vec<UnitId> = alive
                .iter()
                .copied()
                .filter(|u| in_hand(u) && !self.done.contains(u))
                .collect();
            if acting.is_empty() {
                // Units not there yet with their actions spent: a successive order (at its
                // -1), while the commander may still give one (BPT "Successive Orders").
                let short: Vec<UnitId> = alive.iter().copied().filter(|u| !self.done.contains(u)).collect();
                let again = self.orders > 0
                    && self.orders < ORDERS_A_RUN
                    && !short.is_empty()
                    && !matches!(self.intent, Intent::Hold)
                    && !b.cmd.done.contains(&c)
                    && !b.cmd.all_stopped;
                if (self.orders == 0 && !alive.is_empty()) || again {
                    let units = if self.orders == 0 { alive.clone() } else { short };
                    self.orders += 1;
                    self.moved.clear();
                    self.cap = None;
                    let order = Action::Order {
                        commander: c,
                        units: units.clone(),
                        charge: false,
                        dense: false,
                        road: false,
                    };
                    let name = &b.commander(c).name;
                    let why = if b.cmd.all_stopped {
                        Some(format!("{name} may not order: the army's commander failed this turn"))
                    } else if b.cmd.done.contains(&c) {
                        Some(format!("{name} gives no more orders this turn"))
                    } else {
                        b.check_order_allowed(c, &units, false, false)
                            .err()
                            .map(|r| format!("{name} may not order them: {}", r.reason))
                    };
                    return match why {
                        None => RunStep::Order(order),
                        // A successive order the rules refuse ends the group quietly.
                        Some(_) if self.orders > 1 => {
                            self.group += 1;
                            self.orders = 0;
                            continue;
                        }
                        Some(why) => {
                            self.group += 1;
                            self.orders = 0;
                            RunStep::Unordered(why)
                        }
                    };
                }
                self.group += 1;
                self.orders = 0;
                self.moved.clear();
                self.cap = None;
                continue;
            }
            self.orders = self.orders.max(1);
            let mut waiting: Vec<UnitId> = acting.iter().copied().filter(|u| !self.moved.contains(u)).collect();
            if waiting.is_empty() {
                // A new round: everyone with actions left moves again.
                self.moved.clear();
                self.cap = None;
                waiting = acting.clone();
            }
            if self.cap.is_none() && waiting.len() > 1 {
                self.cap = self.round_cap(b, &waiting);
            }
            // Front units first: they clear the way for those behind.
            waiting.sort_by(|x, y| {
                let ax = (b.unit(*x).pose.pos - self.middle).dot(self.dir);
                let ay = (b.unit(*y).pose.pos - self.middle).dot(self.dir);
                ay.total_cmp(&ax).then(x.cmp(y))
            });
            let u = waiting[0];
            let keep = self.keep(u);
            match b.intent_move(u, &self.intent, &keep) {
                Ok(m) => match m.action.clone() {
                    Some(a) => {
                        self.moved.insert(u);
                        if m.met() && !matches!(a, Action::Deploy { .. }) {
                            self.done.insert(u);
                        }
                        self.last = Some(u);
                        return RunStep::Act(a, m);
                    }
                    None => {
                        self.done.insert(u);
                        return RunStep::Stays(m);
                    }
                },
                Err(r) => return RunStep::Over(r.reason.into_owned()),
            }
        }
        RunStep::Over("the intent is played out".into())
    }

    /// How far along the formation's way its units may go this round: as far as the one that
    /// can go least (of those not yet there), but at least half as far as the one that can go
    /// farthest.
    /// Guns and other slow units (under half the fastest's move) do not hold the rest back:
    /// they follow as they can.
    fn round_cap(&self, b: &Battle, units: &[UnitId]) -> Option<f64> {
        let mut cap: Option<f64> = None;
        let mut reach: Vec<f64> = Vec::new();
        let fastest = units.iter().map(|&u| b.unit(u).move_rate()).fold(0.0, f64::max);
        for &u in units.iter().filter(|&&u| b.unit(u).move_rate() >= fastest * 0.5) {
            let mut keep = self.keep(u);
            keep.cap = None;
            if let Ok(m) = b.intent_move(u, &self.intent, &keep)
                && m.action.is_some()
            {
                let ahead = (m.end.pos - b.unit(u).pose.pos).dot(self.dir);
                reach.push(ahead);
                if !m.met() {
                    cap = Some(cap.map_or(ahead, |c: f64| c.min(ahead)));
                }
            }
        }
        // One unit hemmed in does not stop the rest: the formation goes at least half as far
        // as the farthest-reaching.
        let most = reach.iter().copied().fold(0.0, f64::max);
        cap.map(|c| c.max(most * 0.5).max(0.0))
    }
}
