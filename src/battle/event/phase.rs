//! The sequence of play: a phase begins, the battle ends (BPT "Sequence of Play", "End of the Battle").

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PhaseEvent {
    PhaseStarted {
        phase: Phase,
        active: SideId,
        game_turn: u32,
        player_turn: u32,
    },
    GameOver {
        winner: Option<SideId>,
        result: ResultKind,
        victory_points: [u32; 2],
        reason: EndReason,
    },
}
