//! BPT "Movement": allowance, oblique, wheel, about face, retire, road bonus, terrain, overlap,
//! the deployment table.

use super::common::*;
use std::f64::consts::PI;
use volley::battle::Battle;
use volley::battle::Deploy;
use volley::rules::formation::Formation;
use volley::rules::geometry::{Pose, V2};
use volley::rules::terrain::{Area, AreaKind, Linear, LinearKind, Polygon, Terrain};

const RIFLES: &str = "regular_infantry_rifled";
const N: f64 = PI / 2.0;

fn one_unit(formation: Formation, terrain: Terrain) -> Battle {
    let mut x = u(0, RIFLES, 4, 100.0, 50.0, 90.0);
    x.formation = formation;
    let mut b = battle_with(
        &[x, u(1, RIFLES, 4, 100.0, 170.0, 270.0)],
        terrain,
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
    );
    to_command(&mut b);
    b
}

fn at(x: f64, y: f64, facing: f64) -> Pose {
    Pose::new(V2::new(x, y), facing)
}

#[test]
fn a_move_is_at_most_the_move_allowance() {
    // Regular infantry move 10 cm (ACW troop chart).
    let b = one_unit(Formation::Line, Terrain::default());
    assert!(b.check_move(0, at(100.0, 60.0, N), false).is_ok());
    let r = b.check_move(0, at(100.0, 60.5, N), false).unwrap_err();
    assert!(r.rule.contains("allowance"), "{r}");
}

/// The legal listing asks only whether actions are allowed, so refusals made while it runs
/// (`quietly`) are not worded (issue 66's speed); the same refusal is worded for a player
/// outside it, and the wording comes back after a listing, even one that panicked.
#[test]
fn refusals_are_worded_outside_the_listing_and_not_inside_it() {
    use volley::battle::action::quietly;
    let b = one_unit(Formation::Line, Terrain::default());
    let too_far = at(100.0, 60.5, N);
    let worded = b.check_move(0, too_far, false).unwrap_err();
    assert!(worded.reason.contains("needs 10.5 cm of movement"), "{worded}");
    let quiet = quietly(|| b.check_move(0, too_far, false)).unwrap_err();
    assert_eq!(quiet.rule, worded.rule);
    assert_eq!(quiet.reason, "");
    assert!(quietly(|| b.check_move(0, at(100.0, 60.0, N), false)).is_ok());
    let _ = std::panic::catch_unwind(|| quietly(|| panic!("a listing that fails")));
    assert_eq!(b.check_move(0, too_far, false).unwrap_err(), worded);
    // The listing offers the same moves as the checks allow one by one, worded or not.
    let listed = b.legal_actions();
    let allowed: Vec<_> = listed.iter().filter(|a| b.validate(a).is_ok()).collect();
    assert_eq!(allowed.len(), listed.len());
}

#[test]
fn oblique_up_to_45_degrees_but_not_sideways() {
    let b = one_unit(Formation::Line, Terrain::default());
    let d = 9.0 / 2f64.sqrt();
    assert!(b.check_move(0, at(100.0 + d, 50.0 + d, N), false).is_ok());
    assert!(
        b.check_move(0, at(105.0, 50.0, N), false).is_err(),
        "straight sideways is not an oblique"
    );
}

#[test]
fn retire_costs_three_quarters_of_the_allowance() {
    let b = one_unit(Formation::Line, Terrain::default());
    assert_eq!(b.check_move(0, at(100.0, 47.5, N), false).unwrap().cost, 10.0);
    assert!(b.check_move(0, at(100.0, 47.0, N), false).is_err());
}

#[test]
fn about_face_costs_half_the_allowance() {
    let b = one_unit(Formation::Line, Terrain::default());
    let c = b.check_move(0, at(100.0, 50.0, -N), false).unwrap();
    assert_eq!(c.cost, 5.0);
    assert!(b.check_move(0, at(100.0, 45.0, -N), false).is_ok());
    assert!(b.check_move(0, at(100.0, 44.0, -N), false).is_err());
}

#[test]
fn wheel_is_measured_from_the_outside_stand_and_limited_to_45_degrees() {
    // A line of 4 infantry stands is 10 cm wide: a 45° wheel moves the outside stand 10·π/4 ≈ 7.85.
    let b = one_unit(Formation::Line, Terrain::default());
    let c = b.check_move(0, at(100.0, 50.0, N + PI / 4.0), false).unwrap();
    assert!((c.cost - 10.0 * PI / 4.0).abs() < 1e-9);
    assert!(
        b.check_move(0, at(100.0, 50.0, N + PI / 3.0), false).is_err(),
        "60° is more than a wheel"
    );
}

fn road() -> Terrain {
    road_along(&[(100.0, 0.0), (100.0, 180.0)])
}

