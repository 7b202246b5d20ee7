//! Issue 20: the scenario editor, headless. A small scenario is built through the editor's own
//! systems (`ui::editor::headless_plugin`) with real mouse buttons and keys over the table
//! camera: a wood, a road, a hill, two objectives, a deployment zone, a commander and units on
//! both sides; points dragged, pieces deleted, undo and redo. It is saved with Ctrl+S, and
//! `volley check` and a whole simulated game accept the file.

use super::common::{drag, point_at};
use bevy::prelude::*;
use leafwing_input_manager::prelude::Buttonlike;
use volley::data::scenario::TableSize;
use volley::editor::{Doc, Piece};
use volley::rules::geometry::V2;
use volley::rules::terrain::{AreaKind, LinearKind};
use volley::ui::Screen;
use volley::ui::editor::{Editor, Tool};

fn click_with(app: &mut App, p: V2, button: MouseButton) {
    point_at(app, p);
    button.press(app.world_mut());
    app.update();
    button.release(app.world_mut());
    app.update();
}

fn click(app: &mut App, p: V2) {
    click_with(app, p, MouseButton::Left);
}

fn press(app: &mut App, keys: &[KeyCode]) {
    for k in keys {
        k.press(app.world_mut());
    }
    app.update();
    for k in keys.iter().rev() {
        k.release(app.world_mut());
    }
    app.update();
}

fn editor(app: &mut App) -> Mut<'_, Editor> {
    app.world_mut().resource_mut::<Editor>()
}

fn scenario(app: &App) -> &volley::data::scenario::Scenario {
    &app.world()
        .resource::<Editor>()
        .doc
        .as_ref()
        .expect("a document")
        .scenario
}

fn tool(app: &mut App, t: Tool) {
    editor(app).tool = t;
    app.update();
}

fn draw(app: &mut App, t: Tool, pts: &[(f64, f64)]) {
    tool(app, t);
    for &(x, y) in pts {
        click(app, V2::new(x, y));
    }
}

