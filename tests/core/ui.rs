//! The window's playing part without a window system: a headless app with the real bindings
//! (leafwing-input-manager), a primary window entity and the table camera, the session and the
//! battle screen's keys. Real key presses and mouse buttons, sent as input messages, with the
//! window's cursor set over the table, play through a player turn.

use super::common::*;
use bevy::prelude::*;
use leafwing_input_manager::prelude::Buttonlike;
use volley::app::BattleState;
use volley::battle::event::families::*;
use volley::battle::{Action, Battle, Phase};
use volley::rules::geometry::V2;
use volley::ui::undo::UndoStack;
use volley::ui::{BattleLog, GameRecord, Screen, Seats, Selection};

fn app_with(b: Battle, sides: [&str; 2]) -> App {
    volley::ui::headless_play_app(b, "maps/skirmish.ron".into(), 3, sides, false).expect("agents")
}

fn press(app: &mut App, key: KeyCode) {
    key.press(app.world_mut());
    app.update();
    key.release(app.world_mut());
    app.update();
    app.update();
}

/// The game's resources in the window, read together.
struct Game<'a> {
    log: &'a [volley::ui::session::LogLine],
    recording: &'a volley::replay::Recording,
    sides: &'a [String; 2],
    last: &'a Option<(String, Vec<String>)>,
    undo: &'a UndoStack,
}

fn game(app: &App) -> Game<'_> {
    let w = app.world();
    Game {
        log: &w.resource::<BattleLog>().lines,
        recording: &w.resource::<GameRecord>().recording,
        sides: &w.resource::<Seats>().sides,
        last: &w.resource::<BattleLog>().last,
        undo: w.resource::<UndoStack>(),
    }
}

fn battle(app: &App) -> &Battle {
    &app.world().resource::<BattleState>().0
}

#[test]
fn enter_ends_the_phases_of_a_player_turn_and_the_other_player_is_handed_the_seat() {
    let mut app = app_with(skirmish(3), ["human", "human"]);
    // Both sides human: the first player must take the seat first.
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Handover);
    app.world_mut().resource_mut::<Seats>().viewer = Some(0);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Battle);
    let b = battle(&app);
    assert_eq!((b.phase, b.active, b.actions), (Phase::Initiative, 0, 0));

    // Enter: the initiative phase ends, the command phase starts.
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).phase, Phase::Command);
    assert_eq!(battle(&app).actions, 1);
    // A key that is not bound does nothing.
    press(&mut app, KeyCode::KeyZ);
    assert_eq!(battle(&app).actions, 1);
    // Enter again: the command phase ends; the charge and end phases follow and the other
    // side's turn begins, so the table is hidden until its player takes the seat.
    press(&mut app, KeyCode::Enter);
    let b = battle(&app);
    assert_eq!(b.active, 1, "the other side's player turn");
    assert_eq!(b.phase, Phase::Initiative);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Handover);
    // While the table is hidden, Enter does nothing.
    let before = battle(&app).actions;
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).actions, before);
    // The session recorded every action and logged them.
    let s = game(&app);
    assert_eq!(s.recording.actions.len() as u64, before);
    assert!(
        s.log
            .iter()
            .any(|l| l.action && l.text.contains("end the command phase")),
        "{:?}",
        s.log
    );
}

#[test]
fn an_agent_plays_its_side_through_the_same_pipeline() {
    let mut app = app_with(skirmish(5), ["human", "random"]);
    // One human: no hand-over.
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Battle);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).actor(), 1, "the agent's turn");
    // The agent acts a few times a second (virtual time advances with each update).
    let start = battle(&app).actions;
    for _ in 0..400 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
        if battle(&app).actor() == 0 {
            break;
        }
    }
    assert!(battle(&app).actions > start, "the agent acted");
}

#[test]
fn a_click_picks_the_commander_or_stand_under_it_and_a_drag_asks_for_a_move() {
    use volley::ui::Selection;
    use volley::ui::common::TableHover;
    use volley::ui::table::input::drag_action;
    let b = skirmish(3);
    let at = |p: volley::rules::geometry::V2| Vec2::new(p.x as f32, p.y as f32);
    // Bevy's picking, through the table's backend, hovers what is under the pointer.
    let mut app = app_with(b.clone(), ["human", "human"]);
    app.update();
    let hovered = |app: &mut App, p: V2| {
        point_at(app, p);
        app.update();
        app.world().resource::<TableHover>().0
    };
    // A stand's centre picks its unit.
    let u = b.alive_units().nth(3).expect("a unit");
    let r = b.rects(u.id)[0];
    assert_eq!(
        hovered(&mut app, r.center),
        Selection {
            unit: Some(u.id),
            commander: None
        }
    );
    // A commander's base picks the commander.
    let c = &b.commanders[1];
    assert_eq!(
        hovered(&mut app, c.pos + V2::new(0.5, 0.0)),
        Selection {
            unit: None,
            commander: Some(c.id)
        }
    );
    // The empty corner of the table picks nothing.
    assert_eq!(hovered(&mut app, V2::new(0.5, 0.5)), Selection::default());
    // Dragging the unit 4 cm north asks for a move of its pose by as much, same facing.
    let sel = Selection {
        unit: Some(u.id),
        commander: None,
    };
    let grab = at(r.center);
    match drag_action(&b, &sel, grab, grab + Vec2::new(0.0, 4.0), 0.0) {
        Some(volley::battle::Action::Move { unit, to }) => {
            assert_eq!(unit, u.id);
            assert!((to.pos.y - u.pose.pos.y - 4.0).abs() < 1e-4 && (to.pos.x - u.pose.pos.x).abs() < 1e-4);
            assert_eq!(to.facing, u.pose.facing);
        }
        other => panic!("expected a move, got {other:?}"),
    }
    // A click without moving is no drag.
    assert_eq!(drag_action(&b, &sel, grab, grab + Vec2::new(0.1, 0.0), 0.0), None);
}

#[test]
fn the_screenshot_check_tells_a_drawn_battle_from_a_blank_window() {
    use volley::ui::screenshot::{ShotStats, check_png};
    // The committed README picture is a drawn battle.
    let png = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshot.png");
    let stats = check_png(&png).expect("docs/screenshot.png reads");
    assert_eq!(stats.problem(), None, "{stats}");
    // A black window is blank; a many-coloured picture without the sides has no troops.
    let black = ShotStats::of_rgb(&vec![0u8; 64 * 64 * 3], 64, 64);
    assert!(black.problem().unwrap().contains("blank"));
    let rainbow: Vec<u8> = (0..64 * 64)
        .flat_map(|i| [(i % 256) as u8, (i / 16) as u8, 40])
        .collect();
    let no_troops = ShotStats::of_rgb(&rainbow, 64, 64);
    assert!(no_troops.colours >= ShotStats::MIN_COLOURS);
    assert!(no_troops.problem().unwrap().contains("no troops"));
    // Not a PNG at all: an error, not a panic.
    let readme = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    assert!(check_png(&readme).is_err());
}

#[test]
fn a_missing_scenario_is_a_clear_error_before_any_window_opens() {
    for args in [
        &["screenshot", "maps/no-such-map.ron", "--out", "/tmp/volley-never.png"][..],
        &["play", "maps/no-such-map.ron"][..],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_volley"))
            .args(args)
            .env_remove("DISPLAY")
            .output()
            .expect("runs");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no-such-map.ron") && err.contains("cannot read"), "{err}");
    }
}

#[test]
fn side_colours_count_only_where_the_table_shows() {
    use volley::ui::palette::SIDE_RGB;
    use volley::ui::screenshot::ShotStats;
    // A 100-pixel-wide picture: blue only in the left quarter (a panel), vermillion in the middle.
    let (w, h) = (100u32, 10u32);
    let mut rgb = Vec::new();
    for _ in 0..h {
        for x in 0..w {
            let c = if x < 20 {
                SIDE_RGB[0]
            } else if (40..60).contains(&x) {
                SIDE_RGB[1]
            } else {
                [100, 120, 80]
            };
            rgb.extend_from_slice(&c);
        }
    }
    let s = ShotStats::of_rgb(&rgb, w, h);
    assert_eq!(s.side_pixels, [0, 200]);
}

/// A headless app with the replay viewer on a recorded game (scheduler against scheduler).
fn replay_app() -> (App, volley::replay::Recording) {
    use volley::replay::Recording;
    let b = skirmish(5);
    let path = std::env::temp_dir().join(format!("volley-ui-replay-{}.ron", std::process::id()));
    let mut rec = Recording::start(
        &b,
        concat!(env!("CARGO_MANIFEST_DIR"), "/maps/skirmish.ron"),
        5,
        Some(3),
    );
    let mut start = b.clone();
    start.cap_turns(Some(3));
    let mut players = [
        volley::agents::by_name(SCHEDULER, 5, 0).unwrap(),
        volley::agents::by_name(SCHEDULER, 5, 1).unwrap(),
    ];
    volley::sim::play(start, &mut players, 100_000, |b, a, ev| rec.push(b, a, ev)).unwrap();
    rec.save(&path).unwrap();
    let t = volley::replay::timeline::Timeline::build(rec.clone(), &path).unwrap();
    let _ = std::fs::remove_file(&path); // the timeline holds the game now
    let first = t.state_at(0);
    let mut app = app_with(first, ["replay", "replay"]);
    app.insert_resource(volley::ui::replay::Viewer::new(t));
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(250),
    ));
    app.update();
    (app, rec)
}

#[test]
fn the_replay_viewer_plays_seeks_and_hands_over_command() {
    use volley::ui::replay::{Viewer, seek_world, take_command};
    let (mut app, rec) = replay_app();
    let n = rec.actions.len();
    assert!(n > 20);
    // Play: an action every 0.6 s at speed 1; at speed 4, one every frame of 0.25 s or so.
    app.world_mut().resource_mut::<Viewer>().playing = true;
    app.world_mut().resource_mut::<Viewer>().speed = 4.0;
    for _ in 0..6 {
        app.update();
    }
    let at = app.world().resource::<Viewer>().at;
    assert!((3..=6).contains(&at), "played {at} actions");
    let timeline_hash = app.world().resource::<Viewer>().timeline.state_at(at).state_hash();
    assert_eq!(
        battle(&app).state_hash(),
        timeline_hash,
        "the table shows the replayed state"
    );
    // Nobody plays during a replay.
    assert_eq!(battle(&app).actions as usize, at);
    // Jump to the last action: the recorded final state.
    app.world_mut().resource_mut::<Viewer>().playing = false;
    seek_world(app.world_mut(), n);
    assert_eq!(battle(&app).state_hash(), rec.final_hash);
    let log_len = app.world().resource::<BattleLog>().lines.len();
    assert!(log_len > n, "the log follows the replay: {log_len} lines");
    // Back to the middle and take command there, hot-seat.
    seek_world(app.world_mut(), n / 2);
    take_command(app.world_mut(), ["human".into(), "human".into()]).unwrap();
    assert!(app.world().get_resource::<Viewer>().is_none());
    let s = game(&app);
    assert_eq!(s.recording.actions.len(), n / 2);
    assert_eq!(*s.sides, ["human".to_string(), "human".to_string()]);
    assert_eq!(battle(&app).actions as usize, n / 2);
}

