//! BPT "Constructions (Optional Rule)" (switch `constructions`), seeds/003: buildings have
//! their own hits and saves per 5 cm length (wooden 3 / none, brick 6 / 5, stone 9 / 4, stone
//! fortification 12 / 3); infantry inside may use the building's save; artillery fire at the
//! troops inside also rolls against the building, hitting on sixes; its hits stay; at its hits
//! value it collapses, knocking out the occupants and suppressing units in contact.

use super::common::*;
use super::fire::order;
use std::path::Path;
use volley::battle::event::families::*;
use volley::battle::fire::FireContext;
use volley::battle::{Action, Battle, Event};
use volley::data::scenario::Ammo;
use volley::rules::geometry::V2;
use volley::rules::switches::Switch;
use volley::rules::terrain::{Building, Material, Polygon, Terrain};

const RIFLES: &str = "regular_infantry_rifled";

fn house(material: Material, x0: f64, y0: f64, x1: f64, y1: f64) -> Building {
    Building {
        name: "Farmhouse".into(),
        outline: Polygon(vec![V2::new(x0, y0), V2::new(x1, y0), V2::new(x1, y1), V2::new(x0, y1)]),
        material,
    }
}

/// A Union line (unit 0) in a 12 × 4 cm building at (100, 50), and `extra` Union units; a
/// Confederate rifled gun (last unit) 8 cm north of it, loaded with canister. Confederate
/// command phase, the gun ordered.
fn garrison(on: bool, material: Material, extra: &[U]) -> Battle {
    let mut units = vec![u(0, RIFLES, 4, 100.0, 50.0, 90.0)];
    units.extend_from_slice(extra);
    units.push(u(1, "rifled_cannon", 1, 100.0, 61.0, 270.0));
    let terrain = Terrain {
        buildings: vec![house(material, 94.0, 48.0, 106.0, 52.0)],
        ..Terrain::default()
    };
    let switches: &[Switch] = if on { &[Switch::Constructions] } else { &[] };
    let mut b = battle_switched(
        &units,
        terrain,
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        switches,
    );
    let gun = b.units.len() as u32 - 1;
    b.arranging().units[gun as usize].loaded = Some(Ammo::Canister);
    to_command(&mut b);
    b.arranging().active = 1;
    b.arranging().cmd.orders.insert(gun, order(2 + HQ0));
    b
}

#[test]
fn hits_and_saves_per_5_cm_of_the_longest_side() {
    let mut b = garrison(true, Material::Brick, &[]);
    // 12 cm long: three 5 cm sections.
    assert_eq!(b.construction_value(0), (18, Some(5)));
    for (m, v) in [
        (Material::Wooden, (9, None)),
        (Material::Stone, (27, Some(4))),
        (Material::Fortification, (36, Some(3))),
    ] {
        std::sync::Arc::make_mut(&mut b.arranging().terrain).buildings[0].material = m;
        assert_eq!(b.construction_value(0), v, "{m:?}");
    }
    // A 5 × 5 cm house is one section; 5.1 cm is two.
    std::sync::Arc::make_mut(&mut b.arranging().terrain).buildings[0] = house(Material::Wooden, 0.0, 0.0, 5.0, 5.0);
    assert_eq!(b.construction_value(0).0, 3);
    std::sync::Arc::make_mut(&mut b.arranging().terrain).buildings[0] = house(Material::Wooden, 0.0, 0.0, 5.1, 5.0);
    assert_eq!(b.construction_value(0).0, 6);
}

#[test]
fn infantry_inside_use_the_buildings_save() {
    let gun = 1;
    let b = garrison(true, Material::Stone, &[]);
    assert_eq!(b.construction_of(0), Some(0));
    assert_eq!(b.unit(0).row.save, None, "the line has no save of its own");
    assert_eq!(b.check_fire(gun, 0, FireContext::Order).unwrap().save, Some(4));
    let off = garrison(false, Material::Stone, &[]);
    assert_eq!(off.construction_of(0), None);
    assert_eq!(off.check_fire(gun, 0, FireContext::Order).unwrap().save, None);
}

