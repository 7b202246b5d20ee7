//! The guns in the battle: a loaded gun fires round shot, canister or shell (DECISIONS
//! "Artillery: round shot with bounce", "Artillery: canister with blast-through", "Shell and
//! howitzers", "Artillery handling"), on top of the pure maths of `rules::artillery`.
//!
//! The fire plan (dice, modifiers, score, save) is the ordinary BPT one; the guns share its dice
//! (the first guns take any odd die). Each gun then fires on its own: a ball with its bounces,
//! a shell burst, or (for the battery as one) canister with its blast-through. Every stand the
//! ball or burst strikes is attacked with the dice the rules give it, friend or foe, with the
//! score and save that unit would have against the gun.

use super::event::{Event, FireHow};
use super::fire::{FireContext, FirePlan};
use super::state::*;
use crate::battle::event::families::*;
use crate::data::army::Trait;
use crate::data::scenario::{Ammo, Grade, Weather};
use crate::rules::artillery::{
    self as art, ArtilleryParams, TerrainGround, blast_through_to_hit, canister_corridor, round_shot, shell_hits,
    strip_hits, units_in_corridor,
};
use crate::rules::geometry::{Aspect, Rect, V2};
use crate::rules::params::Cover;

/// Canister before it is fired (`Battle::canister_preview`): the muzzle, the blast-through
/// corridor, the dice, and the target then each unit behind it with the score needed.
#[derive(Clone, Debug, PartialEq)]
pub struct CanisterPreview {
    pub muzzle: V2,
    pub corridor: [V2; 4],
    pub dice: u32,
    pub units: Vec<(UnitId, Option<u32>)>,
}

impl Battle {
    /// Guns that load and fire Hardtack ammunition (every artillery row but Gatlings).
    pub fn uses_ammo(&self, id: UnitId) -> bool {
        let u = self.unit(id);
        u.is_artillery() && !u.row.has(Trait::Gatling)
    }

    /// Howitzers and mortars: shell only, high-angle fire.
    pub fn high_angle(&self, id: UnitId) -> bool {
        let u = self.unit(id);
        u.row.has(Trait::Howitzer) || u.row.has(Trait::Mortar)
    }

    /// What the gun fires now: canister when it is itself charged (BPT ACW note 6, as its
    /// counter-initiative, loaded or not), else what it has loaded.
    pub fn ammo_for(&self, id: UnitId, ctx: FireContext) -> Option<Ammo> {
        let charged = matches!(self.step, Step::CounterInitiative { target, .. } if target == id);
        if ctx == FireContext::Counter && charged {
            Some(Ammo::Canister)
        } else {
            self.unit(id).loaded
        }
    }

    /// Round-shot and shell accuracy by crew quality (veteran 3+, regular 4+, green 5+).
    /// The chance a gun's fire in `ctx` lands where it is aimed (round shot, shell and air
    /// burst roll the crew's accuracy; canister and other fire need none): the preview's
    /// factor on its expected hits (issue 21, Hardtack 6).
    pub fn p_lands_on_aim(&self, id: UnitId, ctx: FireContext) -> Option<f64> {
        if !self.uses_ammo(id) {
            return None;
        }
        match self.ammo_for(id, ctx)? {
            Ammo::Canister => None,
            Ammo::Shot | Ammo::Shell | Ammo::AirBurst => Some(art::p_on_target(self.crew_accuracy(id))),
        }
    }

    pub fn crew_accuracy(&self, id: UnitId) -> u32 {
        let p = &self.rules.artillery;
        match self.unit(id).grade {
            Grade::Elite => p.accuracy_veteran,
            Grade::Regular => p.accuracy_regular,
            Grade::Poor => p.accuracy_green,
        }
    }

