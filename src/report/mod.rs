//! The report: what an event means to whoever shows it, outside the core (which speaks no
//! English). For every event, by family (command, movement, fire, artillery, melee, morale,
//! phase, works, and the optional rules'):
//!
//! - its line in the battle log ([`line`], on the state after the event);
//! - and, without the battle ([`facts`]): its dice ([`Throw`]), whether it settles the action
//!   that caused it (no undo past a die), its animation clip ([`Clip`]), its caption for the
//!   follow camera and the floating results ([`Caption`]), its part in the hot-seat hand-over
//!   summary ([`Summary`]), and whether it marks a phase, the end or a melee ([`Mark`]).
//!
//! Both dispatches are exhaustive with no catch-all arm, so a new event nobody describes fails
//! to compile here. An action's heading (a menu line, the log's heading) is [`heading`], read
//! on the state before the action. Nothing outside this module matches on event kinds.

pub mod action;
pub mod artillery;
pub mod aspects;
pub mod command;
pub mod dice;
pub mod fire;
pub mod flow;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod optional;
pub mod phase;
pub mod units;
pub mod words;
pub mod works;

pub use action::heading;
pub use aspects::{Caption, Clip, Deed, Facts, Mark, Summary};
pub use dice::Throw;
pub use units::named_units;
pub use words::{
    aspect_word, capital, count, cover_words, degrees, end_reason_words, pass_reason_words, phase_word, result_word,
    words_of,
};

use crate::battle::event::Event;
use crate::battle::state::Battle;

/// What an event means, but its words: dice, undo, clip, caption, summary, mark.
pub fn facts(e: &Event) -> Facts<'_> {
    use Event as E;
    match e {
        E::PhaseStarted {
            phase,
            active,
            game_turn,
            ..
        } => phase::started_facts(*phase, *active, *game_turn),
        E::GameOver { .. } => phase::game_over_facts(),
        E::CommandRoll {
            commander,
            target,
            dice,
            outcome,
            ..
        } => command::roll_facts(*commander, *target, dice, *outcome),
        E::SelfOrderRoll {
            unit,
            target,
            dice,
            success,
        } => command::self_order_facts(*unit, *target, dice, *success),
        E::Blunder { roll, .. } => command::blunder_facts(*roll),
        E::CommanderMoved { from, .. } => command::rode_facts(*from),
        E::CommanderAttacked { rolls, .. } => command::attacked_facts(rolls),
        E::OrdersEnded { .. }
        | E::CommanderSuppressed { .. }
        | E::CommanderKnockedOut { .. }
        | E::CommanderJoined { .. }
        | E::CommanderReplaced { .. } => Facts::none(),
        E::Moved {
            unit, from, to, kind, ..
        } => movement::moved_facts(*unit, *from, *to, *kind),
        E::Deployed { .. } | E::Halted { .. } => Facts::none(),
        E::Fired {
            firers,
            target,
            context,
            to_hit,
            roll_bonus,
            rolls,
            hits,
            save,
            save_rolls,
            ..
        } => fire::fired_facts(
            firers,
            *target,
            *context,
            (*to_hit, *roll_bonus, rolls, *hits),
            (*save, save_rolls),
        ),
        E::RoundShot { firer, trace, .. } => artillery::round_shot_facts(*firer, trace),
        E::ShellFired {
            firer,
            gun,
            accuracy_roll,
            accuracy_need,
            deviation,
            burst,
            ..
        } => artillery::shell_facts(*firer, (*gun, *burst), (*accuracy_roll, *accuracy_need), deviation),
        E::BlastThrough { corridor, .. } => artillery::blast_facts(*corridor),
        E::HitsTaken { unit, hits, .. } => morale::hits_facts(*unit, *hits),
        E::SuppressionTest { rolls, need, .. } => morale::suppression_test_facts(rolls, *need),
        E::FellBack {
            unit,
            rolls,
            distance,
            from,
            to,
        } => morale::fell_back_facts(*unit, rolls, *distance, (*from, *to)),
        E::Suppressed { unit, .. } => morale::suppressed_facts(*unit),
        E::KnockedOut { unit, .. } => morale::knocked_out_facts(*unit),
        E::StandsRemoved { unit, removed, .. } => morale::stands_facts(*unit, *removed),
        E::Disordered { unit } => morale::disordered_facts(*unit),
        E::BreakpointRoll {
            value, dice, broken, ..
        } => morale::breakpoint_facts(*value, dice, *broken),
        E::SideBroken { .. } => Facts::none().result(),
        E::DisorderEnded { .. } | E::SuppressionCleared { .. } => Facts::none(),
        E::ChargeFailed { unit, .. } => melee::failed_facts(*unit),
        E::CombatRound { sides, .. } => melee::round_facts(sides),
        E::CombatResult { target, .. } => melee::result_facts(*target),
        E::Retreated { unit, from, to } => melee::retreated_facts(*unit, *from, *to),
        E::Consolidated { unit, from, to } => melee::consolidated_facts(*unit, *from, *to),
        E::ChargeDeclared { .. } | E::ChargeContact { .. } | E::Supporting { .. } => Facts::none(),
        E::EngineerWork { roll, done, .. } => works::engineer_facts(*roll, *done),
        E::ConstructionHit { .. } | E::ConstructionCollapsed { .. } => Facts::none(),
        E::WeatherRoll { dice, .. } => optional::weather_facts(dice),
        E::ActivationRoll {
            target, roll, success, ..
        } => optional::d6_facts("activation", *target, *roll, *success),
        E::ChargeTest {
            target, roll, success, ..
        } => optional::d6_facts("charge test", *target, *roll, *success),
        E::RallyRoll {
            target, roll, success, ..
        } => optional::d6_facts("rally", *target, *roll, *success),
        E::DMarkers { .. }
        | E::Revealed { .. }
        | E::ScoutRetired { .. }
        | E::ScoutFree { .. }
        | E::SabersDrawn { .. }
        | E::Attached { .. }
        | E::ProneSaved { .. }
        | E::InitiativePassed { .. }
        | E::OrderDelayed { .. }
        | E::OrderArrived { .. }
        | E::OrderReplaced { .. } => Facts::none(),
    }
}