/// (rolls, need, save rolls, hits, total, value) of the first building struck.
type Struck = (Vec<u32>, u32, Vec<u32>, u32, u32, u32);

fn construction_hit(ev: &[Event]) -> Option<Struck> {
    ev.iter().find_map(|e| match e {
        Event::Works(WorksEvent::ConstructionHit {
            rolls,
            need,
            save_rolls,
            hits,
            total,
            value,
            ..
        }) => Some((rolls.clone(), *need, save_rolls.clone(), *hits, *total, *value)),
        _ => None,
    })
}

/// The gun (last unit) fires `ammo` at the garrison with dice seeded `seed`: the dice of the
/// attacks on the garrison (none if the ball or shell missed it) and the building's roll.
fn fire_at_garrison(material: Material, ammo: Ammo, seed: u64) -> (Battle, Vec<u32>, Option<Struck>) {
    let mut b = garrison(true, material, &[]);
    let gun = b.units.len() as u32 - 1;
    b.arranging().units[gun as usize].loaded = Some(ammo);
    b.set_dice(volley::rules::dice::Dice::new(seed));
    let ev = b.apply(&Action::Fire { unit: gun, target: 0 }).expect("the gun fires");
    let dice = ev
        .iter()
        .filter_map(|e| match e {
            Event::Fire(FireEvent::Fired { target: 0, dice, .. }) => Some(*dice),
            _ => None,
        })
        .collect();
    let struck = construction_hit(&ev);
    (b, dice, struck)
}

/// Seeds/003 "Constructions": "Whenever a construction comes under fire that can cause hits
/// from artillery, roll the attacks (hitting on sixes), roll saves, then make a note of the
/// number of hits against it. These are not removed at the end of a turn." "Round shot attacks
/// all troops and fortifications it comes into contact with": a ball striking the garrison of a
/// brick house (12 cm: 18 hits, save 5+) rolls the same dice at the house on sixes.
#[test]
fn artillery_fire_at_the_garrison_rolls_the_same_dice_at_the_building_on_sixes() {
    let mut struck = 0;
    for seed in 1..40 {
        let (mut b, dice, hit) = fire_at_garrison(Material::Brick, Ammo::Shot, seed);
        let Some(&attacks) = dice.first() else {
            assert!(hit.is_none(), "seed {seed}: a ball that missed the garrison");
            continue;
        };
        struck += 1;
        let (rolls, need, saves, hits, total, value) = hit.expect("the building is struck");
        assert_eq!((rolls.len() as u32, need, value), (attacks, 6, 18), "seed {seed}");
        let sixes = rolls.iter().filter(|&&r| r == 6).count();
        assert_eq!(saves.len(), sixes, "a 5+ save per hit");
        assert_eq!(hits as usize, sixes - saves.iter().filter(|&&r| r >= 5).count());
        assert_eq!(b.constructions.hits.get(&0).copied().unwrap_or(0), total);
        // The hits stay at the end of the turn.
        let before = total;
        end_phases_until(&mut b, |b| b.phase == volley::battle::Phase::Command && b.active == 0);
        assert_eq!(
            b.constructions.hits.get(&0).copied().unwrap_or(0),
            before,
            "seed {seed}"
        );
    }
    assert!(struck >= 5, "the ball struck the garrison in only {struck} of 39 seeds");
    // Musket fire does not touch the building.
    let mut b = garrison(true, Material::Brick, &[u(1, RIFLES, 4, 80.0, 58.0, 300.0)]);
    b.arranging().cmd.orders.insert(1, order(2 + HQ0));
    let ev = b.apply(&Action::Fire { unit: 1, target: 0 }).expect("musketry");
    assert!(construction_hit(&ev).is_none());
}

