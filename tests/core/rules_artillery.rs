//! The guns in the battle (DECISIONS "Artillery handling", "round shot with bounce", "canister
//! with blast-through", "Shell and howitzers"): loading, round shot through the action pipeline
//! with its bounce striking friends and foes, canister blasting through to the units behind,
//! shell. The pure maths (Hardtack's worked examples, each stop condition, the bounce odds) is
//! tested in `src/rules/artillery.rs`.

use super::common::*;
use super::fire::order;
use volley::battle::action::Deploy;
use volley::battle::event::Event;
use volley::battle::fire::FireContext;
use volley::battle::{Action, Battle};
use volley::data::scenario::Ammo;
use volley::rules::artillery::BOUNCE_FAILED;

const RIFLES: &str = "regular_infantry_rifled";
const NAPOLEON: &str = "smoothbore_cannon";

/// A one-gun battery (id 0, Union) at (101, 50) facing north, ordered, with `others` (the
/// Confederates, and any more Union units listed first) placed as given.
fn battery(others: &[U]) -> Battle {
    let mut units = vec![u(0, NAPOLEON, 1, 101.0, 50.0, 90.0)];
    units.extend_from_slice(others);
    let mut b = battle_with(
        &units,
        Default::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 165.0)],
    );
    to_command(&mut b);
    b.cmd.orders.insert(0, order(HQ0));
    b
}

