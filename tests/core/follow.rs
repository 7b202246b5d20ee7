//! Issue 16, following the computer: a computer player's acting piece is ringed on the table
//! with what it did and why, and the results of every action float over the units struck, in
//! plain words (`ui::follow`), headless.

use super::common::*;
use bevy::prelude::*;
use volley::app::BattleState;
use volley::battle::Event;
use volley::battle::event::KnockOut;
use volley::battle::event::families::*;
use volley::rules::geometry::{Pose, V2};
use volley::ui::camera::on_table;
use volley::ui::follow::{Float, Highlight, results};

/// The camera follows a computer's piece without showing past the table's edge: on *First
/// Battle*'s 120 × 90 cm table, a view 60 × 40 cm wide sent to a gun at (60, 85) stops with
/// its top edge on the table's (centre y 70); a piece in the middle is centred; a view wider
/// than the table is centred on it along that side.
#[test]
fn the_follow_camera_keeps_the_view_on_the_table() {
    let table = Vec2::new(120.0, 90.0);
    let half = Vec2::new(30.0, 20.0);
    assert_eq!(on_table(Vec2::new(60.0, 85.0), half, table), Vec2::new(60.0, 70.0));
    assert_eq!(on_table(Vec2::new(5.0, 3.0), half, table), Vec2::new(30.0, 20.0));
    assert_eq!(on_table(Vec2::new(50.0, 50.0), half, table), Vec2::new(50.0, 50.0));
    assert_eq!(
        on_table(Vec2::new(10.0, 50.0), Vec2::new(80.0, 20.0), table),
        Vec2::new(60.0, 50.0)
    );
}

#[test]
fn results_are_said_per_unit_in_plain_words() {
    let p = Pose::new(V2::new(0.0, 0.0), 0.0);
    let events = vec![
        Event::Morale(MoraleEvent::HitsTaken {
            unit: 3,
            hits: 1,
            total: 1,
            value: 3,
        }),
        Event::Morale(MoraleEvent::HitsTaken {
            unit: 5,
            hits: 2,
            total: 2,
            value: 3,
        }),
        Event::Morale(MoraleEvent::Suppressed {
            unit: 3,
            why: volley::battle::event::SuppressedWhy::Test,
        }),
        Event::Morale(MoraleEvent::FellBack {
            unit: 3,
            rolls: vec![3],
            distance: 3.0,
            from: p,
            to: p,
        }),
        Event::Morale(MoraleEvent::KnockedOut {
            unit: 5,
            why: KnockOut::Hits,
        }),
    ];
    assert_eq!(
        results(&events),
        vec![
            (3, "1 hit, suppressed, falls back 3 cm".to_string()),
            (5, "2 hits, knocked out".to_string())
        ]
    );
    assert!(results(&[]).is_empty());
}

/// The words a float may hold.
fn plain_result(part: &str) -> bool {
    let num = |s: &str| s.parse::<u32>().is_ok_and(|n| n > 0);
    match part.split(' ').collect::<Vec<_>>().as_slice() {
        [n, "hit"] => *n == "1",
        [n, "hits"] => num(n) && *n != "1",
        ["loses", n, "stand" | "stands"] => num(n),
        ["falls", "back", d, "cm"] => d.parse::<f64>().is_ok_and(|d| d > 0.0),
        _ => matches!(
            part,
            "suppressed" | "retreats" | "disordered" | "knocked out" | "charge fails" | "no hits"
        ),
    }
}

