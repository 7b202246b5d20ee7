//! The legal actions of the current state: what the UI offers, what agents choose from, what
//! tests sweep. Moves are continuous; this lists a representative set of legal destinations
//! (full and half moves ahead, obliques, wheels, about face, retire, towards the nearest
//! enemy and the side's objective, and round a river by its bridge or ford where one bars the
//! way to them), each checked by the same validation as `apply`.

use super::action::{Action, Deploy};
use super::fire::FireContext;
use super::state::*;
use crate::data::scenario::Ammo;
use crate::rules::formation::Formation;
use crate::rules::geometry::{self, Pose, V2, wrap_angle};
use std::f64::consts::PI;

impl Battle {
    /// Every legal action now, in a stable order.
    pub fn legal_actions(&self) -> Vec<Action> {
        // Only whether each action is allowed is asked: refusals go unworded.
        super::action::quietly(|| self.list_legal())
    }

    fn list_legal(&self) -> Vec<Action> {
        let mut out = Vec::new();
        if self.phase == Phase::GameOver {
            return out;
        }
        match &self.step {
            Step::CounterInitiative {
                charger,
                target,
                eligible,
                ..
            } => {
                for &u in eligible {
                    if self.check_fire(u, *charger, FireContext::Counter).is_ok() {
                        out.push(Action::CounterFire { unit: u });
                    }
                    if (u == *target || self.phase == Phase::Initiative) && self.check_evade(u).is_ok() {
                        out.push(Action::CounterEvade { unit: u });
                    }
                    if u == *target
                        && let Some(d) = self.counter_pivot(u, *charger)
                        && self.check_counter_deploy(u, d).is_ok()
                    {
                        out.push(Action::CounterDeploy { unit: u, deploy: d });
                    }
                    if u == *target {
                        let t = self.unit(u);
                        if t.is_cavalry() && t.mounted() {
                            out.push(Action::CounterCharge { unit: u });
                        }
                    }
                }
                out.push(Action::Pass);
            }
            Step::Reaction { mover, eligible } => {
                for &u in eligible {
                    out.push(Action::OpportunityFire {
                        unit: u,
                        target: *mover,
                        with: Vec::new(),
                    });
                }
                // All of them together, one roll (BPT "Opportunity Fire").
                let pooled: Vec<UnitId> = eligible.iter().copied().filter(|&u| !self.uses_ammo(u)).collect();
                if let [first, rest @ ..] = pooled.as_slice()
                    && !rest.is_empty()
                {
                    out.push(Action::OpportunityFire {
                        unit: *first,
                        target: *mover,
                        with: rest.to_vec(),
                    });
                }
                out.push(Action::Pass);
            }
            Step::Support { side } => {
                for (u, f) in self.possible_supports(*side) {
                    out.push(Action::Support { unit: u, friend: f });
                }
                out.push(Action::Pass);
            }
            Step::Consolidate { unit, .. } => self.legal_consolidations(*unit, &mut out),
            Step::Open => {
                match self.phase {
                    Phase::Initiative => self.legal_initiative(&mut out),
                    Phase::Command => self.legal_command(&mut out),
                    _ => {}
                }
                self.optional_legal(&mut out);
            }
        }
        out
    }

    /// Supports `id` may move in: friends of the active side in a combat.
    pub(crate) fn legal_supports(&self, id: UnitId, out: &mut Vec<Action>) {
        for c in &self.combats {
            let mut friends = c.chargers.clone();
            friends.push(c.target);
            for f in friends {
                if self.unit(f).side == self.active && self.check_support(id, f).is_ok() {
                    out.push(Action::Support { unit: id, friend: f });
                }
            }
        }
    }

