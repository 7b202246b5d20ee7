//! What a position is worth to a side, for the look-ahead ([`super::lookahead`]): the
//! scenario's goals (the result, objectives held, units lost against the breakpoint) and the
//! troops left on both sides, counted only over the enemy units the side knew of when it
//! began to look. A pure reading of the battle.

use crate::battle::Battle;
use crate::battle::state::{SideId, Unit, UnitId};
use crate::data::scenario::ObjectiveLevel;

/// The weights of [`value`], in "fighting stands" (one fresh stand is worth 1).
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// A unit knocked out costs this on top of its stands (the breakpoint counts units).
    pub unit_lost: f64,
    /// Suppressed, disordered: a unit that cannot act or fights worse.
    pub suppressed: f64,
    pub disordered: f64,
    /// Holding a major / minor objective (BPT "Reaching an Objective") over the enemy's.
    pub major: f64,
    pub minor: f64,
    /// A game won (lost) within the look-ahead.
    pub won: f64,
    /// The result if the game ended where the look-ahead stops, as a share of `won` in the
    /// last game turn; a half of that with one turn left, a third with two, and so on.
    pub result_now: f64,
    /// A side at its breakpoint makes a command roll at the start of each of its turns and
    /// loses the battle on a failure (BPT "Breakpoint"): the chance it breaks before the turn
    /// limit, times this share of `won`, is taken from its worth.
    pub breaking: f64,
    /// Per cm a unit stands beyond where it wants to be (its objective, else weapon range of
    /// the nearest known enemy): closing to fight is worth a little.
    pub per_cm_off: f64,
}

pub const WEIGHTS: Weights = Weights {
    unit_lost: 1.5,
    suppressed: 0.4,
    disordered: 0.25,
    major: 4.0,
    minor: 2.5,
    won: 12.0,
    result_now: 0.5,
    breaking: 1.0,
    per_cm_off: 0.01,
};

/// What one unit is worth as it stands: its fighting stands, less the hits it carries as a
/// share of what it can take, less its state; 0 once knocked out (and the loss besides).
fn unit_worth(b: &Battle, u: &Unit, w: &Weights) -> f64 {
    if u.retired {
        return 0.0;
    }
    if u.knocked_out {
        return -w.unit_lost;
    }
    let hv = u.hits_value(&b.rules, b.player_turn).max(1) as f64;
    let hurt = (u.hits as f64 / hv).min(1.0);
    let mut v = f64::from(u.stands) - 0.5 * hurt;
    if u.suppressed() {
        v -= w.suppressed;
    }
    if u.disordered(b.player_turn) {
        v -= w.disordered;
    }
    v
}

fn rank(o: Option<ObjectiveLevel>, w: &Weights) -> f64 {
    match o {
        None => 0.0,
        Some(ObjectiveLevel::Minor) => w.minor,
        Some(ObjectiveLevel::Major) => w.major,
    }
}

/// How far `u` stands beyond where it wants to be, cm: inside its side's nearest own
/// objective's radius, or within its weapon range of the nearest `enemies` unit. Out of range,
/// by the way it could go ([`crate::rules::terrain::Terrain::way_length`]: across a river by a
/// bridge or ford), so going round to the crossing counts as closing.
fn off_place(b: &Battle, u: &Unit, enemies: &[UnitId]) -> f64 {
    let range = b.weapon_range(u);
    let beyond = |p: crate::rules::geometry::V2, within: f64| {
        let straight = p.dist(u.pose.pos);
        if straight <= within {
            0.0
        } else {
            b.terrain.way_length(u.pose.pos, p, u.on_foot()) - within
        }
    };
    let to_enemy = enemies
        .iter()
        .filter(|&&e| b.unit(e).alive())
        .map(|&e| beyond(b.unit(e).pose.pos, range))
        .fold(f64::INFINITY, f64::min);
    let name = &b.sides[u.side].name;
    let to_objective = b
        .objectives
        .iter()
        .filter(|o| &o.side == name)
        .map(|o| beyond(o.pos, o.radius))
        .fold(f64::INFINITY, f64::min);
    let d = to_enemy.min(to_objective);
    if d.is_finite() { d } else { 0.0 }
}

/// The chance that `side`, at its breakpoint, breaks at one of the breakpoint tests left to it
/// before the turn limit (one at the start of each of its player turns still to come; the
/// active side has taken this turn's): 0 short of its breakpoint.
pub fn break_chance(b: &Battle, side: SideId) -> f64 {
    let Some(target) = b.breakpoint_value(side) else {
        return 0.0;
    };
    let mut tests = b.turn_limit.saturating_sub(b.game_turn);
    if side != b.first_side && b.active == b.first_side {
        tests += 1;
    }
    let hold = crate::rules::odds::command_roll_odds(target).success;
    1.0 - hold.powi(tests as i32)
}

