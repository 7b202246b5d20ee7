//! One unit's next action for an intent: candidate poses aimed at the intent's goal (as far
//! as its allowance reaches and short of it, facing as it does, the way it goes or the aim),
//! with the candidate moves the action list offers (along roads, by river crossings), each
//! scored by how far it would leave the intent from done, then checked in that order by the
//! rules' own move check until one is legal. Pure and read-only.

use super::kinds::{Aim, Intent};
use super::places::Place;
use crate::battle::action::{Action, Deploy, Refusal};
use crate::battle::state::{Battle, UnitGeom, UnitId};
use crate::rules::formation::Formation;
use crate::rules::geometry::{self, Pose, V2, wrap_angle};

/// Below this (cm) an intent is met.
const MET: f64 = 0.5;
/// A move must bring the intent at least this much (score) nearer to be worth an action.
const WORTH: f64 = 0.3;

/// What an intent does with one unit now.
#[derive(Clone, Debug, PartialEq)]
pub struct IntentMove {
    pub unit: UnitId,
    /// Where it stands before.
    pub from: Pose,
    /// The action serving the intent best (a move, or a deploy into line to face), or None
    /// when nothing legal serves it better than standing.
    pub action: Option<Action>,
    /// How far the intent is from done before and after (cm; a facing counts 1 cm for 5°).
    pub need_before: f64,
    pub need_after: f64,
    /// The pose it ends at (its pose when it does not move).
    pub end: Pose,
    /// The intent's enemy (or else the nearest known enemy) from the end pose: who, the
    /// distance base edge to base edge, whether it would see it, whether it would be within
    /// the unit's weapon range and fire cone.
    pub enemy: Option<EnemyThen>,
    /// The place or friend steered for, from the end pose: its name and how far off (0 on it).
    pub place: Option<(String, f64)>,
}

/// An enemy as seen from where a move ends.
#[derive(Clone, Debug, PartialEq)]
pub struct EnemyThen {
    pub unit: UnitId,
    pub distance: f64,
    pub sees: bool,
    pub in_range: bool,
    pub range: f64,
}

impl IntentMove {
    /// The intent is met where the unit ends.
    pub fn met(&self) -> bool {
        self.need_after <= MET
    }
}

/// Where a formation keeps together: its direction of travel, and how far (cm) along it a unit
/// may go this round (its slowest unit's reach), with its own place in the formation (its
/// offset from the formation's middle, added to a place it steers for).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Keep {
    pub dir: V2,
    pub cap: Option<f64>,
    pub offset: V2,
}

impl Keep {
    /// A unit alone.
    pub fn alone() -> Self {
        Keep {
            dir: V2::new(0.0, 0.0),
            cap: None,
            offset: V2::new(0.0, 0.0),
        }
    }
}

