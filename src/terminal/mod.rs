//! A turn-by-turn game in the terminal: the legal actions numbered and grouped by who acts,
//! moves said relative to the unit, the battle log as it happens, `units` and `map` to see the
//! table, save and load at any moment, an autosave at the end of every player turn, and the
//! result explained at the end. Plain lines only: a screen reader reads all of it.

pub mod intent;
pub mod numbering;
pub mod view;
pub mod words;

use words::echo;

use crate::agents::{self, Agent};
use crate::battle::intent::{IntentRun, RunStep};
use crate::battle::{Action, Battle, Event, Phase, UnitId};
use crate::replay::Recording;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// Where the window's autosave goes (the terminal game's is named after its scenario:
/// [`autosave_for`]).
pub const AUTOSAVE: &str = "saves/autosave.ron";
/// Where `s` alone saves in a new game (a loaded game saves to the file it was loaded from,
/// and `s FILE` makes FILE the game's file).
pub const DEFAULT_SAVE: &str = "saves/game.ron";
/// A list longer than this many lines shows the units with many actions as one line each.
const LONG_LIST: usize = 24;
/// In a long list, a unit or commander with more actions than this is summed up in one line.
const GROUP_SHOWN: usize = 4;
/// The longest line of input read as a command, in bytes (a terminal's own line limit; a save's
/// file name with its folders fits). A longer line is refused, and nothing of it is kept.
pub const MAX_LINE: usize = 4096;
/// How much of a line longer than [`MAX_LINE`] is skipped (read, not kept) looking for its
/// end before the input is taken to be no lines of text at all (`< /dev/zero`) and treated as
/// ended: 1 GiB, a second or so.
pub const MAX_SKIP: u64 = 1 << 30;

/// What the terminal game needs besides the battle.
pub struct Game {
    pub battle: Battle,
    /// Events of setting up the battle (a new game), shown first.
    pub events: Vec<Event>,
    /// `human` or an agent name for each side.
    pub sides: [String; 2],
    pub seed: u64,
    pub recording: Recording,
    /// The scenario's brief (the tutorial's teaching text), if it has one.
    pub brief: String,
    /// The log of the game so far (a loaded save's, re-played), for `log N`.
    pub history: Vec<String>,
    /// The save the game was loaded from (no brief printed at the start; `s` alone and `q`
    /// save back to it).
    pub loaded: Option<PathBuf>,
    /// Where the game autosaves ([`autosave_for`] its scenario).
    pub autosave: PathBuf,
    /// Play by file: the file, its key and the side played here; the game stops and writes
    /// the file when the other side is to decide.
    pub turn_file: Option<TurnFile>,
}

/// A game played by file (`replay::turn_file`): where it goes, the key that signs it, the
/// side played at this terminal.
#[derive(Clone, Debug)]
pub struct TurnFile {
    pub path: PathBuf,
    pub key: String,
    pub side: usize,
}

/// The autosave of a game of `scenario`: `saves/autosave-<its file stem>.ron`, so games of
/// different scenarios played from one folder keep their own (the stem made safe for a file
/// name: letters, digits, `-` and `_`, at most 64 of them).
pub fn autosave_for(scenario: &str) -> PathBuf {
    let stem = Path::new(scenario)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let safe: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    let safe = if safe.is_empty() { "game".to_string() } else { safe };
    PathBuf::from(format!("saves/autosave-{safe}.ron"))
}

/// The re-played log of a recording: every event as the log describes it, from the start,
/// and each computer's plan before the action it came with, as the people at this terminal
/// (`readers`, the sides they play) were told it: a person playing against it as they heard
/// it, two people only words both heard alike, a game of computers whole. A person playing
/// against the computer reads only the events their side may see.
pub fn history(rec: &Recording, path: &Path, readers: &[usize]) -> Vec<String> {
    let Ok(mut b) = crate::replay::verify::start_battle(rec, path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, a) in rec.actions.iter().enumerate() {
        for p in rec.plans_before(i) {
            let told: Option<Vec<&str>> = readers.iter().map(|&v| p.said_to(Some(v))).collect();
            let text = match told.as_deref() {
                None => None,
                Some([]) => Some(p.text.as_str()),
                Some([one, rest @ ..]) => rest.iter().all(|r| r == one).then_some(*one),
            };
            if let Some(text) = text {
                out.push(crate::report::computer_says(
                    &b.sides[p.side.min(1)].name,
                    &p.agent,
                    text,
                ));
            }
        }
        match b.apply(a) {
            // A person playing against the computer reads only what their side may see.
            Ok(evs) => out.extend(
                evs.iter()
                    .filter(|e| match readers {
                        [me] => crate::view::PlayerView::side(&b, *me).may_be_told(e),
                        _ => true,
                    })
                    .map(|e| crate::report::line(&b, e)),
            ),
            Err(_) => break,
        }
    }
    out
}

/// The scenario's brief, read from its file ("" when it cannot be read).
pub fn brief_of(scenario: &Path) -> String {
    crate::data::load_ron::<crate::data::scenario::Scenario>(scenario)
        .map(|s| s.brief)
        .unwrap_or_default()
}