#[test]
fn without_a_display_the_window_is_a_clear_error_not_a_panic() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["play", concat!(env!("CARGO_MANIFEST_DIR"), "/maps/skirmish.ron")])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no display") && err.contains("--terminal") && !err.contains("panicked"),
        "{err}"
    );
}

#[test]
fn an_order_is_logged_with_the_need_it_was_rolled_against() {
    // A second order from the same commander needs one less (BPT command modifiers), so a
    // heading described after the roll would show the next order's need, not this one's.
    let mut b = skirmish(3);
    while b.phase != Phase::Command {
        b.apply(&volley::battle::Action::EndPhase).unwrap();
    }
    let order = b
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, volley::battle::Action::Order { units, .. } if units.len() > 1))
        .expect("a brigade order");
    let before = volley::report::heading(&b, &order);
    let mut app = app_with(b, ["human", "scheduler"]);
    app.world_mut().write_message(volley::app::ActionRequest(order));
    app.update();
    let s = game(&app);
    let (heading, lines) = s.last.clone().expect("the order was applied");
    assert!(heading.ends_with(&before), "{heading} / {before}");
    let need = |t: &str| t.split("need ≤ ").nth(1).and_then(|r| r.chars().next());
    assert_eq!(need(&heading), need(&lines[0]), "{heading} / {lines:?}");
}

/// Hot-seat skirmish (seed 3) with the first player seated, in the command phase.
fn seated_in_command_phase() -> App {
    let mut app = app_with(skirmish(3), ["human", "human"]);
    app.world_mut().resource_mut::<Seats>().viewer = Some(0);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    app.update();
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).phase, Phase::Command);
    app
}

/// Ask for `a` as the orders panel does, and let the session take it in.
fn request(app: &mut App, a: volley::battle::Action) {
    app.world_mut().write_message(volley::app::ActionRequest(a));
    app.update();
    app.update();
}

fn press_ctrl_z(app: &mut App) {
    KeyCode::ControlLeft.press(app.world_mut());
    KeyCode::KeyZ.press(app.world_mut());
    app.update();
    KeyCode::KeyZ.release(app.world_mut());
    KeyCode::ControlLeft.release(app.world_mut());
    app.update();
    app.update();
}

/// Does the session's recording re-play to the table's state?
fn recording_verifies(app: &App) {
    let s = game(app);
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("undo-test.ron");
    let (b, hash) = volley::replay::verify::verify(s.recording, &here).expect("the recording verifies");
    assert_eq!(hash, battle(app).state_hash());
    assert_eq!(b.actions, battle(app).actions);
}

#[test]
fn undo_takes_back_a_step_without_dice_and_not_a_roll() {
    use volley::battle::Action;
    use volley::ui::undo::DICE_ROLLED;
    let mut app = seated_in_command_phase();
    let legal = battle(&app).legal_actions();
    let vincent = |a: &&Action| volley::report::heading(battle(&app), a).contains("Vincent");
    let cmd_move = legal
        .iter()
        .filter(vincent)
        .find(|a| matches!(a, Action::CommanderMove { .. }))
        .cloned()
        .expect("Vincent may move");
    let order = legal
        .iter()
        .filter(vincent)
        .find(|a| matches!(a, Action::Order { units, .. } if units.len() == 1))
        .cloned()
        .expect("Vincent may order one unit");

    // A commander's move rolls nothing: Ctrl+Z takes it back to the very state before.
    let before = battle(&app).state_hash();
    let (log, rec) = {
        let s = game(&app);
        (s.log.len(), s.recording.actions.len())
    };
    request(&mut app, cmd_move.clone());
    assert_ne!(battle(&app).state_hash(), before);
    // Ending the initiative phase (no roll) and the move can both be taken back.
    assert_eq!(app.world().resource::<UndoStack>().len(), 2);
    press_ctrl_z(&mut app);
    assert_eq!(battle(&app).state_hash(), before);
    let s = game(&app);
    assert_eq!((s.log.len(), s.recording.actions.len()), (log, rec));
    assert_eq!(s.undo.len(), 1);
    recording_verifies(&app);

    // The order rolls the dice (seed 3: 2+5, issued): the result stands.
    request(&mut app, order.clone());
    let ordered = battle(&app).state_hash();
    assert!(
        battle(&app)
            .legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Move { .. }))
    );
    assert_eq!(app.world().resource::<UndoStack>().why_not(), Some(DICE_ROLLED));
    press(&mut app, KeyCode::Backspace);
    assert_eq!(battle(&app).state_hash(), ordered, "a roll is not undone");
    let status = app.world().resource::<BattleLog>().status.clone().unwrap_or_default();
    assert!(status.contains(DICE_ROLLED), "{status}");

    // The ordered unit's move and a commander's move, taken back one at a time.
    let first = battle(&app)
        .legal_actions()
        .into_iter()
        .filter(|a| matches!(a, Action::Move { .. }))
        .nth(3)
        .expect("the ordered unit may move");
    request(&mut app, first);
    let after_first = battle(&app).state_hash();
    assert_ne!(after_first, ordered);
    let second = battle(&app)
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::CommanderMove { .. }))
        .expect("a commander may move");
    request(&mut app, second);
    assert_ne!(battle(&app).state_hash(), after_first);
    assert_eq!(app.world().resource::<UndoStack>().len(), 2);
    press(&mut app, KeyCode::Backspace);
    assert_eq!(battle(&app).state_hash(), after_first);
    press_ctrl_z(&mut app);
    assert_eq!(battle(&app).state_hash(), ordered);
    // Nothing more: the order's roll stands.
    press_ctrl_z(&mut app);
    assert_eq!(battle(&app).state_hash(), ordered);
    // The recording dropped the undone moves: it re-plays to the table's state.
    recording_verifies(&app);
    assert_eq!(
        app.world().resource::<GameRecord>().recording.actions.last(),
        Some(&order)
    );
}

#[test]
fn undo_judges_an_action_by_the_real_battle_and_never_applies_it_again() {
    // The undo stack judges an action from the battle after it (its events, its dice stream,
    // what each side knows), never by applying the action a second time to its own copy of the
    // state before. Here that copy cannot roll the game's dice (as a network client's copy
    // could not): the table's battle rolls from a script, the stack's copy holds the same
    // state (the same hash) with its script spent. Applying the order to the copy would panic
    // ("scripted dice exhausted"); the stack reads from the real battle that dice were rolled.
    use volley::rules::dice::Dice;
    use volley::ui::undo::DICE_ROLLED;
    let mut app = seated_in_command_phase();
    let faces = vec![2, 5, 3, 3, 3, 3, 3, 3];
    app.world_mut()
        .resource_mut::<BattleState>()
        .0
        .set_dice(Dice::scripted(faces.clone()));
    let mut spent = battle(&app).clone();
    spent.set_dice(Dice::scripted(Vec::new()));
    assert_eq!(spent.state_hash(), battle(&app).state_hash(), "the same state");
    let hash = battle(&app).state_hash();
    app.world_mut().resource_mut::<GameRecord>().recording.final_hash = hash;
    app.world_mut().resource_mut::<UndoStack>().reset(&spent);
    let order = battle(&app)
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::Order { units, .. } if units.len() == 1))
        .expect("an order for one unit");
    request(&mut app, order);
    let ordered = battle(&app).state_hash();
    assert_ne!(ordered, hash, "the order was applied");
    assert!(battle(&app).dice.draws() >= 2, "the order rolled");
    assert_eq!(app.world().resource::<UndoStack>().why_not(), Some(DICE_ROLLED));
    // A commander's move after it rolls nothing and is taken back to the ordered state: the
    // stack's copy is now the real battle after the order.
    let cmd_move = battle(&app)
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::CommanderMove { .. }))
        .expect("a commander may move");
    request(&mut app, cmd_move);
    assert_eq!(app.world().resource::<UndoStack>().len(), 1);
    press_ctrl_z(&mut app);
    assert_eq!(battle(&app).state_hash(), ordered);
}

#[test]
fn two_actions_applied_in_one_frame_are_not_taken_back_blind() {
    // The stack sees the battle only as it stands after the frame: of two actions applied in
    // one frame the first is not judged on the state after it (it is not known), and the
    // second has no known state before it. Nothing is undoable, and Ctrl+Z changes nothing.
    use volley::ui::undo::TOGETHER;
    let mut app = seated_in_command_phase();
    let legal = battle(&app).legal_actions();
    let moves: Vec<Action> = legal
        .iter()
        .filter(|a| matches!(a, Action::CommanderMove { .. }))
        .cloned()
        .collect();
    let first = moves.first().cloned().expect("a commander may move");
    let mut probe = battle(&app).clone();
    probe.apply(&first).expect("legal");
    let second = probe
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::CommanderMove { .. }) && *a != first)
        .expect("another commander's move after it");
    let actions = battle(&app).actions;
    app.world_mut().write_message(volley::app::ActionRequest(first));
    app.world_mut().write_message(volley::app::ActionRequest(second));
    app.update();
    app.update();
    assert_eq!(battle(&app).actions, actions + 2, "both applied in one frame");
    assert_eq!(app.world().resource::<UndoStack>().why_not(), Some(TOGETHER));
    let both = battle(&app).state_hash();
    press_ctrl_z(&mut app);
    assert_eq!(battle(&app).state_hash(), both);
    // The next action is judged again: the stack's copy is the battle after the frame.
    let third = battle(&app)
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::CommanderMove { .. }))
        .expect("a commander may move");
    request(&mut app, third);
    assert_eq!(app.world().resource::<UndoStack>().len(), 1);
    press_ctrl_z(&mut app);
    assert_eq!(battle(&app).state_hash(), both);
}

