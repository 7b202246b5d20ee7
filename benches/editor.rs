//! Issue 20: what one edit costs in the scenario editor on the largest bundled scenario
//! (Gettysburg, 83 units, 300 stands): the document's battle built again for the table
//! (`editor::preview`, once a frame while a piece is dragged), the validator's problems found
//! again (`editor::problems`, after each edit; with a fault, each further one is found by
//! checking again), and the document written as RON (`write_scenario`, which both use).

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;
use volley::editor::Doc;
use volley::rules::geometry::V2;

fn gettysburg() -> Doc {
    Doc::open(&Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/gettysburg.ron")).expect("it opens")
}

fn one_edit(c: &mut Criterion) {
    let mut g = c.benchmark_group("editor");
    g.sample_size(20);
    let doc = gettysburg();
    g.bench_function("gettysburg_preview", |b| {
        b.iter(|| volley::editor::preview::preview(&doc, 1).expect("it builds"))
    });
    g.bench_function("gettysburg_problems_none", |b| {
        b.iter(|| {
            let p = volley::editor::problems::problems(&doc, 12);
            assert!(p.is_empty());
            p
        })
    });
    // Three units dropped on three others: three problems, found one after another.
    let mut faulty = doc.clone();
    faulty
        .edit(|sc| {
            // Units 0, 2 and 4 onto 1, 3 and 5 (which stay put).
            for k in [0, 2, 4] {
                let at = sc.sides[0].units[k + 1].pos;
                sc.sides[0].units[k].pos = at + V2::new(0.5, 0.0);
            }
        })
        .unwrap();
    g.bench_function("gettysburg_problems_three", |b| {
        b.iter(|| {
            let p = volley::editor::problems::problems(&faulty, 12);
            assert!(p.len() >= 3, "{p:?}");
            p
        })
    });
    g.bench_function("gettysburg_write", |b| {
        b.iter(|| volley::editor::write::write_scenario(&doc.scenario, doc.original.as_deref()))
    });
    g.finish();
}

criterion_group!(benches, one_edit);
criterion_main!(benches);
