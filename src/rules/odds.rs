//! Exact probability maths for BPT dice, shown by the fire preview and `volley odds`.
//!
//! Everything here is pure and exact (up to `f64` rounding): no sampling. Distributions are
//! `Vec<f64>` indexed by outcome (number of hits, sum of dice, ...) and sum to 1.
//!
//! BPT "Testing For Casualties": roll the attack dice, one hit per die ≥ the to-hit score;
//! the target rolls a die per hit and saves one per die ≥ its save; then a die per hit taken:
//! any die ≥ the to-hit score suppresses, or, if already suppressed, the unit falls back the
//! sum of those dice in cm and is knocked out if that is more than 20 cm (10 cm dug-in or
//! unlimbered guns).

use std::fmt;

use serde::Serialize;

/// The fall-back distance (cm) beyond which a unit is knocked out (BPT "Fall-back").
pub const FALL_BACK_LIMIT_CM: u32 = 20;
/// The fall-back limit for dug-in troops and unlimbered guns.
pub const FALL_BACK_LIMIT_DUG_IN_CM: u32 = 10;

/// The chance that one d6 rolls `score` or more: 1 for `score <= 1`, 0 for `score >= 7`.
pub fn p_at_least(score: u32) -> f64 {
    match score {
        0 | 1 => 1.0,
        2..=6 => f64::from(7 - score) / 6.0,
        _ => 0.0,
    }
}

/// The binomial distribution: `P(k successes)` in `n` trials of chance `p`, for `k = 0..=n`.
///
/// # Panics
/// If `p` is not in `0..=1`.
pub fn binomial(n: u32, p: f64) -> Vec<f64> {
    assert!((0.0..=1.0).contains(&p), "binomial: probability {p} is not in 0..=1");
    let q = 1.0 - p;
    let n_i = n as i32;
    let mut choose = 1.0_f64; // C(n, k), built up exactly enough for any sane n.
    (0..=n)
        .map(|k| {
            if k > 0 {
                choose = choose * f64::from(n - k + 1) / f64::from(k);
            }
            let k_i = k as i32;
            choose * p.powi(k_i) * q.powi(n_i - k_i)
        })
        .collect()
}

/// The chance that one attack die becomes a hit that stays: hits on `to_hit`+, then is
/// saved on `save`+ (no save: never saved).
pub fn p_hit_unsaved(to_hit: u32, save: Option<u32>) -> f64 {
    p_at_least(to_hit) * (1.0 - save.map_or(0.0, p_at_least))
}

/// Hits after saves from `dice` attack dice hitting on `to_hit`+ against a target saving on
/// `save`+: index = hits. Each die hits and then is (not) saved independently, so this is
/// exactly `binomial(dice, p_hit_unsaved(to_hit, save))`.
pub fn hits_distribution(dice: u32, to_hit: u32, save: Option<u32>) -> Vec<f64> {
    binomial(dice, p_hit_unsaved(to_hit, save))
}

/// The mean of a distribution indexed by outcome: `Σ k·P(k)`.
pub fn mean(dist: &[f64]) -> f64 {
    dist.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
}

/// The chance the target becomes suppressed (BPT "Suppression"): a die per hit taken, any
/// die ≥ `to_hit` suppresses: `Σ_k P(k)·(1 − (1−p)^k)`. No hits, no suppression.
pub fn p_suppress(hits_dist: &[f64], to_hit: u32) -> f64 {
    let miss = 1.0 - p_at_least(to_hit);
    hits_dist
        .iter()
        .enumerate()
        .map(|(k, p)| p * (1.0 - miss.powi(k as i32)))
        .sum()
}

/// The exact distribution of the sum of `n` d6: index = sum (`0..=6n`; `sum_of_d6(0)` is
/// `[1.0]`, the empty sum 0).
pub fn sum_of_d6(n: u32) -> Vec<f64> {
    let mut dist = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; dist.len() + 6];
        for (s, p) in dist.iter().enumerate() {
            for face in 1..=6 {
                next[s + face] += p / 6.0;
            }
        }
        dist = next;
    }
    dist
}

/// The distribution of the fall-back distance (cm) of an already-suppressed unit: for `k`
/// hits taken it rolls `max(k + extra_dice, 0)` d6 and falls back their sum. Elite infantry
/// roll one die fewer (`extra_dice = -1`), poor infantry one more (`+1`). A unit that took
/// no hits makes no test (distance 0), whatever `extra_dice` is. Index = distance in cm.
pub fn fall_back_distribution(hits_dist: &[f64], extra_dice: i32) -> Vec<f64> {
    // No hits: no test, distance 0.
    let mut out = vec![hits_dist.first().copied().unwrap_or(0.0)];
    for (k, &p) in hits_dist.iter().enumerate().skip(1) {
        if p == 0.0 {
            continue;
        }
        let n = (k as i64 + i64::from(extra_dice)).max(0) as u32;
        let sums = sum_of_d6(n);
        if out.len() < sums.len() {
            out.resize(sums.len(), 0.0);
        }
        for (s, q) in sums.iter().enumerate() {
            out[s] += p * q;
        }
    }
    out
}

