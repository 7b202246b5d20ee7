//! Where the stands of a unit sit in each formation (BPT "Movement Formations").
//!
//! All layouts are built in the unit's local frame (x forward, y to the left, origin at
//! `pose.pos`) and then placed on the table with [`Pose::to_world`].

use super::formation::Formation;
use super::geometry::{Pose, Rect, V2};
use serde::{Deserialize, Serialize};
use std::f64::consts::{FRAC_PI_2, PI, TAU};

/// The footprint of one kind of stand, in cm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandShape {
    pub width: f64,
    pub depth: f64,
}

impl StandShape {
    pub const fn new(width: f64, depth: f64) -> Self {
        StandShape { width, depth }
    }
}

/// Stands of one square face: (local centre, facing relative to the unit).
fn square_layout(n: usize, s: StandShape) -> Vec<(V2, f64)> {
    // Faces in turn: front, right, rear, left.
    let mut k = [0usize; 4];
    for i in 0..n {
        k[i % 4] += 1;
    }
    let (w, d) = (s.width, s.depth);
    // Front/rear faces span the box's width; the side faces fit between them. The hollow is
    // at least one stand depth square so the command stand fits at the centre.
    let hollow = d;
    let wf = (k[0].max(k[2]) as f64 * w).max(2.0 * d + hollow);
    let ls = (k[1].max(k[3]) as f64 * w).max(hollow);
    let mut out = Vec::with_capacity(n);
    let spread = |m: usize, j: usize| ((m as f64 - 1.0) * 0.5 - j as f64) * w;
    let mut j = [0usize; 4];
    for i in 0..n {
        let f = i % 4;
        let along = spread(k[f], j[f]);
        j[f] += 1;
        out.push(match f {
            0 => (V2::new(ls * 0.5 + d * 0.5, along), 0.0),
            // Right face: faces -y; its "left" points forward (+x).
            1 => (V2::new(along, -(wf * 0.5 - d * 0.5)), -FRAC_PI_2),
            2 => (V2::new(-(ls * 0.5 + d * 0.5), -along), PI),
            _ => (V2::new(-along, wf * 0.5 - d * 0.5), FRAC_PI_2),
        });
    }
    out
}

/// Radius of the disordered circle: neighbours clear each other and the centre.
fn disordered_radius(n: usize, s: StandShape) -> f64 {
    let h = s.width.hypot(s.depth);
    if n <= 1 {
        h
    } else {
        (h / (2.0 * (PI / n as f64).sin())).max(h)
    }
}

/// Local (centre, relative facing) of each fighting stand.
fn local_layout(formation: Formation, n: usize, s: StandShape, gap: f64) -> Vec<(V2, f64)> {
    let (w, d) = (s.width, s.depth);
    let half = |m: usize| (m as f64 - 1.0) * 0.5;
    match formation {
        Formation::Line => (0..n).map(|i| (V2::new(0.0, (half(n) - i as f64) * w), 0.0)).collect(),
        Formation::ExtendedLine => (0..n)
            .map(|i| (V2::new(0.0, (half(n) - i as f64) * (w + gap)), 0.0))
            .collect(),
        Formation::MarchColumn => (0..n).map(|i| (V2::new((half(n) - i as f64) * d, 0.0), 0.0)).collect(),
        Formation::AttackColumn => {
            let ranks = n.div_ceil(2);
            (0..n)
                .map(|i| {
                    let r = i / 2;
                    let alone = r * 2 + 1 == n; // a last rank of one stand is centred
                    let y = if alone { 0.0 } else { (0.5 - (i % 2) as f64) * w };
                    (V2::new((half(ranks) - r as f64) * d, y), 0.0)
                })
                .collect()
        }
        Formation::Square => square_layout(n, s),
        Formation::Disordered => {
            let r = disordered_radius(n, s);
            (0..n)
                .map(|i| {
                    let a = TAU * i as f64 / n as f64;
                    let c = V2::new(a.cos(), a.sin()) * r;
                    let f = if i % 2 == 0 { 0.0 } else { a + PI };
                    (c, f)
                })
                .collect()
        }
    }
}

