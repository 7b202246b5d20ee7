//! The window: the table drawn from the battle state, the panels, camera and input, and the
//! screens (menu, battle, hand-over, result). Built on the battle's ECS plugin: the picture
//! only reads `BattleState`, and every decision goes in as an `ActionRequest`.

pub mod animation;
pub mod camera;
pub mod common;
pub mod editor;
pub mod follow;
pub mod input;
pub mod intent;
pub mod measure;
pub mod online;
pub mod palette;
pub mod panels;
pub mod play;
pub mod probe;
pub mod prompt;
pub mod replay;
pub mod screens;
pub mod screenshot;
pub mod session;
pub mod settings;
pub mod table;
pub mod undo;

use crate::battle::{Battle, Event};
use crate::replay::Recording;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use std::path::PathBuf;

pub use common::{PinnedPreview, Preview, Screen, Selection};
pub use play::NewGame;
pub use session::{Agents, BattleLog, GameRecord, Seats, Turn};

/// How the window starts.
pub struct Launch {
    pub battle: Battle,
    /// What the set-up of the battle printed (deployment, first phase).
    pub events: Vec<Event>,
    pub scenario: PathBuf,
    pub seed: u64,
    /// `human` or an agent's name, by side.
    pub sides: [String; 2],
    /// The game so far (a loaded save) or a fresh one.
    pub recording: Option<Recording>,
    /// Open on the main menu rather than in the battle.
    pub menu: bool,
    pub screenshot: Option<screenshot::ShotRequest>,
    pub width: u32,
    pub height: u32,
    /// Open the replay viewer on this verified recording (`volley replay`), after this many
    /// actions.
    pub replay: Option<(crate::replay::timeline::Timeline, usize)>,
    /// Open the scenario editor on this scenario file (`volley edit`).
    pub edit: Option<PathBuf>,
}

/// Open the window and play until it is closed.
pub fn run(launch: Launch) -> Result<(), String> {
    let mut app = build_app(launch)?;
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the window closed with an error ({code})")),
    }
}

/// The windowed app, ready to run.
pub fn build_app(launch: Launch) -> Result<App, String> {
    // The window is X11 (the only backend built): say so instead of winit's panic.
    if cfg!(target_os = "linux") && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        return Err("no display: the window needs an X11 display (DISPLAY is not set); \
             run it under `xvfb-run`, or play in the terminal with `volley play --terminal`"
            .into());
    }
    let Launch {
        battle,
        events,
        scenario,
        seed,
        sides,
        recording,
        menu,
        screenshot,
        width,
        height,
        replay,
        edit,
    } = launch;
    let agents = Agents::new(&sides, seed)?;
    let title = format!("Volley — {}", battle.title);
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title,
                    resolution: WindowResolution::new(width, height).with_scale_factor_override(1.0),
                    ..default()
                }),
                ..default()
            })
            .set(bevy::log::LogPlugin {
                filter: "warn,wgpu=error,naga=error".into(),
                ..default()
            }),
    );
    app.insert_resource(ClearColor(palette::ROOM));
    let game = NewGame::new(&battle, &events, scenario, seed, sides, recording, screenshot.is_some());
    app.insert_resource(crate::app::BattleState(battle));
    app.add_plugins(crate::app::plugin);
    game.insert(app.world_mut());
    app.insert_non_send(agents);
    if let Some(path) = edit {
        let doc = crate::editor::Doc::open(&path).map_err(|e| e.to_string())?;
        let mut editor = editor::Editor::default();
        editor.open(doc);
        app.insert_resource(editor);
        app.insert_state(Screen::Editor);
    } else {
        app.insert_state(if menu { Screen::Menu } else { Screen::Battle });
    }
    if let Some(shot) = screenshot {
        app.insert_resource(shot);
    }
    if let Some((t, at)) = replay {
        app.insert_resource(replay::Viewer::new(t));
        app.add_systems(Startup, move |world: &mut World| replay::seek_world(world, at));
    }
    let (settings, store) = settings::load_from_env();
    app.insert_resource(settings).insert_resource(store);
    app.add_plugins(plugin);
    Ok(app)
}

/// The size of the headless app's window, in logical pixels (scale factor 1).
pub const HEADLESS_WINDOW: (u32, u32) = (1600, 1000);

