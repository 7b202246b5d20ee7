//! A whole `random`-agent game of `maps/skirmish.ron`, through the headless ECS app (the same
//! door as `volley simulate`), and the same game applied to the battle state directly.

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;
use volley::agents;
use volley::battle::Battle;
use volley::sim;

fn skirmish(seed: u64) -> Battle {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
    volley::load_battle(&path, seed).expect("skirmish loads").0
}

fn whole_game(c: &mut Criterion) {
    let start = skirmish(1);
    let mut g = c.benchmark_group("game");
    g.sample_size(20);
    g.bench_function("whole_random_game_skirmish_ecs", |b| {
        b.iter(|| {
            let mut a = [
                agents::by_name("random", 1, 0).unwrap(),
                agents::by_name("random", 1, 1).unwrap(),
            ];
            sim::play(start.clone(), &mut a, 200_000, |_, _, _| {}).expect("ends")
        })
    });
    g.bench_function("whole_eager_game_skirmish_ecs", |b| {
        b.iter(|| {
            let mut a = [
                agents::by_name("eager", 1, 0).unwrap(),
                agents::by_name("eager", 1, 1).unwrap(),
            ];
            sim::play(start.clone(), &mut a, 200_000, |_, _, _| {}).expect("ends")
        })
    });
    g.finish();
}

criterion_group!(benches, whole_game);
criterion_main!(benches);
