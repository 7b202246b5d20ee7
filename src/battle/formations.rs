//! BPT "Fixed Formations (Optional Rule)" (switch `FixedFormations`): "Fixed formations are
//! composed of one command unit (either the CO or an HQ) and any number of other units. Fixed
//! formations may only be issued orders by their own command unit. … The CO may attempt to
//! issue an order to a unit within his own formation and that unit can then be attached to
//! another formation for the remainder of the battle. Make a command roll as normal, but
//! rather than deduct one per 10cm between the command unit and the unit, deduct one per 10cm
//! between the CO and the HQ of the formation you wish to attach the unit. In addition, deduct
//! one from the command value for each section of dense terrain or each enemy unit between the
//! CO and the HQ. If the command roll is successful, move the unit to within 10cm of the HQ.
//! The unit cannot then be issued any further orders that turn."
//!
//! A formation is what the scenario already says: a unit's `commander`. The attachment is the
//! action `Attach { unit, hq }`; its roll is an order of the CO's (a failure ends his orders
//! and so every order of the side, a double 6 is a blunder for the unit, as any order).

use super::action::{Action, Refusal, refuse, refuse_with};
use super::event::CommandOutcome;
use super::event::{Event, ModRule, Modifier, MoveKind};
use super::state::*;
use crate::battle::event::families::*;
use crate::rules::geometry::{self, Pose, V2};
use crate::rules::switches::Switch;

const RULE: &str = "BPT Fixed Formations";

/// A checked attachment: the CO's roll and where the unit will stand.
#[derive(Clone, Debug, PartialEq)]
pub struct AttachPlan {
    pub co: CmdId,
    pub value: i32,
    pub modifiers: Vec<Modifier>,
    pub target: i32,
    pub to: Pose,
}

impl Battle {
    pub fn fixed_formations(&self) -> bool {
        self.rules.switches.on(Switch::FixedFormations)
    }

    /// "Fixed formations may only be issued orders by their own command unit."
    pub(crate) fn check_own_formation(&self, c: CmdId, unit: UnitId) -> Result<(), Refusal> {
        let u = self.unit(unit);
        if self.fixed_formations() && u.hq != c {
            return refuse_with(RULE, || {
                format!(
                    "{} belongs to {}'s formation and takes orders only from {}",
                    u.name,
                    self.commander(u.hq).name,
                    self.commander(u.hq).name
                )
            });
        }
        Ok(())
    }

