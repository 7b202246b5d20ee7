//! BPT "Fixed Formations (Optional Rule)" (switch `fixed-formations`), seeds/003 "MORE IDEAS":
//! formations take orders only from their own command unit; the CO may attach a unit of his own
//! formation to another, at −1 per 10 cm CO to HQ, −1 per section of dense terrain and per
//! enemy unit between them; the unit is moved to within 10 cm of the HQ and takes no further
//! orders that turn.

use super::common::*;
use volley::battle::event::CommandOutcome;
use volley::battle::event::families::*;
use volley::battle::{Action, Battle, Event};
use volley::rules::geometry::{self};
use volley::rules::switches::{Switch, Switches};
use volley::rules::terrain::{AreaKind, Terrain};

const RIFLES: &str = "regular_infantry_rifled";

/// Union units 0 (the CO's own formation) and 1 (the brigade's); a Confederate line far off
/// (unit 2), and `extra`. The CO stands at (20, 5), the HQ at (`hq_x`, 5).
fn army(on: bool, hq_x: f64, extra: &[U], terrain: Terrain) -> Battle {
    let mut units = vec![
        u(0, RIFLES, 4, 20.0, 20.0, 90.0),
        u(0, RIFLES, 4, hq_x, 20.0, 90.0),
        u(1, RIFLES, 4, 200.0, 160.0, 270.0),
    ];
    units.extend_from_slice(extra);
    let switches: &[Switch] = if on { &[Switch::FixedFormations] } else { &[] };
    let mut b = battle_switched(
        &units,
        terrain,
        [(20.0, 5.0), (220.0, 175.0)],
        [(hq_x, 5.0), (200.0, 175.0)],
        switches,
    );
    b.arranging().unit_mut(0).hq = CO0;
    to_command(&mut b);
    b
}

fn order(c: u32, units: &[u32]) -> Action {
    Action::Order {
        commander: c,
        units: units.to_vec(),
        charge: false,
        dense: false,
        road: false,
    }
}

#[test]
fn a_formation_takes_orders_only_from_its_own_commander() {
    let b = army(true, 60.0, &[], Terrain::default());
    // The CO may not reach into the brigade; the brigade HQ not into the CO's formation.
    let e = b.check_order(CO0, &[1], false, false).unwrap_err();
    assert_eq!(e.rule, "BPT Fixed Formations");
    assert!(b.check_order(HQ0, &[0], false, false).is_err());
    b.check_order(CO0, &[0], false, false)
        .expect("the CO orders his own formation");
    b.check_order(HQ0, &[1], false, false).expect("the HQ orders its own");
    assert!(!b.legal_actions().contains(&order(CO0, &[1])));
    // Without the switch the CO orders anyone in his chain of command.
    let off = army(false, 60.0, &[], Terrain::default());
    off.check_order(CO0, &[1], false, false)
        .expect("BPT's chain of command");
}

#[test]
fn attaching_costs_one_per_10_cm_from_the_co_to_the_hq_not_to_the_unit() {
    // Commanders are 2 cm across: centres 40 cm apart are 38 cm edge to edge, three full 10 cm.
    let b = army(true, 60.0, &[], Terrain::default());
    let p = b.check_attach(0, HQ0).expect("the CO may attach his unit");
    let value = b.commander(CO0).command_value;
    assert_eq!(p.value, value);
    assert_eq!(
        p.modifiers.iter().map(|m| m.amount).sum::<i32>(),
        -3,
        "{:?}",
        p.modifiers
    );
    assert_eq!(p.target, value - 3);
    // At 19 cm centre to centre (17 cm apart): one.
    let b = army(true, 39.0, &[], Terrain::default());
    assert_eq!(b.check_attach(0, HQ0).unwrap().target, value - 1);
    // Only the CO's own units, only to an HQ, only with the switch.
    assert!(b.check_attach(1, HQ0).is_err());
    assert!(b.check_attach(0, CO0).is_err());
    let off = army(false, 39.0, &[], Terrain::default());
    assert!(off.check_attach(0, HQ0).unwrap_err().rule.contains("Fixed Formations"));
}

