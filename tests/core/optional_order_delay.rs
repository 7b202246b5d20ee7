//! The order-delay variant (switch `order-delay`) from *A Perfect Sheet of Flame* (seeds/002,
//! Sequence of Play, "C) Writing and executing orders"): "Units within 12 inches of officers may
//! execute commands the turn they are given. Units 12-24 inches of officers must wait one turn
//! before executing commands. Units further than 24 inches of an officer must wait 2 turns."
//! Mapped onto BPT's command distance: 20 cm, 20–40 cm, beyond 40 cm.

use super::common::*;
use std::path::Path;
use volley::agents;
use volley::battle::event::Lapsed;
use volley::battle::event::families::*;
use volley::battle::order_delay::{RULE, delay_for};
use volley::battle::state::{Battle, Phase, Step};
use volley::battle::{Action, Event};
use volley::replay::Recording;
use volley::replay::verify::verify;
use volley::rules::geometry::{self, V2};
use volley::rules::switches::{Switch, Switches};

/// Two Union regiments (ids 0 and 1) well apart, a Confederate one out of sight.
fn units() -> Vec<U> {
    vec![
        u(0, "regular_infantry_rifled", 4, 100.0, 80.0, 90.0),
        u(0, "regular_infantry_rifled", 4, 40.0, 20.0, 90.0),
        u(1, "regular_infantry_rifled", 4, 100.0, 175.0, 270.0),
    ]
}

fn delay_battle(switches: &[Switch]) -> Battle {
    battle_switched(
        &units(),
        Default::default(),
        [(220.0, 5.0), (220.0, 175.0)],
        [(100.0, 40.0), (200.0, 175.0)],
        switches,
    )
}

/// The Union HQ's edge distance to unit `id`.
fn hq_distance(b: &Battle, id: u32) -> f64 {
    geometry::rects_distance(&[b.commander_rect(b.commander(HQ0))], b.rects(id))
}

/// Put the Union HQ straight behind unit 0, `d` cm from it base edge to base edge.
fn place_hq(b: &mut Battle, d: f64) {
    let x = b.unit(0).pose.pos.x;
    b.arranging().commanders[HQ0 as usize].pos = V2::new(x, 40.0);
    for _ in 0..3 {
        let now = hq_distance(b, 0);
        let y = b.commander(HQ0).pos.y + (now - d);
        b.arranging().commanders[HQ0 as usize].pos = V2::new(x, y);
    }
    assert!((hq_distance(b, 0) - d).abs() < 1e-9, "placed at {}", hq_distance(b, 0));
}

/// End phases (and pass windows) until the command phase of `player_turn`; the events.
fn walk_to_command(b: &mut Battle, player_turn: u32) -> Vec<Event> {
    end_phases_until(b, |b| {
        assert!(b.player_turn <= player_turn, "walked past player turn {player_turn}");
        b.phase == Phase::Command && b.player_turn == player_turn && b.step == Step::Open
    })
}

fn order(units: Vec<u32>) -> Action {
    Action::Order {
        commander: HQ0,
        units,
        charge: false,
        dense: false,
        road: false,
    }
}

fn forward(b: &Battle, id: u32, d: f64) -> Action {
    let p = b.unit(id).pose;
    Action::Move {
        unit: id,
        to: volley::rules::geometry::Pose::new(p.pos + p.forward() * d, p.facing),
    }
}

/// A battle in the Union's first command phase with the HQ `d` cm from unit 0, the next
/// dice scripted.
fn ordering_at(d: f64, switches: &[Switch], faces: &[u32]) -> Battle {
    let mut b = delay_battle(switches);
    walk_to_command(&mut b, 1);
    place_hq(&mut b, d);
    let mut f = faces.to_vec();
    f.extend(std::iter::repeat_n(3, 40));
    script(&mut b, &f);
    b
}

#[test]
fn apsof_bands_12_and_24_inches_are_20_and_40_cm_and_wait_0_1_2_turns() {
    let r = volley::load_rules(None).expect("rules").order_delay;
    assert_eq!((r.at_once, r.one_turn, r.near_delay, r.far_delay), (20.0, 40.0, 1, 2));
    assert_eq!(delay_for(&r, 0.0), 0);
    assert_eq!(delay_for(&r, 19.9), 0);
    assert_eq!(delay_for(&r, 20.0), 0, "within command distance");
    assert_eq!(delay_for(&r, 20.1), 1);
    assert_eq!(delay_for(&r, 39.9), 1);
    assert_eq!(delay_for(&r, 40.0), 1, "12-24 inches: up to twice command distance");
    assert_eq!(delay_for(&r, 40.1), 2);
    assert_eq!(delay_for(&r, 150.0), 2);
}

