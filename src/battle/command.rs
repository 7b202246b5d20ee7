//! The command phase (BPT "Command Phase" and its subsections; DECISIONS "Phases" 2):
//! command rolls and their modifiers, the bonus and the blunder, failed HQs and the CO,
//! ordered actions, self-orders, command movement, opportunity fire windows.

use super::action::{Deploy, Refusal, refuse, refuse_with};
use super::event::{CommandOutcome, Event, ModRule, Modifier, MoveKind};
use super::fire::{FireContext, FirePlan};
use super::movement::MoveCheck;
use super::optional::Act;
use super::state::*;
use crate::battle::event::families::*;
use crate::data::scenario::{Ammo, Weather};
use crate::rules::formation::Formation;
use crate::rules::geometry::{self, Pose};
use crate::rules::params::BlunderEffect;

/// A command roll worked out before the dice.
/// What an order allows: a charge, dense terrain, the road (BPT "Command Modifiers" notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderFlags {
    pub charge: bool,
    pub dense: bool,
    pub road: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OrderPlan {
    pub value: i32,
    pub modifiers: Vec<Modifier>,
    pub target: i32,
    /// Commander to the farthest unit, base edge to base edge (cm).
    pub distance: f64,
    /// Order delay (switch `OrderDelay`): the side's own turns a passed order waits before
    /// its farthest unit may act on it (0: at once; always 0 with the switch off).
    pub delay: u32,
    /// Each unit's own distance (cm) and delay, in the order's order: the order reaches
    /// each unit by its own distance from the commander.
    pub distances: Vec<f64>,
    pub delays: Vec<u32>,
}

/// The distance modifier (BPT "Command Modifiers" note 2 by its own example, DECISIONS
/// "Phases" 2): none to `free` (20 cm), then `per` for each `step` (20 cm) band begun beyond
/// it: 21–40 cm −1, 41–60 cm −2.
pub fn distance_penalty(distance: f64, free: f64, step: f64, per: i32) -> i32 {
    if distance <= free || step <= 0.0 {
        return 0;
    }
    per * ((distance - free) / step).ceil() as i32
}

impl Battle {
    /// The distance modifier (BPT Command Modifiers note 2) an order to `unit` would carry
    /// from a commander standing at `at`: 0 within the free distance, else negative.
    pub fn command_distance_penalty(&self, at: geometry::V2, unit: UnitId) -> i32 {
        let d = self.rules.footprints.commander_diameter;
        let crect = geometry::Rect::new(at, 0.0, d, d);
        let rules = &self.rules.command;
        let far = geometry::rects_distance(&[crect], self.rects(unit));
        distance_penalty(far, rules.free_distance, rules.distance_step, rules.per_distance)
    }

    /// Can `commander` issue an order now, at all?
    pub(crate) fn check_commander_can_order(&self, c: CmdId) -> Result<(), Refusal> {
        let cm = self.commander(c);
        if cm.side != self.active {
            return refuse("BPT Command Phase", "only the active player issues orders");
        }
        if !cm.alive() {
            return refuse_with("BPT Command Units", || format!("{} has been knocked out", cm.name));
        }
        if cm.suppressed.is_some() {
            return refuse("BPT Suppression", "suppressed commands may not issue any orders");
        }
        if cm.placed_turn == Some(self.player_turn) {
            return refuse(
                "BPT Replacing a Command Unit",
                "a replacement cannot issue orders in the turn it is placed",
            );
        }
        if self.cmd.all_stopped {
            return refuse(
                "BPT Command Phase",
                "the army HQ failed a command roll: no more orders this turn",
            );
        }
        if self.cmd.done.contains(&c) {
            return refuse_with("BPT Command Phase", || {
                format!("{} may issue no further orders this turn", cm.name)
            });
        }
        Ok(())
    }

    /// The unit used initiative this turn, or opportunity fire in the enemy's last turn (BPT
    /// "Command Modifiers" note 1).
    pub(crate) fn used_initiative(&self, id: UnitId) -> bool {
        self.unit(id).initiative_turn == Some(self.player_turn) || self.used_opportunity_fire(id)
    }

    /// The unit made opportunity fire in the enemy's last turn.
    pub(crate) fn used_opportunity_fire(&self, id: UnitId) -> bool {
        self.unit(id)
            .opportunity_turn
            .is_some_and(|t| t + 1 == self.player_turn)
    }

    /// BPT "Weather": the command penalty of poor or extreme weather.
    pub(crate) fn weather_modifier(&self) -> Option<Modifier> {
        let rules = &self.rules.command;
        match self.weather {
            Weather::Poor => Some(Modifier::new(rules.weather_poor, ModRule::WeatherPoor)),
            Weather::Extreme => Some(Modifier::new(rules.weather_extreme, ModRule::WeatherExtreme)),
            Weather::Normal => None,
        }
    }

    /// Work out an order's command roll target (BPT "Command Modifiers").
    pub fn check_order(&self, c: CmdId, units: &[UnitId], charge: bool, dense: bool) -> Result<OrderPlan, Refusal> {
        self.check_order_by(c, units, charge, dense, false)
    }