#[test]
fn dense_terrain_and_enemy_units_between_the_co_and_the_hq_cost_one_each() {
    let marsh = area(AreaKind::Marsh, 28.0, 2.0, 32.0, 8.0);
    // An enemy line astride the line from the CO (20, 5) to the HQ (39, 5).
    let enemy = u(1, RIFLES, 4, 35.0, 5.0, 270.0);
    let b = army(true, 39.0, &[enemy], marsh);
    let p = b.check_attach(0, HQ0).unwrap();
    let value = b.commander(CO0).command_value;
    assert_eq!(p.target, value - 3, "{:?}", p.modifiers);
    assert!(
        p.modifiers
            .iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("dense terrain") && m.amount == -1)
    );
    assert!(
        p.modifiers
            .iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("enemy units") && m.amount == -1)
    );
}

/// Seeds/003 "Fixed Formations": "deduct one from the command value for each section of dense
/// terrain … between the CO and the HQ"; "Dense Terrain": for "Troops on foot & cavalry: Mud,
/// soft sand, deep snow, swamp, marsh", and "Command units … are treated as foot": so a wood
/// costs nothing, a marsh −1, a marsh and a mud patch −2.
#[test]
fn dense_terrain_between_co_and_hq_is_bpts_for_foot_marsh_and_mud_not_woods() {
    // CO (20, 5) to HQ (39, 5): 17 cm apart, −1 for the distance alone.
    let plain = army(true, 39.0, &[], Terrain::default());
    let value = plain.commander(CO0).command_value;
    assert_eq!(plain.check_attach(0, HQ0).unwrap().target, value - 1);
    let dense = |t: Terrain| {
        let b = army(true, 39.0, &[], t);
        let p = b.check_attach(0, HQ0).unwrap();
        let d: i32 = p
            .modifiers
            .iter()
            .filter(|m| volley::report::words::rule_words(m.rule).contains("dense terrain"))
            .map(|m| m.amount)
            .sum();
        (d, p.target - value)
    };
    assert_eq!(
        dense(area(AreaKind::Woods, 26.0, 2.0, 30.0, 8.0)),
        (0, -1),
        "a wood is not dense to foot"
    );
    assert_eq!(dense(area(AreaKind::Marsh, 26.0, 2.0, 30.0, 8.0)), (-1, -2));
    let mut both = area(AreaKind::Marsh, 24.0, 2.0, 27.0, 8.0);
    both.areas.extend(area(AreaKind::Mud, 30.0, 2.0, 34.0, 8.0).areas);
    assert_eq!(dense(both), (-2, -3));
}

/// Seeds/003 "Engineering": "engineers may not be issued orders during the same turn in which
/// they carry out a task"; attaching a unit is an order of the CO's.
#[test]
fn engineers_that_cleared_a_fence_this_turn_cannot_be_attached() {
    use volley::rules::geometry::V2;
    use volley::rules::terrain::{Linear, LinearKind};
    let units = [
        u(0, "us_engineers", 2, 20.0, 30.0, 90.0),
        u(0, RIFLES, 4, 60.0, 20.0, 90.0),
        u(1, RIFLES, 4, 200.0, 160.0, 270.0),
    ];
    let switches = [Switch::FixedFormations, Switch::Engineers];
    let make = |fence: bool| {
        let b = battle_switched(
            &units,
            Terrain::default(),
            [(20.0, 5.0), (220.0, 175.0)],
            [(60.0, 5.0), (200.0, 175.0)],
            &switches,
        );
        // A fence just in front of the engineers.
        let front = b.rects(0).iter().map(|r| r.front_edge().0.y).fold(f64::MIN, f64::max);
        let terrain = Terrain {
            linears: if fence {
                vec![Linear {
                    kind: LinearKind::Fence,
                    name: "the fence".into(),
                    points: vec![V2::new(0.0, front + 0.45), V2::new(40.0, front + 0.45)],
                    width: 0.5,
                }]
            } else {
                vec![]
            },
            ..Default::default()
        };
        let mut b = battle_switched(
            &units,
            terrain,
            [(20.0, 5.0), (220.0, 175.0)],
            [(60.0, 5.0), (200.0, 175.0)],
            &switches,
        );
        b.arranging().unit_mut(0).hq = CO0;
        b
    };
    let mut b = make(true);
    assert_eq!(b.phase, volley::battle::Phase::Initiative);
    script(&mut b, &[6]);
    let ev = b
        .apply(&Action::Engineer { unit: 0, linear: 0 })
        .expect("the engineers clear the fence");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Works(WorksEvent::EngineerWork { done: true, .. })))
    );
    to_command(&mut b);
    let e = b.check_attach(0, HQ0).unwrap_err();
    assert_eq!(e.rule, "BPT Engineering", "{e:?}");
    assert!(!b.legal_actions().contains(&Action::Attach { unit: 0, hq: HQ0 }));
    // Engineers that did no task are attached as any unit.
    let mut idle = make(false);
    to_command(&mut idle);
    idle.check_attach(0, HQ0).expect("idle engineers may be attached");
}

