//! The editor's left panel: the file (new, open, save, undo, redo), the scenario's settings,
//! the tools and what they place, the selected piece's properties, each side's roster against
//! its breakpoint, the validator's problems, and play-testing and balance runs.

use super::mouse::KeysFree;
use super::trial::{BalanceJob, TrialAsk};
use super::{Editor, Tool};
use crate::battle::ecs::BattleState;
use crate::data::army::{Arm, ArmyList};
use crate::data::scenario::{Ammo, Grade, ObjectiveLevel, Scenario, TableSize, Weather};
use crate::editor::{Doc, Piece};
use crate::rules::formation::Formation;
use crate::rules::terrain::{AreaKind, LinearKind, Material};
use crate::ui::camera::TableViewport;
use crate::ui::common::{OverWindow, Screen, heading};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        editor_panel
            .in_set(crate::ui::common::PanelsSet)
            .run_if(in_state(Screen::Editor)),
    );
}

/// The width of the panel, in egui points.
pub const PANEL_WIDTH: f32 = 360.0;

const AREAS: [AreaKind; 8] = [
    AreaKind::Woods,
    AreaKind::Field,
    AreaKind::Orchard,
    AreaKind::Scrub,
    AreaKind::Marsh,
    AreaKind::Mud,
    AreaKind::BuiltUp,
    AreaKind::Lake,
];
const LINEARS: [LinearKind; 6] = [
    LinearKind::Road,
    LinearKind::Stream,
    LinearKind::River,
    LinearKind::Wall,
    LinearKind::Fence,
    LinearKind::Hedge,
];
const MATERIALS: [Material; 4] = [
    Material::Wooden,
    Material::Brick,
    Material::Stone,
    Material::Fortification,
];
const GRADES: [Grade; 3] = [Grade::Elite, Grade::Regular, Grade::Poor];

/// What the panel asks for this frame (done after it is drawn).
#[derive(Default)]
struct PanelAsks {
    new: bool,
    open: Option<PathBuf>,
    save: Option<PathBuf>,
    menu: bool,
    trial: Option<TrialAsk>,
    balance: Option<(u64, [String; 2])>,
}

#[allow(clippy::too_many_arguments)]
fn editor_panel(
    mut contexts: EguiContexts,
    mut editor: ResMut<Editor>,
    battle: Res<BattleState>,
    mut viewport: ResMut<TableViewport>,
    mut keys_free: ResMut<KeysFree>,
    mut over_window: ResMut<OverWindow>,
    mut next: ResMut<NextState<Screen>>,
    mut job: ResMut<BalanceJob>,
    mut trial: ResMut<super::trial::TrialRequest>,
    mut form: Local<NewForm>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut asks = PanelAsks::default();
    editor.buttons.clear();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "editor".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::Panel::left("editor_left")
        .exact_size(PANEL_WIDTH)
        .resizable(false)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().id_salt("editor_scroll").show(ui, |ui| {
                ui.set_max_width(PANEL_WIDTH - 18.0);
                file_section(ui, &mut editor, &mut form, &mut asks);
                if editor.doc.is_none() {
                    return;
                }
                ui.separator();
                scenario_section(ui, &mut editor);
                ui.separator();
                tools_section(ui, &mut editor);
                ui.separator();
                selected_section(ui, &mut editor);
                ui.separator();
                roster_section(ui, &mut editor, &battle.0);
                ui.separator();
                problems_section(ui, &mut editor);
                ui.separator();
                try_section(ui, &mut editor, &mut job, &mut asks);
            });
        });
    // A status line over the table.
    egui::Panel::bottom("editor_status").show(&mut root, |ui| {
        let doc = editor.doc.as_ref();
        let dirty = doc.is_some_and(Doc::dirty);
        let mut line = match doc {
            Some(d) => format!("{}{}", d.path.display(), if dirty { " (not saved)" } else { "" }),
            None => "no scenario open".into(),
        };
        if let Some(p) = editor.pointer {
            line.push_str(&format!("   ·   pointer ({:.1}, {:.1}) cm", p.x, p.y));
        }
        if !editor.drawing.is_empty() {
            line.push_str(&format!(
                "   ·   {} point(s): click the first point, Enter or right-click to close; Backspace takes one back",
                editor.drawing.len()
            ));
        }
        ui.horizontal(|ui| {
            ui.label(line);
            if let Some(s) = &editor.status {
                ui.separator();
                ui.label(egui::RichText::new(s).color(egui::Color32::from_rgb(255, 210, 120)));
            }
        });
    });
    let free = root.available_rect_before_wrap();
    let k = ctx.zoom_factor();
    let rect = Rect::new(free.min.x * k, free.min.y * k, free.max.x * k, free.max.y * k);
    if viewport.0 != Some(rect) {
        viewport.0 = Some(rect);
    }
    let typing = ctx.egui_wants_keyboard_input();
    if keys_free.0 == typing {
        keys_free.0 = !typing;
    }
    if over_window.0 {
        over_window.0 = false;
    }
    // What was asked.
    if asks.new {
        let size = TableSize {
            width: form.width,
            height: form.height,
        };
        let path = PathBuf::from(form.path.trim());
        match Doc::blank(form.title.trim(), size, [&form.armies[0], &form.armies[1]], path) {
            Ok(doc) => {
                editor.open(doc);
                editor.status = Some("new scenario: draw terrain, place commanders and units, then save".into());
            }
            Err(e) => editor.status = Some(e.to_string()),
        }
    }
    if let Some(p) = asks.open {
        match Doc::open(&p) {
            Ok(doc) => {
                editor.open(doc);
                editor.status = Some(format!("opened {}", p.display()));
            }
            Err(e) => editor.status = Some(e.to_string()),
        }
    }
    if let Some(p) = asks.save {
        save(&mut editor, &p);
    }
    if let Some((games, agents)) = asks.balance {
        start_balance(&mut editor, &mut job, games, agents);
    }
    if let Some(t) = asks.trial
        && save_first(&mut editor)
    {
        let path = editor.doc.as_ref().map(|d| d.path.clone()).unwrap_or_default();
        trial.0 = Some((t, path));
    }
    if asks.menu {
        next.set(Screen::Menu);
    }
    Ok(())
}

