//! Recordings: the scenario (path and content hash), seed, rules version, every action in
//! order, and the state hash at the end of every phase — versioned RON a person can read.
//! Saves are recordings of a game in progress; both are written atomically.

pub mod strength;
pub mod timeline;
pub mod verify;

use crate::battle::{Action, Battle, Event};
use crate::data::DataError;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The recording format's version; `verify` refuses others.
pub const FORMAT_VERSION: u32 = 1;

/// The state after an action that ended one or more phases.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// Index (from 0) of the action after which the phase ended.
    pub action: u64,
    /// The phase that ended, e.g. "turn 2 Union command".
    pub phase: String,
    pub hash: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recording {
    pub version: u32,
    /// The scenario file as given (relative to the working directory or to the recording).
    pub scenario: String,
    /// Content hash of the scenario and its army lists (`LoadedScenario::content_hash`).
    pub scenario_hash: u64,
    pub rules_version: String,
    /// Content hash of the rules file (`Rules::content_hash`); absent in recordings made
    /// before it was kept, which are checked by `rules_version` alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_hash: Option<u64>,
    /// The scenario's absolute path when it was recorded: found from any working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario_full_path: Option<String>,
    pub seed: u64,
    #[serde(default)]
    pub max_turns: Option<u32>,
    /// Every optional rule and variant that was on (rules file, scenario and player's choice).
    #[serde(default, skip_serializing_if = "crate::rules::switches::Switches::is_empty")]
    pub switches: crate::rules::switches::Switches,
    /// Who played each side (`human` or an agent's name) in a terminal game, so a loaded save
    /// goes on with the same players; absent in recordings made before it was kept and in
    /// those of headless games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<[String; 2]>,
    pub actions: Vec<Action>,
    #[serde(default)]
    pub checkpoints: Vec<Checkpoint>,
    /// The state hash after the last action.
    pub final_hash: u64,
}

impl Recording {
    /// A new recording of `battle` (at its start).
    pub fn start(battle: &Battle, scenario: &str, seed: u64, max_turns: Option<u32>) -> Self {
        Recording {
            version: FORMAT_VERSION,
            scenario: scenario.to_string(),
            scenario_hash: battle.scenario_hash,
            rules_version: battle.rules.version.clone(),
            rules_hash: Some(battle.rules.content_hash),
            scenario_full_path: std::fs::canonicalize(scenario).ok().map(|p| p.display().to_string()),
            seed,
            max_turns,
            switches: battle.rules.switches.clone(),
            players: None,
            actions: Vec::new(),
            checkpoints: Vec::new(),
            final_hash: battle.state_hash(),
        }
    }

    /// Add an applied action; `battle` is the state after it, `events` what it produced.
    /// An action that ended a phase leaves a checkpoint named after the phase that began.
    pub fn push(&mut self, battle: &Battle, action: &Action, events: &[Event]) {
        let i = self.actions.len() as u64;
        self.actions.push(action.clone());
        let hash = battle.state_hash();
        let boundary = events.iter().rev().find_map(|e| match e {
            Event::PhaseStarted {
                phase,
                active,
                game_turn,
                ..
            } => Some(format!(
                "start of turn {game_turn} {} {phase:?} phase",
                battle.sides[*active].name
            )),
            Event::GameOver { .. } => Some("game over".to_string()),
            _ => None,
        });
        if let Some(phase) = boundary {
            self.checkpoints.push(Checkpoint { action: i, phase, hash });
        }
        self.final_hash = hash;
    }

    /// The RON text.
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default().struct_names(true))
            .expect("a recording serialises")
    }

    /// Write atomically: a temporary file beside the target, flushed, then renamed over it,
    /// so a crash mid-write leaves the previous file intact.
    /// A file that exists and is not a recording (a scenario, an army list, a rules file) is
    /// never written over.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        refuse_non_recording(path)?;
        save_atomically(path, self.to_ron().as_bytes())
    }

    /// Read a recording or save; any fault is an error naming the file and place.
    pub fn load(path: &Path) -> Result<Recording, DataError> {
        let text = crate::data::load::read_text(path)?;
        Self::parse(&text, path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Recording, DataError> {
        let rec: Recording = crate::data::parse_ron(text, path)?;
        if rec.version != FORMAT_VERSION {
            let (line, col) = crate::data::locate(text, "version");
            return Err(DataError::new(
                path,
                line,
                col,
                format!(
                    "recording format version {} is not supported (this build reads {FORMAT_VERSION})",
                    rec.version
                ),
            ));
        }
        let (line, col) = crate::data::locate(text, "checkpoints");
        let mut last = None;
        for c in &rec.checkpoints {
            if c.action >= rec.actions.len() as u64 || last.is_some_and(|l| c.action < l) {
                return Err(DataError::new(
                    path,
                    line,
                    col,
                    format!(
                        "checkpoint after action {} (\"{}\") is out of order or past the last of the {} actions",
                        c.action,
                        crate::data::text::printable(&c.phase),
                        rec.actions.len()
                    ),
                ));
            }
            last = Some(c.action);
        }
        Ok(rec)
    }
}

/// Refuse to write over `path` when it holds something other than a recording: `simulate
/// --record maps/skirmish.ron` must not destroy the scenario.
pub fn refuse_non_recording(path: &Path) -> std::io::Result<()> {
    use std::io::Read;
    if !path.is_file() {
        // Nothing there to lose (a folder fails at the write itself).
        return Ok(());
    }
    // The start is enough: a recording opens with its struct name.
    let mut head = Vec::new();
    std::fs::File::open(path)?.take(4096).read_to_end(&mut head)?;
    let head = String::from_utf8_lossy(&head);
    let body = head.trim_start_matches('\u{feff}').trim_start();
    if body.is_empty() || body.starts_with("Recording(") {
        Ok(())
    } else {
        Err(std::io::Error::other(
            "the file there is not a Volley recording (a scenario, army list or rules file?); not writing over it",
        ))
    }
}

/// Write `bytes` to `path` atomically (temporary file, fsync, rename).
pub fn save_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    save_atomically_checked(path, bytes, |_| Ok(()))
}

/// [`save_atomically`], with `check` run on the temporary file once it is written and synced,
/// before it replaces `path`: if `check` (or anything else) fails, the temporary file is
/// removed and `path` left as it was.
pub fn save_atomically_checked(
    path: &Path,
    bytes: &[u8],
    check: impl FnOnce(&Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "save".into());
    // Temporary files of saves that were interrupted (killed mid-write) go first.
    let prefix = format!(".{name}.");
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if let Some(pid) = n.strip_prefix(&prefix).and_then(|r| r.strip_suffix(".tmp"))
                && !pid.is_empty()
                && pid.chars().all(|c| c.is_ascii_digit())
            {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.flush()?;
        f.sync_all()?;
        drop(f);
        check(&tmp)?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}