    /// Where the first gun's ball would go if it lands on its aim and bounces every time it
    /// may, straight on (the preview's strip and bounces): the rules' own `round_shot` with
    /// dice set to those results. None unless `firer` may fire round shot at `target` now.
    pub fn ideal_round_shot(&self, firer: UnitId, target: UnitId, ctx: FireContext) -> Option<art::ShotTrace> {
        if self.ammo_for(firer, ctx) != Some(Ammo::Shot) {
            return None;
        }
        let plan = self.check_fire(firer, target, ctx).ok()?;
        let (gun, dice) = self.guns_with_dice(&plan).into_iter().next()?;
        let p: ArtilleryParams = self.rules.artillery.clone();
        let ground = TerrainGround {
            terrain: self.los.terrain(),
            width: self.table.width,
            height: self.table.height,
            wet: self.ground_is_wet(),
        };
        // Accuracy 6 (on its aim); each bounce: 6 (it bounces), clock 12 (straight on), d4 1.
        let mut faces = vec![6];
        for _ in 0..=p.bounce_scores.len() {
            faces.extend([6, 12, 1]);
        }
        let mut ideal = crate::rules::dice::Dice::scripted(faces);
        let aim = self.aim_at(target, gun.center);
        let need = self.crew_accuracy(firer);
        Some(round_shot(muzzle(&gun), aim, dice, need, &p, &ground, &mut ideal))
    }

    /// The gun stands that fire at `target`: as many as the plan counts, nearest it first
    /// (ties by stand index).
    fn firing_guns(&self, plan: &FirePlan) -> Vec<Rect> {
        let per_stand = if plan.canister {
            self.rules
                .artillery
                .canister_attacks(!self.unit(plan.firer).row.has(Trait::Rifled))
        } else {
            self.unit(plan.firer).row.attacks
        }
        .max(1) as i32;
        let n = (plan.base_dice / per_stand).max(1) as usize;
        let target = self.rects(plan.target);
        let mut guns: Vec<(usize, f64, Rect)> = self
            .rects(plan.firer)
            .iter()
            .enumerate()
            .map(|(i, g)| (i, crate::rules::geometry::rects_distance(&[*g], target), *g))
            .collect();
        guns.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        guns.into_iter().take(n).map(|(_, _, g)| g).collect()
    }

    /// The target's stand nearest `from`, and the point of it nearest `from` (the aim point).
    pub(crate) fn aim_at(&self, target: UnitId, from: V2) -> V2 {
        self.rects(target)
            .iter()
            .map(|r| r.closest_point(from))
            .min_by(|a, b| a.dist(from).total_cmp(&b.dist(from)))
            .unwrap_or(from)
    }

    /// Every stand on the table except the firer's, with its unit (stable: by unit id, then
    /// stand order).
    fn stands_but(&self, firer: UnitId) -> (Vec<Rect>, Vec<UnitId>) {
        let mut rects = Vec::new();
        let mut owner = Vec::new();
        for u in self.units.iter().filter(|u| u.alive() && u.id != firer) {
            for r in self.rects(u.id) {
                rects.push(*r);
                owner.push(u.id);
            }
        }
        (rects, owner)
    }

    /// Resolve a planned artillery fire with `ammo`; the load is spent.
    pub(crate) fn resolve_artillery(&mut self, plan: FirePlan, ctx: FireContext, ammo: Ammo, ev: &mut Vec<Event>) {
        {
            self.change_unit(plan.firer, UnitChange::HasFired(true));
            self.change_unit(plan.firer, UnitChange::DugIn(false));
            self.change_unit(plan.firer, UnitChange::Loaded(None));
        }
        match ammo {
            Ammo::Canister => self.fire_canister(&plan, ctx, ev),
            Ammo::Shot => {
                for (gun, dice) in self.guns_with_dice(&plan) {
                    self.fire_round_shot(&plan, ctx, gun, dice, ev);
                }
            }
            Ammo::Shell | Ammo::AirBurst => {
                for (gun, dice) in self.guns_with_dice(&plan) {
                    self.fire_shell(&plan, ctx, gun, dice, ev);
                }
            }
        }
    }

    /// The plan's dice shared out over its guns, the odd dice to the first guns.
    fn guns_with_dice(&self, plan: &FirePlan) -> Vec<(Rect, u32)> {
        let guns = self.firing_guns(plan);
        let n = guns.len() as u32;
        guns.into_iter()
            .enumerate()
            .map(|(i, g)| (g, plan.dice / n + u32::from((i as u32) < plan.dice % n)))
            .filter(|(_, d)| *d > 0)
            .collect()
    }