#[test]
fn apsof_within_12_inches_an_order_at_19_9_cm_takes_effect_at_once() {
    let mut b = ordering_at(19.9, &[Switch::OrderDelay], &[2, 3]);
    let plan = b.check_order(HQ0, &[0], false, false).expect("plan");
    assert_eq!(plan.delay, 0);
    assert!((plan.distance - 19.9).abs() < 1e-9);
    let ev = b.apply(&order(vec![0])).expect("order");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderDelayed { .. }))),
        "{ev:?}"
    );
    assert!(b.pending_orders().is_empty());
    b.apply(&forward(&b, 0, 5.0)).expect("it moves at once");
}

/// Give the order at `d` cm; check it is held with `delay`, refused again, and the unit idle.
fn held(d: f64, delay: u32) -> Battle {
    let mut b = ordering_at(d, &[Switch::OrderDelay], &[2, 3]);
    let plan = b.check_order(HQ0, &[0], false, false).expect("plan");
    assert_eq!(plan.delay, delay, "at {d} cm");
    let ev = b.apply(&order(vec![0])).expect("order");
    let text: Vec<String> = ev.iter().map(|e| volley::report::line(&b, e)).collect();
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::OrderDelay(OrderDelayEvent::OrderDelayed { delay: dl, due_game_turn, units, .. })
                if *dl == delay && *due_game_turn == 1 + delay && units == &vec![0]
        )),
        "{text:?}"
    );
    assert!(text.iter().any(|t| t.contains("is on its way")), "{text:?}");
    let p = &b.pending_orders()[0];
    assert_eq!((p.commander, p.units.clone(), p.credits), (HQ0, vec![0], 1));
    assert_eq!((p.given_player_turn, p.due_player_turn), (1, 1 + 2 * delay));
    assert!((p.distance - d).abs() < 1e-9);
    assert_eq!(b.pending_order_of(0).map(|p| p.delay), Some(delay));
    // While pending the unit counts as not ordered; a new order may replace the one on its
    // way ("the pending orders are removed"), but it does not order itself.
    let e = b.apply(&forward(&b, 0, 5.0)).unwrap_err();
    assert!(e.reason.contains("has not been issued an order"), "{e:?}");
    b.validate(&order(vec![0])).expect("a new order may replace it");
    let e = b.check_self_order(0).unwrap_err();
    assert_eq!(e.rule, RULE);
    assert!(e.reason.contains("awaiting"), "{e:?}");
    b
}

#[test]
fn apsof_12_to_24_inches_an_order_at_20_1_cm_waits_one_turn_and_arrives_without_dice() {
    let mut b = held(20.1, 1);
    let draws = b.dice.draws();
    // The opponent's turn: nothing arrives.
    let ev = walk_to_command(&mut b, 2);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderArrived { .. })))
    );
    assert_eq!(b.pending_orders().len(), 1);
    // The Union's next command phase: it arrives, with no die rolled.
    let ev = walk_to_command(&mut b, 3);
    assert_eq!(b.dice.draws(), draws, "no dice for the order's arrival");
    let arrived: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderArrived { .. })))
        .collect();
    assert_eq!(arrived.len(), 1, "{ev:?}");
    assert!(matches!(
        arrived[0],
        Event::OrderDelay(OrderDelayEvent::OrderArrived { commander: HQ0, units, credits: 1, given_game_turn: 1, lapsed })
            if units == &vec![0] && lapsed.is_empty()
    ));
    assert!(volley::report::line(&b, arrived[0]).contains("order of turn 1 reaches Union 0"));
    assert!(b.pending_orders().is_empty());
    assert!(b.legal_actions().contains(&forward(&b, 0, b.unit(0).move_rate())));
    b.apply(&forward(&b, 0, 5.0)).expect("acts on the order that arrived");
    let e = b.apply(&forward(&b, 0, 5.0)).unwrap_err();
    assert!(e.reason.contains("used the actions"), "one action: {e:?}");
}

