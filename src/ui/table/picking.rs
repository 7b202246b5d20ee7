//! Picking the pieces on the table with Bevy's picking. The pieces are the battle's entities
//! (`app::pieces`); this file makes them pickable and visible-or-hidden, and is the
//! picking backend that hits them: a stand or a commander is under the pointer when the point
//! lies on its base shape, placed by its global transform. Commanders lie on top of stands.
//! What the mouse is over, by Bevy's hover map, is the `TableHover` the table's tools read.

use crate::app::{BattleState, CommanderBase, Stand, UnitPiece};
use crate::ui::camera::{TableCamera, TableViewport};
use crate::ui::common::{Screen, Selection, TableHover};
use crate::ui::session::Seats;
use crate::view::{PlayerView, Viewer};
use bevy::picking::PickingSystems;
use bevy::picking::backend::{HitData, PointerHits, ray::RayMap};
use bevy::picking::hover::HoverMap;
use bevy::picking::pointer::{PointerId, PointerLocation};
use bevy::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    app.add_observer(new_stand)
        .add_observer(new_piece)
        .add_observer(new_commander)
        .add_systems(OnEnter(Screen::Menu), forget_pieces)
        .add_systems(PreUpdate, table_hits.in_set(PickingSystems::Backend))
        .add_systems(PreUpdate, hover.after(PickingSystems::Hover))
        .add_systems(Update, fog.in_set(crate::app::BattleSystems::Derive));
}

/// Depth of a hit: commanders above stands.
const COMMANDER_DEPTH: f32 = 1.0;
const STAND_DEPTH: f32 = 2.0;

fn new_stand(add: On<Add, Stand>, mut commands: Commands) {
    commands
        .entity(add.entity)
        .insert((Pickable::default(), Visibility::Inherited));
}

/// The table's pieces (units with their stands, commanders) go when the window goes back to
/// the menu: a new battle, or the editor's, brings its own.
fn new_piece(add: On<Add, UnitPiece>, mut commands: Commands) {
    commands
        .entity(add.entity)
        .insert((Visibility::Inherited, DespawnOnEnter(Screen::Menu)));
}

fn new_commander(add: On<Add, CommanderBase>, mut commands: Commands) {
    commands
        .entity(add.entity)
        .insert((Pickable::default(), Visibility::Inherited, DespawnOnEnter(Screen::Menu)));
}

/// Back at the menu the pieces are gone (`DespawnOnEnter`): the index of them goes too.
fn forget_pieces(mut index: ResMut<crate::app::PieceIndex>) {
    *index = Default::default();
}

/// The enemy units the player at the table does not know of ([`PlayerView::knows`]: hidden
/// set-up, unseen dug-in positions) are hidden, so they are neither drawn nor picked. A game
/// without a human shows them all.
/// Worked out again only when the battle, the seats or the pieces change (an unseen dug-in
/// position costs sight lines to know).
fn fog(
    battle: Res<BattleState>,
    seats: Option<Res<Seats>>,
    added: Query<(), Added<UnitPiece>>,
    mut units: Query<(&UnitPiece, &mut Visibility)>,
) {
    if !battle.is_changed() && !seats.as_ref().is_some_and(|s| s.is_changed()) && added.is_empty() {
        return;
    }
    let b = &battle.0;
    let view = match seats.as_deref() {
        Some(s) => s.view(b),
        None => PlayerView::of(b, Viewer::All),
    };
    for (p, mut v) in &mut units {
        // A piece of a unit the battle no longer has (the editor's table, a frame late).
        if p.unit as usize >= b.units.len() {
            continue;
        }
        let known = view.knows(p.unit);
        v.set_if_neq(if known {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        });
    }
}

/// The picking backend: every pointer ray through the table camera hits the visible bases
/// under it.
#[allow(clippy::type_complexity)]
fn table_hits(
    rays: Res<RayMap>,
    cameras: Query<&Camera, With<TableCamera>>,
    pointers: Query<(&PointerId, &PointerLocation)>,
    viewport: Option<Res<TableViewport>>,
    bases: Query<(
        Entity,
        &crate::app::BaseShape,
        &GlobalTransform,
        &InheritedVisibility,
        &Pickable,
        Has<CommanderBase>,
    )>,
    mut hits: MessageWriter<PointerHits>,
) {
    for (&ray_id, ray) in rays.iter() {
        let Ok(camera) = cameras.get(ray_id.camera) else {
            continue;
        };
        // The panels cover the rest of the window.
        let over_table = pointers
            .iter()
            .find(|(id, _)| **id == ray_id.pointer)
            .and_then(|(_, l)| l.location())
            .is_some_and(|l| {
                viewport
                    .as_ref()
                    .and_then(|v| v.0)
                    .is_none_or(|v| v.contains(l.position))
            });
        if !over_table {
            continue;
        }
        let p = ray.origin.truncate();
        let picks: Vec<(Entity, HitData)> = bases
            .iter()
            .filter(|(_, shape, at, seen, pickable, _)| seen.get() && pickable.is_hoverable && shape.contains(at, p))
            .map(|(e, _, _, _, _, commander)| {
                let depth = if commander { COMMANDER_DEPTH } else { STAND_DEPTH };
                (e, HitData::new(ray_id.camera, depth, Some(p.extend(0.0)), None))
            })
            .collect();
        if !picks.is_empty() {
            hits.write(PointerHits::new(ray_id.pointer, picks, camera.order as f32));
        }
    }
}

/// The mouse's hovered piece, from Bevy's hover map.
fn hover(map: Res<HoverMap>, stands: Query<&Stand>, commanders: Query<&CommanderBase>, mut out: ResMut<TableHover>) {
    let hovered = map.get(&PointerId::Mouse);
    let mut best: Option<(f32, Selection)> = None;
    for (e, hit) in hovered.into_iter().flatten() {
        let pick = if let Ok(c) = commanders.get(*e) {
            Selection {
                unit: None,
                commander: Some(c.commander),
            }
        } else if let Ok(s) = stands.get(*e) {
            Selection {
                unit: Some(s.unit),
                commander: None,
            }
        } else {
            continue;
        };
        if best.is_none_or(|(d, _)| hit.depth < d) {
            best = Some((hit.depth, pick));
        }
    }
    out.set_if_neq(TableHover(best.map(|b| b.1).unwrap_or_default()));
}