    /// Whether the CO may attach `unit` (of his own formation) to `hq`'s formation now, at
    /// what command roll, and to where.
    pub fn check_attach(&self, unit: UnitId, hq: CmdId) -> Result<AttachPlan, Refusal> {
        if !self.fixed_formations() {
            return refuse(RULE, "the optional rule is off (switch fixed-formations)");
        }
        self.check_unit_id(unit)?;
        if hq as usize >= self.commanders.len() {
            return refuse(RULE, "no such commander");
        }
        let u = self.unit(unit);
        let co = u.hq;
        if !u.alive() || u.side != self.active || !self.commander(co).is_co() {
            return refuse(RULE, "the CO attaches units of his own formation");
        }
        let h = self.commander(hq);
        if h.side != u.side || h.is_co() || !h.alive() {
            return refuse(RULE, "a unit is attached to the formation of a living HQ of its side");
        }
        self.check_commander_can_order(co)?;
        if u.suppressed() {
            return refuse_with("BPT Suppression", || format!("{} is suppressed and cannot act", u.name));
        }
        if self.engaged(unit) {
            return refuse_with("BPT Charge", || format!("{} is locked in a charge", u.name));
        }
        // The attachment is an order.
        self.check_no_engineer_task(unit)?;
        // **Decision**: the attachment is the unit's order this turn (an order on its way to
        // it under the order delay is replaced, as by any new order).
        if self.cmd.orders.contains_key(&unit) || self.cmd.held.contains_key(&unit) {
            return refuse_with(RULE, || format!("{} has already had an order this turn", u.name));
        }
        let r = &self.rules.fixed_formations;
        let c = self.commander(co);
        let mut modifiers = Vec::new();
        let (from, to) = (c.pos, h.pos);
        let apart = geometry::rects_distance(&[self.commander_rect(c)], &[self.commander_rect(h)]);
        let steps = (apart / r.distance_step).floor() as i32;
        if steps > 0 {
            modifiers.push(Modifier::new(r.per_distance * steps, ModRule::AttachDistance));
        }
        let dense = self
            .terrain
            .areas
            .iter()
            .filter(|a| r.dense_areas.contains(&a.kind) && !a.outline.clip_segment(from, to).is_empty())
            .count() as i32;
        if dense > 0 {
            modifiers.push(Modifier::new(r.per_dense * dense, ModRule::AttachDense));
        }
        let enemies = self
            .side_units(1 - u.side)
            .filter(|e| self.rects(e.id).iter().any(|rect| rect.intersects_segment(from, to)))
            .count() as i32;
        if enemies > 0 {
            modifiers.push(Modifier::new(r.per_enemy * enemies, ModRule::AttachEnemies));
        }
        // "As normal": the modifiers that do not depend on the distance to the unit.
        if self.used_initiative(unit) {
            modifiers.push(Modifier::new(
                self.rules.command.used_initiative,
                ModRule::UsedInitiativeOrOpportunity,
            ));
        }
        modifiers.extend(self.weather_modifier());
        let Some(to) = self.attach_spot(unit, hq) else {
            return refuse_with(RULE, || {
                format!("there is no room for {} within 10 cm of {}", u.name, h.name)
            });
        };
        let value = c.command_value;
        let target = value + modifiers.iter().map(|m| m.amount).sum::<i32>();
        Ok(AttachPlan {
            co,
            value,
            modifiers,
            target,
            to,
        })
    }

