//! *Glory Days!* initiative passing with D-markers, as a variant of BPT's command phase
//! (switch `InitiativePassing`; seed 004 "Core Concepts", "Activation", "Reaction Fire",
//! "Effect of Hits", "Rallying"; docs/rules.md "Initiative passing").
//!
//! With the switch on, commanders give no orders: the active player activates one unit at a
//! time with one d6 ≥ a target (base 3), and the unit then makes one BPT action (move, deploy,
//! charge if the activation declared it, support). A unit is activated again only
//! consecutively, at +1 a time. Any unit fires once on the initiative without a roll; fire
//! that lands fewer hits than `fire_keep_hits` passes the initiative, as does a failed
//! activation, a failed rally, and reaction (opportunity) fire that lands two hits on a unit
//! that moved. The initiative passing ends the player's command phase (after any open window);
//! BPT's charge and end phases follow. Fire hits become D-markers first (at most three a
//! unit); each raises the unit's activation target and score to hit by one until rallied off.

use super::action::{Action, Refusal, refuse};
use super::event::{Event, Modifier};
use super::fire::FireContext;
use super::state::*;
use crate::data::army::Quality;
use crate::data::scenario::Grade;
use crate::rules::formation::Formation;
use crate::rules::params::DMarkerPolicy;
use crate::rules::switches::Switch;

const RULE: &str = "Glory Days Activation";

/// A d6 roll worked out before the die: the target (roll at least this) and why.
#[derive(Clone, Debug, PartialEq)]
pub struct RollPlan {
    pub modifiers: Vec<Modifier>,
    pub target: i32,
}

impl RollPlan {
    /// The chance of one d6 reaching the target.
    pub fn chance(&self) -> f64 {
        (7 - self.target.clamp(1, 7)) as f64 / 6.0
    }
}

impl Battle {
    /// Is the initiative-passing variant on?
    pub fn initiative_passing(&self) -> bool {
        self.rules.switches.on(Switch::InitiativePassing)
    }

    /// Glory Days' terrain under the unit: 0 open, 1 difficult, 2 godforsaken (the
    /// modifier's size, from the rules file).
    pub fn passing_terrain(&self, id: UnitId) -> i32 {
        let p = &self.rules.initiative_passing;
        let kinds = self.terrain.area_kinds_at(self.unit(id).pose.pos);
        if kinds.iter().any(|k| p.godforsaken_areas.contains(k)) {
            p.godforsaken
        } else if kinds.iter().any(|k| p.difficult_areas.contains(k)) {
            p.difficult
        } else {
            0
        }
    }

    /// "No friendly units within 6"": no other friendly unit within `friend_distance`.
    pub fn passing_alone(&self, id: UnitId) -> bool {
        let d = self.rules.initiative_passing.friend_distance;
        let side = self.unit(id).side;
        !self
            .side_units(side)
            .any(|f| f.id != id && self.unit_distance(id, f.id) <= d)
    }

    /// Can the unit take an action of its own now (active side, alive, not suppressed, not in
    /// a charge)?
    fn passing_unit_ready(&self, id: UnitId, rule: &str) -> Result<(), Refusal> {
        self.check_unit_id(id)?;
        let u = self.unit(id);
        if u.side != self.active || !u.alive() {
            return refuse(rule, format!("{} is not a unit of the active player", u.name));
        }
        if self.phase != Phase::Command {
            return refuse(rule, "units are activated in the command phase");
        }
        if u.suppressed() {
            return refuse("BPT Suppression", format!("{} is suppressed and cannot act", u.name));
        }
        if self.engaged(id) {
            return refuse("BPT Charge", format!("{} is locked in a charge", u.name));
        }
        if let Some(r) = &self.cmd.passing.passed {
            return refuse("Glory Days Core Concepts", format!("the initiative has passed: {r}"));
        }
        Ok(())
    }

