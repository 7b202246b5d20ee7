//! The window's per-frame CPU time with 600 stands on the table (300 a side, the generated
//! battle of `common::big_battle`), without a GPU:
//! - `frame_idle`: one `App::update` of the game's own systems (bindings, session, agents'
//!   turn, undo, overlays, animation queue, settings, the battle's ECS mirror) on a frame where
//!   nothing changes, the common case;
//! - `troop_shapes`: the work of the frame after an action, when the stands' and commanders'
//!   shapes are rebuilt (lyon's tessellation and the GPU upload are not ours and not counted);
//! - `move_envelope`: the frame after a unit with an order is selected (72 rays).
//!   Goal (issue 7): an idle frame under 2 ms, so 60 fps has room on any GPU.

use bevy::prelude::*;
use criterion::{Criterion, criterion_group, criterion_main};
use volley::battle::Battle;

mod common;

/// The playing part of the window on `b`, both sides human, seated (no hand-over screen).
fn app(b: Battle) -> App {
    volley::ui::headless_play_app(b, "bench.ron".into(), 1, ["human", "human"], true).expect("agents")
}

fn bench(c: &mut Criterion) {
    let battle = common::big_battle();
    let mut g = c.benchmark_group("frame_600_stands");
    let mut a = app(battle.clone());
    g.bench_function("frame_idle", |b| b.iter(|| a.update()));
    g.bench_function("troop_shapes", |b| {
        b.iter(|| {
            let s = volley::ui::table::stands::stand_layers(&battle);
            let c = volley::ui::table::commanders::commander_layers(&battle);
            s.len() + c.len()
        })
    });
    // A regiment with an order in hand, as when the player selects it to drag a move.
    // After an action: the units' names placed clear of each other and the terrain's labels
    // (issue 16), rebuilt when the battle changes.
    let ids: Vec<u32> = battle.alive_units().map(|u| u.id).collect();
    g.bench_function("unit_names", |b| {
        b.iter(|| volley::ui::table::labels::name_spots(&battle, &ids).len())
    });
    // A piece under the pointer: its tooltip and the order a click would give (issue 16).
    let first = ids[0];
    let enemy = battle
        .alive_units()
        .find(|u| u.side != battle.unit(first).side)
        .map(|u| u.id)
        .expect("an enemy");
    let legal = battle.legal_actions();
    g.bench_function("hover_tooltip_and_order", |b| {
        b.iter(|| {
            let hover = volley::ui::Selection {
                unit: Some(enemy),
                commander: None,
            };
            let sel = volley::ui::Selection {
                unit: Some(first),
                commander: None,
            };
            let t = volley::ui::panels::tooltip::tooltip_lines(&battle, hover, Some(0));
            let o = volley::ui::table::orders::order_at(&battle, &sel, &hover, &legal);
            t.len() + o.lines.len()
        })
    });
    let mut ordered = battle.clone();
    while ordered.phase != volley::battle::Phase::Command {
        ordered.apply(&volley::battle::Action::EndPhase).unwrap();
    }
    let order = ordered
        .legal_actions()
        .into_iter()
        .find(|x| matches!(x, volley::battle::Action::Order { .. }))
        .expect("an order");
    ordered.set_dice(volley::rules::dice::Dice::scripted(vec![1, 1]));
    ordered.apply(&order).expect("a roll of 2 passes");
    let unit = *ordered.cmd.orders.keys().next().expect("an ordered unit");
    g.bench_function("move_envelope", |b| {
        b.iter(|| volley::battle::envelope::move_envelope(&ordered, unit, 72, 0.5))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
