//! Terrain on the table, as scenarios describe it (serde) and as the rules query it.
//!
//! BPT "Terrain" (Movement) and "Visibility": area terrain (low / high), dense terrain,
//! wet terrain, linear terrain (walls, fences, hedges), high ground (hills as nested contours),
//! roads, and buildings. DECISIONS.md "Line of sight" fixes the LOS distances.

use super::geometry::{
    EPS, Rect, V2, boxes_apart, point_segment_distance, rect_segment_distance, segment_intersection_t,
    segments_intersect,
};
use serde::{Deserialize, Serialize};

/// A closed polygon given by its vertices (the last joins the first). Counter-/clockwise either.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Polygon(pub Vec<V2>);

/// The kinds of area terrain. BPT "Area Terrain", "Wet Terrain", "Dense Terrain".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AreaKind {
    /// Crop fields, tall grass: low area terrain.
    Field,
    /// Scrub, heath, obscured rough ground: low area terrain; dense for wheeled transport.
    Scrub,
    /// Woods and forest: high area terrain.
    Woods,
    /// Orchards: high area terrain.
    Orchard,
    /// Built-up area (a village block): high area terrain, hard cover.
    BuiltUp,
    /// Marsh / swamp: partially wet; impassable but to foot, who move as in high area terrain;
    /// dense for everyone; wet ground for round shot.
    Marsh,
    /// Mud / soft ground: dense terrain for all troops, otherwise open; wet ground for round shot.
    Mud,
    /// Lake or pond: deep wet terrain, impassable.
    Lake,
}

impl AreaKind {
    pub const ALL: [AreaKind; 8] = [
        AreaKind::Woods,
        AreaKind::Field,
        AreaKind::Orchard,
        AreaKind::Scrub,
        AreaKind::Marsh,
        AreaKind::Mud,
        AreaKind::BuiltUp,
        AreaKind::Lake,
    ];

    /// What a player calls it: "woods", "built-up area".
    pub fn name(self) -> &'static str {
        match self {
            AreaKind::Field => "field",
            AreaKind::Scrub => "scrub",
            AreaKind::Woods => "woods",
            AreaKind::Orchard => "orchard",
            AreaKind::BuiltUp => "built-up area",
            AreaKind::Marsh => "marsh",
            AreaKind::Mud => "mud",
            AreaKind::Lake => "lake",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    pub kind: AreaKind,
    #[serde(default)]
    pub name: String,
    pub outline: Polygon,
}

/// Linear features drawn as polylines. BPT "Linear Terrain", "Wet Terrain", "Road Bonus Movement".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LinearKind {
    /// Stone wall: obstacle, blocks LOS unless in contact, soft cover.
    Wall,
    /// Rail or worm fence: obstacle, blocks LOS unless in contact, soft cover.
    Fence,
    /// Hedge: obstacle, blocks LOS unless in contact, soft cover.
    Hedge,
    /// Road: road bonus for march column; round shot bounces on it.
    Road,
    /// Stream / fordable river: shallow wet, crossed like a linear obstacle.
    Stream,
    /// River: deep wet, impassable except at a bridge (a road crossing it).
    River,
}

impl LinearKind {
    pub const ALL: [LinearKind; 6] = [
        LinearKind::Road,
        LinearKind::Stream,
        LinearKind::River,
        LinearKind::Wall,
        LinearKind::Fence,
        LinearKind::Hedge,
    ];

    /// What a player calls it: "road", "wall".
    pub fn name(self) -> &'static str {
        match self {
            LinearKind::Road => "road",
            LinearKind::Wall => "wall",
            LinearKind::Fence => "fence",
            LinearKind::Hedge => "hedge",
            LinearKind::Stream => "stream",
            LinearKind::River => "river",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Linear {
    pub kind: LinearKind,
    #[serde(default)]
    pub name: String,
    pub points: Vec<V2>,
    /// Full width in cm (roads, streams, rivers); walls/fences/hedges default to a thin line.
    #[serde(default = "default_linear_width")]
    pub width: f64,
}

fn default_linear_width() -> f64 {
    0.5
}

/// One contour of a hill: everything inside `outline` is at least `height` (in contour steps).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Contour {
    pub height: u32,
    pub outline: Polygon,
}

/// A hill as nested contours, the lowest (outermost) first. BPT "High Ground".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hill {
    #[serde(default)]
    pub name: String,
    pub contours: Vec<Contour>,
    /// A mountain is impassable except to troops on foot (BPT "High Ground").
    #[serde(default)]
    pub mountain: bool,
}

/// A single building footprint: high area terrain and hard cover; blocks round shot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Building {
    #[serde(default)]
    pub name: String,
    pub outline: Polygon,
    /// What it is built of (BPT "Constructions", read with the `Constructions` switch).
    #[serde(default)]
    pub material: Material,
}

/// BPT "Constructions (Optional Rule)": the table's rows (per 5 cm length: hits, save).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Material {
    /// Wooden building, improved breast works: 3 hits, no save.
    Wooden,
    /// Brick building, log works: 6 hits, 5+.
    #[default]
    Brick,
    /// Stone building, fortified works: 9 hits, 4+.
    Stone,
    /// Stone fortification: 12 hits, 3+.
    Fortification,
}

/// All the terrain of one table.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    #[serde(default)]
    pub areas: Vec<Area>,
    #[serde(default)]
    pub linears: Vec<Linear>,
    #[serde(default)]
    pub hills: Vec<Hill>,
    #[serde(default)]
    pub buildings: Vec<Building>,
}

/// A small buffer of parameters that lives on the stack until it grows past 16.
pub(crate) struct TBuf {
    arr: [f64; 16],
    n: usize,
    extra: Vec<f64>,
}

impl TBuf {
    pub(crate) fn new() -> Self {
        TBuf {
            arr: [0.0; 16],
            n: 0,
            extra: Vec::new(),
        }
    }
    pub(crate) fn push(&mut self, t: f64) {
        if self.n < 16 {
            self.arr[self.n] = t;
            self.n += 1;
        } else {
            if self.extra.is_empty() {
                self.extra.extend_from_slice(&self.arr);
            }
            self.extra.push(t);
        }
    }
    pub(crate) fn as_mut_slice(&mut self) -> &mut [f64] {
        if self.extra.is_empty() {
            &mut self.arr[..self.n]
        } else {
            &mut self.extra[..]
        }
    }
}

