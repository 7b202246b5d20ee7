//! The guns on the table: for a gun that is aimed (`WantsAim`, put by the window on the firer
//! of the fire under the pointer), where its ball would go if it lands on its aim and bounces
//! every time it may: each impact's strip, where it would bounce and where it would stop, by
//! the rules' own `round_shot` (`Battle::ideal_round_shot`), with the chance it lands on its
//! aim and the chance of each bounce (`rules::artillery::bounce_chain_odds`). A gun loaded
//! with canister gets its blast-through corridor instead, with the target and each unit behind
//! it in the corridor and the score canister needs against each (`Battle::canister_preview`).

use super::base::{BattleState, BattleSystems};
use super::pieces::UnitPiece;
use crate::battle::artillery::CanisterPreview;
use crate::battle::fire::FireContext;
use crate::battle::state::UnitId;
use crate::rules::artillery::{ShotTrace, bounce_chain_odds};
use bevy::prelude::*;

/// Aim this gun at `target` in `ctx` (the window's preview).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct WantsAim {
    pub target: UnitId,
    pub ctx: FireContext,
}

/// Where the aimed ball would go, and its odds.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct AimPreview {
    pub target: UnitId,
    pub trace: ShotTrace,
    /// The chance it lands on its aim (the crew's accuracy roll).
    pub on_aim: f64,
    /// The chance of no bounce, one, two, three (the dice it fires with counted).
    pub bounces: [f64; 4],
    pub actions: u64,
}

/// Where the aimed gun's canister would sweep, and the score against each unit in its path.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct CanisterAim {
    pub target: UnitId,
    pub sweep: CanisterPreview,
    pub actions: u64,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, aim_guns.in_set(BattleSystems::Derive));
}

#[allow(clippy::type_complexity)]
fn aim_guns(
    mut commands: Commands,
    battle: Res<BattleState>,
    aimed: Query<(Entity, &UnitPiece, &WantsAim, Option<&AimPreview>, Option<&CanisterAim>)>,
    dropped: Query<Entity, (Or<(With<AimPreview>, With<CanisterAim>)>, Without<WantsAim>)>,
) {
    for e in &dropped {
        commands.entity(e).remove::<(AimPreview, CanisterAim)>();
    }
    let b = &battle.0;
    for (e, p, aim, now, canister) in &aimed {
        let fresh = |actions: u64, target: UnitId| actions == b.actions && target == aim.target;
        if now.is_some_and(|n| fresh(n.actions, n.target)) || canister.is_some_and(|c| fresh(c.actions, c.target)) {
            continue;
        }
        if let Some(sweep) = b.canister_preview(p.unit, aim.target, aim.ctx) {
            commands.entity(e).remove::<AimPreview>().insert(CanisterAim {
                target: aim.target,
                sweep,
                actions: b.actions,
            });
            continue;
        }
        commands.entity(e).remove::<CanisterAim>();
        match b.ideal_round_shot(p.unit, aim.target, aim.ctx) {
            Some(trace) => {
                let attacks = trace.impacts.first().map_or(0, |i| i.attacks);
                commands.entity(e).insert(AimPreview {
                    target: aim.target,
                    trace,
                    on_aim: b.p_lands_on_aim(p.unit, aim.ctx).unwrap_or(1.0),
                    bounces: bounce_chain_odds(&b.rules.artillery, attacks),
                    actions: b.actions,
                });
            }
            None => {
                commands.entity(e).remove::<AimPreview>();
            }
        }
    }
}
