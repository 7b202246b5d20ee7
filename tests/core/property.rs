//! Property test: random-agent games from random seeds finish without a panic, and the
//! invariants hold after every action.

use super::common::*;
use std::collections::BTreeMap;
use volley::agents;
use volley::battle::state::Phase;
use volley::battle::{Action, Battle};
use volley::sim;

/// Checks after each action.
struct Invariants {
    last_phase: (u32, Phase),
    alive: BTreeMap<u32, bool>,
}

impl Invariants {
    fn new(b: &Battle) -> Self {
        Invariants {
            last_phase: (b.player_turn, b.phase),
            alive: b.units.iter().map(|u| (u.id, u.alive())).collect(),
        }
    }

    fn check(&mut self, b: &Battle, a: &Action) {
        // No overlapping bases of different units.
        let alive: Vec<_> = b.alive_units().map(|u| u.id).collect();
        for (i, &x) in alive.iter().enumerate() {
            for &y in &alive[i + 1..] {
                let overlap = b.rects(x).iter().any(|r| b.rects(y).iter().any(|s| r.overlaps(s)));
                assert!(
                    !overlap,
                    "{} overlaps {} after {a:?} (seed {})",
                    b.unit(x).name,
                    b.unit(y).name,
                    b.dice.seed()
                );
            }
        }
        // Stands never exceed the start, hits never exceed what the unit can take.
        for u in b.alive_units() {
            assert!(
                u.stands >= 1 && u.stands <= u.start_stands,
                "{} has {} stands",
                u.name,
                u.stands
            );
            // (Hits taken before it was disordered count at its full value: a charge's winner
            // waiting to consolidate may hold more than its disordered value.)
            assert!(
                u.stands_lost(&b.rules, b.player_turn) < u.stands,
                "{} alive with {} hits",
                u.name,
                u.hits
            );
        }
        // A knocked-out unit stays out.
        for u in &b.units {
            if !u.alive() {
                self.alive.insert(u.id, false);
            }
            assert!(u.alive() || !self.alive[&u.id] || !u.alive(), "revived");
            if !self.alive[&u.id] {
                assert!(!u.alive(), "{} came back", u.name);
            }
        }
        // The phase order: within a player turn the phase never goes backwards; turns only grow.
        let rank = |p: Phase| match p {
            Phase::Deployment => 0,
            Phase::Initiative => 1,
            Phase::Command => 2,
            Phase::Charge => 3,
            Phase::End => 4,
            Phase::GameOver => 5,
        };
        let now = (b.player_turn, b.phase);
        assert!(now.0 >= self.last_phase.0, "player turn went back");
        if now.0 == self.last_phase.0 {
            assert!(
                rank(now.1) >= rank(self.last_phase.1),
                "phase went back: {:?} → {:?}",
                self.last_phase,
                now
            );
        }
        self.last_phase = now;
        // Commanders on the table.
        for c in b.commanders.iter().filter(|c| c.alive()) {
            assert!(b.on_table(c.pos), "{} off the table", c.name);
        }
    }
}

/// Seeds drawn from a fixed generator: "random seeds" that are the same every run.
fn seeds(n: usize) -> Vec<u64> {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

fn play_checked(b: Battle, seed: u64, agent: &str) -> Battle {
    let mut inv = Invariants::new(&b);
    let mut a = [
        agents::by_name(agent, seed, 0).unwrap(),
        agents::by_name(agent, seed, 1).unwrap(),
    ];
    let done =
        sim::play(b, &mut a, 200_000, |b, act, _| inv.check(b, act)).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    assert!(done.is_over(), "seed {seed}");
    assert!(done.outcome.is_some());
    done
}

#[test]
fn eager_random_games_at_close_quarters_finish_with_every_invariant_holding() {
    // Lines 12–18 cm apart: initiative fire, charges, fall-backs and knock-outs from turn 1.
    let n: usize = std::env::var("VOLLEY_PROPERTY_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut knocked_out = 0;
    for seed in seeds(n) {
        let mut b = close_quarters();
        b.set_dice(volley::rules::dice::Dice::new(seed));
        let done = play_checked(b, seed, "eager");
        knocked_out += done.units.iter().filter(|u| u.knocked_out).count();
    }
    assert!(
        knocked_out > n,
        "the games should be bloody: {knocked_out} knock-outs in {n} games"
    );
}

#[test]
fn eager_random_games_of_the_skirmish_finish_with_every_invariant_holding() {
    let n: usize = std::env::var("VOLLEY_PROPERTY_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
        / 4;
    for seed in seeds(n.max(1)) {
        play_checked(skirmish(seed), seed, "eager");
    }
}

#[test]
fn random_games_finish_with_every_invariant_holding() {
    let n: usize = std::env::var("VOLLEY_PROPERTY_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    for seed in seeds(n) {
        let b = skirmish(seed);
        let mut inv = Invariants::new(&b);
        let mut a = [
            agents::by_name("random", seed, 0).unwrap(),
            agents::by_name("random", seed, 1).unwrap(),
        ];
        let done =
            sim::play(b, &mut a, 200_000, |b, act, _| inv.check(b, act)).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(done.is_over(), "seed {seed}");
        assert!(done.outcome.is_some());
    }
}
