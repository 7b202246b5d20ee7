//! The tooltip at the pointer: what the stand or commander under the mouse is (its name, side,
//! formation, stands and hits, status, orders left and what it sees; a commander's rank,
//! value, command and reach), in the terminal's own words (`terminal::view`), and below it
//! the order a click would give there (`PointerOrder`), refused in red. Everything is read
//! through the viewer's [`PlayerView`]: an enemy unit it does not know of is never described.

use crate::app::BattleState;
use crate::battle::Battle;
use crate::battle::state::SideId;
use crate::battle::{Phase, UnitId};
use crate::terminal::view;
use crate::terminal::words::cm;
use crate::ui::camera::TableViewport;
use crate::ui::common::{PanelsSet, PointerOrder, Screen, Selection, TableHover};
use crate::ui::session::Seats;
use crate::view::{PlayerView, Viewer};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        show_tooltip.after(PanelsSet).run_if(in_state(Screen::Battle)),
    );
}

/// At most this many names in a list ("sees …", "commands …"), then "and N more".
const MAX_NAMES: usize = 4;

fn names(list: &[String]) -> String {
    if list.len() <= MAX_NAMES {
        return list.join(", ");
    }
    format!("{} and {} more", list[..MAX_NAMES].join(", "), list.len() - MAX_NAMES)
}

/// The tooltip of the piece `hover` as `viewer` may know it (none: everything): the first line
/// is its name, the rest plain sentences. Empty for nothing, a piece that is gone, or an
/// enemy unit the viewer has not found.
pub fn tooltip_lines(b: &Battle, hover: Selection, viewer: Option<SideId>) -> Vec<String> {
    let view = PlayerView::of(b, Viewer::of(viewer));
    if let Some(id) = hover.commander {
        return commander_lines(b, &view, id);
    }
    match hover.unit {
        Some(id) => unit_lines(b, &view, id),
        None => Vec::new(),
    }
}

fn unit_lines(b: &Battle, view: &PlayerView, id: UnitId) -> Vec<String> {
    let Some(u) = view.unit(id).filter(|u| u.alive()) else {
        return Vec::new();
    };
    let enemy = view.viewer().side().is_some_and(|s| s != u.side);
    let mut out = vec![u.name.clone()];
    out.push(format!(
        "{}{}: {} ({}, {})",
        b.sides[u.side].name,
        if enemy { ", enemy" } else { "" },
        u.row.name,
        crate::report::words_of(&format!("{:?}", u.row.arm)).to_lowercase(),
        crate::report::words_of(&format!("{:?}", u.grade)).to_lowercase()
    ));
    out.push(format!("Formation: {}", u.formation));
    out.push(format!("Strength: {}", view::strength(b, u)));
    out.push(format!("Status: {}", view::status(b, u, !enemy)));
    if !enemy {
        let brigade = b.commander(u.hq);
        out.push(format!(
            "Brigade: {}{}",
            brigade.name,
            if brigade.alive() { "" } else { " (knocked out)" }
        ));
        if let Some(o) = view::orders(b, u) {
            out.push(format!("Orders: {o}"));
        } else if b.phase == Phase::Command && b.active != u.side {
            out.push("Orders: none in the enemy's turn".into());
        }
    }
    // What it sees: the enemy units in its line of sight (never a hidden one).
    let seen: Vec<String> = b
        .visible_enemies(id)
        .into_iter()
        .filter(|&(e, _)| view.knows(e))
        .map(|(e, d)| format!("{} ({} cm)", b.unit(e).name, cm(d.round())))
        .collect();
    out.push(if seen.is_empty() {
        "Sees no enemy unit".into()
    } else {
        format!("Sees: {}", names(&seen))
    });
    out
}

