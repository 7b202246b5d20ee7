//! BPT "Fall-back" into friends, enemies, impassable terrain and off the table; guns charged
//! from the front fire canister (ACW notes 6, 7).

use super::common::*;
use super::fire::order;
use volley::battle::event::families::*;
use volley::battle::event::{Event, ForcedInto, KnockOut};
use volley::battle::fire::FireContext;
use volley::battle::state::{Step, Suppression};
use volley::battle::{Action, Battle};
use volley::rules::geometry::V2;
use volley::rules::terrain::{Area, AreaKind, Polygon, Terrain};

const RIFLES: &str = "regular_infantry_rifled";

/// Union line (id 0) at (100, y0) facing north fires at an already suppressed Confederate line
/// (id 1) 8.5 cm off its front, with `extra` units and `terrain`: 5 dice, 4 hits, then the
/// fall-back dice 3 3 2 2 = 10 cm, directly away from the firer.
fn fall_back_into(y0: f64, extra: &[U], terrain: Terrain) -> (Battle, Vec<Event>) {
    let mut units = vec![
        u(0, RIFLES, 4, 100.0, y0, 90.0),
        u(1, RIFLES, 4, 100.0, y0 + 10.0, 270.0),
    ];
    units.extend_from_slice(extra);
    // Ids: the Union units in order, then the Confederates.
    let target = units.iter().filter(|x| x.side == 0).count() as u32;
    let mut b = battle_with(
        &units,
        terrain,
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 165.0)],
    );
    to_command(&mut b);
    b.arranging().cmd.orders.insert(0, order(HQ0));
    b.arranging().unit_mut(target).suppressed = Some(Suppression {
        player_turn: 0,
        order_seq: 0,
    });
    script(&mut b, &[6, 6, 6, 6, 1, 3, 3, 2, 2]);
    let ev = b.apply(&Action::Fire { unit: 0, target }).expect("legal fire");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Morale(MoraleEvent::FellBack { unit, distance, .. }) if *unit == target && *distance == 10.0))
    );
    (b, ev)
}

fn forced_into(ev: &[Event], unit: u32, what: volley::battle::event::ForcedInto) -> bool {
    ev.iter().any(|e| match e {
        Event::Morale(MoraleEvent::KnockedOut {
            unit: u,
            why: KnockOut::ForcedInto(w),
        }) => *u == unit && *w == what,
        _ => false,
    })
}

#[test]
fn falling_back_into_a_friendly_unit_halts_on_contact_and_suppresses_it() {
    // BPT "Fall-back": "Troops falling back into friendly units halt on contact, suppressing
    // them." The Confederate base reaches y = 62.25; a friend's front edge is 3 cm beyond.
    let friend = u(1, RIFLES, 4, 100.0, 66.0, 270.0);
    let (b, ev) = fall_back_into(50.0, &[friend], Terrain::default());
    assert!(b.unit(1).alive() && b.unit(2).alive());
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Movement(MovementEvent::Halted { unit: 1, by: 2 })))
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Morale(MoraleEvent::Suppressed { unit: 2, .. })))
    );
    assert!(b.unit(2).suppressed());
    let moved = b.unit(1).pose.pos.y - 60.0;
    assert!(moved > 2.0 && moved <= 3.0, "halted on contact after {moved} cm");
}

#[test]
fn falling_back_into_an_enemy_unit_knocks_out() {
    // A Union line 2.5 cm behind the Confederates (ids: it is 1, the Confederates 2).
    let enemy = u(0, RIFLES, 4, 100.0, 67.0, 90.0);
    let (b, ev) = fall_back_into(50.0, &[enemy], Terrain::default());
    assert!(!b.unit(2).alive());
    assert!(forced_into(&ev, 2, ForcedInto::Enemy(1)), "{ev:#?}");
    assert!(b.unit(1).alive());
}

#[test]
fn falling_back_off_the_table_knocks_out() {
    // The table is 180 cm deep; the Confederates stand at y = 165 + 10.
    let (b, ev) = fall_back_into(165.0, &[], Terrain::default());
    assert!(!b.unit(1).alive());
    assert!(forced_into(&ev, 1, ForcedInto::OffTable), "{ev:#?}");
}

#[test]
fn falling_back_into_impassable_terrain_knocks_out() {
    // A lake 3 cm behind the Confederates.
    let lake = Terrain {
        areas: vec![Area {
            kind: AreaKind::Lake,
            name: "pond".into(),
            outline: Polygon(vec![
                V2::new(80.0, 65.25),
                V2::new(120.0, 65.25),
                V2::new(120.0, 90.0),
                V2::new(80.0, 90.0),
            ]),
        }],
        ..Default::default()
    };
    let (b, ev) = fall_back_into(50.0, &[], lake);
    assert!(!b.unit(1).alive());
    assert!(forced_into(&ev, 1, ForcedInto::Impassable), "{ev:#?}");
}

