//! One hosted game in the server's memory: the authoritative battle, its recording, the
//! server's agents, and what each side may see of every action. Plain, synchronous code: the
//! HTTP layer (`http.rs`) stores an action before [`Live::commit`] makes it count.

use super::protocol::{Batch, PlanSaid};
use super::store::GameRow;
use crate::agents::{self, Agent};
use crate::battle::{Action, Battle, Event};
use crate::replay::{PlanNote, Recording};
use crate::rules::switches::Switches;
use crate::view::events::visible;
use crate::view::snapshot::Snapshot;
use crate::view::{PlayerView, Viewer};
use std::path::PathBuf;

/// How many actions a spectator's view of a game in progress is behind it.
pub const WATCH_DELAY: u64 = 10;

/// The folder of the bundled scenarios: `maps/` here, else the source tree's.
fn maps_dir() -> PathBuf {
    let local = PathBuf::from("maps");
    if local.is_dir() {
        local
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("maps")
    }
}

/// Every bundled scenario file, by name.
pub fn bundled_scenarios() -> Vec<PathBuf> {
    crate::data::ron_files(&maps_dir())
}

/// Where the server finds a bundled scenario by name; `None` for a name that is not one
/// (only letters, digits and `_`, and a file in `maps/`: no path reaches elsewhere).
pub fn scenario_path(name: &str) -> Option<PathBuf> {
    let ok = !name.is_empty() && name.len() <= 64 && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
    if !ok {
        return None;
    }
    let path = maps_dir().join(format!("{name}.ron"));
    path.is_file().then_some(path)
}

/// A game being played, as the server holds it.
pub struct Live {
    pub row: GameRow,
    pub battle: Battle,
    pub rec: Recording,
    agents: [Option<Box<dyn Agent>>; 2],
    /// For every action, the side that took it and the events each side may see.
    seen: Vec<(usize, [Vec<Event>; 2])>,
    /// The battle [`WATCH_DELAY`] actions behind, for spectators.
    lag: Battle,
    /// Actions applied to `lag`.
    lag_seq: u64,
}

impl Live {
    /// Set a stored game up at its start (its actions are then re-played with
    /// [`Live::commit`]).
    pub fn start(row: GameRow) -> Result<Live, String> {
        let path = scenario_path(&row.scenario).ok_or_else(|| format!("no bundled scenario '{}'", row.scenario))?;
        let names: Vec<&str> = row.rules.split(',').filter(|s| !s.is_empty()).collect();
        let switches = Switches::parse_list(&names)?;
        let (mut battle, _) = crate::load_battle_with(&path, row.seed, &switches).map_err(|e| e.to_string())?;
        battle.cap_turns(row.max_turns);
        let mut agents: [Option<Box<dyn Agent>>; 2] = [None, None];
        for (side, who) in row.players.iter().enumerate() {
            if who != "human" {
                agents[side] = Some(agents::by_name(who, row.seed, side)?);
            }
        }
        let shown = format!("maps/{}.ron", row.scenario);
        let mut rec = Recording::start(&battle, &shown, row.seed, row.max_turns);
        rec.players = Some(row.players.clone());
        Ok(Live {
            row,
            lag: battle.clone(),
            battle,
            rec,
            agents,
            seen: Vec::new(),
            lag_seq: 0,
        })
    }

    /// Actions applied so far.
    pub fn seq(&self) -> u64 {
        self.rec.actions.len() as u64
    }

    pub fn over(&self) -> bool {
        self.battle.is_over()
    }

    /// Is the battle waiting for `side`'s decision?
    pub fn waits_for(&self, side: usize) -> bool {
        !self.over() && self.battle.actor() == side
    }

    /// `action` tried on a copy of the battle: the battle after it and its events, or the
    /// rules' refusal (the battle is not changed either way).
    pub fn try_action(&self, action: &Action) -> Result<(Battle, Vec<Event>), String> {
        let mut next = self.battle.clone();
        let applied = next.step(action).map_err(|r| r.to_string())?;
        Ok((next, applied.events))
    }