    fn legal_initiative(&self, out: &mut Vec<Action>) {
        for (unit, linear) in self.legal_engineer_tasks() {
            out.push(Action::Engineer { unit, linear });
        }
        for u in self.side_units(self.active) {
            // Support needs no enemy within the initiative distance, only a charge within 10 cm.
            for c in &self.combats {
                for f in c.chargers.iter().chain([&c.target]) {
                    if self.check_initiative_support(u.id, *f).is_ok() {
                        out.push(Action::Support { unit: u.id, friend: *f });
                    }
                }
            }
            let Ok((_, near)) = self.check_initiative(u.id) else {
                continue;
            };
            for e in self.initiative_fire_targets(u.id, near) {
                if self.check_fire(u.id, e, FireContext::Initiative).is_ok() {
                    out.push(Action::InitiativeFire { unit: u.id, target: e });
                }
            }
            for (e, d) in self.visible_enemies(u.id) {
                if d > near + 1e-9 {
                    break;
                }
                if self.check_charge(u.id, e).is_ok() && self.check_initiative_charge_test(u.id, e).is_ok() {
                    out.push(Action::InitiativeCharge { unit: u.id, target: e });
                }
            }
            if self.check_evade(u.id).is_ok() {
                out.push(Action::InitiativeEvade { unit: u.id });
            }
            for d in [
                Deploy::Dismount,
                Deploy::Mount,
                Deploy::Limber,
                Deploy::Unlimber,
                Deploy::Load(Ammo::Shot),
                Deploy::Load(Ammo::Canister),
                Deploy::Load(Ammo::Shell),
                Deploy::Load(Ammo::AirBurst),
            ] {
                if self.check_deploy(u.id, d, true).is_ok() {
                    out.push(Action::InitiativeDeploy { unit: u.id, deploy: d });
                }
            }
        }
        out.push(Action::EndPhase);
    }

