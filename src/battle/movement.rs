//! Movement (BPT "Movement", "Terrain"): allowances, wheel, oblique, about face, retire,
//! road bonus, area / dense / linear terrain, passage of lines, no overlapping bases.

use super::action::{Refusal, refuse, refuse_with};
use super::optional::Act;
use super::state::*;
use crate::data::army::Arm;
use crate::rules::formation::Formation;
use crate::rules::geometry::{self, Pose, Rect, V2, wrap_angle};
use crate::rules::layout::{self, StandShape};
use crate::rules::terrain::{AreaKind, CrossingWhat, LinearKind};
use std::f64::consts::PI;

/// The checked cost of a move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveCheck {
    pub cost: f64,
    pub allowance: f64,
    pub road: bool,
    pub dense: bool,
    pub passage_of_lines: bool,
    pub crossed_obstacle: bool,
}

/// A move's cost so far, what it is made of (said when the move is refused), and the
/// allowance it may spend.
struct MoveCost {
    cost: f64,
    /// Words only when a refusal says them: borrowed where they are fixed (no allocation for
    /// each of the many moves the listing checks). The first part (the distance, or the way
    /// along the road) apart, so that a plain move allocates nothing for them.
    first: (std::borrow::Cow<'static, str>, f64),
    parts: Vec<(std::borrow::Cow<'static, str>, f64)>,
    allowance: f64,
}

/// How terrain treats a unit type.
fn area_factor(b: &Battle, u: &Unit, kind: AreaKind) -> (f64, bool) {
    let m = &b.rules.movement;
    let towed = u.is_artillery();
    let dense = match kind {
        AreaKind::Mud => true,
        AreaKind::Marsh => true,
        // BPT "Dense Terrain": towed guns in everything but roads, open ground and hills;
        // other transport in rough ground, woods and built-up areas.
        AreaKind::Scrub | AreaKind::Woods | AreaKind::BuiltUp | AreaKind::Orchard => towed,
        AreaKind::Field => towed && u.limbered,
        AreaKind::Lake => false,
    };
    let area = match kind {
        AreaKind::Field | AreaKind::Scrub => m.low_area_factor,
        AreaKind::Woods | AreaKind::Orchard | AreaKind::BuiltUp => m.high_area_factor,
        // Partially wet: foot move as in high area terrain.
        AreaKind::Marsh => m.high_area_factor,
        AreaKind::Mud | AreaKind::Lake => 1.0,
    };
    let f = if dense { area.max(m.dense_factor) } else { area };
    (f, dense)
}

/// What a move's cost is made of, for a refusal: "8.1 cm the distance + 5.0 cm passing through
/// the 1st Alabama".
fn describe_cost(
    first: &(std::borrow::Cow<'static, str>, f64),
    parts: &[(std::borrow::Cow<'static, str>, f64)],
    decimals: usize,
) -> String {
    std::iter::once(first)
        .chain(parts)
        .map(|(what, cm)| format!("{cm:.decimals$} cm {what}"))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The fewest decimals (one at least, six at most) at which `asked` and `allowed` print apart,
/// so that a refusal shows the rounding that decided it: a 10.04 cm move against a 10 cm
/// allowance is "needs 10.04 cm … it has 10.00 cm", not "needs 10.0 cm … it has 10.0 cm".
fn decimals_apart(asked: f64, allowed: f64) -> usize {
    (1..=6)
        .find(|&d| format!("{asked:.d$}") != format!("{allowed:.d$}"))
        .unwrap_or(6)
}

/// Area kinds whose boundary makes a unit stop (BPT "Area Terrain": stop on entering and leaving).
fn stops_at_boundary(kind: AreaKind) -> bool {
    matches!(
        kind,
        AreaKind::Field | AreaKind::Scrub | AreaKind::Woods | AreaKind::Orchard | AreaKind::BuiltUp | AreaKind::Marsh
    )
}

impl Battle {
    fn area_kind_by_index(&self, i: usize) -> AreaKind {
        if i < self.terrain.areas.len() {
            self.terrain.areas[i].kind
        } else {
            AreaKind::BuiltUp
        }
    }

    /// Frontage and depth of the unit's fighting stands.
    pub fn frontage(&self, u: &Unit) -> (f64, f64) {
        let s = u.shape(&self.rules);
        layout::extent(
            u.formation,
            u.stands as usize,
            StandShape {
                width: s.width,
                depth: s.depth,
            },
            u.gap(&self.rules),
        )
    }

    /// Can the unit's bases stand at `pose`: on the table, out of impassable terrain, not
    /// overlapping another unit, not touching an enemy (that would be a charge)?
    pub fn check_placement(
        &self,
        id: UnitId,
        pose: Pose,
        allow_enemy_contact: Option<UnitId>,
        dressed: bool,
    ) -> Result<Vec<Rect>, Refusal> {
        let u = self.unit(id);
        // An ordered move dresses a refused line (the move clears the refusal).
        let rects = if dressed {
            self.rects_at_dressed(id, pose)
        } else {
            self.rects_at(id, pose)
        };
        if rects.iter().any(|r| r.corners().iter().any(|c| !self.on_table(*c))) {
            return refuse_with("BPT Battlefield", || format!("{} would leave the table", u.name));
        }
        if rects.iter().any(|r| self.terrain.rect_in_impassable(r, u.on_foot())) {
            return refuse_with("BPT Impassable Terrain", || {
                format!("{} cannot stand in impassable terrain", u.name)
            });
        }
        if let Some(o) = self.overlapping_unit(id, &rects) {
            return refuse_with("BPT Movement: no overlapping bases", || {
                format!("{} would overlap {}", u.name, self.unit(o).name)
            });
        }
        let contact = self.rules.visibility.contact;
        let placed = geometry::points_box(rects.iter().flat_map(|r| r.corners()));
        for e in self.side_units(1 - u.side) {
            if Some(e.id) == allow_enemy_contact || self.unit_box_apart(e.id, placed, contact + 1e-6) {
                continue;
            }
            if geometry::rects_distance(&rects, self.rects(e.id)) < contact {
                return refuse_with("BPT Charge: moving into contact with the enemy is a charge", || {
                    format!("{} would touch the enemy {}", u.name, e.name)
                });
            }
        }
        Ok(rects)
    }

    /// Check an ordered move of unit `id` to `to` (BPT "Movement").
    pub fn check_move(&self, id: UnitId, to: Pose, may_dense: bool) -> Result<MoveCheck, Refusal> {
        let u = self.unit(id);
        let mr = &self.rules.movement;
        let rate = u.move_rate();
        if rate <= 0.0 {
            return refuse_with("BPT Army Lists: Move", || format!("{} cannot move", u.name));
        }
        if u.formation == Formation::Square {
            return refuse("BPT Square March Formation", "a square cannot move");
        }
        self.optional_check(id, Act::Move)?;
        if !to.pos.x.is_finite() || !to.pos.y.is_finite() || !to.facing.is_finite() {
            return refuse("BPT Movement", "not a place on the table");
        }
        let from = u.pose;
        let d = from.pos.dist(to.pos);
        let eps = 1e-6;
        // The manoeuvre's cost, and what it is made of (said when the move is refused).
        let mut m = MoveCost {
            cost: d,
            first: ("the distance".into(), d),
            parts: Vec::new(),
            allowance: rate,
        };
        self.manoeuvre_cost(u, to, &mut m)?;
        // Road bonus (BPT "Road Bonus Movement"): column, the whole move on a road; the column
        // "conforms to the bends in the road" (BPT "March Column"), so a move between two
        // places on one road runs along it, bends and all, and costs its length.
        let column = u.formation == Formation::MarchColumn && d > eps;
        let straight = [from.pos, to.pos];
        let bends = if column && !self.terrain.on_road(from.pos, to.pos) {
            self.terrain
                .road_path(from.pos, to.pos)
                .filter(|p| p.windows(2).all(|w| self.terrain.on_road(w[0], w[1])))
        } else {
            None
        };
        let path: &[V2] = bends.as_deref().unwrap_or(&straight);
        let road = column && path.windows(2).all(|w| self.terrain.on_road(w[0], w[1]));
        let along = crate::rules::terrain::polyline_length(path);
        if path.len() > 2 {
            m.cost = along;
            m.first = ("the way along the road".into(), along);
            m.parts.clear();
        }
        if road {
            let horse = u.mounted() || (u.is_artillery() && u.limbered);
            m.allowance += if horse { mr.road_bonus_horse } else { mr.road_bonus_foot };
        }
        // Terrain along the way (each stretch of it).
        let mut dense = false;
        let mut crossed_obstacle = false;
        if d > eps {
            for w in path.windows(2) {
                if let Some(what) = self.terrain.impassable_for(w[0], w[1], u.on_foot()) {
                    return refuse_with("BPT Impassable Terrain", || format!("the way is barred by {what}"));
                }
            }
            if !road {
                for (kind, len) in self.terrain.length_in_areas(from.pos, to.pos) {
                    let (f, is_dense) = area_factor(self, u, kind);
                    m.cost += len * (f - 1.0);
                    if len * (f - 1.0) > 1e-9 {
                        m.parts.push((format!("{kind:?} terrain").into(), len * (f - 1.0)));
                    }
                    dense |= is_dense && len > 0.0;
                }
            }
            crossed_obstacle = self.check_crossings(u, path, d, road)?;
            self.passage_of_lines(u, path, &mut m)?;
        }
        // Dense terrain at either end counts too.
        for p in [from.pos, to.pos] {
            for kind in self.terrain.area_kinds_at(p) {
                if area_factor(self, u, kind).1 {
                    dense = true;
                }
            }
        }
        if dense && !may_dense {
            return refuse(
                "BPT Command Modifiers note 3",
                "moving into, through or out of dense terrain needs an order that declares it",
            );
        }
        self.check_placement(id, to, None, true)?;
        let MoveCost {
            cost,
            first,
            parts,
            allowance,
        } = m;
        let passage = cost > along.max(d) + 1e-9;
        if cost > allowance + mr.epsilon {
            return refuse_with("BPT Movement: move allowance", || {
                let d = decimals_apart(cost, allowance);
                format!(
                    "{} needs {cost:.d$} cm of movement ({}); it has {allowance:.d$} cm",
                    u.name,
                    describe_cost(&first, &parts, d),
                )
            });
        }
        Ok(MoveCheck {
            cost,
            allowance,
            road,
            dense,
            passage_of_lines: passage,
            crossed_obstacle,
        })
    }

    /// The manoeuvre of unit `u` to `to` (BPT "Movement": advance, oblique, retire, wheel,
    /// about face; a gun manhandled, or moved by prolonge), added to `m`, or why it may not
    /// make it.
    fn manoeuvre_cost(&self, u: &Unit, to: Pose, m: &mut MoveCost) -> Result<(), Refusal> {
        let mr = &self.rules.movement;
        let rate = u.move_rate();
        let from = u.pose;
        let d = from.pos.dist(to.pos);
        let turn = wrap_angle(to.facing - from.facing);
        let eps = 1e-6;
        let (frontage, _) = self.frontage(u);
        let manhandled = u.is_artillery() && !u.limbered;
        let free_turn = u.formation == Formation::MarchColumn || (u.is_artillery() && u.limbered);
        if manhandled {
            if turn.abs() > eps {
                return refuse("BPT Towed Guns", "pivoting a gun is a deploy action");
            }
            // BPT "Prolonge Movement": "An artillery unit can move and fire using its limber in
            // a retreat by prolonging the gun ... the gun can travel further and still be in a
            // fire position": straight back (within the oblique), at the chart's second rate.
            let rel = wrap_angle((to.pos - from.pos).angle() - from.facing).abs();
            if d > eps
                && u.has_limber
                && rel >= PI - mr.oblique_max_deg.to_radians() - 1e-6
                && let Some(prolonge) = u.row.movement_alt
            {
                m.allowance = m.allowance.max(prolonge);
                m.first.0 = "the prolonge".into();
            }
        } else if turn.abs() <= eps {
            if d > eps {
                let rel = wrap_angle((to.pos - from.pos).angle() - from.facing).abs();
                let oblique = mr.oblique_max_deg.to_radians() + 1e-6;
                if rel <= oblique {
                    // advance or oblique
                } else if rel >= PI - oblique {
                    // BPT "Retire Movement": infantry only, three-quarters of the allowance.
                    if u.row.arm != Arm::Infantry || free_turn {
                        if !free_turn {
                            return refuse(
                                "BPT Retire Movement",
                                "only infantry may move backwards without turning",
                            );
                        }
                    } else {
                        m.cost += mr.retire_cost * rate;
                        m.parts.push(("moving backwards".into(), mr.retire_cost * rate));
                    }
                } else if !free_turn {
                    return refuse("BPT Oblique Movement", "an oblique is at most 45° from the front");
                }
            }
        } else if turn.abs() <= mr.wheel_max_deg.to_radians() + 1e-6 {
            // BPT "Wheel Movement": measured from the outside stand.
            m.cost += frontage * turn.abs();
            m.parts.push(("the wheel".into(), frontage * turn.abs()));
            if d > eps {
                let dir = (to.pos - from.pos).angle();
                let between = |a: f64| {
                    let lo = from.facing.min(from.facing + turn) - 1e-3;
                    let hi = from.facing.max(from.facing + turn) + 1e-3;
                    let a = from.facing + wrap_angle(a - from.facing);
                    a >= lo && a <= hi
                };
                if !(between(dir) || between(dir + PI) || free_turn) {
                    return refuse(
                        "BPT Oblique Movement",
                        "a unit cannot wheel and oblique in the same move",
                    );
                }
            }
        } else if (turn.abs() - PI).abs() <= mr.wheel_max_deg.to_radians() + 1e-6 && !free_turn {
            // BPT "About Face Movement": half the allowance.
            if !matches!(u.row.arm, Arm::Infantry | Arm::Cavalry) {
                return refuse("BPT About Face Movement", "only cavalry and infantry about face");
            }
            let c = mr.about_face_cost * rate + frontage * (turn.abs() - PI).abs();
            m.cost += c;
            m.parts.push(("the about face".into(), c));
        } else if !free_turn {
            return refuse(
                "BPT Wheel Movement",
                "a formed unit turns at most 45° by wheeling, or 180° by about face",
            );
        }
        Ok(())
    }

    /// The linear obstacles and area boundaries the way `path` (a move of `d` cm, `road`: all
    /// of it on a road) crosses, as BPT "Linear Terrain" and "Area Terrain" allow them:
    /// whether it crosses an obstacle, or why it may not.
    fn check_crossings(&self, u: &Unit, path: &[V2], d: f64, road: bool) -> Result<bool, Refusal> {
        let id = u.id;
        let mr = &self.rules.movement;
        let mut crossed_obstacle = false;
        let crossings: Vec<_> = path
            .windows(2)
            .flat_map(|w| self.terrain.crossings(w[0], w[1]))
            .collect();
        let start_rects = self.rects(id);
        let contact = self.rules.visibility.contact + 0.25;
        let mut boundary: Option<f64> = None;
        let mut boundaries = 0;
        for c in &crossings {
            match c.what {
                CrossingWhat::Linear(li) => {
                    let lin = &self.terrain.linears[li];
                    if lin.kind == LinearKind::Road || lin.kind == LinearKind::River {
                        continue;
                    }
                    if u.is_artillery() && u.limbered && !road {
                        return refuse_with("BPT Linear Terrain", || {
                            format!("limbers cannot cross the {:?}", lin.kind)
                        });
                    }
                    let touching = start_rects
                        .iter()
                        .any(|r| self.terrain.linear_touching(r, contact).contains(&li));
                    if !touching {
                        return refuse_with("BPT Linear Terrain: stop on contact, cross on the next order", || {
                            format!("{} must first halt at the {:?}", u.name, lin.kind)
                        });
                    }
                    crossed_obstacle = true;
                }
                CrossingWhat::EnterArea(ai) | CrossingWhat::ExitArea(ai) => {
                    if stops_at_boundary(self.area_kind_by_index(ai)) && !road {
                        boundaries += 1;
                        boundary.get_or_insert(c.t);
                    }
                }
            }
        }
        if boundaries > 1 {
            return refuse(
                "BPT Area Terrain: stop on entering and on leaving",
                "a move may cross only one area terrain boundary",
            );
        }
        // (A boundary counts only off the road, where the way is one straight stretch.)
        if let Some(t) = boundary {
            let beyond = d * (1.0 - t);
            let depth = self.frontage(u).1;
            if beyond > depth + mr.stop_tolerance {
                return refuse_with("BPT Area Terrain: stop on entering and on leaving", || {
                    format!("{} must stop in contact with the boundary", u.name)
                });
            }
        }
        Ok(crossed_obstacle)
    }

    /// Passage of lines (BPT "Movement") along `path`: through friends at half the
    /// allowance, added to `m`; never through enemy units.
    fn passage_of_lines(&self, u: &Unit, path: &[V2], m: &mut MoveCost) -> Result<(), Refusal> {
        let id = u.id;
        let mr = &self.rules.movement;
        let rate = u.move_rate();
        let (frontage, _) = self.frontage(u);
        let mut passed = std::collections::BTreeSet::new();
        for w in path.windows(2) {
            let corridor = geometry::corridor(w[0], w[1], frontage.max(0.5));
            let corridor_box = geometry::points_box(corridor);
            // By the laid-out bases' boxes first (they lie together in memory; issue 66's
            // speed), then the unit.
            for (o, b) in self.boxes.iter().enumerate() {
                let o = o as UnitId;
                if o == id || geometry::boxes_apart(*b, corridor_box, 1e-6) {
                    continue;
                }
                let o = self.unit(o);
                if o.alive()
                    && self
                        .rects(o.id)
                        .iter()
                        .any(|r| geometry::convex_overlaps_rect(&corridor, r))
                {
                    if o.side != u.side {
                        return refuse_with("BPT Movement: troops may not move through enemy units", || {
                            format!("{} is in the way", o.name)
                        });
                    }
                    if !matches!(o.formation, Formation::Square) && passed.insert(o.id) {
                        m.cost += mr.passage_of_lines_cost * rate;
                        m.parts.push((
                            format!("passing through {}", o.name).into(),
                            mr.passage_of_lines_cost * rate,
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// Check a commander's move (BPT "Command Movement"; commanders cross terrain without
    /// stopping unless it is impassable).
    pub fn check_commander_move(&self, c: CmdId, to: V2) -> Result<f64, Refusal> {
        let cm = self.commander(c);
        if !to.x.is_finite() || !to.y.is_finite() {
            return refuse("BPT Command Movement", "not a place on the table");
        }
        let d = cm.pos.dist(to);
        if d > cm.move_rate() + self.rules.movement.epsilon {
            return refuse_with("BPT Command Movement", || {
                let (rate, places) = (cm.move_rate(), decimals_apart(d, cm.move_rate()));
                let rate = if places == 1 && rate.fract() == 0.0 {
                    format!("{rate:.0}")
                } else {
                    format!("{rate:.places$}")
                };
                format!("{} moves at most {rate} cm ({d:.places$} asked)", cm.name)
            });
        }
        if !self.on_table(to) {
            return refuse("BPT Battlefield", "off the table");
        }
        if let Some(what) = self.terrain.impassable_for(cm.pos, to, true) {
            return refuse_with("BPT Impassable Terrain", || format!("the way is barred by {what}"));
        }
        let r = Rect::new(
            to,
            0.0,
            self.rules.footprints.commander_diameter,
            self.rules.footprints.commander_diameter,
        );
        if let Some(o) = self.overlapping_unit(u32::MAX, &[r]) {
            return refuse_with("BPT Command Units: commanders do not overrun units", || {
                format!("{} would stand on {}", cm.name, self.unit(o).name)
            });
        }
        Ok(d)
    }

    /// How far a unit could go straight along `dir` with `allowance`, stopping where
    /// BPT terrain rules stop it, short of other units and the table edge (evade, consolidate,
    /// blunder moves).
    pub fn travel_limit(&self, id: UnitId, dir: V2, allowance: f64, facing: f64, keep_gap_from_enemy: f64) -> f64 {
        let u = self.unit(id);
        let start = u.pose.pos;
        let step = 0.25;
        let mut cost = 0.0;
        let mut best = 0.0;
        let mut s = 0.0;
        let start_kinds = self.terrain.area_kinds_at(start);
        while cost < allowance {
            let next = s + step;
            let p = start + dir * next;
            let kinds = self.terrain.area_kinds_at(p);
            let f = kinds.iter().map(|k| area_factor(self, u, *k).0).fold(1.0, f64::max);
            cost += step * f;
            if cost > allowance + 1e-9 {
                break;
            }
            let pose = Pose::new(p, facing);
            let rects = self.rects_at(id, pose);
            if rects.iter().any(|r| r.corners().iter().any(|c| !self.on_table(*c)))
                || rects.iter().any(|r| self.terrain.rect_in_impassable(r, u.on_foot()))
                || self.overlapping_unit(id, &rects).is_some()
            {
                break;
            }
            if self.terrain.crossings(start, p).iter().any(|c| match c.what {
                CrossingWhat::Linear(li) => !matches!(self.terrain.linears[li].kind, LinearKind::Road),
                _ => false,
            }) {
                break;
            }
            if keep_gap_from_enemy > 0.0
                && self
                    .side_units(1 - u.side)
                    .any(|e| geometry::rects_distance(&rects, self.rects(e.id)) < keep_gap_from_enemy)
            {
                break;
            }
            s = next;
            best = s;
            let changed = kinds.iter().any(|k| stops_at_boundary(*k) && !start_kinds.contains(k))
                || start_kinds.iter().any(|k| stops_at_boundary(*k) && !kinds.contains(k));
            if changed {
                break;
            }
        }
        best
    }
}
