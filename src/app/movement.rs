//! Movement on the table: the move envelope of a unit with an order in hand (the ground it may
//! reach in one straight move, by the rules' own move check: `battle::envelope`), computed off
//! the frame on the async compute pool for the units that ask for it (`WantsEnvelope`, put on
//! the selected unit by the window) and kept as a component until the battle changes.

use super::base::{BattleState, BattleSystems};
use super::phase::GamePhase;
use super::pieces::UnitPiece;
use crate::battle::envelope::{envelope_outline, move_envelope};
use crate::battle::state::{Battle, Phase, UnitId};
use crate::rules::geometry::V2;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};

/// Rays around the unit, and the step along each (cm).
pub const RAYS: usize = 72;
pub const STEP: f64 = 0.5;

/// Compute this unit's move envelope when it may move.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct WantsEnvelope;

/// The ground the unit may reach: each ray's (angle, reach) and the outline they make, for the
/// state after `actions` actions.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct MoveEnvelope {
    pub actions: u64,
    pub rays: Vec<(f64, f64)>,
    pub outline: Vec<V2>,
}

/// An envelope being computed for the state after `actions` actions.
#[derive(Component)]
pub struct EnvelopeTask {
    actions: u64,
    task: Task<Vec<(f64, f64)>>,
}

/// May unit `u` move now: its side's command phase, with an order in hand that still has actions?
pub fn may_move(b: &Battle, u: UnitId) -> bool {
    let Some(unit) = b.units.get(u as usize) else {
        return false;
    };
    let Some(o) = b.cmd.orders.get(&u) else {
        return false;
    };
    b.phase == Phase::Command && unit.alive() && unit.side == b.active && o.credits > 0 && !o.finished
}

pub(super) fn plugin(app: &mut App) {
    // A unit moves only in its side's command phase: no envelope is worked out outside it,
    // and those left are dropped as it ends.
    app.add_systems(
        Update,
        (start_envelopes, finish_envelopes)
            .chain()
            .in_set(BattleSystems::Derive)
            .run_if(in_state(GamePhase::Command)),
    )
    .add_systems(OnExit(GamePhase::Command), drop_envelopes);
}

/// A unit with an envelope, or one being worked out.
type WithEnvelope = Or<(With<MoveEnvelope>, With<EnvelopeTask>)>;

/// The command phase ends: every envelope (and one being worked out) goes.
fn drop_envelopes(mut commands: Commands, units: Query<Entity, WithEnvelope>) {
    for e in &units {
        commands.entity(e).remove::<(MoveEnvelope, EnvelopeTask)>();
    }
}

/// Start (or drop) the envelopes the battle as it now stands calls for.
#[allow(clippy::type_complexity)]
fn start_envelopes(
    mut commands: Commands,
    battle: Res<BattleState>,
    units: Query<(Entity, &UnitPiece, Option<&MoveEnvelope>, Option<&EnvelopeTask>), With<WantsEnvelope>>,
    dropped: Query<Entity, (Without<WantsEnvelope>, Or<(With<MoveEnvelope>, With<EnvelopeTask>)>)>,
) {
    for e in &dropped {
        commands.entity(e).remove::<(MoveEnvelope, EnvelopeTask)>();
    }
    let b = &battle.0;
    for (e, p, env, task) in &units {
        let now = b.actions;
        if !may_move(b, p.unit) {
            if env.is_some() || task.is_some() {
                commands.entity(e).remove::<(MoveEnvelope, EnvelopeTask)>();
            }
            continue;
        }
        if env.is_some_and(|x| x.actions == now) || task.is_some_and(|t| t.actions == now) {
            continue;
        }
        // A copy of the battle is cheap (its set-up is shared) and goes to another thread.
        let copy = b.clone();
        let unit = p.unit;
        let task = AsyncComputeTaskPool::get().spawn(async move { move_envelope(&copy, unit, RAYS, STEP) });
        commands.entity(e).insert(EnvelopeTask { actions: now, task });
    }
}

/// Collect the envelopes that are ready (a stale one, for a state since changed, is dropped).
fn finish_envelopes(
    mut commands: Commands,
    battle: Res<BattleState>,
    mut tasks: Query<(Entity, &UnitPiece, &mut EnvelopeTask)>,
) {
    let b = &battle.0;
    for (e, p, mut t) in &mut tasks {
        let Some(rays) = check_ready(&mut t.task) else {
            continue;
        };
        let mut entity = commands.entity(e);
        entity.remove::<EnvelopeTask>();
        if t.actions == b.actions {
            let outline = envelope_outline(b.unit(p.unit).pose.pos, &rays);
            entity.insert(MoveEnvelope {
                actions: t.actions,
                rays,
                outline,
            });
        }
    }
}
