//! Event animation, the drawing part (the effect entities and their timing are
//! `ui::animation`): a
//! gliding unit is its own group of troop shapes, built once and moved by its transform each
//! frame; the short effects (ball, craters, shell, canister cone and corridor, musketry lines,
//! hit rings) are a few small shapes redrawn only while something plays.

use super::pen::{Pen, w, z};
use super::stands::{looks_of, stand_layers_of};
use crate::app::BattleState;
use crate::battle::UnitId;
use crate::rules::geometry::{Pose, V2};
use crate::ui::animation::{
    Anim, AnimHidden, BALL_FLIGHT, Effect, Fx, along, ease, in_order, pose_of, vertex_fractions,
};
use crate::ui::settings::Settings;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            spawn_moving.run_if(
                resource_changed::<BattleState>
                    .or_else(resource_changed::<AnimHidden>)
                    .or_else(resource_changed::<Settings>),
            ),
            place_moving.run_if(any_with_component::<MovingUnit>),
            draw_fx.run_if(resource_changed::<Anim>),
        )
            .chain()
            .in_set(crate::ui::common::TableSystems::Draw),
    );
}

/// A gliding unit's group of shapes.
#[derive(Component)]
pub struct MovingUnit(pub UnitId);

/// The effects' shapes (redrawn every frame while the animation plays).
#[derive(Component)]
pub struct FxLayer;

/// The transform that carries shapes drawn at pose `drawn` to pose `shown` (a turn about the
/// table's origin, then a shift).
pub fn carry(drawn: Pose, shown: Pose) -> Transform {
    let turn = Quat::from_rotation_z((shown.facing - drawn.facing) as f32);
    let shift = w(shown.pos) - (turn * w(drawn.pos).extend(0.0)).truncate();
    Transform::from_translation(shift.extend(0.0)).with_rotation(turn)
}

fn spawn_moving(
    mut commands: Commands,
    battle: Res<BattleState>,
    hidden: Res<AnimHidden>,
    anim: Res<Anim>,
    effects: Query<&Effect>,
    settings: Res<Settings>,
    old: Query<Entity, With<MovingUnit>>,
) {
    let colours = crate::ui::palette::sides(settings.palette);
    for e in &old {
        commands.entity(e).despawn();
    }
    let b = &battle.0;
    let clips = in_order(effects.iter());
    for &u in &hidden.0 {
        if !b.unit(u).alive() {
            continue;
        }
        let drawn = b.unit(u).pose;
        let shown = pose_of(clips.iter().copied(), anim.clock, u).unwrap_or(drawn);
        commands
            .spawn((MovingUnit(u), carry(drawn, shown), Visibility::default()))
            .with_children(|p| {
                for layer in stand_layers_of(&looks_of(b, |id| id == u), &colours) {
                    p.spawn(layer);
                }
            });
    }
}

fn place_moving(
    battle: Res<BattleState>,
    anim: Res<Anim>,
    effects: Query<&Effect>,
    mut units: Query<(&MovingUnit, &mut Transform)>,
) {
    let clips = in_order(effects.iter());
    for (m, mut t) in &mut units {
        let drawn = battle.0.unit(m.0).pose;
        let next = carry(drawn, pose_of(clips.iter().copied(), anim.clock, m.0).unwrap_or(drawn));
        if *t != next {
            *t = next;
        }
    }
}

fn rgba(r: u8, g: u8, b: u8, a: f32) -> Color {
    Color::srgba(r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0, a.clamp(0.0, 1.0))
}

