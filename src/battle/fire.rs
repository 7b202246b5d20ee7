//! Firing (BPT "Firing", "Testing For Casualties"; DECISIONS "Firing (BPT)"): the dice a unit
//! rolls, the score to hit, saves, hits, suppression, fall-back and knock-out.

use super::action::{Refusal, refuse, refuse_with};
use super::event::{
    Deployment, Event, FireCause, FireHow, FireWhy, ForcedInto, KnockOut, ModRule, Modifier, MoveKind, RetiredWhy,
    SuppressedWhy,
};
use super::optional::Act;
use super::state::*;
use crate::battle::event::families::*;
use crate::data::army::{Arm, Trait};
use crate::data::scenario::Grade;
use crate::rules::formation::Formation;
use crate::rules::geometry::{self, Aspect, Pose, Rect, V2};
use crate::rules::layout::{self, StandShape};
use crate::rules::params::Cover;
use crate::rules::terrain::LinearKind;

/// Why a unit fires: it decides the nearest-target rule and the fall-back exception.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireContext {
    Initiative,
    Order,
    Opportunity,
    Counter,
    Blunder,
}

impl FireContext {
    /// The fire's cause as its event keeps it, rolled `how`.
    pub fn cause(self, how: FireHow) -> FireCause {
        let why = match self {
            FireContext::Initiative => FireWhy::Initiative,
            FireContext::Order => FireWhy::Order,
            FireContext::Opportunity => FireWhy::Opportunity,
            FireContext::Counter => FireWhy::Counter,
            FireContext::Blunder => FireWhy::OpenFire,
        };
        FireCause::new(why, how)
    }
}

/// Everything decided before the dice are rolled: what the fire preview shows.
#[derive(Clone, Debug, PartialEq)]
pub struct FirePlan {
    pub firer: UnitId,
    pub target: UnitId,
    pub range: f64,
    pub distance: f64,
    pub base_dice: i32,
    pub modifiers: Vec<Modifier>,
    pub dice: u32,
    pub aspect: Aspect,
    pub cover: Cover,
    pub to_hit: u32,
    /// Added to each die (first fire: ACW and Napoleonic special rules).
    pub roll_bonus: u32,
    pub save: Option<u32>,
    /// Guns charged from the front fire canister (BPT ACW notes 6, 7).
    pub canister: bool,
    /// Shell fused to burst in the air (BPT "Air Burst Shell Fire").
    pub air_burst: bool,
    /// Added to the score to hit: *Glory Days!* D-markers and "firer moved on this initiative"
    /// (switch `InitiativePassing`; always 0 with it off).
    pub penalty: u32,
}

impl FirePlan {
    /// The score to hit before the roll bonus: BPT's, worse by the penalty (a 6 still hits).
    pub fn score(&self) -> u32 {
        self.penalised(self.to_hit)
    }
    /// A score to hit made worse by this fire's penalty (a 6 still hits): every strike of the
    /// fire takes it, the guns' balls, bursts and blast-throughs too.
    pub fn penalised(&self, score: u32) -> u32 {
        if self.penalty == 0 {
            score
        } else {
            (score + self.penalty).min(score.max(6))
        }
    }
    /// The effective score needed on the die, after the roll bonus.
    pub fn effective_to_hit(&self) -> u32 {
        self.score().saturating_sub(self.roll_bonus).max(1)
    }
}

impl Battle {
    /// A unit's weapon range in cm (army list "Attack" second number; mounted cavalry 2 cm).
    pub fn weapon_range(&self, u: &Unit) -> f64 {
        if u.is_cavalry() && u.mounted() {
            self.rules
                .fire
                .mounted_range
                .min(u.row.range.max(self.rules.fire.mounted_range))
        } else if u.row.has(Trait::Gatling) {
            u.row.range.min(self.rules.fire.gatling_range)
        } else {
            u.row.range
        }
    }

    /// Stands that may fire (BPT formations: march column 1, attack column the front 2,
    /// square one face).
    pub fn firing_stands(&self, u: &Unit) -> u32 {
        let f = &self.rules.fire;
        // BPT "Unit Organization": dismounted cavalry have "1 stand ... replaced with the
        // non-firing horse holder stand while dismounted" (ACW note 3: "the horse holder stand").
        let stands = if u.row.has(Trait::Dismounted) {
            u.stands.saturating_sub(f.horse_holders).max(1)
        } else {
            u.stands
        };
        match u.formation {
            _ if u.is_artillery() => u.stands,
            Formation::MarchColumn => stands.min(f.march_column_stands),
            Formation::AttackColumn => stands.min(f.attack_column_stands),
            Formation::Square => stands.div_ceil(4),
            _ => stands,
        }
    }

    /// For a unit with a refused flank: how many of its stands bear on `target` — the line's
    /// middle if the target is in the main cone, and each refused stand whose own cone holds it.
    /// `None` for a unit with no refused flank.
    pub fn bearing_stands(&self, firer: UnitId, target: UnitId, range: f64) -> Option<u32> {
        let u = self.unit(firer);
        if u.refused == (false, false) || u.is_artillery() {
            return None;
        }
        let g = &self.geom[firer as usize];
        let half = self.rules.visibility.fire_cone_half_deg.to_radians();
        let targets = self.rects(target);
        let n = g.fighting;
        let in_cone = |front: (V2, V2), facing: f64| {
            targets
                .iter()
                .any(|r| geometry::rect_in_cone(front, facing, half, range + 0.01, r))
        };
        let mut count = 0;
        let (l, r) = (usize::from(u.refused.0), n - usize::from(u.refused.1));
        if in_cone(g.front, u.pose.facing) {
            count += (r - l) as u32;
        }
        for (on, i) in [(u.refused.0, 0), (u.refused.1, n - 1)] {
            if on && in_cone(g.rects[i].front_edge(), g.rects[i].facing) {
                count += 1;
            }
        }
        Some(count)
    }

    /// The rear edge of a unit's formation (for flank/rear).
    pub fn rear_edge(&self, id: UnitId) -> (V2, V2) {
        rear_of(&self.geom[id as usize], self.unit(id).pose)
    }

