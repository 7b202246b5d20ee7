//! The terminal game as a person plays it (issue 19): through standard input, reading the
//! screen, with `units`, `map` and moves said relative to the unit; save, quit, load with the
//! players kept, and the result explained at the end.

use super::common::Scratch;
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("term-{name}"))
}

/// A terminal game run as a child process, read as it prints.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Receiver<Vec<u8>>,
    /// Everything printed so far.
    transcript: String,
    /// Where the text not yet handed out by `screen` starts.
    read: usize,
}

impl Session {
    fn start(dir: &std::path::Path, args: &[&str]) -> Session {
        let mut child = Command::new(super::faults::bin())
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("runs");
        let mut stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            out: rx,
            transcript: String::new(),
            read: 0,
        }
    }

    /// The text printed up to the next prompt (a line ending in "> " or "? " with no new line
    /// after it), or to the end of the program's output: `(text, ended)`.
    fn screen(&mut self) -> (String, bool) {
        loop {
            let tail = self.transcript.rsplit('\n').next().unwrap_or("");
            if self.transcript.len() > self.read && (tail.ends_with("> ") || tail.ends_with("? ")) {
                let s = self.transcript[self.read..].to_string();
                self.read = self.transcript.len();
                return (s, false);
            }
            match self.out.recv_timeout(Duration::from_secs(120)) {
                Ok(bytes) => self.transcript.push_str(&String::from_utf8_lossy(&bytes)),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    let s = self.transcript[self.read..].to_string();
                    self.read = self.transcript.len();
                    return (s, true);
                }
                Err(_) => panic!("no prompt for two minutes; the screen so far:\n{}", self.tail()),
            }
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin.as_mut().unwrap(), "{line}").unwrap();
    }

    fn tail(&self) -> String {
        let n = self.transcript.len();
        let mut start = n.saturating_sub(6000);
        while !self.transcript.is_char_boundary(start) {
            start += 1;
        }
        self.transcript[start..].to_string()
    }

    fn finish(mut self) -> String {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        while let Ok(bytes) = self.out.recv_timeout(Duration::from_secs(5)) {
            self.transcript.push_str(&String::from_utf8_lossy(&bytes));
        }
        assert!(status.success(), "the game failed: {status}\n{}", self.tail());
        self.transcript
    }
}

/// `volley ARGS` in `dir` with `input` typed and then the input's end: what it printed (it
/// must end well).
fn typed(dir: &std::path::Path, args: &[&str], input: &str) -> String {
    let out = Command::new(super::faults::bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(input.as_bytes())?;
            child.wait_with_output()
        })
        .expect("runs");
    let shown = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{shown}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    shown
}

/// A terminal game of bundled scenario `map` (its file name without `.ron`), the Union a
/// person's and the Confederates the scheduler's, with `more` options, in `dir`: [`typed`].
fn union_against_the_scheduler(dir: &std::path::Path, map: &str, more: &[&str], input: &str) -> String {
    let map = format!("{ROOT}/maps/{map}.ron");
    let args = [
        "play",
        &map,
        "--terminal",
        "--side",
        "Union=human",
        "--side",
        "Confederate=scheduler",
    ];
    typed(dir, &[&args[..], more].concat(), input)
}

/// The numbered lines of a list: (number, text).
fn actions(screen: &str) -> Vec<(usize, String)> {
    screen
        .lines()
        .filter_map(|l| {
            let t = l.trim_start();
            let (n, rest) = t.split_once(". ")?;
            Some((n.parse().ok()?, rest.to_string()))
        })
        .collect()
}

/// `advance N cm` as a number, for a move line said relative to the unit.
fn advance_cm(text: &str) -> Option<f64> {
    let (_, rest) = text.split_once(": advance ")?;
    let (n, rest) = rest.split_once(" cm")?;
    if rest.starts_with(" obliquely") {
        return None;
    }
    n.parse().ok()
}

