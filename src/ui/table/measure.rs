//! The on-demand overlays on the table (`ui::measure` holds which are on and their geometry):
//! the selected unit's arc of vision and fire cone, the selected commander's command rings,
//! the line-of-sight check (green when clear, red when blocked) and the measuring tape. Also
//! the two tools' clicks on the table.

use super::pen::{Pen, spawn_layer, t, w, z};
use crate::app::arcs::Arcs;
use crate::app::{BattleState, PieceIndex};
use crate::ui::camera::TablePointer;
use crate::ui::common::{Screen, Selection};
use crate::ui::input::{Controls, TableAction};
use crate::ui::measure::{self as m, Overlays};
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            tool_clicks
                .after(crate::ui::table::input::PickSystems)
                .run_if(in_state(Screen::Battle)),
            draw_measures.in_set(crate::ui::common::TableSystems::Draw).run_if(
                resource_changed::<BattleState>
                    .or_else(resource_changed::<Selection>)
                    .or_else(resource_changed::<Overlays>),
            ),
        )
            .chain(),
    );
}

/// Marks the measure overlay shape entities.
#[derive(Component)]
pub struct MeasureLayer;

const ARC: Color = Color::srgba(1.0, 1.0, 0.85, 0.10);
const ARC_EDGE: Color = Color::srgba(1.0, 1.0, 0.85, 0.55);
const CONE: Color = Color::srgba(1.0, 0.55, 0.15, 0.22);
const CONE_EDGE: Color = Color::srgba(1.0, 0.6, 0.2, 0.9);
const RING: [Color; 4] = [
    Color::srgba(0.55, 1.0, 0.55, 0.9),
    Color::srgba(1.0, 0.95, 0.4, 0.9),
    Color::srgba(1.0, 0.6, 0.25, 0.9),
    Color::srgba(1.0, 0.3, 0.25, 0.9),
];
const CLEAR: Color = Color::srgb(0.3, 0.95, 0.35);
const BLOCKED: Color = Color::srgb(1.0, 0.25, 0.2);
const TAPE: Color = Color::srgb(1.0, 1.0, 1.0);

/// How far out the command rings go (cm beyond the base).
pub const RINGS_OUT_TO: f64 = 90.0;

