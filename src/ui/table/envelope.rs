//! The move envelope of the selected unit: while it has an order in hand, the ground it may
//! reach in one straight move is shaded (terrain, formation, road bonus and other units all
//! counted by the rules' own check). The battle's movement system computes it off the frame
//! (`app::movement`) for the unit marked `WantsEnvelope`; it is drawn when it arrives.
//! A dragged move that the rules would refuse is outlined in red with the rule's reason on
//! the phase bar's status line.

use super::pen::{Pen, spawn_layer, w, z};
use crate::app::movement::{MoveEnvelope, WantsEnvelope, may_move};
use crate::app::{BattleState, BattleSystems, PieceIndex};
use crate::battle::{Action, Battle, UnitId};
use crate::ui::common::Drag;
use crate::ui::common::{Selection, TableSystems};
use crate::ui::session::{BattleLog, Seats};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DragVerdict>().add_systems(
        Update,
        (
            want_envelope
                .run_if(resource_changed::<Selection>.or_else(resource_changed::<BattleState>))
                .before(BattleSystems::Derive),
            draw_envelope.in_set(TableSystems::Draw),
            judge_drag.run_if(resource_changed::<Drag>.or_else(resource_changed::<BattleState>)),
        ),
    );
}

/// Marks the envelope's shape entities.
#[derive(Component)]
pub struct EnvelopeLayer;

/// Marks the refused-drag outline.
#[derive(Component)]
pub struct RefusedDragLayer;

/// Why the move being dragged would be refused (None while it is legal or nothing is dragged).
#[derive(Resource, Default, Debug, PartialEq)]
pub struct DragVerdict(pub Option<String>);

/// The unit whose envelope to show: the selection, in its side's command phase, with an order
/// in hand that still has actions.
pub fn envelope_unit(b: &Battle, selection: &Selection) -> Option<UnitId> {
    let u = selection.unit?;
    may_move(b, u).then_some(u)
}

/// The selected unit, if it may move and its player sits at the table, asks the battle's
/// movement system for its envelope (computed off the frame); no other unit does.
fn want_envelope(
    mut commands: Commands,
    battle: Res<BattleState>,
    selection: Res<Selection>,
    seats: Res<Seats>,
    index: Res<PieceIndex>,
    wanting: Query<Entity, With<WantsEnvelope>>,
) {
    let b = &battle.0;
    let want = envelope_unit(b, &selection)
        .filter(|_| seats.human(b.actor()))
        .and_then(|u| index.unit(u));
    for e in &wanting {
        if Some(e) != want {
            commands.entity(e).remove::<WantsEnvelope>();
        }
    }
    if let Some(e) = want {
        commands.entity(e).insert(WantsEnvelope);
    }
}

/// Draw the selected unit's envelope once the movement system has it.
fn draw_envelope(
    mut commands: Commands,
    changed: Query<(), Changed<MoveEnvelope>>,
    mut removed: RemovedComponents<MoveEnvelope>,
    envelopes: Query<&MoveEnvelope, With<WantsEnvelope>>,
    old: Query<Entity, With<EnvelopeLayer>>,
) {
    if changed.is_empty() && removed.read().count() == 0 {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(env) = envelopes.iter().next() else {
        return;
    };
    if env.rays.iter().all(|&(_, r)| r <= 0.0) {
        return;
    }
    let outline: Vec<Vec2> = env.outline.iter().copied().map(w).collect();
    let mut fill = Pen::new();
    fill.poly(&outline);
    let mut edge = Pen::new();
    let mut closed = outline.clone();
    closed.push(outline[0]);
    edge.line(&closed);
    spawn_layer(
        &mut commands,
        fill.fill(Color::srgba(1.0, 0.95, 0.6, 0.16), z::OVERLAY_UNDER - 0.1),
        EnvelopeLayer,
    );
    spawn_layer(
        &mut commands,
        edge.stroke(Color::srgba(1.0, 0.95, 0.6, 0.7), 0.25, z::OVERLAY_UNDER - 0.05),
        EnvelopeLayer,
    );
}

/// Checks the dragged move with the pipeline's rule and outlines it in red if refused.
fn judge_drag(
    mut commands: Commands,
    battle: Res<BattleState>,
    drag: Res<Drag>,
    mut verdict: ResMut<DragVerdict>,
    mut log: ResMut<BattleLog>,
    old: Query<Entity, With<RefusedDragLayer>>,
    mut told: Local<Option<String>>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let b = &battle.0;
    let refused = match &drag.action {
        Some(Action::Move { unit, to }) => b.check_ordered_move(*unit, *to).err().map(|r| (*unit, *to, r)),
        Some(Action::Consolidate { unit, to }) => b.check_consolidation(*unit, *to).err().map(|r| (*unit, *to, r)),
        _ => None,
    };
    let why = refused.map(|(unit, to, r)| {
        let mut moved = b.unit(unit).clone();
        moved.pose = to;
        let mut pen = Pen::new();
        for r in &b.compute_geom(&moved).rects {
            pen.rect(r, 0.0);
        }
        spawn_layer(
            &mut commands,
            pen.stroke(Color::srgb(0.85, 0.15, 0.1), 0.35, z::OVERLAY + 0.2),
            RefusedDragLayer,
        );
        r.to_string()
    });
    // A snapped move is said too: the drag became the nearest legal move ("as a wheel").
    let said = why
        .as_ref()
        .map(|w| format!("would be refused: {w}"))
        .or_else(|| drag.snapped.map(|k| format!("snapped to the nearest legal move: {k}")));
    if *told != said {
        // Said on the phase bar's status line while the drag lasts.
        match &said {
            Some(w) => log.status = Some(w.clone()),
            None if told.is_some() => log.status = None,
            None => {}
        }
        *told = said;
    }
    if verdict.0 != why {
        verdict.0 = why;
    }
}