#[test]
fn march_column_on_a_road_gets_five_cm_more() {
    let b = one_unit(Formation::MarchColumn, road());
    let c = b.check_move(0, at(100.0, 65.0, N), false).expect("10 + 5 road bonus");
    assert!(c.road);
    assert!(b.check_move(0, at(100.0, 65.5, N), false).is_err());
    // A line on the road gets no bonus.
    let b = one_unit(Formation::Line, road());
    assert!(b.check_move(0, at(100.0, 65.0, N), false).is_err());
}

fn rect_area(kind: AreaKind, y0: f64, y1: f64) -> Terrain {
    Terrain {
        areas: vec![Area {
            kind,
            name: "a".into(),
            outline: Polygon(vec![
                V2::new(60.0, y0),
                V2::new(140.0, y0),
                V2::new(140.0, y1),
                V2::new(60.0, y1),
            ]),
        }],
        ..Default::default()
    }
}

#[test]
fn low_area_terrain_is_half_speed_and_stops_on_leaving() {
    // Standing inside a field (y 40..80): 5 cm costs 10.
    let b = one_unit(Formation::Line, rect_area(AreaKind::Field, 40.0, 80.0));
    assert_eq!(b.check_move(0, at(100.0, 55.0, N), false).unwrap().cost, 10.0);
    assert!(b.check_move(0, at(100.0, 55.5, N), false).is_err());
}

#[test]
fn entering_area_terrain_stops_at_the_boundary() {
    // Wood edge 4 cm ahead: the unit may go in and stop at the edge, but not 5 cm further.
    let b = one_unit(Formation::Line, rect_area(AreaKind::Woods, 55.0, 100.0));
    assert!(b.check_move(0, at(100.0, 56.0, N), false).is_ok());
    let r = b.check_move(0, at(100.0, 59.9, N), false).unwrap_err();
    assert!(r.rule.contains("Area Terrain"), "{r}");
}

#[test]
fn dense_terrain_needs_an_order_that_declares_it() {
    let b = one_unit(Formation::Line, rect_area(AreaKind::Mud, 40.0, 80.0));
    let r = b.check_move(0, at(100.0, 52.0, N), false).unwrap_err();
    assert!(r.rule.contains("note 3"), "{r}");
    // Quarter speed: 2 cm cost 8.
    assert_eq!(b.check_move(0, at(100.0, 52.0, N), true).unwrap().cost, 8.0);
}

#[test]
fn a_wall_stops_the_move_and_is_crossed_on_the_next_order() {
    let wall = |y: f64| Terrain {
        linears: vec![Linear {
            kind: LinearKind::Wall,
            name: "wall".into(),
            points: vec![V2::new(50.0, y), V2::new(150.0, y)],
            width: 0.5,
        }],
        ..Default::default()
    };
    let b = one_unit(Formation::Line, wall(55.0));
    let r = b.check_move(0, at(100.0, 59.0, N), false).unwrap_err();
    assert!(r.rule.contains("Linear Terrain"), "{r}");
    // Front edge touching the wall (front at y 50.75 → wall at 51.0): may cross.
    let b = one_unit(Formation::Line, wall(51.0));
    assert!(b.check_move(0, at(100.0, 55.0, N), false).unwrap().crossed_obstacle);
}

#[test]
fn no_overlapping_bases_and_no_moving_into_contact_with_the_enemy() {
    // Union lines at y 50 and 58; a Confederate line facing south at y 69.5 (front edge 68.75).
    let mut b = battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(0, RIFLES, 4, 100.0, 58.0, 90.0),
        u(1, RIFLES, 4, 100.0, 69.5, 270.0),
    ]);
    to_command(&mut b);
    assert!(
        b.check_move(0, at(100.0, 57.0, N), false)
            .unwrap_err()
            .rule
            .contains("overlapping")
    );
    let r = b.check_move(1, at(100.0, 67.9, N), false).unwrap_err();
    assert!(r.rule.contains("Charge"), "{r}");
    assert!(b.check_move(1, at(100.0, 66.0, N), false).is_ok());
}

#[test]
fn formation_changes_follow_the_deployment_table() {
    // BPT "Movement Formation Deployment": line → attack column "No"; line → march column "Yes";
    // extended line → march column "No"; square is not used in the ACW.
    let b = one_unit(Formation::Line, Terrain::default());
    assert!(
        b.check_deploy(0, Deploy::Formation(Formation::AttackColumn), false)
            .is_err()
    );
    assert!(
        b.check_deploy(0, Deploy::Formation(Formation::MarchColumn), false)
            .is_ok()
    );
    assert!(
        b.check_deploy(0, Deploy::Formation(Formation::ExtendedLine), false)
            .is_ok()
    );
    assert!(b.check_deploy(0, Deploy::Formation(Formation::Square), false).is_err());
    let b = one_unit(Formation::ExtendedLine, Terrain::default());
    assert!(
        b.check_deploy(0, Deploy::Formation(Formation::MarchColumn), false)
            .is_err()
    );
    let b = one_unit(Formation::MarchColumn, Terrain::default());
    assert!(
        b.check_deploy(0, Deploy::Formation(Formation::AttackColumn), false)
            .is_ok()
    );
}

