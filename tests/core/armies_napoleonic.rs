//! The Napoleonic army lists (BPT "Napoleonic French Army", the reconstructed British list, the
//! "Napoleonic Wars Command Chart"), the notes the rules read: 13 (heavy cavalry), 14
//! (irregular cavalry and squares), 21 (charge in attack column), 22 (+1 attack die) and 24 (no
//! square), and the square (BPT "Square") with the fire preview that foresees it.

use super::common::*;
use volley::battle::event::families::*;
use volley::battle::event::{CombatSide, Event};
use volley::battle::fire::FireContext;
use volley::battle::state::Combat;
use volley::battle::{Action, Battle};
use volley::data::army::{Arm, Trait, TroopRow};
use volley::rules::formation::Formation;

fn row(stem: &str, id: &str) -> TroopRow {
    army(stem)
        .troop(id)
        .unwrap_or_else(|| panic!("{stem} has no row {id}"))
        .clone()
}

#[test]
fn the_french_chart_rows_are_as_printed() {
    let f = army("nap_french");
    assert_eq!(f.name, "Napoleonic French Army");
    // The printed chart has 32 rows (the stray "100000" is not a row) and 12 command rows.
    assert_eq!((f.troops.len(), f.commands.len()), (32, 12));
    // "Old Guard  Inf 10 1/10 3 4 105 4/- 1, 2, 21"
    let t = f.troop("old_guard").unwrap();
    assert_eq!(
        (t.arm, t.movement, t.attacks, t.range, t.hits, t.save),
        (Arm::Infantry, 10.0, 1, 10.0, 3, Some(4))
    );
    assert_eq!(
        (t.points, t.limit.as_deref(), t.notes.as_slice()),
        (Some(105), Some("4/-"), &[1, 2, 21][..])
    );
    // "Provisional Line Infantry (13)  Inf 10 1/10 2 0 35 4/- 1, 3, 21": save 0 is no save.
    let t = f.troop("provisional_line_infantry_13").unwrap();
    assert_eq!((t.hits, t.save, t.points), (2, None, Some(35)));
    // "Skirmishing Infantry  Inf 12 1/10 2 None  17"
    let t = f.troop("skirmishing_infantry").unwrap();
    assert_eq!((t.movement, t.hits, t.save, t.points), (12.0, 2, None, None));
    assert!(t.has(Trait::Sharpshooter));
    // "Guard Heavy Cavalry (05-12)  Cav 30 1/2 3 4 120 -/3 4, 13, 15"
    let t = f.troop("guard_heavy_cavalry_05_12").unwrap();
    assert_eq!(
        (t.arm, t.movement, t.attacks, t.range, t.hits, t.save, t.points),
        (Arm::Cavalry, 30.0, 1, 2.0, 3, Some(4), Some(120))
    );
    assert_eq!(t.limit.as_deref(), Some("-/3"));
    assert!(t.has(Trait::Mounted) && t.has(Trait::HeavyCavalry));
    assert!(!f.troop("light_cavalry_05_12").unwrap().has(Trait::HeavyCavalry));
    // "Dismounted Cavalry, All  Inf 10 1/7 2 5 85  4, 5"
    let t = f.troop("dismounted_cavalry").unwrap();
    assert_eq!(
        (t.movement, t.attacks, t.range, t.save, t.points),
        (10.0, 1, 7.0, Some(5), Some(85))
    );
    assert!(t.has(Trait::Dismounted));
    // "Field Artillery  Art 5/10 1/45 2 0 75 -/2 6, 8"; "Howitzer Field Artillery ... 1/20".
    let t = f.troop("field_artillery").unwrap();
    assert_eq!(
        (t.movement, t.movement_alt, t.attacks, t.range, t.save),
        (5.0, Some(10.0), 1, 45.0, None)
    );
    assert_eq!(f.troop("howitzer_field_artillery").unwrap().range, 20.0);
    assert!(f.troop("fortress_artillery").unwrap().has(Trait::Siege));
    // "Limbered Artillery  Cav 10/30  2 0  6, 8, 20"
    let t = f.troop("limbered_artillery").unwrap();
    assert_eq!((t.arm, t.movement, t.movement_alt), (Arm::Transport, 10.0, Some(30.0)));
    // "Engineers  Engr 10 2/10 2 0 125 -/1 1, 19"
    let t = f.troop("engineers").unwrap();
    assert_eq!(
        (t.arm, t.attacks, t.range, t.points),
        (Arm::Engineers, 2, 10.0, Some(125))
    );
}