/// "Name" if the feature has one, else its kind.
fn label(name: &str, kind: impl std::fmt::Debug) -> String {
    if name.is_empty() {
        kind_words(kind)
    } else {
        name.to_string()
    }
}

/// A terrain kind as a player reads it, first letter a capital: `Woods` → "Woods",
/// `BuiltUp` → "Built up" (never the program's `BuiltUp` in a log line).
pub fn kind_words(kind: impl std::fmt::Debug) -> String {
    let mut out = String::new();
    for (i, c) in format!("{kind:?}").chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push(' ');
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// How far past a polygon's bounding box a point or segment is surely outside it: far beyond
/// the boundary's tolerance ([`EPS`]).
const BOX_MARGIN: f64 = 1e-3;

/// Does the axis-aligned box (lo, hi) meet the bounding box of segment a→b (with margin)?
#[inline]
pub(crate) fn bbox_meets_segment(lo: V2, hi: V2, a: V2, b: V2, margin: f64) -> bool {
    a.x.min(b.x) <= hi.x + margin
        && a.x.max(b.x) >= lo.x - margin
        && a.y.min(b.y) <= hi.y + margin
        && a.y.max(b.y) >= lo.y - margin
}

impl Polygon {
    /// The edges as (start, end), closing the ring.
    pub fn edges(&self) -> impl Iterator<Item = (V2, V2)> + '_ {
        let v = &self.0;
        v.iter().copied().zip(v.iter().skip(1).chain(v.first()).copied())
    }

    /// Inside (even-odd rule) or on the boundary.
    pub fn contains(&self, p: V2) -> bool {
        let v = &self.0;
        let n = v.len();
        if n == 0 {
            return false;
        }
        // Outside the box, surely outside (issue 66's speed: most areas lie far from a place).
        if boxes_apart((p, p), self.bbox(), BOX_MARGIN) {
            return false;
        }
        let mut inside = false;
        let mut j = n - 1;
        for i in 0..n {
            let (a, b) = (v[j], v[i]);
            if p.x >= a.x.min(b.x) - EPS
                && p.x <= a.x.max(b.x) + EPS
                && p.y >= a.y.min(b.y) - EPS
                && p.y <= a.y.max(b.y) + EPS
                && point_segment_distance(p, a, b) <= EPS
            {
                return true;
            }
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
                if p.x < x {
                    inside = !inside;
                }
            }
            j = i;
        }
        inside
    }

    /// Axis-aligned bounding box (min, max); zeros if empty.
    pub fn bbox(&self) -> (V2, V2) {
        if self.0.is_empty() {
            return (V2::ZERO, V2::ZERO);
        }
        let mut lo = V2::new(f64::INFINITY, f64::INFINITY);
        let mut hi = V2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        for p in &self.0 {
            lo.x = lo.x.min(p.x);
            lo.y = lo.y.min(p.y);
            hi.x = hi.x.max(p.x);
            hi.y = hi.y.max(p.y);
        }
        (lo, hi)
    }

    fn signed_area(&self) -> f64 {
        self.edges().map(|(a, b)| a.cross(b)).sum::<f64>() * 0.5
    }

    /// Enclosed area in cm² (either winding).
    pub fn area(&self) -> f64 {
        self.signed_area().abs()
    }

    /// Area centroid (vertex mean for degenerate polygons).
    pub fn centroid(&self) -> V2 {
        let a = self.signed_area();
        let n = self.0.len();
        if n == 0 {
            return V2::ZERO;
        }
        if a.abs() < 1e-12 {
            let s = self.0.iter().fold(V2::ZERO, |s, p| s + *p);
            return s * (1.0 / n as f64);
        }
        let mut c = V2::ZERO;
        for (p, q) in self.edges() {
            let k = p.cross(q);
            c += (p + q) * k;
        }
        c * (1.0 / (6.0 * a))
    }

    /// Calls `f(t0, t1)` for each maximal parameter interval of a→b inside the polygon
    /// (boundary inclusive), in increasing order, without allocating (for ≤ 30 crossings).
    pub fn for_each_interval(&self, a: V2, b: V2, f: impl FnMut(f64, f64)) {
        self.for_each_interval_bbox(a, b, None, f)
    }

    /// [`Polygon::for_each_interval`] given the polygon's bounding box (from [`Polygon::bbox`]),
    /// which lets it skip the inside test of a start point outside the box.
    pub fn for_each_interval_bbox(&self, a: V2, b: V2, bbox: Option<(V2, V2)>, mut f: impl FnMut(f64, f64)) {
        self.intervals_dyn(a, b, bbox, &mut f)
    }

    fn intervals_dyn(&self, a: V2, b: V2, bbox: Option<(V2, V2)>, f: &mut dyn FnMut(f64, f64)) {
        if self.0.len() < 3 {
            return;
        }
        if bbox.is_none() {
            // The box is cheaper than the crossings: most polygons on a big table lie far from
            // a short segment (issue 66's speed). A margin well past the boundary's tolerance
            // keeps every answer as it was (and the box goes no further, so every number too).
            let (lo, hi) = self.bbox();
            if !bbox_meets_segment(lo, hi, a, b, BOX_MARGIN) {
                return;
            }
        }
        let outside = |p: V2| bbox.is_some_and(|(lo, hi)| p.x < lo.x || p.x > hi.x || p.y < lo.y || p.y > hi.y);
        if !outside(a) && outside(b) {
            // Run from the end that is surely outside, then map the intervals back.
            let mut iv = [(0.0f64, 0.0f64); 8];
            let mut n = 0usize;
            let mut spill: Vec<(f64, f64)> = Vec::new();
            self.intervals_dyn(b, a, bbox, &mut |t0, t1| {
                if n < iv.len() {
                    iv[n] = (1.0 - t1, 1.0 - t0);
                    n += 1;
                } else {
                    spill.push((1.0 - t1, 1.0 - t0));
                }
            });
            for &(t0, t1) in spill.iter().rev() {
                f(t0, t1);
            }
            for &(t0, t1) in iv[..n].iter().rev() {
                f(t0, t1);
            }
            return;
        }
        let a_out = outside(a);
        // Fast path: only proper crossings (no vertex or boundary touching within EPS):
        // toggle the inside state from the start point at each crossing.
        let ab = b - a;
        let tol_ab = EPS * ab.len();
        if tol_ab > 0.0 {
            let mut ts = TBuf::new();
            let mut degenerate = false;
            // Even-odd state of `a` (horizontal ray), in the same pass over the edges.
            let mut inside = false;
            let v = &self.0;
            let mut c = v[v.len() - 1];
            for &d in v {
                let c = std::mem::replace(&mut c, d);
                if !a_out && (c.y > a.y) != (d.y > a.y) {
                    let x = c.x + (a.y - c.y) * (d.x - c.x) / (d.y - c.y);
                    if a.x < x {
                        inside = !inside;
                    }
                }
                let o1 = ab.cross(c - a);
                let o2 = ab.cross(d - a);
                if (o1 > tol_ab && o2 > tol_ab) || (o1 < -tol_ab && o2 < -tol_ab) {
                    continue;
                }
                let cd = d - c;
                let tol_cd = EPS * cd.len();
                let o3 = cd.cross(a - c);
                let o4 = cd.cross(b - c);
                if (o3 > tol_cd && o4 > tol_cd) || (o3 < -tol_cd && o4 < -tol_cd) {
                    continue;
                }
                if o1.abs() <= tol_ab || o2.abs() <= tol_ab || o3.abs() <= tol_cd || o4.abs() <= tol_cd {
                    degenerate = true;
                    break;
                }
                ts.push(o3 / (o3 - o4));
            }
            if !degenerate {
                // Not degenerate, so `a` is not on the boundary: the ray test is exact.
                let ts = ts.as_mut_slice();
                if ts.is_empty() {
                    if inside {
                        f(0.0, 1.0);
                    }
                    return;
                }
                ts.sort_by(f64::total_cmp);
                let mut start = 0.0;
                for &t in ts.iter() {
                    if inside {
                        f(start, t);
                    } else {
                        start = t;
                    }
                    inside = !inside;
                }
                if inside {
                    f(start, 1.0);
                }
                return;
            }
        }
        let mut ts = TBuf::new();
        ts.push(0.0);
        ts.push(1.0);
        let (slo, shi) = (V2::new(a.x.min(b.x), a.y.min(b.y)), V2::new(a.x.max(b.x), a.y.max(b.y)));
        for (c, d) in self.edges() {
            if c.x.max(d.x) < slo.x - EPS
                || c.x.min(d.x) > shi.x + EPS
                || c.y.max(d.y) < slo.y - EPS
                || c.y.min(d.y) > shi.y + EPS
            {
                continue;
            }
            // Both ends of a collinear overlap matter: add the edge ends' projections too.
            if let Some(t) = segment_intersection_t(a, b, c, d) {
                ts.push(t);
                if let Some(t2) = segment_intersection_t(b, a, c, d) {
                    ts.push(1.0 - t2);
                }
            }
        }
        let ts = ts.as_mut_slice();
        ts.sort_by(f64::total_cmp);
        let mut cur: Option<(f64, f64)> = None;
        let mut prev = ts[0];
        let single = a.dist(b) <= EPS;
        if single {
            if self.contains(a) {
                f(0.0, 1.0);
            }
            return;
        }
        for &t in ts[1..].iter() {
            if t - prev <= 1e-12 {
                continue;
            }
            let inside = self.contains(a.lerp(b, (prev + t) * 0.5));
            if inside {
                cur = Some(match cur {
                    Some((s, _)) => (s, t),
                    None => (prev, t),
                });
            } else if let Some((s, e)) = cur.take() {
                f(s, e);
            }
            prev = t;
        }
        if let Some((s, e)) = cur {
            f(s, e);
        }
    }

    /// Sorted parameter intervals t ∈ [0, 1] of segment a→b inside the polygon.
    pub fn clip_segment(&self, a: V2, b: V2) -> Vec<(f64, f64)> {
        let mut v = Vec::new();
        self.for_each_interval(a, b, |s, e| v.push((s, e)));
        v
    }

    /// Length of segment a→b inside the polygon.
    pub fn length_inside(&self, a: V2, b: V2) -> f64 {
        let mut s = 0.0;
        self.for_each_interval(a, b, |t0, t1| s += t1 - t0);
        s * a.dist(b)
    }

    /// Distance from `p` to the polygon's boundary.
    pub fn distance_to_point(&self, p: V2) -> f64 {
        self.edges()
            .map(|(a, b)| point_segment_distance(p, a, b))
            .fold(f64::INFINITY, f64::min)
    }

    /// Distance from a base to the polygon's boundary (0 if the boundary touches it).
    pub fn boundary_distance_to_rect(&self, r: &Rect) -> f64 {
        self.boundary_distance_to_rect_within(r, f64::INFINITY)
    }

    /// Like [`Polygon::boundary_distance_to_rect`], but edges farther than `limit` (by bounding
    /// boxes) are skipped: the result is exact when ≤ `limit`, else some value > `limit`.
    pub fn boundary_distance_to_rect_within(&self, r: &Rect, limit: f64) -> f64 {
        let (lo, hi) = r.aabb();
        let mut m = f64::INFINITY;
        for (a, b) in self.edges() {
            if limit.is_finite()
                && (a.x.max(b.x) < lo.x - limit
                    || a.x.min(b.x) > hi.x + limit
                    || a.y.max(b.y) < lo.y - limit
                    || a.y.min(b.y) > hi.y + limit)
            {
                continue;
            }
            m = m.min(rect_segment_distance(r, a, b));
            if m == 0.0 {
                break;
            }
        }
        m
    }

    /// The polygon (possibly concave) and the base overlap (touching is not overlapping).
    pub fn intersects_rect(&self, r: &Rect) -> bool {
        if self.0.len() < 3 {
            return false;
        }
        let (lo, hi) = self.bbox();
        let (rlo, rhi) = r.aabb();
        if rlo.x > hi.x || rhi.x < lo.x || rlo.y > hi.y || rhi.y < lo.y {
            return false;
        }
        if self.contains(r.center) {
            return true;
        }
        let f = super::geometry::dir(r.facing);
        let l = f.perp();
        let (hd, hw) = (r.depth * 0.5 - EPS, r.width * 0.5 - EPS);
        self.edges().any(|(a, b)| {
            if a.x.max(b.x) < rlo.x || a.x.min(b.x) > rhi.x || a.y.max(b.y) < rlo.y || a.y.min(b.y) > rhi.y {
                return false;
            }
            let (da, db) = (a - r.center, b - r.center);
            let la = V2::new(da.dot(f), da.dot(l));
            let lb = V2::new(db.dot(f), db.dot(l));
            matches!(super::geometry::clip_local_box(la, lb, hd, hw), Some((t0, t1)) if t1 > t0 || a == b)
        })
    }

    /// Segment a→b meets the polygon's boundary.
    pub fn crosses_boundary(&self, a: V2, b: V2) -> bool {
        self.edges().any(|(c, d)| segments_intersect(a, b, c, d))
    }
}

