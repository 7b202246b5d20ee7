//! The pieces of a scenario the editor works on: a piece names one element of the
//! [`Scenario`] by its place (terrain lists, a side's units, commanders and deployment zone),
//! and these functions find, move and remove them.

use crate::data::scenario::Scenario;
use crate::data::validate::Footprints;
use crate::data::{army::ArmyList, unit_rects};
use crate::rules::geometry::{V2, point_segment_distance};
use crate::rules::terrain::Polygon;

/// One element of a scenario, by its place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    Area(usize),
    Linear(usize),
    Hill(usize),
    Building(usize),
    Objective(usize),
    Unit {
        side: usize,
        i: usize,
    },
    Commander {
        side: usize,
        i: usize,
    },
    /// A side's deployment zone.
    Deployment(usize),
}

/// One vertex of a piece's outline: `ring` is the hill's contour (0 for everything else).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vertex {
    pub piece: Piece,
    pub ring: usize,
    pub i: usize,
}

impl Piece {
    /// Whether the piece still exists in `sc`.
    pub fn exists(self, sc: &Scenario) -> bool {
        let t = &sc.terrain;
        match self {
            Piece::Area(i) => i < t.areas.len(),
            Piece::Linear(i) => i < t.linears.len(),
            Piece::Hill(i) => i < t.hills.len(),
            Piece::Building(i) => i < t.buildings.len(),
            Piece::Objective(i) => i < sc.objectives.len(),
            Piece::Unit { side, i } => sc.sides.get(side).is_some_and(|s| i < s.units.len()),
            Piece::Commander { side, i } => sc.sides.get(side).is_some_and(|s| i < s.commanders.len()),
            Piece::Deployment(side) => sc.sides.get(side).is_some_and(|s| s.deployment.is_some()),
        }
    }

    /// What a player calls it: "Woods \"Harris Woods\"", "20th Maine", "Col. Strong Vincent"
    /// (units and commanders by name, told apart in words when two share one: [`super::names`]).
    pub fn label(self, sc: &Scenario) -> String {
        let t = &sc.terrain;
        let named = |what: &str, name: &str| {
            if name.is_empty() {
                what.to_string()
            } else {
                format!("{what} \"{name}\"")
            }
        };
        if !self.exists(sc) {
            return "(gone)".into();
        }
        match self {
            Piece::Area(i) => named(&capitalized(t.areas[i].kind.name()), &t.areas[i].name),
            Piece::Linear(i) => named(&capitalized(t.linears[i].kind.name()), &t.linears[i].name),
            Piece::Hill(i) => named("hill", &t.hills[i].name),
            Piece::Building(i) => named("building", &t.buildings[i].name),
            Piece::Objective(i) => named("objective", &sc.objectives[i].name),
            Piece::Unit { side, i } => super::names::unit_words(sc, side, i),
            Piece::Commander { side, i } => super::names::commander_words(sc, side, i),
            Piece::Deployment(side) => format!("{}'s deployment zone", sc.sides[side].name),
        }
    }

    /// The outlines (rings) of the piece whose vertices can be dragged: a hill's contours,
    /// one ring for areas, buildings, deployment zones and (open) linears; none for the rest.
    pub fn rings(self, sc: &Scenario) -> Vec<&Vec<V2>> {
        if !self.exists(sc) {
            return Vec::new();
        }
        let t = &sc.terrain;
        match self {
            Piece::Area(i) => vec![&t.areas[i].outline.0],
            Piece::Linear(i) => vec![&t.linears[i].points],
            Piece::Hill(i) => t.hills[i].contours.iter().map(|c| &c.outline.0).collect(),
            Piece::Building(i) => vec![&t.buildings[i].outline.0],
            Piece::Deployment(side) => sc.sides[side].deployment.iter().map(|p| &p.0).collect(),
            _ => Vec::new(),
        }
    }

