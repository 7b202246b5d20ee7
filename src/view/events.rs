//! The events a viewer may see: what a game server sends each client after a step.
//!
//! **Decision**: an event that names a unit the viewer does not know of (on the battle after
//! the events, [`PlayerView::knows`]) is left out whole, not sent with that unit taken out:
//! a fire, a shot's flight, a move or a melee says where its units stand and how many dice
//! they roll, so any part of it could tell of the unit. So a side fired on by a dug-in unit it
//! cannot see reads the hits its unit took, not the fire. An event that names no unit (a
//! phase begun, the weather, a commander's roll for no unit) every viewer sees.

use super::PlayerView;
use crate::battle::Event;
pub use crate::report::named_units;

/// The events of `events` that `v`'s viewer may see, in order (see the module's
/// documentation). `v` is the view of the battle after them.
pub fn visible(v: &PlayerView, events: &[Event]) -> Vec<Event> {
    events.iter().filter(|e| v.may_be_told(e)).cloned().collect()
}
