//! A whole `random`-agent game of `maps/skirmish.ron` as `volley simulate` plays it
//! (`Battle::step` alone), and the same game through the headless ECS app (one request a
//! frame: the pieces synced, sight and arcs derived, the phases walked).

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
    g.bench_function("whole_random_game_skirmish_simulate", |b| {
        b.iter(|| {
            let mut a = [
                agents::by_name("random", 1, 0).unwrap(),
                agents::by_name("random", 1, 1).unwrap(),
            ];
            sim::play(start.clone(), &mut a, 200_000, |_, _, _| {}).expect("ends")
        })
    });
    g.bench_function("whole_eager_game_skirmish_simulate", |b| {
        b.iter(|| {
            let mut a = [
                agents::by_name("eager", 1, 0).unwrap(),
                agents::by_name("eager", 1, 1).unwrap(),
            ];
            sim::play(start.clone(), &mut a, 200_000, |_, _, _| {}).expect("ends")
        })
    });
    g.bench_function("whole_random_game_skirmish_app", |b| {
        b.iter(|| {
            let mut a = [
                agents::by_name("random", 1, 0).unwrap(),
                agents::by_name("random", 1, 1).unwrap(),
            ];
            let mut app = volley::app::headless_app(start.clone());
            loop {
                let b = &app.world().resource::<volley::app::BattleState>().0;
                if b.is_over() {
                    break;
                }
                let legal = b.legal_actions();
                let action = legal[a[b.actor()].choose(b, &legal)].clone();
                app.world_mut().write_message(volley::app::ActionRequest(action));
                app.update();
            }
            app
        })
    });
    g.finish();
}

criterion_group!(benches, whole_game);
criterion_main!(benches);