#[test]
fn the_napoleonic_command_chart_is_as_printed_in_both_lists() {
    for stem in ["nap_french", "nap_british"] {
        let a = army(stem);
        assert_eq!(a.exceptional_per_level, Some(1));
        // "Brigade HQ Uninspiring 6 10/30 +0 6 +6 30 * 9"
        let c = a.command("brigade_uninspiring").unwrap();
        assert_eq!(
            (
                c.command,
                c.movement,
                c.movement_mounted,
                c.attack_bonus,
                c.hits,
                c.save,
                c.points
            ),
            (6, 10.0, 30.0, 0, 6, Some(6), Some(30))
        );
        // "Corps HQ Uninspiring 8 10/30 +1 6 +6 45 * 9"
        let c = a.command("corps_uninspiring").unwrap();
        assert_eq!((c.command, c.attack_bonus, c.points), (8, 1, Some(45)));
        // "Army HQ Exceptional 11 10/30 +3 6 5, 6 170 1 9, 10"
        let c = a.command("army_exceptional").unwrap();
        assert_eq!(
            (c.command, c.attack_bonus, c.save, c.points, c.limit.as_deref()),
            (11, 3, Some(5), Some(170), Some("1"))
        );
        assert_eq!(c.notes, vec![9, 10]);
    }
}

#[test]
fn the_british_list_borrows_printed_rows_and_adds_note_22() {
    let b = army("nap_british");
    assert_eq!(b.name, "Napoleonic British Army");
    let line = b.troop("line_infantry").unwrap();
    let french = row("nap_french", "line_infantry_08_12");
    assert_eq!(
        (
            line.movement,
            line.attacks,
            line.range,
            line.hits,
            line.save,
            line.points
        ),
        (
            french.movement,
            french.attacks,
            french.range,
            french.hits,
            french.save,
            french.points
        )
    );
    assert_eq!(line.notes, vec![1, 22]);
    assert!(line.has(Trait::ExtraAttack) && !french.has(Trait::ExtraAttack));
    // The Spanish chart's British-trained "Line Infantry (13/15)  Inf 8 1/10 3 6 55 4/- 1, 22, 23".
    let p = b.troop("portuguese_line_infantry").unwrap();
    assert_eq!((p.movement, p.hits, p.save, p.points), (8.0, 3, Some(6), Some(55)));
    assert_eq!(p.notes, vec![1, 22, 23]);
    // The rows every printed chart shares are identical to the French ones.
    for id in [
        "dismounted_cavalry",
        "field_artillery",
        "horse_artillery",
        "limbered_artillery",
        "engineers",
    ] {
        assert_eq!(b.troop(id).unwrap(), &row("nap_french", id), "{id}");
    }
}

#[test]
fn note_22_adds_one_fire_die() {
    // Same numbers (1/10, 3 hits, 6+): French line 08-12 without note 22, British line with it.
    // Four stands, 8.5 cm apart (beyond half range 5 cm): 4 dice, 5 with note 22.
    let dice = |stem: &str, id: &str| {
        let mut b = battle(&[
            u(0, "regular_infantry_rifled", 4, 100.0, 50.0, 90.0),
            u(1, "regular_infantry_rifled", 4, 100.0, 60.0, 270.0),
        ]);
        b.arranging().units[0].row = row(stem, id);
        let p = b.check_fire(0, 1, FireContext::Order).expect("in range, in the cone");
        let note = p
            .modifiers
            .iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("note 22") && m.amount == 1);
        (p.base_dice, p.dice, note)
    };
    assert_eq!(dice("nap_french", "line_infantry_08_12"), (4, 4, false));
    assert_eq!(dice("nap_british", "line_infantry"), (4, 5, true));
}

