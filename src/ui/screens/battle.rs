//! The battle screen: the table, the panels, and the keys that act on the battle: Enter ends
//! the phase or passes a reaction window, `O` orders the selection, `T` fires the selected
//! unit at the enemy unit under the pointer. Each sends an `ActionRequest` as the orders panel
//! does: the rules apply it, or refuse it and the phase bar shows the rule and the reason.

use crate::app::{ActionRequest, BattleState, GamePhase};
use crate::battle::{Action, Battle, Ground, Phase, Purpose, Step, UnitId};
use crate::ui::common::{Screen, Selection};
use crate::ui::input::{Controls, TableAction};
use crate::ui::session::{BattleLog, Seats};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<EndPhaseAsk>();
    app.add_systems(
        Update,
        (end_phase_key, order_key, fire_key)
            .in_set(crate::ui::common::TableSystems::Request)
            .run_if(in_state(Screen::Battle).and_then(not(in_state(GamePhase::GameOver)))),
    );
}

/// The battle screen's keys as the human at the table presses them: the bindings, the
/// battle, who sits where and whose turn it is, and whether egui takes the keys.
#[derive(SystemParam)]
struct HumanKeys<'w, 's> {
    controls: Option<Single<'w, 's, &'static ActionState<TableAction>, With<Controls>>>,
    battle: Res<'w, BattleState>,
    seats: Res<'w, Seats>,
    turn: Res<'w, State<crate::ui::session::Turn>>,
    egui: Option<Res<'w, bevy_egui::input::EguiWantsInput>>,
    pause: Option<Res<'w, crate::ui::screens::handover::ResultPause>>,
}

impl HumanKeys<'_, '_> {
    /// Is `action` freshly pressed, for the human side to act, with egui not taking the keys?
    /// (The keys run only while the game is not over: `GamePhase::GameOver`.)
    fn pressed(&self, action: TableAction) -> bool {
        let Some(controls) = &self.controls else { return false };
        if !controls.just_pressed(&action) {
            return false;
        }
        // A focused button or text field takes the key itself (egui clicks it): do not act twice.
        if self.egui.as_ref().is_some_and(|e| e.wants_any_keyboard_input()) {
            return false;
        }
        crate::ui::session::at_table(self.turn.get(), &self.seats, super::handover::held(&self.pause))
    }
}

/// "End the phase?" asked (the command phase, units still holding orders): the battle's
/// action count when it was asked; the question lapses once anything else is played.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct EndPhaseAsk(pub Option<u64>);

impl EndPhaseAsk {
    /// The question is open on this battle.
    pub fn open(&self, b: &Battle) -> bool {
        self.0 == Some(b.actions)
    }
}

/// The units of the side to act still holding orders in its command phase (actions left of
/// an order given this turn), by name.
pub fn units_holding_orders(b: &Battle) -> Vec<String> {
    if b.phase != Phase::Command || b.step != Step::Open {
        return Vec::new();
    }
    b.cmd
        .orders
        .iter()
        .filter(|(u, o)| o.credits > 0 && !o.finished && b.unit(**u).alive() && b.unit(**u).side == b.actor())
        .map(|(u, _)| b.unit(*u).name.clone())
        .collect()
}

/// What ending the phase (or passing) asks for now: the action, or None when the player must
/// be asked first (`ask` is then opened). `confirmed`: the player said yes.
pub fn end_phase_request(b: &Battle, ask: &mut EndPhaseAsk, confirm: bool, confirmed: bool) -> Option<Action> {
    if b.step != Step::Open {
        ask.0 = None;
        return Some(Action::Pass);
    }
    if confirm && !confirmed && !units_holding_orders(b).is_empty() {
        ask.0 = Some(b.actions);
        return None;
    }
    ask.0 = None;
    Some(Action::EndPhase)
}

/// Enter: end the phase, or pass when a reaction window is open, if the side to act is human.
/// While units still hold orders in the command phase the player is asked first (a setting
/// turns it off): Enter again ends the phase, Escape goes back to the orders.
fn end_phase_key(
    keys: HumanKeys,
    settings: Option<Res<crate::ui::settings::Settings>>,
    mut ask: ResMut<EndPhaseAsk>,
    mut requests: MessageWriter<ActionRequest>,
) {
    let b = &keys.battle.0;
    let asked = ask.open(b);
    if asked
        && keys
            .controls
            .as_ref()
            .is_some_and(|c| c.just_pressed(&TableAction::Deselect))
    {
        ask.0 = None;
        return;
    }
    if !keys.pressed(TableAction::EndPhase) {
        return;
    }
    let confirm = settings.is_none_or(|s| s.confirm_end_phase);
    if let Some(action) = end_phase_request(b, &mut ask, confirm, asked) {
        requests.write(ActionRequest(action));
    }
}

