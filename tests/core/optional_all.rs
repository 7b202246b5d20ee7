//! Every optional rule and variant at once (issue 8): the scheduler plays the default scenario
//! to the end with all the switches on, and the recordings replay to the same state.

use super::common::scheduler_game;
use volley::rules::switches::{Switch, Switches};

#[test]
fn the_scheduler_plays_skirmish_with_every_switch_on_and_the_games_replay() {
    let all: Switches = Switch::ALL.into_iter().collect();
    assert!(Switch::ALL.iter().all(|s| s.implemented()), "every switch is played");
    for seed in [1, 2] {
        let done = scheduler_game("skirmish.ron", seed, &all, |_, _, _| {});
        assert_eq!(done.rules.switches, all);
    }
}