/// A mounted cavalry unit (id 0) in contact with a Confederate line, charging; the first
/// round's dice of the two sides.
fn first_round_dice(cavalry: TroopRow) -> (Vec<u32>, Vec<CombatSide>) {
    // Cavalry bases 2.0 deep: the front edge at 51.0; the line's front edge at 51.01 (until
    // rules `bpt-7` at 51.5: 0.5 cm off counted as contact then).
    let mut b: Battle = battle(&[
        u(0, "us_cavalry_1862", 4, 100.0, 50.0, 90.0),
        u(1, "regular_infantry_rifled", 4, 100.0, 51.76, 270.0),
    ]);
    b.arranging().units[0].row = cavalry;
    to_command(&mut b);
    b.arranging().combats.push(Combat {
        chargers: vec![0],
        target: 1,
        supports: [vec![], vec![]],
        counter_charge: false,
    });
    let mut faces = vec![6; 20];
    faces.extend([1; 20]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::EndPhase).unwrap();
    let sides = ev
        .iter()
        .find_map(|e| match e {
            Event::Melee(MeleeEvent::CombatRound { sides, .. }) => Some(sides.clone()),
            _ => None,
        })
        .expect("a combat round");
    (sides.iter().map(|s| s.dice).collect(), sides)
}

#[test]
fn note_13_heavy_cavalry_adds_one_charge_die() {
    // Heavy (05-06,13-15) and light (05-12) French cavalry print the same numbers
    // (30, 1/2, 3 hits, 6+, 60 points): only note 13 differs.
    let (light, _) = first_round_dice(row("nap_french", "light_cavalry_05_12"));
    let (heavy, sides) = first_round_dice(row("nap_french", "heavy_cavalry_05_06_13_15"));
    assert_eq!(heavy[0], light[0] + 1, "{sides:?}");
    assert_eq!(heavy[1], light[1]);
    assert!(
        sides[0]
            .modifiers
            .iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("note 13") && m.amount == 1)
    );
}

/// BPT "Napoleonic Special Rules": "All units receive a +1 to hit die roll modifier the first
/// time it fires in the game" — as in the ACW lists, not for ACW armies alone.
#[test]
fn napoleonic_units_get_the_first_fire_bonus_once() {
    let mut b = battle(&[
        u(0, "regular_infantry_rifled", 4, 100.0, 50.0, 90.0),
        u(1, "regular_infantry_rifled", 4, 100.0, 60.0, 270.0),
    ]);
    b.arranging().sides[0].army = army("nap_french").name.clone();
    assert!(!b.sides[0].army.starts_with("ACW"), "{}", b.sides[0].army);
    b.arranging().units[0].row = row("nap_french", "line_infantry_08_12");
    let p = b.check_fire(0, 1, FireContext::Order).expect("in range, in the cone");
    assert_eq!(p.roll_bonus, 1, "the first fire of the game");
    b.arranging().units[0].has_fired = true;
    let p = b.check_fire(0, 1, FireContext::Order).expect("in range, in the cone");
    assert_eq!(p.roll_bonus, 0, "only the first time it fires");
}

/// A British firer (id 0, row `firer` of the ACW chart, `n` stands) at (x, y) facing
/// `facing`, a French line of 4 (id 1) at (100, 70) facing south, and `more` units after.
fn at_a_square(firer: &'static str, n: u32, x: f64, y: f64, facing: f64, more: &[U]) -> Battle {
    // The French line first of its side, so it is the first unit of side 1 whatever follows.
    let mut units = vec![
        u(0, firer, n, x, y, facing),
        u(1, "regular_infantry_rifled", 4, 100.0, 70.0, 270.0),
    ];
    units.extend_from_slice(more);
    let mut b = battle(&units);
    b.arranging().sides[0].army = army("nap_british").name.clone();
    b.arranging().sides[1].army = army("nap_french").name.clone();
    let t = b.units.iter().position(|x| x.side == 1).unwrap();
    b.arranging().units[t].row = row("nap_french", "line_infantry_08_12");
    to_command(&mut b);
    b.arranging().unit_mut(0).loaded = Some(volley::data::scenario::Ammo::Shot);
    b
}

