//! Charges (BPT "Charge": declaring, support, response, contact, resolution, outcome,
//! consolidate, retreat; DECISIONS "Phases" 3).

use super::action::{Refusal, refuse, refuse_with};
use super::event::{
    ChargeFailure, CombatSide, Event, ForcedInto, KnockOut, ModRule, Modifier, MoveKind, RetiredWhy, SuppressedWhy,
};
use super::fire::ForcedKind;
use super::optional::Act;
use super::state::*;
use crate::battle::event::families::*;
use crate::data::army::{Arm, Trait};
use crate::rules::formation::Formation;
use crate::rules::geometry::{self, Aspect, Pose, V2};
use crate::rules::odds::{self, ChargeFight, ChargeOdds, Fighter};
use crate::rules::params::Cover;
use crate::rules::terrain::LinearKind;

/// A charge worked out before anyone moves.
#[derive(Clone, Debug, PartialEq)]
pub struct ChargePlan {
    pub unit: UnitId,
    pub target: UnitId,
    /// Where the charger stops for the counter-initiative (2 cm off).
    pub held: Pose,
    /// Where it makes contact.
    pub contact: Pose,
    pub aspect: Aspect,
    /// Distance still to travel from the held position.
    pub left: f64,
}

/// The units of a combat round by side: the side charging (`attacker`), the units in
/// contact and the units in support.
struct Engaged {
    attacker: usize,
    contact: [Vec<UnitId>; 2],
    supports: [Vec<UnitId>; 2],
    /// The target counter-charged (BPT "Counter-Charge"): it charged too.
    counter_charge: bool,
}

/// How far off an edge a pose facing it stands ([`Battle::pose_facing_edge`]), cm: a contact
/// pose is this far off, so the charge still to travel is the gap less this.
const EDGE_GAP: f64 = 0.01;