fn commander_lines(b: &Battle, view: &PlayerView, id: crate::battle::state::CmdId) -> Vec<String> {
    let Some(c) = view.commander(id).filter(|c| c.alive()) else {
        return Vec::new();
    };
    let enemy = view.viewer().side().is_some_and(|s| s != c.side);
    let words = |x: String| crate::report::words_of(&x).to_lowercase();
    let mut out = vec![c.name.clone()];
    out.push(format!(
        "{}{}: {} commander, {}",
        b.sides[c.side].name,
        if enemy { ", enemy" } else { "" },
        words(format!("{:?}", c.row.level)),
        words(format!("{:?}", c.row.quality))
    ));
    out.push(format!(
        "Command value {} (an order passes on 2 dice scoring {} or less){}",
        c.command_value,
        c.command_value,
        if c.replaced { ", a replacement" } else { "" }
    ));
    if let Some(s) = c.superior {
        out.push(format!("Answers to {}", b.commander(s).name));
    }
    // His own units, then those of the commanders under him (only units the viewer knows of).
    let own: Vec<String> = view.units().filter(|u| u.hq == id).map(|u| u.name.clone()).collect();
    if !own.is_empty() {
        out.push(format!("Commands: {}", names(&own)));
    }
    let under: Vec<String> = b
        .commanders
        .iter()
        .filter(|x| x.alive() && x.id != id && b.in_chain(x.id, id))
        .map(|x| x.name.clone())
        .collect();
    if !under.is_empty() {
        out.push(format!("Commanders under him: {}", names(&under)));
    }
    let r = &b.rules.command;
    out.push(format!(
        "Orders units within {} cm at no penalty; {} for every {} cm further",
        cm(r.free_distance),
        r.per_distance,
        cm(r.distance_step)
    ));
    let mut status = Vec::new();
    if c.suppressed.is_some() {
        status.push("suppressed (may not order)");
    }
    if !enemy && b.phase == Phase::Command && b.active == c.side && b.cmd.done.contains(&id) {
        status.push("done ordering this turn");
    }
    if !enemy && b.cmd.moved.contains(&id) {
        status.push("has moved");
    }
    if !status.is_empty() {
        out.push(format!("Status: {}", status.join(", ")));
    }
    out
}

/// Where the tooltip's text was last worked out for: the hovered piece, the viewer and the
/// battle's action count (the sight lines are worked out once, not every frame).
type Cached = Option<((Selection, Option<SideId>, u64, u64), Vec<String>)>;

/// Where the pointer is and what it is over: the window, the table's part of it, the piece
/// hovered and the order a click there would give.
#[derive(bevy::ecs::system::SystemParam)]
struct PointerOver<'w, 's> {
    hover: Res<'w, TableHover>,
    order: Res<'w, PointerOrder>,
    viewport: Res<'w, TableViewport>,
    window: Option<Single<'w, 's, &'static Window, With<PrimaryWindow>>>,
}

fn show_tooltip(
    mut contexts: EguiContexts,
    battle: Res<BattleState>,
    seats: Res<Seats>,
    pointer: PointerOver,
    mut cache: Local<Cached>,
) -> Result {
    let PointerOver {
        hover,
        order,
        viewport,
        window,
    } = pointer;
    let Some(window) = window else { return Ok(()) };
    let Some(cursor) = window.cursor_position() else {
        return Ok(());
    };
    if viewport.0.is_some_and(|v| !v.contains(cursor)) {
        return Ok(());
    }
    let b = &battle.0;
    let viewer = seats.fog_viewer();
    let key = (hover.0, viewer, b.actions, b.scenario_hash);
    if cache.as_ref().is_none_or(|(k, _)| *k != key) {
        *cache = Some((key, tooltip_lines(b, hover.0, viewer)));
    }
    let lines = cache.as_ref().map(|(_, l)| l.as_slice()).unwrap_or_default();
    if lines.is_empty() && order.lines.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // Below-right of the pointer, kept inside the window (egui's points are the window's
    // pixels over the panels' scale).
    let k = ctx.zoom_factor();
    let at = egui::pos2(cursor.x / k + 18.0, cursor.y / k + 18.0);
    egui::Area::new(egui::Id::new("table_tooltip"))
        .order(egui::Order::Tooltip)
        .fixed_pos(at)
        .constrain(true)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(340.0);
                if let Some((name, rest)) = lines.split_first() {
                    ui.label(egui::RichText::new(name).strong().size(15.0));
                    for l in rest {
                        ui.label(l);
                    }
                }
                if !order.lines.is_empty() {
                    if !lines.is_empty() {
                        ui.separator();
                    }
                    let colour = if order.refused {
                        egui::Color32::from_rgb(240, 110, 100)
                    } else {
                        ui.visuals().strong_text_color()
                    };
                    for l in &order.lines {
                        ui.label(egui::RichText::new(crate::ui::common::plain(l)).strong().color(colour));
                    }
                }
            });
        });
    Ok(())
}
