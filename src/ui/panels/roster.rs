//! The roster: the units of the side at the table, by brigade (the commander they answer to),
//! each with a word or two on its state (steady, suppressed, disordered, its hits, its orders).
//! A click on a unit or a commander selects it and centres the table on it.

use crate::battle::state::{CmdId, SideId};
use crate::battle::{Battle, Phase, UnitId};
use crate::ui::camera::{CameraFit, CameraSystems, TableCamera, TableViewport};
use crate::ui::common::Selection;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::egui;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CentreOn>()
        .add_systems(Update, centre_camera.after(CameraSystems));
}

/// A table point (cm) the camera is asked to centre on, in the free part of the window.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct CentreOn(pub Option<Vec2>);

/// One of the words on a unit's state in the roster, with how much it matters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub text: String,
    pub kind: TagKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagKind {
    /// Nothing wrong.
    Good,
    /// Hits, orders: worth knowing.
    Note,
    /// Suppressed, disordered, exhausted: it cannot do all it could.
    Bad,
}

/// A unit in the roster.
#[derive(Clone, Debug, PartialEq)]
pub struct RosterUnit {
    pub unit: UnitId,
    pub name: String,
    pub tags: Vec<Tag>,
}

/// A brigade in the roster: its commander (knocked out or not: his units still answer to him)
/// and its units in id order.
#[derive(Clone, Debug, PartialEq)]
pub struct RosterGroup {
    pub commander: CmdId,
    pub title: String,
    pub units: Vec<RosterUnit>,
    /// The formation it folds under on a big battle ([`Battle::division_of`]).
    pub division: CmdId,
}

/// More brigades than this to a side: the roster folds them by division.
pub const ROSTER_FOLDED: usize = 4;

/// The tags of one unit: its troubles, its hits and its orders this turn, or "steady".
pub fn unit_tags(b: &Battle, id: UnitId) -> Vec<Tag> {
    let u = b.unit(id);
    let tag = |text: &str, kind| Tag {
        text: text.into(),
        kind,
    };
    let mut out = Vec::new();
    if u.suppressed() {
        out.push(tag("suppressed", TagKind::Bad));
    }
    if u.disordered(b.player_turn) {
        out.push(tag("disordered", TagKind::Bad));
    }
    if u.exhausted {
        out.push(tag("exhausted", TagKind::Bad));
    }
    if u.hidden {
        out.push(tag("hidden", TagKind::Note));
    }
    if u.hits > 0 {
        out.push(Tag {
            text: crate::report::count(u.hits as i64, "hit"),
            kind: TagKind::Note,
        });
    }
    if u.stands < u.start_stands {
        out.push(Tag {
            text: format!("{} of {} stands", u.stands, u.start_stands),
            kind: TagKind::Note,
        });
    }
    if out.iter().all(|t| t.kind != TagKind::Bad) {
        out.insert(0, tag("steady", TagKind::Good));
    }
    if b.phase == Phase::Command && b.active == u.side {
        match b.cmd.orders.get(&id) {
            Some(o) if o.finished => out.push(tag("done", TagKind::Note)),
            Some(o) => out.push(Tag {
                text: format!("ordered, {} left", crate::report::count(o.credits as i64, "action")),
                kind: TagKind::Note,
            }),
            None => {}
        }
    }
    out
}

/// The roster of `side`: its alive units grouped by the commander they answer to, brigades in
/// the commanders' order, units in id order.
pub fn roster(b: &Battle, side: SideId) -> Vec<RosterGroup> {
    let mut groups: Vec<RosterGroup> = Vec::new();
    for c in b.commanders.iter().filter(|c| c.side == side) {
        let units: Vec<RosterUnit> = b
            .side_units(side)
            .filter(|u| u.hq == c.id)
            .map(|u| RosterUnit {
                unit: u.id,
                name: u.name.clone(),
                tags: unit_tags(b, u.id),
            })
            .collect();
        if units.is_empty() {
            continue;
        }
        let mut title = format!("{}: {}", crate::report::intent::formation_words(b, c), c.name);
        if !c.alive() {
            title.push_str(" (knocked out)");
        } else if c.suppressed.is_some() {
            title.push_str(" (suppressed)");
        }
        groups.push(RosterGroup {
            commander: c.id,
            title,
            units,
            division: b.division_of(c.id),
        });
    }
    groups
}

/// What a click in the roster asks for: a piece to select and the table point to centre on.
pub fn clicked_piece(b: &Battle, sel: Selection) -> Option<Vec2> {
    if let Some(c) = sel.commander {
        let c = b.commanders.get(c as usize)?;
        return Some(Vec2::new(c.pos.x as f32, c.pos.y as f32));
    }
    let u = b.units.get(sel.unit? as usize)?;
    Some(Vec2::new(u.pose.pos.x as f32, u.pose.pos.y as f32))
}

fn tag_colour(ui: &egui::Ui, k: TagKind) -> egui::Color32 {
    match k {
        TagKind::Good => egui::Color32::from_rgb(140, 200, 130),
        TagKind::Note => ui.visuals().weak_text_color(),
        TagKind::Bad => egui::Color32::from_rgb(240, 150, 90),
    }
}

