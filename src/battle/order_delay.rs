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

use super::action::{Refusal, refuse_with};
use super::command::OrderPlan;
use super::event::{Event, Lapsed};
use super::state::*;
use crate::battle::event::families::*;
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

    /// A unit awaiting an order does not order itself (BPT's self-order is for units out of
    /// command; an order to it is on its way). Orders from a commander replace the one on
    /// its way instead ([`Battle::withdraw_pending`]).
    pub(crate) fn check_not_awaiting(&self, unit: UnitId) -> Result<(), Refusal> {
        if let Some(p) = self.pending_order_of(unit) {
            return refuse_with(RULE, || {
                format!(
                    "{} is awaiting {}'s order, due in turn {}",
                    self.unit(unit).name,
                    self.commander(p.commander).name,
                    p.due_game_turn
                )
            });
        }
        Ok(())
    }

    /// "If the new orders override any pending orders, the pending orders are removed": a
    /// passed order from `c` to `units` takes them out of every order on its way to them
    /// (an order left with no unit is dropped).
    pub(crate) fn withdraw_pending(&mut self, c: CmdId, units: &[UnitId], ev: &mut Vec<Event>) {
        let mut pending = self.pending.clone();
        let mut changed = false;
        for p in &mut pending {
            let withdrawn: Vec<UnitId> = p.units.iter().copied().filter(|u| units.contains(u)).collect();
            if withdrawn.is_empty() {
                continue;
            }
            changed = true;
            p.units.retain(|u| !units.contains(u));
            ev.push(Event::OrderDelay(OrderDelayEvent::OrderReplaced {
                commander: p.commander,
                units: withdrawn,
                given_game_turn: p.given_game_turn,
                by: c,
            }));
        }
        if changed {
            pending.retain(|p| !p.units.is_empty());
            self.apply_change(Change::OrderDelay(OrderDelayChange::Pending(pending)));
        }
    }

    /// A passed order: the units of `units` beyond command distance (their `plan.delays`
    /// above 0) get it later, each by its own distance from the commander: one order on its
    /// way per delay. `flags`: it may charge, may enter dense terrain, is a road order.
    pub(crate) fn hold_order(
        &mut self,
        c: CmdId,
        units: &[UnitId],
        plan: &OrderPlan,
        credits: u32,
        flags: [bool; 3],
        ev: &mut Vec<Event>,
    ) {
        let mut delays: Vec<u32> = plan.delays.iter().copied().filter(|&d| d > 0).collect();
        delays.sort_unstable();
        delays.dedup();
        for delay in delays {
            let (held, distance) = units
                .iter()
                .zip(&plan.delays)
                .zip(&plan.distances)
                .filter(|((_, d), _)| **d == delay)
                .fold((Vec::new(), 0.0f64), |(mut v, far), ((&u, _), &dist)| {
                    v.push(u);
                    (v, far.max(dist))
                });
            self.hold(c, held, (delay, distance), (credits, flags), None, ev);
        }
    }

    /// Hold an order of `c` to `units` for `delay` own turns (`distance`: its farthest unit).
    /// `credits` and `flags` as [`Battle::hold_order`]'s; `attach`: an attachment's HQ.
    pub(crate) fn hold(
        &mut self,
        c: CmdId,
        units: Vec<UnitId>,
        (delay, distance): (u32, f64),
        (credits, flags): (u32, [bool; 3]),
        attach: Option<CmdId>,
        ev: &mut Vec<Event>,
    ) {
        let [may_charge, may_enter_dense, road] = flags;
        for &u in &units {
            self.change_command(CommandChange::Held(u));
        }
        let p = PendingOrder {
            commander: c,
            side: self.commander(c).side,
            units,
            given_player_turn: self.player_turn,
            given_game_turn: self.game_turn,
            // The side plays every second player turn, once a game turn.
            due_player_turn: self.player_turn + 2 * delay,
            due_game_turn: self.game_turn + delay,
            delay,
            distance,
            credits,
            may_charge,
            may_enter_dense,
            road,
            attach,
        };
        ev.push(Event::OrderDelay(OrderDelayEvent::OrderDelayed {
            commander: c,
            units: p.units.clone(),
            distance,
            delay,
            due_game_turn: p.due_game_turn,
        }));
        let mut pending = self.pending.clone();
        pending.push(p);
        self.apply_change(Change::OrderDelay(OrderDelayChange::Pending(pending)));
    }

    /// At the start of the active side's command phase: its orders that are due reach their
    /// units. Units knocked out, suppressed, locked in a charge or (BPT "Engineering")
    /// engineers that carried out a task this turn let it lapse (**Decision**);
    /// with `lost_commander_cancels` an order whose commander is knocked out lapses too.
    pub(crate) fn deliver_orders(&mut self, ev: &mut Vec<Event>) {
        if self.pending.is_empty() {
            return;
        }
        let (active, pt) = (self.active, self.player_turn);
        let (due, later): (Vec<PendingOrder>, Vec<PendingOrder>) = self
            .pending
            .iter()
            .cloned()
            .partition(|p| p.side == active && p.due_player_turn <= pt);
        if !due.is_empty() {
            self.apply_change(Change::OrderDelay(OrderDelayChange::Pending(later)));
        }
        for p in due {
            let commander_lost = !self.commander(p.commander).alive();
            let mut units = Vec::new();
            let mut lapsed = Vec::new();
            for &id in &p.units {
                let u = self.unit(id);
                let why = if !u.alive() {
                    Some(Lapsed::KnockedOut)
                } else if commander_lost && self.rules.order_delay.lost_commander_cancels {
                    Some(Lapsed::CommanderFallen)
                } else if u.suppressed() {
                    Some(Lapsed::Suppressed)
                } else if self.engaged(id) {
                    Some(Lapsed::LockedInCharge)
                } else if u.engineer_turn == Some(self.player_turn) {
                    // BPT "Engineering": "engineers may not be issued orders during the same
                    // turn in which they carry out a task" (**Decision**: the order lapses).
                    Some(Lapsed::EngineeringTask)
                } else {
                    None
                };
                match why {
                    Some(w) => lapsed.push((id, w)),
                    None => units.push(id),
                }
            }
            if let Some(hq) = p.attach {
                // The CO's attachment arrives: the unit joins the HQ's formation now.
                let mut moved = Vec::new();
                for id in units {
                    match self.attach_arrives(id, p.commander, hq, ev) {
                        Ok(()) => moved.push(id),
                        Err(why) => lapsed.push((id, why)),
                    }
                }
                units = moved;
            }
            for &id in units.iter() {
                if p.attach.is_some() {
                    break;
                }
                self.change_command(CommandChange::Order(
                    id,
                    OrderState {
                        count: 1,
                        credits: p.credits,
                        may_charge: p.may_charge,
                        may_enter_dense: p.may_enter_dense,
                        road: p.road,
                        ..OrderState::new(p.commander)
                    },
                ));
                self.change_command(CommandChange::Arrived(id, true));
                // BPT "Scouting Cavalry": "after passing an initial command roll they may move
                // as the player wishes": the order that arrives frees a scout as one at once.
                if self.unit(id).scout && !self.unit(id).scout_free {
                    self.change_unit(id, UnitChange::ScoutFree(true));
                }
            }
            ev.push(Event::OrderDelay(OrderDelayEvent::OrderArrived {
                commander: p.commander,
                units,
                credits: p.credits,
                given_game_turn: p.given_game_turn,
                lapsed,
            }));
        }
    }
}
