//! What a side's player may know: no peeking at what its units cannot see. The rule itself is
//! [`crate::view::PlayerView`]'s.

use crate::battle::Battle;
use crate::battle::state::{SideId, UnitId};
use crate::view::PlayerView;

/// The enemy units `side` knows of ([`PlayerView::enemies`]), in id order.
pub fn known_enemies(b: &Battle, side: SideId) -> Vec<UnitId> {
    PlayerView::side(b, side).enemy_ids()
}