    /// The enemies among `enemies` that could charge `id`, were it standing at `pose`, in its
    /// flank or rear: within the charge distance of its bases and wholly outside its fire cone
    /// (the aspect `aspect_of` gives; a march column has no front, a square no flank). Guns
    /// and suppressed units do not charge. The scheduler's sense of danger: a line that halts
    /// with an enemy regiment at its shoulder loses the charge that follows.
    pub fn flank_threats_at(&self, id: UnitId, pose: Pose, enemies: &[UnitId]) -> usize {
        let reach = self.rules.charge.distance;
        let here = self.unit(id);
        if here.formation == Formation::Square {
            return 0;
        }
        // Only enemies that could be within reach wherever the unit stands at `pose` (its bases
        // now, moved as far as its centre and turned any way) are looked at closely.
        let (lo, hi) = self.geom[id as usize].bbox;
        let slack = reach + pose.pos.dist(here.pose.pos) + (hi.x - lo.x).max(hi.y - lo.y);
        let near: Vec<UnitId> = enemies
            .iter()
            .copied()
            .filter(|&e| {
                let them = self.unit(e);
                !them.is_artillery() && !them.suppressed() && them.alive() && !self.unit_box_apart(e, (lo, hi), slack)
            })
            .collect();
        if near.is_empty() {
            return 0;
        }
        let mut u = here.clone();
        u.pose = pose;
        let g = self.compute_geom(&u);
        let half = self.rules.visibility.fire_cone_half_deg.to_radians();
        let rear = rear_of(&g, pose);
        let column = u.formation == Formation::MarchColumn;
        near.into_iter()
            .filter(|&e| {
                if self.unit_box_apart(e, g.bbox, reach) {
                    return false;
                }
                let theirs = self.rects(e);
                let within = theirs.iter().any(|t| g.rects.iter().any(|m| m.distance(t) <= reach));
                within
                    && (column
                        || theirs
                            .iter()
                            .all(|t| geometry::aspect(g.front, rear, pose.facing, half, t) != Aspect::Front))
            })
            .count()
    }

    /// Aspect of an attack from `from` on `target` (DECISIONS "Arcs"; BPT "March Column":
    /// for targeting purposes its front counts as flank).
    pub fn aspect_of(&self, target: UnitId, from: &Rect) -> Aspect {
        let t = self.unit(target);
        let g = &self.geom[target as usize];
        let half = self.rules.visibility.fire_cone_half_deg.to_radians();
        // BPT "Square": "an all round defence" — every side is a front.
        if t.formation == Formation::Square {
            return Aspect::Front;
        }
        let mut a = geometry::aspect(g.front, self.rear_edge(target), t.pose.facing, half, from);
        // A refused flank stand faces the flank: attacks inside its own cone meet a front.
        for (on, i) in [(t.refused.0, 0), (t.refused.1, g.fighting.saturating_sub(1))] {
            let r = g.rects[i];
            if on && a != Aspect::Front && geometry::rect_in_cone(r.front_edge(), r.facing, half, 1e4, from) {
                a = Aspect::Front;
            }
        }
        if t.formation == Formation::MarchColumn && a == Aspect::Front {
            Aspect::Flank
        } else {
            a
        }
    }

    /// Aspect of `firer`'s fire on `target`, judged from the firing unit as a whole (BPT
    /// "Flank/rear Determination": "If a firing unit is 45-90 degrees to side of the fire cone
    /// of the target unit it is a flank shot, if the firer is 180 degrees to the target fire
    /// cone it is a rear shot"; DECISIONS "Arcs": "a firer outside the target's fire cone").
    /// **Decision** (`bpt-4`): a front shot when any of its bases meets the target at its front
    /// ([`Self::aspect_of`] each), a rear shot when every base is behind the target, a flank
    /// shot otherwise. Until `bpt-3` only the firer's base nearest the target was looked at,
    /// so a line with four of its five bases in the target's cone could fire into its flank.
    pub fn fire_aspect(&self, target: UnitId, firer: UnitId) -> Aspect {
        let mut all_rear = true;
        for r in self.rects(firer) {
            match self.aspect_of(target, r) {
                Aspect::Front => return Aspect::Front,
                Aspect::Flank => all_rear = false,
                Aspect::Rear => {}
            }
        }
        if all_rear { Aspect::Rear } else { Aspect::Flank }
    }

    /// The nearest base of unit `id` to unit `other`.
    pub fn nearest_rect(&self, id: UnitId, other: UnitId) -> Rect {
        let mine = self.rects(id);
        let theirs = self.rects(other);
        *mine
            .iter()
            .min_by(|a, b| {
                let da = theirs.iter().map(|t| a.distance(t)).fold(f64::INFINITY, f64::min);
                let db = theirs.iter().map(|t| b.distance(t)).fold(f64::INFINITY, f64::min);
                da.total_cmp(&db)
            })
            .expect("a unit has bases")
    }

    /// Cover of a target against fire from `from` (BPT "Scoring Hits").
    pub fn cover_of(&self, target: UnitId, from: V2) -> Cover {
        let t = self.unit(target);
        let f = &self.rules.fire;
        let mut cover = if t.dug_in { f.dug_in_cover } else { Cover::Open };
        for kind in self.terrain.area_kinds_at(t.pose.pos) {
            if let Some((_, c)) = f.area_cover.iter().find(|(k, _)| *k == kind) {
                cover = cover.max(*c);
            }
        }
        let contact = self.rules.visibility.contact;
        for r in self.rects(target) {
            for li in self.terrain.linear_touching(r, contact) {
                let lin = &self.terrain.linears[li];
                let obstacle = matches!(lin.kind, LinearKind::Wall | LinearKind::Fence | LinearKind::Hedge);
                // Behind it: the line of fire crosses it, or the obstacle lies nearer the firer.
                if obstacle
                    && (crate::rules::terrain::polyline_crossing(&lin.points, from, r.center).is_some()
                        || crate::rules::terrain::polyline_distance_to_point(&lin.points, from) < from.dist(r.center))
                {
                    cover = cover.max(f.obstacle_cover);
                }
            }
        }
        cover
    }

