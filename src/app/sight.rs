//! Who sees whom, as a component of every unit: the enemy units it sees (BPT "Line of Sight"),
//! nearest first, by the core's own `Battle::visible_enemies`. Derived again when anything sight
//! depends on changed, as the pieces say it (`pieces` writes only what an action changed): a
//! stand placed or sized anew, a unit's status (hidden, dug in, formation, limbered, which
//! decide whether it blocks sight and is hard to see) or side, a piece spawned or gone; or
//! the table itself: the terrain as the engineers' works left it (its revision) and the
//! weather's visibility. Written only where it changed.

use super::base::{BattleState, BattleSystems};
use super::pieces::{BaseShape, PieceIndex, SideOf, Stand, UnitPiece, UnitStatus};
use crate::battle::state::UnitId;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// The enemy units this unit sees, nearest first (ties by id).
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct Sight(pub Vec<UnitId>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        derive_sight
            .run_if(resource_changed::<BattleState>.or_else(|added: Query<(), Added<UnitPiece>>| !added.is_empty()))
            .in_set(BattleSystems::Derive),
    );
}

/// A unit's piece or stand whose place, size, status or side changed (or that is new).
type PieceChanged = (
    Or<(With<UnitPiece>, With<Stand>)>,
    Or<(
        Changed<Transform>,
        Changed<BaseShape>,
        Changed<UnitStatus>,
        Changed<SideOf>,
    )>,
);

/// What sight reads, changed since sight was last derived: the pieces that moved or changed
/// (spawned ones too), those gone, and the table's terrain revision and visibility as last seen.
#[derive(SystemParam)]
struct SightInputs<'w, 's> {
    changed: Query<'w, 's, (), PieceChanged>,
    gone_units: RemovedComponents<'w, 's, UnitPiece>,
    gone_stands: RemovedComponents<'w, 's, Stand>,
    table: Local<'s, Option<(u64, u64)>>,
}

impl SightInputs<'_, '_> {
    /// Has anything sight reads changed since it was last asked?
    fn changed(&mut self, b: &crate::battle::Battle) -> bool {
        let table = (b.los.terrain_revision(), b.los.params().visibility.to_bits());
        let table_changed = self.table.replace(table) != Some(table);
        let gone = self.gone_units.read().count() + self.gone_stands.read().count() > 0;
        table_changed || gone || !self.changed.is_empty()
    }
}

fn derive_sight(
    mut commands: Commands,
    battle: Res<BattleState>,
    mut units: Query<(Entity, &UnitPiece, Option<&mut Sight>)>,
    index: Res<PieceIndex>,
    mut inputs: SightInputs,
) {
    let b = &battle.0;
    if !inputs.changed(b) {
        return;
    }
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
