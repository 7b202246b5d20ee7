//! The phase family: a phase begins, the game ends.

use super::aspects::{Facts, Mark};
use super::words::{end_reason_words, phase_word, result_word, side};
use crate::battle::event::EndReason;
use crate::battle::event::PhaseEvent;
use crate::battle::state::{Battle, Phase, ResultKind, SideId};

/// "— Turn 2, Union: command phase —".
pub(crate) fn started(b: &Battle, phase: Phase, active: SideId, game_turn: u32) -> String {
    format!("— Turn {game_turn}, {}: {} phase —", side(b, active), phase_word(phase))
}

pub(crate) fn started_facts<'a>(phase: Phase, active: SideId, game_turn: u32) -> Facts<'a> {
    Facts::none().mark(Mark::PhaseStarted {
        phase,
        active,
        game_turn,
    })
}

pub(crate) fn game_over(
    b: &Battle,
    winner: Option<SideId>,
    result: &ResultKind,
    victory_points: &[u32; 2],
    reason: EndReason,
) -> String {
    format!(
        "Game over ({}): {}; victory points {} {} / {} {}",
        end_reason_words(reason),
        match winner {
            Some(w) => format!("{} for {}", result_word(result), side(b, w)),
            None => "a draw".into(),
        },
        side(b, 0),
        victory_points[0],
        side(b, 1),
        victory_points[1]
    )
}

/// The game ended: nothing to take back.
pub(crate) fn game_over_facts<'a>() -> Facts<'a> {
    Facts {
        settles: true,
        ..Facts::none()
    }
    .mark(Mark::GameOver)
}

/// What a phase event means, but its words (`report::facts`).
pub(super) fn facts_of(e: &PhaseEvent) -> Facts<'_> {
    use PhaseEvent as E;
    match e {
        E::PhaseStarted {
            phase,
            active,
            game_turn,
            ..
        } => started_facts(*phase, *active, *game_turn),
        E::GameOver { .. } => game_over_facts(),
    }
}

/// A phase event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn line_of(b: &Battle, e: &PhaseEvent) -> String {
    use PhaseEvent as E;
    match e {
        E::PhaseStarted { phase, active, game_turn, .. } => started(b, *phase, *active, *game_turn),
        E::GameOver { winner, result, victory_points, reason } => game_over(b, *winner, result, victory_points, *reason),
    }
}