/// The roster section (folding): returns the piece clicked, if any. On a big battle (more
/// than [`ROSTER_FOLDED`] brigades) each division folds, with its units counted; the one
/// holding the selection opens when the selection changes.
pub fn show(ui: &mut egui::Ui, b: &Battle, side: SideId, sel: &Selection) -> Option<Selection> {
    let mut clicked = None;
    egui::CollapsingHeader::new(format!("{} units", b.sides[side].name))
        .id_salt("roster")
        .default_open(true)
        .show(ui, |ui| {
            let groups = roster(b, side);
            if groups.is_empty() {
                ui.label(egui::RichText::new("No units left.").weak());
            }
            if groups.len() <= ROSTER_FOLDED {
                for g in &groups {
                    brigade(ui, side, sel, g, &mut clicked);
                }
                return;
            }
            let last_id = egui::Id::new(("roster_selection", side));
            let changed = ui.data_mut(|d| {
                let was = d.get_temp::<Selection>(last_id);
                d.insert_temp(last_id, *sel);
                was != Some(*sel)
            });
            let held = selected_division(b, sel);
            let mut divisions: Vec<CmdId> = Vec::new();
            for g in &groups {
                if !divisions.contains(&g.division) {
                    divisions.push(g.division);
                }
            }
            for d in divisions {
                let mine: Vec<&RosterGroup> = groups.iter().filter(|g| g.division == d).collect();
                let n: usize = mine.iter().map(|g| g.units.len()).sum();
                let title = format!(
                    "{} ({})",
                    crate::report::intent::formation_words(b, b.commander(d)),
                    crate::report::count(n as i64, "unit")
                );
                egui::CollapsingHeader::new(egui::RichText::new(title).strong())
                    .id_salt(("roster_division", d))
                    .default_open(false)
                    .open((changed && held == Some(d)).then_some(true))
                    .show(ui, |ui| {
                        for g in mine {
                            brigade(ui, side, sel, g, &mut clicked);
                        }
                    });
            }
        });
    clicked
}

/// The division the selected piece folds under, if any.
fn selected_division(b: &Battle, sel: &Selection) -> Option<CmdId> {
    match (sel.unit, sel.commander) {
        (Some(u), _) => b.units.get(u as usize).map(|u| b.division_of(u.hq)),
        (None, Some(c)) => b.commanders.get(c as usize).map(|c| b.division_of(c.id)),
        _ => None,
    }
}

/// One brigade in the roster: its commander (a click selects him) and its units with their
/// tags.
fn brigade(ui: &mut egui::Ui, side: SideId, sel: &Selection, g: &RosterGroup, clicked: &mut Option<Selection>) {
    let me = Selection {
        unit: None,
        commander: Some(g.commander),
    };
    let head = egui::RichText::new(&g.title)
        .strong()
        .color(crate::ui::common::side_colour(side));
    if ui
        .selectable_label(*sel == me, head)
        .on_hover_text("Select this commander and centre the table on him")
        .clicked()
    {
        *clicked = Some(me);
    }
    for u in &g.units {
        let me = Selection {
            unit: Some(u.unit),
            commander: None,
        };
        ui.horizontal_wrapped(|ui| {
            ui.add_space(12.0);
            if ui
                .selectable_label(*sel == me, &u.name)
                .on_hover_text("Select this unit and centre the table on it")
                .clicked()
            {
                *clicked = Some(me);
            }
            for t in &u.tags {
                ui.label(egui::RichText::new(&t.text).small().color(tag_colour(ui, t.kind)));
            }
        });
    }
}

/// Where the camera goes so the table point `target` shows at the centre of the free part of
/// the window `view` (pixels, y down) in a window of `window` pixels, at the camera's
/// `rotation` and `scale` (cm per pixel).
pub fn centred_translation(target: Vec2, rotation: Quat, scale: f32, view: Rect, window: Vec2) -> Vec2 {
    let off = view.center() - window * 0.5;
    let shift = rotation * Vec3::new(off.x * scale, -off.y * scale, 0.0);
    target - shift.truncate()
}

/// Centre the table on the piece the roster asked for, zooming in as far as the names can be
/// read if the camera is further out; the camera counts as moved by the player then (no refit
/// undoes it).
fn centre_camera(
    mut ask: ResMut<CentreOn>,
    mut fit: ResMut<CameraFit>,
    viewport: Res<TableViewport>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    camera: Option<Single<(&mut Transform, &mut Projection), With<TableCamera>>>,
) {
    let Some(target) = ask.0 else { return };
    let (Some(window), Some(camera)) = (window, camera) else {
        return;
    };
    ask.0 = None;
    let (mut tf, mut proj) = camera.into_inner();
    let Projection::Orthographic(o) = proj.as_ref() else {
        return;
    };
    let size = Vec2::new(window.width(), window.height());
    let view = viewport.0.unwrap_or(Rect::from_corners(Vec2::ZERO, size));
    // Close enough to read the names on the table, if further out.
    let scale = o
        .scale
        .min(crate::ui::table::labels::NAME_HEIGHT / (crate::ui::table::labels::READABLE_PX * 1.3));
    if let Projection::Orthographic(o) = proj.as_mut() {
        o.scale = scale;
    }
    let at = centred_translation(target, tf.rotation, scale, view, size);
    tf.translation.x = at.x;
    tf.translation.y = at.y;
    fit.pending = false;
    fit.moved = true;
}
