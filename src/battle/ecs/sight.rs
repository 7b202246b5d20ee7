//! Who sees whom, as a component of every unit: the enemy units it sees (BPT "Line of Sight"),
//! nearest first, by the core's own `Battle::visible_enemies`. Derived only when a piece moved
//! or changed its status (a move, a loss, a formation, a unit found), and written only where
//! it changed.

use super::base::{BattleState, BattleSystems};
use super::pieces::{PieceIndex, Stand, UnitPiece, UnitStatus};
use crate::battle::state::UnitId;
use bevy::prelude::*;

/// The enemy units this unit sees, nearest first (ties by id).
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct Sight(pub Vec<UnitId>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, derive_sight.in_set(BattleSystems::Derive));
}

/// Anything that can change who sees whom: a unit or a stand moved, turned, appeared or went,
/// or a unit's status changed (hidden, formation).
pub(super) type PiecesChanged<'w, 's> =
    Query<'w, 's, (), Or<(Changed<Transform>, Changed<UnitStatus>, Added<UnitPiece>, Added<Stand>)>>;

fn derive_sight(
    mut commands: Commands,
    battle: Res<BattleState>,
    changed: PiecesChanged,
    mut removed: RemovedComponents<UnitPiece>,
    units: Query<(Entity, &UnitPiece, Option<&mut Sight>)>,
    index: Res<PieceIndex>,
    mut visibility: Local<Option<f64>>,
) {
    let gone = removed.read().count() > 0;
    let b = &battle.0;
    // The weather changes how far anyone sees without moving a piece.
    let seeing = b.los.params().visibility;
    if changed.is_empty() && !gone && *visibility == Some(seeing) {
        return;
    }
    *visibility = Some(seeing);
    let mut units = units;
    for (e, piece, sight) in &mut units {
        if index.unit(piece.unit) != Some(e) {
            continue;
        }
        let now = Sight(b.visible_enemies(piece.unit).into_iter().map(|(id, _)| id).collect());
        match sight {
            Some(mut s) => {
                s.set_if_neq(now);
            }
            None => {
                commands.entity(e).insert(now);
            }
        }
    }
}