fn draw_measures(
    mut commands: Commands,
    battle: Res<BattleState>,
    selection: Res<Selection>,
    overlays: Res<Overlays>,
    old: Query<Entity, With<MeasureLayer>>,
    index: Res<PieceIndex>,
    arcs: Query<&Arcs>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let b = &battle.0;
    let pts = |v: &[crate::rules::geometry::V2]| v.iter().map(|p| w(*p)).collect::<Vec<Vec2>>();
    let unit = selection
        .unit
        .filter(|u| b.units.get(*u as usize).is_some_and(|u| u.alive()));
    // The unit's arcs as its entity carries them (`app::arcs`).
    if let Some(a) = unit.and_then(|u| arcs.get(index.unit(u)?).ok()) {
        if overlays.arc {
            let arc = pts(&a.vision);
            let (mut fill, mut edge) = (Pen::new(), Pen::new());
            fill.poly(&arc);
            edge.poly(&arc);
            spawn_layer(&mut commands, fill.fill(ARC, z::OVERLAY_UNDER - 0.3), MeasureLayer);
            spawn_layer(
                &mut commands,
                edge.stroke(ARC_EDGE, 0.3, z::OVERLAY - 0.3),
                MeasureLayer,
            );
        }
        if overlays.cone {
            let cone = pts(&a.fire);
            let (mut fill, mut edge) = (Pen::new(), Pen::new());
            fill.poly(&cone);
            edge.poly(&cone);
            spawn_layer(&mut commands, fill.fill(CONE, z::OVERLAY_UNDER - 0.2), MeasureLayer);
            spawn_layer(
                &mut commands,
                edge.stroke(CONE_EDGE, 0.35, z::OVERLAY - 0.2),
                MeasureLayer,
            );
        }
    }
    let commander = selection
        .commander
        .filter(|c| b.commanders.get(*c as usize).is_some_and(|c| c.alive()));
    if let (Some(c), true) = (commander, overlays.command) {
        let centre = b.commander(c).pos;
        for (i, (r, _)) in m::commander_rings(b, RINGS_OUT_TO).into_iter().enumerate() {
            let mut ring = Pen::new();
            let step = 3f64.to_radians();
            ring.poly(&pts(&crate::rules::geometry::arc_points(
                centre,
                r,
                0.0,
                std::f64::consts::TAU - step,
                step,
            )));
            spawn_layer(
                &mut commands,
                ring.stroke(RING[i.min(RING.len() - 1)], 0.4, z::OVERLAY - 0.1),
                MeasureLayer,
            );
        }
    }
    if overlays.los_tool
        && let Some((from, _)) = overlays.los.from
    {
        let mut dot = Pen::new();
        dot.circle(w(from), 0.8);
        if let Some(to) = overlays.los.to {
            dot.circle(w(to), 0.8);
            let clear = m::los_check(b, &overlays.los).is_some_and(|r| r.is_ok());
            let colour = if clear { CLEAR } else { BLOCKED };
            let mut line = Pen::new();
            line.line(&[w(from), w(to)]);
            spawn_layer(&mut commands, line.stroke(colour, 0.5, z::OVERLAY + 0.3), MeasureLayer);
        }
        spawn_layer(&mut commands, dot.fill(TAPE, z::OVERLAY + 0.4), MeasureLayer);
    }
    if let (true, Some((a, c))) = (overlays.tape, overlays.tape_line) {
        let mut line = Pen::new();
        line.line(&[w(a), w(c)]);
        // A tick every 5 cm along the tape.
        let len = m::tape_length(a, c);
        if len > 0.01 {
            let d = (c - a).norm();
            let side = d.perp() * 0.6;
            let mut s = 5.0;
            while s < len {
                let p = a + d * s;
                line.line(&[w(p - side), w(p + side)]);
                s += 5.0;
            }
        }
        spawn_layer(&mut commands, line.stroke(TAPE, 0.3, z::OVERLAY + 0.3), MeasureLayer);
    }
}

/// With the line-of-sight tool on, a click sets its ends (the first on a unit looks from that
/// unit); with the tape on, a drag lays the tape.
fn tool_clicks(
    controls: Option<Single<&ActionState<TableAction>, With<Controls>>>,
    pointer: TablePointer,
    mut overlays: ResMut<Overlays>,
    mut dragging: Local<bool>,
    hover: Res<crate::ui::common::TableHover>,
    over_window: Option<Res<crate::ui::common::OverWindow>>,
) {
    let Some(controls) = controls.filter(|_| pointer.ready()) else {
        return;
    };
    if !overlays.tool_active() {
        *dragging = false;
        return;
    }
    // A click on a window over the table (the overlay toolbar's own header) is the window's.
    let over = over_window.is_some_and(|o| o.0);
    let cursor = pointer.on_table().filter(|_| !over || *dragging);
    if overlays.los_tool {
        if controls.just_pressed(&TableAction::Select)
            && let Some(p) = cursor
        {
            let unit = hover.0.unit;
            overlays.los_click(t(p), unit);
        }
        return;
    }
    if controls.just_pressed(&TableAction::Select) {
        if let Some(p) = cursor {
            overlays.tape_line = Some((t(p), t(p)));
            *dragging = true;
        }
    } else if *dragging {
        if let (Some(p), Some((a, _))) = (cursor, overlays.tape_line) {
            let end = t(p);
            if overlays.tape_line != Some((a, end)) {
                overlays.tape_line = Some((a, end));
            }
        }
        if !controls.pressed(&TableAction::Select) {
            *dragging = false;
        }
    }
}