impl Battle {
    /// Unit `id`'s next action for `intent`, keeping its place in a formation by `keep`: what
    /// it would do with an action of an order (whether it has one now is the caller's
    /// business: [`super::run::IntentRun`] orders it first; a preview may ask before).
    /// Refused when the intent names a unit the side may not know of, or the unit is not one
    /// that may act on it (a dead unit, a friend named as an enemy).
    pub fn intent_move(&self, id: UnitId, intent: &Intent, keep: &Keep) -> Result<IntentMove, Refusal> {
        let no = |why: String| Err(Refusal::new("Intent orders", why));
        let Some(u) = self.units.get(id as usize) else {
            return no(format!("there is no unit {id}"));
        };
        if !u.alive() {
            return no(format!("{} has been knocked out", u.name));
        }
        if let Some(e) = intent.enemy() {
            match self.units.get(e as usize) {
                Some(eu) if eu.side != u.side && eu.alive() && self.known_to(u.side, e) => {}
                Some(eu) if eu.side == u.side => return no(format!("{} is not an enemy", eu.name)),
                _ => return no("no such enemy is known".into()),
            }
        }
        if let Intent::Beside(f) = intent
            && self
                .units
                .get(*f as usize)
                .is_none_or(|f| f.side != u.side || !f.alive() || f.id == id)
        {
            return no("beside wants another living unit of the same side".into());
        }
        let from = u.pose;
        let here = self.intent_need(id, intent, keep, from, &self.geom_at(id, from));
        let mut best: Option<(Action, Pose)> = None;
        // A line to face: deploy first (BPT "Actions": a change of formation is an action).
        if let Intent::Face(_) = intent
            && u.formation != Formation::Line
            && self.check_deploy(id, Deploy::Formation(Formation::Line), false).is_ok()
            && self.cmd.orders.get(&id).is_some_and(|o| !o.road && !o.self_order)
        {
            return Ok(self.intent_result(
                id,
                intent,
                keep,
                Some(Action::Deploy {
                    unit: id,
                    deploy: Deploy::Formation(Formation::Line),
                }),
                here,
                from,
            ));
        }
        if !matches!(intent, Intent::Hold) {
            // The rule the move is applied with: an order in hand's own check (its dense
            // terrain, road and self-order limits); a preview before the order, the move's.
            let in_hand = self.cmd.orders.get(&id).is_some_and(|o| o.credits > 0 && !o.finished);
            let legal = |q: Pose| {
                if in_hand {
                    self.check_ordered_move(id, q).is_ok()
                } else {
                    self.check_move(id, q, false).is_ok()
                }
            };
            // Those that bring the intent nearer first, best first; then, if none of them is
            // legal, those that only face better (25° or more), no farther from it.
            let stay_style = self.intent_style(id, intent, keep, from, from);
            let mut nearer: Vec<(f64, Pose)> = Vec::new();
            let mut facing: Vec<(f64, Pose)> = Vec::new();
            for q in self.intent_candidates(id, intent, keep) {
                let g = self.geom_at(id, q);
                let need = self.intent_need(id, intent, keep, q, &g);
                let style = self.intent_style(id, intent, keep, from, q);
                if need < here - WORTH {
                    nearer.push((need + style, q));
                } else if need <= here + 1e-6 && style < stay_style - 0.5 {
                    facing.push((need + style, q));
                }
            }
            nearer.sort_by(|a, b| a.0.total_cmp(&b.0));
            facing.sort_by(|a, b| a.0.total_cmp(&b.0));
            let scored = nearer.into_iter().chain(facing);
            // An unlimbered gun turns in place by a pivot (BPT "Towed Guns": a deploy), not a move.
            let gun = u.is_artillery() && !u.limbered;
            best = scored.into_iter().find_map(|(_, q)| {
                let turn_only = q.pos.dist(from.pos) < 1e-6;
                if gun && turn_only {
                    let pivot = Deploy::Pivot(q.facing);
                    return self.check_deploy(id, pivot, false).is_ok().then_some((
                        Action::Deploy {
                            unit: id,
                            deploy: pivot,
                        },
                        q,
                    ));
                }
                legal(q).then_some((Action::Move { unit: id, to: q }, q))
            });
        }
        let (action, end) = match best {
            Some((a, q)) => (Some(a), q),
            None => (None, from),
        };
        Ok(self.intent_result(id, intent, keep, action, here, end))
    }