/// `O`: the order for the selection (`order_for`), or what to select first in the status line.
fn order_key(
    keys: HumanKeys,
    mut log: ResMut<BattleLog>,
    selection: Res<Selection>,
    mut requests: MessageWriter<ActionRequest>,
) {
    if !keys.pressed(TableAction::Order) {
        return;
    }
    match order_for(&keys.battle.0, &selection) {
        Ok(a) => {
            log.status = None;
            requests.write(ActionRequest(a));
        }
        Err(why) => log.status = Some(why),
    }
}

/// `T`: the selected unit fires at the unit under the pointer (`fire_for`), or the status line
/// says what is missing.
fn fire_key(
    keys: HumanKeys,
    mut log: ResMut<BattleLog>,
    selection: Res<Selection>,
    hover: Res<crate::ui::common::TableHover>,
    mut requests: MessageWriter<ActionRequest>,
) {
    if !keys.pressed(TableAction::FireAt) {
        return;
    }
    match fire_for(&keys.battle.0, selection.unit, hover.0.unit) {
        Ok(a) => {
            log.status = None;
            requests.write(ActionRequest(a));
        }
        Err(why) => log.status = Some(why),
    }
}

/// The order `O` asks for. A commander selected: the legal order (no charge declared) naming
/// the most of its units, the first such in the orders panel; if it has none, the order of the
/// units it commands directly, for the rules to say why not. A unit selected: that unit alone,
/// ordered by its own brigade commander if it may be, else by the first who may; else by its
/// own, for the rules to refuse. Nothing selected: what to select. Under initiative passing:
/// the selected unit's activation to move.
pub fn order_for(b: &Battle, sel: &Selection) -> Result<Action, String> {
    let legal = b.legal_actions();
    // Initiative passing: no orders; `O` activates the selected unit to move (the first
    // activation the panel lists for it, in the best ground it may declare), else asks the
    // rules about a move in the open, for them to say why not.
    if b.initiative_passing() {
        let Some(u) = sel.unit else {
            return Err("with initiative passing units are activated one by one: select a unit".into());
        };
        let listed = legal
            .iter()
            .find(|a| matches!(a, Action::Activate { unit, purpose: Purpose::Move, .. } if *unit == u));
        return Ok(listed.cloned().unwrap_or(Action::Activate {
            unit: u,
            purpose: Purpose::Move,
            into: Ground::Open,
        }));
    }
    let order = |a: &&Action| matches!(a, Action::Order { charge: false, .. });
    if let Some(c) = sel.commander {
        let mut best: Option<&Action> = None;
        for a in legal.iter().filter(order) {
            if let Action::Order { commander, units, .. } = a
                && *commander == c
                && best.is_none_or(|x| matches!(x, Action::Order { units: xu, .. } if units.len() > xu.len()))
            {
                best = Some(a);
            }
        }
        if let Some(a) = best {
            return Ok(a.clone());
        }
        let mut units: Vec<UnitId> = b.alive_units().filter(|u| u.hq == c).map(|u| u.id).collect();
        if units.is_empty() {
            units = b.commanded_units(c).map(|u| u.id).collect();
        }
        return Ok(Action::Order {
            commander: c,
            units,
            charge: false,
            dense: false,
            road: false,
        });
    }
    if let Some(u) = sel.unit {
        let hq = b.unit(u).hq;
        let alone: Vec<&Action> = legal
            .iter()
            .filter(order)
            .filter(|a| matches!(a, Action::Order { units, .. } if units[..] == [u]))
            .collect();
        let own = alone
            .iter()
            .find(|a| matches!(a, Action::Order { commander, .. } if *commander == hq));
        if let Some(a) = own.or(alone.first()) {
            return Ok((*a).clone());
        }
        return Ok(Action::Order {
            commander: hq,
            units: vec![u],
            charge: false,
            dense: false,
            road: false,
        });
    }
    Err("to order, select a commander or a unit first".into())
}

/// The fire `T` asks for: `unit` at `target`, as the step allows (opportunity fire in a
/// reaction window, counter-fire at a charger, initiative fire, else ordered fire); the rules
/// check the rest (order, range, line of sight, cone) and say why not.
pub fn fire_for(b: &Battle, unit: Option<UnitId>, target: Option<UnitId>) -> Result<Action, String> {
    let Some(unit) = unit else {
        return Err("to fire, select the unit that fires, point at the enemy unit and press the key".into());
    };
    let Some(target) = target else {
        return Err(format!(
            "to fire, point at the enemy unit {} should fire at",
            b.unit(unit).name
        ));
    };
    Ok(match &b.step {
        Step::Reaction { .. } => Action::OpportunityFire {
            unit,
            target,
            with: Vec::new(),
        },
        Step::CounterInitiative { charger, .. } => {
            if *charger != target {
                return Err(format!(
                    "only the charging unit, {}, may be fired at now",
                    b.unit(*charger).name
                ));
            }
            Action::CounterFire { unit }
        }
        _ if b.phase == Phase::Initiative => Action::InitiativeFire { unit, target },
        _ => Action::Fire { unit, target },
    })
}