    /// One gun's ball: aim at the target's nearest point, roll accuracy, follow the bounces,
    /// then attack every unit whose stands lie in an impact strip.
    fn fire_round_shot(&mut self, plan: &FirePlan, ctx: FireContext, gun: Rect, dice: u32, ev: &mut Vec<Event>) {
        let aim = self.aim_at(plan.target, gun.center);
        let need = self.crew_accuracy(plan.firer);
        let p: ArtilleryParams = self.rules.artillery.clone();
        let smoothbore = !self.unit(plan.firer).row.has(Trait::Rifled);
        // The ground the shot rolls over, held apart from the battle while the dice roll (the
        // terrain is shared, and the line of sight is prepared on the same).
        let terrain = self.terrain.clone();
        let ground = TerrainGround {
            terrain: &terrain,
            width: self.table.width,
            height: self.table.height,
            wet: self.ground_is_wet(),
        };
        // Flight and deviation dice from the muzzle: distances are base edge to base edge
        // (DECISIONS "Scale"), so a gun's range to the aim point is from its front edge.
        let mut trace = round_shot(muzzle(&gun), aim, dice, need, &p, &ground, self.dice_mut());
        let pen = p.penetration(smoothbore);
        trace.restrip(pen, p.strip_width);
        // Commanders in a strip are struck "just like any other unit" (BPT "Command Units"):
        // their bases join the stands, so the first base in a strip takes the full dice.
        let (mut rects, owner) = self.stands_but(plan.firer);
        let (crects, cids) = self.commander_bases();
        let n_stands = rects.len();
        rects.extend(crects);
        let mut attacked: Vec<(UnitId, u32)> = Vec::new();
        let mut commanders: Vec<(CmdId, u32)> = Vec::new();
        for (i, imp) in trace.impacts.iter().enumerate() {
            for (s, k) in strip_hits(imp, trace.from_of(i), pen, &rects, p.strip_width) {
                match s.checked_sub(n_stands) {
                    None => add_dice(&mut attacked, owner[s], k),
                    Some(c) => add_dice(&mut commanders, cids[c], k),
                }
            }
        }
        ev.push(Event::Artillery(ArtilleryEvent::RoundShot {
            firer: plan.firer,
            trace,
            attacked: attacked.clone(),
        }));
        for (u, k) in attacked {
            self.attack_unit(plan, ctx, u, k, gun, 0, Ammo::Shot, ev);
        }
        self.attack_commanders(commanders, ev);
    }

    /// Commanders caught in a gun's fire zone: each takes its dice, hit only on a 6 (BPT
    /// "Command Units", "Hits are scored on 6 ... command units ... in all situations").
    fn attack_commanders(&mut self, commanders: Vec<(CmdId, u32)>, ev: &mut Vec<Event>) {
        for (c, k) in commanders {
            if k > 0 && self.commander(c).alive() {
                self.attack_commander(c, k, ev);
            }
        }
    }

