//! The window's playing part without a window: a headless app with the real bindings
//! (leafwing-input-manager), the session and the battle screen's keys. Real key presses,
//! sent as keyboard input, play through a player turn.

use super::common::*;
use bevy::prelude::*;
use leafwing_input_manager::prelude::Buttonlike;
use volley::battle::ecs::BattleState;
use volley::battle::{Battle, Phase};
use volley::ui::{Screen, Session};

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

fn battle(app: &App) -> &Battle {
    &app.world().resource::<BattleState>().0
}

#[test]
fn enter_ends_the_phases_of_a_player_turn_and_the_other_player_is_handed_the_seat() {
    let mut app = app_with(skirmish(3), ["human", "human"]);
    // Both sides human: the first player must take the seat first.
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Handover);
    app.world_mut().resource_mut::<Session>().viewer = Some(0);
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
    let s = app.world().resource::<Session>();
    assert_eq!(s.recording.actions.len() as u64, before);
    assert!(
        s.log.iter().any(|l| l.action && l.text.contains("end phase")),
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
    use volley::ui::camera::{drag_action, pick_at};
    let b = skirmish(3);
    let at = |p: volley::rules::geometry::V2| Vec2::new(p.x as f32, p.y as f32);
    // A stand's centre picks its unit.
    let u = b.alive_units().nth(3).expect("a unit");
    let r = b.rects(u.id)[0];
    assert_eq!(
        pick_at(&b, at(r.center)),
        Selection {
            unit: Some(u.id),
            commander: None
        }
    );
    // A commander's base picks the commander.
    let c = &b.commanders[1];
    assert_eq!(
        pick_at(&b, at(c.pos) + Vec2::new(0.5, 0.0)),
        Selection {
            unit: None,
            commander: Some(c.id)
        }
    );
    // The empty corner of the table picks nothing.
    assert_eq!(pick_at(&b, Vec2::new(0.5, 0.5)), Selection::default());
    // Dragging the unit 4 cm north asks for a move of its pose by as much, same facing.
    let sel = Selection {
        unit: Some(u.id),
        commander: None,
    };
    let grab = at(r.center);
    match drag_action(&b, &sel, grab, grab + Vec2::new(0.0, 4.0)) {
        Some(volley::battle::Action::Move { unit, to }) => {
            assert_eq!(unit, u.id);
            assert!((to.pos.y - u.pose.pos.y - 4.0).abs() < 1e-4 && (to.pos.x - u.pose.pos.x).abs() < 1e-4);
            assert_eq!(to.facing, u.pose.facing);
        }
        other => panic!("expected a move, got {other:?}"),
    }
    // A click without moving is no drag.
    assert_eq!(drag_action(&b, &sel, grab, grab + Vec2::new(0.1, 0.0)), None);
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
    volley::sim::cap_turns(&mut start, Some(3));
    let mut players = [
        volley::agents::by_name("scheduler", 5, 0).unwrap(),
        volley::agents::by_name("scheduler", 5, 1).unwrap(),
    ];
    volley::sim::play(start, &mut players, 100_000, |b, a, ev| rec.push(b, a, ev)).unwrap();
    rec.save(&path).unwrap();
    let t = volley::replay::timeline::Timeline::build(rec.clone(), &path).unwrap();
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
    let log_len = app.world().resource::<Session>().log.len();
    assert!(log_len > n, "the log follows the replay: {log_len} lines");
    // Back to the middle and take command there, hot-seat.
    seek_world(app.world_mut(), n / 2);
    take_command(app.world_mut(), ["human".into(), "human".into()]).unwrap();
    assert!(app.world().get_resource::<Viewer>().is_none());
    let s = app.world().resource::<Session>();
    assert_eq!(s.recording.actions.len(), n / 2);
    assert_eq!(s.sides, ["human".to_string(), "human".to_string()]);
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
    let before = b.describe_action(&order);
    let mut app = app_with(b, ["human", "scheduler"]);
    app.world_mut().write_message(volley::battle::ecs::ActionRequest(order));
    app.update();
    let s = app.world().resource::<Session>();
    let (heading, lines) = s.last.clone().expect("the order was applied");
    assert!(heading.ends_with(&before), "{heading} / {before}");
    let need = |t: &str| t.split("need ≤ ").nth(1).and_then(|r| r.chars().next());
    assert_eq!(need(&heading), need(&lines[0]), "{heading} / {lines:?}");
}