/// Saves to `path`; what the validator refuses goes to the status line and the file is not
/// touched.
pub fn save(editor: &mut Editor, path: &std::path::Path) -> bool {
    let Some(doc) = editor.doc.as_mut() else { return false };
    match crate::editor::save::save(doc, path) {
        Ok(()) => {
            editor.path_text = path.display().to_string();
            editor.status = Some(format!("saved {} (volley check accepts it)", path.display()));
            true
        }
        Err(e) => {
            editor.status = Some(format!("not saved: {}", e.lines().next().unwrap_or("")));
            false
        }
    }
}

/// Play-tests and balance runs play the file: save it first.
fn save_first(editor: &mut Editor) -> bool {
    let Some(path) = editor.doc.as_ref().map(|d| d.path.clone()) else {
        return false;
    };
    save(editor, &path)
}

fn start_balance(editor: &mut Editor, job: &mut BalanceJob, games: u64, agents: [String; 2]) {
    if job.running() {
        return;
    }
    if !save_first(editor) {
        return;
    }
    let path = editor.doc.as_ref().map(|d| d.path.clone()).unwrap_or_default();
    job.start(path, games, agents);
}

/// The new-scenario form.
pub struct NewForm {
    pub title: String,
    pub width: f64,
    pub height: f64,
    pub armies: [String; 2],
    pub path: String,
}

impl Default for NewForm {
    fn default() -> Self {
        NewForm {
            title: "A new battle".into(),
            width: 180.0,
            height: 120.0,
            armies: ["acw_union".into(), "acw_confederate".into()],
            path: "maps/my_battle.ron".into(),
        }
    }
}

fn army_combo(ui: &mut egui::Ui, id: &str, value: &mut String) -> bool {
    let mut changed = false;
    egui::ComboBox::from_id_salt(id)
        .selected_text(value.as_str())
        .show_ui(ui, |ui| {
            for stem in crate::editor::doc::army_stems() {
                changed |= ui.selectable_value(value, stem.clone(), stem).changed();
            }
        });
    changed
}

