//! The main menu: a new battle (scenario picker with title and brief, each side played by a
//! person or an agent, the seed, the optional rules), continue the autosave or load a save, quit.

use crate::app::BattleState;
use crate::app::phase::PhaseQueue;
use crate::replay::Recording;
use crate::rules::switches::{Switch, Switches};
use crate::ui::common::{Preview, Screen, Selection};
use crate::ui::play::NewGame;
use crate::ui::session::{Agents, GameRecord};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::path::{Path, PathBuf};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MenuState>()
        .init_resource::<crate::ui::common::OpenEditor>()
        .add_systems(OnEnter(Screen::Menu), scan)
        .add_systems(EguiPrimaryContextPass, menu.run_if(in_state(Screen::Menu)));
}

/// A scenario file and what it says about itself.
#[derive(Clone, Debug)]
pub struct ScenarioEntry {
    pub path: PathBuf,
    pub title: String,
    pub brief: String,
    pub sides: Vec<String>,
    /// The optional rules the scenario itself turns on.
    pub switches: Switches,
}

#[derive(Resource)]
pub struct MenuState {
    pub scenarios: Vec<ScenarioEntry>,
    pub chosen: usize,
    pub players: [String; 2],
    pub seed: u64,
    /// Optional rules and variants the player turns on (besides the scenario's own).
    pub switches: Switches,
    pub load_path: String,
    /// The files in `saves/`, newest first (read on entering the menu).
    pub saves: Vec<SaveEntry>,
    pub error: Option<String>,
    /// The scenario list's and the menu's buttons as last drawn: label and window rect
    /// [x0, y0, x1, y1] in pixels (the window's probe tells them to a test that drives it).
    pub buttons: Vec<(String, [f32; 4])>,
    /// "Play online" was clicked: `ui::online` opens its window.
    pub online_asked: bool,
}

impl Default for MenuState {
    fn default() -> Self {
        MenuState {
            scenarios: Vec::new(),
            chosen: 0,
            players: ["human".into(), "human".into()],
            seed: 1,
            switches: Switches::default(),
            load_path: crate::ui::session::AUTOSAVE.into(),
            saves: Vec::new(),
            error: None,
            buttons: Vec::new(),
            online_asked: false,
        }
    }
}

/// The first lesson, listed first.
pub const TUTORIAL: &str = "first_battle";

/// The scenarios in `maps/`: the tutorial first, then the default skirmish, then the rest by
/// title.
pub fn list_scenarios(dir: &Path) -> Vec<ScenarioEntry> {
    let files = crate::data::ron_files(dir);
    let mut list: Vec<ScenarioEntry> = files
        .into_iter()
        .map(
            |path| match crate::data::load_ron::<crate::data::scenario::Scenario>(&path) {
                Ok(s) => ScenarioEntry {
                    title: s.title,
                    brief: s.brief,
                    sides: s.sides.iter().map(|x| x.name.clone()).collect(),
                    switches: s.switches,
                    path,
                },
                Err(e) => ScenarioEntry {
                    title: format!("{} (cannot be read)", path.display()),
                    brief: e.to_string(),
                    sides: Vec::new(),
                    switches: Switches::default(),
                    path,
                },
            },
        )
        .collect();
    let rank = |e: &ScenarioEntry| match e.path.file_stem().and_then(|s| s.to_str()) {
        Some(TUTORIAL) => 0,
        Some("skirmish") => 1,
        _ => 2,
    };
    list.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| a.title.cmp(&b.title)));
    list
}

/// A saved game in `saves/`, as the Load list shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct SaveEntry {
    pub path: PathBuf,
    /// The scenario's title, or the file's name when the scenario cannot be read.
    pub title: String,
    /// "start of turn 3 Union Command phase, 41 actions" (the last checkpoint the recording
    /// keeps), or why the file cannot be read.
    pub progress: String,
    /// The file's date (UTC), "2025-06-01 14:03".
    pub date: String,
    pub modified: std::time::SystemTime,
}

/// The saves in `dir` (every `.ron`), newest first.
pub fn list_saves(dir: &Path) -> Vec<SaveEntry> {
    let mut out: Vec<SaveEntry> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .into_iter()
        .map(|path| {
            let modified = std::fs::metadata(&path)
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            let (title, progress) = match Recording::load(&path) {
                Ok(rec) => {
                    let scenario = crate::replay::verify::scenario_path(&rec, &path);
                    let title = crate::data::load_ron::<crate::data::scenario::Scenario>(&scenario)
                        .map(|s| s.title)
                        .unwrap_or_else(|_| rec.scenario.clone());
                    let progress = match rec.checkpoints.last() {
                        Some(c) => format!(
                            "{}, {}",
                            c.phase,
                            crate::report::words::count(rec.actions.len() as i64, "action")
                        ),
                        None if rec.actions.is_empty() => "not begun".to_string(),
                        None => crate::report::words::count(rec.actions.len() as i64, "action"),
                    };
                    (title, progress)
                }
                Err(e) => (
                    path.file_name()
                        .map(|f| f.to_string_lossy().to_string())
                        .unwrap_or_default(),
                    format!("cannot be read: {e}"),
                ),
            };
            SaveEntry {
                title,
                progress,
                date: utc_date(modified),
                modified,
                path,
            }
        })
        .collect();
    out.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.path.cmp(&b.path)));
    out
}