#[test]
fn a_computers_actions_are_ringed_with_their_reason_and_results_float_over_the_struck() {
    let b = close_quarters();
    let names: Vec<String> = b
        .units
        .iter()
        .map(|u| u.name.clone())
        .chain(b.commanders.iter().map(|c| c.name.clone()))
        .collect();
    let mut app = volley::ui::headless_play_app(b, "maps/skirmish.ron".into(), 3, ["greedy", "greedy"], false)
        .expect("the agents");
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(250),
    ));
    let (mut rings, mut floats) = (Vec::<String>::new(), Vec::<String>::new());
    let mut with_reason = false;
    for _ in 0..800 {
        app.update();
        let w = app.world_mut();
        let b = w.resource::<BattleState>().0.clone();
        let ringed = w.query::<&Highlight>().iter(w).count();
        assert!(ringed <= 1, "one ring at a time, the newest action's: {ringed}");
        for h in w.query::<&Highlight>().iter(w) {
            let (who, _) = h.text.split_once(": ").expect("name: what");
            assert!(names.iter().any(|n| n == who), "{:?}", h.text);
            assert!(!h.text.contains("::") && !h.text.contains("Some("), "{:?}", h.text);
            with_reason |= h.text.lines().count() > 1;
            if !rings.contains(&h.text) {
                rings.push(h.text.clone());
            }
        }
        for (f, tf) in w.query::<(&Float, &Transform)>().iter(w) {
            for part in f.text.split(", ") {
                assert!(plain_result(part), "{:?} is not plain words", f.text);
            }
            // Over the unit it struck.
            let u = b.unit(f.unit).pose.pos;
            let d = Vec2::new(u.x as f32, u.y as f32).distance(tf.translation.truncate());
            assert!(d < 20.0, "{:?} floats {d} cm from {}", f.text, b.unit(f.unit).name);
            if !floats.contains(&f.text) {
                floats.push(f.text.clone());
            }
        }
        if rings.len() > 3 && floats.iter().any(|t| t.contains("hit")) && with_reason {
            break;
        }
    }
    assert!(rings.len() > 3, "the computer's pieces were ringed: {rings:?}");
    assert!(with_reason, "a reason shown with the action: {rings:?}");
    assert!(
        floats.iter().any(|t| t.contains("hit")),
        "hits floated over a unit: {floats:?}"
    );
    // They fade: nothing is left some seconds after the game stops being played.
    app.world_mut().resource_mut::<volley::ui::Seats>().sides = ["human".into(), "human".into()];
    for _ in 0..20 {
        app.update();
    }
    let w = app.world_mut();
    assert_eq!(w.query::<&Float>().iter(w).count(), 0);
    assert_eq!(w.query::<&Highlight>().iter(w).count(), 0);
}

#[test]
fn a_persons_own_actions_are_not_ringed() {
    let mut b = close_quarters();
    to_command(&mut b);
    let order = b
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, volley::battle::Action::Order { .. }))
        .expect("an order");
    let mut app = volley::ui::headless_play_app(b, "maps/skirmish.ron".into(), 3, ["human", "greedy"], false)
        .expect("the agents");
    let before = app.world().resource::<BattleState>().0.actions;
    app.world_mut().write_message(volley::app::ActionRequest(order));
    app.update();
    app.update();
    assert!(
        app.world().resource::<BattleState>().0.actions > before,
        "the order was applied"
    );
    let w = app.world_mut();
    assert_eq!(w.query::<&Highlight>().iter(w).count(), 0);
}

/// Issue 66: a computer playing a big battle against a person says its plan when it makes it:
/// in the battle log, and kept for the orders panel (`ComputerPlan`), which shows it while the
/// computer acts; the game's record keeps it, whole, for a replay. (What of it the person may
/// be told is `planner::tests`'.)
#[test]
fn a_computers_plan_is_said_in_the_log_the_caption_and_the_orders_panel() {
    let path = std::path::PathBuf::from("maps/gettysburg.ron");
    let (b, _) = volley::load_battle(&path, 2).expect("gettysburg loads");
    // The Confederates (side 1) move first, played by the scheduler; the Union is a person.
    assert_eq!(b.first_side, 1);
    let mut app = volley::ui::headless_play_app(b, path, 2, ["human", "scheduler"], false).expect("the agents");
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(250),
    ));
    // The computer thinks on another thread: frames until its plan is in, or two minutes of
    // the clock (400 frames were not always enough with the whole suite running beside it).
    let start = std::time::Instant::now();
    while app.world().resource::<volley::ui::follow::ComputerPlan>().0[1].is_none()
        && start.elapsed() < std::time::Duration::from_secs(120)
    {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let w = app.world_mut();
    let shown = w.resource::<volley::ui::follow::ComputerPlan>().0.clone();
    let plan = shown[1]
        .clone()
        .expect("the Confederate plan is kept for the orders panel");
    assert!(plan.starts_with("plan made (turn 1, the battle begins): "), "{plan}");
    assert!(plan.contains("Heth's division: attack"), "{plan}");
    assert_eq!(shown[0], None, "the person has no plan of the computer's");
    let log = w.resource::<volley::ui::BattleLog>();
    assert!(
        log.lines.iter().any(|l| l.text.contains(&plan)),
        "the log says the plan"
    );
    // The game's record keeps it whole, before the first action, for a replay.
    let notes = &w.resource::<volley::ui::GameRecord>().recording.plans;
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(
        (notes[0].action, notes[0].side, notes[0].agent.as_str()),
        (0, 1, "scheduler")
    );
    assert!(
        notes[0]
            .text
            .starts_with("plan made (turn 1, the battle begins): Heth's division: attack"),
        "{notes:?}"
    );
    assert!(notes[0].text.len() >= plan.len(), "all of it: {notes:?} / {plan}");
}

