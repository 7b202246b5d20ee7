//! The guns in the battle (DECISIONS "Artillery handling", "round shot with bounce", "canister
//! with blast-through", "Shell and howitzers"): loading, round shot through the action pipeline
//! with its bounce striking friends and foes, canister blasting through to the units behind,
//! shell. The pure maths (Hardtack's worked examples, each stop condition, the bounce odds) is
//! tested in `src/rules/artillery.rs`.

use super::common::*;
use super::fire::order;
use volley::battle::action::Deploy;
use volley::battle::event::Event;
use volley::battle::event::families::*;
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
    ordered(&units, Default::default())
}

/// `units` on `terrain`, the commanders out of the way, in the Union's command phase with
/// unit 0 ordered.
fn ordered(units: &[U], terrain: volley::rules::terrain::Terrain) -> Battle {
    let mut b = battle_with(
        units,
        terrain,
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 165.0)],
    );
    to_command(&mut b);
    b.arranging().cmd.orders.insert(0, order(HQ0));
    b
}

/// A shell's event: where it was lost (if it was), where it burst, the units it attacked.
fn shell_fired(
    ev: &[Event],
) -> (
    Option<volley::battle::event::ShellLost>,
    volley::rules::geometry::V2,
    Vec<(u32, u32)>,
) {
    ev.iter()
        .find_map(|e| match e {
            Event::Artillery(ArtilleryEvent::ShellFired {
                lost, burst, attacked, ..
            }) => Some((*lost, *burst, attacked.clone())),
            _ => None,
        })
        .expect("a shell event")
}

fn fired_at(ev: &[Event], unit: u32) -> Vec<(u32, u32, String)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Fire(FireEvent::Fired {
                target,
                dice,
                to_hit,
                context,
                ..
            }) if *target == unit => Some((*dice, *to_hit, volley::report::fire::cause_words(*context))),
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
    b.arranging().cmd.orders.insert(0, order(HQ0));
    script(&mut b, &[6, 1, 1, 1, 1, 1, 1, 1]);
    b.apply(&Action::Fire { unit: 0, target: 1 })
        .expect("a loaded gun fires");
    assert_eq!(b.unit(0).loaded, None);
    b.arranging().cmd.orders.insert(0, order(HQ0));
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
    b.arranging().units[0].limbered = true;
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
    b.arranging().units[0].loaded = Some(Ammo::Shot);
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
            Event::Artillery(ArtilleryEvent::RoundShot { trace, attacked, .. }) => {
                Some((trace.clone(), attacked.clone()))
            }
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
    b.arranging().units[0].loaded = Some(Ammo::Canister);
    script(&mut b, faces);
    let ev = b
        .apply(&Action::Fire { unit: 0, target: 1 })
        .expect("canister at 10 cm");
    (b, ev)
}

fn blast_through(ev: &[Event]) -> Vec<(u32, u32, Option<u32>)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Artillery(ArtilleryEvent::BlastThrough {
                next,
                damaged_in_front,
                to_hit,
                ..
            }) => Some((*next, *damaged_in_front, *to_hit)),
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