fn help(file: &str, autosave: &str) -> String {
    format!(
        "\
Commands (type one and press Enter):
  NUMBER      do the action with that number in the list
  l, list     show the list of actions again (a long one summed up by unit; `l all` whole)
  l WORD      list only the actions of the unit whose label is WORD, or of the units and
              commanders with a word of their name beginning WORD (a commander's name or
              his formation's: all his formation), e.g. `l 21st`, `l A`, `l Reed`,
              `l new hamp`, `l iron`; `l all WORD` never sums a long one up
  WHO: INTENT  in the command phase, order a unit or a commander's whole formation by
              what you want done; the order is rolled and each unit's best legal move made
              and said: `7th: to Hickory farm`, `Reed: range 12th Virginia`, `5th: reach b`,
              `Reed: face 21st`, `7th: behind orchard`, `A: beside 7th`, `Meredith: hold`
  go, go N    carry on the intents left short in an earlier turn (listed at the start of
              your command phase), or the Nth of them
  why WORD    why a unit of yours has no action now (suppressed, its order used, out of its
              commander's reach...), e.g. `why 7th`
  units, u    your units (position, facing, formation, stands, hits, status, orders left,
              nearest enemy), your commanders, the enemy units you know of, losses,
              objectives; on a big battle a formation a line (`units all`: every unit)
  units WORD  the units of a formation or a unit named by WORD, e.g. `units iron`
  map, m      a map of the table in characters, with its legend
  log N       the last N lines of the battle log (default 20)
  odds N      the dice of action N: the chance of each number of hits, or of an order passing
  brief       the scenario's brief
  s           save to {file};  s FILE  save to FILE (its folder must exist; then `s` and
              `q` save there)
  q           quit (asks whether to save first, to {file})
  help rules  the rules in a page: the turn, initiative, orders, charges, evading, guns, firing
  help, ?     this help
Positions are in cm: x to the east, y to the north. Facings are degrees counter-clockwise
from east (90° is north), with the compass point in words. Moves are said relative to the
unit (advance, retire, wheel, turn, about face), followed by where the unit ends.
Every player turn is autosaved to {autosave}; Ctrl-C saves there too, then quits.
Lines longer than {MAX_LINE} bytes are refused."
    )
}

/// `help rules`: the rules a player needs in a page, their numbers from the battle's own rules
/// file. Each paragraph names the book's section; `why WORD` and `odds N` say the rest at the
/// moment it matters.
pub fn rules_help(b: &Battle) -> String {
    let r = &b.rules;
    let cm = crate::report::words::cm;
    format!(
        "\
The turn (BPT \"Sequence of Play\"): each side in turn plays an initiative phase, a command
  phase, a charge phase and an end phase; then the other side. A turn of the game is both.
Initiative (BPT \"Initiative Phase\"): a unit of yours that sees an enemy within {init} cm may
  act on its own, once a turn, unless suppressed: fire at it, evade, charge it, or mount,
  dismount, limber or unlimber. Others wait for orders.
Orders (BPT \"Command Phase\"): a commander orders one of his units, or several of them as
  one formation: roll 2 dice, needing his command value or less; -1 for each further order
  he gives this turn, -1 for each 20 cm begun beyond the first 20 to the farthest unit, -1
  if the order allows a charge or entry into dense terrain. A pass gives each unit an action
  (a double 1: two, and it may charge); a fail ends that commander's orders this turn, and
  the army commander's failing ends everyone's; a double 6 is a blunder. An action is a
  move, a change of formation, or fire. `WHO: INTENT` orders by what you want done; `why
  WORD` says why a unit cannot act; `odds N` gives an order's chance.
Charges (BPT \"Charging\"): an ordered unit allowed to charge, or one on its initiative,
  charges an enemy it sees within {charge} cm. The charged unit answers first: fire at the
  charger, evade, or (cavalry) counter-charge; a charged gun may pivot to face. Friends within
  {support} cm may move in support. The melee is fought in the charge phase; the winner may
  consolidate, the loser falls back or is knocked out.
Evading (BPT \"Evading\"): a full move directly away from the enemy (or the charger). Exhausted
  units cannot evade; a gun needs its limber to.
Guns (BPT \"Limbered or Unlimbered\", Hardtack): guns move limbered and fire unlimbered;
  limbering and unlimbering are actions. An unlimbered gun is man-handled a short way or
  pivoted to a new facing. It fires what it has loaded (loading is an action): round shot
  bounces on through what is behind its target, shell bursts, canister (within {canister} cm)
  blasts through; a gun that is charged answers with canister.
Firing (BPT \"Firing\"): a unit fires at an enemy it sees inside its fire cone ({cone}° either
  side of its front) and within its weapon's range; cover helps a hit's save; a unit hit
  tests, and may be suppressed (it may not act until it rallies) or knocked out.
Winning: hold the objectives at the end, or break the enemy army (its losses against its
  breakpoint); `units` shows both, and the last screen explains the result.",
        init = cm(r.initiative.distance),
        charge = cm(r.charge.distance),
        support = cm(r.charge.support_distance),
        canister = cm(r.artillery.canister_range),
        cone = cm(r.visibility.fire_cone_half_deg),
    )
}

/// An intent order a person at this terminal might type first: their side's first commander
/// (by surname) to the side's first objective, `Reed: to Hickory farm`; None with no person
/// playing, or nothing to name.
fn intent_example(b: &Battle, sides: &[String; 2]) -> Option<String> {
    let side = (0..2).find(|&s| sides[s] == "human")?;
    let c = b.commanders.iter().find(|c| c.side == side && c.alive())?;
    let surname = c.name.rsplit(' ').next().unwrap_or(&c.name);
    let place = b
        .places(side)
        .into_iter()
        .find(|p| matches!(p.kind, crate::battle::intent::PlaceKind::Objective(_)))?;
    Some(format!("`{surname}: to {}`", place.name))
}

/// The most lines `l` prints unasked (a screenful).
const SCREEN_LINES: usize = 60;

/// Most lines of a computer's play told as they are; more are told in a few lines.
const HELD_SHOWN: usize = 25;

/// Ctrl-C (SIGINT) was pressed: the game saves and ends at its next step.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_interrupt(_: libc::c_int) {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// From now on, Ctrl-C does not kill the program but asks the terminal game to save and end
/// (a read waiting for input is interrupted: the handler is installed without `SA_RESTART`).
pub fn catch_interrupt() {
    #[cfg(unix)]
    // SAFETY: the handler only stores to an atomic; the struct is fully initialised.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_interrupt as *const () as libc::sighandler_t;
        action.sa_flags = 0;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
    }
}

fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Standard input for the terminal game (wrap it in a `BufReader`): a read waits in steps of a
/// quarter second, so Ctrl-C is seen whenever it comes (before a read starts too, or when the
/// signal went to another thread), not only when it interrupts a read under way. Nothing
/// else in the program may read standard input beside it.
pub struct Stdin;

impl std::io::Read for Stdin {
    #[cfg(unix)]
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if interrupted() {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            let mut fd = libc::pollfd {
                fd: 0,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            let ready = unsafe { libc::poll(&mut fd, 1, 250) };
            if ready < 0 {
                let e = std::io::Error::last_os_error();
                if e.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(e);
            }
            if ready == 0 || interrupted() {
                // Ctrl-C that came with the input (its handler ran as poll returned): first.
                continue;
            }
            // SAFETY: reading into the caller's buffer, at most its length.
            let n = unsafe { libc::read(0, buf.as_mut_ptr().cast(), buf.len()) };
            if n < 0 {
                let e = std::io::Error::last_os_error();
                match e.raw_os_error() {
                    Some(libc::EINTR) | Some(libc::EAGAIN) => continue,
                    // No standard input at all: as at its end.
                    Some(libc::EBADF) => return Ok(0),
                    _ => return Err(e),
                }
            }
            return Ok(n as usize);
        }
    }

    #[cfg(not(unix))]
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        std::io::Read::read(&mut std::io::stdin(), buf)
    }
}

/// One line of input, read in bounded pieces.
#[derive(Debug, PartialEq)]
enum Line {
    /// The text, trimmed.
    Text(String),
    /// A line that is not UTF-8.
    NotText,
    /// A line longer than [`MAX_LINE`] (read to its end, not kept).
    TooLong,
    /// No end of line within [`MAX_SKIP`] bytes: not lines of text.
    Endless,
    /// The end of the input (or an error reading it).
    Ended,
    /// Ctrl-C.
    Interrupted,
}

/// Reads one line of at most [`MAX_LINE`] bytes; a longer one is skipped to its end (at most
/// [`MAX_SKIP`] bytes) without keeping it.
fn read_line(input: &mut impl BufRead) -> Line {
    let mut buf: Vec<u8> = Vec::new();
    let mut skipped: Option<u64> = None;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
                if interrupted() {
                    return Line::Interrupted;
                }
                continue;
            }
            Err(_) => return Line::Ended,
        };
        if chunk.is_empty() {
            return match skipped {
                Some(_) => Line::TooLong,
                None if buf.is_empty() => Line::Ended,
                None => decode(buf),
            };
        }
        let (end, found) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        match skipped.as_mut() {
            Some(n) => *n += end as u64,
            None if buf.len() + end > MAX_LINE => skipped = Some((buf.len() + end) as u64),
            None => buf.extend_from_slice(&chunk[..end]),
        }
        if skipped.is_some() {
            buf = Vec::new();
        }
        input.consume(end + usize::from(found));
        if found {
            return match skipped {
                Some(_) => Line::TooLong,
                None => decode(buf),
            };
        }
        if skipped.is_some_and(|n| n > MAX_SKIP) {
            return Line::Endless;
        }
    }
}

fn decode(buf: Vec<u8>) -> Line {
    match String::from_utf8(buf) {
        Ok(s) => Line::Text(s.trim().to_string()),
        Err(_) => Line::NotText,
    }
}

/// A path as a message shows it.
fn shown(p: &Path) -> String {
    crate::data::text::printable(&p.display().to_string()).into_owned()
}

fn who(name: &str) -> String {
    if name == "human" {
        "a person at this terminal".into()
    } else {
        format!("the {name} agent")
    }
}

/// Save to `file`: a folder named in it must exist (only the game's own `saves/` is made).
fn save(rec: &Recording, path: &Path) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
        && dir != Path::new("saves")
    {
        return Err(format!("there is no folder {}: make it first", shown(dir)));
    }
    rec.save(path).map_err(|e| e.to_string())
}

/// The game's output: the first error writing it is kept (and nothing more is written), so
/// the game can save and end instead of panicking in `println!`.
struct Out<W: Write> {
    w: W,
    failed: Option<std::io::Error>,
}

impl<W: Write> Out<W> {
    fn line(&mut self, args: std::fmt::Arguments<'_>) {
        if self.failed.is_none()
            && let Err(e) = self.w.write_fmt(args).and_then(|()| self.w.write_all(b"\n"))
        {
            self.failed = Some(e);
        }
    }

    /// A prompt: no new line, shown at once.
    fn prompt(&mut self, args: std::fmt::Arguments<'_>) {
        if self.failed.is_none()
            && let Err(e) = self.w.write_fmt(args).and_then(|()| self.w.flush())
        {
            self.failed = Some(e);
        }
    }
}

/// A line of the game's output.
macro_rules! say {
    ($out:expr) => {
        $out.line(format_args!(""))
    };
    ($out:expr, $($t:tt)*) => {
        $out.line(format_args!($($t)*))
    };
}

// After `say!`, which it uses (a macro is seen below its definition).
pub mod online;
pub mod watch;

/// The reason of an I/O error without its number: "No space left on device".
pub fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Play a game through `input` (standard input in the game), printing to standard output.
pub fn run(game: Game, input: impl BufRead) -> Result<(), String> {
    run_with(game, input, std::io::stdout())
}

/// [`run`], printing to `output`. If the output cannot be written (a closed pipe, a full
/// disk), the game is autosaved and ends with an error that says so.
pub fn run_with(game: Game, mut input: impl BufRead, output: impl Write) -> Result<(), String> {
    let Game {
        battle: b,
        events,
        sides,
        seed,
        recording: mut rec,
        brief,
        history,
        loaded,
        autosave,
        turn_file,
    } = game;
    let out = Out {
        w: output,
        failed: None,
    };
    rec.players = Some(sides.clone());
    let mut bots: [Option<Box<dyn Agent>>; 2] = [None, None];
    for s in 0..2 {
        if sides[s] != "human" {
            bots[s] = Some(agents::by_name(&sides[s], seed, s)?);
        }
    }
    // The game's file: where `s` alone and `q` save.
    let file = loaded.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_SAVE));
    let auto = shown(&autosave);
    let mut g = Session {
        b,
        rec,
        history,
        bots,
        brief,
        file,
        autosave,
        auto,
        show_list: true,
        pending: None,
        standing: Default::default(),
        queue: Vec::new(),
        told_standing: None,
        numbering: numbering::Numbering::default(),
        held: None,
        plans: Vec::new(),
        out,
    };
    if let Some(over) = g.open(&sides, &events, loaded.is_none()) {
        return over;
    }
    while !g.b.is_over() {
        if let Some(e) = g.out.failed.take() {
            let kept = g.keep();
            return Err(format!("cannot write the output: {}; {kept}", io_reason(&e)));
        }
        if interrupted() {
            let kept = g.keep();
            say!(g.out, "\n  Interrupted (Ctrl-C): {}", kept);
            return Ok(());
        }
        let legal = g.b.legal_actions();
        let side = g.b.actor();
        if let Some(tf) = turn_file.as_ref().filter(|tf| tf.side != side) {
            return g.pass_file(tf);
        }
        if g.pending.as_ref().is_some_and(|p| p.run.side == side) {
            g.drive_intent();
            continue;
        }
        if g.pending.is_none() && !g.queue.is_empty() {
            let next = g.queue.remove(0);
            g.carry_on(next);
            continue;
        }
        if let Some(a) = g.bot_choice(side, &legal) {
            g.apply_action(&a, false);
            continue;
        }
        let choice = match g.human_choice(&mut input, side, &legal) {
            Next::Act(i) => i,
            Next::Again => continue,
            Next::End(result) => return result,
        };
        g.apply(&legal, choice);
    }
    if let Some(tf) = &turn_file {
        // The other player reads the end too.
        crate::replay::turn_file::write(&tf.path, &g.rec, &tf.key)?;
        say!(
            g.out,
            "The game is over; {} holds its end: send it to the other player.",
            shown(&tf.path)
        );
    }
    g.finish()
}

