//! *Glory Days!* initiative passing with D-markers (switch `initiative-passing`), numbers
//! from the book (seeds/004, "Activation", "Reaction Fire", "Effect of Hits", "Rallying").

use super::common::*;
use std::path::Path;
use volley::agents;
use volley::battle::event::families::*;
use volley::battle::{Action, Battle, Deploy, Event, Ground, Phase, Purpose, Step};
use volley::data::scenario::Grade;
use volley::replay::Recording;
use volley::replay::verify::verify;
use volley::rules::geometry::{Pose, V2};
use volley::rules::switches::{Switch, Switches};
use volley::rules::terrain::{Area, AreaKind, Polygon, Terrain};

const ROW: &str = "regular_infantry_rifled";

/// Two Union lines side by side (within 6" = 20 cm of each other), a Confederate line far off.
fn pair(terrain: Terrain, enemy_y: f64) -> Battle {
    let mut b = battle_switched(
        &[
            u(0, ROW, 4, 100.0, 50.0, 90.0),
            u(0, ROW, 4, 130.0, 50.0, 90.0),
            u(1, ROW, 4, 100.0, enemy_y, 270.0),
        ],
        terrain,
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::InitiativePassing],
    );
    to_command(&mut b);
    b
}

fn open() -> Battle {
    pair(Terrain::default(), 150.0)
}

fn woods() -> Terrain {
    Terrain {
        areas: vec![Area {
            kind: AreaKind::Woods,
            name: "wood".into(),
            outline: Polygon(vec![
                V2::new(80.0, 40.0),
                V2::new(120.0, 40.0),
                V2::new(120.0, 60.0),
                V2::new(80.0, 60.0),
            ]),
        }],
        ..Default::default()
    }
}

fn activate(unit: u32) -> Action {
    Action::Activate {
        unit,
        purpose: Purpose::Move,
        into: Ground::Open,
    }
}

fn activate_for(unit: u32, purpose: Purpose, into: Ground) -> Action {
    Action::Activate { unit, purpose, into }
}

const MOVE: Purpose = Purpose::Move;
const OPEN: Ground = Ground::Open;

fn passed(ev: &[Event]) -> bool {
    ev.iter()
        .any(|e| matches!(e, Event::Passing(PassingEvent::InitiativePassed { .. })))
}

#[test]
fn activation_base_target_is_3_and_a_success_gives_one_action() {
    let mut b = open();
    assert_eq!(b.activation_plan(0, MOVE, OPEN).unwrap().target, 3);
    assert!(b.legal_actions().contains(&activate(0)));
    assert!(!b.legal_actions().iter().any(|a| matches!(a, Action::Order { .. })));
    script(&mut b, &[3]);
    let ev = b.apply(&activate(0)).expect("activates");
    assert!(matches!(
        ev[0],
        Event::Passing(PassingEvent::ActivationRoll {
            target: 3,
            roll: 3,
            success: true,
            ..
        })
    ));
    let to = Pose::new(V2::new(100.0, 55.0), 90f64.to_radians());
    b.apply(&Action::Move { unit: 0, to }).expect("moves once");
    assert!(b.apply(&Action::Move { unit: 0, to }).is_err(), "one action a success");
    assert_eq!(b.phase, Phase::Command);
}

#[test]
fn activation_plus_1_per_previous_move_and_only_consecutively() {
    let mut b = open();
    script(&mut b, &[6, 6, 6]);
    b.apply(&activate(0)).unwrap();
    assert_eq!(b.activation_plan(0, MOVE, OPEN).unwrap().target, 4, "+1 previous move");
    b.apply(&activate(0)).unwrap();
    assert_eq!(b.activation_plan(0, MOVE, OPEN).unwrap().target, 5, "+2 after two");
    b.apply(&activate(1)).unwrap();
    let e = b.apply(&activate(0)).unwrap_err();
    assert!(e.reason.contains("consecutively"), "{e}");
}

#[test]
fn activation_modifiers_alone_plus_1_general_minus_1() {
    let mut b = battle_switched(
        &[u(0, ROW, 4, 100.0, 50.0, 90.0), u(1, ROW, 4, 100.0, 150.0, 270.0)],
        Terrain::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::InitiativePassing],
    );
    to_command(&mut b);
    assert_eq!(
        b.activation_plan(0, MOVE, OPEN).unwrap().target,
        4,
        "no friend within 6\""
    );
    // The brigade HQ rides to the unit's rear edge: general with unit −1.
    b.arranging().commanders[1].pos = V2::new(100.0, 47.5);
    b.refresh_geometry();
    assert!(b.touching_commander(0).is_some());
    assert_eq!(b.activation_plan(0, MOVE, OPEN).unwrap().target, 3);
    // An activation to charge rolls as a move; the charge test (4+) is its own roll.
    assert_eq!(b.activation_plan(0, Purpose::Charge, OPEN).unwrap().target, 3);
}