fn squared(mut b: Battle, t: u32) -> Battle {
    b.arranging().unit_mut(t).formation = Formation::Square;
    b.refresh_geometry();
    b
}

fn square_mods(p: &volley::battle::fire::FirePlan) -> i32 {
    p.modifiers
        .iter()
        .filter(|m| volley::report::words::rule_words(m.rule).contains("Square"))
        .map(|m| m.amount)
        .sum()
}

#[test]
fn fire_at_a_square_gets_a_die_per_infantry_unit_and_per_gun_and_no_saves() {
    // BPT "Firing Modifiers": "+1 Infantry per unit versus Infantry in square", "+1 Artillery
    // per stand versus Infantry in square"; "Square formation receives no saves dice against
    // ranged weapons".
    let b = at_a_square("regular_infantry_rifled", 4, 100.0, 50.0, 90.0, &[]);
    let line = b.check_fire(0, 1, FireContext::Order).expect("in range");
    assert_eq!((square_mods(&line), line.save), (0, Some(6)));
    let b = squared(b, 1);
    let sq = b.check_fire(0, 1, FireContext::Order).expect("in range");
    assert_eq!((square_mods(&sq), sq.save), (1, None));
    // A battery of two guns: +2.
    let b = squared(at_a_square("smoothbore_cannon", 2, 100.0, 50.0, 90.0, &[]), 1);
    let sq = b.check_fire(0, 1, FireContext::Order).expect("in range");
    assert_eq!(square_mods(&sq), 2);
}

#[test]
fn a_square_has_no_flank() {
    // BPT "Square": "an all round defence": fired on from its side, no flank +2.
    let b = at_a_square("regular_infantry_rifled", 4, 85.0, 70.0, 0.0, &[]);
    let line = b.check_fire(0, 1, FireContext::Order).expect("in range");
    assert!(
        line.modifiers
            .iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("flank"))
    );
    let b = squared(b, 1);
    let sq = b.check_fire(0, 1, FireContext::Order).expect("in range");
    assert_eq!(sq.aspect, volley::rules::geometry::Aspect::Front);
    assert!(
        !sq.modifiers
            .iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("flank"))
    );
}

#[test]
fn infantry_fired_on_with_enemy_cavalry_near_and_none_of_its_own_forms_square() {
    // BPT "Square": "If an infantry unit is the target of shooting attacks, and the target unit
    // has enemy cavalry within 30cm, and no friendly cavalry units are within 30cm, that
    // infantry unit must form square"; "Really poor troops ... may not form square".
    let cav = u(0, "us_cavalry_1862", 3, 130.0, 60.0, 90.0);
    let formed = |b: &mut Battle| {
        script(b, &[1; 40]);
        let t = b.units.iter().position(|x| x.side == 1).unwrap() as u32;
        let ev = b.apply(&Action::Fire { unit: 0, target: t }).expect("legal fire");
        let sq = ev.iter().any(|e| {
            matches!(
                e,
                Event::Movement(MovementEvent::Deployed {
                    what: volley::battle::event::Deployment::SquareAgainstCavalry,
                    ..
                })
            )
        });
        assert_eq!(sq, b.unit(t).formation == volley::rules::formation::Formation::Square);
        sq
    };
    let mut b = at_a_square(
        "regular_infantry_rifled",
        4,
        100.0,
        50.0,
        90.0,
        std::slice::from_ref(&cav),
    );
    b.arranging().cmd.orders.insert(0, super::fire::order(1));
    assert!(formed(&mut b), "British cavalry 20 cm off, no French cavalry");
    // No enemy cavalry near: it stays in line.
    let mut b = at_a_square("regular_infantry_rifled", 4, 100.0, 50.0, 90.0, &[]);
    b.arranging().cmd.orders.insert(0, super::fire::order(1));
    assert!(!formed(&mut b));
    // French cavalry within 30 cm too: no need.
    let mut b = at_a_square(
        "regular_infantry_rifled",
        4,
        100.0,
        50.0,
        90.0,
        &[cav.clone(), u(1, "cs_cavalry", 3, 75.0, 80.0, 270.0)],
    );
    b.arranging().cmd.orders.insert(0, super::fire::order(1));
    assert!(!formed(&mut b));
    // Poor troops may not form square.
    let mut b = at_a_square("regular_infantry_rifled", 4, 100.0, 50.0, 90.0, &[cav]);
    b.arranging().cmd.orders.insert(0, super::fire::order(1));
    let t = b.units.iter().position(|x| x.side == 1).unwrap();
    b.arranging().units[t].grade = volley::data::scenario::Grade::Poor;
    assert!(!formed(&mut b));
    let r = b.check_deploy(
        t as u32,
        volley::battle::Deploy::Formation(volley::rules::formation::Formation::Square),
        false,
    );
    assert!(r.is_err());
}