    /// The facts of a chosen action: the need after, the enemy and place from the end pose.
    fn intent_result(
        &self,
        id: UnitId,
        intent: &Intent,
        keep: &Keep,
        action: Option<Action>,
        need_before: f64,
        end: Pose,
    ) -> IntentMove {
        let mut moved = self.unit(id).clone();
        moved.pose = end;
        if let Some(Action::Deploy {
            deploy: Deploy::Formation(f),
            ..
        }) = action
        {
            moved.formation = f;
        }
        let g = self.compute_geom(&moved);
        let need_after = if matches!(
            action,
            Some(Action::Deploy {
                deploy: Deploy::Formation(_),
                ..
            })
        ) {
            need_before
        } else {
            self.intent_need(id, intent, keep, end, &g)
        };
        let enemy = intent
            .enemy()
            .or_else(|| self.nearest_known_enemy(id).map(|(e, _)| e))
            .map(|e| {
                let distance = geometry::rects_distance(&g.rects, self.rects(e));
                let sight = crate::rules::los::Sighting {
                    id,
                    stands: &g.rects,
                    front: g.front,
                    facing: end.facing,
                    all_round: moved.formation == Formation::Square,
                    hard_to_see: moved.dug_in || (moved.is_artillery() && !moved.limbered),
                    dug_in: moved.dug_in,
                };
                let sees = distance <= self.los.params().visibility && self.los.sees(&sight, &self.sighting(e)).is_ok();
                let range = self.weapon_range(&moved);
                let in_range = range > 0.0 && self.in_cone(&g, end.facing, e, range);
                EnemyThen {
                    unit: e,
                    distance,
                    sees,
                    in_range,
                    range,
                }
            });
        let place = match intent {
            Intent::To(p) | Intent::Face(Aim::Place(p)) => {
                Some((p.name.clone(), self.off_place(p, end.pos - keep.offset)))
            }
            Intent::Behind(p) => Some((p.name.clone(), self.intent_need(id, intent, keep, end, &g))),
            Intent::Beside(f) => Some((
                self.unit(*f).name.clone(),
                geometry::rects_distance(&g.rects, self.rects(*f)),
            )),
            _ => None,
        };
        IntentMove {
            unit: id,
            from: self.unit(id).pose,
            action,
            need_before,
            need_after,
            end,
            enemy,
            place,
        }
    }

    /// The unit's bases and front were it at `pose` (an ordered move dresses a refused line).
    fn geom_at(&self, id: UnitId, pose: Pose) -> UnitGeom {
        let mut u = self.unit(id).clone();
        u.pose = pose;
        u.refused = (false, false);
        self.compute_geom(&u)
    }

    /// Whether a base of enemy `e` is within `range` in the fire cone of a unit laid out as
    /// `g` facing `facing` (BPT "Weapons Firing Cone").
    fn in_cone(&self, g: &UnitGeom, facing: f64, e: UnitId, range: f64) -> bool {
        let half = self.rules.visibility.fire_cone_half_deg.to_radians();
        range > 0.0
            && self
                .rects(e)
                .iter()
                .any(|r| geometry::rect_in_cone(g.front, facing, half, range + 0.01, r))
    }

    /// The point unit `id` steers for, and the facing it wants at the end (if the intent
    /// wants one).
    pub fn intent_goal(&self, id: UnitId, intent: &Intent, keep: &Keep) -> Option<(V2, Option<f64>)> {
        let u = self.unit(id);
        let p = u.pose.pos;
        match intent {
            Intent::Hold => None,
            Intent::To(place) => {
                let g = self.place_point(place, p - keep.offset) + keep.offset;
                Some((g, self.arrival_facing(id, g)))
            }
            Intent::Beside(f) => {
                let g = self.beside_point(id, *f);
                Some((g, Some(self.unit(*f).pose.facing)))
            }
            Intent::IntoRange(e) | Intent::ChargeReach(e) | Intent::Face(Aim::Unit(e)) => {
                let ep = self.unit(*e).pose.pos;
                // Steer parallel to the formation: the enemy's point, beside it by the unit's
                // place across the line of travel.
                let side = keep.dir.perp();
                let g = ep + side * keep.offset.dot(side);
                Some((g, Some((ep - p).angle())))
            }
            Intent::Face(Aim::Place(place)) => {
                let g = self.place_point(place, p);
                Some((p, Some((g - p).angle())))
            }
            Intent::Behind(place) => {
                let g = self.behind_point(id, place) + keep.offset;
                Some((g, self.arrival_facing(id, g)))
            }
        }
    }

