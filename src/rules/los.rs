//! Line of sight between units: BPT "VISIBILITY" (Line of Sight, Linear Terrain, Area Terrain,
//! High Ground, Dug In) with the numbers of DECISIONS.md "Arcs" and "Line of sight".
//!
//! A [`LosWorld`] holds a copy of the terrain with bounding boxes of every feature that can
//! block sight, and a uniform grid of the stands that block sight. [`LosWorld::sees`] first
//! rejects on distance and arc (cheap), then applies the unit-level rules (dug in, crest line),
//! then samples a handful of sight lines and calls the target visible when any one is clear.

use super::geometry::{EPS, Rect, V2, clip_local_box, dir, in_front_arc, rects_distance};
use super::terrain::{Polygon, Terrain, bbox_meets_segment, polyline_distance_to_rect_within};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The distances of the visibility rules, in cm (DECISIONS "Arcs", "Line of sight").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LosParams {
    /// Normal visibility (BPT "Line of Sight"): 100; 40 in poor weather or at night; 10 extreme.
    pub visibility: f64,
    /// How far a line of sight may run into or out of area terrain (BPT): 5.
    pub into_area: f64,
    /// A unit inside high area terrain is seen up to this distance: 10.
    pub seen_in_high: f64,
    /// A unit inside low area terrain is seen up to this distance: 20.
    pub seen_in_low: f64,
    /// Scouts, deployed guns and dug-in troops are seen up to this distance: 5.
    pub seen_hidden: f64,
    /// One strip of low area terrain no wider than this can be seen over: 10.
    pub low_strip_max: f64,
    /// What counts as base contact: 0.5.
    pub contact: f64,
}

impl Default for LosParams {
    fn default() -> Self {
        LosParams {
            visibility: 100.0,
            into_area: 5.0,
            seen_in_high: 10.0,
            seen_in_low: 20.0,
            seen_hidden: 5.0,
            low_strip_max: 10.0,
            contact: 0.5,
        }
    }
}

/// One end of a line of sight: a unit (or a point, see [`LosWorld::sees_point`]).
#[derive(Clone, Copy, Debug)]
pub struct Sighting<'a> {
    /// The unit's id; its own stands never block it.
    pub id: u32,
    /// Every base of the unit.
    pub stands: &'a [Rect],
    /// Its formation front edge (left, right).
    pub front: (V2, V2),
    pub facing: f64,
    /// Commanders: 360° vision.
    pub all_round: bool,
    /// Deployed guns, dug-in troops, scouts: seen at ≤ `seen_hidden` inside area terrain.
    pub hard_to_see: bool,
    /// Dug in and not yet revealed: unseen behind a linear / inside an area boundary until
    /// within `seen_hidden`.
    pub dug_in: bool,
}

/// A stand that blocks sight (the caller leaves out commanders, skirmishers, unlimbered guns).
#[derive(Clone, Copy, Debug)]
pub struct Blocker {
    pub id: u32,
    pub rect: Rect,
}

/// One end of a line of sight with the facts that do not depend on the other end (its box,
/// its height on each hill, which area terrain and obstacles it touches), computed once by
/// [`LosWorld::prepare`] and reused for every pair it is in ([`LosWorld::sees_prepared`]).
#[derive(Clone, Debug)]
pub struct Prepared<'a> {
    sighting: Sighting<'a>,
    lo: V2,
    hi: V2,
    /// Unit vector of the facing.
    fwd: V2,
    /// Height of the unit on each hill (highest stand centre; 0 off it).
    elev: Vec<u32>,
    /// Some stand stands on a hill: it ignores low area terrain.
    high: bool,
    /// Areas (index < 64) the unit is in or in base contact with.
    area_at: u64,
    /// Areas (index < 64) the unit overlaps.
    area_in: u64,
    /// Obstacles (index < 64) the unit is in base contact with.
    obst_at: u64,
    /// Dug in at a linear obstacle or an area boundary (BPT "Dug In").
    dug_hidden: bool,
    /// `area_at`, `area_in` and `obst_at` are filled in (else they are found per pair, lazily).
    contacts: bool,
}

impl<'a> std::ops::Deref for Prepared<'a> {
    type Target = Sighting<'a>;
    fn deref(&self) -> &Sighting<'a> {
        &self.sighting
    }
}

/// Why a line of sight fails.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LosBlock {
    /// The target is wholly behind the observer's front (180° arc).
    OutOfArc,
    /// Farther than the visibility distance.
    TooFar,
    /// Area terrain (name, or kind when unnamed).
    Area(String),
    /// A hill or its crest line.
    Hill(String),
    /// A wall, fence or hedge.
    Obstacle(String),
    /// Another unit's stand.
    Unit(u32),
    /// Dug in and not revealed.
    Hidden,
}

#[derive(Clone)]
struct AreaInfo {
    high: bool,
    lo: V2,
    hi: V2,
    poly: Polygon,
    label: String,
}

#[derive(Clone)]
struct ObstacleInfo {
    lo: V2,
    hi: V2,
    points: Vec<V2>,
    /// Half the line's width plus contact: how near a base must be to touch it.
    reach: f64,
    label: String,
}

#[derive(Clone)]
struct HillInfo {
    lo: V2,
    hi: V2,
    outer: Polygon,
    outer_lo: V2,
    outer_hi: V2,
    /// (height, outline) of each contour.
    contours: Vec<(u32, Polygon, V2, V2)>,
    top: V2,
    label: String,
}

impl HillInfo {
    fn elevation_at(&self, p: V2) -> u32 {
        if p.x < self.lo.x || p.x > self.hi.x || p.y < self.lo.y || p.y > self.hi.y {
            return 0;
        }
        let mut e = 0;
        for (h, poly, lo, hi) in &self.contours {
            if *h > e && p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y && poly.contains(p) {
                e = *h;
            }
        }
        e
    }
    /// A unit's height on this hill: the highest of its stand centres.
    fn unit_elevation(&self, s: &Sighting) -> u32 {
        s.stands.iter().map(|r| self.elevation_at(r.center)).max().unwrap_or(0)
    }
}

#[derive(Clone, Copy)]
struct BlockerData {
    id: u32,
    /// The run of consecutive blockers with the same id: [run_start, run_end).
    run_start: u32,
    run_end: u32,
    center: V2,
    /// The stand's facing, and its direction (`dir(facing)`, kept so that stands whose facing
    /// did not change need no sine and cosine when the blockers are set again).
    facing: f64,
    fwd: V2,
    hd: f64,
    hw: f64,
}

impl BlockerData {
    /// The segment passes through the stand's interior (separating axes in the stand's frame:
    /// its two axes and the segment's normal; no divisions).
    #[inline]
    fn hit(&self, a: V2, b: V2) -> bool {
        let l = self.fwd.perp();
        let m = (a + b) * 0.5 - self.center;
        let h = (b - a) * 0.5;
        let (mx, my) = (m.dot(self.fwd), m.dot(l));
        let (hx, hy) = (h.dot(self.fwd), h.dot(l));
        let (bx, by) = (self.hd - EPS, self.hw - EPS);
        bx > 0.0
            && by > 0.0
            && mx.abs() < bx + hx.abs()
            && my.abs() < by + hy.abs()
            && (mx * hy - my * hx).abs() < bx * hy.abs() + by * hx.abs()
    }
}

/// Uniform grid of blockers (CSR layout); stands reaching outside it go to `overflow`.
#[derive(Clone)]
struct Grid {
    origin: V2,
    cell: f64,
    nx: usize,
    ny: usize,
    start: Vec<u32>,
    items: Vec<u32>,
    overflow: Vec<u32>,
    /// The boxes last built and their cell ranges: a box the same as the one at its place
    /// last time (most, when one unit moved) keeps its range.
    boxes: Vec<(V2, V2)>,
    ranges: Vec<Option<(usize, usize, usize, usize)>>,
}

impl Grid {
    fn new(origin: V2, size: V2, cell: f64) -> Self {
        let nx = ((size.x / cell).ceil() as usize).max(1);
        let ny = ((size.y / cell).ceil() as usize).max(1);
        Grid {
            origin,
            cell,
            nx,
            ny,
            start: vec![0; nx * ny + 1],
            items: Vec::new(),
            overflow: Vec::new(),
            boxes: Vec::new(),
            ranges: Vec::new(),
        }
    }

    fn cell_range(&self, lo: V2, hi: V2) -> Option<(usize, usize, usize, usize)> {
        let f = |v: f64, o: f64| ((v - o) / self.cell).floor();
        let (x0, y0) = (f(lo.x, self.origin.x), f(lo.y, self.origin.y));
        let (x1, y1) = (f(hi.x, self.origin.x), f(hi.y, self.origin.y));
        if x0 < 0.0 || y0 < 0.0 || x1 >= self.nx as f64 || y1 >= self.ny as f64 {
            return None;
        }
        Some((x0 as usize, y0 as usize, x1 as usize, y1 as usize))
    }