    /// One gun's shell: accuracy as round shot; a miss deviates (high-angle fire with BPT's
    /// dice); every stand within the burst radius takes the gun's dice, +1 as shrapnel (ACW).
    fn fire_shell(&mut self, plan: &FirePlan, ctx: FireContext, gun: Rect, dice: u32, ev: &mut Vec<Event>) {
        let aim = self.aim_at(plan.target, gun.center);
        let need = self.crew_accuracy(plan.firer);
        let high_angle = self.high_angle(plan.firer);
        let p = self.rules.artillery.clone();
        let accuracy_roll = self.dice_mut().d6();
        let deviation = if accuracy_roll >= need {
            None
        } else {
            let range = muzzle(&gun).dist(aim);
            let n = if high_angle {
                p.high_angle_dice(range, false)
            } else {
                p.deviation_dice(range)
            };
            let clock = self.dice_mut().d(12);
            let d6s = self.dice_mut().roll(n, 6);
            let cm = f64::from(d6s.iter().sum::<u32>());
            Some((clock, d6s, cm))
        };
        let burst = match &deviation {
            None => aim,
            Some((clock, _, cm)) => aim + art::clock_dir(aim - gun.center, *clock) * *cm,
        };
        // BPT "Air Burst Shell Fire": a 2 cm zone, one die fewer.
        let (p, dice) = if plan.air_burst {
            let mut p = p;
            p.shell_radius = p.air_burst_radius;
            let d = (dice as i32 + p.air_burst_dice).max(0) as u32;
            (p, d)
        } else {
            (p, dice)
        };
        let lost = self.shell_lost_at(burst);
        let mut attacked: Vec<(UnitId, u32)> = Vec::new();
        let mut commanders: Vec<(CmdId, u32)> = Vec::new();
        if lost.is_none() {
            let shrapnel = if self.sides[self.unit(plan.firer).side].army.starts_with("ACW") {
                p.shrapnel_bonus
            } else {
                0
            };
            // BPT "Howitzers": their shell harms troops in the open only (not an air burst).
            let open_only = self.unit(plan.firer).row.has(Trait::Howitzer) && !plan.air_burst;
            let (rects, owner) = self.stands_but(plan.firer);
            for s in shell_hits(burst, &p, &rects) {
                if open_only && self.cover_of(owner[s], gun.center) != Cover::Open {
                    continue;
                }
                add_dice(&mut attacked, owner[s], dice + shrapnel);
            }
            // Commanders within the burst take the same dice as a stand.
            let (crects, cids) = self.commander_bases();
            for s in shell_hits(burst, &p, &crects) {
                add_dice(&mut commanders, cids[s], dice + shrapnel);
            }
        }
        ev.push(Event::Artillery(ArtilleryEvent::ShellFired {
            firer: plan.firer,
            gun: gun.center,
            aim,
            high_angle,
            accuracy_roll,
            accuracy_need: need,
            deviation,
            burst,
            lost,
            attacked: attacked.clone(),
            air_burst: plan.air_burst,
        }));
        for (u, k) in attacked {
            let ammo = if plan.air_burst { Ammo::AirBurst } else { Ammo::Shell };
            self.attack_unit(plan, ctx, u, k, gun, 0, ammo, ev);
        }
        self.attack_commanders(commanders, ev);
    }

    /// The living commanders' bases and ids (Hardtack: a ball or a burst strikes "all troops"
    /// in its way, commanders among them).
    fn commander_bases(&self) -> (Vec<Rect>, Vec<CmdId>) {
        self.commanders
            .iter()
            .filter(|c| c.alive())
            .map(|c| (self.commander_rect(c), c.id))
            .unzip()
    }

    /// BPT "High Angle Direct Fire": a shell landing off the table or in wet terrain is lost.
    fn shell_lost_at(&self, p: V2) -> Option<super::event::ShellLost> {
        if p.x < 0.0 || p.y < 0.0 || p.x > self.table.width || p.y > self.table.height {
            return Some(super::event::ShellLost::OffTable);
        }
        let t = self.los.terrain();
        if let Some(k) = t.area_kinds_at(p).into_iter().find(|k| {
            matches!(
                k,
                crate::rules::terrain::AreaKind::Marsh
                    | crate::rules::terrain::AreaKind::Mud
                    | crate::rules::terrain::AreaKind::Lake
            )
        }) {
            return Some(super::event::ShellLost::WetArea(k));
        }
        t.linears
            .iter()
            .filter(|l| {
                matches!(
                    l.kind,
                    crate::rules::terrain::LinearKind::Stream | crate::rules::terrain::LinearKind::River
                )
            })
            .find(|l| crate::rules::terrain::polyline_distance_to_point(&l.points, p) <= l.width * 0.5)
            .map(|l| super::event::ShellLost::WetLinear(l.kind))
    }

    /// Wet ground: poor or extreme weather, or the scenario says so (no ball bounces).
    pub fn ground_is_wet(&self) -> bool {
        self.wet_ground || matches!(self.weather, Weather::Poor | Weather::Extreme)
    }