#[test]
fn a_refused_flank_stand_fires_and_fronts_to_the_flank_and_the_unit_cannot_charge() {
    // BPT "Refuse the Flank Movement": the flank stand swings back 45°; it needs an order and
    // a refused unit may not charge. The refused stand has its own cone.
    let mut b = battle(&[u(0, RIFLES, 4, 100.0, 50.0, 90.0), u(1, RIFLES, 4, 85.0, 58.0, 0.0)]);
    to_command(&mut b);
    // The enemy off the left front, outside the line's 30° cone.
    let r = b
        .check_fire(0, 1, volley::battle::fire::FireContext::Order)
        .unwrap_err();
    assert!(r.rule.contains("Cone"), "{r}");
    assert!(
        b.check_deploy(
            0,
            Deploy::RefuseFlank {
                left: true,
                right: false
            },
            true
        )
        .is_err(),
        "needs an order"
    );
    b.check_deploy(
        0,
        Deploy::RefuseFlank {
            left: true,
            right: false,
        },
        false,
    )
    .expect("a line may refuse");
    b.arranging().cmd.orders.insert(0, super::fire::order(HQ0));
    b.apply(&volley::battle::Action::Deploy {
        unit: 0,
        deploy: Deploy::RefuseFlank {
            left: true,
            right: false,
        },
    })
    .unwrap();
    let left = b.rects(0)[0];
    assert!(
        (left.facing - (N + PI / 4.0)).abs() < 1e-9,
        "the left stand faces 45° outward"
    );
    let plan = b
        .check_fire(0, 1, volley::battle::fire::FireContext::Order)
        .expect("the refused stand bears");
    assert_eq!(plan.base_dice, 1, "one stand bears");
    // Fire from that side now meets the refused stand's front.
    let from = b.rects(1)[0];
    assert_eq!(b.aspect_of(0, &from), volley::rules::geometry::Aspect::Front);
    assert!(b.check_charge(0, 1).unwrap_err().rule.contains("Refuse"));
}

#[test]
fn an_ordered_move_is_checked_with_the_line_dressed_as_it_will_stand() {
    // An ordered move dresses a refused line (its flanks swing forward again), so the move is
    // checked with the dressed bases: a friend standing where a dressed end stand would be
    // refuses even a move of 0 cm that the refused line alone would allow. (Found by the
    // property test: a wheel after refusing both flanks ended overlapping a friend.)
    let mut b = battle(&[
        u(0, "regular_infantry_rifled", 5, 100.0, 50.0, 90.0),
        u(0, "regular_infantry_rifled", 1, 200.0, 20.0, 90.0),
    ]);
    to_command(&mut b);
    b.arranging().units[0].refused = (true, true);
    b.refresh_geometry();
    let pose = b.unit(0).pose;
    let dressed = b.rects_at_dressed(0, pose);
    // Put the friend over the outer front corner of where the dressed left end stand would be
    // (the refused stand has swung back from there).
    let end = dressed[0];
    let corner = end.center + end.forward() * (end.depth * 0.5) + end.left() * (end.width * 0.5);
    let spot = corner + end.forward() * 0.65 + end.left() * 1.15;
    b.arranging().units[1].pose = Pose::new(spot, end.facing);
    b.refresh_geometry();
    let friend = b.rects(1).to_vec();
    let now = b.rects(0).to_vec();
    let touches = |a: &[volley::rules::geometry::Rect]| a.iter().any(|r| friend.iter().any(|f| r.overlaps(f)));
    assert!(!touches(&now), "the friend clears the refused line");
    assert!(touches(&dressed), "but not the dressed one");
    b.arranging().cmd.orders.insert(0, super::fire::order(HQ0));
    assert!(b.check_move(0, pose, false).is_err());
}

#[test]
fn a_refused_move_says_what_its_cost_is_made_of() {
    // Passing through friends costs half the allowance (BPT "Movement", passage of lines):
    // 8.5 cm of ground + 5 cm through "Union 1" is more than the 10 cm allowance, and the
    // refusal names both parts.
    let mut b = battle_with(
        &[
            u(0, RIFLES, 4, 100.0, 50.0, 90.0),
            u(0, RIFLES, 2, 100.0, 54.5, 90.0),
            u(1, RIFLES, 4, 100.0, 170.0, 270.0),
        ],
        Terrain::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
    );
    to_command(&mut b);
    let r = b.check_move(0, at(100.0, 58.5, N), false).unwrap_err();
    assert!(r.rule.contains("allowance"), "{r}");
    assert!(
        r.reason
            .contains("13.5 cm of movement (8.5 cm the distance + 5.0 cm passing through Union 1)"),
        "{r}"
    );
}

