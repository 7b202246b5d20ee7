//! The scheduler's thinking.
//!
//! - One `scheduler-easy` player turn (the one-step judge: its whole command phase, choices
//!   only) with 300 stands a side: a generated 600 × 400 cm table with six brigades of ten
//!   5-stand regiments a side.
//! - One searched decision of the look-ahead (`scheduler`, `scheduler-hard`) on Gettysburg
//!   (issue 18's thinking budget: at most 1 s at `scheduler`): the first decision of a game
//!   (seed 1, the look-ahead on both sides) that it searches, and the first one searched
//!   after turn 3, when the lines are in contact.
//! - Making a plan on Gettysburg (issue 66): the Confederates' at the start, every candidate
//!   aim played out with the judge (`planner::Planner::choose`).

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;
use volley::agents::scheduler::lookahead::{self, Budget, Lookahead};
use volley::agents::{self, Agent};
use volley::battle::state::Phase;
use volley::battle::{Action, Battle};

mod common;

/// Play the one-step judge's command phase to its end (the choices, and applying them).
fn command_phase(start: &Battle) -> u32 {
    let mut b = start.clone();
    let mut agent = agents::by_name("scheduler-easy", 1, 0).unwrap();
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

/// A Gettysburg game (seed 1) played by the look-ahead on both sides, up to the first decision
/// from `game_turn` on that it searches: the battle then and the deciding agent before it chose.
fn searched_decision(budget: Budget, game_turn: u32) -> (Battle, Lookahead) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/gettysburg.ron");
    let mut b = volley::load_battle(&path, 1).expect("gettysburg loads").0;
    let mut players = [
        Lookahead::new(11, budget, "scheduler"),
        Lookahead::new(12, budget, "scheduler"),
    ];
    loop {
        assert!(!b.is_over(), "a searched decision comes before the end");
        let legal = b.legal_actions();
        let side = b.actor();
        let before = players[side].clone();
        let i = players[side].choose(&b, &legal);
        if players[side].last_search().is_some() && b.game_turn >= game_turn {
            return (b, before);
        }
        b.step(&legal[i]).unwrap();
    }
}

fn bench(c: &mut Criterion) {
    let start = common::big_battle();
    let mut g = c.benchmark_group("scheduler");
    g.sample_size(10);
    g.bench_function("scheduler_easy_command_phase_300_stands_a_side", |b| {
        b.iter(|| command_phase(&start))
    });
    for (name, budget) in [("scheduler", lookahead::NORMAL), ("scheduler_hard", lookahead::HARD)] {
        for turn in [1, 4] {
            let (battle, agent) = searched_decision(budget, turn);
            let legal = battle.legal_actions();
            g.bench_function(format!("{name}_searched_decision_gettysburg_from_turn_{turn}"), |b| {
                b.iter(|| agent.clone().choose(&battle, &legal))
            });
        }
    }
    let (gettysburg, _) =
        volley::load_battle(&Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/gettysburg.ron"), 1).unwrap();
    let side = gettysburg.first_side;
    let known = volley::agents::perception::known_enemies(&gettysburg, side);
    g.bench_function("scheduler_makes_a_plan_gettysburg_turn_1", |b| {
        b.iter(|| {
            volley::agents::scheduler::planner::Planner::new(1).choose(
                &gettysburg,
                side,
                &known,
                volley::agents::scheduler::Scheduler::play_plan,
            )
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