/// Distance from `p` to an open polyline.
pub fn polyline_distance_to_point(pts: &[V2], p: V2) -> f64 {
    match pts.len() {
        0 => f64::INFINITY,
        1 => pts[0].dist(p),
        _ => pts
            .windows(2)
            .map(|w| point_segment_distance(p, w[0], w[1]))
            .fold(f64::INFINITY, f64::min),
    }
}

/// Distance from a base to an open polyline (0 if it touches the base).
pub fn polyline_distance_to_rect(pts: &[V2], r: &Rect) -> f64 {
    polyline_distance_to_rect_within(pts, r, f64::INFINITY)
}

/// Like [`polyline_distance_to_rect`], skipping pieces farther than `limit` by bounding boxes:
/// exact when ≤ `limit`, else some value > `limit`.
pub fn polyline_distance_to_rect_within(pts: &[V2], r: &Rect, limit: f64) -> f64 {
    match pts.len() {
        0 => f64::INFINITY,
        1 => r.distance_to_point(pts[0]),
        _ => {
            let (lo, hi) = r.aabb();
            let mut m = f64::INFINITY;
            for w in pts.windows(2) {
                let (a, b) = (w[0], w[1]);
                if limit.is_finite()
                    && (a.x.max(b.x) < lo.x - limit
                        || a.x.min(b.x) > hi.x + limit
                        || a.y.max(b.y) < lo.y - limit
                        || a.y.min(b.y) > hi.y + limit)
                {
                    continue;
                }
                m = m.min(rect_segment_distance(r, w[0], w[1]));
                if m == 0.0 {
                    break;
                }
            }
            m
        }
    }
}