/// What the test's player does with a full list: fire if it can, order all its units (at most
/// twice a turn), advance them as far as a move goes, then end the phase.
fn pick(list: &[(usize, String)], orders_this_turn: &mut u32) -> usize {
    let find = |p: &dyn Fn(&str) -> bool| list.iter().find(|(_, t)| p(t)).map(|(i, _)| *i);
    if let Some(i) = find(&|t| t.contains(" fires at ") || t.starts_with("opportunity fire: ")) {
        return i;
    }
    let best_advance = list
        .iter()
        .filter_map(|(i, t)| advance_cm(t).map(|d| (*i, d)))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((i, _)) = best_advance {
        return i;
    }
    if *orders_this_turn < 2 {
        // The order to the most units.
        let order = list
            .iter()
            .filter(|(_, t)| t.starts_with("order: "))
            .max_by_key(|(_, t)| t.matches(',').count());
        if let Some((i, _)) = order {
            *orders_this_turn += 1;
            return *i;
        }
    }
    find(&|t| t == "pass")
        .or_else(|| find(&|t| t.starts_with("end the ") && t.ends_with(" phase")))
        .unwrap_or(list[0].0)
}

/// Play the Union from the current prompt until the game ends, or until `stop` says to stop
/// at a prompt (returning false then). Counts the moves chosen by their relative words.
fn play_on(s: &mut Session, mut screen: String, stop: impl Fn(&str) -> bool, advances: &mut u32) -> bool {
    let mut turn_seen = String::new();
    let mut orders_this_turn = 0;
    loop {
        let prompt = screen.rsplit('\n').next().unwrap_or("").to_string();
        if !prompt.ends_with("> ") {
            return true; // The game ended (no prompt).
        }
        if stop(&prompt) {
            return false;
        }
        if prompt != turn_seen && prompt.contains("Initiative") {
            // A new turn: look at the table first, as a player would.
            turn_seen = prompt.clone();
            orders_this_turn = 0;
            s.send("units");
            let (u, _) = s.screen();
            assert!(u.contains(": at (") && u.contains("facing"), "{u}");
            assert!(
                u.contains("Confederate units you know of:") && u.contains("Objectives:"),
                "{u}"
            );
            s.send("map");
            let (m, _) = s.screen();
            assert!(m.contains("Legend:") && m.contains("north at the top"), "{m}");
            assert!(m.contains("* Hickory farm (Union's minor objective)"), "{m}");
        }
        s.send("l all");
        let (l, _) = s.screen();
        let list = actions(&l);
        assert!(!list.is_empty(), "no list: {l}");
        for (_, t) in &list {
            if t.starts_with("move: ") {
                // Relative words first; the destination only after them.
                let (words, destination) = t.split_once(", to (").expect("a destination");
                let said = words.rsplit(": ").next().unwrap();
                assert!(
                    [
                        "advance ",
                        "retire ",
                        "wheel ",
                        "turn ",
                        "about face",
                        "sidestep ",
                        "stay in place"
                    ]
                    .iter()
                    .any(|v| said.starts_with(v)),
                    "a move not said relative to the unit: {t}"
                );
                assert!(destination.contains(") facing "), "{t}");
            }
        }
        let i = pick(&list, &mut orders_this_turn);
        let chosen = &list.iter().find(|(n, _)| *n == i).unwrap().1;
        if advance_cm(chosen).is_some() {
            *advances += 1;
        }
        s.send(&i.to_string());
        let (next, ended) = s.screen();
        if ended {
            screen = next;
            if !screen.contains("the battle is over") {
                panic!("the game stopped without a result:\n{}", s.tail());
            }
            return true;
        }
        screen = next;
    }
}

