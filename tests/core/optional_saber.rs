//! BPT "Saber Charge (Optional Rule)" (switch `saber-charge`), seeds/003 "CHARGE": cavalry
//! announce it at the start of the charge, get an extra attack per stand ("If this rule is not
//! used stick with the 3 attacks for Mounted Cavalry charge"), may not fire; infantry with
//! rifled muskets get 1 additional attack against them.

use super::common::*;
use super::fire::order;
use volley::battle::event::families::*;
use volley::battle::state::Combat;
use volley::battle::{Action, Battle, Event};
use volley::rules::switches::{Switch, Switches};
use volley::rules::terrain::Terrain;

const CAVALRY: &str = "us_cavalry_1862"; // mounted, sabres
const RIFLES: &str = "regular_infantry_rifled";

/// Union cavalry (unit 0) at (100, 50) facing north; a Confederate `row` line with its front
/// edge `gap` cm beyond the cavalry's (unit 1). Union command phase; the cavalry ordered to
/// charge.
fn field(on: bool, cav: &'static str, row: &'static str, gap: f64) -> Battle {
    let switches: &[Switch] = if on { &[Switch::SaberCharge] } else { &[] };
    // Cavalry bases are 2.0 deep (front edge y 51), infantry 1.5.
    let mut b = battle_switched(
        &[
            u(0, cav, 3, 100.0, 50.0, 90.0),
            u(1, row, 4, 100.0, 51.0 + gap + 0.75, 270.0),
        ],
        Terrain::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(100.0, 44.0), (200.0, 175.0)],
        switches,
    );
    to_command(&mut b);
    b.arranging().cmd.orders.insert(0, order(HQ0));
    b
}

#[test]
fn sabre_cavalry_fight_with_3_attacks_a_stand_unless_they_announce_a_saber_charge() {
    // DECISIONS' core rule: sabres 4.
    let off = field(false, CAVALRY, RIFLES, 8.0);
    assert_eq!(off.contact_attacks(off.unit(0)), 4);
    let mut b = field(true, CAVALRY, RIFLES, 8.0);
    assert_eq!(b.contact_attacks(b.unit(0)), 3);
    let ev = b
        .apply(&Action::DrawSabers { unit: 0 })
        .expect("an ordered charge may be a saber charge");
    assert!(ev.contains(&Event::Saber(SaberEvent::SabersDrawn { unit: 0 })));
    assert_eq!(b.contact_attacks(b.unit(0)), 4);
    // Free: the order's action is still there to charge with.
    b.apply(&Action::Charge { unit: 0, target: 1 })
        .expect("the charge itself");
}

#[test]
fn only_sabre_cavalry_that_may_charge_now_announce_it() {
    let b = field(true, CAVALRY, RIFLES, 8.0);
    assert!(b.legal_actions().contains(&Action::DrawSabers { unit: 0 }));
    // Without the switch, or without an order that may charge: no.
    let off = field(false, CAVALRY, RIFLES, 8.0);
    assert!(off.check_draw_sabers(0).unwrap_err().rule.contains("Saber Charge"));
    let mut no_order = field(true, CAVALRY, RIFLES, 8.0);
    no_order.arranging().cmd.orders.clear();
    assert!(no_order.check_draw_sabers(0).is_err());
    assert!(!no_order.legal_actions().contains(&Action::DrawSabers { unit: 0 }));
    // Inferior 1861 cavalry have no sabres; infantry are not cavalry.
    let inferior = field(true, "us_cavalry_1861", RIFLES, 8.0);
    assert!(inferior.check_draw_sabers(0).is_err());
    let mut foot = field(true, RIFLES, RIFLES, 8.0);
    foot.arranging().cmd.orders.insert(0, order(HQ0));
    assert!(foot.check_draw_sabers(0).is_err());
}

#[test]
fn cavalry_that_drew_sabers_may_not_fire_that_turn() {
    let mut b = field(true, CAVALRY, RIFLES, 1.5);
    let mut o = order(HQ0);
    o.credits = 2;
    b.arranging().cmd.orders.insert(0, o);
    assert!(b.check_fire(0, 1, volley::battle::fire::FireContext::Order).is_ok());
    b.apply(&Action::DrawSabers { unit: 0 }).unwrap();
    let e = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap_err();
    assert_eq!(e.rule, "BPT Saber Charge");
    // The announcement lasts the player turn.
    b.arranging().player_turn += 1;
    assert!(!b.sabers_drawn(0));
}

/// The combat dice of the cavalry (side 0) and the infantry (side 1) in contact.
fn combat_dice(row: &'static str, sabers: bool) -> (u32, u32) {
    let mut b = field(true, CAVALRY, row, 0.05);
    if sabers {
        b.apply(&Action::DrawSabers { unit: 0 }).unwrap();
    }
    b.arranging().combats.push(Combat {
        chargers: vec![0],
        target: 1,
        supports: [vec![], vec![]],
        counter_charge: false,
    });
    // The cavalry wins every round by double.
    let mut faces = vec![6; 40];
    faces.extend([1; 40]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::EndPhase).unwrap();
    let sides = ev
        .iter()
        .find_map(|e| match e {
            Event::Melee(MeleeEvent::CombatRound { sides, .. }) => Some(sides.clone()),
            _ => None,
        })
        .expect("a combat round");
    let d = |s: usize| sides.iter().find(|c| c.side == s).unwrap().dice;
    (d(0), d(1))
}