#[test]
fn apsof_12_to_24_inches_an_order_at_39_9_cm_waits_one_turn() {
    let mut b = held(39.9, 1);
    walk_to_command(&mut b, 3);
    assert!(b.pending_orders().is_empty());
    b.apply(&forward(&b, 0, 5.0)).expect("arrived");
}

#[test]
fn apsof_beyond_24_inches_an_order_at_40_1_cm_waits_two_turns() {
    let mut b = held(40.1, 2);
    let ev = walk_to_command(&mut b, 3);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderArrived { .. }))),
        "not yet"
    );
    assert!(b.apply(&forward(&b, 0, 5.0)).is_err(), "still on its way");
    assert_eq!(b.pending_orders().len(), 1);
    let ev = walk_to_command(&mut b, 5);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderArrived { .. }))),
        "{ev:?}"
    );
    assert_eq!(b.game_turn, 3);
    b.apply(&forward(&b, 0, 5.0)).expect("arrived in game turn 3");
}

#[test]
fn the_command_roll_is_made_when_the_order_is_given_with_that_turns_modifiers() {
    // At 39.9 cm BPT's distance modifier is −1 (7 − 1 = 6): 3+4 = 7 fails at once.
    let mut b = ordering_at(39.9, &[Switch::OrderDelay], &[3, 4]);
    let ev = b.apply(&order(vec![0])).expect("order");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Command(CommandEvent::CommandRoll { target: 6, .. })))
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Command(CommandEvent::OrdersEnded { .. })))
    );
    assert!(b.pending_orders().is_empty(), "a failed order is not held");
}

#[test]
fn a_double_one_held_order_arrives_with_two_actions_and_may_charge() {
    let mut b = ordering_at(30.0, &[Switch::OrderDelay], &[1, 1]);
    b.apply(&order(vec![0])).expect("order");
    let p = &b.pending_orders()[0];
    assert_eq!((p.credits, p.may_charge, p.may_enter_dense), (2, true, true));
    walk_to_command(&mut b, 3);
    let o = &b.cmd.orders[&0];
    assert_eq!((o.credits, o.may_charge, o.may_enter_dense), (2, true, true));
    b.apply(&forward(&b, 0, 3.0)).expect("first action");
    b.apply(&forward(&b, 0, 3.0)).expect("second action");
}

#[test]
fn an_arrived_order_keeps_its_action_when_the_commander_orders_other_units() {
    let mut b = held(30.0, 1);
    walk_to_command(&mut b, 3);
    // The HQ now orders unit 1 (far too: it is held), and unit 0 still acts on its order.
    script(&mut b, &[2, 2, 3, 3, 3, 3]);
    assert!(hq_distance(&b, 1) > 40.0);
    let ev = b.apply(&order(vec![1])).expect("order to unit 1");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderDelayed { delay: 2, .. })))
    );
    b.apply(&forward(&b, 0, 5.0)).expect("the arrived order still stands");
}

/// Units that got an order, and units that let it lapse with why.
type Arrival = (Vec<u32>, Vec<(u32, Lapsed)>);

/// The `OrderArrived` of `ev`: its units and lapsed units.
fn arrival(ev: &[Event]) -> Option<Arrival> {
    ev.iter().find_map(|e| match e {
        Event::OrderDelay(OrderDelayEvent::OrderArrived { units, lapsed, .. }) => Some((units.clone(), lapsed.clone())),
        _ => None,
    })
}

#[test]
fn a_unit_suppressed_or_knocked_out_meanwhile_lets_the_order_lapse() {
    let mut b = ordering_at(30.0, &[Switch::OrderDelay], &[2, 3]);
    b.apply(&order(vec![0, 1]))
        .map(|_| ())
        .unwrap_or_else(|e| panic!("{e:?} at {} / {}", hq_distance(&b, 0), hq_distance(&b, 1)));
    let held: Vec<(Vec<u32>, u32)> = b.pending_orders().iter().map(|p| (p.units.clone(), p.delay)).collect();
    assert_eq!(held, vec![(vec![0], 1), (vec![1], 2)], "each unit by its own distance");
    walk_to_command(&mut b, 2);
    b.arranging().unit_mut(0).knocked_out = true;
    b.refresh_geometry();
    let ev = walk_to_command(&mut b, 3);
    assert_eq!(arrival(&ev), Some((vec![], vec![(0, Lapsed::KnockedOut)])));
    walk_to_command(&mut b, 4);
    b.arranging().unit_mut(1).suppressed = Some(volley::battle::state::Suppression {
        player_turn: 4,
        order_seq: 0,
    });
    let ev = walk_to_command(&mut b, 5);
    assert_eq!(arrival(&ev), Some((vec![], vec![(1, Lapsed::Suppressed)])));
    assert!(b.cmd.orders.is_empty());
    assert!(b.pending_orders().is_empty());
}