    /// The ring `ring` of the piece, to change.
    pub fn ring_mut(self, sc: &mut Scenario, ring: usize) -> Option<&mut Vec<V2>> {
        if !self.exists(sc) {
            return None;
        }
        let t = &mut sc.terrain;
        match self {
            Piece::Area(i) if ring == 0 => Some(&mut t.areas[i].outline.0),
            Piece::Linear(i) if ring == 0 => Some(&mut t.linears[i].points),
            Piece::Hill(i) => t.hills[i].contours.get_mut(ring).map(|c| &mut c.outline.0),
            Piece::Building(i) if ring == 0 => Some(&mut t.buildings[i].outline.0),
            Piece::Deployment(side) if ring == 0 => sc.sides[side].deployment.as_mut().map(|p| &mut p.0),
            _ => None,
        }
    }

    /// Whether its rings are closed polygons (everything with rings but linears).
    pub fn closed(self) -> bool {
        !matches!(self, Piece::Linear(_))
    }

    /// The fewest vertices a ring of this piece may have.
    pub fn min_vertices(self) -> usize {
        if self.closed() { 3 } else { 2 }
    }

    /// Where the piece is: a unit's or commander's or objective's position, else the middle
    /// of its first ring.
    pub fn anchor(self, sc: &Scenario) -> Option<V2> {
        if !self.exists(sc) {
            return None;
        }
        match self {
            Piece::Objective(i) => Some(sc.objectives[i].pos),
            Piece::Unit { side, i } => Some(sc.sides[side].units[i].pos),
            Piece::Commander { side, i } => Some(sc.sides[side].commanders[i].pos),
            _ => {
                let rings = self.rings(sc);
                let r = rings.first()?;
                let n = r.len().max(1) as f64;
                let s = r.iter().fold(V2::new(0.0, 0.0), |a, &p| a + p);
                Some(s * (1.0 / n))
            }
        }
    }

    /// Moves the whole piece by `d`.
    pub fn translate(self, sc: &mut Scenario, d: V2) {
        if !self.exists(sc) {
            return;
        }
        match self {
            Piece::Objective(i) => sc.objectives[i].pos += d,
            Piece::Unit { side, i } => sc.sides[side].units[i].pos += d,
            Piece::Commander { side, i } => sc.sides[side].commanders[i].pos += d,
            _ => {
                let n = self.rings(sc).len();
                for r in 0..n {
                    if let Some(ring) = self.ring_mut(sc, r) {
                        for p in ring.iter_mut() {
                            *p += d;
                        }
                    }
                }
            }
        }
    }
}