    /// Canister: the primary target as ordinary fire; if it took a hit, the blast goes on
    /// through the corridor to the next enemy unit, one worse to hit per damaged unit in front,
    /// until a unit takes no hit or the score would pass 6.
    /// The gun whose muzzle canister fired by `plan` leaves from, and the blast-through
    /// corridor it sweeps: from the muzzle through the target's aim point.
    fn canister_sweep(&self, plan: &FirePlan) -> (Rect, [V2; 4]) {
        let gun = self
            .firing_guns(plan)
            .first()
            .copied()
            .unwrap_or(self.rects(plan.firer)[0]);
        let through = self.aim_at(plan.target, gun.center);
        let corridor = canister_corridor(muzzle(&gun), through, plan.range, &self.rules.artillery);
        (gun, corridor)
    }

    /// What canister `firer` would fire at `target` in `ctx` sweeps, before any die is rolled:
    /// the corridor, and the target then each enemy unit behind it in the corridor with the
    /// score canister would need against it before any first-fire bonus (None: the blast would
    /// stop before it), as `fire_canister` rolls them if every unit in front is damaged. None unless the fire is
    /// legal and is canister.
    pub fn canister_preview(&self, firer: UnitId, target: UnitId, ctx: FireContext) -> Option<CanisterPreview> {
        if self.ammo_for(firer, ctx) != Some(Ammo::Canister) {
            return None;
        }
        let plan = self.check_fire(firer, target, ctx).ok()?;
        let (gun, corridor) = self.canister_sweep(&plan);
        let order = self.canister_path(firer, &corridor, muzzle(&gun));
        let mut units = vec![(target, Some(plan.score()))];
        units.extend(
            self.blast_behind(&plan, &gun, &order)
                .into_iter()
                .map(|(next, _, to_hit)| (next, to_hit)),
        );
        Some(CanisterPreview {
            muzzle: muzzle(&gun),
            corridor,
            dice: plan.dice,
            units,
        })
    }

    fn fire_canister(&mut self, plan: &FirePlan, ctx: FireContext, ev: &mut Vec<Event>) {
        let (gun, corridor) = self.canister_sweep(plan);
        let net = self.attack_primary(plan, ctx, ev);
        // Enemy commanders in the corridor the canister sweeps are caught in its fire zone
        // (**Decision**: the corridor is canister's zone, as for blast-through; own officers
        // are not fired through).
        let side = self.unit(plan.firer).side;
        let (crects, cids) = self.commander_bases();
        let slices: Vec<&[Rect]> = crects.iter().map(std::slice::from_ref).collect();
        let caught: Vec<(CmdId, u32)> = units_in_corridor(&corridor, muzzle(&gun), &slices)
            .into_iter()
            .map(|i| cids[i])
            .filter(|&c| self.commander(c).side != side)
            .map(|c| (c, plan.dice))
            .collect();
        self.attack_commanders(caught, ev);
        if net == 0 {
            return;
        }
        let order = self.canister_path(plan.firer, &corridor, muzzle(&gun));
        for (next, damaged, to_hit) in self.blast_behind(plan, &gun, &order) {
            ev.push(Event::Artillery(ArtilleryEvent::BlastThrough {
                firer: plan.firer,
                corridor,
                next,
                damaged_in_front: damaged,
                to_hit,
            }));
            if to_hit.is_none() {
                break;
            }
            let net = self.attack_unit(plan, ctx, next, plan.dice, gun, damaged, Ammo::Canister, ev);
            if net == 0 {
                break;
            }
        }
    }

    /// The units behind `plan`'s target in the corridor's `order` that canister may blast
    /// through, each with how many damaged units stand in front of it and the score it needs
    /// (None: the blast stops there, the last of the list); the list ends before a friend
    /// (check_fire refuses canister with a friend in the path). Empty when the target is not
    /// in `order` (knocked out by the canister itself).
    fn blast_behind(&self, plan: &FirePlan, gun: &Rect, order: &[UnitId]) -> Vec<(UnitId, u32, Option<u32>)> {
        let side = self.unit(plan.firer).side;
        let mut out = Vec::new();
        let Some(at) = order.iter().position(|&u| u == plan.target) else {
            return out;
        };
        for (damaged, &next) in (1u32..).zip(&order[at + 1..]) {
            if self.unit(next).side == side {
                break;
            }
            let base = self.to_hit_against(plan.firer, next, gun.center);
            let to_hit = blast_through_to_hit(base, damaged).map(|t| plan.penalised(t));
            out.push((next, damaged, to_hit));
            if to_hit.is_none() {
                break;
            }
        }
        out
    }

