//! The battle screen: the table, the panels, and the keys that act on the battle (Enter ends
//! the phase or passes a reaction window).

use crate::battle::Action;
use crate::battle::ecs::{ActionRequest, BattleState};
use crate::ui::input::{Controls, TableAction};
use crate::ui::{Screen, Session};
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, end_phase_key.run_if(in_state(Screen::Battle)));
}

/// Enter: end the phase, or pass when a reaction window is open, if the side to act is human.
fn end_phase_key(
    controls: Option<Single<&ActionState<TableAction>, With<Controls>>>,
    battle: Res<BattleState>,
    session: Res<Session>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut requests: MessageWriter<ActionRequest>,
) {
    let Some(controls) = controls else { return };
    if !controls.just_pressed(&TableAction::EndPhase) {
        return;
    }
    // A focused button takes Enter itself (egui clicks it): do not end the phase twice.
    if egui.is_some_and(|e| e.wants_any_keyboard_input()) {
        return;
    }
    let b = &battle.0;
    if b.is_over() || !session.human(b.actor()) {
        return;
    }
    let action = if b.step == crate::battle::Step::Open {
        Action::EndPhase
    } else {
        Action::Pass
    };
    requests.write(ActionRequest(action));
}
