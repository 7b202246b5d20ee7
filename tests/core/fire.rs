//! BPT "Firing": dice, modifiers, to-hit by cover, saves, suppression, fall-back, knock-out.

use super::common::*;
use volley::battle::Action;
use volley::battle::event::families::*;
use volley::battle::event::{Event, KnockOut};
use volley::battle::fire::FireContext;
use volley::rules::formation::Formation;
use volley::rules::geometry::{Aspect, V2};
use volley::rules::params::Cover;
use volley::rules::terrain::{Area, AreaKind, Polygon, Terrain};

const RIFLES: &str = "regular_infantry_rifled";

/// Union line at (100, 50) facing north; a Confederate line `gap` cm of clear ground beyond.
fn duel(gap: f64) -> volley::battle::Battle {
    // Line bases are 1.5 deep: front edges at y ± 0.75.
    battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(1, RIFLES, 4, 100.0, 50.0 + 1.5 + gap, 270.0),
    ])
}

#[test]
fn dice_are_attacks_times_stands_plus_half_range_and_first_fire_roll_bonus() {
    // BPT "Calculating Firing": 1 attack × 4 stands; "+1 within half the range" (20 cm → 10);
    // ACW special rules: +1 to the hit roll the first time a unit fires.
    let b = duel(8.5);
    let p = b.check_fire(0, 1, FireContext::Order).expect("in range, in the cone");
    assert_eq!(p.base_dice, 4);
    assert_eq!(p.dice, 5);
    assert_eq!((p.to_hit, p.roll_bonus, p.effective_to_hit()), (4, 1, 3));
    assert_eq!(p.aspect, Aspect::Front);
    assert_eq!(p.cover, Cover::Open);
    assert_eq!(p.save, None);
}

#[test]
fn no_half_range_bonus_beyond_half_range_and_no_fire_beyond_range() {
    let b = duel(12.0);
    assert_eq!(b.check_fire(0, 1, FireContext::Order).unwrap().dice, 4);
    let b = duel(20.5);
    let r = b.check_fire(0, 1, FireContext::Order).unwrap_err();
    assert!(r.rule.contains("range"), "{r}");
}

#[test]
fn flank_shot_adds_two_dice_and_worsens_the_save_by_one() {
    // Target faces east: the firer to its south is outside its fire cone → flank.
    // Skirmishers save 5+ (ACW note 14) → 6+ on the flank; extended line target −1.
    let mut target = u(1, "skirmishing_infantry_rifled", 4, 100.0, 60.0, 0.0);
    target.formation = Formation::ExtendedLine;
    let b = battle(&[u(0, RIFLES, 4, 100.0, 50.0, 90.0), target]);
    let p = b.fire_plan(0, 1, FireContext::Order);
    assert_eq!(p.aspect, Aspect::Flank);
    assert_eq!(p.save, Some(6));
    let amounts: Vec<i32> = p.modifiers.iter().map(|m| m.amount).collect();
    assert!(amounts.contains(&2) && amounts.contains(&-1), "{:?}", p.modifiers);
}

/// BPT "Flank/rear Determination" ("If a firing unit is 45-90 degrees to side of the fire cone
/// of the target unit it is a flank shot"): the firing unit as a whole (`bpt-4`). The 7th
/// Wisconsin's fire on the 12th Virginia in *First Battle* (seed 3, turn 3): a line wheeled
/// to 113°, four of its five bases in the Virginians' fire cone and only its nearest, east end
/// outside it. Until `bpt-3` that one base made it a flank shot, two dice more (6 for 4).
#[test]
fn a_firing_line_with_bases_in_the_targets_cone_fires_at_its_front() {
    let b = battle(&[u(0, RIFLES, 4, 76.0, 37.6, 113.0), u(1, RIFLES, 4, 69.4, 53.0, 270.0)]);
    let nearest = b.nearest_rect(0, 1);
    assert_eq!(
        b.aspect_of(1, &nearest),
        Aspect::Flank,
        "its nearest base alone is outside the cone"
    );
    let in_cone = b.rects(0).iter().filter(|r| b.aspect_of(1, r) == Aspect::Front).count();
    assert_eq!(in_cone, 4);
    let p = b.fire_plan(0, 1, FireContext::Order);
    assert_eq!(p.aspect, Aspect::Front);
    assert_eq!(p.dice, 4, "four stands, no flank dice: {:?}", p.modifiers);
}

/// The same rule at the rear: a rear shot when every base of the firer is behind the target's
/// rear edge; a firer partly behind it and partly beside it, all outside the cone, fires at
/// the flank.
#[test]
fn a_rear_shot_needs_the_whole_firer_behind_the_target() {
    // Target at (100, 60) facing north: front edge y 60.75, rear edge y 59.25.
    let behind = battle(&[u(0, RIFLES, 4, 100.0, 45.0, 90.0), u(1, RIFLES, 4, 100.0, 60.0, 90.0)]);
    assert_eq!(behind.fire_aspect(1, 0), Aspect::Rear);
    // A line facing west at (112, 59) runs north-south across the rear edge's line.
    let beside = battle(&[u(0, RIFLES, 4, 112.0, 59.0, 180.0), u(1, RIFLES, 4, 100.0, 60.0, 90.0)]);
    let each: Vec<Aspect> = beside.rects(0).iter().map(|r| beside.aspect_of(1, r)).collect();
    assert!(
        each.contains(&Aspect::Rear) && each.contains(&Aspect::Flank),
        "{each:?}"
    );
    assert_eq!(beside.fire_aspect(1, 0), Aspect::Flank);
}

fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon {
    Polygon(vec![V2::new(x0, y0), V2::new(x1, y0), V2::new(x1, y1), V2::new(x0, y1)])
}

#[test]
fn cover_sets_the_score_to_hit_and_artillery_treats_soft_as_open() {
    // BPT "Scoring Hits": open 4+, soft 5+, hard 6; ACW notes 6/7: artillery shifts one step.
    for (kind, need, gun_need) in [
        (AreaKind::Woods, 5, 4),
        (AreaKind::BuiltUp, 6, 5),
        (AreaKind::Field, 4, 4),
    ] {
        let terrain = Terrain {
            areas: vec![Area {
                kind,
                name: "x".into(),
                outline: square(85.0, 58.0, 115.0, 75.0),
            }],
            ..Default::default()
        };
        let b = battle_with(
            &[
                u(0, RIFLES, 4, 100.0, 50.0, 90.0),
                u(0, "rifled_cannon", 1, 130.0, 50.0, 110.0),
                u(1, RIFLES, 4, 100.0, 60.0, 270.0),
            ],
            terrain,
            [(20.0, 5.0), (220.0, 175.0)],
            [(40.0, 5.0), (200.0, 175.0)],
        );
        // Unit ids: a side's units in order, side 0 first.
        assert_eq!(b.fire_plan(0, 2, FireContext::Order).to_hit, need, "{kind:?}");
        assert_eq!(
            b.fire_plan(1, 2, FireContext::Order).to_hit,
            gun_need,
            "{kind:?} artillery"
        );
    }
}

#[test]
fn hits_then_a_suppression_test_that_any_die_at_the_score_to_hit_fails() {
    let mut b = duel(8.5);
    to_command(&mut b);
    b.arranging().cmd.orders.insert(0, order(HQ0));
    // 5 dice at 3+ (4+ with the first-fire bonus): 3 hits; suppression dice 1 2 4 → a 4 suppresses.
    script(&mut b, &[3, 2, 6, 1, 4, 1, 2, 4]);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).expect("legal fire");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Fire(FireEvent::Fired { hits: 3, .. }))),
        "{ev:?}"
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Morale(MoraleEvent::SuppressionTest {
            suppressed: true,
            need: 4,
            ..
        })
    )));
    assert_eq!(b.unit(1).hits, 3);
    assert!(b.unit(1).suppressed());
}

pub fn order(by: u32) -> volley::battle::state::OrderState {
    volley::battle::state::OrderState {
        by,
        count: 1,
        credits: 1,
        finished: false,
        may_charge: true,
        may_enter_dense: true,
        self_order: false,
        fire_after_manhandle: false,
        road: false,
    }
}

fn suppressed_target_takes(hits_faces: &[u32], fall_back: &[u32]) -> (volley::battle::Battle, Vec<Event>) {
    let mut b = duel(8.5);
    to_command(&mut b);
    b.arranging().cmd.orders.insert(0, order(HQ0));
    b.arranging().unit_mut(1).suppressed = Some(volley::battle::state::Suppression {
        player_turn: 0,
        order_seq: 0,
    });
    let mut faces = hits_faces.to_vec();
    faces.extend_from_slice(fall_back);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).expect("legal fire");
    (b, ev)
}

#[test]
fn an_already_suppressed_unit_falls_back_the_sum_of_its_dice() {
    // 4 hits; fall-back dice 6 6 5 3 = 20 cm: not more than 20, so it falls back 20 cm.
    let (b, ev) = suppressed_target_takes(&[6, 6, 6, 6, 1], &[6, 6, 5, 3]);
    assert!(b.unit(1).alive());
    let moved = ev.iter().find_map(|e| match e {
        Event::Morale(MoraleEvent::FellBack { distance, from, to, .. }) => Some((*distance, from.pos.dist(to.pos))),
        _ => None,
    });
    let (d, actual) = moved.expect("a fall-back");
    assert_eq!(d, 20.0);
    assert!((actual - 20.0).abs() < 0.3, "moved {actual}");
    // Directly away from the firer, turned to face it.
    assert!(b.unit(1).pose.pos.y > 60.0 + 19.0);
}

#[test]
fn falling_back_more_than_twenty_cm_knocks_out() {
    let (b, ev) = suppressed_target_takes(&[6, 6, 6, 6, 1], &[6, 6, 5, 4]);
    assert!(!b.unit(1).alive());
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Morale(MoraleEvent::KnockedOut {
            why: KnockOut::FellBackTooFar,
            ..
        })
    )));
}

#[test]
fn hits_equal_to_the_hits_value_knock_out_with_no_suppression_test() {
    // Regular infantry: 3 hits a stand; a 2-stand unit has a hits value of 6.
    let mut b = battle(&[u(0, RIFLES, 4, 100.0, 50.0, 90.0), u(1, RIFLES, 2, 100.0, 60.0, 270.0)]);
    to_command(&mut b);
    b.arranging().cmd.orders.insert(0, order(HQ0));
    b.arranging().unit_mut(1).hits = 3;
    script(&mut b, &[6, 6, 6, 1, 1]);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    assert!(!b.unit(1).alive());
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Morale(MoraleEvent::SuppressionTest { .. })))
    );
}