fn fired_at(ev: &[Event], unit: u32) -> Vec<(u32, u32, String)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Fired {
                target,
                dice,
                to_hit,
                context,
                ..
            } if *target == unit => Some((*dice, *to_hit, context.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_gun_fires_only_when_loaded_and_firing_spends_the_load() {
    // DECISIONS "Artillery handling": guns start unloaded unless the scenario says loaded; a
    // load action sets the ammunition; firing spends it.
    let mut b = battery(&[u(1, RIFLES, 4, 100.0, 80.0, 270.0)]);
    let e = b.check_fire(0, 1, FireContext::Order).unwrap_err();
    assert_eq!(e.rule, "Hardtack: loading");
    b.apply(&Action::Deploy {
        unit: 0,
        deploy: Deploy::Load(Ammo::Shot),
    })
    .expect("an unlimbered gun loads");
    assert_eq!(b.unit(0).loaded, Some(Ammo::Shot));
    // Loading the same again is no action at all.
    assert!(b.check_deploy(0, Deploy::Load(Ammo::Shot), false).is_err());
    b.cmd.orders.insert(0, order(HQ0));
    script(&mut b, &[6, 1, 1, 1, 1, 1, 1, 1]);
    b.apply(&Action::Fire { unit: 0, target: 1 })
        .expect("a loaded gun fires");
    assert_eq!(b.unit(0).loaded, None);
    b.cmd.orders.insert(0, order(HQ0));
    assert_eq!(
        b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap_err().rule,
        "Hardtack: loading"
    );
}

#[test]
fn howitzers_load_shell_only_and_limbered_guns_do_not_load() {
    let mut b = battle(&[
        u(0, "howitzers", 1, 100.0, 50.0, 90.0),
        u(1, RIFLES, 4, 100.0, 65.0, 270.0),
    ]);
    to_command(&mut b);
    assert_eq!(
        b.check_deploy(0, Deploy::Load(Ammo::Shot), false).unwrap_err().rule,
        "BPT Howitzers / Mortars"
    );
    assert!(b.check_deploy(0, Deploy::Load(Ammo::Shell), false).is_ok());
    b.units[0].limbered = true;
    assert_eq!(
        b.check_deploy(0, Deploy::Load(Ammo::Shell), false).unwrap_err().rule,
        "Hardtack: loading"
    );
}

#[test]
fn round_shot_strikes_the_first_stand_then_bounces_over_a_unit_into_a_friend() {
    // Gun at y = 50 fires north at a Confederate line 30 cm off. Dice (DECISIONS "round shot"):
    // accuracy 6 (4+ for a regular crew: on the aim point), bounce d6 6 (4+ the first time),
    // landing d12 12 (straight on) and d4 1 (0.5 cm), second bounce d6 1 (5+ needed: fails).
    // The ball bounces half the gun-to-impact distance on (from the gun's front edge, 51.25:
    // 28 cm to the front line's edge at 79.25, so 14 + 0.5 on, to 93.75): over a second
    // Confederate line (not in either impact strip: flown over) into a Union unit (front edge
    // 95.25, inside the 2 cm strip), which takes 1 die fewer.
    let mut b = battery(&[
        u(0, RIFLES, 4, 100.0, 96.0, 270.0),
        u(1, RIFLES, 4, 100.0, 80.0, 270.0),
        u(1, RIFLES, 4, 100.0, 89.0, 270.0),
    ]);
    // Ids: gun 0, Union line 1, Confederate lines 2 (front) and 3 (behind).
    b.units[0].loaded = Some(Ammo::Shot);
    let plan = b.check_fire(0, 2, FireContext::Order).expect("in range and seen");
    let dice = plan.dice;
    assert_eq!(dice, 3, "2 attacks, +1 within half range (60 cm guns): {plan:?}");
    let mut faces = vec![6, 6, 12, 1, 1];
    faces.extend([6; 40]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 2 }).unwrap();
    let (trace, attacked) = ev
        .iter()
        .find_map(|e| match e {
            Event::RoundShot { trace, attacked, .. } => Some((trace.clone(), attacked.clone())),
            _ => None,
        })
        .expect("a round-shot event with its flight");
    assert_eq!(trace.accuracy_roll, 6);
    assert!(trace.deviation.is_none());
    assert_eq!(trace.impacts.len(), 2, "{trace:?}");
    assert_eq!(trace.end, BOUNCE_FAILED);
    // First impact on the front stand's nearest edge; the bounce flies half the distance on.
    let first = trace.impacts[0].point;
    let gun = trace.gun;
    let second = trace.impacts[1].point;
    assert!((second.dist(first) - (0.5 * gun.dist(first) + 0.5)).abs() < 1e-6);
    assert_eq!(trace.impacts[1].attacks, dice - 1);
    assert_eq!(
        attacked,
        vec![(2, dice), (1, dice - 1)],
        "front line, then the friend; not unit 3"
    );
    assert_eq!(fired_at(&ev, 2), vec![(dice, 4, "order: round shot".to_string())]);
    assert_eq!(
        fired_at(&ev, 1).len(),
        1,
        "friendly stands in an impact strip are hit too"
    );
    assert!(fired_at(&ev, 3).is_empty(), "the ball flew over the second line");
}

/// Canister from the gun at Confederate units in a column of lines at `ys`.
fn canister_at(ys: &[f64], faces: &[u32]) -> (Battle, Vec<Event>) {
    let others: Vec<U> = ys.iter().map(|&y| u(1, RIFLES, 2, 101.0, y, 270.0)).collect();
    let mut b = battery(&others);
    b.units[0].loaded = Some(Ammo::Canister);
    script(&mut b, faces);
    let ev = b
        .apply(&Action::Fire { unit: 0, target: 1 })
        .expect("canister at 10 cm");
    (b, ev)
}

fn blast_through(ev: &[Event]) -> Vec<(u32, u32, Option<u32>)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::BlastThrough {
                next,
                damaged_in_front,
                to_hit,
                ..
            } => Some((*next, *damaged_in_front, *to_hit)),
            _ => None,
        })
        .collect()
}

#[test]
fn canister_blasts_through_each_damaged_unit_one_worse_to_hit() {
    // DECISIONS "canister with blast-through": 3 attacks (smoothbore), 4+ in the open; the
    // primary target took hits, so the next unit in the 1 cm corridor is attacked with the same
    // dice at 5+, then the next at 6+; a fourth would need 7: the blast stops.
    // All sixes: each attacked unit takes 3 hits and rolls 3 suppression dice.
    let (_, ev) = canister_at(&[53.5, 56.5, 59.5, 62.5], &[6; 30]);
    assert_eq!(fired_at(&ev, 1), vec![(3, 4, "order: canister".to_string())]);
    assert_eq!(blast_through(&ev), vec![(2, 1, Some(5)), (3, 2, Some(6)), (4, 3, None)]);
    assert_eq!(
        fired_at(&ev, 2),
        vec![(3, 5, "order: canister blast-through".to_string())]
    );
    assert_eq!(
        fired_at(&ev, 3),
        vec![(3, 6, "order: canister blast-through".to_string())]
    );
    assert!(fired_at(&ev, 4).is_empty());
}

