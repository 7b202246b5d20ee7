//! BPT "Command Phase" rules without a test elsewhere: opportunity fire, one commander a turn,
//! the chain of command, command movement, self-orders, command presence, overrun,
//! replacement, the blunder table.

use super::common::*;
use volley::battle::event::families::*;
use volley::battle::event::{Event, KnockOut};
use volley::battle::fire::FireContext;
use volley::battle::state::{Phase, Step};
use volley::battle::{Action, Battle, Deploy};
use volley::rules::formation::Formation;
use volley::rules::geometry::{Pose, V2};
use volley::rules::params::BlunderEffect;

const RIFLES: &str = "regular_infantry_rifled";
/// Commander ids of side 1 (see common.rs).
const HQ1: u32 = 3;

fn order(b: &mut Battle, commander: u32, units: &[u32]) -> Vec<Event> {
    b.apply(&Action::Order {
        commander,
        units: units.to_vec(),
        charge: false,
        dense: false,
        road: false,
    })
    .expect("a legal order")
}

fn move_to(b: &mut Battle, unit: u32, x: f64, y: f64) -> Vec<Event> {
    let facing = b.unit(unit).pose.facing;
    b.apply(&Action::Move {
        unit,
        to: Pose::new(V2::new(x, y), facing),
    })
    .expect("a legal move")
}

fn end_phase(b: &mut Battle) -> Vec<Event> {
    b.apply(&Action::EndPhase).expect("the phase ends")
}

fn orders_ended(ev: &[Event]) -> bool {
    ev.iter()
        .any(|e| matches!(e, Event::Command(CommandEvent::OrdersEnded { .. })))
}

/// Union line (id 0) facing north at (100, 50); two Confederate lines (ids 1, 2) facing it,
/// 12 cm of open ground between the fronts; the Union HQ 4 cm off the unit (not touching).
pub(super) fn opportunity() -> Battle {
    let mut b = battle_with(
        &[
            u(0, RIFLES, 4, 100.0, 50.0, 90.0),
            u(1, RIFLES, 4, 100.0, 63.5, 270.0),
            u(1, RIFLES, 4, 111.0, 63.5, 270.0),
        ],
        Default::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(90.0, 45.0), (200.0, 175.0)],
    );
    to_command(&mut b);
    b
}

#[test]
fn opportunity_fire_follows_a_move_in_sight_and_each_unit_fires_once_a_turn() {
    // BPT "Opportunity Fire": each unsuppressed unit may fire once at an enemy unit that
    // moved or fired within line of sight.
    let mut b = opportunity();
    // Order (2+2 ≤ 7), advance 2.1 cm: 9.9 cm from the Confederate fronts.
    script(&mut b, &[2, 2, 1, 1, 1, 1, 1, 1, 2]);
    order(&mut b, HQ0, &[0]);
    move_to(&mut b, 0, 100.0, 52.1);
    match &b.step {
        Step::Reaction { mover, eligible } => {
            assert_eq!(*mover, 0);
            assert_eq!(eligible, &vec![1, 2]);
        }
        s => panic!("expected the opportunity fire window, got {s:?}"),
    }
    assert_eq!(b.actor(), 1, "the inactive player decides");
    // The active player may not go on while the window is open.
    assert!(b.apply(&Action::EndPhase).is_err());
    // Unit 1: 4 stands + 1 within half range = 5 dice, all missing.
    let ev = b
        .apply(&Action::OpportunityFire {
            unit: 1,
            target: 0,
            with: vec![],
        })
        .unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Fire(FireEvent::Fired { target: 0, context, dice: 5, hits: 0, .. }) if volley::report::fire::cause_words(*context) == "opportunity fire"
    )));
    // "Roll all the attacks together": the fire at the mover is made; unit 2, which did not
    // join it, may not add its own.
    assert_eq!(b.step, Step::Open);
    // A second order (1+2 ≤ 6) and move: only unit 2, which has not fired, may fire now.
    order(&mut b, HQ0, &[0]);
    move_to(&mut b, 0, 100.0, 54.0);
    assert!(
        matches!(&b.step, Step::Reaction { eligible, .. } if eligible == &vec![2]),
        "{:?}",
        b.step
    );
    assert!(
        b.apply(&Action::OpportunityFire {
            unit: 1,
            target: 0,
            with: vec![]
        })
        .is_err(),
        "one opportunity fire a unit a turn"
    );
    assert_eq!(b.dice.remaining_scripted(), Some(0));
}

