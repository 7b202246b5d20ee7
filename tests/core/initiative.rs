//! BPT "Initiative Phase", "Evading", "Counter-Initiative".

use super::common::*;
use volley::battle::Action;
use volley::battle::event::Event;
use volley::battle::state::{Phase, Step};

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
    b.unit_mut(0).suppressed = Some(volley::battle::state::Suppression {
        player_turn: 0,
        order_seq: 0,
    });
    assert!(b.check_initiative(0).unwrap_err().reason.contains("suppressed"));
}

#[test]
fn evade_is_a_full_move_directly_away_turning_to_face_the_enemy() {
    let mut b = facing_off(8.0);
    let ev = b.apply(&Action::InitiativeEvade { unit: 0 }).unwrap();
    assert!(ev.iter().any(|e| matches!(e, Event::Moved { .. })));
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

#[test]
fn a_charged_gun_fires_or_evades_but_does_not_pivot() {
    // BPT "Counter-Initiative": units under charge "may fire at or evade charging units";
    // "Pivoting a gun requires a deploy action", which is not among them. A gun charged from
    // its flank cannot turn to face the charger; it may evade (limbering, half a move).
    let mut b = battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(1, "smoothbore_cannon", 1, 110.0, 62.0, 180.0),
    ]);
    b.apply(&Action::InitiativeCharge { unit: 0, target: 1 })
        .expect("legal charge");
    assert!(matches!(b.step, Step::CounterInitiative { .. }));
    let pivot = Action::Deploy {
        unit: 1,
        deploy: volley::battle::Deploy::Pivot(-std::f64::consts::FRAC_PI_2),
    };
    assert!(b.apply(&pivot).is_err());
    let legal = b.legal_actions();
    assert!(
        !legal
            .iter()
            .any(|a| matches!(a, Action::Deploy { .. } | Action::InitiativeDeploy { .. }))
    );
    assert!(legal.contains(&Action::Pass));
}