    /// The living units a canister corridor crosses, nearest the gun first (the firer left out).
    pub fn canister_path(&self, firer: UnitId, corridor: &[V2; 4], gun: V2) -> Vec<UnitId> {
        let ids: Vec<UnitId> = self
            .units
            .iter()
            .filter(|u| u.alive() && u.id != firer)
            .map(|u| u.id)
            .collect();
        let slices: Vec<&[Rect]> = ids.iter().map(|&id| self.rects(id)).collect();
        units_in_corridor(corridor, gun, &slices)
            .into_iter()
            .map(|i| ids[i])
            .collect()
    }

    /// The friendly unit a canister at `target` would blast through, if any (DECISIONS: such a
    /// unit forbids canister).
    pub fn friend_in_canister_path(&self, plan: &FirePlan) -> Option<UnitId> {
        self.firing_guns(plan).first()?;
        let (gun, corridor) = self.canister_sweep(plan);
        let side = self.unit(plan.firer).side;
        self.canister_path(plan.firer, &corridor, muzzle(&gun))
            .into_iter()
            .find(|&u| self.unit(u).side == side)
    }

    /// The primary target of canister: the plan's dice, score and save, as ordinary fire.
    fn attack_primary(&mut self, plan: &FirePlan, ctx: FireContext, ev: &mut Vec<Event>) -> u32 {
        let net = self.roll_plan(plan, ctx.cause(FireHow::Canister), ev);
        self.strike_construction(plan.target, plan.dice, Ammo::Canister, ev);
        net
    }

    /// The score a gun at `from` needs against `target`: its cover as artillery sees it
    /// (ACW notes 6, 7: soft cover as open, hard as soft).
    fn to_hit_against(&self, _firer: UnitId, target: UnitId, from: V2) -> u32 {
        let fr = &self.rules.fire;
        match self.cover_of(target, from) {
            Cover::Hard => fr.to_hit_soft,
            _ => fr.to_hit_open,
        }
    }

    /// Attack `target` with `dice` from the gun at `gun`, the score worse by `worse`; the
    /// unit's own save against this gun (flank and rear worsen it; mortars: 4+ at best for the
    /// target, ACW note 16). Returns the hits after saves.
    #[allow(clippy::too_many_arguments)]
    fn attack_unit(
        &mut self,
        plan: &FirePlan,
        ctx: FireContext,
        target: UnitId,
        dice: u32,
        gun: Rect,
        worse: u32,
        ammo: Ammo,
        ev: &mut Vec<Event>,
    ) -> u32 {
        let how = match ammo {
            Ammo::Shot => FireHow::RoundShot,
            Ammo::Shell | Ammo::AirBurst => FireHow::Shell,
            Ammo::Canister => FireHow::BlastThrough,
        };
        if !self.unit(target).alive() || dice == 0 {
            return 0;
        }
        if self.retire_scout(target, super::event::RetiredWhy::UnderArtilleryFire, ev) {
            return 0;
        }
        let Some(GunAttack {
            to_hit,
            need,
            cover,
            aspect,
            save,
        }) = self.gun_attack(plan, target, gun.center, worse)
        else {
            return 0;
        };
        let rolls = self.dice_mut().roll(dice, 6);
        let hits = rolls.iter().filter(|&&r| r >= need).count() as u32;
        let (save_rolls, saved) = self.roll_saves(target, hits, save);
        ev.push(Event::Fire(FireEvent::Fired {
            firers: vec![plan.firer],
            target,
            context: ctx.cause(how),
            base_dice: dice as i32,
            modifiers: Vec::new(),
            dice,
            aspect,
            cover,
            to_hit,
            roll_bonus: plan.roll_bonus,
            rolls,
            hits,
            save,
            save_rolls,
            saved,
        }));
        let net = hits - saved;
        self.take_fire_hits(target, net, to_hit, gun.center, ev);
        self.strike_construction(target, dice, ammo, ev);
        net
    }