#[test]
fn units_firing_at_one_target_roll_their_attacks_together() {
    // BPT "Opportunity Fire": "When firing multiple units at a single target, roll all the
    // attacks together." Both Confederate lines may fire at the Union line that moved; together
    // they are one fire: each unit's dice at its own score, the hits after saves added, and one
    // suppression test, a die per hit.
    let mut b = opportunity();
    script(&mut b, &[2, 2]);
    order(&mut b, HQ0, &[0]);
    move_to(&mut b, 0, 100.0, 52.1);
    let volley = Action::OpportunityFire {
        unit: 1,
        target: 0,
        with: vec![2],
    };
    assert!(b.legal_actions().contains(&volley), "{:?}", b.legal_actions());
    let dice: Vec<u32> = [1, 2]
        .iter()
        .map(|&f| b.check_fire(f, 0, FireContext::Opportunity).unwrap().dice)
        .collect();
    // Each unit lands one hit (a 6, the rest 1s); the suppression test's two dice are 1s.
    let mut faces = Vec::new();
    for d in &dice {
        faces.push(6);
        faces.extend(vec![1; *d as usize - 1]);
    }
    faces.extend([1, 1]);
    script(&mut b, &faces);
    let ev = b.apply(&volley).unwrap();
    let fired: Vec<u32> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Fire(FireEvent::Fired { hits, context, .. })
                if volley::report::fire::cause_words(*context) == "opportunity fire: rolled together" =>
            {
                Some(*hits)
            }
            _ => None,
        })
        .collect();
    assert_eq!(fired, vec![1, 1]);
    let tests: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Morale(MoraleEvent::SuppressionTest { rolls, .. }) => Some(rolls.len()),
            _ => None,
        })
        .collect();
    assert_eq!(tests, vec![2], "one test for the two hits together");
    assert!(!b.unit(0).suppressed());
    assert_eq!(b.dice.remaining_scripted(), Some(0));
    assert_eq!(b.step, Step::Open);
    assert!(b.unit(1).opportunity_turn.is_some() && b.unit(2).opportunity_turn.is_some());
}

#[test]
fn opportunity_fire_follows_an_ordered_fire_but_not_a_deploy() {
    // "A unit may not open fire at a unit that did not move or fire"; units that use
    // opportunity fire against a unit that fires fire immediately after it.
    let mut b = opportunity();
    // Double one: two actions. Deploy into extended line, then fire: 4 − 1 (extended line
    // firer) = 3 dice (12 cm: beyond half range), all missing.
    script(&mut b, &[1, 1, 1, 1, 1]);
    order(&mut b, HQ0, &[0]);
    b.apply(&Action::Deploy {
        unit: 0,
        deploy: Deploy::Formation(Formation::ExtendedLine),
    })
    .unwrap();
    assert_eq!(b.step, Step::Open, "a deploy opens no opportunity fire");
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Fire(FireEvent::Fired { target: 1, dice: 3, .. })))
    );
    assert!(
        matches!(&b.step, Step::Reaction { mover: 0, eligible } if eligible.contains(&1)),
        "{:?}",
        b.step
    );
}

#[test]
fn units_that_made_opportunity_fire_may_not_use_initiative_next_turn_and_order_at_minus_one_all_turn() {
    // BPT "Opportunity Fire": "Units carrying out opportunity fire may not use their initiative
    // next turn and will be subject to a -1 command penalty".
    let mut b = opportunity();
    script(&mut b, &[2, 2, 1, 1, 1, 1, 1]);
    order(&mut b, HQ0, &[0]);
    move_to(&mut b, 0, 100.0, 52.1);
    b.apply(&Action::OpportunityFire {
        unit: 1,
        target: 0,
        with: vec![],
    })
    .unwrap();
    end_phase(&mut b); // charge and end phases; the Confederate turn starts
    assert_eq!((b.active, b.phase), (1, Phase::Initiative));
    let r = b.check_initiative(1).unwrap_err();
    assert!(r.reason.contains("opportunity fire"), "{r}");
    assert!(
        b.check_initiative(2).is_ok(),
        "unit 2 did not fire: it may use its initiative"
    );
    end_phase(&mut b);
    let opp = |b: &Battle, id: u32| {
        b.check_order(HQ1, &[id], false, false)
            .unwrap()
            .modifiers
            .iter()
            .filter(|m| volley::report::words::rule_words(m.rule).contains("Opportunity Fire"))
            .map(|m| m.amount)
            .sum::<i32>()
    };
    assert_eq!(opp(&b, 1), -1);
    assert_eq!(opp(&b, 2), 0);
    // "for the duration of their next turn": the second order too, beside the successive −1.
    script(&mut b, &[1, 1]);
    order(&mut b, HQ1, &[1]);
    assert_eq!(opp(&b, 1), -1, "still −1 on its second order");
    let m = b.check_order(HQ1, &[1], false, false).unwrap().modifiers;
    assert!(
        m.iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("successive") && m.amount == -1),
        "{m:?}"
    );
}

