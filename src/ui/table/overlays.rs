//! Overlays: the selection, and the preview of the action under the pointer in the orders
//! panel (where a move ends, who a fire or charge aims at). Rebuilt when the selection, the
//! preview or the battle changes.

use super::pen::{Pen, spawn_layer, w, z};
use crate::app::BattleState;
use crate::battle::{Action, Battle};
use crate::ui::common::Drag;
use crate::ui::common::{Preview, Selection};
use crate::ui::palette as pal;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_overlays.run_if(
            resource_changed::<BattleState>
                .or_else(resource_changed::<Selection>)
                .or_else(resource_changed::<Preview>)
                .or_else(resource_changed::<Drag>),
        ),
    );
}

/// Marks the overlay shape entities.
#[derive(Component)]
pub struct OverlayLayer;

fn draw_overlays(
    mut commands: Commands,
    battle: Res<BattleState>,
    selection: Res<Selection>,
    preview: Res<Preview>,
    drag: Res<Drag>,
    old: Query<Entity, With<OverlayLayer>>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let b = &battle.0;
    let mut ring = Pen::new();
    let mut ghost = Pen::new();
    let mut aim = Pen::new();
    let cr = b.rules.footprints.commander_diameter as f32 * 0.5;
    // Order delay: orders on their way, of the side to act (the other side's stay its own):
    // a line from the commander to each unit and a clock ring on the unit, one tick per turn
    // still to wait.
    let mut pending = Pen::new();
    for p in b.pending_orders().iter().filter(|p| p.side == b.actor()) {
        let c = b.commander(p.commander).pos;
        let wait = p.due_game_turn.saturating_sub(b.game_turn).max(1);
        for &u in &p.units {
            let Some(unit) = b.units.get(u as usize).filter(|u| u.alive()) else {
                continue;
            };
            let at = w(unit.pose.pos);
            pending.line(&[w(c), at]);
            pending.circle(at, 1.2);
            for k in 0..wait {
                let a = std::f32::consts::FRAC_PI_2 - k as f32 * 0.6;
                pending.line(&[at, at + Vec2::new(a.cos(), a.sin()) * 1.2]);
            }
        }
    }
    spawn_layer(
        &mut commands,
        pending.stroke(Color::srgb(0.55, 0.85, 0.95), 0.2, z::OVERLAY - 0.1),
        OverlayLayer,
    );
    if let Some(u) = selection
        .unit
        .filter(|u| (*u as usize) < b.units.len() && b.unit(*u).alive())
    {
        for r in b.rects(u) {
            ring.rect(r, -0.25);
        }
    }
    if let Some(c) = selection.commander.filter(|c| (*c as usize) < b.commanders.len()) {
        let c = b.commander(c);
        if c.alive() {
            ring.circle(w(c.pos), cr + 0.35);
        }
    }
    for a in preview.0.iter().chain(drag.action.iter()) {
        preview_action(b, a, &mut ghost, &mut aim);
    }
    spawn_layer(&mut commands, ring.fill(pal::SELECT, z::OVERLAY_UNDER), OverlayLayer);
    // Each ghost base outlined, so a charger's or mover's stands read one by one.
    spawn_layer(
        &mut commands,
        ghost
            .clone()
            .stroke(Color::srgba(0.1, 0.1, 0.1, 0.8), 0.12, z::OVERLAY + 0.05),
        OverlayLayer,
    );
    spawn_layer(
        &mut commands,
        ghost.fill(Color::srgba(1.0, 1.0, 1.0, 0.45), z::OVERLAY),
        OverlayLayer,
    );
    spawn_layer(
        &mut commands,
        aim.stroke(pal::SELECT, 0.35, z::OVERLAY + 0.1),
        OverlayLayer,
    );
}

/// Where `a` would put things, as ghost bases, and whom it aims at, as lines.
fn preview_action(b: &Battle, a: &Action, ghost: &mut Pen, aim: &mut Pen) {
    let centre = |u: u32| -> Option<Vec2> {
        let u = b.units.get(u as usize)?;
        u.alive().then(|| w(u.pose.pos))
    };
    match a {
        Action::Move { unit, to } | Action::Consolidate { unit, to } => {
            if let Some(u) = b.units.get(*unit as usize) {
                let mut moved = u.clone();
                moved.pose = *to;
                for r in &b.compute_geom(&moved).rects {
                    ghost.rect(r, 0.0);
                }
                aim.line(&[w(u.pose.pos), w(to.pos)]);
            }
        }
        Action::CommanderMove { commander, to } => {
            if let Some(c) = b.commanders.get(*commander as usize) {
                ghost.circle(w(*to), b.rules.footprints.commander_diameter as f32 * 0.5);
                aim.line(&[w(c.pos), w(*to)]);
            }
        }
        // A charge: where the charger makes contact (its bases at the contact pose), and the
        // line it runs along.
        Action::Charge { unit, target } | Action::InitiativeCharge { unit, target } => {
            match (b.check_charge(*unit, *target), b.units.get(*unit as usize)) {
                (Ok(plan), Some(u)) => {
                    let mut charging = u.clone();
                    charging.pose = plan.contact;
                    for r in &b.compute_geom(&charging).rects {
                        ghost.rect(r, 0.0);
                    }
                    aim.line(&[w(u.pose.pos), w(plan.contact.pos)]);
                }
                _ => aim_at(b, *unit, *target, ghost, aim),
            }
        }
        Action::Fire { unit, target }
        | Action::InitiativeFire { unit, target }
        | Action::OpportunityFire { unit, target, .. }
        | Action::Support { unit, friend: target } => aim_at(b, *unit, *target, ghost, aim),
        Action::Order { commander, units, .. } => {
            if let Some(c) = b.commanders.get(*commander as usize) {
                for u in units {
                    if let Some(q) = centre(*u) {
                        aim.line(&[w(c.pos), q]);
                    }
                }
            }
        }
        _ => {}
    }
}

/// A line from `unit` to `target` and the target's first base marked.
fn aim_at(b: &Battle, unit: u32, target: u32, ghost: &mut Pen, aim: &mut Pen) {
    let centre = |u: u32| -> Option<Vec2> {
        let u = b.units.get(u as usize)?;
        u.alive().then(|| w(u.pose.pos))
    };
    if let (Some(p), Some(q)) = (centre(unit), centre(target)) {
        aim.line(&[p, q]);
        if let Some(r) = b.rects(target).first() {
            ghost.rect(r, -0.2);
        }
    }
}