fn file_section(ui: &mut egui::Ui, editor: &mut Editor, form: &mut NewForm, asks: &mut PanelAsks) {
    ui.horizontal(|ui| {
        heading(ui, "Scenario editor");
        if ui.button("Main menu").clicked() {
            asks.menu = true;
        }
    });
    if let Some(doc) = &editor.doc {
        ui.label(egui::RichText::new(&doc.scenario.title).size(16.0));
    }
    egui::CollapsingHeader::new("New scenario")
        .id_salt("ed_new")
        .default_open(editor.doc.is_none())
        .show(ui, |ui| {
            egui::Grid::new("ed_new_grid").num_columns(2).show(ui, |ui| {
                ui.label("Title");
                ui.text_edit_singleline(&mut form.title);
                ui.end_row();
                ui.label("Table (cm)");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut form.width).range(30.0..=480.0));
                    ui.label("×");
                    ui.add(egui::DragValue::new(&mut form.height).range(30.0..=480.0));
                });
                ui.end_row();
                for s in 0..2 {
                    ui.label(format!("Side {} army", s + 1));
                    army_combo(ui, &format!("ed_new_army{s}"), &mut form.armies[s]);
                    ui.end_row();
                }
                ui.label("File");
                ui.text_edit_singleline(&mut form.path);
                ui.end_row();
            });
            if ui.button("Create").clicked() {
                asks.new = true;
            }
        });
    egui::CollapsingHeader::new("Open a scenario")
        .id_salt("ed_open")
        .show(ui, |ui| {
            for e in crate::ui::screens::menu::list_scenarios(std::path::Path::new("maps")) {
                if ui
                    .selectable_label(false, &e.title)
                    .on_hover_text(e.path.display().to_string())
                    .clicked()
                {
                    asks.open = Some(e.path.clone());
                }
            }
        });
    let Some(doc) = &editor.doc else { return };
    let (can_undo, can_redo) = (doc.can_undo(), doc.can_redo());
    ui.horizontal(|ui| {
        if ui
            .add_enabled(can_undo, egui::Button::new("Undo"))
            .on_hover_text("Ctrl+Z")
            .clicked()
        {
            editor.undo();
        }
        if ui
            .add_enabled(can_redo, egui::Button::new("Redo"))
            .on_hover_text("Ctrl+Y")
            .clicked()
        {
            editor.redo();
        }
        let r = ui.button("Save").on_hover_text("Ctrl+S");
        remember(editor, ui, "Save", &r);
        if r.clicked() {
            asks.save = editor.doc.as_ref().map(|d| d.path.clone());
        }
    });
    ui.horizontal(|ui| {
        ui.label("Save as");
        ui.add(egui::TextEdit::singleline(&mut editor.path_text).desired_width(200.0));
        if ui.button("Save").clicked() {
            asks.save = Some(PathBuf::from(editor.path_text.trim()));
        }
    });
}

/// Shows `f` on a copy of the scenario; an edit if it changed it.
fn edit_copy(editor: &mut Editor, f: impl FnOnce(&mut Scenario, &[ArmyList])) {
    let Some(doc) = &editor.doc else { return };
    let mut copy = doc.scenario.clone();
    f(&mut copy, &doc.armies);
    if copy != doc.scenario {
        editor.edit(move |sc| *sc = copy);
    }
}

fn scenario_section(ui: &mut egui::Ui, editor: &mut Editor) {
    egui::CollapsingHeader::new("Scenario settings")
        .id_salt("ed_settings")
        .show(ui, |ui| {
            edit_copy(editor, |sc, _| {
                egui::Grid::new("ed_settings_grid").num_columns(2).show(ui, |ui| {
                    ui.label("Title");
                    ui.text_edit_singleline(&mut sc.title);
                    ui.end_row();
                    ui.label("Table (cm)");
                    ui.horizontal(|ui| {
                        ui.add(egui::DragValue::new(&mut sc.table.width).range(30.0..=480.0));
                        ui.label("×");
                        ui.add(egui::DragValue::new(&mut sc.table.height).range(30.0..=480.0));
                    });
                    ui.end_row();
                    ui.label("Turn limit");
                    ui.add(egui::DragValue::new(&mut sc.turn_limit).range(1..=99));
                    ui.end_row();
                    ui.label("Weather");
                    egui::ComboBox::from_id_salt("ed_weather")
                        .selected_text(format!("{:?}", sc.weather))
                        .show_ui(ui, |ui| {
                            for w in [Weather::Normal, Weather::Poor, Weather::Extreme] {
                                ui.selectable_value(&mut sc.weather, w, format!("{w:?}"));
                            }
                        });
                    ui.end_row();
                    ui.label("First side");
                    ui.horizontal(|ui| {
                        for s in 0..sc.sides.len() {
                            let name = sc.sides[s].name.clone();
                            ui.selectable_value(&mut sc.first_side, s, name);
                        }
                    });
                    ui.end_row();
                    for s in 0..sc.sides.len() {
                        ui.label(format!("Side {}", s + 1));
                        ui.horizontal(|ui| {
                            ui.add(egui::TextEdit::singleline(&mut sc.sides[s].name).desired_width(90.0));
                            army_combo(ui, &format!("ed_army{s}"), &mut sc.sides[s].army);
                        });
                        ui.end_row();
                    }
                });
                ui.horizontal(|ui| {
                    ui.checkbox(&mut sc.wet_ground, "wet ground");
                    ui.checkbox(&mut sc.night, "night");
                    ui.checkbox(&mut sc.historical, "historical weather");
                });
                ui.label("Brief");
                ui.add(
                    egui::TextEdit::multiline(&mut sc.brief)
                        .desired_rows(3)
                        .desired_width(f32::INFINITY),
                );
                crate::ui::screens::menu::optional_rules(ui, &Default::default(), &mut sc.switches);
            });
        });
}

