//! The phase state machine: deployment → initiative → command → charge → end → … → game over,
//! walked one phase a frame through every phase an action passed (so `OnEnter` runs for the
//! automatic charge and end phases too), and the decision window inside a phase as a
//! sub-state. The core's own phase is plain data (`battle::Phase`, `battle::Step`).

use super::BattleSystems;
use super::messages::BattleState;
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
}

impl From<&Step> for DecisionWindow {
    fn from(s: &Step) -> Self {
        match s {
            Step::Open => DecisionWindow::Open,
            Step::CounterInitiative { .. } => DecisionWindow::CounterInitiative,
            Step::Reaction { .. } => DecisionWindow::Reaction,
            Step::Support { .. } => DecisionWindow::Support,
        }
    }
}

/// Phases the battle has passed through since the state machine last caught up, in order.
#[derive(Resource, Default, Debug)]
pub struct PhaseQueue(pub Vec<GamePhase>);

impl PhaseQueue {
    /// Note the phases an applied action's events started.
    pub fn passed(&mut self, events: &[Event]) {
        for e in events {
            if let Event::PhaseStarted { phase, .. } = e {
                self.0.push((*phase).into());
            }
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_state::<GamePhase>()
        .add_sub_state::<DecisionWindow>()
        .init_resource::<PhaseQueue>()
        .add_systems(
            Update,
            (walk_phases, follow_window).chain().in_set(BattleSystems::Follow),
        );
}

/// Step the state machine one phase per frame through the phases the battle went through.
fn walk_phases(
    battle: Res<BattleState>,
    mut queue: ResMut<PhaseQueue>,
    state: Res<State<GamePhase>>,
    mut next: ResMut<NextState<GamePhase>>,
) {
    let target = if queue.0.is_empty() {
        battle.0.phase.into()
    } else {
        queue.0.remove(0)
    };
    if *state.get() != target {
        next.set(target);
    }
}

/// Once the phase machine has caught up with the battle, the window follows its step.
fn follow_window(
    battle: Res<BattleState>,
    queue: Res<PhaseQueue>,
    phase: Res<State<GamePhase>>,
    window: Option<Res<State<DecisionWindow>>>,
    mut next: ResMut<NextState<DecisionWindow>>,
) {
    let b = &battle.0;
    let Some(window) = window else { return };
    if !queue.0.is_empty() || *phase.get() != GamePhase::from(b.phase) {
        return;
    }
    let target = DecisionWindow::from(&b.step);
    if *window.get() != target {
        next.set(target);
    }
}
