//! Plane geometry on the table: points, oriented bases, polygons, polylines, arcs.
//!
//! World unit: 1 cm of table (DECISIONS.md, "Scale and the table"). Angles are radians,
//! counter-clockwise from the +x axis; a facing `f` points along `dir(f)`.
//! Everything here is pure and deterministic (f64, no platform maths beyond `sin`/`cos`/`atan2`/`sqrt`).

use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign, Mul, Neg, Sub};

/// A point or vector on the table, in cm.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

impl V2 {
    pub const ZERO: V2 = V2 { x: 0.0, y: 0.0 };
    pub const fn new(x: f64, y: f64) -> Self {
        V2 { x, y }
    }
    pub fn dot(self, o: V2) -> f64 {
        self.x * o.x + self.y * o.y
    }
    /// z of the 3D cross product: > 0 when `o` is counter-clockwise of `self`.
    pub fn cross(self, o: V2) -> f64 {
        self.x * o.y - self.y * o.x
    }
    pub fn len(self) -> f64 {
        self.dot(self).sqrt()
    }
    pub fn dist(self, o: V2) -> f64 {
        (self - o).len()
    }
    /// Unit vector in the same direction; zero stays zero.
    pub fn norm(self) -> V2 {
        let l = self.len();
        if l == 0.0 { V2::ZERO } else { self * (1.0 / l) }
    }
    /// Rotated counter-clockwise by `a` radians.
    pub fn rotate(self, a: f64) -> V2 {
        let V2 { x: c, y: s } = dir(a);
        V2::new(self.x * c - self.y * s, self.x * s + self.y * c)
    }
    /// Perpendicular, rotated +90°.
    pub fn perp(self) -> V2 {
        V2::new(-self.y, self.x)
    }
    pub fn angle(self) -> f64 {
        self.y.atan2(self.x)
    }
    pub fn lerp(self, o: V2, t: f64) -> V2 {
        self + (o - self) * t
    }
}

impl Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2::new(self.x + o.x, self.y + o.y)
    }
}
impl AddAssign for V2 {
    fn add_assign(&mut self, o: V2) {
        self.x += o.x;
        self.y += o.y;
    }
}
impl Sub for V2 {
    type Output = V2;
    fn sub(self, o: V2) -> V2 {
        V2::new(self.x - o.x, self.y - o.y)
    }
}
impl Mul<f64> for V2 {
    type Output = V2;
    fn mul(self, k: f64) -> V2 {
        V2::new(self.x * k, self.y * k)
    }
}
impl Neg for V2 {
    type Output = V2;
    fn neg(self) -> V2 {
        V2::new(-self.x, -self.y)
    }
}

/// Unit vector of a facing angle.
pub fn dir(angle: f64) -> V2 {
    // Facing east, the most common (every commander's base): the same numbers, no sin_cos.
    if angle.to_bits() == 0 {
        return V2::new(1.0, 0.0);
    }
    // The stands of a unit, and a unit's checks one after another, share a facing: the last
    // angle's direction is kept (a pure function's answer, so the same numbers).
    thread_local! {
        static LAST: std::cell::Cell<(f64, V2)> = const { std::cell::Cell::new((0.0, V2::new(1.0, 0.0))) };
    }
    LAST.with(|last| {
        let (a, d) = last.get();
        if a.to_bits() == angle.to_bits() {
            return d;
        }
        let (s, c) = angle.sin_cos();
        let d = V2::new(c, s);
        last.set((angle, d));
        d
    })
}

/// The same angle in (-π, π].
pub fn wrap_angle(a: f64) -> f64 {
    let mut a = a % std::f64::consts::TAU;
    if a <= -std::f64::consts::PI {
        a += std::f64::consts::TAU;
    } else if a > std::f64::consts::PI {
        a -= std::f64::consts::TAU;
    }
    a
}

/// Where something stands and which way it faces.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pose {
    pub pos: V2,
    /// Radians; the front points along `dir(facing)`.
    pub facing: f64,
}

impl Pose {
    pub const fn new(pos: V2, facing: f64) -> Self {
        Pose { pos, facing }
    }
    pub fn forward(&self) -> V2 {
        dir(self.facing)
    }
    /// A point given in this pose's local frame (x forward, y to the left) in table coordinates.
    pub fn to_world(&self, local: V2) -> V2 {
        self.pos + local.rotate(self.facing)
    }
}

/// An oriented rectangle: one base on the table.
/// `width` runs along the front edge, `depth` from front to rear.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rect {
    pub center: V2,
    pub facing: f64,
    pub width: f64,
    pub depth: f64,
}

/// Tolerance for "touching is not overlapping" and boundary tests, in cm.
pub const EPS: f64 = 1e-6;