fn place(pose: Pose, local: &[(V2, f64)], s: StandShape) -> Vec<Rect> {
    // Room for the command stand the unit's bases end with (no second allocation).
    let mut v = Vec::with_capacity(local.len() + 1);
    v.extend(
        local
            .iter()
            .map(|&(c, f)| Rect::new(pose.to_world(c), pose.facing + f, s.width, s.depth)),
    );
    v
}

/// Local bounding box (min, max) of the local layout.
fn local_bbox(local: &[(V2, f64)], s: StandShape) -> (V2, V2) {
    let mut lo = V2::new(f64::INFINITY, f64::INFINITY);
    let mut hi = V2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for &(c, f) in local {
        let (a, b) = Rect::new(c, f, s.width, s.depth).aabb();
        lo = V2::new(lo.x.min(a.x), lo.y.min(a.y));
        hi = V2::new(hi.x.max(b.x), hi.y.max(b.y));
    }
    if local.is_empty() {
        (V2::ZERO, V2::ZERO)
    } else {
        (lo, hi)
    }
}

/// The fighting stands of a unit of `n` stands in `formation`, centred on `pose.pos`.
/// `gap` is the side gap in extended line (1 cm, 2 cm for skirmishers).
///
/// Line: side by side, touching. Extended line: the same with `gap` between stands.
/// March column: one behind the other. Attack column: two abreast, ⌈n/2⌉ ranks (a last odd
/// stand centred). Square: the stands dealt to the front, right, rear and left faces in turn,
/// each face facing outward, touching into a hollow box. Disordered: on a circle around
/// `pose.pos`, alternately facing the unit's way and the centre. Line and columns are centred
/// on the bounding box of the fighting stands; square and disordered on `pose.pos`.
pub fn stand_rects(pose: Pose, formation: Formation, n: usize, shape: StandShape, gap: f64) -> Vec<Rect> {
    place(pose, &local_layout(formation, n, shape, gap), shape)
}

/// The unit command stand: directly behind the middle of the rear rank, touching it
/// (for Disordered and Square: at pose.pos, the stands around it).
pub fn command_stand_rect(
    pose: Pose,
    formation: Formation,
    n: usize,
    shape: StandShape,
    gap: f64,
    cmd: StandShape,
) -> Rect {
    match formation {
        Formation::Square | Formation::Disordered => Rect::new(pose.pos, pose.facing, cmd.width, cmd.depth),
        _ => {
            let (_, depth) = extent(formation, n, shape, gap);
            let x = -depth * 0.5 - cmd.depth * 0.5;
            Rect::new(pose.to_world(V2::new(x, 0.0)), pose.facing, cmd.width, cmd.depth)
        }
    }
}

/// The formation's front edge (left, right): the front edges of the front rank joined.
/// Square: the front face. Disordered: the front of the whole footprint.
pub fn front_edge(pose: Pose, formation: Formation, n: usize, shape: StandShape, gap: f64) -> (V2, V2) {
    let local = local_layout(formation, n, shape, gap);
    let (lo, hi) = local_bbox(&local, shape);
    let (x, yl, yr) = match formation {
        Formation::Square => {
            let front: Vec<_> = local.iter().copied().filter(|&(_, f)| f == 0.0).collect();
            let (flo, fhi) = local_bbox(&front, shape);
            (fhi.x, fhi.y, flo.y)
        }
        _ => (hi.x, hi.y, lo.y),
    };
    (pose.to_world(V2::new(x, yl)), pose.to_world(V2::new(x, yr)))
}

/// Frontage width and total depth (fighting stands only).
pub fn extent(formation: Formation, n: usize, shape: StandShape, gap: f64) -> (f64, f64) {
    let (lo, hi) = local_bbox(&local_layout(formation, n, shape, gap), shape);
    (hi.y - lo.y, hi.x - lo.x)
}

