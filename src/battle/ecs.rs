//! The battle in Bevy: the state as a resource, actions in and events out as messages, the
//! phase state machine, and stands / unit command stands / commanders as entities that
//! mirror the state after every action.

use super::action::{Action, Refusal};
use super::apply::Applied;
use super::event::Event;
use super::state::{Battle, CmdId, Phase, SideId, UnitId};
use crate::rules::geometry::Rect;
use bevy::prelude::*;
use std::collections::BTreeMap;

/// The battle being played.
#[derive(Resource, Clone)]
pub struct BattleState(pub Battle);

/// A request to apply an action (from a player's input, an agent, a replay, a test).
#[derive(Message, Clone, Debug)]
pub struct ActionRequest(pub Action);

/// An action that was applied, with what happened.
#[derive(Message, Clone, Debug)]
pub struct ActionApplied {
    pub action: Action,
    /// The action described on the state it was applied to (an order's "need ≤ N" is the
    /// one it was rolled against, not the one a next order would need).
    pub heading: String,
    pub events: Vec<Event>,
    pub state_hash: u64,
}

/// An action the rules refused; nothing changed.
#[derive(Message, Clone, Debug)]
pub struct ActionRefused {
    pub action: Action,
    pub refusal: Refusal,
}

/// The phase state machine: deployment → initiative → command → charge → end → … → game over,
/// walked through every phase the battle's `Phase` passes (the core's own phase is plain data).
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

/// One base of a unit: a fighting stand (`index < fighting`) or its command stand / limber.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Stand {
    pub unit: UnitId,
    pub index: usize,
    pub command_stand: bool,
}

/// A commander (CO or HQ).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct CommanderBase {
    pub commander: CmdId,
}

/// Which side an entity belongs to.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideOf(pub SideId);

/// Where a base stands on the table (cm) and which way it faces.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Base {
    pub rect: Rect,
}

/// Phases the state machine has walked through since the last action (in order), so the
/// machine visits the automatic charge and end phases too.
#[derive(Resource, Default, Debug)]
pub struct PhaseQueue(pub Vec<GamePhase>);

#[derive(Resource, Default)]
struct EntityIndex {
    stands: BTreeMap<(UnitId, usize), Entity>,
    commanders: BTreeMap<CmdId, Entity>,
}

/// Runs the battle inside an app (windowed or headless).
pub fn plugin(app: &mut App) {
    app.add_message::<ActionRequest>()
        .add_message::<ActionApplied>()
        .add_message::<ActionRefused>()
        .init_state::<GamePhase>()
        .init_resource::<PhaseQueue>()
        .init_resource::<EntityIndex>()
        .add_systems(
            Update,
            (
                apply_requests,
                walk_phases,
                sync_entities.run_if(resource_changed::<BattleState>),
            )
                .chain()
                .in_set(BattleSystems),
        );
}

/// The battle's systems: actions applied, phases walked, entities synced.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BattleSystems;

/// The one door, as a system: apply requests in arrival order.
fn apply_requests(
    mut battle: ResMut<BattleState>,
    mut requests: MessageReader<ActionRequest>,
    mut applied: MessageWriter<ActionApplied>,
    mut refused: MessageWriter<ActionRefused>,
    mut queue: ResMut<PhaseQueue>,
) {
    for ActionRequest(action) in requests.read() {
        match battle.0.step(action) {
            Ok(Applied { heading, events }) => {
                for e in &events {
                    if let Event::PhaseStarted { phase, .. } = e {
                        queue.0.push((*phase).into());
                    }
                }
                applied.write(ActionApplied {
                    heading,
                    action: action.clone(),
                    events,
                    state_hash: battle.0.state_hash(),
                });
            }
            Err(refusal) => {
                refused.write(ActionRefused {
                    action: action.clone(),
                    refusal,
                });
            }
        }
    }
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

/// Mirror stands and commanders as entities.
fn sync_entities(mut commands: Commands, battle: Res<BattleState>, mut index: ResMut<EntityIndex>) {
    let b = &battle.0;
    let mut keep_stands = BTreeMap::new();
    for u in b.alive_units() {
        let g = &b.geom[u.id as usize];
        for (i, r) in g.rects.iter().enumerate() {
            let key = (u.id, i);
            let base = Base { rect: *r };
            let e = match index.stands.remove(&key) {
                Some(e) => {
                    commands.entity(e).insert(base);
                    e
                }
                None => commands
                    .spawn((
                        Stand {
                            unit: u.id,
                            index: i,
                            command_stand: i >= g.fighting,
                        },
                        SideOf(u.side),
                        base,
                    ))
                    .id(),
            };
            keep_stands.insert(key, e);
        }
    }
    for (_, e) in std::mem::take(&mut index.stands) {
        commands.entity(e).despawn();
    }
    index.stands = keep_stands;
    let d = b.rules.footprints.commander_diameter;
    for c in &b.commanders {
        let base = Base {
            rect: Rect::new(c.pos, 0.0, d, d),
        };
        match (c.alive(), index.commanders.get(&c.id).copied()) {
            (true, Some(e)) => {
                commands.entity(e).insert(base);
            }
            (true, None) => {
                let e = commands
                    .spawn((CommanderBase { commander: c.id }, SideOf(c.side), base))
                    .id();
                index.commanders.insert(c.id, e);
            }
            (false, Some(e)) => {
                commands.entity(e).despawn();
                index.commanders.remove(&c.id);
            }
            (false, None) => {}
        }
    }
}

/// A headless app running `battle`: `MinimalPlugins` + `StatesPlugin` + the battle plugin.
pub fn headless_app(battle: Battle) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin));
    app.insert_resource(BattleState(battle));
    app.add_plugins(plugin);
    app.update();
    app
}