    /// The activation roll's target (Glory Days "Activation"), or why the unit may not be
    /// activated now.
    pub fn activation_plan(&self, id: UnitId, charge: bool, dense: bool) -> Result<RollPlan, Refusal> {
        if !self.initiative_passing() {
            return refuse(RULE, "activation is the initiative-passing variant's (switch off)");
        }
        self.passing_unit_ready(id, RULE)?;
        let u = self.unit(id);
        let prior = match self.cmd.orders.get(&id) {
            Some(o) if o.finished || self.cmd.passing.activated != Some(id) => {
                return refuse(
                    RULE,
                    format!(
                        "{} may be activated again only consecutively, before any other unit acts",
                        u.name
                    ),
                );
            }
            Some(o) => o.count,
            None => 0,
        };
        let p = &self.rules.initiative_passing;
        let mut modifiers = Vec::new();
        let grade = match u.grade {
            Grade::Elite => p.elite,
            Grade::Regular => p.regular,
            Grade::Poor => p.poor,
        };
        if grade != 0 {
            modifiers.push(Modifier::new(grade, "Glory Days Troop experience"));
        }
        if u.formation == Formation::MarchColumn && self.terrain.on_road(u.pose.pos, u.pose.pos) {
            modifiers.push(Modifier::new(
                p.column_on_road,
                "Glory Days Activation: in column on a road",
            ));
        }
        if self.touching_commander(id).is_some() {
            modifiers.push(Modifier::new(
                p.general_with_unit,
                "Glory Days Activation: general with unit",
            ));
        }
        if prior > 0 {
            modifiers.push(Modifier::new(
                p.per_previous_move * prior as i32,
                "Glory Days Activation: previous moves this initiative",
            ));
        }
        if self.passing_alone(id) {
            modifiers.push(Modifier::new(
                p.alone,
                "Glory Days Activation: no friendly unit within 6\"",
            ));
        }
        let terrain = self.passing_terrain(id).max(if dense { p.godforsaken } else { 0 });
        if terrain != 0 {
            modifiers.push(Modifier::new(
                terrain,
                if terrain >= p.godforsaken {
                    "Glory Days Activation: in or into godforsaken terrain"
                } else {
                    "Glory Days Activation: in or into difficult terrain"
                },
            ));
        }
        if u.d_markers > 0 {
            modifiers.push(Modifier::new(
                p.per_d_marker * u.d_markers as i32,
                "Glory Days Core Concepts: D-markers",
            ));
        }
        if charge {
            modifiers.push(Modifier::new(p.charge, "Glory Days Melee: the charge test"));
        }
        let target = p.activation_base + modifiers.iter().map(|m| m.amount).sum::<i32>();
        if target > 6 {
            return refuse(
                RULE,
                format!("{} would need {target} on one die: it cannot be activated", u.name),
            );
        }
        Ok(RollPlan { modifiers, target })
    }

    /// The rally roll's target (Glory Days "Rallying"), or why the unit may not rally.
    pub fn rally_plan(&self, id: UnitId) -> Result<RollPlan, Refusal> {
        const RALLY: &str = "Glory Days Rallying";
        if !self.initiative_passing() {
            return refuse(
                RALLY,
                "rallying off D-markers is the initiative-passing variant's (switch off)",
            );
        }
        self.passing_unit_ready(id, RALLY)?;
        let u = self.unit(id);
        if u.d_markers == 0 {
            return refuse(RALLY, format!("{} has no D-marker to rally off", u.name));
        }
        let p = &self.rules.initiative_passing;
        let mut modifiers = Vec::new();
        if let Some(c) = self.touching_commander(id) {
            let (m, what) = match self.commander(c).row.quality {
                Quality::Exceptional => (
                    p.rally_general_exceptional,
                    "Glory Days Rallying: veteran general with unit",
                ),
                Quality::Average => (
                    p.rally_general_average,
                    "Glory Days Rallying: seasoned general with unit",
                ),
                Quality::Uninspiring => (
                    p.rally_general_uninspiring,
                    "Glory Days Rallying: raw general with unit",
                ),
            };
            if m != 0 {
                modifiers.push(Modifier::new(m, what));
            }
        }
        let reach = self
            .side_units(1 - u.side)
            .any(|e| self.unit_distance(e.id, id) <= e.move_rate());
        if !reach {
            modifiers.push(Modifier::new(
                p.rally_out_of_reach,
                "Glory Days Rallying: outside movement range of any enemy",
            ));
        }
        if self.passing_alone(id) {
            modifiers.push(Modifier::new(
                p.rally_alone,
                "Glory Days Rallying: no friendly unit within 6\"",
            ));
        }
        if p.per_d_marker_rally != 0 {
            modifiers.push(Modifier::new(
                p.per_d_marker_rally * u.d_markers as i32,
                "Glory Days Core Concepts: D-markers",
            ));
        }
        let target = p.rally_base + modifiers.iter().map(|m| m.amount).sum::<i32>();
        Ok(RollPlan { modifiers, target })
    }