/// Issue 15: the preview of canister, before any die (`Battle::canister_preview`, what the
/// table draws for an aimed gun), names the target and each unit behind it with the scores
/// the fire then rolls: 3 dice at 4+, then 5+ and 6+, and the fourth unit would need 7 (the
/// blast stops), as in the blast-through just above; the corridor is the one the fire sweeps.
#[test]
fn the_canister_preview_names_the_units_and_scores_the_fire_rolls() {
    let others: Vec<U> = [53.5, 56.5, 59.5, 62.5]
        .iter()
        .map(|&y| u(1, RIFLES, 2, 101.0, y, 270.0))
        .collect();
    let mut b = battery(&others);
    b.arranging().units[0].loaded = Some(Ammo::Canister);
    let preview = b
        .canister_preview(0, 1, volley::battle::fire::FireContext::Order)
        .expect("canister at 10 cm");
    assert_eq!(preview.dice, 3);
    assert_eq!(preview.units, vec![(1, Some(4)), (2, Some(5)), (3, Some(6)), (4, None)]);
    script(&mut b, &[6; 30]);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).expect("fired");
    let swept = ev.iter().find_map(|e| match e {
        Event::Artillery(ArtilleryEvent::BlastThrough { corridor, .. }) => Some(*corridor),
        _ => None,
    });
    assert_eq!(swept, Some(preview.corridor));
    let rolled: Vec<(u32, Option<u32>)> = blast_through(&ev).into_iter().map(|(n, _, t)| (n, t)).collect();
    assert_eq!(rolled, preview.units[1..].to_vec());
    // The battle's artillery system gives an aimed gun the same preview, as a component.
    let mut b = battery(&others);
    b.arranging().units[0].loaded = Some(Ammo::Canister);
    let mut app = volley::app::headless_app(b);
    let gun = app
        .world()
        .resource::<volley::app::PieceIndex>()
        .unit(0)
        .expect("the gun's entity");
    app.world_mut()
        .entity_mut(gun)
        .insert(volley::app::artillery::WantsAim {
            target: 1,
            ctx: volley::battle::fire::FireContext::Order,
        });
    app.update();
    let aim = app
        .world()
        .get::<volley::app::artillery::CanisterAim>(gun)
        .expect("the canister aim");
    assert_eq!(aim.sweep, preview);
    // Round shot has no canister preview.
    let mut b = battery(&others);
    b.arranging().units[0].loaded = Some(Ammo::Shot);
    assert_eq!(b.canister_preview(0, 1, volley::battle::fire::FireContext::Order), None);
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
    b.arranging().units[0].loaded = Some(Ammo::Canister);
    let e = b.check_fire(0, 2, FireContext::Order).unwrap_err();
    assert_eq!(e.rule, "DECISIONS Artillery: canister");
    // Round shot at the same target is allowed (the friend is behind, in harm's way).
    b.arranging().units[0].loaded = Some(Ammo::Shot);
    assert!(b.check_fire(0, 2, FireContext::Order).is_ok());
}