/// A game in the terminal: the battle, its record and log, the computer players, the brief,
/// the game's file (where `s` alone and `q` save), the autosave (and how it is shown), whether
/// the list of actions is due, and the output.
struct Session<W: Write> {
    b: Battle,
    rec: Recording,
    history: Vec<String>,
    bots: [Option<Box<dyn Agent>>; 2],
    brief: String,
    file: PathBuf,
    autosave: PathBuf,
    auto: String,
    show_list: bool,
    /// An intent in play that waits for the other side's opportunity fire.
    pending: Option<Pending>,
    /// Intents left short, offered again in their side's next command phases (`go`).
    standing: crate::battle::intent::Standing,
    /// Standing intents `go` carries on, after the one pending.
    queue: Vec<crate::battle::intent::StandingIntent>,
    /// The command phase whose standing intents were told: (player turn, side).
    told_standing: Option<(u32, usize)>,
    /// The phase's action numbers.
    numbering: numbering::Numbering,
    /// The computer's lines since the person last decided, with their events (told by
    /// `tell_held` when the person is next asked).
    held: Option<Vec<(Option<Event>, String)>>,
    /// The computer's plan lines among them (a summary of a long turn still tells them).
    plans: Vec<String>,
    out: Out<W>,
}

/// An intent in play (`WHO: INTENT`): the run, who acts in words, and the tally for its
/// closing line.
struct Pending {
    run: IntentRun,
    who: String,
    tally: crate::battle::intent::Tally,
}