    fn legal_command(&self, out: &mut Vec<Action>) {
        if self.initiative_passing() {
            self.legal_passing(out);
            return;
        }
        // Actions of units with orders in hand.
        for (&id, o) in &self.cmd.orders {
            if o.finished || !self.unit(id).alive() {
                continue;
            }
            if o.credits == 0 {
                if self.ordered_to_fire_after_manhandling(id) {
                    for (e, _) in self.visible_enemies(id) {
                        if self.check_fire(id, e, FireContext::Order).is_ok() {
                            out.push(Action::Fire { unit: id, target: e });
                        }
                    }
                }
                continue;
            }
            for to in self.candidate_moves(id) {
                if o.self_order {
                    let ok = self.nearest_chain_commander(id).is_some_and(|c| {
                        let cp = self.commander(c).pos;
                        to.pos.dist(cp) < self.unit(id).pose.pos.dist(cp)
                    });
                    if !ok {
                        continue;
                    }
                }
                // The order's own rule (its dense terrain, a road order's whole move along the
                // road ending along it: BPT note 2, "March Column"), as `apply` checks it.
                if self.check_ordered_move(id, to).is_ok() {
                    out.push(Action::Move { unit: id, to });
                }
            }
            if o.self_order || o.road {
                continue;
            }
            for d in self.candidate_deploys(id) {
                if self.check_deploy(id, d, false).is_ok() {
                    out.push(Action::Deploy { unit: id, deploy: d });
                }
            }
            for (e, _) in self.visible_enemies(id) {
                if self.check_fire(id, e, FireContext::Order).is_ok() {
                    out.push(Action::Fire { unit: id, target: e });
                }
                if o.may_charge && self.check_charge(id, e).is_ok() {
                    out.push(Action::Charge { unit: id, target: e });
                }
            }
            self.legal_supports(id, out);
        }
        self.legal_fire_together(out);
        // Units with a visible enemy within charge distance (worked out once).
        // Bounding boxes first: most pairs are far apart, and the exact edge distance is dear.
        let boxes: Vec<(V2, V2)> = self.units.iter().map(|u| self.unit_box(u.id)).collect();
        let reach = self.rules.charge.distance;
        let near = |a: UnitId, b: UnitId| {
            let ((alo, ahi), (blo, bhi)) = (boxes[a as usize], boxes[b as usize]);
            let gx = (blo.x - ahi.x).max(alo.x - bhi.x).max(0.0);
            let gy = (blo.y - ahi.y).max(alo.y - bhi.y).max(0.0);
            gx * gx + gy * gy <= reach * reach
        };
        // Asked only of the units some commander may order now, each once (issue 66's speed).
        let mut close_memo: Vec<Option<bool>> = vec![None; self.units.len()];
        let mut close = |id: UnitId| {
            *close_memo[id as usize].get_or_insert_with(|| {
                let u = self.unit(id);
                u.alive()
                    && u.side == self.active
                    && self.cmd.orders.get(&id).is_none_or(|o| !o.finished)
                    && self
                        .side_units(1 - u.side)
                        .any(|e| near(id, e.id) && self.unit_distance(id, e.id) <= reach && self.sees(id, e.id))
            })
        };
        // New orders: each commander to each of its units alone and to all of them together.
        // Each commander's units (his own and his subordinates'), in the units' order: found
        // up each unit's chain of command once, not by asking every commander of every unit.
        let mut under: Vec<Vec<UnitId>> = vec![Vec::new(); self.commanders.len()];
        for u in self.side_units(self.active) {
            for c in self.chain_of(u.hq) {
                let list = &mut under[c as usize];
                if list.last() != Some(&u.id) {
                    list.push(u.id);
                }
            }
        }
        for c in self.commanders.iter().filter(|c| c.side == self.active && c.alive()) {
            let mine = std::mem::take(&mut under[c.id as usize]);
            // A commander who may not order now (done, suppressed...) is refused every group
            // alike: asked once (issue 66's speed).
            let may_order = self.check_commander_can_order(c.id).is_ok();
            let mut groups: Vec<Vec<UnitId>> = if may_order {
                mine.iter().map(|&u| vec![u]).collect()
            } else {
                Vec::new()
            };
            let direct: Vec<UnitId> = mine.iter().copied().filter(|&u| self.unit(u).hq == c.id).collect();
            if may_order && direct.len() > 1 {
                groups.push(direct);
            }
            for g in groups {
                let enemy_close = g.iter().any(|&u| close(u));
                for charge in [false, true] {
                    if charge && !enemy_close {
                        continue;
                    }
                    if self.check_order_allowed(c.id, &g, charge, false).is_ok() {
                        out.push(Action::Order {
                            commander: c.id,
                            units: g.clone(),
                            charge,
                            dense: false,
                            road: false,
                        });
                    }
                }
                // A road order where it spares a distance modifier: columns standing on a road.
                let on_road = g.iter().all(|&u| {
                    let p = self.unit(u).pose.pos;
                    self.unit(u).formation == Formation::MarchColumn && self.terrain.on_road(p, p)
                });
                if on_road
                    && let (Ok(plain), Ok(road)) = (
                        self.check_order(c.id, &g, false, false),
                        self.check_order_by(c.id, &g, false, false, true),
                    )
                    && road.target > plain.target
                {
                    out.push(Action::Order {
                        commander: c.id,
                        units: g.clone(),
                        charge: false,
                        dense: false,
                        road: true,
                    });
                }
            }
            if self.check_commander_may_move(c.id).is_ok() {
                for to in self.candidate_commander_moves(c.id) {
                    if self.check_commander_move(c.id, to).is_ok() {
                        out.push(Action::CommanderMove { commander: c.id, to });
                    }
                }
            }
        }
        for u in self.side_units(self.active) {
            if self.check_self_order(u.id).is_ok() {
                out.push(Action::SelfOrder { unit: u.id });
            }
        }
        self.legal_attach(out);
        out.push(Action::EndPhase);
    }

    /// The units of the order in hand that may fire at one enemy, all of them together, one
    /// roll (BPT "Firing": "When two or more units are firing at the same target, roll all the
    /// dice together"), where two or more may.
    fn legal_fire_together(&self, out: &mut Vec<Action>) {
        let ready: Vec<UnitId> = self
            .cmd
            .orders
            .iter()
            .filter(|(id, o)| o.credits > 0 && !o.finished && !o.road && !self.uses_ammo(**id))
            .map(|(id, _)| *id)
            .collect();
        if ready.len() < 2 {
            return;
        }
        for e in self.side_units(1 - self.active) {
            let firers: Vec<UnitId> = ready
                .iter()
                .copied()
                .filter(|&u| self.check_fire(u, e.id, FireContext::Order).is_ok())
                .collect();
            if let [first, rest @ ..] = firers.as_slice()
                && !rest.is_empty()
            {
                out.push(Action::FireTogether {
                    unit: *first,
                    target: e.id,
                    with: rest.to_vec(),
                });
            }
        }
    }

