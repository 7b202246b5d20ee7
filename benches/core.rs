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

/// Checking an action without taking it (`validate`, as the window checks a drag and the
/// orders panel each button): every listed action of the states of a `random` Gettysburg
/// game, validated one by one.
fn validate(c: &mut Criterion) {
    let mut g = c.benchmark_group("core");
    g.sample_size(10);
    let start = load("gettysburg.ron");
    let actions = random_actions(&start, 120);
    let mut b = start.clone();
    let mut states = Vec::new();
    for a in &actions {
        let legal = b.legal_actions();
        states.push((b.clone(), legal));
        b.step(a).expect("replays");
    }
    let n: usize = states.iter().map(|(_, l)| l.len()).sum();
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function(format!("validate_gettysburg_{n}_listed_actions"), |bench| {
        bench.iter(|| {
            let mut ok = 0;
            for (b, legal) in &states {
                ok += legal.iter().filter(|a| b.validate(a).is_ok()).count();
            }
            ok
        })
    });
    g.finish();
}

criterion_group!(benches, per_action, validate);
criterion_main!(benches);
