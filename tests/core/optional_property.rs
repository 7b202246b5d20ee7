//! Issue 64: optional rules in combination, as a property. Random games under random sets of
//! switches on the bundled scenarios: a set the rules cannot play together (a switch that
//! would be recorded and do nothing, `Switches::clash`) is refused naming both switches and
//! nothing starts; every other set plays to the end without a panic, its recording names
//! every switch, and the recording re-plays to the same final state.

use super::common::{Gen, agent_game};
use volley::rules::switches::{Switch, Switches};

/// The games to play: `VOLLEY_PROPERTY_GAMES` (200 by default) divided by 8.
fn games() -> usize {
    let n: usize = std::env::var("VOLLEY_PROPERTY_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    (n / 8).max(4)
}

const MAPS: [&str; 6] = [
    "first_battle.ron",
    "skirmish.ron",
    "river_crossing.ron",
    "peninsula.ron",
    "initiative_demo.ron",
    "delay_demo.ron",
];

#[test]
fn random_games_under_random_switch_sets_refuse_clashes_and_otherwise_play_out_and_replay() {
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    let (mut played, mut refused) = (0, 0);
    for _ in 0..games() {
        let bits = g.next();
        let set: Switches = Switch::ALL
            .into_iter()
            .enumerate()
            .filter(|(i, _)| bits >> i & 1 == 1)
            .map(|(_, s)| s)
            .collect();
        let map = MAPS[(g.next() % MAPS.len() as u64) as usize];
        let seed = g.next() % 10_000;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps").join(map);
        // The scenario's own switches count too (the initiative demo plays initiative passing).
        let (plain, _) = volley::load_battle(&path, seed).unwrap();
        let all = plain.rules.switches.union(&set);
        match volley::load_battle_with(&path, seed, &set) {
            Err(e) => {
                let (a, b) = all
                    .clash()
                    .unwrap_or_else(|| panic!("{map} with {}: refused without a clash: {e}", all.describe()));
                let text = e.to_string();
                assert!(
                    text.contains(a.key()) && text.contains(b.key()),
                    "the refusal names both switches: {text}"
                );
                refused += 1;
            }
            Ok((b, _)) => {
                assert!(
                    b.rules.switches.clash().is_none(),
                    "{map} with {}: a clash accepted",
                    b.rules.switches.describe()
                );
                // Plays to the end, records every switch, re-plays to the same state
                // (`agent_game` asserts each).
                let done = agent_game("eager", map, seed, &set, |_, _, _| {});
                assert!(set.iter().all(|s| done.rules.switches.on(s)));
                played += 1;
            }
        }
    }
    assert!(
        played > 0 && refused > 0,
        "both kinds met: {played} played, {refused} refused"
    );
}