/// Artillery: `guns` gun stands side by side; unlimbered: guns in front at pose with the limber
/// behind them touching (facing the same way); limbered: the limber in front (at pose) and the
/// guns behind it, touching, facing backwards. Returns (gun rects, limber rect if `has_limber`).
pub fn artillery_rects(
    pose: Pose,
    guns: usize,
    limbered: bool,
    has_limber: bool,
    gun: StandShape,
    limber: StandShape,
) -> (Vec<Rect>, Option<Rect>) {
    let half = (guns as f64 - 1.0) * 0.5;
    let (gx, gf, lx) = if limbered {
        (-limber.depth * 0.5 - gun.depth * 0.5, PI, 0.0)
    } else {
        (0.0, 0.0, -gun.depth * 0.5 - limber.depth * 0.5)
    };
    let g = (0..guns)
        .map(|i| {
            let c = pose.to_world(V2::new(gx, (half - i as f64) * gun.width));
            Rect::new(c, pose.facing + gf, gun.width, gun.depth)
        })
        .collect();
    let l = has_limber.then(|| Rect::new(pose.to_world(V2::new(lx, 0.0)), pose.facing, limber.width, limber.depth));
    (g, l)
}

#[cfg(test)]
mod tests {
    use super::*;

    const INF: StandShape = StandShape::new(2.5, 1.5);
    const CMD: StandShape = StandShape::new(1.5, 1.5);

    fn no_overlaps(r: &[Rect]) -> bool {
        (0..r.len()).all(|i| (i + 1..r.len()).all(|j| !r[i].overlaps(&r[j])))
    }
    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn counts_and_no_overlap() {
        let pose = Pose::new(V2::new(50.0, 40.0), 0.7);
        for f in Formation::ALL {
            for n in 1..=12 {
                let r = stand_rects(pose, f, n, INF, 1.0);
                assert_eq!(r.len(), n, "{f:?}");
                assert!(no_overlaps(&r), "{f:?} {n}");
                let c = command_stand_rect(pose, f, n, INF, 1.0, CMD);
                assert!(r.iter().all(|s| !s.overlaps(&c)), "{f:?} {n} command");
            }
        }
    }

    #[test]
    fn line_geometry() {
        let pose = Pose::new(V2::new(100.0, 50.0), FRAC_PI_2); // facing +y
        let r = stand_rects(pose, Formation::Line, 5, INF, 1.0);
        assert_eq!(extent(Formation::Line, 5, INF, 1.0), (12.5, 1.5));
        // Leftmost (when facing +y, left is -x) first.
        assert!((r[0].center - V2::new(95.0, 50.0)).len() < 1e-9);
        assert!((r[4].center - V2::new(105.0, 50.0)).len() < 1e-9);
        assert!(close(r[0].distance(&r[1]), 0.0));
        let (l, rt) = front_edge(pose, Formation::Line, 5, INF, 1.0);
        assert!((l - V2::new(93.75, 50.75)).len() < 1e-9, "{l:?}");
        assert!((rt - V2::new(106.25, 50.75)).len() < 1e-9);
        let c = command_stand_rect(pose, Formation::Line, 5, INF, 1.0, CMD);
        assert!((c.center - V2::new(100.0, 48.5)).len() < 1e-9);
        assert!(close(c.distance(&r[2]), 0.0));
        let (w, d) = extent(Formation::ExtendedLine, 5, INF, 2.0);
        assert!(close(w, 20.5) && close(d, 1.5));
        let e = stand_rects(pose, Formation::ExtendedLine, 5, INF, 2.0);
        assert!(close(e[0].distance(&e[1]), 2.0));
    }

