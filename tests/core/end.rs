//! BPT "End Phase", "Breakpoint", "Reaching an Objective", "Deciding the Winner".

use super::common::*;
use volley::battle::Action;
use volley::battle::event::Event;
use volley::battle::state::{ResultKind, Suppression};
use volley::data::scenario::{Objective, ObjectiveLevel};
use volley::rules::geometry::V2;

const RIFLES: &str = "regular_infantry_rifled";

fn two_lines() -> volley::battle::Battle {
    let mut b = battle(&[u(0, RIFLES, 4, 100.0, 50.0, 90.0), u(1, RIFLES, 4, 100.0, 150.0, 270.0)]);
    to_command(&mut b);
    b
}

#[test]
fn three_hits_on_a_four_stand_regular_infantry_unit_remove_one_stand_at_the_end_phase() {
    // Regular infantry: 3 hits a stand (ACW troop chart). Hits are removed as whole stands,
    // rounding down, then cleared.
    let mut b = two_lines();
    b.unit_mut(1).hits = 3;
    b.unit_mut(0).hits = 5;
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert_eq!(b.unit(1).stands, 3);
    assert_eq!(b.unit(0).stands, 3, "5 hits remove one stand (rounded down)");
    assert_eq!((b.unit(0).hits, b.unit(1).hits), (0, 0));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::StandsRemoved {
            unit: 1,
            removed: 1,
            left: 3
        }
    )));
    // The next player's turn has begun.
    assert_eq!(b.active, 1);
}

#[test]
fn the_active_player_recovers_only_from_suppression_placed_before_this_turn() {
    let mut b = battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(0, RIFLES, 4, 140.0, 50.0, 90.0),
        u(1, RIFLES, 4, 100.0, 150.0, 270.0),
    ]);
    to_command(&mut b);
    let pt = b.player_turn;
    b.unit_mut(0).suppressed = Some(Suppression {
        player_turn: pt - 1,
        order_seq: 0,
    });
    b.unit_mut(1).suppressed = Some(Suppression {
        player_turn: pt,
        order_seq: 0,
    });
    b.unit_mut(2).suppressed = Some(Suppression {
        player_turn: pt - 1,
        order_seq: 0,
    });
    b.apply(&Action::EndPhase).unwrap();
    assert!(!b.unit(0).suppressed(), "suppressed in the previous turn: recovers");
    assert!(b.unit(1).suppressed(), "suppressed this turn: keeps its marker");
    assert!(b.unit(2).suppressed(), "the inactive player's units keep theirs");
}

#[test]
fn breakpoint_is_half_the_units_rounded_up() {
    let b = battle(&[
        u(0, RIFLES, 4, 40.0, 50.0, 90.0),
        u(0, RIFLES, 4, 60.0, 50.0, 90.0),
        u(0, RIFLES, 4, 80.0, 50.0, 90.0),
        u(1, RIFLES, 4, 100.0, 150.0, 270.0),
        u(1, RIFLES, 4, 120.0, 150.0, 270.0),
    ]);
    assert_eq!(b.sides[0].breakpoint, 2);
    assert_eq!(b.sides[1].breakpoint, 1);
}

#[test]
fn a_command_past_its_breakpoint_tests_each_turn_and_breaks_on_a_failed_roll() {
    // Side 1 has lost 2 of 2... keep one alive: 3 units, breakpoint 2, two lost → roll at −0.
    let mut b = battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(1, RIFLES, 4, 100.0, 150.0, 270.0),
        u(1, RIFLES, 4, 130.0, 150.0, 270.0),
        u(1, RIFLES, 4, 160.0, 150.0, 270.0),
    ]);
    to_command(&mut b);
    b.unit_mut(1).knocked_out = true;
    b.unit_mut(2).knocked_out = true;
    // End side 0's turn; side 1's turn starts with the CO's roll (command 8): 5 + 5 = 10 fails.
    script(&mut b, &[5, 5]);
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::BreakpointRoll {
                side: 1,
                value: 8,
                broken: true,
                ..
            }
        )),
        "{ev:?}"
    );
    assert!(b.sides[1].broken);
    assert!(b.is_over(), "the second player broke: no turn outstanding");
    let o = b.outcome.clone().unwrap();
    assert_eq!(o.winner, Some(0));
}

#[test]
fn objectives_outcome_table_and_double_victory_points() {
    let mut b = two_lines();
    b.objectives = vec![
        Objective {
            name: "farm".into(),
            side: "Union".into(),
            level: ObjectiveLevel::Major,
            pos: V2::new(100.0, 53.0),
            radius: 5.0,
        },
        Objective {
            name: "ridge".into(),
            side: "Confederate".into(),
            level: ObjectiveLevel::Minor,
            pos: V2::new(100.0, 146.0),
            radius: 5.0,
        },
    ];
    // Major against minor: minor victory.
    let o = b.compute_outcome("test");
    assert_eq!(o.objectives, [Some(ObjectiveLevel::Major), Some(ObjectiveLevel::Minor)]);
    assert_eq!((o.winner, o.result), (Some(0), ResultKind::Minor));
    // Major against nothing: decisive.
    b.objectives[1].pos = V2::new(10.0, 10.0);
    let o = b.compute_outcome("test");
    assert_eq!((o.winner, o.result), (Some(0), ResultKind::Decisive));
    // Neither: draw; twice the VPs improves a draw to a minor victory.
    b.objectives.clear();
    assert_eq!(b.compute_outcome("test").result, ResultKind::Draw);
    b.unit_mut(1).knocked_out = true;
    let o = b.compute_outcome("test");
    assert_eq!(o.victory_points, [240, 0], "60 points a stand × 4 stands");
    assert_eq!((o.winner, o.result), (Some(0), ResultKind::Minor));
}