/// Two Union lines (ids 0, 1) next to their HQ; a Confederate line far away.
fn two_units() -> Battle {
    let mut b = battle_with(
        &[
            u(0, RIFLES, 4, 100.0, 50.0, 90.0),
            u(0, RIFLES, 4, 115.0, 50.0, 90.0),
            u(1, RIFLES, 4, 100.0, 170.0, 270.0),
        ],
        Default::default(),
        [(100.0, 40.0), (220.0, 175.0)],
        [(107.5, 44.0), (200.0, 175.0)],
    );
    to_command(&mut b);
    b
}

#[test]
fn a_unit_takes_orders_from_one_commander_a_turn_and_once_passed_over_gets_no_more() {
    // BPT "Command Phase": "A unit may only receive orders from one command unit in a turn ...
    // Once you stop issuing orders to a unit, it may not be issued orders again that turn."
    let mut b = two_units();
    assert!(b.check_order(CO0, &[0], false, false).is_ok(), "the CO could order it");
    script(&mut b, &[2, 2, 2, 2]);
    order(&mut b, HQ0, &[0]);
    let r = b.check_order(CO0, &[0], false, false).unwrap_err();
    assert!(r.reason.contains("another commander"), "{r}");
    assert!(
        b.check_order(HQ0, &[0], false, false).is_ok(),
        "its own commander may go on"
    );
    order(&mut b, HQ0, &[1]);
    let r = b.check_order(HQ0, &[0], false, false).unwrap_err();
    assert!(r.reason.contains("stopped receiving orders"), "{r}");
    assert!(b.check_order(HQ0, &[1], false, false).is_ok());
}

#[test]
fn a_commander_orders_only_units_of_its_own_chain_of_command() {
    // Decision: a commander orders units whose HQ is itself or one of its subordinates.
    let mut b = two_units();
    assert!(b.check_order(HQ0, &[0], false, false).is_ok());
    // Put unit 0 directly under the CO: the brigade HQ is not above it any more.
    b.arranging().unit_mut(0).hq = CO0;
    let r = b.check_order(HQ0, &[0], false, false).unwrap_err();
    assert!(r.reason.contains("is not under"), "{r}");
    assert!(b.check_order(CO0, &[0], false, false).is_ok());
    // Nor does a commander order the other side's units.
    let r = b.check_order(HQ0, &[2], false, false).unwrap_err();
    assert!(r.reason.contains("not a unit of this command"), "{r}");
}

#[test]
fn a_commander_moves_once_up_to_its_move_and_then_issues_no_more_orders() {
    // BPT "Command Movement": each command unit may move up to its full move distance
    // (brigade HQ mounted: 30 cm), once; it then orders no more this turn.
    let mut b = two_units();
    let too_far = Action::CommanderMove {
        commander: HQ0,
        to: V2::new(107.5, 44.0 - 30.2),
    };
    assert!(b.apply(&too_far).unwrap_err().reason.contains("at most 30"));
    let ev = b
        .apply(&Action::CommanderMove {
            commander: HQ0,
            to: V2::new(107.5, 14.0),
        })
        .expect("30 cm is its move");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Command(CommandEvent::CommanderMoved { commander: HQ0, .. })))
    );
    assert_eq!(b.commander(HQ0).pos, V2::new(107.5, 14.0));
    let r = b.check_order(HQ0, &[0], false, false).unwrap_err();
    assert!(r.reason.contains("no further orders"), "{r}");
    let again = Action::CommanderMove {
        commander: HQ0,
        to: V2::new(107.5, 20.0),
    };
    assert!(b.apply(&again).unwrap_err().reason.contains("moves once"));
    // The CO's orders are not affected by the HQ's move.
    assert!(b.check_order(CO0, &[0], false, false).is_ok());
}

