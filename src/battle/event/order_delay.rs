//! Optional rule "Order Delay" (*A Perfect Sheet of Flame*).

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum OrderDelayEvent {
    /// *A Perfect Sheet of Flame* "Writing and executing orders" (switch `OrderDelay`): the
    /// command roll passed, but these units are beyond command distance, so the order
    /// reaches them `delay` of the side's own turns (game turns) later. No die.
    OrderDelayed {
        commander: CmdId,
        units: Vec<UnitId>,
        /// Commander to the farthest unit, cm.
        distance: f64,
        delay: u32,
        due_game_turn: u32,
    },
    /// The order given in `given_game_turn` reaches its units at the start of the command
    /// phase: they act on it as if it had just been passed, without a new roll. Units that can
    /// no longer act on it (knocked out, suppressed, locked in a charge) let it lapse. No die.
    OrderArrived {
        commander: CmdId,
        units: Vec<UnitId>,
        credits: u32,
        given_game_turn: u32,
        /// Units that lost it, and why.
        lapsed: Vec<(UnitId, Lapsed)>,
    },
    /// *A Perfect Sheet of Flame* "Sequence of Play": "If the new orders override any pending
    /// orders, the pending orders are removed": `by`'s order, just passed, takes `units` out
    /// of `commander`'s order of `given_game_turn` that was on its way to them. No die.
    OrderReplaced {
        commander: CmdId,
        units: Vec<UnitId>,
        given_game_turn: u32,
        by: CmdId,
    },
}