#[test]
fn every_action_that_draws_dice_is_judged_not_undoable_from_its_events() {
    use volley::battle::Event;
    use volley::ui::undo::is_undoable;
    // A scheduler against a greedy player over whole games: whenever the dice stream moved, the events alone
    // must say "not undoable" (fire, charges, tests, breakpoints included).
    let (mut rolled, mut fired) = (0, 0);
    for seed in [3, 8] {
        let b = skirmish(seed);
        let mut draws = b.dice.draws();
        let mut players = [
            volley::agents::by_name(SCHEDULER, seed, 0).unwrap(),
            volley::agents::by_name("greedy", seed, 1).unwrap(),
        ];
        volley::sim::play(b, &mut players, 3000, |b, a, ev| {
            let now = b.dice.draws();
            if now != draws {
                rolled += 1;
                assert!(!is_undoable(ev), "{} drew dice: {ev:?}", volley::report::heading(b, a));
            }
            if ev.iter().any(|e| matches!(e, Event::Fire(FireEvent::Fired { .. }))) {
                fired += 1;
                assert!(!is_undoable(ev));
            }
            draws = now;
        })
        .unwrap();
    }
    assert!(rolled > 20 && fired > 0, "rolled {rolled}, fired {fired}");
}

#[test]
fn undo_never_crosses_a_change_of_player_or_a_computer_players_action() {
    let mut app = app_with(skirmish(3), ["human", "random"]);
    press(&mut app, KeyCode::Enter);
    // Initiative ended without a roll: undoable.
    assert_eq!(app.world().resource::<UndoStack>().len(), 1);
    press(&mut app, KeyCode::Enter);
    // The command phase ended and the turn passed to the other side.
    assert_eq!(battle(&app).actor(), 1);
    let s = game(&app);
    assert!(s.undo.is_empty());
    assert!(s.undo.why_not().is_some());
    let before = battle(&app).state_hash();
    press_ctrl_z(&mut app);
    assert_eq!(battle(&app).state_hash(), before);
}

#[test]
fn the_overlay_keys_toggle_the_overlays_and_tools() {
    use volley::ui::measure::Overlays;
    let mut app = app_with(skirmish(3), ["human", "random"]);
    let o = |app: &App| app.world().resource::<Overlays>().clone();
    assert_eq!(o(&app), Overlays::default());
    press(&mut app, KeyCode::KeyV);
    press(&mut app, KeyCode::KeyC);
    press(&mut app, KeyCode::KeyR);
    let now = o(&app);
    assert!(now.arc && now.cone && now.command && !now.tool_active());
    press(&mut app, KeyCode::KeyL);
    assert!(o(&app).los_tool);
    // The tape replaces the line-of-sight tool; pressing it again puts it away.
    press(&mut app, KeyCode::KeyM);
    assert!(o(&app).tape && !o(&app).los_tool);
    press(&mut app, KeyCode::KeyM);
    assert!(!o(&app).tool_active());
    press(&mut app, KeyCode::KeyV);
    assert!(!o(&app).arc && o(&app).cone);
    // No key changed the battle.
    assert_eq!(battle(&app).actions, 0);
}

#[test]
fn a_remapped_key_takes_effect_on_the_real_bindings() {
    use volley::ui::settings::{Binding, Key, Settings};
    let mut app = app_with(skirmish(3), ["human", "random"]);
    assert_eq!(battle(&app).actions, 0);
    // End the phase with Space instead of Enter.
    app.world_mut()
        .resource_mut::<Settings>()
        .keys
        .insert(Binding::EndPhase, Key(KeyCode::Space));
    app.update();
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).actions, 0, "Enter no longer ends the phase");
    press(&mut app, KeyCode::Space);
    assert_eq!(battle(&app).actions, 1, "Space does");
    // The keypad's Enter is a fixed binding and still works.
    press(&mut app, KeyCode::NumpadEnter);
    assert_eq!(battle(&app).actions, 2);
}

#[test]
fn an_agent_waits_for_the_animation_of_the_last_action() {
    use volley::ui::animation::{Clip, Effect, Fx};
    let mut app = app_with(skirmish(5), ["human", "random"]);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).actor(), 1, "the agent's turn");
    // An effect that plays for a very long time: the agent waits.
    app.world_mut().spawn(Effect(Clip {
        fx: Fx::Hit {
            at: volley::rules::geometry::V2::new(0.0, 0.0),
        },
        start: 0.0,
        dur: 1.0e6,
    }));
    let start = battle(&app).actions;
    for _ in 0..300 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(3));
    }
    assert_eq!(battle(&app).actions, start, "no action while the animation plays");
    let effects: Vec<Entity> = app
        .world_mut()
        .query_filtered::<Entity, With<Effect>>()
        .iter(app.world())
        .collect();
    for e in effects {
        app.world_mut().despawn(e);
    }
    for _ in 0..400 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
        if battle(&app).actions > start {
            break;
        }
    }
    assert!(battle(&app).actions > start, "the agent acts once it has drained");
}

// ---- A whole player turn through the real input: the window's cursor, the mouse and keys ----

/// Union (bottom) against Confederates (top) on open ground. Union 0 (rifled, range 20 cm)
/// faces Reb 2 (smoothbore, range 10 cm) 16 cm away, so it may fire and Reb 2 cannot fire
/// back; Union 1 stands clear of every enemy. Colonel 0 (the Union HQ, commander 1) is
/// within 10 cm of both, so his order needs 7 or less. The dice are seeded with 7: the
/// order rolls 4+1 = 5 (issued, one action each) and Union 0's fire rolls [1 6 4 4] on 4+
/// (+1 first fire): 3 hits, and Reb 2 fails its suppression test.
fn firing_line() -> Battle {
    let units = [
        u(0, "regular_infantry_rifled", 4, 100.0, 60.0, 90.0),
        u(0, "regular_infantry_rifled", 4, 125.0, 60.0, 90.0),
        u(1, "regular_infantry_smoothbore", 4, 100.0, 76.0, 270.0),
        u(1, "regular_infantry_rifled", 4, 190.0, 150.0, 270.0),
    ];
    let mut b = battle_with(
        &units,
        volley::rules::terrain::Terrain::default(),
        [(80.0, 40.0), (150.0, 170.0)],
        [(112.0, 52.0), (150.0, 160.0)],
    );
    b.set_dice(volley::rules::dice::Dice::new(7));
    b
}

/// A left click at table point `p`.
fn click(app: &mut App, p: V2) {
    point_at(app, p);
    MouseButton::Left.press(app.world_mut());
    app.update();
    MouseButton::Left.release(app.world_mut());
    app.update();
    app.update();
}

fn selection(app: &App) -> Selection {
    *app.world().resource::<Selection>()
}

fn refusal(app: &App) -> Option<(String, volley::battle::Refusal)> {
    app.world().resource::<BattleLog>().refusal.clone()
}

/// Hot-seat, the Union player seated, on the firing line, in the initiative phase.
fn seated_on_the_firing_line() -> App {
    let mut app = app_with(firing_line(), ["human", "human"]);
    app.world_mut().resource_mut::<Seats>().viewer = Some(0);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Battle);
    app
}

#[test]
fn a_whole_player_turn_is_played_with_the_mouse_and_keys() {
    let mut app = seated_on_the_firing_line();
    let b = battle(&app);
    assert_eq!((b.phase, b.active, b.actions), (Phase::Initiative, 0, 0));
    let (union0, union1, reb2) = (0, 1, 2);
    let hq = b.commanders[HQ0 as usize].pos;
    let stand = |app: &App, u: u32| battle(app).rects(u)[1].center;

    // Enter: the initiative phase ends.
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).phase, Phase::Command);

    // Fire before any order: the rules refuse it, and the phase bar has the rule.
    let at = stand(&app, union0);
    click(&mut app, at);
    assert_eq!(selection(&app).unit, Some(union0));
    let at = stand(&app, reb2);
    point_at(&mut app, at);
    press(&mut app, KeyCode::KeyT);
    let (what, why) = refusal(&app).expect("fire without an order is refused");
    assert!(what.contains("Union 0") && what.contains("Reb 2"), "{what}");
    assert_eq!(why.rule, "BPT Command Phase");
    assert!(why.reason.contains("has not been issued an order"), "{why:?}");
    assert_eq!(battle(&app).actions, 1, "nothing changed");

    // Click the brigade commander, press O: his order for both units is rolled (5, need 7).
    click(&mut app, hq);
    assert_eq!(
        selection(&app),
        Selection {
            unit: None,
            commander: Some(HQ0)
        }
    );
    press(&mut app, KeyCode::KeyO);
    let b = battle(&app);
    assert_eq!(b.actions, 2);
    for u in [union0, union1] {
        let o = b.cmd.orders.get(&u).expect("ordered");
        assert_eq!((o.by, o.credits, o.finished), (HQ0, 1, false));
    }
    let (heading, lines) = app.world().resource::<BattleLog>().last.clone().expect("the order");
    assert!(heading.contains("Colonel 0 → Union 0, Union 1"), "{heading}");
    assert!(
        lines.iter().any(|l| l.contains("rolled 4+1 = 5: order issued")),
        "{lines:?}"
    );
    assert_eq!(refusal(&app), None, "an applied action clears the refusal");

    // Click Union 1, then drag it 5 cm north: it moves there, same facing, and has used its
    // order's action.
    let before = battle(&app).unit(union1).pose;
    let at = stand(&app, union1);
    click(&mut app, at);
    assert_eq!(selection(&app).unit, Some(union1));
    let grab = stand(&app, union1);
    drag(&mut app, grab, grab + V2::new(0.0, 5.0));
    let b = battle(&app);
    assert_eq!(b.actions, 3, "{:?}", refusal(&app));
    let after = b.unit(union1).pose;
    assert!(
        (after.pos.x - before.pos.x).abs() < 0.01 && (after.pos.y - before.pos.y - 5.0).abs() < 0.01,
        "{before:?} -> {after:?}"
    );
    assert_eq!(after.facing, before.facing);
    assert_eq!(b.cmd.orders[&union1].credits, 0);
    assert_eq!(b.step, volley::battle::Step::Open, "no enemy could fire at the move");

    // Click Union 0, point at Reb 2 and press T: the volley (3 hits, Reb 2 suppressed).
    let at = stand(&app, union0);
    click(&mut app, at);
    assert_eq!(selection(&app).unit, Some(union0));
    let at = stand(&app, reb2);
    point_at(&mut app, at);
    press(&mut app, KeyCode::KeyT);
    let b = battle(&app);
    assert_eq!(b.actions, 4, "{:?}", refusal(&app));
    assert_eq!(b.unit(reb2).hits, 3);
    assert!(b.unit(reb2).suppressed.is_some());
    assert_eq!(b.cmd.orders[&union0].credits, 0);
    let (heading, lines) = app.world().resource::<BattleLog>().last.clone().expect("the fire");
    assert!(
        heading.contains("Union 0 fire") && heading.contains("Reb 2"),
        "{heading}"
    );
    assert!(lines.iter().any(|l| l.contains("→ 3 hits")), "{lines:?}");
    assert_eq!(
        b.step,
        volley::battle::Step::Open,
        "Reb 2 is out of its range to fire back"
    );

    // Enter: the command phase ends, the charge and end phases pass, and the Confederate
    // player is handed the seat for their turn.
    press(&mut app, KeyCode::Enter);
    let b = battle(&app);
    assert_eq!((b.active, b.phase), (1, Phase::Initiative));
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Handover);
    // The record holds the turn as played: end phase, order, move, fire, end phase.
    let kinds: Vec<&str> = app
        .world()
        .resource::<GameRecord>()
        .recording
        .actions
        .iter()
        .map(|a| match a {
            Action::EndPhase => "end",
            Action::Order { .. } => "order",
            Action::Move { .. } => "move",
            Action::Fire { .. } => "fire",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["end", "order", "move", "fire", "end"]);
}

