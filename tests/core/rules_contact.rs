//! BPT "Contact" and "Resolution": which stands fight in a charge (a stand's edge against an
//! enemy stand's edge, not a corner), and several units charging one unit (issue 64).

use super::common::*;
use volley::battle::event::families::*;
use volley::battle::event::{CombatSide, Event};
use volley::battle::{Action, Battle};

const RIFLES: &str = "regular_infantry_rifled";

fn first_round(ev: &[Event]) -> Vec<CombatSide> {
    ev.iter()
        .find_map(|e| match e {
            Event::Melee(MeleeEvent::CombatRound { sides, .. }) => Some(sides.clone()),
            _ => None,
        })
        .expect("a combat round")
}

/// The charge of unit 0 on unit 1 on initiative, answered with passes, to its first round.
fn charge_to_first_round(b: &mut Battle) -> Vec<CombatSide> {
    script(b, &[1; 400]);
    let mut ev = b.apply(&Action::InitiativeCharge { unit: 0, target: 1 }).unwrap();
    for _ in 0..4 {
        if ev
            .iter()
            .any(|e| matches!(e, Event::Melee(MeleeEvent::CombatRound { .. })))
        {
            break;
        }
        ev = b.apply(&Action::Pass).or_else(|_| b.apply(&Action::EndPhase)).unwrap();
    }
    first_round(&ev)
}

fn dice(sides: &[CombatSide]) -> Vec<u32> {
    sides.iter().map(|s| s.dice).collect()
}

/// A Union line of `mine` stands 10 cm south of a Confederate line of `theirs` stands
/// (2.5 cm stands, at (100, 60) facing south), charging it on initiative.
fn frontal(mine: u32, theirs: u32) -> Battle {
    battle(&[
        u(0, RIFLES, mine, 100.0, 48.5, 90.0),
        u(1, RIFLES, theirs, 100.0, 60.0, 270.0),
    ])
}

#[test]
fn a_narrower_line_charging_frontally_meets_only_the_stands_it_touches() {
    // BPT "Resolution": "Calculate the attacks for all units in contact ... Attacks per Stand"
    // (infantry 2), "+1 each unit charging". The 4-stand line slides to the middle of the
    // 6-stand line's front and covers its 4 middle stands; the end stands touch it only at a
    // corner and do not fight. Union 4 × 2 + 1 = 9, Confederates 4 × 2 = 8 (until rules
    // `bpt-7` 6 × 2 = 12: every stand within 0.5 cm fought).
    let mut b = frontal(4, 6);
    let [union, confederates] = b.charge_fighters(0, 1);
    assert_eq!((union.dice, confederates.dice), (9, 8), "the preview");
    assert_eq!(dice(&charge_to_first_round(&mut b)), vec![9, 8]);
}

#[test]
fn a_two_stand_charger_meets_two_stands_of_a_line() {
    // The 2-stand line covers the 2 middle stands of the 4-stand line: Union 2 × 2 + 1 = 5,
    // Confederates 2 × 2 = 4 (until `bpt-7` all 4 stands, 8 dice).
    let mut b = frontal(2, 4);
    assert_eq!(dice(&charge_to_first_round(&mut b)), vec![5, 4]);
}

#[test]
fn on_a_flank_only_the_flank_stand_and_the_stand_against_it_fight() {
    // BPT "Contact": "if the unit is contacted on the flank, only the flank stand is
    // calculated as part of the charge for attacks". A 3-stand Union line charges the east
    // flank (x = 105, 1.5 cm deep) of a Confederate line: it slides to the middle of that
    // edge, its middle stand covering it and its end stands 0.5 cm past its corners.
    // Union: 1 stand × 2 + 1 (charging) = 3 (until `bpt-7` its 3 stands, 7 dice);
    // Confederates: the flank stand × 2 − 2 (fighting to the flank) = 0.
    let mut b = battle(&[
        u(0, RIFLES, 3, 115.76, 60.0, 180.0),
        u(1, RIFLES, 4, 100.0, 60.0, 270.0),
    ]);
    let [union, confederates] = b.charge_fighters(0, 1);
    assert_eq!((union.dice, confederates.dice), (3, 0), "the preview");
    assert_eq!(dice(&charge_to_first_round(&mut b)), vec![3, 0]);
}