    fn build(&mut self, rects: Vec<(V2, V2)>) {
        let n = self.nx * self.ny;
        let mut count = vec![0u32; n + 1];
        self.overflow.clear();
        let pad = V2::new(1e-6, 1e-6);
        let same = |x: &(V2, V2), y: &(V2, V2)| {
            [x.0.x, x.0.y, x.1.x, x.1.y]
                .iter()
                .zip([y.0.x, y.0.y, y.1.x, y.1.y])
                .all(|(a, b)| a.to_bits() == b.to_bits())
        };
        let ranges: Vec<_> = rects
            .iter()
            .enumerate()
            .map(|(i, &(lo, hi))| match (self.boxes.get(i), self.ranges.get(i)) {
                (Some(old), Some(&r)) if same(old, &(lo, hi)) => r,
                _ => self.cell_range(lo - pad, hi + pad),
            })
            .collect();
        for (i, r) in ranges.iter().enumerate() {
            match r {
                Some((x0, y0, x1, y1)) => {
                    for y in *y0..=*y1 {
                        for x in *x0..=*x1 {
                            count[y * self.nx + x] += 1;
                        }
                    }
                }
                None => self.overflow.push(i as u32),
            }
        }
        let mut acc = 0u32;
        for (c, s) in count.iter().zip(self.start.iter_mut()) {
            *s = acc;
            acc += c;
        }
        self.start[n] = acc;
        self.items = vec![0; acc as usize];
        let mut fill = self.start.clone();
        for (i, r) in ranges.iter().enumerate() {
            if let Some((x0, y0, x1, y1)) = r {
                for y in *y0..=*y1 {
                    for x in *x0..=*x1 {
                        let c = y * self.nx + x;
                        self.items[fill[c] as usize] = i as u32;
                        fill[c] += 1;
                    }
                }
            }
        }
        self.boxes = rects;
        self.ranges = ranges;
    }

    /// Calls `f` with the items of every cell segment a→b passes through (grid DDA), stopping
    /// and returning the first `Some`.
    fn walk<R>(&self, a: V2, b: V2, mut f: impl FnMut(u32) -> Option<R>) -> Option<R> {
        for &i in &self.overflow {
            if let Some(r) = f(i) {
                return Some(r);
            }
        }
        if self.items.is_empty() {
            return None;
        }
        let size = V2::new(self.nx as f64 * self.cell, self.ny as f64 * self.cell);
        let half = size * 0.5;
        let c = self.origin + half;
        // Clip the segment to the grid box.
        let (t0, t1) = clip_local_box(a - c, b - c, half.x, half.y)?;
        let p0 = a.lerp(b, t0) - self.origin;
        let p1 = a.lerp(b, t1) - self.origin;
        let cl = |v: f64, n: usize| ((v / self.cell).floor().max(0.0) as usize).min(n - 1);
        let (mut ix, mut iy) = (cl(p0.x, self.nx), cl(p0.y, self.ny));
        let (jx, jy) = (cl(p1.x, self.nx), cl(p1.y, self.ny));
        let d = p1 - p0;
        let (sx, tdx, mut tmx) = if d.x > 0.0 {
            (1isize, self.cell / d.x, ((ix + 1) as f64 * self.cell - p0.x) / d.x)
        } else if d.x < 0.0 {
            (-1, -self.cell / d.x, (ix as f64 * self.cell - p0.x) / d.x)
        } else {
            (0, f64::INFINITY, f64::INFINITY)
        };
        let (sy, tdy, mut tmy) = if d.y > 0.0 {
            (1isize, self.cell / d.y, ((iy + 1) as f64 * self.cell - p0.y) / d.y)
        } else if d.y < 0.0 {
            (-1, -self.cell / d.y, (iy as f64 * self.cell - p0.y) / d.y)
        } else {
            (0, f64::INFINITY, f64::INFINITY)
        };
        for _ in 0..(self.nx + self.ny + 2) {
            let cidx = iy * self.nx + ix;
            let (s, e) = (self.start[cidx] as usize, self.start[cidx + 1] as usize);
            for &i in &self.items[s..e] {
                if let Some(r) = f(i) {
                    return Some(r);
                }
            }
            if ix == jx && iy == jy {
                break;
            }
            if tmx < tmy {
                let nx = ix as isize + sx;
                if nx < 0 || nx >= self.nx as isize {
                    break;
                }
                ix = nx as usize;
                tmx += tdx;
            } else {
                let ny = iy as isize + sy;
                if ny < 0 || ny >= self.ny as isize {
                    break;
                }
                iy = ny as usize;
                tmy += tdy;
            }
        }
        None
    }
}

/// Line-of-sight queries over one table.
#[derive(Clone)]
pub struct LosWorld {
    /// What the terrain alone decides, shared by every copy of the battle (undo, replay
    /// snapshots, look-ahead): rebuilt only when the engineers change the terrain.
    fixed: Arc<LosTerrain>,
    params: LosParams,
    blockers: Vec<BlockerData>,
    grid: Grid,
}

/// Numbers every prepared terrain: a change marker for views derived from sight (no rule
/// reads it, so it changes nothing that is played or hashed).
static TERRAIN_REVISIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The prepared terrain of a `LosWorld`.
struct LosTerrain {
    /// Unique to this preparation (copies of the world share it; a rebuild takes a new one).
    revision: u64,
    terrain: Terrain,
    areas: Vec<AreaInfo>,
    obstacles: Vec<ObstacleInfo>,
    hills: Vec<HillInfo>,
}

/// Per-pair lazily computed facts (no allocation).
struct PairCache {
    /// Per area, when the ends' contacts are not prepared: 0 unknown, else `AREA_KNOWN` with
    /// the `AREA_*` bits.
    area: [u8; 64],
    /// Per obstacle, likewise: 0 unknown, 1 no contact, 2 one end in contact.
    obst: [u8; 64],
    /// Hills to test per line (neither end on them).
    hills_per_line: u64,
    /// Obstacles (index < 64) whose boxes meet the pair's box.
    obst_mask: u64,
    /// LOS-relevant areas (index < 64) whose boxes meet the pair's box.
    area_mask: u64,
    dist: Option<f64>,
    /// A lower bound of the distance (gap between the units' boxes).
    gap_lb: f64,
    /// The feature that blocked the last line.
    hint: Option<Feature>,
}

impl Default for PairCache {
    fn default() -> Self {
        PairCache {
            area: [0; 64],
            obst: [0; 64],
            hills_per_line: 0,
            obst_mask: 0,
            area_mask: 0,
            dist: None,
            gap_lb: 0.0,
            hint: None,
        }
    }
}

#[derive(Clone, Copy)]
enum Feature {
    Hill(usize),
    Obstacle(usize),
    Area(usize),
    Unit(usize),
}

const AREA_KNOWN: u8 = 1;
const AREA_OBS: u8 = 2;
const AREA_TGT: u8 = 4;
const AREA_TGT_IN: u8 = 8;

/// (in base contact with or inside the polygon, overlapping it).
fn unit_at_poly(stands: &[Rect], poly: &Polygon, lo: V2, hi: V2, contact: f64) -> (bool, bool) {
    let near = |r: &&Rect| {
        let (a, b) = circle_box(r);
        !(a.x > hi.x + contact || b.x < lo.x - contact || a.y > hi.y + contact || b.y < lo.y - contact)
    };
    let inside = stands.iter().filter(near).any(|r| poly.intersects_rect(r));
    let at = inside
        || stands
            .iter()
            .filter(near)
            .any(|r| poly.boundary_distance_to_rect_within(r, contact + EPS) <= contact + EPS);
    (at, inside)
}

/// A unit is in base contact with an obstacle line.
fn touches_obstacle(stands: &[Rect], o: &ObstacleInfo) -> bool {
    stands.iter().any(|r| {
        let (a, b) = circle_box(r);
        let k = o.reach + EPS;
        !(a.x > o.hi.x + k || b.x < o.lo.x - k || a.y > o.hi.y + k || b.y < o.lo.y - k)
            && polyline_distance_to_rect_within(&o.points, r, k) <= k
    })
}

/// A box around the base's circumcircle (no trigonometry): contains the base.
#[inline]
fn circle_box(r: &Rect) -> (V2, V2) {
    let h = 0.5 * (r.width * r.width + r.depth * r.depth).sqrt();
    (
        V2::new(r.center.x - h, r.center.y - h),
        V2::new(r.center.x + h, r.center.y + h),
    )
}

/// A box containing every base (from their circumcircles).
fn aabb_of(stands: &[Rect]) -> (V2, V2) {
    let mut lo = V2::new(f64::INFINITY, f64::INFINITY);
    let mut hi = V2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for r in stands {
        let (a, b) = circle_box(r);
        lo = V2::new(lo.x.min(a.x), lo.y.min(a.y));
        hi = V2::new(hi.x.max(b.x), hi.y.max(b.y));
    }
    (lo, hi)
}