impl Rect {
    pub const fn new(center: V2, facing: f64, width: f64, depth: f64) -> Self {
        Rect {
            center,
            facing,
            width,
            depth,
        }
    }
    pub fn pose(&self) -> Pose {
        Pose::new(self.center, self.facing)
    }
    /// Unit vector to the front.
    pub fn forward(&self) -> V2 {
        dir(self.facing)
    }
    /// Unit vector to the left (`forward.perp()`).
    pub fn left(&self) -> V2 {
        dir(self.facing).perp()
    }
    /// `p` in this rect's frame: (along forward, along left), relative to the centre.
    #[inline]
    pub fn local(&self, p: V2) -> V2 {
        let f = dir(self.facing);
        let d = p - self.center;
        V2::new(d.dot(f), d.dot(f.perp()))
    }
    /// The point of the base (edge or inside) nearest `p`.
    pub fn closest_point(&self, p: V2) -> V2 {
        let f = dir(self.facing);
        let q = self.local(p);
        let x = q.x.clamp(-self.depth * 0.5, self.depth * 0.5);
        let y = q.y.clamp(-self.width * 0.5, self.width * 0.5);
        self.center + f * x + f.perp() * y
    }
    /// Front-left, front-right, rear-right, rear-left.
    pub fn corners(&self) -> [V2; 4] {
        let f = dir(self.facing) * (self.depth * 0.5);
        let l = dir(self.facing).perp() * (self.width * 0.5);
        let c = self.center;
        [c + f + l, c + f - l, c - f - l, c - f + l]
    }
    /// The front edge as (left end, right end).
    pub fn front_edge(&self) -> (V2, V2) {
        let k = self.corners();
        (k[0], k[1])
    }
    /// The rear edge as (left end, right end) — "left" as seen facing the rect's way.
    pub fn rear_edge(&self) -> (V2, V2) {
        let k = self.corners();
        (k[3], k[2])
    }
    /// Inside or on the boundary.
    pub fn contains(&self, p: V2) -> bool {
        let q = self.local(p);
        q.x.abs() <= self.depth * 0.5 + EPS && q.y.abs() <= self.width * 0.5 + EPS
    }
    /// Interiors overlap (separating axis theorem); touching is not overlapping.
    pub fn overlaps(&self, o: &Rect) -> bool {
        // Bounding circles first: most pairs are far apart.
        let reach = 0.5 * (self.width.hypot(self.depth) + o.width.hypot(o.depth));
        if self.center.dist(o.center) >= reach {
            return false;
        }
        Frame::of(self).separation(&Frame::of(o)) < -EPS
    }
    /// Shortest distance between the two bases, edge to edge; 0 when they touch or overlap.
    pub fn distance(&self, o: &Rect) -> f64 {
        let fa = Frame::of(self);
        let fb = Frame::of(o);
        if fa.separation(&fb) <= EPS {
            return 0.0;
        }
        let a = fa.corners();
        let b = fb.corners();
        // Disjoint convex polygons: the minimum is at a vertex of one of them.
        let mut m2 = f64::INFINITY;
        for p in b {
            m2 = m2.min(fa.dist2(p));
        }
        for p in a {
            m2 = m2.min(fb.dist2(p));
        }
        m2.sqrt()
    }
    /// Distance from `p` to the rect (0 inside).
    pub fn distance_to_point(&self, p: V2) -> f64 {
        let q = self.local(p);
        let dx = (q.x.abs() - self.depth * 0.5).max(0.0);
        let dy = (q.y.abs() - self.width * 0.5).max(0.0);
        (dx * dx + dy * dy).sqrt()
    }
    /// The parameter interval `[t0, t1]` ⊆ [0, 1] of segment a→b inside the rect (boundary
    /// inclusive), if any. `shrink` pulls the rect's sides in (use > 0 for strict interiors).
    pub fn clip_segment(&self, a: V2, b: V2, shrink: f64) -> Option<(f64, f64)> {
        let f = dir(self.facing);
        let l = f.perp();
        let (da, db) = (a - self.center, b - self.center);
        let la = V2::new(da.dot(f), da.dot(l));
        let lb = V2::new(db.dot(f), db.dot(l));
        clip_local_box(la, lb, self.depth * 0.5 - shrink, self.width * 0.5 - shrink)
    }
    /// The segment a→b touches or crosses the rect.
    pub fn intersects_segment(&self, a: V2, b: V2) -> bool {
        self.clip_segment(a, b, -EPS).is_some()
    }
    pub fn translated(&self, d: V2) -> Rect {
        Rect {
            center: self.center + d,
            ..*self
        }
    }
    /// Axis-aligned bounding box (min, max).
    pub fn aabb(&self) -> (V2, V2) {
        self.aabb_facing(dir(self.facing))
    }

    /// [`Rect::aabb`] with the facing's direction already known (`f` = `dir(self.facing)`).
    pub fn aabb_facing(&self, f: V2) -> (V2, V2) {
        let ex = (f.x * self.depth).abs() * 0.5 + (f.y * self.width).abs() * 0.5;
        let ey = (f.y * self.depth).abs() * 0.5 + (f.x * self.width).abs() * 0.5;
        (
            V2::new(self.center.x - ex, self.center.y - ey),
            V2::new(self.center.x + ex, self.center.y + ey),
        )
    }
}

/// How far apart two base edges may lie and still touch, cm: float error and placements
/// a hair apart, not a contact distance (a charger stops 0.01 cm off the edge).
pub const EDGE_TOUCH_GAP: f64 = 0.1;
/// How much two touching edges must share to be more than a corner, cm.
pub const EDGE_TOUCH: f64 = 0.05;