#[test]
fn shell_bursts_on_every_stand_within_3_cm_with_a_shrapnel_die() {
    // DECISIONS "Shell": every stand within 3 cm of the impact point is attacked equally, +1
    // attack as shrapnel (ACW, after 1845). Accuracy 6: on the aim point (the nearest stand's
    // nearest point); a unit 7 cm behind is out of reach.
    let mut b = battery(&[u(1, RIFLES, 4, 101.0, 80.0, 270.0), u(1, RIFLES, 4, 101.0, 87.0, 270.0)]);
    b.arranging().units[0].loaded = Some(Ammo::Shell);
    let per_stand = b.check_fire(0, 1, FireContext::Order).unwrap().dice + 1;
    let mut faces = vec![6];
    faces.extend([1; 40]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    let (lost, burst, attacked) = shell_fired(&ev);
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
    b.arranging().cmd.orders.insert(0, order(HQ0));
    assert!(b.check_deploy(0, Deploy::Load(Ammo::Canister), false).is_err());
    b.arranging().units[0].loaded = Some(Ammo::Shell);
    let mut faces = vec![6];
    faces.extend([6; 60]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).expect("the mortar fires");
    let saves: Vec<Option<u32>> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Fire(FireEvent::Fired { target: 1, save, .. }) => Some(*save),
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
    b.arranging().units[0].loaded = Some(Ammo::Shot);
    let mut to = b.unit(0).pose;
    to.pos.y += 2.0;
    b.apply(&Action::Move { unit: 0, to }).expect("man-handled 2 cm");
    assert!(b.legal_actions().contains(&Action::Fire { unit: 0, target: 1 }));
    let mut faces = vec![6, 1];
    faces.extend([1; 20]);
    script(&mut b, &faces);
    b.apply(&Action::Fire { unit: 0, target: 1 })
        .expect("and fires in the same order");
    b.arranging().units[0].loaded = Some(Ammo::Shot);
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
    let b = ordered(
        &[
            u(0, "gatling_gun", 1, 100.0, 50.0, 90.0),
            u(1, RIFLES, 4, 100.0, 51.25 + gap + 0.75, 270.0),
        ],
        Default::default(),
    );
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
        Event::Morale(MoraleEvent::KnockedOut {
            unit: 0,
            why: volley::battle::event::KnockOut::Jammed
        })
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
    nolimber.arranging().unit_mut(0).has_limber = false;
    assert!(
        nolimber
            .check_move(0, Pose::new(V2::new(101.0, 42.0), n), false)
            .is_err()
    );
    // Moved back and fired in the same order, still unlimbered.
    b.arranging().unit_mut(0).loaded = Some(Ammo::Shot);
    b.apply(&Action::Move {
        unit: 0,
        to: Pose::new(V2::new(101.0, 42.0), n),
    })
    .expect("prolonge");
    assert!(!b.unit(0).limbered);
    b.set_dice(volley::rules::dice::Dice::new(7));
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
    let line = volley::report::line(
        &b,
        &Event::Artillery(ArtilleryEvent::RoundShot {
            firer: 0,
            trace,
            attacked: vec![],
        }),
    );
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
    b.arranging().units[0].loaded = Some(Ammo::Shot);
    let mut faces = vec![1, 12, 3, 1];
    faces.extend([1; 60]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    let trace = ev
        .iter()
        .find_map(|e| match e {
            Event::Artillery(ArtilleryEvent::RoundShot { trace, .. }) => Some(trace.clone()),
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
    b.arranging().units[0].loaded = Some(Ammo::Canister);
    let r = b.check_fire(0, 1, FireContext::Order).unwrap_err();
    assert!(r.rule.contains("nearest enemy"), "{r}");
    assert!(b.check_fire(0, 2, FireContext::Order).is_ok());
    // Round shot is not bound to the nearest.
    b.arranging().units[0].loaded = Some(Ammo::Shot);
    assert!(
        b.check_fire(0, 1, FireContext::Order)
            .map(|p| !p.canister)
            .unwrap_or(true)
    );
}

/// The commander events of a fire: (commander, dice, rolls).
fn commanders_attacked(ev: &[Event]) -> Vec<(u32, u32, Vec<u32>)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Command(CommandEvent::CommanderAttacked {
                commander, dice, rolls, ..
            }) => Some((*commander, *dice, rolls.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_ball_that_lands_on_a_commander_strikes_him_like_any_stand() {
    // BPT "Command Units": "They can be caught in artillery fire-zones, however, in which case
    // they are treated just like any other unit", hit only on a 6. The gun (front edge 51.25)
    // aims at the line's nearest point (101, 79.25), 28 cm: one deviation d6. Accuracy 1 (4+
    // needed) misses; clock 3 (right) by 6 cm lands at (107, 79.25), on the Confederate
    // colonel's base (2 cm across at (107.5, 80)): he is the first base in the strip and takes
    // the gun's full 3 dice; the bounce roll of 1 fails.
    let mut b = battery(&[u(1, RIFLES, 4, 101.0, 80.0, 270.0)]);
    b.arranging().commanders[3].pos = volley::rules::geometry::V2::new(107.5, 80.0);
    b.arranging().units[0].loaded = Some(Ammo::Shot);
    assert_eq!(b.check_fire(0, 1, FireContext::Order).unwrap().dice, 3);
    script(&mut b, &[1, 3, 6, 1, 6, 6, 2, 1, 1, 1]);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    assert_eq!(commanders_attacked(&ev), vec![(3, 3, vec![6, 6, 2])]);
    // The line beside the ball's strip is not touched.
    assert!(fired_at(&ev, 1).is_empty());
}

#[test]
fn canister_catches_an_enemy_commander_in_its_corridor_not_a_friend() {
    // Canister's zone is the corridor it sweeps (1 cm wide, to 15 cm from the gun's front
    // edge): the Confederate colonel 2 cm behind the line in front of the gun takes the
    // canister's dice on 6s; the Union colonel beside the gun, out of the corridor, does not.
    let mut b = battery(&[u(1, RIFLES, 4, 101.0, 58.0, 270.0)]);
    b.arranging().commanders[3].pos = volley::rules::geometry::V2::new(101.0, 61.5);
    b.arranging().commanders[1].pos = volley::rules::geometry::V2::new(105.0, 50.0);
    b.arranging().units[0].loaded = Some(Ammo::Canister);
    let dice = b.check_fire(0, 1, FireContext::Order).expect("canister at 6 cm").dice;
    assert_eq!(dice, 3, "3 canister attacks a smoothbore gun (BPT ACW note 6)");
    // The line: all misses (no blast-through); the colonel: one 6.
    let mut faces = vec![1; dice as usize];
    faces.push(6);
    faces.extend(vec![1; dice as usize - 1]);
    faces.extend([1; 10]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    let mut want = vec![6];
    want.extend(vec![1; dice as usize - 1]);
    assert_eq!(commanders_attacked(&ev), vec![(3, dice, want)]);
}

#[test]
fn a_battery_shares_its_dice_over_its_guns_nearest_first_and_each_ball_flies_alone() {
    // Two Napoleons (2 attacks a gun, +1 within half range: 5 dice) fire round shot: the dice
    // are shared out, the odd one to the gun nearer the target (DECISIONS "the fire plan ...
    // odd dice to the nearest guns"); each gun's ball rolls its own accuracy and bounce.
    let mut b = ordered(
        &[
            u(0, NAPOLEON, 2, 101.0, 50.0, 90.0),
            u(1, RIFLES, 2, 104.0, 80.0, 270.0),
        ],
        Default::default(),
    );
    b.arranging().units[0].loaded = Some(Ammo::Shot);
    let plan = b.check_fire(0, 1, FireContext::Order).unwrap();
    assert_eq!(plan.dice, 5);
    // Each ball: accuracy 6 (on its aim), bounce 1 (fails); then the attack dice.
    let mut faces = vec![6, 1, 6, 1];
    faces.extend([1; 20]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    let balls: Vec<(f64, u32)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Artillery(ArtilleryEvent::RoundShot { trace, .. }) => Some((trace.gun.x, trace.impacts[0].attacks)),
            _ => None,
        })
        .collect();
    assert_eq!(balls.len(), 2, "{ev:?}");
    assert_eq!(
        balls[0].1, 3,
        "the nearer gun (on the right, nearer the line) fires first with 3"
    );
    assert_eq!(balls[1].1, 2);
    assert!(balls[0].0 > balls[1].0, "{balls:?}");
}

#[test]
fn one_shell_bursts_on_the_stands_of_two_units_and_a_battery_bursts_once_a_gun() {
    // DECISIONS "Shell": every stand within 3 cm of the burst. The target (two stands, 98.5 to
    // 103.5) is aimed at (101, 79.25); the next unit's left stand starts 2.7 cm to the right:
    // both are attacked, each with the gun's dice + 1 shrapnel per stand within reach.
    let mut b = battery(&[u(1, RIFLES, 2, 101.0, 80.0, 270.0), u(1, RIFLES, 2, 106.2, 80.0, 270.0)]);
    b.arranging().units[0].loaded = Some(Ammo::Shell);
    let per_stand = b.check_fire(0, 1, FireContext::Order).unwrap().dice + 1;
    let mut faces = vec![6];
    faces.extend([1; 40]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    let (_, burst, attacked) = shell_fired(&ev);
    let near = |id: u32| b.rects(id).iter().filter(|r| r.distance_to_point(burst) <= 3.0).count() as u32;
    assert!(near(1) >= 1 && near(2) >= 1, "{} {}", near(1), near(2));
    assert_eq!(attacked, vec![(1, per_stand * near(1)), (2, per_stand * near(2))]);

    // A battery of two howitzers: one shell a gun, each with its own accuracy roll.
    let mut b = ordered(
        &[
            u(0, "howitzers", 2, 101.0, 60.0, 90.0),
            u(1, RIFLES, 4, 101.0, 70.0, 270.0),
        ],
        Default::default(),
    );
    b.arranging().units[0].loaded = Some(Ammo::Shell);
    let mut faces = vec![6; 2];
    faces.extend([1; 60]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    let bursts = ev
        .iter()
        .filter(|e| matches!(e, Event::Artillery(ArtilleryEvent::ShellFired { .. })))
        .count();
    assert_eq!(bursts, 2);
}

#[test]
fn a_ball_that_deviates_into_woods_strikes_their_edge_not_the_unit_inside() {
    // Hardtack: "If a shot hits woods, the impact point would be the edge of the woods";
    // DECISIONS round shot 5. The gun's front edge is at 41.25, the line's at 74.25: 33 cm, two
    // deviation d6s. A miss at 12 o'clock by 6 + 6 = 12 cm would land at (101, 86.25), on the
    // second Confederate line inside the woods (80 to 95); the ball strikes the woods' edge at
    // y = 80 instead, its 2 cm strip short of that line, and stops (no bounce roll).
    let mut b = ordered(
        &[
            u(0, NAPOLEON, 1, 101.0, 40.0, 90.0),
            u(1, RIFLES, 4, 101.0, 75.0, 270.0),
            u(1, RIFLES, 4, 101.0, 86.0, 270.0),
        ],
        area(volley::rules::terrain::AreaKind::Woods, 85.0, 80.0, 117.0, 95.0),
    );
    b.arranging().units[0].loaded = Some(Ammo::Shot);
    script(&mut b, &[1, 12, 6, 6, 1, 1, 1, 1]);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    let (trace, attacked) = ev
        .iter()
        .find_map(|e| match e {
            Event::Artillery(ArtilleryEvent::RoundShot { trace, attacked, .. }) => {
                Some((trace.clone(), attacked.clone()))
            }
            _ => None,
        })
        .expect("a round shot");
    assert_eq!(trace.deviation.as_ref().map(|d| d.2), Some(12.0));
    assert_eq!(trace.impacts.len(), 1);
    assert!(
        (trace.impacts[0].point.y - 80.0).abs() < 1e-6,
        "{:?}",
        trace.impacts[0].point
    );
    assert_eq!(trace.end, "Woods Woods");
    assert!(attacked.iter().all(|(u, _)| *u != 2), "{attacked:?}");
}

#[test]
fn howitzers_harm_troops_in_the_open_only() {
    // BPT ACW note 6: "Howitzers ... cause damage against artillery, infantry and cavalry in
    // the open only"; BPT "Howitzers": "in the open or in cover if using air burst".
    let units = [
        u(0, "howitzers", 1, 101.0, 50.0, 90.0),
        u(1, RIFLES, 4, 101.0, 65.0, 270.0),
    ];
    let woods = area(volley::rules::terrain::AreaKind::Woods, 90.0, 62.0, 112.0, 70.0);
    for (terrain, open) in [(woods, false), (Default::default(), true)] {
        let mut b = ordered(&units, terrain);
        b.arranging().units[0].loaded = Some(Ammo::Shell);
        match b.check_fire(0, 1, FireContext::Order) {
            Ok(_) => assert!(open),
            Err(e) => {
                assert!(!open, "{e}");
                assert_eq!(e.rule, "BPT Howitzers");
            }
        }
    }
}

#[test]
fn guns_on_initiative_may_fire_at_the_nearest_enemy_artillery_instead() {
    // BPT "Counter-Battery Fire": "artillery can choose to shoot at the closest unit or the
    // closest artillery unit (ignoring the others)". The Union gun's nearest enemy is a line
    // off to its left, 12.6 cm away; the Confederate gun straight ahead, 13.5 cm off, may be its
    // target on initiative too. A Union line has no such choice.
    let mut b = battle(&[
        u(0, NAPOLEON, 1, 101.0, 50.0, 90.0),
        u(0, RIFLES, 4, 140.0, 50.0, 90.0),
        u(1, RIFLES, 4, 85.0, 60.0, 270.0),
        u(1, NAPOLEON, 1, 101.0, 66.0, 270.0),
        u(1, RIFLES, 4, 140.0, 63.0, 270.0),
    ]);
    let dist = |a, b2| volley::rules::geometry::rects_distance(b.rects(a), b.rects(b2));
    assert!(
        dist(0, 2) < dist(0, 3) && dist(0, 3) < 20.0,
        "{} {}",
        dist(0, 2),
        dist(0, 3)
    );
    assert_eq!(b.phase, volley::battle::state::Phase::Initiative);
    b.arranging().units[0].loaded = Some(Ammo::Shot);
    let legal = b.legal_actions();
    assert!(
        legal.contains(&Action::InitiativeFire { unit: 0, target: 3 }),
        "{legal:?}"
    );
    assert!(!legal.contains(&Action::InitiativeFire { unit: 0, target: 4 }));
    let r = b.apply(&Action::InitiativeFire { unit: 1, target: 3 }).unwrap_err();
    assert!(r.reason.contains("nearest"), "{r}");
    script(&mut b, &[6, 1, 1, 1, 1, 1, 1]);
    b.apply(&Action::InitiativeFire { unit: 0, target: 3 })
        .expect("counter-battery fire on initiative");
}

#[test]
fn the_orders_preview_of_a_ball_counts_the_crews_accuracy() {
    // Issue 21, Hardtack 6: the preview's expected hits of round shot are those of a ball that
    // lands on its aim, times the chance it does (a regular crew's 4+: 1/2). 3 dice at 4+, +1
    // the first time the gun fires (so 3+), on a line with no save: 2 if it lands, 1 expected.
    let mut b = battery(&[u(1, RIFLES, 4, 101.0, 80.0, 270.0)]);
    b.arranging().units[0].loaded = Some(Ammo::Shot);
    let text = volley::report::heading(&b, &Action::Fire { unit: 0, target: 1 });
    assert!(
        text.contains("3 dice, 3+, lands on its aim 50%, expect 1.00 hits"),
        "{text}"
    );
    // Canister needs no accuracy roll: 3 dice at 3+, 2 expected.
    let mut b = battery(&[u(1, RIFLES, 4, 101.0, 58.0, 270.0)]);
    b.arranging().units[0].loaded = Some(Ammo::Canister);
    let text = volley::report::heading(&b, &Action::Fire { unit: 0, target: 1 });
    assert!(
        !text.contains("lands on its aim") && text.contains("expect 2.00 hits"),
        "{text}"
    );
}

#[test]
fn a_charged_guns_canister_blasts_through_the_charger_to_the_unit_behind() {
    // BPT ACW note 6 ("When charged, smoothbore cannon fires canister shot") with DECISIONS
    // canister 3-4: the counter-initiative canister blasts through like any other. The Union
    // line charges the gun and is held 2 cm off; a second Union line 4 cm behind its start is
    // inside the corridor (15 cm from the gun's front edge). Every die a 6: the charger is hit,
    // so the blast goes on to the line behind, one worse to hit (5+).
    let mut b = battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(0, RIFLES, 4, 100.0, 46.0, 90.0),
        u(1, NAPOLEON, 1, 100.0, 50.75 + 8.0 + 1.25, 270.0),
    ]);
    b.apply(&Action::InitiativeCharge { unit: 0, target: 2 })
        .expect("a legal charge");
    script(&mut b, &[6; 60]);
    let ev = b.apply(&Action::CounterFire { unit: 2 }).unwrap();
    let blast = ev
        .iter()
        .find_map(|e| match e {
            Event::Artillery(ArtilleryEvent::BlastThrough { next, to_hit, .. }) => Some((*next, *to_hit)),
            _ => None,
        })
        .expect("the canister blasts through");
    assert_eq!(blast, (1, Some(5)));
    let behind = fired_at(&ev, 1);
    assert_eq!(behind.len(), 1, "{behind:?}");
    assert_eq!(behind[0].0, 3, "the canister's 3 dice again");
    assert_eq!(behind[0].2, "counter-initiative: canister blast-through");
}

#[test]
fn an_aimed_guns_preview_lands_on_its_aim_and_bounces_straight_on() {
    // Issue 15: the table's artillery preview (`app::artillery`). The same battery as
    // `round_shot_strikes_the_first_stand_then_bounces_over_a_unit_into_a_friend`: the ball
    // lands on the Confederate front line's edge (y 79.25), bounces half the 28 cm flight plus
    // one d4 step of 0.5 cm (to 93.75), then half of 14.5 plus 0.5 (to 101.5), and stops there
    // with its dice spent (3, 2, 1 attacks).
    use volley::app::artillery::{AimPreview, WantsAim};
    use volley::app::{PieceIndex, headless_app};
    let mut b = battery(&[
        u(0, RIFLES, 4, 100.0, 96.0, 270.0),
        u(1, RIFLES, 4, 100.0, 80.0, 270.0),
        u(1, RIFLES, 4, 100.0, 89.0, 270.0),
    ]);
    b.arranging().units[0].loaded = Some(Ammo::Shot);
    let mut app = headless_app(b);
    let e = app.world().resource::<PieceIndex>().unit(0).expect("the gun's entity");
    app.world_mut().entity_mut(e).insert(WantsAim {
        target: 2,
        ctx: FireContext::Order,
    });
    app.update();
    let aim = app.world().get::<AimPreview>(e).expect("the preview").clone();
    let ys: Vec<f64> = aim.trace.impacts.iter().map(|i| i.point.y).collect();
    let attacks: Vec<u32> = aim.trace.impacts.iter().map(|i| i.attacks).collect();
    assert_eq!(attacks, vec![3, 2, 1]);
    for (y, want) in ys.iter().zip([79.25, 93.75, 101.5]) {
        assert!((y - want).abs() < 1e-6, "{ys:?}");
    }
    assert!(
        aim.trace
            .impacts
            .iter()
            .all(|i| (i.point.x - aim.trace.gun.x).abs() < 1e-6),
        "straight on"
    );
    // A regular crew lands on its aim on 4+; the bounce odds are the rules' own.
    assert!((aim.on_aim - 0.5).abs() < 1e-9);
    let odds = volley::rules::artillery::bounce_chain_odds(
        &app.world().resource::<volley::app::BattleState>().0.rules.artillery,
        3,
    );
    assert_eq!(aim.bounces, odds);
    // No aim, no preview.
    app.world_mut().entity_mut(e).remove::<WantsAim>();
    app.update();
    assert!(app.world().get::<AimPreview>(e).is_none());
}