#[test]
fn a_whole_first_battle_in_the_terminal_against_the_scheduler() {
    let dir = scratch("whole");
    let map = format!("{ROOT}/maps/first_battle.ron");
    let mut s = Session::start(
        &dir,
        &[
            "play",
            &map,
            "--terminal",
            "--side",
            "Confederate=scheduler",
            "--seed",
            "2",
        ],
    );
    let (first, _) = s.screen();
    assert!(first.contains("Brief:") && first.contains("1. Command."), "{first}");
    assert!(
        first.contains("Confederate is played by the scheduler agent"),
        "{first}"
    );
    // Help, and a bad input that is answered without the list again.
    s.send("help");
    let (help, _) = s.screen();
    assert!(help.contains("units, u") && help.contains("saves/game.ron"), "{help}");
    s.send("what now");
    let (bad, _) = s.screen();
    assert!(bad.contains("is not a command") && !bad.contains("end phase"), "{bad}");
    let mut advances = 0;
    // Play to the third turn, then quit, saving.
    let finished = play_on(&mut s, first, |p| p.contains("turn 3,"), &mut advances);
    assert!(!finished, "the game ended before turn 3");
    s.send("q");
    let (ask, _) = s.screen();
    assert!(ask.contains("Save before quitting?"), "{ask}");
    s.send("y");
    let (bye, ended) = s.screen();
    assert!(ended && bye.contains("Saved to saves/game.ron"), "{bye}");
    s.finish();
    let save = std::fs::read_to_string(dir.join("saves/game.ron")).unwrap();
    assert!(save.contains("players: Some((\"human\", \"scheduler\"))"), "{save}");

    // Load it: the scheduler still plays the Confederates, and the game goes on to the end.
    let mut s = Session::start(&dir, &["play", "--load", "saves/game.ron", "--terminal"]);
    let (first, _) = s.screen();
    assert!(
        first.contains("Confederate is played by the scheduler agent"),
        "{first}"
    );
    assert!(first.contains("turn 3,"), "{first}");
    s.send("log 5");
    let (log, _) = s.screen();
    assert!(log.lines().filter(|l| l.starts_with("  ")).count() >= 5, "{log}");
    let finished = play_on(&mut s, first, |_| false, &mut advances);
    assert!(finished);
    let transcript = s.finish();
    std::fs::write(dir.join("transcript.txt"), &transcript).unwrap();
    assert!(advances >= 2, "the player advanced {advances} times");
    let end = &transcript[transcript.rfind("=== ").expect("a result screen")..];
    for what in [
        "the battle is over",
        "Result: ",
        "Objectives at the end",
        "Hickory farm (Union's minor objective)",
        "Victory points",
        "Losses: Union lost",
        "breakpoint",
        "How it is decided",
    ] {
        assert!(end.contains(what), "the result does not say {what:?}:\n{end}");
    }

    // The finished game, loaded, shows its result and ends.
    let out = Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["play", "--load", "saves/autosave-first_battle.ron", "--terminal"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("This game is already over") && text.contains("Result: "),
        "{text}"
    );
}

#[test]
fn bad_bytes_and_the_end_of_input_do_not_lose_the_game() {
    let dir = scratch("bytes");
    let map = format!("{ROOT}/maps/first_battle.ron");
    let mut child = Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["play", &map, "--terminal"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let input = child.stdin.as_mut().unwrap();
        input.write_all(b"\xff\xfe\n0\ns nowhere/game.ron\n").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("not text (UTF-8)"), "{text}");
    // The line after the bad one was still read: the initiative phase ended.
    assert!(text.contains("Union chose 0: end the initiative phase"), "{text}");
    assert!(
        text.contains("could not save to nowhere/game.ron") && !dir.join("nowhere").exists(),
        "{text}"
    );
    // The end of the input saves the game where the player can find it.
    assert!(
        text.contains("The input ended: the game is saved to saves/autosave-first_battle.ron"),
        "{text}"
    );
    assert!(dir.join("saves/autosave-first_battle.ron").is_file());
}

#[test]
fn a_save_without_players_loads_as_before() {
    // Recordings made before the players were kept have no `players`: they load, hot-seat.
    let dir = scratch("old");
    let map = format!("{ROOT}/maps/first_battle.ron");
    let rec = dir.join("old.ron");
    let out = Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["simulate", &map, "--seed", "1", "--max-turns", "1", "--record"])
        .arg(&rec)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&rec).unwrap();
    assert!(!text.contains("players"), "{text}");
    let parsed = volley::replay::Recording::parse(&text, &rec).unwrap();
    assert_eq!(parsed.players, None);
    let out = Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["play", "--terminal", "--load"])
        .arg(&rec)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{shown}");
    assert!(
        shown.contains("Union is played by a person at this terminal")
            && shown.contains("Confederate is played by a person at this terminal")
            && shown.contains("This game is already over")
            && shown.contains("the turn limit"),
        "{shown}"
    );
}