    pub fn candidate_deploys(&self, id: UnitId) -> Vec<Deploy> {
        let mut v: Vec<Deploy> = Formation::ALL.iter().map(|f| Deploy::Formation(*f)).collect();
        v.extend([Deploy::Dismount, Deploy::Mount, Deploy::Limber, Deploy::Unlimber]);
        v.extend([Ammo::Shot, Ammo::Canister, Ammo::Shell, Ammo::AirBurst].map(Deploy::Load));
        v.extend([
            Deploy::RefuseFlank {
                left: true,
                right: true,
            },
            Deploy::RefuseFlank {
                left: false,
                right: false,
            },
        ]);
        if self.rules.switches.on(crate::rules::switches::Switch::Prone) {
            v.extend([Deploy::Prone(true), Deploy::Prone(false)]);
        }
        let u = self.unit(id);
        if let Some((e, _)) = self.nearest_known_enemy(id).filter(|_| u.is_artillery() && !u.limbered) {
            let a = (self.unit(e).pose.pos - u.pose.pos).angle();
            if wrap_angle(a - u.pose.facing).abs() > 0.05 {
                v.push(Deploy::Pivot(a));
            }
        }
        v
    }

    /// A representative set of destinations for an ordered move.
    pub fn candidate_moves(&self, id: UnitId) -> Vec<Pose> {
        let u = self.unit(id);
        let rate = u.move_rate();
        if rate <= 0.0 {
            return Vec::new();
        }
        let p = u.pose;
        let mut v = Vec::new();
        let fwd = p.forward();
        for frac in [1.0, 0.5, 0.25] {
            let d = rate * frac;
            v.push(Pose::new(p.pos + fwd * d, p.facing));
            for a in [PI / 4.0, -PI / 4.0] {
                v.push(Pose::new(p.pos + fwd.rotate(a) * d, p.facing));
            }
        }
        // Retire: a quarter move back.
        v.push(Pose::new(p.pos - fwd * (rate * 0.25), p.facing));
        // Wheels in place and with a short advance.
        for a in [PI / 4.0, -PI / 4.0, PI / 8.0, -PI / 8.0] {
            v.push(Pose::new(p.pos, p.facing + a));
            v.push(Pose::new(
                p.pos + p.forward().rotate(a / 2.0) * (rate * 0.3),
                p.facing + a,
            ));
        }
        // About face.
        v.push(Pose::new(p.pos, wrap_angle(p.facing + PI)));
        // Towards the nearest enemy and towards the side's objective, turning to face.
        let mut goals: Vec<V2> = Vec::new();
        if let Some((e, _)) = self.nearest_known_enemy(id) {
            goals.push(self.unit(e).pose.pos);
        }
        for o in self.objectives.iter().filter(|o| o.side == self.sides[u.side].name) {
            goals.push(o.pos);
        }
        for g in goals {
            let to = g - p.pos;
            let dist = to.len();
            if dist < 1e-6 {
                continue;
            }
            let dir = to.norm();
            let ang = dir.angle();
            let turn = wrap_angle(ang - p.facing);
            let clamped = p.facing + turn.clamp(-PI / 4.0, PI / 4.0);
            for frac in [1.0, 0.5] {
                let d = (rate * frac).min((dist - 6.0).max(0.0));
                v.push(Pose::new(p.pos + dir * d, p.facing));
                v.push(Pose::new(p.pos + dir * (d * 0.5), clamped));
            }
            v.extend(self.candidate_way_moves(id, g));
        }
        v.extend(self.candidate_road_moves(id));
        v
    }

    /// Where a river bars the straight way to `goal` ([`crate::rules::terrain::Terrain::way_via`]):
    /// a move along the way by its crossing, to the bank before it, onto it and off it beyond
    /// (each as far as the allowance reaches), facing across the river or the way it goes (and,
    /// to the bank, as it faces: a line's oblique). A line too wide for the bridge is refused
    /// there; a march column turns freely and crosses.
    fn candidate_way_moves(&self, id: UnitId, goal: V2) -> Vec<Pose> {
        let u = self.unit(id);
        let p = u.pose;
        let Some((_, c)) = self.terrain.way_via(p.pos, goal, u.on_foot()) else {
            return Vec::new();
        };
        let depth = self.frontage(u).1;
        let off = depth * 0.5 + 0.5;
        let near = c.bank(p.pos, off);
        let far = c.bank(goal, off);
        let over = (far - near).norm().angle();
        let mut v = Vec::new();
        for (q, keep) in [(near, true), (c.at, false), (far, false)] {
            let dist = p.pos.dist(q);
            if dist < 0.5 {
                continue;
            }
            let dir = (q - p.pos).norm();
            let to = p.pos + dir * dist.min(u.move_rate());
            let facings = [Some(over), Some(dir.angle()), keep.then_some(p.facing)];
            for facing in facings.into_iter().flatten() {
                let pose = Pose::new(to, facing);
                if !v.contains(&pose) {
                    v.push(pose);
                }
            }
        }
        v
    }