impl Rect {
    /// The four edges as (one end, other end, outward normal): front, right, rear, left.
    pub fn edges(&self) -> [(V2, V2, V2); 4] {
        let k = self.corners();
        let f = self.forward();
        let l = self.left();
        [(k[0], k[1], f), (k[1], k[2], -l), (k[2], k[3], -f), (k[3], k[0], l)]
    }

    /// The length along which an edge of this base lies against an edge of `o`: the two
    /// edges face each other (square to within a degree or so), lie at most `gap` apart and
    /// overlap along their length by this much. 0 when no edges face each other that close;
    /// a corner only touching gives (about) 0. BPT "Resolution": the stands "in contact".
    pub fn edge_contact(&self, o: &Rect, gap: f64) -> f64 {
        self.edge_contacts(o, gap).into_iter().fold(0.0, f64::max)
    }

    /// [`Rect::edge_contact`] edge by edge of this base, in the order of [`Rect::edges`].
    pub fn edge_contacts(&self, o: &Rect, gap: f64) -> [f64; 4] {
        let mut out = [0.0f64; 4];
        for (i, (a0, a1, n)) in self.edges().into_iter().enumerate() {
            let along = (a1 - a0).norm();
            let len = a0.dist(a1);
            for (b0, b1, m) in o.edges() {
                if n.dot(m) > -0.9998 {
                    continue;
                }
                let (d0, d1) = ((b0 - a0).dot(n), (b1 - a0).dot(n));
                if d0.abs() > gap || d1.abs() > gap {
                    continue;
                }
                let (t0, t1) = ((b0 - a0).dot(along), (b1 - a0).dot(along));
                let shared = len.min(t0.max(t1)) - 0.0f64.max(t0.min(t1));
                out[i] = out[i].max(shared);
            }
        }
        out
    }

    /// An edge of this base touches an edge of `o` along more than a corner
    /// ([`Rect::edge_contact`] beyond [`EDGE_TOUCH`], the edges at most [`EDGE_TOUCH_GAP`]
    /// apart).
    pub fn edge_touches(&self, o: &Rect) -> bool {
        self.edge_contact(o, EDGE_TOUCH_GAP) > EDGE_TOUCH
    }
}

/// A rect with its axes evaluated once (no trigonometry per query).
#[derive(Clone, Copy)]
struct Frame {
    c: V2,
    f: V2,
    hd: f64,
    hw: f64,
}

impl Frame {
    fn of(r: &Rect) -> Self {
        Frame {
            c: r.center,
            f: dir(r.facing),
            hd: r.depth * 0.5,
            hw: r.width * 0.5,
        }
    }
    fn corners(&self) -> [V2; 4] {
        let f = self.f * self.hd;
        let l = self.f.perp() * self.hw;
        let c = self.c;
        [c + f + l, c + f - l, c - f - l, c - f + l]
    }
    /// Half the rect's extent along the unit axis `u`.
    fn radius_along(&self, u: V2) -> f64 {
        self.hd * self.f.dot(u).abs() + self.hw * self.f.perp().dot(u).abs()
    }
    /// [`convex_separation`] of two rects: a rect has two edge directions, so four axes
    /// instead of eight edges, and no square roots.
    fn separation(&self, o: &Frame) -> f64 {
        let d = o.c - self.c;
        let mut best = f64::NEG_INFINITY;
        for u in [self.f, self.f.perp(), o.f, o.f.perp()] {
            let sep = d.dot(u).abs() - self.radius_along(u) - o.radius_along(u);
            best = best.max(sep);
        }
        best
    }
    /// Squared distance from `p` to the rect.
    fn dist2(&self, p: V2) -> f64 {
        let d = p - self.c;
        let dx = (d.dot(self.f).abs() - self.hd).max(0.0);
        let dy = (d.dot(self.f.perp()).abs() - self.hw).max(0.0);
        dx * dx + dy * dy
    }
}

/// Liang–Barsky clip of local segment la→lb to the box |x| ≤ hx, |y| ≤ hy.
#[inline]
pub(crate) fn clip_local_box(la: V2, lb: V2, hx: f64, hy: f64) -> Option<(f64, f64)> {
    if hx < 0.0 || hy < 0.0 {
        return None;
    }
    let d = lb - la;
    let mut t0 = 0.0f64;
    let mut t1 = 1.0f64;
    for (p, q) in [(-d.x, la.x + hx), (d.x, hx - la.x), (-d.y, la.y + hy), (d.y, hy - la.y)] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                if r > t1 {
                    return None;
                }
                if r > t0 {
                    t0 = r;
                }
            } else {
                if r < t0 {
                    return None;
                }
                if r < t1 {
                    t1 = r;
                }
            }
        }
    }
    Some((t0, t1))
}

