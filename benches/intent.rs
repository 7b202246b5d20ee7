//! Issue 65's yardstick for intent orders: turning an intent into a unit's move on the
//! largest bundled scenario (Gettysburg, 300 stands). Every Confederate unit in the command
//! phase of turn 1, given its intent (to the Lutheran Seminary, its side's major objective;
//! into range of the nearest Union unit it knows of), with an order's action in hand;
//! criterion reports the time for all of them and, through its throughput, units a second
//! (per unit = 1 / that). The bar: under 5 ms a unit.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::path::Path;
use volley::battle::intent::{Intent, Keep};
use volley::battle::{Action, Battle, Phase};

fn gettysburg() -> Battle {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/gettysburg.ron");
    let mut b = volley::load_battle(&path, 1).expect("Gettysburg loads").0;
    while b.phase != Phase::Command {
        b.apply(&Action::EndPhase).expect("the phase ends");
    }
    b
}

fn intent_per_unit(c: &mut Criterion) {
    let b = gettysburg();
    let side = b.active;
    let units: Vec<u32> = b.side_units(side).filter(|u| u.alive()).map(|u| u.id).collect();
    let seminary = b.find_places(side, "Lutheran Seminary").pop().expect("the objective");
    let mut g = c.benchmark_group("intent");
    g.sample_size(10);
    g.throughput(Throughput::Elements(units.len() as u64));
    let to = Intent::To(seminary);
    g.bench_function(format!("to_an_objective_gettysburg_{}_units", units.len()), |bench| {
        bench.iter(|| {
            units
                .iter()
                .map(|&u| b.intent_move(u, &to, &Keep::alone()).expect("an intent").need_after)
                .sum::<f64>()
        })
    });
    let targets: Vec<(u32, u32)> = units
        .iter()
        .filter_map(|&u| b.nearest_known_enemy(u).map(|(e, _)| (u, e)))
        .collect();
    g.bench_function(format!("into_range_gettysburg_{}_units", targets.len()), |bench| {
        bench.iter(|| {
            targets
                .iter()
                .map(|&(u, e)| {
                    b.intent_move(u, &Intent::IntoRange(e), &Keep::alone())
                        .expect("an intent")
                        .need_after
                })
                .sum::<f64>()
        })
    });
    g.finish();
}

criterion_group!(benches, intent_per_unit);
criterion_main!(benches);