#[test]
fn glory_days_example_raw_unit_in_open_woodland_with_1_d_marker_needs_6() {
    let mut b = pair(woods(), 150.0);
    b.arranging().units[0].grade = Grade::Poor;
    b.arranging().units[0].d_markers = 1;
    let p = b.activation_plan(0, MOVE, OPEN).unwrap();
    assert_eq!(p.target, 6, "{:?}", p.modifiers);
    // Into godforsaken terrain it could not move at all.
    let e = b.activation_plan(0, MOVE, Ground::Godforsaken).unwrap_err();
    assert!(e.reason.contains("cannot be activated"), "{e}");
    assert!(!b.legal_actions().contains(&activate_for(0, MOVE, Ground::Godforsaken)));
}

#[test]
fn failed_activation_passes_the_initiative_and_in_difficult_terrain_gains_a_d_marker() {
    let mut b = pair(woods(), 150.0);
    assert_eq!(b.activation_plan(0, MOVE, OPEN).unwrap().target, 4, "difficult +1");
    script(&mut b, &[3, 1, 1, 1, 1, 1, 1]);
    let ev = b.apply(&activate(0)).unwrap();
    assert!(passed(&ev), "{ev:?}");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Passing(PassingEvent::DMarkers {
            unit: 0,
            change: 1,
            total: 1,
            ..
        })
    )));
    assert_eq!(b.units[0].d_markers, 1);
    assert_ne!(b.phase, Phase::Command, "the command phase ended");
}

#[test]
fn hits_become_d_markers_at_most_3_the_rest_are_hits() {
    let mut b = pair(Terrain::default(), 65.0);
    script(&mut b, &[6; 40]);
    let ev = b
        .apply(&Action::Fire { unit: 0, target: 2 })
        .expect("fires without a roll");
    assert!(!passed(&ev), "hits keep the initiative");
    let t = &b.units[2];
    let landed: u32 = ev
        .iter()
        .filter_map(|e| match e {
            Event::Fire(FireEvent::Fired { hits, saved, .. }) => Some(hits - saved),
            _ => None,
        })
        .sum();
    assert!(landed > 3);
    assert_eq!(t.d_markers, 3);
    assert_eq!(t.hits, landed - 3);
    // Each unit fires once on the initiative.
    if b.step == Step::Open {
        assert!(b.apply(&Action::Fire { unit: 0, target: 2 }).is_err());
    }
}

#[test]
fn each_d_marker_raises_activation_and_the_score_to_hit_by_1() {
    let mut b = pair(Terrain::default(), 65.0);
    let plain = b.check_passing_fire(0, 2).unwrap().effective_to_hit();
    b.arranging().units[0].d_markers = 2;
    assert_eq!(b.activation_plan(0, MOVE, OPEN).unwrap().target, 5);
    assert_eq!(b.check_passing_fire(0, 2).unwrap().effective_to_hit(), plain + 2);
    b.arranging().units[0].d_markers = 3;
    assert_eq!(b.activation_plan(0, MOVE, OPEN).unwrap().target, 6);
}

#[test]
fn fire_that_lands_no_hit_passes_the_initiative() {
    let mut b = pair(Terrain::default(), 65.0);
    script(&mut b, &[1; 40]);
    let ev = b.apply(&Action::Fire { unit: 0, target: 2 }).unwrap();
    assert!(passed(&ev));
    // The enemy may still answer (opportunity fire); then the phase ends.
    while b.phase == Phase::Command {
        assert!(matches!(b.step, Step::Reaction { .. }));
        b.apply(&Action::Pass).unwrap();
    }
}

#[test]
fn reaction_fire_of_2_hits_stops_the_move_and_passes_the_initiative() {
    let mut b = pair(Terrain::default(), 75.0);
    let mut faces = vec![3];
    faces.extend([6; 40]);
    script(&mut b, &faces);
    b.apply(&activate(0)).unwrap();
    let to = Pose::new(V2::new(100.0, 58.0), 90f64.to_radians());
    b.apply(&Action::Move { unit: 0, to }).expect("moves");
    assert!(matches!(b.step, Step::Reaction { .. }), "{:?}", b.step);
    let ev = b
        .apply(&Action::OpportunityFire {
            unit: 2,
            target: 0,
            with: vec![],
        })
        .unwrap();
    assert!(passed(&ev), "{ev:?}");
    assert_ne!(b.phase, Phase::Command);
}

#[test]
fn reaction_fire_of_1_hit_does_not_stop_the_move() {
    let mut b = pair(Terrain::default(), 75.0);
    let mut faces = vec![3];
    faces.extend([6, 1, 1, 1, 1, 1, 1, 1, 1]);
    faces.extend([1; 20]);
    script(&mut b, &faces);
    b.apply(&activate(0)).unwrap();
    let to = Pose::new(V2::new(100.0, 58.0), 90f64.to_radians());
    b.apply(&Action::Move { unit: 0, to }).expect("moves");
    let ev = b
        .apply(&Action::OpportunityFire {
            unit: 2,
            target: 0,
            with: vec![],
        })
        .unwrap();
    assert!(!passed(&ev), "{ev:?}");
    assert_eq!(b.phase, Phase::Command);
}

