//! `volley verify`: re-play a recording headless and check every checkpoint.

use super::Recording;
use crate::battle::Battle;
use std::path::{Path, PathBuf};

/// Why a recording does not verify: the first place the states part.
#[derive(Clone, Debug, PartialEq)]
pub enum Mismatch {
    /// The file itself is bad (not RON, truncated, unknown version): `file:line:col: …`.
    File(String),
    /// The scenario file is missing or invalid.
    Scenario(String),
    /// The scenario (or an army list it uses) changed since the recording.
    ScenarioChanged {
        recorded: u64,
        now: u64,
    },
    RulesVersion {
        recorded: String,
        now: String,
    },
    /// Same version string, other rule numbers: the rules file was edited.
    RulesChanged {
        version: String,
        recorded: u64,
        now: u64,
    },
    /// The rules file or scenario turns on optional rules the recording did not play with.
    Switches {
        recorded: String,
        now: String,
    },
    /// Action `index` was refused by the rules.
    Refused {
        index: u64,
        action: String,
        reason: String,
    },
    /// After action `index`, at `phase`, the state hash differs.
    Diverged {
        index: u64,
        phase: String,
        recorded: u64,
        now: u64,
    },
    FinalHash {
        recorded: u64,
        now: u64,
    },
    /// Action `index` ended a phase (`phase`: the one that began) but the recording keeps no
    /// checkpoint after it: every recorder keeps one at every phase boundary, so one was
    /// removed (or the action edited).
    CheckpointMissing {
        index: u64,
        phase: String,
    },
    /// The recording keeps a checkpoint after action `index`, where no phase ended.
    CheckpointStray {
        index: u64,
        phase: String,
    },
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::File(e) | Mismatch::Scenario(e) => write!(f, "{e}"),
            Mismatch::ScenarioChanged { recorded, now } => write!(
                f,
                "the scenario or its army lists changed since the recording (content hash {now:016x}, recorded {recorded:016x})"
            ),
            Mismatch::RulesVersion { recorded, now } => {
                write!(f, "recorded with rules {recorded}, these rules are {now}")
            }
            Mismatch::RulesChanged { version, recorded, now } => write!(
                f,
                "the rules file ({version}) was edited since the recording (content hash {now:016x}, recorded {recorded:016x})"
            ),
            Mismatch::Switches { recorded, now } => {
                write!(
                    f,
                    "recorded with the optional rules {recorded}, these files turn on {now}"
                )
            }
            Mismatch::Refused { index, action, reason } => {
                write!(f, "action #{index} ({action}) is refused: {reason}")
            }
            Mismatch::Diverged {
                index,
                phase,
                recorded,
                now,
            } => write!(
                f,
                "the states diverge after action #{index}, at the {phase}: hash {now:016x}, recorded {recorded:016x}"
            ),
            Mismatch::FinalHash { recorded, now } => {
                write!(f, "the final state differs: hash {now:016x}, recorded {recorded:016x}")
            }
            Mismatch::CheckpointMissing { index, phase } => write!(
                f,
                "action #{index} ends a phase (the {phase} begins) where the recording keeps no checkpoint: a checkpoint was removed, or an action edited"
            ),
            Mismatch::CheckpointStray { index, phase } => write!(
                f,
                "the recording keeps a checkpoint (\"{}\") after action #{index}, where no phase ends: an action was edited, or a checkpoint added",
                crate::data::text::printable(phase)
            ),
        }
    }
}

/// Where the recording's scenario is: as written (from the working directory), else beside the
/// recording; and if that scenario has been revised since, the version the recording was made
/// on, kept in `history/` beside it ([`archived_scenario`]).
pub fn scenario_path(rec: &Recording, recording: &Path) -> PathBuf {
    let p = current_scenario_path(rec, recording);
    archived_scenario(&p, rec.scenario_hash).unwrap_or(p)
}

fn current_scenario_path(rec: &Recording, recording: &Path) -> PathBuf {
    let p = PathBuf::from(&rec.scenario);
    if p.is_file() {
        return p;
    }
    let beside = recording.parent().unwrap_or(Path::new(".")).join(&p);
    if beside.is_file() {
        return beside;
    }
    match &rec.scenario_full_path {
        Some(full) if Path::new(full).is_file() => PathBuf::from(full),
        _ => p,
    }
}