fn front_mid(s: &Sighting) -> V2 {
    s.front.0.lerp(s.front.1, 0.5)
}

/// Observer sample point `i` (front-edge middle, left, right; or every stand centre for
/// all-round observers); `None` past the end. Duplicates of the first are skipped by callers.
fn observer_point(s: &Sighting, i: usize) -> Option<V2> {
    if s.all_round && !s.stands.is_empty() {
        return s.stands.get(i).map(|r| r.center);
    }
    match i {
        0 => Some(front_mid(s)),
        1 => Some(s.front.0),
        2 => Some(s.front.1),
        _ => None,
    }
}

/// Target sample point `i`: the front-edge middle, then every stand centre.
/// Sight-line ends on the target: its front-edge middle, then stand centres — every stand of a
/// unit of up to three bases, else the two end bases and the middle one (decision, docs/rules.md).
fn target_point(s: &Sighting, i: usize) -> Option<V2> {
    let n = s.stands.len();
    match i {
        0 => Some(front_mid(s)),
        _ if n <= 3 => s.stands.get(i - 1).map(|r| r.center),
        1 => Some(s.stands[0].center),
        2 => Some(s.stands[n / 2].center),
        3 => Some(s.stands[n - 1].center),
        _ => None,
    }
}

impl LosTerrain {
    /// What the terrain alone decides of sight, prepared once (`contact`: the distance an
    /// obstacle's edge reaches beyond its line).
    fn prepare(terrain: &Terrain, contact: f64) -> Arc<LosTerrain> {
        let areas = terrain
            .area_polys()
            .filter(|(_, k, p, _)| (k.is_high() || k.is_low()) && p.0.len() >= 3)
            .map(|(_, kind, poly, name)| {
                let (lo, hi) = poly.bbox();
                AreaInfo {
                    high: kind.is_high(),
                    lo,
                    hi,
                    poly: poly.clone(),
                    label: if name.is_empty() {
                        crate::rules::terrain::kind_words(kind)
                    } else {
                        name.to_string()
                    },
                }
            })
            .collect();
        let obstacles = terrain
            .linears
            .iter()
            .filter(|l| l.kind.is_obstacle() && l.points.len() >= 2)
            .map(|l| {
                let (lo, hi) = Polygon(l.points.clone()).bbox();
                ObstacleInfo {
                    lo,
                    hi,
                    points: l.points.clone(),
                    reach: l.width * 0.5 + contact,
                    label: if l.name.is_empty() {
                        format!("{:?}", l.kind)
                    } else {
                        l.name.clone()
                    },
                }
            })
            .collect();
        let hills = terrain
            .hills
            .iter()
            .filter_map(|h| {
                let outer = h.outer()?.clone();
                if outer.0.len() < 3 {
                    return None;
                }
                let mut lo = V2::new(f64::INFINITY, f64::INFINITY);
                let mut hi = V2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
                let contours = h
                    .contours
                    .iter()
                    .map(|c| {
                        let (a, b) = c.outline.bbox();
                        lo = V2::new(lo.x.min(a.x), lo.y.min(a.y));
                        hi = V2::new(hi.x.max(b.x), hi.y.max(b.y));
                        (c.height, c.outline.clone(), a, b)
                    })
                    .collect();
                let (outer_lo, outer_hi) = outer.bbox();
                Some(HillInfo {
                    lo,
                    hi,
                    outer,
                    outer_lo,
                    outer_hi,
                    contours,
                    top: h.top_centroid(),
                    label: if h.name.is_empty() {
                        "Hill".to_string()
                    } else {
                        h.name.clone()
                    },
                })
            })
            .collect();
        Arc::new(LosTerrain {
            revision: TERRAIN_REVISIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            terrain: terrain.clone(),
            areas,
            obstacles,
            hills,
        })
    }
}

impl LosWorld {
    pub fn new(terrain: &Terrain, table_width: f64, table_height: f64, params: LosParams) -> Self {
        let margin = 50.0;
        let grid = Grid::new(
            V2::new(-margin, -margin),
            V2::new(
                table_width.max(1.0) + 2.0 * margin,
                table_height.max(1.0) + 2.0 * margin,
            ),
            10.0,
        );
        LosWorld {
            fixed: LosTerrain::prepare(terrain, params.contact),
            params,
            blockers: Vec::new(),
            grid,
        }
    }

    /// The terrain changed (the engineers cleared a hedge or bridged a river): it is prepared
    /// again; the stands that block sight and the distances stay.
    pub fn set_terrain(&mut self, terrain: &Terrain) {
        self.fixed = LosTerrain::prepare(terrain, self.params.contact);
    }

    /// The terrain this world was built from.
    pub fn terrain(&self) -> &Terrain {
        &self.fixed.terrain
    }

    pub fn params(&self) -> &LosParams {
        &self.params
    }

    /// Which preparation of the terrain this world sees by: the same number for every copy of
    /// one world, a new one whenever the terrain is prepared again (the engineers cleared a
    /// hedge or demolished a wall). What is derived from sight keys on it.
    pub fn terrain_revision(&self) -> u64 {
        self.fixed.revision
    }

    /// A change of weather changes how far anyone sees (BPT "Weather"); nothing else of the
    /// prepared world depends on it.
    pub fn set_visibility(&mut self, cm: f64) {
        self.params.visibility = cm;
    }

    /// Height of the ground at `p` (highest contour; 0 off the hills).
    pub fn elevation(&self, p: V2) -> u32 {
        self.fixed.hills.iter().map(|h| h.elevation_at(p)).max().unwrap_or(0)
    }