impl Battle {
    /// The target's four formation edges in its own frame: (outward normal, midpoint, half length, aspect).
    fn target_edges(&self, target: UnitId) -> Vec<(V2, V2, f64, Aspect)> {
        let t = self.unit(target);
        let fwd = t.pose.forward();
        let left = fwd.perp();
        let rects = self.rects(target);
        let g = &self.geom[target as usize];
        let n = g.fighting.max(1);
        let corners: Vec<V2> = rects[..n].iter().flat_map(|r| r.corners()).collect();
        let proj = |v: V2, axis: V2| (v - t.pose.pos).dot(axis);
        let (mut f0, mut f1, mut l0, mut l1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for c in &corners {
            f0 = f0.min(proj(*c, fwd));
            f1 = f1.max(proj(*c, fwd));
            l0 = l0.min(proj(*c, left));
            l1 = l1.max(proj(*c, left));
        }
        let at = |a: f64, b: f64| t.pose.pos + fwd * a + left * b;
        // The rear face lies behind every base, the command stand too: a charger there must
        // not stand on it.
        let back = rects
            .iter()
            .flat_map(|r| r.corners())
            .map(|c| proj(c, fwd))
            .fold(f0, f64::min);
        let march = t.formation == Formation::MarchColumn;
        let front_aspect = if march { Aspect::Flank } else { Aspect::Front };
        // BPT "Square": "an all round defence": every face is a front (until rules `bpt-7` a
        // square charged from its side was logged as contacted in the flank).
        let square = t.formation == Formation::Square;
        let (flank, rear) = if square {
            (Aspect::Front, Aspect::Front)
        } else {
            (Aspect::Flank, Aspect::Rear)
        };
        vec![
            (fwd, at(f1, (l0 + l1) / 2.0), (l1 - l0) / 2.0, front_aspect),
            (left, at((f0 + f1) / 2.0, l1), (f1 - f0) / 2.0, flank),
            (-left, at((f0 + f1) / 2.0, l0), (f1 - f0) / 2.0, flank),
            (-fwd, at(back, (l0 + l1) / 2.0), (l1 - l0) / 2.0, rear),
        ]
    }

    /// The target's base edges for a charger at `from`, the one to contact first (BPT
    /// "Charging": "A unit must contact the nearest visible base edge"). **Decision**
    /// (rules `bpt-5`, docs/rules.md): by how far `from` lies beyond each edge, outward,
    /// furthest first. That is the nearest edge wherever one is nearest (in front of a line,
    /// its front; beside it, its flank); off a corner, where the front and a flank are equally
    /// near, it is the one the charger faces more squarely (the 45° line from the corner).
    /// Until `bpt-4` the edges were ordered by the distance to their middles, so a charger in
    /// front of the end stand of a line, or diagonally before it, went into its flank.
    fn edges_nearest_first(&self, target: UnitId, from: V2) -> Vec<(V2, V2, f64, Aspect)> {
        let mut edges = self.target_edges(target);
        edges.sort_by(|a, b| (from - b.1).dot(b.0).total_cmp(&(from - a.1).dot(a.0)));
        edges
    }

    /// Which face of `id` the enemy unit `enemy` fights in a charge (BPT "Fighting to the flank
    /// or rear", "Allocating Hits": the base edge contacted). **Decision** (rules.md): the face
    /// of `id`'s formation box that `enemy`'s bases touch edge to edge (rules `bpt-7`), and
    /// where they touch none, the face that the centre of `enemy`'s bases lies furthest beyond, so a
    /// wide line charging a narrow line's flank fights its flank even where its ends reach past
    /// the target's front (the fire cone, which decides flank shots, is not used for contact).
    /// A march column's front counts as flank; a refused flank stand turns its flank to front.
    pub fn contact_aspect(&self, id: UnitId, enemy: UnitId) -> Aspect {
        // BPT "Square": "an all round defence".
        if self.unit(id).formation == Formation::Square {
            return Aspect::Front;
        }
        let theirs = self.rects(enemy);
        let faces = self.target_edges(id);
        // The face whose stands' edges `enemy`'s bases touch, the longest if several (rules
        // `bpt-7`: a second charger beside the first on a front touches its front, though the
        // target's centre lies off its flank).
        let mut along = [0.0f64; 4];
        for r in self.rects(id) {
            let edges = r.edges();
            for o in theirs {
                for (k, shared) in r.edge_contacts(o, geometry::EDGE_TOUCH_GAP).into_iter().enumerate() {
                    if shared > geometry::EDGE_TOUCH {
                        let n = edges[k].2;
                        let face = (0..4).max_by(|&a, &b| n.dot(faces[a].0).total_cmp(&n.dot(faces[b].0)));
                        along[face.expect("four faces")] += shared;
                    }
                }
            }
        }
        let touched = (0..4)
            .filter(|&k| along[k] > 0.0)
            .max_by(|&a, &b| along[a].total_cmp(&along[b]));
        let n = self.geom[enemy as usize].fighting.max(1).min(theirs.len());
        let centre = theirs[..n]
            .iter()
            .fold(V2::new(0.0, 0.0), |acc, r| acc + r.center * (1.0 / n as f64));
        let (normal, _, _, aspect) = match touched {
            Some(k) => faces[k],
            None => faces
                .into_iter()
                .max_by(|a, b| (centre - a.1).dot(a.0).total_cmp(&(centre - b.1).dot(b.0)))
                .expect("four edges"),
        };
        if aspect == Aspect::Flank && self.unit(id).formation != Formation::MarchColumn {
            let u = self.unit(id);
            let rects = self.rects(id);
            let g = &self.geom[id as usize];
            let ends = [(u.refused.0, 0), (u.refused.1, g.fighting.saturating_sub(1))];
            for (on, i) in ends {
                if on && i < rects.len() && (rects[i].center - u.pose.pos).dot(normal) > 0.0 {
                    return Aspect::Front;
                }
            }
        }
        aspect
    }

    /// BPT "Charging": "A base edge cannot be contacted if there are enemy troops or
    /// impassable terrain within 5cm" (and "Contact": a gap entered must be at least 5 cm
    /// wide). **Decision**: measured in the strip the edge's length wide and `edge_clearance`
    /// deep in front of the edge, the ground the charger must come in through, so a unit
    /// standing beside the target does not bar its front, only the flank it covers.
    fn edge_barred(&self, target: UnitId, normal: V2, mid: V2, half: f64, foot: bool) -> Option<String> {
        let depth = self.rules.charge.edge_clearance;
        if depth <= 0.0 {
            return None;
        }
        let strip = geometry::Rect::new(
            mid + normal * (depth * 0.5),
            normal.angle(),
            (2.0 * half - 0.02).max(0.01),
            depth,
        );
        let side = self.unit(target).side;
        if let Some(o) = self
            .side_units(side)
            .find(|o| o.id != target && self.rects(o.id).iter().any(|r| r.overlaps(&strip)))
        {
            return Some(format!("{} stands within {depth:.0} cm of that edge", o.name));
        }
        if self.terrain.rect_in_impassable(&strip, foot) {
            return Some(format!("impassable terrain lies within {depth:.0} cm of that edge"));
        }
        None
    }

    /// Pose of `unit` with its front edge centred on `mid`, facing `-normal`, `gap` off.
    fn pose_facing_edge(&self, unit: UnitId, normal: V2, mid: V2, gap: f64) -> Pose {
        let facing = (-normal).angle();
        let off = self.front_offset(unit);
        Pose::new(mid + normal * (gap + off + EDGE_GAP), facing)
    }

    /// May `unit` charge `target` (BPT "Charge", "Charging")?
    pub fn check_charge(&self, unit: UnitId, target: UnitId) -> Result<ChargePlan, Refusal> {
        let u = self.unit(unit);
        let t = self.unit(target);
        if !u.alive() || !t.alive() || u.side == t.side || u.side != self.active {
            return refuse("BPT Charge", "a unit of the active player charges an enemy unit");
        }
        if u.suppressed() {
            return refuse("BPT Suppression", "suppressed units cannot do anything");
        }
        if matches!(u.row.arm, Arm::Artillery | Arm::Transport) {
            return refuse("BPT Charge", "artillery and command units may not charge");
        }
        self.optional_check(unit, Act::Charge)?;
        if t.hidden {
            return refuse(
                "BPT Scouting Cavalry: hidden set-up",
                "that enemy has not been found yet",
            );
        }
        if u.scout {
            return refuse("BPT Scouting Cavalry", "scouting cavalry scout; they do not charge");
        }
        if !matches!(u.formation, Formation::Line | Formation::AttackColumn) {
            return refuse("BPT Charge", "charging units must be in line or attack column");
        }
        self.check_charge_notes(u, t)?;
        // BPT "Disordered Formation": disordered units stand "around their command stand in a
        // circular fashion", in neither line nor attack column, until the end of the next
        // initiative phase.
        if u.disordered(self.player_turn) {
            return refuse(
                "BPT Charge",
                "charging units must be in line or attack column; a disordered unit has fallen out of its ranks",
            );
        }
        if u.refused != (false, false) {
            return refuse(
                "BPT Refuse the Flank Movement",
                "a unit may not refuse its flanks when charging",
            );
        }
        if self.engaged(unit) {
            return refuse_with("BPT Charge", || format!("{} is already in a charge", u.name));
        }
        if !self.sees(unit, target) {
            return refuse_with("BPT Charge", || format!("{} cannot see {}", u.name, t.name));
        }
        let dist = self.unit_distance(unit, target);
        let reach = self.rules.charge.distance;
        if dist > reach + 1e-9 {
            return refuse_with("BPT Charge: charge distance", || {
                format!(
                    "{} is {:.1} cm away; the charge distance is {:.0} cm",
                    t.name, dist, reach
                )
            });
        }
        // Obstacles: only if the charger starts touching it or the target touches it.
        let contact = self.rules.visibility.contact + 0.25;
        for c in self.terrain.crossings(u.pose.pos, t.pose.pos) {
            if let crate::rules::terrain::CrossingWhat::Linear(li) = c.what {
                let kind = self.terrain.linears[li].kind;
                if kind == LinearKind::Road {
                    continue;
                }
                let touching = |id: UnitId| {
                    self.rects(id)
                        .iter()
                        .any(|r| self.terrain.linear_touching(r, contact).contains(&li))
                };
                if !(touching(unit) || touching(target)) {
                    return refuse_with("BPT Charge: obstacles", || {
                        format!("a unit may charge across the {kind:?} only from base contact with it")
                    });
                }
            }
        }
        if let Some(what) = self.terrain.impassable_for(u.pose.pos, t.pose.pos, u.on_foot()) {
            return refuse_with("BPT Impassable Terrain", || format!("the way is barred by {what}"));
        }
        // The nearest edge with room.
        let from = self.geom[unit as usize]
            .front
            .0
            .lerp(self.geom[unit as usize].front.1, 0.5);
        let edges = self.edges_nearest_first(target, from);
        let hold = self.rules.initiative.charge_hold_off;
        let mut last_err = None;
        for (normal, mid, half, aspect) in edges {
            // Must approach from that side.
            if (from - mid).dot(normal) < -1e-6 {
                continue;
            }
            if let Some(why) = self.edge_barred(target, normal, mid, half, u.on_foot()) {
                last_err = Some(Refusal::new(
                    "BPT Charging: a base edge with enemy troops within 5 cm",
                    why,
                ));
                continue;
            }
            let Some(at) = self.face_point(unit, target, (normal, mid, half), from) else {
                last_err = Some(Refusal::new(
                    "BPT Contact",
                    "each base edge may only be contacted by one unit: that face is taken",
                ));
                continue;
            };
            let contact_pose = self.pose_facing_edge(unit, normal, at, 0.0);
            let held = self.pose_facing_edge(unit, normal, at, hold);
            let ok = self
                .check_placement_ignoring(unit, contact_pose, target)
                .and_then(|_| self.check_placement_ignoring(unit, held, target));
            match ok {
                Ok(()) => {
                    // The way there must be clear of other units.
                    let frontage = self.frontage(u).0.max(0.5);
                    let corridor = geometry::corridor(u.pose.pos, held.pos, frontage * 0.9);
                    if let Some(o) = self.alive_units().find(|o| {
                        o.id != unit
                            && o.id != target
                            && self
                                .rects(o.id)
                                .iter()
                                .any(|r| geometry::convex_overlaps_rect(&corridor, r))
                    }) {
                        last_err = Some(Refusal::with("BPT Charge: contact", || {
                            format!("{} is in the way", o.name)
                        }));
                        continue;
                    }
                    let left = held.pos.dist(contact_pose.pos);
                    return Ok(ChargePlan {
                        unit,
                        target,
                        held,
                        contact: contact_pose,
                        aspect,
                        left,
                    });
                }
                Err(e) => last_err = Some(e),
            }
        }
        Err(last_err.unwrap_or_else(|| Refusal::new("BPT Charge: contact", "no base edge can be reached")))
    }

    /// Placement allowing contact with one enemy unit.
    fn check_placement_ignoring(&self, unit: UnitId, pose: Pose, target: UnitId) -> Result<(), Refusal> {
        let rects = self.rects_at(unit, pose);
        let u = self.unit(unit);
        if rects.iter().any(|r| r.corners().iter().any(|c| !self.on_table(*c))) {
            return refuse("BPT Battlefield", "the charge would leave the table");
        }
        if rects.iter().any(|r| self.terrain.rect_in_impassable(r, u.on_foot())) {
            return refuse("BPT Charge: contact", "impassable terrain at the contact point");
        }
        if let Some(o) = self.overlapping_unit(unit, &rects) {
            return refuse_with("BPT Charge: contact", || {
                format!("{} leaves no room", self.unit(o).name)
            });
        }
        // Each base edge may be contacted by one unit: a stand's edge, so two units may charge
        // two parts of one front (until rules `bpt-7` none came within 0.5 cm of another).
        let others = self.other_chargers(unit, target);
        if !others.is_empty() {
            let touched = |t: &geometry::Rect, rs: &[geometry::Rect]| {
                rs.iter().fold([false; 4], |acc, r| {
                    let e = t.edge_contacts(r, geometry::EDGE_TOUCH_GAP);
                    [0, 1, 2, 3].map(|k| acc[k] || e[k] > geometry::EDGE_TOUCH)
                })
            };
            for t in self.rects(target) {
                let mine = touched(t, &rects);
                let taken = others.iter().any(|&ch| {
                    let theirs = touched(t, self.rects(ch));
                    (0..4).any(|k| mine[k] && theirs[k])
                });
                if taken {
                    return refuse("BPT Contact", "each base edge may only be contacted by one unit");
                }
            }
        }
        Ok(())
    }

    /// The units other than `unit` in contact with `target` as its chargers.
    fn other_chargers(&self, unit: UnitId, target: UnitId) -> Vec<UnitId> {
        self.combats
            .iter()
            .filter(|c| c.target == target)
            .flat_map(|c| c.chargers.iter().copied())
            .filter(|&ch| ch != unit && self.unit(ch).alive())
            .collect()
    }

    /// Where on a face of `target` (`face`: outward normal, middle, half length) the front of
    /// `unit`, coming from `from`, makes contact. The face's middle, unless another unit
    /// charging `target` already holds part of that face (BPT "Contact": "each base edge may
    /// only be contacted by one unit", a stand's edge); then **Decision** (rules `bpt-7`,
    /// docs/rules.md): where it arrives, straight on from `from`, moved along the face just
    /// clear of the units there, with at least half its frontage (or the whole face, if
    /// shorter) against the face. None when the face has no such room left.
    fn face_point(&self, unit: UnitId, target: UnitId, face: (V2, V2, f64), from: V2) -> Option<V2> {
        const CLEAR: f64 = 0.01;
        let (normal, mid, half) = face;
        let along = normal.perp();
        let span = |rs: &[geometry::Rect], axis: V2| {
            rs.iter()
                .flat_map(|r| r.corners())
                .map(|k| (k - mid).dot(axis))
                .fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)))
        };
        // The stretches of the face (along it, from its middle) other chargers hold.
        let held: Vec<(f64, f64)> = self
            .other_chargers(unit, target)
            .into_iter()
            .filter_map(|ch| {
                let rs = self.rects(ch);
                let (a, b) = span(rs, along);
                let near = span(rs, normal).0.abs() <= geometry::EDGE_TOUCH_GAP;
                let on = b.min(half) - a.max(-half) > geometry::EDGE_TOUCH;
                (near && on).then_some((a, b))
            })
            .collect();
        if held.is_empty() {
            return Some(mid);
        }
        let w = self.frontage(self.unit(unit)).0 / 2.0;
        let reach = half + w - w.min(2.0 * half);
        let s0 = (from - mid).dot(along).clamp(-reach, reach);
        let free = |s: f64| {
            s.abs() <= reach + CLEAR + 1e-9
                && held
                    .iter()
                    .all(|&(a, b)| s + w <= a - CLEAR + 1e-9 || s - w >= b + CLEAR - 1e-9)
        };
        std::iter::once(s0)
            .chain(held.iter().flat_map(|&(a, b)| [a - CLEAR - w, b + CLEAR + w]))
            .filter(|&s| free(s))
            .min_by(|x, y| (x - s0).abs().total_cmp(&(y - s0).abs()))
            .map(|s| mid + along * s)
    }

    /// What is left of `plan`'s charge once the charger is held off: the charge may carry the
    /// unit up to the charge distance in all (BPT "Counter-Initiative"), and at least to contact.
    pub fn charge_left_when_held(&self, plan: &ChargePlan) -> f64 {
        let from = self.unit(plan.unit).pose.pos;
        (self.rules.charge.distance - from.dist(plan.held.pos)).max(plan.left)
    }

    /// Place the charger 2 cm off and open the counter-initiative window.
    pub(crate) fn declare_charge(&mut self, plan: ChargePlan, initiative: bool, ev: &mut Vec<Event>) {
        let from = self.unit(plan.unit).pose;
        let left = self.charge_left_when_held(&plan);
        self.change_unit(plan.unit, UnitChange::Pose(plan.held));
        self.change_unit(plan.unit, UnitChange::DugIn(false));
        self.refresh_geometry();
        ev.push(Event::Movement(MovementEvent::Moved {
            unit: plan.unit,
            from,
            to: plan.held,
            kind: MoveKind::Charge,
            cost: from.pos.dist(plan.held.pos),
        }));
        ev.push(Event::Melee(MeleeEvent::ChargeDeclared {
            unit: plan.unit,
            target: plan.target,
            held_at: plan.held,
        }));
        self.overrun_along(plan.unit, Some(from), ev);
        let eligible = self.charge_responders(plan.unit, plan.target, initiative);
        if eligible.is_empty() {
            self.complete_charge(plan.unit, plan.target, left, plan.held, ev);
        } else {
            self.change_turn(TurnChange::Step(Step::CounterInitiative {
                charger: plan.unit,
                target: plan.target,
                eligible,
                charge_left: left,
                held: plan.held,
            }));
        }
    }

    /// The units that may answer `charger`'s charge on `target`, the charger where it is held
    /// (BPT "Counter-Initiative" in the initiative phase, "Response" in the command phase): the
    /// target and its side's units near it, unsuppressed, not in a fight, that see the charger.
    pub fn charge_responders(&self, charger: UnitId, target: UnitId, initiative: bool) -> Vec<UnitId> {
        let radius = if initiative {
            self.rules.initiative.counter_radius
        } else {
            self.rules.charge.response_distance
        };
        let defender = self.unit(target).side;
        self.side_units(defender)
            .filter(|d| !d.suppressed() && !self.engaged(d.id))
            .filter(|d| d.id == target || self.unit_distance(d.id, target) <= radius)
            .filter(|d| self.sees(d.id, charger))
            .map(|d| d.id)
            .collect()
    }

    /// After counter-initiative: contact, or a failed charge.
    pub(crate) fn complete_charge(
        &mut self,
        charger: UnitId,
        target: UnitId,
        left: f64,
        held: Pose,
        ev: &mut Vec<Event>,
    ) {
        self.change_turn(TurnChange::Step(Step::Open));
        let counter = self.counter_charging == Some(target);
        if self.counter_charging.is_some() {
            self.apply_change(Change::Charge(ChargeChange::CounterCharging(None)));
        }
        let failed = if !self.unit(charger).alive() {
            Some(ChargeFailure::KnockedOut)
        } else if self.unit(charger).formation == Formation::Square {
            // **Decision** (rules `bpt-8`): forced into square by the fire it met (BPT "Square"),
            // it halts: a square does not charge (BPT "Charging": line or attack column).
            Some(ChargeFailure::FormedSquare)
        } else if self.unit(charger).pose != held {
            Some(ChargeFailure::FellBack)
        } else if !self.unit(target).alive() {
            Some(ChargeFailure::TargetGone)
        } else {
            None
        };
        if let Some(why) = failed {
            ev.push(Event::Melee(MeleeEvent::ChargeFailed {
                unit: charger,
                target,
                why,
            }));
            return;
        }
        // Where is the target now? The contact pose stands `EDGE_GAP` off: until rules `bpt-6`
        // the whole gap was measured against what was left, so a charger that used all but the
        // 2 cm held off of its 20 cm (a wheel or a slant to the edge) stopped 0.01 cm short.
        let gap = self.unit_distance(charger, target);
        let plan = if gap - EDGE_GAP <= left + 1e-6 {
            self.contact_pose(charger, target)
        } else {
            None
        };
        match plan {
            Some((pose, aspect)) => {
                let from = self.unit(charger).pose;
                self.change_unit(charger, UnitChange::Pose(pose));
                self.refresh_geometry();
                ev.push(Event::Movement(MovementEvent::Moved {
                    unit: charger,
                    from,
                    to: pose,
                    kind: MoveKind::Charge,
                    cost: from.pos.dist(pose.pos),
                }));
                ev.push(Event::Melee(MeleeEvent::ChargeContact {
                    unit: charger,
                    target,
                    aspect,
                }));
                self.overrun_commanders(charger, ev);
                let mut combats = self.combats.clone();
                if let Some(c) = combats.iter_mut().find(|c| c.target == target) {
                    c.chargers.push(charger);
                    c.counter_charge |= counter;
                } else {
                    combats.push(Combat {
                        chargers: vec![charger],
                        target,
                        supports: [Vec::new(), Vec::new()],
                        counter_charge: counter,
                    });
                }
                self.set_combats(combats);
            }
            None => {
                self.pursue(charger, target, left, false, ev);
                ev.push(Event::Melee(MeleeEvent::ChargeFailed {
                    unit: charger,
                    target,
                    why: ChargeFailure::DidNotClose,
                }));
            }
        }
    }

    /// The charger goes on towards a target that evaded (or that it cannot reach): up to what
    /// is left of its charge. An evader ending within 3 cm of it is knocked out; a target that
    /// did not evade is not (until rules `bpt-6` it was, as "caught while evading"); a charger
    /// that did not close to 1 cm is disordered (BPT "Charging", "Counter-Initiative").
    pub(crate) fn pursue(&mut self, charger: UnitId, target: UnitId, left: f64, evaded: bool, ev: &mut Vec<Event>) {
        if !self.unit(charger).alive() {
            return;
        }
        let dir = (self.unit(target).pose.pos - self.unit(charger).pose.pos).norm();
        let facing = self.unit(charger).pose.facing;
        let gap_keep = self.rules.visibility.contact;
        let dist = self.travel_limit(charger, dir, left, facing, gap_keep);
        if dist > 0.0 {
            self.forced_move(charger, dir, dist, None, ForcedKind::Charge, ev);
        }
        let closed = self.unit(target).alive() && self.unit_distance(charger, target) <= 1.0;
        if evaded {
            self.check_evader_caught(target, charger, ev);
        }
        if !closed && self.unit(charger).alive() {
            self.change_unit(charger, UnitChange::Disordered(self.player_turn));
            ev.push(Event::Morale(MoraleEvent::Disordered { unit: charger }));
        }
    }

    /// Contact pose against the target's nearest reachable edge, now.
    fn contact_pose(&self, charger: UnitId, target: UnitId) -> Option<(Pose, Aspect)> {
        let from = self.unit(charger).pose.pos;
        let edges = self.edges_nearest_first(target, from);
        let foot = self.unit(charger).on_foot();
        edges.into_iter().find_map(|(normal, mid, half, aspect)| {
            if self.edge_barred(target, normal, mid, half, foot).is_some() {
                return None;
            }
            let at = self.face_point(charger, target, (normal, mid, half), from)?;
            let pose = self.pose_facing_edge(charger, normal, at, 0.0);
            self.check_placement_ignoring(charger, pose, target)
                .ok()
                .map(|_| (pose, aspect))
        })
    }

    /// May `unit` support `friend`'s charge (BPT "Support", "Supporting a Charge")? Returns the
    /// pose it moves to: lined up centre to centre behind or beside the friend.
    pub fn check_support(&self, unit: UnitId, friend: UnitId) -> Result<Pose, Refusal> {
        let u = self.unit(unit);
        let f = self.unit(friend);
        if !u.alive() || !f.alive() || u.side != f.side || unit == friend {
            return refuse("BPT Support", "a unit supports a friendly unit");
        }
        if u.suppressed() {
            return refuse("BPT Suppression", "suppressed units cannot do anything");
        }
        self.optional_check(unit, Act::Support)?;
        if u.row.attacks == 0 && !matches!(u.row.arm, Arm::Infantry | Arm::Cavalry) {
            return refuse("BPT Support", "only units with an attack value support");
        }
        if !self
            .combats
            .iter()
            .any(|c| c.target == friend || c.chargers.contains(&friend))
        {
            return refuse_with("BPT Support", || format!("{} is not in a charge", f.name));
        }
        if self.engaged(unit) {
            return refuse("BPT Support", "each unit supports one charge");
        }
        if f.is_cavalry() && f.mounted() && !(u.is_cavalry() && u.mounted()) {
            return refuse(
                "BPT Supporting a Charge",
                "only mounted cavalry may support mounted cavalry",
            );
        }
        if self.unit_distance(unit, friend) > self.rules.charge.support_distance + 1e-9 {
            return refuse_with("BPT Support", || format!("{} is more than 10 cm away", f.name));
        }
        if self.los.line_clear(u.pose.pos, f.pose.pos, &[unit, friend]).is_err() {
            // A clear line to the friend (it may stand behind the supporter's front arc).
            return refuse_with("BPT Support", || format!("{} cannot see {}", u.name, f.name));
        }
        let fr = f.pose;
        let (f_front, f_depth) = self.frontage(f);
        let (_, u_depth) = self.frontage(u);
        let back = -fr.forward();
        let side = fr.forward().perp();
        let (u_front, _) = self.frontage(u);
        let candidates = [
            fr.pos + back * ((f_depth + u_depth) / 2.0 + 1.6),
            fr.pos + side * ((f_front + u_front) / 2.0 + 0.05),
            fr.pos - side * ((f_front + u_front) / 2.0 + 0.05),
        ];
        for p in candidates {
            let pose = Pose::new(p, fr.facing);
            if self.check_placement(unit, pose, None, false).is_ok() {
                return Ok(pose);
            }
        }
        refuse("BPT Supporting a Charge", "no room to line up with the friendly unit")
    }

    pub(crate) fn do_support(&mut self, unit: UnitId, friend: UnitId, pose: Pose, ev: &mut Vec<Event>) {
        let from = self.unit(unit).pose;
        self.change_unit(unit, UnitChange::Pose(pose));
        self.refresh_geometry();
        ev.push(Event::Movement(MovementEvent::Moved {
            unit,
            from,
            to: pose,
            kind: MoveKind::Support,
            cost: from.pos.dist(pose.pos),
        }));
        ev.push(Event::Melee(MeleeEvent::Supporting { unit, friend }));
        let side = self.unit(unit).side;
        let mut combats = self.combats.clone();
        if let Some(c) = combats
            .iter_mut()
            .find(|c| c.target == friend || c.chargers.contains(&friend))
        {
            c.supports[side].push(unit);
            self.set_combats(combats);
        }
    }

    /// Units of `side` that could support some combat now.
    pub fn possible_supports(&self, side: SideId) -> Vec<(UnitId, UnitId)> {
        let mut out = Vec::new();
        for c in &self.combats {
            let mut friends: Vec<UnitId> = c.chargers.clone();
            friends.push(c.target);
            for f in friends.into_iter().filter(|f| self.unit(*f).side == side) {
                for u in self.side_units(side) {
                    if self.may_support_in_window(side, u.id)
                        && self.unit_distance(u.id, f) <= self.rules.charge.support_distance
                        && self.check_support(u.id, f).is_ok()
                    {
                        out.push((u.id, f));
                    }
                }
            }
        }
        out
    }

    /// BPT "Support": "each unit may only support one charge during the initiative phase and
    /// one charge per order during the command phase"; "units from both sides may support".
    /// **Decision**: in the charge phase's support window the inactive side supports freely
    /// (it gives no orders in its enemy's turn), the active side only with a unit that has an
    /// action of its order left (not a road order), which the support spends.
    pub fn may_support_in_window(&self, side: SideId, unit: UnitId) -> bool {
        side != self.active
            || self
                .cmd
                .orders
                .get(&unit)
                .is_some_and(|o| o.credits > 0 && !o.finished && !o.road)
    }

    /// Open the charge phase's support window for `side`, or resolve.
    pub(crate) fn open_support_window(&mut self, side: SideId, ev: &mut Vec<Event>) {
        if !self.combats.is_empty() && !self.possible_supports(side).is_empty() {
            self.change_turn(TurnChange::Step(Step::Support { side }));
            return;
        }
        if side == self.inactive() {
            self.open_support_window(self.active, ev);
        } else {
            self.change_turn(TurnChange::Step(Step::Open));
            self.resolve_combats(ev);
        }
    }

    /// The support window closes: the other side's opens, or the charges are fought.
    pub(crate) fn after_support_window(&mut self, side: SideId, ev: &mut Vec<Event>) {
        if side == self.inactive() {
            self.open_support_window(self.active, ev);
        } else {
            self.change_turn(TurnChange::Step(Step::Open));
            self.resolve_combats(ev);
        }
    }

    /// Attack dice per stand in contact (BPT "Troops In Contact").
    pub fn contact_attacks(&self, u: &Unit) -> u32 {
        let c = &self.rules.charge;
        if u.is_cavalry() && u.mounted() {
            let attacks = if u.row.has(Trait::Sabre) {
                c.attacks_sabre
            } else {
                c.attacks_cavalry
            };
            self.optional_contact_attacks(u, attacks)
        } else if matches!(u.row.arm, Arm::Infantry | Arm::Engineers) {
            c.attacks_foot
        } else {
            c.attacks_other
        }
    }

    /// The modifiers to the dice of unit `id` fighting `enemies` in a charge (BPT
    /// "Resolution"): suppressed, disordered, fighting to its flank or rear (`behind`), a
    /// commander's presence, lancers in the first round of their own charge (`lancing`), heavy
    /// cavalry, rifles against drawn sabres. The side's own (charging, supports) are apart.
    pub fn fighter_modifiers(&self, id: UnitId, enemies: &[UnitId], behind: bool, lancing: bool) -> Vec<Modifier> {
        let u = self.unit(id);
        let mut modifiers = Vec::new();
        if u.suppressed() {
            modifiers.push(Modifier::new(self.rules.charge.suppressed, ModRule::ChargeSuppressed));
        }
        if u.disordered(self.player_turn) {
            modifiers.push(Modifier::new(self.rules.fire.disordered_attacks, ModRule::Disordered));
        }
        if behind {
            modifiers.push(Modifier::new(self.rules.charge.flank_rear, ModRule::ChargeFlankRear));
        }
        if let Some(c) = self.touching_commander(id) {
            let b = self.commander(c).row.attack_bonus as i32;
            if b > 0 {
                modifiers.push(Modifier::new(b, ModRule::CommandPresence));
            }
        }
        if lancing && u.row.has(Trait::Lancer) {
            modifiers.push(Modifier::new(1, ModRule::AcwLancers));
        }
        if u.row.has(Trait::HeavyCavalry) && u.mounted() {
            modifiers.push(Modifier::new(1, ModRule::NapoleonicHeavyCavalry));
        }
        modifiers.extend(self.optional_fighter_modifiers(id, enemies));
        modifiers
    }

    /// The Napoleonic special rules on who charges how (BPT "Napoleonic Special Rules"): note
    /// 21 "Must use attack column march formation in a charge" (a charger in line is
    /// refused), note 14 "Irregular cavalry may not charge infantry in square".
    fn check_charge_notes(&self, u: &Unit, t: &Unit) -> Result<(), Refusal> {
        if u.row.has(Trait::ChargesInColumn) && u.formation != Formation::AttackColumn {
            return refuse_with("BPT Napoleonic Special Rules note 21", || {
                format!("{} must be in attack column to charge", u.name)
            });
        }
        if u.row.has(Trait::Irregular) && t.row.arm == Arm::Infantry && t.formation == Formation::Square {
            return refuse_with("BPT Napoleonic Special Rules note 14", || {
                format!("{} is irregular cavalry: it may not charge infantry in square", u.name)
            });
        }
        Ok(())
    }

    /// The save of `struck` against hits in a charge: none in attack column; one worse (a 6
    /// stays 6) when the enemy fights it to its flank or rear (BPT "Saves").
    pub(crate) fn charge_save(&self, struck: UnitId, flanked: bool) -> Option<u32> {
        let u = self.unit(struck);
        if u.formation == Formation::AttackColumn {
            return None;
        }
        let worse = self.rules.fire.flank_save_worse;
        u.row
            .save
            .map(u32::from)
            .map(|v| if flanked && v < 6 { (v + worse).min(6) } else { v })
    }

    /// What each side of a charge of `unit` on `target` brings to its first round, judged
    /// before the charger moves (the scheduler's judgement and the charge preview). The charger
    /// is put where it would make contact (its [`ChargePlan`], else [`Battle::contact_pose`],
    /// else where it stands), and from there:
    /// - each side's stands touching the other (a flank edge is touched by few) times its
    ///   contact attacks, the charging die, and each side's modifiers as the resolution
    ///   applies them ([`Battle::fighter_modifiers`]), the target fighting to its flank or rear
    ///   when that is the edge contacted;
    /// - the target's cover from the charger where it makes contact, and the saves (one worse
    ///   on a flank or rear);
    /// - the hits each has already taken this turn and its hits value.
    ///
    /// Supports that may join are not counted. These are the first round's fighters; the
    /// rounds after it are in [`Battle::charge_fight`].
    pub fn charge_fighters(&self, unit: UnitId, target: UnitId) -> [Fighter; 2] {
        self.charge_fight(unit, target).first
    }

    /// [`Battle::charge_fighters`] for the first round, and the fighters of the rounds after
    /// it as the resolution fights them: without the charging die, the lance and the target's
    /// cover (`resolve_one`).
    pub fn charge_fight(&self, unit: UnitId, target: UnitId) -> ChargeFight {
        self.fight_of(unit, target, self.check_charge(unit, target).ok().as_ref())
    }

    /// [`Battle::charge_fighters`] for a charge already checked: its plan.
    pub fn planned_charge_fighters(&self, plan: &ChargePlan) -> [Fighter; 2] {
        self.fight_of(plan.unit, plan.target, Some(plan)).first
    }

    fn fight_of(&self, unit: UnitId, target: UnitId, plan: Option<&ChargePlan>) -> ChargeFight {
        let (a, t) = (self.unit(unit), self.unit(target));
        let (pose, aspect) = match plan {
            Some(plan) => (plan.contact, plan.aspect),
            None => self
                .contact_pose(unit, target)
                .unwrap_or_else(|| (a.pose, self.contact_aspect(target, unit))),
        };
        let flanked = aspect != Aspect::Front && t.formation != Formation::Square;
        let mine = self.rects_at(unit, pose);
        let theirs = self.rects(target);
        let fighting = |rects: &[geometry::Rect], id: UnitId, other: &[geometry::Rect]| {
            self.fighting_stands_touching(id, rects, |r| other.iter().any(|o| self.touching(r, o)))
                .max(1)
        };
        let sum = |m: Vec<Modifier>| m.iter().map(|m| m.amount).sum::<i32>();
        let a_later = sum(self.fighter_modifiers(unit, &[target], false, false));
        let a_first = self.rules.charge.charging + sum(self.fighter_modifiers(unit, &[target], false, true));
        let t_mods = sum(self.fighter_modifiers(target, &[unit], flanked, false));
        let dice = |attacks: u32, mods: i32| (attacks as i32 + mods).max(0) as u32;
        let riding = |u: &Unit| u.is_cavalry() && u.mounted();
        let side = |u: &Unit, dice: u32, to_hit: u32, save_of_enemy: Option<u32>| Fighter {
            dice,
            to_hit,
            save_of_enemy,
            had: u.hits,
            left: u.hits_value(&self.rules, self.player_turn).saturating_sub(u.hits),
        };
        let a_attacks = self.contact_attacks(a) * fighting(&mine, unit, theirs);
        let save_of_t = self.charge_save(target, flanked);
        let defender = side(
            t,
            dice(self.contact_attacks(t) * fighting(theirs, target, &mine), t_mods),
            self.charge_to_hit(unit, None, riding(t)),
            self.charge_save(unit, false),
        );
        ChargeFight {
            first: [
                side(
                    a,
                    dice(a_attacks, a_first),
                    // From where the charger makes contact, as the resolution counts it.
                    self.charge_to_hit(target, Some(pose.pos), riding(a)),
                    save_of_t,
                ),
                defender,
            ],
            // Cover counts in the first round only.
            later: [
                side(
                    a,
                    dice(a_attacks, a_later),
                    self.charge_to_hit(target, None, riding(a)),
                    save_of_t,
                ),
                defender,
            ],
        }
    }

    /// The odds of a charge of `unit` on `target`, the whole of it (its rounds to a result or
    /// the last, [`odds::charge_whole`]), from [`Battle::charge_fight`].
    pub fn charge_estimate(&self, unit: UnitId, target: UnitId) -> ChargeOdds {
        odds::charge_whole(self.charge_fight(unit, target), self.rules.charge.max_rounds)
    }

    /// [`Battle::charge_estimate`] for a charge already checked: its plan.
    pub fn planned_charge_estimate(&self, plan: &ChargePlan) -> ChargeOdds {
        let fight = self.fight_of(plan.unit, plan.target, Some(plan));
        odds::charge_whole(fight, self.rules.charge.max_rounds)
    }

    /// Stands of `id` touching any base of `enemies`.
    pub(crate) fn stands_in_contact(&self, id: UnitId, enemies: &[UnitId]) -> u32 {
        let n = self.fighting_stands_touching(id, self.rects(id), |r| {
            enemies
                .iter()
                .any(|&e| self.rects(e).iter().any(|o| self.touching(r, o)))
        });
        n.max(u32::from(!enemies.is_empty()))
    }

    /// Of `id`'s fighting stands, placed as `rects`, how many `touches` accepts.
    fn fighting_stands_touching(
        &self,
        id: UnitId,
        rects: &[geometry::Rect],
        touches: impl Fn(&geometry::Rect) -> bool,
    ) -> u32 {
        let n = self.geom[id as usize].fighting.min(rects.len());
        rects[..n].iter().filter(|r| touches(r)).count() as u32
    }

    /// Two bases in contact, so that the stand fights (BPT "Resolution": "the attacks for all
    /// units in contact ... Attacks per Stand"; "Contact": on a flank "only the flank stand"):
    /// an edge of one lies against an edge of the other along more than a corner
    /// ([`geometry::Rect::edge_touches`]). Until rules `bpt-7` any base within the contact
    /// distance (0.5 cm and a little) fought, so a stand touching an enemy only at a corner
    /// did, and the wider side of every charge of unequal frontage got two stands' more.
    fn touching(&self, r: &geometry::Rect, o: &geometry::Rect) -> bool {
        r.edge_touches(o)
    }

    /// Resolve the charges in contact one by one (BPT "Resolution" to "Retreat"); after each,
    /// its units that consolidate choose how, one by one (the consolidation window,
    /// `consolidate.rs`), before the next is fought. `self.combats` holds the charges still
    /// to fight; after the last, the end phase.
    pub(crate) fn resolve_combats(&mut self, ev: &mut Vec<Event>) {
        while !self.combats.is_empty() {
            let mut rest = self.combats.clone();
            let combat = rest.remove(0);
            self.set_combats(vec![combat.clone()]);
            let consolidating = self.resolve_one(combat, ev);
            self.set_combats(rest);
            if self.open_consolidation(consolidating) {
                return;
            }
        }
        self.change_turn(TurnChange::Step(Step::Open));
        self.end_phase(ev);
    }

    /// Fight one charge to its result; the units that consolidate after it, in order.
    fn resolve_one(&mut self, combat: Combat, ev: &mut Vec<Event>) -> Vec<UnitId> {
        // BPT "Scouting Cavalry": a scout contacted retires; there is no fight.
        if self.retire_scout(combat.target, RetiredWhy::Contacted, ev) {
            return Vec::new();
        }
        let attacker_side = self.active;
        let mut round = 1;
        loop {
            let chargers: Vec<UnitId> = combat
                .chargers
                .iter()
                .copied()
                .filter(|&u| self.unit(u).alive())
                .collect();
            let target = combat.target;
            if chargers.is_empty() || !self.unit(target).alive() {
                return Vec::new();
            }
            // Units in contact per side.
            let contact: [Vec<UnitId>; 2] = {
                let mut c: [Vec<UnitId>; 2] = [Vec::new(), Vec::new()];
                c[attacker_side] = chargers.clone();
                c[1 - attacker_side] = vec![target];
                c
            };
            let supports: [Vec<UnitId>; 2] = [0, 1].map(|s| {
                combat.supports[s]
                    .iter()
                    .copied()
                    .filter(|&u| self.unit(u).alive())
                    .collect()
            });
            let eng = Engaged {
                attacker: attacker_side,
                contact,
                supports,
                counter_charge: combat.counter_charge,
            };
            let (contact, supports) = (&eng.contact, &eng.supports);
            let mut sides = Vec::new();
            let mut dealt = [0u32; 2];
            for s in [attacker_side, 1 - attacker_side] {
                let (side, net) = self.fight_side(&combat, &eng, s, round);
                dealt[s] = net;
                sides.push(side);
            }
            for cs in &sides {
                let net = dealt[cs.side];
                if net > 0 {
                    let value = self.unit(cs.struck).hits_value(&self.rules, self.player_turn);
                    let total = self.unit(cs.struck).hits + net;
                    self.change_unit(cs.struck, UnitChange::Hits(total));
                    ev.push(Event::Morale(MoraleEvent::HitsTaken {
                        unit: cs.struck,
                        hits: net,
                        total,
                        value,
                    }));
                }
            }
            ev.push(Event::Melee(MeleeEvent::CombatRound { round, target, sides }));
            for id in contact.iter().flatten().chain(supports.iter().flatten()) {
                let u = self.unit(*id);
                if u.alive() && u.hits >= u.hits_value(&self.rules, self.player_turn) {
                    self.knock_out(*id, KnockOut::Hits, ev);
                }
            }
            // BPT "Outcome": compare all hits taken by each side's units this turn.
            let taken: [u32; 2] = [0, 1].map(|s| {
                contact[s]
                    .iter()
                    .chain(supports[s].iter())
                    .map(|&id| self.unit(id).hits)
                    .sum()
            });
            let alive = [0, 1].map(|s| contact[s].iter().any(|&id| self.unit(id).alive()));
            let winner = if !alive[0] && alive[1] {
                Some(1)
            } else if !alive[1] && alive[0] {
                Some(0)
            } else if taken[0] == taken[1] {
                None
            } else if taken[0] < taken[1] {
                Some(0)
            } else {
                Some(1)
            };
            return match winner {
                None if alive[0] && alive[1] && round < self.rules.charge.max_rounds => {
                    round += 1;
                    continue;
                }
                None => self.break_off(target, taken, &eng, ev),
                Some(w) => self.charge_won(target, w, (taken, alive), &eng, ev),
            };
        }
    }

    /// One side `s`'s attacks in round `round` of `combat`: its dice and modifiers, the unit
    /// its hits go to, the rolls to hit and the saves (in that order); the side's line of the
    /// round and the hits it dealt after saves.
    fn fight_side(&mut self, combat: &Combat, eng: &Engaged, s: usize, round: u32) -> (CombatSide, u32) {
        let target = combat.target;
        let enemies = &eng.contact[1 - s];
        let mut dice: i32 = 0;
        let mut modifiers = Vec::new();
        for &id in &eng.contact[s] {
            let u = self.unit(id);
            dice += (self.contact_attacks(u) * self.stands_in_contact(id, enemies)) as i32;
            let behind = enemies.iter().any(|&e| self.contact_aspect(id, e) != Aspect::Front);
            let lancing = round == 1 && s == eng.attacker;
            modifiers.extend(self.fighter_modifiers(id, enemies, behind, lancing));
        }
        if round == 1 && (s == eng.attacker || combat.counter_charge) {
            let n = eng.contact[s].len() as i32;
            modifiers.push(Modifier::new(self.rules.charge.charging * n, ModRule::ChargeCharging));
        }
        if !eng.supports[s].is_empty() {
            modifiers.push(Modifier::new(
                self.rules.charge.supporting * eng.supports[s].len() as i32,
                ModRule::ChargeSupporting,
            ));
        }
        let n = (dice + modifiers.iter().map(|m| m.amount).sum::<i32>()).max(0) as u32;
        // Hits go to one unit: the one touching the enemy's front, else flank, else rear.
        let struck = self.allocate_hits(&eng.contact[1 - s], &eng.contact[s]);
        // Defenders under charge are hit according to their cover in the first round.
        let from = (round == 1 && s == eng.attacker && struck == target).then(|| self.unit(eng.contact[s][0]).pose.pos);
        // BPT "Square": "defend one level better against cavalry".
        let cavalry = eng.contact[s]
            .iter()
            .any(|&e| self.unit(e).is_cavalry() && self.unit(e).mounted());
        let to_hit = self.charge_to_hit(struck, from, cavalry);
        let rolls = self.dice_mut().roll(n, 6);
        let hits = rolls.iter().filter(|&&r| r >= to_hit).count() as u32;
        // BPT "Saves": "Hits against the flank or rear of a unit reduce the save by
        // one" (a 6 stays 6); in a charge, when an enemy in contact fights it there.
        let flanked = eng.contact[s]
            .iter()
            .any(|&e| self.contact_aspect(struck, e) != Aspect::Front);
        let save = self.charge_save(struck, flanked);
        let (save_rolls, saved) = self.roll_saves(struck, hits, save);
        let side = CombatSide {
            side: s,
            dice: n,
            modifiers,
            to_hit,
            rolls,
            hits,
            save_rolls,
            saved,
            struck,
        };
        (side, hits - saved)
    }

    /// A drawn combat after the last round: break off, both sides consolidate, attacker first
    /// (the units that consolidate, in order).
    fn break_off(&mut self, target: UnitId, taken: [u32; 2], eng: &Engaged, ev: &mut Vec<Event>) -> Vec<UnitId> {
        ev.push(Event::Melee(MeleeEvent::CombatResult {
            target,
            winner: None,
            by_double: false,
            hits: taken,
        }));
        // Break off: both consolidate, attacker first.
        [eng.attacker, 1 - eng.attacker]
            .iter()
            .flat_map(|&s| eng.contact[s].iter().chain(eng.supports[s].iter()).copied())
            .collect()
    }

    /// Side `w` won the combat (`taken`: each side's hits this turn, `alive`: whether each
    /// side has a unit in contact left): the loser retreats or, beaten by double, breaks
    /// (its supports too); the winner's chargers are disordered, and the winners consolidate
    /// (returned, in order).
    fn charge_won(
        &mut self,
        target: UnitId,
        w: usize,
        (taken, alive): ([u32; 2], [bool; 2]),
        eng: &Engaged,
        ev: &mut Vec<Event>,
    ) -> Vec<UnitId> {
        let l = 1 - w;
        // BPT "Double or more": the loser's hits at least twice the winner's.
        // **Decision** (docs/rules.md): taken literally, so a win against a side
        // that scored no hits (1 v 0) is a win by double, as the odds count it.
        let by_double = taken[l] >= 2 * taken[w] || !alive[l];
        ev.push(Event::Melee(MeleeEvent::CombatResult {
            target,
            winner: Some(w),
            by_double,
            hits: taken,
        }));
        for &id in &eng.contact[l] {
            if !self.unit(id).alive() {
                continue;
            }
            if by_double {
                self.knock_out(id, KnockOut::ChargeLost, ev);
            } else {
                self.suppress(id, SuppressedWhy::LostCharge, ev);
                self.retreat(id, &eng.contact[w], ev);
            }
        }
        if by_double {
            for &id in &eng.supports[l] {
                if self.unit(id).alive() {
                    self.suppress(id, SuppressedWhy::SupportedChargeLostByDouble, ev);
                    self.retreat(id, &eng.contact[w], ev);
                }
            }
        }
        let mut consolidating = Vec::new();
        for &id in eng.contact[w].iter().chain(eng.supports[w].iter()) {
            if !self.unit(id).alive() {
                continue;
            }
            let charged = w == eng.attacker || (eng.counter_charge && id == target);
            if charged && eng.contact[w].contains(&id) {
                // BPT "Disordered": troops that concluded a charge successfully (a
                // counter-charge is a charge: "Cavalry who charge will become both
                // disordered and their mounts will face Exhaustion").
                self.change_unit(id, UnitChange::Disordered(self.player_turn));
                let u = self.unit(id);
                let exhausted = u.row.arm == Arm::Cavalry && u.row.has(Trait::Mounted);
                self.change_unit(id, UnitChange::Exhausted(exhausted));
                ev.push(Event::Morale(MoraleEvent::Disordered { unit: id }));
            }
            consolidating.push(id);
        }
        consolidating
    }

    /// BPT "Allocating Hits": the unit touching the enemy's front edge, else a flank (a die:
    /// odd the enemy's right flank, even its left), else the rear.
    fn allocate_hits(&mut self, victims: &[UnitId], attackers: &[UnitId]) -> UnitId {
        if victims.len() == 1 {
            return victims[0];
        }
        let target = attackers[0];
        let mut by_aspect: Vec<(Aspect, UnitId)> =
            victims.iter().map(|&v| (self.contact_aspect(target, v), v)).collect();
        by_aspect.sort_by_key(|(a, v)| (*a as u8, *v));
        let front: Vec<UnitId> = by_aspect
            .iter()
            .filter(|(a, _)| *a == Aspect::Front)
            .map(|x| x.1)
            .collect();
        if let Some(&f) = front.first() {
            return f;
        }
        let mut flank: Vec<UnitId> = by_aspect
            .iter()
            .filter(|(a, _)| *a == Aspect::Flank)
            .map(|x| x.1)
            .collect();
        if flank.len() >= 2 {
            // Rightmost first, as the unit dealing the hits faces (ties by id).
            let t = self.unit(target).pose;
            let left = t.forward().perp();
            let across = |v: UnitId| (self.unit(v).pose.pos - t.pos).dot(left);
            flank.sort_by(|a, b| across(*a).total_cmp(&across(*b)).then(a.cmp(b)));
            let (right, left) = (flank[0], flank[flank.len() - 1]);
            let d = self.dice_mut().d6();
            return if d % 2 == 1 { right } else { left };
        }
        by_aspect[0].1
    }

    /// BPT "Retreat": half a move directly away from the nearest enemy of the charge, no turning.
    fn retreat(&mut self, id: UnitId, enemies: &[UnitId], ev: &mut Vec<Event>) {
        let u = self.unit(id);
        if u.is_artillery() && !u.limbered {
            self.knock_out(id, KnockOut::ForcedInto(ForcedInto::UnlimberedGuns), ev);
            return;
        }
        // BPT "Retreat" 3: "Retreating unlimbered guns or units in fortifications" are knocked
        // out. **Decision**: dug-in units and units holding a construction are in fortifications.
        if u.dug_in || self.construction_of(id).is_some() {
            self.knock_out(id, KnockOut::ForcedInto(ForcedInto::Fortifications), ev);
            return;
        }
        let near = enemies
            .iter()
            .filter(|&&e| self.unit(e).alive())
            .map(|&e| (e, self.unit_distance(id, e)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        let from = u.pose;
        let away = match near {
            Some((e, _)) => (from.pos - self.unit(e).pose.pos).norm(),
            None => -from.forward(),
        };
        let half = u.move_rate().max(u.row.movement) / 2.0;
        let to = self.forced_move(id, away, half, None, ForcedKind::Retreat, ev);
        ev.push(Event::Melee(MeleeEvent::Retreated { unit: id, from, to }));
    }
}

impl Battle {
    /// The score to hit `struck` in a charge round. `cover_from`: the charger's position when
    /// the defender under charge counts its cover (the first round); otherwise open ground.
    /// BPT "Morale Grades" (switch): "the score to hit units in charge" by grade in place of
    /// the open-ground score; **decision**: cover that needs more still counts.
    /// `cavalry`: mounted cavalry deal these hits (a square defends one level better).
    pub fn charge_to_hit(&self, struck: UnitId, cover_from: Option<V2>, cavalry: bool) -> u32 {
        let open = match self.morale_grade(struck) {
            Some(g) if self.rules.morale.charge_to_hit => g.charge_to_hit,
            _ => self.rules.fire.to_hit_open,
        };
        let cover = cover_from.map(|p| self.cover_of(struck, p)).unwrap_or(Cover::Open);
        // BPT "Square": "in open terrain they defend as in soft cover and in soft cover defend
        // as in hard cover" against cavalry.
        let cover = if cavalry && self.unit(struck).formation == Formation::Square {
            match cover {
                Cover::Open => Cover::Soft,
                _ => Cover::Hard,
            }
        } else if cavalry && self.unit(struck).row.has(Trait::NoSquare) {
            // Napoleonic note 24: "May not form square and defend against cavalry as in open
            // ground" (**decision**: whatever cover they stand in).
            Cover::Open
        } else {
            cover
        };
        match cover {
            Cover::Open => open,
            Cover::Soft => self.rules.fire.to_hit_soft.max(open),
            Cover::Hard => self.rules.fire.to_hit_hard.max(open),
        }
    }
}