/// A left click whose press and release reach the app in one frame, as on a slow frame.
fn quick_click(app: &mut App, p: V2) {
    point_at(app, p);
    MouseButton::Left.press(app.world_mut());
    MouseButton::Left.release(app.world_mut());
    app.update();
    app.update();
    app.update();
}

fn pointer_order(app: &App) -> volley::ui::common::PointerOrder {
    app.world().resource::<volley::ui::common::PointerOrder>().clone()
}

/// Issue 16, orders on the table: with the brigade commander selected, the pointer over one
/// of his units shows the order and the roll it needs with its modifiers, and a click gives
/// it; with a unit selected, the pointer over an enemy shows the fire's dice, score, expected
/// hits and chance to suppress (or the rule that forbids it), and a click fires. The clicks
/// are quick ones, pressed and let go within one frame.
#[test]
fn a_click_on_the_table_orders_a_unit_and_fires_at_an_enemy() {
    let mut app = seated_on_the_firing_line();
    let (union0, reb2) = (0, 2);
    let hq = battle(&app).commanders[HQ0 as usize].pos;
    let stand = |app: &App, u: u32| battle(app).rects(u)[1].center;
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).phase, Phase::Command);

    // Union 0 selected, the pointer on Reb 2: no order yet, so the fire is refused, at the
    // pointer and, on a click, in the status line; the selection stays.
    let at = stand(&app, union0);
    quick_click(&mut app, at);
    assert_eq!(selection(&app).unit, Some(union0), "a quick click selects");
    let at = stand(&app, reb2);
    point_at(&mut app, at);
    let po = pointer_order(&app);
    assert!(po.refused && po.action.is_none(), "{po:?}");
    assert!(
        po.lines.iter().any(|l| l.contains("has not been issued an order")),
        "{po:?}"
    );
    quick_click(&mut app, at);
    assert_eq!(selection(&app).unit, Some(union0));
    assert_eq!(battle(&app).actions, 1, "nothing was sent");
    let status = app.world().resource::<BattleLog>().status.clone().unwrap_or_default();
    assert!(status.contains("has not been issued an order"), "{status}");

    // The commander selected, the pointer on Union 0: his order of that unit alone, need 7.
    press(&mut app, KeyCode::Escape);
    quick_click(&mut app, hq);
    assert_eq!(selection(&app).commander, Some(HQ0));
    let at = stand(&app, union0);
    point_at(&mut app, at);
    let po = pointer_order(&app);
    assert!(
        matches!(&po.action, Some(Action::Order { commander, units, charge: false, .. }) if *commander == HQ0 && units[..] == [union0]),
        "{po:?}"
    );
    assert!(po.lines.iter().any(|l| l.contains("need ≤ 7")), "{po:?}");
    quick_click(&mut app, at);
    let b = battle(&app);
    assert_eq!(b.actions, 2, "the order was sent: {:?}", refusal(&app));
    assert_eq!(b.cmd.orders.get(&union0).map(|o| o.by), Some(HQ0));
    assert!(!b.cmd.orders.contains_key(&1), "only the unit clicked is ordered");

    // Union 0 selected, the pointer on Reb 2: the fire's dice and odds; a click fires.
    press(&mut app, KeyCode::Escape);
    let at = stand(&app, union0);
    quick_click(&mut app, at);
    assert_eq!(selection(&app).unit, Some(union0));
    let at = stand(&app, reb2);
    point_at(&mut app, at);
    let po = pointer_order(&app);
    assert_eq!(
        po.action,
        Some(Action::Fire {
            unit: union0,
            target: reb2
        }),
        "{po:?}"
    );
    assert!(!po.refused);
    let text = po.lines.join("\n");
    for want in ["dice", "hit on", "expected hits", "suppress"] {
        assert!(text.contains(want), "{want}: {text}");
    }
    quick_click(&mut app, at);
    let b = battle(&app);
    assert_eq!(b.actions, 3, "{:?}", refusal(&app));
    assert!(b.unit(reb2).hits > 0);
    assert_eq!(selection(&app).unit, Some(union0), "the firer stays selected");
    assert_eq!(
        app.world().resource::<GameRecord>().recording.actions.last(),
        Some(&Action::Fire {
            unit: union0,
            target: reb2
        })
    );
}

/// Escape and a click that reach the app in one frame (a slow frame, as on a loaded machine):
/// Escape clears the selection and the click still selects what is under the pointer, but the
/// order the pointer showed for the cleared selection is not given.
#[test]
fn escape_and_a_click_in_one_frame_clear_the_selection_and_select_afresh() {
    let mut app = seated_on_the_firing_line();
    let union0 = 0;
    let hq = battle(&app).commanders[HQ0 as usize].pos;
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).phase, Phase::Command);
    let escape_and_click = |app: &mut App, p: V2| {
        point_at(app, p);
        KeyCode::Escape.press(app.world_mut());
        MouseButton::Left.press(app.world_mut());
        MouseButton::Left.release(app.world_mut());
        app.update();
        KeyCode::Escape.release(app.world_mut());
        app.update();
        app.update();
    };
    // Union 0 selected; Escape and a click on the colonel together: the colonel selected.
    let at = battle(&app).rects(union0)[1].center;
    quick_click(&mut app, at);
    assert_eq!(selection(&app).unit, Some(union0));
    escape_and_click(&mut app, hq);
    assert_eq!(
        selection(&app),
        Selection {
            unit: None,
            commander: Some(HQ0)
        }
    );
    // The colonel selected, the pointer on Union 0 shows his order; Escape and a click
    // together select Union 0 and order nothing.
    point_at(&mut app, at);
    assert!(matches!(pointer_order(&app).action, Some(Action::Order { .. })));
    let actions = battle(&app).actions;
    escape_and_click(&mut app, at);
    assert_eq!(
        selection(&app),
        Selection {
            unit: Some(union0),
            commander: None
        }
    );
    assert_eq!(battle(&app).actions, actions, "no order was sent: {:?}", refusal(&app));
}

/// Issue 16: the wheel turns a unit while it is dragged (15° a step), so a unit can be faced
/// with the mouse; the move sent carries the new facing.
#[test]
fn the_wheel_turns_a_dragged_unit() {
    let mut app = seated_on_the_firing_line();
    let union1 = 1;
    let hq = battle(&app).commanders[HQ0 as usize].pos;
    press(&mut app, KeyCode::Enter);
    click(&mut app, hq);
    press(&mut app, KeyCode::KeyO);
    assert_eq!(battle(&app).actions, 2, "both units ordered");
    press(&mut app, KeyCode::Escape);
    let before = battle(&app).unit(union1).pose;
    let grab = battle(&app).rects(union1)[1].center;
    click(&mut app, grab);
    assert_eq!(selection(&app).unit, Some(union1));
    point_at(&mut app, grab);
    MouseButton::Left.press(app.world_mut());
    app.update();
    point_at(&mut app, grab + V2::new(0.0, 2.0));
    // Two notches of the wheel, one a frame, while the button is held.
    for _ in 0..2 {
        let window = app
            .world_mut()
            .query_filtered::<Entity, With<bevy::window::PrimaryWindow>>()
            .single(app.world())
            .unwrap();
        app.world_mut().write_message(bevy::input::mouse::MouseWheel {
            unit: bevy::input::mouse::MouseScrollUnit::Line,
            x: 0.0,
            y: 1.0,
            window,
            phase: bevy::input::touch::TouchPhase::Moved,
        });
        app.update();
    }
    point_at(&mut app, grab + V2::new(0.0, 3.0));
    MouseButton::Left.release(app.world_mut());
    app.update();
    app.update();
    let b = battle(&app);
    assert_eq!(b.actions, 3, "{:?}", refusal(&app));
    let after = b.unit(union1).pose;
    let turned = volley::rules::geometry::wrap_angle(after.facing - before.facing).to_degrees();
    assert!((turned - 30.0).abs() < 0.01, "turned {turned}°");
    assert!(
        (after.pos.y - before.pos.y - 3.0).abs() < 0.01,
        "{before:?} -> {after:?}"
    );
}