/// A time as "YYYY-MM-DD HH:MM" (UTC), with no date library.
pub fn utc_date(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}", rem / 3600, rem % 3600 / 60)
}

fn scan(mut state: ResMut<MenuState>, record: Res<GameRecord>) {
    state.scenarios = list_scenarios(Path::new("maps"));
    state.saves = list_saves(Path::new("saves"));
    if let Some(i) = state.scenarios.iter().position(|s| s.path == record.scenario) {
        state.chosen = i;
    }
}

/// Start a game: a new battle, or a save re-played to where it was.
#[derive(Clone, Debug)]
/// What the menu starts: a new battle on a scenario, or a saved game.
pub enum Start {
    New {
        scenario: PathBuf,
        seed: u64,
        switches: Switches,
    },
    Load(PathBuf),
}

/// What the player asked of the menu this frame, and where its buttons were laid out.
#[derive(Default)]
struct MenuAsks {
    start: Option<Start>,
    /// The editor: on this scenario (Some(path)) or a new one (None).
    edit: Option<Option<PathBuf>>,
    /// The buttons' labels and rects (egui points), for the probe.
    shown: Vec<(String, egui::Rect)>,
    /// "Play online".
    online: bool,
}

fn menu(
    mut contexts: EguiContexts,
    mut state: ResMut<MenuState>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    mut store: ResMut<crate::ui::settings::SettingsStore>,
    mut open_editor: ResMut<crate::ui::common::OpenEditor>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut asks = MenuAsks::default();
    // The menu fits the window: what is above the buttons scrolls, the buttons (Settings, the
    // editor, Quit) and any error stay in sight whatever the window's height.
    let room = menu_room(ctx.viewport_rect().height());
    egui::Window::new("Volley")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .default_width(520.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("menu")
                .max_height(room)
                .auto_shrink([false, true])
                .show(ui, |ui| {
                    ui.label(egui::RichText::new("Black Powder Tactical Commander").size(18.0));
                    ui.separator();
                    new_battle_section(ui, &mut state, &mut asks);
                    ui.separator();
                    saves_section(ui, &mut state, &mut asks);
                });
            ui.separator();
            footer(ui, &mut store, &mut exit, &mut asks);
            if let Some(e) = &state.error {
                ui.colored_label(egui::Color32::from_rgb(255, 170, 60), e);
            }
        });
    // Where egui laid the buttons out, in window pixels (a button scrolled out of sight lies
    // outside the scroll area).
    let k = ctx.zoom_factor();
    let buttons: Vec<(String, [f32; 4])> = asks
        .shown
        .into_iter()
        .map(|(l, r)| (l, [r.min.x * k, r.min.y * k, r.max.x * k, r.max.y * k]))
        .collect();
    if state.buttons != buttons {
        state.buttons = buttons;
    }
    if let Some(what) = asks.edit {
        open_editor.0 = Some(match what {
            Some(path) => crate::ui::common::EditWhat::File(path),
            None => crate::ui::common::EditWhat::New,
        });
        next.set(Screen::Editor);
    }
    if asks.online {
        state.online_asked = true;
    }
    if let Some(s) = asks.start {
        let players = state.players.clone();
        state.error = start_game(&mut commands, s, players).err();
    }
    Ok(())
}

/// "New battle": the scenarios to choose from, and the chosen one's brief, players, seed,
/// optional rules, start and edit buttons.
fn new_battle_section(ui: &mut egui::Ui, state: &mut MenuState, asks: &mut MenuAsks) {
    ui.label(egui::RichText::new("New battle").strong());
    let chosen = state.chosen;
    let mut pick = None;
    for (i, s) in state.scenarios.iter().enumerate() {
        let r = ui.selectable_label(i == chosen, &s.title);
        asks.shown.push((s.title.clone(), r.rect));
        if r.clicked() {
            pick = Some(i);
        }
    }
    if let Some(i) = pick {
        state.chosen = i;
    }
    if state.scenarios.is_empty() {
        ui.label("No scenarios in maps/.");
    }
    let entry = state.scenarios.get(state.chosen).cloned();
    if let Some(entry) = &entry {
        chosen_scenario(ui, state, entry, asks);
    }
}

