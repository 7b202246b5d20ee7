//! The named places of the table an intent may aim at: the side's objectives, then the named
//! terrain (areas, hills, buildings, roads and other linear features), each with a point to
//! steer by and the shape that says when a unit is on it.

use crate::battle::state::{Battle, SideId};
use crate::rules::geometry::V2;
use crate::rules::terrain::polyline_project;

/// What a place is, with its index in the scenario's lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceKind {
    Objective(usize),
    Area(usize),
    Hill(usize),
    Building(usize),
    Linear(usize),
}

/// A named place on the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub name: String,
    pub kind: PlaceKind,
    /// The point it is steered by: an objective's own, a feature's middle.
    pub pos: V2,
}

impl PlaceKind {
    /// What kind of place it is, as a player says it.
    pub fn word(&self) -> &'static str {
        match self {
            PlaceKind::Objective(_) => "objective",
            PlaceKind::Area(_) => "terrain",
            PlaceKind::Hill(_) => "hill",
            PlaceKind::Building(_) => "building",
            PlaceKind::Linear(_) => "line",
        }
    }
    /// The word for standing there: "at Herr Tavern", "in Herbst Woods", "on Herr Ridge".
    pub fn there(&self) -> &'static str {
        match self {
            PlaceKind::Objective(_) | PlaceKind::Building(_) => "at",
            PlaceKind::Area(_) => "in",
            PlaceKind::Hill(_) | PlaceKind::Linear(_) => "on",
        }
    }
}

impl Battle {
    /// The places `side` may name: its own objectives first (one of each name), then the
    /// named terrain in the scenario's order (one of each name: a feature drawn in pieces
    /// is steered to by its first).
    pub fn places(&self, side: SideId) -> Vec<Place> {
        let mut v: Vec<Place> = Vec::new();
        let mut push = |name: &str, kind: PlaceKind, pos: V2| {
            if !name.trim().is_empty() && !v.iter().any(|p| p.name.eq_ignore_ascii_case(name)) {
                v.push(Place {
                    name: name.to_string(),
                    kind,
                    pos,
                });
            }
        };
        let side_name = &self.sides[side].name;
        for (i, o) in self.objectives.iter().enumerate().filter(|(_, o)| &o.side == side_name) {
            push(&o.name, PlaceKind::Objective(i), o.pos);
        }
        let t = &self.terrain;
        for (i, a) in t.areas.iter().enumerate() {
            push(&a.name, PlaceKind::Area(i), a.outline.centroid());
        }
        for (i, h) in t.hills.iter().enumerate() {
            // Steered to by its crest: the middle of its highest contour.
            if let Some(top) = h.contours.last() {
                push(&h.name, PlaceKind::Hill(i), top.outline.centroid());
            }
        }
        for (i, bld) in t.buildings.iter().enumerate() {
            push(&bld.name, PlaceKind::Building(i), bld.outline.centroid());
        }
        for (i, l) in t.linears.iter().enumerate() {
            let total = crate::rules::terrain::polyline_length(&l.points);
            if let Some(mid) = crate::rules::terrain::polyline_point_at(&l.points, total * 0.5) {
                push(&l.name, PlaceKind::Linear(i), mid);
            }
        }
        v
    }

    /// The places of `side` named by `typed` (a word of the name begins with it, or the name
    /// holds the words typed; case aside): the one named exactly, if any, else all that match.
    pub fn find_places(&self, side: SideId, typed: &str) -> Vec<Place> {
        let all = self.places(side);
        if let Some(p) = all.iter().find(|p| p.name.eq_ignore_ascii_case(typed.trim())) {
            return vec![p.clone()];
        }
        let found: Vec<Place> = all.into_iter().filter(|p| name_matches(&p.name, typed)).collect();
        // One objective among them is the one meant ("Seminary": the Lutheran Seminary, not
        // the ridge or the wall); else a name with the word whole.
        let objectives: Vec<&Place> = found
            .iter()
            .filter(|p| matches!(p.kind, PlaceKind::Objective(_)))
            .collect();
        if let [o] = objectives.as_slice() {
            return vec![(*o).clone()];
        }
        let t = typed.trim().to_lowercase();
        let whole: Vec<&Place> = found
            .iter()
            .filter(|p| {
                p.name
                    .to_lowercase()
                    .split(|c: char| !c.is_alphanumeric())
                    .any(|w| w == t)
            })
            .collect();
        if let [w] = whole.as_slice() {
            return vec![(*w).clone()];
        }
        found
    }

