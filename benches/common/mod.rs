//! Shared by the benches: a tiny deterministic generator and random blob polygons.
#![allow(dead_code)] // each bench uses a part of it

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

/// A scenario file with `brigades` brigades of ten 5-stand regiments per side.
pub fn big_scenario(brigades: usize) -> String {
    use std::fmt::Write as _;
    let mut s = String::from(
        "(title: \"Bench: 300 stands a side\", brief: \"generated\", table: (width: 600, height: 400), \
         weather: Normal, turn_limit: 8, first_side: 0, terrain: (areas: [], linears: [], hills: [], buildings: []), \
         objectives: [(name: \"Centre\", side: \"Union\", level: Major, pos: (x: 300, y: 200), radius: 10), \
         (name: \"Centre\", side: \"Confederate\", level: Major, pos: (x: 300, y: 200), radius: 10)], sides: [",
    );
    for (side, (name, army, y0, facing)) in [
        ("Union", "acw_union", 120.0, 90),
        ("Confederate", "acw_confederate", 280.0, 270),
    ]
    .into_iter()
    .enumerate()
    {
        let dy = if side == 0 { -1.0 } else { 1.0 };
        write!(s, "(name: \"{name}\", army: \"{army}\", commanders: [").unwrap();
        write!(
            s,
            "(id: \"co{side}\", name: \"CO {side}\", row: \"division_average\", pos: (x: 300, y: {}))",
            y0 + dy * 60.0
        )
        .unwrap();
        for b in 0..brigades {
            write!(
                s,
                ", (id: \"b{side}_{b}\", name: \"Brigade {side}-{b}\", row: \"brigade_average\", superior: Some(\"co{side}\"), pos: (x: {}, y: {}))",
                40.0 + b as f64 * 95.0,
                y0 + dy * 40.0
            )
            .unwrap();
        }
        s.push_str("], units: [");
        for b in 0..brigades {
            for r in 0..10 {
                let x = 20.0 + b as f64 * 95.0 + (r % 5) as f64 * 18.0;
                let y = y0 + dy * (r / 5) as f64 * 12.0;
                write!(
                    s,
                    "(id: \"u{side}_{b}_{r}\", name: \"Regiment {side}-{b}-{r}\", row: \"regular_infantry_rifled\", stands: 5, \
                     formation: Line, pos: (x: {x}, y: {y}), facing: {facing}, commander: \"b{side}_{b}\"),"
                )
                .unwrap();
            }
        }
        s.push_str("]),");
    }
    s.push_str("])");
    s
}

/// The generated battle with six brigades a side: 300 stands a side.
pub fn big_battle() -> volley::battle::Battle {
    let dir = std::env::temp_dir().join(format!("volley-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.ron");
    std::fs::write(&path, big_scenario(6)).unwrap();
    let b = volley::load_battle(&path, 1).expect("the generated scenario loads").0;
    let stands: u32 = b.side_units(0).map(|u| u.stands).sum();
    assert_eq!(stands, 300);
    b
}
