//! BPT "Scouting Cavalry (Optional Rule)" with hidden set-up (switch `scouting`), seeds/003:
//! scouts spot hidden enemy troops in the open at up to 30 cm and in cover at up to 15 cm;
//! they are single stands that move without orders after an initial command roll; fired upon
//! or contacted, they leave the table without counting as lost.

use super::common::*;
use super::fire::order;
use std::path::Path;
use volley::battle::event::families::*;
use volley::battle::state::Combat;
use volley::battle::{Action, Battle, Event};
use volley::rules::geometry::{Pose, V2};
use volley::rules::switches::Switch;
use volley::rules::terrain::{AreaKind, Terrain};

const RIFLES: &str = "regular_infantry_rifled";
const SCOUT: &str = "us_cavalry_1862";

/// Union unit 0 (`row`, 1 stand if a scout) at (100, 50) facing north, its front edge at
/// y 51 (cavalry) or 50.75 (foot); a Confederate line `gap` cm beyond, facing it, in `terrain`.
fn watch(row: &'static str, scout: bool, gap: f64, terrain: Terrain) -> Battle {
    let front = if row == SCOUT { 51.0 } else { 50.75 };
    let stands = if scout { 1 } else { 4 };
    let mut b = battle_switched(
        &[
            u(0, row, stands, 100.0, 50.0, 90.0),
            u(1, RIFLES, 4, 100.0, front + gap + 0.75, 270.0),
        ],
        terrain,
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::Scouting],
    );
    b.arranging().unit_mut(0).scout = scout;
    b.arranging().unit_mut(0).hidden = false;
    assert!(b.unit(1).hidden, "hidden set-up");
    to_command(&mut b);
    b
}

/// Any action, then: was the Confederate line found?
fn found_after_an_action(b: &mut Battle) -> bool {
    b.apply(&Action::EndPhase).expect("end the phase");
    !b.unit(1).hidden
}

fn scrub() -> Terrain {
    area(AreaKind::Scrub, 80.0, 60.0, 120.0, 100.0)
}

#[test]
fn scouts_spot_hidden_troops_in_the_open_at_30_cm_in_cover_at_15() {
    assert!(found_after_an_action(&mut watch(SCOUT, true, 30.0, Terrain::default())));
    assert!(!found_after_an_action(&mut watch(
        SCOUT,
        true,
        30.5,
        Terrain::default()
    )));
    // In scrub (soft cover, and seen up to 20 cm inside low area terrain).
    assert!(found_after_an_action(&mut watch(SCOUT, true, 15.0, scrub())));
    assert!(!found_after_an_action(&mut watch(SCOUT, true, 15.5, scrub())));
}

#[test]
fn other_troops_spot_them_at_20_cm_in_the_open_10_in_cover() {
    assert!(found_after_an_action(&mut watch(
        RIFLES,
        false,
        20.0,
        Terrain::default()
    )));
    assert!(!found_after_an_action(&mut watch(
        RIFLES,
        false,
        20.5,
        Terrain::default()
    )));
    assert!(found_after_an_action(&mut watch(RIFLES, false, 10.0, scrub())));
    assert!(!found_after_an_action(&mut watch(RIFLES, false, 10.5, scrub())));
}

#[test]
fn a_hidden_unit_is_neither_seen_nor_fired_at_nor_charged_until_found() {
    let mut b = watch(RIFLES, false, 8.0, Terrain::default());
    // Still hidden at the start (no action yet): the line 8 cm off is not an enemy in sight.
    assert!(b.visible_enemies(0).is_empty());
    b.arranging().cmd.orders.insert(0, order(HQ0));
    let e = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap_err();
    assert!(e.rule.contains("hidden set-up"), "{e:?}");
    assert!(b.check_charge(0, 1).is_err());
    // Without the switch nobody is hidden.
    let off = battle(&[u(0, RIFLES, 4, 100.0, 50.0, 90.0), u(1, RIFLES, 4, 100.0, 60.0, 270.0)]);
    assert!(off.units.iter().all(|u| !u.hidden && !u.scout));
}

