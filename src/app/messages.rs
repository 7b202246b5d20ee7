//! The one door as a system: every `ActionRequest` goes through
//! `Battle::step`, in arrival order; what happened goes out as `ActionApplied` or
//! `ActionRefused`.

use super::base::{BattleState, BattleSystems};
use super::phase::PhaseQueue;
use crate::battle::action::{Action, Refusal};
use crate::battle::apply::Applied;
use crate::battle::event::Event;
use bevy::prelude::*;

/// A request to apply an action (from a player's input, an agent, a replay, a test).
#[derive(Message, Clone, Debug)]
pub struct ActionRequest(pub Action);

/// An action that was applied, with what happened.
#[derive(Message, Clone, Debug)]
pub struct ActionApplied {
    /// The action, when this table knows it: an online game's client is not told the other
    /// side's actions (they may name units it does not know of), only what it may see of
    /// their events.
    pub action: Option<Action>,
    /// The action described on the state it was applied to (an order's "need ≤ N" is the
    /// one it was rolled against, not the one a next order would need).
    pub heading: String,
    /// The game turn the action was taken in (an action that ends a turn leaves the battle
    /// in the next one).
    pub game_turn: u32,
    pub events: Vec<Event>,
    pub state_hash: u64,
    /// The action was applied to the state the battle's systems last saw: nothing replaced or
    /// changed the battle since they did (a load, an undo, a replay's seek, a new battle, the
    /// editor's document do), so what follows from the state before it is still in place and
    /// only what its events name need be brought up to date (`pieces`).
    pub continues: bool,
}

/// An action the rules refused; nothing changed.
#[derive(Message, Clone, Debug)]
pub struct ActionRefused {
    pub action: Action,
    pub refusal: Refusal,
}

/// The battle is held elsewhere (an online game's server): requests are not applied here,
/// but taken by whoever holds it (`ui::online`), and what it applied comes back as
/// `ActionApplied`.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct HeldElsewhere;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<ActionRequest>()
        .add_message::<ActionApplied>()
        .add_message::<ActionRefused>()
        .add_systems(
            Update,
            apply_requests
                .in_set(BattleSystems::Apply)
                .run_if(not(resource_exists::<HeldElsewhere>)),
        );
}

/// The one door, as a system: apply requests in arrival order.
fn apply_requests(
    mut battle: ResMut<BattleState>,
    mut requests: MessageReader<ActionRequest>,
    mut applied: MessageWriter<ActionApplied>,
    mut refused: MessageWriter<ActionRefused>,
    mut queue: ResMut<PhaseQueue>,
) {
    // Changed since this system last ran (it does not see its own changes): by somebody
    // else, outside the one door.
    let continues = !battle.is_changed();
    for ActionRequest(action) in requests.read() {
        // How the action is said, read on the state before it (the report layer's).
        let heading = crate::report::heading(&battle.0, action);
        match battle.0.step(action) {
            Ok(Applied { game_turn, events }) => {
                queue.passed(&events);
                applied.write(ActionApplied {
                    heading,
                    game_turn,
                    action: Some(action.clone()),
                    events,
                    state_hash: battle.0.state_hash(),
                    continues,
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
