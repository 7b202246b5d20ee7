//! BPT "Constructions (Optional Rule)" (switch `constructions`), seeds/003: buildings have
//! their own hits and saves per 5 cm length (wooden 3 / none, brick 6 / 5, stone 9 / 4, stone
//! fortification 12 / 3); infantry inside may use the building's save; artillery fire at the
//! troops inside also rolls against the building, hitting on sixes; its hits stay; at its hits
//! value it collapses, knocking out the occupants and suppressing units in contact.

use super::common::*;
use super::fire::order;
use std::path::Path;
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
    b.units[gun as usize].loaded = Some(Ammo::Canister);
    to_command(&mut b);
    b.active = 1;
    b.cmd.orders.insert(gun, order(2 + HQ0));
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
        b.terrain.buildings[0].material = m;
        assert_eq!(b.construction_value(0), v, "{m:?}");
    }
    // A 5 × 5 cm house is one section; 5.1 cm is two.
    b.terrain.buildings[0] = house(Material::Wooden, 0.0, 0.0, 5.0, 5.0);
    assert_eq!(b.construction_value(0).0, 3);
    b.terrain.buildings[0] = house(Material::Wooden, 0.0, 0.0, 5.1, 5.0);
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
        Event::ConstructionHit {
            rolls,
            need,
            save_rolls,
            hits,
            total,
            value,
            ..
        } => Some((rolls.clone(), *need, save_rolls.clone(), *hits, *total, *value)),
        _ => None,
    })
}

#[test]
fn artillery_fire_at_the_garrison_rolls_the_same_dice_at_the_building_on_sixes() {
    for seed in 1..6 {
        let mut b = garrison(true, Material::Brick, &[]);
        b.dice = volley::rules::dice::Dice::new(seed);
        let dice = b.check_fire(1, 0, FireContext::Order).unwrap().dice;
        let ev = b.apply(&Action::Fire { unit: 1, target: 0 }).expect("canister");
        let (rolls, need, saves, hits, total, value) = construction_hit(&ev).expect("the building is struck");
        assert_eq!((rolls.len() as u32, need, value), (dice, 6, 18));
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
    // Musket fire does not touch the building.
    let mut b = garrison(true, Material::Brick, &[u(1, RIFLES, 4, 80.0, 58.0, 300.0)]);
    b.cmd.orders.insert(1, order(2 + HQ0));
    let ev = b.apply(&Action::Fire { unit: 1, target: 0 }).expect("musketry");
    assert!(construction_hit(&ev).is_none());
}

#[test]
fn at_its_hits_value_the_building_collapses_on_its_occupants_and_suppresses_its_neighbours() {
    // A Union line touching the wooden house's east wall (0.2 cm off).
    let neighbour = u(0, RIFLES, 4, 111.2, 50.0, 90.0);
    let mut b = garrison(true, Material::Wooden, &[neighbour]);
    let gun = 2;
    b.constructions.hits.insert(0, 8); // 9 to collapse
    script(&mut b, &[6; 60]);
    let ev = b.apply(&Action::Fire { unit: gun, target: 0 }).expect("canister");
    let collapsed = ev.iter().find_map(|e| match e {
        Event::ConstructionCollapsed {
            knocked_out,
            suppressed,
            ..
        } => Some((knocked_out.clone(), suppressed.clone())),
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
                struck += ev.iter().filter(|e| matches!(e, Event::ConstructionHit { .. })).count();
            },
        );
    }
    assert!(struck > 0, "no building was ever struck");
}