/// BPT "Engineering": "engineers may not be issued orders during the same turn in which they
/// carry out a task": an order on its way to engineers that worked in this turn's initiative
/// phase lapses when it arrives (**Decision**); the other unit of the order still got it.
#[test]
fn an_order_arriving_at_engineers_that_worked_this_turn_lapses() {
    let mut b = ordering_at(30.0, &[Switch::OrderDelay], &[2, 3]);
    b.apply(&order(vec![0, 1])).expect("a held order");
    let ev = walk_to_command(&mut b, 3);
    assert_eq!(arrival(&ev), Some((vec![0], vec![])), "unit 0, 30 cm away, one turn");
    walk_to_command(&mut b, 4);
    // Unit 1 carried out a task in the initiative phase of player turn 5.
    b.arranging().unit_mut(1).engineer_turn = Some(5);
    let ev = walk_to_command(&mut b, 5);
    assert_eq!(arrival(&ev), Some((vec![], vec![(1, Lapsed::EngineeringTask)])));
    assert!(!b.cmd.orders.contains_key(&1));
}

#[test]
fn with_the_variant_off_an_order_at_39_9_cm_takes_effect_at_once() {
    let mut b = ordering_at(39.9, &[], &[2, 3]);
    assert_eq!(b.check_order(HQ0, &[0], false, false).expect("plan").delay, 0);
    let ev = b.apply(&order(vec![0])).expect("order");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderDelayed { .. })))
    );
    assert!(b.pending_orders().is_empty());
    b.apply(&forward(&b, 0, 5.0)).expect("moves at once");
}

#[test]
fn the_scheduler_plays_skirmish_with_order_delay_to_the_end_and_the_recordings_verify() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
    let on: Switches = [Switch::OrderDelay].into_iter().collect();
    let (mut delayed, mut arrived) = (0, 0);
    for seed in [1, 2, 3] {
        let (b, _) = volley::load_battle_with(&path, seed, &on).expect("skirmish with order delay");
        assert!(b.rules.switches.on(Switch::OrderDelay));
        let mut rec = Recording::start(&b, &path.display().to_string(), seed, None);
        let mut a = [
            agents::by_name(SCHEDULER, seed, 0).unwrap(),
            agents::by_name(SCHEDULER, seed, 1).unwrap(),
        ];
        let done = volley::sim::play(b, &mut a, 200_000, |b, act, ev| {
            delayed += ev
                .iter()
                .filter(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderDelayed { .. })))
                .count();
            arrived += ev
                .iter()
                .filter(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderArrived { .. })))
                .count();
            rec.push(b, act, ev)
        })
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(done.is_over(), "seed {seed}");
        let back = Recording::parse(&rec.to_ron(), &path).expect("parses");
        assert_eq!(back.switches, on);
        let (_, h) = verify(&back, &path).unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        assert_eq!(h, done.state_hash());
    }
    assert!(delayed > 0 && arrived > 0, "delayed {delayed}, arrived {arrived}");
}

#[test]
fn the_demo_scenario_has_formations_at_the_three_distances() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/delay_demo.ron");
    let (b, _) = volley::load_battle(&path, 1).expect("the demo loads");
    assert!(b.rules.switches.on(Switch::OrderDelay));
    for side in 0..2 {
        let mut delays: Vec<u32> = b
            .commanders
            .iter()
            .filter(|c| c.side == side && !c.is_co())
            .map(|c| {
                let mine: Vec<u32> = b.side_units(side).filter(|u| u.hq == c.id).map(|u| u.id).collect();
                let far = mine
                    .iter()
                    .map(|&u| geometry::rects_distance(&[b.commander_rect(c)], b.rects(u)))
                    .fold(0.0, f64::max);
                b.order_delay(far)
            })
            .collect();
        delays.sort();
        assert_eq!(delays, vec![0, 1, 2], "side {side}");
    }
}