/// Largest separation of two convex polygons along the edge normals of both (SAT).
/// Positive: separated by that much along some axis; ≤ 0: overlapping or touching.
/// Either winding; degenerate (zero-length) edges are skipped.
pub fn convex_separation(a: &[V2], b: &[V2]) -> f64 {
    let mut best = f64::NEG_INFINITY;
    for (p, q) in [(a, b), (b, a)] {
        let n = p.len();
        for i in 0..n {
            let e = p[(i + 1) % n] - p[i];
            let l = e.len();
            if l <= 1e-12 {
                continue;
            }
            let ax = e.perp() * (1.0 / l);
            let (mut amin, mut amax) = (f64::INFINITY, f64::NEG_INFINITY);
            for v in p {
                let s = v.dot(ax);
                amin = amin.min(s);
                amax = amax.max(s);
            }
            let (mut bmin, mut bmax) = (f64::INFINITY, f64::NEG_INFINITY);
            for v in q {
                let s = v.dot(ax);
                bmin = bmin.min(s);
                bmax = bmax.max(s);
            }
            let sep = (bmin - amax).max(amin - bmax);
            if sep > best {
                best = sep;
            }
        }
    }
    best
}

#[inline]
fn orient(a: V2, b: V2, c: V2) -> f64 {
    (b - a).cross(c - a)
}

/// Segments a→b and c→d share at least one point (touching counts).
pub fn segments_intersect(a: V2, b: V2, c: V2, d: V2) -> bool {
    let d1 = orient(c, d, a);
    let d2 = orient(c, d, b);
    // Quick rejection: both ends of one segment clearly on the same side of the other's line.
    let tcd = EPS * (d - c).len();
    if (d1 > tcd && d2 > tcd) || (d1 < -tcd && d2 < -tcd) {
        return false;
    }
    let d3 = orient(a, b, c);
    let d4 = orient(a, b, d);
    let tab = EPS * (b - a).len();
    if (d3 > tab && d4 > tab) || (d3 < -tab && d4 < -tab) {
        return false;
    }
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0)) {
        return true;
    }
    segment_segment_distance(a, b, c, d) <= EPS
}

/// The parameter t ∈ [0, 1] along a→b where it first meets segment c→d.
/// Collinear overlaps give the first shared point.
pub fn segment_intersection_t(a: V2, b: V2, c: V2, d: V2) -> Option<f64> {
    let r = b - a;
    let s = d - c;
    let den = r.cross(s);
    let qp = c - a;
    let (r2, s2) = (r.dot(r), s.dot(s));
    if den != 0.0 && den * den > 1e-24 * r2 * s2 {
        let t = qp.cross(s) / den;
        let u = qp.cross(r) / den;
        // Cheap rejection well outside both segments (tolerances below are ≤ 1e-3 there).
        if (r2 >= 1e-6 && !(-1e-3..=1.0 + 1e-3).contains(&t)) || (s2 >= 1e-6 && !(-1e-3..=1.0 + 1e-3).contains(&u)) {
            return None;
        }
        let tol_t = if r.len() > 0.0 { EPS / r.len() } else { 0.0 };
        let tol_u = if s.len() > 0.0 { EPS / s.len() } else { 0.0 };
        if t >= -tol_t && t <= 1.0 + tol_t && u >= -tol_u && u <= 1.0 + tol_u {
            return Some(t.clamp(0.0, 1.0));
        }
        return None;
    }
    // Parallel.
    if qp.cross(r).abs() > EPS * r.len().max(1.0) {
        return None;
    }
    let rr = r.dot(r);
    if rr == 0.0 {
        return if point_segment_distance(a, c, d) <= EPS {
            Some(0.0)
        } else {
            None
        };
    }
    let t0 = qp.dot(r) / rr;
    let t1 = (d - a).dot(r) / rr;
    let (lo, hi) = if t0 < t1 { (t0, t1) } else { (t1, t0) };
    if hi < 0.0 || lo > 1.0 {
        return None;
    }
    Some(lo.max(0.0))
}

/// Distance from `p` to segment a→b.
pub fn point_segment_distance(p: V2, a: V2, b: V2) -> f64 {
    let ab = b - a;
    let l2 = ab.dot(ab);
    if l2 == 0.0 {
        return p.dist(a);
    }
    let t = ((p - a).dot(ab) / l2).clamp(0.0, 1.0);
    p.dist(a + ab * t)
}

/// Shortest distance between segments a→b and c→d (0 when they cross).
pub fn segment_segment_distance(a: V2, b: V2, c: V2, d: V2) -> f64 {
    let d1 = orient(c, d, a);
    let d2 = orient(c, d, b);
    let d3 = orient(a, b, c);
    let d4 = orient(a, b, d);
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0)) {
        return 0.0;
    }
    point_segment_distance(a, c, d)
        .min(point_segment_distance(b, c, d))
        .min(point_segment_distance(c, a, b))
        .min(point_segment_distance(d, a, b))
}

/// Shortest distance between two groups of bases (min over pairs); ∞ if either is empty.
pub fn rects_distance(a: &[Rect], b: &[Rect]) -> f64 {
    let radius = |r: &Rect| 0.5 * (r.width * r.width + r.depth * r.depth).sqrt();
    // Start from the pair with the nearest centres, then skip pairs whose circumcircles
    // cannot beat the best so far.
    let mut best = (0, 0, f64::INFINITY);
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            let d2 = (x.center - y.center).dot(x.center - y.center);
            if d2 < best.2 {
                best = (i, j, d2);
            }
        }
    }
    if best.2 == f64::INFINITY {
        return f64::INFINITY;
    }
    let mut m = a[best.0].distance(&b[best.1]);
    for (i, x) in a.iter().enumerate() {
        let rx = radius(x);
        for (j, y) in b.iter().enumerate() {
            if m == 0.0 {
                return 0.0;
            }
            if (i, j) == (best.0, best.1) || x.center.dist(y.center) - rx - radius(y) >= m {
                continue;
            }
            m = m.min(x.distance(y));
        }
    }
    m
}