#[test]
fn rally_3_plus_removes_one_d_marker_and_failure_passes_the_initiative() {
    let mut b = open();
    b.arranging().units[0].d_markers = 2;
    // Base 3, outside movement range of any enemy −1.
    let p = b.rally_plan(0).unwrap();
    assert_eq!(p.target, 2, "{:?}", p.modifiers);
    b.arranging().units[2].pose.pos = V2::new(100.0, 60.0);
    b.refresh_geometry();
    assert_eq!(b.rally_plan(0).unwrap().target, 3, "an enemy within its move");
    script(&mut b, &[3, 2]);
    let ev = b.apply(&Action::Rally { unit: 0 }).unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Passing(PassingEvent::DMarkers {
            change: -1,
            total: 1,
            ..
        })
    )));
    assert_eq!(b.units[0].d_markers, 1);
    let ev = b.apply(&Action::Rally { unit: 0 }).unwrap();
    assert!(passed(&ev));
    assert_eq!(b.units[0].d_markers, 1);
    assert_ne!(b.phase, Phase::Command);
}

#[test]
fn with_the_switch_off_there_is_no_activation_or_rally() {
    let mut b = battle(&[u(0, ROW, 4, 100.0, 50.0, 90.0), u(1, ROW, 4, 100.0, 150.0, 270.0)]);
    to_command(&mut b);
    assert!(b.apply(&activate(0)).is_err());
    assert!(b.apply(&Action::Rally { unit: 0 }).is_err());
    assert!(
        !b.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Activate { .. } | Action::Rally { .. }))
    );
}

#[test]
fn scheduler_games_under_initiative_passing_finish_and_verify() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
    let on: Switches = [Switch::InitiativePassing].into_iter().collect();
    for seed in [3, 11] {
        let (b, _) = volley::load_battle_with(&path, seed, &on).expect("skirmish with the variant");
        let mut rec = Recording::start(&b, &path.display().to_string(), seed, Some(4));
        let mut b = b;
        b.cap_turns(Some(4));
        let mut a = [
            agents::by_name(SCHEDULER, seed, 0).unwrap(),
            agents::by_name(SCHEDULER, seed, 1).unwrap(),
        ];
        let (mut activations, mut passes) = (0, 0);
        let done = volley::sim::play(b, &mut a, 100_000, |b, act, ev| {
            activations += ev
                .iter()
                .filter(|e| matches!(e, Event::Passing(PassingEvent::ActivationRoll { .. })))
                .count();
            passes += ev
                .iter()
                .filter(|e| matches!(e, Event::Passing(PassingEvent::InitiativePassed { .. })))
                .count();
            rec.push(b, act, ev)
        })
        .expect("plays to the end");
        assert!(done.is_over());
        assert!(
            activations > 0 && passes > 0,
            "{activations} activations, {passes} passes"
        );
        let back = Recording::parse(&rec.to_ron(), &path).expect("parses");
        let (_, h) = verify(&back, &path).expect("verifies with the switch");
        assert_eq!(h, done.state_hash());
    }
}

#[test]
fn the_d_marker_penalty_worsens_a_guns_round_shot_too() {
    // Issue 21, Hardtack 4: the penalty (here 1 D-marker: +1 to the score to hit) applies to
    // every strike of the fire, a gun's ball as a line's volley. The gun (id 0) 20 cm from a
    // Confederate line in the open: 4+ without the marker, 5+ with it.
    let mut b = battle_switched(
        &[
            u(0, "smoothbore_cannon", 1, 101.0, 50.0, 90.0),
            u(1, ROW, 4, 100.0, 72.0, 270.0),
        ],
        Terrain::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::InitiativePassing],
    );
    to_command(&mut b);
    b.arranging().units[0].loaded = Some(volley::data::scenario::Ammo::Shot);
    b.arranging().units[0].d_markers = 1;
    let plan = b.check_passing_fire(0, 1).expect("in range and seen");
    assert_eq!((plan.to_hit, plan.penalty, plan.score()), (4, 1, 5));
    // Accuracy 6 (on the aim point), bounce 1 (fails), then the strike dice.
    let mut faces = vec![6, 1];
    faces.extend([6; 40]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    let struck: Vec<u32> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Fire(FireEvent::Fired { target: 1, to_hit, .. }) => Some(*to_hit),
            _ => None,
        })
        .collect();
    assert_eq!(struck, vec![5], "the ball strikes at 5+, as the preview said");
}

/// A Union line (id 0) with a friend beside it (id 1) in the open, a Confederate line (id 2)
/// far off, and `terrain`.
fn pair_in(terrain: Terrain) -> Battle {
    pair(terrain, 150.0)
}