#[test]
fn canister_blast_stops_at_a_unit_that_takes_no_hit() {
    // Primary: 6 6 6 (3 hits), its suppression dice 6 6 6. Second unit at 5+, 4+ with the ACW
    // first-fire bonus: 3 3 3, no hit, so the third is spared.
    let (_, ev) = canister_at(&[53.5, 56.5, 59.5], &[6, 6, 6, 6, 6, 6, 3, 3, 3, 6, 6, 6]);
    assert_eq!(blast_through(&ev), vec![(2, 1, Some(5))]);
    assert!(fired_at(&ev, 3).is_empty());
    // And no blast at all when the primary target takes nothing.
    let (_, ev) = canister_at(&[53.5, 56.5], &[1, 1, 1, 6, 6, 6]);
    assert!(blast_through(&ev).is_empty());
    assert!(fired_at(&ev, 2).is_empty());
}

#[test]
fn a_friend_in_the_canister_corridor_forbids_canister() {
    // DECISIONS: "Friendly units inside the corridor below block canister: the gun may not
    // fire it." A Union line behind the Confederate target, inside the corridor.
    let mut b = battery(&[u(0, RIFLES, 2, 101.0, 58.0, 270.0), u(1, RIFLES, 2, 101.0, 54.0, 270.0)]);
    b.units[0].loaded = Some(Ammo::Canister);
    let e = b.check_fire(0, 2, FireContext::Order).unwrap_err();
    assert_eq!(e.rule, "DECISIONS Artillery: canister");
    // Round shot at the same target is allowed (the friend is behind, in harm's way).
    b.units[0].loaded = Some(Ammo::Shot);
    assert!(b.check_fire(0, 2, FireContext::Order).is_ok());
}

#[test]
fn shell_bursts_on_every_stand_within_3_cm_with_a_shrapnel_die() {
    // DECISIONS "Shell": every stand within 3 cm of the impact point is attacked equally, +1
    // attack as shrapnel (ACW, after 1845). Accuracy 6: on the aim point (the nearest stand's
    // nearest point); a unit 7 cm behind is out of reach.
    let mut b = battery(&[u(1, RIFLES, 4, 101.0, 80.0, 270.0), u(1, RIFLES, 4, 101.0, 87.0, 270.0)]);
    b.units[0].loaded = Some(Ammo::Shell);
    let per_stand = b.check_fire(0, 1, FireContext::Order).unwrap().dice + 1;
    let mut faces = vec![6];
    faces.extend([1; 40]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    let (lost, burst, attacked) = ev
        .iter()
        .find_map(|e| match e {
            Event::ShellFired {
                lost, burst, attacked, ..
            } => Some((lost.clone(), *burst, attacked.clone())),
            _ => None,
        })
        .expect("a shell event");
    assert_eq!(lost, None);
    let near = b.rects(1).iter().filter(|r| r.distance_to_point(burst) <= 3.0).count() as u32;
    assert!(near >= 2, "{near}");
    // The gun's dice + 1 shrapnel, for each stand within 3 cm; the line behind is too far.
    assert_eq!(attacked, vec![(1, per_stand * near)]);
}

#[test]
fn a_mortars_target_saves_4_or_better() {
    // ACW note 16: "Mortars cannot see the actual target behind the wall, so the target gets a
    // save 4+." Regular infantry have no save of their own; against the mortar's shell, 4+.
    let mut b = battle(&[
        u(0, "mortar", 1, 101.0, 50.0, 90.0),
        u(1, RIFLES, 4, 100.0, 62.0, 270.0),
    ]);
    to_command(&mut b);
    b.cmd.orders.insert(0, order(HQ0));
    assert!(b.check_deploy(0, Deploy::Load(Ammo::Canister), false).is_err());
    b.units[0].loaded = Some(Ammo::Shell);
    let mut faces = vec![6];
    faces.extend([6; 60]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).expect("the mortar fires");
    let saves: Vec<Option<u32>> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Fired { target: 1, save, .. } => Some(*save),
            _ => None,
        })
        .collect();
    assert_eq!(saves, vec![Some(4)]);
}