/// A Union line (id 0) charging on initiative a Confederate gun (`row`, one gun, id 1) from
/// its front, 8 cm between the fronts.
fn charge_a_gun(row: &'static str) -> Battle {
    // The gun base is 2.5 × 2.5: its front edge is 1.25 from its centre.
    let mut b = battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(1, row, 1, 100.0, 50.75 + 8.0 + 1.25, 270.0),
    ]);
    b.apply(&Action::InitiativeCharge { unit: 0, target: 1 })
        .expect("a legal charge");
    assert!(
        matches!(&b.step, Step::CounterInitiative { eligible, .. } if eligible.contains(&1)),
        "{:?}",
        b.step
    );
    b
}

fn canister_shot(row: &'static str) -> (u32, i32, u32, String) {
    let mut b = charge_a_gun(row);
    script(&mut b, &[1; 3]);
    let ev = b.apply(&Action::CounterFire { unit: 1 }).unwrap();
    let (dice, base, to_hit, context) = ev
        .iter()
        .find_map(|e| match e {
            Event::Fire(FireEvent::Fired {
                firers,
                dice,
                base_dice,
                to_hit,
                context,
                ..
            }) if firers == &vec![1] => Some((*dice, *base_dice, *to_hit, volley::report::fire::cause_words(*context))),
            _ => None,
        })
        .expect("the gun fired");
    assert_eq!(b.dice.remaining_scripted(), Some(3 - dice as usize));
    (dice, base, to_hit, context)
}

#[test]
fn guns_charged_from_the_front_fire_canister_three_attacks_smoothbore_two_rifled() {
    // ACW note 6: "When charged, smoothbore cannon fires canister shot for 3 attacks"; note 7:
    // rifled cannon "fires canister shot for 2 attacks". No half-range bonus for canister
    // (its whole range is 10 cm); the charger is 2 cm off, in the open (4+).
    let (dice, base, to_hit, context) = canister_shot("smoothbore_cannon");
    assert_eq!((dice, base, to_hit), (3, 3, 4));
    assert_eq!(context, "counter-initiative: canister");
    let (dice, base, _, _) = canister_shot("rifled_cannon");
    assert_eq!((dice, base), (2, 2));
}

#[test]
fn canister_range_is_10_cm() {
    // ACW notes 6, 7: canister range is 10 cm; ordinary fire reaches the gun's full range (60).
    for (gap, ok) in [(9.9, true), (10.5, false)] {
        let mut b = battle(&[
            u(0, RIFLES, 4, 100.0, 50.0, 90.0),
            u(1, "smoothbore_cannon", 1, 100.0, 50.75 + gap + 1.25, 270.0),
        ]);
        // The gun is the unit under charge (canister is only for the charged gun).
        b.arranging().step = volley::battle::state::Step::CounterInitiative {
            charger: 0,
            target: 1,
            eligible: vec![1],
            charge_left: 0.0,
            held: b.unit(0).pose,
        };
        let canister = b.check_fire(1, 0, FireContext::Counter);
        assert_eq!(canister.is_ok(), ok, "{gap} cm: {canister:?}");
        if let Err(r) = canister {
            assert!(r.rule.contains("range"), "{r}");
        }
        b.arranging().step = volley::battle::state::Step::Open;
        b.arranging().units[1].loaded = Some(volley::data::scenario::Ammo::Shot);
        let shot = b
            .check_fire(1, 0, FireContext::Order)
            .expect("round shot reaches 60 cm");
        assert!(!shot.canister);
    }
}

/// A Union `firer` (id 0) at (100, 50) facing north, a Union skirmish screen of 4 stands
/// (id 1) at (sx, 56), a Confederate line (id 2) at (100, 66) facing south; `terrain`.
fn screened(firer: &'static str, sx: f64, terrain: Terrain) -> Battle {
    let stands = if firer == RIFLES { 4 } else { 1 };
    let mut b = battle_with(
        &[
            u(0, firer, stands, 100.0, 50.0, 90.0),
            u(0, "skirmishing_infantry_rifled", 4, sx, 56.0, 90.0),
            u(1, RIFLES, 4, 100.0, 66.0, 270.0),
        ],
        terrain,
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 165.0)],
    );
    to_command(&mut b);
    b.arranging().unit_mut(0).loaded = Some(volley::data::scenario::Ammo::Shot);
    b
}

