//! The phase state machine: deployment → initiative → command → charge → end → … → game over,
//! walked one phase a frame through every phase an action passed (so `OnEnter` runs for the
//! automatic charge and end phases too), and the decision window inside a phase as a
//! sub-state. The core's own phase is plain data (`battle::Phase`, `battle::Step`).

use super::base::{BattleState, BattleSystems};
use crate::battle::event::Event;
use crate::battle::state::{Phase, Step};
use bevy::prelude::*;

/// The phase of the player turn.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GamePhase {
    #[default]
    Deployment,
    Initiative,
    Command,
    Charge,
    End,
    GameOver,
}

impl From<Phase> for GamePhase {
    fn from(p: Phase) -> Self {
        match p {
            Phase::Deployment => GamePhase::Deployment,
            Phase::Initiative => GamePhase::Initiative,
            Phase::Command => GamePhase::Command,
            Phase::Charge => GamePhase::Charge,
            Phase::End => GamePhase::End,
            Phase::GameOver => GamePhase::GameOver,
        }
    }
}

/// Who may decide inside a phase of play: the active player (open), or the other side in a
/// window the rules open (BPT "Counter-Initiative", "Opportunity Fire", "Support").
#[derive(SubStates, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[source(GamePhase = GamePhase::Initiative | GamePhase::Command | GamePhase::Charge | GamePhase::End)]
pub enum DecisionWindow {
    #[default]
    Open,
    CounterInitiative,
    Reaction,
    Support,
    Consolidate,
}

impl From<&Step> for DecisionWindow {
    fn from(s: &Step) -> Self {
        match s {
            Step::Open => DecisionWindow::Open,
            Step::CounterInitiative { .. } => DecisionWindow::CounterInitiative,
            Step::Reaction { .. } => DecisionWindow::Reaction,
            Step::Support { .. } => DecisionWindow::Support,
            Step::Consolidate { .. } => DecisionWindow::Consolidate,
        }
    }
}

impl DecisionWindow {
    /// Who or what the window at `s` is about: its mover, its charger and target, its side, its
    /// consolidating unit. A window of the same kind about another subject (a second charge
    /// declared, the next winner's consolidation) is entered afresh.
    fn subject(s: &Step) -> Option<(u32, u32)> {
        match s {
            Step::Open => None,
            Step::CounterInitiative { charger, target, .. } => Some((*charger, *target)),
            Step::Reaction { mover, .. } => Some((*mover, u32::MAX)),
            Step::Support { side } => Some((*side as u32, u32::MAX)),
            Step::Consolidate { unit, .. } => Some((*unit, u32::MAX)),
        }
    }
}

/// The subject of the decision window the state machine last entered (see
/// `DecisionWindow::subject`).
#[derive(Resource, Default, Debug)]
struct WindowSubject(Option<(u32, u32)>);

/// Phases the battle has passed through since the state machine last caught up, in order.
#[derive(Resource, Default, Debug)]
pub struct PhaseQueue(pub Vec<GamePhase>);

impl PhaseQueue {
    /// Note the phases an applied action's events started.
    pub fn passed(&mut self, events: &[Event]) {
        self.0.extend(
            crate::report::flow::started_phases(events)
                .into_iter()
                .map(GamePhase::from),
        );
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_state::<GamePhase>()
        .add_sub_state::<DecisionWindow>()
        .init_resource::<PhaseQueue>()
        .init_resource::<WindowSubject>()
        .add_systems(Update, walk_phases.in_set(BattleSystems::Follow));
}

/// Walk the state machine, within this frame, through every phase the battle passed since the
/// last frame, in order (each transition runs its `OnExit` / `OnEnter`), then the decision
/// window to the battle's step (entered afresh when a window of the same kind opens about
/// another unit, so its `OnEnter` runs for each).
fn walk_phases(world: &mut World) {
    loop {
        let next = {
            let mut queue = world.resource_mut::<PhaseQueue>();
            if queue.0.is_empty() {
                None
            } else {
                Some(queue.0.remove(0))
            }
        };
        let target = next.unwrap_or_else(|| world.resource::<BattleState>().0.phase.into());
        if *world.resource::<State<GamePhase>>().get() != target {
            world.resource_mut::<NextState<GamePhase>>().set(target);
            world.run_schedule(StateTransition);
        }
        if next.is_none() {
            break;
        }
    }
    let step = &world.resource::<BattleState>().0.step;
    let (target, subject) = (DecisionWindow::from(step), DecisionWindow::subject(step));
    let Some(now) = world.get_resource::<State<DecisionWindow>>().map(|w| *w.get()) else {
        world.resource_mut::<WindowSubject>().0 = None;
        return;
    };
    let same = now == target && world.resource::<WindowSubject>().0 == subject;
    world.resource_mut::<WindowSubject>().0 = subject;
    if !same {
        // `set`, not `set_if_neq`: the same kind of window about another subject runs its
        // `OnExit` and `OnEnter` again.
        world.resource_mut::<NextState<DecisionWindow>>().set(target);
        world.run_schedule(StateTransition);
    }
}
