//! One scheduler player turn (its whole command phase, choices only) with 300 stands a side:
//! a generated 600 × 400 cm table with six brigades of ten 5-stand regiments a side.

use criterion::{Criterion, criterion_group, criterion_main};
use std::fmt::Write as _;
use volley::agents;
use volley::battle::state::Phase;
use volley::battle::{Action, Battle};

/// A scenario file with `brigades` brigades of ten 5-stand regiments per side.
fn big_scenario(brigades: usize) -> String {
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

fn battle() -> Battle {
    let dir = std::env::temp_dir().join(format!("volley-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.ron");
    std::fs::write(&path, big_scenario(6)).unwrap();
    let b = volley::load_battle(&path, 1).expect("the generated scenario loads").0;
    let stands: u32 = b.side_units(0).map(|u| u.stands).sum();
    assert_eq!(stands, 300);
    b
}

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
    let start = battle();
    let mut g = c.benchmark_group("scheduler");
    g.sample_size(10);
    g.bench_function("scheduler_command_phase_300_stands_a_side", |b| {
        b.iter(|| command_phase(&start))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