#[test]
fn troops_may_not_fire_over_other_units_not_even_their_own_skirmishers() {
    // BPT "Firing": "All other troops are prohibited from firing over other units."
    // Skirmishers do not block sight (BPT "Line of Sight" 3), but they are in the way of fire.
    let b = screened(RIFLES, 100.0, Terrain::default());
    assert!(b.sees(0, 2), "skirmishers do not block sight");
    let r = b.check_fire(0, 2, FireContext::Order).unwrap_err();
    assert_eq!(r.rule, "BPT Firing: firing over other units", "{r}");
    assert!(b.check_fire(1, 2, FireContext::Order).is_ok(), "the screen fires");
    // The screen drawn aside to the flank: the line fires.
    let b = screened(RIFLES, 118.0, Terrain::default());
    assert!(b.check_fire(0, 2, FireContext::Order).is_ok());
}

#[test]
fn guns_fire_over_infantry_only_from_higher_ground() {
    // BPT "Firing": "Command units and infantry on foot may not be fired over by artillery
    // unless the artillery is on higher elevation or the artillery is a howitzer or mortar on
    // the same elevation."
    let b = screened("smoothbore_cannon", 100.0, Terrain::default());
    let r = b.check_fire(0, 2, FireContext::Order).unwrap_err();
    assert_eq!(r.rule, "BPT Firing: firing over other units", "{r}");
    // The gun on a low rise (height 1) the screen is not on.
    let rise = Terrain {
        hills: vec![volley::rules::terrain::Hill {
            name: "rise".into(),
            contours: vec![volley::rules::terrain::Contour {
                height: 1,
                outline: Polygon(vec![
                    V2::new(90.0, 40.0),
                    V2::new(110.0, 40.0),
                    V2::new(110.0, 53.0),
                    V2::new(90.0, 53.0),
                ]),
            }],
            mountain: false,
        }],
        ..Default::default()
    };
    let b = screened("smoothbore_cannon", 100.0, rise);
    assert!(b.check_fire(0, 2, FireContext::Order).is_ok(), "from higher ground");
}

#[test]
fn dismounted_cavalry_leave_a_stand_holding_the_horses_and_mount_to_evade() {
    // BPT "Unit Organization": dismounted cavalry are a command stand, "1 horse holder stand
    // and 2 or more dismounted cavalry stands", the holder "non-firing"; "Evading": they "may
    // mount then move half-distance provided a horse holder stand is in base-contact".
    let mut b = battle(&[
        u(0, "us_cavalry_1862", 4, 100.0, 50.0, 90.0),
        u(1, RIFLES, 4, 100.0, 62.0, 270.0),
    ]);
    to_command(&mut b);
    b.arranging().cmd.orders.insert(0, order(HQ0));
    b.apply(&Action::Deploy {
        unit: 0,
        deploy: volley::battle::Deploy::Dismount,
    })
    .expect("dismounts");
    assert_eq!(b.unit(0).row.id, "us_cavalry_1862_dismounted");
    assert_eq!(b.firing_stands(b.unit(0)), 3, "4 stands, one holding the horses");
    assert_eq!(b.fire_plan(0, 1, FireContext::Order).base_dice, 3);
    // Evading on initiative: mounted, half of 30 cm = 15 (on foot it would be 12).
    b.arranging().phase = volley::battle::state::Phase::Initiative;
    b.arranging().step = Step::Open;
    b.arranging().cmd = Default::default();
    let y0 = b.unit(0).pose.pos.y;
    b.apply(&Action::InitiativeEvade { unit: 0 }).expect("evades");
    assert!(b.unit(0).mounted(), "it mounted");
    assert!(
        (y0 - b.unit(0).pose.pos.y - 15.0).abs() < 0.3,
        "{}",
        y0 - b.unit(0).pose.pos.y
    );
}

/// Two Union lines (ids 0, 1) under one order, side by side, in the command phase, and the
/// `enemies` (ids from 2).
fn two_firers_before(enemies: &[U]) -> Battle {
    let mut units = vec![u(0, RIFLES, 2, 95.0, 50.0, 90.0), u(0, RIFLES, 2, 105.0, 50.0, 90.0)];
    units.extend_from_slice(enemies);
    let mut b = battle(&units);
    to_command(&mut b);
    b.arranging().cmd.orders.insert(0, order(HQ0));
    b.arranging().cmd.orders.insert(1, order(HQ0));
    b
}

/// [`two_firers_before`] an already suppressed Confederate line (id 2) 8 cm before them.
fn two_firers_one_target() -> Battle {
    let mut b = two_firers_before(&[u(1, RIFLES, 4, 100.0, 59.5, 270.0)]);
    b.arranging().unit_mut(2).suppressed = Some(Suppression {
        player_turn: 0,
        order_seq: 0,
    });
    b
}