/// Seeds/003 "Canister": "Canister has no effect on constructions"; "Shell": "Shell ammunition
/// can attack personnel and wooden constructions only". Canister at a brick or wooden house's
/// garrison and shell at a brick house's strike the troops, not the house; shell at a wooden
/// house (12 cm: 9 hits, no save) rolls at it on sixes, no save.
#[test]
fn canister_never_strikes_a_construction_and_shell_only_a_wooden_one() {
    for material in [Material::Brick, Material::Wooden] {
        for seed in 1..6 {
            let (_, dice, hit) = fire_at_garrison(material, Ammo::Canister, seed);
            assert!(!dice.is_empty(), "canister strikes the garrison");
            assert!(hit.is_none(), "{material:?} seed {seed}: canister has no effect on it");
        }
    }
    let (mut brick, mut wooden) = (0, 0);
    for seed in 1..60 {
        let (_, dice, hit) = fire_at_garrison(Material::Brick, Ammo::Shell, seed);
        if !dice.is_empty() {
            brick += 1;
            assert!(hit.is_none(), "seed {seed}: shell does not attack brick");
        }
        let (_, dice, hit) = fire_at_garrison(Material::Wooden, Ammo::Shell, seed);
        if let Some(&attacks) = dice.first() {
            wooden += 1;
            let (rolls, need, saves, hits, _, value) = hit.expect("shell attacks a wooden house");
            assert_eq!((rolls.len() as u32, need, value), (attacks, 6, 9), "seed {seed}");
            assert!(saves.is_empty(), "a wooden building has no save");
            assert_eq!(hits as usize, rolls.iter().filter(|&&r| r == 6).count());
        }
    }
    assert!(
        brick >= 3 && wooden >= 3,
        "shell struck the garrison: brick {brick}, wooden {wooden}"
    );
}

#[test]
fn at_its_hits_value_the_building_collapses_on_its_occupants_and_suppresses_its_neighbours() {
    // A Union line touching the wooden house's east wall (0.2 cm off).
    let neighbour = u(0, RIFLES, 4, 111.2, 50.0, 90.0);
    let mut b = garrison(true, Material::Wooden, &[neighbour]);
    let gun = 2;
    b.arranging().constructions.hits.insert(0, 8); // 9 to collapse
    // Shell (canister has no effect on constructions; shell attacks wooden ones).
    b.arranging().units[gun as usize].loaded = Some(Ammo::Shell);
    // How many dice the burst throws at the garrison (a dry run).
    let mut dry = b.clone();
    script(&mut dry, &[6; 200]);
    let ev = dry.apply(&Action::Fire { unit: gun, target: 0 }).expect("shell");
    let attacks = ev
        .iter()
        .find_map(|e| match e {
            Event::Fire(FireEvent::Fired { target: 0, dice, .. }) => Some(*dice as usize),
            _ => None,
        })
        .expect("the burst strikes the garrison");
    // On target (6), the garrison unhurt (all 1s), then sixes at the house.
    let mut faces = vec![6];
    faces.extend(std::iter::repeat_n(1, attacks));
    faces.extend([6; 60]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::Fire { unit: gun, target: 0 }).expect("shell");
    let collapsed = ev.iter().find_map(|e| match e {
        Event::Works(WorksEvent::ConstructionCollapsed {
            knocked_out,
            suppressed,
            ..
        }) => Some((knocked_out.clone(), suppressed.clone())),
        _ => None,
    });
    assert_eq!(collapsed, Some((vec![0], vec![1])), "{ev:?}");
    assert!(!b.unit(0).alive());
    assert!(b.unit(1).suppressed());
    assert!(b.constructions.collapsed.contains(&0));
    // A heap of rubble is no construction: nobody is inside one any more.
    assert_eq!(b.construction_of(0), None);
}

#[test]
fn the_demo_plays_to_the_end_and_replays() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/constructions_demo.ron");
    let mut struck = 0;
    for seed in [1, 2, 3] {
        let (b, _) = volley::load_battle(&path, seed).expect("the demo loads");
        assert!(b.rules.switches.on(Switch::Constructions));
        scheduler_game(
            "constructions_demo.ron",
            seed,
            &volley::rules::switches::Switches::default(),
            |_b, _act, ev| {
                struck += ev
                    .iter()
                    .filter(|e| matches!(e, Event::Works(WorksEvent::ConstructionHit { .. })))
                    .count();
            },
        );
    }
    assert!(struck > 0, "no building was ever struck");
}