/// The playing part of the window with no window system or renderer (tests and benches): the
/// battle's headless ECS app with keyboard and mouse input, a session of `sides` (`human` or
/// an agent's name) and `play_plugin`, on the battle screen, its first two frames run (one to
/// look at the state, one for the screen to follow). It has a primary `Window` entity of
/// `HEADLESS_WINDOW` (nothing opens: its cursor is whatever a test sets with
/// `Window::set_cursor_position`) and the table's camera, fitted and steered by the camera's
/// systems and kept up to date by the renderer's own `camera_system`, so clicks and drags go
/// through the same window → camera → table path as in the window.
pub fn headless_play_app(
    battle: Battle,
    scenario: PathBuf,
    seed: u64,
    sides: [&str; 2],
    no_handover: bool,
) -> Result<App, String> {
    let sides = sides.map(str::to_string);
    let game = NewGame::new(&battle, &[], scenario, seed, sides.clone(), None, no_handover);
    let agents = Agents::new(&sides, seed)?;
    // As `app::headless_app`, but with no frame run before every plugin is in (the
    // camera is spawned at start-up).
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin));
    app.insert_resource(crate::app::BattleState(battle));
    app.add_plugins(crate::app::plugin);
    app.add_plugins(bevy::input::InputPlugin);
    let (w, h) = HEADLESS_WINDOW;
    app.add_plugins((
        bevy::window::WindowPlugin {
            primary_window: Some(Window {
                resolution: WindowResolution::new(w, h).with_scale_factor_override(1.0),
                ..default()
            }),
            exit_condition: bevy::window::ExitCondition::DontExit,
            close_when_requested: false,
            ..default()
        },
        bevy::transform::TransformPlugin,
        bevy::camera::visibility::VisibilityPlugin,
        camera::plugin,
    ));
    // Bevy's picking and the table's backend: a click picks what the pointer is over.
    app.add_plugins((
        bevy::picking::DefaultPickingPlugins,
        table::picking::plugin,
        table::input::plugin,
        table::orders::plugin,
    ));
    // The render plugin's camera system alone (no GPU): the camera's target size from the
    // window and its projection matrix, which turn a cursor position into a table point.
    app.init_resource::<Assets<Image>>()
        .init_resource::<Assets<Mesh>>()
        .init_resource::<Assets<bevy::mesh::skinning::SkinnedMeshInverseBindposes>>()
        .init_resource::<bevy::render::texture::ManualTextureViews>()
        .add_message::<AssetEvent<Image>>()
        .add_systems(PostUpdate, bevy::render::camera::camera_system);
    game.insert(app.world_mut());
    app.insert_non_send(agents);
    app.insert_state(Screen::Battle);
    app.add_plugins(play_plugin);
    // The turn follows the battle, then the seat: the table is handed over if it must be.
    for _ in 0..3 {
        app.update();
    }
    Ok(app)
}

/// The scenario editor with no window system or renderer (tests): [`headless_play_app`] on
/// the document's battle, with the editor's headless systems (`editor::headless_plugin`: the
/// document on the table, its problems, the mouse and keys), on the editor screen.
pub fn headless_editor_app(doc: crate::editor::Doc) -> Result<App, String> {
    let battle = match crate::editor::preview::preview(&doc, 1) {
        Ok((b, _)) => b,
        Err(_) => {
            crate::load_battle(std::path::Path::new("maps/skirmish.ron"), 1)
                .map_err(|e| e.to_string())?
                .0
        }
    };
    let mut app = headless_play_app(battle, doc.path.clone(), 1, ["human", "human"], true)?;
    app.add_plugins(editor::headless_plugin);
    let mut e = editor::Editor::default();
    e.open(doc);
    app.insert_resource(e);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Editor);
    for _ in 0..3 {
        app.update();
    }
    Ok(app)
}

/// Everything of the window but the window itself.
pub fn plugin(app: &mut App) {
    app.add_plugins(play_plugin);
    app.add_plugins(bevy_egui::EguiPlugin::default());
    app.add_plugins((
        camera::plugin,
        table::plugin,
        screens::plugin,
        panels::plugin,
        screenshot::plugin,
        probe::plugin,
        follow::draw_plugin,
        editor::plugin,
        online::plugin,
    ));
}

/// The playing part, which needs no window or renderer: the bindings, the session (agents,
/// record, log, hand-over) and the battle screen's keys. Needs `BattleState`, `Session` and
/// `Agents`; a headless test runs it with `MinimalPlugins`, `StatesPlugin` and `InputPlugin`.
pub fn play_plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .init_resource::<Preview>()
        .init_resource::<common::TableHover>()
        .init_resource::<common::PointerOrder>()
        .init_resource::<common::BoxSelect>()
        .init_resource::<common::BoxedGroup>();
    app.init_state::<Screen>();
    use crate::app::BattleSystems;
    app.configure_sets(
        Update,
        (
            (common::TableSystems::Input, common::TableSystems::Request)
                .chain()
                .before(BattleSystems::Apply),
            (common::TableSystems::Animate, common::TableSystems::Draw)
                .chain()
                .after(BattleSystems::Derive),
        ),
    );
    app.add_plugins((
        input::plugin,
        play::plugin,
        screens::battle::plugin,
        replay::plugin,
        undo::plugin,
        measure::plugin,
    ));
    app.add_plugins((
        animation::plugin,
        settings::plugin,
        follow::plugin,
        prompt::plugin,
        intent::plugin,
    ));
}