#[test]
fn a_passed_roll_moves_the_unit_within_10_cm_of_the_hq_for_the_rest_of_the_battle() {
    let mut b = army(true, 60.0, &[], Terrain::default());
    let p = b.check_attach(0, HQ0).unwrap();
    script(&mut b, &[2, 3]);
    let ev = b.apply(&Action::Attach { unit: 0, hq: HQ0 }).expect("legal");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Command(CommandEvent::CommandRoll {
            commander: CO0,
            outcome: CommandOutcome::Success,
            ..
        })
    )));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Formations(FormationsEvent::Attached {
            unit: 0,
            co: CO0,
            hq: HQ0
        })
    )));
    assert_eq!(b.unit(0).hq, HQ0);
    assert_eq!(b.unit(0).pose, p.to);
    let hq = b.commander_rect(b.commander(HQ0));
    assert!(geometry::rects_distance(&[hq], b.rects(0)) <= 10.0);
    // "The unit cannot then be issued any further orders that turn."
    assert!(b.check_order(HQ0, &[0], false, false).is_err());
    assert!(b.check_attach(0, HQ0).is_err());
    // Next turn it is the HQ's to order, not the CO's.
    b.arranging().cmd = Default::default();
    b.check_order(HQ0, &[0, 1], false, false)
        .expect("the HQ's formation now");
    assert!(b.check_order(CO0, &[0], false, false).is_err());
}

#[test]
fn a_failed_roll_ends_every_order_of_the_side() {
    let mut b = army(true, 60.0, &[], Terrain::default());
    script(&mut b, &[6, 5]);
    let ev = b.apply(&Action::Attach { unit: 0, hq: HQ0 }).expect("legal");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Command(CommandEvent::OrdersEnded { all: true, .. })))
    );
    assert_eq!(b.unit(0).hq, CO0);
    assert!(
        b.check_order(HQ0, &[1], false, false).is_err(),
        "the CO failed: no more orders"
    );
}

#[test]
fn the_scheduler_feeds_a_reserve_forward_and_games_replay() {
    // The CO's reserve on the left; the brigade 40 cm to the east, its HQ beside the CO; the
    // enemy further east.
    let mut b = battle_switched(
        &[
            u(0, RIFLES, 4, 20.0, 40.0, 0.0),
            u(0, RIFLES, 4, 60.0, 40.0, 0.0),
            u(1, RIFLES, 4, 100.0, 40.0, 180.0),
        ],
        Terrain::default(),
        [(20.0, 30.0), (220.0, 175.0)],
        [(29.0, 30.0), (200.0, 175.0)],
        &[Switch::FixedFormations],
    );
    b.arranging().unit_mut(0).hq = CO0;
    to_command(&mut b);
    let mut s = volley::agents::by_name("scheduler-easy", 1, 0).unwrap();
    let mut picks = Vec::new();
    while b.phase == volley::battle::Phase::Command && picks.len() < 30 {
        let legal = b.legal_actions();
        let a = legal[s.choose(&b, &legal)].clone();
        b.apply(&a).expect("the scheduler picks legal actions");
        picks.push(a);
    }
    assert!(picks.contains(&Action::Attach { unit: 0, hq: HQ0 }), "{picks:?}");

    let on: Switches = [Switch::FixedFormations].into_iter().collect();
    for seed in [1, 2] {
        scheduler_game("skirmish.ron", seed, &on, |b, act, _ev| {
            if let Action::Order { commander, units, .. } = act {
                assert!(units.iter().all(|&u| b.unit(u).hq == *commander), "{act:?}");
            }
        });
    }
}
