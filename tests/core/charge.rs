//! BPT "Charge": attacks in contact, modifiers, outcome (equal, greater, double), retreat.

use super::common::*;
use volley::battle::Action;
use volley::battle::event::families::*;
use volley::battle::event::{Event, KnockOut};
use volley::battle::state::Combat;

const RIFLES: &str = "regular_infantry_rifled";

/// Union line charging a Confederate line front to front, bases touching.
fn in_contact() -> volley::battle::Battle {
    // Front edges: Union 50.75, Confederate 51.51 − 0.75 = 50.76 (until rules `bpt-7` the
    // Confederates stood at 52, 0.5 cm off, which counted as contact then).
    let mut b = battle(&[u(0, RIFLES, 4, 100.0, 50.0, 90.0), u(1, RIFLES, 4, 100.0, 51.51, 270.0)]);
    to_command(&mut b);
    assert!(b.unit_distance(0, 1) < 0.6, "in contact: {}", b.unit_distance(0, 1));
    b.arranging().combats.push(Combat {
        chargers: vec![0],
        target: 1,
        supports: [vec![], vec![]],
        counter_charge: false,
    });
    b
}

fn round_dice(ev: &[Event]) -> Vec<u32> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Melee(MeleeEvent::CombatRound { sides, .. }) => {
                Some(sides.iter().map(|s| s.dice).collect::<Vec<_>>())
            }
            _ => None,
        })
        .next()
        .unwrap_or_default()
}

#[test]
fn infantry_fight_with_two_attacks_a_stand_in_contact_plus_one_for_charging() {
    // 4 stands × 2 + 1 (charging) = 9 for the Union; 4 × 2 = 8 for the Confederates.
    let mut b = in_contact();
    let mut faces = vec![6; 9];
    faces.extend([1; 8]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert_eq!(round_dice(&ev), vec![9, 8]);
}

#[test]
fn a_charge_won_by_double_knocks_the_losers_out() {
    let mut b = in_contact();
    let mut faces = vec![6; 9]; // 9 hits on the Confederates
    faces.extend([1; 8]); // none back
    script(&mut b, &faces);
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert!(!b.unit(1).alive());
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Melee(MeleeEvent::CombatResult {
            winner: Some(0),
            by_double: true,
            ..
        })
    )));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Morale(MoraleEvent::KnockedOut {
            unit: 1,
            why: KnockOut::ChargeLost
        })
    )));
    assert!(
        b.unit(0).disordered_until.is_some(),
        "winners of a charge are disordered"
    );
}

/// BPT "Double or more", taken literally (a recorded decision): one hit against none is
/// double (1 ≥ 2 × 0), in the game as in the odds the previews and the scheduler use.
#[test]
fn one_hit_against_none_is_a_win_by_double() {
    let mut b = in_contact();
    let mut faces = vec![6, 1, 1, 1, 1, 1, 1, 1, 1]; // Union 9 dice: 1 hit
    faces.extend([1; 8]); // Confederates 8 dice: none
    script(&mut b, &faces);
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Melee(MeleeEvent::CombatResult {
                winner: Some(0),
                by_double: true,
                ..
            })
        )),
        "{ev:#?}"
    );
    assert!(!b.unit(1).alive(), "the losers in contact are knocked out");
    // The odds agree: one die hitting on 2+ against no dice wins by double 5/6 of the time
    // and never merely wins.
    let o = volley::rules::odds::charge_outcome(1, 2, None, 0, 4, None);
    assert!((o.a_double - 5.0 / 6.0).abs() < 1e-12, "{o:?}");
    assert_eq!(o.a_wins, 0.0);
}

#[test]
fn a_charge_won_but_not_by_double_suppresses_and_retreats_the_losers_half_a_move() {
    let mut b = in_contact();
    // Union 9 dice: 3 hits; Confederates 8 dice: 2 hits. 3 v 2: greater, not double.
    let mut faces = vec![6, 6, 6, 1, 1, 1, 1, 1, 1];
    faces.extend([6, 6, 1, 1, 1, 1, 1, 1]);
    script(&mut b, &faces);
    let y0 = b.unit(1).pose.pos.y;
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Melee(MeleeEvent::CombatResult {
                winner: Some(0),
                by_double: false,
                ..
            })
        )),
        "{ev:#?}"
    );
    assert!(b.unit(1).alive());
    assert!(b.unit(1).suppressed());
    assert!(
        (b.unit(1).pose.pos.y - (y0 + 5.0)).abs() < 0.3,
        "retreated half of 10 cm"
    );
}