/// What the player's line comes to.
enum Next {
    /// Play the legal action of this number.
    Act(usize),
    /// Nothing to play: ask again.
    Again,
    /// The game ends here.
    End(Result<(), String>),
}

impl<W: Write> Session<W> {
    /// The side of the person playing against the computer here, if that is the game (none
    /// in hot-seat, none when computers play both sides).
    fn person(&self) -> Option<usize> {
        match (self.bots[0].is_none(), self.bots[1].is_none()) {
            (true, false) => Some(0),
            (false, true) => Some(1),
            _ => None,
        }
    }

    /// The other side is to decide: the game is written to the turn file, signed, for the
    /// other player.
    fn pass_file(&mut self, tf: &TurnFile) -> Result<(), String> {
        crate::replay::turn_file::write(&tf.path, &self.rec, &tf.key)?;
        let other = &self.b.sides[1 - tf.side].name;
        say!(
            self.out,
            "\n{other} is to decide: the game is written to {}, signed. Send it to the other player, who goes on with: volley play --turn-file {} --terminal (with the same key).",
            shown(&tf.path),
            shown(&tf.path)
        );
        match self.out.failed.take() {
            Some(e) => Err(format!("cannot write the output: {}", io_reason(&e))),
            None => Ok(()),
        }
    }

    /// Saves to the autosave and says how it went, for a game that ends without `q`.
    fn keep(&self) -> String {
        let auto = &self.auto;
        match save(&self.rec, &self.autosave) {
            Ok(()) => format!("the game is saved to {auto}. Continue it with: volley play --load {auto} --terminal"),
            Err(e) => format!("the game could not be saved to {auto}: {e}"),
        }
    }

    /// The title, who plays each side, the brief (a new game's) and the set-up's events; the
    /// result, if the game is already over (nothing more to play), else how to play.
    fn open(&mut self, sides: &[String; 2], events: &[Event], new: bool) -> Option<Result<(), String>> {
        let Self {
            b,
            out,
            history,
            brief,
            auto,
            ..
        } = self;
        say!(out, "{}", b.title);
        for (side, player) in b.sides.iter().zip(sides) {
            say!(out, "{} is played by {}.", side.name, who(player));
        }
        say!(out, "Fought in {}.", view::conditions(b));
        if new && !brief.is_empty() {
            say!(out, "\nBrief:\n{brief}");
        }
        say!(out);
        for e in events {
            let line = crate::report::line(b, e);
            say!(out, "  {line}");
            history.push(line);
        }
        if b.is_over() {
            say!(out, "This game is already over.");
            for line in view::result(b) {
                say!(out, "{line}");
            }
            return Some(match out.failed.take() {
                Some(e) => Err(format!("cannot write the output: {}", io_reason(&e))),
                None => Ok(()),
            });
        }
        say!(
            out,
            "Type a number to act, or a command: help, brief, units, map, log, odds N, l WORD, why WORD, s (save), q (quit). The game autosaves to {auto}."
        );
        if let Some(example) = intent_example(b, sides) {
            say!(
                out,
                "In your command phase, order by what you want done: {example} (`help` says how; `help rules` the rules in a page)."
            );
        }
        None
    }

    /// The computer player of `side`, if it has one, chooses among `legal` (its reason goes
    /// to the log).
    fn bot_choice(&mut self, side: usize, legal: &[Action]) -> Option<Action> {
        // Its plan is said of what the person's side can see.
        let viewer = self.person();
        let bot = self.bots[side].as_mut()?;
        let chosen = bot.choose_action(&self.b, legal);
        let news = bot.plan_news(&self.b, viewer);
        // The game's record keeps it whole and as the other side heard it (a save goes on with it).
        if let Some((whole, to_other)) = news.as_ref().and_then(|_| bot.plan_kept(&self.b, side)) {
            self.rec.note_plan(side, bot.name(), whole, to_other);
        }
        // A plan is a line of its own, always told whole (a long turn's summary keeps it).
        let name = bot.name();
        for (plan, why) in news
            .map(|n| (true, n))
            .into_iter()
            // Its reason only if it names no unit hidden from the person (`view::told`).
            .chain(
                bot.reason()
                    .filter(|r| viewer.is_none_or(|v| crate::view::PlayerView::side(&self.b, v).may_read(r)))
                    .map(|r| (false, r)),
            )
        {
            let line = crate::report::computer_says(&self.b.sides[side].name, name, &why);
            self.history.push(line.clone());
            if plan {
                self.plans.push(line.clone());
            }
            self.held.get_or_insert_with(Vec::new).push((None, line));
        }
        self.held.get_or_insert_with(Vec::new);
        self.show_list = true;
        Some(chosen)
    }

    /// What the computer did since the person last decided: its lines as they are, or, when
    /// there are more than [`HELD_SHOWN`], what it did in a few lines ([`crate::report::recap`])
    /// with the log one command away. Said to `viewer` (the side about to decide), of what it
    /// may know.
    fn tell_held(&mut self, viewer: Option<usize>) {
        let Some(held) = self.held.take() else {
            return;
        };
        let plans = std::mem::take(&mut self.plans);
        if held.len() <= HELD_SHOWN {
            for (_, line) in &held {
                say!(self.out, "  {line}");
            }
            return;
        }
        say!(
            self.out,
            "  While the computer played ({} lines; `log {}` shows them all):",
            held.len(),
            held.len()
        );
        for line in plans {
            say!(self.out, "    {line}");
        }
        let told = crate::report::recap::recap(&self.b, held.iter().map(|(e, t)| (e.as_ref(), t.as_str())), viewer);
        for line in told {
            say!(self.out, "    {line}");
        }
    }

