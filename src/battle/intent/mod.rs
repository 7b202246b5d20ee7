//! Orders by intent (issue 65, "Command by intent, at any scale"): what a player means, not
//! the geometry of a move. "7th Wisconsin: to Hickory farm", "Meredith's brigade: into range
//! of 12th Virginia", "hold". The engine turns an intent into the legal actions that best
//! serve it, one at a time, and says what each does; the actions go through the one action
//! pipeline as a geometric move would, so a save or replay holds the moves, never the intent.
//!
//! - [`places`]: the named places of the table an intent may aim at (objectives, woods,
//!   hills, farms, roads, walls), found by a word of their name.
//! - [`resolve`]: one unit's next move for an intent, among the legal ones (its
//!   `check_move`), scored by how far it leaves the intent from done.
//! - [`snap`]: a dragged move snapped to the nearest legal one, and what it is.
//! - [`run`]: a formation's intent (a unit, a brigade, a division) played out action by
//!   action: the order (the command roll) first, then each unit's move in turn, the
//!   formation keeping its frontage by moving no farther than its slowest unit.
//! - [`standing`]: an intent left short, offered again in the side's next command phases.
//!
//! The computer players may use the same doors; nothing here reads what the side may not
//! know (an enemy named must be known to the side: [`Battle::known_to`]).

pub mod kinds;
pub mod places;
pub mod resolve;
pub mod run;
pub mod snap;
pub mod standing;

pub use kinds::{Aim, Intent};
pub use places::{Place, PlaceKind, commander_named, name_matches};
pub use resolve::{EnemyThen, IntentMove, Keep};
pub use run::{IntentRun, RunStep};
pub use snap::SnapKind;
pub use standing::{Standing, StandingIntent, Tally};