    /// [`Battle::check_order`], for a road order too: its units must be in march column and
    /// it has no distance modifier (BPT "Command Modifiers" note 2: "Units traveling their
    /// entire move along a road are not affected by this modifier").
    pub fn check_order_by(
        &self,
        c: CmdId,
        units: &[UnitId],
        charge: bool,
        dense: bool,
        road: bool,
    ) -> Result<OrderPlan, Refusal> {
        self.check_order_allowed(c, units, charge, road)?;
        let cm = self.commander(c);
        let crect = self.commander_rect(cm);
        let distances: Vec<f64> = units
            .iter()
            .map(|&id| geometry::rects_distance(&[crect], self.rects(id)))
            .collect();
        let far = distances.iter().copied().fold(0.0, f64::max);
        let modifiers = self.order_modifiers(c, units, (charge, dense, road), far);
        let value = cm.command_value;
        let target = value + modifiers.iter().map(|m| m.amount).sum::<i32>();
        Ok(OrderPlan {
            value,
            modifiers,
            target,
            distance: far,
            delay: self.order_delay(far),
            delays: distances.iter().map(|&d| self.order_delay(d)).collect(),
            distances,
        })
    }

    /// The order may be given (every refusal of [`Battle::check_order_by`]), without working
    /// out its roll: a listing asks only this of each order it offers (issue 66's speed; the
    /// roll's distances and modifiers cannot refuse an order).
    pub fn check_order_allowed(&self, c: CmdId, units: &[UnitId], charge: bool, road: bool) -> Result<(), Refusal> {
        self.check_commander_can_order(c)?;
        if units.is_empty() {
            return refuse("BPT Command Phase", "an order names at least one unit");
        }
        for (i, &id) in units.iter().enumerate() {
            // Named twice: looked for among those before (an order names a few units; no set
            // is built for each order a listing checks).
            if id as usize >= self.units.len() || units[..i].contains(&id) {
                return refuse("BPT Command Phase", "each unit once, and only units that exist");
            }
            self.check_orderable(c, id)?;
        }
        if road {
            self.check_road_order(units, charge)?;
        }
        Ok(())
    }

    /// Unit `id` (one that exists) may be ordered by commander `c` this turn: alive, of his
    /// side and under him, of his nation and formation, free to act, and not ordered by
    /// another commander nor finished.
    fn check_orderable(&self, c: CmdId, id: UnitId) -> Result<(), Refusal> {
        let cm = self.commander(c);
        let u = self.unit(id);
        if !u.alive() || u.side != cm.side {
            return refuse_with("BPT Command Phase", || {
                format!("{} is not a unit of this command", u.name)
            });
        }
        if !self.in_chain(u.hq, c) {
            return refuse_with("BPT Command Phase: chain of command", || {
                format!("{} is not under {}", u.name, cm.name)
            });
        }
        self.check_nation(c, id)?;
        self.check_own_formation(c, id)?;
        if u.suppressed() {
            return refuse_with("BPT Suppression", || format!("{} is suppressed and cannot act", u.name));
        }
        if self.engaged(id) {
            return refuse_with("BPT Charge", || format!("{} is locked in a charge", u.name));
        }
        self.check_no_engineer_task(id)?;
        // Order delay: an order on its way to it is replaced if this one passes.
        if let Some(o) = self.cmd.orders.get(&id) {
            if o.by != c {
                return refuse_with("BPT Command Phase: one command unit a turn", || {
                    format!("{} has already been ordered by another commander", u.name)
                });
            }
            if o.finished {
                return refuse_with("BPT Command Phase", || {
                    format!("{} has stopped receiving orders this turn", u.name)
                });
            }
        }
        Ok(())
    }

    /// A road order (BPT "Road Bonus Movement"): declares no charge; its units in march column.
    fn check_road_order(&self, units: &[UnitId], charge: bool) -> Result<(), Refusal> {
        if charge {
            return refuse(
                "BPT Command Modifiers note 2",
                "a road order travels along the road; it cannot declare a charge",
            );
        }
        if let Some(&id) = units
            .iter()
            .find(|&&id| self.unit(id).formation != Formation::MarchColumn)
        {
            return refuse_with("BPT Road Bonus Movement", || {
                format!("{} must be in march column to travel along a road", self.unit(id).name)
            });
        }
        Ok(())
    }