    /// The person playing `side`: the list of `legal` actions (when due), the prompt, and
    /// their line: a number to play, a command, or the input's end.
    fn human_choice(&mut self, input: &mut impl BufRead, side: usize, legal: &[Action]) -> Next {
        self.tell_held(Some(side));
        let nums = self.numbering.of(&self.b, legal);
        let b = &self.b;
        if self.show_list {
            say!(
                self.out,
                "\n{} to act (turn {} of {}, {:?} phase, {}):",
                b.sides[side].name,
                b.game_turn,
                b.turn_limit,
                b.phase,
                view::conditions(b)
            );
            for line in list_lines_numbered(b, legal, None, false, &nums) {
                say!(self.out, "{line}");
            }
            self.show_list = false;
        }
        self.tell_standing(side);
        let b = &self.b;
        self.out.prompt(format_args!(
            "{}, turn {}, {:?}> ",
            b.sides[side].name, b.game_turn, b.phase
        ));
        if self.out.failed.is_some() {
            // Nobody sees the prompt: save and end (at the top of the loop), not wait.
            return Next::Again;
        }
        let line = match self.read_command(input) {
            Ok(line) => line,
            Err(next) => return next,
        };
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c.to_lowercase(), a.trim()),
            None => (line.to_lowercase(), ""),
        };
        if let Some(next) = self.command(&cmd, arg, input, side, (legal, &nums)) {
            return next;
        }
        if line.contains(':') {
            self.intent(&line, side);
            return Next::Again;
        }
        self.number(&line, side, legal, &nums)
    }

    /// The player's next line of text, or what to do instead (the input ended, or the line
    /// was too long or not text).
    fn read_command(&mut self, input: &mut impl BufRead) -> Result<String, Next> {
        match read_line(input) {
            Line::Ended if interrupted() => Err(Next::Again),
            Line::Ended => {
                say!(self.out);
                let kept = self.keep();
                say!(self.out, "The input ended: {}", kept);
                Err(Next::End(Ok(())))
            }
            Line::Interrupted => Err(Next::Again),
            Line::Endless => {
                say!(
                    self.out,
                    "\n  That line is too long: no end of line in {} MiB, so the input is not lines of text and is taken as ended.",
                    MAX_SKIP >> 20
                );
                let kept = self.keep();
                say!(self.out, "The input ended: {}", kept);
                Err(Next::End(Ok(())))
            }
            Line::TooLong => {
                say!(
                    self.out,
                    "  That line is too long (a command is at most {MAX_LINE} bytes); nothing was done. Type `help` for the commands."
                );
                Err(Next::Again)
            }
            Line::NotText => {
                say!(
                    self.out,
                    "  That line is not text (UTF-8); nothing was done. Type `help` for the commands."
                );
                Err(Next::Again)
            }
            Line::Text(l) => Ok(l),
        }
    }

    /// A command (`cmd` with its argument `arg`), or None if `cmd` is none.
    fn command(
        &mut self,
        cmd: &str,
        arg: &str,
        input: &mut impl BufRead,
        side: usize,
        (legal, nums): (&[Action], &[usize]),
    ) -> Option<Next> {
        let b = &self.b;
        match (cmd, arg) {
            ("", _) => {}
            ("help" | "?" | "h", "rules") => {
                say!(self.out, "{}", rules_help(b));
            }
            ("help" | "?" | "h", _) => {
                say!(self.out, "{}", help(&shown(&self.file), &self.auto));
            }
            ("brief", _) => {
                if self.brief.is_empty() {
                    say!(self.out, "  This scenario has no brief.");
                } else {
                    say!(self.out, "{}", self.brief);
                }
            }
            ("units" | "u", word) => {
                for l in view::units_asked(b, side, word) {
                    say!(self.out, "{l}");
                }
            }
            ("map" | "m", _) => {
                for l in view::map(b, side, view::terminal_width()) {
                    say!(self.out, "{l}");
                }
            }
            ("log", n) => self.show_log(n),
            ("odds", n) => match n.parse::<usize>().ok().and_then(|n| nums.iter().position(|&x| x == n)) {
                Some(i) => {
                    say!(self.out, "  {}. {}", nums[i], words::action_text(b, &legal[i]));
                    for l in view::odds_lines(b, &legal[i]) {
                        say!(self.out, "  {l}");
                    }
                }
                None => say!(
                    self.out,
                    "  `odds N` wants the number of an action in the list (`l` lists them)."
                ),
            },
            ("go", which) => {
                self.go(side, which);
                return Some(Next::Again);
            }
            ("why", word) => {
                for l in why_lines(b, legal, side, word) {
                    say!(self.out, "{l}");
                }
            }
            ("l" | "list", "all") => {
                for l in list_lines_numbered(b, legal, None, true, nums) {
                    say!(self.out, "{l}");
                }
            }
            ("l" | "list", filter) => {
                // `l all WORD`: WORD's whole list, however long.
                let (whole, filter) = match filter.strip_prefix("all ") {
                    Some(rest) => (true, rest.trim()),
                    None => (false, filter),
                };
                let f = (!filter.is_empty()).then_some(filter);
                let mut lines = list_lines_numbered(b, legal, f, true, nums);
                // A screenful at most: a longer list is summed up by unit, `l all` whole.
                if !whole && lines.len() > SCREEN_LINES {
                    let n = lines.len();
                    lines = list_lines_numbered(b, legal, f, false, nums);
                    lines.push(match f {
                        None => format!("(`l all` lists all {n} lines)"),
                        Some(f) => format!("(`l all {}` lists all {n} lines)", echo(f)),
                    });
                }
                for l in lines {
                    say!(self.out, "{l}");
                }
            }
            ("s" | "save", to) => self.save_to(to),
            ("q" | "quit", _) => return Some(self.quit(input)),
            _ => return None,
        }
        Some(Next::Again)
    }

    /// `log N`: the last N lines of the log (20 if no N).
    fn show_log(&mut self, n: &str) {
        let n = if n.is_empty() { Ok(20) } else { n.parse::<usize>() };
        match n {
            Ok(n) => {
                if self.history.is_empty() {
                    say!(self.out, "  The log is empty.");
                }
                for l in &self.history[self.history.len().saturating_sub(n)..] {
                    say!(self.out, "  {l}");
                }
            }
            Err(_) => say!(self.out, "  `log N` wants a number of lines, e.g. `log 30`."),
        }
    }

    /// `s [FILE]`: save to the file (the game's own if none), which becomes the game's file.
    fn save_to(&mut self, to: &str) {
        let to = if to.is_empty() {
            self.file.clone()
        } else {
            PathBuf::from(to)
        };
        match save(&self.rec, &to) {
            Ok(()) => {
                let t = shown(&to);
                say!(
                    self.out,
                    "  Saved to {t}. Continue it later with: volley play --load {t} --terminal"
                );
                self.file = to;
            }
            Err(e) => say!(self.out, "  could not save to {}: {e}", echo(&to.display().to_string())),
        }
    }

    /// `q`: save and quit, quit without saving, or go on playing.
    fn quit(&mut self, input: &mut impl BufRead) -> Next {
        let f = shown(&self.file);
        say!(
            self.out,
            "  Save before quitting? y: save to {f} and quit; n: quit without saving; anything else: go on playing."
        );
        self.out.prompt(format_args!("save? "));
        match read_line(input) {
            Line::Text(a) if a.eq_ignore_ascii_case("y") || a.eq_ignore_ascii_case("yes") => {
                match save(&self.rec, &self.file) {
                    Ok(()) => {
                        say!(
                            self.out,
                            "  Saved to {f}. Continue it later with: volley play --load {f} --terminal"
                        );
                        return Next::End(
                            self.out
                                .failed
                                .take()
                                .map_or(Ok(()), |e| Err(format!("cannot write the output: {}", io_reason(&e)))),
                        );
                    }
                    Err(e) => say!(self.out, "  could not save to {f}: {e}; the game goes on."),
                }
            }
            Line::Text(a) if a.eq_ignore_ascii_case("n") || a.eq_ignore_ascii_case("no") => {
                say!(self.out, "  Quit without saving.");
                return Next::End(Ok(()));
            }
            Line::Ended | Line::Endless => {
                let kept = self.keep();
                say!(self.out, "\n  The input ended: {}", kept);
                return Next::End(Ok(()));
            }
            Line::Interrupted => return Next::Again,
            _ => say!(self.out, "  The game goes on."),
        }
        Next::Again
    }

    /// A line that is no command: the number of an action to play, or what is wrong with it.
    /// A number typed: the action listed under it this phase ([`numbering::Numbering`]).
    fn number(&mut self, line: &str, side: usize, legal: &[Action], nums: &[usize]) -> Next {
        let b = &self.b;
        match line.parse::<usize>() {
            Ok(n) => match nums.iter().position(|&x| x == n) {
                Some(i) => {
                    let line = format!("{} chose {n}: {}", b.sides[side].name, words::action_text(b, &legal[i]));
                    say!(self.out, "  {line}");
                    self.history.push(line);
                    self.show_list = true;
                    Next::Act(i)
                }
                None => {
                    match self.numbering.action(n) {
                        Some(gone) => say!(
                            self.out,
                            "  Action {n} ({}) is no longer possible; `l` lists what is.",
                            words::action_text(b, gone)
                        ),
                        None => say!(
                            self.out,
                            "  There is no action {n} in this phase's list; `l` lists them."
                        ),
                    }
                    Next::Again
                }
            },
            Err(_) => {
                say!(
                    self.out,
                    "  `{}` is not a command. Type a number from the list, or `help`.",
                    echo(line)
                );
                Next::Again
            }
        }
    }

    /// Play `legal[choice]`: record it, print and log its events, autosave at a new turn or
    /// the game's end; or say why the rules refuse it.
    fn apply(&mut self, legal: &[Action], choice: usize) {
        self.apply_action(&legal[choice], false);
    }

    /// Play `a` as [`Session::apply`] does; `quiet_moves` leaves out the line of a unit's
    /// ordered move (an intent has said it). Whether the rules took it.
    fn apply_action(&mut self, a: &Action, quiet_moves: bool) -> bool {
        // A person playing against the computer is told only what their side may see (as the
        // server tells a seat, `view::events::visible`); the record keeps everything.
        let person = self.person();
        let Self {
            b,
            rec,
            history,
            out,
            autosave,
            auto,
            held,
            ..
        } = self;
        match b.apply(a) {
            Ok(evs) => {
                rec.push(b, a, &evs);
                let view = person.map(|s| crate::view::PlayerView::side(b, s));
                for e in evs.iter().filter(|e| view.as_ref().is_none_or(|v| v.may_be_told(e))) {
                    if let Some(held) = held.as_mut() {
                        let line = crate::report::line(b, e);
                        history.push(line.clone());
                        held.push((Some(e.clone()), line));
                        continue;
                    }
                    if quiet_moves
                        && matches!(
                            crate::report::facts(e).summary.deed,
                            Some(crate::report::Deed::Moved(_))
                        )
                    {
                        continue;
                    }
                    let line = crate::report::line(b, e);
                    say!(out, "  {line}");
                    history.push(line);
                }
                let new_turn = evs.iter().any(|e| {
                    matches!(
                        crate::report::facts(e).mark,
                        Some(
                            crate::report::Mark::PhaseStarted {
                                phase: Phase::Initiative,
                                ..
                            } | crate::report::Mark::GameOver
                        )
                    )
                });
                if new_turn && let Err(e) = save(rec, autosave) {
                    say!(out, "  (autosave to {auto} failed: {e})");
                }
                true
            }
            Err(r) => {
                say!(out, "  refused: {r}");
                false
            }
        }
    }

    /// `WHO: INTENT`: the intent played out, the order and each unit's move through the
    /// rules as a numbered action would be, each said in a line.
    fn intent(&mut self, line: &str, side: usize) {
        let typed = match intent::parse(&self.b, side, line) {
            Ok(t) => t,
            Err(why) => {
                say!(self.out, "  {why}.");
                return;
            }
        };
        self.start_intent(side, typed.units, typed.who, typed.intent);
    }

    /// An intent said and put in play ([`Session::drive_intent`]).
    fn start_intent(&mut self, side: usize, units: Vec<UnitId>, who: String, it: crate::battle::intent::Intent) {
        let head = format!("{who}: {}", it.words(&self.b));
        say!(self.out, "  {head}");
        self.history.push(head);
        let run = match IntentRun::new(&self.b, side, &units, it) {
            Ok(r) => r,
            Err(why) => {
                say!(self.out, "  {why}.");
                return;
            }
        };
        // The list is one `l` away (an intent's lines and a long list would not fit a screen).
        self.show_list = false;
        self.pending = Some(Pending {
            run,
            who,
            tally: crate::battle::intent::Tally::new(&units),
        });
        self.drive_intent();
    }

    /// A standing intent carried on (`go`), if its side may still.
    fn carry_on(&mut self, s: crate::battle::intent::StandingIntent) {
        let side = s.side;
        if self.b.actor() != side || self.b.phase != crate::battle::Phase::Command || self.b.active != side {
            self.queue.clear();
            return;
        }
        self.start_intent(side, s.units, s.who, s.intent);
    }

    /// `go` / `go N`: carry on all the standing intents, or the Nth.
    fn go(&mut self, side: usize, which: &str) {
        let offered = self.standing.offered(&self.b, side);
        if offered.is_empty() {
            say!(
                self.out,
                "  No intent stands from an earlier turn (an intent left short is offered again in your next command phase)."
            );
            return;
        }
        let chosen: Vec<crate::battle::intent::StandingIntent> = match which.trim() {
            "" | "all" => offered,
            n => match n.parse::<usize>().ok().filter(|&i| i >= 1 && i <= offered.len()) {
                Some(i) => vec![offered[i - 1].clone()],
                None => {
                    say!(
                        self.out,
                        "  `go` carries on every standing intent; `go N` the Nth (1 to {}).",
                        offered.len()
                    );
                    return;
                }
            },
        };
        self.queue = chosen;
        let first = self.queue.remove(0);
        self.carry_on(first);
    }

    /// At the first prompt of `side`'s command phase, its standing intents, numbered for `go`.
    fn tell_standing(&mut self, side: usize) {
        let key = (self.b.player_turn, side);
        if self.told_standing == Some(key) {
            return;
        }
        let offered = self.standing.offered(&self.b, side);
        if offered.is_empty() {
            return;
        }
        self.told_standing = Some(key);
        say!(
            self.out,
            "Standing intents (`go` carries them all on, `go N` one; a new intent for their units replaces one):"
        );
        for (i, st) in offered.iter().enumerate() {
            say!(
                self.out,
                "  {}. {}",
                i + 1,
                crate::battle::intent::Standing::words(&self.b, st)
            );
        }
    }

    /// Plays the intent in hand on: to its end, or until the other side acts first (its
    /// opportunity fire), when it waits in `pending` and goes on at the next turn to act.
    fn drive_intent(&mut self) {
        let Some(mut p) = self.pending.take() else {
            return;
        };
        self.tell_held(Some(p.run.side));
        loop {
            match p.run.next(&self.b) {
                RunStep::Order(a) => {
                    if !self.apply_action(&a, true) {
                        p.run.refused();
                    }
                }
                RunStep::Act(a, m) => {
                    let line = crate::report::intent::intent_line(&self.b, &p.run.intent, &m);
                    say!(self.out, "  {line}");
                    self.history.push(line);
                    if self.apply_action(&a, true) {
                        p.tally.step(m.unit, true, m.met());
                    } else {
                        p.run.refused();
                    }
                }
                RunStep::Stays(m) => {
                    p.tally.step(m.unit, false, m.met());
                    let line = crate::report::intent::intent_line(&self.b, &p.run.intent, &m);
                    say!(self.out, "  {line}");
                }
                RunStep::Unordered(why) => say!(self.out, "  {why}."),
                RunStep::Wait => {
                    say!(
                        self.out,
                        "  ({}'s intent waits while the enemy may fire on the unit that moved.)",
                        p.who
                    );
                    self.pending = Some(p);
                    return;
                }
                RunStep::Over(why) => {
                    let line = p.tally.closing(&p.who, &p.run.intent, &why);
                    let hint = if matches!(p.run.intent, crate::battle::intent::Intent::Hold) {
                        ""
                    } else {
                        " (`l` lists the actions.)"
                    };
                    say!(self.out, "  {line}{hint}");
                    self.standing.ended(&self.b, &p.run, &p.who, &p.tally);
                    return;
                }
            }
        }
    }

    /// The result, at the game's end; an output that failed on the way says so.
    fn finish(mut self) -> Result<(), String> {
        self.tell_held(None);
        let (b, out, auto) = (&self.b, &mut self.out, &self.auto);
        say!(out);
        for line in view::result(b) {
            say!(out, "{line}");
        }
        match out.failed.take() {
            Some(e) => Err(format!(
                "cannot write the output: {}; the game is saved to {auto}",
                io_reason(&e)
            )),
            None => Ok(()),
        }
    }
}

