//! Recordings: the scenario (path and content hash), seed, rules version, every action in
//! order, and the state hash at the end of every phase — versioned RON a person can read.
//! Saves are recordings of a game in progress; both are written atomically.

pub mod strength;
pub mod timeline;
pub mod turn_file;
pub mod verify;

use crate::battle::{Action, Battle, Event};
use crate::data::DataError;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The recording format's version, the one this build writes; it reads it and
/// [`OLDEST_VERSION`], and refuses others.
///
/// - 1: the first. Every action and a checkpoint at every phase boundary; since 2026-11-24
///   also the hash of the rules' numbers (`rules_hash`), and since 2026-11-25 who played
///   each side (`players`) in a terminal game, neither of which a format-1 file must have.
/// - 2: must carry `rules_hash`, and a `seal`: a checksum of what re-playing cannot check
///   (who played each side, the turn cap), so an edit of either is found.
pub const FORMAT_VERSION: u32 = 2;

/// The oldest recording format this build reads.
pub const OLDEST_VERSION: u32 = 1;

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

/// A computer player's plan, as it said it when it made or changed it (issue 66: "A replay can
/// show it"): said before the action at index `action` (from 0; the number of actions then),
/// by `side`'s computer player `agent`, told whole (a replay shows all): "plan made (turn 1,
/// the battle begins): Heth's division: attack …". Words only: re-playing neither needs nor
/// checks them, the seal keeps them from an edit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanNote {
    pub action: u64,
    pub side: crate::battle::SideId,
    pub agent: String,
    pub text: String,
    /// The plan as the other side was told it (a person playing against this computer): only
    /// of the formations that side could see then. Absent in recordings made before it was
    /// kept ([`PlanNote::said_to`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_other: Option<String>,
}

impl PlanNote {
    /// The plan as `viewer` (a side; None: everyone) was told it: whole to its own side and to
    /// everyone, to the other side as it heard it. Nothing to the other side from a recording
    /// made before its words were kept: the whole words may name formations hidden from it.
    pub fn said_to(&self, viewer: Option<crate::battle::SideId>) -> Option<&str> {
        match viewer {
            Some(v) if v != self.side => self.to_other.as_deref(),
            _ => Some(&self.text),
        }
    }
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
    /// The computer players' plans as they said them, in order ([`PlanNote`]); none in a game
    /// without a planning computer, and in recordings made before they were kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plans: Vec<PlanNote>,
    /// The state hash after the last action.
    pub final_hash: u64,
    /// Only in the file (format 2 on): [`Recording::seal_of`] its `players` and `max_turns`,
    /// written by [`Recording::to_ron`], checked and dropped by [`Recording::parse`] (so it is
    /// always `None` in memory). A checksum, not a signature: it finds an edit by hand, not a
    /// forger who works it out again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seal: Option<u64>,
}

