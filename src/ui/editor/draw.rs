//! What the editor adds to the table drawn from the document's battle: each side's deployment
//! zone, the pieces with problems (red), the selected piece (its outline and the points to
//! drag) and the outline being drawn, with a line to the pointer.

use super::state::Editor;
use crate::editor::Piece;
use crate::rules::geometry::V2;
use crate::ui::camera::TableCamera;
use crate::ui::common::Screen;
use crate::ui::table::pen::{Pen, spawn_layer, w, z};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_editor
            .in_set(crate::ui::common::TableSystems::Draw)
            .run_if(in_state(Screen::Editor)),
    );
}

/// Marks the editor's shapes, which go when the editor is left.
#[derive(Component)]
#[require(DespawnOnExit<Screen> = DespawnOnExit(Screen::Editor))]
pub struct EditorLayer;

/// The colour of a side's deployment zone.
pub fn zone_colour(side: usize, alpha: f32) -> Color {
    if side == 0 {
        Color::srgba(0.2, 0.35, 0.85, alpha)
    } else {
        Color::srgba(0.65, 0.2, 0.2, alpha)
    }
}

const SELECTED: Color = Color::srgb(1.0, 0.85, 0.1);
const PROBLEM: Color = Color::srgb(0.95, 0.1, 0.1);
const DRAWING: Color = Color::srgb(1.0, 1.0, 1.0);

/// The outline of a piece as polygons (closed) and polylines (open), in world points.
fn outlines(editor: &Editor, piece: Piece) -> (Vec<Vec<Vec2>>, Vec<Vec<Vec2>>) {
    let Some(doc) = &editor.doc else {
        return Default::default();
    };
    let sc = &doc.scenario;
    let ring = |pts: &Vec<V2>| pts.iter().map(|p| w(*p)).collect::<Vec<_>>();
    let circle = |c: V2, r: f64| {
        (0..24)
            .map(|i| {
                let a = i as f64 / 24.0 * std::f64::consts::TAU;
                w(c + V2::new(a.cos(), a.sin()) * r)
            })
            .collect::<Vec<_>>()
    };
    match piece {
        Piece::Linear(_) => (Vec::new(), piece.rings(sc).into_iter().map(ring).collect()),
        Piece::Unit { side, i } if piece.exists(sc) => {
            let u = &sc.sides[side].units[i];
            let rects = doc.armies[side]
                .troop(&u.row)
                .map(|row| crate::data::unit_rects(u, row, &doc.footprints))
                .unwrap_or_default();
            (rects.iter().map(|r| r.corners().map(w).to_vec()).collect(), Vec::new())
        }
        Piece::Commander { .. } => (
            piece.anchor(sc).map(|c| circle(c, 2.2)).into_iter().collect(),
            Vec::new(),
        ),
        Piece::Objective(i) if piece.exists(sc) => {
            let o = &sc.objectives[i];
            (vec![circle(o.pos, 2.5), circle(o.pos, o.radius)], Vec::new())
        }
        _ => (piece.rings(sc).into_iter().map(ring).collect(), Vec::new()),
    }
}

/// The line width (cm) that shows as `px` pixels at the camera's zoom.
fn px(camera: &Option<Single<&Projection, With<TableCamera>>>, px: f32) -> f32 {
    match camera.as_deref() {
        Some(Projection::Orthographic(o)) => o.scale * px,
        _ => 0.2 * px,
    }
}

fn draw_editor(
    mut commands: Commands,
    editor: Res<Editor>,
    camera: Option<Single<&Projection, With<TableCamera>>>,
    old: Query<Entity, With<EditorLayer>>,
    mut last: Local<Option<u64>>,
) {
    let Some(doc) = &editor.doc else { return };
    let scale = px(&camera, 1.0);
    // Rebuilt only when what it shows changes.
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        doc.version.hash(&mut h);
        editor.selected.hash(&mut h);
        editor.checked.hash(&mut h);
        scale.to_bits().hash(&mut h);
        for p in &editor.drawing {
            p.x.to_bits().hash(&mut h);
            p.y.to_bits().hash(&mut h);
        }
        if !editor.drawing.is_empty()
            && let Some(p) = editor.pointer
        {
            p.x.to_bits().hash(&mut h);
            p.y.to_bits().hash(&mut h);
        }
        h.finish()
    };
    // (Drawn again on coming back to the editor: leaving it took the shapes.)
    if *last == Some(key) && !old.is_empty() {
        return;
    }
    *last = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    let sc = &doc.scenario;
    // Deployment zones, under the troops.
    for (s, side) in sc.sides.iter().enumerate() {
        if let Some(zone) = &side.deployment {
            let pts: Vec<Vec2> = zone.0.iter().map(|p| w(*p)).collect();
            let mut pen = Pen::new();
            pen.poly(&pts);
            spawn_layer(
                &mut commands,
                pen.clone().fill(zone_colour(s, 0.12), z::OVERLAY_UNDER),
                EditorLayer,
            );
            spawn_layer(
                &mut commands,
                pen.stroke(zone_colour(s, 0.8), 2.0 * scale, z::OVERLAY_UNDER + 0.1),
                EditorLayer,
            );
        }
    }
    // Problems in red, the selection in yellow with its points.
    let mut bad = Pen::new();
    for p in editor.problems.iter().filter_map(|x| x.piece) {
        let (closed, open) = outlines(&editor, p);
        for r in &closed {
            bad.poly(r);
        }
        for r in &open {
            bad.line(r);
        }
    }
    // Wide enough to show as a red rim around the selection's yellow line.
    spawn_layer(&mut commands, bad.stroke(PROBLEM, 6.0 * scale, z::OVERLAY), EditorLayer);
    if let Some(sel) = editor.selected {
        let (closed, open) = outlines(&editor, sel);
        let mut pen = Pen::new();
        for r in &closed {
            pen.poly(r);
        }
        for r in &open {
            pen.line(r);
        }
        spawn_layer(
            &mut commands,
            pen.stroke(SELECTED, 2.0 * scale, z::OVERLAY + 0.1),
            EditorLayer,
        );
        let mut handles = Pen::new();
        let half = super::mouse::HANDLE_PX * 0.6 * scale;
        for ring in sel.rings(sc) {
            for p in ring {
                let c = w(*p);
                handles.poly(&[
                    c + Vec2::new(-half, -half),
                    c + Vec2::new(half, -half),
                    c + Vec2::new(half, half),
                    c + Vec2::new(-half, half),
                ]);
            }
        }
        spawn_layer(
            &mut commands,
            handles.clone().fill(SELECTED, z::OVERLAY + 0.2),
            EditorLayer,
        );
        spawn_layer(
            &mut commands,
            handles.stroke(Color::BLACK, 1.0 * scale, z::OVERLAY + 0.3),
            EditorLayer,
        );
    }
    if !editor.drawing.is_empty() {
        let mut pts: Vec<Vec2> = editor.drawing.iter().map(|p| w(*p)).collect();
        if let Some(p) = editor.pointer {
            pts.push(w(p));
        }
        let mut line = Pen::new();
        line.line(&pts);
        spawn_layer(
            &mut commands,
            line.stroke(DRAWING, 2.0 * scale, z::OVERLAY + 0.4),
            EditorLayer,
        );
        let mut dots = Pen::new();
        for p in &editor.drawing {
            dots.circle(w(*p), super::mouse::HANDLE_PX * 0.6 * scale);
        }
        spawn_layer(&mut commands, dots.fill(DRAWING, z::OVERLAY + 0.5), EditorLayer);
    }
}