#[test]
fn the_order_and_fire_keys_say_what_is_missing_and_the_rules_say_why_not() {
    // Seed 7 (`firing_line`): Union 0's order alone rolls 4+1 = 5, need 7: issued.
    let mut app = seated_on_the_firing_line();
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).phase, Phase::Command);
    let status = |app: &App| app.world().resource::<BattleLog>().status.clone().unwrap_or_default();
    // Nothing selected: O and T say what to select; nothing is sent.
    press(&mut app, KeyCode::KeyO);
    assert!(
        status(&app).contains("select a commander or a unit"),
        "{}",
        status(&app)
    );
    press(&mut app, KeyCode::KeyT);
    assert!(status(&app).contains("select the unit that fires"), "{}", status(&app));
    // Union 0 selected, the pointer on empty table: T asks for a target.
    let at = battle(&app).rects(0)[0].center;
    click(&mut app, at);
    point_at(&mut app, V2::new(20.0, 120.0));
    press(&mut app, KeyCode::KeyT);
    assert!(status(&app).contains("point at the enemy unit"), "{}", status(&app));
    assert_eq!(battle(&app).actions, 1);
    assert_eq!(refusal(&app), None);
    // The enemy's commander selected: O asks for his order, and the rules refuse it.
    let at = battle(&app).commanders[3].pos;
    click(&mut app, at);
    assert_eq!(selection(&app).commander, Some(3));
    press(&mut app, KeyCode::KeyO);
    let (_, why) = refusal(&app).expect("refused");
    assert!(why.rule.starts_with("BPT Command"), "{why:?}");
    assert_eq!(battle(&app).actions, 1);
    // Union 0 alone, by its own colonel (O with the unit selected): ordered.
    let at = battle(&app).rects(0)[0].center;
    click(&mut app, at);
    press(&mut app, KeyCode::KeyO);
    let b = battle(&app);
    assert_eq!(b.actions, 2);
    assert_eq!(b.cmd.orders.keys().copied().collect::<Vec<_>>(), [0]);
    assert_eq!(b.cmd.orders[&0].by, HQ0);
    let (_, lines) = app.world().resource::<BattleLog>().last.clone().expect("the order");
    assert!(lines.iter().any(|l| l.contains("rolled 4+1 = 5")), "{lines:?}");
}

/// The seated player's command phase with one unit still holding an order's action.
fn holding_an_order() -> (App, String) {
    let mut b = skirmish(3);
    while b.phase != Phase::Command {
        b.apply(&Action::EndPhase).unwrap();
    }
    let u = b.alive_units().find(|u| u.side == b.active).expect("a unit").id;
    let mut o = volley::battle::state::OrderState::new(b.unit(u).hq);
    o.count = 1;
    o.credits = 1;
    b.arranging().cmd.orders.insert(u, o);
    let name = b.unit(u).name.clone();
    let mut app = app_with(b, ["human", "human"]);
    app.world_mut().resource_mut::<Seats>().viewer = Some(0);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    app.update();
    (app, name)
}

#[test]
fn ending_the_command_phase_with_orders_left_asks_first() {
    use volley::ui::screens::battle::{EndPhaseAsk, units_holding_orders};
    let (mut app, name) = holding_an_order();
    assert_eq!(units_holding_orders(battle(&app)), vec![name]);
    let actions = battle(&app).actions;
    // Enter: asked, not ended.
    press(&mut app, KeyCode::Enter);
    assert_eq!((battle(&app).phase, battle(&app).actions), (Phase::Command, actions));
    assert!(app.world().resource::<EndPhaseAsk>().open(battle(&app)));
    // Escape: back to the orders, still the command phase.
    press(&mut app, KeyCode::Escape);
    assert!(!app.world().resource::<EndPhaseAsk>().open(battle(&app)));
    assert_eq!(battle(&app).phase, Phase::Command);
    // Enter, and Enter again: the phase ends.
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).phase, Phase::Command);
    press(&mut app, KeyCode::Enter);
    assert_ne!(battle(&app).phase, Phase::Command, "the second Enter ends the phase");
    assert!(!app.world().resource::<EndPhaseAsk>().open(battle(&app)));

    // Two quick taps of Enter in two frames running (each pressed and let go within its
    // frame, as on a slow frame): asked, then ended; the second tap is not swallowed by the
    // first one's hold-over.
    let (mut app, _) = holding_an_order();
    let tap = |app: &mut App| {
        KeyCode::Enter.press(app.world_mut());
        KeyCode::Enter.release(app.world_mut());
        app.update();
    };
    tap(&mut app);
    assert!(
        app.world().resource::<EndPhaseAsk>().open(battle(&app)),
        "the first tap asks"
    );
    tap(&mut app);
    app.update();
    app.update();
    app.update();
    assert_ne!(
        battle(&app).phase,
        Phase::Command,
        "the second tap, a frame later, confirms"
    );

    // With the setting off, Enter ends the phase at once.
    let (mut app, _) = holding_an_order();
    app.world_mut()
        .resource_mut::<volley::ui::settings::Settings>()
        .confirm_end_phase = false;
    press(&mut app, KeyCode::Enter);
    assert_ne!(battle(&app).phase, Phase::Command);
}

/// A game of `n` actions played through the window's pipeline by the eager agent's choices
/// (both seats human, so nothing else acts), the table never handed over.
fn played_app(n: usize) -> App {
    let mut app = volley::ui::headless_play_app(skirmish(6), "maps/skirmish.ron".into(), 6, ["human", "human"], true)
        .expect("app");
    let mut chooser = [
        volley::agents::by_name("eager", 6, 0).unwrap(),
        volley::agents::by_name("eager", 6, 1).unwrap(),
    ];
    for _ in 0..n {
        let b = battle(&app).clone();
        if b.is_over() {
            break;
        }
        let legal = b.legal_actions();
        let i = chooser[b.actor()].choose(&b, &legal);
        request(&mut app, legal[i].clone());
    }
    app
}

/// Each action in the window's log is marked with the game turn it was taken in, also the
/// one that ends a game turn (it leaves the battle in the next turn: the log used to mark it
/// with that one).
#[test]
fn the_log_marks_each_action_with_the_turn_it_was_taken_in() {
    let app = played_app(120);
    let rec = game(&app).recording.clone();
    let mut b = volley::replay::verify::start_battle(
        &rec,
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/maps/skirmish.ron")),
    )
    .unwrap();
    let mut taken_in = Vec::new();
    let mut crossings = 0;
    for a in &rec.actions {
        let turn = b.game_turn;
        b.step(a).unwrap();
        crossings += usize::from(b.game_turn != turn);
        taken_in.push(turn);
    }
    assert!(
        crossings > 0,
        "no action ended a game turn in {} actions",
        rec.actions.len()
    );
    let log = &app.world().resource::<BattleLog>().lines;
    // The first line is the title; an agent's reasons are not actions.
    let marked: Vec<u32> = log[1..].iter().filter(|l| l.action).map(|l| l.game_turn).collect();
    assert_eq!(marked, taken_in);
}

#[test]
fn a_loaded_game_brings_back_its_battle_log_and_the_saves_are_listed() {
    let app = played_app(120);
    let rec = game(&app).recording.clone();
    assert!(rec.actions.len() >= 100, "{}", rec.actions.len());
    // Saved and loaded as the menu does.
    let dir = std::env::temp_dir().join(format!("volley-ui-saves-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("skirmish.ron");
    let mut saved = rec.clone();
    saved.scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/maps/skirmish.ron").into();
    saved.save(&file).unwrap();
    let loaded = volley::replay::Recording::load(&file).unwrap();
    let start = volley::replay::verify::start_battle(&loaded, &file).unwrap();
    let log = volley::ui::panels::log::log_of_recording(start, &[], &loaded, None);
    let played = &app.world().resource::<BattleLog>().lines;
    assert_eq!(log.lines.len(), played.len());
    assert_eq!(&log.lines, played, "the same log, line for line");
    assert_eq!(log.last, app.world().resource::<BattleLog>().last);
    // The Load list: the scenario's title, how far it went, the file's date.
    let saves = volley::ui::screens::menu::list_saves(&dir);
    assert_eq!(saves.len(), 1);
    assert_eq!(saves[0].title, "Skirmish at Miller's Crossroads");
    assert!(
        saves[0].progress.contains("turn") && saves[0].progress.contains("action"),
        "{:?}",
        saves[0]
    );
    // One "phase" in the words, and the actions counted in good English.
    assert_eq!(saves[0].progress.matches("phase").count(), 1, "{:?}", saves[0]);
    assert!(!saves[0].progress.contains(" 1 actions"), "{:?}", saves[0]);
    assert!(
        saves[0].date.starts_with("20") && saves[0].date.len() == 16,
        "{}",
        saves[0].date
    );
    std::fs::write(dir.join("broken.ron"), "(").unwrap();
    let saves = volley::ui::screens::menu::list_saves(&dir);
    assert!(
        saves.iter().any(|s| s.progress.starts_with("cannot be read")),
        "{saves:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_dice_panel_keeps_the_last_actions_by_player_turn_and_follows_an_undo() {
    use volley::ui::panels::dice::{HISTORY, history};
    let mut app = played_app(120);
    let lines = app.world().resource::<BattleLog>().lines.clone();
    let turns = history(&lines, battle(&app), None);
    let kept: usize = turns.iter().map(|t| t.actions.len()).sum();
    assert_eq!(kept, HISTORY.min(game(&app).recording.actions.len()));
    assert!(turns.len() >= 2, "more than one player turn: {turns:?}");
    for w in turns.windows(2) {
        assert_ne!(w[0].label, w[1].label, "one group a player turn");
    }
    let sides = &battle(&app).sides;
    assert!(
        turns
            .iter()
            .all(|t| t.label.starts_with("Turn ") && sides.iter().any(|s| t.label.ends_with(&s.name))),
        "{:?}",
        turns.iter().map(|t| &t.label).collect::<Vec<_>>()
    );
    // The newest action is the last one logged, with its rolls.
    let (heading, rolls) = game(&app).last.clone().unwrap();
    let newest = turns.last().unwrap().actions.last().unwrap();
    assert_eq!((&newest.heading, &newest.lines), (&heading, &rolls));
    // Undo: the panel shows what the log shows.
    let before = game(&app).log.len();
    press_ctrl_z(&mut app);
    let lines = app.world().resource::<BattleLog>().lines.clone();
    if lines.len() < before {
        let newest = history(&lines, battle(&app), None)
            .last()
            .unwrap()
            .actions
            .last()
            .unwrap()
            .clone();
        let last_heading = lines.iter().rev().find(|l| l.action).unwrap().text.clone();
        assert_eq!(newest.heading, last_heading);
    }
}

/// The log of `actions` applied to `b` in turn, as the window keeps it (headings and the
/// events' lines), from the battle as it stands.
fn logged(b: &mut Battle, actions: &[Action]) -> Vec<volley::ui::session::LogLine> {
    let mut log = BattleLog::new(b, &[]);
    for a in actions {
        let heading = volley::report::heading(b, a);
        let turn = b.game_turn;
        let ev = b.apply(a).unwrap_or_else(|r| panic!("{a:?} refused: {r:?}"));
        log.push_action(b, turn, heading, &ev);
    }
    log.lines
}

/// Item 6 of "Nothing shown false, nothing lost": the hand-over summary counts what happened,
/// from the events: one fire is "fired 1 time" (the old text matching counted two), a charge
/// is a charge, not a move, a failed order is told, and before anything was played it says so
/// rather than "nothing moved".
#[test]
fn the_hand_over_sums_up_what_the_other_side_did_from_the_events() {
    use volley::ui::screens::handover::summary;
    let b = firing_line();
    let start = BattleLog::new(&b, &[]).lines;
    assert_eq!(
        summary(&b, &start, Some(1)),
        vec!["The battle begins: nothing has been played yet.".to_string()]
    );
    // Initiative fire: one fire, whatever lines it rolls.
    let mut fired = b.clone();
    end_phases_until(&mut fired, |b| b.phase == Phase::Initiative && b.actor() == 0);
    let fire = fired
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::InitiativeFire { .. }))
        .expect("initiative fire at 16 cm");
    let lines = logged(&mut fired, &[fire]);
    let text = summary(&fired, &lines, Some(1)).join("\n");
    let union = &fired.sides[0].name;
    assert!(text.contains(&format!("{union} fired 1 time.")), "{text}");
    assert!(!text.contains("moved"), "{text}");
    // An initiative charge: charged with the unit, not moved.
    let mut charged = b.clone();
    end_phases_until(&mut charged, |b| b.phase == Phase::Initiative && b.actor() == 0);
    if let Some(charge) = charged
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::InitiativeCharge { .. }))
    {
        let charger = charged.unit(charge.unit().unwrap()).name.clone();
        let lines = logged(&mut charged, &[charge]);
        let text = summary(&charged, &lines, Some(1)).join("\n");
        assert!(text.contains(&format!("charged with 1 unit ({charger})")), "{text}");
        assert!(!text.contains(&format!("moved 1 unit ({charger})")), "{text}");
    }
    // A failed order (2d6 of 6+6 against the need): told as failed, not left out.
    let mut ordered = b.clone();
    end_phases_until(&mut ordered, |b| b.phase == Phase::Command && b.actor() == 0);
    let order = ordered
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::Order { .. }))
        .expect("an order");
    script(&mut ordered, &[6, 5, 6, 5, 6, 5]);
    let lines = logged(&mut ordered, &[order]);
    let text = summary(&ordered, &lines, Some(1)).join("\n");
    assert!(text.contains("failed 1 order"), "{text}");
    // A real game's log since a hand-over says something.
    let app = played_app(80);
    let lines = app.world().resource::<BattleLog>().lines.clone();
    let s = summary(battle(&app), &lines[lines.len() / 2..], None);
    assert!(
        s.iter()
            .any(|l| l.contains("moved") || l.contains("fired") || l.contains("charged")),
        "{s:?}"
    );
}

