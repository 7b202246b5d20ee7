//! BPT "End Phase", "Breakpoint", "Reaching an Objective", "Deciding the Winner".

use super::common::*;
use volley::battle::Action;
use volley::battle::event::families::*;
use volley::battle::event::{EndReason, Event};
use volley::battle::state::{Phase, ResultKind, Suppression};
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
    b.arranging().unit_mut(1).hits = 3;
    b.arranging().unit_mut(0).hits = 5;
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert_eq!(b.unit(1).stands, 3);
    assert_eq!(b.unit(0).stands, 3, "5 hits remove one stand (rounded down)");
    assert_eq!((b.unit(0).hits, b.unit(1).hits), (0, 0));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Morale(MoraleEvent::StandsRemoved {
            unit: 1,
            removed: 1,
            left: 3
        })
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
    b.arranging().unit_mut(0).suppressed = Some(Suppression {
        player_turn: pt - 1,
        order_seq: 0,
    });
    b.arranging().unit_mut(1).suppressed = Some(Suppression {
        player_turn: pt,
        order_seq: 0,
    });
    b.arranging().unit_mut(2).suppressed = Some(Suppression {
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
    b.arranging().unit_mut(1).knocked_out = true;
    b.arranging().unit_mut(2).knocked_out = true;
    // End side 0's turn; side 1's turn starts with the CO's roll (command 8): 5 + 5 = 10 fails.
    script(&mut b, &[5, 5]);
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Morale(MoraleEvent::BreakpointRoll {
                side: 1,
                value: 8,
                broken: true,
                ..
            })
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
    b.arranging().objectives = vec![
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
    let o = b.compute_outcome(EndReason::TurnLimit);
    assert_eq!(o.objectives, [Some(ObjectiveLevel::Major), Some(ObjectiveLevel::Minor)]);
    assert_eq!((o.winner, o.result), (Some(0), ResultKind::Minor));
    // Major against nothing: decisive.
    b.arranging().objectives[1].pos = V2::new(10.0, 10.0);
    let o = b.compute_outcome(EndReason::TurnLimit);
    assert_eq!((o.winner, o.result), (Some(0), ResultKind::Decisive));
    // Neither: draw; twice the VPs improves a draw to a minor victory.
    b.arranging().objectives.clear();
    assert_eq!(b.compute_outcome(EndReason::TurnLimit).result, ResultKind::Draw);
    b.arranging().unit_mut(1).knocked_out = true;
    let o = b.compute_outcome(EndReason::TurnLimit);
    assert_eq!(o.victory_points, [240, 0], "60 points a stand × 4 stands");
    assert_eq!((o.winner, o.result), (Some(0), ResultKind::Minor));
}

#[test]
fn twice_the_victory_points_improves_a_side_that_lost_on_objectives_one_step() {
    // BPT "Victory Points": "A player improves his result by one category if he earns at
    // least twice as many VPs as his opponent". **Decision** (issue 64): the categories are
    // one ladder, decisive defeat, minor defeat, draw, minor victory, decisive victory, so a
    // side beaten on objectives with twice the points climbs one step too.
    let mut b = battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(1, RIFLES, 4, 100.0, 150.0, 270.0),
        u(1, RIFLES, 4, 40.0, 150.0, 270.0),
    ]);
    to_command(&mut b);
    let objective = |name: &str, side: &str, level, x, y| Objective {
        name: name.into(),
        side: side.into(),
        level,
        pos: V2::new(x, y),
        radius: 5.0,
    };
    // The Confederates hold a major objective, the Union a minor one: a Confederate minor
    // victory on objectives.
    b.arranging().objectives = vec![
        objective("farm", "Union", ObjectiveLevel::Minor, 100.0, 53.0),
        objective("ridge", "Confederate", ObjectiveLevel::Major, 100.0, 146.0),
    ];
    let o = b.compute_outcome(EndReason::TurnLimit);
    assert_eq!((o.winner, o.result), (Some(1), ResultKind::Minor));
    // The Union knocked out a whole regiment and lost nothing: 240 points to 0, so its minor
    // defeat becomes a draw.
    b.arranging().unit_mut(2).knocked_out = true;
    let o = b.compute_outcome(EndReason::TurnLimit);
    assert_eq!(o.victory_points, [240, 0]);
    assert_eq!((o.winner, o.result), (None, ResultKind::Draw));
    // The Union holds nothing: a Confederate decisive victory on objectives, one step less
    // with the Union's twice the points: a Confederate minor victory.
    b.arranging().objectives[0].pos = V2::new(10.0, 10.0);
    let o = b.compute_outcome(EndReason::TurnLimit);
    assert_eq!((o.winner, o.result), (Some(1), ResultKind::Minor));
    b.arranging().unit_mut(2).knocked_out = false;
    let o = b.compute_outcome(EndReason::TurnLimit);
    assert_eq!((o.winner, o.result), (Some(1), ResultKind::Decisive));
}