pub use crate::battle::intent::name_matches;

/// `why WORD`: for each of `side`'s units named by WORD (its label, or a word of its name),
/// why it has no action in `legal` now, or how many it has.
pub fn why_lines(b: &Battle, legal: &[Action], side: usize, word: &str) -> Vec<String> {
    const SHOWN: usize = 8;
    let word = word.trim();
    if word.is_empty() {
        return vec!["  `why WORD` says why a unit of yours has no action now, e.g. `why 7th`.".into()];
    }
    let mine = || b.units.iter().filter(|u| u.side == side);
    let by_label: Vec<&crate::battle::state::Unit> = mine().filter(|u| view::label(b, side, u.id) == word).collect();
    let named: Vec<&crate::battle::state::Unit> = if by_label.is_empty() {
        mine().filter(|u| name_matches(&u.name, word)).collect()
    } else {
        by_label
    };
    if named.is_empty() {
        return vec![format!("  None of your units is named `{}`.", echo(word))];
    }
    let mut out = Vec::new();
    if named.len() > 1 {
        out.push(format!("  {} of your units match `{}`:", named.len(), echo(word)));
    }
    for u in named.iter().take(SHOWN) {
        let label = view::label(b, side, u.id);
        out.push(match b.why_idle(u.id, legal) {
            // "A 5th New Hampshire sees no enemy ...", not its name twice.
            Some(r) if r.reason.starts_with(&u.name) => format!("  {label} {} ({}).", r.reason, r.rule),
            Some(r) => format!("  {label} {}: {} ({}).", u.name, r.reason, r.rule),
            None => {
                let own: Vec<&Action> = legal.iter().filter(|a| a.references().0.contains(&u.id)).collect();
                // Only orders naming it: they are its commanders' actions, listed under them.
                let by = own.iter().find_map(|a| match a {
                    Action::Order { commander, .. } => Some(*commander),
                    _ => None,
                });
                match by {
                    Some(c) if own.iter().all(|a| matches!(a, Action::Order { .. })) => {
                        let name = &b.commander(c).name;
                        let surname = name.rsplit(' ').next().unwrap_or(name);
                        format!("  {label} {} may be ordered by {name}: type `l {surname}`.", u.name)
                    }
                    _ => format!(
                        "  {label} {} has {}: type `l {label}`.",
                        u.name,
                        crate::report::count(own.len() as i64, "action")
                    ),
                }
            }
        });
    }
    if named.len() > SHOWN {
        out.push(format!(
            "  ... and {} more: type more of the name.",
            named.len() - SHOWN
        ));
    }
    out
}