#[test]
fn a_square_defends_one_level_better_against_cavalry() {
    // BPT "Square": "in open terrain they defend as in soft cover and in soft cover defend as
    // in hard cover" — against cavalry only.
    let b = at_a_square("regular_infantry_rifled", 4, 100.0, 50.0, 90.0, &[]);
    let from = Some(b.unit(0).pose.pos);
    assert_eq!(b.charge_to_hit(1, from, true), 4, "a line in the open");
    let b = squared(b, 1);
    assert_eq!(b.charge_to_hit(1, from, true), 5, "a square against cavalry: soft");
    assert_eq!(b.charge_to_hit(1, from, false), 4, "against infantry: open");
}

/// A row of a Napoleonic chart not in the bundled lists, as the book prints it.
/// Both print 1 attack (range 2 cm mounted, 10 cm muskets), 3 hits and save 0 (none). The
/// notes the rules read become traits as a list named "Napoleonic ..." is loaded.
fn printed(id: &str, name: &str, arm: Arm, movement: f64, points: u32, notes: &[u32], traits: &[Trait]) -> TroopRow {
    let row = TroopRow {
        id: id.into(),
        name: name.into(),
        arm,
        movement,
        movement_alt: None,
        attacks: 1,
        range: if arm == Arm::Cavalry { 2.0 } else { 10.0 },
        hits: 3,
        save: None,
        points: Some(points),
        limit: Some(if arm == Arm::Cavalry { "-/1" } else { "4/-" }.into()),
        notes: notes.to_vec(),
        traits: traits.to_vec(),
        dismounts_to: None,
    };
    let mut list = volley::data::army::ArmyList {
        name: "Napoleonic rows as printed".into(),
        troops: vec![row],
        commands: Vec::new(),
        exceptional_per_level: None,
        notes: Vec::new(),
    };
    list.read_napoleonic_notes();
    list.troops.remove(0)
}

/// "Napoleonic Russian Army Troop Chart": "Cossack Cavalry  Cav 30 1/2 3 0 30 -/1 4, 11, 14, 16"
/// (no bundled list prints note 14).
fn cossacks() -> TroopRow {
    printed(
        "cossack_cavalry",
        "Cossack Cavalry",
        Arm::Cavalry,
        30.0,
        30,
        &[4, 11, 14, 16],
        &[Trait::Mounted, Trait::Sabre],
    )
}

/// "Napoleonic Spanish Army Troop Chart": "Line Infantry (09/15)  Inf 8 1/10 3 0 30 4/- 1, 24"
/// (no bundled list prints note 24).
fn spanish_line() -> TroopRow {
    printed(
        "line_infantry_09_15",
        "Line Infantry (09/15)",
        Arm::Infantry,
        8.0,
        30,
        &[1, 24],
        &[Trait::Smoothbore],
    )
}