#[test]
fn units_of_one_order_firing_at_one_target_roll_together_and_it_falls_back_once() {
    // BPT "Firing": "When two or more units are firing at the same target, roll all the dice
    // together"; "Fall-back": "Roll one die for each hit taken in the current attack ...
    // directly away from the closest unit that fired". **Decision** (docs/rules.md): the units
    // of the order in hand fire together as one action, one roll, one fall-back.
    let mut b = two_firers_one_target();
    let together = Action::FireTogether {
        unit: 0,
        target: 2,
        with: vec![1],
    };
    assert!(b.legal_actions().contains(&together));
    let ev = b.apply(&together).expect("legal fire");
    let fired: Vec<u32> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Fire(FireEvent::Fired {
                firers,
                context,
                hits,
                saved,
                ..
            }) => {
                assert_eq!(context.how, volley::battle::event::FireHow::Together);
                assert_eq!(firers.len(), 1);
                Some(hits - saved)
            }
            _ => None,
        })
        .collect();
    assert_eq!(fired.len(), 2, "{ev:?}");
    let net: u32 = fired.iter().sum();
    assert!(fired.iter().all(|&n| n > 0), "both land hits on this seed: {fired:?}");
    let falls: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Morale(MoraleEvent::FellBack { unit: 2, rolls, .. }) => Some(rolls.len()),
            _ => None,
        })
        .collect();
    assert_eq!(
        falls,
        vec![net as usize],
        "one fall-back, a die per hit of both: {ev:?}"
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Morale(MoraleEvent::SuppressionTest { .. })))
    );
    // Both spent their action.
    assert!(b.validate(&Action::Fire { unit: 0, target: 2 }).is_err());
    assert!(b.validate(&Action::Fire { unit: 1, target: 2 }).is_err());
}

#[test]
fn fire_together_needs_two_units_of_the_order_in_hand() {
    let b = two_firers_one_target();
    let alone = Action::FireTogether {
        unit: 0,
        target: 2,
        with: vec![],
    };
    assert_eq!(b.validate(&alone).unwrap_err().rule, "BPT Firing");
    let twice = Action::FireTogether {
        unit: 0,
        target: 2,
        with: vec![0],
    };
    assert_eq!(b.validate(&twice).unwrap_err().rule, "BPT Firing");
    let mut b = two_firers_one_target();
    b.arranging().cmd.orders.remove(&1);
    let unordered = Action::FireTogether {
        unit: 0,
        target: 2,
        with: vec![1],
    };
    assert!(b.validate(&unordered).is_err());
    assert!(
        !b.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::FireTogether { .. }))
    );
}

#[test]
fn the_computer_rolls_together_when_each_firer_would_choose_the_same_target() {
    // BPT "Firing": "roll all the dice together". Two units of the order in hand, one enemy
    // before them: the scheduler fires them together (one roll, one opportunity for the enemy
    // to answer), worth more than either fire alone. With a second, nearer and better target
    // for one of them, it does not pull that unit's fire onto the first.
    use volley::agents::scheduler::Scheduler;
    use volley::agents::scheduler::evaluate::{Ctx, judge};
    let b = two_firers_one_target();
    let legal = b.legal_actions();
    let (i, why) = Scheduler::new(1).pick(&b, &legal);
    assert!(
        matches!(&legal[i], Action::FireTogether { target: 2, with, .. } if with.len() == 1),
        "{:?}: {why}",
        legal[i]
    );
    assert!(why.contains("2 units fire together"), "{why}");
    let ctx = Ctx::new(&b, 0, &legal);
    let together = judge(&b, &legal[i], &ctx).score;
    for f in [0, 1] {
        let alone = judge(&b, &Action::Fire { unit: f, target: 2 }, &ctx).score;
        assert!(together > alone, "{together} against {alone}");
    }
    // One enemy 15 cm before both (within half range, BPT "Firing"), a second 4 cm before the
    // right-hand unit only: that unit does better firing at the second.
    let b = two_firers_before(&[u(1, RIFLES, 2, 100.0, 65.0, 270.0), u(1, RIFLES, 2, 110.0, 54.0, 270.0)]);
    let legal = b.legal_actions();
    let ctx = Ctx::new(&b, 0, &legal);
    let mut seen = 0;
    for a in &legal {
        if let Action::FireTogether { target, .. } = a {
            seen += 1;
            assert_eq!(*target, 2, "{a:?}");
            let j = judge(&b, a, &ctx);
            assert!(
                j.score == f64::NEG_INFINITY,
                "{a:?} pulls the right-hand unit off its better target: {}",
                j.why
            );
        }
    }
    assert_eq!(seen, 1, "{legal:?}");
    let elsewhere = judge(&b, &Action::Fire { unit: 1, target: 3 }, &ctx).score;
    let here = judge(&b, &Action::Fire { unit: 1, target: 2 }, &ctx).score;
    assert!(elsewhere > here, "{elsewhere} against {here}");
}
