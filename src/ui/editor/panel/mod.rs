//! The editor's left panel: the file (new, open, save, undo, redo), the scenario's settings,
//! the tools and what they place, the selected piece's properties, each side's roster against
//! its breakpoint, the validator's problems, and play-testing and balance runs.

use super::state::{Editor, GoTo};
use super::trial::BalanceJob;
use crate::app::BattleState;
use crate::data::scenario::TableSize;
use crate::editor::Doc;
use crate::ui::camera::TableViewport;
use crate::ui::common::{OverWindow, Screen};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use file::{NewForm, file_section, scenario_section};
use problems::problems_section;
use roster::roster_section;
use selected::selected_section;
use shared::*;
use tools::tools_section;
use try_it::try_section;

pub use shared::PANEL_WIDTH;

mod file;
mod problems;
pub mod roster;
mod selected;
mod shared;
mod tools;
mod try_it;
mod widgets;

use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        editor_panel
            .in_set(crate::ui::common::PanelsSet)
            .run_if(in_state(Screen::Editor)),
    );
}

/// What the editor's panel tells the table: the table's part of the window, whether a text
/// field takes the keys, and whether the pointer is over a floating window.
#[derive(SystemParam)]
struct TableSide<'w> {
    viewport: ResMut<'w, TableViewport>,
    typing_now: ResMut<'w, crate::ui::common::Typing>,
    over_window: ResMut<'w, OverWindow>,
}

/// The panel's own memory: the new-scenario form, and the file a "Save as" was warned about
/// (a second press replaces it).
#[derive(SystemParam)]
struct PanelMemory<'s> {
    form: Local<'s, NewForm>,
    replace_ok: Local<'s, Option<PathBuf>>,
}

/// Where the panel's asks lead: the next screen, the balance run and the play-test.
#[derive(SystemParam)]
struct PanelOut<'w> {
    next: ResMut<'w, NextState<Screen>>,
    job: ResMut<'w, BalanceJob>,
    trial: ResMut<'w, super::trial::TrialRequest>,
}

fn editor_panel(
    mut contexts: EguiContexts,
    mut editor: ResMut<Editor>,
    battle: Res<BattleState>,
    mut table: TableSide,
    mut memory: PanelMemory,
    mut out: PanelOut,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut asks = PanelAsks::default();
    editor.buttons.clear();
    let free = show_panel(ctx, &mut editor, &battle.0, &mut memory.form, &mut out.job, &mut asks);
    let k = ctx.zoom_factor();
    let rect = Rect::new(free.min.x * k, free.min.y * k, free.max.x * k, free.max.y * k);
    if table.viewport.0 != Some(rect) {
        table.viewport.0 = Some(rect);
    }
    let typing = ctx.egui_wants_keyboard_input();
    if table.typing_now.0 != typing {
        table.typing_now.0 = typing;
    }
    if table.over_window.0 {
        table.over_window.0 = false;
    }
    // What was asked.
    let mut leave = None;
    if asks.new {
        leave = new_scenario(&mut editor, &memory.form);
    }
    if let Some(p) = asks.open.take() {
        leave = Some(GoTo::Open(p));
    }
    if asks.menu {
        leave = Some(GoTo::Menu);
    }
    if let Some(to) = leave
        && let Some(GoTo::Menu) = editor.leave_or_ask(to)
    {
        out.next.set(Screen::Menu);
    }
    // Unsaved changes: save them, drop them, or stay.
    if let Some(to) = editor.leaving.clone() {
        unsaved_dialog(ctx, &mut editor, to, &mut table.over_window, &mut out.next);
    }
    if let Some(p) = asks.save.take() {
        save_as(&mut editor, p, &mut memory.replace_ok);
    }
    if let Some((games, agents)) = asks.balance.take() {
        start_balance(&mut editor, &mut out.job, games, agents);
    }
    if let Some(t) = asks.trial.take()
        && save_first(&mut editor)
    {
        let path = editor.doc.as_ref().map(|d| d.path.clone()).unwrap_or_default();
        out.trial.0 = Some((t, path));
    }
    Ok(())
}

/// The panel and its status line as the editor screen draws them on `ctx`, what is asked left
/// undone: for tests that read the panel's words.
pub fn draw(ctx: &egui::Context, editor: &mut Editor, battle: &crate::battle::Battle) {
    let mut asks = PanelAsks::default();
    show_panel(
        ctx,
        editor,
        battle,
        &mut NewForm::default(),
        &mut BalanceJob::default(),
        &mut asks,
    );
}

