//! The arcs of every unit as a component: its arc of vision out to the visibility distance
//! and its fire cone as deep as its weapon range (DECISIONS "Arcs"), by the rules' own
//! `geometry::vision_arc` and `geometry::fire_cone`. Derived whenever the battle changed (a
//! move, a formation, mounting or dismounting, the weather, an undo: a few polygons a unit,
//! cheap) and written only where they changed.

use super::base::{BattleState, BattleSystems};
use super::pieces::{PieceIndex, UnitPiece};
use crate::battle::state::{Battle, UnitId};
use crate::rules::geometry::{self, V2};
use bevy::prelude::*;

/// A unit's vision arc (a polygon) and fire cone ([left, right, far right, far left]).
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Arcs {
    pub vision: Vec<V2>,
    pub fire: [V2; 4],
}

impl Arcs {
    /// The arcs the rules give unit `u` now.
    pub fn of(b: &Battle, u: UnitId) -> Arcs {
        let s = b.sighting(u);
        let unit = b.unit(u);
        let half = b.rules.visibility.fire_cone_half_deg.to_radians();
        Arcs {
            vision: geometry::vision_arc(s.front, s.facing, s.all_round, b.los.params().visibility),
            fire: geometry::fire_cone(s.front, unit.pose.facing, half, b.weapon_range(unit)),
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        derive_arcs
            .run_if(resource_changed::<BattleState>.or_else(|added: Query<(), Added<UnitPiece>>| !added.is_empty()))
            .in_set(BattleSystems::Derive),
    );
}

fn derive_arcs(
    mut commands: Commands,
    battle: Res<BattleState>,
    mut units: Query<(Entity, &UnitPiece, Option<&mut Arcs>)>,
    index: Res<PieceIndex>,
) {
    let b = &battle.0;
    for (e, piece, arcs) in &mut units {
        if index.unit(piece.unit) != Some(e) {
            continue;
        }
        let now = Arcs::of(b, piece.unit);
        match arcs {
            Some(mut a) => {
                a.set_if_neq(now);
            }
            None => {
                commands.entity(e).insert(now);
            }
        }
    }
}