/// The effects' shapes where their clips have got to.
fn draw_fx(mut commands: Commands, anim: Res<Anim>, effects: Query<&Effect>, old: Query<Entity, With<FxLayer>>) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let zf = z::OVERLAY + 1.0;
    let mut layers = Vec::new();
    for c in in_order(effects.iter()) {
        let p = anim.progress(c);
        if p <= 0.0 || p >= 1.0 {
            continue;
        }
        match &c.fx {
            Fx::Glide { .. } => {}
            Fx::Ball { path, impacts } => {
                let fly = (p / BALL_FLIGHT) as f64;
                let fr = vertex_fractions(path);
                // The craters, each from when the ball strikes to the end of the clip.
                for i in 1..=(*impacts).min(path.len() - 1) {
                    let hit_at = fr[i] as f32 * BALL_FLIGHT;
                    if p < hit_at {
                        break;
                    }
                    let fade = 1.0 - (p - hit_at) / (1.0 - hit_at).max(1e-3);
                    let mut pen = Pen::new();
                    pen.circle(w(path[i]), 1.1);
                    layers.push(pen.fill(rgba(70, 50, 30, 0.85 * fade), zf));
                    let mut rim = Pen::new();
                    rim.circle(w(path[i]), 1.1);
                    layers.push(rim.stroke(rgba(240, 220, 180, 0.9 * fade), 0.2, zf + 0.01));
                }
                if fly < 1.0 {
                    let (ball, last) = along(path, fly);
                    let mut trail: Vec<Vec2> = path[..=last].iter().map(|&q| w(q)).collect();
                    trail.push(w(ball));
                    let mut pen = Pen::new();
                    pen.line(&trail);
                    layers.push(pen.stroke(rgba(255, 255, 255, 0.35), 0.15, zf + 0.02));
                    let mut pen = Pen::new();
                    pen.circle(w(ball), 0.7);
                    layers.push(pen.fill(rgba(25, 25, 25, 1.0), zf + 0.03));
                }
            }
            Fx::Shell { from, to } => {
                const FLY: f32 = 0.55;
                if p < FLY {
                    let at = from.lerp(*to, ease(p / FLY) as f64);
                    let mut pen = Pen::new();
                    pen.circle(w(at), 0.6);
                    layers.push(pen.fill(rgba(25, 25, 25, 1.0), zf + 0.03));
                } else {
                    let q = (p - FLY) / (1.0 - FLY);
                    let mut pen = Pen::new();
                    pen.circle(w(*to), 1.0 + 4.0 * q);
                    layers.push(pen.fill(rgba(255, 170, 40, 0.7 * (1.0 - q)), zf));
                }
            }
            Fx::Cone { pts } => {
                let mut pen = Pen::new();
                pen.poly(&pts.map(w));
                layers.push(pen.fill(rgba(255, 240, 160, 0.55 * (1.0 - p)), zf));
            }
            Fx::Corridor { pts } => {
                let mut pen = Pen::new();
                pen.poly(&pts.map(w));
                layers.push(pen.fill(rgba(255, 220, 120, 0.35 * (1.0 - p)), zf));
                let mut edge = Pen::new();
                let mut ring: Vec<Vec2> = pts.iter().map(|&q| w(q)).collect();
                ring.push(w(pts[0]));
                edge.line(&ring);
                layers.push(edge.stroke(rgba(255, 230, 150, 0.8 * (1.0 - p)), 0.25, zf + 0.01));
            }
            Fx::Volley { from, to } => {
                let mut pen = Pen::new();
                for f in from {
                    pen.line(&[w(*f), w(*to)]);
                }
                layers.push(pen.stroke(rgba(255, 250, 220, 0.8 * (1.0 - p)), 0.25, zf));
            }
            Fx::Hit { at } => {
                let mut pen = Pen::new();
                pen.circle(w(*at), 2.0 + 3.0 * p);
                layers.push(pen.stroke(rgba(255, 60, 40, 1.0 - p), 0.5, zf + 0.02));
            }
        }
    }
    for l in layers.into_iter().flatten() {
        commands.spawn((l, FxLayer));
    }
}

/// Where a glide leaves a unit's stand centres: the pose `shown` applied to shapes drawn at
/// `drawn` (for the tests and the bench).
pub fn carried(drawn: Pose, shown: Pose, p: V2) -> Vec2 {
    carry(drawn, shown).transform_point(w(p).extend(0.0)).truncate()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_carry_moves_the_drawn_pose_onto_the_shown_one() {
        let drawn = Pose::new(V2::new(50.0, 20.0), 0.3);
        let shown = Pose::new(V2::new(10.0, 70.0), 1.2);
        // The unit's own point lands on the shown point.
        let c = carried(drawn, shown, drawn.pos);
        assert!((c - Vec2::new(10.0, 70.0)).length() < 1e-4, "{c:?}");
        // A point 4 cm ahead of the unit lands 4 cm ahead in the shown facing.
        let ahead = drawn.pos + drawn.forward() * 4.0;
        let c = carried(drawn, shown, ahead);
        let want = w(shown.pos + shown.forward() * 4.0);
        assert!((c - want).length() < 1e-4, "{c:?} vs {want:?}");
        assert_eq!(carry(drawn, drawn), Transform::IDENTITY);
    }
}