/// The first parameter t along a→b where it meets the polyline.
pub fn polyline_crossing(pts: &[V2], a: V2, b: V2) -> Option<f64> {
    let mut best: Option<f64> = None;
    for w in pts.windows(2) {
        if let Some(t) = segment_intersection_t(a, b, w[0], w[1]) {
            best = Some(best.map_or(t, |x: f64| x.min(t)));
        }
    }
    best
}

/// The point of a polyline nearest `p`: (distance along the line from its first point, the
/// point, the unit direction of the line there). None for fewer than two points.
pub fn polyline_project(pts: &[V2], p: V2) -> Option<(f64, V2, V2)> {
    let mut best: Option<(f64, f64, V2, V2)> = None;
    let mut run = 0.0;
    for w in pts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = a.dist(b);
        if len > 0.0 {
            let t = ((p - a).dot(b - a) / (len * len)).clamp(0.0, 1.0);
            let q = a.lerp(b, t);
            let d = q.dist(p);
            if best.is_none_or(|x| d < x.0) {
                best = Some((d, run + t * len, q, (b - a) * (1.0 / len)));
            }
        }
        run += len;
    }
    best.map(|(_, s, q, dir)| (s, q, dir))
}

/// The stretch of a polyline between distances `s0` and `s1` along it (either order: the
/// points run from `s0` to `s1`), its ends included.
pub fn polyline_between(pts: &[V2], s0: f64, s1: f64) -> Vec<V2> {
    let (lo, hi) = (s0.min(s1), s0.max(s1));
    let mut out = Vec::new();
    out.extend(polyline_point_at(pts, lo));
    let mut run = 0.0;
    for w in pts.windows(2) {
        run += w[0].dist(w[1]);
        if run > lo + EPS && run < hi - EPS {
            out.push(w[1]);
        }
    }
    out.extend(polyline_point_at(pts, hi));
    if s0 > s1 {
        out.reverse();
    }
    out
}

/// Length of an open polyline.
pub fn polyline_length(pts: &[V2]) -> f64 {
    pts.windows(2).map(|w| w[0].dist(w[1])).sum()
}

/// The point at distance `s` along a polyline (clamped to its ends).
pub fn polyline_point_at(pts: &[V2], s: f64) -> Option<V2> {
    let mut run = 0.0;
    for w in pts.windows(2) {
        let len = w[0].dist(w[1]);
        if s <= run + len && len > 0.0 {
            return Some(w[0].lerp(w[1], ((s - run) / len).clamp(0.0, 1.0)));
        }
        run += len;
    }
    pts.last().copied()
}

/// A polyline with the stretch from `from` to `to` (distances along it) taken out: the piece
/// before and the piece after, each empty when nothing of it is left.
pub fn polyline_cut(pts: &[V2], from: f64, to: f64) -> (Vec<V2>, Vec<V2>) {
    let total: f64 = pts.windows(2).map(|w| w[0].dist(w[1])).sum();
    let (from, to) = (from.max(0.0), to.min(total));
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut run = 0.0;
    for (i, &p) in pts.iter().enumerate() {
        if i > 0 {
            run += pts[i - 1].dist(p);
        }
        if run < from {
            before.push(p);
        } else if run > to {
            after.push(p);
        }
    }
    if from > 0.0
        && let Some(q) = polyline_point_at(pts, from)
    {
        before.push(q);
    }
    if to < total
        && let Some(q) = polyline_point_at(pts, to)
    {
        after.insert(0, q);
    }
    let keep = |v: Vec<V2>| if v.len() >= 2 { v } else { Vec::new() };
    (keep(before), keep(after))
}

/// Bounding box of a polyline (min, max).
pub fn polyline_bbox(pts: &[V2]) -> (V2, V2) {
    Polygon(pts.to_vec()).bbox()
}

impl AreaKind {
    /// High area terrain (BPT "Area Terrain"): woods, orchards, built-up areas.
    pub fn is_high(self) -> bool {
        matches!(self, AreaKind::Woods | AreaKind::Orchard | AreaKind::BuiltUp)
    }
    /// Low area terrain that obscures sight (BPT "Area Terrain"): fields, scrub, marsh.
    pub fn is_low(self) -> bool {
        matches!(self, AreaKind::Field | AreaKind::Scrub | AreaKind::Marsh)
    }
}

impl LinearKind {
    /// Walls, fences and hedges: obstacles that block LOS (BPT "Linear Terrain").
    pub fn is_obstacle(self) -> bool {
        matches!(self, LinearKind::Wall | LinearKind::Fence | LinearKind::Hedge)
    }
}