#[test]
fn a_square_charged_from_its_side_is_contacted_in_the_front() {
    // BPT "Square": "an all round defence": a square has no flank. The Union line charges the
    // east face of a Confederate square: the contact is logged, and fought, as front (no −2).
    let mut b = battle(&[u(0, RIFLES, 4, 120.0, 60.0, 180.0), u(1, RIFLES, 4, 100.0, 60.0, 270.0)]);
    b.arranging().unit_mut(1).formation = volley::rules::formation::Formation::Square;
    b.refresh_geometry();
    let plan = b.check_charge(0, 1).expect("a legal charge");
    assert_eq!(plan.aspect, volley::rules::geometry::Aspect::Front);
    script(&mut b, &[1; 400]);
    let ev = b.apply(&Action::InitiativeCharge { unit: 0, target: 1 }).unwrap();
    let mut ev = ev;
    for _ in 0..4 {
        if ev
            .iter()
            .any(|e| matches!(e, Event::Melee(MeleeEvent::ChargeContact { .. })))
        {
            break;
        }
        ev = b.apply(&Action::Pass).or_else(|_| b.apply(&Action::EndPhase)).unwrap();
    }
    let contact = ev
        .iter()
        .find(|e| matches!(e, Event::Melee(MeleeEvent::ChargeContact { .. })))
        .expect("contact");
    assert!(
        matches!(
            contact,
            Event::Melee(MeleeEvent::ChargeContact {
                aspect: volley::rules::geometry::Aspect::Front,
                ..
            })
        ),
        "{contact:?}"
    );
    let line = volley::report::line(&b, contact);
    assert!(line.ends_with("in the front"), "{line}");
}

/// Two Union 2-stand lines (ids 0 and 1, x 93.5–98.5 and 101–106) 10 cm south of a
/// Confederate 6-stand line (id 2, front y = 59.25, x 92.5–107.5, stands 2.5 cm).
fn two_on_a_front() -> Battle {
    battle(&[
        u(0, RIFLES, 2, 96.0, 48.5, 90.0),
        u(0, RIFLES, 2, 103.5, 48.5, 90.0),
        u(1, RIFLES, 6, 100.0, 60.0, 270.0),
    ])
}

/// `unit`'s initiative charge on unit 2, answered with a pass, to contact.
fn charge_to_contact(b: &mut Battle, unit: u32) {
    b.apply(&Action::InitiativeCharge { unit, target: 2 })
        .expect("a legal charge");
    if b.combats.iter().all(|c| !c.chargers.contains(&unit)) {
        b.apply(&Action::Pass).unwrap();
    }
    assert!(b.combats.iter().any(|c| c.target == 2 && c.chargers.contains(&unit)));
}

#[test]
fn two_units_charge_two_parts_of_one_front_and_both_fight() {
    // BPT "Contact": "each base edge may only be contacted by one unit": a stand's edge. The
    // first charger slides to the middle of the front (x 97.5–102.5); the second, coming from
    // x = 103.5, meets the front where it arrives moved clear of the first (x 102.51–107.51):
    // both are legal (until rules `bpt-7` the second was refused), one combat. BPT "Resolution":
    // Union 2 × 2 + 2 × 2 + 1 + 1 (each unit charging) = 10; the Confederates' 4 stands
    // touching a charger × 2 = 8.
    let mut b = two_on_a_front();
    script(&mut b, &[1; 400]);
    charge_to_contact(&mut b, 0);
    assert!((b.unit(0).pose.pos.x - 100.0).abs() < 1e-6, "the first in the middle");
    charge_to_contact(&mut b, 1);
    let x1 = b.unit(1).pose.pos.x;
    assert!((x1 - 105.01).abs() < 1e-6, "the second beside it: {x1}");
    assert_eq!(b.combats.len(), 1);
    assert_eq!(b.combats[0].chargers, vec![0, 1]);
    let mut ev = Vec::new();
    for _ in 0..6 {
        if ev
            .iter()
            .any(|e| matches!(e, Event::Melee(MeleeEvent::CombatRound { .. })))
        {
            break;
        }
        ev = b.apply(&Action::Pass).or_else(|_| b.apply(&Action::EndPhase)).unwrap();
    }
    let r = first_round(&ev);
    assert_eq!(dice(&r), vec![10, 8], "{r:?}");
}

#[test]
fn a_charger_with_no_room_left_on_a_front_goes_for_the_flank() {
    // A 4-stand Union line holds the middle of the 6-stand Confederate front (x 95–105): the
    // 2.5 cm left at each end is less than half the frontage of a second 4-stand line, which
    // goes for the nearest edge it may contact, the east flank.
    let mut b = battle(&[
        u(0, RIFLES, 4, 100.0, 48.5, 90.0),
        u(0, RIFLES, 4, 112.0, 48.5, 90.0),
        u(1, RIFLES, 6, 100.0, 60.0, 270.0),
    ]);
    script(&mut b, &[1; 400]);
    charge_to_contact(&mut b, 0);
    let plan = b.check_charge(1, 2).expect("the flank is free");
    assert_eq!(plan.aspect, volley::rules::geometry::Aspect::Flank);
}