#[test]
fn a_commander_touching_a_unit_that_is_suppressed_is_suppressed_and_then_neither_orders_nor_moves() {
    // BPT "Command Presence": the commander touching a unit that is attacked suffers the
    // results; "Command Movement": unless it is suppressed; "Suppression": suppressed commands
    // may not issue any orders.
    // Union line at (100, 50): its command stand's rear edge is at y = 47.75; the HQ (2 cm
    // across) touches it from behind. Confederates 8.5 cm off the front.
    let mut b = battle_with(
        &[
            u(0, RIFLES, 4, 100.0, 50.0, 90.0),
            u(0, RIFLES, 4, 120.0, 50.0, 90.0),
            u(1, RIFLES, 4, 100.0, 60.0, 270.0),
        ],
        Default::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(100.0, 46.55), (200.0, 175.0)],
    );
    to_command(&mut b);
    assert_eq!(b.touching_commander(0), Some(HQ0));
    // Order 2+2; Union fire 6 dice (4 + half range + command presence), all miss; the
    // Confederates fire back at once (opportunity fire): 5 dice, 2 hits; suppression dice 4 1.
    script(&mut b, &[2, 2, 1, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 4, 1]);
    order(&mut b, HQ0, &[0]);
    b.apply(&Action::Fire { unit: 0, target: 2 }).unwrap();
    let ev = b
        .apply(&Action::OpportunityFire {
            unit: 2,
            target: 0,
            with: vec![],
        })
        .unwrap();
    assert!(b.unit(0).suppressed());
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Command(CommandEvent::CommanderSuppressed { commander: HQ0 })))
    );
    assert!(b.commander(HQ0).suppressed.is_some());
    let r = b.check_order(HQ0, &[1], false, false).unwrap_err();
    assert!(r.reason.contains("suppressed"), "{r}");
    let r = b
        .apply(&Action::CommanderMove {
            commander: HQ0,
            to: V2::new(100.0, 40.0),
        })
        .unwrap_err();
    assert!(r.reason.contains("suppressed"), "{r}");
    // The CO, not touching, still orders.
    assert!(b.check_order(CO0, &[1], false, false).is_ok());
}

#[test]
fn command_presence_adds_the_attack_bonus_to_a_touching_units_fire() {
    // BPT "Command Presence": brigade HQ average adds 1 die. Duel at 8.5 cm: 4 + 1 half range.
    let mut b = battle_with(
        &[u(0, RIFLES, 4, 100.0, 50.0, 90.0), u(1, RIFLES, 4, 100.0, 60.0, 270.0)],
        Default::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(100.0, 46.55), (200.0, 175.0)],
    );
    let p = b.fire_plan(0, 1, FireContext::Order);
    assert_eq!(p.dice, 6);
    assert!(
        p.modifiers
            .iter()
            .any(|m| volley::report::words::rule_words(m.rule).contains("Command Presence") && m.amount == 1)
    );
    // Two cm further back it no longer touches.
    b.arranging().commanders[HQ0 as usize].pos = V2::new(100.0, 44.55);
    b.refresh_geometry();
    assert_eq!(b.fire_plan(0, 1, FireContext::Order).dice, 5);
}

#[test]
fn a_commander_touching_a_unit_that_is_knocked_out_is_knocked_out_with_it() {
    // Confederate 2-stand line (hits value 6) with 3 hits already; its HQ touches its rear.
    let mut b = battle_with(
        &[u(0, RIFLES, 4, 100.0, 50.0, 90.0), u(1, RIFLES, 2, 100.0, 60.0, 270.0)],
        Default::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (100.0, 63.45)],
    );
    to_command(&mut b);
    assert_eq!(b.touching_commander(1), Some(HQ1));
    b.arranging().cmd.orders.insert(0, super::fire::order(HQ0));
    b.arranging().unit_mut(1).hits = 3;
    script(&mut b, &[6, 6, 6, 1, 1]);
    let ev = b.apply(&Action::Fire { unit: 0, target: 1 }).unwrap();
    assert!(!b.unit(1).alive());
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Command(CommandEvent::CommanderKnockedOut {
            commander: HQ1,
            why: KnockOut::WithOther
        })
    )));
    assert!(!b.commander(HQ1).alive());
    assert!(b.commander(CO0 + 2).alive(), "the Confederate CO was not touching");
}