impl Hill {
    /// Height at `p` on this hill: the highest contour containing it (0 if off the hill).
    pub fn elevation_at(&self, p: V2) -> u32 {
        self.contours
            .iter()
            .filter(|c| c.height > 0 && c.outline.contains(p))
            .map(|c| c.height)
            .max()
            .unwrap_or(0)
    }
    /// The outermost contour's outline (the hill's foot), if any.
    pub fn outer(&self) -> Option<&Polygon> {
        self.contours.first().map(|c| &c.outline)
    }
    /// Centroid of the highest contour (the first one of that height): the hill's centre for
    /// the crest line (BPT "High Ground").
    pub fn top_centroid(&self) -> V2 {
        let mut best: Option<&Contour> = None;
        for c in &self.contours {
            if best.is_none_or(|b| c.height > b.height) {
                best = Some(c);
            }
        }
        best.map_or(V2::ZERO, |c| c.outline.centroid())
    }
}

/// One boundary event along a segment. BPT "Terrain".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossing {
    pub t: f64,
    pub what: CrossingWhat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrossingWhat {
    /// Entering area `i` (areas first; building `j` is `areas.len() + j`).
    EnterArea(usize),
    ExitArea(usize),
    /// Crossing the line of linear `i` (roads are never reported).
    Linear(usize),
}