/// Where an action ended a phase (or the game), by its events: the name of the checkpoint a
/// recording keeps after it ("start of turn 2 Union Command phase", "game over"), else `None`.
pub fn phase_boundary(battle: &Battle, events: &[Event]) -> Option<String> {
    crate::report::flow::boundary(battle, events)
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
            plans: Vec::new(),
            final_hash: battle.state_hash(),
            seal: None,
        }
    }

    /// The checksum a format-2 file carries of what re-playing cannot check: who played each
    /// side, the turn cap and the computers' plans (when there are any: a recording without
    /// them keeps the seal it had before they were kept).
    pub fn seal_of(players: Option<&[String; 2]>, max_turns: Option<u32>, plans: &[PlanNote]) -> u64 {
        let bytes = if plans.is_empty() {
            serde_json::to_vec(&(players, max_turns))
        } else {
            serde_json::to_vec(&(players, max_turns, plans))
        };
        crate::battle::hash::fnv1a(&bytes.expect("names, numbers and words serialise"))
    }

    /// Keep a computer's plan, said now (before the next action): whole, and as the other side
    /// was told it.
    pub fn note_plan(&mut self, side: crate::battle::SideId, agent: &str, text: String, to_other: Option<String>) {
        self.plans.push(PlanNote {
            action: self.actions.len() as u64,
            side,
            agent: agent.to_string(),
            text,
            to_other,
        });
    }

    /// The plans said before action `i` (from 0) and after the one before it, in order.
    pub fn plans_before(&self, i: usize) -> impl Iterator<Item = &PlanNote> {
        self.plans.iter().filter(move |p| p.action == i as u64)
    }

    /// Add an applied action; `battle` is the state after it, `events` what it produced.
    /// An action that ended a phase leaves a checkpoint named after the phase that began.
    pub fn push(&mut self, battle: &Battle, action: &Action, events: &[Event]) {
        let i = self.actions.len() as u64;
        self.actions.push(action.clone());
        let hash = battle.state_hash();
        if let Some(phase) = phase_boundary(battle, events) {
            self.checkpoints.push(Checkpoint { action: i, phase, hash });
        }
        self.final_hash = hash;
    }

    /// The RON text (in format 2 on, with its seal).
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::default().struct_names(true);
        if self.version < 2 {
            return ron::ser::to_string_pretty(self, config).expect("a recording serialises");
        }
        let sealed = Recording {
            seal: Some(Self::seal_of(self.players.as_ref(), self.max_turns, &self.plans)),
            ..self.clone()
        };
        ron::ser::to_string_pretty(&sealed, config).expect("a recording serialises")
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

    /// Read a recording from its text; `path` names it in errors. Refused: another format
    /// version; a format-2 recording without its rules' hash or seal, or whose seal does not
    /// match (who played each side or the turn cap edited); a player that is neither `human`
    /// nor an agent [`crate::agents::by_name`] makes (a budget past its bounds too: it would
    /// think for ever); checkpoints out of order or past the end.
    pub fn parse(text: &str, path: &Path) -> Result<Recording, DataError> {
        let mut rec: Recording = crate::data::parse_ron(text, path)?;
        let refuse = |field: &str, what: String| {
            let (line, col) = crate::data::locate(text, field);
            Err(DataError::new(path, line, col, what))
        };
        if !(OLDEST_VERSION..=FORMAT_VERSION).contains(&rec.version) {
            return refuse(
                "version",
                format!(
                    "recording format version {} is not supported (this build reads {OLDEST_VERSION} to {FORMAT_VERSION})",
                    rec.version
                ),
            );
        }
        if rec.version >= 2 {
            if rec.rules_hash.is_none() {
                return refuse(
                    "rules_version",
                    format!(
                        "the rules' hash (`rules_hash`) is missing: every recording of format {} carries it, so it was removed",
                        rec.version
                    ),
                );
            }
            let seal = Self::seal_of(rec.players.as_ref(), rec.max_turns, &rec.plans);
            match rec.seal {
                None => {
                    return refuse(
                        "final_hash",
                        format!(
                            "the seal (`seal`) is missing: every recording of format {} carries it, so it was removed",
                            rec.version
                        ),
                    );
                }
                Some(s) if s != seal => {
                    return refuse(
                        "seal:",
                        "who played each side (`players`), the turn cap (`max_turns`) or the computers' plans (`plans`) was edited since the recording was written: its seal does not match".to_string(),
                    );
                }
                Some(_) => {}
            }
        }
        rec.seal = None;
        for player in rec.players.iter().flatten() {
            if let Err(e) = crate::agents::check_player(player) {
                return refuse(
                    "players:",
                    format!(
                        "`players` names '{}', which cannot play a side: {}",
                        crate::data::text::printable(player),
                        crate::data::text::printable(&e)
                    ),
                );
            }
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
        let (line, col) = crate::data::locate(text, "plans");
        let mut last = 0;
        for p in &rec.plans {
            if p.action > rec.actions.len() as u64 || p.action < last || p.side > 1 {
                return Err(DataError::new(
                    path,
                    line,
                    col,
                    format!(
                        "a plan said before action {} by side {} is out of order, past the {} actions or of no side (0 or 1)",
                        p.action,
                        p.side,
                        rec.actions.len()
                    ),
                ));
            }
            last = p.action;
        }
        Ok(rec)
    }
}

/// What `volley check` says of a recording: read in full (its format, seal and players), not
/// re-played (`volley verify` re-plays it).
pub fn check_recording(text: &str, path: &Path) -> Result<String, crate::data::DataError> {
    let r = Recording::parse(text, path)?;
    Ok(format!(
        "{} actions of {} (read, not re-played: `volley verify` re-plays it)",
        r.actions.len(),
        r.scenario
    ))
}

/// Refuse to write over `path` when it holds something other than a recording: `simulate
/// --record maps/skirmish.ron` must not destroy the scenario. Decided by the file's first
/// token after any white space and comments (however many), reading at most
/// [`MAX_FILE_BYTES`](crate::data::load::MAX_FILE_BYTES) + 1 bytes: a file that starts
/// `Recording(` is one; an empty file (or white space only) has nothing to lose; anything
/// else (comments alone, or a file too big for Volley to read, included) is kept.
/// A path that is not a regular file is refused ([`refuse_special`]).
pub fn refuse_non_recording(path: &Path) -> std::io::Result<()> {
    use crate::data::load::{MAX_FILE_BYTES, open_regular};
    use std::io::{BufReader, Read};
    refuse_special(path)?;
    let file = match open_regular(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        r => r?,
    };
    let mut scan = Scan {
        bytes: BufReader::new(file.take(MAX_FILE_BYTES + 1)).bytes(),
        peeked: None,
    };
    let recording = match scan.first()? {
        (None, comments) => !comments,
        (Some(b'R'), _) => {
            let mut name = vec![b'R'];
            while let Some(c) = scan.peek()?.filter(|c| c.is_ascii_alphanumeric() || *c == b'_') {
                scan.next()?;
                if name.len() > 64 {
                    break;
                }
                name.push(c);
            }
            name == b"Recording" && scan.first()?.0 == Some(b'(')
        }
        _ => false,
    };
    if recording {
        Ok(())
    } else {
        Err(std::io::Error::other(
            "the file there is not a Volley recording (a scenario, army list or rules file?); not writing over it",
        ))
    }
}