/// The chosen scenario: its brief and file, who plays each side, the seed, the optional
/// rules, and the buttons to start it or edit it.
fn chosen_scenario(ui: &mut egui::Ui, state: &mut MenuState, entry: &ScenarioEntry, asks: &mut MenuAsks) {
    egui::ScrollArea::vertical()
        .id_salt("brief")
        .max_height(220.0)
        .show(ui, |ui| {
            ui.label(egui::RichText::new(&entry.brief).size(15.0));
        });
    ui.label(egui::RichText::new(entry.path.display().to_string()).weak().small());
    for (s, name) in entry.sides.iter().enumerate().take(2) {
        ui.horizontal(|ui| {
            ui.label(
                egui::RichText::new(name)
                    .color(crate::ui::common::side_colour(s))
                    .strong(),
            );
            for p in ["human", "scheduler", "eager", "random"] {
                let on = state.players[s] == p;
                if ui.selectable_label(on, p).clicked() {
                    state.players[s] = p.to_string();
                }
            }
        });
    }
    ui.horizontal(|ui| {
        ui.label("Seed");
        ui.add(egui::DragValue::new(&mut state.seed));
    });
    optional_rules(ui, &entry.switches, &mut state.switches);
    ui.horizontal(|ui| {
        let r = ui.button(egui::RichText::new("Start the battle").size(18.0));
        asks.shown.push(("Start the battle".into(), r.rect));
        if r.clicked() {
            asks.start = Some(Start::New {
                scenario: entry.path.clone(),
                seed: state.seed,
                switches: state.switches.clone(),
            });
        }
        if ui
            .button("Edit this scenario")
            .on_hover_text("open it in the scenario editor")
            .clicked()
        {
            asks.edit = Some(Some(entry.path.clone()));
        }
    });
}

/// "Continue a saved game": the saves in `saves/`, and a file to load by name.
fn saves_section(ui: &mut egui::Ui, state: &mut MenuState, asks: &mut MenuAsks) {
    ui.label(egui::RichText::new("Continue a saved game").strong());
    if state.saves.is_empty() {
        ui.label(egui::RichText::new("No saved games in saves/ yet.").weak());
    }
    egui::ScrollArea::vertical()
        .id_salt("saves")
        .max_height(140.0)
        .show(ui, |ui| {
            egui::Grid::new("saves_grid").striped(true).show(ui, |ui| {
                for s in &state.saves {
                    if ui
                        .button(&s.title)
                        .on_hover_text(format!("load {}", s.path.display()))
                        .clicked()
                    {
                        asks.start = Some(Start::Load(s.path.clone()));
                    }
                    ui.label(egui::RichText::new(&s.progress).small());
                    ui.label(egui::RichText::new(&s.date).small().weak());
                    ui.label(egui::RichText::new(s.path.display().to_string()).small().weak());
                    ui.end_row();
                }
            });
        });
    ui.horizontal(|ui| {
        ui.label("or a file:");
        ui.text_edit_singleline(&mut state.load_path);
        if ui.button("Load").clicked() {
            asks.start = Some(Start::Load(PathBuf::from(state.load_path.trim())));
        }
    });
}

/// The buttons below the scrolling part (Settings, the scenario editor, Quit) and the
/// settings' error, if any.
fn footer(
    ui: &mut egui::Ui,
    store: &mut ResMut<crate::ui::settings::SettingsStore>,
    exit: &mut MessageWriter<AppExit>,
    asks: &mut MenuAsks,
) {
    ui.horizontal(|ui| {
        let r = ui.button("Settings");
        asks.shown.push(("Settings".into(), r.rect));
        if r.clicked() {
            store.open = true;
        }
        let r = ui
            .button("Play online")
            .on_hover_text("host or join a game on a server (volley serve), or go back to one of yours");
        asks.shown.push(("Play online".into(), r.rect));
        if r.clicked() {
            asks.online = true;
        }
        let r = ui.button("Scenario editor").on_hover_text("make a new battle");
        asks.shown.push(("Scenario editor".into(), r.rect));
        if r.clicked() {
            asks.edit = Some(None);
        }
        let r = ui.button("Quit");
        asks.shown.push(("Quit".into(), r.rect));
        if r.clicked() {
            exit.write(AppExit::Success);
        }
    });
    if let Some(e) = &store.error {
        ui.colored_label(egui::Color32::from_rgb(255, 170, 60), e);
    }
}

/// The height the menu's scrolling part may take in a window `height` logical pixels tall (at
/// the panels' scale): the rest is the title bar, the buttons below it, an error line and the
/// margins.
pub fn menu_room(height: f32) -> f32 {
    (height - MENU_FOOTER).max(120.0)
}

/// What the menu needs besides its scrolling part (title bar, buttons, two error lines,
/// margins), in logical pixels.
pub const MENU_FOOTER: f32 = 170.0;