/// `name` with its first letter capital: "Built-up area".
pub fn capitalized(name: &str) -> String {
    let mut c = name.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Removes a piece. A commander who still has units or subordinates is not removed (their
/// `commander`/`superior` would name nobody): the reason is returned instead.
pub fn remove(sc: &mut Scenario, piece: Piece) -> Result<(), String> {
    if !piece.exists(sc) {
        return Err("nothing to delete".into());
    }
    let t = &mut sc.terrain;
    match piece {
        Piece::Area(i) => {
            t.areas.remove(i);
        }
        Piece::Linear(i) => {
            t.linears.remove(i);
        }
        Piece::Hill(i) => {
            t.hills.remove(i);
        }
        Piece::Building(i) => {
            t.buildings.remove(i);
        }
        Piece::Objective(i) => {
            sc.objectives.remove(i);
        }
        Piece::Unit { side, i } => {
            sc.sides[side].units.remove(i);
        }
        Piece::Commander { side, i } => {
            let s = &sc.sides[side];
            let id = s.commanders[i].id.clone();
            let units = s.units.iter().filter(|u| u.commander == id).count();
            let subs = s
                .commanders
                .iter()
                .filter(|c| c.superior.as_deref() == Some(&id))
                .count();
            if units + subs > 0 {
                let count = crate::report::words::count;
                let whom = match (units, subs) {
                    (_, 0) => count(units as i64, "unit"),
                    (0, _) => count(subs as i64, "commander"),
                    _ => format!(
                        "{} and {}",
                        count(units as i64, "unit"),
                        count(subs as i64, "commander")
                    ),
                };
                return Err(format!(
                    "{} still commands {whom}: give them another commander first",
                    super::names::commander_words(sc, side, i)
                ));
            }
            sc.sides[side].commanders.remove(i);
        }
        Piece::Deployment(side) => sc.sides[side].deployment = None,
    }
    Ok(())
}

/// The piece under table point `p` (within `tol` cm of a line), the one drawn on top first:
/// commanders, units, objectives, buildings, linears, areas, hills, then deployment zones.
pub fn piece_at(sc: &Scenario, armies: &[ArmyList], fp: &Footprints, p: V2, tol: f64) -> Option<Piece> {
    for (side, s) in sc.sides.iter().enumerate() {
        if let Some(i) = s.commanders.iter().position(|c| c.pos.dist(p) <= 2.0 + tol) {
            return Some(Piece::Commander { side, i });
        }
    }
    for (side, s) in sc.sides.iter().enumerate() {
        let Some(army) = armies.get(side) else { continue };
        for (i, u) in s.units.iter().enumerate() {
            let Some(row) = army.troop(&u.row) else { continue };
            if unit_rects(u, row, fp).iter().any(|r| r.distance_to_point(p) <= tol) {
                return Some(Piece::Unit { side, i });
            }
        }
    }
    if let Some(i) = sc.objectives.iter().position(|o| o.pos.dist(p) <= 2.5 + tol) {
        return Some(Piece::Objective(i));
    }
    let t = &sc.terrain;
    if let Some(i) = t.buildings.iter().rposition(|b| b.outline.contains(p)) {
        return Some(Piece::Building(i));
    }
    if let Some(i) = t
        .linears
        .iter()
        .rposition(|l| near_line(&l.points, p, l.width * 0.5 + tol))
    {
        return Some(Piece::Linear(i));
    }
    if let Some(i) = t.areas.iter().rposition(|a| a.outline.contains(p)) {
        return Some(Piece::Area(i));
    }
    if let Some(i) = t
        .hills
        .iter()
        .rposition(|h| h.contours.first().is_some_and(|c| c.outline.contains(p)))
    {
        return Some(Piece::Hill(i));
    }
    (0..sc.sides.len())
        .find(|&s| sc.sides[s].deployment.as_ref().is_some_and(|d| d.contains(p)))
        .map(Piece::Deployment)
}

/// Whether `p` is within `d` of the polyline.
pub fn near_line(pts: &[V2], p: V2, d: f64) -> bool {
    pts.windows(2).any(|w| point_segment_distance(p, w[0], w[1]) <= d) || (pts.len() == 1 && pts[0].dist(p) <= d)
}

/// The vertex of `piece` nearest `p` within `tol`.
pub fn vertex_at(sc: &Scenario, piece: Piece, p: V2, tol: f64) -> Option<Vertex> {
    let mut best: Option<(f64, Vertex)> = None;
    for (ring, pts) in piece.rings(sc).into_iter().enumerate() {
        for (i, v) in pts.iter().enumerate() {
            let d = v.dist(p);
            if d <= tol && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, Vertex { piece, ring, i }));
            }
        }
    }
    best.map(|(_, v)| v)
}

