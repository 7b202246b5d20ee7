//! Who sees whom, as a component of every unit: the enemy units it sees (BPT "Line of Sight"),
//! nearest first, by the core's own `Battle::visible_enemies`. Derived whenever anything sight
//! depends on changed ([`sight_key`]: where every stand stands, who is hidden or dug in, which
//! units block sight, the terrain as the engineers left it, the weather's visibility), and
//! written only where it changed.

use super::base::{BattleState, BattleSystems};
use super::pieces::{PieceIndex, UnitPiece};
use crate::battle::state::{Battle, UnitId};
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

/// A fingerprint of everything `Battle::visible_enemies` reads: equal keys, equal sight.
/// Every living unit's id, side, stands (place, facing, size), whether it is hidden, dug in,
/// a skirmisher, limbered or unlimbered guns (which decide whether it blocks sight and is hard
/// to see) and its formation (a square sees all round); the terrain's preparation (a hedge
/// cleared, a wall demolished) and the visibility (the weather).
pub fn sight_key(b: &Battle) -> u64 {
    let mut h = Fnv::default();
    h.u64(b.los.terrain_revision());
    h.f64(b.los.params().visibility);
    for u in b.alive_units() {
        h.u64(u.id as u64);
        h.u64(u.side as u64);
        h.u64(u.formation as u64);
        let flags = [u.hidden, u.dug_in, u.limbered, u.is_skirmisher(), u.is_artillery()];
        h.u64(flags.iter().fold(0, |acc, &f| acc << 1 | f as u64));
        for r in b.rects(u.id) {
            for x in [r.center.x, r.center.y, r.facing, r.width, r.depth] {
                h.f64(x);
            }
        }
    }
    h.0
}

/// FNV-1a over 64-bit words.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn u64(&mut self, v: u64) {
        for byte in v.to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }
}

fn derive_sight(
    mut commands: Commands,
    battle: Res<BattleState>,
    mut units: Query<(Entity, &UnitPiece, Option<&mut Sight>)>,
    index: Res<PieceIndex>,
    mut last: Local<Option<u64>>,
) {
    let b = &battle.0;
    let key = sight_key(b);
    // Pieces spawned since (a new battle) have no sight yet, whatever the key.
    let missing = units.iter().any(|(_, _, s)| s.is_none());
    if *last == Some(key) && !missing {
        return;
    }
    *last = Some(key);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::Action;

    #[test]
    fn the_sight_key_changes_with_what_sight_reads_and_only_then() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
        let b = crate::load_battle(&path, 1).expect("skirmish").0;
        let key = sight_key(&b);
        assert_eq!(sight_key(&b.clone()), key, "a copy sees the same");
        // Ending a phase moves nothing and hides nothing.
        let mut ended = b.clone();
        ended.apply(&Action::EndPhase).unwrap();
        assert_eq!(sight_key(&ended), key);
        // The weather's visibility, a unit found or dug in, and the terrain prepared again.
        let mut poor = b.clone();
        poor.los.set_visibility(40.0);
        assert_ne!(sight_key(&poor), key);
        let mut dug = b.clone();
        dug.units[0].dug_in = !dug.units[0].dug_in;
        assert_ne!(sight_key(&dug), key);
        let mut rebuilt = b.clone();
        let params = rebuilt.los.params().clone();
        rebuilt.los = crate::rules::los::LosWorld::new(&b.terrain, b.table.width, b.table.height, params);
        assert_ne!(sight_key(&rebuilt), key, "the engineers' rebuilt terrain");
    }
}