/// A revised scenario's earlier version, kept byte for byte so that games recorded on it still
/// replay: `history/<stem>-<content hash, 16 hex digits>.ron` in the scenario's folder (the
/// hash a recording carries; `maps/history/README.md`). `None` if there is no such file.
pub fn archived_scenario(scenario: &Path, content_hash: u64) -> Option<PathBuf> {
    let stem = scenario.file_stem()?.to_str()?;
    let dir = scenario.parent().unwrap_or(Path::new("."));
    let p = dir.join("history").join(format!("{stem}-{content_hash:016x}.ron"));
    p.is_file().then_some(p)
}

/// Rebuild the battle at the recording's start (scenario, seed, rules, turn cap).
pub fn start_battle(rec: &Recording, recording: &Path) -> Result<Battle, Mismatch> {
    let path = scenario_path(rec, recording);
    let (mut b, _) =
        crate::load_battle_with(&path, rec.seed, &rec.switches).map_err(|e| Mismatch::Scenario(e.to_string()))?;
    if b.rules.switches != rec.switches {
        return Err(Mismatch::Switches {
            recorded: rec.switches.describe(),
            now: b.rules.switches.describe(),
        });
    }
    // A game of older rules is refused by their name first: a new rules version may change the
    // army lists too, and the version is what the player needs to know.
    if b.rules.version != rec.rules_version {
        return Err(Mismatch::RulesVersion {
            recorded: rec.rules_version.clone(),
            now: b.rules.version.clone(),
        });
    }
    if b.scenario_hash != rec.scenario_hash {
        return Err(Mismatch::ScenarioChanged {
            recorded: rec.scenario_hash,
            now: b.scenario_hash,
        });
    }
    if let Some(recorded) = rec.rules_hash
        && recorded != b.rules.content_hash
    {
        return Err(Mismatch::RulesChanged {
            version: b.rules.version.clone(),
            recorded,
            now: b.rules.content_hash,
        });
    }
    b.cap_turns(rec.max_turns);
    Ok(b)
}

/// Re-play every action, checking each checkpoint; the final state's hash on success.
pub fn verify(rec: &Recording, recording: &Path) -> Result<(Battle, u64), Mismatch> {
    verify_each(rec, recording, |_, _| {})
}

/// [`verify`], showing `seen` the state after every number of actions (0: the start).
pub fn verify_each(
    rec: &Recording,
    recording: &Path,
    mut seen: impl FnMut(usize, &Battle),
) -> Result<(Battle, u64), Mismatch> {
    let mut b = start_battle(rec, recording)?;
    seen(0, &b);
    let mut checkpoints = rec.checkpoints.iter().peekable();
    for (i, a) in rec.actions.iter().enumerate() {
        let events = b.apply(a).map_err(|r| Mismatch::Refused {
            index: i as u64,
            action: a.name().to_string(),
            reason: r.to_string(),
        })?;
        seen(i + 1, &b);
        let i = i as u64;
        // Every recorder keeps a checkpoint after each action that ends a phase, and only
        // there (`Recording::push`, in every format): one missing was removed.
        let boundary = super::phase_boundary(&b, &events);
        match (&boundary, checkpoints.peek()) {
            (Some(phase), next) if next.is_none_or(|c| c.action != i) => {
                return Err(Mismatch::CheckpointMissing {
                    index: i,
                    phase: phase.clone(),
                });
            }
            (None, Some(c)) if c.action == i => {
                return Err(Mismatch::CheckpointStray {
                    index: i,
                    phase: c.phase.clone(),
                });
            }
            _ => {}
        }
        while let Some(c) = checkpoints.next_if(|c| c.action == i) {
            let now = b.state_hash();
            if now != c.hash {
                return Err(Mismatch::Diverged {
                    index: i,
                    phase: c.phase.clone(),
                    recorded: c.hash,
                    now,
                });
            }
        }
    }
    let now = b.state_hash();
    if now != rec.final_hash {
        return Err(Mismatch::FinalHash {
            recorded: rec.final_hash,
            now,
        });
    }
    Ok((b, now))
}

/// Load and verify a recording file.
pub fn verify_file(path: &Path) -> Result<u64, Mismatch> {
    verify_file_checked(path).map(|v| v.hash)
}

/// What verifying a recording file checked, and what it could not: `volley verify`'s line.
#[derive(Clone, Debug, PartialEq)]
pub struct Verified {
    /// The final state's hash (the recorded one: they matched).
    pub hash: u64,
    /// Actions re-played, each accepted by the rules.
    pub actions: usize,
    /// Checkpoints whose state hash matched (one after every action that ended a phase).
    pub checkpoints: usize,
    /// What else was found as recorded, e.g. "rules file unchanged (bpt-5)".
    pub checked: Vec<String>,
    /// What the recording does not carry the means to check, and why.
    pub unchecked: Vec<String>,
}