#[test]
fn moving_into_difficult_terrain_is_declared_targets_4_and_a_failure_gains_a_d_marker() {
    // Glory Days "Activation": "Moving in/into Difficult Terrain +1"; "Failure to activate a
    // unit to move into or in difficult or godforsaken terrain gains the unit a D-marker".
    // Regular line, a friend within 6", in the open, woods 5 cm ahead.
    let mut b = pair_in(area(AreaKind::Woods, 80.0, 55.0, 120.0, 75.0));
    assert_eq!(b.activation_plan(0, MOVE, OPEN).unwrap().target, 3);
    assert_eq!(
        b.activation_plan(0, MOVE, Ground::Difficult).unwrap().target,
        4,
        "into difficult +1"
    );
    let legal = b.legal_actions();
    assert!(legal.contains(&activate(0)));
    assert!(
        legal.contains(&activate_for(0, MOVE, Ground::Difficult)),
        "offered: its moves reach the woods"
    );
    script(&mut b, &[3, 1, 1, 1, 1, 1, 1]);
    let ev = b.apply(&activate_for(0, MOVE, Ground::Difficult)).unwrap();
    assert!(passed(&ev), "a 3 fails a 4: the initiative passes");
    assert_eq!(b.units[0].d_markers, 1, "{ev:?}");
}

#[test]
fn a_move_into_woods_needs_the_activation_that_declared_it() {
    let into_woods = Pose::new(V2::new(100.0, 56.0), 90f64.to_radians());
    // Declared open: the move into the woods is refused, a move in the open is not.
    let mut b = pair_in(area(AreaKind::Woods, 80.0, 55.0, 120.0, 75.0));
    script(&mut b, &[3]);
    b.apply(&activate(0)).unwrap();
    let e = b
        .apply(&Action::Move {
            unit: 0,
            to: into_woods,
        })
        .unwrap_err();
    assert!(e.reason.contains("difficult terrain"), "{e}");
    assert!(!b.legal_actions().contains(&Action::Move {
        unit: 0,
        to: into_woods
    }));
    // Declared difficult (a 4 passes it): the same move is allowed.
    let mut b = pair_in(area(AreaKind::Woods, 80.0, 55.0, 120.0, 75.0));
    script(&mut b, &[4]);
    b.apply(&activate_for(0, MOVE, Ground::Difficult)).unwrap();
    b.apply(&Action::Move {
        unit: 0,
        to: into_woods,
    })
    .expect("moves into the woods");
    // A failed activation to move in the open gains no D-marker.
    let mut b = pair_in(Terrain::default());
    script(&mut b, &[2, 1, 1, 1, 1, 1]);
    let ev = b.apply(&activate(0)).unwrap();
    assert!(passed(&ev));
    assert_eq!(b.units[0].d_markers, 0);
}

#[test]
fn a_unit_in_mud_can_be_activated_and_move_out() {
    // Mud is godforsaken (+2): 3 + 2 = 5. BPT's dense-terrain permission follows from it.
    let mut b = pair_in(area(AreaKind::Mud, 85.0, 40.0, 115.0, 51.5));
    let p = b.activation_plan(0, MOVE, OPEN).unwrap();
    assert_eq!(p.target, 5, "{:?}", p.modifiers);
    assert!(b.legal_actions().contains(&activate(0)));
    script(&mut b, &[5]);
    b.apply(&activate(0)).unwrap();
    let out = Pose::new(V2::new(100.0, 53.0), 90f64.to_radians());
    assert!(
        b.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Move { unit: 0, .. }))
    );
    b.apply(&Action::Move { unit: 0, to: out })
        .expect("moves out of the mud");
}

#[test]
fn changing_formation_has_its_own_table_no_enemy_within_12_inches_minus_1() {
    // Glory Days "Changing Formation": base 3; no enemy units within 12" (40 cm) −1. A lone
    // regular line (the movement table's "no friend within 6"" +1 is not in this table).
    let lone = |enemy_y: f64| {
        let mut b = battle_switched(
            &[u(0, ROW, 4, 100.0, 50.0, 90.0), u(1, ROW, 4, 100.0, enemy_y, 270.0)],
            Terrain::default(),
            [(20.0, 5.0), (220.0, 175.0)],
            [(40.0, 5.0), (200.0, 175.0)],
            &[Switch::InitiativePassing],
        );
        to_command(&mut b);
        b
    };
    let far = lone(111.5);
    assert!(
        (far.unit_distance(0, 1) - 60.0).abs() < 0.5,
        "{}",
        far.unit_distance(0, 1)
    );
    let formation = Purpose::Formation;
    assert_eq!(far.activation_plan(0, formation, OPEN).unwrap().target, 2);
    assert_eq!(far.activation_plan(0, MOVE, OPEN).unwrap().target, 4, "the move table");
    let near = lone(81.5);
    assert!((near.unit_distance(0, 1) - 30.0).abs() < 0.5);
    assert_eq!(near.activation_plan(0, formation, OPEN).unwrap().target, 3);
    // A change of formation in woods: "In Difficult Terrain +1"; failing it gives no D-marker
    // (only a failed move in or into difficult terrain does), and moves nowhere.
    let mut b = battle_switched(
        &[u(0, ROW, 4, 100.0, 50.0, 90.0), u(1, ROW, 4, 100.0, 81.5, 270.0)],
        woods(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::InitiativePassing],
    );
    to_command(&mut b);
    assert_eq!(b.activation_plan(0, formation, OPEN).unwrap().target, 4);
    assert!(b.activation_plan(0, formation, Ground::Difficult).is_err());
    script(&mut b, &[3, 1, 1, 1, 1, 1]);
    let ev = b.apply(&activate_for(0, formation, OPEN)).unwrap();
    assert!(passed(&ev));
    assert_eq!(b.units[0].d_markers, 0, "{ev:?}");
    // Succeeding, it may deploy and not move; a move activation may move and not deploy.
    let mut b = far;
    script(&mut b, &[2]);
    b.apply(&activate_for(0, formation, OPEN)).unwrap();
    let legal = b.legal_actions();
    assert!(legal.iter().any(|a| matches!(a, Action::Deploy { unit: 0, .. })));
    assert!(!legal.iter().any(|a| matches!(a, Action::Move { unit: 0, .. })));
    let to = Pose::new(V2::new(100.0, 55.0), 90f64.to_radians());
    assert!(b.apply(&Action::Move { unit: 0, to }).is_err());
}