fn tool_button(ui: &mut egui::Ui, editor: &mut Editor, tool: Tool, label: &str) {
    let r = ui.selectable_label(editor.tool == tool, label);
    remember(editor, ui, label, &r);
    if r.clicked() {
        editor.tool = tool;
        editor.drawing.clear();
    }
}

/// Keeps a button's place in window pixels for the probe.
fn remember(editor: &mut Editor, ui: &egui::Ui, label: &str, r: &egui::Response) {
    let k = ui.ctx().zoom_factor();
    let rect = [r.rect.min.x * k, r.rect.min.y * k, r.rect.max.x * k, r.rect.max.y * k];
    editor.buttons.push((label.to_string(), rect));
}

fn tools_section(ui: &mut egui::Ui, editor: &mut Editor) {
    heading(ui, "Tools");
    ui.horizontal_wrapped(|ui| {
        tool_button(ui, editor, Tool::Select, "Select");
        tool_button(ui, editor, Tool::Hill, "Hill");
        tool_button(ui, editor, Tool::Building, "Building");
        tool_button(ui, editor, Tool::Objective, "Objective");
        tool_button(ui, editor, Tool::Commander, "Commander");
        tool_button(ui, editor, Tool::Unit, "Unit");
        tool_button(ui, editor, Tool::Deployment, "Deployment zone");
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Areas:");
        for k in AREAS {
            tool_button(ui, editor, Tool::Area(k), &format!("{k:?}"));
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Lines:");
        for k in LINEARS {
            tool_button(ui, editor, Tool::Linear(k), &format!("{k:?}"));
        }
    });
    ui.label(egui::RichText::new(tool_help(editor.tool)).small().weak());
    drafts(ui, editor);
}

fn tool_help(tool: Tool) -> &'static str {
    match tool {
        Tool::Select => {
            "Click a piece to select it, drag to move it; drag its yellow points; Ctrl+click an edge adds a point, right-click a point deletes it; R / Shift+R or the wheel while dragging turns it; Delete removes it."
        }
        Tool::Hill => "Click the contour's points. With a hill selected, the outline becomes its next contour up.",
        Tool::Building | Tool::Objective | Tool::Unit | Tool::Commander => "Click the table to place it.",
        _ => "Click the outline's points; click the first point, press Enter or right-click to finish.",
    }
}

fn side_picker(ui: &mut egui::Ui, editor: &mut Editor) {
    let Some(doc) = &editor.doc else { return };
    let names: Vec<String> = doc.scenario.sides.iter().map(|s| s.name.clone()).collect();
    let mut side = editor.drafts.side;
    ui.horizontal(|ui| {
        ui.label("Side");
        for (s, n) in names.iter().enumerate() {
            ui.selectable_value(&mut side, s, n);
        }
    });
    if side != editor.drafts.side {
        editor.drafts.side = side;
        editor.fill_drafts();
    }
}