    /// The point of `place` a unit at `from` steers for: an objective's point; the nearest
    /// point of a road, wall or stream; the middle of an area, hill or building.
    pub fn place_point(&self, place: &Place, from: V2) -> V2 {
        match place.kind {
            PlaceKind::Linear(i) => self
                .terrain
                .linears
                .get(i)
                .and_then(|l| polyline_project(&l.points, from))
                .map_or(place.pos, |(_, q, _)| q),
            _ => place.pos,
        }
    }

    /// How far `p` is from being on `place` (0 on it): within an objective's radius; inside an
    /// area, building or the hill's lowest contour; within 2 cm of a linear feature.
    pub fn off_place(&self, place: &Place, p: V2) -> f64 {
        let t = &self.terrain;
        let inside = |poly: &crate::rules::terrain::Polygon, at: V2| {
            if poly.contains(p) { 0.0 } else { p.dist(at) }
        };
        match place.kind {
            PlaceKind::Objective(i) => {
                let r = self.objectives.get(i).map_or(0.0, |o| o.radius);
                (p.dist(place.pos) - r).max(0.0)
            }
            PlaceKind::Area(i) => t.areas.get(i).map_or(0.0, |a| inside(&a.outline, place.pos)),
            PlaceKind::Hill(i) => t.hills.get(i).and_then(|h| h.contours.first()).map_or(0.0, |c| {
                // On the hill is on its slopes; steered for its crest.
                if c.outline.contains(p) { 0.0 } else { p.dist(place.pos) }
            }),
            PlaceKind::Building(i) => t.buildings.get(i).map_or(0.0, |bd| inside(&bd.outline, place.pos)),
            PlaceKind::Linear(_) => (p.dist(self.place_point(place, p)) - 2.0).max(0.0),
        }
    }
}

/// Whether what was typed (after `l`, `why` or an intent) names `name`: a word of the name begins with it
/// ("l Hamp", "l 21st", "l Reed"), or, several words typed, the name holds them; case aside.
/// Not any name that merely contains its letters ("l h" is not every name with an h).
pub fn name_matches(name: &str, typed: &str) -> bool {
    let typed = typed.trim().to_lowercase();
    if typed.is_empty() {
        return false;
    }
    let name = name.to_lowercase();
    if typed.contains(char::is_whitespace) {
        return name.contains(&typed);
    }
    name.split(|c: char| !c.is_alphanumeric())
        .any(|w| w.starts_with(&typed))
}

/// Whether `typed` names commander `c`: a word of his name or of his formation's own name
/// ("iron" for the Iron Brigade), as [`name_matches`].
pub fn commander_named(c: &crate::battle::state::Commander, typed: &str) -> bool {
    name_matches(&c.name, typed) || c.formation.as_deref().is_some_and(|f| name_matches(f, typed))
}

impl Battle {
    /// The commanders of `side` that `typed` names ([`commander_named`]), in id order.
    pub fn commanders_named(&self, side: SideId, typed: &str) -> Vec<crate::battle::state::CmdId> {
        self.commanders
            .iter()
            .filter(|c| c.side == side && commander_named(c, typed))
            .map(|c| c.id)
            .collect()
    }

    /// The formation `typed` stands for: that of the one commander of `side` it names; none
    /// when it names several ("brig") or none.
    pub fn formation_named(&self, side: SideId, typed: &str) -> Option<crate::battle::state::CmdId> {
        match self.commanders_named(side, typed).as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }
}