/// The dice an event rolled, in the order they were rolled (none for an event without dice).
pub fn throws(e: &Event) -> Vec<Throw> {
    facts(e).throws
}

/// After this event the action that caused it stands and cannot be taken back: a die was
/// rolled or the game ended (the window's undo asks this of every event).
pub fn settles(e: &Event) -> bool {
    facts(e).settles
}

/// One event's line in the battle log, on the state after it (names, who is still standing).
/// One arm a kind, each a call into its family (kept one a line: the list is the index).
#[rustfmt::skip]
pub fn line(b: &Battle, e: &Event) -> String {
    use Event as E;
    match e {
        E::PhaseStarted { phase, active, game_turn, .. } => phase::started(b, *phase, *active, *game_turn),
        E::GameOver { winner, result, victory_points, reason } => phase::game_over(b, *winner, result, victory_points, *reason),
        E::CommandRoll { commander, units, value, modifiers, target, dice, outcome } => {
            command::roll(b, (*commander, units), (*value, modifiers, *target), dice, *outcome)
        }
        E::SelfOrderRoll { unit, target, dice, success } => command::self_order(b, *unit, *target, dice, *success),
        E::Blunder { commander, roll, effect } => command::blunder(b, *commander, *roll, effect),
        E::OrdersEnded { commander, all } => command::orders_ended(b, *commander, *all),
        E::CommanderMoved { commander, to, .. } => command::rode(b, *commander, *to),
        E::CommanderAttacked { commander, dice, rolls, hits, knocked_out } => {
            command::attacked(b, *commander, *dice, rolls, (*hits, *knocked_out))
        }
        E::CommanderSuppressed { commander } => command::suppressed(b, *commander),
        E::CommanderKnockedOut { commander, why } => command::knocked_out(b, *commander, why),
        E::CommanderJoined { commander, unit } => command::joined(b, *commander, *unit),
        E::CommanderReplaced { commander, command_value, .. } => command::replaced(b, *commander, *command_value),
        E::Moved { unit, from, to, kind, cost } => movement::moved(b, *unit, (from, to), kind, *cost),
        E::Deployed { unit, what } => movement::deployed(b, *unit, what),
        E::Halted { unit, by } => movement::halted(b, *unit, *by),
        E::Fired { firers, target, context, base_dice, modifiers, dice, aspect, cover, to_hit, roll_bonus, rolls, hits, save, save_rolls, saved } => {
            fire::fired(b, &fire::Fire { firers, target: *target, context: *context, base_dice: *base_dice, modifiers, dice: *dice, aspect: *aspect, cover: *cover, to_hit: *to_hit, roll_bonus: *roll_bonus, rolls, hits: *hits, save: *save, save_rolls, saved: *saved })
        }
        E::RoundShot { firer, trace, attacked } => artillery::round_shot(b, *firer, trace, attacked),
        E::ShellFired { firer, high_angle, accuracy_roll, accuracy_need, deviation, burst, lost, attacked, air_burst, .. } => {
            artillery::shell(b, *firer, (*high_angle, *air_burst), (*accuracy_roll, *accuracy_need, deviation), (*burst, lost, attacked))
        }
        E::BlastThrough { firer, next, damaged_in_front, to_hit, .. } => artillery::blast(b, *firer, *next, *damaged_in_front, *to_hit),
        E::HitsTaken { unit, hits, total, value } => morale::hits(b, *unit, *hits, *total, *value),
        E::SuppressionTest { unit, rolls, need, suppressed } => morale::suppression_test(b, *unit, rolls, *need, *suppressed),
        E::FellBack { unit, rolls, distance, .. } => morale::fell_back(b, *unit, rolls, *distance),
        E::Suppressed { unit, why } => morale::suppressed(b, *unit, *why),
        E::KnockedOut { unit, why } => morale::knocked_out(b, *unit, why),
        E::StandsRemoved { unit, removed, left } => morale::stands_removed(b, *unit, *removed, *left),
        E::Disordered { unit } => morale::disordered(b, *unit),
        E::DisorderEnded { unit } => morale::disorder_ended(b, *unit),
        E::SuppressionCleared { unit } => morale::suppression_cleared(b, *unit),
        E::BreakpointRoll { side, value, dice, broken } => morale::breakpoint(b, *side, *value, dice, *broken),
        E::SideBroken { side } => morale::side_broken(b, *side),
        E::ChargeDeclared { unit, target, .. } => melee::declared(b, *unit, *target),
        E::ChargeContact { unit, target, aspect } => melee::contact(b, *unit, *target, aspect),
        E::ChargeFailed { unit, target, why } => melee::failed(b, *unit, *target, *why),
        E::Supporting { unit, friend } => melee::supporting(b, *unit, *friend),
        E::CombatRound { round, target, sides } => melee::round(b, *round, *target, sides),
        E::CombatResult { target, winner, by_double, hits } => melee::result(b, *target, *winner, *by_double, hits),
        E::Retreated { unit, from, to } => melee::retreated(b, *unit, from, to),
        E::Consolidated { unit, from, to } => melee::consolidated(b, *unit, from, to),
        E::EngineerWork { unit, task, linear, roll, built, done } => works::engineer(b, (*unit, *task, *linear), *roll, *built, *done),
        E::ConstructionHit { building, rolls, need, save_rolls, hits, total, value } => {
            works::construction_hit(b, *building, (rolls, *need, save_rolls), *hits, (*total, *value))
        }
        E::ConstructionCollapsed { building, knocked_out, suppressed } => works::collapsed(b, *building, knocked_out, suppressed),
        E::WeatherRoll { dice, from, to, when } => optional::weather(dice, from, to, *when),
        E::ActivationRoll { unit, modifiers, target, roll, success } => optional::activation(b, *unit, (modifiers, *target), *roll, *success),
        E::ChargeTest { unit, enemy, modifiers, target, roll, success } => {
            optional::charge_test(b, (*unit, *enemy), (modifiers, *target), *roll, *success)
        }
        E::RallyRoll { unit, modifiers, target, roll, success } => optional::rally(b, *unit, (modifiers, *target), *roll, *success),
        E::DMarkers { unit, change, total, why } => optional::d_markers(b, *unit, *change, *total, *why),
        E::Revealed { unit, by, distance } => optional::revealed(b, *unit, *by, *distance),
        E::ScoutRetired { unit, why } => optional::scout_retired(b, *unit, *why),
        E::ScoutFree { unit } => optional::scout_free(b, *unit),
        E::SabersDrawn { unit } => optional::sabers_drawn(b, *unit),
        E::Attached { unit, co, hq } => optional::attached(b, *unit, *co, *hq),
        E::ProneSaved { unit, hits, taken } => optional::prone_saved(b, *unit, *hits, *taken),
        E::InitiativePassed { side, reason } => optional::initiative_passed(b, *side, reason),
        E::OrderDelayed { commander, units, distance, delay, due_game_turn } => {
            optional::order_delayed(b, (*commander, units), *distance, *delay, *due_game_turn)
        }
        E::OrderArrived { commander, units, credits, given_game_turn, lapsed } => {
            optional::order_arrived(b, (*commander, units), *credits, *given_game_turn, lapsed)
        }
        E::OrderReplaced { commander, units, given_game_turn, by } => {
            optional::order_replaced(b, (*commander, units), *given_game_turn, *by)
        }
    }
}