#[test]
fn a_scenario_decided_on_points_gives_a_draw_to_the_side_with_more_victory_points() {
    // The scenario rule `decide_on_points` (docs/rules.md, Gettysburg): with the objectives
    // level, more victory points win a minor victory, not only twice the enemy's (BPT).
    let mut b = battle(&[
        u(0, RIFLES, 4, 60.0, 50.0, 90.0),
        u(0, RIFLES, 4, 140.0, 50.0, 90.0),
        u(1, RIFLES, 4, 60.0, 150.0, 270.0),
        u(1, RIFLES, 6, 140.0, 150.0, 270.0),
    ]);
    to_command(&mut b);
    b.arranging().objectives.clear();
    // One unit lost each: 240 points each (60 a stand × 4), a draw either way.
    b.arranging().unit_mut(0).knocked_out = true;
    b.arranging().unit_mut(2).knocked_out = true;
    assert_eq!(b.compute_outcome(EndReason::TurnLimit).victory_points, [240, 240]);
    assert_eq!(b.compute_outcome(EndReason::TurnLimit).winner, None);
    b.arranging().decide_on_points = true;
    assert_eq!(
        b.compute_outcome(EndReason::TurnLimit).winner,
        None,
        "equal points stay a draw"
    );
    // The six-stand unit lost instead: 360 to 240, half as many again, short of twice.
    b.arranging().unit_mut(2).knocked_out = false;
    b.arranging().unit_mut(3).knocked_out = true;
    b.arranging().decide_on_points = false;
    let o = b.compute_outcome(EndReason::TurnLimit);
    assert_eq!(
        (o.victory_points, o.winner, o.result),
        ([360, 240], None, ResultKind::Draw)
    );
    b.arranging().decide_on_points = true;
    let o = b.compute_outcome(EndReason::TurnLimit);
    assert_eq!((o.winner, o.result), (Some(0), ResultKind::Minor));
    // The result screen says what decided it, and the rule.
    assert_eq!(
        volley::terminal::view::decided_by(&b, &o),
        "Decided by: victory points, 360 to 240, with no better objective on either side."
    );
    b.arranging().outcome = Some(o);
    let told = volley::terminal::view::result(&b).join("\n");
    assert!(told.contains(volley::terminal::view::ON_POINTS), "{told}");
    b.arranging().outcome = None;
    // Objectives still come first: a side holding the better one wins on fewer points.
    b.arranging().objectives = vec![Objective {
        name: "ridge".into(),
        side: "Confederate".into(),
        level: ObjectiveLevel::Minor,
        pos: V2::new(60.0, 150.0),
        radius: 5.0,
    }];
    let o = b.compute_outcome(EndReason::TurnLimit);
    assert_eq!(o.objectives, [None, Some(ObjectiveLevel::Minor)]);
    assert_eq!((o.winner, o.result), (Some(1), ResultKind::Minor));
}