    /// The facing wanted going to `g`: the way there while it is beyond this move; arriving,
    /// towards the nearest enemy the side knows of (or still the way it came).
    fn arrival_facing(&self, id: UnitId, g: V2) -> Option<f64> {
        let u = self.unit(id);
        let to = g - u.pose.pos;
        if to.len() > u.move_rate() {
            return Some(to.angle());
        }
        self.nearest_known_enemy(id)
            .map(|(e, _)| (self.unit(e).pose.pos - g).angle())
            .or_else(|| (to.len() > 1e-6).then(|| to.angle()))
    }

    /// Beside friend `f`: on its flank nearer unit `id`, frontages apart with a 2 cm gap, in
    /// line with it.
    fn beside_point(&self, id: UnitId, f: UnitId) -> V2 {
        let fu = self.unit(f);
        let half = |x: &crate::battle::state::Unit| self.frontage(x).0 * 0.5;
        let across = half(fu) + half(self.unit(id)) + 2.0;
        let left = geometry::dir(fu.pose.facing + std::f64::consts::FRAC_PI_2);
        let me = self.unit(id).pose.pos;
        let (l, r) = (fu.pose.pos + left * across, fu.pose.pos - left * across);
        if me.dist(l) <= me.dist(r) { l } else { r }
    }

    /// Behind `place` from the nearest enemy the side knows of: the point of the place, then
    /// on beyond it away from that enemy by half the unit's depth and its size (a feature's
    /// reach from its middle) plus 2 cm. With no enemy known, behind it from the unit.
    fn behind_point(&self, id: UnitId, place: &Place) -> V2 {
        let u = self.unit(id);
        let at = self.place_point(place, u.pose.pos);
        let threat = self
            .nearest_known_enemy(id)
            .map_or(at + (at - u.pose.pos), |(e, _)| self.unit(e).pose.pos);
        let away = (at - threat).norm();
        let reach = self.place_reach(place, at, away);
        at + away * (reach + self.frontage(u).1 * 0.5 + 2.0)
    }

    /// How far a place reaches from `at` in direction `dir` (0 for a line or a point).
    fn place_reach(&self, place: &Place, at: V2, dir: V2) -> f64 {
        use super::places::PlaceKind;
        let t = &self.terrain;
        let outline = match place.kind {
            PlaceKind::Area(i) => t.areas.get(i).map(|a| &a.outline),
            PlaceKind::Building(i) => t.buildings.get(i).map(|b| &b.outline),
            PlaceKind::Hill(i) => t.hills.get(i).and_then(|h| h.contours.last()).map(|c| &c.outline),
            PlaceKind::Objective(_) | PlaceKind::Linear(_) => None,
        };
        outline.map_or(0.0, |o| o.0.iter().map(|v| (*v - at).dot(dir)).fold(0.0, f64::max))
    }

    /// How far pose `q` (with its bases `rects`) leaves unit `id`'s intent from done, in cm.
    fn intent_need(&self, id: UnitId, intent: &Intent, keep: &Keep, q: Pose, g: &UnitGeom) -> f64 {
        let rects = &g.rects;
        let facing_off = |want: f64| wrap_angle(q.facing - want).abs().to_degrees() / 5.0;
        match intent {
            Intent::Hold => 0.0,
            Intent::To(p) => self.off_place(p, q.pos - keep.offset),
            Intent::Beside(f) => {
                let g = self.beside_point(id, *f);
                (q.pos.dist(g) - 1.0).max(0.0) + facing_off(self.unit(*f).pose.facing) * 0.2
            }
            Intent::IntoRange(e) => {
                // Met as the fire check has it: a base of the enemy in the fire cone, in range.
                let range = self.weapon_range(self.unit(id));
                if self.in_cone(g, q.facing, *e, range) {
                    return 0.0;
                }
                let d = geometry::rects_distance(rects, self.rects(*e));
                let ep = self.unit(*e).pose.pos;
                let half = self.rules.visibility.fire_cone_half_deg;
                let off_arc = (facing_off((ep - q.pos).angle()) * 5.0 - half).max(0.0) / 5.0;
                (d - (range - 1.0)).max(0.0) + off_arc + 1.0
            }
            Intent::ChargeReach(e) => {
                let reach = self.rules.charge.distance;
                let d = geometry::rects_distance(rects, self.rects(*e));
                let ep = self.unit(*e).pose.pos;
                (d - (reach - 1.0)).max(0.0) + facing_off((ep - q.pos).angle()) * 0.2
            }
            Intent::Face(aim) => {
                let at = match aim {
                    Aim::Unit(e) => self.unit(*e).pose.pos,
                    Aim::Place(p) => self.place_point(p, q.pos),
                };
                facing_off((at - q.pos).angle())
            }
            Intent::Behind(p) => {
                let g = self.behind_point(id, p) + keep.offset;
                (q.pos.dist(g) - 1.0).max(0.0)
            }
        }
    }

