//! The phase family: a phase begins, the game ends.

use super::words::{phase_word, result_word, side};
use super::{Facts, Mark};
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
    reason: &str,
) -> String {
    format!(
        "Game over ({reason}): {}; victory points {} {} / {} {}",
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

/// The phases an action's events began, in order (the window's phase state walks them).
pub fn started_phases(events: &[crate::battle::Event]) -> Vec<Phase> {
    events
        .iter()
        .filter_map(|e| match super::facts(e).mark {
            Some(Mark::PhaseStarted { phase, .. }) => Some(phase),
            _ => None,
        })
        .collect()
}

/// Where an action ended a phase (or the game), by its events: the name of the checkpoint a
/// recording keeps after it ("start of turn 2 Union Command phase", "game over"), else `None`.
pub fn boundary(b: &Battle, events: &[crate::battle::Event]) -> Option<String> {
    events.iter().rev().find_map(|e| match super::facts(e).mark {
        Some(Mark::PhaseStarted {
            phase,
            active,
            game_turn,
        }) => Some(format!("start of turn {game_turn} {} {phase:?} phase", side(b, active))),
        Some(Mark::GameOver) => Some("game over".to_string()),
        _ => None,
    })
}

/// The player turn a phase line of the log opens, from its event: "Turn 2, Union" (the dice
/// panel's groups); None for any other event.
pub fn player_turn_of(b: &Battle, e: &crate::battle::Event) -> Option<String> {
    match super::facts(e).mark {
        Some(Mark::PhaseStarted { active, game_turn, .. }) => Some(format!("Turn {game_turn}, {}", side(b, active))),
        _ => None,
    }
}
