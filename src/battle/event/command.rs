//! Orders and commanders: command rolls, blunders, commanders moving, attacked, replaced (BPT "Command Phase").

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CommandEvent {
    CommandRoll {
        commander: CmdId,
        units: Vec<UnitId>,
        value: i32,
        modifiers: Vec<Modifier>,
        target: i32,
        dice: [u32; 2],
        outcome: CommandOutcome,
    },
    SelfOrderRoll {
        unit: UnitId,
        target: i32,
        dice: [u32; 2],
        success: bool,
    },
    Blunder {
        commander: CmdId,
        roll: u32,
        effect: BlunderEffect,
    },
    OrdersEnded {
        commander: CmdId,
        all: bool,
    },
    CommanderMoved {
        commander: CmdId,
        from: V2,
        to: V2,
    },
    CommanderAttacked {
        commander: CmdId,
        dice: u32,
        rolls: Vec<u32>,
        hits: u32,
        knocked_out: bool,
    },
    CommanderSuppressed {
        commander: CmdId,
    },
    CommanderKnockedOut {
        commander: CmdId,
        why: KnockOut,
    },
    CommanderJoined {
        commander: CmdId,
        unit: UnitId,
    },
    CommanderReplaced {
        commander: CmdId,
        pos: V2,
        command_value: i32,
    },
}
