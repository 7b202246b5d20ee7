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

use crate::battle::event::families::*;
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
        E::Phase(PhaseEvent::PhaseStarted {
            phase,
            active,
            game_turn,
            ..
        }) => phase::started_facts(*phase, *active, *game_turn),
        E::Phase(PhaseEvent::GameOver { .. }) => phase::game_over_facts(),
        E::Command(CommandEvent::CommandRoll {
            commander,
            target,
            dice,
            outcome,
            ..
        }) => command::roll_facts(*commander, *target, dice, *outcome),
        E::Command(CommandEvent::SelfOrderRoll {
            unit,
            target,
            dice,
            success,
        }) => command::self_order_facts(*unit, *target, dice, *success),
        E::Command(CommandEvent::Blunder { roll, .. }) => command::blunder_facts(*roll),
        E::Command(CommandEvent::CommanderMoved { from, .. }) => command::rode_facts(*from),
        E::Command(CommandEvent::CommanderAttacked { rolls, .. }) => command::attacked_facts(rolls),
        E::Command(CommandEvent::OrdersEnded { .. })
        | E::Command(CommandEvent::CommanderSuppressed { .. })
        | E::Command(CommandEvent::CommanderKnockedOut { .. })
        | E::Command(CommandEvent::CommanderJoined { .. })
        | E::Command(CommandEvent::CommanderReplaced { .. }) => Facts::none(),
        E::Movement(MovementEvent::Moved {
            unit, from, to, kind, ..
        }) => movement::moved_facts(*unit, *from, *to, *kind),
        E::Movement(MovementEvent::Deployed { .. }) | E::Movement(MovementEvent::Halted { .. }) => Facts::none(),
        E::Fire(FireEvent::Fired {
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
        }) => fire::fired_facts(
            firers,
            *target,
            *context,
            (*to_hit, *roll_bonus, rolls, *hits),
            (*save, save_rolls),
        ),
        E::Artillery(ArtilleryEvent::RoundShot { firer, trace, .. }) => artillery::round_shot_facts(*firer, trace),
        E::Artillery(ArtilleryEvent::ShellFired {
            firer,
            gun,
            accuracy_roll,
            accuracy_need,
            deviation,
            burst,
            ..
        }) => artillery::shell_facts(*firer, (*gun, *burst), (*accuracy_roll, *accuracy_need), deviation),
        E::Artillery(ArtilleryEvent::BlastThrough { corridor, .. }) => artillery::blast_facts(*corridor),
        E::Morale(MoraleEvent::HitsTaken { unit, hits, .. }) => morale::hits_facts(*unit, *hits),
        E::Morale(MoraleEvent::SuppressionTest { rolls, need, .. }) => morale::suppression_test_facts(rolls, *need),
        E::Morale(MoraleEvent::FellBack {
            unit,
            rolls,
            distance,
            from,
            to,
        }) => morale::fell_back_facts(*unit, rolls, *distance, (*from, *to)),
        E::Morale(MoraleEvent::Suppressed { unit, .. }) => morale::suppressed_facts(*unit),
        E::Morale(MoraleEvent::KnockedOut { unit, .. }) => morale::knocked_out_facts(*unit),
        E::Morale(MoraleEvent::StandsRemoved { unit, removed, .. }) => morale::stands_facts(*unit, *removed),
        E::Morale(MoraleEvent::Disordered { unit }) => morale::disordered_facts(*unit),
        E::Morale(MoraleEvent::BreakpointRoll {
            value, dice, broken, ..
        }) => morale::breakpoint_facts(*value, dice, *broken),
        E::Morale(MoraleEvent::SideBroken { .. }) => Facts::none().result(),
        E::Morale(MoraleEvent::DisorderEnded { .. }) | E::Morale(MoraleEvent::SuppressionCleared { .. }) => {
            Facts::none()
        }
        E::Melee(MeleeEvent::ChargeFailed { unit, .. }) => melee::failed_facts(*unit),
        E::Melee(MeleeEvent::CombatRound { sides, .. }) => melee::round_facts(sides),
        E::Melee(MeleeEvent::CombatResult { target, .. }) => melee::result_facts(*target),
        E::Melee(MeleeEvent::Retreated { unit, from, to }) => melee::retreated_facts(*unit, *from, *to),
        E::Melee(MeleeEvent::Consolidated { unit, from, to }) => melee::consolidated_facts(*unit, *from, *to),
        E::Melee(MeleeEvent::ChargeDeclared { .. })
        | E::Melee(MeleeEvent::ChargeContact { .. })
        | E::Melee(MeleeEvent::Supporting { .. }) => Facts::none(),
        E::Works(WorksEvent::EngineerWork { roll, done, .. }) => works::engineer_facts(*roll, *done),
        E::Works(WorksEvent::ConstructionHit { .. }) | E::Works(WorksEvent::ConstructionCollapsed { .. }) => {
            Facts::none()
        }
        E::Weather(WeatherEvent::WeatherRoll { dice, .. }) => optional::weather_facts(dice),
        E::Passing(PassingEvent::ActivationRoll {
            target, roll, success, ..
        }) => optional::d6_facts("activation", *target, *roll, *success),
        E::Passing(PassingEvent::ChargeTest {
            target, roll, success, ..
        }) => optional::d6_facts("charge test", *target, *roll, *success),
        E::Passing(PassingEvent::RallyRoll {
            target, roll, success, ..
        }) => optional::d6_facts("rally", *target, *roll, *success),
        E::Passing(PassingEvent::DMarkers { .. })
        | E::Scouting(ScoutingEvent::Revealed { .. })
        | E::Scouting(ScoutingEvent::ScoutRetired { .. })
        | E::Scouting(ScoutingEvent::ScoutFree { .. })
        | E::Saber(SaberEvent::SabersDrawn { .. })
        | E::Formations(FormationsEvent::Attached { .. })
        | E::Prone(ProneEvent::ProneSaved { .. })
        | E::Passing(PassingEvent::InitiativePassed { .. })
        | E::OrderDelay(OrderDelayEvent::OrderDelayed { .. })
        | E::OrderDelay(OrderDelayEvent::OrderArrived { .. })
        | E::OrderDelay(OrderDelayEvent::OrderReplaced { .. }) => Facts::none(),
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
        E::Phase(PhaseEvent::PhaseStarted { phase, active, game_turn, .. }) => phase::started(b, *phase, *active, *game_turn),
        E::Phase(PhaseEvent::GameOver { winner, result, victory_points, reason }) => phase::game_over(b, *winner, result, victory_points, *reason),
        E::Command(CommandEvent::CommandRoll { commander, units, value, modifiers, target, dice, outcome }) => {
            command::roll(b, (*commander, units), (*value, modifiers, *target), dice, *outcome)
        }
        E::Command(CommandEvent::SelfOrderRoll { unit, target, dice, success }) => command::self_order(b, *unit, *target, dice, *success),
        E::Command(CommandEvent::Blunder { commander, roll, effect }) => command::blunder(b, *commander, *roll, effect),
        E::Command(CommandEvent::OrdersEnded { commander, all }) => command::orders_ended(b, *commander, *all),
        E::Command(CommandEvent::CommanderMoved { commander, to, .. }) => command::rode(b, *commander, *to),
        E::Command(CommandEvent::CommanderAttacked { commander, dice, rolls, hits, knocked_out }) => {
            command::attacked(b, *commander, *dice, rolls, (*hits, *knocked_out))
        }
        E::Command(CommandEvent::CommanderSuppressed { commander }) => command::suppressed(b, *commander),
        E::Command(CommandEvent::CommanderKnockedOut { commander, why }) => command::knocked_out(b, *commander, why),
        E::Command(CommandEvent::CommanderJoined { commander, unit }) => command::joined(b, *commander, *unit),
        E::Command(CommandEvent::CommanderReplaced { commander, command_value, .. }) => command::replaced(b, *commander, *command_value),
        E::Movement(MovementEvent::Moved { unit, from, to, kind, cost }) => movement::moved(b, *unit, (from, to), kind, *cost),
        E::Movement(MovementEvent::Deployed { unit, what }) => movement::deployed(b, *unit, what),
        E::Movement(MovementEvent::Halted { unit, by }) => movement::halted(b, *unit, *by),
        E::Fire(FireEvent::Fired { firers, target, context, base_dice, modifiers, dice, aspect, cover, to_hit, roll_bonus, rolls, hits, save, save_rolls, saved }) => {
            fire::fired(b, &fire::Fire { firers, target: *target, context: *context, base_dice: *base_dice, modifiers, dice: *dice, aspect: *aspect, cover: *cover, to_hit: *to_hit, roll_bonus: *roll_bonus, rolls, hits: *hits, save: *save, save_rolls, saved: *saved })
        }
        E::Artillery(ArtilleryEvent::RoundShot { firer, trace, attacked }) => artillery::round_shot(b, *firer, trace, attacked),
        E::Artillery(ArtilleryEvent::ShellFired { firer, high_angle, accuracy_roll, accuracy_need, deviation, burst, lost, attacked, air_burst, .. }) => {
            artillery::shell(b, *firer, (*high_angle, *air_burst), (*accuracy_roll, *accuracy_need, deviation), (*burst, lost, attacked))
        }
        E::Artillery(ArtilleryEvent::BlastThrough { firer, next, damaged_in_front, to_hit, .. }) => artillery::blast(b, *firer, *next, *damaged_in_front, *to_hit),
        E::Morale(MoraleEvent::HitsTaken { unit, hits, total, value }) => morale::hits(b, *unit, *hits, *total, *value),
        E::Morale(MoraleEvent::SuppressionTest { unit, rolls, need, suppressed }) => morale::suppression_test(b, *unit, rolls, *need, *suppressed),
        E::Morale(MoraleEvent::FellBack { unit, rolls, distance, .. }) => morale::fell_back(b, *unit, rolls, *distance),
        E::Morale(MoraleEvent::Suppressed { unit, why }) => morale::suppressed(b, *unit, *why),
        E::Morale(MoraleEvent::KnockedOut { unit, why }) => morale::knocked_out(b, *unit, why),
        E::Morale(MoraleEvent::StandsRemoved { unit, removed, left }) => morale::stands_removed(b, *unit, *removed, *left),
        E::Morale(MoraleEvent::Disordered { unit }) => morale::disordered(b, *unit),
        E::Morale(MoraleEvent::DisorderEnded { unit }) => morale::disorder_ended(b, *unit),
        E::Morale(MoraleEvent::SuppressionCleared { unit }) => morale::suppression_cleared(b, *unit),
        E::Morale(MoraleEvent::BreakpointRoll { side, value, dice, broken }) => morale::breakpoint(b, *side, *value, dice, *broken),
        E::Morale(MoraleEvent::SideBroken { side }) => morale::side_broken(b, *side),
        E::Melee(MeleeEvent::ChargeDeclared { unit, target, .. }) => melee::declared(b, *unit, *target),
        E::Melee(MeleeEvent::ChargeContact { unit, target, aspect }) => melee::contact(b, *unit, *target, aspect),
        E::Melee(MeleeEvent::ChargeFailed { unit, target, why }) => melee::failed(b, *unit, *target, *why),
        E::Melee(MeleeEvent::Supporting { unit, friend }) => melee::supporting(b, *unit, *friend),
        E::Melee(MeleeEvent::CombatRound { round, target, sides }) => melee::round(b, *round, *target, sides),
        E::Melee(MeleeEvent::CombatResult { target, winner, by_double, hits }) => melee::result(b, *target, *winner, *by_double, hits),
        E::Melee(MeleeEvent::Retreated { unit, from, to }) => melee::retreated(b, *unit, from, to),
        E::Melee(MeleeEvent::Consolidated { unit, from, to }) => melee::consolidated(b, *unit, from, to),
        E::Works(WorksEvent::EngineerWork { unit, task, linear, roll, built, done }) => works::engineer(b, (*unit, *task, *linear), *roll, *built, *done),
        E::Works(WorksEvent::ConstructionHit { building, rolls, need, save_rolls, hits, total, value }) => {
            works::construction_hit(b, *building, (rolls, *need, save_rolls), *hits, (*total, *value))
        }
        E::Works(WorksEvent::ConstructionCollapsed { building, knocked_out, suppressed }) => works::collapsed(b, *building, knocked_out, suppressed),
        E::Weather(WeatherEvent::WeatherRoll { dice, from, to, when }) => optional::weather(dice, from, to, *when),
        E::Passing(PassingEvent::ActivationRoll { unit, modifiers, target, roll, success }) => optional::activation(b, *unit, (modifiers, *target), *roll, *success),
        E::Passing(PassingEvent::ChargeTest { unit, enemy, modifiers, target, roll, success }) => {
            optional::charge_test(b, (*unit, *enemy), (modifiers, *target), *roll, *success)
        }
        E::Passing(PassingEvent::RallyRoll { unit, modifiers, target, roll, success }) => optional::rally(b, *unit, (modifiers, *target), *roll, *success),
        E::Passing(PassingEvent::DMarkers { unit, change, total, why }) => optional::d_markers(b, *unit, *change, *total, *why),
        E::Scouting(ScoutingEvent::Revealed { unit, by, distance }) => optional::revealed(b, *unit, *by, *distance),
        E::Scouting(ScoutingEvent::ScoutRetired { unit, why }) => optional::scout_retired(b, *unit, *why),
        E::Scouting(ScoutingEvent::ScoutFree { unit }) => optional::scout_free(b, *unit),
        E::Saber(SaberEvent::SabersDrawn { unit }) => optional::sabers_drawn(b, *unit),
        E::Formations(FormationsEvent::Attached { unit, co, hq }) => optional::attached(b, *unit, *co, *hq),
        E::Prone(ProneEvent::ProneSaved { unit, hits, taken }) => optional::prone_saved(b, *unit, *hits, *taken),
        E::Passing(PassingEvent::InitiativePassed { side, reason }) => optional::initiative_passed(b, *side, reason),
        E::OrderDelay(OrderDelayEvent::OrderDelayed { commander, units, distance, delay, due_game_turn }) => {
            optional::order_delayed(b, (*commander, units), *distance, *delay, *due_game_turn)
        }
        E::OrderDelay(OrderDelayEvent::OrderArrived { commander, units, credits, given_game_turn, lapsed }) => {
            optional::order_arrived(b, (*commander, units), *credits, *given_game_turn, lapsed)
        }
        E::OrderDelay(OrderDelayEvent::OrderReplaced { commander, units, given_game_turn, by }) => {
            optional::order_replaced(b, (*commander, units), *given_game_turn, *by)
        }
    }
}