/// Is [`rects_distance`] of `a` and `b` at most `d`? The same answer, pair by pair, with the
/// pairs whose circumcircles are clearly farther apart than `d` never measured exactly (the
/// bound is given a margin, so rounding cannot drop a pair the exact test would keep).
pub fn rects_within(a: &[Rect], b: &[Rect], d: f64) -> bool {
    let radius = |r: &Rect| 0.5 * (r.width * r.width + r.depth * r.depth).sqrt();
    a.iter().any(|x| {
        let rx = radius(x);
        b.iter()
            .any(|y| x.center.dist(y.center) - rx - radius(y) <= d + 1e-6 && x.distance(y) <= d)
    })
}

/// Shortest distance between a base and segment a→b (0 if the segment touches it).
pub fn rect_segment_distance(r: &Rect, a: V2, b: V2) -> f64 {
    if r.intersects_segment(a, b) {
        return 0.0;
    }
    let k = r.corners();
    let mut m = f64::INFINITY;
    for i in 0..4 {
        m = m.min(segment_segment_distance(a, b, k[i], k[(i + 1) % 4]));
    }
    m
}

/// The fire cone (DECISIONS "Arcs"): the convex trapezoid ahead of the front edge whose sides
/// flare out by `half_angle` from the edge's normal `dir(facing)`, `range` deep (measured along
/// the normal). Returned as [left, right, far right, far left] (counter-clockwise).
pub fn fire_cone(front: (V2, V2), facing: f64, half_angle: f64, range: f64) -> [V2; 4] {
    let (l, r) = front;
    let slant = range / half_angle.cos().max(1e-9);
    [
        l,
        r,
        r + dir(facing - half_angle) * slant,
        l + dir(facing + half_angle) * slant,
    ]
}

/// Some part of `target` lies in the fire cone (touching its boundary counts).
pub fn rect_in_cone(front: (V2, V2), facing: f64, half_angle: f64, range: f64, target: &Rect) -> bool {
    let cone = fire_cone(front, facing, half_angle, range);
    convex_separation(&cone, &target.corners()) <= EPS
}

/// The 180° arc of vision (BPT "Line of Sight", DECISIONS "Arcs"): `p` is on or ahead of the
/// line through the front edge.
pub fn in_front_arc(front: (V2, V2), facing: f64, p: V2) -> bool {
    (p - front.0).dot(dir(facing)) >= -EPS
}

/// From which side an attack comes (BPT "Flank/rear Determination").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Aspect {
    Front,
    Flank,
    Rear,
}

/// The aspect of an attacker `from` against a target (BPT "Flank/rear Determination",
/// DECISIONS "Arcs"): Front when any part of the attacker is in the target's own fire cone
/// (unlimited range); otherwise Rear when the attacker lies wholly behind the line of the
/// target's rear edge (its nearest point to that line is behind it); otherwise Flank.
pub fn aspect(
    target_front: (V2, V2),
    target_rear: (V2, V2),
    target_facing: f64,
    cone_half_angle: f64,
    from: &Rect,
) -> Aspect {
    if rect_in_cone(target_front, target_facing, cone_half_angle, 1e4, from) {
        return Aspect::Front;
    }
    let f = dir(target_facing);
    let ahead = from
        .corners()
        .iter()
        .map(|c| (*c - target_rear.0).dot(f))
        .fold(f64::NEG_INFINITY, f64::max);
    if ahead < -EPS { Aspect::Rear } else { Aspect::Flank }
}