/// Hot-seat skirmish (seed 3) with the first player seated, in the command phase.
fn seated_in_command_phase() -> App {
    let mut app = app_with(skirmish(3), ["human", "human"]);
    app.world_mut().resource_mut::<Session>().viewer = Some(0);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    app.update();
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).phase, Phase::Command);
    app
}

/// Ask for `a` as the orders panel does, and let the session take it in.
fn request(app: &mut App, a: volley::battle::Action) {
    app.world_mut().write_message(volley::battle::ecs::ActionRequest(a));
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
    let s = app.world().resource::<Session>();
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("undo-test.ron");
    let (b, hash) = volley::replay::verify::verify(&s.recording, &here).expect("the recording verifies");
    assert_eq!(hash, battle(app).state_hash());
    assert_eq!(b.actions, battle(app).actions);
}

#[test]
fn undo_takes_back_a_step_without_dice_and_not_a_roll() {
    use volley::battle::Action;
    use volley::ui::undo::DICE_ROLLED;
    let mut app = seated_in_command_phase();
    let legal = battle(&app).legal_actions();
    let vincent = |a: &&Action| battle(&app).describe_action(a).contains("Vincent");
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
        let s = app.world().resource::<Session>();
        (s.log.len(), s.recording.actions.len())
    };
    request(&mut app, cmd_move.clone());
    assert_ne!(battle(&app).state_hash(), before);
    // Ending the initiative phase (no roll) and the move can both be taken back.
    assert_eq!(app.world().resource::<Session>().undo.len(), 2);
    press_ctrl_z(&mut app);
    assert_eq!(battle(&app).state_hash(), before);
    let s = app.world().resource::<Session>();
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
    assert_eq!(app.world().resource::<Session>().undo.why_not(), Some(DICE_ROLLED));
    press(&mut app, KeyCode::Backspace);
    assert_eq!(battle(&app).state_hash(), ordered, "a roll is not undone");
    let status = app.world().resource::<Session>().status.clone().unwrap_or_default();
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
    assert_eq!(app.world().resource::<Session>().undo.len(), 2);
    press(&mut app, KeyCode::Backspace);
    assert_eq!(battle(&app).state_hash(), after_first);
    press_ctrl_z(&mut app);
    assert_eq!(battle(&app).state_hash(), ordered);
    // Nothing more: the order's roll stands.
    press_ctrl_z(&mut app);
    assert_eq!(battle(&app).state_hash(), ordered);
    // The recording dropped the undone moves: it re-plays to the table's state.
    recording_verifies(&app);
    assert_eq!(app.world().resource::<Session>().recording.actions.last(), Some(&order));
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
            volley::agents::by_name("scheduler", seed, 0).unwrap(),
            volley::agents::by_name("greedy", seed, 1).unwrap(),
        ];
        volley::sim::play(b, &mut players, 3000, |b, a, ev| {
            let now = b.dice.draws();
            if now != draws {
                rolled += 1;
                assert!(!is_undoable(ev), "{} drew dice: {ev:?}", b.describe_action(a));
            }
            if ev.iter().any(|e| matches!(e, Event::Fired { .. })) {
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
    assert_eq!(app.world().resource::<Session>().undo.len(), 1);
    press(&mut app, KeyCode::Enter);
    // The command phase ended and the turn passed to the other side.
    assert_eq!(battle(&app).actor(), 1);
    let s = app.world().resource::<Session>();
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
    use volley::ui::animation::Anim;
    let mut app = app_with(skirmish(5), ["human", "random"]);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    assert_eq!(battle(&app).actor(), 1, "the agent's turn");
    // An animation that never ends (speed set, clock frozen by a huge clip): the agent waits.
    {
        let mut anim = app.world_mut().resource_mut::<Anim>();
        anim.push(vec![(
            volley::ui::animation::Fx::Hit {
                at: volley::rules::geometry::V2::new(0.0, 0.0),
            },
            1.0e6,
            0.0,
        )]);
    }
    let start = battle(&app).actions;
    for _ in 0..300 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(3));
    }
    assert_eq!(battle(&app).actions, start, "no action while the animation plays");
    app.world_mut().resource_mut::<Anim>().clips.clear();
    for _ in 0..400 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
        if battle(&app).actions > start {
            break;
        }
    }
    assert!(battle(&app).actions > start, "the agent acts once it has drained");
}
