//! All-pairs line of sight among 120 units (600 stands) on a terrain-rich 240 × 180 table:
//! one pair at a time, with prepared ends, and as the threaded visibility matrix. Then the
//! visibility matrix of the large bundled scenario (`maps/gettysburg.ron`, 150 stands a side)
//! in its initial state, as the game builds it.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use std::f64::consts::FRAC_PI_2;
use volley::rules::formation::Formation;
use volley::rules::geometry::{Pose, Rect, V2};
use volley::rules::layout::{StandShape, front_edge, stand_rects};
use volley::rules::los::{Blocker, LosParams, LosWorld, Sighting};
use volley::rules::terrain::{Area, AreaKind, Contour, Hill, Linear, LinearKind, Terrain};

mod common;
use common::{Lcg, blob};

fn terrain(rng: &mut Lcg) -> Terrain {
    let kinds = [
        AreaKind::Woods,
        AreaKind::Field,
        AreaKind::Marsh,
        AreaKind::Scrub,
        AreaKind::Orchard,
        AreaKind::Field,
    ];
    let areas = (0..12)
        .map(|i| {
            let c = V2::new(rng.range(10.0, 230.0), rng.range(10.0, 170.0));
            let r = rng.range(6.0, 15.0);
            Area {
                kind: kinds[i % kinds.len()],
                name: format!("area{i}"),
                outline: blob(rng, c, r, 10),
            }
        })
        .collect();
    let hills = (0..4)
        .map(|i| {
            let c = V2::new(rng.range(30.0, 210.0), rng.range(30.0, 150.0));
            let r = rng.range(15.0, 25.0);
            let levels = 2 + i % 2;
            let contours = (0..levels)
                .map(|k| Contour {
                    height: k as u32 + 1,
                    outline: blob(rng, c, r * (1.0 - 0.3 * k as f64), 12),
                })
                .collect();
            Hill {
                name: format!("hill{i}"),
                contours,
                mountain: false,
            }
        })
        .collect();
    let mut linears: Vec<Linear> = common::obstacles(rng);
    linears.push(Linear {
        kind: LinearKind::River,
        name: "river".into(),
        points: (0..=12)
            .map(|i| V2::new(i as f64 * 20.0, 90.0 + rng.range(-8.0, 8.0)))
            .collect(),
        width: 3.0,
    });
    for x in [60.0, 170.0] {
        linears.push(Linear {
            kind: LinearKind::Road,
            name: String::new(),
            points: (0..=9)
                .map(|i| V2::new(x + rng.range(-5.0, 5.0), i as f64 * 20.0))
                .collect(),
            width: 2.0,
        });
    }
    Terrain {
        areas,
        linears,
        hills,
        buildings: Vec::new(),
    }
}

struct Unit {
    id: u32,
    stands: Vec<Rect>,
    front: (V2, V2),
    facing: f64,
}

fn units() -> Vec<Unit> {
    let shape = StandShape { width: 2.5, depth: 1.5 };
    let mut out = Vec::new();
    for side in 0..2 {
        for row in 0..6 {
            for col in 0..10 {
                let x = 12.0 + col as f64 * 24.0;
                let (y, facing) = if side == 0 {
                    (20.0 + row as f64 * 10.0, FRAC_PI_2)
                } else {
                    (160.0 - row as f64 * 10.0, -FRAC_PI_2)
                };
                let pose = Pose::new(V2::new(x, y), facing);
                out.push(Unit {
                    id: out.len() as u32,
                    stands: stand_rects(pose, Formation::Line, 5, shape, 1.0),
                    front: front_edge(pose, Formation::Line, 5, shape, 1.0),
                    facing,
                });
            }
        }
    }
    out
}

fn sighting(u: &Unit) -> Sighting<'_> {
    Sighting {
        id: u.id,
        stands: &u.stands,
        front: u.front,
        facing: u.facing,
        all_round: false,
        hard_to_see: false,
        dug_in: false,
    }
}

fn bench(c: &mut Criterion) {
    let mut rng = Lcg(0x5eed_1805);
    let t = terrain(&mut rng);
    let us = units();
    let mut world = LosWorld::new(&t, 240.0, 180.0, LosParams::default());
    world.set_blockers(
        us.iter()
            .flat_map(|u| u.stands.iter().map(move |&rect| Blocker { id: u.id, rect }))
            .collect(),
    );
    let sightings: Vec<Sighting> = us.iter().map(sighting).collect();
    c.bench_function("los_all_pairs_600_stands", |b| {
        b.iter(|| {
            let mut seen = 0u32;
            for (i, o) in sightings.iter().enumerate() {
                for (j, t) in sightings.iter().enumerate() {
                    if i != j && world.sees(black_box(o), black_box(t)).is_ok() {
                        seen += 1;
                    }
                }
            }
            black_box(seen)
        })
    });
    // The same all-pairs answer with each unit's own facts prepared once.
    c.bench_function("los_all_pairs_600_stands_prepared", |b| {
        b.iter(|| {
            let prepared: Vec<_> = sightings.iter().map(|s| world.prepare(s)).collect();
            let mut seen = 0u32;
            for (i, o) in prepared.iter().enumerate() {
                for (j, t) in prepared.iter().enumerate() {
                    if i != j && world.sees_prepared(black_box(o), black_box(t)).is_ok() {
                        seen += 1;
                    }
                }
            }
            black_box(seen)
        })
    });
    // The visibility matrix the game asks for: prepared ends, rows shared over the cores.
    c.bench_function("los_matrix_600_stands", |b| {
        b.iter(|| black_box(world.visibility_matrix(black_box(&sightings))))
    });
}

fn bench_gettysburg(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/gettysburg.ron");
    let (b, _) = volley::load_battle(&path, 1).expect("the large scenario loads");
    let ids: Vec<u32> = (0..b.units.len() as u32).filter(|&i| b.unit(i).alive()).collect();
    let sightings: Vec<Sighting> = ids.iter().map(|&i| b.sighting(i)).collect();
    c.bench_function("los_matrix_gettysburg_initial", |bn| {
        bn.iter(|| black_box(b.los.visibility_matrix(black_box(&sightings))))
    });
    c.bench_function("los_all_pairs_gettysburg_initial_one_thread", |bn| {
        bn.iter(|| {
            let mut seen = 0u32;
            for (i, o) in sightings.iter().enumerate() {
                for (j, t) in sightings.iter().enumerate() {
                    if i != j && b.los.sees(black_box(o), black_box(t)).is_ok() {
                        seen += 1;
                    }
                }
            }
            black_box(seen)
        })
    });
}

criterion_group!(benches, bench, bench_gettysburg);
criterion_main!(benches);