fn drafts(ui: &mut egui::Ui, editor: &mut Editor) {
    let tool = editor.tool;
    if tool == Tool::Select {
        return;
    }
    if matches!(tool, Tool::Unit | Tool::Commander | Tool::Objective | Tool::Deployment) {
        side_picker(ui, editor);
    }
    let Some(doc) = &editor.doc else { return };
    let army = doc.armies[editor.drafts.side].clone();
    let commanders: Vec<(String, String)> = doc.scenario.sides[editor.drafts.side]
        .commanders
        .iter()
        .map(|c| (c.id.clone(), c.name.clone()))
        .collect();
    let d = &mut editor.drafts;
    if tool != Tool::Deployment {
        ui.horizontal(|ui| {
            ui.label("Name");
            ui.add(egui::TextEdit::singleline(&mut d.name).hint_text("(the row's name)"));
        });
    }
    match tool {
        Tool::Unit => {
            egui::ComboBox::from_id_salt("ed_row")
                .width(PANEL_WIDTH - 30.0)
                .selected_text(
                    army.troop(&d.troop_row)
                        .map_or("(pick a row)".into(), |r| r.name.clone()),
                )
                .show_ui(ui, |ui| {
                    for r in &army.troops {
                        ui.selectable_value(&mut d.troop_row, r.id.clone(), &r.name);
                    }
                });
            ui.horizontal(|ui| {
                ui.label("Stands");
                ui.add(egui::DragValue::new(&mut d.stands).range(1..=12));
                formation_combo(ui, "ed_formation", &mut d.formation);
                grade_combo(ui, "ed_grade", &mut d.grade);
            });
            ui.horizontal(|ui| {
                ui.label("Commander");
                egui::ComboBox::from_id_salt("ed_cmd")
                    .selected_text(&d.commander)
                    .show_ui(ui, |ui| {
                        for (id, name) in &commanders {
                            ui.selectable_value(&mut d.commander, id.clone(), format!("{id} ({name})"));
                        }
                    });
            });
            if army.troop(&d.troop_row).is_some_and(|r| r.arm == Arm::Artillery) {
                ui.horizontal(|ui| {
                    ui.checkbox(&mut d.limbered, "limbered");
                    ammo_combo(ui, "ed_ammo", &mut d.loaded);
                });
            }
        }
        Tool::Commander => {
            egui::ComboBox::from_id_salt("ed_cmdrow")
                .width(PANEL_WIDTH - 30.0)
                .selected_text(&d.command_row)
                .show_ui(ui, |ui| {
                    for c in &army.commands {
                        let text = format!("{} ({:?} {:?}, command {})", c.id, c.level, c.quality, c.command);
                        ui.selectable_value(&mut d.command_row, c.id.clone(), text);
                    }
                });
            ui.horizontal(|ui| {
                ui.label("Answers to");
                egui::ComboBox::from_id_salt("ed_sup")
                    .selected_text(if d.superior.is_empty() { "(the CO)" } else { &d.superior })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut d.superior, String::new(), "(the CO)");
                        for (id, name) in &commanders {
                            ui.selectable_value(&mut d.superior, id.clone(), format!("{id} ({name})"));
                        }
                    });
            });
        }
        Tool::Building => {
            ui.horizontal(|ui| {
                ui.label("Size (cm)");
                ui.add(egui::DragValue::new(&mut d.building.0).range(1.0..=40.0));
                ui.label("×");
                ui.add(egui::DragValue::new(&mut d.building.1).range(1.0..=40.0));
                material_combo(ui, "ed_material", &mut d.building.2);
            });
        }
        Tool::Objective => {
            ui.horizontal(|ui| {
                level_combo(ui, "ed_level", &mut d.objective_level);
                ui.label("Radius (cm)");
                ui.add(egui::DragValue::new(&mut d.objective_radius).range(1.0..=30.0));
            });
        }
        Tool::Linear(LinearKind::Road | LinearKind::Stream | LinearKind::River) => {
            ui.horizontal(|ui| {
                ui.label("Width (cm)");
                ui.add(egui::DragValue::new(&mut d.linear_width).range(0.5..=20.0).speed(0.1));
            });
        }
        Tool::Hill => {
            ui.horizontal(|ui| {
                ui.label("Height of a new hill's first contour");
                ui.add(egui::DragValue::new(&mut d.hill_height).range(1..=9));
            });
        }
        _ => {}
    }
}