#[test]
fn a_gun_that_loads_has_not_moved_and_fires_at_4_with_no_penalty() {
    // "If firer moved on this initiative +1": loading (a deploy) is no move.
    let mut b = battle_switched(
        &[
            u(0, "smoothbore_cannon", 1, 101.0, 50.0, 90.0),
            u(1, ROW, 4, 100.0, 72.0, 270.0),
        ],
        Terrain::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::InitiativePassing],
    );
    to_command(&mut b);
    b.arranging().units[0].loaded = None;
    let act = activate_for(0, Purpose::Formation, OPEN);
    assert_eq!(b.activation_plan(0, Purpose::Formation, OPEN).unwrap().target, 3);
    assert!(b.legal_actions().contains(&act));
    script(&mut b, &[3]);
    b.apply(&act).unwrap();
    b.apply(&Action::Deploy {
        unit: 0,
        deploy: Deploy::Load(volley::data::scenario::Ammo::Shot),
    })
    .expect("loads shot");
    assert!(!b.cmd.passing.moved.contains(&0));
    let plan = b.check_passing_fire(0, 1).expect("in range and seen");
    assert_eq!((plan.to_hit, plan.penalty, plan.score()), (4, 0, 4));
}

/// Union cavalry (id 0) 10 cm from a Confederate infantry line (id 1), both in the open.
fn cavalry_facing_infantry(charger: &'static str, stands: u32) -> Battle {
    let mut b = battle_switched(
        &[
            u(0, charger, stands, 100.0, 50.0, 90.0),
            u(1, ROW, 4, 100.0, 62.0, 270.0),
        ],
        Terrain::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::InitiativePassing],
    );
    to_command(&mut b);
    b
}

fn charge_tests(ev: &[Event]) -> Vec<(i32, u32, bool)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Passing(PassingEvent::ChargeTest {
                target, roll, success, ..
            }) => Some((*target, *roll, *success)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_charge_test_is_4_cavalry_against_infantry_in_the_open_3_and_a_failure_stops_2_inches_short() {
    // Glory Days "Melee": after the activation (a lone regular: 3 + 1 = 4), the charge test
    // "base target number is 4 … Cavalry charging Infantry in the open -1"; "If it fails it
    // stops 2" from its target and initiative passes to the enemy" (2" = 20/3 cm).
    let mut b = cavalry_facing_infantry("us_cavalry_1862", 3);
    let charge = activate_for(0, Purpose::Charge, OPEN);
    assert_eq!(b.activation_plan(0, Purpose::Charge, OPEN).unwrap().target, 4);
    assert_eq!(b.charge_test_plan(0, 1).unwrap().target, 3);
    script(&mut b, &[4, 2, 1, 1, 1, 1, 1, 1, 1, 1]);
    b.apply(&charge).unwrap();
    assert!(b.legal_actions().contains(&Action::Charge { unit: 0, target: 1 }));
    let ev = b.apply(&Action::Charge { unit: 0, target: 1 }).unwrap();
    assert_eq!(charge_tests(&ev), vec![(3, 2, false)]);
    assert!(passed(&ev), "{ev:?}");
    let gap = b.unit_distance(0, 1);
    assert!((gap - 20.0 / 3.0).abs() < 0.05, "stops 2\" short: {gap}");
    assert!(b.combats.is_empty(), "no charge");
    assert_ne!(b.phase, Phase::Command);
}

#[test]
fn infantry_passing_the_charge_test_of_4_charges_home() {
    let mut b = cavalry_facing_infantry(ROW, 4);
    assert_eq!(b.charge_test_plan(0, 1).unwrap().target, 4, "no cavalry −1");
    let mut faces = vec![4, 4];
    faces.extend([1; 40]);
    script(&mut b, &faces);
    b.apply(&activate_for(0, Purpose::Charge, OPEN)).unwrap();
    let ev = b.apply(&Action::Charge { unit: 0, target: 1 }).unwrap();
    assert_eq!(charge_tests(&ev), vec![(4, 4, true)]);
    assert!(!passed(&ev));
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Melee(MeleeEvent::ChargeDeclared { .. }))),
        "{ev:?}"
    );
}

