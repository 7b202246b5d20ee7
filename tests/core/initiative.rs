//! BPT "Initiative Phase", "Evading", "Counter-Initiative".

use super::common::*;
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};
use volley::battle::event::Event;
use volley::battle::event::families::*;
use volley::battle::state::{Phase, Step};
use volley::battle::{Action, Deploy};
use volley::rules::geometry::Aspect;

const RIFLES: &str = "regular_infantry_rifled";

fn facing_off(gap: f64) -> volley::battle::Battle {
    let b = battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(1, RIFLES, 4, 100.0, 50.0 + 1.5 + gap, 270.0),
        u(1, RIFLES, 4, 130.0, 50.0 + 1.5 + gap + 5.0, 270.0),
    ]);
    assert_eq!(b.phase, Phase::Initiative);
    b
}

#[test]
fn units_with_a_visible_enemy_within_20_cm_may_act_on_initiative() {
    let b = facing_off(15.0);
    assert!(b.check_initiative(0).is_ok());
    let b = facing_off(20.5);
    assert!(b.check_initiative(0).is_err());
}

#[test]
fn initiative_fire_is_at_the_nearest_visible_enemy_only() {
    let mut b = facing_off(8.0);
    let far = Action::InitiativeFire { unit: 0, target: 2 };
    let r = b.apply(&far).unwrap_err();
    assert!(r.reason.contains("nearest"), "{r}");
    assert!(b.apply(&Action::InitiativeFire { unit: 0, target: 1 }).is_ok());
    // Once a turn.
    assert!(b.apply(&Action::InitiativeFire { unit: 0, target: 1 }).is_err());
}

#[test]
fn suppressed_units_may_not_use_initiative() {
    let mut b = facing_off(8.0);
    b.arranging().unit_mut(0).suppressed = Some(volley::battle::state::Suppression {
        player_turn: 0,
        order_seq: 0,
    });
    assert!(b.check_initiative(0).unwrap_err().reason.contains("suppressed"));
}

#[test]
fn evade_is_a_full_move_directly_away_turning_to_face_the_enemy() {
    let mut b = facing_off(8.0);
    let ev = b.apply(&Action::InitiativeEvade { unit: 0 }).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Movement(MovementEvent::Moved { .. })))
    );
    let p = b.unit(0).pose;
    assert!((p.pos.y - 40.0).abs() < 0.3, "10 cm back: {:?}", p.pos);
    assert!(
        (p.facing - std::f64::consts::FRAC_PI_2).abs() < 0.2,
        "still faces the enemy"
    );
}

#[test]
fn a_charge_opens_counter_initiative_for_the_target_then_makes_contact() {
    let mut b = facing_off(8.0);
    b.apply(&Action::InitiativeCharge { unit: 0, target: 1 })
        .expect("legal charge");
    match &b.step {
        Step::CounterInitiative {
            charger,
            target,
            eligible,
            ..
        } => {
            assert_eq!((*charger, *target), (0, 1));
            assert!(eligible.contains(&1));
        }
        s => panic!("expected counter-initiative, got {s:?}"),
    }
    assert_eq!(b.actor(), 1, "the charged side decides");
    // Held 2 cm off the target.
    assert!((b.unit_distance(0, 1) - 2.0).abs() < 0.1, "{}", b.unit_distance(0, 1));
    b.apply(&Action::Pass).unwrap();
    assert!(b.unit_distance(0, 1) < 0.1);
    assert_eq!(b.combats.len(), 1);
}

#[cfg(feature = "gui")]
#[test]
fn the_charged_player_is_asked_in_words_with_only_the_answers_the_rules_allow() {
    // Issue 65, "solo moments": "12th Virginia charges your 5th New Hampshire: evade, fire or
    // stand?", not "counter-initiative", and only what may be done: infantry charged by
    // infantry may fire at the charger or evade (BPT "Counter-Initiative"), not counter-charge.
    let mut b = facing_off(8.0);
    b.apply(&Action::InitiativeCharge { unit: 0, target: 1 })
        .expect("legal charge");
    let legal = b.legal_actions();
    assert!(legal.iter().any(|a| matches!(a, Action::CounterFire { .. })));
    assert!(legal.iter().any(|a| matches!(a, Action::CounterEvade { .. })));
    assert!(!legal.iter().any(|a| matches!(a, Action::CounterCharge { .. })));
    let said = volley::ui::prompt::window_prompt(&b, &[], "Enter").expect("a prompt");
    let (charger, target) = (&b.unit(0).name, &b.unit(1).name);
    assert_eq!(
        said,
        format!("{charger} charges your {target}: fire at it, evade, or stand (Pass, Enter)")
    );
}

#[test]
fn a_unit_within_5_cm_of_the_target_may_evade_the_charge_too() {
    // BPT "Counter-Initiative": "Units under charge and any units within 5cm of units under
    // charge may fire at or evade charging units." A second Confederate line 3 cm beside the
    // target evades; the charge goes on at the target.
    let mut b = battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(1, RIFLES, 4, 100.0, 59.5, 270.0),
        u(1, RIFLES, 4, 113.0, 59.5, 270.0),
    ]);
    assert!((b.unit_distance(1, 2) - 3.0).abs() < 1e-6);
    b.apply(&Action::InitiativeCharge { unit: 0, target: 1 })
        .expect("legal charge");
    assert!(b.legal_actions().contains(&Action::CounterEvade { unit: 2 }));
    let d0 = b.unit_distance(0, 2);
    b.apply(&Action::CounterEvade { unit: 2 }).expect("it may evade");
    assert!(b.unit_distance(0, 2) > d0 + 5.0, "it moved away from the charger");
    assert!(
        matches!(b.step, Step::CounterInitiative { target: 1, .. }),
        "the window stays open"
    );
    assert!(b.apply(&Action::CounterEvade { unit: 2 }).is_err(), "once");
    b.apply(&Action::Pass).unwrap();
    assert_eq!(b.combats.len(), 1, "the charge reaches its target");
}