#[test]
fn a_hidden_unit_gives_itself_away_when_it_acts() {
    let mut b = watch(RIFLES, false, 60.0, Terrain::default());
    b.arranging().unit_mut(0).hidden = true;
    b.arranging().cmd.orders.insert(0, order(HQ0));
    let to = Pose::new(V2::new(100.0, 53.0), b.unit(0).pose.facing);
    let ev = b.apply(&Action::Move { unit: 0, to }).expect("move");
    assert!(ev.contains(&Event::Scouting(ScoutingEvent::Revealed {
        unit: 0,
        by: None,
        distance: 0.0
    })));
    assert!(!b.unit(0).hidden);
}

#[test]
fn a_scout_fired_upon_retires_and_is_not_lost() {
    let mut b = watch(SCOUT, true, 8.0, Terrain::default());
    b.arranging().unit_mut(1).hidden = false;
    b.arranging().active = 1;
    b.arranging().cmd.orders.insert(1, order(2 + HQ0));
    let ev = b
        .apply(&Action::Fire { unit: 1, target: 0 })
        .expect("fire at the scout");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Scouting(ScoutingEvent::ScoutRetired { unit: 0, .. })))
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Fire(FireEvent::Fired { .. }))),
        "no dice: it has gone"
    );
    assert!(!b.unit(0).alive());
    assert_eq!(b.units_lost(0), 0);
    assert_eq!(b.victory_points()[1], 0);
}

#[test]
fn a_scout_contacted_retires_without_a_fight() {
    let mut b = watch(SCOUT, true, 0.05, Terrain::default());
    b.arranging().unit_mut(1).hidden = false;
    b.arranging().active = 1;
    b.arranging().combats.push(Combat {
        chargers: vec![1],
        target: 0,
        supports: [vec![], vec![]],
        counter_charge: false,
    });
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Scouting(ScoutingEvent::ScoutRetired { unit: 0, .. })))
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Melee(MeleeEvent::CombatRound { .. })))
    );
    assert_eq!(b.units_lost(0), 0);
}

#[test]
fn after_one_passed_command_roll_a_scout_moves_without_orders() {
    let mut b = watch(SCOUT, true, 60.0, Terrain::default());
    b.arranging().commanders[HQ0 as usize].pos = V2::new(100.0, 45.0);
    assert!(!b.unit(0).scout_free);
    script(&mut b, &[1, 2]);
    b.apply(&Action::Order {
        commander: HQ0,
        units: vec![0],
        charge: false,
        dense: false,
        road: false,
    })
    .expect("the initial command roll");
    assert!(b.unit(0).scout_free);
    // The Union's next command phase: an action in hand without a roll.
    let mut ev = b.apply(&Action::EndPhase).unwrap();
    ev.extend(end_phases_until(&mut b, |b| {
        b.phase == volley::battle::Phase::Command && b.active == 0
    }));
    assert!(ev.contains(&Event::Scouting(ScoutingEvent::ScoutFree { unit: 0 })));
    assert!(
        b.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Move { unit: 0, .. }))
    );
}

#[test]
fn the_demo_plays_to_the_end_finds_the_enemy_and_replays() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/scouting_demo.ron");
    let (mut by_scouts, mut retired) = (0, 0);
    for seed in [1, 2, 3] {
        let (b, _) = volley::load_battle(&path, seed).expect("the demo loads");
        assert_eq!(b.units.iter().filter(|u| u.scout).count(), 4);
        assert!(b.units.iter().all(|u| u.hidden != u.scout));
        scheduler_game(
            "scouting_demo.ron",
            seed,
            &volley::rules::switches::Switches::default(),
            |b, _act, ev| {
                for e in ev {
                    match e {
                        Event::Scouting(ScoutingEvent::Revealed { by: Some(s), .. }) if b.unit(*s).scout => {
                            by_scouts += 1
                        }
                        Event::Scouting(ScoutingEvent::ScoutRetired { .. }) => retired += 1,
                        _ => {}
                    }
                }
            },
        );
    }
    assert!(by_scouts > 0, "scouts never found anyone");
    eprintln!("scouting demo, 3 games: {by_scouts} units found by scouts, {retired} scouts retired");
}
