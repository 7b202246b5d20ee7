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
    play_with_reasons(battle, agents, max_actions, |b, a, ev, _| observe(b, a, ev))
}

/// [`play`], with each choice's one-line reason from its agent (for the battle log).
pub fn play_with_reasons(
    battle: Battle,
    agents: &mut [Box<dyn Agent>; 2],
    max_actions: u64,
    mut observe: impl FnMut(&Battle, &Action, &[crate::battle::Event], Option<&str>),
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
        let reason = agents[side].reason();
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
        observe(&world.resource::<BattleState>().0, &action, &events, reason.as_deref());
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

/// What `volley match` prints: agent `a` against agent `b` over seeds 1..=games, `a` taking the
/// first side on even seeds and the second on odd ones.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MatchResult {
    pub scenario: String,
    pub agent: String,
    pub against: String,
    pub games: u64,
    pub won: u64,
    pub drawn: u64,
    pub lost: u64,
    /// Won / games.
    pub win_rate: f64,
}

/// Play the match, the games shared over the machine's cores (each game is its own seed, so
/// the result does not depend on how many there are).
pub fn play_match(scenario: &std::path::Path, a: &str, b: &str, games: u64) -> Result<MatchResult, String> {
    // The scenario and the agents' names are checked once, before any thread starts.
    crate::load_battle(scenario, 1).map_err(|e| e.to_string())?;
    for name in [a, b] {
        crate::agents::by_name(name, 1, 0)?;
    }
    let one = |seed: u64| -> Result<i8, String> {
        let (battle, _) = crate::load_battle(scenario, seed).map_err(|e| e.to_string())?;
        let a_side = usize::from(!seed.is_multiple_of(2));
        let names = if a_side == 0 { [a, b] } else { [b, a] };
        let mut players = [
            crate::agents::by_name(names[0], seed, 0)?,
            crate::agents::by_name(names[1], seed, 1)?,
        ];
        let done = play(battle, &mut players, 200_000, |_, _, _| {}).map_err(|e| format!("seed {seed}: {e}"))?;
        let o = done
            .outcome
            .clone()
            .unwrap_or_else(|| done.compute_outcome("unfinished"));
        Ok(match o.winner {
            Some(w) if w == a_side => 1,
            None => 0,
            Some(_) => -1,
        })
    };
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get()) as u64;
    let results: Vec<Result<i8, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let one = &one;
                s.spawn(move || (1..=games).filter(|g| g % threads == t).map(one).collect::<Vec<_>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a match thread panicked"))
            .collect()
    });
    let mut r = MatchResult {
        scenario: scenario.display().to_string(),
        agent: a.to_string(),
        against: b.to_string(),
        games,
        won: 0,
        drawn: 0,
        lost: 0,
        win_rate: 0.0,
    };
    for x in results {
        match x? {
            1 => r.won += 1,
            0 => r.drawn += 1,
            _ => r.lost += 1,
        }
    }
    r.win_rate = if games > 0 { r.won as f64 / games as f64 } else { 0.0 };
    Ok(r)
}
