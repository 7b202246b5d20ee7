//! Shared by the benches: a tiny deterministic generator and random blob polygons.

use std::f64::consts::TAU;
use volley::rules::geometry::V2;
use volley::rules::terrain::Polygon;

/// A tiny deterministic LCG (no `rand`).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// An irregular `n`-gon of radius about `r` around `c`.
pub fn blob(rng: &mut Lcg, c: V2, r: f64, n: usize) -> Polygon {
    Polygon(
        (0..n)
            .map(|i| {
                let a = TAU * i as f64 / n as f64;
                c + V2::new(a.cos(), a.sin()) * (r * rng.range(0.75, 1.0))
            })
            .collect(),
    )
}