/// A charger (id 0, `row`, in `formation`) 12 cm south of a French line of 4 (id 1, `formation`
/// too if `target_square`), in side 0's command phase with an order that may charge: whether
/// the charge is listed, and `check_charge`'s refusal (its rule) if any.
fn charge_of(row: TroopRow, formation: Formation, target_square: bool) -> Result<(), String> {
    let mut b = battle(&[
        U {
            formation,
            ..u(0, "regular_infantry_rifled", 4, 100.0, 50.0, 90.0)
        },
        u(1, "regular_infantry_rifled", 4, 100.0, 64.0, 270.0),
    ]);
    b.arranging().sides[0].army = army("nap_british").name.clone();
    b.arranging().sides[1].army = army("nap_french").name.clone();
    b.arranging().units[0].row = row;
    b.arranging().units[1].row = self::row("nap_french", "line_infantry_08_12");
    if target_square {
        b.arranging().unit_mut(1).formation = Formation::Square;
    }
    b.refresh_geometry();
    to_command(&mut b);
    b.arranging().cmd.orders.insert(0, super::fire::order(HQ0));
    let listed = b.legal_actions().contains(&Action::Charge { unit: 0, target: 1 });
    let r = b
        .check_charge(0, 1)
        .map(|_| ())
        .map_err(|e| format!("{}: {}", e.rule, e.reason));
    assert_eq!(listed, r.is_ok(), "the legal actions and check_charge agree: {r:?}");
    r
}

/// BPT "Napoleonic Special Rules" note 21: "Must use attack column march formation in a
/// charge" (French line infantry; the British, note 22, charge in line).
#[test]
fn note_21_infantry_charges_only_in_attack_column() {
    // The trait is read from the printed note when a Napoleonic list loads; the ACW lists'
    // note 21 is another rule.
    for stem in ["nap_french", "nap_british", "acw_union", "acw_confederate"] {
        for t in &army(stem).troops {
            let napoleonic = stem.starts_with("nap");
            assert_eq!(
                napoleonic && t.notes.contains(&21),
                t.has(Trait::ChargesInColumn),
                "{stem} {}",
                t.id
            );
        }
    }
    assert!(row("nap_french", "old_guard").has(Trait::ChargesInColumn));
    let french = || row("nap_french", "line_infantry_08_12");
    let refused = charge_of(french(), Formation::Line, false).expect_err("in line");
    assert!(refused.starts_with("BPT Napoleonic Special Rules note 21"), "{refused}");
    assert_eq!(charge_of(french(), Formation::AttackColumn, false), Ok(()));
    assert_eq!(
        charge_of(row("nap_british", "line_infantry"), Formation::Line, false),
        Ok(())
    );
}

/// Note 14: "Irregular cavalry may not charge infantry in square" (Cossacks; other cavalry may,
/// and Cossacks may charge infantry that is not in square).
#[test]
fn note_14_irregular_cavalry_may_not_charge_a_square() {
    let refused = charge_of(cossacks(), Formation::Line, true).expect_err("a square");
    assert!(refused.starts_with("BPT Napoleonic Special Rules note 14"), "{refused}");
    assert_eq!(charge_of(cossacks(), Formation::Line, false), Ok(()));
    assert_eq!(
        charge_of(row("nap_french", "light_cavalry_05_12"), Formation::Line, true),
        Ok(())
    );
}