    /// Make a tried action count (after it was stored): the battle becomes `next`. `plan`: the
    /// plan the server's computer made or changed with it, said before it.
    pub fn commit(&mut self, action: Action, next: Battle, events: Vec<Event>, plan: Option<PlanNote>) {
        let actor = self.battle.actor();
        // Made for this action (`agent_choice`, or stored with it): its number is this one's.
        self.rec.plans.extend(plan);
        self.rec.push(&next, &action, &events);
        self.battle = next;
        let seen = [0, 1].map(|s| visible(&PlayerView::side(&self.battle, s), &events));
        self.seen.push((actor, seen));
        while self.lag_seq + WATCH_DELAY < self.seq() {
            let a = &self.rec.actions[self.lag_seq as usize];
            // The same actions from the same start: legal there as they were here.
            if self.lag.step(a).is_err() {
                self.lag = self.battle.clone();
                self.lag_seq = self.seq();
                break;
            }
            self.lag_seq += 1;
        }
    }

    /// The action the server's agent takes now, if the decision is an agent's, with the plan
    /// it made or changed with it (whole and as the other side may read it), to be kept
    /// before the action.
    pub fn agent_choice(&mut self) -> Option<(Action, Option<PlanNote>)> {
        if self.over() {
            return None;
        }
        let side = self.battle.actor();
        let agent = self.agents[side].as_mut()?;
        let legal = self.battle.legal_actions();
        if legal.is_empty() {
            return None;
        }
        let action = agent.choose_action(&self.battle, &legal);
        let plan = agent
            .plan_news(&self.battle, None)
            .and_then(|_| agent.plan_kept(&self.battle, side))
            .map(|(text, to_other)| PlanNote {
                action: self.rec.actions.len() as u64,
                side,
                agent: agent.name().to_string(),
                text,
                to_other,
            });
        Some((action, plan))
    }

    /// The battle as `side` may know it.
    pub fn snapshot(&self, side: usize) -> Snapshot {
        Snapshot::of(&PlayerView::side(&self.battle, side))
    }

    /// The actions open to `side`: none unless the decision is its own.
    pub fn legal_for(&self, side: usize) -> Vec<Action> {
        if self.waits_for(side) {
            self.battle.legal_actions()
        } else {
            Vec::new()
        }
    }

    /// What `side` may see of the actions after the first `after`: who took each, the
    /// action itself when it was `side`'s own, the events it may see, and a computer's plan
    /// said before it as `side` was told it.
    pub fn seen_after(&self, side: usize, after: u64) -> Vec<Batch> {
        (after as usize..self.seen.len())
            .map(|i| {
                let (actor, events) = &self.seen[i];
                Batch {
                    action: i as u64,
                    side: *actor,
                    act: (*actor == side).then(|| self.rec.actions[i].clone()),
                    events: events[side].clone(),
                    plan: self.rec.plans_before(i).find_map(|p| {
                        Some(PlanSaid {
                            agent: p.agent.clone(),
                            text: p.said_to(Some(side))?.to_string(),
                        })
                    }),
                }
            })
            .collect()
    }

    /// What a spectator sees: each side's view [`WATCH_DELAY`] actions behind while the game
    /// is played, everything once it is over. With the action the views are at.
    pub fn watch(&self) -> (u64, Vec<Snapshot>) {
        if self.over() {
            return (
                self.seq(),
                vec![Snapshot::of(&PlayerView::of(&self.battle, Viewer::All))],
            );
        }
        let views = (0..2).map(|s| Snapshot::of(&PlayerView::side(&self.lag, s))).collect();
        (self.lag_seq, views)
    }

    /// The recording, for a game that is over (before then it would tell the seed).
    pub fn recording(&self) -> Option<String> {
        self.over().then(|| self.rec.to_ron())
    }
}
