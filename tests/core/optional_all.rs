//! Every optional rule and variant at once (issue 8; those refused together apart, issue 64): the scheduler plays the default scenario
//! to the end with all the switches on, and the recordings replay to the same state.

use super::common::scheduler_game;
use volley::rules::switches::{Switch, Switches};

#[test]
fn the_scheduler_plays_skirmish_with_every_switch_on_and_the_games_replay() {
    assert!(Switch::ALL.iter().all(|s| s.implemented()), "every switch is played");
    // Issue 64: initiative passing is refused with the rules about orders, so "all" is every
    // switch but passing (seed 1), then every switch but those three (seed 2).
    let without = |off: &[Switch]| -> Switches { Switch::ALL.into_iter().filter(|s| !off.contains(s)).collect() };
    let games = [
        (1, without(&[Switch::InitiativePassing])),
        (
            2,
            without(&[Switch::OrderDelay, Switch::FixedFormations, Switch::MultiNational]),
        ),
    ];
    for (seed, on) in games {
        assert_eq!(on.clash(), None);
        let done = scheduler_game("skirmish.ron", seed, &on, |_, _, _| {});
        assert_eq!(done.rules.switches, on);
    }
}
