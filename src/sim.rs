//! Whole games, headless: the agents choose, the ECS app applies (the same door as the window).

use crate::agents::Agent;
use crate::battle::ecs::{ActionApplied, ActionRefused, ActionRequest, BattleState, headless_app};
use crate::battle::state::ResultKind;
use crate::battle::{Action, Battle};
use bevy::ecs::message::Messages;
use serde::Serialize;
use std::collections::BTreeMap;

/// What `volley simulate --json` prints.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SimResult {
    pub scenario: String,
    pub seed: u64,
    /// A side's name or `draw`.
    pub winner: String,
    /// `decisive`, `minor` or `draw`.
    pub result: String,
    pub game_turns: u32,
    pub units_lost: BTreeMap<String, u32>,
    pub victory_points: BTreeMap<String, u32>,
    pub actions: u64,
    pub state_hash: String,
    pub reason: String,
}

/// Why a simulation stopped without a result.
#[derive(Debug)]
pub enum SimError {
    Refused(Action, String),
    TooLong(u64),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Refused(a, r) => write!(f, "an agent's action was refused: {a:?}: {r}"),
            SimError::TooLong(n) => write!(f, "no result after {n} actions"),
        }
    }
}

/// Play to the end. `observe` sees each applied action (recording, invariant checks).
pub fn play(
    battle: Battle,
    agents: &mut [Box<dyn Agent>; 2],
    max_actions: u64,
    mut observe: impl FnMut(&Battle, &Action, &[crate::battle::Event]),
) -> Result<Battle, SimError> {
    let mut app = headless_app(battle);
    loop {
        let b = &app.world().resource::<BattleState>().0;
        if b.is_over() {
            break;
        }
        if b.actions >= max_actions {
            return Err(SimError::TooLong(b.actions));
        }
        let legal = b.legal_actions();
        let side = b.actor();
        let i = agents[side].choose(b, &legal);
        let action = legal[i].clone();
        app.world_mut().write_message(ActionRequest(action.clone()));
        app.update();
        let world = app.world_mut();
        if let Some(r) = world.resource_mut::<Messages<ActionRefused>>().drain().next() {
            return Err(SimError::Refused(r.action, r.refusal.to_string()));
        }
        let events: Vec<crate::battle::Event> = world
            .resource_mut::<Messages<ActionApplied>>()
            .drain()
            .flat_map(|a| a.events)
            .collect();
        observe(&world.resource::<BattleState>().0, &action, &events);
    }
    let b = app.world().resource::<BattleState>().0.clone();
    Ok(b)
}

/// Cap a battle's turn limit (`--max-turns`).
pub fn cap_turns(b: &mut Battle, max_turns: Option<u32>) {
    if let Some(t) = max_turns {
        b.turn_limit = b.turn_limit.min(t.max(1));
    }
}

/// Summarise a finished battle.
pub fn summary(b: &Battle, scenario: &str, seed: u64) -> SimResult {
    let o = b.outcome.clone().unwrap_or_else(|| b.compute_outcome("unfinished"));
    let name = |s: usize| b.sides[s].name.clone();
    SimResult {
        scenario: scenario.to_string(),
        seed,
        winner: o.winner.map(name).unwrap_or_else(|| "draw".into()),
        result: match o.result {
            ResultKind::Decisive => "decisive",
            ResultKind::Minor => "minor",
            ResultKind::Draw => "draw",
        }
        .into(),
        game_turns: b.game_turn,
        units_lost: (0..2).map(|s| (name(s), o.units_lost[s])).collect(),
        victory_points: (0..2).map(|s| (name(s), o.victory_points[s])).collect(),
        actions: b.actions,
        state_hash: format!("{:016x}", b.state_hash()),
        reason: o.reason,
    }
}