/// The left panel (file, scenario, tools, selected piece, roster, problems, try it) and the
/// status line below the table, gathering what is asked in `asks`; the free rectangle they
/// leave for the table, in egui points.
fn show_panel(
    ctx: &egui::Context,
    editor: &mut Editor,
    battle: &crate::battle::Battle,
    form: &mut NewForm,
    job: &mut BalanceJob,
    asks: &mut PanelAsks,
) -> egui::Rect {
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
                file_section(ui, editor, form, asks);
                if editor.doc.is_none() {
                    return;
                }
                ui.separator();
                scenario_section(ui, editor);
                ui.separator();
                tools_section(ui, editor);
                ui.separator();
                selected_section(ui, editor);
                ui.separator();
                roster_section(ui, editor, battle);
                ui.separator();
                problems_section(ui, editor);
                ui.separator();
                try_section(ui, editor, job, asks);
            });
        });
    // A status line over the table.
    egui::Panel::bottom("editor_status").show(&mut root, |ui| {
        ui.horizontal(|ui| {
            ui.label(status_line(editor));
            if let Some(s) = &editor.status {
                ui.separator();
                ui.label(egui::RichText::new(s).color(egui::Color32::from_rgb(255, 210, 120)));
            }
        });
    });
    root.available_rect_before_wrap()
}

/// The status line: the file (and whether it is saved), the pointer's place, and the shape
/// being drawn.
fn status_line(editor: &Editor) -> String {
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
    line
}

/// "New" on the form: a blank scenario to go to, or why not in the status line (a new
/// scenario never writes over a file).
fn new_scenario(editor: &mut Editor, form: &NewForm) -> Option<GoTo> {
    let size = TableSize {
        width: form.width,
        height: form.height,
    };
    let path = PathBuf::from(form.path.trim());
    if path.exists() {
        // A new scenario never writes over a file: open that one, or name another.
        editor.status = Some(format!(
            "{} exists: open it, or give the new scenario another file",
            path.display()
        ));
        return None;
    }
    match Doc::blank(form.title.trim(), size, [&form.armies[0], &form.armies[1]], path) {
        Ok(doc) => Some(GoTo::Replace(Box::new(doc))),
        Err(e) => {
            editor.status = Some(e.to_string());
            None
        }
    }
}

/// "Unsaved changes" before going to `to`: save them, drop them, or stay.
fn unsaved_dialog(
    ctx: &egui::Context,
    editor: &mut Editor,
    to: GoTo,
    over_window: &mut OverWindow,
    next: &mut NextState<Screen>,
) {
    let mut answer = None;
    let shown = egui::Window::new("Unsaved changes")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label("This scenario has changes that are not saved.");
            ui.horizontal(|ui| {
                for (label, a) in [("Save, then go on", 0), ("Drop the changes", 1), ("Stay", 2)] {
                    let r = ui.button(label);
                    remember(editor, ui, label, &r);
                    if r.clicked() {
                        answer = Some(a);
                    }
                }
            });
        });
    if let Some(r) = shown
        && ctx.pointer_latest_pos().is_some_and(|p| r.response.rect.contains(p))
    {
        over_window.0 = true;
    }
    let go_on = match answer {
        Some(0) => {
            let path = editor.doc.as_ref().map(|d| d.path.clone()).unwrap_or_default();
            editor.save(&path)
        }
        Some(1) => {
            // Dropped: the document goes (coming back to the editor does not ask again).
            if matches!(to, GoTo::Menu) {
                editor.doc = None;
            }
            true
        }
        Some(_) => {
            editor.leaving = None;
            false
        }
        None => false,
    };
    if go_on && let Some(GoTo::Menu) = editor.go(to) {
        next.set(Screen::Menu);
    }
}

/// Save to `p`; over another file that exists, only on a second press.
fn save_as(editor: &mut Editor, p: PathBuf, replace_ok: &mut Option<PathBuf>) {
    let other = editor.doc.as_ref().is_some_and(|d| d.path != p) && p.exists();
    if other && replace_ok.as_ref() != Some(&p) {
        editor.status = Some(format!("{} exists: press Save again to replace it", p.display()));
        *replace_ok = Some(p);
    } else {
        *replace_ok = None;
        editor.save(&p);
    }
}

/// Play-tests and balance runs play the file: save it first.
fn save_first(editor: &mut Editor) -> bool {
    let Some(path) = editor.doc.as_ref().map(|d| d.path.clone()) else {
        return false;
    };
    editor.save(&path)
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