/// Union line advancing 10 cm onto the Confederate HQ standing at (100, 58); a Confederate
/// line with its front edge at `friend_front`.
fn overrun(friend_front: f64) -> (Battle, Vec<Event>) {
    let mut b = battle_with(
        &[
            u(0, RIFLES, 4, 100.0, 50.0, 90.0),
            u(1, RIFLES, 4, 100.0, friend_front + 0.75, 270.0),
        ],
        Default::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(90.0, 45.0), (100.0, 58.0)],
    );
    to_command(&mut b);
    script(&mut b, &[2, 2]);
    order(&mut b, HQ0, &[0]);
    let ev = move_to(&mut b, 0, 100.0, 60.0);
    (b, ev)
}

#[test]
fn an_overrun_commander_joins_a_friend_within_half_its_move_or_is_knocked_out() {
    // BPT "Command Units": "When overrun by an enemy unit, a command unit must join a friendly
    // unit within half its move distance, otherwise it is knocked-out." Mounted HQ: 30 → 15 cm.
    // The HQ's base reaches y = 59; a friend 12.25 cm away (front edge at 71.25).
    let (b, ev) = overrun(71.25);
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Command(CommandEvent::CommanderJoined {
                commander: HQ1,
                unit: 1
            })
        )),
        "{ev:#?}"
    );
    assert!(b.commander(HQ1).alive());
    assert_eq!(b.touching_commander(1), Some(HQ1), "it stands touching the friend");
    // A friend 15.25 cm away is beyond half its move.
    let (b, ev) = overrun(74.25);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Command(CommandEvent::CommanderKnockedOut {
            commander: HQ1,
            why: KnockOut::Overrun
        })
    )));
    assert!(!b.commander(HQ1).alive());
}

/// Isolated Union lines facing south, far from both their commanders (HQ at (40, 5)).
fn isolated() -> Battle {
    let mut b = battle(&[
        u(0, RIFLES, 4, 100.0, 100.0, 270.0),
        u(0, RIFLES, 4, 140.0, 100.0, 270.0),
        u(0, RIFLES, 4, 40.0, 40.0, 270.0),
        u(1, RIFLES, 4, 200.0, 170.0, 270.0),
    ]);
    to_command(&mut b);
    b
}

#[test]
fn isolated_units_order_themselves_against_seven_only_to_move_towards_their_commander() {
    // BPT "Command Phase": units completely out of contact may make a single command to
    // themselves every second turn, only to move to the nearest command unit in their chain.
    // Decision: out of contact = no friendly commander within 40 cm; the roll is against 7.
    let mut b = isolated();
    let r = b.check_self_order(2).unwrap_err();
    assert!(r.reason.contains("out of contact"), "33 cm from its HQ: {r}");
    assert_eq!(b.check_self_order(0), Ok(HQ0));
    script(&mut b, &[3, 4, 4, 4]);
    let ev = b.apply(&Action::SelfOrder { unit: 0 }).unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Command(CommandEvent::SelfOrderRoll {
            unit: 0,
            target: 7,
            success: true,
            ..
        })
    )));
    // Away from the HQ (a retire: 2.5 + 7.5 = 10 cm of movement) is refused by the self-order.
    let away = Action::Move {
        unit: 0,
        to: Pose::new(V2::new(100.0, 102.5), b.unit(0).pose.facing),
    };
    let r = b.apply(&away).unwrap_err();
    assert!(r.reason.contains("towards the nearest commander"), "{r}");
    move_to(&mut b, 0, 100.0, 90.0);
    // 4 + 4 = 8 > 7: unit 1 fails and may not move.
    let ev = b.apply(&Action::SelfOrder { unit: 1 }).unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Command(CommandEvent::SelfOrderRoll {
            unit: 1,
            success: false,
            ..
        })
    )));
    let mv = Action::Move {
        unit: 1,
        to: Pose::new(V2::new(140.0, 95.0), b.unit(1).pose.facing),
    };
    assert!(b.apply(&mv).is_err());
    // Every second turn: not in game turn 2, again in game turn 3.
    for _ in 0..4 {
        end_phase(&mut b);
    }
    assert_eq!((b.active, b.game_turn, b.phase), (0, 2, Phase::Command));
    let r = b.check_self_order(0).unwrap_err();
    assert!(r.reason.contains("every second turn"), "{r}");
    for _ in 0..4 {
        end_phase(&mut b);
    }
    assert_eq!(b.game_turn, 3);
    assert!(b.check_self_order(0).is_ok());
}

