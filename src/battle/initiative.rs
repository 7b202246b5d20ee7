//! The initiative phase and counter-initiative (BPT "Initiative Phase", "Counter-Initiative",
//! "Evading", "Deploying"; DECISIONS "Phases" 1).

use super::action::{Deploy, Refusal, refuse, refuse_with};
use super::event::{Event, KnockOut};
use super::fire::ForcedKind;
use super::optional::Act;
use super::state::*;
use crate::rules::geometry::Pose;

impl Battle {
    /// May unit `id` act on its initiative now? Returns its nearest visible enemy.
    pub fn check_initiative(&self, id: UnitId) -> Result<(UnitId, f64), Refusal> {
        self.check_unit_id(id)?;
        let u = self.unit(id);
        if u.side != self.active || !u.alive() {
            return refuse(
                "BPT Initiative Phase",
                "only the active player's units act on initiative",
            );
        }
        if u.suppressed() {
            return refuse(
                "BPT Initiative Phase",
                "suppressed units may not act on their initiative",
            );
        }
        if u.initiative_turn == Some(self.player_turn) {
            return refuse("BPT Initiative Phase", "a unit acts on its initiative once a turn");
        }
        if u.opportunity_turn.is_some_and(|t| t + 1 == self.player_turn) {
            return refuse(
                "BPT Opportunity Fire",
                "units that made opportunity fire may not use their initiative",
            );
        }
        if self.engaged(id) {
            return refuse("BPT Charge", "a unit in a charge cannot act on initiative");
        }
        // Only an enemy within the distance matters: the nearest seen beyond it refuses alike.
        match self.nearest_visible_enemy_within(id, self.rules.initiative.distance + 1e-9) {
            Some((e, d)) => Ok((e, d)),
            _ => refuse_with("BPT Initiative Phase", || {
                format!(
                    "{} sees no enemy within {:.0} cm",
                    u.name, self.rules.initiative.distance
                )
            }),
        }
    }

    /// Targets equally nearest count as nearest.
    pub(crate) fn is_nearest(&self, id: UnitId, target: UnitId, nearest: f64) -> bool {
        self.visible_enemies(id)
            .iter()
            .any(|(e, d)| *e == target && *d <= nearest + 1e-9)
    }

    /// Whom unit `id` may fire at on its initiative, `nearest` being its nearest visible enemy's
    /// distance: the nearest visible enemy (ties count alike) and, for artillery, BPT's
    /// "Counter-Battery Fire": "the closest unit or the closest artillery unit (ignoring the
    /// others)", within the initiative distance (**Decision**).
    pub fn initiative_fire_targets(&self, id: UnitId, nearest: f64) -> Vec<UnitId> {
        let seen = self.visible_enemies(id);
        let mut out: Vec<UnitId> = seen
            .iter()
            .take_while(|(_, d)| *d <= nearest + 1e-9)
            .map(|(e, _)| *e)
            .collect();
        if self.unit(id).is_artillery() {
            let mut guns = seen
                .iter()
                .filter(|(e, d)| self.unit(*e).is_artillery() && *d <= self.rules.initiative.distance + 1e-9);
            if let Some(&(_, gd)) = guns.next() {
                for (e, d) in seen.iter().filter(|(e, _)| self.unit(*e).is_artillery()) {
                    if *d <= gd + 1e-9 && !out.contains(e) {
                        out.push(*e);
                    }
                }
            }
        }
        out
    }

    /// May `unit` move in support of `friend`'s charge on its initiative (BPT "Support": "each
    /// unit may only support one charge during the initiative phase")? Returns where it goes.
    pub fn check_initiative_support(&self, unit: UnitId, friend: UnitId) -> Result<Pose, Refusal> {
        self.check_unit_id(unit)?;
        self.check_unit_id(friend)?;
        let u = self.unit(unit);
        if u.side != self.active || u.suppressed() || u.initiative_turn == Some(self.player_turn) {
            return refuse("BPT Support", "this unit cannot support on initiative now");
        }
        self.check_support(unit, friend)
    }

    /// BPT "Evading": exhausted units cannot evade; towed guns need their limber.
    pub fn check_evade(&self, id: UnitId) -> Result<(), Refusal> {
        let u = self.unit(id);
        if u.exhausted {
            return refuse("BPT Exhaustion", "exhausted units cannot evade");
        }
        self.optional_check(id, Act::Evade)?;
        if u.is_artillery() && !u.limbered && !u.has_limber {
            return refuse("BPT Evading", "towed guns without transport cannot evade");
        }
        if u.move_rate() <= 0.0 && !(u.is_artillery() && u.has_limber) {
            return refuse_with("BPT Evading", || format!("{} cannot move", u.name));
        }
        if u.formation == crate::rules::formation::Formation::Square {
            return refuse("BPT Square", "a square cannot move");
        }
        // A gun limbers up to evade: its limber needs room (no base may overlap another).
        if u.is_artillery() && !u.limbered {
            self.check_deploy(id, Deploy::Limber, true)
                .map_err(|r| Refusal::with("BPT Evading", || format!("it cannot limber up to evade: {}", r.reason)))?;
        }
        Ok(())
    }

