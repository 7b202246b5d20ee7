//! Replays: verify a recorded whole game of `maps/skirmish.ron` (goal: under 0.5 s), and the
//! viewer's jump to any game turn (goal: under 100 ms).

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use std::path::{Path, PathBuf};
use volley::agents;
use volley::replay::Recording;
use volley::replay::timeline::Timeline;
use volley::replay::verify::verify_file;
use volley::sim;

/// A whole scheduler-against-scheduler game, recorded to a file.
fn recorded_game() -> PathBuf {
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
    let (b, _) = volley::load_battle(&scenario, 3).unwrap();
    let mut rec = Recording::start(&b, &scenario.display().to_string(), 3, None);
    let mut a = [
        agents::by_name("scheduler", 3, 0).unwrap(),
        agents::by_name("scheduler", 3, 1).unwrap(),
    ];
    sim::play(b, &mut a, 200_000, |b, act, ev| rec.push(b, act, ev)).unwrap();
    let dir = std::env::temp_dir().join(format!("volley-bench-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.ron");
    rec.save(&path).unwrap();
    path
}

fn bench(c: &mut Criterion) {
    let path = recorded_game();
    let rec = Recording::load(&path).unwrap();
    eprintln!("recorded game: {} actions", rec.actions.len());
    let mut g = c.benchmark_group("replay");
    g.sample_size(20);
    g.bench_function("verify_whole_skirmish_game", |b| {
        b.iter(|| verify_file(black_box(&path)).unwrap())
    });
    let tl = Timeline::build(rec, &path).unwrap();
    let turns: Vec<u32> = tl.turns().iter().map(|m| m.game_turn).collect();
    let last = *turns.last().unwrap();
    g.bench_function("jump_to_the_last_game_turn", |b| {
        b.iter(|| tl.state_at(tl.turn_start(black_box(last)).unwrap()))
    });
    g.bench_function("jump_to_every_game_turn", |b| {
        b.iter(|| {
            for t in 1..=last {
                black_box(tl.state_at(tl.turn_start(t).unwrap()));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