/// A RON text read byte by byte, for the start of a file: as much white space and comment
/// as it has is skipped, nothing of it kept.
struct Scan<I> {
    bytes: I,
    peeked: Option<u8>,
}

impl<I: Iterator<Item = std::io::Result<u8>>> Scan<I> {
    fn next(&mut self) -> std::io::Result<Option<u8>> {
        match self.peeked.take() {
            Some(b) => Ok(Some(b)),
            None => self.bytes.next().transpose(),
        }
    }

    fn peek(&mut self) -> std::io::Result<Option<u8>> {
        if self.peeked.is_none() {
            self.peeked = self.bytes.next().transpose()?;
        }
        Ok(self.peeked)
    }

    /// The first byte that is not white space, a byte-order mark or in a comment (`//` to the
    /// end of the line, `/* */` nested), and whether a comment came before it.
    fn first(&mut self) -> std::io::Result<(Option<u8>, bool)> {
        let mut comments = false;
        loop {
            let Some(b) = self.next()? else {
                return Ok((None, comments));
            };
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0xef | 0xbb | 0xbf => {}
                b'/' if self.peek()? == Some(b'/') => {
                    comments = true;
                    while let Some(c) = self.next()? {
                        if c == b'\n' {
                            break;
                        }
                    }
                }
                b'/' if self.peek()? == Some(b'*') => {
                    comments = true;
                    self.next()?;
                    let (mut depth, mut last) = (1u64, 0u8);
                    while depth > 0 {
                        let Some(c) = self.next()? else {
                            return Ok((None, comments));
                        };
                        match (last, c) {
                            (b'*', b'/') => {
                                depth -= 1;
                                last = 0;
                            }
                            (b'/', b'*') => {
                                depth += 1;
                                last = 0;
                            }
                            _ => last = c,
                        }
                    }
                }
                other => return Ok((Some(other), comments)),
            }
        }
    }
}

/// A save goes to a new path or over a regular file, never over anything else: a pipe, a
/// device, a socket, a folder or a symbolic link would be replaced by the rename with a
/// file (as root, `--record /dev/null` would replace the system's `/dev/null`).
pub fn refuse_special(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
        Ok(m) if m.file_type().is_file() => Ok(()),
        Ok(m) => Err(std::io::Error::other(format!(
            "not a regular file ({}): Volley saves only to a new file or over a regular file",
            crate::data::load::file_kind(&m.file_type())
        ))),
    }
}

/// Write `bytes` to `path` atomically (temporary file, fsync, rename).
pub fn save_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    save_atomically_checked(path, bytes, |_| Ok(()))
}

/// Saves made by this process so far: part of each temporary file's name, so two saves at
/// once (two threads) never share one.
static SAVES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Whether the process `pid` may still be writing a save: it is alive and runs the same
/// program as this one (a process id reused by another program does not count). Where that
/// cannot be known, it may be.
fn may_be_saving(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(unix)]
    {
        let Ok(p) = libc::pid_t::try_from(pid) else {
            return false;
        };
        if p <= 0 {
            return false;
        }
        // SAFETY: signal 0 only asks whether the process exists.
        if unsafe { libc::kill(p, 0) } != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH) {
            return false;
        }
        #[cfg(target_os = "linux")]
        {
            let comm = |who: &str| {
                std::fs::File::open(format!("/proc/{who}/comm"))
                    .and_then(|f| crate::data::load::read_bounded(f, 256))
                    .ok()
            };
            if let (Some(theirs), Some(ours)) = (comm(&pid.to_string()), comm("self")) {
                return theirs == ours;
            }
        }
        true
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// The process id in the name of a temporary file of a save of `name`:
/// `.{name}.{pid}.tmp` (older saves) or `.{name}.{pid}.{n}.tmp`.
fn temporary_of(file: &str, name: &str) -> Option<u32> {
    let middle = file.strip_prefix(&format!(".{name}."))?.strip_suffix(".tmp")?;
    let pid = match middle.split_once('.') {
        Some((pid, n)) if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => pid,
        Some(_) => return None,
        None => middle,
    };
    if pid.is_empty() || !pid.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// [`save_atomically`], with `check` run on the temporary file once it is written and synced,
/// before it replaces `path`: if `check` (or anything else) fails, the temporary file is
/// removed and `path` left as it was. `path` must be new or a regular file
/// ([`refuse_special`]). The temporary file is this save's own (process id and a count);
/// temporary files left by saves of processes that are gone are removed, those of saves
/// under way elsewhere are left alone.
pub fn save_atomically_checked(
    path: &Path,
    bytes: &[u8],
    check: impl FnOnce(&Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::io::Write;
    refuse_special(path)?;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "save".into());
    // Temporary files of saves that were interrupted (their process killed mid-write).
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if let Some(pid) = temporary_of(&n, &name)
                && !may_be_saving(pid)
            {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    let count = SAVES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{}.{count}.tmp", std::process::id()));
    let create = || std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp);
    let mut f = match create() {
        // Left by an earlier process with this process's id: stale.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(&tmp)?;
            create()?
        }
        r => r?,
    };
    let written = (|| {
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
