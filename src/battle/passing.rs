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

use super::action::{Action, Ground, Purpose, Refusal, refuse, refuse_with};
use super::event::{DMarkerWhy, Event, ModRule, Modifier, PassReason};
use super::fire::FireContext;
use super::state::*;
use crate::battle::event::families::*;
use crate::data::army::Arm;
use crate::data::army::Quality;
use crate::data::scenario::Grade;
use crate::rules::formation::Formation;
use crate::rules::geometry::{Pose, V2};
use crate::rules::params::DMarkerPolicy;
use crate::rules::switches::Switch;
use crate::rules::terrain::AreaKind;

pub(crate) const RULE: &str = "Glory Days Activation";

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

    /// Glory Days' level of an area kind (the rules file's lists).
    pub fn passing_ground_of(&self, kind: AreaKind) -> Ground {
        let p = &self.rules.initiative_passing;
        if p.godforsaken_areas.contains(&kind) {
            Ground::Godforsaken
        } else if p.difficult_areas.contains(&kind) {
            Ground::Difficult
        } else {
            Ground::Open
        }
    }

    /// Glory Days' terrain at a point: the worst area there.
    pub fn passing_ground_at(&self, pos: V2) -> Ground {
        self.terrain
            .area_kinds_at(pos)
            .into_iter()
            .map(|k| self.passing_ground_of(k))
            .max()
            .unwrap_or_default()
    }

    /// Glory Days' terrain under the unit (its centre).
    pub fn passing_terrain(&self, id: UnitId) -> Ground {
        self.passing_ground_at(self.unit(id).pose.pos)
    }

    /// The worst terrain a move from the unit's place to `to` goes in or into (both ends and
    /// every area crossed); open along a road (BPT: a road move ignores the areas).
    pub fn passing_path_ground(&self, id: UnitId, to: Pose, road: bool) -> Ground {
        if road {
            return Ground::Open;
        }
        let from = self.unit(id).pose.pos;
        self.terrain
            .length_in_areas(from, to.pos)
            .into_iter()
            .filter(|(_, len)| *len > 0.0)
            .map(|(k, _)| self.passing_ground_of(k))
            .chain([self.passing_ground_at(from), self.passing_ground_at(to.pos)])
            .max()
            .unwrap_or_default()
    }

    /// The modifier for a level: difficult +1, godforsaken +2 (the rules file's).
    fn ground_modifier(&self, g: Ground) -> i32 {
        let p = &self.rules.initiative_passing;
        match g {
            Ground::Open => 0,
            Ground::Difficult => p.difficult,
            Ground::Godforsaken => p.godforsaken,
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
    fn passing_unit_ready(&self, id: UnitId, rule: &'static str) -> Result<(), Refusal> {
        self.check_unit_id(id)?;
        let u = self.unit(id);
        if u.side != self.active || !u.alive() {
            return refuse_with(rule, || format!("{} is not a unit of the active player", u.name));
        }
        if self.phase != Phase::Command {
            return refuse(rule, "units are activated in the command phase");
        }
        if u.suppressed() {
            return refuse_with("BPT Suppression", || format!("{} is suppressed and cannot act", u.name));
        }
        if self.engaged(id) {
            return refuse_with("BPT Charge", || format!("{} is locked in a charge", u.name));
        }
        if let Some(r) = &self.cmd.passing.passed {
            return refuse_with("Glory Days Core Concepts", || {
                format!("the initiative has passed: {}", super::hash::pass_reason_words(self, r))
            });
        }
        Ok(())
    }

    /// The activation roll's target (Glory Days "Activation" for a move or charge, "Changing
    /// Formation" for a deploy), declaring the worst terrain the move goes `into`; or why the
    /// unit may not be activated now.
    pub fn activation_plan(&self, id: UnitId, purpose: Purpose, into: Ground) -> Result<RollPlan, Refusal> {
        if !self.initiative_passing() {
            return refuse(RULE, "activation is the initiative-passing variant's (switch off)");
        }
        self.passing_unit_ready(id, RULE)?;
        // An activation is the unit's order.
        self.check_no_engineer_task(id)?;
        let u = self.unit(id);
        let prior = match self.cmd.orders.get(&id) {
            Some(o) if o.finished || self.cmd.passing.activated != Some(id) => {
                return refuse_with(RULE, || {
                    format!(
                        "{} may be activated again only consecutively, before any other unit acts",
                        u.name
                    )
                });
            }
            Some(o) => o.count,
            None => 0,
        };
        let formation = purpose == Purpose::Formation;
        if formation && into != Ground::Open {
            return refuse(
                "Glory Days Changing Formation",
                "a change of formation moves into no terrain: it counts the terrain the unit is in",
            );
        }
        let p = &self.rules.initiative_passing;
        let mut modifiers = Vec::new();
        let grade = match u.grade {
            Grade::Elite => p.elite,
            Grade::Regular => p.regular,
            Grade::Poor => p.poor,
        };
        if grade != 0 {
            modifiers.push(Modifier::new(grade, ModRule::TroopExperience));
        }
        if formation {
            let near = p.formation_enemy_distance;
            if !self
                .side_units(1 - u.side)
                .any(|e| self.unit_distance(e.id, id) <= near)
            {
                modifiers.push(Modifier::new(p.formation_no_enemy, ModRule::FormationNoEnemy));
            }
        } else {
            if u.formation == Formation::MarchColumn && self.terrain.on_road(u.pose.pos, u.pose.pos) {
                modifiers.push(Modifier::new(p.column_on_road, ModRule::ColumnOnRoad));
            }
            if self.touching_commander(id).is_some() {
                modifiers.push(Modifier::new(p.general_with_unit, ModRule::ActivationGeneral));
            }
        }
        if prior > 0 {
            modifiers.push(Modifier::new(
                p.per_previous_move * prior as i32,
                ModRule::PreviousMoves,
            ));
        }
        if !formation && self.passing_alone(id) {
            modifiers.push(Modifier::new(p.alone, ModRule::ActivationAlone));
        }
        let ground = self.passing_terrain(id).max(into);
        let terrain = self.ground_modifier(ground);
        if terrain != 0 {
            modifiers.push(Modifier::new(
                terrain,
                match (formation, ground) {
                    (true, Ground::Godforsaken) => ModRule::FormationGodforsaken,
                    (true, _) => ModRule::FormationDifficult,
                    (false, Ground::Godforsaken) => ModRule::ActivationGodforsaken,
                    (false, _) => ModRule::ActivationDifficult,
                },
            ));
        }
        if u.d_markers > 0 {
            modifiers.push(Modifier::new(p.per_d_marker * u.d_markers as i32, ModRule::DMarkers));
        }
        // **Decision** (issue 64): an activation is the unit's order, so BPT's weather command
        // penalty (poor −1, extreme −2; night is poor) makes it as much harder to roll.
        if let Some(w) = self.weather_modifier() {
            modifiers.push(Modifier::new(
                -w.amount,
                match w.rule {
                    ModRule::WeatherExtreme => ModRule::WeatherExtremeActivation,
                    _ => ModRule::WeatherPoorActivation,
                },
            ));
        }
        if purpose == Purpose::Charge && p.charge != 0 {
            modifiers.push(Modifier::new(p.charge, ModRule::ActivationCharge));
        }
        let base = if formation { p.formation_base } else { p.activation_base };
        let target = base + modifiers.iter().map(|m| m.amount).sum::<i32>();
        if target > 6 {
            return refuse_with(RULE, || {
                format!("{} would need {target} on one die: it cannot be activated", u.name)
            });
        }
        Ok(RollPlan { modifiers, target })
    }

    /// Glory Days "Melee": the charge test's target once the charge activation has passed
    /// (base 4; cavalry charging infantry in the open −1; general with unit −1; charging
    /// in/into difficult +1, godforsaken +2; D-markers +1 each, as for "just about any action").
    pub fn charge_test_plan(&self, id: UnitId, enemy: UnitId) -> Result<RollPlan, Refusal> {
        const MELEE: &str = "Glory Days Melee";
        if !self.initiative_passing() {
            return refuse(
                MELEE,
                "the charge test is the initiative-passing variant's (switch off)",
            );
        }
        self.check_unit_id(id)?;
        self.check_unit_id(enemy)?;
        let p = &self.rules.initiative_passing;
        let (u, t) = (self.unit(id), self.unit(enemy));
        let ground = self.passing_terrain(id).max(self.passing_terrain(enemy));
        let mut modifiers = Vec::new();
        if u.is_cavalry() && u.mounted() && t.row.arm == Arm::Infantry && ground == Ground::Open {
            modifiers.push(Modifier::new(
                p.charge_cavalry_vs_infantry,
                ModRule::CavalryChargingInfantry,
            ));
        }
        if self.touching_commander(id).is_some() {
            modifiers.push(Modifier::new(p.charge_general_with_unit, ModRule::ChargeGeneral));
        }
        let terrain = self.ground_modifier(ground);
        if terrain != 0 {
            modifiers.push(Modifier::new(
                terrain,
                if ground == Ground::Godforsaken {
                    ModRule::ChargeGodforsaken
                } else {
                    ModRule::ChargeDifficult
                },
            ));
        }
        if u.d_markers > 0 {
            modifiers.push(Modifier::new(p.per_d_marker * u.d_markers as i32, ModRule::DMarkers));
        }
        let target = p.charge_test_base + modifiers.iter().map(|m| m.amount).sum::<i32>();
        if target > 6 {
            return refuse_with(MELEE, || {
                format!("{} would need {target} on one die: it cannot charge", u.name)
            });
        }
        Ok(RollPlan { modifiers, target })
    }

    /// The activated unit's move must stay within the terrain its activation counted (the
    /// level it stood in or the one it declared).
    pub fn check_passing_move(&self, id: UnitId, to: Pose, road: bool) -> Result<(), Refusal> {
        if !self.initiative_passing() || self.cmd.passing.activated != Some(id) {
            return Ok(());
        }
        let allowed = self.cmd.passing.ground;
        let needs = self.passing_path_ground(id, to, road);
        if needs > allowed {
            return refuse_with(RULE, || {
                format!(
                    "the move goes into {needs}; {} was activated for {allowed} only",
                    self.unit(id).name
                )
            });
        }
        Ok(())
    }

    /// May the activated unit take this action under its activation's purpose?
    pub(crate) fn check_purpose(&self, id: UnitId, action: &Action) -> Result<(), Refusal> {
        if self.cmd.passing.activated != Some(id) {
            return Ok(()); // BPT's own checks refuse a unit without an activation
        }
        let Some(purpose) = self.cmd.passing.purpose else {
            return Ok(());
        };
        let ok = match action {
            Action::Move { .. } | Action::Support { .. } => purpose != Purpose::Formation,
            Action::Deploy { .. } => purpose == Purpose::Formation,
            Action::Charge { .. } => purpose == Purpose::Charge,
            _ => true,
        };
        if ok {
            Ok(())
        } else {
            refuse_with(RULE, || {
                format!(
                    "{} was activated to {}",
                    self.unit(id).name,
                    match purpose {
                        Purpose::Move => "move",
                        Purpose::Formation => "change formation",
                        Purpose::Charge => "move or charge",
                    }
                )
            })
        }
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
            return refuse_with(RALLY, || format!("{} has no D-marker to rally off", u.name));
        }
        let p = &self.rules.initiative_passing;
        let mut modifiers = Vec::new();
        if let Some(c) = self.touching_commander(id) {
            let (m, what) = match self.commander(c).row.quality {
                Quality::Exceptional => (p.rally_general_exceptional, ModRule::RallyVeteranGeneral),
                Quality::Average => (p.rally_general_average, ModRule::RallySeasonedGeneral),
                Quality::Uninspiring => (p.rally_general_uninspiring, ModRule::RallyRawGeneral),
            };
            if m != 0 {
                modifiers.push(Modifier::new(m, what));
            }
        }
        let reach = self
            .side_units(1 - u.side)
            .any(|e| self.unit_distance(e.id, id) <= e.move_rate());
        if !reach {
            modifiers.push(Modifier::new(p.rally_out_of_reach, ModRule::RallyOutOfReach));
        }
        if self.passing_alone(id) {
            modifiers.push(Modifier::new(p.rally_alone, ModRule::RallyAlone));
        }
        if p.per_d_marker_rally != 0 {
            modifiers.push(Modifier::new(
                p.per_d_marker_rally * u.d_markers as i32,
                ModRule::DMarkers,
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
            return refuse_with("Glory Days Firing", || {
                format!("{} has fired on this initiative", self.unit(id).name)
            });
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

    /// Added to each die of the unit's fire (so its score to hit is one easier): "Fired on
    /// same target last initiative −1", the target it fired at on its previous own initiative.
    pub(crate) fn passing_fire_bonus(&self, id: UnitId, target: UnitId) -> u32 {
        if !self.initiative_passing() || self.phase != Phase::Command {
            return 0;
        }
        let u = self.unit(id);
        let last = self.player_turn.checked_sub(2).map(|t| (target, t));
        if u.side == self.active && last.is_some() && u.gd_fired_at == last {
            self.rules.initiative_passing.same_target_to_hit.unsigned_abs()
        } else {
            0
        }
    }

    /// Glory Days "Effect of Hits": how many of `net` fire hits the unit takes as D-markers
    /// (recording them); the rest are BPT hits. Also counts the hits landed this phase.
    pub(crate) fn hits_as_d_markers(&mut self, id: UnitId, net: u32, ev: &mut Vec<Event>) -> u32 {
        if !self.initiative_passing() {
            return 0;
        }
        self.change_passing(PassingChange::Landed(self.cmd.passing.landed + net));
        let p = &self.rules.initiative_passing;
        let m = match p.d_marker_policy {
            DMarkerPolicy::MarkersFirst => net.min(p.max_d_markers.saturating_sub(self.unit(id).d_markers)),
            DMarkerPolicy::HitsOnly => 0,
        };
        self.add_d_markers(id, m, DMarkerWhy::Hits, ev);
        m
    }

    fn add_d_markers(&mut self, id: UnitId, n: u32, why: DMarkerWhy, ev: &mut Vec<Event>) {
        let max = self.rules.initiative_passing.max_d_markers;
        let had = self.unit(id).d_markers;
        let n = n.min(max.saturating_sub(had));
        if n == 0 {
            return;
        }
        let total = had + n;
        self.change_unit(id, UnitChange::DMarkers(total));
        ev.push(Event::Passing(PassingEvent::DMarkers {
            unit: id,
            change: n as i32,
            total,
            why,
        }));
    }

    /// The initiative passes (once): the command phase ends when no window is open.
    fn pass_initiative(&mut self, reason: PassReason, ev: &mut Vec<Event>) {
        if self.cmd.passing.passed.is_some() {
            return;
        }
        ev.push(Event::Passing(PassingEvent::InitiativePassed {
            side: self.active,
            reason,
        }));
        self.change_passing(PassingChange::Passed(reason));
        self.change_passing(PassingChange::Activated(None));
        self.finish_orders_but(None);
    }

    /// After every action: a passed initiative ends the command phase once the windows close.
    pub(crate) fn settle_passing(&mut self, ev: &mut Vec<Event>) {
        if self.phase == Phase::Command && self.step == Step::Open && self.cmd.passing.passed.is_some() {
            self.end_command(ev);
        }
    }

    /// Another unit acts: the one activated before may not be activated again this initiative.
    fn interrupt(&mut self, id: Option<UnitId>) {
        self.finish_orders_but(id);
        self.change_passing(PassingChange::Activated(id));
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
            self.pass_initiative(PassReason::ReactionStopped { unit: mover, hits }, ev);
        }
    }

    /// The battle as it would be had `id`'s activation succeeded, with no die rolled: for an
    /// agent weighing what the unit would do with it before risking the roll.
    pub fn with_activation_granted(&self, id: UnitId, purpose: Purpose, into: Ground) -> Result<Battle, Refusal> {
        self.activation_plan(id, purpose, into)?;
        let mut b = self.clone();
        b.begin_activation(id, purpose, into);
        b.grant_activation(id, purpose);
        Ok(b)
    }

    /// An activation is declared: the unit becomes the activated one, for its purpose and the
    /// worst terrain counted; its order state counts the attempt. Returns that terrain.
    fn begin_activation(&mut self, id: UnitId, purpose: Purpose, into: Ground) -> Ground {
        self.interrupt(Some(id));
        let ground = self.passing_terrain(id).max(into);
        self.change_passing(PassingChange::Purpose(purpose, ground));
        self.change_order_or_new(id, u32::MAX, |o| o.count += 1);
        ground
    }

    /// The activation succeeded: one action of its purpose in hand.
    fn grant_activation(&mut self, id: UnitId, purpose: Purpose) {
        let ground = self.cmd.passing.ground;
        self.change_order_or_new(id, u32::MAX, |o| {
            o.credits = 1;
            o.may_charge = purpose == Purpose::Charge;
            // BPT's dense terrain (its own permission) follows from the terrain counted.
            o.may_enter_dense = ground > Ground::Open;
            o.fire_after_manhandle = false;
        });
    }

    /// Carry out a decided activation: its roll (Glory Days "Activation").
    pub(crate) fn do_activate(
        &mut self,
        id: UnitId,
        purpose: Purpose,
        into: Ground,
        plan: RollPlan,
        ev: &mut Vec<Event>,
    ) {
        let ground = self.begin_activation(id, purpose, into);
        let roll = self.dice_mut().d6();
        let success = roll as i32 >= plan.target;
        ev.push(Event::Passing(PassingEvent::ActivationRoll {
            unit: id,
            modifiers: plan.modifiers.clone(),
            target: plan.target,
            roll,
            success,
        }));
        if success {
            self.grant_activation(id, purpose);
            return;
        }
        self.change_order_or_new(id, u32::MAX, |o| {
            o.credits = 0;
            o.finished = true;
        });
        // "Failure to activate a unit to move into or in difficult or godforsaken terrain
        // gains the unit a D-marker" (a move or charge; not a change of formation).
        if self.rules.initiative_passing.failed_in_terrain_marker
            && purpose != Purpose::Formation
            && ground > Ground::Open
        {
            self.add_d_markers(id, 1, DMarkerWhy::FailedActivation(ground), ev);
        }
        self.pass_initiative(PassReason::ActivationFailed { unit: id }, ev);
    }

    /// Glory Days "Melee": a unit activated to charge declares the charge, then takes the
    /// charge test; on a failure it stops 2" from its target and the initiative passes. The
    /// charge as decided (every check made).
    pub(crate) fn do_passing_charge(&mut self, charge: super::charge::ChargePlan, ev: &mut Vec<Event>) {
        let (id, enemy) = (charge.unit, charge.target);
        if self.take_charge_test(&charge, ev) {
            self.spend(id);
            self.declare_charge(charge, false, ev);
            return;
        }
        self.change_order(id, |o| o.credits = 0);
        self.pass_initiative(
            PassReason::ChargeTestFailed {
                unit: id,
                target: enemy,
            },
            ev,
        );
    }

    /// "Moving in/into Difficult Terrain +1 … Godforsaken +2" is the activation's: a charge
    /// (a move into contact) may go only into the terrain its activation counted.
    pub fn check_passing_charge_ground(&self, charge: &super::charge::ChargePlan) -> Result<(), Refusal> {
        let id = charge.unit;
        if !self.initiative_passing() || self.phase != Phase::Command || self.cmd.passing.activated != Some(id) {
            return Ok(());
        }
        let allowed = self.cmd.passing.ground;
        let needs = self.passing_path_ground(id, charge.contact, false);
        if needs > allowed {
            return refuse_with(RULE, || {
                format!(
                    "the charge goes into {needs}; {} was activated for {allowed} only",
                    self.unit(id).name
                )
            });
        }
        Ok(())
    }

    /// May the unit charge on BPT's initiative with the switch on: its charge test can be
    /// passed (Glory Days "Melee": "then pass a charge test")? Always with the switch off.
    pub fn check_initiative_charge_test(&self, id: UnitId, enemy: UnitId) -> Result<(), Refusal> {
        if self.initiative_passing() {
            self.charge_test_plan(id, enemy)?;
        }
        Ok(())
    }

    /// Glory Days "Melee": the charger "must … pass a charge test … If it fails it stops 2"
    /// from its target": roll it (the plan checked); whether it passed. On a failure the
    /// charger stops short, on its way in.
    pub(crate) fn take_charge_test(&mut self, charge: &super::charge::ChargePlan, ev: &mut Vec<Event>) -> bool {
        let (id, enemy) = (charge.unit, charge.target);
        let Ok(plan) = self.charge_test_plan(id, enemy) else {
            return false;
        };
        let roll = self.dice_mut().d6();
        let success = roll as i32 >= plan.target;
        ev.push(Event::Passing(PassingEvent::ChargeTest {
            unit: id,
            enemy,
            modifiers: plan.modifiers,
            target: plan.target,
            roll,
            success,
        }));
        if success {
            return true;
        }
        // It stops 2" from its target, on the way it would have charged (if it was farther).
        let gap = self.rules.initiative_passing.charge_fail_gap;
        let from = self.unit(id).pose;
        let back = charge.held.pos - charge.contact.pos;
        let back = if back.len() > 1e-9 {
            back * (1.0 / back.len())
        } else {
            let d = from.pos - charge.contact.pos;
            d * (1.0 / d.len().max(1e-9))
        };
        let stop = Pose::new(charge.contact.pos + back * gap, charge.contact.facing);
        if self.unit_distance(id, enemy) > gap + 1e-6 && self.check_placement(id, stop, None, true).is_ok() {
            self.change_unit(id, UnitChange::Pose(stop));
            self.change_unit(id, UnitChange::DugIn(false));
            self.refresh_geometry();
            ev.push(Event::Movement(MovementEvent::Moved {
                unit: id,
                from,
                to: stop,
                kind: super::event::MoveKind::Charge,
                cost: from.pos.dist(stop.pos),
            }));
            if self.phase == Phase::Command {
                self.change_passing(PassingChange::Moved(id));
            }
        }
        false
    }

    /// Carry out a decided rally: its roll (Glory Days "Rallying").
    pub(crate) fn do_rally(&mut self, id: UnitId, plan: RollPlan, ev: &mut Vec<Event>) {
        self.interrupt(None);
        let roll = self.dice_mut().d6();
        let success = roll as i32 >= plan.target;
        ev.push(Event::Passing(PassingEvent::RallyRoll {
            unit: id,
            modifiers: plan.modifiers,
            target: plan.target,
            roll,
            success,
        }));
        if success {
            let total = self.unit(id).d_markers - 1;
            self.change_unit(id, UnitChange::DMarkers(total));
            ev.push(Event::Passing(PassingEvent::DMarkers {
                unit: id,
                change: -1,
                total,
                why: DMarkerWhy::Rallied,
            }));
        } else {
            self.pass_initiative(PassReason::RallyFailed { unit: id }, ev);
        }
    }

    /// Carry out a decided fire of the activated unit (Glory Days "Firing").
    pub(crate) fn do_passing_fire(
        &mut self,
        id: UnitId,
        target: UnitId,
        plan: super::fire::FirePlan,
        ev: &mut Vec<Event>,
    ) {
        self.interrupt(None);
        self.change_passing(PassingChange::Fired(id));
        self.change_unit(id, UnitChange::GdFiredAt(Some((target, self.player_turn))));
        let before = self.cmd.passing.landed;
        // The order sequence keeps BPT's "not suppressed and made to fall back by one fire".
        self.change_turn(TurnChange::OrderSeq(self.order_seq + 1));
        self.resolve_fire(plan, FireContext::Order, ev);
        let landed = self.cmd.passing.landed - before;
        if landed < self.rules.initiative_passing.fire_keep_hits {
            self.pass_initiative(PassReason::FireLanded { unit: id, hits: landed }, ev);
        }
        self.open_reaction(id, ev);
    }

    /// The legal command-phase actions with the switch on.
    pub(crate) fn legal_passing(&self, out: &mut Vec<Action>) {
        if self.cmd.passing.passed.is_some() {
            out.push(Action::EndPhase);
            return;
        }
        // The activated unit's action, as its activation's purpose allows.
        if let Some(id) = self.cmd.passing.activated
            && let Some(o) = self.cmd.orders.get(&id)
            && o.credits > 0
            && !o.finished
            && self.unit(id).alive()
        {
            let purpose = self.cmd.passing.purpose.unwrap_or_default();
            if purpose == Purpose::Formation {
                for d in self.candidate_deploys(id) {
                    if self.check_deploy(id, d, false).is_ok() {
                        out.push(Action::Deploy { unit: id, deploy: d });
                    }
                }
            } else {
                for to in self.candidate_moves(id) {
                    if let Ok(chk) = self.check_move(id, to, o.may_enter_dense)
                        && self.check_passing_move(id, to, chk.road).is_ok()
                    {
                        out.push(Action::Move { unit: id, to });
                    }
                }
                self.legal_supports(id, out);
            }
            if o.may_charge {
                for (e, _) in self.visible_enemies(id) {
                    if self
                        .check_charge(id, e)
                        .is_ok_and(|c| self.check_passing_charge_ground(&c).is_ok())
                        && self.charge_test_plan(id, e).is_ok()
                    {
                        out.push(Action::Charge { unit: id, target: e });
                    }
                }
            }
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
            let activate = |purpose, into| Action::Activate {
                unit: u.id,
                purpose,
                into,
            };
            if self.activation_plan(u.id, Purpose::Move, Ground::Open).is_ok() {
                out.push(activate(Purpose::Move, Ground::Open));
                // Each worse level the unit's moves would go into (the one it stands in it
                // counts anyway).
                let under = self.passing_terrain(u.id);
                let needed: std::collections::BTreeSet<Ground> = self
                    .candidate_moves(u.id)
                    .into_iter()
                    .map(|to| self.passing_path_ground(u.id, to, false))
                    .filter(|g| *g > under)
                    .collect();
                for g in needed {
                    if self.activation_plan(u.id, Purpose::Move, g).is_ok() {
                        out.push(activate(Purpose::Move, g));
                    }
                }
                // A charge activation for each level of terrain a charge would go into.
                if self.visible_enemies(u.id).iter().any(|(_, d)| *d <= reach) {
                    let grounds: std::collections::BTreeSet<Ground> = self
                        .visible_enemies(u.id)
                        .into_iter()
                        .filter_map(|(e, _)| self.check_charge(u.id, e).ok())
                        .map(|c| self.passing_path_ground(u.id, c.contact, false).max(under))
                        .chain([under])
                        .collect();
                    for g in grounds {
                        if self.activation_plan(u.id, Purpose::Charge, g).is_ok() {
                            out.push(activate(Purpose::Charge, g));
                        }
                    }
                }
            }
            if self.activation_plan(u.id, Purpose::Formation, Ground::Open).is_ok()
                && self
                    .candidate_deploys(u.id)
                    .into_iter()
                    .any(|d| self.check_deploy(u.id, d, false).is_ok())
            {
                out.push(activate(Purpose::Formation, Ground::Open));
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