    /// How a gun at `gun` attacks `target` (as [`Self::attack_unit`] rolls it): the score to
    /// hit (cover as artillery sees it, an air burst in the open; worse by `worse`; Glory Days'
    /// penalty), the die it needs after the first-fire bonus, the cover and aspect, the save.
    /// None when the strike cannot hit at all.
    fn gun_attack(&self, plan: &FirePlan, target: UnitId, gun: V2, worse: u32) -> Option<GunAttack> {
        let fr = &self.rules.fire;
        // An air burst strikes every stand as though in the open.
        let cover = match self.cover_of(target, gun) {
            Cover::Hard if !plan.air_burst => Cover::Soft,
            _ => Cover::Open,
        };
        let base = if plan.air_burst {
            fr.to_hit_open
        } else {
            self.to_hit_against(plan.firer, target, gun)
        };
        // *Glory Days!* (initiative passing): D-markers and having moved worsen every strike.
        let to_hit = plan.penalised(blast_through_to_hit(base, worse)?);
        let aspect = self.fire_aspect(target, plan.firer);
        let tu = self.unit(target);
        let mut save = tu.row.save.map(u32::from);
        if matches!(
            tu.formation,
            crate::rules::formation::Formation::AttackColumn | crate::rules::formation::Formation::Square
        ) {
            save = None;
        }
        if aspect != Aspect::Front {
            save = save.map(|s| if s >= 6 { 6 } else { (s + fr.flank_save_worse).min(6) });
        }
        if self.unit(plan.firer).row.has(Trait::Mortar) {
            save = Some(save.map_or(4, |s| s.min(4)));
        }
        Some(GunAttack {
            to_hit,
            need: to_hit.saturating_sub(plan.roll_bonus).max(1),
            cover,
            aspect,
            save: self.save_in_construction(target, save),
        })
    }

    /// BPT "Shell Fire" and "Air Burst Shell Fire" (issue 64): the exact expected hits after
    /// saves on `target` of `firer`'s shell in `ctx`, as [`Self::fire_shell`] resolves it: for
    /// each gun, the burst on its aim (the crew's accuracy roll) or deviated (each clock face
    /// and each sum of the deviation dice; a burst off the table or in wet ground is lost),
    /// every stand of the target within the zone (3 cm; an air burst 2 cm) attacked with the
    /// gun's dice and the ACW shrapnel die (an air burst one die fewer, as in the open), the
    /// line's save re-roll counted. None unless the fire is shell or air burst. Not counted:
    /// stands one gun's burst takes before the next gun's lands.
    pub fn shell_expected_hits(&self, firer: UnitId, target: UnitId, ctx: FireContext) -> Option<f64> {
        if !matches!(self.ammo_for(firer, ctx)?, Ammo::Shell | Ammo::AirBurst) {
            return None;
        }
        let plan = self.fire_plan(firer, target, ctx);
        let need_on_aim = self.crew_accuracy(firer);
        let high_angle = self.high_angle(firer);
        let mut p = self.rules.artillery.clone();
        let dice_change = if plan.air_burst {
            p.shell_radius = p.air_burst_radius;
            p.air_burst_dice
        } else {
            0
        };
        let shrapnel = if self.sides[self.unit(firer).side].army.starts_with("ACW") {
            p.shrapnel_bonus
        } else {
            0
        };
        let open_only = self.unit(firer).row.has(Trait::Howitzer) && !plan.air_burst;
        let rects = self.rects(target);
        let rerolls = if self.unit(target).formation == crate::rules::formation::Formation::Line {
            self.rules.fire.line_save_rerolls
        } else {
            0
        };
        let mut total = 0.0;
        for (gun, dice) in self.guns_with_dice(&plan) {
            if open_only && self.cover_of(target, gun.center) != Cover::Open {
                continue;
            }
            let Some(a) = self.gun_attack(&plan, target, gun.center, 0) else {
                continue;
            };
            let per_stand = (dice as i32 + dice_change).max(0) as u32 + shrapnel;
            // Expected hits after saves for `k` dice on the target.
            let net = |k: u32| art_expected_net(k, a.need, a.save, rerolls);
            let aim = self.aim_at(target, gun.center);
            let at = |burst: V2| -> f64 {
                if self.shell_lost_at(burst).is_some() {
                    return 0.0;
                }
                net(shell_hits(burst, &p, rects).len() as u32 * per_stand)
            };
            let hit = art::p_on_target(need_on_aim);
            let range = muzzle(&gun).dist(aim);
            let n = if high_angle {
                p.high_angle_dice(range, false)
            } else {
                p.deviation_dice(range)
            };
            // The sum of `n` d6: index = sum.
            let mut sums = vec![1.0];
            for _ in 0..n {
                let mut next = vec![0.0; sums.len() + 6];
                for (s, q) in sums.iter().enumerate() {
                    for f in 1..=6 {
                        next[s + f] += q / 6.0;
                    }
                }
                sums = next;
            }
            let mut off = 0.0;
            for clock in 1..=12 {
                let dir = art::clock_dir(aim - gun.center, clock);
                for (cm, q) in sums.iter().enumerate().filter(|(_, q)| **q > 0.0) {
                    off += q / 12.0 * at(aim + dir * cm as f64);
                }
            }
            total += hit * at(aim) + (1.0 - hit) * off;
        }
        Some(total)
    }