#[test]
fn an_unlimbered_gun_man_handled_under_an_order_fires_in_the_same_order() {
    // DECISIONS "Artillery handling": "an unlimbered gun may be man-handled (3 cm) and fire in
    // the same order". One order: move 2 cm, then fire; a second fire needs another order.
    let mut b = battery(&[u(1, RIFLES, 4, 100.0, 80.0, 270.0)]);
    b.units[0].loaded = Some(Ammo::Shot);
    let mut to = b.unit(0).pose;
    to.pos.y += 2.0;
    b.apply(&Action::Move { unit: 0, to }).expect("man-handled 2 cm");
    assert!(b.legal_actions().contains(&Action::Fire { unit: 0, target: 1 }));
    let mut faces = vec![6, 1];
    faces.extend([1; 20]);
    script(&mut b, &faces);
    b.apply(&Action::Fire { unit: 0, target: 1 })
        .expect("and fires in the same order");
    b.units[0].loaded = Some(Ammo::Shot);
    assert_eq!(
        b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap_err().rule,
        "BPT Actions"
    );
    // A limbered gun that moves gets no such fire (and could not fire anyway).
    assert!(!b.ordered_to_fire_after_manhandling(0));
}

/// A Union Gatling gun (id 0) at (100, 50) facing north, ordered, a Confederate line (id 1)
/// `gap` cm off its front.
fn gatling(gap: f64) -> Battle {
    let mut b = battle_with(
        &[
            u(0, "gatling_gun", 1, 100.0, 50.0, 90.0),
            u(1, RIFLES, 4, 100.0, 51.25 + gap + 0.75, 270.0),
        ],
        Default::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 165.0)],
    );
    to_command(&mut b);
    b.cmd.orders.insert(0, order(HQ0));
    assert!((b.unit_distance(0, 1) - gap).abs() < 1e-6);
    b
}

#[test]
fn gatlings_reach_10_cm_and_jam_on_any_double() {
    // ACW note 12: "Gatling guns have a range of 10cm and jam on rolling attack dice with any
    // doubles. Jammed Gatling guns do not complete any attacks and the model is knocked out
    // right away." The chart prints 2 attacks at 20 cm.
    let r = gatling(15.0).check_fire(0, 1, FireContext::Order).unwrap_err();
    assert!(r.rule.contains("range"), "{r}");
    let mut b = gatling(8.0);
    let plan = b.check_fire(0, 1, FireContext::Order).expect("in range");
    assert_eq!(plan.dice, 2);
    script(&mut b, &[4, 4, 1, 1]);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::KnockedOut {
            unit: 0,
            why: volley::battle::event::KnockOut::Jammed
        }
    )));
    assert!(!b.unit(0).alive(), "jammed: knocked out");
    assert_eq!(b.unit(1).hits, 0, "no attacks completed");
    // No double: it fires (4+ with the first fire +1: both hit).
    let mut b = gatling(8.0);
    script(&mut b, &[4, 5, 1, 1, 1, 1]);
    b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    assert!(b.unit(0).alive());
    assert_eq!(b.unit(1).hits, 2);
}

#[test]
fn a_gun_prolonges_back_at_its_second_rate_and_still_fires() {
    // BPT "Prolonge Movement": "An artillery unit can move and fire using its limber in a
    // retreat by prolonging the gun"; the chart's "3/10": man-handled 3 cm, prolonged 10.
    use volley::rules::geometry::{Pose, V2};
    let n = std::f64::consts::FRAC_PI_2;
    let mut b = battery(&[u(1, RIFLES, 4, 100.0, 75.0, 270.0)]);
    assert!(
        b.check_move(0, Pose::new(V2::new(101.0, 42.0), n), false).is_ok(),
        "8 cm back"
    );
    assert!(
        b.check_move(0, Pose::new(V2::new(101.0, 39.5), n), false).is_err(),
        "10.5 cm back"
    );
    let r = b.check_move(0, Pose::new(V2::new(101.0, 54.0), n), false).unwrap_err();
    assert!(r.rule.contains("allowance"), "forward only man-handled, 3 cm: {r}");
    assert!(b.check_move(0, Pose::new(V2::new(101.0, 53.0), n), false).is_ok());
    // Without its limber it only man-handles.
    let mut nolimber = b.clone();
    nolimber.unit_mut(0).has_limber = false;
    assert!(
        nolimber
            .check_move(0, Pose::new(V2::new(101.0, 42.0), n), false)
            .is_err()
    );
    // Moved back and fired in the same order, still unlimbered.
    b.unit_mut(0).loaded = Some(Ammo::Shot);
    b.apply(&Action::Move {
        unit: 0,
        to: Pose::new(V2::new(101.0, 42.0), n),
    })
    .expect("prolonge");
    assert!(!b.unit(0).limbered);
    b.dice = volley::rules::dice::Dice::new(7);
    b.apply(&Action::Fire { unit: 0, target: 1 }).expect("and fires");
}