/// One unit of regular infantry (10 cm) facing north with an order in hand, on open ground.
fn ordered_unit() -> Battle {
    let mut b = one_unit(Formation::Line, Terrain::default());
    script(&mut b, &[1, 1]);
    b.apply(&volley::battle::Action::Order {
        commander: HQ0,
        units: vec![0],
        charge: false,
        dense: false,
        road: false,
    })
    .expect("a roll of 2 passes any order");
    b
}

#[test]
fn the_move_envelope_is_the_allowance_ahead_an_oblique_and_a_retire() {
    use volley::battle::envelope::move_envelope;
    let b = ordered_unit();
    // 8 rays: east, north-east, north, north-west, west, south-west, south, south-east.
    let env = move_envelope(&b, 0, 8, 0.5);
    let reach: Vec<f64> = env.iter().map(|&(_, r)| r).collect();
    // Ahead (north) and at the 45° obliques: the whole 10 cm allowance.
    assert_eq!(reach[2], 10.0);
    assert_eq!(reach[1], 10.0);
    assert_eq!(reach[3], 10.0);
    // Sideways is no oblique: nowhere.
    assert_eq!(reach[0], 0.0);
    assert_eq!(reach[4], 0.0);
    // Straight back: a retire costs three quarters of the allowance, so 2.5 cm.
    assert_eq!(reach[6], 2.5);
    // A retire may oblique too (within 45° of straight back).
    assert_eq!(reach[5], 2.5);
    assert_eq!(reach[7], 2.5);
}

#[test]
fn every_envelope_point_is_a_move_the_pipeline_accepts() {
    use volley::battle::envelope::move_envelope;
    let b = skirmish(1);
    let mut b = b;
    // Into the Union's first command phase, with every order the dice allow.
    while b.phase != volley::battle::Phase::Command {
        b.apply(&volley::battle::Action::EndPhase).unwrap();
    }
    script(&mut b, &[1; 40]);
    let orders: Vec<_> = b
        .legal_actions()
        .into_iter()
        .filter(|a| matches!(a, volley::battle::Action::Order { units, .. } if units.len() > 1))
        .collect();
    for o in orders {
        let _ = b.apply(&o);
    }
    let mut checked = 0;
    for id in b.side_units(0).map(|u| u.id).collect::<Vec<_>>() {
        if !b.cmd.orders.contains_key(&id) {
            continue;
        }
        let from = b.unit(id).pose;
        for (a, r) in move_envelope(&b, id, 16, 0.5) {
            if r > 0.0 {
                let to = Pose::new(from.pos + V2::new(a.cos(), a.sin()) * r, from.facing);
                let mut after = b.clone();
                after
                    .apply(&volley::battle::Action::Move { unit: id, to })
                    .unwrap_or_else(|e| panic!("{} to {to:?}: {e}", b.unit(id).name));
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} envelope points were checked");
}

#[test]
fn a_march_column_follows_the_bends_of_the_road_with_its_bonus() {
    // BPT "March Column": "The formation conforms to the bends in the road"; "Road Bonus
    // Movement": +5 cm for foot "along a road the whole of their movement allowance". A road
    // north to (100, 57), then east: round the bend to (108, 57) is 7 + 8 = 15 cm = 10 + 5.
    let bend = road_along(&[(100.0, 0.0), (100.0, 57.0), (140.0, 57.0)]);
    let b = one_unit(Formation::MarchColumn, bend.clone());
    let c = b.check_move(0, at(108.0, 57.0, 0.0), false).expect("along the road");
    assert!(c.road);
    assert!((c.cost - 15.0).abs() < 1e-9, "{}", c.cost);
    // The straight line would cut the corner off the road (10.6 cm, more than 10 without the bonus).
    let r = b.check_move(0, at(109.0, 57.0, 0.0), false).unwrap_err();
    assert!(r.rule.contains("allowance"), "16 cm along the road: {r}");
    // The moves offered include the way round the bend.
    assert!(
        b.candidate_moves(0).iter().any(|p| p.pos.x > 101.0
            && (p.pos.y - 57.0).abs() < 0.1
            && b.check_move(0, *p, false).is_ok_and(|m| m.road)),
        "a legal road move round the bend is offered"
    );
    // A line gets no road and no bend.
    let b = one_unit(Formation::Line, bend);
    assert!(b.check_move(0, at(108.0, 57.0, 0.0), false).is_err());
}