#[test]
fn the_tutorial_comes_first_in_the_scenario_list() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps");
    let list = volley::ui::screens::menu::list_scenarios(&dir);
    let stems: Vec<String> = list
        .iter()
        .map(|e| e.path.file_stem().unwrap().to_string_lossy().to_string())
        .collect();
    assert_eq!(stems[0], volley::ui::screens::menu::TUTORIAL);
    assert_eq!(stems[1], "skirmish");
    let rest: Vec<&String> = list[2..].iter().map(|e| &e.title).collect();
    let mut sorted = rest.clone();
    sorted.sort();
    assert_eq!(rest, sorted, "the rest by title");
}

/// The lines closed of First Battle (`tests/data/first_battle_closed.ron`) at `seed`.
fn first_battle_closed(seed: u64) -> Battle {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/first_battle_closed.ron");
    volley::load_battle(&path, seed)
        .expect("the closed First Battle loads")
        .0
}

/// Issue 16: in hot-seat, the player who charged sees the melee before the table is handed
/// over. The Union orders a charge, the 5th New Hampshire charges the 21st Georgia, the
/// Confederate holds; the Union ends the command phase: the charge phase fights the melee and
/// the turn passes, but the table stays the Union player's, with the melee's lines and dice
/// (`ResultPause`), not the hand-over screen. A turn without a melee is handed over at once.
#[test]
fn the_charging_player_sees_the_melee_before_the_hand_over() {
    use volley::ui::screens::handover::{ResultPause, melee_to_show};
    let mut app = volley::ui::headless_play_app(
        first_battle_closed(2),
        "tests/data/first_battle_closed.ron".into(),
        2,
        ["human", "human"],
        false,
    )
    .expect("app");
    let take_seat = |app: &mut App, side: usize| {
        app.world_mut().resource_mut::<Seats>().viewer = Some(side);
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
        app.update();
        app.update();
    };
    take_seat(&mut app, 0);
    request(&mut app, Action::EndPhase);
    request(
        &mut app,
        Action::Order {
            commander: 0,
            units: vec![0, 1, 2],
            charge: true,
            dense: false,
            road: false,
        },
    );
    request(&mut app, Action::Charge { unit: 0, target: 3 });
    // The turn and then the screen follow the battle a frame each.
    app.update();
    app.update();
    // The Confederate's reaction: the table is handed over at once (no melee yet).
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Handover);
    assert_eq!(app.world().resource::<ResultPause>().0, None);
    take_seat(&mut app, 1);
    request(&mut app, Action::Pass);
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Handover);
    take_seat(&mut app, 0);
    assert_eq!(battle(&app).actor(), 0);
    request(&mut app, Action::EndPhase);
    app.update();
    app.update();
    // BPT "Consolidate" is the winner's choice (issue 64): the 21st Georgia held and stays.
    while let volley::battle::Step::Consolidate { unit, .. } = battle(&app).step {
        assert_eq!(battle(&app).unit(unit).side, 1, "the Confederate's own choice");
        assert_eq!(battle(&app).actor(), 1);
        request(&mut app, Action::Pass);
        app.update();
        app.update();
    }
    let b = battle(&app);
    assert_eq!((b.active, b.phase), (1, Phase::Initiative), "the Union's turn is over");
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Battle,
        "the table stays the Union player's"
    );
    let shown = app
        .world()
        .resource::<ResultPause>()
        .0
        .clone()
        .expect("the melee is shown");
    assert!(
        shown.iter().any(|l| l.text.starts_with("Charge on 21st Georgia:")),
        "{shown:?}"
    );
    assert!(
        shown.iter().any(|l| l.throws.iter().any(|t| t.what == "melee")),
        "with its dice: {shown:?}"
    );
    assert!(shown.iter().all(|l| !l.text.starts_with('—')), "no phase headings");
    // The melee the charge phase fought, before the consolidation's choice was logged.
    let lines = &app.world().resource::<BattleLog>().lines;
    let before_choice = lines.iter().rposition(|l| l.action).unwrap();
    assert_eq!(shown, melee_to_show(&lines[..before_choice]));
    // The Union player cannot act for the Confederates meanwhile.
    let n = battle(&app).actions;
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).actions, n, "Enter does not end the Confederate's phase");
}

/// The melee held on the table says nothing of a unit hidden from the player it is shown to
/// (`handover::melee_seen`, the hand-over summary's rule): the 5th New Hampshire's charge on
/// the 21st Georgia, told to the Union in full; with the 21st made hidden from the Union (as if
/// it were), its lines go and the Union's own remain; the Confederate, who knows it, is told
/// all.
#[test]
fn the_held_melee_says_nothing_of_a_unit_hidden_from_its_viewer() {
    use volley::ui::screens::handover::{melee_seen, melee_to_show};
    let mut b = first_battle_closed(2);
    let lines = logged(
        &mut b,
        &[
            Action::EndPhase,
            Action::Order {
                commander: 0,
                units: vec![0, 1, 2],
                charge: true,
                dense: false,
                road: false,
            },
            Action::Charge { unit: 0, target: 3 },
            Action::Pass,
            Action::EndPhase,
        ],
    );
    let all = melee_to_show(&lines);
    assert!(all.iter().any(|l| l.text.contains("21st Georgia")), "{all:?}");
    assert_eq!(melee_seen(&b, &lines, Some(0)), all, "the Union knows both units");
    b.arranging().unit_mut(3).hidden = true;
    let about =
        |l: &volley::ui::session::LogLine| l.event.as_ref().and_then(|e| volley::report::facts(e).summary.about);
    let union = melee_seen(&b, &lines, Some(0));
    assert!(union.len() < all.len(), "{union:?}");
    assert!(union.iter().all(|l| about(l) != Some(3)), "{union:?}");
    assert!(union.iter().any(|l| about(l) == Some(0)), "the 5th's own: {union:?}");
    assert_eq!(melee_seen(&b, &lines, Some(1)), all, "the Confederate knows its own");
}

/// A computer player that never does anything of its own: it passes every window and ends
/// every phase (what Enter does for a player).
struct PassingAgent;

impl volley::agents::Agent for PassingAgent {
    fn choose(&mut self, _: &Battle, legal: &[Action]) -> usize {
        legal
            .iter()
            .position(|a| *a == Action::Pass)
            .or_else(|| legal.iter().position(|a| *a == Action::EndPhase))
            .unwrap_or(0)
    }
    fn name(&self) -> &'static str {
        "passing"
    }
}