impl std::fmt::Display for Verified {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = |n: usize| if n == 1 { "" } else { "s" };
        write!(
            f,
            "{:016x}: {} action{} re-played, {} checkpoint{} matched",
            self.hash,
            self.actions,
            s(self.actions),
            self.checkpoints,
            s(self.checkpoints)
        )?;
        for c in &self.checked {
            write!(f, ", {c}")?;
        }
        if !self.unchecked.is_empty() {
            write!(f, "; could not check: {}", self.unchecked.join("; "))?;
        }
        Ok(())
    }
}

/// Load and verify a recording file, and say what was checked: every action re-played, every
/// checkpoint, the final state, the scenario and rules by their hashes, and (format 2) the
/// seal over the players and the turn cap; and what a format-1 recording cannot show.
pub fn verify_file_checked(path: &Path) -> Result<Verified, Mismatch> {
    let rec = Recording::load(path).map_err(|e| Mismatch::File(e.to_string()))?;
    let (_, hash) = verify(&rec, path)?;
    let mut checked = Vec::new();
    let mut unchecked = Vec::new();
    match rec.rules_hash {
        Some(_) => checked.push(format!("rules file unchanged ({})", rec.rules_version)),
        None => unchecked.push(format!(
            "the rules' numbers (this format-{} recording was made before they were hashed: the rules were matched by their version, {}, alone)",
            rec.version, rec.rules_version
        )),
    }
    let current = current_scenario_path(&rec, path);
    let used = scenario_path(&rec, path);
    if used == current {
        checked.push("scenario unchanged".into());
    } else {
        checked.push(format!(
            "scenario as recorded (the earlier version kept as {})",
            used.display()
        ));
    }
    if !rec.switches.is_empty() {
        checked.push(format!("optional rules as recorded ({})", rec.switches.describe()));
    }
    if rec.version >= 2 {
        // `Recording::parse` refused a seal that did not match.
        let players = match &rec.players {
            Some([a, b]) => format!(
                "{}, {}",
                crate::data::text::printable(a),
                crate::data::text::printable(b)
            ),
            None => "not recorded".into(),
        };
        let cap = rec.max_turns.map_or("none".to_string(), |t| t.to_string());
        match rec.plans.len() {
            0 => checked.push(format!("players ({players}) and turn cap ({cap}) sealed")),
            n => checked.push(format!(
                "players ({players}), turn cap ({cap}) and the computers' {n} plan{} sealed",
                if n == 1 { "" } else { "s" }
            )),
        }
    } else {
        if rec.players.is_some() {
            unchecked.push(format!(
                "who played each side (a format-{} recording carries no seal of `players`)",
                rec.version
            ));
        }
        if rec.max_turns.is_some() {
            unchecked.push(format!(
                "the turn cap (a format-{} recording carries no seal of `max_turns`)",
                rec.version
            ));
        }
    }
    Ok(Verified {
        hash,
        actions: rec.actions.len(),
        checkpoints: rec.checkpoints.len(),
        checked,
        unchecked,
    })
}

/// [`verify_file_checked`] as `volley verify` says it: a refusal always names the recording
/// (a bad file already does, as `file:line:col`; a divergence gets the file's name in front).
pub fn verify_report(path: &Path) -> Result<Verified, String> {
    verify_file_checked(path).map_err(|e| {
        let text = e.to_string();
        let name = path.display().to_string();
        if text.starts_with(&name) {
            text
        } else {
            format!("{name}: {text}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `volley verify`'s line: the hash, what was re-played and matched, what else was found
    /// as recorded, and after a semicolon what could not be checked.
    #[test]
    fn the_verified_line_says_what_was_checked_and_what_could_not_be() {
        let v = Verified {
            hash: 0x9bb7_8085_0e7a_da73,
            actions: 1,
            checkpoints: 26,
            checked: vec!["scenario unchanged".into()],
            unchecked: vec!["the rules' numbers (…)".into(), "the turn cap (…)".into()],
        };
        let line = "9bb780850e7ada73: 1 action re-played, 26 checkpoints matched, scenario unchanged; \
                    could not check: the rules' numbers (…); the turn cap (…)";
        assert_eq!(v.to_string(), line);
    }
}
