//! The flow of the game read from events: the phases an action began, where a recording
//! keeps a checkpoint, the player turn a phase opens.

use super::aspects::Mark;
use super::words::side;
use crate::battle::Event;
use crate::battle::state::{Battle, Phase};

/// The phases an action's events began, in order (what the window's phase state walks; the
/// Bevy side reads them here once it sits above the report).
pub fn started_phases(events: &[Event]) -> Vec<Phase> {
    events
        .iter()
        .filter_map(|e| match crate::report::facts(e).mark {
            Some(Mark::PhaseStarted { phase, .. }) => Some(phase),
            _ => None,
        })
        .collect()
}

/// Where an action ended a phase (or the game), by its events: the name of the checkpoint a
/// recording keeps after it ("start of turn 2 Union Command phase", "game over"), else `None`.
pub fn boundary(b: &Battle, events: &[Event]) -> Option<String> {
    events.iter().rev().find_map(|e| match crate::report::facts(e).mark {
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
pub fn player_turn_of(b: &Battle, e: &Event) -> Option<String> {
    match crate::report::facts(e).mark {
        Some(Mark::PhaseStarted { active, game_turn, .. }) => Some(format!("Turn {game_turn}, {}", side(b, active))),
        _ => None,
    }
}