fn formation_combo(ui: &mut egui::Ui, id: &str, v: &mut Formation) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(v.to_string())
        .show_ui(ui, |ui| {
            for f in Formation::ALL {
                ui.selectable_value(v, f, f.to_string());
            }
        });
}

fn grade_combo(ui: &mut egui::Ui, id: &str, v: &mut Grade) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(format!("{v:?}"))
        .show_ui(ui, |ui| {
            for g in GRADES {
                ui.selectable_value(v, g, format!("{g:?}"));
            }
        });
}

fn material_combo(ui: &mut egui::Ui, id: &str, v: &mut Material) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(format!("{v:?}"))
        .show_ui(ui, |ui| {
            for m in MATERIALS {
                ui.selectable_value(v, m, format!("{m:?}"));
            }
        });
}

fn level_combo(ui: &mut egui::Ui, id: &str, v: &mut ObjectiveLevel) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(format!("{v:?}"))
        .show_ui(ui, |ui| {
            for l in [ObjectiveLevel::Major, ObjectiveLevel::Minor] {
                ui.selectable_value(v, l, format!("{l:?}"));
            }
        });
}

fn ammo_combo(ui: &mut egui::Ui, id: &str, v: &mut Option<Ammo>) {
    let text = v.map_or("unloaded".to_string(), |a| format!("loaded: {a:?}"));
    egui::ComboBox::from_id_salt(id).selected_text(text).show_ui(ui, |ui| {
        ui.selectable_value(v, None, "unloaded");
        for a in [Ammo::Shot, Ammo::Canister, Ammo::Shell] {
            ui.selectable_value(v, Some(a), format!("loaded: {a:?}"));
        }
    });
}

fn selected_section(ui: &mut egui::Ui, editor: &mut Editor) {
    let Some(sel) = editor.selected else {
        heading(ui, "Nothing selected");
        return;
    };
    let label = editor.doc.as_ref().map(|d| sel.label(&d.scenario)).unwrap_or_default();
    ui.horizontal(|ui| {
        heading(ui, &label);
        if ui.button("Delete").clicked() {
            match editor.edit(|sc| crate::editor::piece::remove(sc, sel)) {
                Some(Err(e)) => editor.status = Some(e),
                _ => editor.selected = None,
            }
        }
    });
    edit_copy(editor, |sc, armies| properties(ui, sc, armies, sel));
}

