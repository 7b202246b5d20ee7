//! What a side's player may know: no peeking at what its units cannot see. The rule itself is
//! [`crate::view::PlayerView`]'s.

use crate::battle::Battle;
use crate::battle::state::{SideId, UnitId};
use crate::view::PlayerView;

/// The enemy units `side` knows of ([`PlayerView::enemies`]), in id order.
pub fn known_enemies(b: &Battle, side: SideId) -> Vec<UnitId> {
    PlayerView::side(b, side).enemy_ids()
}

/// The battle as `side` may search it: the enemy units it does not know of are off the table
/// (out of play, not counted as lost), so nothing about them can steer the search.
pub fn determinized(b: &Battle, side: SideId, known: &[UnitId]) -> Battle {
    let mut copy = b.clone();
    let unknown: Vec<UnitId> = b
        .side_units(1 - side)
        .map(|u| u.id)
        .filter(|id| !known.contains(id))
        .collect();
    if !unknown.is_empty() {
        copy.arrange(|s| {
            for id in unknown {
                let u = &mut s.units[id as usize];
                u.knocked_out = true;
                u.retired = true;
            }
        });
    }
    copy
}