#[test]
fn fired_on_same_target_last_initiative_is_one_easier() {
    // "Fired on same target last initiative -1": the unit's previous own initiative.
    let mut b = pair(Terrain::default(), 65.0);
    let plain = b.check_passing_fire(0, 2).unwrap();
    assert_eq!(plain.roll_bonus, 1, "BPT's first fire");
    let turn = b.player_turn;
    script(&mut b, &[1; 400]);
    b.apply(&Action::Fire { unit: 0, target: 2 }).unwrap();
    end_phases_until(&mut b, |b| b.phase == Phase::Command && b.player_turn == turn + 2);
    assert_eq!(b.active, 0);
    let again = b.check_passing_fire(0, 2).unwrap();
    assert_eq!(again.roll_bonus, 1, "same target: one easier");
    assert_eq!(again.effective_to_hit(), plain.score() - 1);
    // Not at another target, and not if it did not fire at it last initiative.
    b.arranging().units[0].gd_fired_at = Some((1, turn));
    assert_eq!(b.check_passing_fire(0, 2).unwrap().roll_bonus, 0);
}

#[test]
fn a_unit_that_carried_out_an_engineering_task_this_turn_is_not_activated() {
    // BPT "Engineering": "engineers may not be issued orders during the same turn in which they
    // carry out a task"; under initiative passing an activation is the unit's order.
    let mut b = open();
    let pt = b.player_turn;
    b.arranging().unit_mut(0).engineer_turn = Some(pt);
    assert_eq!(b.activation_plan(0, MOVE, OPEN).unwrap_err().rule, "BPT Engineering");
    assert!(!b.legal_actions().contains(&activate(0)));
    assert!(b.activation_plan(1, MOVE, OPEN).is_ok());
}

#[test]
fn a_granted_activation_is_a_copy_with_one_action_and_no_die_rolled() {
    let b = open();
    let hash = b.state_hash();
    let g = b.with_activation_granted(0, MOVE, OPEN).expect("may be activated");
    assert_eq!(b.state_hash(), hash, "the battle itself is unchanged");
    assert_eq!(g.dice.draws(), b.dice.draws(), "no die rolled");
    assert_eq!(g.cmd.passing.activated, Some(0));
    let to = Pose::new(V2::new(100.0, 55.0), 90f64.to_radians());
    let mut g = g;
    g.apply(&Action::Move { unit: 0, to }).expect("the move it was granted");
    assert!(g.apply(&Action::Move { unit: 0, to }).is_err(), "one action");
    // A unit that may not be activated is refused, as the roll would be.
    assert!(
        b.with_activation_granted(2, MOVE, OPEN).is_err(),
        "not the active side's"
    );
}

/// The computer does not throw away an activation: every unit it activates (a roll that
/// passes the initiative when it fails) does something with it straight away.
#[test]
fn the_scheduler_uses_every_activation_it_rolls_for() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/initiative_demo.ron");
    let (mut activated, mut unused) = (0, Vec::new());
    for seed in [1, 2, 3] {
        let (mut b, _) = volley::load_battle(&path, seed).expect("initiative demo loads");
        b.cap_turns(Some(6));
        let mut a = [
            agents::by_name("scheduler-easy", seed, 0).unwrap(),
            agents::by_name("scheduler-easy", seed, 1).unwrap(),
        ];
        let mut pending: Option<u32> = None;
        volley::sim::play(b, &mut a, 100_000, |_, act, ev| {
            if matches!(act, Action::OpportunityFire { .. } | Action::Pass) {
                return;
            }
            if let Some(u) = pending.take()
                && act.unit() != Some(u)
            {
                unused.push((seed, u, act.clone()));
            }
            for e in ev {
                if let Event::Passing(PassingEvent::ActivationRoll {
                    unit, success: true, ..
                }) = e
                {
                    activated += 1;
                    pending = Some(*unit);
                }
            }
        })
        .expect("plays to the end");
    }
    assert!(activated >= 10, "only {activated} activations");
    assert!(unused.is_empty(), "activated and then left: {unused:?}");
}