    /// May the unit fire on this initiative (each unit once, no roll)?
    pub fn check_passing_fire(&self, id: UnitId, target: UnitId) -> Result<super::fire::FirePlan, Refusal> {
        self.passing_unit_ready(id, "Glory Days Firing")?;
        self.check_unit_id(target)?;
        if self.cmd.passing.fired.contains(&id) {
            return refuse(
                "Glory Days Firing",
                format!("{} has fired on this initiative", self.unit(id).name),
            );
        }
        self.check_fire(id, target, FireContext::Order)
    }

    /// Added to the unit's score to hit: D-markers and a move on this initiative.
    pub(crate) fn passing_fire_penalty(&self, id: UnitId) -> u32 {
        if !self.initiative_passing() {
            return 0;
        }
        let p = &self.rules.initiative_passing;
        let u = self.unit(id);
        let moved = u.side == self.active && self.phase == Phase::Command && self.cmd.passing.moved.contains(&id);
        p.per_d_marker_to_hit * u.d_markers + if moved { p.moved_to_hit } else { 0 }
    }

    /// Glory Days "Effect of Hits": how many of `net` fire hits the unit takes as D-markers
    /// (recording them); the rest are BPT hits. Also counts the hits landed this phase.
    pub(crate) fn hits_as_d_markers(&mut self, id: UnitId, net: u32, ev: &mut Vec<Event>) -> u32 {
        if !self.initiative_passing() {
            return 0;
        }
        self.cmd.passing.landed += net;
        let p = &self.rules.initiative_passing;
        let m = match p.d_marker_policy {
            DMarkerPolicy::MarkersFirst => net.min(p.max_d_markers.saturating_sub(self.unit(id).d_markers)),
            DMarkerPolicy::HitsOnly => 0,
        };
        self.add_d_markers(id, m, "hits taken as D-markers", ev);
        m
    }

    fn add_d_markers(&mut self, id: UnitId, n: u32, why: &str, ev: &mut Vec<Event>) {
        let max = self.rules.initiative_passing.max_d_markers;
        let u = self.unit_mut(id);
        let n = n.min(max.saturating_sub(u.d_markers));
        if n == 0 {
            return;
        }
        u.d_markers += n;
        let total = u.d_markers;
        ev.push(Event::DMarkers {
            unit: id,
            change: n as i32,
            total,
            why: why.into(),
        });
    }

    /// The initiative passes (once): the command phase ends when no window is open.
    fn pass_initiative(&mut self, reason: String, ev: &mut Vec<Event>) {
        if self.cmd.passing.passed.is_some() {
            return;
        }
        ev.push(Event::InitiativePassed {
            side: self.active,
            reason: reason.clone(),
        });
        self.cmd.passing.passed = Some(reason);
        self.cmd.passing.activated = None;
        for o in self.cmd.orders.values_mut() {
            o.finished = true;
        }
    }