    /// Replace the stands that block sight (BPT "Line of Sight" 3: other units, except
    /// commands, infantry skirmishers and unlimbered guns — the caller leaves those out).
    pub fn set_blockers(&mut self, blockers: Vec<Blocker>) {
        // Usually one unit moved: the stand at the same place in the old list mostly has the
        // same facing, and its direction is taken as it was (the same numbers, bit for bit).
        let old = std::mem::take(&mut self.blockers);
        self.blockers = blockers
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let fwd = match old.get(i) {
                    Some(o) if o.facing.to_bits() == b.rect.facing.to_bits() => o.fwd,
                    _ => dir(b.rect.facing),
                };
                BlockerData {
                    id: b.id,
                    run_start: 0,
                    run_end: 0,
                    center: b.rect.center,
                    facing: b.rect.facing,
                    fwd,
                    hd: b.rect.depth * 0.5,
                    hw: b.rect.width * 0.5,
                }
            })
            .collect();
        let n = self.blockers.len();
        let mut i = 0;
        while i < n {
            let mut j = i + 1;
            while j < n && self.blockers[j].id == self.blockers[i].id {
                j += 1;
            }
            for b in &mut self.blockers[i..j] {
                b.run_start = i as u32;
                b.run_end = j as u32;
            }
            i = j;
        }
        let boxes: Vec<_> = blockers
            .iter()
            .zip(&self.blockers)
            .map(|(b, d)| b.rect.aabb_facing(d.fwd))
            .collect();
        self.grid.build(boxes);
    }

    /// Can `observer` see `target`? BPT "VISIBILITY":
    ///
    /// 1. *Line of Sight*: edge-to-edge distance ≤ `visibility` (else `TooFar`); some part of
    ///    the target in the observer's 180° front arc unless the observer has 360° vision
    ///    (commanders), else `OutOfArc`.
    /// 2. *Dug In*: a dug-in target touching a wall/fence/hedge or inside an area boundary is
    ///    `Hidden` unless within `seen_hidden`.
    /// 3. *High Ground*: the crest line rule for every hill under one end and not the other,
    ///    or under both at different heights (see [`LosWorld::crest_ok`]).
    /// 4. Sight lines from the observer's front edge (left, middle, right; every stand centre
    ///    for all-round observers) to the target's front-edge middle and stand centres; the
    ///    target is seen if any one is clear (see [`LosWorld::line_blocked`]), else the first
    ///    line's block is returned.
    pub fn sees(&self, observer: &Sighting, target: &Sighting) -> Result<(), LosBlock> {
        self.check_pair(observer, target, &[], true)
    }

    /// [`LosWorld::sees`] for ends prepared once with [`LosWorld::prepare`]: the same answer,
    /// without recomputing each unit's own facts for every pair (the all-pairs matrix).
    pub fn sees_prepared(&self, observer: &Prepared, target: &Prepared) -> Result<(), LosBlock> {
        self.check(observer, target, &[], true)
    }

    /// One pair: the distance and arc limits first, on the ends' own boxes; the terrain facts
    /// of each end only when those pass, and only for the features near the pair.
    fn check_pair(&self, obs: &Sighting, tgt: &Sighting, ignore: &[u32], limits: bool) -> Result<(), LosBlock> {
        let mut o = self.prepare_light(obs);
        o.fwd = dir(obs.facing);
        let mut t = self.prepare_light(tgt);
        let mut cache = PairCache::default();
        if limits {
            self.limits(&o, &t, &mut cache)?;
        }
        let region = (
            V2::new(o.lo.x.min(t.lo.x), o.lo.y.min(t.lo.y)),
            V2::new(o.hi.x.max(t.hi.x), o.hi.y.max(t.hi.y)),
        );
        self.fill_terrain(&mut o, region);
        self.fill_terrain(&mut t, region);
        self.terrain_check(&o, &t, ignore, cache)
    }

    /// Who sees whom among `units`: entry `i * n + j` is `sees(units[i], units[j])` (false on
    /// the diagonal). Each unit is prepared once and the rows are shared out over the machine's
    /// cores; the answer does not depend on how many there are.
    pub fn visibility_matrix(&self, units: &[Sighting]) -> Vec<bool> {
        let n = units.len();
        let prepared: Vec<Prepared> = units.iter().map(|s| self.prepare(s)).collect();
        let mut out = vec![false; n * n];
        if n == 0 {
            return out;
        }
        let threads = std::thread::available_parallelism().map_or(1, |t| t.get()).min(n);
        let row = |i: usize, cells: &mut [bool]| {
            for (j, cell) in cells.iter_mut().enumerate() {
                *cell = i != j && self.check(&prepared[i], &prepared[j], &[], true).is_ok();
            }
        };
        if threads <= 1 {
            for (i, cells) in out.chunks_mut(n).enumerate() {
                row(i, cells);
            }
            return out;
        }
        // Interleave rows so every thread gets a like share of near and far pairs.
        let mut rows: Vec<Vec<(usize, &mut [bool])>> = (0..threads).map(|_| Vec::new()).collect();
        for (i, cells) in out.chunks_mut(n).enumerate() {
            rows[i % threads].push((i, cells));
        }
        std::thread::scope(|scope| {
            for mine in rows {
                let row = &row;
                scope.spawn(move || {
                    for (i, cells) in mine {
                        row(i, cells);
                    }
                });
            }
        });
        out
    }

    /// The facts of one end of a sight line that do not depend on the other end.
    pub fn prepare<'a>(&self, s: &Sighting<'a>) -> Prepared<'a> {
        let mut p = self.prepare_light(s);
        p.fwd = dir(s.facing);
        let inf = V2::new(f64::INFINITY, f64::INFINITY);
        self.fill_terrain(&mut p, (inf * -1.0, inf));
        self.fill_contacts(&mut p);
        p
    }

    /// The end's box, facing and dug-in state; no terrain facts yet.
    fn prepare_light<'a>(&self, s: &Sighting<'a>) -> Prepared<'a> {
        let (lo, hi) = aabb_of(s.stands);
        let k = self.params.contact;
        // BPT "Dug In": in base contact behind linear terrain or inside an area boundary.
        let dug_hidden = s.dug_in
            && (self.fixed.obstacles.iter().any(|o| touches_obstacle(s.stands, o))
                || self
                    .fixed
                    .areas
                    .iter()
                    .any(|a| unit_at_poly(s.stands, &a.poly, a.lo, a.hi, k).1));
        Prepared {
            sighting: *s,
            lo,
            hi,
            // Only the observer's is used: set by the callers that need it.
            fwd: V2::new(0.0, 0.0),
            elev: Vec::new(),
            high: false,
            area_at: 0,
            area_in: 0,
            obst_at: 0,
            dug_hidden,
            contacts: false,
        }
    }

    /// The end's heights on the hills, for pairs inside `region` (hills whose boxes miss it
    /// are never consulted, so they are left out).
    fn fill_terrain(&self, p: &mut Prepared, region: (V2, V2)) {
        let s = p.sighting;
        let (lo, hi) = (p.lo, p.hi);
        let (rlo, rhi) = region;
        let misses = |a: V2, b: V2, m: f64| a.x > rhi.x + m || b.x < rlo.x - m || a.y > rhi.y + m || b.y < rlo.y - m;
        let near_unit = |a: V2, b: V2, m: f64| !(a.x > hi.x + m || b.x < lo.x - m || a.y > hi.y + m || b.y < lo.y - m);
        p.elev = self
            .fixed
            .hills
            .iter()
            .map(|h| {
                if misses(h.lo, h.hi, 0.0) || !near_unit(h.lo, h.hi, 0.0) {
                    0
                } else {
                    h.unit_elevation(&s)
                }
            })
            .collect();
        // On a hill anywhere (outside the region too): ignores low area terrain.
        p.high = p.elev.iter().any(|&e| e > 0)
            || self
                .fixed
                .hills
                .iter()
                .any(|h| misses(h.lo, h.hi, 0.0) && near_unit(h.lo, h.hi, 0.0) && h.unit_elevation(&s) > 0);
    }

    /// Which areas (index < 64) the end is in or touches, and which obstacles it touches.
    fn fill_contacts(&self, p: &mut Prepared) {
        let s = p.sighting;
        let (lo, hi) = (p.lo, p.hi);
        let near_unit = |a: V2, b: V2, m: f64| !(a.x > hi.x + m || b.x < lo.x - m || a.y > hi.y + m || b.y < lo.y - m);
        let k = self.params.contact;
        for (i, a) in self.fixed.areas.iter().enumerate().take(64) {
            if !near_unit(a.lo, a.hi, k) {
                continue;
            }
            let (at, inside) = unit_at_poly(s.stands, &a.poly, a.lo, a.hi, k);
            p.area_at |= u64::from(at) << i;
            p.area_in |= u64::from(inside) << i;
        }
        for (i, o) in self.fixed.obstacles.iter().enumerate().take(64) {
            let r = o.reach + EPS;
            if !near_unit(o.lo, o.hi, r) {
                continue;
            }
            p.obst_at |= u64::from(touches_obstacle(s.stands, o)) << i;
        }
        p.contacts = true;
    }

    /// Can `observer` see the point `p` (a spot on the table)? Same rules as [`LosWorld::sees`]
    /// with the point as an ordinary, unhidden target.
    pub fn sees_point(&self, observer: &Sighting, p: V2) -> Result<(), LosBlock> {
        let r = [Rect::new(p, 0.0, 0.0, 0.0)];
        let target = Sighting {
            id: u32::MAX,
            stands: &r,
            front: (p, p),
            facing: 0.0,
            all_round: false,
            hard_to_see: false,
            dug_in: false,
        };
        self.check_pair(observer, &target, &[], true)
    }

    /// Terrain and blocking stands (except those of the units in `ignore`) between two points,
    /// for the LOS tool: no distance or arc limit; the ends count as points facing each other.
    pub fn line_clear(&self, a: V2, b: V2, ignore: &[u32]) -> Result<(), LosBlock> {
        let fa = (b - a).angle();
        let ra = [Rect::new(a, fa, 0.0, 0.0)];
        let rb = [Rect::new(b, fa + std::f64::consts::PI, 0.0, 0.0)];
        fn mk(r: &[Rect], p: V2, f: f64) -> Sighting<'_> {
            Sighting {
                id: u32::MAX,
                stands: r,
                front: (p, p),
                facing: f,
                all_round: true,
                hard_to_see: false,
                dug_in: false,
            }
        }
        let sa = mk(&ra, a, fa);
        let sb = mk(&rb, b, fa + std::f64::consts::PI);
        self.check_pair(&sa, &sb, ignore, false)
    }

    fn pair_dist(&self, c: &mut PairCache, o: &Sighting, t: &Sighting) -> f64 {
        *c.dist.get_or_insert_with(|| rects_distance(o.stands, t.stands))
    }

    /// The units are within `limit` of each other, edge to edge. `line` is the length of a
    /// sight line between points of the two units (an upper bound of their distance).
    fn within(&self, c: &mut PairCache, o: &Sighting, t: &Sighting, limit: f64, line: f64) -> bool {
        if line <= limit + EPS {
            return true;
        }
        if c.gap_lb > limit + EPS {
            return false;
        }
        self.pair_dist(c, o, t) <= limit + EPS
    }

    fn check(&self, obs: &Prepared, tgt: &Prepared, ignore: &[u32], limits: bool) -> Result<(), LosBlock> {
        let mut cache = PairCache::default();
        if limits {
            self.limits(obs, tgt, &mut cache)?;
        }
        self.terrain_check(obs, tgt, ignore, cache)
    }

    /// Distance, arc and dug-in: the rules that need no terrain facts.
    fn limits(&self, obs: &Prepared, tgt: &Prepared, cache: &mut PairCache) -> Result<(), LosBlock> {
        let p = &self.params;
        let (olo, ohi) = (obs.lo, obs.hi);
        let (tlo, thi) = (tgt.lo, tgt.hi);
        {
            // Distance: a cheap lower bound from the bounding boxes, an upper bound from the
            // nearest stand centres, the exact minimum only in between.
            let gx = (tlo.x - ohi.x).max(olo.x - thi.x).max(0.0);
            let gy = (tlo.y - ohi.y).max(olo.y - thi.y).max(0.0);
            cache.gap_lb = (gx * gx + gy * gy).sqrt();
            let v2 = p.visibility * p.visibility;
            if gx * gx + gy * gy > v2 || obs.stands.is_empty() || tgt.stands.is_empty() {
                return Err(LosBlock::TooFar);
            }
            let near2 = || {
                obs.stands
                    .iter()
                    .flat_map(|a| {
                        tgt.stands
                            .iter()
                            .map(move |b| (a.center - b.center).dot(a.center - b.center))
                    })
                    .fold(f64::INFINITY, f64::min)
            };
            // The boxes' farthest corners within sight: every point is.
            let fx = (thi.x - olo.x).max(ohi.x - tlo.x);
            let fy = (thi.y - olo.y).max(ohi.y - tlo.y);
            if fx * fx + fy * fy > v2 && near2() > v2 && self.pair_dist(cache, obs, tgt) > p.visibility {
                return Err(LosBlock::TooFar);
            }
            // Arc.
            if !obs.all_round && !Self::in_arc(obs, tgt) {
                return Err(LosBlock::OutOfArc);
            }
            // Dug in.
            if tgt.dug_hidden && !self.within(cache, obs, tgt, p.seen_hidden, near2().sqrt()) {
                return Err(LosBlock::Hidden);
            }
        }
        Ok(())
    }

    /// Hills, obstacles, area terrain and third units along the sample sight lines.
    fn terrain_check(
        &self,
        obs: &Prepared,
        tgt: &Prepared,
        ignore: &[u32],
        mut cache: PairCache,
    ) -> Result<(), LosBlock> {
        let (olo, ohi) = (obs.lo, obs.hi);
        let (tlo, thi) = (tgt.lo, tgt.hi);
        // Hills: unit-level crest rule, or per-line tests for hills under neither end.
        let plo = V2::new(olo.x.min(tlo.x), olo.y.min(tlo.y));
        let phi = V2::new(ohi.x.max(thi.x), ohi.y.max(thi.y));
        for (hi_idx, h) in self.fixed.hills.iter().enumerate() {
            if h.lo.x > phi.x || h.hi.x < plo.x || h.lo.y > phi.y || h.hi.y < plo.y {
                continue;
            }
            let (eo, et) = (obs.elev[hi_idx], tgt.elev[hi_idx]);
            if eo == 0 && et == 0 {
                if hi_idx < 64 {
                    cache.hills_per_line |= 1 << hi_idx;
                }
            } else if eo != et {
                let (lower, higher) = if eo < et { (obs, tgt) } else { (tgt, obs) };
                if !Self::crest_ok(h.top, lower, higher) {
                    return Err(LosBlock::Hill(h.label.clone()));
                }
            }
        }
        // Terrain near the pair: every sight line lies in the pair's box.
        let meets = |lo: V2, hi: V2| !(lo.x > phi.x || hi.x < plo.x || lo.y > phi.y || hi.y < plo.y);
        for (k, o) in self.fixed.obstacles.iter().enumerate().take(64) {
            if meets(o.lo, o.hi) {
                cache.obst_mask |= 1 << k;
            }
        }
        for (k, a) in self.fixed.areas.iter().enumerate().take(64) {
            if (a.high || !obs.high) && meets(a.lo, a.hi) {
                cache.area_mask |= 1 << k;
            }
        }
        // Sight lines.
        let mut first: Option<Feature> = None;
        let o0 = observer_point(obs, 0);
        let t0 = target_point(tgt, 0);
        let mut i = 0;
        while let Some(a) = observer_point(obs, i) {
            i += 1;
            if i > 1 && Some(a) == o0 {
                continue;
            }
            let mut j = 0;
            while let Some(b) = target_point(tgt, j) {
                j += 1;
                if j > 1 && Some(b) == t0 {
                    continue;
                }
                match self.line_blocked(&mut cache, obs, tgt, a, b, ignore) {
                    None => return Ok(()),
                    Some(blk) => {
                        if first.is_none() {
                            first = Some(blk);
                        }
                    }
                }
            }
        }
        Err(first.map_or(LosBlock::TooFar, |f| self.block_of(f)))
    }

    /// Some part of the target is in the observer's 180° arc: corners are only computed for
    /// stands whose circumcircle straddles the front line.
    fn in_arc(obs: &Prepared, tgt: &Sighting) -> bool {
        let f = obs.fwd;
        let mut unsure = false;
        for r in tgt.stands {
            let ahead = (r.center - obs.front.0).dot(f);
            if ahead >= -EPS {
                return true;
            }
            if ahead + 0.5 * (r.width * r.width + r.depth * r.depth).sqrt() >= -EPS {
                unsure = true;
            }
        }
        unsure
            && tgt
                .stands
                .iter()
                .any(|r| r.corners().iter().any(|&c| in_front_arc(obs.front, obs.facing, c)))
    }

    /// BPT "High Ground" crest line: a line through the centre of the hill (`top`, the
    /// centroid of its highest contour) parallel to the front edge of the unit on lower
    /// ground. The higher unit is in sight (and sees) if its nearest point is on the lower
    /// unit's side of the line, or on it.
    fn crest_ok(top: V2, lower: &Sighting, higher: &Sighting) -> bool {
        let mut along = lower.front.1 - lower.front.0;
        if along.len() <= EPS {
            along = dir(lower.facing).perp();
        }
        let n = along.norm().perp();
        let side = (front_mid(lower) - top).dot(n);
        if side.abs() <= EPS {
            return true;
        }
        let s = side.signum();
        higher
            .stands
            .iter()
            .flat_map(|r| r.corners())
            .any(|c| s * (c - top).dot(n) >= -EPS)
    }

    fn area_state(&self, c: &mut PairCache, idx: usize, obs: &Prepared, tgt: &Prepared) -> u8 {
        if idx < 64 && obs.contacts && tgt.contacts {
            let bit = 1u64 << idx;
            let (oat, tat, tin) = (obs.area_at & bit != 0, tgt.area_at & bit != 0, tgt.area_in & bit != 0);
            return (u8::from(oat) * AREA_OBS) | (u8::from(tat) * AREA_TGT) | (u8::from(tin) * AREA_TGT_IN);
        }
        if idx < 64 && c.area[idx] != 0 {
            return c.area[idx];
        }
        let a = &self.fixed.areas[idx];
        let k = self.params.contact;
        let (oat, _) = unit_at_poly(obs.stands, &a.poly, a.lo, a.hi, k);
        let (tat, tin) = unit_at_poly(tgt.stands, &a.poly, a.lo, a.hi, k);
        let st = AREA_KNOWN | (u8::from(oat) * AREA_OBS) | (u8::from(tat) * AREA_TGT) | (u8::from(tin) * AREA_TGT_IN);
        if idx < 64 {
            c.area[idx] = st;
        }
        st
    }

    fn obstacle_contact(&self, c: &mut PairCache, idx: usize, obs: &Prepared, tgt: &Prepared) -> bool {
        if idx < 64 && obs.contacts && tgt.contacts {
            return (obs.obst_at | tgt.obst_at) & (1u64 << idx) != 0;
        }
        if idx < 64 && c.obst[idx] != 0 {
            return c.obst[idx] == 2;
        }
        let o = &self.fixed.obstacles[idx];
        let yes = touches_obstacle(obs.stands, o) || touches_obstacle(tgt.stands, o);
        if idx < 64 {
            c.obst[idx] = if yes { 2 } else { 1 };
        }
        yes
    }

    /// What blocks the sight line a→b between `obs` and `tgt`, if anything (BPT "VISIBILITY"):
    ///
    /// * *High Ground*: a hill under neither unit that the line passes into (more than
    ///   `contact`) blocks.
    /// * *Linear Terrain*: a wall, fence or hedge the line crosses blocks unless the observer or
    ///   the target is in base contact with it.
    /// * *Area Terrain*: a line may run up to `into_area` into an area at the target's end or
    ///   out of it at the observer's end (an end counts as in the area when the unit is in it
    ///   or in base contact with its boundary). Deeper, the target is seen only if the units
    ///   are within `seen_in_high` (high) / `seen_in_low` (low) of each other; a hard-to-see
    ///   target inside area terrain only within `seen_hidden`. High area terrain passed through
    ///   between the ends blocks; of low area terrain one strip of at most `low_strip_max` can
    ///   be seen over. An observer on high ground ignores low area terrain.
    /// * *Line of Sight* 3: any blocking stand of a third unit the line passes through.
    fn line_blocked(
        &self,
        c: &mut PairCache,
        obs: &Prepared,
        tgt: &Prepared,
        a: V2,
        b: V2,
        ignore: &[u32],
    ) -> Option<Feature> {
        // What blocked the previous line of this pair most likely blocks this one too.
        if let Some(h) = c.hint {
            let hit = match h {
                Feature::Hill(i) => self.hill_blocks(i, a, b),
                Feature::Obstacle(i) => self.obstacle_blocks(c, i, obs, tgt, a, b),
                Feature::Area(i) => self.area_blocks(c, i, obs, tgt, a, b, &mut 0),
                Feature::Unit(i) => {
                    // Any stand of the same unit.
                    let bl = &self.blockers[i];
                    match (bl.run_start..bl.run_end).find(|&k| self.blockers[k as usize].hit(a, b)) {
                        Some(k) => {
                            c.hint = Some(Feature::Unit(k as usize));
                            true
                        }
                        None => false,
                    }
                }
            };
            if hit {
                return c.hint;
            }
        }
        let f = self.find_block(c, obs, tgt, a, b, ignore)?;
        c.hint = Some(f);
        Some(f)
    }

    fn block_of(&self, f: Feature) -> LosBlock {
        match f {
            Feature::Hill(i) => LosBlock::Hill(self.fixed.hills[i].label.clone()),
            Feature::Obstacle(i) => LosBlock::Obstacle(self.fixed.obstacles[i].label.clone()),
            Feature::Area(i) => LosBlock::Area(self.fixed.areas[i].label.clone()),
            Feature::Unit(i) => LosBlock::Unit(self.blockers[i].id),
        }
    }

    fn find_block(
        &self,
        c: &mut PairCache,
        obs: &Prepared,
        tgt: &Prepared,
        a: V2,
        b: V2,
        ignore: &[u32],
    ) -> Option<Feature> {
        // Hills under neither end.
        let mut mask = c.hills_per_line;
        while mask != 0 {
            let h = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if self.hill_blocks(h, a, b) {
                return Some(Feature::Hill(h));
            }
        }
        for h in 64..self.fixed.hills.len() {
            if obs.elev[h] == 0 && tgt.elev[h] == 0 && self.hill_blocks(h, a, b) {
                return Some(Feature::Hill(h));
            }
        }
        // Walls, fences, hedges near the pair.
        let mut mask = c.obst_mask;
        while mask != 0 {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if self.obstacle_blocks(c, k, obs, tgt, a, b) {
                return Some(Feature::Obstacle(k));
            }
        }
        for k in 64..self.fixed.obstacles.len() {
            if self.obstacle_blocks(c, k, obs, tgt, a, b) {
                return Some(Feature::Obstacle(k));
            }
        }
        // Area terrain near the pair.
        let mut strips = 0u32;
        let mut mask = c.area_mask;
        while mask != 0 {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if self.area_blocks(c, k, obs, tgt, a, b, &mut strips) {
                return Some(Feature::Area(k));
            }
        }
        for k in 64..self.fixed.areas.len() {
            if (self.fixed.areas[k].high || !obs.high) && self.area_blocks(c, k, obs, tgt, a, b, &mut strips) {
                return Some(Feature::Area(k));
            }
        }
        // Third units.
        let (oid, tid) = (obs.id, tgt.id);
        self.grid.walk(a, b, |i| {
            let bl = &self.blockers[i as usize];
            if bl.id == oid || bl.id == tid || ignore.contains(&bl.id) || !bl.hit(a, b) {
                None
            } else {
                Some(Feature::Unit(i as usize))
            }
        })
    }

    /// BPT "High Ground": a hill under neither end that the line passes into (by more than
    /// `contact`) blocks it.
    fn hill_blocks(&self, h: usize, a: V2, b: V2) -> bool {
        let hill = &self.fixed.hills[h];
        if !bbox_meets_segment(hill.lo, hill.hi, a, b, 0.0) {
            return false;
        }
        let mut inside = 0.0;
        hill.outer
            .for_each_interval_bbox(a, b, Some((hill.outer_lo, hill.outer_hi)), |t0, t1| inside += t1 - t0);
        inside * a.dist(b) > self.params.contact
    }

    /// BPT "Linear Terrain": a wall, fence or hedge crossed, neither end in contact with it.
    fn obstacle_blocks(&self, c: &mut PairCache, k: usize, obs: &Prepared, tgt: &Prepared, a: V2, b: V2) -> bool {
        let o = &self.fixed.obstacles[k];
        bbox_meets_segment(o.lo, o.hi, a, b, 0.0)
            && o.points
                .windows(2)
                .any(|w| super::geometry::segments_intersect(a, b, w[0], w[1]))
            && !self.obstacle_contact(c, k, obs, tgt)
    }

    /// BPT "Area Terrain" for one area along one line; `strips` counts the low strips seen
    /// over so far on this line.
    #[allow(clippy::too_many_arguments)]
    fn area_blocks(
        &self,
        c: &mut PairCache,
        k: usize,
        obs: &Prepared,
        tgt: &Prepared,
        a: V2,
        b: V2,
        strips: &mut u32,
    ) -> bool {
        let p = &self.params;
        let ar = &self.fixed.areas[k];
        if !bbox_meets_segment(ar.lo, ar.hi, a, b, 0.0) {
            return false;
        }
        // Up to 8 intervals on the stack (past that, the last replaces the eighth).
        let mut iv = [(0.0f64, 0.0f64); 8];
        let mut n = 0usize;
        let mut last = (0.0, 0.0);
        let mut total = 0usize;
        ar.poly.for_each_interval_bbox(a, b, Some((ar.lo, ar.hi)), |t0, t1| {
            if n < iv.len() {
                iv[n] = (t0, t1);
                n += 1;
            }
            last = (t0, t1);
            total += 1;
        });
        if total == 0 {
            return false;
        }
        if total > n {
            iv[n - 1] = last;
        }
        let len = a.dist(b);
        let st = self.area_state(c, k, obs, tgt);
        for (m, &(t0, t1)) in iv[..n].iter().enumerate() {
            let depth = (t1 - t0) * len;
            let obs_end = m == 0 && st & AREA_OBS != 0;
            let tgt_end = m == n - 1 && st & AREA_TGT != 0;
            let blocked = if tgt_end && tgt.hard_to_see && st & AREA_TGT_IN != 0 {
                !self.within(c, obs, tgt, p.seen_hidden, len)
            } else if obs_end || tgt_end {
                let seen_in = if ar.high { p.seen_in_high } else { p.seen_in_low };
                depth > p.into_area + EPS && !self.within(c, obs, tgt, seen_in, len)
            } else if ar.high {
                true
            } else {
                *strips += 1;
                *strips > 1 || depth > p.low_strip_max + EPS
            };
            if blocked {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::formation::Formation;
    use super::super::geometry::Pose;
    use super::super::layout::{StandShape, front_edge, stand_rects};
    use super::super::terrain::{Area, AreaKind, Contour, Hill, Linear, LinearKind};
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI};

    const INF: StandShape = StandShape::new(2.5, 1.5);

    struct U {
        id: u32,
        stands: Vec<Rect>,
        front: (V2, V2),
        facing: f64,
        all_round: bool,
        hard: bool,
        dug_in: bool,
    }
    impl U {
        /// Five infantry stands in line, centred at (x, y).
        fn line(id: u32, x: f64, y: f64, facing: f64) -> U {
            let pose = Pose::new(V2::new(x, y), facing);
            U {
                id,
                stands: stand_rects(pose, Formation::Line, 5, INF, 1.0),
                front: front_edge(pose, Formation::Line, 5, INF, 1.0),
                facing,
                all_round: false,
                hard: false,
                dug_in: false,
            }
        }
        /// Facing +y with its front edge at y = `front_y`.
        fn up(id: u32, front_y: f64) -> U {
            U::line(id, 50.0, front_y - 0.75, FRAC_PI_2)
        }
        /// Facing −y with its front edge at y = `front_y`.
        fn down(id: u32, front_y: f64) -> U {
            U::line(id, 50.0, front_y + 0.75, -FRAC_PI_2)
        }
        fn commander(id: u32, x: f64, y: f64) -> U {
            let r = Rect::new(V2::new(x, y), FRAC_PI_2, 2.0, 2.0);
            U {
                id,
                stands: vec![r],
                front: r.front_edge(),
                facing: FRAC_PI_2,
                all_round: true,
                hard: false,
                dug_in: false,
            }
        }
        fn s(&self) -> Sighting<'_> {
            Sighting {
                id: self.id,
                stands: &self.stands,
                front: self.front,
                facing: self.facing,
                all_round: self.all_round,
                hard_to_see: self.hard,
                dug_in: self.dug_in,
            }
        }
        fn blockers(&self) -> Vec<Blocker> {
            self.stands.iter().map(|&rect| Blocker { id: self.id, rect }).collect()
        }
    }

    fn rect_poly(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon {
        Polygon(vec![V2::new(x0, y0), V2::new(x1, y0), V2::new(x1, y1), V2::new(x0, y1)])
    }
    fn area(kind: AreaKind, name: &str, p: Polygon) -> Area {
        Area {
            kind,
            name: name.into(),
            outline: p,
        }
    }
    fn world(t: Terrain) -> LosWorld {
        LosWorld::new(&t, 240.0, 180.0, LosParams::default())
    }
    fn sees(w: &LosWorld, a: &U, b: &U) -> Result<(), LosBlock> {
        w.sees(&a.s(), &b.s())
    }

    #[test]
    fn distance_limit() {
        let w = world(Terrain::default());
        let o = U::up(1, 20.0);
        assert_eq!(sees(&w, &o, &U::down(2, 124.0)), Err(LosBlock::TooFar)); // 104 cm
        assert_eq!(sees(&w, &o, &U::down(2, 120.0)), Ok(())); // exactly 100
        assert_eq!(sees(&w, &o, &U::down(2, 121.0)), Err(LosBlock::TooFar));
        // Diagonal: the bounding boxes are near but the bases are not.
        let far = U::line(2, 50.0 + 80.0, 20.0 + 80.0, PI);
        assert_eq!(sees(&w, &o, &far), Err(LosBlock::TooFar));
    }

    #[test]
    fn arc_and_commanders() {
        let w = world(Terrain::default());
        let o = U::up(1, 20.0);
        let behind = U::up(2, 10.0);
        assert_eq!(sees(&w, &o, &behind), Err(LosBlock::OutOfArc));
        // Level with the front edge: in the 180° arc.
        assert_eq!(sees(&w, &o, &U::line(2, 80.0, 20.0, FRAC_PI_2)), Ok(()));
        let c = U::commander(9, 50.0, 20.0);
        assert_eq!(sees(&w, &c, &behind), Ok(()));
    }

    #[test]
    fn woods_block_and_edges() {
        let t = Terrain {
            areas: vec![area(AreaKind::Woods, "Bois", rect_poly(30.0, 40.0, 70.0, 60.0))],
            ..Default::default()
        };
        let w = world(t);
        assert_eq!(
            sees(&w, &U::up(1, 20.0), &U::down(2, 80.0)),
            Err(LosBlock::Area("Bois".into()))
        );
        // 4 cm inside, seen from 30 cm away.
        assert_eq!(sees(&w, &U::up(1, 14.0), &U::down(2, 44.0)), Ok(()));
        // ... and it sees out.
        assert_eq!(sees(&w, &U::down(2, 44.0), &U::up(1, 14.0)), Ok(()));
        // 8 cm inside: not from 30 cm, but from 9 cm.
        assert_eq!(
            sees(&w, &U::up(1, 18.0), &U::down(2, 48.0)),
            Err(LosBlock::Area("Bois".into()))
        );
        assert_eq!(sees(&w, &U::up(1, 39.0), &U::down(2, 48.0)), Ok(()));
        // Both deep in the same wood, 8 cm apart: seen; 15 cm apart: not.
        assert_eq!(sees(&w, &U::up(1, 45.0), &U::down(2, 53.0)), Ok(()));
        assert_eq!(
            sees(&w, &U::up(1, 42.0), &U::down(2, 57.0)),
            Err(LosBlock::Area("Bois".into()))
        );
        // Hard to see (deployed guns) 4 cm inside: only within 5 cm.
        let mut g = U::down(2, 44.0);
        g.hard = true;
        assert_eq!(sees(&w, &U::up(1, 14.0), &g), Err(LosBlock::Area("Bois".into())));
        assert_eq!(sees(&w, &U::up(1, 40.0), &g), Ok(()));
        // Touching the boundary from outside.
        assert_eq!(sees(&w, &U::up(1, 10.0), &U::down(2, 39.8)), Ok(()));
    }

    #[test]
    fn low_strips_and_hills_over_them() {
        let field = |depth: f64| Terrain {
            areas: vec![area(
                AreaKind::Field,
                "Wheat",
                rect_poly(0.0, 40.0, 100.0, 40.0 + depth),
            )],
            ..Default::default()
        };
        assert_eq!(sees(&world(field(9.0)), &U::up(1, 20.0), &U::down(2, 80.0)), Ok(()));
        assert_eq!(
            sees(&world(field(12.0)), &U::up(1, 20.0), &U::down(2, 80.0)),
            Err(LosBlock::Area("Wheat".into()))
        );
        // Two strips of 6 cm block.
        let two = Terrain {
            areas: vec![
                area(AreaKind::Field, "A", rect_poly(0.0, 40.0, 100.0, 46.0)),
                area(AreaKind::Scrub, "B", rect_poly(0.0, 55.0, 100.0, 61.0)),
            ],
            ..Default::default()
        };
        assert_eq!(
            sees(&world(two), &U::up(1, 20.0), &U::down(2, 80.0)),
            Err(LosBlock::Area("B".into()))
        );
        // A target 15 cm inside a field is seen from 18 cm, not from 30.
        let w = world(field(30.0));
        assert_eq!(sees(&w, &U::up(1, 37.0), &U::down(2, 55.0)), Ok(()));
        assert_eq!(
            sees(&w, &U::up(1, 25.0), &U::down(2, 55.0)),
            Err(LosBlock::Area("Wheat".into()))
        );
        // An observer on a hill sees over the 12 cm field.
        let mut t = field(12.0);
        t.hills.push(Hill {
            name: "Knoll".into(),
            contours: vec![Contour {
                height: 1,
                outline: rect_poly(0.0, 0.0, 100.0, 30.0),
            }],
            mountain: false,
        });
        let w = world(t);
        assert_eq!(w.elevation(V2::new(50.0, 20.0)), 1);
        assert_eq!(sees(&w, &U::up(1, 20.0), &U::down(2, 80.0)), Ok(()));
        // But not the other way round.
        assert_eq!(
            sees(&w, &U::down(2, 80.0), &U::up(1, 20.0)),
            Err(LosBlock::Area("Wheat".into()))
        );
    }

    #[test]
    fn walls() {
        let t = Terrain {
            linears: vec![Linear {
                kind: LinearKind::Wall,
                name: String::new(),
                points: vec![V2::new(0.0, 50.0), V2::new(100.0, 50.0)],
                width: 0.5,
            }],
            ..Default::default()
        };
        let w = world(t);
        assert_eq!(
            sees(&w, &U::up(1, 20.0), &U::down(2, 80.0)),
            Err(LosBlock::Obstacle("Wall".into()))
        );
        assert_eq!(sees(&w, &U::up(1, 20.0), &U::down(2, 50.5)), Ok(()));
        assert_eq!(sees(&w, &U::up(1, 49.5), &U::down(2, 80.0)), Ok(()));
        // Dug in behind the wall: hidden until within 5 cm.
        let mut d = U::down(2, 50.5);
        d.dug_in = true;
        assert_eq!(sees(&w, &U::up(1, 20.0), &d), Err(LosBlock::Hidden));
        assert_eq!(sees(&w, &U::up(1, 46.0), &d), Ok(()));
        // Roads and streams never block.
        let t = Terrain {
            linears: vec![Linear {
                kind: LinearKind::Road,
                name: String::new(),
                points: vec![V2::new(0.0, 50.0), V2::new(100.0, 50.0)],
                width: 2.0,
            }],
            ..Default::default()
        };
        assert_eq!(sees(&world(t), &U::up(1, 20.0), &U::down(2, 80.0)), Ok(()));
    }

    fn hill_table() -> Terrain {
        Terrain {
            hills: vec![Hill {
                name: "Ridge".into(),
                contours: vec![
                    Contour {
                        height: 1,
                        outline: rect_poly(0.0, 50.0, 100.0, 100.0),
                    },
                    Contour {
                        height: 2,
                        outline: rect_poly(20.0, 65.0, 80.0, 85.0),
                    },
                ],
                mountain: false,
            }],
            ..Default::default()
        }
    }

    #[test]
    fn crest_line() {
        let w = world(hill_table());
        let o = U::up(1, 20.0);
        // Crest through (50, 75), parallel to the observer's front.
        assert_eq!(sees(&w, &o, &U::down(2, 60.0)), Ok(()));
        assert_eq!(sees(&w, &U::down(2, 60.0), &o), Ok(()));
        assert_eq!(sees(&w, &o, &U::down(2, 70.0)), Ok(())); // on contour 2, forward of crest
        assert_eq!(sees(&w, &o, &U::down(2, 90.0)), Err(LosBlock::Hill("Ridge".into())));
        assert_eq!(sees(&w, &U::down(2, 90.0), &o), Err(LosBlock::Hill("Ridge".into())));
        // Straddling the crest: seen.
        assert_eq!(sees(&w, &o, &U::down(2, 74.5)), Ok(()));
        assert_eq!(sees(&w, &o, &U::down(2, 75.5)), Err(LosBlock::Hill("Ridge".into())));
        // Behind the hill, off it: blocked by the hill.
        assert_eq!(sees(&w, &o, &U::down(2, 105.0)), Err(LosBlock::Hill("Ridge".into())));
        // Same contour: see each other, even across the summit area of contour 1.
        assert_eq!(sees(&w, &U::up(1, 55.0), &U::down(2, 95.0)), Ok(()));
        // Higher observer on the hill, lower target beyond the crest from the target's side.
        assert_eq!(sees(&w, &U::up(1, 92.0), &U::down(2, 110.0)), Ok(()));
    }

    #[test]
    fn units_block_commanders_do_not() {
        let mut w = world(Terrain::default());
        let o = U::up(1, 20.0);
        let t = U::down(2, 80.0);
        let mid = U::up(3, 50.0);
        let cmd = U::commander(4, 50.0, 50.0);
        let mut b = o.blockers();
        b.extend(t.blockers());
        w.set_blockers(b.clone());
        assert_eq!(sees(&w, &o, &t), Ok(()));
        // The commander is not a blocker: the caller leaves it out.
        let _ = &cmd;
        assert_eq!(sees(&w, &o, &t), Ok(()));
        b.extend(mid.blockers());
        w.set_blockers(b);
        assert_eq!(sees(&w, &o, &t), Err(LosBlock::Unit(3)));
        // A narrow unit in the middle leaves the edge lines clear.
        let narrow = U {
            id: 5,
            stands: vec![Rect::new(V2::new(50.0, 50.0), 0.0, 2.0, 2.0)],
            ..U::up(5, 50.0)
        };
        w.set_blockers(narrow.blockers());
        assert_eq!(sees(&w, &o, &t), Ok(()));
        // The LOS tool: terrain and blockers, with ignores.
        w.set_blockers(mid.blockers());
        assert_eq!(
            w.line_clear(V2::new(50.0, 20.0), V2::new(50.0, 80.0), &[]),
            Err(LosBlock::Unit(3))
        );
        assert_eq!(w.line_clear(V2::new(50.0, 20.0), V2::new(50.0, 80.0), &[3]), Ok(()));
        assert_eq!(w.line_clear(V2::new(0.0, 20.0), V2::new(0.0, 80.0), &[]), Ok(()));
        assert_eq!(w.sees_point(&o.s(), V2::new(50.0, 60.0)), Err(LosBlock::Unit(3)));
        assert_eq!(w.sees_point(&o.s(), V2::new(80.0, 60.0)), Ok(()));
        assert_eq!(w.sees_point(&o.s(), V2::new(80.0, 10.0)), Err(LosBlock::OutOfArc));
        // Blockers off the table still count.
        let off = U::up(6, -30.0);
        w.set_blockers(off.blockers());
        assert_eq!(
            w.line_clear(V2::new(50.0, -40.0), V2::new(50.0, -20.0), &[]),
            Err(LosBlock::Unit(6))
        );
    }

    /// Blockers set again keep the direction and grid cells of stands as they were; a stand
    /// turned, moved or added in between must be seen where it is now: the world set twice
    /// answers every line as a world set once.
    #[test]
    fn blockers_set_again_answer_as_blockers_set_once() {
        let stand = |id: u32, x: f64, y: f64, facing: f64| Blocker {
            id,
            rect: Rect::new(V2::new(x, y), facing, 4.0, 2.0),
        };
        let first: Vec<Blocker> = (0..12)
            .map(|k| stand(k / 3, 30.0 + 15.0 * f64::from(k), 60.0 + f64::from(k % 3) * 5.0, 0.2))
            .collect();
        let mut second = first.clone();
        second[4].rect.center = V2::new(90.0, 120.0); // moved
        second[7] = stand(2, second[7].rect.center.x, second[7].rect.center.y, 1.4); // turned
        second.push(stand(9, 200.0, 40.0, 0.7)); // added
        let mut twice = world(Terrain::default());
        twice.set_blockers(first);
        twice.set_blockers(second.clone());
        let mut once = world(Terrain::default());
        once.set_blockers(second);
        let mut differ = 0;
        let mut blocked = 0;
        for i in 0..40 {
            for j in 0..40 {
                let a = V2::new(6.0 * f64::from(i), 10.0);
                let b = V2::new(6.0 * f64::from(j), 170.0);
                let got = twice.line_clear(a, b, &[]);
                blocked += usize::from(got.is_err());
                differ += usize::from(got != once.line_clear(a, b, &[]));
            }
        }
        assert_eq!(differ, 0);
        assert!(blocked > 100, "the lines cross the stands: {blocked} of 1600 blocked");
    }

    #[test]
    fn blocker_hit_is_strict() {
        let r = Rect::new(V2::new(10.0, 10.0), 0.3, 2.5, 1.5);
        let b = BlockerData {
            id: 1,
            run_start: 0,
            run_end: 1,
            center: r.center,
            facing: r.facing,
            fwd: dir(r.facing),
            hd: 0.75,
            hw: 1.25,
        };
        let k = r.corners();
        assert!(b.hit(V2::new(0.0, 10.0), V2::new(20.0, 10.0)));
        assert!(b.hit(V2::new(0.0, 0.0), V2::new(10.0, 10.0))); // ends inside
        assert!(!b.hit(k[0], k[1])); // along an edge
        assert!(!b.hit(k[0] + (k[0] - k[2]), k[0])); // touching a corner from outside
        assert!(!b.hit(V2::new(0.0, 20.0), V2::new(20.0, 20.0)));
        for (a, c) in [
            (V2::new(0.0, 9.5), V2::new(20.0, 11.0)),
            (V2::new(10.2, 0.0), V2::new(9.9, 20.0)),
        ] {
            assert_eq!(b.hit(a, c), r.clip_segment(a, c, EPS).is_some_and(|(t0, t1)| t1 > t0));
        }
    }

    #[test]
    fn line_tool_terrain() {
        let mut t = hill_table();
        t.areas
            .push(area(AreaKind::Woods, "", rect_poly(120.0, 0.0, 140.0, 40.0)));
        let w = world(t);
        assert_eq!(
            w.line_clear(V2::new(100.0, 20.0), V2::new(160.0, 20.0), &[]),
            Err(LosBlock::Area("Woods".into()))
        );
        assert_eq!(
            w.line_clear(V2::new(50.0, 20.0), V2::new(50.0, 120.0), &[]),
            Err(LosBlock::Hill("Ridge".into()))
        );
        assert_eq!(w.line_clear(V2::new(50.0, 20.0), V2::new(50.0, 60.0), &[]), Ok(()));
        assert_eq!(
            w.line_clear(V2::new(50.0, 20.0), V2::new(50.0, 95.0), &[]),
            Err(LosBlock::Hill("Ridge".into()))
        );
        assert_eq!(w.params().visibility, 100.0);
    }

    /// The all-pairs paths (prepared ends, the threaded matrix) give exactly the answers of
    /// one-off `sees`, block reasons included, on a table with a hill, woods, a field, a wall
    /// and units that block, dug in, hard to see and all-round among them.
    #[test]
    fn prepared_and_matrix_agree_with_sees() {
        let mut t = hill_table();
        t.areas = vec![
            area(AreaKind::Woods, "Wood", rect_poly(110.0, 20.0, 130.0, 60.0)),
            area(AreaKind::Field, "Field", rect_poly(140.0, 90.0, 170.0, 120.0)),
        ];
        t.linears = vec![Linear {
            kind: LinearKind::Wall,
            name: "Wall".into(),
            points: vec![V2::new(60.0, 120.0), V2::new(200.0, 125.0)],
            width: 0.5,
        }];
        let mut us = Vec::new();
        let mut seed = 7u64;
        let mut next = |lo: f64, hi: f64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((seed >> 11) as f64 / (1u64 << 53) as f64)
        };
        for id in 0..40u32 {
            let mut u = U::line(
                id,
                next(10.0, 230.0),
                next(10.0, 170.0),
                next(0.0, std::f64::consts::TAU),
            );
            u.all_round = id % 7 == 0;
            u.hard = id % 5 == 0;
            u.dug_in = id % 6 == 0;
            us.push(u);
        }
        let mut w = world(t);
        w.set_blockers(us.iter().filter(|u| u.id % 3 != 0).flat_map(U::blockers).collect());
        let ss: Vec<Sighting> = us.iter().map(U::s).collect();
        let pre: Vec<Prepared> = ss.iter().map(|s| w.prepare(s)).collect();
        let matrix = w.visibility_matrix(&ss);
        let mut seen = 0;
        for i in 0..ss.len() {
            for j in 0..ss.len() {
                if i == j {
                    assert!(!matrix[i * ss.len() + j]);
                    continue;
                }
                let one = w.sees(&ss[i], &ss[j]);
                assert_eq!(w.sees_prepared(&pre[i], &pre[j]), one, "pair {i} {j}");
                assert_eq!(matrix[i * ss.len() + j], one.is_ok(), "pair {i} {j}");
                seen += usize::from(one.is_ok());
            }
        }
        // Neither all nor none: the table exercises both answers.
        assert!(seen > 100 && seen < 40 * 39 - 100, "{seen}");
    }
}