    /// A march column on a road: along it both ways, the whole allowance with the road bonus
    /// and half of it, round the bends (BPT "March Column"), facing the way it goes.
    fn candidate_road_moves(&self, id: UnitId) -> Vec<Pose> {
        use crate::rules::terrain::{LinearKind, polyline_point_at, polyline_project};
        let u = self.unit(id);
        let mr = &self.rules.movement;
        if u.formation != Formation::MarchColumn || !self.terrain.on_road(u.pose.pos, u.pose.pos) {
            return Vec::new();
        }
        let horse = u.mounted() || (u.is_artillery() && u.limbered);
        let reach = u.move_rate() + if horse { mr.road_bonus_horse } else { mr.road_bonus_foot };
        let mut v = Vec::new();
        for road in self.terrain.linears.iter().filter(|l| l.kind == LinearKind::Road) {
            let Some((s, q, _)) = polyline_project(&road.points, u.pose.pos) else {
                continue;
            };
            if q.dist(u.pose.pos) > road.width * 0.5 + 0.5 {
                continue;
            }
            for sign in [1.0, -1.0] {
                for frac in [0.95, 0.5] {
                    let Some(to) = polyline_point_at(&road.points, s + sign * reach * frac) else {
                        continue;
                    };
                    let Some((_, _, dir)) = polyline_project(&road.points, to) else {
                        continue;
                    };
                    if to.dist(u.pose.pos) > 0.5 {
                        v.push(Pose::new(to, (dir * sign).angle()));
                    }
                }
            }
        }
        v
    }

    pub(crate) fn candidate_commander_moves(&self, c: CmdId) -> Vec<V2> {
        let cm = self.commander(c);
        let mut v = Vec::new();
        let toward = |spot: V2| {
            if spot.dist(cm.pos) <= cm.move_rate() {
                spot
            } else {
                cm.pos + (spot - cm.pos).norm() * (cm.move_rate() * 0.9)
            }
        };
        // Beside each unit it commands (command presence), or as far towards it as it rides.
        let mut mine: Vec<V2> = Vec::new();
        for u in self.side_units(cm.side).filter(|u| u.hq == c) {
            v.push(toward(self.spot_behind(u.id)));
            mine.push(u.pose.pos);
        }
        // Amid them, where the farthest is nearest (BPT Command Modifiers note 2 counts the
        // distance to the farthest unit of an order): the middle of the box around them.
        if mine.len() > 1 {
            let lo = mine.iter().fold(V2::new(f64::INFINITY, f64::INFINITY), |a, p| {
                V2::new(a.x.min(p.x), a.y.min(p.y))
            });
            let hi = mine.iter().fold(V2::new(f64::NEG_INFINITY, f64::NEG_INFINITY), |a, p| {
                V2::new(a.x.max(p.x), a.y.max(p.y))
            });
            let middle = toward(lo.lerp(hi, 0.5));
            if middle.dist(cm.pos) > 0.5 {
                v.push(middle);
            }
        }
        v
    }
}

impl Battle {
    /// A box holding every base of the unit (worked out with its bases, `UnitGeom::bbox`).
    pub fn unit_box(&self, id: UnitId) -> (V2, V2) {
        self.geom[id as usize].bbox
    }

    /// Whether unit `o`'s box is more than `margin` away from the box `(lo, hi)`: then none of
    /// its bases can touch, overlap or come within `margin` of anything inside the box (a
    /// cheap test before the exact one, on a crowded table).
    pub fn unit_box_apart(&self, o: UnitId, bx: (V2, V2), margin: f64) -> bool {
        geometry::boxes_apart(self.unit_box(o), bx, margin)
    }
}