#[test]
fn the_map_draws_units_terrain_and_objectives_where_they_are() {
    let (b, _) = volley::load_battle(std::path::Path::new(&format!("{ROOT}/maps/first_battle.ron")), 1).unwrap();
    let map = volley::terminal::view::map(&b, 0, 80);
    // 75 columns over 120 cm: 1.6 cm a column; 28 rows over 90 cm: 3.2 cm a row.
    let rows: Vec<&str> = map
        .iter()
        .filter(|l| l.len() > 5 && l[..4].trim().parse::<i64>().is_ok())
        .map(|l| &l[5..])
        .collect();
    assert_eq!(rows.len(), 28, "{map:#?}");
    let at = |x: f64, y: f64| -> char {
        let r = ((90.0 - y) / (90.0 / 28.0)).floor() as usize;
        let c = (x / 1.6).floor() as usize;
        rows[r].chars().nth(c).unwrap()
    };
    assert_eq!(at(45.0, 23.0), 'A', "{map:#?}"); // 5th New Hampshire
    assert_eq!(at(78.0, 23.0), 'B', "{map:#?}"); // 7th Wisconsin
    assert_eq!(at(45.0, 62.0), 'a', "{map:#?}"); // 21st Georgia, seen by the Union
    assert_eq!(at(62.0, 45.0), '*', "{map:#?}"); // Hickory farm
    assert_eq!(at(60.0, 30.0), '=', "{map:#?}"); // Hickory Lane
    assert_eq!(at(15.0, 45.0), '!', "{map:#?}"); // Pine thicket
    assert_eq!(at(77.0, 46.0), '%', "{map:#?}"); // Hickory orchard
    assert_eq!(at(100.0, 30.0), '.', "{map:#?}");
    for key in [
        "  A 5th New Hampshire (Union)",
        "  ! Pine thicket: woods",
        "  + Farm fence: fence",
        "  [ Hickory farmhouse: building",
    ] {
        assert!(
            map.iter().any(|l| l.starts_with(key)),
            "no {key:?} in the legend: {map:#?}"
        );
    }
    // The fence is drawn, one row thick.
    assert_eq!(map.iter().filter(|l| l.contains("++++")).count(), 1, "{map:#?}");
}

/// Ctrl-C at the prompt is a quit that keeps the game: the autosave is written and named.
#[test]
fn ctrl_c_saves_the_game_before_it_ends() {
    let dir = scratch("sigint");
    let map = format!("{ROOT}/maps/first_battle.ron");
    let mut s = Session::start(&dir, &["play", &map, "--terminal"]);
    let (first, _) = s.screen();
    assert!(
        first.contains("saves/autosave-first_battle.ron"),
        "the autosave is not named: {first}"
    );
    s.send("0");
    let (_, _) = s.screen();
    // SAFETY: a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(s.child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let (bye, ended) = s.screen();
    assert!(ended, "the game did not end on Ctrl-C: {bye}");
    assert!(
        bye.contains("Interrupted") && bye.contains("saved to saves/autosave-first_battle.ron"),
        "{bye}"
    );
    s.finish();
    let save = std::fs::read_to_string(dir.join("saves/autosave-first_battle.ron")).unwrap();
    let rec = volley::replay::Recording::parse(&save, std::path::Path::new("autosave")).unwrap();
    assert_eq!(rec.actions.len(), 1, "the action played before Ctrl-C is in the save");
}