#[test]
fn equal_hits_fight_another_round_without_the_charge_bonus() {
    let mut b = in_contact();
    let mut faces = vec![6, 6, 1, 1, 1, 1, 1, 1, 1]; // 2
    faces.extend([6, 6, 1, 1, 1, 1, 1, 1]); // 2: equal
    faces.extend([6, 6, 6, 6, 1, 1, 1, 1]); // round 2: Union 8 dice, 4 hits (6 total)
    faces.extend([1; 8]); // Confederates none (2 total): 6 ≥ 2 × 2 → double
    script(&mut b, &faces);
    let ev = b.apply(&Action::EndPhase).unwrap();
    let rounds: Vec<Vec<u32>> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Melee(MeleeEvent::CombatRound { sides, .. }) => Some(sides.iter().map(|s| s.dice).collect()),
            _ => None,
        })
        .collect();
    assert_eq!(rounds, vec![vec![9, 8], vec![8, 8]]);
    assert!(!b.unit(1).alive());
}

#[test]
fn dug_in_losers_that_must_retreat_are_knocked_out() {
    // BPT "Retreat": units are knocked out when "Retreating unlimbered guns or units in
    // fortifications". Decision: dug-in units are in fortifications. The same dice as a win
    // not by double (3 v 2; a 6 hits the dug-in defenders' hard cover).
    let mut b = in_contact();
    b.arranging().unit_mut(1).dug_in = true;
    let mut faces = vec![6, 6, 6, 1, 1, 1, 1, 1, 1];
    faces.extend([6, 6, 1, 1, 1, 1, 1, 1]);
    faces.extend([1; 10]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Melee(MeleeEvent::CombatResult {
            winner: Some(0),
            by_double: false,
            ..
        })
    )));
    assert!(!b.unit(1).alive(), "it could not retreat out of its works");
}

/// BPT "Disordered": "Troops that have successfully concluded a charge against an enemy are
/// considered Disordered … Cavalry who charge will become both disordered and their mounts
/// will face Exhaustion"; a counter-charge is a charge ("both sides in a charge receive the
/// charge bonus"). Cavalry that counter-charged and won is disordered and exhausted like a
/// charger that won (issue 64; until `bpt-7` it was neither).
#[test]
fn counter_charging_cavalry_that_wins_is_disordered_and_exhausted() {
    // Union cavalry (front edge y 51.0, 2 cm deep) charged by a Confederate line (front edge
    // 51.76 − 0.75 = 51.01), and counter-charging.
    let mut b = battle(&[
        u(0, "us_cavalry_1862", 4, 100.0, 50.0, 90.0),
        u(1, RIFLES, 4, 100.0, 51.76, 270.0),
    ]);
    to_command(&mut b);
    assert!(b.unit_distance(0, 1) < 0.05, "in contact: {}", b.unit_distance(0, 1));
    b.arranging().combats.push(Combat {
        chargers: vec![1],
        target: 0,
        supports: [vec![], vec![]],
        counter_charge: true,
    });
    // The charger rolls first: the Confederates' 9 dice (4 × 2 + 1 charging) all miss, the
    // cavalry's 17 (4 × 4, its army list's attacks, + 1 counter-charging) all hit.
    let mut faces = vec![1; 9];
    faces.extend([6; 17]);
    faces.extend([1; 20]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::EndPhase).unwrap();
    let dice: Vec<u32> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Melee(MeleeEvent::CombatRound { sides, .. }) => {
                Some(sides.iter().map(|s| s.dice).collect::<Vec<_>>())
            }
            _ => None,
        })
        .next()
        .unwrap();
    assert_eq!(
        dice,
        vec![9, 17],
        "the charger's dice, then the counter-charging cavalry's"
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Morale(MoraleEvent::KnockedOut { unit: 1, .. }))),
        "the cavalry won by double: {ev:?}"
    );
    let pt = b.player_turn;
    assert!(b.unit(0).disordered(pt), "the counter-charging cavalry is disordered");
    assert!(b.unit(0).exhausted, "and its mounts exhausted");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Morale(MoraleEvent::Disordered { unit: 0 })))
    );
}