/// Item d: "Units within 12 inches of officers may execute commands the turn they are given
/// … further than 24 inches … must wait 2 turns": one roll, and each unit gets the order by
/// its own distance: unit 0 at 19.9 cm acts now, unit 1 (beyond 40 cm) two turns later.
#[test]
fn apsof_each_unit_waits_by_its_own_distance_from_the_officer() {
    let mut b = ordering_at(19.9, &[Switch::OrderDelay], &[1, 2]);
    assert!(hq_distance(&b, 1) > 40.0, "unit 1 at {}", hq_distance(&b, 1));
    let plan = b.check_order(HQ0, &[0, 1], false, false).expect("plan");
    assert_eq!((plan.delays.clone(), plan.delay), (vec![0, 2], 2));
    let draws = b.dice.draws();
    let ev = b.apply(&order(vec![0, 1])).expect("order");
    assert_eq!(b.dice.draws(), draws + 2, "one command roll for both");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::OrderDelay(OrderDelayEvent::OrderDelayed { units, delay: 2, due_game_turn: 3, .. }) if units == &vec![1]
    )));
    let held: Vec<Vec<u32>> = b.pending_orders().iter().map(|p| p.units.clone()).collect();
    assert_eq!(held, vec![vec![1]]);
    b.apply(&forward(&b, 0, 5.0))
        .expect("unit 0, within 12 inches, acts this turn");
    assert!(b.apply(&forward(&b, 1, 5.0)).is_err(), "unit 1 waits");
    let ev = walk_to_command(&mut b, 5);
    assert_eq!(arrival(&ev), Some((vec![1], vec![])));
    b.apply(&forward(&b, 1, 5.0)).expect("unit 1's order arrived");
}

/// Item c, seeds/002 "Sequence of Play": "If the new orders override any pending orders, the
/// pending orders are removed": a new order, passed, replaces the one on its way. Two turns
/// later the HQ is within 12 inches (10 cm): the new order acts at once, the old never arrives.
#[test]
fn apsof_a_new_order_replaces_the_pending_order() {
    let mut b = held(40.1, 2);
    walk_to_command(&mut b, 3);
    assert_eq!(b.pending_orders().len(), 1, "still on its way");
    place_hq(&mut b, 10.0);
    script(&mut b, &[2, 3]);
    let ev = b.apply(&order(vec![0])).expect("a new order");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::OrderDelay(OrderDelayEvent::OrderReplaced { commander: HQ0, units, given_game_turn: 1, by: HQ0 }) if units == &vec![0]
    )));
    let line = ev
        .iter()
        .find(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderReplaced { .. })))
        .map(|e| volley::report::line(&b, e))
        .unwrap();
    assert!(line.contains("order of turn 1") && line.contains("removed"), "{line}");
    assert!(b.pending_orders().is_empty(), "the pending order is removed");
    b.apply(&forward(&b, 0, 5.0)).expect("the new order, at once");
    let ev = walk_to_command(&mut b, 5);
    assert_eq!(arrival(&ev), None, "the old order never arrives");
}

/// Item c in one command phase: a second order to a unit whose order is on its way is a
/// successive order (BPT "Command Modifiers" note 1: −1; at 30 cm −1 for distance: 7 − 2 = 5),
/// and replaces it; a failed one leaves the order on its way as it was (**Decision**).
#[test]
fn a_second_order_in_the_turn_is_successive_and_replaces_the_held_one() {
    let mut b = held(30.0, 1);
    script(&mut b, &[2, 3]);
    let ev = b.apply(&order(vec![0])).expect("again");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Command(CommandEvent::CommandRoll { target: 5, .. }))),
        "{ev:?}"
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderReplaced { .. })))
    );
    assert_eq!(b.pending_orders().len(), 1, "the new order is on its way instead");
    assert_eq!(b.cmd.held[&0], 2);
    // A third order, at 7 − 2 − 1 = 4, fails with 6+5: the held one stays.
    script(&mut b, &[6, 5]);
    let ev = b.apply(&order(vec![0])).expect("a third");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Command(CommandEvent::CommandRoll { target: 4, .. }))),
        "{ev:?}"
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderReplaced { .. })))
    );
    assert_eq!(b.pending_orders().len(), 1);
    walk_to_command(&mut b, 3);
    b.apply(&forward(&b, 0, 5.0)).expect("the second order arrived");
}