fn properties(ui: &mut egui::Ui, sc: &mut Scenario, armies: &[ArmyList], sel: Piece) {
    if !sel.exists(sc) {
        return;
    }
    let side_names: Vec<String> = sc.sides.iter().map(|s| s.name.clone()).collect();
    let t = &mut sc.terrain;
    match sel {
        Piece::Area(i) => {
            let a = &mut t.areas[i];
            ui.text_edit_singleline(&mut a.name);
            egui::ComboBox::from_id_salt("ed_p_area")
                .selected_text(format!("{:?}", a.kind))
                .show_ui(ui, |ui| {
                    for k in AREAS {
                        ui.selectable_value(&mut a.kind, k, format!("{k:?}"));
                    }
                });
        }
        Piece::Linear(i) => {
            let l = &mut t.linears[i];
            ui.text_edit_singleline(&mut l.name);
            ui.horizontal(|ui| {
                egui::ComboBox::from_id_salt("ed_p_lin")
                    .selected_text(format!("{:?}", l.kind))
                    .show_ui(ui, |ui| {
                        for k in LINEARS {
                            ui.selectable_value(&mut l.kind, k, format!("{k:?}"));
                        }
                    });
                ui.label("width");
                ui.add(egui::DragValue::new(&mut l.width).range(0.1..=20.0).speed(0.1));
            });
        }
        Piece::Hill(i) => {
            let h = &mut t.hills[i];
            ui.text_edit_singleline(&mut h.name);
            ui.checkbox(&mut h.mountain, "mountain (impassable but to foot)");
            for (k, c) in h.contours.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    ui.label(format!("contour {} height", k + 1));
                    ui.add(egui::DragValue::new(&mut c.height).range(1..=9));
                });
            }
            if h.contours.len() > 1 && ui.button("Remove the top contour").clicked() {
                h.contours.pop();
            }
        }
        Piece::Building(i) => {
            let b = &mut t.buildings[i];
            ui.text_edit_singleline(&mut b.name);
            material_combo(ui, "ed_p_mat", &mut b.material);
        }
        Piece::Objective(i) => {
            let o = &mut sc.objectives[i];
            ui.text_edit_singleline(&mut o.name);
            ui.horizontal(|ui| {
                level_combo(ui, "ed_p_level", &mut o.level);
                ui.label("radius");
                ui.add(egui::DragValue::new(&mut o.radius).range(1.0..=30.0));
            });
            ui.horizontal(|ui| {
                ui.label("for");
                for n in &side_names {
                    ui.selectable_value(&mut o.side, n.clone(), n);
                }
            });
        }
        Piece::Unit { side, i } => {
            let cmds: Vec<String> = sc.sides[side].commanders.iter().map(|c| c.id.clone()).collect();
            let u = &mut sc.sides[side].units[i];
            ui.text_edit_singleline(&mut u.name);
            egui::ComboBox::from_id_salt("ed_p_row")
                .width(PANEL_WIDTH - 30.0)
                .selected_text(armies[side].troop(&u.row).map_or(u.row.clone(), |r| r.name.clone()))
                .show_ui(ui, |ui| {
                    for r in &armies[side].troops {
                        ui.selectable_value(&mut u.row, r.id.clone(), &r.name);
                    }
                });
            ui.horizontal(|ui| {
                ui.label("stands");
                ui.add(egui::DragValue::new(&mut u.stands).range(1..=12));
                formation_combo(ui, "ed_p_form", &mut u.formation);
            });
            ui.horizontal(|ui| {
                ui.label("facing°");
                ui.add(egui::DragValue::new(&mut u.facing).range(0.0..=359.0));
                let mut g = u.grade.unwrap_or(Grade::Regular);
                grade_combo(ui, "ed_p_grade", &mut g);
                u.grade = (g != Grade::Regular).then_some(g).or(u.grade.filter(|x| *x == g));
            });
            ui.horizontal(|ui| {
                ui.label("commander");
                egui::ComboBox::from_id_salt("ed_p_cmd")
                    .selected_text(&u.commander)
                    .show_ui(ui, |ui| {
                        for c in &cmds {
                            ui.selectable_value(&mut u.commander, c.clone(), c);
                        }
                    });
            });
            if armies[side].troop(&u.row).is_some_and(|r| r.arm == Arm::Artillery) {
                ui.horizontal(|ui| {
                    ui.checkbox(&mut u.limbered, "limbered");
                    ammo_combo(ui, "ed_p_ammo", &mut u.loaded);
                });
            }
        }
        Piece::Commander { side, i } => {
            let others: Vec<String> = sc.sides[side]
                .commanders
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != i)
                .map(|(_, c)| c.id.clone())
                .collect();
            let c = &mut sc.sides[side].commanders[i];
            ui.text_edit_singleline(&mut c.name);
            egui::ComboBox::from_id_salt("ed_p_cmdrow")
                .selected_text(&c.row)
                .show_ui(ui, |ui| {
                    for r in &armies[side].commands {
                        ui.selectable_value(&mut c.row, r.id.clone(), &r.id);
                    }
                });
            ui.horizontal(|ui| {
                ui.label("answers to");
                let text = c.superior.clone().unwrap_or_else(|| "nobody (the CO)".into());
                egui::ComboBox::from_id_salt("ed_p_sup")
                    .selected_text(text)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut c.superior, None, "nobody (the CO)");
                        for o in &others {
                            ui.selectable_value(&mut c.superior, Some(o.clone()), o);
                        }
                    });
            });
            ui.checkbox(&mut c.mounted, "mounted");
        }
        Piece::Deployment(_) => {
            ui.label("Drag its points; Delete removes the zone.");
        }
    }
}

