//! Commanders: round bases in the side's colour with a flag, the rim showing their quality
//! (gold exceptional, cream average, grey uninspiring) and their command value beside them.

use super::pen::{Pen, spawn_layer, w, z};
use crate::app::BattleState;
use crate::battle::Battle;
use crate::data::army::{CommandLevel, Quality};
use crate::ui::palette as pal;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, draw_commanders.run_if(resource_changed::<BattleState>));
}

/// Marks the commanders' shape and label entities.
#[derive(Component)]
pub struct CommanderLayer;

pub const GOLD: Color = pal::rgb(236, 190, 60);
pub const GREY: Color = pal::rgb(130, 130, 130);

fn draw_commanders(mut commands: Commands, battle: Res<BattleState>, old: Query<Entity, With<CommanderLayer>>) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let b = &battle.0;
    for layer in commander_layers(b) {
        spawn_layer(&mut commands, Some(layer), CommanderLayer);
    }
    let r = b.rules.footprints.commander_diameter as f32 * 0.5;
    for c in b.commanders.iter().filter(|c| c.alive()) {
        let p = w(c.pos) + Vec2::new(r * 1.05, -r * 0.95);
        commands.spawn((
            Text2d::new(format!(" {} ", c.command_value)),
            TextFont {
                font_size: FontSize::Px(40.0),
                ..default()
            },
            TextColor(pal::MARK),
            // On a dark plate: readable over a limber or a flag, which are drawn in the same
            // cream.
            TextBackgroundColor(Color::srgba(0.08, 0.06, 0.04, 0.85)),
            Transform::from_xyz(p.x, p.y, z::COMMANDERS + 0.5).with_scale(Vec3::splat(0.03)),
            CommanderLayer,
        ));
    }
}

type Layer = (bevy_prototype_lyon::prelude::Shape, Transform);

/// The commander layers, bottom to top.
pub fn commander_layers(b: &Battle) -> Vec<Layer> {
    let r = b.rules.footprints.commander_diameter as f32 * 0.5;
    let mut shadow = Pen::new();
    let mut rims = [Pen::new(), Pen::new(), Pen::new()];
    let mut base = [Pen::new(), Pen::new()];
    let mut poles = Pen::new();
    let mut flags = [Pen::new(), Pen::new()];
    let mut stars = Pen::new();
    for c in b.commanders.iter().filter(|c| c.alive()) {
        let p = w(c.pos);
        shadow.circle(p + Vec2::new(0.25, -0.25), r);
        let q = match c.row.quality {
            Quality::Exceptional => 0,
            Quality::Average => 1,
            Quality::Uninspiring => 2,
        };
        rims[q].circle(p, r);
        base[c.side].circle(p, r * 0.78);
        // A flag on a pole, flying to the east.
        let foot = p + Vec2::new(-0.35, -0.45);
        let top = foot + Vec2::new(0.0, 1.6);
        poles.line(&[foot, top]);
        flags[c.side].poly(&[
            top,
            top + Vec2::new(1.0, 0.0),
            top + Vec2::new(1.0, -0.6),
            top + Vec2::new(0.0, -0.6),
        ]);
        // Stars for rank: one for a brigade, two for a division, three above.
        let n = match c.row.level {
            CommandLevel::Brigade => 1,
            CommandLevel::Division => 2,
            _ => 3,
        };
        for k in 0..n {
            let sp = p + Vec2::new(0.25 + (k as f32 - (n as f32 - 1.0) * 0.5) * 0.5, -0.2);
            stars.poly(&super::terrain::star_points(sp, 0.26, 0.11));
        }
    }
    let zc = z::COMMANDERS;
    let mut out = Vec::new();
    let mut push = |l: Option<Layer>| {
        if let Some(l) = l {
            out.push(l);
        }
    };
    push(shadow.fill(Color::srgba(0.0, 0.0, 0.0, 0.4), zc));
    for (pen, colour) in rims.into_iter().zip([GOLD, pal::MARK, GREY]) {
        push(pen.fill(colour, zc + 0.1));
    }
    let [b0, b1] = base;
    push(b0.fill(pal::SIDE_DARK[0], zc + 0.2));
    push(b1.fill(pal::SIDE_DARK[1], zc + 0.2));
    push(stars.fill(pal::MARK, zc + 0.25));
    push(poles.stroke(pal::MARK, 0.14, zc + 0.3));
    let [f0, f1] = flags;
    push(f0.fill(pal::SIDE_LIGHT[0], zc + 0.35));
    push(f1.fill(pal::SIDE_LIGHT[1], zc + 0.35));
    out
}