/// The edge of `piece` nearest `p` within `tol`: a new vertex goes after vertex `i` of `ring`
/// (the edge from `i` to `i + 1`, or for a closed ring from the last vertex to the first),
/// at the point of the edge nearest `p`.
pub fn edge_at(sc: &Scenario, piece: Piece, p: V2, tol: f64) -> Option<(Vertex, V2)> {
    let mut best: Option<(f64, Vertex, V2)> = None;
    for (ring, pts) in piece.rings(sc).into_iter().enumerate() {
        let n = pts.len();
        let edges = if piece.closed() { n } else { n.saturating_sub(1) };
        for i in 0..edges {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            let d = point_segment_distance(p, a, b);
            if d <= tol && best.is_none_or(|(bd, _, _)| d < bd) {
                let ab = b - a;
                let len2 = ab.dot(ab);
                let t = if len2 > 0.0 {
                    ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                best = Some((d, Vertex { piece, ring, i }, a + ab * t));
            }
        }
    }
    best.map(|(_, v, at)| (v, at))
}

/// Inserts a vertex at `at` after `after` (see [`edge_at`]).
pub fn insert_vertex(sc: &mut Scenario, after: Vertex, at: V2) -> bool {
    match after.piece.ring_mut(sc, after.ring) {
        Some(r) if after.i < r.len() => {
            r.insert(after.i + 1, at);
            true
        }
        _ => false,
    }
}

/// Deletes a vertex, unless the ring would be left with too few.
pub fn delete_vertex(sc: &mut Scenario, v: Vertex) -> Result<(), String> {
    let min = v.piece.min_vertices();
    match v.piece.ring_mut(sc, v.ring) {
        Some(r) if v.i < r.len() => {
            if r.len() <= min {
                return Err(format!("an outline needs at least {min} points"));
            }
            r.remove(v.i);
            Ok(())
        }
        _ => Err("no such point".into()),
    }
}

/// Moves a vertex to `to`.
pub fn move_vertex(sc: &mut Scenario, v: Vertex, to: V2) {
    if let Some(p) = v.piece.ring_mut(sc, v.ring).and_then(|r| r.get_mut(v.i)) {
        *p = to;
    }
}

/// A rectangle as a polygon: centre, size (w × h) and rotation in degrees.
pub fn rect_polygon(c: V2, w: f64, h: f64, deg: f64) -> Polygon {
    let a = deg.to_radians();
    let corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)];
    Polygon(
        corners
            .iter()
            .map(|&(x, y)| c + V2::new(x * w, y * h).rotate(a))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::scenario::{Objective, ObjectiveLevel};
    use crate::rules::terrain::{Area, AreaKind};

    fn blank() -> Scenario {
        crate::data::parse_ron("(title: \"t\", turn_limit: 6, sides: [])", std::path::Path::new("x")).unwrap()
    }

    #[test]
    fn vertices_are_found_added_and_deleted() {
        let mut sc = blank();
        sc.terrain.areas.push(Area {
            kind: AreaKind::Woods,
            name: "W".into(),
            outline: rect_polygon(V2::new(10.0, 10.0), 10.0, 10.0, 0.0),
        });
        let a = Piece::Area(0);
        assert_eq!(
            piece_at(&sc, &[], &Footprints::default(), V2::new(11.0, 9.0), 0.5),
            Some(a)
        );
        let v = vertex_at(&sc, a, V2::new(5.2, 5.1), 1.0).unwrap();
        assert_eq!((v.ring, v.i), (0, 0));
        // The edge from (15,5) to (15,15): a new point at (15,10) after vertex 1.
        let (after, at) = edge_at(&sc, a, V2::new(15.3, 10.0), 1.0).unwrap();
        assert_eq!(after.i, 1);
        assert!(at.dist(V2::new(15.0, 10.0)) < 1e-9);
        assert!(insert_vertex(&mut sc, after, at));
        assert_eq!(sc.terrain.areas[0].outline.0.len(), 5);
        delete_vertex(
            &mut sc,
            Vertex {
                piece: a,
                ring: 0,
                i: 2,
            },
        )
        .unwrap();
        delete_vertex(
            &mut sc,
            Vertex {
                piece: a,
                ring: 0,
                i: 0,
            },
        )
        .unwrap();
        // Three left: a polygon keeps three.
        assert!(
            delete_vertex(
                &mut sc,
                Vertex {
                    piece: a,
                    ring: 0,
                    i: 0
                }
            )
            .is_err()
        );
        Piece::Area(0).translate(&mut sc, V2::new(1.0, 2.0));
        assert_eq!(sc.terrain.areas[0].outline.0[0], V2::new(16.0, 7.0));
    }

    #[test]
    fn objectives_are_picked_before_the_wood_under_them() {
        let mut sc = blank();
        sc.terrain.areas.push(Area {
            kind: AreaKind::Woods,
            name: String::new(),
            outline: rect_polygon(V2::new(10.0, 10.0), 20.0, 20.0, 0.0),
        });
        sc.objectives.push(Objective {
            name: "O".into(),
            side: "A".into(),
            level: ObjectiveLevel::Major,
            pos: V2::new(12.0, 12.0),
            radius: 5.0,
        });
        let fp = Footprints::default();
        assert_eq!(
            piece_at(&sc, &[], &fp, V2::new(13.0, 12.0), 0.5),
            Some(Piece::Objective(0))
        );
        assert_eq!(piece_at(&sc, &[], &fp, V2::new(3.0, 3.0), 0.5), Some(Piece::Area(0)));
        assert_eq!(piece_at(&sc, &[], &fp, V2::new(30.0, 3.0), 0.5), None);
        remove(&mut sc, Piece::Objective(0)).unwrap();
        assert!(sc.objectives.is_empty());
    }
}
