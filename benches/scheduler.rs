//! One scheduler player turn (its whole command phase, choices only) with 300 stands a side:
//! a generated 600 × 400 cm table with six brigades of ten 5-stand regiments a side.

use criterion::{Criterion, criterion_group, criterion_main};
use volley::agents;
use volley::battle::state::Phase;
use volley::battle::{Action, Battle};

mod common;

/// Play the scheduler's command phase to its end (the choices, and applying them).
fn command_phase(start: &Battle) -> u32 {
    let mut b = start.clone();
    let mut agent = agents::by_name("scheduler", 1, 0).unwrap();
    let mut n = 0;
    while b.phase != Phase::Command {
        b.apply(&Action::EndPhase).unwrap();
    }
    while b.phase == Phase::Command && b.actor() == 0 {
        let legal = b.legal_actions();
        let i = agent.choose(&b, &legal);
        b.apply(&legal[i]).unwrap();
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let start = common::big_battle();
    let mut g = c.benchmark_group("scheduler");
    g.sample_size(10);
    g.bench_function("scheduler_command_phase_300_stands_a_side", |b| {
        b.iter(|| command_phase(&start))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