#[test]
fn a_bounce_off_the_table_logs_its_landing_dice() {
    // Issue 21, Hardtack 7: every die rolled is explained. A ball that bounces off the table
    // edge rolled its landing d12 and d4; the log says so.
    use volley::rules::artillery::{ArtilleryParams, TerrainGround, round_shot};
    use volley::rules::geometry::V2;
    use volley::rules::terrain::Terrain;
    let t = Terrain::default();
    let g = TerrainGround {
        terrain: &t,
        width: 60.0,
        height: 60.0,
        wet: false,
    };
    let mut dice = volley::rules::dice::Dice::scripted(vec![6, 4, 12, 1]);
    let trace = round_shot(
        V2::new(10.0, 30.0),
        V2::new(50.0, 30.0),
        3,
        4,
        &ArtilleryParams::default(),
        &g,
        &mut dice,
    );
    assert_eq!(trace.exit_landing, Some((12, 1)));
    let b = battery(&[]);
    let line = b.describe(&Event::RoundShot {
        firer: 0,
        trace,
        attacked: vec![],
    });
    assert!(line.contains("bounce d6 [4] need 4+"), "{line}");
    assert!(
        line.contains("bounces off the table (landing 12 o'clock, d4 1)"),
        "{line}"
    );
}

#[test]
fn deviation_and_the_canister_corridor_are_measured_from_the_guns_front_edge() {
    // DECISIONS "Scale": distances are base edge to base edge (issue 21, Hardtack 5). The gun's
    // front edge is at y = 51.25 (its centre at 50).
    // Round shot: the aim point 29.5 cm from the front edge (30.75 from the centre) is under
    // 30 cm, so a miss deviates by 1d6, not 2d6.
    let mut b = battery(&[u(1, RIFLES, 4, 100.0, 51.25 + 29.5 + 0.75, 270.0)]);
    b.units[0].loaded = Some(Ammo::Shot);
    let mut faces = vec![1, 12, 3, 1];
    faces.extend([1; 60]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    let trace = ev
        .iter()
        .find_map(|e| match e {
            Event::RoundShot { trace, .. } => Some(trace.clone()),
            _ => None,
        })
        .expect("a round shot");
    let (clock, d6s, cm) = trace.deviation.expect("missed");
    assert_eq!((clock, d6s, cm), (12, vec![3], 3.0));
    // Canister: the corridor runs 10 + 5 cm from the front edge, to y = 66.25: a unit whose
    // near edge is at 65.5 is in it (from the centre it ended at 65).
    let (_, ev) = canister_at(&[53.5, 66.25], &[6; 30]);
    assert_eq!(blast_through(&ev), vec![(2, 1, Some(5))]);
}

#[test]
fn canister_takes_the_nearest_enemy_in_the_cone_first() {
    // DECISIONS "canister with blast-through" 2: "The primary target is the nearest enemy unit
    // in the cone" (issue 21, Hardtack 2): not the unit behind a nearer one.
    // Two Confederate pairs of stands in the cone, side by side: one 4.5 cm off to the right,
    // one 1.5 cm off to the left; both seen.
    let mut b = battery(&[u(1, RIFLES, 2, 105.5, 56.5, 270.0), u(1, RIFLES, 2, 98.0, 53.5, 270.0)]);
    assert!(b.sees(0, 1) && b.sees(0, 2));
    b.units[0].loaded = Some(Ammo::Canister);
    let r = b.check_fire(0, 1, FireContext::Order).unwrap_err();
    assert!(r.rule.contains("nearest enemy"), "{r}");
    assert!(b.check_fire(0, 2, FireContext::Order).is_ok());
    // Round shot is not bound to the nearest.
    b.units[0].loaded = Some(Ammo::Shot);
    assert!(
        b.check_fire(0, 1, FireContext::Order)
            .map(|p| !p.canister)
            .unwrap_or(true)
    );
}
