//! BPT "Command Phase": rolls, modifiers, bonus, blunder, failure, the CO.

use super::common::*;
use volley::battle::Action;
use volley::battle::command::distance_penalty;
use volley::battle::event::families::*;
use volley::battle::event::{CommandOutcome, Event};
use volley::rules::odds;

const RIFLES: &str = "regular_infantry_rifled";

#[test]
fn distance_modifier_follows_the_books_own_bands() {
    // BPT "Command Modifiers" note 2: "deduct one for units from 21-40cm distance, two for
    // units from 41-60cm distance, etc." (DECISIONS "Phases" 2), with the numbers of bpt.ron.
    let r = volley::load_rules(None).expect("bundled rules").command;
    let p = |d: f64| distance_penalty(d, r.free_distance, r.distance_step, r.per_distance);
    assert_eq!((p(0.0), p(10.0), p(15.0), p(20.0)), (0, 0, 0, 0));
    assert_eq!((p(20.5), p(21.0), p(30.0), p(40.0)), (-1, -1, -1, -1));
    assert_eq!((p(40.5), p(41.0), p(60.0)), (-2, -2, -2));
    assert_eq!((p(61.0), p(80.0), p(81.0)), (-3, -3, -4));
}

/// A brigade HQ (command 7) with one unit `d` cm away (edge to edge).
fn hq_and_unit(d: f64) -> volley::battle::Battle {
    // Line of 4: 10 wide, 1.5 deep, command stand 1.5 deep behind; unit centre at y = 50.
    // The HQ (2 cm across) stands in front of it.
    let mut b = battle_with(
        &[u(0, RIFLES, 4, 100.0, 50.0, 90.0), u(1, RIFLES, 4, 100.0, 170.0, 270.0)],
        Default::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(100.0, 50.75 + d + 1.0), (200.0, 175.0)],
    );
    to_command(&mut b);
    b
}

#[test]
fn a_command_roll_at_value_eight_with_a_distance_penalty_succeeds_with_the_exact_2d6_odds() {
    // Division HQ average: command 8. Its unit 30 cm away: −1 → roll 7 or less: 21/36.
    let mut b = hq_and_unit(100.0);
    b.arranging().commanders[0].pos = volley::rules::geometry::V2::new(100.0, 50.75 + 30.0 + 1.0);
    let plan = b.check_order(0, &[0], false, false).expect("legal order");
    assert_eq!(plan.value, 8);
    assert_eq!(plan.target, 7, "{:?}", plan.modifiers);
    let exact = odds::command_roll_odds(7).success;
    assert!((exact - 21.0 / 36.0).abs() < 1e-12);
    // The game's dice agree: 20 000 seeded orders, tolerance ±0.012 (≈3.5 standard errors).
    let n = 20_000;
    let mut ok = 0;
    for seed in 0..n {
        let mut t = b.clone();
        t.set_dice(volley::rules::dice::Dice::new(seed));
        let ev = t
            .apply(&Action::Order {
                commander: 0,
                units: vec![0],
                charge: false,
                dense: false,
                road: false,
            })
            .unwrap();
        if ev.iter().any(|e| {
            matches!(
                e,
                Event::Command(CommandEvent::CommandRoll {
                    outcome: CommandOutcome::Success | CommandOutcome::Bonus,
                    ..
                })
            )
        }) {
            ok += 1;
        }
    }
    let p = ok as f64 / n as f64;
    assert!((p - exact).abs() < 0.012, "observed {p}, exact {exact}");
}

#[test]
fn successive_orders_cost_one_more_each_and_a_failure_ends_the_commanders_orders() {
    let mut b = hq_and_unit(2.0);
    script(&mut b, &[3, 3, 2, 2, 5, 2]);
    let order = Action::Order {
        commander: HQ0,
        units: vec![0],
        charge: false,
        dense: false,
        road: false,
    };
    b.apply(&order).unwrap(); // 6 ≤ 7
    let plan = b.check_order(HQ0, &[0], false, false).unwrap();
    assert_eq!(plan.target, 6, "second order −1");
    b.apply(&order).unwrap(); // 4 ≤ 6
    assert_eq!(
        b.check_order(HQ0, &[0], false, false).unwrap().target,
        5,
        "third order −2"
    );
    let ev = b.apply(&order).unwrap(); // 7 > 5: fails
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Command(CommandEvent::CommandRoll {
            outcome: CommandOutcome::Failure,
            ..
        })
    )));
    let r = b.check_order(HQ0, &[0], false, false).unwrap_err();
    assert!(r.reason.contains("no further orders"), "{r}");
}