#[test]
fn a_first_side_that_breaks_withdraws_and_its_opponent_plays_out_the_game_turn() {
    // BPT "Breakpoint": "the Command will break and withdraw from the battlefield immediately,
    // if the command roll fails"; "If a Command breaks, but the opposing player still has a
    // turn outstanding to complete the current game turn, he can choose to continue play until
    // the end of his turn, after which, the game ends. For example, player one breaks on turn
    // six, but the opposing player has yet to play his sixth turn, so he may play this turn as
    // usual." Side 0 moves first and has lost 2 of 3 units.
    let mut b = battle(&[
        u(0, RIFLES, 4, 100.0, 50.0, 90.0),
        u(0, RIFLES, 4, 130.0, 50.0, 90.0),
        u(0, RIFLES, 4, 160.0, 50.0, 90.0),
        u(1, RIFLES, 4, 100.0, 150.0, 270.0),
    ]);
    assert_eq!(b.first_side, 0);
    // A Confederate minor objective 20 cm ahead of its line, held by no one yet.
    b.arranging().objectives = vec![Objective {
        name: "crossroads".into(),
        side: "Confederate".into(),
        level: ObjectiveLevel::Minor,
        pos: V2::new(100.0, 130.0),
        radius: 5.0,
    }];
    to_command(&mut b);
    b.arranging().unit_mut(1).knocked_out = true;
    b.arranging().unit_mut(2).knocked_out = true;
    // Side 0 ends its turn (no roll: the test is at the start of its turns), side 1 plays.
    script(&mut b, &[]);
    b.apply(&Action::EndPhase).unwrap();
    assert_eq!((b.active, b.phase), (1, Phase::Initiative));
    b.apply(&Action::EndPhase).unwrap();
    // Side 1 ends its turn; game turn 2 opens with side 0's CO's roll (command 8): 6 + 4 fails.
    script(&mut b, &[6, 4]);
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Morale(MoraleEvent::SideBroken { side: 0 }))),
        "{ev:?}"
    );
    assert!(!b.is_over(), "side 1's turn of game turn 2 is outstanding");
    // Side 0 withdrew at once: after its break no phase of its own started, only side 1's.
    let after: Vec<&Event> = ev
        .iter()
        .skip_while(|e| !matches!(e, Event::Morale(MoraleEvent::SideBroken { .. })))
        .filter(|e| matches!(e, Event::Phase(PhaseEvent::PhaseStarted { .. })))
        .collect();
    assert!(
        after
            .iter()
            .all(|e| matches!(e, Event::Phase(PhaseEvent::PhaseStarted { active: 1, .. }))),
        "{after:?}"
    );
    assert_eq!((b.game_turn, b.active, b.phase), (2, 1, Phase::Initiative));
    // Side 1 plays its turn as usual: its line reaches the crossroads (the objective counts
    // in the result, decided after).
    b.apply(&Action::EndPhase).unwrap();
    assert_eq!(b.phase, Phase::Command);
    b.arranging().unit_mut(3).pose.pos = V2::new(100.0, 131.0);
    b.refresh_geometry();
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert!(b.is_over(), "the game ends after side 1's turn");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Phase(PhaseEvent::GameOver { .. })))
    );
    let o = b.outcome.clone().unwrap();
    assert_eq!(o.winner, Some(1));
    assert_eq!(o.objectives, [None, Some(ObjectiveLevel::Minor)]);
    assert_eq!(o.reason, EndReason::Breakpoint);
}

#[test]
fn hits_count_at_the_value_the_unit_had_when_it_took_them() {
    // BPT "Disordered": "takes one less hit" (3 → 2 a stand for regular infantry). Decision
    // (docs/rules.md): each hit is a share of a stand at the value it was taken at.
    let mut b = battle(&[u(0, RIFLES, 4, 100.0, 50.0, 90.0), u(1, RIFLES, 4, 100.0, 150.0, 270.0)]);
    let pt = b.player_turn;
    let lost = |b: &volley::battle::Battle, hits: u32, before: u32| {
        let mut x = b.unit(0).clone();
        x.hits = hits;
        x.hits_before_disorder = before;
        x.disordered_until = Some(pt + 1);
        x.stands_lost(&b.rules, pt)
    };
    assert_eq!(lost(&b, 6, 0), 3, "all while disordered: 6 / 2");
    assert_eq!(lost(&b, 6, 6), 2, "all before: 6 / 3");
    assert_eq!(lost(&b, 6, 4), 2, "4/3 + 2/2 = 2.33");
    assert_eq!(lost(&b, 5, 4), 1, "4/3 + 1/2 = 1.83");
    assert_eq!(lost(&b, 20, 0), 4, "never more than it has");
    // Not disordered: the full value whatever was recorded.
    b.arranging().unit_mut(0).hits = 6;
    b.arranging().unit_mut(0).hits_before_disorder = 2;
    assert_eq!(b.unit(0).stands_lost(&b.rules, pt), 2);
}

/// Issue 66's measure of a battle that happened: a formation (a commander and the units he
/// leads himself) with half its units or more knocked out is a brigade lost. On the skirmish,
/// Whitfield's brigade has four units: one knocked out is not a brigade lost, two are.
#[test]
fn a_formation_with_half_its_units_knocked_out_is_a_brigade_lost() {
    let mut b = skirmish(1);
    let cs = 1;
    assert_eq!([b.brigades_lost(0), b.brigades_lost(cs)], [0, 0]);
    let whitfield: Vec<u32> = b
        .side_units(cs)
        .filter(|u| b.commander(u.hq).name.contains("Whitfield"))
        .map(|u| u.id)
        .collect();
    assert_eq!(whitfield.len(), 4);
    b.arranging().unit_mut(whitfield[0]).knocked_out = true;
    assert_eq!(b.brigades_lost(cs), 0, "one of four");
    b.arranging().unit_mut(whitfield[1]).knocked_out = true;
    assert_eq!(b.brigades_lost(cs), 1, "two of four");
    assert_eq!(b.brigades_lost(0), 0);
    assert_eq!(b.units_lost(cs), 2);
}