/// `q` then `y` (and `s` alone) save to the file the game was last saved to or loaded from,
/// not to saves/game.ron; each scenario has its own autosave.
#[test]
fn quit_saves_to_the_file_last_saved_or_loaded() {
    let dir = scratch("quit");
    let map = format!("{ROOT}/maps/first_battle.ron");
    let mut s = Session::start(&dir, &["play", &map, "--terminal"]);
    let _ = s.screen();
    s.send("s mine.ron");
    let (saved, _) = s.screen();
    assert!(saved.contains("Saved to mine.ron"), "{saved}");
    s.send("0");
    let _ = s.screen();
    s.send("q");
    let (ask, _) = s.screen();
    assert!(ask.contains("y: save to mine.ron"), "{ask}");
    s.send("y");
    let (bye, ended) = s.screen();
    assert!(ended && bye.contains("Saved to mine.ron"), "{bye}");
    s.finish();
    assert!(!dir.join("saves/game.ron").exists(), "saved to saves/game.ron as well");
    let rec = volley::replay::Recording::load(&dir.join("mine.ron")).unwrap();
    assert_eq!(
        rec.actions.len(),
        1,
        "the last save has the action played after `s mine.ron`"
    );

    // Loaded, `s` alone and `q` `y` save back to it.
    let mut s = Session::start(&dir, &["play", "--load", "mine.ron", "--terminal"]);
    let _ = s.screen();
    s.send("0");
    let _ = s.screen();
    s.send("s");
    let (saved, _) = s.screen();
    assert!(saved.contains("Saved to mine.ron"), "{saved}");
    s.send("q");
    let (ask, _) = s.screen();
    assert!(ask.contains("y: save to mine.ron"), "{ask}");
    s.send("y");
    let (bye, _) = s.screen();
    assert!(bye.contains("Saved to mine.ron"), "{bye}");
    s.finish();
    assert!(!dir.join("saves/game.ron").exists());
    let rec = volley::replay::Recording::load(&dir.join("mine.ron")).unwrap();
    assert_eq!(rec.actions.len(), 2);

    // Another scenario autosaves beside it, not over it.
    let other = format!("{ROOT}/maps/skirmish.ron");
    for m in [&map, &other] {
        let out = Command::new(super::faults::bin())
            .args(["play", m, "--terminal"])
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    assert!(dir.join("saves/autosave-first_battle.ron").is_file());
    assert!(dir.join("saves/autosave-skirmish.ron").is_file());
}

/// The number of the listed action whose words begin with `start` (reading the list, as a
/// player does; never a coordinate typed).
fn number_of(screen: &str, start: &str) -> usize {
    actions(screen)
        .into_iter()
        .find(|(_, t)| t.starts_with(start))
        .unwrap_or_else(|| panic!("no `{start}` in:\n{screen}"))
        .0
}

/// Ends the phases by their numbers (reading the list, `l` when none is on the screen; `y`
/// to a question), passing any window, until the prompt `until`; the last screen.
fn end_phases(send: &mut dyn FnMut(&str) -> String, mut screen: String, until: &str) -> String {
    for _ in 0..20 {
        if screen.contains(until) {
            break;
        }
        let n = actions(&screen)
            .into_iter()
            .find(|(_, t)| t.starts_with("end the ") || t == "pass")
            .map(|(n, _)| n);
        screen = match n {
            Some(n) => send(&n.to_string()),
            None => send("l"),
        };
        if screen.ends_with("? ") {
            screen = send("y");
        }
    }
    screen
}

/// Issue 65: a whole First Battle turn played in the terminal by intents, names and the
/// numbers of the phase's own actions (ending each phase); the intents' lines say what each
/// unit did and where that leaves it, in words.
#[test]
fn a_first_battle_turn_is_played_by_intents_in_the_terminal() {
    let dir = scratch("intent-first");
    let map = format!("{ROOT}/maps/first_battle.ron");
    let mut s = Session::start(
        &dir,
        &[
            "play",
            &map,
            "--terminal",
            "--side",
            "Confederate=scheduler-easy",
            "--seed",
            "2",
        ],
    );
    let (mut screen, _) = s.screen();
    let mut typed: Vec<String> = Vec::new();
    let mut send = |s: &mut Session, line: &str| {
        typed.push(line.to_string());
        s.send(line);
        s.screen().0
    };
    // The rules in a page, with the rules file's numbers.
    let rules = send(&mut s, "help rules");
    assert!(
        rules.contains("within 20 cm may") && rules.contains("Evading") && rules.contains("canister (within 10 cm)"),
        "{rules}"
    );
    assert!(rules.lines().count() <= 45, "{rules}");
    // The initiative phase: nothing to do but end it.
    screen = send(&mut s, &number_of(&screen, "end the initiative phase").to_string());
    assert!(screen.contains("Command phase"), "{screen}");
    let said = send(&mut s, "Reed: to Hickory farm");
    assert!(said.contains("Reed's brigade: to Hickory farm"), "{said}");
    assert!(said.contains("Col. Thomas Reed orders "), "{said}");
    assert!(said.contains("Reed's brigade: ") && said.contains(" moved, "), "{said}");
    // Each unit that moved says so relative to itself, and how far it is left from the farm.
    if said.contains("order issued") {
        assert!(
            said.lines()
                .any(|l| l.contains(": advance ")
                    && (l.contains("short of Hickory farm") || l.contains("on Hickory farm"))),
            "{said}"
        );
    }
    let va = send(&mut s, "7th: range 12th Virginia");
    assert!(va.contains("7th Wisconsin: into range of 12th Virginia"), "{va}");
    let screen = va;
    // End the command and charge phases by their numbers, until the Confederate turn (the
    // computer's) is over and the Union's second begins.
    let screen = end_phases(&mut |line| send(&mut s, line), screen, "Union, turn 2, Initiative>");
    assert!(screen.contains("Union, turn 2, Initiative>"), "{screen}");
    // Only intents, names and numbers were typed: no coordinate.
    for t in &typed {
        assert!(!t.contains('(') && !t.contains(','), "{t}");
    }
    s.send("q");
    s.send("n");
    s.finish();
}

/// Issue 65: a Gettysburg command phase by intents in the terminal: three brigades and a
/// division ordered by their commanders' names (one to an objective, one into range of the
/// nearest of an enemy commander's units, one to hold, a division to the Seminary); no screen
/// longer than 60 lines; an action's number holds through the phase; the computer's long
/// turn (the greedy agent orders everything) is told in a few lines.
#[test]
fn a_gettysburg_command_phase_is_played_by_intents_in_the_terminal() {
    let dir = scratch("intent-gettysburg");
    let map = format!("{ROOT}/maps/gettysburg.ron");
    let mut s = Session::start(
        &dir,
        &["play", &map, "--terminal", "--side", "Union=greedy", "--seed", "2"],
    );
    let (first, _) = s.screen();
    s.send(&number_of(&first, "end the initiative phase").to_string());
    let (screen, _) = s.screen();
    assert!(screen.contains("Confederate, turn 1, Command>"), "{screen}");
    let mut screens = vec![screen];
    let mut ask = |s: &mut Session, line: &str| {
        s.send(line);
        let (out, _) = s.screen();
        screens.push(out.clone());
        out
    };
    // `l Hill` names Hill's whole corps: summed up to a screen; `l all Hill` lists it whole
    // (asked for: not held to a screen).
    let hill_summed = ask(&mut s, "l Hill");
    assert!(
        hill_summed.contains("`l all Hill` lists all ")
            && hill_summed.contains("-- Archer's brigade (Brig. Gen. James Archer), Heth's division --"),
        "{hill_summed}"
    );
    s.send("l all Hill");
    let (hill_before, _) = s.screen();
    let archer = ask(&mut s, "Archer: to McPherson");
    assert!(archer.contains("Archer's brigade: to McPherson's Ridge"), "{archer}");
    let davis = ask(&mut s, "Davis: range Buford");
    assert!(davis.contains("Davis's brigade: into range of "), "{davis}");
    let hold = ask(&mut s, "Pettigrew: hold");
    assert!(
        hold.contains("Pettigrew's brigade: holds: no order, no move."),
        "{hold}"
    );
    let pender = ask(&mut s, "Pender: to Seminary");
    assert!(pender.contains("Pender's division: to Lutheran Seminary"), "{pender}");
    // A word naming several is answered with their names, nothing done.
    let many = ask(&mut s, "Brig: hold");
    assert!(many.contains("`Brig` names "), "{many}");
    // Hill's orders keep their numbers through the phase.
    s.send("l all Hill");
    let (hill_after, _) = s.screen();
    let before = actions(&hill_before);
    let after = actions(&hill_after);
    assert!(!before.is_empty() && !after.is_empty());
    for (n, text) in &after {
        if let Some((_, was)) = before.iter().find(|(m, _)| m == n) {
            // The same number names the same order (its need may have changed with a
            // successive order's modifier); a ride is said relative to the units near where
            // it ends, which move: its rider and destination name it.
            let who = |t: &str| -> String {
                let t = t.split(" (need").next().unwrap_or(t);
                match t.rfind(", to (") {
                    Some(i) => format!("{}{}", t.split(" rides ").next().unwrap_or(t), &t[i..]),
                    None => t.to_string(),
                }
            };
            assert_eq!(who(was), who(text), "number {n}");
        }
    }
    // End the phases; the computer's whole turn is told in a few lines, the log one command
    // away.
    let screen = ask(&mut s, "l");
    let screen = end_phases(
        &mut |line| ask(&mut s, line),
        screen,
        "Confederate, turn 2, Initiative>",
    );
    assert!(screen.contains("Confederate, turn 2, Initiative>"), "{screen}");
    // Turn 2: the intents left short stand, offered at the command phase's first prompt;
    // `go 1` carries the first on, with a new order.
    let screen = end_phases(&mut |line| ask(&mut s, line), screen, "Confederate, turn 2, Command>");
    assert!(
        screen.contains("Standing intents (`go` carries them all on")
            && screen.contains("1. Archer's brigade to McPherson's Ridge"),
        "{screen}"
    );
    let went = ask(&mut s, "go 1");
    assert!(
        went.contains("Archer's brigade: to McPherson's Ridge") && went.contains("Brig. Gen. James Archer orders "),
        "{went}"
    );
    let told: Vec<&String> = screens
        .iter()
        .filter(|s| s.contains("While the computer played ("))
        .collect();
    assert!(!told.is_empty(), "{screen}");
    for t in told {
        assert!(
            t.contains("shows them all):") && (t.contains("Union moved ") || t.contains("Union fired ")),
            "{t}"
        );
    }
    let longest = screens.iter().map(|s| s.lines().count()).max().unwrap_or(0);
    assert!(
        longest <= 60,
        "a screen of {longest} lines:\n{}",
        screens.iter().find(|s| s.lines().count() == longest).unwrap()
    );
    s.send("q");
    s.send("n");
    s.finish();
}

/// Issue 66, nothing lost: a saved game against a planning computer, loaded in the terminal,
/// has the computer's plan in its log (`log N`) as the person was told it: with the scouting
/// switch's hidden set-up the Union saw nothing of the Confederate plan, and the log names
/// none of the formations hidden from it. A game played in the terminal keeps the plan in its
/// save, whole and as the Union was told it.
#[test]
fn a_loaded_terminal_game_tells_the_computers_plan_as_the_person_was_told_it() {
    let dir = scratch("plan-load");
    let (file, rec) = super::common::planned_save_for_the_union(&dir);
    let told = rec.plans[0].to_other.clone().expect("the Union was told less");
    let file = file.display().to_string();
    let shown = typed(&dir, &["play", "--terminal", "--load", &file], "log 5000\n");
    assert!(
        shown.contains(&format!("  Confederate, played by the computer (scheduler): {told}")),
        "{shown}"
    );
    assert!(
        !shown.contains("Heth's division") && !shown.contains("Pender's"),
        "{shown}"
    );
    // Played in the terminal: the computer's plan, said to the person, is kept in the save
    // whole and as they were told it.
    let shown = union_against_the_scheduler(
        &dir,
        "gettysburg",
        &["--seed", "5", "--rule", "scouting"],
        "s played.ron\n",
    );
    let saved = volley::replay::Recording::load(&dir.join("played.ron")).expect("saved");
    let note = saved.plans.first().expect("the plan kept");
    assert_eq!((note.action, note.side, note.agent.as_str()), (0, 1, "scheduler"));
    assert!(note.text.contains("Heth's division: attack"), "{note:?}");
    let told = note.to_other.as_deref().expect("as the Union was told it");
    assert!(
        shown.contains(&format!("Confederate, played by the computer (scheduler): {told}")),
        "{shown}"
    );
    // (The brief names Heth's division: the plan's own lines do not.)
    assert!(
        shown
            .lines()
            .filter(|l| l.contains("played by the computer"))
            .all(|l| !l.contains("Heth's division")),
        "{shown}"
    );
}

/// A person playing against the computer in the terminal is told only what their side may see
/// (the scouting demo's hidden set-up): no Confederate unit still hidden from the Union at the
/// end is named in what the terminal printed, as the computer played or in `log N`, nor in
/// the log of the game loaded again.
#[test]
fn the_terminal_names_no_unit_hidden_from_the_person_against_the_computer() {
    let dir = scratch("hidden-log");
    let input = "0\n".repeat(40) + "log 2000\n";
    let shown = union_against_the_scheduler(&dir, "scouting_demo", &["--seed", "3"], &input);
    let save = dir.join("saves/autosave-scouting_demo.ron");
    let rec = volley::replay::Recording::load(&save).expect("autosaved");
    let (b, _) = volley::replay::verify::verify(&rec, &save).expect("it verifies");
    let hidden: Vec<&str> = b
        .units
        .iter()
        .filter(|u| u.side == 1 && !b.known_to(0, u.id))
        .map(|u| u.name.as_str())
        .collect();
    assert!(!hidden.is_empty(), "some Confederates still hidden");
    assert!(
        shown.contains("Col. William Ashby"),
        "the computer's turn was told: {shown}"
    );
    let save = save.display().to_string();
    let again = typed(&dir, &["play", "--terminal", "--load", &save], "log 2000\n");
    for name in &hidden {
        assert!(!shown.contains(name), "{name} is hidden from the Union: {shown}");
        assert!(!again.contains(name), "{name} is hidden from the Union: {again}");
    }
}
