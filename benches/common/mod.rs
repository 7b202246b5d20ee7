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

/// Ten short walls, fences and hedges of three points each, scattered over the table.
pub fn obstacles(rng: &mut Lcg) -> Vec<volley::rules::terrain::Linear> {
    use volley::rules::terrain::{Linear, LinearKind};
    let kinds = [LinearKind::Wall, LinearKind::Fence, LinearKind::Hedge];
    (0..10)
        .map(|i| {
            let mut p = V2::new(rng.range(10.0, 230.0), rng.range(10.0, 170.0));
            let a = rng.range(0.0, TAU);
            let points = (0..3)
                .map(|_| {
                    let q = p;
                    p += V2::new(a.cos(), a.sin()) * rng.range(6.0, 12.0);
                    q
                })
                .collect();
            Linear {
                kind: kinds[i % 3],
                name: format!("obstacle{i}"),
                points,
                width: 0.5,
            }
        })
        .collect()
}