    /// Work out a fire without rolling: the preview and the resolution share this.
    pub fn fire_plan(&self, firer: UnitId, target: UnitId, ctx: FireContext) -> FirePlan {
        let fu = self.unit(firer);
        let tu = self.unit(target);
        let fr = &self.rules.fire;
        let distance = self.unit_distance(firer, target);
        // ACW notes 6, 7: a gun that is itself charged fires canister; so does a gun loaded
        // with it (Hardtack).
        let canister =
            self.uses_ammo(firer) && self.ammo_for(firer, ctx) == Some(crate::data::scenario::Ammo::Canister);
        let range = if canister {
            self.rules_canister_range()
        } else {
            self.weapon_range(fu)
        };
        let stands = self
            .bearing_stands(firer, target, range)
            .unwrap_or_else(|| self.firing_stands(fu)) as i32;
        let per_stand = if canister {
            self.canister_attacks(fu) as i32
        } else {
            fu.row.attacks as i32
        };
        let base_dice = per_stand * stands;
        let mut modifiers = Vec::new();
        if fu.formation == Formation::ExtendedLine && !fu.is_artillery() {
            modifiers.push(Modifier::new(fr.extended_line_firer, ModRule::ExtendedLineFirer));
        }
        if tu.formation == Formation::ExtendedLine {
            modifiers.push(Modifier::new(fr.extended_line_target, ModRule::ExtendedLineTarget));
        }
        let high_angle = fu.row.has(Trait::Howitzer) || fu.row.has(Trait::Mortar);
        if !canister && !high_angle && distance <= range / 2.0 {
            modifiers.push(Modifier::new(fr.half_range, ModRule::HalfRange));
        }
        let from = self.nearest_rect(firer, target);
        let aspect = self.fire_aspect(target, firer);
        if aspect != Aspect::Front {
            modifiers.push(Modifier::new(fr.flank_rear, ModRule::FireFlankRear));
        }
        if fu.disordered(self.player_turn) {
            modifiers.push(Modifier::new(fr.disordered_attacks, ModRule::DisorderedFire));
        }
        if tu.formation == Formation::Square {
            if fu.is_artillery() {
                modifiers.push(Modifier::new(
                    fr.square_artillery_per_stand * stands,
                    ModRule::SquareArtillery,
                ));
            } else if fu.row.arm == Arm::Infantry {
                modifiers.push(Modifier::new(fr.square_infantry, ModRule::SquareInfantry));
            }
        }
        if let Some(c) = self.touching_commander(firer) {
            let bonus = self.commander(c).row.attack_bonus as i32;
            if bonus > 0 {
                modifiers.push(Modifier::new(bonus, ModRule::CommandPresence));
            }
        }
        if !canister && fu.row.has(Trait::ExtraAttack) {
            modifiers.push(Modifier::new(1, ModRule::NapoleonicExtraDie));
        }
        let dice = (base_dice + modifiers.iter().map(|m| m.amount).sum::<i32>()).max(0) as u32;
        let mut cover = self.cover_of(target, from.center);
        // ACW notes 6, 7: artillery treats soft cover as open and hard as soft.
        if fu.is_artillery() {
            cover = match cover {
                Cover::Hard => Cover::Soft,
                _ => Cover::Open,
            };
        }
        let to_hit = match cover {
            Cover::Open => fr.to_hit_open,
            Cover::Soft => fr.to_hit_soft,
            Cover::Hard => fr.to_hit_hard,
        };
        // BPT "American Civil War Special Rules" and "Napoleonic Special Rules" alike: "All
        // units receive a +1 to hit die roll modifier the first time it fires in the game".
        let roll_bonus =
            if !fu.has_fired { fr.first_fire_roll_bonus } else { 0 } + self.passing_fire_bonus(firer, target);
        let mut save = tu.row.save.map(u32::from);
        if tu.formation == Formation::AttackColumn || tu.formation == Formation::Square {
            save = None; // BPT: attack column and square get no saves against fire
        }
        if aspect != Aspect::Front {
            save = save.map(|s| if s >= 6 { 6 } else { (s + fr.flank_save_worse).min(6) });
        }
        let save = self.save_in_construction(target, save);
        let penalty = self.passing_fire_penalty(firer);
        FirePlan {
            firer,
            target,
            range,
            distance,
            base_dice,
            modifiers,
            dice,
            aspect,
            cover,
            to_hit,
            roll_bonus,
            save,
            canister,
            air_burst: self.uses_ammo(firer)
                && self.ammo_for(firer, ctx) == Some(crate::data::scenario::Ammo::AirBurst),
            penalty,
        }
    }

    fn rules_canister_range(&self) -> f64 {
        self.rules.artillery.canister_range
    }

    /// ACW notes 6, 7: 3 attacks a smoothbore gun, 2 a rifled one.
    fn canister_attacks(&self, u: &Unit) -> u32 {
        self.rules.artillery.canister_attacks(!u.row.has(Trait::Rifled))
    }

    /// BPT "Firing": "Command units and infantry on foot may not be fired over by artillery
    /// unless the artillery is on higher elevation or the artillery is a howitzer or mortar on
    /// the same elevation. All other troops are prohibited from firing over other units."
    /// **Decision**: a line of fire runs from the middle of a firing base's front edge to the
    /// nearest point of the target; the unit may fire while one of its bases has a line that
    /// crosses no base in the way. In the way of small arms: every other unit, friend or foe
    /// (skirmishers and unlimbered guns too, which do not block sight), and every commander.
    /// In the way of artillery: commanders and units on foot, unless the gun stands higher
    /// (howitzers and mortars: at least as high). Returns the name of what is in the way.
    pub fn fired_over(&self, firer: UnitId, target: UnitId) -> Option<String> {
        let fu = self.unit(firer);
        let g = &self.geom[firer as usize];
        let n = g.fighting.max(1).min(g.rects.len());
        let trects = self.rects(target);
        let arty = fu.is_artillery();
        let high_angle = fu.row.has(Trait::Howitzer) || fu.row.has(Trait::Mortar);
        let mut in_way = None;
        for r in &g.rects[..n] {
            let (l, rt) = r.front_edge();
            let a = l.lerp(rt, 0.5);
            let b = trects
                .iter()
                .map(|t| t.closest_point(a))
                .min_by(|x, y| x.dist(a).total_cmp(&y.dist(a)))?;
            let gun = self.los.elevation(a);
            // The gun fires over it: higher ground, or high-angle fire from the same level.
            let over = |p: V2| {
                let h = self.los.elevation(p);
                gun > h || (high_angle && gun == h)
            };
            let line = geometry::points_box([a, b]);
            let crosses = |rect: &Rect| rect.clip_segment(a, b, 0.01).is_some();
            let unit = self.alive_units().find(|o| {
                o.id != firer
                    && o.id != target
                    && !o.hidden
                    && !(arty && (!o.on_foot() || over(o.pose.pos)))
                    && !self.unit_box_apart(o.id, line, 0.0)
                    && self.rects(o.id).iter().any(crosses)
            });
            let what = unit.map(|o| o.name.clone()).or_else(|| {
                self.commanders
                    .iter()
                    .filter(|c| c.alive() && !(arty && over(c.pos)))
                    .find(|c| crosses(&self.commander_rect(c)))
                    .map(|c| c.name.clone())
            });
            match what {
                None => return None,
                Some(w) => in_way = Some(w),
            }
        }
        in_way
    }