/// Item a, BPT "Scouting Cavalry": "After passing an initial command roll they may move as
/// the player wishes without further orders": a scout whose passed order arrives a turn later
/// is freed then, as one ordered at once.
#[test]
fn a_delayed_order_frees_a_scout_when_it_arrives() {
    let mut b = ordering_at(30.0, &[Switch::OrderDelay, Switch::Scouting], &[2, 3]);
    b.arranging().unit_mut(0).scout = true;
    b.apply(&order(vec![0])).expect("held");
    assert!(!b.unit(0).scout_free, "not before it arrives");
    let ev = walk_to_command(&mut b, 3);
    assert_eq!(arrival(&ev), Some((vec![0], vec![])));
    assert!(b.unit(0).scout_free, "freed by the order that arrived");
    assert_eq!(b.cmd.orders[&0].by, HQ0, "it acts on the arrived order this turn");
    let ev = walk_to_command(&mut b, 5);
    assert!(
        ev.contains(&Event::Scouting(ScoutingEvent::ScoutFree { unit: 0 })),
        "{ev:?}"
    );
    b.apply(&forward(&b, 0, 5.0)).expect("moves as the player wishes");
}

/// Item b, BPT "Fixed Formations": the attachment is the CO's order to the unit ("make a
/// command roll as normal"); under the order delay it reaches a unit 20–40 cm from the CO a
/// turn later, and the unit joins the HQ's formation only then.
#[test]
fn an_attachment_waits_for_the_order_like_any_unit() {
    let mut b = delay_battle(&[Switch::OrderDelay, Switch::FixedFormations]);
    b.arranging().unit_mut(0).hq = CO0;
    walk_to_command(&mut b, 1);
    let x = b.unit(0).pose.pos.x;
    b.arranging().commanders[CO0 as usize].pos = V2::new(x, 50.0);
    b.arranging().commanders[HQ0 as usize].pos = V2::new(x - 20.0, 45.0);
    let co = geometry::rects_distance(&[b.commander_rect(b.commander(CO0))], b.rects(0));
    assert!(co > 20.0 && co <= 40.0, "CO {co} cm from the unit");
    let before = b.unit(0).pose;
    let plan = b.check_attach(0, HQ0).expect("attach");
    script(&mut b, &[1, 1]);
    let ev = b.apply(&Action::Attach { unit: 0, hq: HQ0 }).expect("legal");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Formations(FormationsEvent::Attached { .. }))),
        "{ev:?}"
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::OrderDelay(OrderDelayEvent::OrderDelayed {
            commander: CO0,
            delay: 1,
            ..
        })
    )));
    assert_eq!((b.unit(0).pose, b.unit(0).hq), (before, CO0), "not moved at once");
    let ev = walk_to_command(&mut b, 3);
    assert!(
        ev.contains(&Event::Formations(FormationsEvent::Attached {
            unit: 0,
            co: CO0,
            hq: HQ0
        })),
        "{ev:?}"
    );
    assert_eq!(b.unit(0).hq, HQ0);
    assert_eq!(b.unit(0).pose, plan.to);
    let hq = b.commander_rect(b.commander(HQ0));
    assert!(geometry::rects_distance(&[hq], b.rects(0)) <= 10.0);
    assert!(b.cmd.orders[&0].finished, "no further orders that turn");
    assert!(b.check_order(HQ0, &[0], false, false).is_err());
}

/// Item e: the order waits game turns (the side's own turns), not player turns.
#[test]
fn the_wording_says_game_turns() {
    let mut b = ordering_at(30.0, &[Switch::OrderDelay], &[2, 3]);
    let ev = b.apply(&order(vec![0])).expect("held");
    let line = ev
        .iter()
        .find(|e| matches!(e, Event::OrderDelay(OrderDelayEvent::OrderDelayed { .. })))
        .map(|e| volley::report::line(&b, e))
        .unwrap();
    assert!(line.contains("1 game turn later, in turn 2"), "{line}");
    let summary = Switch::OrderDelay.summary();
    assert!(
        summary.contains("a game turn later") && !summary.contains("player turn"),
        "{summary}"
    );
}
