//! DECISIONS "Determinism": same scenario + seed + actions = same state; seeds differ.

use super::common::*;
use volley::agents;
use volley::sim;

fn run(seed: u64) -> (u64, u64) {
    let b = skirmish(seed);
    let mut a = [
        agents::by_name("random", seed, 0).unwrap(),
        agents::by_name("random", seed, 1).unwrap(),
    ];
    let done = sim::play(b, &mut a, 200_000, |_, _, _| {}).expect("the game ends");
    (done.state_hash(), done.actions)
}

#[test]
fn the_same_seed_gives_the_same_state_hash_and_two_seeds_differ() {
    let a = run(11);
    let b = run(11);
    assert_eq!(a, b);
    let c = run(12);
    assert_ne!(a.0, c.0);
}

#[test]
fn replaying_the_recorded_actions_directly_gives_the_same_hash() {
    let b = skirmish(5);
    let start = b.clone();
    let mut a = [
        agents::by_name("random", 5, 0).unwrap(),
        agents::by_name("random", 5, 1).unwrap(),
    ];
    let mut actions = Vec::new();
    let done = sim::play(b, &mut a, 200_000, |_, act, _| actions.push(act.clone())).unwrap();
    let mut again = start;
    for act in &actions {
        again.apply(act).expect("recorded actions stay legal");
    }
    assert_eq!(again.state_hash(), done.state_hash());
}