/// Note 24: "May not form square and defend against cavalry as in open ground" (Spanish
/// infantry): no square by order nor under the threat of cavalry, and against cavalry the
/// score to hit is the open ground's 4+ even in woods (soft cover, 5+, against infantry).
#[test]
fn note_24_infantry_never_forms_square_and_defends_against_cavalry_as_in_the_open() {
    use volley::battle::Deploy;
    // By order: refused citing the note; a French line of the same numbers may.
    let mut b = at_a_square("regular_infantry_rifled", 4, 100.0, 50.0, 90.0, &[]);
    b.arranging().units[1].row = spanish_line();
    let r = b
        .check_deploy(1, Deploy::Formation(Formation::Square), false)
        .expect_err("no square");
    assert_eq!(r.rule, "BPT Napoleonic Special Rules note 24");
    b.arranging().units[1].row = row("nap_french", "line_infantry_08_12");
    assert!(b.check_deploy(1, Deploy::Formation(Formation::Square), false).is_ok());
    // Fired on with British cavalry 20 cm off and no Spanish cavalry near: it stays in line.
    let cav = u(0, "us_cavalry_1862", 3, 130.0, 60.0, 90.0);
    let mut b = at_a_square("regular_infantry_rifled", 4, 100.0, 50.0, 90.0, &[cav]);
    let t = b.units.iter().position(|x| x.side == 1).unwrap() as u32;
    b.arranging().units[t as usize].row = spanish_line();
    b.arranging().cmd.orders.insert(0, super::fire::order(1));
    assert!(!b.square_forced_on(t));
    script(&mut b, &[1; 40]);
    let ev = b.apply(&Action::Fire { unit: 0, target: t }).expect("legal fire");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Movement(MovementEvent::Deployed { .. })))
    );
    assert_eq!(b.unit(t).formation, Formation::Line);
    // In woods (soft cover): cavalry hits it on 4+, as in the open; infantry on 5+. A French
    // line there is hit by cavalry on 5+.
    let wood = area(volley::rules::terrain::AreaKind::Woods, 80.0, 64.0, 120.0, 78.0);
    let mut b = battle_with(
        &[
            u(0, "us_cavalry_1862", 3, 100.0, 50.0, 90.0),
            u(1, "regular_infantry_rifled", 4, 100.0, 70.0, 270.0),
        ],
        wood,
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
    );
    b.arranging().sides[1].army = army("nap_french").name.clone();
    let from = Some(b.unit(0).pose.pos);
    b.arranging().units[1].row = row("nap_french", "line_infantry_08_12");
    assert_eq!(
        b.charge_to_hit(1, from, true),
        5,
        "a French line in woods against cavalry"
    );
    b.arranging().units[1].row = spanish_line();
    assert_eq!(b.charge_to_hit(1, from, true), 4, "note 24: as in open ground");
    assert_eq!(b.charge_to_hit(1, from, false), 5, "against infantry its cover counts");
}

/// Issue 64 item 8: the fire preview foresees the forced square. BPT "Square": infantry fired
/// on "has enemy cavalry within 30cm, and no friendly cavalry units are within 30cm, ... must
/// form square", and then "+1 Infantry per unit versus Infantry in square", "Square formation
/// receives no saves dice against ranged weapons". The odds shown before the fire (the
/// terminal's `odds`, the order's words, the scheduler's judgement) are those of the fire
/// rolled: one die more than at the line and no save (until then they showed the line's dice
/// and its 6+ save, and the square was formed only when the dice were rolled).
#[test]
fn the_fire_preview_foresees_the_square_the_fire_forces() {
    use volley::battle::event::Event;
    // The same fire without the cavalry: the line's dice and its 6+ save.
    let b = at_a_square("regular_infantry_rifled", 4, 100.0, 50.0, 90.0, &[]);
    let line = b.check_fire(0, 1, FireContext::Order).expect("in range");
    assert_eq!(line.save, Some(6));
    let cav = u(0, "us_cavalry_1862", 3, 130.0, 60.0, 90.0);
    let mut b = at_a_square("regular_infantry_rifled", 4, 100.0, 50.0, 90.0, &[cav]);
    b.arranging().cmd.orders.insert(0, super::fire::order(1));
    let t = b.units.iter().position(|x| x.side == 1).unwrap() as u32;
    let fire = Action::Fire { unit: 0, target: t };
    let odds = volley::terminal::view::odds_lines(&b, &fire);
    let words = volley::report::action::heading(&b, &fire);
    let judged = volley::agents::scheduler::evaluate::fire_value(&b, 0, t, FireContext::Order)
        .expect("a legal fire")
        .2;
    script(&mut b, &[1; 40]);
    let ev = b.apply(&fire).expect("legal fire");
    let (dice, save, need) = ev
        .iter()
        .find_map(|e| match e {
            Event::Fire(FireEvent::Fired {
                dice,
                save,
                to_hit,
                roll_bonus,
                ..
            }) => Some((*dice, *save, to_hit.saturating_sub(*roll_bonus).max(1))),
            _ => None,
        })
        .expect("the fire");
    assert_eq!(b.unit(t).formation, Formation::Square);
    // The book's numbers: the line's dice + 1, no save.
    assert_eq!((dice, save), (line.dice + 1, None));
    let n = volley::report::count(dice, "die");
    assert!(odds[0].contains(&format!(": {n} (")), "{odds:?}");
    assert!(!odds[0].contains("saves on"), "{odds:?}");
    assert!(odds.iter().any(|l| l.contains("forms square first")), "{odds:?}");
    assert!(words.contains(&format!("({n}, {need}+")), "{words}");
    assert!(judged.contains(&format!("{n} at {need}+")), "{judged}");
    // Expected hits: each die hits on `need`+ and nothing is saved.
    let mean = f64::from(dice) * f64::from(7 - need) / 6.0;
    assert!(judged.contains(&format!("{mean:.1} hits expected")), "{judged}");
}