/// The chance an already-suppressed unit falls back more than `limit` cm in one roll and is
/// knocked out ([`FALL_BACK_LIMIT_CM`] normally, [`FALL_BACK_LIMIT_DUG_IN_CM`] dug in). See
/// [`fall_back_distribution`] for `extra_dice`; no hits, no test.
pub fn p_fall_back_beyond(hits_dist: &[f64], extra_dice: i32, limit: u32) -> f64 {
    fall_back_distribution(hits_dist, extra_dice)
        .iter()
        .skip(limit as usize + 1)
        .sum()
}

/// Of the 36 equally likely 2d6 rolls, how many sum to at most `k`.
fn count_2d6_at_most(k: i32) -> u32 {
    let mut n = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            if a + b <= k {
                n += 1;
            }
        }
    }
    n
}

/// The chance that 2d6 sum to at most `k` (a plain command roll, without the double-1 and
/// double-6 conventions; see [`command_roll_odds`]).
pub fn p_2d6_at_most(k: i32) -> f64 {
    f64::from(count_2d6_at_most(k)) / 36.0
}

/// The chance of a double 1 on 2d6: 1/36.
pub fn p_double_one() -> f64 {
    1.0 / 36.0
}

/// The chance of a double 6 on 2d6: 1/36.
pub fn p_double_six() -> f64 {
    1.0 / 36.0
}

/// The odds of one command roll (BPT "Command Phase").
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CommandOdds {
    /// The order is given (includes the double-1 bonus).
    pub success: f64,
    /// A double 1: the order is given and the unit may carry out two actions.
    pub bonus: f64,
    /// A double 6: a blunder, the order fails (and ends that commander's orders).
    pub blunder: f64,
}

impl CommandOdds {
    /// The order is not given (includes the blunder): `1 − success`.
    pub fn failure(&self) -> f64 {
        1.0 - self.success
    }
}

/// Of the 36 equally likely 2d6 rolls, how many give the order for a modified command value
/// `value` (the conventions of [`command_roll_odds`]).
pub fn command_successes_of_36(value: i32) -> u32 {
    let mut n = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            let success = match (a, b) {
                (1, 1) => true,
                (6, 6) => false,
                _ => a + b <= value,
            };
            if success {
                n += 1;
            }
        }
    }
    n
}

/// The odds of a command roll against the modified command value `value`: success on
/// 2d6 ≤ `value`, with two conventions (the game's reading of BPT "Command Bonus" and
/// "Command Blunder"):
/// - a **double 1 always succeeds** (and is the two-action bonus), even when `value < 2`;
/// - a **double 6 always fails** (it is a blunder), even when `value >= 12`.
///
/// So `success = command_successes_of_36(value) / 36`, between 1/36 and 35/36;
/// `bonus = blunder = 1/36` always.
pub fn command_roll_odds(value: i32) -> CommandOdds {
    CommandOdds {
        success: f64::from(command_successes_of_36(value)) / 36.0,
        bonus: p_double_one(),
        blunder: p_double_six(),
    }
}

/// The odds of one round of a charge between sides A and B, by the hits each deals.
/// The five outcomes are exclusive and sum to 1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ChargeOdds {
    /// A deals at least double B's hits and at least one (B is knocked out).
    pub a_double: f64,
    /// A deals more hits than B, but less than double (B suppressed, retreats).
    pub a_wins: f64,
    /// Equal hits, including none each: another round.
    pub draw: f64,
    /// B deals more hits than A, but less than double.
    pub b_wins: f64,
    /// B deals at least double A's hits and at least one.
    pub b_double: f64,
}

/// One round of a charge: A rolls `a_dice` hitting on `a_to_hit`+ against B's save
/// `a_save_of_b`; B rolls `b_dice` hitting on `b_to_hit`+ against A's save `b_save_of_a`.
/// Compares the hits each side deals (BPT: more hits wins; double or more knocks out).
pub fn charge_outcome(
    a_dice: u32,
    a_to_hit: u32,
    a_save_of_b: Option<u32>,
    b_dice: u32,
    b_to_hit: u32,
    b_save_of_a: Option<u32>,
) -> ChargeOdds {
    let fresh = |dice, to_hit, save| Fighter {
        dice,
        to_hit,
        save_of_enemy: save,
        had: 0,
        left: u32::MAX,
    };
    charge_round(
        fresh(a_dice, a_to_hit, a_save_of_b),
        fresh(b_dice, b_to_hit, b_save_of_a),
    )
}