/// Fire that lands no hit passes the initiative as a failed activation does: a one-die shot
/// at 5+ (a D-marker makes it one harder: a third of a chance) waits until the other
/// regiment, activated at 3+, has made its move (or charge).
/// (Before, the computer fired first and, missing half the time, lost the move too.)
#[test]
fn the_scheduler_takes_a_likely_activation_before_a_long_shot_fire() {
    let mut b = battle_switched(
        &[
            u(0, ROW, 1, 100.0, 50.0, 90.0),
            u(0, ROW, 4, 115.0, 50.0, 90.0),
            u(1, ROW, 4, 100.0, 68.0, 270.0),
        ],
        Terrain::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::InitiativePassing],
    );
    to_command(&mut b);
    b.arranging().unit_mut(0).d_markers = 1;
    let fire = Action::Fire { unit: 0, target: 2 };
    assert!(b.legal_actions().contains(&fire), "the one-stand unit may fire");
    let picks = easy_command_phase(&mut b, 10);
    // Activated to move or to charge (3+ either way; since the charge odds count every round
    // of the charge, the charge on the Confederates 16 cm off is worth more than the move).
    assert!(
        [activate(1), activate_for(1, Purpose::Charge, Ground::Open)].contains(&picks[0]),
        "{picks:?}"
    );
    assert!(
        matches!(picks[1], Action::Move { unit: 1, .. } | Action::Charge { unit: 1, .. }),
        "{picks:?}"
    );
}

/// [`cavalry_facing_infantry`] in `terrain`, as the battle starts.
fn facing(charger: &'static str, stands: u32, terrain: Terrain) -> Battle {
    battle_switched(
        &[
            u(0, charger, stands, 100.0, 50.0, 90.0),
            u(1, ROW, 4, 100.0, 62.0, 270.0),
        ],
        terrain,
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::InitiativePassing],
    )
}

/// [`facing`], left in side 0's initiative phase.
fn facing_at_initiative(charger: &'static str, stands: u32, terrain: Terrain) -> Battle {
    let mut b = facing(charger, stands, terrain);
    end_phases_until(&mut b, |b| b.phase == Phase::Initiative);
    b
}

/// [`facing`] in the command phase.
fn facing_in(charger: &'static str, stands: u32, terrain: Terrain) -> Battle {
    let mut b = facing(charger, stands, terrain);
    to_command(&mut b);
    b
}

/// Glory Days "Melee": "To do so the charging unit must be within movement range of their
/// target, survive the target unit's reaction fire (if any), and then pass a charge test":
/// BPT's initiative-phase charge takes it too (cavalry against infantry in the open: 4 − 1 =
/// 3); failing with a 2 it "stops 2" from its target" (20/3 cm); a 3 charges home.
#[test]
fn an_initiative_phase_charge_takes_the_charge_test_too() {
    let mut b = facing_at_initiative("us_cavalry_1862", 3, Terrain::default());
    assert_eq!(b.charge_test_plan(0, 1).unwrap().target, 3);
    assert!(
        b.legal_actions()
            .contains(&Action::InitiativeCharge { unit: 0, target: 1 })
    );
    script(&mut b, &[2, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    let ev = b.apply(&Action::InitiativeCharge { unit: 0, target: 1 }).unwrap();
    assert_eq!(charge_tests(&ev), vec![(3, 2, false)]);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Melee(MeleeEvent::ChargeDeclared { .. }))),
        "{ev:?}"
    );
    let gap = b.unit_distance(0, 1);
    assert!((gap - 20.0 / 3.0).abs() < 0.05, "stops 2\" short: {gap}");
    assert!(b.combats.is_empty(), "no charge");
    assert!(!passed(&ev), "no initiative to pass in BPT's initiative phase");

    let mut b = facing_at_initiative("us_cavalry_1862", 3, Terrain::default());
    let mut faces = vec![3];
    faces.extend([1; 40]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::InitiativeCharge { unit: 0, target: 1 }).unwrap();
    assert_eq!(charge_tests(&ev), vec![(3, 3, true)]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Melee(MeleeEvent::ChargeDeclared { .. }))),
        "{ev:?}"
    );
}

/// Glory Days "Activation": "Moving in/into Difficult Terrain +1": a charge is a move into
/// contact, so a charge into woods (difficult) needs the activation that counted them (a lone
/// regular: 3 + 1 alone + 1 difficult = 5); the open one (4) does not allow it. Its charge
/// test counts the woods too ("Charging in/into Difficult Terrain +1": 4 + 1 = 5).
#[test]
fn a_charge_into_woods_pays_the_activations_terrain_modifier() {
    let mut b = facing_in(ROW, 4, area(AreaKind::Woods, 80.0, 58.0, 120.0, 80.0));
    assert_eq!(b.activation_plan(0, Purpose::Charge, OPEN).unwrap().target, 4);
    assert_eq!(
        b.activation_plan(0, Purpose::Charge, Ground::Difficult).unwrap().target,
        5
    );
    assert_eq!(b.charge_test_plan(0, 1).unwrap().target, 5);
    let legal = b.legal_actions();
    assert!(
        legal.contains(&activate_for(0, Purpose::Charge, Ground::Difficult)),
        "{legal:?}"
    );
    let mut probe = b.clone();
    script(&mut probe, &[4]);
    probe.apply(&activate_for(0, Purpose::Charge, OPEN)).unwrap();
    assert!(!probe.legal_actions().contains(&Action::Charge { unit: 0, target: 1 }));
    assert!(
        probe.apply(&Action::Charge { unit: 0, target: 1 }).is_err(),
        "activated for the open only"
    );
    let mut faces = vec![5, 5];
    faces.extend([1; 40]);
    script(&mut b, &faces);
    b.apply(&activate_for(0, Purpose::Charge, Ground::Difficult)).unwrap();
    let ev = b.apply(&Action::Charge { unit: 0, target: 1 }).unwrap();
    assert_eq!(charge_tests(&ev), vec![(5, 5, true)]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Melee(MeleeEvent::ChargeDeclared { .. }))),
        "{ev:?}"
    );
}

