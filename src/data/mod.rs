//! Game data on disk: army lists (`assets/armies/*.ron`) and scenarios (`maps/*.ron`).
//!
//! - [`army`]: the serde types of a BPT army list (troop chart + command chart).
//! - [`scenario`]: the serde types of a scenario (table, terrain, objectives, orders of battle).
//! - [`load`]: reading RON with `file:line:col` errors ([`DataError`]), and content hashing.
//! - [`validate`]: checking a scenario against its army lists and the table, and laying out
//!   each unit's bases ([`validate::unit_rects`]).
//! - [`rules_file`]: the rules file: loading it, its hash, its checks, its footprints.
//! - [`check`]: `volley check`, which runs those checks on files and reports.

pub mod army;
pub mod check;
pub mod error;
pub mod load;
pub mod rules_file;
pub mod scenario;
pub mod text;
pub mod validate;

pub use error::DataError;
pub use load::{content_hash, load_ron, locate, parse_ron, ron_files};
pub use validate::{
    Footprints, LoadedScenario, load_army, load_scenario, unit_rects, validate_army, validate_scenario,
};