#[test]
fn double_one_gives_two_actions() {
    let mut b = hq_and_unit(2.0);
    script(&mut b, &[1, 1]);
    b.apply(&Action::Order {
        commander: HQ0,
        units: vec![0],
        charge: false,
        dense: false,
        road: false,
    })
    .unwrap();
    assert_eq!(b.cmd.orders[&0].credits, 2);
}

#[test]
fn the_co_may_order_units_an_hq_failed_on_at_minus_one_and_a_co_failure_ends_all_orders() {
    let mut b = hq_and_unit(2.0);
    b.arranging().commanders[CO0 as usize].pos = volley::rules::geometry::V2::new(100.0, 54.0);
    script(&mut b, &[5, 5, 6, 5]);
    b.apply(&Action::Order {
        commander: HQ0,
        units: vec![0],
        charge: false,
        dense: false,
        road: false,
    })
    .unwrap(); // 10 > 7
    let plan = b.check_order(CO0, &[0], false, false).unwrap();
    assert!(
        plan.modifiers
            .iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("Commanding Officer") && m.amount == -1)
    );
    assert_eq!(plan.target, 7);
    b.apply(&Action::Order {
        commander: CO0,
        units: vec![0],
        charge: false,
        dense: false,
        road: false,
    })
    .unwrap(); // 11 > 7
    assert!(b.cmd.all_stopped);
    let r = b.check_order(HQ0, &[0], false, false).unwrap_err();
    assert!(
        r.reason.contains("no more orders") || r.reason.contains("no further"),
        "{r}"
    );
}

#[test]
fn double_six_is_a_blunder_rolled_on_the_table() {
    let mut b = hq_and_unit(2.0);
    // 6 6: blunder; d6 = 3: RE-LOCATE (the HQ moves half a move away from the nearest visible enemy).
    script(&mut b, &[6, 6, 3]);
    let before = b.commanders[HQ0 as usize].pos;
    let ev = b
        .apply(&Action::Order {
            commander: HQ0,
            units: vec![0],
            charge: false,
            dense: false,
            road: false,
        })
        .unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Command(CommandEvent::Blunder {
            roll: 3,
            effect: volley::rules::params::BlunderEffect::Relocate,
            ..
        })
    )));
    let after = b.commanders[HQ0 as usize].pos;
    assert!((before.dist(after) - 15.0).abs() < 1e-6, "half of a 30 cm mounted move");
}

#[test]
fn an_unordered_unit_cannot_act_and_orders_are_spent_by_actions() {
    let mut b = hq_and_unit(2.0);
    let mv = Action::Move {
        unit: 0,
        to: volley::rules::geometry::Pose::new(volley::rules::geometry::V2::new(100.0, 45.0), b.unit(0).pose.facing),
    };
    let before = b.state_hash();
    assert!(b.apply(&mv).is_err());
    assert_eq!(b.state_hash(), before, "a refused action changes nothing");
    script(&mut b, &[2, 2]);
    b.apply(&Action::Order {
        commander: HQ0,
        units: vec![0],
        charge: false,
        dense: false,
        road: false,
    })
    .unwrap();
    // Retire 2.5 cm: 2.5 + 7.5 (three-quarters) = 10.
    let back = Action::Move {
        unit: 0,
        to: volley::rules::geometry::Pose::new(volley::rules::geometry::V2::new(100.0, 47.5), b.unit(0).pose.facing),
    };
    b.apply(&back).expect("a retire of a quarter move");
    assert!(b.apply(&back).is_err(), "the order's one action is spent");
}

/// A march column on a north–south road at (100, 50) facing north; its brigade HQ (id 1) at
/// (40, 5), some 70 cm away.
fn column_on_a_road(formation: volley::rules::formation::Formation) -> volley::battle::Battle {
    let mut x = u(0, RIFLES, 4, 100.0, 50.0, 90.0);
    x.formation = formation;
    let road = road_along(&[(100.0, 0.0), (100.0, 180.0)]);
    let mut b = battle_with(
        &[x, u(1, RIFLES, 4, 100.0, 170.0, 270.0)],
        road,
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
    );
    to_command(&mut b);
    b
}