/// A rectangle of full width `width` around segment a→b (no extension past the ends):
/// [a + n·w/2, b + n·w/2, b − n·w/2, a − n·w/2] with n the left normal of a→b.
/// The axis-aligned box around `points` (lower-left, upper-right).
pub fn points_box(points: impl IntoIterator<Item = V2>) -> (V2, V2) {
    let mut lo = V2::new(f64::INFINITY, f64::INFINITY);
    let mut hi = V2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in points {
        lo = V2::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = V2::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    (lo, hi)
}

/// Whether two boxes are more than `margin` apart on either axis (so nothing in one is within
/// `margin` of anything in the other).
pub fn boxes_apart(a: (V2, V2), b: (V2, V2), margin: f64) -> bool {
    a.0.x > b.1.x + margin || b.0.x > a.1.x + margin || a.0.y > b.1.y + margin || b.0.y > a.1.y + margin
}

pub fn corridor(a: V2, b: V2, width: f64) -> [V2; 4] {
    let n = (b - a).norm().perp() * (width * 0.5);
    [a + n, b + n, b - n, a - n]
}

/// A convex polygon and a base overlap (touching is not overlapping).
pub fn convex_overlaps_rect(poly: &[V2], r: &Rect) -> bool {
    if poly.is_empty() {
        return false;
    }
    // Bounding boxes first.
    let (lo, hi) = r.aabb();
    let (mut plo, mut phi) = (poly[0], poly[0]);
    for v in &poly[1..] {
        plo = V2::new(plo.x.min(v.x), plo.y.min(v.y));
        phi = V2::new(phi.x.max(v.x), phi.y.max(v.y));
    }
    if phi.x <= lo.x || plo.x >= hi.x || phi.y <= lo.y || plo.y >= hi.y {
        return false;
    }
    convex_separation(poly, &r.corners()) < -EPS
}

/// A polygon approximating the arc of radius `r` about `c` from angle `a0` to `a1` (radians,
/// counter-clockwise), ends included, at most `step` radians apart.
pub fn arc_points(c: V2, r: f64, a0: f64, a1: f64, step: f64) -> Vec<V2> {
    let n = (((a1 - a0).abs() / step).ceil() as usize).max(1);
    (0..=n)
        .map(|i| c + dir(a0 + (a1 - a0) * i as f64 / n as f64) * r)
        .collect()
}

/// A unit's arc of vision (BPT "Line of Sight", DECISIONS "Arcs"): everything on or ahead of
/// the line through its front edge, out to `reach` — the half-disc on the front edge's middle
/// (a square sees all round: the whole disc).
pub fn vision_arc(front: (V2, V2), facing: f64, all_round: bool, reach: f64) -> Vec<V2> {
    let mid = front.0.lerp(front.1, 0.5);
    let half = (front.1 - front.0).len() * 0.5;
    let r = reach + half;
    let step = 4f64.to_radians();
    if all_round {
        return arc_points(mid, r, 0.0, std::f64::consts::TAU - step, step);
    }
    let right = facing - std::f64::consts::FRAC_PI_2;
    let mut pts = vec![front.0, front.1];
    pts.extend(arc_points(mid, r, right, right + std::f64::consts::PI, step));
    pts
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI};

    /// `rects_within` answers as `rects_distance` does, on groups of bases strewn at random
    /// (a fixed stream) and at thresholds below, at and above their distance, 0 and 30 cm.
    #[test]
    fn rects_within_answers_as_rects_distance() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = |lo: f64, hi: f64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            lo + (hi - lo) * ((x >> 11) as f64 / (1u64 << 53) as f64)
        };
        let group = |n: usize, next: &mut dyn FnMut(f64, f64) -> f64| -> Vec<Rect> {
            (0..n)
                .map(|_| {
                    let facing = if next(0.0, 1.0) < 0.3 { 0.0 } else { next(-PI, PI) };
                    Rect::new(
                        V2::new(next(0.0, 60.0), next(0.0, 60.0)),
                        facing,
                        next(1.0, 5.0),
                        next(1.0, 4.0),
                    )
                })
                .collect()
        };
        for _ in 0..3000 {
            let a = group(1 + (next(0.0, 3.0) as usize), &mut next);
            let b = group(1 + (next(0.0, 5.0) as usize), &mut next);
            let m = rects_distance(&a, &b);
            for d in [0.0, 30.0, m, m - 1e-9, m + 1e-9, next(0.0, 40.0)] {
                assert_eq!(rects_within(&a, &b, d), m <= d, "{a:?} {b:?} at {d}: {m}");
            }
        }
        assert!(!rects_within(&[], &[Rect::new(V2::new(0.0, 0.0), 0.0, 1.0, 1.0)], 10.0));
    }

    #[test]
    fn bases_touch_edge_to_edge_not_at_a_corner_or_apart() {
        // Two 2.5 × 1.5 stands face to face, fronts 0.01 cm apart.
        let a = Rect::new(V2::new(0.0, 0.0), FRAC_PI_2, 2.5, 1.5);
        let b = |x: f64, gap: f64| Rect::new(V2::new(x, 1.5 + gap), -FRAC_PI_2, 2.5, 1.5);
        assert!((a.edge_contact(&b(0.0, 0.01), EDGE_TOUCH_GAP) - 2.5).abs() < 1e-9);
        assert!((a.edge_contact(&b(1.0, 0.01), EDGE_TOUCH_GAP) - 1.5).abs() < 1e-9);
        assert!(a.edge_touches(&b(1.0, 0.01)) && b(1.0, 0.01).edge_touches(&a));
        // Side by side along the front, corner to corner: no contact.
        assert!(!a.edge_touches(&b(2.5, 0.01)));
        assert!(!a.edge_touches(&b(2.52, 0.0)));
        // Half a centimetre apart is not touching.
        assert!(!a.edge_touches(&b(0.0, 0.5)));
        // A flank edge (the 1.5 cm side) against a front: the shared length is the flank's.
        let side = Rect::new(V2::new(1.25 + 0.75 + 0.01, 0.0), PI, 2.5, 1.5);
        assert!((a.edge_contact(&side, EDGE_TOUCH_GAP) - 1.5).abs() < 1e-9);
        // Edge by edge: a's right side (index 1) against the flank base.
        let per = a.edge_contacts(&side, EDGE_TOUCH_GAP);
        assert!(per[0] == 0.0 && (per[1] - 1.5).abs() < 1e-9 && per[2] == 0.0 && per[3] == 0.0);
        // Overlapping bases at an angle do not "touch" edge to edge.
        let askew = Rect::new(V2::new(0.0, 1.5), 1.0, 2.5, 1.5);
        assert_eq!(a.edge_contact(&askew, EDGE_TOUCH_GAP), 0.0);
    }

    #[test]
    fn the_vision_arc_is_a_half_disc_ahead_of_the_front() {
        // Front edge along x from (-2,0) to (2,0) facing north (+y).
        let front = (V2::new(-2.0, 0.0), V2::new(2.0, 0.0));
        let facing = std::f64::consts::FRAC_PI_2;
        let pts = vision_arc(front, facing, false, 10.0);
        assert_eq!((pts[0], pts[1]), front);
        for p in &pts[2..] {
            assert!(p.y >= -1e-9, "{p:?} is behind the front");
            assert!((p.len() - 12.0).abs() < 1e-9);
            assert!(in_front_arc(front, facing, *p));
        }
        // It reaches straight ahead (to within one 4° step of the polygon).
        let ahead = pts.iter().map(|p| p.y).fold(0.0, f64::max);
        assert!(ahead > 12.0 * 2f64.to_radians().cos() - 1e-9, "{ahead}");
        // A square: the whole circle.
        let all = vision_arc(front, facing, true, 10.0);
        assert!(all.iter().any(|p| p.y < -11.0));
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }
    fn vclose(a: V2, b: V2) -> bool {
        a.dist(b) < 1e-9
    }

    #[test]
    fn corners_and_edges() {
        // Facing +y (north): width runs along x.
        let r = Rect::new(V2::new(10.0, 10.0), FRAC_PI_2, 4.0, 2.0);
        let k = r.corners();
        assert!(vclose(k[0], V2::new(8.0, 11.0))); // front-left
        assert!(vclose(k[1], V2::new(12.0, 11.0)));
        assert!(vclose(k[2], V2::new(12.0, 9.0)));
        assert!(vclose(k[3], V2::new(8.0, 9.0)));
        assert_eq!(r.front_edge(), (k[0], k[1]));
        assert_eq!(r.rear_edge(), (k[3], k[2]));
        assert!(r.contains(V2::new(12.0, 11.0)));
        assert!(!r.contains(V2::new(12.1, 11.0)));
        assert_eq!(r.pose(), Pose::new(V2::new(10.0, 10.0), FRAC_PI_2));
        let (lo, hi) = r.aabb();
        assert!(vclose(lo, V2::new(8.0, 9.0)) && vclose(hi, V2::new(12.0, 11.0)));
        assert!(vclose(r.translated(V2::new(1.0, 0.0)).center, V2::new(11.0, 10.0)));
    }

    #[test]
    fn overlap_touch_distance() {
        let a = Rect::new(V2::ZERO, 0.0, 2.5, 1.5);
        let b = Rect::new(V2::new(1.5, 0.0), 0.0, 2.5, 1.5); // touching along x
        assert!(!a.overlaps(&b));
        assert!(close(a.distance(&b), 0.0));
        let c = Rect::new(V2::new(1.4, 0.0), 0.0, 2.5, 1.5);
        assert!(a.overlaps(&c));
        let d = Rect::new(V2::new(11.5, 0.0), 0.0, 2.5, 1.5);
        assert!(close(a.distance(&d), 10.0));
        // Rotated 45°, corner towards a.
        let e = Rect::new(V2::new(10.0, 0.0), PI / 4.0, 2.0, 2.0);
        let expect = 10.0 - 2f64.sqrt() - 0.75;
        assert!(close(a.distance(&e), expect), "{}", a.distance(&e));
        let far = Rect::new(V2::new(40.0, 0.0), 0.0, 2.5, 1.5);
        assert!(close(rects_distance(&[a, far], &[e]), expect));
        assert_eq!(rects_distance(&[], &[a]), f64::INFINITY);
        assert!(close(a.distance_to_point(V2::new(3.75, 5.25)), 5.0));
        assert!(close(a.distance_to_point(V2::new(0.1, 0.1)), 0.0));
    }

    #[test]
    fn the_rect_separation_is_the_polygon_one() {
        // A fixed spread of sizes, turns and places, near and far, crossing and apart.
        let mut k = 0u32;
        for i in 0..12 {
            for j in 0..12 {
                let a = Rect::new(V2::new(0.3 * i as f64, -0.2 * j as f64), 0.37 * i as f64, 4.0, 1.5);
                let b = Rect::new(V2::new(0.7 * j as f64 - 3.0, 0.4 * i as f64), 0.53 * j as f64, 2.0, 3.0);
                let fast = Frame::of(&a).separation(&Frame::of(&b));
                let slow = convex_separation(&a.corners(), &b.corners());
                assert!(close(fast, slow), "{a:?} {b:?}: {fast} vs {slow}");
                k += (slow < 0.0) as u32;
            }
        }
        assert!(k > 10 && k < 134, "both overlapping and apart pairs were tried ({k})");
    }

    #[test]
    fn segments() {
        let o = V2::ZERO;
        assert!(segments_intersect(
            o,
            V2::new(2.0, 2.0),
            V2::new(0.0, 2.0),
            V2::new(2.0, 0.0)
        ));
        assert!(segments_intersect(
            o,
            V2::new(2.0, 0.0),
            V2::new(2.0, 0.0),
            V2::new(3.0, 1.0)
        ));
        assert!(!segments_intersect(
            o,
            V2::new(2.0, 0.0),
            V2::new(0.0, 1.0),
            V2::new(2.0, 1.0)
        ));
        let t = segment_intersection_t(o, V2::new(4.0, 0.0), V2::new(1.0, -1.0), V2::new(1.0, 1.0));
        assert!(close(t.unwrap(), 0.25));
        let t = segment_intersection_t(o, V2::new(4.0, 0.0), V2::new(6.0, 0.0), V2::new(2.0, 0.0));
        assert!(close(t.unwrap(), 0.5));
        assert!(segment_intersection_t(o, V2::new(4.0, 0.0), V2::new(5.0, -1.0), V2::new(5.0, 1.0)).is_none());
        assert!(close(
            point_segment_distance(V2::new(1.0, 3.0), o, V2::new(4.0, 0.0)),
            3.0
        ));
        assert!(close(
            point_segment_distance(V2::new(-3.0, 4.0), o, V2::new(4.0, 0.0)),
            5.0
        ));
        assert!(close(
            segment_segment_distance(o, V2::new(4.0, 0.0), V2::new(2.0, 1.0), V2::new(2.0, 5.0)),
            1.0
        ));
        let r = Rect::new(V2::new(5.0, 0.0), 0.0, 2.0, 2.0);
        assert!(r.intersects_segment(V2::new(0.0, 0.5), V2::new(10.0, 0.5)));
        assert!(!r.intersects_segment(V2::new(0.0, 1.5), V2::new(10.0, 1.5)));
        assert!(close(
            rect_segment_distance(&r, V2::new(0.0, 3.0), V2::new(10.0, 3.0)),
            2.0
        ));
        let (t0, t1) = r.clip_segment(V2::new(0.0, 0.0), V2::new(10.0, 0.0), 0.0).unwrap();
        assert!(close(t0, 0.4) && close(t1, 0.6));
    }

    #[test]
    fn cone_arc_aspect() {
        // Target facing +x, front edge at x = 0.75 from y = 1.25 to -1.25.
        let t = Rect::new(V2::ZERO, 0.0, 2.5, 1.5);
        let front = t.front_edge();
        let cone = fire_cone(front, 0.0, 15f64.to_radians(), 20.0);
        assert!(vclose(cone[0], front.0));
        assert!(close(cone[3].x, 20.75));
        assert!(close(cone[3].y, 1.25 + 20.0 * 15f64.to_radians().tan()));
        let half = 15f64.to_radians();
        let ahead = Rect::new(V2::new(10.0, 0.0), PI, 2.5, 1.5);
        assert!(rect_in_cone(front, 0.0, half, 20.0, &ahead));
        assert!(!rect_in_cone(front, 0.0, half, 5.0, &ahead));
        let wide = Rect::new(V2::new(10.0, 8.0), PI, 2.5, 1.5);
        assert!(!rect_in_cone(front, 0.0, half, 20.0, &wide));
        assert!(in_front_arc(front, 0.0, V2::new(0.75, 50.0)));
        assert!(!in_front_arc(front, 0.0, V2::new(0.7, 50.0)));
        let rear = t.rear_edge();
        assert_eq!(aspect(front, rear, 0.0, half, &ahead), Aspect::Front);
        assert_eq!(aspect(front, rear, 0.0, half, &wide), Aspect::Flank);
        let side = Rect::new(V2::new(0.0, 10.0), -FRAC_PI_2, 2.5, 1.5);
        assert_eq!(aspect(front, rear, 0.0, half, &side), Aspect::Flank);
        let behind = Rect::new(V2::new(-10.0, 3.0), 0.0, 2.5, 1.5);
        assert_eq!(aspect(front, rear, 0.0, half, &behind), Aspect::Rear);
        // Straddling the rear line: flank.
        let straddle = Rect::new(V2::new(-0.75, 6.0), 0.0, 2.5, 1.5);
        assert_eq!(aspect(front, rear, 0.0, half, &straddle), Aspect::Flank);
    }

    #[test]
    fn corridor_overlap() {
        let c = corridor(V2::ZERO, V2::new(10.0, 0.0), 2.0);
        assert!(vclose(c[0], V2::new(0.0, 1.0)) && vclose(c[2], V2::new(10.0, -1.0)));
        assert!(convex_overlaps_rect(&c, &Rect::new(V2::new(5.0, 1.5), 0.0, 2.0, 2.0)));
        assert!(!convex_overlaps_rect(&c, &Rect::new(V2::new(5.0, 2.0), 0.0, 2.0, 2.0))); // touching
        assert!(!convex_overlaps_rect(&c, &Rect::new(V2::new(12.0, 0.0), 0.3, 1.0, 1.0)));
    }
}