    /// What is preferred among poses that serve the intent alike: facing the way wanted,
    /// keeping to the formation (no farther along its way than its slowest unit), and the
    /// shorter move.
    fn intent_style(&self, id: UnitId, intent: &Intent, keep: &Keep, from: Pose, q: Pose) -> f64 {
        let want = self.intent_goal(id, intent, keep).and_then(|(_, f)| f);
        let facing = want.map_or(0.0, |w| wrap_angle(q.facing - w).abs().to_degrees() * 0.02);
        let ahead = (q.pos - from.pos).dot(keep.dir);
        let beyond = keep.cap.map_or(0.0, |c| (ahead - c - 1.0).max(0.0) * 5.0);
        facing + beyond + from.pos.dist(q.pos) * 0.01
    }

    /// The poses tried for unit `id`'s intent: towards its goal the whole allowance and
    /// short of it (and exactly to where the intent is met, for an enemy's range or reach),
    /// facing as now, the way it goes, the way wanted, or turned as far as a wheel goes
    /// towards it; with the list's own candidate moves.
    fn intent_candidates(&self, id: UnitId, intent: &Intent, keep: &Keep) -> Vec<Pose> {
        let u = self.unit(id);
        let rate = u.move_rate();
        let p = u.pose;
        let Some((goal, want)) = self.intent_goal(id, intent, keep) else {
            return Vec::new();
        };
        let mut v = Vec::new();
        let to = goal - p.pos;
        let dist = to.len();
        let mut facings = vec![p.facing];
        if let Some(w) = want {
            facings.push(w);
            let turn = wrap_angle(w - p.facing).clamp(-std::f64::consts::FRAC_PI_4, std::f64::consts::FRAC_PI_4);
            facings.push(p.facing + turn);
        }
        if dist > 1e-6 {
            facings.push(to.angle());
        }
        // Turns in place.
        for &f in &facings[1..] {
            v.push(Pose::new(p.pos, f));
        }
        if dist > 1e-6 && rate > 0.0 {
            let dir = to.norm();
            let mut dists: Vec<f64> = [1.0, 0.85, 0.7, 0.5, 0.3, 0.15]
                .iter()
                .map(|f| f * rate.min(dist))
                .collect();
            let edge_to = |e: UnitId, want: f64| {
                let d = self.unit_distance(id, e);
                (d - want).clamp(0.0, rate.min(dist))
            };
            match intent {
                Intent::IntoRange(e) => dists.push(edge_to(*e, self.weapon_range(u) - 2.0)),
                Intent::ChargeReach(e) => dists.push(edge_to(*e, self.rules.charge.distance - 2.0)),
                _ => {}
            }
            for d in dists {
                for &f in &facings {
                    let q = Pose::new(p.pos + dir * d, f);
                    if !v.contains(&q) {
                        v.push(q);
                    }
                }
            }
        }
        v.extend(self.candidate_moves(id));
        v
    }
}