    /// After every action: a passed initiative ends the command phase once the windows close.
    pub(crate) fn settle_passing(&mut self, ev: &mut Vec<Event>) {
        if self.phase == Phase::Command && self.step == Step::Open && self.cmd.passing.passed.is_some() {
            self.end_command(ev);
        }
    }

    /// Another unit acts: the one activated before may not be activated again this initiative.
    fn interrupt(&mut self, id: Option<UnitId>) {
        for (u, o) in self.cmd.orders.iter_mut() {
            if Some(*u) != id {
                o.finished = true;
            }
        }
        self.cmd.passing.activated = id;
    }

    /// The reaction (opportunity) fire at a unit that moved on this initiative: two hits stop
    /// it and pass the initiative (Glory Days "Reaction Fire").
    pub(crate) fn reaction_stops(&mut self, mover: UnitId, landed_before: u32, ev: &mut Vec<Event>) {
        if !self.initiative_passing() || self.phase != Phase::Command {
            return;
        }
        let hits = self.cmd.passing.landed - landed_before;
        let need = self.rules.initiative_passing.reaction_stop_hits;
        if hits >= need && self.cmd.passing.activated == Some(mover) && self.cmd.passing.moved.contains(&mover) {
            let name = self.unit(mover).name.clone();
            self.pass_initiative(
                format!("reaction fire landed {hits} hits on {name}: its move stops"),
                ev,
            );
        }
    }

    /// The command phase's actions with the switch on; `None` leaves the action to BPT's.
    pub(crate) fn apply_passing(&mut self, action: &Action, ev: &mut Vec<Event>) -> Option<Result<(), Refusal>> {
        Some(match action {
            Action::Order { .. } | Action::SelfOrder { .. } => refuse(
                RULE,
                "with initiative passing, units are activated one by one, not ordered",
            ),
            Action::Activate { unit, charge, dense } => self.do_activate(*unit, *charge, *dense, ev),
            Action::Rally { unit } => self.do_rally(*unit, ev),
            Action::Fire { unit, target } => self.do_passing_fire(*unit, *target, ev),
            Action::Move { unit, .. } | Action::Deploy { unit, .. } => {
                let unit = *unit;
                if let Err(r) = self.apply_command_bpt(action, ev) {
                    return Some(Err(r));
                }
                self.cmd.passing.moved.insert(unit);
                Ok(())
            }
            _ => return None,
        })
    }

    fn do_activate(&mut self, id: UnitId, charge: bool, dense: bool, ev: &mut Vec<Event>) -> Result<(), Refusal> {
        let plan = self.activation_plan(id, charge, dense)?;
        self.interrupt(Some(id));
        let roll = self.dice.d6();
        let success = roll as i32 >= plan.target;
        ev.push(Event::ActivationRoll {
            unit: id,
            modifiers: plan.modifiers.clone(),
            target: plan.target,
            roll,
            success,
        });
        let o = self.cmd.orders.entry(id).or_insert(OrderState::new(u32::MAX));
        o.count += 1;
        if success {
            o.credits = 1;
            o.may_charge = charge;
            o.may_enter_dense = dense;
            o.fire_after_manhandle = false;
            return Ok(());
        }
        o.credits = 0;
        o.finished = true;
        let p = &self.rules.initiative_passing;
        let in_terrain = self.passing_terrain(id) > 0 || dense;
        if p.failed_in_terrain_marker && in_terrain {
            self.add_d_markers(id, 1, "failed to activate in difficult terrain", ev);
        }
        let name = self.unit(id).name.clone();
        self.pass_initiative(format!("{name} failed its activation roll"), ev);
        Ok(())
    }