#[test]
fn a_saber_charge_adds_an_attack_a_stand_and_rifled_infantry_one_back() {
    let (cav, inf) = combat_dice(RIFLES, false);
    let (cav_s, inf_s) = combat_dice(RIFLES, true);
    // 3 cavalry stands in contact: 3 × 3 + 1 charging, then 3 × 4 + 1.
    assert_eq!((cav, cav_s), (10, 13));
    // Infantry: 2 a stand in contact; rifled muskets 1 more a stand against the sabers.
    assert_eq!(inf % 2, 0);
    assert_eq!(inf_s, inf + inf / 2, "{inf} → {inf_s}");
    // Smoothbore muskets get nothing more.
    let (_, smooth) = combat_dice("regular_infantry_smoothbore", false);
    let (_, smooth_s) = combat_dice("regular_infantry_smoothbore", true);
    assert_eq!(smooth, smooth_s);
}

#[test]
fn the_scheduler_announces_before_it_charges_and_games_replay() {
    let mut b = field(true, CAVALRY, "regular_infantry_smoothbore", 8.0);
    b.arranging().cmd.orders.clear();
    // The infantry already suppressed, so it cannot fire at the charge before contact (a
    // fresh line's volley makes the charge not worth it: `closing_fire_odds`).
    b.arranging().unit_mut(1).suppressed = Some(volley::battle::state::Suppression {
        player_turn: b.player_turn,
        order_seq: 0,
    });
    let mut s = volley::agents::by_name("scheduler-easy", 1, 0).unwrap();
    let mut picks = Vec::new();
    while b.phase == volley::battle::Phase::Command && picks.len() < 30 {
        let legal = b.legal_actions();
        let a = legal[s.choose(&b, &legal)].clone();
        b.apply(&a).expect("legal");
        picks.push(a);
    }
    let drew = picks.iter().position(|a| *a == Action::DrawSabers { unit: 0 });
    let charged = picks.iter().position(|a| matches!(a, Action::Charge { unit: 0, .. }));
    assert!(drew.is_some() && charged.is_some() && drew < charged, "{picks:?}");

    let on: Switches = [Switch::SaberCharge].into_iter().collect();
    for seed in [1, 2] {
        scheduler_game("skirmish.ron", seed, &on, |_, _, _| {});
    }
}

/// Saber charge and initiative passing both on: the cavalry of `field` activated to charge
/// (`sabers`: announcing first) and charging home; the cavalry's dice in the first round.
fn passing_charge_dice(sabers: bool) -> u32 {
    let mut b = battle_switched(
        &[
            u(0, CAVALRY, 3, 100.0, 50.0, 90.0),
            u(1, "regular_infantry_smoothbore", 4, 100.0, 51.0 + 8.0 + 0.75, 270.0),
        ],
        Terrain::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::SaberCharge, Switch::InitiativePassing],
    );
    to_command(&mut b);
    // Nothing to announce before the unit is activated to charge.
    assert!(!b.legal_actions().contains(&Action::DrawSabers { unit: 0 }));
    assert!(b.check_draw_sabers(0).is_err());
    script(&mut b, &[6; 200]);
    let activate = Action::Activate {
        unit: 0,
        purpose: volley::battle::Purpose::Charge,
        into: volley::battle::Ground::Open,
    };
    b.apply(&activate).expect("activated to charge");
    assert!(
        b.legal_actions().contains(&Action::DrawSabers { unit: 0 }),
        "offered once activated"
    );
    assert_eq!(b.contact_attacks(b.unit(0)), 3);
    if sabers {
        b.apply(&Action::DrawSabers { unit: 0 }).expect("a saber charge");
        assert_eq!(b.contact_attacks(b.unit(0)), 4, "4 a stand with sabers drawn");
        assert!(!b.legal_actions().contains(&Action::DrawSabers { unit: 0 }));
    }
    b.apply(&Action::Charge { unit: 0, target: 1 })
        .expect("the charge test passed");
    let mut rounds = Vec::new();
    for _ in 0..20 {
        if !rounds.is_empty() {
            break;
        }
        let next = if b.legal_actions().contains(&Action::Pass) {
            Action::Pass
        } else {
            Action::EndPhase
        };
        let ev = b.apply(&next).expect("legal");
        rounds.extend(ev.into_iter().filter_map(|e| match e {
            Event::Melee(MeleeEvent::CombatRound { sides, .. }) => Some(sides),
            _ => None,
        }));
    }
    let first = rounds.first().expect("a combat round");
    first.iter().find(|c| c.side == 0).unwrap().dice
}

#[test]
fn under_initiative_passing_a_saber_charge_fights_with_4_attacks_a_stand() {
    // BPT "Saber Charge": "an extra attack per stand when using the saber"; 3 stands in
    // contact, +1 for charging: 3 × 3 + 1 without the announcement, 3 × 4 + 1 with it.
    assert_eq!((passing_charge_dice(false), passing_charge_dice(true)), (10, 13));
}
