//! Small-arms and BPT artillery fire (BPT "Firing").

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FireEvent {
    Fired {
        firers: Vec<UnitId>,
        target: UnitId,
        /// Opportunity, initiative, counter-initiative, order, blunder...; alone, rolled
        /// together, canister...
        context: FireCause,
        base_dice: i32,
        modifiers: Vec<Modifier>,
        dice: u32,
        aspect: Aspect,
        cover: Cover,
        to_hit: u32,
        roll_bonus: u32,
        rolls: Vec<u32>,
        hits: u32,
        save: Option<u32>,
        save_rolls: Vec<u32>,
        saved: u32,
    },
}