/// One side of a charge's round: the dice it rolls, what it hits on, the enemy's save, the
/// hits it has already taken this turn, and how many more it can take before it is knocked
/// out (its hits value less `had`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fighter {
    pub dice: u32,
    pub to_hit: u32,
    pub save_of_enemy: Option<u32>,
    pub had: u32,
    pub left: u32,
}

/// One round of a charge between fighters A and B, as BPT "Outcome" judges it: each side's
/// hits taken this turn (those it `had` and those of the round) are compared; a side whose
/// hits reach its hits value is knocked out and loses by double; the loser is beaten by
/// double when it took at least twice the winner's hits. Equal hits: another round.
pub fn charge_round(a: Fighter, b: Fighter) -> ChargeOdds {
    round_and_draws(a, b).0
}

/// [`charge_round`], and its draws that fight on: by the hits each side has then taken in all
/// (equal), the chance (index = hits). A draw with both sides knocked out is over (BPT
/// "Outcome": no one is left to fight another round); it is in the odds' `draw` only.
fn round_and_draws(a: Fighter, b: Fighter) -> (ChargeOdds, Vec<f64>) {
    let a_deals = hits_distribution(a.dice, a.to_hit, a.save_of_enemy);
    let b_deals = hits_distribution(b.dice, b.to_hit, b.save_of_enemy);
    let mut odds = ChargeOdds {
        a_double: 0.0,
        a_wins: 0.0,
        draw: 0.0,
        b_wins: 0.0,
        b_double: 0.0,
    };
    let mut draws: Vec<f64> = Vec::new();
    for (i, pa) in a_deals.iter().enumerate() {
        for (j, pb) in b_deals.iter().enumerate() {
            let (i, j) = (i as u32, j as u32);
            // What each side has taken: A takes B's hits, B takes A's.
            let (taken_a, taken_b) = (a.had + j, b.had + i);
            let (out_a, out_b) = (j >= a.left, i >= b.left);
            let slot = match taken_a.cmp(&taken_b) {
                _ if out_b && !out_a => &mut odds.a_double,
                _ if out_a && !out_b => &mut odds.b_double,
                std::cmp::Ordering::Equal => {
                    if !out_a {
                        let t = taken_a as usize;
                        if draws.len() <= t {
                            draws.resize(t + 1, 0.0);
                        }
                        draws[t] += pa * pb;
                    }
                    &mut odds.draw
                }
                std::cmp::Ordering::Less if out_b || taken_b >= 2 * taken_a => &mut odds.a_double,
                std::cmp::Ordering::Less => &mut odds.a_wins,
                std::cmp::Ordering::Greater if out_a || taken_a >= 2 * taken_b => &mut odds.b_double,
                std::cmp::Ordering::Greater => &mut odds.b_wins,
            };
            *slot += pa * pb;
        }
    }
    (odds, draws)
}

/// A charge's fighters: in its first round, and in the rounds after it, which are fought
/// without the charging die, the lance and the defender's cover (BPT "Charge": "in the first
/// round"). Their `had` and `left` are as the charge begins.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChargeFight {
    pub first: [Fighter; 2],
    pub later: [Fighter; 2],
}

/// The odds of a whole charge: its first round, and while the hits taken are equal (and both
/// sides stand) another round, up to `max_rounds` (the rules' `max_rounds`, after which it is
/// broken off). `draw` is the chance it ends with no winner: broken off, or both sides
/// knocked out on equal hits. Exact: the state after a drawn round is the hits each side has
/// taken in all, which are equal.
pub fn charge_whole(fight: ChargeFight, max_rounds: u32) -> ChargeOdds {
    let [a0, b0] = fight.first;
    let (mut odds, mut fighting) = round_and_draws(a0, b0);
    let settled = |o: &ChargeOdds| o.a_double + o.a_wins + o.b_wins + o.b_double;
    for _ in 1..max_rounds {
        if fighting.iter().all(|&p| p == 0.0) {
            break;
        }
        let mut next: Vec<f64> = Vec::new();
        for (t, &p) in fighting.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            let t = t as u32;
            let on = |f: Fighter, first: Fighter| Fighter {
                had: t,
                left: first.left.saturating_sub(t - first.had),
                ..f
            };
            let (o, d) = round_and_draws(on(fight.later[0], a0), on(fight.later[1], b0));
            odds.a_double += p * o.a_double;
            odds.a_wins += p * o.a_wins;
            odds.b_wins += p * o.b_wins;
            odds.b_double += p * o.b_double;
            if next.len() < d.len() {
                next.resize(d.len(), 0.0);
            }
            for (k, q) in d.iter().enumerate() {
                next[k] += p * q;
            }
        }
        fighting = next;
    }
    // What is not settled came to no result: broken off, or both knocked out on equal hits.
    odds.draw = (1.0 - settled(&odds)).max(0.0);
    odds
}