/// Glory Days "Activation": "In column & on a road -1" (base 3, a friend within 6"): 2 in
/// march column on the road, 3 in column off it or in line on it.
#[test]
fn activation_in_column_on_a_road_is_one_easier() {
    use volley::rules::formation::Formation;
    let column = |x: f64| U {
        formation: Formation::MarchColumn,
        ..u(0, ROW, 4, x, 50.0, 90.0)
    };
    let mut b = battle_switched(
        &[column(100.0), column(110.0), u(1, ROW, 4, 100.0, 150.0, 270.0)],
        road_along(&[(100.0, 0.0), (100.0, 180.0)]),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::InitiativePassing],
    );
    to_command(&mut b);
    let p = b.activation_plan(0, MOVE, OPEN).unwrap();
    assert_eq!(p.target, 2, "{:?}", p.modifiers);
    assert!(
        p.modifiers
            .iter()
            .any(|m| m.amount == -1 && volley::report::words::rule_words(m.rule).contains("column on a road"))
    );
    assert_eq!(b.activation_plan(1, MOVE, OPEN).unwrap().target, 3, "off the road");
    b.arranging().units[0].formation = Formation::Line;
    b.refresh_geometry();
    assert_eq!(b.activation_plan(0, MOVE, OPEN).unwrap().target, 3, "in line");
}

/// Glory Days "Rallying": base 3; "Veteran General with unit -2, Seasoned General with unit
/// -1 … Outside movement range of any known enemy -1, No friendly units within 6 +1".
#[test]
fn rally_modifiers_for_generals_and_for_no_friend_within_6_inches() {
    use volley::data::army::Quality;
    let mut b = open();
    b.arranging().units[0].d_markers = 1;
    assert_eq!(b.rally_plan(0).unwrap().target, 2, "out of the enemy's reach −1");
    // The brigade HQ (seasoned: BPT average) rides to the unit's rear edge.
    b.arranging().commanders[1].pos = V2::new(100.0, 47.5);
    b.refresh_geometry();
    assert!(b.touching_commander(0).is_some());
    assert_eq!(b.rally_plan(0).unwrap().target, 1, "seasoned general −1");
    b.arranging().commanders[1].row.quality = Quality::Exceptional;
    assert_eq!(b.rally_plan(0).unwrap().target, 0, "veteran general −2");
    b.arranging().commanders[1].row.quality = Quality::Uninspiring;
    assert_eq!(b.rally_plan(0).unwrap().target, 2, "raw general: no modifier");
    // Unit 1 marches off: no friendly unit within 6" (20 cm), +1.
    b.arranging().commanders[1].pos = V2::new(40.0, 5.0);
    b.arranging().units[1].pose.pos = V2::new(200.0, 50.0);
    b.refresh_geometry();
    let p = b.rally_plan(0).unwrap();
    assert_eq!(p.target, 3, "{:?}", p.modifiers);
}

/// Glory Days "Melee": the charge test's "General with unit -1" and "Charging in/into
/// Difficult Terrain +1 / Godforsaken Terrain +2" (base 4; infantry, so no cavalry −1).
#[test]
fn the_charge_test_general_minus_1_and_terrain_plus_1_or_2() {
    let mut b = cavalry_facing_infantry(ROW, 4);
    assert_eq!(b.charge_test_plan(0, 1).unwrap().target, 4);
    b.arranging().commanders[1].pos = V2::new(100.0, 47.5);
    b.refresh_geometry();
    assert!(b.touching_commander(0).is_some());
    assert_eq!(b.charge_test_plan(0, 1).unwrap().target, 3, "general with unit");
    for (kind, target) in [(AreaKind::Woods, 5), (AreaKind::Marsh, 6)] {
        let b = facing_in(ROW, 4, area(kind, 80.0, 58.0, 120.0, 80.0));
        let p = b.charge_test_plan(0, 1).unwrap();
        assert_eq!(p.target, target, "{kind:?}: {:?}", p.modifiers);
    }
    // Cavalry charging infantry in woods loses the "in the open" −1: 4 + 1 = 5.
    let b = facing_in("us_cavalry_1862", 3, area(AreaKind::Woods, 80.0, 58.0, 120.0, 80.0));
    assert_eq!(b.charge_test_plan(0, 1).unwrap().target, 5);
}