/// Solo play holds a melee on the table till the player goes on, the player's own as the
/// computer's (`ResultPause`, "Continue (Enter)"): the Union player against a computer's
/// Confederates that only pass (First Battle with the lines closed, seed 2). The 5th New
/// Hampshire charges the 21st Georgia, which holds; the Union ends the command phase: the
/// melee is fought and held, with its lines and dice. The Confederate's next decision (its
/// consolidation) is the computer's, and it waits: frames and seconds go by, nothing is
/// applied, and Enter does nothing. Once the player goes on, the computer acts. Held again at
/// the Union's own turn, Enter does not end the Union's phase; let go, it does.
#[test]
fn solo_play_holds_the_melee_until_the_player_goes_on() {
    use volley::ui::screens::handover::ResultPause;
    let mut app = volley::ui::headless_play_app(
        first_battle_closed(2),
        "tests/data/first_battle_closed.ron".into(),
        2,
        ["human", "scheduler"],
        false,
    )
    .expect("app");
    app.world_mut().non_send_mut::<volley::ui::Agents>().0[1] = Some(Box::new(PassingAgent));
    // Each frame 0.6 s, more than a computer player's pace (`play::AGENT_PACE`).
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(600),
    ));
    app.update();
    app.update();
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Battle,
        "solo: no hand-over"
    );
    assert_eq!(battle(&app).actor(), 0);
    let computer_acts = |app: &mut App| {
        let n = battle(app).actions;
        for _ in 0..300 {
            app.update();
            if battle(app).actions > n {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        false
    };
    request(&mut app, Action::EndPhase);
    request(
        &mut app,
        Action::Order {
            commander: 0,
            units: vec![0, 1, 2],
            charge: true,
            dense: false,
            road: false,
        },
    );
    request(&mut app, Action::Charge { unit: 0, target: 3 });
    // The Confederate's reaction: the computer holds (no melee yet, nothing held).
    assert_eq!(battle(&app).actor(), 1);
    assert_eq!(app.world().resource::<ResultPause>().0, None);
    assert!(computer_acts(&mut app), "the computer passes its reaction window");
    assert_eq!(battle(&app).actor(), 0);
    assert_eq!(app.world().resource::<ResultPause>().0, None, "no melee yet");
    request(&mut app, Action::EndPhase);
    let shown = app
        .world()
        .resource::<ResultPause>()
        .0
        .clone()
        .expect("the player's own melee is held");
    assert!(
        shown.iter().any(|l| l.text.starts_with("Charge on 21st Georgia:")),
        "{shown:?}"
    );
    assert!(
        shown.iter().any(|l| l.throws.iter().any(|t| t.what == "melee")),
        "with its dice: {shown:?}"
    );
    // The winner consolidates: the Confederate's choice, the computer's; it waits.
    assert!(
        matches!(battle(&app).step, volley::battle::Step::Consolidate { .. }) && battle(&app).actor() == 1,
        "the computer is to decide next: {:?}",
        battle(&app).step
    );
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Battle);
    let n = battle(&app).actions;
    assert!(!computer_acts(&mut app), "the computer acted while the melee was held");
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).actions, n, "nothing was played while the melee was held");
    assert_eq!(
        app.world().resource::<volley::ui::play::Thinking>().side,
        None,
        "nor thought"
    );
    assert!(app.world().resource::<ResultPause>().0.is_some(), "still held");
    // The player goes on ("Continue", what the panel's button and Enter do): the computer plays.
    app.world_mut().resource_mut::<ResultPause>().0 = None;
    assert!(computer_acts(&mut app), "the computer plays on");
    // The Union's turn again, the computer's Confederates done: a melee held now keeps the
    // player's own Enter from ending the phase.
    for _ in 0..50 {
        if battle(&app).actor() == 0 {
            break;
        }
        computer_acts(&mut app);
    }
    assert_eq!(battle(&app).actor(), 0, "the Union's turn");
    app.update();
    app.update();
    app.world_mut().resource_mut::<ResultPause>().0 = Some(shown);
    let n = battle(&app).actions;
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        battle(&app).actions,
        n,
        "Enter is not the player's while the melee is held"
    );
    app.world_mut().resource_mut::<ResultPause>().0 = None;
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).actions, n + 1, "let go, Enter ends the phase");
}

/// Issue 16: a commander's box-select. The units of his command inside the box, in window
/// pixels, are ordered as one formation with the need and its modifiers; Shift's charge order
/// too; a box with none, or one the rules refuse, says so.
#[test]
fn a_box_orders_the_units_of_the_commander_inside_it() {
    use volley::ui::table::orders::{box_order, units_in_box};
    let mut b = first_battle_closed(2);
    b.step(&Action::EndPhase).unwrap();
    // Pixels = cm × 10, y down, for the test.
    let px = |p: V2| Some(Vec2::new(p.x as f32 * 10.0, 1000.0 - p.y as f32 * 10.0));
    let pos = |id: usize| b.units[id].pose.pos;
    let (a, c) = (pos(0), pos(1));
    let area = Rect::from_corners(
        px(V2::new(a.x.min(c.x) - 3.0, a.y.max(c.y) + 3.0)).unwrap(),
        px(V2::new(a.x.max(c.x) + 3.0, a.y.min(c.y) - 3.0)).unwrap(),
    );
    let inside = units_in_box(&b, 0, area, px);
    assert_eq!(inside, vec![0, 1], "the 5th and the 7th, not the guns nor the enemy");
    let o = box_order(&b, 0, &inside, true);
    let want = Action::Order {
        commander: 0,
        units: vec![0, 1],
        charge: true,
        dense: false,
        road: false,
    };
    assert_eq!(o.action.as_ref(), Some(&want));
    assert!(!o.refused);
    let said = o.lines.join(" | ");
    assert!(said.contains("need ≤ 6") && said.contains("distance"), "{said}");
    assert!(said.contains("passes 42%"), "2d6 ≤ 6 is 15 in 36: {said}");
    let plain = box_order(&b, 0, &inside, false);
    assert!(plain.lines.iter().any(|l| l.contains("Shift")), "{:?}", plain.lines);
    assert!(matches!(plain.action, Some(Action::Order { charge: false, .. })));
    // The whole table: every unit of his (the enemy's are not his).
    let all = units_in_box(&b, 0, Rect::new(-1e4, -1e4, 1e4, 1e4), px);
    assert_eq!(all, vec![0, 1, 2]);
    // An empty box says what to do; a refused order says the rule.
    assert!(box_order(&b, 0, &[], false).refused);
    b.step(&want).unwrap();
    b.step(&Action::Charge { unit: 0, target: 3 }).unwrap();
    b.step(&Action::Pass).unwrap();
    let locked = box_order(&b, 0, &[0], false);
    assert!(locked.refused && locked.action.is_none());
    assert!(
        locked.lines.join(" ").contains("locked in a charge"),
        "{:?}",
        locked.lines
    );
}

/// A computer player that waits for the test's word before it chooses (ending the phase).
struct WaitingAgent(std::sync::mpsc::Receiver<()>);

impl volley::agents::Agent for WaitingAgent {
    fn choose(&mut self, _: &Battle, legal: &[Action]) -> usize {
        // Bounded, so a main thread that waited on it would go on (and the test fail) rather
        // than hang.
        let _ = self.0.recv_timeout(std::time::Duration::from_secs(20));
        legal.iter().position(|a| *a == Action::EndPhase).unwrap_or(0)
    }
    fn name(&self) -> &'static str {
        "waiting"
    }
}

#[test]
fn a_computer_player_thinks_off_the_frame_and_the_phase_bar_says_so() {
    use volley::ui::play::Thinking;
    let b = skirmish(3);
    let side = b.actor();
    let mut seats = ["human", "human"];
    seats[side] = "scheduler";
    let mut app = app_with(b, seats);
    let (go, wait) = std::sync::mpsc::channel();
    app.world_mut().non_send_mut::<volley::ui::Agents>().0[side] = Some(Box::new(WaitingAgent(wait)));
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(600),
    ));
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    let before = battle(&app).actions;
    // Frames go on while it thinks: the phase bar's "thinking…" is on, nothing is applied.
    for _ in 0..8 {
        app.update();
    }
    assert_eq!(app.world().resource::<Thinking>().side, Some(side));
    assert_eq!(battle(&app).actions, before, "nothing applied while it thinks");
    go.send(()).unwrap();
    for _ in 0..200 {
        app.update();
        if battle(&app).actions > before {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(battle(&app).actions, before + 1, "its choice was applied");
    assert_eq!(app.world().resource::<Thinking>().side, None);
    assert_eq!(app.world().resource::<Thinking>().decided, 1);
    assert!(
        app.world().non_send::<volley::ui::Agents>().0[side].is_some(),
        "the agent is back in its seat"
    );
}

/// Every corner point of the troops' drawn shapes (`table::stands`), in table cm.
fn drawn_troop_points(app: &mut App) -> Vec<Vec2> {
    use bevy_prototype_lyon::prelude::{Shape, tess::path::Event};
    let world = app.world_mut();
    let mut q = world.query_filtered::<&Shape, With<volley::ui::table::stands::StandLayer>>();
    let mut out = Vec::new();
    for shape in q.iter(world) {
        for e in shape.path.iter() {
            match e {
                Event::Begin { at } => out.push(Vec2::new(at.x, at.y)),
                Event::Line { to, .. } | Event::Quadratic { to, .. } | Event::Cubic { to, .. } => {
                    out.push(Vec2::new(to.x, to.y))
                }
                Event::End { .. } => {}
            }
        }
    }
    out
}

/// Item 2 of "Nothing shown false, nothing lost": after Ctrl+Z on a move, the troops are drawn
/// where the unit stands again, not where the undone move left them (the undo landed between
/// the pieces' sync and the drawing, and nothing drew again until the next action).
#[test]
fn undo_redraws_the_troops_where_the_unit_stands() {
    use volley::battle::Action;
    let mut app = seated_in_command_phase();
    app.add_plugins(volley::ui::table::stands::plugin);
    // No gliding: every unit is drawn by the troops' layers, not the animation's.
    app.world_mut()
        .resource_mut::<volley::ui::settings::Settings>()
        .animation_speed = 0.0;
    app.update();
    let legal = battle(&app).legal_actions();
    let order = legal
        .iter()
        .find(|a| {
            volley::report::heading(battle(&app), a).contains("Vincent")
                && matches!(a, Action::Order { units, .. } if units.len() == 1)
        })
        .cloned()
        .expect("Vincent may order one unit");
    let Action::Order { units, .. } = &order else {
        unreachable!()
    };
    let unit = units[0];
    request(&mut app, order.clone());
    let mv = battle(&app)
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::Move { unit: u, .. } if *u == unit))
        .expect("the ordered unit may move");
    let corners = |b: &Battle| -> Vec<Vec2> {
        b.rects(unit)
            .iter()
            .flat_map(|r| r.corners())
            .map(|c| Vec2::new(c.x as f32, c.y as f32))
            .collect()
    };
    let before = corners(battle(&app));
    request(&mut app, mv);
    let moved = corners(battle(&app));
    assert!(before.iter().zip(&moved).any(|(a, b)| a.distance(*b) > 1.0), "it moved");
    press_ctrl_z(&mut app);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(corners(battle(&app)), before, "the move is undone");
    let drawn = drawn_troop_points(&mut app);
    let shown = |p: &Vec2| drawn.iter().any(|d| d.distance(*p) < 0.05);
    assert!(
        before.iter().all(shown),
        "the unit is drawn where it stands: {before:?} among {} points, e.g. {:?}",
        drawn.len(),
        drawn
            .iter()
            .filter(|d| d.distance(before[0]) < 15.0)
            .take(30)
            .collect::<Vec<_>>()
    );
    assert!(
        !moved.iter().any(shown),
        "nothing is drawn where the undone move left it"
    );
}