fn roster_section(ui: &mut egui::Ui, editor: &mut Editor, b: &crate::battle::Battle) {
    let Some(doc) = &editor.doc else { return };
    let mut pick = None;
    for (s, side) in doc.scenario.sides.iter().enumerate() {
        let stands: u32 = side.units.iter().map(|u| u.stands).sum();
        let bp = b.sides.get(s).map(|x| x.breakpoint);
        let title = format!(
            "{}: {} units, {} stands; breaks at {} lost",
            side.name,
            side.units.len(),
            stands,
            bp.map_or("?".into(), |b| b.to_string())
        );
        egui::CollapsingHeader::new(egui::RichText::new(title).color(crate::ui::common::side_colour(s)))
            .id_salt(format!("ed_roster{s}"))
            .show(ui, |ui| {
                ui.label(egui::RichText::new(&doc.armies[s].name).weak());
                for (ci, c) in side.commanders.iter().enumerate() {
                    let depth = commander_depth(side, &c.id);
                    let text = format!("{}{} — {} ({})", "   ".repeat(depth), c.name, c.id, c.row);
                    let piece = Piece::Commander { side: s, i: ci };
                    if ui.selectable_label(editor.selected == Some(piece), text).clicked() {
                        pick = Some(piece);
                    }
                    for (ui_i, u) in side.units.iter().enumerate().filter(|(_, u)| u.commander == c.id) {
                        let piece = Piece::Unit { side: s, i: ui_i };
                        let text = format!(
                            "{}   · {} — {} stands, {}",
                            "   ".repeat(depth),
                            u.name,
                            u.stands,
                            u.formation
                        );
                        if ui.selectable_label(editor.selected == Some(piece), text).clicked() {
                            pick = Some(piece);
                        }
                    }
                }
            });
    }
    if let Some(p) = pick {
        editor.selected = Some(p);
        editor.tool = Tool::Select;
    }
}

/// How many superiors a commander has above him (0 for the CO).
fn commander_depth(side: &crate::data::scenario::SideSpec, id: &str) -> usize {
    let mut depth = 0;
    let mut at = id.to_string();
    while let Some(sup) = side
        .commanders
        .iter()
        .find(|c| c.id == at)
        .and_then(|c| c.superior.clone())
    {
        depth += 1;
        at = sup;
        if depth > side.commanders.len() {
            break;
        }
    }
    depth
}

fn problems_section(ui: &mut egui::Ui, editor: &mut Editor) {
    if let Some(why) = &editor.unbuilt {
        ui.colored_label(
            egui::Color32::from_rgb(255, 120, 90),
            format!("The table cannot show it: {why}"),
        );
    }
    if editor.problems.is_empty() {
        ui.colored_label(
            egui::Color32::from_rgb(140, 220, 140),
            "No problems: volley check accepts this scenario.",
        );
        return;
    }
    heading(ui, &format!("Problems ({})", editor.problems.len()));
    let mut pick = None;
    for p in &editor.problems {
        let text = format!("line {}: {}", p.line, p.msg);
        let r = ui.add(
            egui::Label::new(egui::RichText::new(text).color(egui::Color32::from_rgb(255, 140, 120)))
                .sense(egui::Sense::click()),
        );
        if r.clicked() {
            pick = p.piece;
        }
    }
    if pick.is_some() {
        editor.selected = pick;
        editor.tool = Tool::Select;
    }
}

fn try_section(ui: &mut egui::Ui, editor: &mut Editor, job: &mut BalanceJob, asks: &mut PanelAsks) {
    heading(ui, "Try it");
    let valid = editor.problems.is_empty() && editor.unbuilt.is_none();
    ui.horizontal(|ui| {
        if ui
            .add_enabled(valid, egui::Button::new("Play-test hot-seat"))
            .on_disabled_hover_text("put the problems right first")
            .clicked()
        {
            asks.trial = Some(TrialAsk::HotSeat);
        }
        if ui
            .add_enabled(valid, egui::Button::new("Play-test vs scheduler"))
            .on_disabled_hover_text("put the problems right first")
            .clicked()
        {
            asks.trial = Some(TrialAsk::VsScheduler);
        }
    });
    ui.horizontal(|ui| {
        ui.label("Balance:");
        ui.add(egui::DragValue::new(&mut job.games).range(2..=200).suffix(" games"));
        egui::ComboBox::from_id_salt("ed_bal_agent")
            .selected_text(&job.agent)
            .show_ui(ui, |ui| {
                for a in ["greedy", "scheduler-easy", "scheduler", "eager", "random"] {
                    ui.selectable_value(&mut job.agent, a.to_string(), a);
                }
            });
        if ui
            .add_enabled(valid && !job.running(), egui::Button::new("Run"))
            .clicked()
        {
            asks.balance = Some((job.games, [job.agent.clone(), job.agent.clone()]));
        }
    });
    job.show(ui);
}
