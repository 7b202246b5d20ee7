//! BPT "Multi-National Armies" (switch `multi-national`), seeds/003 "MORE IDEAS": "units may
//! receive orders only from the Army HQ and from HQs of their own nationality … A Brigade
//! containing units from several Nationalities cannot receive orders from a HQ unless that HQ
//! can command all of the units in the Brigade. Some army lists may alter this (for example,
//! Portuguese troops … will be able to receive order from British HQs)."
//! Shown on `maps/peninsula.ron`: the two Cacador battalions are Portuguese.

use super::common::{scheduler_game, to_command};
use std::path::Path;
use volley::battle::{Action, Battle, Event};
use volley::rules::switches::{Switch, Switches};

fn sabugal(on: bool) -> Battle {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/peninsula.ron");
    let switches: Switches = if on {
        [Switch::MultiNational].into_iter().collect()
    } else {
        Switches::default()
    };
    let (mut b, _) = volley::load_battle_with(&path, 1, &switches).expect("Sabugal loads");
    to_command(&mut b);
    b.active = 0;
    b
}

fn unit(b: &Battle, key: &str) -> u32 {
    b.units.iter().find(|u| u.key == key).unwrap().id
}

fn cmd(b: &Battle, key: &str) -> u32 {
    b.commanders.iter().find(|c| c.key == key).unwrap().id
}

#[test]
fn a_brigadier_may_not_order_units_of_another_nation_the_army_hq_may() {
    let b = sabugal(true);
    let (cac, rifles) = (unit(&b, "gb_3cac"), unit(&b, "gb_95a"));
    let (beckwith, erskine) = (cmd(&b, "gb_bde1"), cmd(&b, "gb_div"));
    assert_eq!(b.unit(cac).nation.as_deref(), Some("Portuguese"));
    let e = b.check_order(beckwith, &[cac], false, false).unwrap_err();
    assert_eq!(e.rule, "BPT Multi-National Armies");
    assert!(
        e.reason.contains("Portuguese") && e.reason.contains("Beckwith"),
        "{e:?}"
    );
    // His own British battalion he orders as usual.
    b.check_order(beckwith, &[rifles], false, false)
        .expect("a British HQ orders British troops");
    // A mixed group only if he may command every unit of it.
    assert!(b.check_order(beckwith, &[rifles, cac], false, false).is_err());
    // The army HQ orders anyone.
    b.check_order(erskine, &[cac], false, false)
        .expect("the army HQ orders the Cacadores");
    b.check_order(erskine, &[rifles, cac], false, false)
        .expect("and a mixed brigade");
    // Refused through the one door too, and not offered as a legal action.
    let mut b2 = b.clone();
    let order = Action::Order {
        commander: beckwith,
        units: vec![cac],
        charge: false,
        dense: false,
        road: false,
    };
    assert!(b2.apply(&order).is_err());
    assert!(!b.legal_actions().contains(&order));
}

#[test]
fn with_the_switch_off_nations_are_ignored() {
    let b = sabugal(false);
    let cac = unit(&b, "gb_3cac");
    assert_eq!(
        b.unit(cac).nation,
        None,
        "not even recorded (so older state hashes stay)"
    );
    b.check_order(cmd(&b, "gb_bde1"), &[cac], false, false)
        .expect("Beckwith orders the Cacadores without the rule");
}

#[test]
fn the_scenario_may_let_portuguese_take_orders_from_british_hqs() {
    let mut b = sabugal(true);
    b.sides[0].obeys.insert("Portuguese".into(), vec!["British".into()]);
    let cac = unit(&b, "gb_3cac");
    b.check_order(cmd(&b, "gb_bde1"), &[cac], false, false)
        .expect("British-led Portuguese obey a British brigadier");
    // The exception is one way: a Portuguese HQ would still not order British troops.
    let beckwith = cmd(&b, "gb_bde1");
    b.commanders[beckwith as usize].nation = Some("Portuguese".into());
    assert!(b.check_order(beckwith, &[unit(&b, "gb_95a")], false, false).is_err());
}

#[test]
fn the_scheduler_orders_the_cacadores_through_the_army_hq_and_replays_verify() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/peninsula.ron");
    let on: Switches = [Switch::MultiNational].into_iter().collect();
    let mut by_erskine = 0;
    for seed in [1, 2] {
        let (b, _) = volley::load_battle_with(&path, seed, &on).expect("Sabugal multi-national");
        let cac: Vec<u32> = b.units.iter().filter(|u| u.nation.is_some()).map(|u| u.id).collect();
        let erskine = cmd(&b, "gb_div");
        scheduler_game("peninsula.ron", seed, &on, |_b, act, ev| {
            if let Action::Order { commander, units, .. } = act {
                // Never a brigadier to a Portuguese unit.
                assert!(
                    *commander == erskine || !units.iter().any(|u| cac.contains(u)),
                    "{act:?}"
                );
                if *commander == erskine
                    && units.iter().any(|u| cac.contains(u))
                    && ev.iter().any(|e| matches!(e, Event::CommandRoll { .. }))
                {
                    by_erskine += 1;
                }
            }
        });
    }
    assert!(by_erskine > 0, "Erskine never ordered the Cacadores");
}
