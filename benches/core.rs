//! Issue 18's yardstick for search: the core's cost per action, a legal-action listing and the
//! `step` that applies one of them, on the largest bundled scenario (Gettysburg) and on the
//! skirmish. The actions are a `random` game's, recorded once before timing, so the agent's
//! choice is not timed; criterion reports the time for the whole sequence and, through its
//! throughput, the actions a second (per action = 1 / that).

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::path::Path;
use volley::agents;
use volley::battle::{Action, Battle};

fn load(map: &str) -> Battle {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps").join(map);
    volley::load_battle(&path, 1).expect("the scenario loads").0
}

/// The first `n` actions of a `random` game of `start` (seed 1).
fn random_actions(start: &Battle, n: usize) -> Vec<Action> {
    let mut a = [
        agents::by_name("random", 1, 0).unwrap(),
        agents::by_name("random", 1, 1).unwrap(),
    ];
    let mut b = start.clone();
    let mut out = Vec::new();
    while out.len() < n && !b.is_over() {
        let legal = b.legal_actions();
        let act = legal[a[b.actor()].choose(&b, &legal)].clone();
        b.step(&act).expect("a legal action applies");
        out.push(act);
    }
    out
}

fn per_action(c: &mut Criterion) {
    let mut g = c.benchmark_group("core");
    g.sample_size(10);
    for (map, n) in [("gettysburg.ron", 300), ("skirmish.ron", 300)] {
        let start = load(map);
        let actions = random_actions(&start, n);
        g.throughput(Throughput::Elements(actions.len() as u64));
        let name = format!(
            "legal_and_step_{}_{}_actions",
            map.trim_end_matches(".ron"),
            actions.len()
        );
        g.bench_function(name, |bench| {
            bench.iter_batched(
                || start.clone(),
                |mut b| {
                    let mut listed = 0;
                    for a in &actions {
                        listed += b.legal_actions().len();
                        b.step(a).expect("replays");
                    }
                    (b, listed)
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, per_action);
criterion_main!(benches);