/// The worth of `b` to `side`: its troops less the `known` enemy troops, the objectives it
/// holds less those the enemy holds, the result if the game ended, the chance each side at its
/// breakpoint breaks before the turn limit ([`break_chance`]), and a little for standing
/// where it wants to be. Only the `known` enemies' troops are counted (the look-ahead's copies
/// hold no others: it takes the enemies it does not know of off the table first).
pub fn value(b: &Battle, side: SideId, known: &[UnitId], w: &Weights) -> f64 {
    let mine: f64 = b
        .units
        .iter()
        .filter(|u| u.side == side)
        .map(|u| unit_worth(b, u, w))
        .sum();
    let theirs: f64 = known.iter().map(|&e| unit_worth(b, b.unit(e), w)).sum();
    let mut v = mine - theirs;
    let won = |winner: Option<SideId>| match winner {
        Some(s) if s == side => w.won,
        Some(_) => -w.won,
        None => 0.0,
    };
    if let Some(o) = &b.outcome {
        v += won(o.winner);
    } else {
        // The objectives held now, and the result if the battle ended here (objectives,
        // breakpoints, victory points), counting for more the nearer the turn limit.
        let now = b.compute_outcome(crate::battle::event::EndReason::Unfinished);
        v += rank(now.objectives[side], w) - rank(now.objectives[1 - side], w);
        let near = w.result_now / (1.0 + f64::from(b.turn_limit.saturating_sub(b.game_turn)));
        v += won(now.winner) * near;
        v += w.breaking * w.won * (break_chance(b, 1 - side) - break_chance(b, side));
    }
    let off: f64 = b
        .side_units(side)
        .filter(|u| !u.is_artillery() || u.limbered)
        .map(|u| off_place(b, u, known))
        .sum();
    v - w.per_cm_off * off
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skirmish() -> Battle {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
        crate::load_battle(&path, 1).expect("skirmish loads").0
    }

    #[test]
    fn a_stand_lost_costs_one_and_a_unit_lost_its_stands_and_the_loss() {
        let b = skirmish();
        let side = 0;
        let known: Vec<UnitId> = b.side_units(1).map(|u| u.id).collect();
        let start = value(&b, side, &known, &WEIGHTS);
        let enemy = known[0];
        let mut hit = b.clone();
        hit.arranging().unit_mut(enemy).stands -= 1;
        assert!((value(&hit, side, &known, &WEIGHTS) - start - 1.0).abs() < 1e-9);
        let mut gone = b.clone();
        let stands = f64::from(gone.unit(enemy).stands);
        gone.arranging().unit_mut(enemy).knocked_out = true;
        // Knocked out: no longer counted for where it stands either, so compare troops only.
        let w = Weights {
            per_cm_off: 0.0,
            result_now: 0.0,
            ..WEIGHTS
        };
        let gain = value(&gone, side, &known, &w) - value(&b, side, &known, &w);
        assert!((gain - stands - WEIGHTS.unit_lost).abs() < 1e-9, "{gain}");
        // The same loss on its own side counts against it, as much.
        let mine = b.side_units(side).next().expect("a unit").id;
        let mut lost = b.clone();
        let own = f64::from(lost.unit(mine).stands);
        lost.arranging().unit_mut(mine).knocked_out = true;
        let cost = value(&b, side, &known, &w) - value(&lost, side, &known, &w);
        assert!((cost - own - WEIGHTS.unit_lost).abs() < 1e-9, "{cost}");
    }

    /// The result if the battle ended here counts `won × result_now` in the last game turn,
    /// a half of that with one turn left, a third with two: a unit knocked out with none lost
    /// in return gives the enemy the victory points and, with no objective held, the win.
    #[test]
    fn the_result_if_it_ended_here_counts_more_near_the_turn_limit() {
        let b = skirmish();
        let side = 0;
        let known: Vec<UnitId> = b.side_units(1).map(|u| u.id).collect();
        let mine = b.side_units(side).next().expect("a unit").id;
        let mut lost = b.clone();
        lost.arranging().unit_mut(mine).knocked_out = true;
        let without = Weights {
            result_now: 0.0,
            ..WEIGHTS
        };
        for (left, share) in [(0, 1.0), (1, 0.5), (2, 1.0 / 3.0)] {
            lost.arranging().game_turn = lost.turn_limit - left;
            assert_eq!(
                lost.compute_outcome(crate::battle::event::EndReason::Unfinished).winner,
                Some(1),
                "the enemy would win"
            );
            let cost = value(&lost, side, &known, &without) - value(&lost, side, &known, &WEIGHTS);
            let want = WEIGHTS.won * WEIGHTS.result_now * share;
            assert!((cost - want).abs() < 1e-9, "{left} turns left: {cost} against {want}");
        }
    }

    /// BPT "Breakpoint": at the start of each of its turns a side that has lost half its units
    /// (rounded up) makes a command roll, −1 per unit lost beyond, and breaks on a failure.
    /// *First Battle*: three units a side (breakpoint 2), both colonels' command value 7, twelve
    /// turns, the Union first. Two Confederate units lost in the Union's first turn: twelve
    /// tests to come (game turns 1 to 12), each held on 2d6 ≤ 7 (21 rolls of 36).
    #[test]
    fn a_side_at_its_breakpoint_is_worth_its_chance_to_break() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/first_battle.ron");
        let mut b = crate::load_battle(&path, 1).expect("first battle loads").0;
        let (union, confed) = (0, 1);
        assert_eq!(
            (b.first_side, b.active, b.game_turn, b.turn_limit),
            (union, union, 1, 12)
        );
        assert_eq!(b.sides[confed].breakpoint, 2);
        assert_eq!(break_chance(&b, confed), 0.0, "short of its breakpoint");
        let theirs: Vec<UnitId> = b.side_units(confed).map(|u| u.id).collect();
        assert_eq!(theirs.len(), 3);
        for &u in &theirs[..2] {
            b.arranging().unit_mut(u).knocked_out = true;
        }
        let p = break_chance(&b, confed);
        assert!((p - (1.0 - (21.0f64 / 36.0).powi(12))).abs() < 1e-12, "{p}");
        assert_eq!(break_chance(&b, union), 0.0);
        // Worth the chance of a win to the Union, as much against the Confederates.
        let known: Vec<UnitId> = theirs.clone();
        let none = Weights {
            breaking: 0.0,
            ..WEIGHTS
        };
        let gain = value(&b, union, &known, &WEIGHTS) - value(&b, union, &known, &none);
        assert!((gain - WEIGHTS.won * p).abs() < 1e-9, "{gain}");
        let ours: Vec<UnitId> = b.side_units(union).map(|u| u.id).collect();
        let loss = value(&b, confed, &ours, &none) - value(&b, confed, &ours, &WEIGHTS);
        assert!((loss - WEIGHTS.won * p).abs() < 1e-9, "{loss}");
        // The last game turn, the Confederates still to move: one test left; in their turn
        // (this turn's test taken), none.
        b.arranging().game_turn = 12;
        let p = break_chance(&b, confed);
        assert!((p - 15.0 / 36.0).abs() < 1e-12, "{p}");
        b.arranging().active = confed;
        assert_eq!(break_chance(&b, confed), 0.0);
        // A unit lost beyond the breakpoint: −1, held on 2d6 ≤ 6 (15 rolls of 36).
        b.arranging().active = union;
        b.arranging().unit_mut(theirs[2]).knocked_out = true;
        let p = break_chance(&b, confed);
        assert!((p - 21.0 / 36.0).abs() < 1e-12, "{p}");
        // A side already broken breaks no more.
        b.arranging().sides[confed].broken = true;
        assert_eq!(break_chance(&b, confed), 0.0);
    }

    /// Out of range across a river, a unit is as far off as the way round by a bridge: on
    /// the engineers scenario (objectives aside) the 7th Michigan on its bank, the 17th
    /// Mississippi fallen back to 22 cm across Cedar Run; by the Mill road's bridge 35 cm west
    /// the way is 73 cm, by the pontoon bridge once built 39 cm.
    #[test]
    fn out_of_range_across_a_river_the_way_by_the_bridge_counts() {
        use crate::rules::geometry::V2;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/engineers.ron");
        let mut b = crate::load_battle(&path, 1).expect("engineers loads").0;
        b.arranging().objectives.clear();
        let find = |b: &Battle, name: &str| b.units.iter().find(|u| u.name == name).expect(name).id;
        let (mi, ms) = (find(&b, "7th Michigan"), find(&b, "17th Mississippi"));
        let to = V2::new(44.0, 62.0);
        b.arranging().unit_mut(ms).pose.pos = to;
        let range = b.weapon_range(b.unit(mi));
        let from = b.unit(mi).pose.pos;
        assert_eq!(from, V2::new(45.0, 40.0));
        assert!(from.dist(to) - range > 2.0, "out of range, 2 cm beyond");
        let by = |at: V2| from.dist(at) + at.dist(to) - range;
        let mill = V2::new(10.0, 45.0);
        assert!((off_place(&b, b.unit(mi), &[ms]) - by(mill)).abs() < 1e-9);
        // The pontoon bridge where the engineers build it (a road across the river).
        let mut arranged = b.arranging();
        let terrain = std::sync::Arc::make_mut(&mut arranged.terrain);
        terrain.linears.push(crate::rules::terrain::Linear {
            kind: crate::rules::terrain::LinearKind::Road,
            name: "pontoon bridge".into(),
            points: vec![V2::new(60.0, 41.0), V2::new(60.0, 49.0)],
            width: 5.0,
        });
        drop(arranged);
        let pontoon = V2::new(60.0, 45.0);
        assert!(by(pontoon) < by(mill) - 30.0);
        assert!((off_place(&b, b.unit(mi), &[ms]) - by(pontoon)).abs() < 1e-9);
    }

    #[test]
    fn enemies_it_does_not_know_of_are_not_read() {
        let b = skirmish();
        let all: Vec<UnitId> = b.side_units(1).map(|u| u.id).collect();
        let known = &all[1..];
        let mut other = b.clone();
        other.arranging().unit_mut(all[0]).stands = 1;
        other.arranging().unit_mut(all[0]).hits = 2;
        assert_eq!(value(&b, 0, known, &WEIGHTS), value(&other, 0, known, &WEIGHTS));
        assert_ne!(value(&b, 0, &all, &WEIGHTS), value(&other, 0, &all, &WEIGHTS));
    }
}
