//! Print a close-quarters game between two `eager` agents, with the battle log.
use volley::agents;
use volley::sim;
#[path = "../tests/core/common.rs"]
#[allow(dead_code)]
mod common;
fn main() {
    let seed: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let b = common::close_quarters();
    let mut a = [
        agents::by_name("eager", seed, 0).unwrap(),
        agents::by_name("eager", seed, 1).unwrap(),
    ];
    let done = sim::play(b, &mut a, 100_000, |b, act, ev| {
        println!("> {}", act.name());
        for e in ev {
            println!("    {}", b.describe(e));
        }
    })
    .unwrap();
    println!("{:?}", done.outcome);
}
