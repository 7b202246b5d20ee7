//! The order-delay variant (switch `OrderDelay`), from *A Perfect Sheet of Flame*, Sequence of
//! Play, "C) Writing and executing orders": "Units within 12 inches of officers may execute
//! commands the turn they are given. Units 12-24 inches of officers must wait one turn before
//! executing commands. Units further than 24 inches of an officer must wait 2 turns."
//!
//! Mapped onto BPT (docs/rules.md, "Optional rules and variants"): the distance is BPT's
//! command distance, commander to the farthest unit of the order, base edge to base edge
//! (the one `check_order` uses for its distance modifier); within 20 cm (BPT's "normal command
//! distance") the order takes effect at once, up to 40 cm at the side's next own command phase,
//! beyond that at the one after. The command roll is made when the order is given, with that
//! turn's modifiers; a passed order is held as a [`PendingOrder`] and reaches its units at the
//! start of the due command phase, as if just passed, with no new roll.

use super::action::{Refusal, refuse};
use super::command::OrderPlan;
use super::event::Event;
use super::state::*;
use crate::rules::params::OrderDelayRules;
use crate::rules::switches::Switch;

/// The rule named when an order is refused or delayed under this variant.
pub const RULE: &str = "A Perfect Sheet of Flame: Writing and executing orders (order delay)";

/// The side's own turns an order waits when its farthest unit is `distance` cm from the
/// commander: none within `at_once` (20 cm), `near_delay` (1) up to `one_turn` (40 cm),
/// `far_delay` (2) beyond.
pub fn delay_for(rules: &OrderDelayRules, distance: f64) -> u32 {
    if distance <= rules.at_once {
        0
    } else if distance <= rules.one_turn {
        rules.near_delay
    } else {
        rules.far_delay
    }
}

impl Battle {
    /// Whether the order-delay variant is played.
    pub fn order_delay_on(&self) -> bool {
        self.rules.switches.on(Switch::OrderDelay)
    }

    /// Own turns an order to units whose farthest is `distance` cm away waits (0 with the
    /// variant off).
    pub fn order_delay(&self, distance: f64) -> u32 {
        if self.order_delay_on() {
            delay_for(&self.rules.order_delay, distance)
        } else {
            0
        }
    }

    /// Every order on its way, in the order given (what the window draws on the table).
    pub fn pending_orders(&self) -> &[PendingOrder] {
        &self.pending
    }

    /// The order on its way to `unit`, if any.
    pub fn pending_order_of(&self, unit: UnitId) -> Option<&PendingOrder> {
        self.pending.iter().find(|p| p.units.contains(&unit))
    }

    /// A unit awaits one order at a time (**Decision**: a further order is refused rather than
    /// replacing the one on its way).
    pub(crate) fn check_not_awaiting(&self, unit: UnitId) -> Result<(), Refusal> {
        if let Some(p) = self.pending_order_of(unit) {
            return refuse(
                RULE,
                format!(
                    "{} is awaiting {}'s order, due in turn {}",
                    self.unit(unit).name,
                    self.commander(p.commander).name,
                    p.due_game_turn
                ),
            );
        }
        Ok(())
    }

    /// A passed order whose farthest unit is beyond command distance: hold it.
    /// `flags`: it may charge, may enter dense terrain, is a road order.
    pub(crate) fn hold_order(
        &mut self,
        c: CmdId,
        units: &[UnitId],
        plan: &OrderPlan,
        credits: u32,
        flags: [bool; 3],
        ev: &mut Vec<Event>,
    ) {
        let [may_charge, may_enter_dense, road] = flags;
        let p = PendingOrder {
            commander: c,
            side: self.commander(c).side,
            units: units.to_vec(),
            given_player_turn: self.player_turn,
            given_game_turn: self.game_turn,
            // The side plays every second player turn, once a game turn.
            due_player_turn: self.player_turn + 2 * plan.delay,
            due_game_turn: self.game_turn + plan.delay,
            delay: plan.delay,
            distance: plan.distance,
            credits,
            may_charge,
            may_enter_dense,
            road,
        };
        ev.push(Event::OrderDelayed {
            commander: c,
            units: units.to_vec(),
            distance: plan.distance,
            delay: plan.delay,
            due_game_turn: p.due_game_turn,
        });
        self.pending.push(p);
    }

    /// At the start of the active side's command phase: its orders that are due reach their
    /// units. Units knocked out, suppressed, locked in a charge or (BPT "Engineering")
    /// engineers that carried out a task this turn let it lapse (**Decision**);
    /// with `lost_commander_cancels` an order whose commander is knocked out lapses too.
    pub(crate) fn deliver_orders(&mut self, ev: &mut Vec<Event>) {
        if self.pending.is_empty() {
            return;
        }
        let (due, later): (Vec<PendingOrder>, Vec<PendingOrder>) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|p| p.side == self.active && p.due_player_turn <= self.player_turn);
        self.pending = later;
        for p in due {
            let commander_lost = !self.commander(p.commander).alive();
            let mut units = Vec::new();
            let mut lapsed = Vec::new();
            for &id in &p.units {
                let u = self.unit(id);
                let why = if !u.alive() {
                    Some("knocked out")
                } else if commander_lost && self.rules.order_delay.lost_commander_cancels {
                    Some("its commander has fallen")
                } else if u.suppressed() {
                    Some("suppressed")
                } else if self.engaged(id) {
                    Some("locked in a charge")
                } else if u.engineer_turn == Some(self.player_turn) {
                    // BPT "Engineering": "engineers may not be issued orders during the same
                    // turn in which they carry out a task" (**Decision**: the order lapses).
                    Some("carried out an engineering task this turn")
                } else {
                    None
                };
                match why {
                    Some(w) => lapsed.push((id, w.to_string())),
                    None => units.push(id),
                }
            }
            for &id in &units {
                self.cmd.orders.insert(
                    id,
                    OrderState {
                        count: 1,
                        credits: p.credits,
                        may_charge: p.may_charge,
                        may_enter_dense: p.may_enter_dense,
                        road: p.road,
                        ..OrderState::new(p.commander)
                    },
                );
                self.cmd.arrived.insert(id);
            }
            ev.push(Event::OrderArrived {
                commander: p.commander,
                units,
                credits: p.credits,
                given_game_turn: p.given_game_turn,
                lapsed,
            });
        }
    }
}
