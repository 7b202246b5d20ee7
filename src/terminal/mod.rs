//! A turn-by-turn game in the terminal: the legal actions numbered and grouped by who acts,
//! moves said relative to the unit, the battle log as it happens, `units` and `map` to see the
//! table, save and load at any moment, an autosave at the end of every player turn, and the
//! result explained at the end. Plain lines only: a screen reader reads all of it.

pub mod view;
pub mod words;

use crate::agents::{self, Agent};
use crate::battle::{Action, Battle, Event, Phase};
use crate::replay::Recording;
use std::io::{BufRead, Write};
use std::path::Path;

/// Where the autosave goes.
pub const AUTOSAVE: &str = "saves/autosave.ron";
/// Where `s` alone saves.
pub const DEFAULT_SAVE: &str = "saves/game.ron";
/// A list longer than this many lines shows the units with many actions as one line each.
const LONG_LIST: usize = 24;
/// In a long list, a unit or commander with more actions than this is summed up in one line.
const GROUP_SHOWN: usize = 4;

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
    /// A loaded save (no brief printed at the start).
    pub loaded: bool,
}

/// The re-played log of a recording: every event as the log describes it, from the start.
pub fn history(rec: &Recording, path: &Path) -> Vec<String> {
    let Ok(mut b) = crate::replay::verify::start_battle(rec, path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for a in &rec.actions {
        match b.apply(a) {
            Ok(evs) => out.extend(evs.iter().map(|e| b.describe(e))),
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

const HELP: &str = "\
Commands (type one and press Enter):
  NUMBER      do the action with that number in the list
  l, list     show the whole list of actions again
  l WORD      list only the actions of units or commanders whose name contains WORD
              (or whose label is WORD), e.g. `l 21st`, `l A`, `l Reed`
  units, u    your units (position, facing, formation, stands, hits, status, orders left,
              nearest enemy), your commanders, the enemy units you know of, losses, objectives
  map, m      a map of the table in characters, with its legend
  log N       the last N lines of the battle log (default 20)
  odds N      the dice of action N: the chance of each number of hits, or of an order passing
  brief       the scenario's brief
  s           save to saves/game.ron;  s FILE  save to FILE (its folder must exist)
  q           quit (asks whether to save first)
  help, ?     this help
Positions are in cm: x to the east, y to the north. Facings are degrees counter-clockwise
from east (90° is north), with the compass point in words. Moves are said relative to the
unit (advance, retire, wheel, turn, about face), followed by where the unit ends.
Every player turn is autosaved to saves/autosave.ron.";

/// One line of input: `None` at the end of input; text that is not UTF-8 is `Some(Err)`.
fn read_line(input: &mut impl BufRead) -> Option<Result<String, ()>> {
    let mut buf = Vec::new();
    match input.read_until(b'\n', &mut buf) {
        Ok(0) => None,
        Ok(_) => Some(String::from_utf8(buf).map(|s| s.trim().to_string()).map_err(|_| ())),
        Err(_) => None,
    }
}

fn who(name: &str) -> String {
    if name == "human" {
        "a person at this terminal".into()
    } else {
        format!("the {name} agent")
    }
}

/// Save to `file`: a folder named in it must exist (only the game's own `saves/` is made).
fn save(rec: &Recording, file: &str) -> Result<(), String> {
    let path = Path::new(file);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
        && dir != Path::new("saves")
    {
        return Err(format!("there is no folder {}: make it first", dir.display()));
    }
    rec.save(path).map_err(|e| e.to_string())
}

/// Play a game through `input` (standard input in the game).
pub fn run(game: Game, mut input: impl BufRead) -> Result<(), String> {
    let Game {
        battle: mut b,
        events,
        sides,
        seed,
        recording: mut rec,
        brief,
        mut history,
        loaded,
    } = game;
    rec.players = Some(sides.clone());
    let mut bots: [Option<Box<dyn Agent>>; 2] = [None, None];
    for s in 0..2 {
        if sides[s] != "human" {
            bots[s] = Some(agents::by_name(&sides[s], seed, s)?);
        }
    }
    println!("{}", b.title);
    for (side, player) in b.sides.iter().zip(&sides) {
        println!("{} is played by {}.", side.name, who(player));
    }
    if !loaded && !brief.is_empty() {
        println!("\nBrief:\n{brief}");
    }
    println!();
    for e in &events {
        let line = b.describe(e);
        println!("  {line}");
        history.push(line);
    }
    if b.is_over() {
        println!("This game is already over.");
        for line in view::result(&b) {
            println!("{line}");
        }
        return Ok(());
    }
    println!("Type a number to act, or a command: help, brief, units, map, log, odds N, l WORD, s (save), q (quit).");
    let mut show_list = true;
    while !b.is_over() {
        let legal = b.legal_actions();
        let side = b.actor();
        let choice = if let Some(bot) = bots[side].as_mut() {
            let i = bot.choose(&b, &legal);
            if let Some(why) = bot.reason() {
                let line = format!("[{}] {why}", bot.name());
                println!("  {line}");
                history.push(line);
            }
            show_list = true;
            i
        } else {
            if show_list {
                println!(
                    "\n{} to act (turn {} of {}, {:?} phase):",
                    b.sides[side].name, b.game_turn, b.turn_limit, b.phase
                );
                for line in list_lines(&b, &legal, None, false) {
                    println!("{line}");
                }
                show_list = false;
            }
            print!("{}, turn {}, {:?}> ", b.sides[side].name, b.game_turn, b.phase);
            std::io::stdout().flush().ok();
            let line = match read_line(&mut input) {
                None => {
                    println!();
                    match save(&rec, AUTOSAVE) {
                        Ok(()) => println!(
                            "The input ended: the game is saved to {AUTOSAVE}. Continue it with: volley play --load {AUTOSAVE} --terminal"
                        ),
                        Err(e) => println!("The input ended, and the game could not be saved to {AUTOSAVE}: {e}"),
                    }
                    return Ok(());
                }
                Some(Err(())) => {
                    println!("  That line is not text (UTF-8); nothing was done. Type `help` for the commands.");
                    continue;
                }
                Some(Ok(l)) => l,
            };
            let (cmd, arg) = match line.split_once(char::is_whitespace) {
                Some((c, a)) => (c.to_lowercase(), a.trim()),
                None => (line.to_lowercase(), ""),
            };
            match (cmd.as_str(), arg) {
                ("", _) => continue,
                ("help" | "?" | "h", _) => {
                    println!("{HELP}");
                    continue;
                }
                ("brief", _) => {
                    if brief.is_empty() {
                        println!("  This scenario has no brief.");
                    } else {
                        println!("{brief}");
                    }
                    continue;
                }
                ("units" | "u", _) => {
                    for l in view::units(&b, side) {
                        println!("{l}");
                    }
                    continue;
                }
                ("map" | "m", _) => {
                    for l in view::map(&b, side, view::terminal_width()) {
                        println!("{l}");
                    }
                    continue;
                }
                ("log", n) => {
                    let n = if n.is_empty() { Ok(20) } else { n.parse::<usize>() };
                    match n {
                        Ok(n) => {
                            if history.is_empty() {
                                println!("  The log is empty.");
                            }
                            for l in &history[history.len().saturating_sub(n)..] {
                                println!("  {l}");
                            }
                        }
                        Err(_) => println!("  `log N` wants a number of lines, e.g. `log 30`."),
                    }
                    continue;
                }
                ("odds", n) => {
                    match n.parse::<usize>() {
                        Ok(i) if i < legal.len() => {
                            println!("  {i}. {}", words::action_text(&b, &legal[i]));
                            for l in view::odds_lines(&b, &legal[i]) {
                                println!("  {l}");
                            }
                        }
                        _ => println!(
                            "  `odds N` wants the number of an action in the list (0 to {}).",
                            legal.len() - 1
                        ),
                    }
                    continue;
                }
                ("l" | "list", filter) => {
                    let f = (!filter.is_empty()).then_some(filter);
                    for l in list_lines(&b, &legal, f, true) {
                        println!("{l}");
                    }
                    continue;
                }
                ("s" | "save", file) => {
                    let file = if file.is_empty() { DEFAULT_SAVE } else { file };
                    match save(&rec, file) {
                        Ok(()) => {
                            println!("  Saved to {file}. Continue it later with: volley play --load {file} --terminal")
                        }
                        Err(e) => println!("  could not save to {file}: {e}"),
                    }
                    continue;
                }
                ("q" | "quit", _) => {
                    println!(
                        "  Save before quitting? y: save to {DEFAULT_SAVE} and quit; n: quit without saving; anything else: go on playing."
                    );
                    print!("save? ");
                    std::io::stdout().flush().ok();
                    match read_line(&mut input) {
                        Some(Ok(a)) if a.eq_ignore_ascii_case("y") || a.eq_ignore_ascii_case("yes") => {
                            match save(&rec, DEFAULT_SAVE) {
                                Ok(()) => {
                                    println!(
                                        "  Saved to {DEFAULT_SAVE}. Continue it later with: volley play --load {DEFAULT_SAVE} --terminal"
                                    );
                                    return Ok(());
                                }
                                Err(e) => println!("  could not save to {DEFAULT_SAVE}: {e}; the game goes on."),
                            }
                        }
                        Some(Ok(a)) if a.eq_ignore_ascii_case("n") || a.eq_ignore_ascii_case("no") => {
                            println!("  Quit without saving.");
                            return Ok(());
                        }
                        None => {
                            let saved = save(&rec, AUTOSAVE);
                            println!(
                                "\n  The input ended: {}",
                                match saved {
                                    Ok(()) => format!("saved to {AUTOSAVE}."),
                                    Err(e) => format!("could not save to {AUTOSAVE}: {e}"),
                                }
                            );
                            return Ok(());
                        }
                        _ => println!("  The game goes on."),
                    }
                    continue;
                }
                _ => {}
            }
            match line.parse::<usize>() {
                Ok(i) if i < legal.len() => {
                    let line = format!(
                        "{} chose {i}: {}",
                        b.sides[side].name,
                        words::action_text(&b, &legal[i])
                    );
                    println!("  {line}");
                    history.push(line);
                    show_list = true;
                    i
                }
                Ok(i) => {
                    println!("  There is no action {i}: the list goes from 0 to {}.", legal.len() - 1);
                    continue;
                }
                Err(_) => {
                    println!("  `{line}` is not a command. Type a number from the list, or `help`.");
                    continue;
                }
            }
        };
        match b.apply(&legal[choice]) {
            Ok(evs) => {
                rec.push(&b, &legal[choice], &evs);
                for e in &evs {
                    let line = b.describe(e);
                    println!("  {line}");
                    history.push(line);
                }
                let new_turn = evs.iter().any(|e| {
                    matches!(
                        e,
                        Event::PhaseStarted {
                            phase: Phase::Initiative,
                            ..
                        }
                    ) || matches!(e, Event::GameOver { .. })
                });
                if new_turn && let Err(e) = save(&rec, AUTOSAVE) {
                    println!("  (autosave failed: {e})");
                }
            }
            Err(r) => println!("  refused: {r}"),
        }
    }
    println!();
    for line in view::result(&b) {
        println!("{line}");
    }
    Ok(())
}

/// The list of actions, numbered as `legal` is, grouped by the unit or commander acting.
/// `filter` keeps the groups whose name contains it (or whose label it is); unless `full`, a
/// long list sums up each group of many actions in one line.
pub fn list_lines(b: &Battle, legal: &[Action], filter: Option<&str>, full: bool) -> Vec<String> {
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
    let header = |name: &str, first: &Action| -> String {
        let (units, _) = first.references();
        match first {
            Action::Order { .. } | Action::CommanderMove { .. } => format!("@ {name}:"),
            _ => match units.first().filter(|u| (**u as usize) < b.units.len()) {
                Some(&u) => {
                    let unit = b.unit(u);
                    format!(
                        "{} {name} ({}, {} stand{}, facing {}):",
                        view::label(b, u),
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
    let matches = |key: &Option<String>, v: &[usize]| -> bool {
        let Some(f) = filter else { return true };
        let Some(name) = key else { return false };
        let label_is = legal[v[0]]
            .references()
            .0
            .first()
            .filter(|u| (**u as usize) < b.units.len())
            .is_some_and(|&u| view::label(b, u) == f && !matches!(legal[v[0]], Action::Order { .. }));
        label_is || name.to_lowercase().contains(&f.to_lowercase())
    };
    let kept: Vec<&(Option<String>, Vec<usize>)> = groups.iter().filter(|(k, v)| matches(k, v)).collect();
    if kept.is_empty() {
        return vec![format!(
            "  No unit or commander in the list matches `{}`. Type `l` for the whole list.",
            filter.unwrap_or("")
        )];
    }
    let total: usize = kept.iter().map(|(_, v)| v.len() + 1).sum();
    let collapse = !full && total > LONG_LIST;
    let mut out = Vec::new();
    let commanders = b.commanders.iter().filter(|c| c.side == b.actor()).count();
    let mut last_hq = None;
    for (key, v) in kept {
        let h = hq(v);
        if commanders > 1 && key.is_some() && h != last_hq {
            if let Some(c) = h.filter(|c| (*c as usize) < b.commanders.len()) {
                out.push(format!("-- {}'s formation --", b.commander(c).name));
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
                .map(|&u| view::label(b, u));
            out.push(format!(
                "        {} (numbers {} to {}): type `l {}` to list them",
                summary.join(", "),
                v[0],
                v[v.len() - 1],
                unit_label.unwrap_or_else(|| name.to_string())
            ));
        } else {
            for &i in v {
                out.push(format!("  {i:>4}. {}", words::action_text(b, &legal[i])));
            }
        }
    }
    if collapse {
        out.push("(a long list: units with many actions are summed up; `l` shows everything)".into());
    }
    out
}