#[test]
fn a_knocked_out_commander_is_replaced_next_turn_one_worse_and_cannot_order_or_move_that_turn() {
    // BPT "Replacing a Command Unit". The HQ is knocked out by its own blunder: 6 6, then
    // d6 = 1: CEASE FIRING! the command unit takes d6 = 6 attacks, hit on 6 (BPT "Scoring Hits":
    // command units on 6); six hits, saves (6+) all fail: 6 hits = its hits value.
    let mut b = two_units();
    script(&mut b, &[6, 6, 1, 6, 6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1]);
    let ev = order_any(&mut b, HQ0, &[0]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Command(CommandEvent::Blunder {
            roll: 1,
            effect: BlunderEffect::CeaseFiring,
            ..
        })
    )));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Command(CommandEvent::CommanderAttacked {
            commander: HQ0,
            dice: 6,
            hits: 6,
            knocked_out: true,
            ..
        })
    )));
    assert!(!b.commander(HQ0).alive());
    // The Confederate turn: not yet.
    end_phase(&mut b);
    assert_eq!(b.active, 1);
    assert!(!b.commander(HQ0).alive());
    end_phase(&mut b);
    let ev = end_phase(&mut b);
    assert_eq!((b.active, b.player_turn), (0, 3));
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Command(CommandEvent::CommanderReplaced {
                commander: HQ0,
                command_value: 6,
                ..
            })
        )),
        "{ev:#?}"
    );
    assert!(b.commander(HQ0).alive());
    // Beside its command.
    let c = b.commander(HQ0);
    let d = volley::rules::geometry::rects_distance(&[b.commander_rect(c)], b.rects(0));
    assert!(d <= 0.5, "{d}");
    end_phase(&mut b);
    assert_eq!(b.phase, Phase::Command);
    let r = b.check_order(HQ0, &[0], false, false).unwrap_err();
    assert!(r.reason.contains("replacement"), "{r}");
    let r = b
        .apply(&Action::CommanderMove {
            commander: HQ0,
            to: V2::new(100.0, 30.0),
        })
        .unwrap_err();
    assert!(r.reason.contains("replacement"), "{r}");
    // Its next turn: it orders, at 7 − 1 = 6.
    for _ in 0..4 {
        end_phase(&mut b);
    }
    assert_eq!((b.active, b.phase, b.player_turn), (0, Phase::Command, 5));
    assert_eq!(b.check_order(HQ0, &[0], false, false).unwrap().value, 6);
    // Replaced only once: knocked out again, it stays out.
    script(&mut b, &[6, 6, 1, 6, 6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1]);
    order_any(&mut b, HQ0, &[0]);
    assert!(!b.commander(HQ0).alive());
    for _ in 0..4 {
        end_phase(&mut b);
    }
    assert_eq!(b.player_turn, 7);
    assert!(!b.commander(HQ0).alive(), "a command unit can only be replaced once");
}

fn order_any(b: &mut Battle, commander: u32, units: &[u32]) -> Vec<Event> {
    order(b, commander, units)
}

/// Union lines 0, 1, 2, 3 at x = 100, 115, 130, 160 (y = 50, facing north), the HQ at
/// (90, 44); a Confederate line facing them with its front edge `gap` cm from theirs.
fn blunder(gap: f64, effect_roll: u32) -> (Battle, Vec<Event>, Vec<u32>) {
    let mut b = battle_with(
        &[
            u(0, RIFLES, 4, 100.0, 50.0, 90.0),
            u(0, RIFLES, 4, 115.0, 50.0, 90.0),
            u(0, RIFLES, 4, 130.0, 50.0, 90.0),
            u(0, RIFLES, 4, 160.0, 50.0, 90.0),
            u(1, RIFLES, 4, 100.0, 50.75 + gap + 0.75, 270.0),
        ],
        Default::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(90.0, 44.0), (200.0, 175.0)],
    );
    to_command(&mut b);
    let mut faces = vec![6, 6, effect_roll];
    faces.extend([1; 12]);
    script(&mut b, &faces);
    let ev = order(&mut b, HQ0, &[0, 1]);
    assert!(orders_ended(&ev), "a blunder fails the order");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Command(CommandEvent::Blunder { roll, .. }) if *roll == effect_roll))
    );
    let left = b.dice.remaining_scripted().unwrap();
    let used: Vec<u32> = faces[3..faces.len() - left].to_vec();
    (b, ev, used)
}

