//! Recording games: the scenario (path and content hash), seed, rules version and every
//! action in order, as versioned RON a person can read.

use crate::battle::Action;
use serde::{Deserialize, Serialize};
use std::path::Path;

pub const FORMAT_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    pub version: u32,
    pub scenario: String,
    pub scenario_hash: u64,
    pub rules_version: String,
    pub seed: u64,
    #[serde(default)]
    pub max_turns: Option<u32>,
    pub actions: Vec<Action>,
    /// The state hash after the last action.
    pub final_hash: u64,
}

impl Recording {
    /// Write atomically: a temporary file beside the target, then a rename.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let tmp = path.with_extension("ron.tmp");
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, path)
    }
}