/// A Union line (id 0) charging on initiative a Confederate gun (id 1) facing west, from the
/// south: into the gun's flank. The counter-initiative window is open.
fn gun_charged_in_the_flank() -> volley::battle::Battle {
    let mut b = battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(1, "smoothbore_cannon", 1, 110.0, 62.0, 180.0),
    ]);
    b.apply(&Action::InitiativeCharge { unit: 0, target: 1 })
        .expect("legal charge");
    assert!(matches!(b.step, Step::CounterInitiative { .. }));
    b
}

fn contact_aspect(ev: &[Event]) -> Option<Aspect> {
    ev.iter().find_map(|e| match e {
        Event::Melee(MeleeEvent::ChargeContact { aspect, .. }) => Some(*aspect),
        _ => None,
    })
}

#[test]
fn a_gun_charged_in_the_flank_pivots_to_face_the_charger_and_meets_it_in_front() {
    // BPT "Charging": "If charged, artillery may counter initiative by man handling up to 90
    // degrees to face a charge". Standing, the gun is met in the flank; man-handled a quarter
    // turn to face south, the charger meets its front.
    let mut stood = gun_charged_in_the_flank();
    let ev = stood.apply(&Action::Pass).unwrap();
    assert_eq!(contact_aspect(&ev), Some(Aspect::Flank), "{ev:?}");
    let mut b = gun_charged_in_the_flank();
    let face_south = Action::CounterDeploy {
        unit: 1,
        deploy: Deploy::Pivot(-FRAC_PI_2),
    };
    let legal = b.legal_actions();
    assert!(legal.contains(&face_south), "{legal:?}");
    // Not as an ordinary deploy (BPT "Pivoting a gun requires a deploy action").
    assert!(
        !legal
            .iter()
            .any(|a| matches!(a, Action::Deploy { .. } | Action::InitiativeDeploy { .. }))
    );
    let ev = b.apply(&face_south).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Movement(MovementEvent::Deployed { unit: 1, .. })))
    );
    assert!((b.unit(1).pose.facing + FRAC_PI_2).abs() < 1e-9);
    assert_eq!(contact_aspect(&ev), Some(Aspect::Front), "{ev:?}");
    assert_eq!(b.combats.len(), 1);
}

#[test]
fn a_charged_gun_man_handles_at_most_90_degrees_and_only_when_charged() {
    // BPT "Charging": "up to 90 degrees". From facing west (180°), 135° round to face 315° is
    // refused, citing the book; so is any other deploy, and a pivot by a unit not charged.
    let mut b = gun_charged_in_the_flank();
    let too_far = Action::CounterDeploy {
        unit: 1,
        deploy: Deploy::Pivot(-FRAC_PI_4),
    };
    let r = b.apply(&too_far).unwrap_err();
    assert_eq!(r.rule, "BPT Charging: artillery");
    assert!(r.reason.contains("90 degrees"), "{r}");
    let limber = Action::CounterDeploy {
        unit: 1,
        deploy: Deploy::Limber,
    };
    assert_eq!(b.apply(&limber).unwrap_err().rule, "BPT Counter-Initiative");
    // The gun may still evade (limbering, half a move) or pass.
    let legal = b.legal_actions();
    assert!(legal.contains(&Action::CounterEvade { unit: 1 }));
    assert!(legal.contains(&Action::Pass));
    // Out of the window the pivot is no answer to anything.
    b.apply(&Action::Pass).unwrap();
    let r = b
        .apply(&Action::CounterDeploy {
            unit: 1,
            deploy: Deploy::Pivot(-FRAC_PI_2),
        })
        .unwrap_err();
    assert!(r.rule.starts_with("BPT"), "{r}");
}

#[test]
fn the_computer_turns_a_gun_charged_in_the_flank_to_face_the_charge() {
    // BPT "Charging": man-handling up to 90 degrees to face a charge. The scheduler answers a
    // flank charge on its gun with the pivot (it meets the charger in front), and gives the
    // pivot no worth when the charge already comes at the gun's front.
    use volley::agents::scheduler::Scheduler;
    let b = gun_charged_in_the_flank();
    let legal = b.legal_actions();
    let (i, why) = Scheduler::new(1).pick(&b, &legal);
    assert!(
        matches!(legal[i], Action::CounterDeploy { unit: 1, .. }),
        "{:?}: {why}",
        legal[i]
    );
    assert!(why.contains("in front, not in the flank"), "{why}");
    // Charged in front, the gun has nothing to turn for: it meets the charge with canister.
    let mut front = battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(1, "smoothbore_cannon", 1, 100.0, 62.0, 250.0),
    ]);
    front
        .apply(&Action::InitiativeCharge { unit: 0, target: 1 })
        .expect("legal charge");
    let legal = front.legal_actions();
    let (i, why) = Scheduler::new(1).pick(&front, &legal);
    assert_eq!(legal[i], Action::CounterFire { unit: 1 }, "{legal:?}: {why}");
}