    /// Where an attached unit stands (**decision**): facing as before, its bases within
    /// `attach_within` of the HQ (not on him), on the table, on passable ground, clear of every
    /// other unit and out of contact with the enemy; rings round the HQ; of the places with
    /// room, the place nearest the middle of the HQ's formation (the HQ himself
    /// if it has no unit left).
    fn attach_spot(&self, unit: UnitId, hq: CmdId) -> Option<Pose> {
        let u = self.unit(unit);
        let h = self.commander(hq);
        let hrect = self.commander_rect(h);
        let within = self.rules.fixed_formations.attach_within;
        let foot = u.on_foot();
        let contact = self.rules.visibility.contact;
        let mine: Vec<V2> = self
            .side_units(u.side)
            .filter(|f| f.hq == hq && f.id != unit)
            .map(|f| f.pose.pos)
            .collect();
        let towards = if mine.is_empty() {
            h.pos
        } else {
            mine.iter().fold(V2::ZERO, |a, p| a + *p) * (1.0 / mine.len() as f64)
        };
        let mut best: Option<(f64, Pose)> = None;
        for ring in [3.0, 5.0, 7.0, 9.0, 11.0] {
            for k in 0..24 {
                let a = f64::from(k) * std::f64::consts::TAU / 24.0;
                let pose = Pose::new(h.pos + V2::new(a.cos(), a.sin()) * ring, u.pose.facing);
                let rects = self.rects_at(unit, pose);
                let gap = geometry::rects_distance(&[hrect], &rects);
                if gap > within || gap < 0.5 {
                    continue;
                }
                if rects.iter().any(|r| r.corners().iter().any(|c| !self.on_table(*c)))
                    || rects.iter().any(|r| self.terrain.rect_in_impassable(r, foot))
                    || self.overlapping_unit(unit, &rects).is_some()
                    || self
                        .side_units(1 - u.side)
                        .any(|e| geometry::rects_distance(self.rects(e.id), &rects) <= contact)
                {
                    continue;
                }
                let d = pose.pos.dist(towards);
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, pose));
                }
            }
        }
        best.map(|(_, pose)| pose)
    }

    /// Carry out a decided attachment: the CO's roll, and the unit joining the formation.
    pub(crate) fn do_attach(&mut self, unit: UnitId, hq: CmdId, plan: AttachPlan, ev: &mut Vec<Event>) {
        let co = plan.co;
        self.start_order(co, &[unit]);
        let outcome = self.command_roll(co, &[unit], plan.value, &plan.modifiers, plan.target, ev);
        match outcome {
            CommandOutcome::Success | CommandOutcome::Bonus => {
                self.withdraw_pending(co, &[unit], ev);
                // Order delay: the attachment is the CO's order to the unit; it reaches the
                // unit by its distance from the CO, and the unit moves when it arrives.
                let far = geometry::rects_distance(&[self.commander_rect(self.commander(co))], self.rects(unit));
                let delay = self.order_delay(far);
                if delay > 0 {
                    self.hold(co, vec![unit], (delay, far), (0, [false; 3]), Some(hq), ev);
                } else {
                    self.join_formation(unit, co, hq, plan.to, ev);
                }
            }
            CommandOutcome::Failure | CommandOutcome::Blunder => {
                if outcome == CommandOutcome::Blunder {
                    self.blunder(co, &[unit], ev);
                }
                // A failed roll by the CO ends every order of the side (BPT).
                self.change_command(CommandChange::Done(co));
                self.change_command(CommandChange::AllStopped);
                ev.push(Event::Command(CommandEvent::OrdersEnded {
                    commander: co,
                    all: true,
                }));
            }
        }
    }

    /// "Move the unit to within 10cm of the HQ. The unit cannot then be issued any further
    /// orders that turn": unit `unit` joins `hq`'s formation at `to`.
    fn join_formation(&mut self, unit: UnitId, co: CmdId, hq: CmdId, to: Pose, ev: &mut Vec<Event>) {
        let from = self.unit(unit).pose;
        self.change_unit(unit, UnitChange::Hq(hq));
        self.change_unit(unit, UnitChange::Pose(to));
        self.change_unit(unit, UnitChange::DugIn(false));
        self.change_unit(unit, UnitChange::Refused((false, false)));
        self.change_command(CommandChange::Order(
            unit,
            OrderState {
                finished: true,
                credits: 0,
                ..OrderState::new(co)
            },
        ));
        self.refresh_geometry();
        ev.push(Event::Movement(MovementEvent::Moved {
            unit,
            from,
            to,
            kind: MoveKind::Order,
            cost: 0.0,
        }));
        ev.push(Event::Formations(FormationsEvent::Attached { unit, co, hq }));
    }

    /// Order delay: an attachment on its way reaches `unit` at the start of its side's
    /// command phase, and it joins `hq`'s formation then, if it still can (**Decision**: it
    /// lapses, with the reason, if the HQ has fallen or there is no room by him now).
    pub(crate) fn attach_arrives(
        &mut self,
        unit: UnitId,
        co: CmdId,
        hq: CmdId,
        ev: &mut Vec<Event>,
    ) -> Result<(), super::event::Lapsed> {
        if !self.commander(hq).alive() {
            return Err(super::event::Lapsed::HqFallen(hq));
        }
        let Some(to) = self.attach_spot(unit, hq) else {
            return Err(super::event::Lapsed::NoRoomByHq(hq));
        };
        self.join_formation(unit, co, hq, to, ev);
        Ok(())
    }

    /// The attachments on offer in the command phase.
    pub(crate) fn legal_attach(&self, out: &mut Vec<Action>) {
        if !self.fixed_formations() {
            return;
        }
        for u in self.side_units(self.active) {
            if !self.commander(u.hq).is_co() {
                continue;
            }
            for h in self.commanders.iter().filter(|h| h.side == self.active && !h.is_co()) {
                if self.check_attach(u.id, h.id).is_ok() {
                    out.push(Action::Attach { unit: u.id, hq: h.id });
                }
            }
        }
    }
}
