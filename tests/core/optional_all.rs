//! Every optional rule and variant at once (issue 8): the scheduler plays the default scenario
//! to the end with all the switches on, and the recordings replay to the same state.

use std::path::Path;
use volley::replay::Recording;
use volley::replay::verify::verify;
use volley::rules::switches::{Switch, Switches};

#[test]
fn the_scheduler_plays_skirmish_with_every_switch_on_and_the_games_replay() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
    let all: Switches = Switch::ALL.into_iter().collect();
    assert!(Switch::ALL.iter().all(|s| s.implemented()), "every switch is played");
    for seed in [1, 2] {
        let (b, _) = volley::load_battle_with(&path, seed, &all).expect("skirmish with every switch");
        let mut rec = Recording::start(&b, &path.display().to_string(), seed, None);
        let mut a = [
            volley::agents::by_name("scheduler", seed, 0).unwrap(),
            volley::agents::by_name("scheduler", seed, 1).unwrap(),
        ];
        let done = volley::sim::play(b, &mut a, 200_000, |b, act, ev| rec.push(b, act, ev))
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(done.is_over(), "seed {seed}");
        let back = Recording::parse(&rec.to_ron(), &path).expect("parses");
        assert_eq!(back.switches, all);
        let (_, h) = verify(&back, &path).unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        assert_eq!(h, done.state_hash());
    }
}
