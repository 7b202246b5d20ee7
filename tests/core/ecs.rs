//! The battle inside a headless Bevy app: actions as messages, entities mirror the state,
//! the phase state machine walks the phases.

use super::common::*;
use bevy::prelude::*;
use volley::battle::Action;
use volley::battle::ecs::{ActionRefused, ActionRequest, BattleState, CommanderBase, GamePhase, Stand, headless_app};

#[test]
fn stands_and_commanders_are_entities_and_actions_go_through_messages() {
    let b = skirmish(3);
    let bases: usize = b.alive_units().map(|u| b.rects(u.id).len()).sum();
    let commanders = b.commanders.len();
    let mut app = headless_app(b);
    app.update();
    let world = app.world_mut();
    assert_eq!(world.query::<&Stand>().iter(world).count(), bases);
    assert_eq!(world.query::<&CommanderBase>().iter(world).count(), commanders);
    assert_eq!(*world.resource::<State<GamePhase>>().get(), GamePhase::Initiative);
    // End the initiative phase through the pipeline: the state machine follows.
    world.write_message(ActionRequest(Action::EndPhase));
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<GamePhase>>().get(), GamePhase::Command);
}

#[test]
fn an_illegal_action_is_refused_with_its_rule_and_changes_nothing() {
    let mut app = headless_app(skirmish(3));
    let before = app.world().resource::<BattleState>().0.state_hash();
    app.world_mut()
        .write_message(ActionRequest(Action::Fire { unit: 0, target: 30 }));
    app.update();
    let refused: Vec<ActionRefused> = app
        .world_mut()
        .resource_mut::<bevy::ecs::message::Messages<ActionRefused>>()
        .drain()
        .collect();
    assert_eq!(refused.len(), 1);
    assert!(!refused[0].refusal.rule.is_empty());
    assert_eq!(app.world().resource::<BattleState>().0.state_hash(), before);
}
