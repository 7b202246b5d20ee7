//! What a side's player may know: no peeking at what its units cannot see.

use crate::battle::Battle;
use crate::battle::state::{SideId, UnitId};

/// The enemy units `side` knows of: every living enemy except dug-in units that none of its
/// units can see (BPT "Dug In": hidden until revealed), in id order.
pub fn known_enemies(b: &Battle, side: SideId) -> Vec<UnitId> {
    b.side_units(1 - side)
        .filter(|e| !e.hidden && (!e.dug_in || b.side_units(side).any(|u| b.sees(u.id, e.id))))
        .map(|e| e.id)
        .collect()
}