/// Start a game (the menu's, the editor's play-test): the battle, the game's resources and
/// agents in the world, the selection, preview and phase queue cleared, then the battle screen.
pub(crate) fn start_game(commands: &mut Commands, start: Start, players: [String; 2]) -> Result<(), String> {
    let begun = begin(start, players)?;
    commands.queue(move |world: &mut World| enter_game(world, begun));
    Ok(())
}

/// [`start_game`] at once, in `world` (what the queued command does; tests start games so).
pub fn start_game_now(world: &mut World, start: Start, players: [String; 2]) -> Result<(), String> {
    let begun = begin(start, players)?;
    enter_game(world, begun);
    Ok(())
}

/// A begun game into the world: the battle, the game's resources and agents; the selection,
/// preview and phase queue cleared; then the battle screen.
pub(crate) fn enter_game(world: &mut World, (battle, game, agents): (crate::battle::Battle, NewGame, Agents)) {
    // A loaded game's computers' plans as last said to the person (none for a new game).
    let plan = crate::ui::follow::ComputerPlan::of_record(&game.record.recording, &game.seats);
    world.insert_resource(BattleState(battle));
    game.insert(world);
    world.insert_non_send(agents);
    *world.resource_mut::<Selection>() = Selection::default();
    world.resource_mut::<Preview>().0 = None;
    world.resource_mut::<PhaseQueue>().0.clear();
    // Nothing of the last battle's intents: the one in hand, those standing, the last box.
    world.insert_resource(crate::ui::intent::IntentInHand::default());
    world.insert_resource(crate::ui::intent::StandingIntents::default());
    // Nor of a computer's plan but what the game's record keeps.
    world.insert_resource(plan);
    world.insert_resource(crate::ui::common::BoxedGroup::default());
    world.resource_mut::<NextState<Screen>>().set(Screen::Battle);
}

pub(crate) fn begin(start: Start, players: [String; 2]) -> Result<(crate::battle::Battle, NewGame, Agents), String> {
    match start {
        Start::New {
            scenario,
            seed,
            switches,
        } => {
            let (b, events) = crate::load_battle_with(&scenario, seed, &switches).map_err(|e| e.to_string())?;
            let agents = Agents::new(&players, seed)?;
            let game = NewGame::new(&b, &events, scenario, seed, players, None, false);
            Ok((b, game, agents))
        }
        Start::Load(path) => {
            let rec = Recording::load(&path).map_err(|e| e.to_string())?;
            let (b, _) = crate::replay::verify::verify(&rec, &path).map_err(|e| format!("{}: {e}", path.display()))?;
            let agents = Agents::new(&players, rec.seed)?;
            let scenario = crate::replay::verify::scenario_path(&rec, &path);
            let seed = rec.seed;
            let mut game = NewGame::new(&b, &[], scenario, seed, players, Some(rec.clone()), false);
            // The battle log as it was: every action re-told from the start.
            let scenario_file = crate::replay::verify::scenario_path(&rec, &path);
            if let Ok((start, events)) = crate::load_battle_with(&scenario_file, rec.seed, &rec.switches) {
                let viewer = game.seats.solo();
                game.log = crate::ui::panels::log::log_of_recording(start, &events, &rec, viewer);
            }
            game.log.status = Some(format!("continued {}", path.display()));
            Ok((b, game, agents))
        }
    }
}

/// The optional rules and variants as check boxes: those the scenario turns on are ticked and
/// fixed; those the game does not play yet are shown greyed, so a player knows they exist.
pub fn optional_rules(ui: &mut egui::Ui, scenario: &Switches, chosen: &mut Switches) {
    let on = scenario.union(chosen);
    let title = format!("Optional rules: {}", on.describe());
    egui::CollapsingHeader::new(title)
        .id_salt("optional-rules")
        .default_open(true)
        .show(ui, |ui| {
            for s in Switch::ALL {
                let fixed = scenario.on(s);
                let mut ticked = on.on(s);
                let label = if s.implemented() {
                    s.title().to_string()
                } else {
                    format!("{} (not yet played)", s.title())
                };
                // A rule refused with one already on cannot be ticked (issue 64).
                let clash = s.refused_with().iter().copied().find(|o| on.on(*o));
                let enabled = s.implemented() && !fixed && (ticked || clash.is_none());
                let r = ui
                    .add_enabled(enabled, egui::Checkbox::new(&mut ticked, label))
                    .on_hover_text(s.summary())
                    .on_disabled_hover_text(match clash {
                        _ if fixed => format!("This scenario plays with it. {}", s.summary()),
                        Some(o) if !ticked => crate::rules::switches::clash_words(s, o),
                        _ => s.summary().to_string(),
                    });
                if r.changed() {
                    chosen.set(s, ticked);
                }
            }
        });
}
