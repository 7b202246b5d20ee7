//! 1,000 round shots (with their impact strips) and 1,000 canister blast-through corridors on a
//! crowded, terrain-rich 240 × 180 table: 120 units of 5 stands (600 stands).

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use std::f64::consts::FRAC_PI_2;
use volley::rules::artillery::{
    ArtilleryParams, TerrainGround, canister_corridor, round_shot, strip_hits, units_in_corridor,
};
use volley::rules::dice::Dice;
use volley::rules::geometry::{Rect, V2};
use volley::rules::terrain::{Area, AreaKind, Building, Contour, Hill, Linear, LinearKind, Polygon, Terrain};

mod common;
use common::{Lcg, blob};

fn terrain(rng: &mut Lcg) -> Terrain {
    let kinds = [AreaKind::Woods, AreaKind::Field, AreaKind::Marsh, AreaKind::Orchard];
    let areas = (0..12)
        .map(|i| {
            let c = V2::new(rng.range(10.0, 230.0), rng.range(50.0, 130.0));
            let r = rng.range(5.0, 12.0);
            Area {
                kind: kinds[i % kinds.len()],
                name: format!("area{i}"),
                outline: blob(rng, c, r, 10),
            }
        })
        .collect();
    let hills = (0..4)
        .map(|i| {
            let c = V2::new(rng.range(30.0, 210.0), rng.range(60.0, 120.0));
            let r = rng.range(12.0, 20.0);
            Hill {
                name: format!("hill{i}"),
                contours: (0..2)
                    .map(|k| Contour {
                        height: k + 1,
                        outline: blob(rng, c, r * (1.0 - 0.35 * f64::from(k)), 12),
                    })
                    .collect(),
                mountain: false,
            }
        })
        .collect();
    let mut linears: Vec<Linear> = common::obstacles(rng);
    linears.push(Linear {
        kind: LinearKind::Road,
        name: String::new(),
        points: (0..=9)
            .map(|i| V2::new(120.0 + rng.range(-5.0, 5.0), f64::from(i) * 20.0))
            .collect(),
        width: 2.0,
    });
    let buildings = (0..6)
        .map(|i| {
            let c = V2::new(rng.range(20.0, 220.0), rng.range(60.0, 120.0));
            Building {
                name: format!("house{i}"),
                outline: Polygon(vec![
                    c + V2::new(-2.0, -1.5),
                    c + V2::new(2.0, -1.5),
                    c + V2::new(2.0, 1.5),
                    c + V2::new(-2.0, 1.5),
                ]),
                material: Default::default(),
            }
        })
        .collect();
    Terrain {
        areas,
        linears,
        hills,
        buildings,
    }
}

/// 120 units of 5 infantry stands in line, 60 a side, facing each other across the table.
fn units() -> Vec<Vec<Rect>> {
    let mut out = Vec::new();
    for side in 0..2 {
        for row in 0..6 {
            for col in 0..10 {
                let x = 12.0 + f64::from(col) * 24.0;
                let (y, facing) = if side == 0 {
                    (20.0 + f64::from(row) * 10.0, FRAC_PI_2)
                } else {
                    (160.0 - f64::from(row) * 10.0, -FRAC_PI_2)
                };
                out.push(
                    (0..5)
                        .map(|k| Rect::new(V2::new(x + (f64::from(k) - 2.0) * 2.5, y), facing, 2.5, 1.5))
                        .collect(),
                );
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut rng = Lcg(0x5eed_1863);
    let t = terrain(&mut rng);
    let us = units();
    let stands: Vec<Rect> = us.iter().flatten().copied().collect();
    let refs: Vec<&[Rect]> = us.iter().map(|u| u.as_slice()).collect();
    let p = ArtilleryParams::default();
    let ground = TerrainGround {
        terrain: &t,
        width: 240.0,
        height: 180.0,
        wet: false,
    };
    // Guns just in front of the south side's front rank, aiming at north-side stands, and the
    // canister lines from each gun to a nearby point.
    let shots: Vec<(V2, V2)> = (0..1000)
        .map(|_| {
            let gun = V2::new(rng.range(5.0, 235.0), rng.range(70.0, 80.0));
            let target = stands[300 + (rng.next() * 300.0) as usize].center;
            (gun, target)
        })
        .collect();
    c.bench_function("artillery_1000_shots_crowded", |b| {
        b.iter(|| {
            let mut dice = Dice::new(1863);
            let mut dice_total = 0u32;
            for &(gun, aim) in &shots {
                let tr = round_shot(gun, aim, 3, p.accuracy_regular, &p, &ground, &mut dice);
                for (i, imp) in tr.impacts.iter().enumerate() {
                    let hits = strip_hits(
                        imp,
                        tr.from_of(i),
                        p.penetration_default,
                        black_box(&stands),
                        p.strip_width,
                    );
                    dice_total += hits.iter().map(|h| h.1).sum::<u32>();
                }
            }
            let mut crossed = 0usize;
            for &(gun, aim) in &shots {
                let through = gun + (aim - gun).norm() * 8.0;
                let cor = canister_corridor(gun, through, p.canister_range, &p);
                crossed += units_in_corridor(&cor, gun, black_box(&refs)).len();
            }
            black_box((dice_total, crossed))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