/// Item 4 of "Nothing shown false, nothing lost": with the line-of-sight tool on, a click on a
/// window over the table (the Overlays toolbar's header) is the window's, never a sight point;
/// the same click off the window sets the sight line's first end.
#[test]
fn a_click_on_a_window_over_the_table_never_sets_a_sight_point() {
    use volley::ui::common::OverWindow;
    use volley::ui::measure::{LosProbe, Overlays};
    let mut app = seated_in_command_phase();
    app.add_plugins(volley::ui::table::measure::plugin);
    app.world_mut().resource_mut::<Overlays>().los_tool = true;
    app.insert_resource(OverWindow(true));
    app.update();
    let p = V2::new(100.0, 90.0);
    click(&mut app, p);
    assert_eq!(app.world().resource::<Overlays>().los, LosProbe::default());
    app.insert_resource(OverWindow(false));
    click(&mut app, p);
    let los = app.world().resource::<Overlays>().los.clone();
    assert!(los.from.is_some_and(|(at, _)| at.dist(p) < 0.5), "{los:?}");
}

// ---- The decision windows as states (issue 63) ----

/// Union 0 (ordered, id 0) facing north at (100, 50), two Confederate lines (ids 1, 2) facing
/// it 12 cm off, in the Union command phase: an advance of 2.1 cm brings it within their
/// opportunity fire (as `rules_command::opportunity`), with the seats `sides`.
fn before_opportunity_fire(sides: [&str; 2]) -> App {
    let mut b = super::rules_command::opportunity();
    b.arranging().cmd.orders.insert(0, super::fire::order(HQ0));
    let mut app = app_with(b, sides);
    app.world_mut().resource_mut::<Seats>().viewer = Some(0);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    app.update();
    app
}

fn advance_into_their_fire(app: &mut App) {
    let facing = battle(app).unit(0).pose.facing;
    let to = volley::rules::geometry::Pose::new(V2::new(100.0, 52.1), facing);
    request(app, Action::Move { unit: 0, to });
}

fn window(app: &App) -> Option<volley::app::DecisionWindow> {
    app.world()
        .get_resource::<State<volley::app::DecisionWindow>>()
        .map(|s| *s.get())
}

fn prompt(app: &App) -> Option<String> {
    app.world().resource::<volley::ui::prompt::WindowPrompt>().0.clone()
}

/// Issue 63, the decision window drives what it names: the move opens BPT "Opportunity
/// Fire" for the Confederates (`DecisionWindow::Reaction`); in hot-seat the table is handed
/// to their player, and entering the window put its prompt in the phase bar, naming the unit
/// that moved. Passing (Enter) closes the window and the prompt goes with it.
#[test]
fn an_opportunity_fire_window_prompts_the_player_who_decides_it() {
    use volley::app::DecisionWindow;
    let mut app = before_opportunity_fire(["human", "human"]);
    assert_eq!((window(&app), prompt(&app)), (Some(DecisionWindow::Open), None));
    advance_into_their_fire(&mut app);
    let b = battle(&app);
    assert!(
        matches!(&b.step, volley::battle::Step::Reaction { mover: 0, .. }),
        "{:?}",
        b.step
    );
    assert_eq!(window(&app), Some(DecisionWindow::Reaction));
    // The turn, then the screen, follow a frame each.
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Handover);
    assert_eq!(
        prompt(&app).as_deref(),
        Some("Union 0 moved: your opportunity fire, or Pass (Enter)")
    );
    // The Confederate player takes the seat and passes.
    app.world_mut().resource_mut::<Seats>().viewer = Some(1);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    app.update();
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).step, volley::battle::Step::Open);
    assert_eq!((window(&app), prompt(&app)), (Some(DecisionWindow::Open), None));
}

/// A window a computer player decides prompts nobody at the table.
#[test]
fn a_window_the_computer_decides_has_no_prompt() {
    let mut app = before_opportunity_fire(["human", "scheduler-easy"]);
    advance_into_their_fire(&mut app);
    assert!(matches!(
        window(&app),
        Some(volley::app::DecisionWindow::Reaction | volley::app::DecisionWindow::Open)
    ));
    assert_eq!(prompt(&app), None);
}

/// A computer player that orders the 21st Georgia (unit 3) when it can and says so, naming it
/// in its reason as the look-ahead names a runner-up; otherwise it passes and ends phases.
struct OrdersTheGeorgians(Option<String>);

impl volley::agents::Agent for OrdersTheGeorgians {
    fn choose(&mut self, b: &Battle, legal: &[Action]) -> usize {
        let order = legal
            .iter()
            .position(|a| matches!(a, Action::Order { units, .. } if units.contains(&3)));
        self.0 = order.map(|_| format!("{}: advance; against +0.3 for holding", b.unit(3).name));
        order
            .or_else(|| legal.iter().position(|a| *a == Action::Pass))
            .or_else(|| legal.iter().position(|a| *a == Action::EndPhase))
            .unwrap_or(0)
    }
    fn reason(&self) -> Option<String> {
        self.0.clone()
    }
    fn name(&self) -> &'static str {
        "orders the Georgians"
    }
}

/// Solo play shows the player nothing of a computer's unit hidden from them (`view::told`):
/// the Union player against a computer whose 21st Georgia is hidden from the Union (made so,
/// as hidden set-up makes it; First Battle closed, seed 2). The computer orders the 21st: its
/// heading is "an action your side did not see" in the Union's log and dice panel, the command
/// roll (which names the 21st) and the computer's reason are not shown, and the ring on the
/// table says its commander "gives an order" without the reason. The same log read by the
/// Confederate, or by everyone, names the 21st (so the test would see a leak).
#[test]
fn solo_play_names_no_unit_of_the_computers_hidden_from_the_player() {
    use volley::ui::panels::dice::history;
    use volley::ui::session::UNSEEN_ACTION;
    let mut b = first_battle_closed(2);
    b.arranging().unit_mut(3).hidden = true;
    let name = b.unit(3).name.clone();
    assert_eq!(name, "21st Georgia");
    let mut app = volley::ui::headless_play_app(
        b,
        "tests/data/first_battle_closed.ron".into(),
        2,
        ["human", "scheduler"],
        false,
    )
    .expect("app");
    app.world_mut().non_send_mut::<volley::ui::Agents>().0[1] = Some(Box::new(OrdersTheGeorgians(None)));
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(600),
    ));
    app.update();
    app.update();
    assert_eq!(
        app.world().resource::<Seats>().fog_viewer(),
        Some(0),
        "the Union's table"
    );
    // The Union ends its phases; the computer's turn comes.
    for _ in 0..6 {
        if battle(&app).actor() == 1 {
            break;
        }
        request(&mut app, Action::EndPhase);
    }
    assert_eq!(battle(&app).actor(), 1);
    let ordered = |app: &App| {
        game(app)
            .recording
            .actions
            .iter()
            .any(|a| matches!(a, Action::Order { units, .. } if units.contains(&3)))
    };
    for _ in 0..600 {
        if ordered(&app) {
            break;
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(ordered(&app), "the computer ordered the 21st");
    assert!(battle(&app).unit(3).hidden, "and it is still hidden");
    let lines = app.world().resource::<BattleLog>().lines.clone();
    let read = |viewer: Option<usize>| -> Vec<String> {
        lines
            .iter()
            .filter_map(|l| l.shown_to(viewer))
            .map(str::to_string)
            .collect()
    };
    let union = read(Some(0));
    assert!(union.iter().all(|l| !l.contains(&name)), "{union:#?}");
    assert!(
        union.iter().any(|l| l == UNSEEN_ACTION),
        "the order's heading: {union:#?}"
    );
    for viewer in [Some(1), None] {
        let all = read(viewer);
        assert!(
            all.iter().any(|l| l.contains(&name) && l.contains("orders")),
            "{all:#?}"
        );
        assert!(
            all.iter().any(|l| l.contains("against +0.3 for holding")),
            "the reason: {all:#?}"
        );
    }
    let dice = history(&lines, battle(&app), Some(0));
    let said: Vec<&String> = dice
        .iter()
        .flat_map(|t| &t.actions)
        .flat_map(|a| std::iter::once(&a.heading).chain(&a.lines))
        .collect();
    assert!(said.iter().all(|l| !l.contains(&name)), "{said:#?}");
    assert!(said.iter().any(|l| *l == UNSEEN_ACTION), "{said:#?}");
    let rings: Vec<String> = app
        .world_mut()
        .query::<&volley::ui::follow::Highlight>()
        .iter(app.world())
        .map(|h| h.text.clone())
        .collect();
    assert!(!rings.is_empty(), "the computer's commander is ringed");
    assert!(
        rings.iter().all(|t| !t.contains(&name) && !t.contains("against")),
        "{rings:?}"
    );
    assert!(
        rings.iter().any(|t| t.ends_with(volley::ui::follow::UNREAD_DEED)),
        "{rings:?}"
    );
}

/// Issue 66, "a replay can show it": the replay viewer says a computer's recorded plan in its
/// log, as the game said it, and shows it in the orders panel (`ComputerPlan`) from the action
/// it came with; a seek to the start takes it back, playing on says it again.
#[test]
fn the_replay_viewer_says_the_computers_plan() {
    use volley::ui::follow::ComputerPlan;
    use volley::ui::replay::{Viewer, seek_world};
    let file = std::env::temp_dir().join(format!("volley-ui-plan-{}.ron", std::process::id()));
    planned_gettysburg_recording(&file);
    let rec = volley::replay::Recording::load(&file).unwrap();
    let t = volley::replay::timeline::Timeline::build(rec.clone(), &file).unwrap();
    let _ = std::fs::remove_file(&file);
    let plan = rec.plans[0].text.clone();
    let mut app = app_with(t.state_at(0), ["replay", "replay"]);
    app.insert_resource(Viewer::new(t));
    app.update();
    let said = |app: &App| {
        game(app)
            .log
            .iter()
            .filter(|l| l.text == format!("Confederate, played by the computer (scheduler): {plan}"))
            .count()
    };
    let shown = |app: &App| app.world().resource::<ComputerPlan>().0.clone();
    seek_world(app.world_mut(), 10);
    assert_eq!(said(&app), 1, "{:#?}", game(&app).log);
    assert_eq!(shown(&app), [None, Some(plan.clone())]);
    seek_world(app.world_mut(), 0);
    assert_eq!(said(&app), 0);
    assert_eq!(shown(&app), [None, None]);
    // Played: the first action brings it.
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(700),
    ));
    app.world_mut().resource_mut::<Viewer>().playing = true;
    for _ in 0..4 {
        app.update();
    }
    assert!(app.world().resource::<Viewer>().at >= 1);
    assert_eq!(said(&app), 1);
    assert_eq!(shown(&app)[1].as_deref(), Some(plan.as_str()));
}
