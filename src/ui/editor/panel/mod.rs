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
mod roster;
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

#[allow(clippy::too_many_arguments)]
fn editor_panel(
    mut contexts: EguiContexts,
    mut editor: ResMut<Editor>,
    battle: Res<BattleState>,
    mut viewport: ResMut<TableViewport>,
    mut typing_now: ResMut<crate::ui::common::Typing>,
    mut over_window: ResMut<OverWindow>,
    mut next: ResMut<NextState<Screen>>,
    mut job: ResMut<BalanceJob>,
    mut trial: ResMut<super::trial::TrialRequest>,
    mut form: Local<NewForm>,
    mut replace_ok: Local<Option<PathBuf>>,
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
    if typing_now.0 != typing {
        typing_now.0 = typing;
    }
    if over_window.0 {
        over_window.0 = false;
    }
    // What was asked.
    let mut leave = None;
    if asks.new {
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
        } else {
            match Doc::blank(form.title.trim(), size, [&form.armies[0], &form.armies[1]], path) {
                Ok(doc) => leave = Some(GoTo::Replace(Box::new(doc))),
                Err(e) => editor.status = Some(e.to_string()),
            }
        }
    }
    if let Some(p) = asks.open {
        leave = Some(GoTo::Open(p));
    }
    if asks.menu {
        leave = Some(GoTo::Menu);
    }
    if let Some(to) = leave
        && let Some(GoTo::Menu) = editor.leave_or_ask(to)
    {
        next.set(Screen::Menu);
    }
    // Unsaved changes: save them, drop them, or stay.
    if let Some(to) = editor.leaving.clone() {
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
                        remember(&mut editor, ui, label, &r);
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
    if let Some(p) = asks.save {
        // Save as over another file that exists: only on a second press.
        let other = editor.doc.as_ref().is_some_and(|d| d.path != p) && p.exists();
        if other && replace_ok.as_ref() != Some(&p) {
            editor.status = Some(format!("{} exists: press Save again to replace it", p.display()));
            *replace_ok = Some(p);
        } else {
            *replace_ok = None;
            editor.save(&p);
        }
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
    Ok(())
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