/// The odds of one attack, for `volley odds` and the fire preview.
#[derive(Clone, Debug, Serialize)]
pub struct OddsReport {
    pub dice: u32,
    pub to_hit: u32,
    pub save: Option<u32>,
    /// P(k hits after saves), index = k.
    pub distribution: Vec<f64>,
    /// Expected hits after saves.
    pub mean: f64,
    /// The chance an unsuppressed target becomes suppressed.
    pub p_suppress: f64,
}

/// The odds of `dice` attack dice hitting on `to_hit`+ against a save of `save`+.
pub fn odds_report(dice: u32, to_hit: u32, save: Option<u32>) -> OddsReport {
    let distribution = hits_distribution(dice, to_hit, save);
    OddsReport {
        dice,
        to_hit,
        save,
        mean: mean(&distribution),
        p_suppress: p_suppress(&distribution, to_hit),
        distribution,
    }
}

impl fmt::Display for OddsReport {
    /// A table of hits, the chance of exactly that many and of at least that many, then the
    /// mean and the chance to suppress.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let die = if self.dice == 1 { "die" } else { "dice" };
        write!(f, "{} {die} hitting on {}+", self.dice, self.to_hit)?;
        match self.save {
            Some(s) => writeln!(f, ", save {s}+")?,
            None => writeln!(f, ", no save")?,
        }
        writeln!(f, "hits  probability  at least")?;
        let mut at_least: f64 = self.distribution.iter().sum();
        for (k, p) in self.distribution.iter().enumerate() {
            writeln!(
                f,
                "{k:>4}  {:>10.2}%  {:>7.2}%",
                100.0 * p,
                100.0 * at_least.clamp(0.0, 1.0)
            )?;
            at_least -= p;
        }
        writeln!(f, "mean hits: {:.2}", self.mean)?;
        write!(f, "chance to suppress: {:.2}%", 100.0 * self.p_suppress)
    }
}

#[cfg(test)]
mod tests {
    use super::super::dice::Dice;
    use super::*;
    use proptest::prelude::*;