    /// The command roll's modifiers for commander `c` ordering `units` (BPT "Command
    /// Modifiers"), `far` cm from the farthest, for an order that may charge, declares dense
    /// terrain, or travels a road (no distance modifier).
    fn order_modifiers(
        &self,
        c: CmdId,
        units: &[UnitId],
        (charge, dense, road): (bool, bool, bool),
        far: f64,
    ) -> Vec<Modifier> {
        let cm = self.commander(c);
        let crect = self.commander_rect(cm);
        let rules = &self.rules.command;
        let mut modifiers = Vec::new();
        let prior = units
            .iter()
            .map(|u| self.cmd.orders.get(u).map_or(0, |o| o.count) + self.cmd.held.get(u).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        if prior > 0 {
            modifiers.push(Modifier::new(rules.successive * prior as i32, ModRule::SuccessiveOrder));
        }
        // Note 1: initiative this turn, a −1 on the first order; BPT "Opportunity Fire": a −1
        // "for the duration of their next turn", on every order of it.
        let initiative = units
            .iter()
            .any(|&id| self.unit(id).initiative_turn == Some(self.player_turn));
        let opportunity = units.iter().any(|&id| self.used_opportunity_fire(id));
        if opportunity {
            modifiers.push(Modifier::new(rules.used_initiative, ModRule::OpportunityFireLastTurn));
        } else if initiative && prior == 0 {
            modifiers.push(Modifier::new(rules.used_initiative, ModRule::UsedInitiative));
        }
        let dp = if road {
            0
        } else {
            distance_penalty(far, rules.free_distance, rules.distance_step, rules.per_distance)
        };
        if dp != 0 {
            modifiers.push(Modifier::new(dp, ModRule::CommandDistance));
        }
        if dense {
            modifiers.push(Modifier::new(rules.dense, ModRule::DenseTerrain));
        }
        // Only sight lines to enemies that near are drawn, until one is seen (issue 66's
        // speed: a listing asks it of every charge order it checks).
        if charge
            && units
                .iter()
                .any(|&id| self.nearest_visible_enemy_within(id, rules.charge_zone).is_some())
        {
            modifiers.push(Modifier::new(rules.charge, ModRule::ChargingEnemyClose));
        }
        if cm.is_co() && units.iter().any(|u| self.cmd.hq_failed.contains(u)) {
            modifiers.push(Modifier::new(rules.co_reorder, ModRule::CoReorder));
        }
        let contact = self.rules.visibility.contact;
        if units.iter().all(|&id| {
            self.unit(id).formation == Formation::MarchColumn
                && geometry::rects_distance(&[crect], self.rects(id)) <= contact
        }) {
            modifiers.push(Modifier::new(rules.march_column_touch, ModRule::MarchColumnTouch));
        }
        modifiers.extend(self.weather_modifier());
        modifiers
    }

    /// A commander starts an order: the previous commander (if another) is finished; units
    /// this commander ordered before but not now stop receiving orders (units acting on an
    /// order that arrived this phase under the order delay keep theirs).
    pub(crate) fn start_order(&mut self, c: CmdId, units: &[UnitId]) {
        if let Some(prev) = self.cmd.current.filter(|&p| p != c) {
            self.change_command(CommandChange::Done(prev));
        }
        self.change_command(CommandChange::Current(Some(c)));
        self.change_turn(TurnChange::OrderSeq(self.order_seq + 1));
        let arrived = &self.cmd.arrived;
        let changed: Vec<(UnitId, OrderState)> = self
            .cmd
            .orders
            .iter()
            .filter(|(id, _)| !arrived.contains(*id))
            .filter_map(|(id, o)| {
                let mut n = o.clone();
                if n.by == c && !units.contains(id) {
                    n.finished = true;
                }
                n.credits = 0;
                (n != *o).then_some((*id, n))
            })
            .collect();
        for (id, o) in changed {
            self.change_command(CommandChange::Order(id, o));
        }
    }

    /// BPT "Command Rolls": 2d6 ≤ target; double 1 a bonus, double 6 a blunder. The roll is
    /// logged as commander `c`'s for `units`.
    pub(crate) fn command_roll(
        &mut self,
        c: CmdId,
        units: &[UnitId],
        value: i32,
        modifiers: &[Modifier],
        target: i32,
        ev: &mut Vec<Event>,
    ) -> CommandOutcome {
        let dice = [self.dice_mut().d6(), self.dice_mut().d6()];
        let total = (dice[0] + dice[1]) as i32;
        let outcome = if dice == [1, 1] {
            CommandOutcome::Bonus
        } else if dice == [6, 6] {
            CommandOutcome::Blunder
        } else if total <= target {
            CommandOutcome::Success
        } else {
            CommandOutcome::Failure
        };
        ev.push(Event::Command(CommandEvent::CommandRoll {
            commander: c,
            units: units.to_vec(),
            value,
            modifiers: modifiers.to_vec(),
            target,
            dice,
            outcome,
        }));
        outcome
    }

    /// Carry out a decided order: the command roll, and the order held by its units.
    pub(crate) fn do_order(
        &mut self,
        c: CmdId,
        units: &[UnitId],
        plan: OrderPlan,
        flags: OrderFlags,
        ev: &mut Vec<Event>,
    ) {
        let OrderFlags { charge, dense, road } = flags;
        self.start_order(c, units);
        let outcome = self.command_roll(c, units, plan.value, &plan.modifiers, plan.target, ev);
        match outcome {
            CommandOutcome::Success | CommandOutcome::Bonus => {
                let bonus = outcome == CommandOutcome::Bonus;
                let credits = if bonus { 2 } else { 1 };
                // Order delay: the new order replaces any on its way to these units; units
                // beyond command distance get it later, each by its own distance.
                self.withdraw_pending(c, units, ev);
                self.hold_order(c, units, &plan, credits, [charge || bonus, dense || bonus, road], ev);
                for (&id, _) in units.iter().zip(&plan.delays).filter(|(_, d)| **d == 0) {
                    if self.cmd.arrived.contains(&id) {
                        self.change_command(CommandChange::Arrived(id, false));
                    }
                    let mut e = self.cmd.orders.get(&id).cloned().unwrap_or(OrderState::new(c));
                    e.count += 1;
                    e.credits = credits;
                    e.may_charge = charge || bonus;
                    e.may_enter_dense = dense || bonus;
                    e.road = road;
                    self.change_command(CommandChange::Order(id, e));
                    // BPT "Scouting Cavalry": the initial command roll frees a scout.
                    if self.unit(id).scout && !self.unit(id).scout_free {
                        self.change_unit(id, UnitChange::ScoutFree(true));
                    }
                }
                for &id in units {
                    if self.cmd.hq_failed.contains(&id) {
                        self.change_command(CommandChange::HqFailed(id, false));
                    }
                }
            }
            CommandOutcome::Failure | CommandOutcome::Blunder => {
                let is_co = self.commander(c).is_co();
                for &id in units {
                    if !self.cmd.orders.contains_key(&id) && !is_co {
                        self.change_command(CommandChange::HqFailed(id, true));
                    }
                }
                if outcome == CommandOutcome::Blunder {
                    self.blunder(c, units, ev);
                }
                self.change_command(CommandChange::Done(c));
                if is_co {
                    self.change_command(CommandChange::AllStopped);
                }
                ev.push(Event::Command(CommandEvent::OrdersEnded {
                    commander: c,
                    all: is_co,
                }));
            }
        }
    }

    /// BPT "Command Blunder": roll a die and apply the table.
    pub(crate) fn blunder(&mut self, c: CmdId, units: &[UnitId], ev: &mut Vec<Event>) {
        let roll = self.dice_mut().d6();
        let effect = self.rules.command.blunders[(roll - 1) as usize];
        ev.push(Event::Command(CommandEvent::Blunder {
            commander: c,
            roll,
            effect,
        }));
        let cpos = self.commander(c).pos;
        match effect {
            BlunderEffect::CeaseFiring => {
                let n = self.dice_mut().d6();
                self.attack_commander(c, n, ev);
            }
            BlunderEffect::CrossFire => {
                let side = self.commander(c).side;
                let crect = self.commander_rect(self.commander(c));
                let mut near: Vec<(UnitId, f64)> = self
                    .side_units(side)
                    .map(|u| (u.id, geometry::rects_distance(&[crect], self.rects(u.id))))
                    .collect();
                near.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                for (id, _) in near.into_iter().take(3) {
                    self.blunder_crossfire(id, ev);
                }
            }
            BlunderEffect::Relocate => {
                let side = self.commander(c).side;
                let enemy = self
                    .side_units(1 - side)
                    .map(|u| (u.id, u.pose.pos.dist(cpos)))
                    .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                if let Some((e, _)) = enemy {
                    let away = (cpos - self.unit(e).pose.pos).norm();
                    let half = self.commander(c).move_rate() / 2.0;
                    let mut to = cpos + away * half;
                    to.x = to.x.clamp(1.0, self.table.width - 1.0);
                    to.y = to.y.clamp(1.0, self.table.height - 1.0);
                    if self.check_commander_move(c, to).is_ok() {
                        self.change_commander(c, CommanderChange::Pos(to));
                        ev.push(Event::Command(CommandEvent::CommanderMoved {
                            commander: c,
                            from: cpos,
                            to,
                        }));
                    }
                }
            }
            BlunderEffect::PullBack | BlunderEffect::LetsGetEm => {
                for &id in units {
                    let u = self.unit(id);
                    if !u.alive() || u.suppressed() || u.dug_in || (u.is_artillery() && !u.limbered) {
                        continue;
                    }
                    if !self.terrain.area_kinds_at(u.pose.pos).is_empty() {
                        continue; // only units in the open
                    }
                    let Some((e, _)) = self.nearest_visible_enemy(id) else {
                        continue;
                    };
                    let to_enemy = (self.unit(e).pose.pos - u.pose.pos).norm();
                    let dir = if effect == BlunderEffect::PullBack {
                        -to_enemy
                    } else {
                        to_enemy
                    };
                    let half = u.move_rate() / 2.0;
                    let facing = u.pose.facing;
                    let gap = if effect == BlunderEffect::LetsGetEm {
                        self.rules.visibility.contact
                    } else {
                        0.0
                    };
                    let dist = self.travel_limit(id, dir, half, facing, gap);
                    if dist > 0.0 {
                        let from = u.pose;
                        let to = Pose {
                            pos: from.pos + dir * dist,
                            ..from
                        };
                        self.change_unit(id, UnitChange::Pose(to));
                        self.refresh_geometry();
                        ev.push(Event::Movement(MovementEvent::Moved {
                            unit: id,
                            from,
                            to: self.unit(id).pose,
                            kind: MoveKind::Blunder,
                            cost: dist,
                        }));
                        self.overrun_commanders(id, ev);
                    }
                }
            }
            BlunderEffect::OpenFire => {
                for &id in units {
                    if !self.unit(id).alive() || self.unit(id).suppressed() {
                        continue;
                    }
                    let targets = self.visible_enemies(id);
                    if let Some(plan) = targets
                        .iter()
                        .find_map(|(t, _)| self.check_fire(id, *t, FireContext::Blunder).ok())
                    {
                        self.resolve_fire(plan, FireContext::Blunder, ev);
                    }
                }
            }
        }
    }

    /// Blunder "Cross-fire": 3 attacks in the flank from firing.
    fn blunder_crossfire(&mut self, id: UnitId, ev: &mut Vec<Event>) {
        self.optional_fire_begins();
        let n = self.rules.command.crossfire_attacks;
        let to_hit = self.rules.fire.to_hit_open;
        let rolls = self.dice_mut().roll(n, 6);
        let hits = rolls.iter().filter(|&&r| r >= to_hit).count() as u32;
        let save = self
            .unit(id)
            .row
            .save
            .map(|s| (u32::from(s) + self.rules.fire.flank_save_worse).min(6));
        let (save_rolls, saved) = self.roll_saves(id, hits, save);
        ev.push(Event::Fire(FireEvent::Fired {
            firers: vec![],
            target: id,
            context: super::event::FireCause::new(super::event::FireWhy::CrossFire, super::event::FireHow::Alone),
            base_dice: n as i32,
            modifiers: vec![],
            dice: n,
            aspect: geometry::Aspect::Flank,
            cover: crate::rules::params::Cover::Open,
            to_hit,
            roll_bonus: 0,
            rolls,
            hits,
            save,
            save_rolls,
            saved,
        }));
        let from = self.unit(id).pose.pos - self.unit(id).pose.forward().perp() * 10.0;
        self.take_fire_hits(id, hits - saved, to_hit, from, ev);
    }

    /// A commander takes `n` attacks (hit on 6 in all situations, BPT "Scoring Hits").
    pub(crate) fn attack_commander(&mut self, c: CmdId, n: u32, ev: &mut Vec<Event>) {
        let rolls = self.dice_mut().roll(n, 6);
        let need = self.rules.fire.to_hit_commander;
        let mut hits = rolls.iter().filter(|&&r| r >= need).count() as u32;
        if let Some(s) = self.commander(c).row.save {
            let saves = self.dice_mut().roll(hits, 6);
            hits -= saves.iter().filter(|&&r| r >= u32::from(s)).count() as u32;
        }
        let total = self.commander(c).hits + hits;
        self.change_commander(c, CommanderChange::Hits(total));
        let ko = total >= self.commander(c).row.hits;
        ev.push(Event::Command(CommandEvent::CommanderAttacked {
            commander: c,
            dice: n,
            rolls,
            hits,
            knocked_out: ko,
        }));
        if ko {
            self.knock_out_commander(c, super::event::KnockOut::Hits, ev);
        }
    }

    /// Whether the unit's order in hand lets it move to `to`: a self-order only towards its
    /// commander, dense terrain only if the order declared it, and BPT "Movement".
    pub fn check_ordered_move(&self, unit: UnitId, to: Pose) -> Result<MoveCheck, Refusal> {
        let o = self.ordered(unit)?;
        if o.self_order {
            self.check_self_order_move(unit, to)?;
        }
        let chk = self.check_move(unit, to, o.may_enter_dense)?;
        if o.road && !chk.road {
            return refuse(
                "BPT Command Modifiers note 2",
                "under a road order the unit travels its entire move along a road, in march column",
            );
        }
        if o.road && !self.faces_along_road(to) {
            return refuse(
                "BPT March Column",
                "under a road order the column conforms to the road: it ends facing along it, not wheeled off it",
            );
        }
        Ok(chk)
    }

    /// Whether `to` faces along a road it stands on, either way (**Decision**: within 1°; a
    /// road move's facing is the road's, bends and all, so a wheel is no road move).
    fn faces_along_road(&self, to: Pose) -> bool {
        use crate::rules::terrain::{LinearKind, polyline_project};
        let tol = 1f64.to_radians();
        self.terrain
            .linears
            .iter()
            .filter(|l| l.kind == LinearKind::Road)
            .filter_map(|l| polyline_project(&l.points, to.pos).map(|(_, q, dir)| (l, q, dir)))
            .filter(|(l, q, _)| q.dist(to.pos) <= l.width * 0.5 + 0.5 + 1e-6)
            .any(|(_, _, dir)| {
                let off = geometry::wrap_angle(to.facing - dir.angle()).abs();
                off <= tol || std::f64::consts::PI - off <= tol
            })
    }

    /// The unit's current order, if it may act on it.
    fn ordered(&self, id: UnitId) -> Result<&OrderState, Refusal> {
        let u = self.unit(id);
        if u.side != self.active || !u.alive() {
            return refuse_with("BPT Command Phase", || format!("{} cannot act now", u.name));
        }
        match self.cmd.orders.get(&id) {
            Some(o) if o.credits > 0 && !o.finished => Ok(o),
            Some(_) => refuse_with("BPT Actions", || {
                format!("{} has used the actions of its order", u.name)
            }),
            None => refuse_with("BPT Command Phase", || {
                format!("{} has not been issued an order", u.name)
            }),
        }
    }

    /// The unit's current order, if it may act on it with anything but a move: a road order
    /// is for travelling along the road only.
    pub(crate) fn not_on_road_order(&self, id: UnitId) -> Result<&OrderState, Refusal> {
        let o = self.ordered(id)?;
        if o.road {
            return refuse_with("BPT Command Modifiers note 2", || {
                format!(
                    "{} was ordered along the road and may only travel along it",
                    self.unit(id).name
                )
            });
        }
        Ok(o)
    }

    /// May `firers`, each with an action of its order in hand, fire at `target` together (BPT
    /// "Firing": "When two or more units are firing at the same target, roll all the dice
    /// together")? Their plans. Two or more units, each once; guns that load Hardtack's
    /// ammunition fire alone (as in opportunity fire); a gun's fire after man-handling is its
    /// own. Only the order in hand has actions left ([`Battle::start_order`]), so they are
    /// units of one order.
    pub fn check_fire_together(&self, firers: &[UnitId], target: UnitId) -> Result<Vec<FirePlan>, Refusal> {
        self.check_unit_id(target)?;
        if firers.len() < 2 {
            return refuse("BPT Firing", "firing together takes two or more units");
        }
        let mut plans = Vec::new();
        for (i, &f) in firers.iter().enumerate() {
            self.check_unit_id(f)?;
            if firers[..i].contains(&f) {
                return refuse("BPT Firing", "each unit fires once");
            }
            let o = self.not_on_road_order(f)?;
            if o.credits == 0 || o.finished {
                return refuse_with("BPT Command Phase", || {
                    format!("{} has no action of an order left", self.unit(f).name)
                });
            }
            if self.uses_ammo(f) {
                return refuse_with("BPT Firing", || {
                    format!(
                        "{} fires its guns alone (Hardtack's shot, shell and canister)",
                        self.unit(f).name
                    )
                });
            }
            plans.push(self.check_fire(f, target, FireContext::Order)?);
        }
        Ok(plans)
    }

    /// The gun was man-handled under its order and has no action left but the fire that
    /// goes with it.
    pub fn ordered_to_fire_after_manhandling(&self, id: UnitId) -> bool {
        let u = self.unit(id);
        u.side == self.active
            && u.alive()
            && self
                .cmd
                .orders
                .get(&id)
                .is_some_and(|o| o.credits == 0 && o.fire_after_manhandle && !o.finished)
    }

    /// An action of the unit's order is used.
    pub(crate) fn spend(&mut self, id: UnitId) {
        self.change_order(id, |o| o.credits = o.credits.saturating_sub(1));
    }

    /// May commander `c` make its command move now (BPT "Command Movement")?
    pub fn check_commander_may_move(&self, c: CmdId) -> Result<(), Refusal> {
        if c as usize >= self.commanders.len() {
            return refuse("BPT Command Movement", "no such commander");
        }
        let cm = self.commander(c);
        if cm.side != self.active || !cm.alive() {
            return refuse("BPT Command Movement", "not a commander of the active player");
        }
        if cm.suppressed.is_some() {
            return refuse("BPT Command Movement", "a suppressed commander cannot move");
        }
        if cm.placed_turn == Some(self.player_turn) {
            return refuse(
                "BPT Replacing a Command Unit",
                "a replacement cannot move the turn it is placed",
            );
        }
        if self.cmd.moved.contains(&c) {
            return refuse("BPT Command Movement", "a commander moves once, after its orders");
        }
        Ok(())
    }

    pub(crate) fn check_unit_id(&self, id: UnitId) -> Result<(), Refusal> {
        if (id as usize) < self.units.len() {
            Ok(())
        } else {
            refuse_with("BPT Command Phase", || format!("no unit {id}"))
        }
    }

    /// Isolated units may order themselves every second turn, only to move towards the
    /// nearest commander in their chain of command (BPT "Command Phase").
    pub fn check_self_order(&self, id: UnitId) -> Result<CmdId, Refusal> {
        self.check_unit_id(id)?;
        let u = self.unit(id);
        if u.side != self.active || !u.alive() || u.suppressed() {
            return refuse_with("BPT Command Phase", || format!("{} cannot act now", u.name));
        }
        if self.cmd.orders.contains_key(&id) {
            return refuse_with("BPT Command Phase", || format!("{} has already been ordered", u.name));
        }
        self.check_no_engineer_task(id)?;
        self.check_not_awaiting(id)?;
        if self.engaged(id) {
            return refuse_with("BPT Charge", || format!("{} is locked in a charge", u.name));
        }
        if u.self_order_turn
            .is_some_and(|t| self.game_turn < t + self.rules.command.self_order_interval)
        {
            return refuse("BPT Command Phase: self-orders", "only every second turn");
        }
        let near = self.nearest_chain_commander(id).ok_or_else(|| {
            super::action::Refusal::new("BPT Command Phase", "no commander left in its chain of command")
        })?;
        // In contact with its nearest commander (most units), or with any: measured only as
        // far as needed (`rects_within`), the nearest first.
        let iso = self.rules.command.isolation_distance;
        // Boxes first: most commanders are far from most units.
        let reach = iso + self.rules.footprints.commander_diameter;
        let touches = |c: &super::state::Commander| {
            !self.unit_box_apart(id, (c.pos, c.pos), reach)
                && geometry::rects_within(&[self.commander_rect(c)], self.rects(id), iso)
        };
        if touches(self.commander(near))
            || self
                .commanders
                .iter()
                .filter(|c| c.alive() && c.side == u.side)
                .any(touches)
        {
            return refuse(
                "BPT Command Phase: self-orders",
                "only units out of contact with every commander may order themselves",
            );
        }
        Ok(near)
    }

    pub fn nearest_chain_commander(&self, id: UnitId) -> Option<CmdId> {
        let u = self.unit(id);
        // Up its own chain (a few commanders), not through every commander on the table.
        self.chain_of(u.hq)
            .map(|c| self.commander(c))
            .filter(|c| c.alive() && c.side == u.side)
            .map(|c| (c.id, c.pos.dist(u.pose.pos)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
            .map(|(c, _)| c)
    }

    fn check_self_order_move(&self, id: UnitId, to: Pose) -> Result<(), Refusal> {
        let Some(c) = self.nearest_chain_commander(id) else {
            return refuse("BPT Command Phase", "no commander to move towards");
        };
        let cpos = self.commander(c).pos;
        if to.pos.dist(cpos) >= self.unit(id).pose.pos.dist(cpos) - 1e-6 {
            return refuse(
                "BPT Command Phase: self-orders",
                "a self-order only moves towards the nearest commander",
            );
        }
        Ok(())
    }

    /// Carry out a decided self-order: its roll (BPT "Command Phase: self-orders").
    pub(crate) fn do_self_order(&mut self, id: UnitId, ev: &mut Vec<Event>) {
        // "A single command to themselves": a command roll, so the weather's command penalty
        // applies (BPT "Weather").
        let weather = self.weather_modifier().map_or(0, |m| m.amount);
        let target = self.rules.command.self_order_value + weather;
        let dice = [self.dice_mut().d6(), self.dice_mut().d6()];
        let success = dice != [6, 6] && (dice == [1, 1] || (dice[0] + dice[1]) as i32 <= target);
        self.change_unit(id, UnitChange::SelfOrderTurn(Some(self.game_turn)));
        ev.push(Event::Command(CommandEvent::SelfOrderRoll {
            unit: id,
            target,
            dice,
            success,
        }));
        let o = OrderState {
            count: 1,
            credits: u32::from(success),
            finished: !success,
            self_order: true,
            ..OrderState::new(u32::MAX)
        };
        self.change_command(CommandChange::Order(id, o));
    }

    /// After an active unit moves or fires, the inactive player may opportunity-fire at it.
    pub(crate) fn open_reaction(&mut self, mover: UnitId, _ev: &mut [Event]) {
        if !self.unit(mover).alive() {
            return;
        }
        let eligible: Vec<UnitId> = self
            .side_units(self.inactive())
            .filter(|u| u.opportunity_turn != Some(self.player_turn))
            .map(|u| u.id)
            .filter(|&id| self.check_fire(id, mover, FireContext::Opportunity).is_ok())
            .collect();
        if !eligible.is_empty() {
            self.change_turn(TurnChange::Step(Step::Reaction { mover, eligible }));
        }
    }

    /// Check a deploy (BPT "Movement Formation Deployment" table, mount/dismount, limber).
    pub fn check_deploy(&self, id: UnitId, d: Deploy, initiative: bool) -> Result<(), Refusal> {
        let u = self.unit(id);
        if u.suppressed() {
            return refuse("BPT Suppression", "suppressed units cannot do anything");
        }
        self.optional_check(id, Act::Deploy(d))?;
        match d {
            Deploy::Prone(down) => self.check_prone(id, down, initiative)?,
            Deploy::Formation(f) => {
                if initiative {
                    return refuse(
                        "BPT Deploying",
                        "on initiative a unit may only mount, dismount, limber or unlimber",
                    );
                }
                if u.is_artillery() {
                    return refuse("BPT Movement Formations", "guns do not change formation");
                }
                if f == Formation::Square && u.row.has(crate::data::army::Trait::NoSquare) {
                    return refuse_with("BPT Napoleonic Special Rules note 24", || {
                        format!("{} may not form square", u.name)
                    });
                }
                if f == Formation::Square && !self.may_form_square(id) {
                    return refuse(
                        "BPT Square",
                        "square is for infantry, not poor troops, and not used in the American Civil War",
                    );
                }
                if f == Formation::Disordered {
                    return refuse(
                        "BPT Disordered Formation",
                        "units become disordered; they are not ordered into it",
                    );
                }
                if !self.rules.can_deploy(u.formation, f) {
                    return refuse_with("BPT Movement Formation Deployment", || {
                        format!("{:?} cannot change to {:?}", u.formation, f)
                    });
                }
            }
            Deploy::Dismount => {
                if !(u.is_cavalry() && u.mounted() && u.row.dismounts_to.is_some()) {
                    return refuse(
                        "ACW note 3: Dismounting Cavalry",
                        "only mounted cavalry with a dismounted row dismount",
                    );
                }
            }
            Deploy::Mount => {
                if u.mounted_row.is_none() {
                    return refuse("ACW note 3: Dismounting Cavalry", "only dismounted cavalry mount");
                }
            }
            Deploy::Limber => {
                if !u.is_artillery() || u.limbered || !u.has_limber {
                    return refuse(
                        "BPT Limbered or Unlimbered",
                        "only unlimbered guns with a limber can limber",
                    );
                }
            }
            Deploy::Unlimber => {
                if !u.is_artillery() || !u.limbered {
                    return refuse("BPT Limbered or Unlimbered", "only limbered guns can unlimber");
                }
            }
            Deploy::Pivot(a) => {
                if initiative || !u.is_artillery() || u.limbered || !a.is_finite() {
                    return refuse("BPT Towed Guns", "only an unlimbered gun pivots, as a deploy order");
                }
            }
            Deploy::Load(ammo) => {
                if !self.uses_ammo(id) || u.limbered {
                    return refuse("Hardtack: loading", "only unlimbered guns load");
                }
                if ammo == Ammo::AirBurst && !self.rules.switches.on(crate::rules::switches::Switch::AirBurst) {
                    return refuse(
                        "BPT Air Burst Shell Fire",
                        "the optional rule is off (switch air-burst)",
                    );
                }
                if self.high_angle(id) && !matches!(ammo, Ammo::Shell | Ammo::AirBurst) {
                    return refuse("BPT Howitzers / Mortars", "howitzers and mortars fire shell only");
                }
                if u.loaded == Some(ammo) {
                    return refuse_with("Hardtack: loading", || format!("already loaded with {ammo:?}"));
                }
            }
            Deploy::RefuseFlank { left, right } => {
                if initiative {
                    return refuse("BPT Refuse the Flank Movement", "refusing a flank needs an order");
                }
                if u.row.arm != crate::data::army::Arm::Infantry
                    || !matches!(u.formation, Formation::Line | Formation::ExtendedLine)
                    || u.stands < 3
                {
                    return refuse(
                        "BPT Refuse the Flank Movement",
                        "only infantry or dismounted cavalry in line or extended line (3 stands or more) refuse a flank",
                    );
                }
                if u.refused == (left, right) {
                    return refuse("BPT Refuse the Flank Movement", "the flanks are already so");
                }
            }
        }
        let mut after = u.clone();
        self.deployed_unit(&mut after, d);
        if matches!(d, Deploy::Load(_)) {
            return Ok(());
        }
        let rects = self.compute_geom(&after).rects;
        if rects.iter().any(|r| r.corners().iter().any(|c| !self.on_table(*c))) {
            return refuse("BPT Battlefield", "the new formation would leave the table");
        }
        if let Some(o) = self.overlapping_unit(id, &rects) {
            return refuse_with("BPT Movement: no overlapping bases", || {
                format!("the new formation would overlap {}", self.unit(o).name)
            });
        }
        Ok(())
    }

    fn deployed_unit(&self, u: &mut Unit, d: Deploy) {
        match d {
            Deploy::Formation(f) => {
                u.formation = f;
                u.refused = (false, false);
            }
            Deploy::RefuseFlank { left, right } => u.refused = (left, right),
            Deploy::Dismount => {
                if let Some(row) = u.row.dismounts_to.as_ref().and_then(|r| self.find_row(u.side, r)) {
                    u.mounted_row = Some(u.row.clone());
                    u.row = row;
                }
            }
            Deploy::Mount => {
                if let Some(row) = u.mounted_row.take() {
                    u.row = row;
                }
            }
            Deploy::Limber => u.limbered = true,
            Deploy::Unlimber => u.limbered = false,
            Deploy::Pivot(a) => u.pose.facing = a,
            Deploy::Load(ammo) => u.loaded = Some(ammo),
            // BPT "Prone Movement": the rule's own table (`do_deploy`), not the unit.
            Deploy::Prone(_) => {}
        }
    }

    fn find_row(&self, side: SideId, id: &str) -> Option<crate::data::army::TroopRow> {
        self.rows
            .get(side)
            .and_then(|rows| rows.iter().find(|r| r.id == id).cloned())
    }

    pub(crate) fn do_deploy(&mut self, id: UnitId, d: Deploy, ev: &mut Vec<Event>) {
        let mut u = self.unit(id).clone();
        self.deployed_unit(&mut u, d);
        self.change_unit_to(&u);
        if let Deploy::Prone(down) = d {
            self.apply_change(Change::Prone(ProneChange::Lying(id, down)));
        }
        self.refresh_geometry();
        ev.push(Event::Movement(MovementEvent::Deployed {
            unit: id,
            what: super::event::Deployment::Ordered(d),
        }));
    }
}