    #[test]
    fn columns_square_disordered() {
        let pose = Pose::new(V2::ZERO, 0.0);
        assert_eq!(extent(Formation::MarchColumn, 4, INF, 1.0), (2.5, 6.0));
        let (w, d) = extent(Formation::AttackColumn, 5, INF, 1.0);
        assert!(close(w, 5.0) && close(d, 4.5));
        let (l, r) = front_edge(pose, Formation::AttackColumn, 5, INF, 1.0);
        assert!((l - V2::new(2.25, 2.5)).len() < 1e-9 && (r - V2::new(2.25, -2.5)).len() < 1e-9);
        let sq = stand_rects(pose, Formation::Square, 8, INF, 1.0);
        let facings: Vec<f64> = sq.iter().map(|s| s.facing).collect();
        assert_eq!(&facings[..4], &[0.0, -FRAC_PI_2, PI, FRAC_PI_2]);
        // Every stand touches another one (closed box), and the centre is hollow.
        for s in &sq {
            assert!(sq.iter().any(|o| o != s && close(s.distance(o), 0.0)));
            assert!(!s.contains(V2::ZERO));
        }
        let dis = stand_rects(pose, Formation::Disordered, 6, INF, 1.0);
        assert!(dis.iter().all(|s| !s.contains(V2::ZERO)));
        assert!(close(dis[0].facing, 0.0));
    }

    #[test]
    fn artillery() {
        let g = StandShape::new(2.5, 2.5);
        let lim = StandShape::new(2.5, 3.5);
        let pose = Pose::new(V2::new(10.0, 10.0), 0.0);
        let (guns, l) = artillery_rects(pose, 2, false, true, g, lim);
        let l = l.unwrap();
        assert_eq!(guns.len(), 2);
        assert!(close(guns[0].center.x, 10.0) && close(guns[0].center.y, 11.25));
        assert!(close(l.center.x, 7.0) && close(l.distance(&guns[0]), 0.0));
        let (guns, l) = artillery_rects(pose, 1, true, true, g, lim);
        let l = l.unwrap();
        assert!(close(l.center.x, 10.0));
        assert!(close(guns[0].center.x, 7.0) && close(guns[0].facing, PI));
        assert!(close(l.distance(&guns[0]), 0.0) && !l.overlaps(&guns[0]));
        assert!(artillery_rects(pose, 1, true, false, g, lim).1.is_none());
    }
}

/// BPT "Refuse the Flank Movement": swing the end stand of a line (index 0 is the left end,
/// the last the right end) backwards by `angle` radians about its inner rear corner, so it
/// clears its neighbour.
pub fn refuse_flanks(rects: &mut [Rect], left: bool, right: bool, angle: f64) {
    let n = rects.len();
    if n < 3 {
        return;
    }
    let swing = |r: &Rect, pivot: V2, a: f64| {
        let c = pivot + (r.center - pivot).rotate(a);
        Rect::new(c, r.facing + a, r.width, r.depth)
    };
    if left {
        let r = rects[0];
        rects[0] = swing(&r, r.rear_edge().1, angle);
    }
    if right {
        let r = rects[n - 1];
        rects[n - 1] = swing(&r, r.rear_edge().0, -angle);
    }
}

#[cfg(test)]
mod refuse_tests {
    use super::*;

    #[test]
    fn refused_end_stands_swing_back_about_their_inner_front_corner() {
        let shape = StandShape { width: 2.5, depth: 1.5 };
        let pose = Pose::new(V2::new(0.0, 0.0), std::f64::consts::FRAC_PI_2);
        let mut r = stand_rects(pose, Formation::Line, 4, shape, 1.0);
        let before = r.clone();
        refuse_flanks(&mut r, true, true, 45f64.to_radians());
        // The pivot corners (inner rear) stay put; the outer ends go back (−y); the middle is untouched.
        assert!(r[0].rear_edge().1.dist(before[0].rear_edge().1) < 1e-9);
        assert!(r[3].rear_edge().0.dist(before[3].rear_edge().0) < 1e-9);
        assert!(r[0].front_edge().0.y < before[0].front_edge().0.y - 1.0);
        assert!(r[3].front_edge().1.y < before[3].front_edge().1.y - 1.0);
        assert_eq!(r[1], before[1]);
        assert!((r[0].facing - (pose.facing + 45f64.to_radians())).abs() < 1e-12);
        assert!(!r[0].overlaps(&r[1]) && !r[3].overlaps(&r[2]));
    }
}