#[test]
fn a_column_travelling_its_entire_move_along_a_road_has_no_distance_modifier() {
    // BPT "Command Modifiers" note 2: "Units traveling their entire move along a road are not
    // affected by this modifier." The road order declares it; it may then only so travel.
    use volley::rules::formation::Formation;
    use volley::rules::geometry::{Pose, V2};
    let road_order = Action::Order {
        commander: 1,
        units: vec![0],
        charge: false,
        dense: false,
        road: true,
    };
    let mut b = column_on_a_road(Formation::MarchColumn);
    let plain = b.check_order(1, &[0], false, false).unwrap();
    let dp = distance_penalty(plain.distance, 20.0, 20.0, -1);
    assert!(plain.distance > 60.0 && dp == -3, "{} cm: {dp}", plain.distance);
    assert!(
        plain
            .modifiers
            .iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("note 2") && m.amount == dp)
    );
    let road = b.check_order_by(1, &[0], false, false, true).unwrap();
    assert!(
        road.modifiers
            .iter()
            .all(|m| !volley::report::words::rule_words(m.rule).contains("note 2"))
    );
    assert_eq!(road.target, plain.target - dp);
    assert!(b.legal_actions().contains(&road_order), "offered where it helps");
    // Passed (1 + 2 ≤ 7): off the road, or anything but travelling, is refused.
    script(&mut b, &[1, 2]);
    b.apply(&road_order).unwrap();
    let n = std::f64::consts::FRAC_PI_2;
    let off = b
        .apply(&Action::Move {
            unit: 0,
            to: Pose::new(V2::new(104.0, 58.0), n),
        })
        .unwrap_err();
    assert!(off.rule.contains("note 2"), "{off}");
    let deploy = b
        .apply(&Action::Deploy {
            unit: 0,
            deploy: volley::battle::Deploy::Formation(Formation::Line),
        })
        .unwrap_err();
    assert!(deploy.rule.contains("note 2"), "{deploy}");
    // A 45° wheel with a short advance stays on the road but is no road move (issue 64).
    let wheel = b
        .apply(&Action::Move {
            unit: 0,
            to: Pose::new(V2::new(100.0, 53.0), n + std::f64::consts::FRAC_PI_4),
        })
        .unwrap_err();
    assert_eq!(wheel.rule, "BPT March Column", "{wheel}");
    // Along the road, with the road bonus (10 + 5 cm).
    b.apply(&Action::Move {
        unit: 0,
        to: Pose::new(V2::new(100.0, 65.0), n),
    })
    .expect("along the road");
    // A line cannot be given one.
    let b = column_on_a_road(Formation::Line);
    let r = b.check_order_by(1, &[0], false, false, true).unwrap_err();
    assert!(r.rule.contains("Road"), "{r}");
}

#[test]
fn a_commander_touching_its_march_column_gets_plus_one() {
    // BPT "March Column": "Command units commanding a formation in march column get a +1 to
    // their command die if touching bases with the units that are in March Column."
    use volley::rules::formation::Formation;
    let mut b = column_on_a_road(Formation::MarchColumn);
    let far = b.check_order(1, &[0], false, false).unwrap();
    assert!(
        !far.modifiers
            .iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("March Column"))
    );
    // The HQ (2 cm across) touching the column's flank: the column is 2.5 cm wide at x = 100.
    b.arranging().commanders[1].pos = volley::rules::geometry::V2::new(102.25 + 0.2, 50.0);
    let near = b.check_order(1, &[0], false, false).unwrap();
    assert!(
        near.modifiers
            .iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("March Column") && m.amount == 1),
        "{:?}",
        near.modifiers
    );
    assert_eq!(near.target, near.value + 1, "touching: no distance modifier, +1");
    // Not in march column: no +1 though touching.
    let mut b = column_on_a_road(Formation::Line);
    b.arranging().commanders[1].pos = volley::rules::geometry::V2::new(100.0, 46.55); // touching the command stand
    let line = b.check_order(1, &[0], false, false).unwrap();
    assert!(
        !line
            .modifiers
            .iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("March Column"))
    );
}