/// The list of actions, numbered as `legal` is, grouped by the unit or commander acting.
/// `filter` keeps the group of the unit whose label it is, else the groups it names
/// ([`name_matches`]); unless `full`, a long list sums up each group of many actions in one
/// line.
pub fn list_lines(b: &Battle, legal: &[Action], filter: Option<&str>, full: bool) -> Vec<String> {
    let nums: Vec<usize> = (0..legal.len()).collect();
    list_lines_numbered(b, legal, filter, full, &nums)
}

/// [`list_lines`], each action under its number in `nums` (the phase's stable numbers).
pub fn list_lines_numbered(
    b: &Battle,
    legal: &[Action],
    filter: Option<&str>,
    full: bool,
    nums: &[usize],
) -> Vec<String> {
    // Groups in the order they first appear; the phase's own actions (end phase, pass) last.
    let mut groups: Vec<(Option<String>, Vec<usize>)> = Vec::new();
    for (i, a) in legal.iter().enumerate() {
        if legal[..i].contains(a) {
            continue; // The same action twice: listed once.
        }
        let key = words::actor_name(b, a);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    // Grouped by formation (the commander and the units of his command), the phase's own last.
    let hq = |v: &[usize]| -> Option<u32> {
        let a = &legal[v[0]];
        let (units, commander) = a.references();
        match a {
            Action::Order { .. } | Action::CommanderMove { .. } => commander,
            _ => units
                .first()
                .filter(|u| (**u as usize) < b.units.len())
                .map(|&u| b.unit(u).hq)
                .or(commander),
        }
    };
    groups.sort_by_key(|(k, v)| (k.is_none(), hq(v)));
    // A commander's formation orders before his single regiments' (BPT "Formation Orders").
    for (_, v) in &mut groups {
        v.sort_by_key(|&i| !matches!(&legal[i], Action::Order { units, .. } if units.len() > 1));
    }
    let header = |name: &str, first: &Action| -> String {
        let (units, _) = first.references();
        match first {
            Action::Order { .. } | Action::CommanderMove { .. } => format!("@ {name}:"),
            _ => match units.first().filter(|u| (**u as usize) < b.units.len()) {
                Some(&u) => {
                    let unit = b.unit(u);
                    format!(
                        "{} {name} ({}, {} stand{}, facing {}):",
                        view::label(b, b.actor(), u),
                        unit.formation,
                        unit.stands,
                        if unit.stands == 1 { "" } else { "s" },
                        words::facing_text(unit.pose.facing)
                    )
                }
                None => format!("{name}:"),
            },
        }
    };
    let label_is = |key: &Option<String>, v: &[usize], f: &str| -> bool {
        key.is_some()
            && legal[v[0]]
                .references()
                .0
                .first()
                .filter(|u| (**u as usize) < b.units.len())
                .is_some_and(|&u| view::label(b, b.actor(), u) == f && !matches!(legal[v[0]], Action::Order { .. }))
    };
    // A unit's label names it alone; else a word of a name that begins with what was typed,
    // a commander's name or his formation's naming all of it (his units and his juniors').
    // Only a word naming one commander stands for his formation ("Meredith", "iron"); one
    // naming several ("brig") lists what it names, each on its own.
    let formation = filter.and_then(|f| b.formation_named(b.actor(), f));
    let under = |h: Option<u32>| {
        h.filter(|c| (*c as usize) < b.commanders.len())
            .zip(formation)
            .is_some_and(|(h, c)| b.in_chain(h, c))
    };
    let kept: Vec<&(Option<String>, Vec<usize>)> = match filter {
        None => groups.iter().collect(),
        Some(f) if groups.iter().any(|(k, v)| label_is(k, v, f)) => {
            groups.iter().filter(|(k, v)| label_is(k, v, f)).collect()
        }
        Some(f) => groups
            .iter()
            .filter(|(k, v)| k.as_deref().is_some_and(|name| name_matches(name, f) || under(hq(v))))
            .collect(),
    };
    if kept.is_empty() {
        return vec![format!(
            "  No unit or commander in the list matches `{}`. Type `l` for the whole list.",
            echo(filter.unwrap_or(""))
        )];
    }
    let total: usize = kept.iter().map(|(_, v)| v.len() + 1).sum();
    let collapse = !full && total > LONG_LIST;
    let mut out = Vec::new();
    if let Some(f) = filter.filter(|_| kept.len() > 1) {
        out.push(match formation {
            None => format!("  `{}` matches {} units and commanders:", echo(f), kept.len()),
            Some(c) => format!(
                "  `{}` names {}: {} units and commanders with actions:",
                echo(f),
                crate::report::intent::formation_title(b, c),
                kept.len()
            ),
        });
    }
    let commanders = b.commanders.iter().filter(|c| c.side == b.actor()).count();
    let mut last_hq = None;
    for (key, v) in kept {
        let h = hq(v);
        if commanders > 1 && key.is_some() && h != last_hq {
            if let Some(c) = h.filter(|c| (*c as usize) < b.commanders.len()) {
                out.push(format!("-- {} --", crate::report::intent::formation_title(b, c)));
            }
            last_hq = h;
        }
        match key {
            Some(name) => out.push(header(name, &legal[v[0]])),
            None => out.push("The phase:".into()),
        }
        if collapse && key.is_some() && v.len() > GROUP_SHOWN {
            let mut kinds: Vec<(&str, usize)> = Vec::new();
            for &i in v {
                let k = words::kind_word(&legal[i]);
                match kinds.iter_mut().find(|(w, _)| *w == k) {
                    Some((_, n)) => *n += 1,
                    None => kinds.push((k, 1)),
                }
            }
            let summary: Vec<String> = kinds
                .iter()
                .map(|(k, n)| if *n == 1 { format!("1 {k}") } else { format!("{n} {k}s") })
                .collect();
            let name = key.as_deref().unwrap_or("");
            let unit_label = legal[v[0]]
                .references()
                .0
                .first()
                .filter(|_| !matches!(legal[v[0]], Action::Order { .. } | Action::CommanderMove { .. }))
                .filter(|u| (**u as usize) < b.units.len())
                .map(|&u| view::label(b, b.actor(), u));
            out.push(format!(
                "        {} (numbers {} to {}): type `l {}` to list them",
                summary.join(", "),
                v.iter().map(|&i| nums[i]).min().unwrap_or(0),
                v.iter().map(|&i| nums[i]).max().unwrap_or(0),
                // A commander by his surname, which `l` takes as his whole formation.
                unit_label.unwrap_or_else(|| name.rsplit(' ').next().unwrap_or(name).to_string())
            ));
        } else {
            for &i in v {
                out.push(format!("  {:>4}. {}", nums[i], words::action_text(b, &legal[i])));
            }
        }
    }
    if collapse {
        out.push("(a long list: units with many actions are summed up; `l all` shows everything)".into());
    }
    out
}
