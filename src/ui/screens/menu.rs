//! The main menu: a new battle (scenario picker with title and brief, each side played by a
//! person or an agent, the seed, the optional rules), continue the autosave or load a save, quit.

use crate::battle::ecs::BattleState;
use crate::battle::ecs::phase::PhaseQueue;
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
    pub error: Option<String>,
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
            error: None,
        }
    }
}

/// The scenarios in `maps/`, by file name; the default scenario first.
pub fn list_scenarios(dir: &Path) -> Vec<ScenarioEntry> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    files.sort_by_key(|p| (p.file_stem().is_none_or(|s| s != "skirmish"), p.clone()));
    files
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
        .collect()
}

fn scan(mut state: ResMut<MenuState>, record: Res<GameRecord>) {
    state.scenarios = list_scenarios(Path::new("maps"));
    if let Some(i) = state.scenarios.iter().position(|s| s.path == record.scenario) {
        state.chosen = i;
    }
}

/// Start a game: a new battle, or a save re-played to where it was.
#[derive(Clone, Debug)]
enum Start {
    New {
        scenario: PathBuf,
        seed: u64,
        switches: Switches,
    },
    Load(PathBuf),
}

#[allow(clippy::too_many_arguments)]
fn menu(
    mut contexts: EguiContexts,
    mut state: ResMut<MenuState>,
    mut commands: Commands,
    mut agents: NonSendMut<Agents>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    mut selection: ResMut<Selection>,
    mut preview: ResMut<Preview>,
    mut queue: ResMut<PhaseQueue>,
    mut store: ResMut<crate::ui::settings::SettingsStore>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut start = None;
    egui::Window::new("Volley")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .default_width(520.0)
        .show(ctx, |ui| {
            ui.label(egui::RichText::new("Black Powder Tactical Commander").size(18.0));
            ui.separator();
            ui.label(egui::RichText::new("New battle").strong());
            let chosen = state.chosen;
            let mut pick = None;
            for (i, s) in state.scenarios.iter().enumerate() {
                if ui.selectable_label(i == chosen, &s.title).clicked() {
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
                ui.label(egui::RichText::new(&entry.brief).small());
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
                if ui.button(egui::RichText::new("Start the battle").size(18.0)).clicked() {
                    start = Some(Start::New {
                        scenario: entry.path.clone(),
                        seed: state.seed,
                        switches: state.switches.clone(),
                    });
                }
            }
            ui.separator();
            ui.label(egui::RichText::new("Continue a saved game").strong());
            ui.horizontal(|ui| {
                ui.text_edit_singleline(&mut state.load_path);
                if ui.button("Load").clicked() {
                    start = Some(Start::Load(PathBuf::from(state.load_path.trim())));
                }
            });
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button("Settings").clicked() {
                    store.open = true;
                }
                if ui.button("Quit").clicked() {
                    exit.write(AppExit::Success);
                }
            });
            if let Some(e) = &store.error {
                ui.colored_label(egui::Color32::from_rgb(255, 170, 60), e);
            }
            if let Some(e) = &state.error {
                ui.colored_label(egui::Color32::from_rgb(255, 170, 60), e);
            }
        });
    if let Some(s) = start {
        let players = state.players.clone();
        match begin(s, players) {
            Ok((battle, game, new_agents)) => {
                state.error = None;
                commands.insert_resource(BattleState(battle));
                commands.queue(move |world: &mut World| game.insert(world));
                *agents = new_agents;
                *selection = Selection::default();
                preview.0 = None;
                queue.0.clear();
                next.set(Screen::Battle);
            }
            Err(e) => state.error = Some(e),
        }
    }
    Ok(())
}

fn begin(start: Start, players: [String; 2]) -> Result<(crate::battle::Battle, NewGame, Agents), String> {
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
            let mut game = NewGame::new(&b, &[], scenario, seed, players, Some(rec), false);
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
                let enabled = s.implemented() && !fixed;
                let r = ui
                    .add_enabled(enabled, egui::Checkbox::new(&mut ticked, label))
                    .on_hover_text(s.summary())
                    .on_disabled_hover_text(if fixed {
                        format!("This scenario plays with it. {}", s.summary())
                    } else {
                        s.summary().to_string()
                    });
                if r.changed() {
                    chosen.set(s, ticked);
                }
            }
        });
}