    const EPS: f64 = 1e-12;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < EPS
    }

    #[track_caller]
    fn assert_close(a: f64, b: f64) {
        assert!(close(a, b), "{a} != {b}");
    }

    fn assert_dist_close(a: &[f64], b: &[f64]) {
        assert_eq!(a.len(), b.len(), "{a:?} vs {b:?}");
        for (x, y) in a.iter().zip(b) {
            assert!(close(*x, *y), "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn p_at_least_edges() {
        assert_eq!(p_at_least(0), 1.0);
        assert_eq!(p_at_least(1), 1.0);
        assert_close(p_at_least(2), 5.0 / 6.0);
        assert_close(p_at_least(4), 0.5);
        assert_close(p_at_least(6), 1.0 / 6.0);
        assert_eq!(p_at_least(7), 0.0);
        assert_eq!(p_at_least(100), 0.0);
    }

    #[test]
    fn binomial_small() {
        assert_dist_close(&binomial(0, 0.3), &[1.0]);
        assert_dist_close(&binomial(2, 0.5), &[0.25, 0.5, 0.25]);
        assert_dist_close(&binomial(3, 0.0), &[1.0, 0.0, 0.0, 0.0]);
        assert_dist_close(&binomial(3, 1.0), &[0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    #[should_panic(expected = "not in 0..=1")]
    fn binomial_rejects_bad_p() {
        binomial(3, 1.5);
    }

    #[test]
    fn six_dice_at_4_no_save() {
        let d = hits_distribution(6, 4, None);
        assert_eq!(d.len(), 7);
        assert_close(d[0], 1.0 / 64.0);
        assert_close(d[3], 20.0 / 64.0);
        assert_close(d[6], 1.0 / 64.0);
        assert_close(mean(&d), 3.0);
    }

    #[test]
    fn six_dice_at_4_save_5() {
        assert_close(p_hit_unsaved(4, Some(5)), 1.0 / 3.0);
        let d = hits_distribution(6, 4, Some(5));
        assert_close(mean(&d), 2.0);
        assert_close(d[0], (2.0_f64 / 3.0).powi(6));
        assert_dist_close(&d, &binomial(6, 1.0 / 3.0));
    }

    #[test]
    fn saves_of_one_or_none() {
        // A save of 1+ saves everything; no save saves nothing.
        assert_dist_close(&hits_distribution(4, 4, Some(1)), &[1.0, 0.0, 0.0, 0.0, 0.0]);
        assert_dist_close(&hits_distribution(4, 4, Some(7)), &hits_distribution(4, 4, None));
    }

    /// Hits after saves as the two-stage process the table plays: binomial hits, then each
    /// hit independently unsaved. Must equal the one-stage binomial.
    fn two_stage(dice: u32, to_hit: u32, save: Option<u32>) -> Vec<f64> {
        let hits = binomial(dice, p_at_least(to_hit));
        let p_unsaved = 1.0 - save.map_or(0.0, p_at_least);
        let mut out = vec![0.0; dice as usize + 1];
        for (k, pk) in hits.iter().enumerate() {
            for (m, pm) in binomial(k as u32, p_unsaved).iter().enumerate() {
                out[m] += pk * pm;
            }
        }
        out
    }

    #[test]
    fn two_stage_equals_binomial() {
        for dice in 0..=12 {
            for to_hit in 1..=7 {
                for save in [None, Some(1), Some(3), Some(4), Some(5), Some(6)] {
                    assert_dist_close(&two_stage(dice, to_hit, save), &hits_distribution(dice, to_hit, save));
                }
            }
        }
    }

    #[test]
    fn suppression_exact() {
        // One certain hit at 4+: suppressed half the time.
        assert_close(p_suppress(&[0.0, 1.0], 4), 0.5);
        // No hits, never suppressed.
        assert_close(p_suppress(&[1.0], 4), 0.0);
        // 6 dice at 4+: each die hits and then suppresses with 1/4, so
        // P(suppressed) = 1 − (3/4)^6.
        let d = hits_distribution(6, 4, None);
        assert_close(p_suppress(&d, 4), 1.0 - 0.75_f64.powi(6));
    }

    #[test]
    fn sums_of_d6() {
        assert_dist_close(&sum_of_d6(0), &[1.0]);
        let two = sum_of_d6(2);
        assert_eq!(two.len(), 13);
        assert_close(two[7], 6.0 / 36.0);
        assert_close(two[2], 1.0 / 36.0);
        assert_close(two[1], 0.0);
        let three = sum_of_d6(3);
        let above_10: f64 = three[11..].iter().sum();
        assert_close(above_10, 0.5);
        assert_close(three[10], 27.0 / 216.0);
        assert_close(mean(&sum_of_d6(5)), 17.5);
    }

    #[test]
    fn fall_back() {
        // Exactly 4 hits: 4d6 > 20 (21..=24) happens 20 + 10 + 4 + 1 = 35 times in 1296.
        let four = [0.0, 0.0, 0.0, 0.0, 1.0];
        assert_close(p_fall_back_beyond(&four, 0, 20), 35.0 / 1296.0);
        // Elite (one die fewer): 3d6 > 20 is impossible.
        assert_close(p_fall_back_beyond(&four, -1, 20), 0.0);
        // Dug in: 4d6 > 10.
        let four_d6 = sum_of_d6(4);
        assert_close(
            p_fall_back_beyond(&four, 0, FALL_BACK_LIMIT_DUG_IN_CM),
            four_d6[11..].iter().sum(),
        );
        // Poor (one die more) with one hit rolls 2d6; with no hits there is no test.
        let mixed = [0.5, 0.5];
        let fb = fall_back_distribution(&mixed, 1);
        assert_close(fb[0], 0.5);
        assert_close(fb[7], 0.5 * 6.0 / 36.0);
        assert_close(fb.iter().sum(), 1.0);
        // Many fewer dice than hits: no dice, no distance.
        assert_dist_close(&fall_back_distribution(&[0.0, 0.0, 1.0], -5), &[1.0]);
    }

    #[test]
    fn command_rolls() {
        assert_close(p_2d6_at_most(8), 26.0 / 36.0);
        assert_close(p_2d6_at_most(1), 0.0);
        assert_close(p_2d6_at_most(12), 1.0);
        assert_close(p_double_one(), 1.0 / 36.0);
        assert_close(p_double_six(), 1.0 / 36.0);

        // Value 8: 26 rolls sum to ≤ 8; double 6 (12) is not among them, double 1 is.
        let c = command_roll_odds(8);
        assert_eq!(command_successes_of_36(8), 26);
        assert_close(c.success, 26.0 / 36.0);
        assert_close(c.failure(), 10.0 / 36.0);
        assert_close(c.bonus, 1.0 / 36.0);
        assert_close(c.blunder, 1.0 / 36.0);
        // Value 12 or more: everything but the double-6 blunder.
        assert_eq!(command_successes_of_36(12), 35);
        assert_eq!(command_successes_of_36(20), 35);
        // Value below 2: only the double-1 bonus.
        assert_eq!(command_successes_of_36(1), 1);
        assert_eq!(command_successes_of_36(-3), 1);
        // In between, the conventions change nothing.
        for v in 2..=11 {
            assert_eq!(command_successes_of_36(v), count_2d6_at_most(v));
        }
    }

    #[test]
    fn charge_simple() {
        // One die each at 4+, no saves: each side 0 or 1 hit with 1/2.
        let c = charge_outcome(1, 4, None, 1, 4, None);
        assert_close(c.draw, 0.5); // 0–0 or 1–1
        assert_close(c.a_double, 0.25); // 1–0
        assert_close(c.b_double, 0.25);
        assert_close(c.a_wins, 0.0);
        assert_close(c.b_wins, 0.0);
        // A certain 3 hits against a certain 2: A wins, not by double.
        let c = charge_outcome(3, 1, None, 2, 1, None);
        assert_close(c.a_wins, 1.0);
        // A certain 4 against a certain 2: double.
        let c = charge_outcome(4, 1, None, 2, 1, None);
        assert_close(c.a_double, 1.0);
        // Nobody can hit: always a draw.
        let c = charge_outcome(5, 7, None, 5, 7, None);
        assert_close(c.draw, 1.0);
    }

    #[test]
    fn a_charge_round_counts_the_hits_taken_before_it_and_knock_outs() {
        let sure = |dice, had, left| Fighter {
            dice,
            to_hit: 1,
            save_of_enemy: None,
            had,
            left,
        };
        // A certain 3 hits against a certain 2: A wins, not by double...
        assert_close(charge_round(sure(3, 0, 9), sure(2, 0, 9)).a_wins, 1.0);
        // ...but with 2 hits taken earlier this turn, A has taken 4 to B's 3: B wins.
        assert_close(charge_round(sure(3, 2, 9), sure(2, 0, 9)).b_wins, 1.0);
        // B with 1 hit already and none rolled loses by double to A's no hits (1 v 0).
        assert_close(charge_round(sure(0, 0, 9), sure(0, 1, 9)).a_double, 1.0);
        // B knocked out by A's 1 hit (1 left) loses by double though A took 3.
        assert_close(charge_round(sure(1, 0, 9), sure(3, 0, 1)).a_double, 1.0);
        // Both knocked out: the hits taken decide (3 against 1: A won by double).
        assert_close(charge_round(sure(3, 0, 1), sure(1, 0, 3)).a_double, 1.0);
        // Fresh fighters are `charge_outcome`.
        let fresh = |dice, to_hit| Fighter {
            dice,
            to_hit,
            save_of_enemy: Some(5),
            had: 0,
            left: u32::MAX,
        };
        assert_eq!(
            charge_round(fresh(6, 4), fresh(5, 3)),
            charge_outcome(6, 4, Some(5), 5, 3, Some(5))
        );
    }

    /// A whole charge fights on while the hits taken are equal, the later rounds without the
    /// first's charging die, to the rules' last round (BPT "Outcome"; `max_rounds`).
    #[test]
    fn a_whole_charge_fights_drawn_rounds_again_without_the_first_rounds_bonus() {
        let f = |dice, to_hit, left| Fighter {
            dice,
            to_hit,
            save_of_enemy: None,
            had: 0,
            left,
        };
        let fight = |first: [Fighter; 2], later: [Fighter; 2]| ChargeFight { first, later };
        // A one die hitting on 4+ against no dice: each round a half to win by double (1 v 0),
        // else another round; broken off after 10 rounds, 1/2^10.
        let coin = fight([f(1, 4, 9), f(0, 4, 9)], [f(1, 4, 9), f(0, 4, 9)]);
        let o = charge_whole(coin, 10);
        assert_close(o.a_double, 1.0 - 0.5f64.powi(10));
        assert_close(o.draw, 0.5f64.powi(10));
        // One round is `charge_round`.
        assert_eq!(charge_whole(coin, 1), charge_round(coin.first[0], coin.first[1]));
        // 1 sure hit each in the first round (A's second die was its charging die, B's cover
        // made it 1 of 2); 2 sure against 1 in the second: 3 taken against 2, A wins, not by
        // double.
        let second = fight([f(1, 1, 9), f(1, 1, 9)], [f(2, 1, 9), f(1, 1, 9)]);
        let o = charge_whole(second, 10);
        assert_close(o.a_wins, 1.0);
        assert_close(charge_round(second.first[0], second.first[1]).draw, 1.0);
        // 2 sure hits each, 5 to take each: 2 v 2, 4 v 4, then both knocked out on 6 v 6:
        // over with no winner, not another round.
        let even = fight([f(2, 1, 5), f(2, 1, 5)], [f(2, 1, 5), f(2, 1, 5)]);
        assert_close(charge_whole(even, 10).draw, 1.0);
        // A second round's knock-out counts what was taken in the first: B could take 2, had
        // 1 left after 1 v 1, and A's 2 in round two knock it out: a loss by double, though
        // each side has taken 3.
        let worn = fight([f(1, 1, 9), f(1, 1, 2)], [f(2, 1, 9), f(2, 1, 2)]);
        assert_close(charge_whole(worn, 10).a_double, 1.0);
        // Hits taken before the charge stay in the count: A had 1. Round one, 2 sure hits
        // against 1: 2 taken each, a draw. Round two, 2 against 1 again: A has taken 3 in all,
        // B 4: A wins, not by double (had the second round forgotten the first's hits, 1 + 1
        // against 0 + 2 would have been another draw).
        let had = |dice, had| Fighter { had, ..f(dice, 1, 9) };
        let carried = fight([had(2, 1), had(1, 0)], [had(2, 1), had(1, 0)]);
        assert_close(charge_round(carried.first[0], carried.first[1]).draw, 1.0);
        assert_close(charge_whole(carried, 10).a_wins, 1.0);
    }

    #[test]
    fn report_numbers_and_table() {
        let r = odds_report(6, 4, None);
        assert_close(r.mean, 3.0);
        assert_close(r.distribution[0], 1.0 / 64.0);
        assert_close(r.p_suppress, 1.0 - 0.75_f64.powi(6));
        let text = r.to_string();
        assert!(text.starts_with("6 dice hitting on 4+, no save\n"), "{text}");
        assert!(text.contains("hits  probability  at least"), "{text}");
        assert!(text.contains("   0        1.56%   100.00%"), "{text}");
        assert!(text.contains("   6        1.56%     1.56%"), "{text}");
        assert!(text.contains("mean hits: 3.00"), "{text}");
        assert!(text.contains("chance to suppress: 82.20%"), "{text}");
        let r = odds_report(1, 5, Some(6));
        assert!(r.to_string().starts_with("1 die hitting on 5+, save 6+\n"));
        let json = serde_json::to_value(odds_report(2, 4, Some(5))).unwrap();
        assert_eq!(json["dice"], 2);
        assert_eq!(json["save"], 5);
        assert_eq!(json["distribution"].as_array().unwrap().len(), 3);
    }

    // --- Monte-Carlo checks with the game's own dice: ±0.01 over 200 000 trials (the
    // standard error of a proportion over 200 000 trials is at most 0.0011). ---

    const TRIALS: u32 = 200_000;
    const MC_TOLERANCE: f64 = 0.01;

    fn assert_mc(label: &str, hits: u32, exact: f64) {
        let freq = f64::from(hits) / f64::from(TRIALS);
        assert!(
            (freq - exact).abs() <= MC_TOLERANCE,
            "{label}: simulated {freq}, exact {exact}"
        );
    }

    /// Plays one attack as on the table: hits, then saves. Returns hits taken.
    fn play_attack(dice: &mut Dice, n: u32, to_hit: u32, save: Option<u32>) -> u32 {
        let hits = dice.roll(n, 6).into_iter().filter(|&f| f >= to_hit).count() as u32;
        match save {
            Some(s) => dice.roll(hits, 6).into_iter().filter(|&f| f < s).count() as u32,
            None => hits,
        }
    }

    #[test]
    fn monte_carlo_attack_and_suppression() {
        let mut dice = Dice::new(1);
        let (n, to_hit, save) = (6, 4, Some(5));
        let exact = hits_distribution(n, to_hit, save);
        let mut counts = vec![0u32; n as usize + 1];
        let mut suppressed = 0;
        for _ in 0..TRIALS {
            let hits = play_attack(&mut dice, n, to_hit, save);
            counts[hits as usize] += 1;
            if dice.roll(hits, 6).into_iter().any(|f| f >= to_hit) {
                suppressed += 1;
            }
        }
        for (k, &c) in counts.iter().enumerate() {
            assert_mc(&format!("P({k} hits)"), c, exact[k]);
        }
        assert_mc("suppressed", suppressed, p_suppress(&exact, to_hit));
    }

    #[test]
    fn monte_carlo_fall_back() {
        let mut dice = Dice::new(2);
        let (n, to_hit, extra) = (10, 4, 1);
        let exact = p_fall_back_beyond(&hits_distribution(n, to_hit, None), extra, 20);
        let mut knocked_out = 0;
        for _ in 0..TRIALS {
            let hits = play_attack(&mut dice, n, to_hit, None);
            if hits > 0 {
                let roll = (hits as i32 + extra).max(0) as u32;
                if dice.roll(roll, 6).iter().sum::<u32>() > 20 {
                    knocked_out += 1;
                }
            }
        }
        assert_mc("fall back > 20 cm", knocked_out, exact);
    }

    #[test]
    fn monte_carlo_command_and_charge() {
        let mut dice = Dice::new(3);
        let value = 7;
        let exact = command_roll_odds(value);
        let mut given = 0;
        for _ in 0..TRIALS {
            let (a, b) = (dice.d6(), dice.d6());
            let ok = match (a, b) {
                (1, 1) => true,
                (6, 6) => false,
                _ => (a + b) as i32 <= value,
            };
            given += u32::from(ok);
        }
        assert_mc("command 7", given, exact.success);

        let exact = charge_outcome(8, 4, Some(6), 6, 4, Some(5));
        let mut tally = [0u32; 5];
        for _ in 0..TRIALS {
            let a = play_attack(&mut dice, 8, 4, Some(6));
            let b = play_attack(&mut dice, 6, 4, Some(5));
            let slot = if a == b {
                2
            } else if a > b {
                if a >= 2 * b { 0 } else { 1 }
            } else if b >= 2 * a {
                4
            } else {
                3
            };
            tally[slot] += 1;
        }
        let exact = [exact.a_double, exact.a_wins, exact.draw, exact.b_wins, exact.b_double];
        for (i, (&t, &e)) in tally.iter().zip(&exact).enumerate() {
            assert_mc(&format!("charge outcome {i}"), t, e);
        }
    }

    fn save_strategy() -> impl Strategy<Value = Option<u32>> {
        prop::option::of(0u32..=8)
    }

    proptest! {
        #[test]
        fn distributions_sum_to_one(dice in 0u32..40, to_hit in 0u32..=8, save in save_strategy()) {
            let d = hits_distribution(dice, to_hit, save);
            prop_assert_eq!(d.len(), dice as usize + 1);
            prop_assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            prop_assert!(d.iter().all(|&p| (0.0..=1.0 + 1e-12).contains(&p)));
            let p = p_hit_unsaved(to_hit, save);
            prop_assert!((mean(&d) - f64::from(dice) * p).abs() < 1e-9);
            let s = p_suppress(&d, to_hit);
            prop_assert!((-1e-12..=1.0 + 1e-12).contains(&s));
        }

        #[test]
        fn fall_back_is_a_distribution(dice in 0u32..20, to_hit in 1u32..=6, extra in -3i32..=3, limit in 0u32..40) {
            let d = hits_distribution(dice, to_hit, None);
            let fb = fall_back_distribution(&d, extra);
            prop_assert!((fb.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            let beyond = p_fall_back_beyond(&d, extra, limit);
            prop_assert!((-1e-12..=1.0 + 1e-9).contains(&beyond));
            // A higher limit never makes knock-out likelier.
            prop_assert!(p_fall_back_beyond(&d, extra, limit + 1) <= beyond + 1e-12);
        }

        #[test]
        fn charge_outcomes_sum_to_one(
            a_dice in 0u32..16, a_to_hit in 1u32..=7, a_save in save_strategy(),
            b_dice in 0u32..16, b_to_hit in 1u32..=7, b_save in save_strategy(),
        ) {
            let c = charge_outcome(a_dice, a_to_hit, a_save, b_dice, b_to_hit, b_save);
            let total = c.a_double + c.a_wins + c.draw + c.b_wins + c.b_double;
            prop_assert!((total - 1.0).abs() < 1e-9, "{:?}", c);
            // Swapping the sides mirrors the outcome.
            let m = charge_outcome(b_dice, b_to_hit, b_save, a_dice, a_to_hit, a_save);
            prop_assert!((m.a_double - c.b_double).abs() < 1e-12);
            prop_assert!((m.b_wins - c.a_wins).abs() < 1e-12);
            prop_assert!((m.draw - c.draw).abs() < 1e-12);
        }

        #[test]
        fn a_whole_charge_is_a_distribution_that_one_round_begins(
            a in 0u32..10, a_later in 0u32..10, a_to_hit in 1u32..=6, a_left in 1u32..8,
            b in 0u32..10, b_to_hit in 1u32..=6, b_left in 1u32..8, rounds in 1u32..12,
        ) {
            let f = |dice, to_hit, left| Fighter { dice, to_hit, save_of_enemy: Some(5), had: 0, left };
            let fight = ChargeFight {
                first: [f(a, a_to_hit, a_left), f(b, b_to_hit, b_left)],
                later: [f(a_later, a_to_hit, a_left), f(b, b_to_hit, b_left)],
            };
            let o = charge_whole(fight, rounds);
            let total = o.a_double + o.a_wins + o.draw + o.b_wins + o.b_double;
            prop_assert!((total - 1.0).abs() < 1e-9, "{:?}", o);
            prop_assert!([o.a_double, o.a_wins, o.draw, o.b_wins, o.b_double].iter().all(|&p| p >= -1e-12));
            // More rounds only settle what the first left drawn.
            let one = charge_round(fight.first[0], fight.first[1]);
            prop_assert!(o.draw <= one.draw + 1e-12);
            prop_assert!(o.a_double >= one.a_double - 1e-12 && o.b_double >= one.b_double - 1e-12);
        }

        #[test]
        fn command_odds_monotone(v in -5i32..20) {
            let c = command_roll_odds(v);
            prop_assert!(command_roll_odds(v + 1).success >= c.success);
            prop_assert!(c.success >= 1.0 / 36.0 - 1e-12 && c.success <= 35.0 / 36.0 + 1e-12);
        }
    }
}