    fn do_rally(&mut self, id: UnitId, ev: &mut Vec<Event>) -> Result<(), Refusal> {
        let plan = self.rally_plan(id)?;
        self.interrupt(None);
        let roll = self.dice.d6();
        let success = roll as i32 >= plan.target;
        ev.push(Event::RallyRoll {
            unit: id,
            modifiers: plan.modifiers,
            target: plan.target,
            roll,
            success,
        });
        if success {
            let u = self.unit_mut(id);
            u.d_markers -= 1;
            let total = u.d_markers;
            ev.push(Event::DMarkers {
                unit: id,
                change: -1,
                total,
                why: "rallied".into(),
            });
        } else {
            let name = self.unit(id).name.clone();
            self.pass_initiative(format!("{name} failed to rally"), ev);
        }
        Ok(())
    }

    fn do_passing_fire(&mut self, id: UnitId, target: UnitId, ev: &mut Vec<Event>) -> Result<(), Refusal> {
        let plan = self.check_passing_fire(id, target)?;
        self.interrupt(None);
        self.cmd.passing.fired.insert(id);
        let before = self.cmd.passing.landed;
        // The order sequence keeps BPT's "not suppressed and made to fall back by one fire".
        self.order_seq += 1;
        self.resolve_fire(plan, FireContext::Order, ev);
        let landed = self.cmd.passing.landed - before;
        if landed < self.rules.initiative_passing.fire_keep_hits {
            let name = self.unit(id).name.clone();
            self.pass_initiative(
                format!(
                    "{name}'s fire landed {landed} hit{}",
                    if landed == 1 { "" } else { "s" }
                ),
                ev,
            );
        }
        self.open_reaction(id, ev);
        Ok(())
    }

    /// The legal command-phase actions with the switch on.
    pub(crate) fn legal_passing(&self, out: &mut Vec<Action>) {
        if self.cmd.passing.passed.is_some() {
            out.push(Action::EndPhase);
            return;
        }
        // The activated unit's action.
        if let Some(id) = self.cmd.passing.activated
            && let Some(o) = self.cmd.orders.get(&id)
            && o.credits > 0
            && !o.finished
            && self.unit(id).alive()
        {
            for to in self.candidate_moves(id) {
                if self.check_move(id, to, o.may_enter_dense).is_ok() {
                    out.push(Action::Move { unit: id, to });
                }
            }
            for d in self.candidate_deploys(id) {
                if self.check_deploy(id, d, false).is_ok() {
                    out.push(Action::Deploy { unit: id, deploy: d });
                }
            }
            if o.may_charge {
                for (e, _) in self.visible_enemies(id) {
                    if self.check_charge(id, e).is_ok() {
                        out.push(Action::Charge { unit: id, target: e });
                    }
                }
            }
            self.legal_supports(id, out);
        }
        let reach = self.rules.charge.distance;
        for u in self.side_units(self.active) {
            if !self.cmd.passing.fired.contains(&u.id) && self.passing_unit_ready(u.id, RULE).is_ok() {
                for (e, _) in self.visible_enemies(u.id) {
                    if self.check_fire(u.id, e, FireContext::Order).is_ok() {
                        out.push(Action::Fire { unit: u.id, target: e });
                    }
                }
            }
            if self.rally_plan(u.id).is_ok() {
                out.push(Action::Rally { unit: u.id });
            }
            if self.activation_plan(u.id, false, false).is_ok() {
                out.push(Action::Activate {
                    unit: u.id,
                    charge: false,
                    dense: false,
                });
                if self.visible_enemies(u.id).iter().any(|(_, d)| *d <= reach)
                    && self.activation_plan(u.id, true, false).is_ok()
                {
                    out.push(Action::Activate {
                        unit: u.id,
                        charge: true,
                        dense: false,
                    });
                }
            }
        }
        for c in self.commanders.iter().filter(|c| c.side == self.active && c.alive()) {
            if self.check_commander_may_move(c.id).is_ok() {
                for to in self.candidate_commander_moves(c.id) {
                    if self.check_commander_move(c.id, to).is_ok() {
                        out.push(Action::CommanderMove { commander: c.id, to });
                    }
                }
            }
        }
        out.push(Action::EndPhase);
    }
}