fn temp_dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("volley-editor-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_scenario_built_in_the_editor_saves_checks_and_plays() {
    let dir = temp_dir();
    let path = dir.join("ridge.ron");
    let doc = Doc::blank(
        "Test of the ridge",
        TableSize {
            width: 120.0,
            height: 90.0,
        },
        ["acw_union", "acw_confederate"],
        path.clone(),
    )
    .unwrap();
    let mut app = volley::ui::headless_editor_app(doc).expect("the editor");
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Editor);

    // A wood of four points, closed with Enter.
    draw(
        &mut app,
        Tool::Area(AreaKind::Woods),
        &[(70.0, 40.0), (90.0, 40.0), (90.0, 55.0), (70.0, 55.0)],
    );
    assert!(scenario(&app).terrain.areas.is_empty(), "not closed yet");
    press(&mut app, &[KeyCode::Enter]);
    let wood = &scenario(&app).terrain.areas;
    assert_eq!(wood.len(), 1);
    assert_eq!(wood[0].kind, AreaKind::Woods);
    assert_eq!(wood[0].outline.0.len(), 4);
    assert!(
        wood[0].outline.0[0].dist(V2::new(70.0, 40.0)) < 0.01,
        "{:?}",
        wood[0].outline.0
    );
    // A road of three points, ended with a right click.
    draw(
        &mut app,
        Tool::Linear(LinearKind::Road),
        &[(0.0, 30.0), (60.0, 32.0), (120.0, 30.0)],
    );
    click_with(&mut app, V2::new(100.0, 80.0), MouseButton::Right);
    assert_eq!(scenario(&app).terrain.linears.len(), 1);
    assert_eq!(scenario(&app).terrain.linears[0].points.len(), 3);
    // A hill, closed by clicking its first point; then a second contour inside it.
    draw(
        &mut app,
        Tool::Hill,
        &[(20.0, 45.0), (45.0, 45.0), (45.0, 60.0), (20.0, 60.0), (20.0, 45.0)],
    );
    assert_eq!(scenario(&app).terrain.hills.len(), 1);
    assert_eq!(editor(&mut app).selected, Some(Piece::Hill(0)));
    draw(&mut app, Tool::Hill, &[(27.0, 49.0), (38.0, 49.0), (33.0, 56.0)]);
    press(&mut app, &[KeyCode::Enter]);
    let hill = &scenario(&app).terrain.hills[0];
    assert_eq!(hill.contours.iter().map(|c| c.height).collect::<Vec<_>>(), [1, 2]);

    // A deployment zone for each side, then an objective each.
    editor(&mut app).drafts.side = 0;
    draw(
        &mut app,
        Tool::Deployment,
        &[(5.0, 5.0), (115.0, 5.0), (115.0, 25.0), (5.0, 25.0)],
    );
    press(&mut app, &[KeyCode::Enter]);
    editor(&mut app).drafts.side = 1;
    draw(
        &mut app,
        Tool::Deployment,
        &[(5.0, 65.0), (115.0, 65.0), (115.0, 85.0), (5.0, 85.0)],
    );
    press(&mut app, &[KeyCode::Enter]);
    assert!(scenario(&app).sides.iter().all(|s| s.deployment.is_some()));
    for (side, y) in [(0, 50.0), (1, 52.0)] {
        editor(&mut app).drafts.side = side;
        draw(&mut app, Tool::Objective, &[(100.0, y)]);
    }
    assert_eq!(scenario(&app).objectives.len(), 2);
    assert_eq!(scenario(&app).objectives[1].side, scenario(&app).sides[1].name);

    // Units on both sides, under each side's commander (the blank scenario's CO).
    for (side, y, facing) in [(0, 15.0, 90.0), (1, 75.0, 270.0)] {
        {
            let mut e = editor(&mut app);
            e.drafts.side = side;
            e.fill_drafts();
            e.drafts.troop_row = "regular_infantry_rifled".into();
            e.drafts.stands = 4;
        }
        for x in [40.0, 80.0] {
            draw(&mut app, Tool::Unit, &[(x, y)]);
        }
        let units = &scenario(&app).sides[side].units;
        assert_eq!(units.len(), 2);
        assert!(
            units
                .iter()
                .all(|u| u.facing == facing && u.row == "regular_infantry_rifled")
        );
    }
    // A brigade commander for the Union, under the CO; then a unit of his.
    {
        let mut e = editor(&mut app);
        e.drafts.side = 0;
        e.fill_drafts();
    }
    draw(&mut app, Tool::Commander, &[(60.0, 10.0)]);
    let union = &scenario(&app).sides[0];
    assert_eq!(union.commanders.len(), 2);
    assert_eq!(
        union.commanders[1].superior.as_deref(),
        Some(union.commanders[0].id.as_str())
    );

    // Select the wood and drag its first point; undo puts it back, redo moves it again.
    tool(&mut app, Tool::Select);
    click(&mut app, V2::new(80.0, 47.0));
    assert_eq!(editor(&mut app).selected, Some(Piece::Area(0)));
    drag(&mut app, V2::new(70.0, 40.0), V2::new(66.0, 37.0));
    let moved = scenario(&app).terrain.areas[0].outline.0[0];
    assert!(moved.dist(V2::new(66.0, 37.0)) < 0.01, "{moved:?}");
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    assert!(scenario(&app).terrain.areas[0].outline.0[0].dist(V2::new(70.0, 40.0)) < 0.01);
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyY]);
    assert!(scenario(&app).terrain.areas[0].outline.0[0].dist(V2::new(66.0, 37.0)) < 0.01);
    // Dragging the whole unit moves it; R turns it 15°.
    click(&mut app, V2::new(40.0, 15.0));
    assert_eq!(editor(&mut app).selected, Some(Piece::Unit { side: 0, i: 0 }));
    drag(&mut app, V2::new(40.0, 15.0), V2::new(36.0, 17.0));
    let u = &scenario(&app).sides[0].units[0];
    assert!(u.pos.dist(V2::new(36.0, 17.0)) < 0.05, "{:?}", u.pos);
    press(&mut app, &[KeyCode::KeyR]);
    assert_eq!(scenario(&app).sides[0].units[0].facing, 105.0);
    press(&mut app, &[KeyCode::ShiftLeft, KeyCode::KeyR]);
    assert_eq!(scenario(&app).sides[0].units[0].facing, 90.0);
    // Delete takes the selected piece away, and undo brings it back.
    press(&mut app, &[KeyCode::Delete]);
    assert_eq!(scenario(&app).sides[0].units.len(), 1);
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    assert_eq!(scenario(&app).sides[0].units.len(), 2);

    // A unit dropped on another is a problem the validator names, on that unit.
    editor(&mut app).drafts.side = 0;
    draw(&mut app, Tool::Unit, &[(80.0, 15.0)]);
    app.update();
    let problems = editor(&mut app).problems.clone();
    assert!(
        problems
            .iter()
            .any(|p| p.piece == Some(Piece::Unit { side: 0, i: 2 }) && p.msg.contains("overlap")),
        "{problems:?}"
    );
    // Saving refuses it and writes nothing.
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    assert!(!path.exists());
    assert!(
        editor(&mut app)
            .status
            .as_deref()
            .unwrap_or("")
            .starts_with("not saved")
    );
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    app.update();
    assert_eq!(editor(&mut app).problems, Vec::new());
    // The battle drawn on the table is the document's.
    let b = &app.world().resource::<volley::app::BattleState>().0;
    assert_eq!(b.units.len(), 4);
    assert_eq!(b.terrain.areas.len(), 1);

    // Saved: `volley check` accepts it, and a whole game plays on it.
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    assert!(path.exists(), "{:?}", editor(&mut app).status);
    let report = volley::data::check::check_file(&path).expect("check accepts the saved file");
    assert_eq!(report.units, Some(4));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["check", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (battle, _) = volley::load_battle(&path, 7).expect("it loads");
    let mut players = [
        volley::agents::by_name("greedy", 7, 0).unwrap(),
        volley::agents::by_name("greedy", 7, 1).unwrap(),
    ];
    let done = volley::sim::play(battle, &mut players, 200_000, |_, _, _| {}).expect("a whole game");
    assert!(done.is_over());
    let _ = std::fs::remove_dir_all(&dir);
}