#[test]
fn blunder_two_cross_fire_hits_the_three_units_nearest_the_commander_in_the_flank() {
    // BPT "Command Blunder" 2: the three units nearest the command unit each take 3 attacks in
    // the flank from firing.
    let (_, ev, used) = blunder(40.0, 2);
    let shots: Vec<(u32, u32)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Fire(FireEvent::Fired {
                target,
                dice,
                context,
                aspect,
                ..
            }) if volley::report::fire::cause_words(*context) == "blunder: cross-fire" => {
                assert_eq!(*aspect, volley::rules::geometry::Aspect::Flank);
                Some((*target, *dice))
            }
            _ => None,
        })
        .collect();
    assert_eq!(shots, vec![(0, 3), (1, 3), (2, 3)]);
    assert_eq!(used.len(), 9);
}

#[test]
fn blunder_four_pull_back_moves_the_ordered_units_half_a_move_away_from_the_nearest_enemy() {
    // Confederates 18 cm off: units 0 and 1 (ordered) go back 5 cm (half of 10); 2 and 3 stay.
    let (b, _, _) = blunder(18.0, 4);
    assert!((b.unit(0).pose.pos.y - 45.0).abs() < 1e-6, "{:?}", b.unit(0).pose);
    assert!((b.unit(1).pose.pos.dist(V2::new(115.0, 50.0)) - 5.0).abs() < 1e-6);
    let enemy = b.unit(4).pose.pos;
    assert!(b.unit(1).pose.pos.dist(enemy) > V2::new(115.0, 50.0).dist(enemy) + 4.0);
    assert_eq!(b.unit(2).pose.pos, V2::new(130.0, 50.0));
    assert_eq!(b.unit(3).pose.pos, V2::new(160.0, 50.0));
}

#[test]
fn blunder_five_open_fire_makes_the_ordered_units_fire_at_the_nearest_enemy() {
    // 10.5 cm: beyond half range: 4 dice each (first fire: +1 to the roll). Units 0 and 1 fire.
    let (_, ev, _) = blunder(10.5, 5);
    let firers: Vec<(Vec<u32>, u32, u32)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Fire(FireEvent::Fired {
                firers,
                target,
                dice,
                context,
                ..
            }) if volley::report::fire::cause_words(*context) == "blunder: open fire" => {
                Some((firers.clone(), *target, *dice))
            }
            _ => None,
        })
        .collect();
    assert_eq!(firers[0], (vec![0], 4, 4));
    assert!(firers.iter().all(|f| f.0 != vec![2] && f.0 != vec![3]));
}

#[test]
fn blunder_six_lets_get_em_moves_the_ordered_units_half_a_move_towards_the_nearest_enemy() {
    let (b, _, _) = blunder(18.0, 6);
    assert!((b.unit(0).pose.pos.y - 55.0).abs() < 1e-6, "{:?}", b.unit(0).pose);
    assert_eq!(b.unit(2).pose.pos, V2::new(130.0, 50.0));
}

#[test]
fn a_unit_moving_through_an_enemy_commander_overruns_it() {
    // BPT "Movement": "when moving through an enemy command unit, there is a chance the command
    // unit may be overrun". The Confederate HQ stands at (100, 55), in the path of a 10 cm
    // advance from y 50 to 60 that ends beyond it; no friend of the HQ within 15 cm.
    let mut b = battle_with(
        &[u(0, RIFLES, 4, 100.0, 50.0, 90.0), u(1, RIFLES, 4, 200.0, 150.0, 270.0)],
        Default::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(90.0, 45.0), (100.0, 55.0)],
    );
    to_command(&mut b);
    script(&mut b, &[2, 2]);
    order(&mut b, HQ0, &[0]);
    // At y 60 the line and its command stand cover y 57.75–60.75, clear of the HQ (y 54–56):
    // only passing through it overruns it.
    let ev = move_to(&mut b, 0, 100.0, 60.0);
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Command(CommandEvent::CommanderKnockedOut {
                commander: HQ1,
                why: KnockOut::Overrun
            })
        )),
        "{ev:#?}"
    );
}