    /// Move directly away from `enemy`, a full move (guns limber and go half), turning to
    /// face it. Returns the distance moved.
    pub(crate) fn evade(&mut self, id: UnitId, enemy: UnitId, ev: &mut Vec<Event>) -> f64 {
        let frac = self.rules.initiative.evade_mounting_fraction;
        let mut allowance = self.unit(id).move_rate();
        if self.unit(id).is_artillery() && !self.unit(id).limbered {
            self.do_deploy(id, Deploy::Limber, ev);
            allowance = self.unit(id).move_rate() * frac;
        }
        // BPT "Evading": "Dismounted cavalry may mount then move half-distance provided a horse
        // holder stand is in base-contact with their unit command stand, otherwise they evade
        // on foot." **Decision**: the horse holders stand with the unit; it mounts when that
        // takes it farther and its mounted bases fit.
        if let Some(mounted) = self.unit(id).mounted_row.as_ref()
            && mounted.movement * frac > allowance
            && self.check_deploy(id, Deploy::Mount, true).is_ok()
        {
            self.do_deploy(id, Deploy::Mount, ev);
            allowance = self.unit(id).move_rate() * frac;
        }
        let u = self.unit(id);
        let away = (u.pose.pos - self.unit(enemy).pose.pos).norm();
        let away = if away == crate::rules::geometry::V2::ZERO {
            -u.pose.forward()
        } else {
            away
        };
        let face = (-away).angle();
        let dist = self.travel_limit(id, away, allowance, face, 0.0);
        self.forced_move(id, away, dist, Some(face), ForcedKind::Evade, ev);
        dist
    }

    /// May `unit` answer the charge waiting for its counter-initiative with `deploy`? BPT
    /// "Charging": "If charged, artillery may counter initiative by man handling up to 90
    /// degrees to face a charge": only the charged gun, unlimbered, and only a pivot of at most
    /// `gun_face_charge_deg`; its bases must fit where they turn. **Decision**: as the target's
    /// evade, in the command phase's response too; it is the gun's one answer (it does not
    /// fire as well).
    pub fn check_counter_deploy(&self, unit: UnitId, deploy: Deploy) -> Result<(), Refusal> {
        self.check_unit_id(unit)?;
        let Step::CounterInitiative { target, eligible, .. } = &self.step else {
            return refuse("BPT Counter-Initiative", "no charge is waiting for an answer");
        };
        if !eligible.contains(&unit) {
            return refuse(
                "BPT Counter-Initiative",
                "only units under charge or close to it may respond, once",
            );
        }
        let Deploy::Pivot(facing) = deploy else {
            return refuse(
                "BPT Counter-Initiative",
                "units under charge fire at or evade the charger; a charged gun may man-handle to face it",
            );
        };
        let u = self.unit(unit);
        if unit != *target || !u.is_artillery() || u.limbered {
            return refuse(
                "BPT Charging: artillery",
                "only a charged, unlimbered gun man-handles to face the charge",
            );
        }
        let most = self.rules.initiative.gun_face_charge_deg;
        let turn = crate::rules::geometry::wrap_angle(facing - u.pose.facing)
            .abs()
            .to_degrees();
        if !facing.is_finite() || turn > most + 1e-6 {
            return refuse_with("BPT Charging: artillery", || {
                format!("if charged, artillery may man-handle up to {most:.0} degrees to face a charge, not {turn:.0}")
            });
        }
        let mut after = u.clone();
        after.pose.facing = facing;
        let rects = self.compute_geom(&after).rects;
        if rects.iter().any(|r| r.corners().iter().any(|c| !self.on_table(*c))) {
            return refuse("BPT Battlefield", "the gun would turn off the table");
        }
        if let Some(o) = self.overlapping_unit(unit, &rects) {
            return refuse_with("BPT Movement: no overlapping bases", || {
                format!("turned, the gun would overlap {}", self.unit(o).name)
            });
        }
        Ok(())
    }

    /// The pivot a charged gun is offered: to face the charger square (its facing turned
    /// about), or as far towards that as it may turn; none if it faces it already.
    pub fn counter_pivot(&self, gun: UnitId, charger: UnitId) -> Option<Deploy> {
        use crate::rules::geometry::wrap_angle;
        let now = self.unit(gun).pose.facing;
        let want = wrap_angle(self.unit(charger).pose.facing + std::f64::consts::PI - now);
        let most = self.rules.initiative.gun_face_charge_deg.to_radians();
        let turn = want.clamp(-most, most);
        (turn.abs() > 0.05).then(|| Deploy::Pivot(wrap_angle(now + turn)))
    }

    /// An evader caught within the minimum gap of where the charger ends is knocked out.
    pub(crate) fn check_evader_caught(&mut self, evader: UnitId, charger: UnitId, ev: &mut Vec<Event>) {
        if self.unit(evader).alive()
            && self.unit(charger).alive()
            && self.unit_distance(evader, charger) < self.rules.initiative.evade_min_gap
        {
            self.knock_out(evader, KnockOut::CaughtEvading, ev);
        }
    }
}