/// A charger fired on as it comes in, with enemy cavalry within 30 cm and none of its own, must
/// form square (BPT "Square": "If an infantry unit is the target of shooting attacks ... must
/// form square"), and a square does not charge (BPT "Charging": chargers are in line or
/// attack column). **Decision** (rules `bpt-8`): the charge halts where the square formed,
/// and no combat is fought (until then the square carried the charge into contact).
#[test]
fn a_charger_forced_into_square_by_the_fire_it_meets_halts() {
    use volley::battle::event::ChargeFailure;
    use volley::battle::state::{Phase, Step};
    let mut b = battle(&[
        u(0, "regular_infantry_rifled", 4, 100.0, 50.0, 90.0),
        u(1, "regular_infantry_rifled", 4, 100.0, 62.0, 270.0),
        u(1, "cs_cavalry", 3, 128.0, 48.0, 180.0),
    ]);
    b.arranging().sides[0].army = army("nap_british").name.clone();
    b.arranging().sides[1].army = army("nap_french").name.clone();
    b.arranging().units[0].row = row("nap_british", "line_infantry");
    b.arranging().units[1].row = row("nap_french", "line_infantry_08_12");
    b.arranging().units[2].row = row("nap_french", "light_cavalry_05_12");
    b.refresh_geometry();
    assert_eq!(b.phase, Phase::Initiative);
    // The scheduler foresees it: the charge is worth nothing.
    let charge = Action::InitiativeCharge { unit: 0, target: 1 };
    let legal = b.legal_actions();
    assert!(legal.contains(&charge));
    let ctx = volley::agents::scheduler::evaluate::Ctx::new(&b, 0, &legal);
    let judged = volley::agents::scheduler::evaluate::judge(&b, &charge, &ctx);
    assert!(judged.score <= 0.0, "{}: {}", judged.score, judged.why);
    assert!(judged.why.contains("100% to stop"), "{}", judged.why);
    b.apply(&charge).expect("a legal charge");
    assert!(matches!(b.step, Step::CounterInitiative { .. }));
    assert!(
        b.square_forced_on(0),
        "the French cavalry is within 30 cm of the charger"
    );
    let mut ev = b.apply(&Action::CounterFire { unit: 1 }).expect("closing fire");
    while matches!(b.step, Step::CounterInitiative { .. }) && b.unit(0).alive() {
        ev.extend(b.apply(&Action::Pass).expect("the window closes"));
    }
    assert_eq!(b.unit(0).formation, Formation::Square, "{ev:?}");
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Melee(MeleeEvent::ChargeFailed {
                unit: 0,
                why: ChargeFailure::FormedSquare,
                ..
            })
        )),
        "{ev:?}"
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Melee(MeleeEvent::ChargeContact { .. }))),
        "{ev:?}"
    );
    assert!(b.combats.is_empty());
}
