//! The guns' aim on the table: when the fire under the pointer (the orders panel's preview) or
//! the selected gun with an enemy under the mouse is round shot, the gun is aimed
//! (`app::artillery::WantsAim`) and its ball's path as the rules would have it if it
//! lands on its aim and bounces every time is drawn: each impact's strip, the flight between
//! them, and where it would stop. A gun loaded with canister shows its blast-through corridor
//! instead, with the score canister needs against the target and each unit behind it.

use super::pen::{Pen, spawn_layer, w, z};
use crate::app::artillery::{AimPreview, CanisterAim, WantsAim};
use crate::app::{BattleState, BattleSystems, PieceIndex};
use crate::battle::Action;
use crate::battle::fire::FireContext;
use crate::ui::common::{Preview, Selection, TableHover, TableSystems};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            aim.run_if(
                resource_changed::<Preview>
                    .or_else(resource_changed::<TableHover>)
                    .or_else(resource_changed::<Selection>)
                    .or_else(resource_changed::<BattleState>),
            )
            .before(BattleSystems::Derive),
            draw_aim.in_set(TableSystems::Draw),
        ),
    );
}

/// Marks the aim's shape entities.
#[derive(Component)]
pub struct AimLayer;

/// Which gun to aim at whom: the previewed fire, else the selected unit at the hovered enemy.
fn aim(
    mut commands: Commands,
    battle: Res<BattleState>,
    preview: Res<Preview>,
    hover: Res<TableHover>,
    selection: Res<Selection>,
    index: Res<PieceIndex>,
    aimed: Query<(Entity, &WantsAim)>,
) {
    let b = &battle.0;
    let ctx = if b.phase == crate::battle::Phase::Initiative {
        FireContext::Initiative
    } else {
        FireContext::Order
    };
    let want = match preview.0 {
        Some(Action::Fire { unit, target }) => Some((unit, target, FireContext::Order)),
        Some(Action::InitiativeFire { unit, target }) => Some((unit, target, FireContext::Initiative)),
        _ => match (selection.unit, hover.0.unit) {
            (Some(u), Some(t)) if b.units.get(t as usize).is_some_and(|t| t.side != b.unit(u).side) => {
                Some((u, t, ctx))
            }
            _ => None,
        },
    }
    .filter(|(u, _, _)| b.units.get(*u as usize).is_some_and(|u| u.is_artillery()))
    .and_then(|(u, t, c)| Some((index.unit(u)?, WantsAim { target: t, ctx: c })));
    for (e, w) in &aimed {
        if want.is_none_or(|(we, ww)| we != e || ww != *w) {
            commands.entity(e).remove::<WantsAim>();
        }
    }
    if let Some((e, w)) = want
        && aimed.get(e).map(|(_, a)| *a) != Ok(w)
    {
        commands.entity(e).insert(w);
    }
}

/// Whether an aim preview or a canister aim was added, changed or removed since last frame.
#[derive(SystemParam)]
struct AimChanges<'w, 's> {
    #[allow(clippy::type_complexity)]
    changed: Query<'w, 's, (), Or<(Changed<AimPreview>, Changed<CanisterAim>)>>,
    removed: RemovedComponents<'w, 's, AimPreview>,
    removed_canister: RemovedComponents<'w, 's, CanisterAim>,
}

impl AimChanges<'_, '_> {
    fn none(&mut self) -> bool {
        self.changed.is_empty() && self.removed.read().count() == 0 && self.removed_canister.read().count() == 0
    }
}

fn draw_aim(
    mut commands: Commands,
    mut changes: AimChanges,
    aims: Query<&AimPreview>,
    canisters: Query<&CanisterAim>,
    battle: Res<BattleState>,
    old: Query<Entity, With<AimLayer>>,
) {
    if changes.none() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    for c in &canisters {
        draw_canister(&mut commands, &battle.0, c);
    }
    for a in &aims {
        let t = &a.trace;
        let (mut strips, mut edges, mut flight, mut rest) = (Pen::new(), Pen::new(), Pen::new(), Pen::new());
        let mut path = vec![w(t.gun)];
        for i in &t.impacts {
            let pts: Vec<Vec2> = i.strip.iter().map(|p| w(*p)).collect();
            strips.poly(&pts);
            let mut closed = pts.clone();
            closed.push(pts[0]);
            edges.line(&closed);
            path.push(w(i.point));
        }
        if path.last().is_some_and(|l| l.distance(w(t.rest)) > 0.01) {
            path.push(w(t.rest));
        }
        flight.line(&path);
        rest.circle(w(t.rest), 0.8);
        let zo = z::OVERLAY - 0.4;
        spawn_layer(
            &mut commands,
            strips.fill(Color::srgba(1.0, 0.45, 0.2, 0.28), zo),
            AimLayer,
        );
        spawn_layer(
            &mut commands,
            edges.stroke(Color::srgba(1.0, 0.5, 0.25, 0.9), 0.2, zo + 0.01),
            AimLayer,
        );
        spawn_layer(
            &mut commands,
            flight.stroke(Color::srgba(1.0, 1.0, 1.0, 0.6), 0.15, zo + 0.02),
            AimLayer,
        );
        spawn_layer(
            &mut commands,
            rest.stroke(Color::srgba(1.0, 1.0, 1.0, 0.9), 0.2, zo + 0.03),
            AimLayer,
        );
    }
}

/// Canister's corridor from the muzzle, and over the target and each unit behind it the score
/// it needs ("4+"), or that the blast stops there.
fn draw_canister(commands: &mut Commands, b: &crate::battle::Battle, c: &CanisterAim) {
    let zo = z::OVERLAY - 0.4;
    let pts: Vec<Vec2> = c.sweep.corridor.iter().map(|p| w(*p)).collect();
    let (mut fill, mut edge) = (Pen::new(), Pen::new());
    fill.poly(&pts);
    let mut closed = pts.clone();
    closed.push(pts[0]);
    edge.line(&closed);
    spawn_layer(commands, fill.fill(Color::srgba(1.0, 0.85, 0.3, 0.22), zo), AimLayer);
    spawn_layer(
        commands,
        edge.stroke(Color::srgba(1.0, 0.8, 0.3, 0.9), 0.2, zo + 0.01),
        AimLayer,
    );
    for (k, (unit, score)) in c.sweep.units.iter().enumerate() {
        let Some(u) = b.units.get(*unit as usize) else { continue };
        let at = w(u.pose.pos);
        let text = match (k, score) {
            (0, Some(s)) => format!("{}, {s}+", crate::report::count(c.sweep.dice, "die")),
            (_, Some(s)) => format!("then {s}+"),
            (_, None) => "stops here".to_string(),
        };
        commands.spawn((
            Text2d::new(text),
            TextFont {
                font_size: FontSize::Px(40.0),
                ..default()
            },
            TextColor(Color::srgb(1.0, 0.92, 0.6)),
            Transform::from_xyz(at.x, at.y + 2.5, zo + 0.05).with_scale(Vec3::splat(0.035)),
            AimLayer,
        ));
    }
}
