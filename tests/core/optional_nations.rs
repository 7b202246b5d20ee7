//! BPT "Multi-National Armies" (switch `multi-national`), seeds/003 "MORE IDEAS": "units may
//! receive orders only from the Army HQ and from HQs of their own nationality … A Brigade
//! containing units from several Nationalities cannot receive orders from a HQ unless that HQ
//! can command all of the units in the Brigade. Some army lists may alter this (for example,
//! Portuguese troops … will be able to receive order from British HQs)."
//! Shown on `maps/peninsula.ron`: the two Cacador battalions are Portuguese.

use super::common::{scheduler_game, to_command};
use std::path::Path;
use volley::battle::event::families::*;
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
    b.arranging().active = 0;
    b
}

fn unit(b: &Battle, key: &str) -> u32 {
    b.units.iter().find(|u| u.key == key).unwrap().id
}

fn cmd(b: &Battle, key: &str) -> u32 {
    b.commanders.iter().find(|c| c.key == key).unwrap().id
}

/// Beckwith's brigade (gb_bde1) holds the 1/43rd and 1/95th (British) and the 3rd Cacadores
/// (Portuguese). Seeds/003: "units may receive orders only from the Army HQ and from HQs of
/// their own nationality … A Brigade containing units from several Nationalities cannot receive
/// orders from a HQ unless that HQ can command all of the units in the Brigade."
fn beckwiths_brigade(b: &Battle) -> Vec<u32> {
    let beckwith = cmd(b, "gb_bde1");
    let v: Vec<u32> = b.units.iter().filter(|u| u.hq == beckwith).map(|u| u.id).collect();
    assert_eq!(v.len(), 3, "three battalions");
    v
}

#[test]
fn a_brigade_of_several_nations_takes_no_orders_from_a_hq_who_cannot_command_all_of_it() {
    let mut b = sabugal(true);
    // Without the book's exception for British-led Portuguese (the map has it).
    b.arranging().sides[0].obeys.clear();
    let (cac, rifles) = (unit(&b, "gb_3cac"), unit(&b, "gb_95a"));
    let (beckwith, erskine) = (cmd(&b, "gb_bde1"), cmd(&b, "gb_div"));
    assert_eq!(b.unit(cac).nation.as_deref(), Some("Portuguese"));
    let e = b.check_order(beckwith, &[cac], false, false).unwrap_err();
    assert_eq!(e.rule, "BPT Multi-National Armies");
    assert!(
        e.reason.contains("Portuguese") && e.reason.contains("Beckwith"),
        "{e:?}"
    );
    // Not even his British battalions: the brigade holds a unit he may not command.
    for id in beckwiths_brigade(&b) {
        let e = b.check_order(beckwith, &[id], false, false).unwrap_err();
        assert_eq!(e.rule, "BPT Multi-National Armies", "{e:?}");
    }
    let e = b.check_order(beckwith, &[rifles], false, false).unwrap_err();
    assert!(e.reason.contains("brigade") && e.reason.contains("Portuguese"), "{e:?}");
    // The army HQ orders anyone, and the whole brigade.
    b.check_order(erskine, &[cac], false, false)
        .expect("the army HQ orders the Cacadores");
    b.check_order(erskine, &[rifles], false, false).expect("and the Rifles");
    b.check_order(erskine, &beckwiths_brigade(&b), false, false)
        .expect("and the mixed brigade");
    // Refused through the one door too, and not offered as a legal action.
    for units in [vec![cac], vec![rifles]] {
        let order = Action::Order {
            commander: beckwith,
            units,
            charge: false,
            dense: false,
            road: false,
        };
        assert!(b.clone().apply(&order).is_err());
        assert!(!b.legal_actions().contains(&order));
    }
    // Once the Cacadores are knocked out the brigade is British again.
    b.arranging().unit_mut(cac).knocked_out = true;
    b.check_order(beckwith, &[rifles], false, false)
        .expect("a British brigade takes a British brigadier's orders");
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
    assert!(b.sides[0].obeys.is_empty());
    b.check_order(cmd(&b, "gb_bde1"), &[cac], false, false)
        .expect("Beckwith orders the Cacadores without the rule");
}

/// "Some army lists may alter this (for example, Portuguese troops, who were trained by and
/// lead by British officers, will be able to receive order from British HQs)": Sabugal's
/// British side `obeys: {"Portuguese": ["British"]}`, so Beckwith orders all three.
#[test]
fn the_scenario_may_let_portuguese_take_orders_from_british_hqs() {
    let mut b = sabugal(true);
    assert_eq!(
        b.sides[0].obeys.get("Portuguese"),
        Some(&vec!["British".to_string()]),
        "peninsula.ron gives the exception"
    );
    let beckwith = cmd(&b, "gb_bde1");
    let brigade = beckwiths_brigade(&b);
    for &id in &brigade {
        b.check_order(beckwith, &[id], false, false)
            .expect("British-led Portuguese obey a British brigadier");
    }
    b.check_order(beckwith, &brigade, false, false)
        .expect("the whole brigade");
    // The exception is one way: a Portuguese HQ would still not order British troops.
    b.arranging().commanders[beckwith as usize].nation = Some("Portuguese".into());
    assert!(b.check_order(beckwith, &[unit(&b, "gb_95a")], false, false).is_err());
}

#[test]
fn the_scheduler_orders_the_cacadores_through_their_british_brigadiers_and_replays_verify() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/peninsula.ron");
    let on: Switches = [Switch::MultiNational].into_iter().collect();
    let mut ordered = 0;
    for seed in [1, 2] {
        let (b, _) = volley::load_battle_with(&path, seed, &on).expect("Sabugal multi-national");
        let cac: Vec<u32> = b.units.iter().filter(|u| u.nation.is_some()).map(|u| u.id).collect();
        let british: Vec<u32> = b
            .commanders
            .iter()
            .filter(|c| c.side == 0 && c.nation.is_none())
            .map(|c| c.id)
            .collect();
        scheduler_game("peninsula.ron", seed, &on, |_b, act, ev| {
            if let Action::Order { commander, units, .. } = act
                && units.iter().any(|u| cac.contains(u))
                && ev
                    .iter()
                    .any(|e| matches!(e, Event::Command(CommandEvent::CommandRoll { .. })))
            {
                // The army HQ or a British HQ (the scenario's `obeys`).
                assert!(british.contains(commander), "{act:?}");
                ordered += 1;
            }
        });
    }
    assert!(ordered > 0, "nobody ordered the Cacadores");
}