impl Terrain {
    /// Areas then buildings (as BuiltUp), with their combined index.
    pub fn area_polys(&self) -> impl Iterator<Item = (usize, AreaKind, &Polygon, &str)> + '_ {
        let n = self.areas.len();
        self.areas
            .iter()
            .enumerate()
            .map(|(i, a)| (i, a.kind, &a.outline, a.name.as_str()))
            .chain(
                self.buildings
                    .iter()
                    .enumerate()
                    .map(move |(j, b)| (n + j, AreaKind::BuiltUp, &b.outline, b.name.as_str())),
            )
    }

    /// The kinds of area terrain at `p` (buildings as BuiltUp), in file order.
    pub fn area_kinds_at(&self, p: V2) -> Vec<AreaKind> {
        self.area_polys()
            .filter(|(_, _, poly, _)| poly.contains(p))
            .map(|(_, k, _, _)| k)
            .collect()
    }

    /// Highest contour at `p` over all hills; 0 off the hills.
    pub fn elevation_at(&self, p: V2) -> u32 {
        self.hills.iter().map(|h| h.elevation_at(p)).max().unwrap_or(0)
    }

    /// The first hill with `p` inside one of its contours.
    pub fn hill_at(&self, p: V2) -> Option<usize> {
        self.hills.iter().position(|h| h.elevation_at(p) > 0)
    }

    /// Boundary events along a→b, sorted by t (ties in file order).
    pub fn crossings(&self, a: V2, b: V2) -> Vec<Crossing> {
        let mut out = Vec::new();
        let eps_t = if a.dist(b) > 0.0 { EPS / a.dist(b) } else { 0.0 };
        for (i, _, poly, _) in self.area_polys() {
            poly.for_each_interval(a, b, |t0, t1| {
                if t0 > eps_t {
                    out.push(Crossing {
                        t: t0,
                        what: CrossingWhat::EnterArea(i),
                    });
                }
                if t1 < 1.0 - eps_t {
                    out.push(Crossing {
                        t: t1,
                        what: CrossingWhat::ExitArea(i),
                    });
                }
            });
        }
        for (i, l) in self.linears.iter().enumerate() {
            if l.kind == LinearKind::Road {
                continue;
            }
            for w in l.points.windows(2) {
                if let Some(t) = segment_intersection_t(a, b, w[0], w[1]) {
                    // A crossing through a shared vertex counts once.
                    if !out
                        .iter()
                        .any(|c: &Crossing| c.what == CrossingWhat::Linear(i) && (c.t - t).abs() <= eps_t)
                    {
                        out.push(Crossing {
                            t,
                            what: CrossingWhat::Linear(i),
                        });
                    }
                }
            }
        }
        out.sort_by(|x, y| x.t.total_cmp(&y.t));
        out
    }

    /// Length of a→b inside each kind of area terrain (buildings as BuiltUp), kinds in order
    /// of first appearance, only those with positive length.
    pub fn length_in_areas(&self, a: V2, b: V2) -> Vec<(AreaKind, f64)> {
        let mut out: Vec<(AreaKind, f64)> = Vec::new();
        for (_, k, poly, _) in self.area_polys() {
            let l = poly.length_inside(a, b);
            if l > 0.0 {
                match out.iter_mut().find(|(kk, _)| *kk == k) {
                    Some(e) => e.1 += l,
                    None => out.push((k, l)),
                }
            }
        }
        out
    }

    /// The whole segment a→b lies within `width/2 + 0.5` cm of one road (BPT "Road Bonus
    /// Movement"); checked at both ends and every 0.5 cm between.
    pub fn on_road(&self, a: V2, b: V2) -> bool {
        let len = a.dist(b);
        let n = (len / 0.5).ceil().max(1.0) as usize;
        self.linears.iter().filter(|l| l.kind == LinearKind::Road).any(|road| {
            let r = road.width * 0.5 + 0.5 + EPS;
            (0..=n).all(|i| polyline_distance_to_point(&road.points, a.lerp(b, i as f64 / n as f64)) <= r)
        })
    }

    /// BPT "March Column": "The formation conforms to the bends in the road." The way from `a`
    /// to `b` along one road that holds both (each within the road's half width + 0.5 cm, as
    /// [`Terrain::on_road`]): `a`, the road's bends between their places on it, `b`; the
    /// shortest if several roads hold them. None if no road does.
    pub fn road_path(&self, a: V2, b: V2) -> Option<Vec<V2>> {
        self.linears
            .iter()
            .filter(|l| l.kind == LinearKind::Road)
            .filter_map(|road| {
                let r = road.width * 0.5 + 0.5 + EPS;
                if polyline_distance_to_point(&road.points, a) > r || polyline_distance_to_point(&road.points, b) > r {
                    return None;
                }
                let (sa, _, _) = polyline_project(&road.points, a)?;
                let (sb, _, _) = polyline_project(&road.points, b)?;
                let mut path = vec![a];
                let inner = polyline_between(&road.points, sa, sb);
                // The bends strictly between the two ends (the projections themselves are
                // within the road's width of the ends and add nothing but a zig-zag).
                if inner.len() > 2 {
                    path.extend_from_slice(&inner[1..inner.len() - 1]);
                }
                path.push(b);
                Some(path)
            })
            .min_by(|x, y| polyline_length(x).total_cmp(&polyline_length(y)))
    }

    /// Linears other than roads whose line (half its width) lies within `contact` of the base.
    pub fn linear_touching(&self, r: &Rect, contact: f64) -> Vec<usize> {
        self.linears
            .iter()
            .enumerate()
            .filter(|(_, l)| l.kind != LinearKind::Road)
            .filter(|(_, l)| polyline_distance_to_rect(&l.points, r) <= l.width * 0.5 + contact + EPS)
            .map(|(i, _)| i)
            .collect()
    }

    /// A road crosses river `ri` within 3 cm of `p`: a bridge or ford.
    fn bridged(&self, ri: usize, p: V2) -> bool {
        self.roads_across(&self.linears[ri])
            .any(|(at, _)| at.dist(p) <= 3.0 + EPS)
    }

    /// The first impassable thing a move along a→b runs into (BPT "Terrain", "Wet Terrain",
    /// "High Ground"): rivers (except at a bridge: a road crossing within 3 cm), lakes,
    /// marsh (except for troops on foot), mountains (except for troops on foot).
    /// Returns its name, or its kind when it has none.
    pub fn impassable_for(&self, a: V2, b: V2, foot: bool) -> Option<String> {
        let mut best: Option<(f64, String)> = None;
        let mut consider = |t: f64, s: &dyn Fn() -> String| {
            if best.as_ref().is_none_or(|(bt, _)| t < *bt) {
                best = Some((t, s()));
            }
        };
        for (i, l) in self.linears.iter().enumerate() {
            if l.kind != LinearKind::River {
                continue;
            }
            for w in l.points.windows(2) {
                if let Some(t) = segment_intersection_t(a, b, w[0], w[1])
                    && !self.bridged(i, a.lerp(b, t))
                {
                    consider(t, &|| label(&l.name, l.kind));
                }
            }
        }
        for (_, k, poly, name) in self.area_polys() {
            let blocks = k == AreaKind::Lake || (k == AreaKind::Marsh && !foot);
            if blocks {
                let mut first = None;
                poly.for_each_interval(a, b, |t0, _| {
                    if first.is_none() {
                        first = Some(t0);
                    }
                });
                if let Some(t) = first {
                    consider(t, &|| label(name, k));
                }
            }
        }
        if !foot {
            for h in self.hills.iter().filter(|h| h.mountain) {
                if let Some(outer) = h.outer() {
                    let mut first = None;
                    outer.for_each_interval(a, b, |t0, _| {
                        if first.is_none() {
                            first = Some(t0);
                        }
                    });
                    if let Some(t) = first {
                        let n = if h.name.is_empty() {
                            "Mountain".to_string()
                        } else {
                            h.name.clone()
                        };
                        consider(t, &|| n.clone());
                    }
                }
            }
        }
        best.map(|(_, s)| s)
    }

    /// The base stands on impassable ground: in a lake, a river (away from a bridge),
    /// and unless on foot a marsh or a mountain.
    pub fn rect_in_impassable(&self, r: &Rect, foot: bool) -> bool {
        for (_, k, poly, _) in self.area_polys() {
            if (k == AreaKind::Lake || (k == AreaKind::Marsh && !foot)) && poly.intersects_rect(r) {
                return true;
            }
        }
        if !foot
            && self
                .hills
                .iter()
                .filter(|h| h.mountain)
                .any(|h| h.outer().is_some_and(|o| o.intersects_rect(r)))
        {
            return true;
        }
        for (i, l) in self.linears.iter().enumerate() {
            if l.kind == LinearKind::River
                && polyline_distance_to_rect(&l.points, r) < l.width * 0.5 - EPS
                && !self.bridged(i, r.center)
            {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod polyline_tests {
    use super::*;

    fn v(x: f64, y: f64) -> V2 {
        V2::new(x, y)
    }

    #[test]
    fn a_point_projects_onto_the_nearest_stretch_with_its_distance_along() {
        let wall = [v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0)];
        let (s, q, dir) = polyline_project(&wall, v(4.0, 3.0)).unwrap();
        assert!((s - 4.0).abs() < 1e-9 && q.dist(v(4.0, 0.0)) < 1e-9 && dir.dist(v(1.0, 0.0)) < 1e-9);
        let (s, q, _) = polyline_project(&wall, v(12.0, 6.0)).unwrap();
        assert!((s - 16.0).abs() < 1e-9 && q.dist(v(10.0, 6.0)) < 1e-9);
        assert!(polyline_project(&[v(1.0, 1.0)], v(0.0, 0.0)).is_none());
    }

    #[test]
    fn a_stretch_between_two_distances_runs_from_the_first_to_the_second() {
        let road = [v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0)];
        assert_eq!(
            polyline_between(&road, 5.0, 15.0),
            vec![v(5.0, 0.0), v(10.0, 0.0), v(10.0, 5.0)]
        );
        assert_eq!(
            polyline_between(&road, 15.0, 5.0),
            vec![v(10.0, 5.0), v(10.0, 0.0), v(5.0, 0.0)]
        );
        assert_eq!(polyline_between(&road, 2.0, 4.0), vec![v(2.0, 0.0), v(4.0, 0.0)]);
        assert!((polyline_length(&road) - 20.0).abs() < 1e-9);
    }

    #[test]
    fn the_way_along_a_road_follows_its_bends() {
        let t = Terrain {
            linears: vec![Linear {
                kind: LinearKind::Road,
                name: "pike".into(),
                points: vec![v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0)],
                width: 3.0,
            }],
            ..Default::default()
        };
        // Round the bend: 6 + 5 = 11 cm where the chord is 7.8.
        let p = t.road_path(v(4.0, 0.5), v(10.5, 5.0)).expect("both on the road");
        assert_eq!(p, vec![v(4.0, 0.5), v(10.0, 0.0), v(10.5, 5.0)]);
        assert!(!t.on_road(v(4.0, 0.5), v(10.5, 5.0)), "the chord leaves the road");
        // Off the road at one end: none.
        assert!(t.road_path(v(4.0, 0.5), v(20.0, 5.0)).is_none());
    }

    #[test]
    fn cutting_a_5_cm_gap_leaves_the_pieces_either_side() {
        let wall = [v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0)];
        let (a, b) = polyline_cut(&wall, 7.5, 12.5);
        assert_eq!(a, vec![v(0.0, 0.0), v(7.5, 0.0)]);
        assert_eq!(b, vec![v(10.0, 2.5), v(10.0, 10.0)]);
        // At an end only one piece is left; a gap wider than the line leaves nothing.
        let (a, b) = polyline_cut(&wall, -2.5, 2.5);
        assert!(a.is_empty());
        assert_eq!(b, vec![v(2.5, 0.0), v(10.0, 0.0), v(10.0, 10.0)]);
        let (a, b) = polyline_cut(&wall, -1.0, 30.0);
        assert!(a.is_empty() && b.is_empty());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Log lines name terrain in words: a built-up area struck by a ball reads "Built up
    /// Hazel Run mill", never the program's `BuiltUp` (found in a river-crossing game's log).
    #[test]
    fn terrain_kinds_are_named_in_words() {
        assert_eq!(kind_words(AreaKind::BuiltUp), "Built up");
        assert_eq!(kind_words(AreaKind::Woods), "Woods");
        assert_eq!(kind_words(LinearKind::Fence), "Fence");
        assert_eq!(label("", AreaKind::BuiltUp), "Built up");
        assert_eq!(label("Hazel Run mill", AreaKind::BuiltUp), "Hazel Run mill");
    }

    fn sq(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon {
        Polygon(vec![V2::new(x0, y0), V2::new(x1, y0), V2::new(x1, y1), V2::new(x0, y1)])
    }
    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn polygon_basics() {
        let p = sq(0.0, 0.0, 10.0, 10.0);
        assert!(p.contains(V2::new(5.0, 5.0)));
        assert!(p.contains(V2::new(10.0, 5.0)));
        assert!(!p.contains(V2::new(10.1, 5.0)));
        assert!(close(p.area(), 100.0));
        assert!(p.centroid().dist(V2::new(5.0, 5.0)) < 1e-9);
        assert_eq!(p.bbox(), (V2::new(0.0, 0.0), V2::new(10.0, 10.0)));
        assert!(close(p.distance_to_point(V2::new(5.0, 7.0)), 3.0));
        let r = Rect::new(V2::new(13.0, 5.0), 0.0, 2.0, 2.0);
        assert!(close(p.boundary_distance_to_rect(&r), 2.0));
        assert!(!p.intersects_rect(&r));
        assert!(!p.intersects_rect(&Rect::new(V2::new(11.0, 5.0), 0.0, 2.0, 2.0))); // touching
        assert!(p.intersects_rect(&Rect::new(V2::new(10.5, 5.0), 0.0, 2.0, 2.0)));
        assert!(p.intersects_rect(&Rect::new(V2::new(5.0, 5.0), 0.0, 1.0, 1.0)));
        assert!(p.intersects_rect(&Rect::new(V2::new(5.0, 5.0), 0.3, 30.0, 30.0)));
        assert!(p.crosses_boundary(V2::new(5.0, 5.0), V2::new(15.0, 5.0)));
        assert!(!p.crosses_boundary(V2::new(2.0, 5.0), V2::new(8.0, 5.0)));
    }

    #[test]
    fn concave_clip() {
        // A U shape: two prongs x∈[0,2] and [8,10], joined at y∈[0,2].
        let u = Polygon(vec![
            V2::new(0.0, 0.0),
            V2::new(10.0, 0.0),
            V2::new(10.0, 10.0),
            V2::new(8.0, 10.0),
            V2::new(8.0, 2.0),
            V2::new(2.0, 2.0),
            V2::new(2.0, 10.0),
            V2::new(0.0, 10.0),
        ]);
        let iv = u.clip_segment(V2::new(-5.0, 5.0), V2::new(15.0, 5.0));
        assert_eq!(iv.len(), 2);
        assert!(close(iv[0].0, 0.25) && close(iv[0].1, 0.35));
        assert!(close(iv[1].0, 0.65) && close(iv[1].1, 0.75));
        assert!(close(u.length_inside(V2::new(-5.0, 5.0), V2::new(15.0, 5.0)), 4.0));
        // Along an edge: y = 2 from x=2..8 is boundary → inside.
        assert!(close(u.length_inside(V2::new(-5.0, 2.0), V2::new(15.0, 2.0)), 10.0));
        assert!(!u.intersects_rect(&Rect::new(V2::new(5.0, 6.0), 0.0, 2.0, 2.0)));
        assert!(u.intersects_rect(&Rect::new(V2::new(5.0, 6.0), 0.0, 2.0, 12.0)));
        let inside = u.clip_segment(V2::new(1.0, 1.0), V2::new(9.0, 1.0));
        assert_eq!(inside, vec![(0.0, 1.0)]);
    }

    #[test]
    fn polylines() {
        let pl = [V2::new(0.0, 0.0), V2::new(10.0, 0.0), V2::new(10.0, 10.0)];
        assert!(close(polyline_distance_to_point(&pl, V2::new(5.0, 3.0)), 3.0));
        let r = Rect::new(V2::new(5.0, 3.0), 0.0, 2.0, 2.0);
        assert!(close(polyline_distance_to_rect(&pl, &r), 2.0));
        let t = polyline_crossing(&pl, V2::new(5.0, -5.0), V2::new(15.0, 5.0)).unwrap();
        assert!(close(t, 0.5));
        assert!(polyline_crossing(&pl, V2::new(1.0, 1.0), V2::new(5.0, 5.0)).is_none());
    }

    fn table() -> Terrain {
        Terrain {
            areas: vec![
                Area {
                    kind: AreaKind::Woods,
                    name: "Bois".into(),
                    outline: sq(20.0, 0.0, 30.0, 20.0),
                },
                Area {
                    kind: AreaKind::Field,
                    name: String::new(),
                    outline: sq(40.0, 0.0, 45.0, 20.0),
                },
                Area {
                    kind: AreaKind::Lake,
                    name: "Pond".into(),
                    outline: sq(60.0, 0.0, 70.0, 20.0),
                },
                Area {
                    kind: AreaKind::Marsh,
                    name: String::new(),
                    outline: sq(80.0, 0.0, 90.0, 20.0),
                },
            ],
            linears: vec![
                Linear {
                    kind: LinearKind::Wall,
                    name: String::new(),
                    points: vec![V2::new(10.0, 0.0), V2::new(10.0, 20.0)],
                    width: 0.5,
                },
                Linear {
                    kind: LinearKind::Road,
                    name: String::new(),
                    points: vec![V2::new(0.0, 10.0), V2::new(200.0, 10.0)],
                    width: 2.0,
                },
                Linear {
                    kind: LinearKind::River,
                    name: "Aa".into(),
                    points: vec![V2::new(100.0, -50.0), V2::new(100.0, 50.0)],
                    width: 3.0,
                },
            ],
            hills: vec![Hill {
                name: "Mont".into(),
                contours: vec![
                    Contour {
                        height: 1,
                        outline: sq(0.0, 30.0, 40.0, 60.0),
                    },
                    Contour {
                        height: 2,
                        outline: sq(10.0, 40.0, 30.0, 50.0),
                    },
                ],
                mountain: false,
            }],
            buildings: vec![Building {
                name: "Farm".into(),
                outline: sq(50.0, 30.0, 55.0, 35.0),
                material: Default::default(),
            }],
        }
    }

    #[test]
    fn terrain_queries() {
        let t = table();
        assert_eq!(t.area_kinds_at(V2::new(25.0, 5.0)), vec![AreaKind::Woods]);
        assert_eq!(t.area_kinds_at(V2::new(52.0, 32.0)), vec![AreaKind::BuiltUp]);
        assert_eq!(t.elevation_at(V2::new(5.0, 35.0)), 1);
        assert_eq!(t.elevation_at(V2::new(20.0, 45.0)), 2);
        assert_eq!(t.elevation_at(V2::new(50.0, 45.0)), 0);
        assert_eq!(t.hill_at(V2::new(20.0, 45.0)), Some(0));
        assert_eq!(t.hill_at(V2::new(50.0, 45.0)), None);
        let c = t.crossings(V2::new(0.0, 5.0), V2::new(50.0, 5.0));
        let what: Vec<_> = c.iter().map(|c| c.what).collect();
        assert_eq!(
            what,
            vec![
                CrossingWhat::Linear(0),
                CrossingWhat::EnterArea(0),
                CrossingWhat::ExitArea(0),
                CrossingWhat::EnterArea(1),
                CrossingWhat::ExitArea(1)
            ]
        );
        assert!(close(c[1].t, 0.4));
        let l = t.length_in_areas(V2::new(0.0, 5.0), V2::new(50.0, 5.0));
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].0, AreaKind::Woods);
        assert!(close(l[0].1, 10.0) && close(l[1].1, 5.0));
        let b = t.crossings(V2::new(52.0, 20.0), V2::new(52.0, 32.0));
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].what, CrossingWhat::EnterArea(4));
    }

    #[test]
    fn roads_contact_impassable() {
        let t = table();
        assert!(t.on_road(V2::new(5.0, 10.0), V2::new(150.0, 11.4)));
        assert!(!t.on_road(V2::new(5.0, 10.0), V2::new(150.0, 12.0)));
        let near_wall = Rect::new(V2::new(9.0, 5.0), 0.0, 2.0, 1.5);
        assert_eq!(t.linear_touching(&near_wall, 0.5), vec![0]);
        assert!(
            t.linear_touching(&Rect::new(V2::new(7.0, 5.0), 0.0, 2.0, 1.5), 0.5)
                .is_empty()
        );
        assert_eq!(
            t.impassable_for(V2::new(50.0, 5.0), V2::new(75.0, 5.0), true),
            Some("Pond".into())
        );
        assert_eq!(
            t.impassable_for(V2::new(75.0, 5.0), V2::new(95.0, 5.0), false),
            Some("Marsh".into())
        );
        assert_eq!(t.impassable_for(V2::new(75.0, 5.0), V2::new(95.0, 5.0), true), None);
        assert_eq!(
            t.impassable_for(V2::new(95.0, 30.0), V2::new(105.0, 30.0), true),
            Some("Aa".into())
        );
        // The road bridges the river at (100, 10).
        assert_eq!(t.impassable_for(V2::new(95.0, 11.0), V2::new(105.0, 11.0), true), None);
        assert!(t.rect_in_impassable(&Rect::new(V2::new(100.0, 30.0), 0.0, 2.0, 2.0), true));
        assert!(!t.rect_in_impassable(&Rect::new(V2::new(100.0, 10.0), 0.0, 2.0, 2.0), true));
        assert!(t.rect_in_impassable(&Rect::new(V2::new(85.0, 5.0), 0.0, 2.0, 2.0), false));
        assert!(!t.rect_in_impassable(&Rect::new(V2::new(85.0, 5.0), 0.0, 2.0, 2.0), true));
        let mut m = t.clone();
        m.hills[0].mountain = true;
        assert_eq!(
            m.impassable_for(V2::new(20.0, 25.0), V2::new(20.0, 45.0), false),
            Some("Mont".into())
        );
        assert_eq!(m.impassable_for(V2::new(20.0, 25.0), V2::new(20.0, 45.0), true), None);
    }

    #[test]
    fn top_centroid() {
        let t = table();
        assert!(t.hills[0].top_centroid().dist(V2::new(20.0, 45.0)) < 1e-9);
    }

    /// The fast and the robust interval paths, with and without the bounding box, agree with
    /// a brute-force sampling of the segment.
    #[test]
    fn intervals_agree_with_sampling() {
        let star = Polygon(
            (0..14)
                .map(|i| {
                    let a = std::f64::consts::TAU * i as f64 / 14.0;
                    let r = if i % 2 == 0 { 20.0 } else { 9.0 };
                    V2::new(50.0 + r * a.cos(), 50.0 + r * a.sin())
                })
                .collect(),
        );
        let bb = star.bbox();
        let mut seed = 12345u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 100.0
        };
        for _ in 0..300 {
            let a = V2::new(rnd(), rnd());
            let b = V2::new(rnd(), rnd());
            let n = 4000;
            let sampled = (0..n)
                .filter(|&i| star.contains(a.lerp(b, (i as f64 + 0.5) / n as f64)))
                .count() as f64
                / n as f64
                * a.dist(b);
            let mut plain = Vec::new();
            star.for_each_interval(a, b, |t0, t1| plain.push((t0, t1)));
            let mut boxed = Vec::new();
            star.for_each_interval_bbox(a, b, Some(bb), |t0, t1| boxed.push((t0, t1)));
            assert_eq!(plain.len(), boxed.len());
            for (p, q) in plain.iter().zip(&boxed) {
                assert!((p.0 - q.0).abs() < 1e-9 && (p.1 - q.1).abs() < 1e-9);
            }
            assert!(plain.windows(2).all(|w| w[0].1 < w[1].0));
            let len: f64 = plain.iter().map(|(t0, t1)| t1 - t0).sum::<f64>() * a.dist(b);
            assert!((len - sampled).abs() < 0.1, "{len} vs {sampled}");
        }
    }
}