    /// The expected hits of a fire as the previews show them: a shell or air burst's by
    /// [`Self::shell_expected_hits`]; a round shot's hits on its aim's stand times its chance
    /// to land there; other fire the mean of its dice.
    pub fn fire_expected_hits(&self, firer: UnitId, target: UnitId, ctx: FireContext) -> f64 {
        if let Some(e) = self.shell_expected_hits(firer, target, ctx) {
            return e;
        }
        let plan = self.fire_plan(firer, target, ctx);
        let mean = crate::rules::odds::mean(&crate::rules::odds::hits_distribution(
            plan.dice,
            plan.effective_to_hit(),
            plan.save,
        ));
        self.p_lands_on_aim(firer, ctx).map_or(mean, |p| p * mean)
    }
}

/// How a gun attacks one unit (`Battle::gun_attack`).
struct GunAttack {
    to_hit: u32,
    need: u32,
    cover: Cover,
    aspect: Aspect,
    save: Option<u32>,
}

/// The expected hits after saves of `dice` dice each hitting on `need`+, saved on `save`+,
/// with up to `rerolls` failed saves rolled again (BPT: a line re-rolls one), exactly.
fn art_expected_net(dice: u32, need: u32, save: Option<u32>, rerolls: u32) -> f64 {
    use crate::rules::odds::{binomial, p_at_least};
    let hit = p_at_least(need);
    let Some(save) = save else {
        return f64::from(dice) * hit;
    };
    let ps = p_at_least(save);
    let mut e = 0.0;
    for (h, ph) in binomial(dice, hit).into_iter().enumerate() {
        for (saved, pk) in binomial(h as u32, ps).into_iter().enumerate() {
            let failed = (h - saved) as f64;
            e += ph * pk * (failed - ps * failed.min(f64::from(rerolls)));
        }
    }
    e
}

/// Add `k` dice for `u`, keeping the order units were first struck in.
fn add_dice(v: &mut Vec<(UnitId, u32)>, u: UnitId, k: u32) {
    match v.iter_mut().find(|(w, _)| *w == u) {
        Some((_, d)) => *d += k,
        None => v.push((u, k)),
    }
}

/// The middle of a gun's front edge, where its range is measured from (DECISIONS: distances
/// are base edge to base edge): round shot flies and deviates from here, shell deviates by the
/// range from here, and the canister corridor runs from here.
fn muzzle(gun: &Rect) -> V2 {
    let (a, b) = gun.front_edge();
    a.lerp(b, 0.5)
}
