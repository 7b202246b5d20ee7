//! The decision windows the rules open inside a phase (BPT "Counter-Initiative", "Opportunity
//! Fire", "Support", "Consolidate"), said to the player whose decision it is: entering a
//! window (`OnEnter(DecisionWindow::…)`) sets the prompt the phase bar shows ("Union 1 moved:
//! your opportunity fire, or Pass (Enter)"), leaving it clears it. The prompt is worded from
//! the deciding side's [`PlayerView`]: it never names a unit that side may not know of. A
//! window a computer player decides has no prompt (the phase bar says who is thinking).

use crate::app::{ActionApplied, BattleState, DecisionWindow};
use crate::battle::state::{Step, UnitId};
use crate::battle::{Action, Battle};
use crate::report::Deed;
use crate::ui::session::Seats;
use crate::view::PlayerView;
use bevy::prelude::*;

/// What the open decision window asks of the player at the table, if it is theirs.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct WindowPrompt(pub Option<String>);

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<WindowPrompt>();
    for w in [
        DecisionWindow::CounterInitiative,
        DecisionWindow::Reaction,
        DecisionWindow::Support,
        DecisionWindow::Consolidate,
    ] {
        app.add_systems(OnEnter(w), enter_window)
            .add_systems(OnExit(w), |mut p: ResMut<WindowPrompt>| p.0 = None);
    }
}

/// A window opens: its prompt, if a person at this table decides it.
fn enter_window(
    battle: Res<BattleState>,
    seats: Option<Res<Seats>>,
    settings: Option<Res<crate::ui::settings::Settings>>,
    mut applied: MessageReader<ActionApplied>,
    mut prompt: ResMut<WindowPrompt>,
) {
    let b = &battle.0;
    // What the units did in the actions just applied (the last word on each wins).
    let deeds: Vec<Deed> = applied
        .read()
        .flat_map(|a| a.events.iter())
        .filter_map(|e| crate::report::facts(e).summary.deed)
        .collect();
    let key = crate::ui::settings::key_label(
        settings.map_or(crate::ui::settings::Binding::EndPhase.default_key(), |s| {
            s.key(crate::ui::settings::Binding::EndPhase)
        }),
    );
    let human = seats.is_some_and(|s| s.human(b.actor()));
    prompt.0 = human.then(|| window_prompt(b, &deeds, &key)).flatten();
}

/// What the open window asks of the side deciding it, in its own view of the battle, given
/// `deeds` (what the units did in the action that opened it) and `key` (the pass key's name).
/// None with no window open.
pub fn window_prompt(b: &Battle, deeds: &[Deed], key: &str) -> Option<String> {
    let view = PlayerView::side(b, b.actor());
    let name = |u: UnitId| view.unit(u).map(|x| x.name.clone());
    Some(match view.step() {
        Step::Open => match &b.step {
            Step::Open => return None,
            // A window about a unit the side does not know of (the view hides it).
            _ => format!("The enemy acted: your answer, or Pass ({key})"),
        },
        Step::Reaction { mover, .. } => {
            let did = deeds.iter().rev().find_map(|d| match d {
                Deed::Moved(u) if *u == mover => Some("moved"),
                Deed::Fired(Some(u)) if *u == mover => Some("fired"),
                _ => None,
            });
            let who = name(mover).unwrap_or_else(|| "An enemy unit".into());
            format!(
                "{who} {}: your opportunity fire, or Pass ({key})",
                did.unwrap_or("moved or fired")
            )
        }
        Step::CounterInitiative { charger, target, .. } => {
            let (c, t) = (name(charger), name(target));
            let what = match (c, t) {
                (Some(c), Some(t)) => format!("{c} charges your {t}"),
                _ => "A charge is declared against you".into(),
            };
            // What the rules let the charged side do now, in the order a player weighs it.
            let legal = b.legal_actions();
            let may = |f: &dyn Fn(&Action) -> bool| legal.iter().any(f);
            let answers: Vec<&str> = [
                (may(&|a| matches!(a, Action::CounterFire { .. })), "fire at it"),
                (may(&|a| matches!(a, Action::CounterEvade { .. })), "evade"),
                (may(&|a| matches!(a, Action::CounterCharge { .. })), "counter-charge"),
                (
                    may(&|a| matches!(a, Action::CounterDeploy { .. })),
                    "turn the guns to face it",
                ),
            ]
            .into_iter()
            .filter_map(|(ok, w)| ok.then_some(w))
            .collect();
            match answers.as_slice() {
                [] => format!("{what}: stand and meet it (Pass, {key})"),
                [one] => format!("{what}: {one}, or stand (Pass, {key})"),
                [rest @ .., last] => format!("{what}: {}, {last}, or stand (Pass, {key})", rest.join(", ")),
            }
        }
        Step::Support { .. } => format!("Charges to fight: move your units in support, or Pass ({key})"),
        Step::Consolidate { unit, .. } => {
            let who = name(unit).unwrap_or_else(|| "Your unit".into());
            format!("{who} may consolidate: advance straight ahead, or Stay ({key})")
        }
    })
}