    /// Whether `id` may stand in square: infantry of an army that uses it (not the ACW), not
    /// poor troops (BPT "Square": "Really poor troops whose training is poor or irregular foot
    /// troops may not form square"), nor infantry of Napoleonic note 24 ("May not form square").
    pub fn may_form_square(&self, id: UnitId) -> bool {
        let u = self.unit(id);
        u.row.arm == Arm::Infantry
            && !u.row.has(Trait::Dismounted)
            && !u.row.has(Trait::NoSquare)
            && u.grade != Grade::Poor
            && !self.sides[u.side].army.starts_with("ACW")
    }

    /// BPT "Square": "If an infantry unit is the target of shooting attacks, and the target
    /// unit has enemy cavalry within 30cm, and no friendly cavalry units are within 30cm, that
    /// infantry unit must form square". **Decision**: mounted cavalry count; it forms square
    /// before the fire is rolled, where its bases fit (a forced formation change, no order);
    /// a unit that may not form square (poor, ACW) or has no room stays as it is. Returns
    /// whether it formed square.
    pub(crate) fn forced_square(&mut self, id: UnitId, ev: &mut Vec<Event>) -> bool {
        if !self.square_forced_on(id) {
            return false;
        }
        self.stand_in_square(id);
        ev.push(Event::Movement(MovementEvent::Deployed {
            unit: id,
            what: Deployment::SquareAgainstCavalry,
        }));
        true
    }

    /// Whether a fire at `id` now would first force it into square ([`Battle::forced_square`]),
    /// changing nothing.
    pub fn square_forced_on(&self, id: UnitId) -> bool {
        let u = self.unit(id);
        if u.formation == Formation::Square || !u.alive() || !self.may_form_square(id) {
            return false;
        }
        let reach = self.rules.fire.square_cavalry_threat;
        let side = u.side;
        let cavalry_near = |s: SideId| {
            self.side_units(s)
                .any(|c| c.is_cavalry() && c.mounted() && self.unit_distance(id, c.id) <= reach)
        };
        if !cavalry_near(1 - side) || cavalry_near(side) {
            return false;
        }
        let mut after = self.unit(id).clone();
        after.formation = Formation::Square;
        after.refused = (false, false);
        let rects = self.compute_geom(&after).rects;
        !(rects.iter().any(|r| r.corners().iter().any(|c| !self.on_table(*c)))
            || self.overlapping_unit(id, &rects).is_some())
    }

    fn stand_in_square(&mut self, id: UnitId) {
        self.change_unit(id, UnitChange::Formation(Formation::Square));
        self.change_unit(id, UnitChange::Refused((false, false)));
        self.refresh_geometry();
    }

