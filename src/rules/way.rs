//! The way a unit could go: straight, or across a river by a bridge or ford. A river is
//! impassable except where a road crosses it (BPT "Wet Terrain"; [`Terrain::impassable_for`]),
//! so a unit whose goal lies across one has to go round by the crossing. Pure geometry over
//! the terrain; the scheduler measures its goals by it and the move listing offers its legs.

use super::geometry::{V2, segment_intersection_t};
use super::terrain::{Linear, LinearKind, Terrain};

/// Where a road crosses a river: a bridge or ford, or a pontoon bridge once built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RiverCrossing {
    /// The point where the road's line crosses the river's.
    pub at: V2,
    /// The unit vector along the road there (either way across).
    pub across: V2,
    /// The river's width.
    pub width: f64,
}

impl RiverCrossing {
    /// How far `b` is from `a` going by this crossing: `a` → crossing → `b`.
    pub fn way_length(&self, a: V2, b: V2) -> f64 {
        a.dist(self.at) + self.at.dist(b)
    }

    /// The point `off` beyond the river's bank on the side of `from`, on the road's line.
    pub fn bank(&self, from: V2, off: f64) -> V2 {
        let s = if (from - self.at).dot(self.across) >= 0.0 {
            1.0
        } else {
            -1.0
        };
        self.at + self.across * (s * (self.width * 0.5 + off))
    }
}

impl Terrain {
    /// Where the roads cross `river`, stretch by stretch: the point and the road's direction
    /// there (a road's bend on the river gives one for each stretch). No allocation: the
    /// impassability test asks it on every move ([`Terrain::impassable_for`]).
    pub(crate) fn roads_across<'a>(&'a self, river: &'a Linear) -> impl Iterator<Item = (V2, V2)> + 'a {
        self.linears
            .iter()
            .filter(|l| l.kind == LinearKind::Road)
            .flat_map(move |road| {
                road.points.windows(2).flat_map(move |w| {
                    river.points.windows(2).filter_map(move |v| {
                        segment_intersection_t(w[0], w[1], v[0], v[1]).map(|t| (w[0].lerp(w[1], t), w[1] - w[0]))
                    })
                })
            })
    }

    /// Every place a road crosses a river (one per place: a road's bend on the river counts once).
    pub fn river_crossings(&self) -> Vec<RiverCrossing> {
        let mut out: Vec<RiverCrossing> = Vec::new();
        for river in self.linears.iter().filter(|l| l.kind == LinearKind::River) {
            for (at, along) in self.roads_across(river) {
                if out.iter().any(|c| c.at.dist(at) < 1.0) {
                    continue;
                }
                out.push(RiverCrossing {
                    at,
                    across: along.norm(),
                    width: river.width,
                });
            }
        }
        out
    }

    /// The crossing a unit at `a` (on foot or not) goes by to reach `b` when a river bars the
    /// straight way, with what bars it ([`Terrain::impassable_for`]): the crossing that makes
    /// `a` → crossing → `b` shortest, each leg clear. None when the straight way is clear, or
    /// no crossing opens it.
    pub fn way_via(&self, a: V2, b: V2, foot: bool) -> Option<(String, RiverCrossing)> {
        let barred = self.impassable_for(a, b, foot)?;
        self.river_crossings()
            .into_iter()
            .filter(|c| self.impassable_for(a, c.at, foot).is_none() && self.impassable_for(c.at, b, foot).is_none())
            .min_by(|x, y| x.way_length(a, b).total_cmp(&y.way_length(a, b)))
            .map(|c| (barred, c))
    }

    /// How far `b` is from `a` by the way a unit could go: straight, or through the crossing of
    /// [`Terrain::way_via`]; straight when no crossing opens a barred way.
    pub fn way_length(&self, a: V2, b: V2, foot: bool) -> f64 {
        match self.way_via(a, b, foot) {
            Some((_, c)) => c.way_length(a, b),
            None => a.dist(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A river down x = 100 (6 cm wide), a road across it along y = 10: one bridge.
    fn bridged_river() -> Terrain {
        Terrain {
            linears: vec![
                Linear {
                    kind: LinearKind::River,
                    name: "Aa".into(),
                    points: vec![V2::new(100.0, -50.0), V2::new(100.0, 90.0)],
                    width: 6.0,
                },
                Linear {
                    kind: LinearKind::Road,
                    name: String::new(),
                    points: vec![V2::new(0.0, 10.0), V2::new(100.0, 10.0), V2::new(200.0, 10.0)],
                    width: 2.0,
                },
            ],
            ..Terrain::default()
        }
    }

    #[test]
    fn a_road_over_a_river_is_one_crossing_even_at_a_bend() {
        let t = bridged_river();
        // The road's bend lies on the river: both its stretches meet the river there.
        let c = t.river_crossings();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].at, V2::new(100.0, 10.0));
        assert_eq!(c[0].across, V2::new(1.0, 0.0));
        assert_eq!(c[0].width, 6.0);
        // The bank 2 cm beyond the water, on either side.
        assert_eq!(c[0].bank(V2::new(90.0, 30.0), 2.0), V2::new(95.0, 10.0));
        assert_eq!(c[0].bank(V2::new(130.0, 30.0), 2.0), V2::new(105.0, 10.0));
    }

    #[test]
    fn the_way_across_a_river_goes_by_its_bridge() {
        let t = bridged_river();
        // Across the river 20 cm from the bridge: there and back, 2 × √(5² + 20²).
        let (a, b) = (V2::new(95.0, 30.0), V2::new(105.0, 30.0));
        assert_eq!(
            t.way_via(a, b, true).map(|(what, c)| (what, c.at)),
            Some(("Aa".to_string(), V2::new(100.0, 10.0)))
        );
        assert!((t.way_length(a, b, true) - 2.0 * 425f64.sqrt()).abs() < 1e-9);
        // On one bank the way is straight.
        let same_bank = V2::new(90.0, 40.0);
        assert_eq!(t.way_via(a, same_bank, true), None);
        assert_eq!(t.way_length(a, same_bank, true), a.dist(same_bank));
        // With no bridge the river cannot be crossed: the straight distance stands.
        let mut no_bridge = t.clone();
        no_bridge.linears.retain(|l| l.kind != LinearKind::Road);
        assert!(no_bridge.river_crossings().is_empty());
        assert_eq!(no_bridge.way_via(a, b, true), None);
        assert_eq!(no_bridge.way_length(a, b, true), 10.0);
    }
}