/// Issue 66, nothing lost: a saved game against a planning computer, loaded as the menu loads
/// it, tells the person the computer's plan again, as they were told it: the battle log before
/// the action it came with, and the orders panel's caption (`ComputerPlan`). With the scouting
/// switch's hidden set-up the Union saw nothing of the Confederate plan, and is told nothing of
/// it now; the Confederates' player reads it whole, as computers playing both sides do; a save
/// made before the other side's words were kept tells the Union nothing of it.
#[test]
fn a_loaded_game_tells_the_computers_plan_as_the_person_was_told_it() {
    use volley::ui::follow::ComputerPlan;
    use volley::ui::screens::menu::{Start, start_game_now};
    let dir = std::env::temp_dir().join(format!("volley-plan-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (file, rec) = planned_save_for_the_union(&dir);
    let note = &rec.plans[0];
    assert!(note.text.contains("Heth's division: attack"), "{note:?}");
    let told = note.to_other.clone().expect("the Union was told less than the whole");
    assert!(!told.contains("Heth") && !told.contains("Pender"), "{told}");
    let says = |text: &str| format!("Confederate, played by the computer (scheduler): {text}");
    let load = |file: &std::path::Path, players: [&str; 2]| {
        let (b, _) = volley::load_battle(std::path::Path::new("maps/gettysburg.ron"), 5).unwrap();
        let mut app = volley::ui::headless_play_app(b, "maps/gettysburg.ron".into(), 5, ["human", "human"], false)
            .expect("the app");
        start_game_now(
            app.world_mut(),
            Start::Load(file.to_path_buf()),
            players.map(String::from),
        )
        .expect("the save loads");
        app
    };
    let shown = |app: &App, viewer: Option<usize>| -> Vec<String> {
        app.world()
            .resource::<volley::ui::BattleLog>()
            .lines
            .iter()
            .filter_map(|l| l.shown_to(viewer).map(str::to_string))
            .filter(|t| t.contains("played by the computer"))
            .collect()
    };
    // The person's Union against the computer: as they were told it, in the log and the caption.
    let app = load(&file, ["human", "scheduler"]);
    assert_eq!(shown(&app, Some(0)), vec![says(&told)]);
    assert_eq!(app.world().resource::<ComputerPlan>().0, [None, Some(told.clone())]);
    // The game goes on with the plan in its record.
    assert_eq!(
        app.world().resource::<volley::ui::GameRecord>().recording.plans,
        rec.plans
    );
    // Computers on both sides: whole.
    let app = load(&file, ["scheduler", "scheduler"]);
    assert_eq!(shown(&app, None), vec![says(&note.text)]);
    assert_eq!(
        app.world().resource::<ComputerPlan>().0,
        [None, Some(note.text.clone())]
    );
    // The person takes the Confederates: their own side's plan, whole; no computer's caption.
    let app = load(&file, ["scheduler", "human"]);
    assert_eq!(shown(&app, Some(1)), vec![says(&note.text)]);
    assert_eq!(app.world().resource::<ComputerPlan>().0, [None, None]);
    // A save from before the other side's words were kept: the whole words name formations
    // hidden from the Union, so its person is told nothing of the plan.
    let mut old = rec.clone();
    old.plans[0].to_other = None;
    let old_file = dir.join("old.ron");
    old.save(&old_file).unwrap();
    let app = load(&old_file, ["human", "scheduler"]);
    assert!(shown(&app, None).is_empty(), "{:?}", shown(&app, None));
    assert_eq!(app.world().resource::<ComputerPlan>().0, [None, None]);
    let _ = std::fs::remove_dir_all(&dir);
}