    /// The battle a fire at `target` is rolled in, for the fire previews (the odds shown, the
    /// scheduler's judgement): this one, or, when the fire would first force the target into
    /// square (BPT "Square", [`Battle::forced_square`]), a copy with it in square, so the
    /// plan, the dice and the expected hits are those rolled (its square's dice, no saves, an
    /// all-round front). Whether the fire is legal is asked of this battle ([`Battle::check_fire`]),
    /// as the resolution does. Until issue 64 the previews used the target's formation before
    /// the square.
    pub fn as_fired_on(&self, target: UnitId) -> std::borrow::Cow<'_, Battle> {
        if self.square_forced_on(target) {
            let mut b = self.clone();
            b.stand_in_square(target);
            std::borrow::Cow::Owned(b)
        } else {
            std::borrow::Cow::Borrowed(self)
        }
    }

    /// May `firer` fire at `target` now (ignoring whose turn it is)?
    pub fn check_fire(&self, firer: UnitId, target: UnitId, ctx: FireContext) -> Result<FirePlan, Refusal> {
        let fu = self.unit(firer);
        let tu = self.unit(target);
        if !fu.alive() || !tu.alive() {
            return refuse("BPT Knock-Out", "a knocked-out unit can neither fire nor be fired at");
        }
        if fu.side == tu.side {
            return refuse("BPT Firing", "units fire at enemy units");
        }
        if tu.hidden {
            return refuse(
                "BPT Scouting Cavalry: hidden set-up",
                "that enemy has not been found yet",
            );
        }
        if fu.suppressed() && ctx != FireContext::Blunder {
            return refuse("BPT Suppression", "suppressed units cannot do anything");
        }
        self.optional_check(firer, Act::Fire)?;
        if fu.row.attacks == 0 || fu.row.arm == Arm::Transport {
            return refuse_with("BPT Army Lists", || format!("{} has no attacks", fu.name));
        }
        if fu.is_artillery() && fu.limbered {
            return refuse("BPT Limbered or Unlimbered", "limbered guns cannot fire");
        }
        if self.uses_ammo(firer) && self.ammo_for(firer, ctx).is_none() {
            return refuse_with("Hardtack: loading", || {
                format!("{} is not loaded: load shot, canister or shell first", fu.name)
            });
        }
        if self.engaged(firer) {
            return refuse("BPT Charge", "a unit in a charge fights, it does not fire");
        }
        if let Err(b) = self.los.sees(&self.sighting(firer), &self.sighting(target)) {
            return refuse_with("BPT Line of Sight", || {
                format!("{} cannot see {}: {:?}", fu.name, tu.name, b)
            });
        }
        let plan = self.fire_plan(firer, target, ctx);
        if plan.distance > plan.range + 1e-9 {
            return refuse_with("BPT Firing: range", || {
                format!(
                    "{} is {:.1} cm away; range is {:.0} cm",
                    tu.name, plan.distance, plan.range
                )
            });
        }
        let g = &self.geom[firer as usize];
        let half = self.rules.visibility.fire_cone_half_deg.to_radians();
        let all_round = fu.formation == Formation::Square;
        let refused_ok = self.bearing_stands(firer, target, plan.range).map(|n| n > 0);
        if refused_ok == Some(false) {
            return refuse_with("BPT Weapons Firing Cone", || {
                format!("{} is outside every fire cone", tu.name)
            });
        }
        if !all_round
            && refused_ok.is_none()
            && !self
                .rects(target)
                .iter()
                .any(|r| geometry::rect_in_cone(g.front, fu.pose.facing, half, plan.range + 0.01, r))
        {
            return refuse_with("BPT Weapons Firing Cone", || {
                format!("{} is outside the 30° fire cone", tu.name)
            });
        }
        // DECISIONS "canister with blast-through" 2: "The primary target is the nearest enemy
        // unit in the cone" (the blast-through then carries on behind it).
        if plan.canister
            && let Some((near, d)) = self.visible_enemies(firer).into_iter().find(|(e, d)| {
                *d <= plan.range + 1e-9
                    && self
                        .rects(*e)
                        .iter()
                        .any(|r| geometry::rect_in_cone(g.front, fu.pose.facing, half, plan.range + 0.01, r))
            })
            && near != target
            && d < plan.distance - 1e-9
        {
            return refuse_with("DECISIONS canister: the nearest enemy in the cone", || {
                format!(
                    "canister's first target is the nearest enemy in the cone: {} is nearer",
                    self.unit(near).name
                )
            });
        }
        if let Some(what) = self.fired_over(firer, target) {
            return refuse_with("BPT Firing: firing over other units", || {
                format!("{what} is in the line of fire")
            });
        }
        if plan.dice == 0 {
            return refuse("BPT Firing Modifiers", "no attack dice left after modifiers");
        }
        // The target's own cover (before artillery's "soft as open"): woods, scrub, orchards and
        // walls, fences or hedges in front keep it out of open ground.
        if plan.air_burst && self.cover_of(target, self.nearest_rect(firer, target).center) != Cover::Open {
            return refuse_with("BPT Air Burst Shell Fire", || {
                format!("air burst is fired into troops in open ground; {} is in cover", tu.name)
            });
        }
        // BPT "Howitzers" (ACW note 6): they "cause damage against artillery, infantry and
        // cavalry in the open only", or in cover "if using air burst".
        if fu.row.has(crate::data::army::Trait::Howitzer)
            && !plan.air_burst
            && !plan.canister
            && self.cover_of(target, self.nearest_rect(firer, target).center) != Cover::Open
        {
            return refuse_with("BPT Howitzers", || {
                format!(
                    "howitzers harm troops in the open only (in cover only by air burst); {} is in cover",
                    tu.name
                )
            });
        }
        if plan.canister
            && let Some(f) = self.friend_in_canister_path(&plan)
        {
            return refuse_with("DECISIONS Artillery: canister", || {
                format!(
                    "{} is in the canister's path: the gun may not fire it",
                    self.unit(f).name
                )
            });
        }
        Ok(plan)
    }

    /// Roll a planned fire and apply its results.
    pub(crate) fn resolve_fire(&mut self, plan: FirePlan, ctx: FireContext, ev: &mut Vec<Event>) {
        self.resolve_volley(vec![plan], ctx, ev);
    }

    /// Units fire at one target, their attacks rolled together (BPT "Opportunity Fire": "When
    /// firing multiple units at a single target, roll all the attacks together"; one unit is
    /// the plain case): each firer's dice at its own score and the target's saves against it,
    /// then the hits after saves taken as one fire, one fewer a firer if the target is prone,
    /// with one suppression test at the easiest score among them, falling back from the
    /// nearest firer. A gun that loads Hardtack's ammunition fires alone, by Hardtack.
    pub(crate) fn resolve_volley(&mut self, plans: Vec<FirePlan>, ctx: FireContext, ev: &mut Vec<Event>) {
        let Some(target) = plans.first().map(|p| p.target) else {
            return;
        };
        self.optional_fire_begins(); // BPT "Prone Movement": one hit off per unit firing
        // BPT "Scouting Cavalry": a scout fired upon leaves the table before any die is rolled.
        if self.retire_scout(target, RetiredWhy::FiredUpon, ev) {
            for p in &plans {
                self.change_unit(p.firer, UnitChange::HasFired(true));
                self.change_unit(p.firer, UnitChange::DugIn(false));
                if self.uses_ammo(p.firer) && ctx != FireContext::Counter {
                    self.change_unit(p.firer, UnitChange::Loaded(None));
                }
            }
            return;
        }
        // BPT "Square": infantry fired on under the threat of enemy cavalry forms square first.
        let plans: Vec<FirePlan> = if self.forced_square(target, ev) {
            plans.iter().map(|p| self.fire_plan(p.firer, target, ctx)).collect()
        } else {
            plans
        };
        if let [plan] = plans.as_slice()
            && self.uses_ammo(plan.firer)
            && let Some(ammo) = self.ammo_for(plan.firer, ctx)
        {
            self.resolve_artillery(plan.clone(), ctx, ammo, ev);
            return;
        }
        let context = ctx.cause(if plans.len() > 1 {
            FireHow::Together
        } else {
            FireHow::Alone
        });
        let mut net = 0;
        for p in &plans {
            self.change_unit(p.firer, UnitChange::HasFired(true));
            self.change_unit(p.firer, UnitChange::DugIn(false)); // BPT "Dug In": firing gives the position away
            net += self.roll_plan_hits(p, context, ev);
        }
        // One hit fewer per unit firing (then take_fire_hits takes none more).
        for _ in &plans {
            self.optional_fire_begins();
            net = self.optional_hits_landed(target, net, ev);
        }
        let score = plans.iter().map(|p| p.to_hit).min().unwrap_or(6);
        let Some(nearest) = plans.iter().map(|p| p.firer).min_by(|&a, &b| {
            self.unit_distance(a, target)
                .total_cmp(&self.unit_distance(b, target))
                .then(a.cmp(&b))
        }) else {
            return;
        };
        let from = self.unit(nearest).pose.pos;
        self.take_fire_hits(target, net, score, from, ev);
    }

    /// Roll a plan's dice at its score against its save, record them (`context` names the
    /// fire), and apply the hits after saves; returns them.
    pub(crate) fn roll_plan(&mut self, plan: &FirePlan, context: FireCause, ev: &mut Vec<Event>) -> u32 {
        let net = self.roll_plan_hits(plan, context, ev);
        let from = self.unit(plan.firer).pose.pos;
        self.take_fire_hits(plan.target, net, plan.to_hit, from, ev);
        net
    }

    /// Roll a plan's attack dice and the target's saves and record them: the hits after saves
    /// (none from a jammed Gatling, which is knocked out), not yet taken.
    fn roll_plan_hits(&mut self, plan: &FirePlan, context: FireCause, ev: &mut Vec<Event>) -> u32 {
        let rolls = self.dice_mut().roll(plan.dice, 6);
        let need = plan.effective_to_hit();
        // ACW note 12: Gatlings "jam on rolling attack dice with any doubles. Jammed Gatling
        // guns do not complete any attacks and the model is knocked out right away."
        let jammed = self.unit(plan.firer).row.has(Trait::Gatling)
            && rolls.iter().enumerate().any(|(i, r)| rolls[..i].contains(r));
        let hits = if jammed {
            0
        } else {
            rolls.iter().filter(|&&r| r >= need).count() as u32
        };
        let (save_rolls, saved) = self.roll_saves(plan.target, hits, plan.save);
        ev.push(Event::Fire(FireEvent::Fired {
            firers: vec![plan.firer],
            target: plan.target,
            context,
            base_dice: plan.base_dice,
            modifiers: plan.modifiers.clone(),
            dice: plan.dice,
            aspect: plan.aspect,
            cover: plan.cover,
            to_hit: plan.score(),
            roll_bonus: plan.roll_bonus,
            rolls,
            hits,
            save: plan.save,
            save_rolls,
            saved,
        }));
        if jammed {
            self.knock_out(plan.firer, KnockOut::Jammed, ev);
            return 0;
        }
        hits - saved
    }

    /// BPT "Saves": a die per hit, each ≥ the save removes one; a unit in line rolls one
    /// failed save again ("a bonus save die roll").
    pub(crate) fn roll_saves(&mut self, target: UnitId, hits: u32, save: Option<u32>) -> (Vec<u32>, u32) {
        let Some(s) = save else { return (Vec::new(), 0) };
        if hits == 0 {
            return (Vec::new(), 0);
        }
        let mut rolls = self.dice_mut().roll(hits, 6);
        let mut saved = rolls.iter().filter(|&&r| r >= s).count() as u32;
        if self.unit(target).formation == Formation::Line {
            let rerolls = self.rules.fire.line_save_rerolls.min(hits - saved);
            for _ in 0..rerolls {
                let r = self.dice_mut().d6();
                rolls.push(r);
                if r >= s {
                    saved += 1;
                }
            }
        }
        (rolls, saved)
    }

    /// BPT "Testing For Casualties" 6–8: record hits, knock out, or test suppression / fall-back.
    pub(crate) fn take_fire_hits(&mut self, target: UnitId, net: u32, to_hit: u32, from: V2, ev: &mut Vec<Event>) {
        if net == 0 || !self.unit(target).alive() {
            return;
        }
        let net = self.optional_hits_landed(target, net, ev);
        if net == 0 {
            return;
        }
        let value = self.unit(target).hits_value(&self.rules, self.player_turn);
        // Glory Days "Effect of Hits" (switch InitiativePassing): hits may become D-markers.
        let as_hits = net - self.hits_as_d_markers(target, net, ev);
        if as_hits > 0 {
            let total = self.unit(target).hits + as_hits;
            self.change_unit(target, UnitChange::Hits(total));
            ev.push(Event::Morale(MoraleEvent::HitsTaken {
                unit: target,
                hits: as_hits,
                total,
                value,
            }));
            if total >= value {
                self.knock_out(target, KnockOut::Hits, ev);
                return;
            }
        }
        let already = self.unit(target).suppressed;
        let same_order = already.is_some_and(|s| {
            s.player_turn == self.player_turn && s.order_seq == self.order_seq && self.phase == Phase::Command
        });
        if already.is_none() || same_order {
            // BPT "Suppression": a die per hit; any ≥ the score to hit suppresses
            // (BPT "Morale Grades": ≥ the grade's score instead).
            let need = self.morale_grade(target).map_or(to_hit, |g| g.suppressed_on);
            let rolls = self.dice_mut().roll(net, 6);
            let suppressed = rolls.iter().any(|&r| r >= need);
            ev.push(Event::Morale(MoraleEvent::SuppressionTest {
                unit: target,
                rolls,
                need,
                suppressed,
            }));
            if suppressed && already.is_none() {
                self.suppress(target, SuppressedWhy::Test, ev);
            }
            return;
        }
        // BPT "Fall-back": already suppressed — a die per hit (elite one fewer, poor one more).
        let grade = self.unit(target).grade;
        let adj = match grade {
            Grade::Elite => self.rules.fire.elite_fall_back_dice,
            Grade::Poor => self.rules.fire.poor_fall_back_dice,
            Grade::Regular => 0,
        };
        let n = (net as i32 + adj).max(0) as u32;
        let rolls = self.dice_mut().roll(n, 6);
        let distance: f64 = rolls.iter().sum::<u32>() as f64;
        let u = self.unit(target);
        let stays = u.dug_in || (u.is_artillery() && !u.limbered);
        let limit = if let Some(g) = self.morale_grade(target) {
            // BPT "Morale Grades" replace the fall-back limit; **decision**: dug-in troops and
            // unlimbered guns use their grade's limit too (and still stay where they are).
            g.fall_back_ko
        } else if stays {
            self.rules.fire.fall_back_ko_dug_in
        } else {
            self.rules.fire.fall_back_ko
        };
        let from_pose = u.pose;
        if distance > limit {
            ev.push(Event::Morale(MoraleEvent::FellBack {
                unit: target,
                rolls,
                distance,
                from: from_pose,
                to: from_pose,
            }));
            self.knock_out(target, KnockOut::FellBackTooFar, ev);
            return;
        }
        if stays {
            ev.push(Event::Morale(MoraleEvent::FellBack {
                unit: target,
                rolls,
                distance: 0.0,
                from: from_pose,
                to: from_pose,
            }));
            return;
        }
        let away = (from_pose.pos - from).norm();
        let away = if away == V2::ZERO { -from_pose.forward() } else { away };
        let face = (-away).angle();
        let to = self.forced_move(target, away, distance, Some(face), ForcedKind::FallBack, ev);
        ev.push(Event::Morale(MoraleEvent::FellBack {
            unit: target,
            rolls,
            distance,
            from: from_pose,
            to,
        }));
    }

    /// BPT "Morale Grades": the unit's line of the table, with the `MoraleGrades` switch on.
    pub fn morale_grade(&self, id: UnitId) -> Option<crate::rules::params::MoraleGrade> {
        if !self.rules.switches.on(crate::rules::switches::Switch::MoraleGrades) {
            return None;
        }
        Some(*self.rules.morale.grade(self.unit(id).morale.unwrap_or_default()))
    }

    pub(crate) fn suppress(&mut self, id: UnitId, why: SuppressedWhy, ev: &mut Vec<Event>) {
        if !self.unit(id).alive() || self.unit(id).suppressed() {
            return;
        }
        let s = Suppression {
            player_turn: self.player_turn,
            order_seq: self.order_seq,
        };
        self.change_unit(id, UnitChange::Suppressed(Some(s)));
        ev.push(Event::Morale(MoraleEvent::Suppressed { unit: id, why }));
        // BPT "Command Units": a commander touching the unit suffers the same.
        if let Some(c) = self
            .touching_commander(id)
            .filter(|&c| self.commanders[c as usize].suppressed.is_none())
        {
            self.change_commander(c, CommanderChange::Suppressed(Some(s)));
            ev.push(Event::Command(CommandEvent::CommanderSuppressed { commander: c }));
        }
    }

    pub(crate) fn knock_out(&mut self, id: UnitId, why: KnockOut, ev: &mut Vec<Event>) {
        if !self.unit(id).alive() {
            return;
        }
        let touching = self.touching_commander(id);
        self.change_unit(id, UnitChange::KnockedOut(true));
        let mut combats = self.combats.clone();
        combats.retain(|c| c.target != id);
        for c in &mut combats {
            c.chargers.retain(|&u| u != id);
            for s in &mut c.supports {
                s.retain(|&u| u != id);
            }
        }
        combats.retain(|c| !c.chargers.is_empty());
        if combats != self.combats {
            self.set_combats(combats);
        }
        ev.push(Event::Morale(MoraleEvent::KnockedOut { unit: id, why }));
        if let Some(c) = touching {
            self.knock_out_commander(c, KnockOut::WithOther, ev);
        }
    }

    pub(crate) fn knock_out_commander(&mut self, c: CmdId, why: KnockOut, ev: &mut Vec<Event>) {
        if self.commander(c).knocked_out {
            return;
        }
        self.change_commander(c, CommanderChange::KnockedOut(true));
        ev.push(Event::Command(CommandEvent::CommanderKnockedOut { commander: c, why }));
    }

    /// Is the unit in a charge waiting to be resolved?
    pub fn engaged(&self, id: UnitId) -> bool {
        self.combats
            .iter()
            .any(|c| c.target == id || c.chargers.contains(&id) || c.supports.iter().any(|s| s.contains(&id)))
    }

    /// Move a unit by force (fall-back, retreat, evade): straight along `dir` for up to
    /// `dist`, stopping or being knocked out as BPT "Fall-back" and "Retreat" say.
    /// Returns the pose it ends in.
    pub(crate) fn forced_move(
        &mut self,
        id: UnitId,
        dir: V2,
        dist: f64,
        face: Option<f64>,
        kind: ForcedKind,
        ev: &mut Vec<Event>,
    ) -> Pose {
        // BPT "Prone Movement": **decision**: a unit forced to move gets up.
        self.optional_forced_move(id);
        let start = self.unit(id).pose;
        let mut facing = face.unwrap_or(start.facing);
        if facing != start.facing {
            // Turn only if there is room to turn where it stands.
            let turned = self.rects_at(id, Pose::new(start.pos, facing));
            let foot = self.unit(id).on_foot();
            if self.overlapping_unit(id, &turned).is_some()
                || turned.iter().any(|r| r.corners().iter().any(|c| !self.on_table(*c)))
                || turned.iter().any(|r| self.terrain.rect_in_impassable(r, foot))
            {
                facing = start.facing;
            }
        }
        let step = 0.25;
        let mut travelled = 0.0;
        let mut last_ok = Pose::new(start.pos, facing);
        let side = self.unit(id).side;
        let foot = self.unit(id).on_foot();
        let mut outcome: Option<KnockOut> = None;
        let mut halted_by: Option<UnitId> = None;
        while travelled < dist - 1e-9 {
            let s = (travelled + step).min(dist);
            let pose = Pose::new(start.pos + dir * s, facing);
            let rects = self.rects_at(id, pose);
            if rects.iter().any(|r| r.corners().iter().any(|c| !self.on_table(*c))) {
                outcome = Some(KnockOut::ForcedInto(ForcedInto::OffTable));
                break;
            }
            if rects.iter().any(|r| self.terrain.rect_in_impassable(r, foot)) {
                outcome = Some(KnockOut::ForcedInto(ForcedInto::Impassable));
                break;
            }
            if let Some(other) = self.overlapping_unit(id, &rects) {
                if self.unit(other).side != side {
                    outcome = Some(KnockOut::ForcedInto(ForcedInto::Enemy(other)));
                } else {
                    halted_by = Some(other);
                }
                break;
            }
            last_ok = pose;
            travelled = s;
        }
        self.change_unit(id, UnitChange::Pose(last_ok));
        self.refresh_geometry();
        ev.push(Event::Movement(MovementEvent::Moved {
            unit: id,
            from: start,
            to: last_ok,
            kind: kind.move_kind(),
            cost: travelled,
        }));
        if let Some(ko) = outcome {
            self.knock_out(id, ko, ev);
        } else if let Some(friend) = halted_by {
            ev.push(Event::Movement(MovementEvent::Halted { unit: id, by: friend }));
            // BPT "Retreat": into suppressed friends, both are knocked out.
            if kind == ForcedKind::Retreat && self.unit(friend).suppressed() {
                self.knock_out(id, KnockOut::ForcedInto(ForcedInto::SuppressedFriend), ev);
                self.knock_out(friend, KnockOut::WithOther, ev);
            } else if kind != ForcedKind::Evade {
                self.suppress(friend, SuppressedWhy::FriendFellBackInto, ev);
            }
        }
        self.overrun_along(id, Some(start), ev);
        last_ok
    }

    /// The bases a unit would have at `pose`.
    pub fn rects_at(&self, id: UnitId, pose: Pose) -> Vec<Rect> {
        let u = self.unit(id);
        self.rects_laid_out(u, pose, u.refused)
    }

    /// The unit's bases at `pose` after an ordered move, which dresses a refused line.
    pub fn rects_at_dressed(&self, id: UnitId, pose: Pose) -> Vec<Rect> {
        self.rects_laid_out(self.unit(id), pose, (false, false))
    }

    /// The first unit (by id) other than `id` whose bases overlap `rects`.
    pub fn overlapping_unit(&self, id: UnitId, rects: &[Rect]) -> Option<UnitId> {
        let bx = geometry::points_box(rects.iter().flat_map(|r| r.corners()));
        // By the boxes first, side by side in memory (issue 66's speed).
        self.boxes
            .iter()
            .enumerate()
            .filter(|&(o, b)| o as UnitId != id && !geometry::boxes_apart(*b, bx, 1e-6))
            .map(|(o, _)| o as UnitId)
            .find(|&o| self.unit(o).alive() && self.rects(o).iter().any(|r| rects.iter().any(|m| m.overlaps(r))))
    }

    /// BPT "Command Units": enemy commanders a unit's bases now cover are overrun; each must
    /// join a friendly unit within half its move or is knocked out.
    pub(crate) fn overrun_commanders(&mut self, id: UnitId, ev: &mut Vec<Event>) {
        self.overrun_along(id, None, ev);
    }

    /// As [`Battle::overrun_commanders`], counting also the commanders on the way from `from`
    /// (the unit's frontage swept along its move: BPT "Movement", "moving through an enemy
    /// command unit").
    pub(crate) fn overrun_along(&mut self, id: UnitId, from: Option<Pose>, ev: &mut Vec<Event>) {
        if !self.unit(id).alive() {
            return;
        }
        let side = self.unit(id).side;
        let rects = self.rects(id).to_vec();
        let swept = from.map(|f| {
            let u = self.unit(id);
            geometry::corridor(f.pos, u.pose.pos, self.frontage(u).0.max(0.5))
        });
        let victims: Vec<CmdId> = self
            .commanders
            .iter()
            .filter(|c| c.alive() && c.side != side)
            .filter(|c| {
                let cr = self.commander_rect(c);
                rects.iter().any(|r| r.overlaps(&cr)) || swept.is_some_and(|s| geometry::convex_overlaps_rect(&s, &cr))
            })
            .map(|c| c.id)
            .collect();
        for c in victims {
            let cm = self.commander(c).clone();
            let reach = cm.move_rate() * self.rules.command.overrun_join_fraction;
            let cr = self.commander_rect(&cm);
            let friend = self
                .side_units(cm.side)
                .map(|u| (u.id, geometry::rects_distance(&[cr], self.rects(u.id))))
                .filter(|(_, d)| *d <= reach)
                .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            match friend {
                Some((fid, _)) => {
                    let spot = self.spot_behind(fid);
                    self.change_commander(c, CommanderChange::Pos(spot));
                    ev.push(Event::Command(CommandEvent::CommanderJoined {
                        commander: c,
                        unit: fid,
                    }));
                }
                None => self.knock_out_commander(c, KnockOut::Overrun, ev),
            }
        }
    }

    /// A point touching the rear of a unit, where a commander can stand.
    pub fn spot_behind(&self, id: UnitId) -> V2 {
        let (l, r) = self.rear_edge(id);
        let mid = l.lerp(r, 0.5);
        let back = -self.unit(id).pose.forward();
        mid + back * (self.rules.footprints.commander_diameter / 2.0 + 0.05)
    }

    /// Stand layout helper used by charge placement.
    pub fn front_offset(&self, id: UnitId) -> f64 {
        let u = self.unit(id);
        let shape = u.shape(&self.rules);
        let ss = StandShape {
            width: shape.width,
            depth: shape.depth,
        };
        let origin = Pose::new(V2::ZERO, 0.0);
        if u.is_artillery() {
            let g = self.compute_geom(&Unit {
                pose: origin,
                ..u.clone()
            });
            return g.front.0.x;
        }
        let (l, _) = layout::front_edge(origin, u.formation, u.stands as usize, ss, u.gap(&self.rules));
        l.x
    }
}

/// Kinds of forced movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedKind {
    FallBack,
    Retreat,
    Evade,
    Consolidate,
    Charge,
}

impl ForcedKind {
    fn move_kind(self) -> MoveKind {
        match self {
            ForcedKind::FallBack => MoveKind::FallBack,
            ForcedKind::Retreat => MoveKind::Retreat,
            ForcedKind::Evade => MoveKind::Evade,
            ForcedKind::Consolidate => MoveKind::Consolidate,
            ForcedKind::Charge => MoveKind::Charge,
        }
    }
}

/// The rear edge of a formation laid out as `g` facing as `pose` does: the front edge moved
/// back to the farthest extent of any base.
fn rear_of(g: &UnitGeom, pose: Pose) -> (V2, V2) {
    let back = -pose.forward();
    let depth = g
        .rects
        .iter()
        .flat_map(|r| r.corners())
        .map(|c| (c - g.front.0).dot(back))
        .fold(0.0, f64::max);
    (g.front.0 + back * depth, g.front.1 + back * depth)
}
