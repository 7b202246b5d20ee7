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
//! Both dispatches go by family (`Event::Fire(e)` to `fire::facts_of(e)` / `fire::line_of`);
//! each family's module matches its own variants, exhaustively with no catch-all arm, so a new
//! event nobody describes fails to compile there. An action's heading (a menu line, the log's heading) is [`heading`], read
//! on the state before the action. Nothing outside this module matches on event kinds.

pub mod action;
pub mod artillery;
pub mod aspects;
pub mod command;
pub mod dice;
pub mod direction;
pub mod fire;
pub mod flow;
pub mod intent;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod optional;
pub mod phase;
pub mod recap;
pub mod units;
pub mod words;
pub mod works;

pub use action::heading;
pub use aspects::{Caption, Clip, Deed, Facts, Mark, Summary};
pub use dice::Throw;
pub use units::named_units;
pub use words::{
    aspect_word, capital, computer_says, count, cover_words, degrees, end_reason_words, pass_reason_words, phase_word,
    result_word, with_plan, words_of,
};

use crate::battle::event::Event;
use crate::battle::state::Battle;

/// What an event means, but its words: dice, undo, clip, caption, summary, mark.
pub fn facts(e: &Event) -> Facts<'_> {
    use Event as E;
    match e {
        E::Phase(e) => phase::facts_of(e),
        E::Command(e) => command::facts_of(e),
        E::Movement(e) => movement::facts_of(e),
        E::Fire(e) => fire::facts_of(e),
        E::Artillery(e) => artillery::facts_of(e),
        E::Morale(e) => morale::facts_of(e),
        E::Melee(e) => melee::facts_of(e),
        E::Works(e) => works::facts_of(e),
        E::Weather(e) => optional::weather_facts_of(e),
        E::Passing(e) => optional::passing_facts_of(e),
        E::Scouting(e) => optional::scouting_facts_of(e),
        E::Saber(e) => optional::saber_facts_of(e),
        E::Formations(e) => optional::formations_facts_of(e),
        E::Prone(e) => optional::prone_facts_of(e),
        E::OrderDelay(e) => optional::order_delay_facts_of(e),
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
/// One arm a family, each a call into its module.
#[rustfmt::skip]
pub fn line(b: &Battle, e: &Event) -> String {
    use Event as E;
    match e {
        E::Phase(e) => phase::line_of(b, e),
        E::Command(e) => command::line_of(b, e),
        E::Movement(e) => movement::line_of(b, e),
        E::Fire(e) => fire::line_of(b, e),
        E::Artillery(e) => artillery::line_of(b, e),
        E::Morale(e) => morale::line_of(b, e),
        E::Melee(e) => melee::line_of(b, e),
        E::Works(e) => works::line_of(b, e),
        E::Weather(e) => optional::weather_line_of(b, e),
        E::Passing(e) => optional::passing_line_of(b, e),
        E::Scouting(e) => optional::scouting_line_of(b, e),
        E::Saber(e) => optional::saber_line_of(b, e),
        E::Formations(e) => optional::formations_line_of(b, e),
        E::Prone(e) => optional::prone_line_of(b, e),
        E::OrderDelay(e) => optional::order_delay_line_of(b, e),
    }
}
