//! What starts a game (the scenario or a save, the seed, the sides, the optional rules), and
//! the game turn by turn in the terminal.

use super::args::{DEFAULT_SCENARIO, Rules, side_agents};
use super::out;
use crate::replay::Recording;
use std::io::Write;
use std::path::PathBuf;

/// What starts a game, in the window or the terminal.
pub(super) struct Start {
    pub scenario: PathBuf,
    pub sides: Vec<String>,
    pub seed: u64,
    pub load: Option<PathBuf>,
    pub rules: Rules,
    /// Play by file: the file, the key, and for a new game the side played here.
    pub turn_file: Option<(PathBuf, String, usize)>,
    /// The scenario was named (not the default).
    pub named: bool,
}

impl Start {
    /// The main menu's game: the default scenario, seed 1, both sides human.
    pub fn menu() -> Start {
        Start {
            scenario: DEFAULT_SCENARIO.into(),
            sides: Vec::new(),
            seed: 1,
            load: None,
            rules: Rules::default(),
            turn_file: None,
            named: false,
        }
    }
}

/// The game turn by turn in the terminal (a save continued, or a new battle).
pub(super) fn terminal(start: Start) -> Result<(), String> {
    let Start {
        scenario,
        sides,
        seed,
        load,
        rules,
        turn_file,
        named,
    } = start;
    // Play by file: go on with the file (loaded below, checked against its key), or start a
    // game into it.
    let mut load = load;
    if let Some((path, _, _)) = &turn_file {
        match (path.exists(), named) {
            (true, true) => {
                return Err(format!(
                    "{} exists: leave out the scenario to go on with it, or name another file for a new game",
                    path.display()
                ));
            }
            (false, false) => {
                return Err(format!(
                    "{} does not exist: name the scenario to start a game by file",
                    path.display()
                ));
            }
            (true, false) => load = Some(path.clone()),
            (false, true) => {}
        }
    }
    let (b, events, rec, scenario_path, history) = match &load {
        Some(save) => {
            // A save is a recording: re-play it to the moment it was saved (a turn file must
            // be signed with the key).
            let rec = match &turn_file {
                Some((_, key, _)) => crate::replay::turn_file::read(save, key)?,
                None => Recording::load(save).map_err(|e| e.to_string())?,
            };
            let (b, _) = crate::replay::verify::verify(&rec, save).map_err(|e| format!("{}: {e}", save.display()))?;
            // An error here shows again, and is handled, at the game's first line.
            let _ = writeln!(
                std::io::stdout(),
                "continuing {} after {} actions",
                crate::data::text::printable(&save.display().to_string()),
                rec.actions.len()
            );
            let path = crate::replay::verify::scenario_path(&rec, save);
            (b, Vec::new(), rec, path, Some(save.clone()))
        }
        None => {
            let (b, events) =
                crate::load_battle_with(&scenario, seed, &rules.switches()?).map_err(|e| e.to_string())?;
            let rec = Recording::start(&b, &scenario.display().to_string(), seed, None);
            (b, events, rec, scenario.clone(), None)
        }
    };
    // A loaded game keeps the players it was saved with, unless --side says otherwise.
    let names = match (&rec.players, sides.is_empty()) {
        (Some(players), true) => players.clone(),
        _ => side_agents(&b, &sides, "human")?,
    };
    // Its log re-played, a computer's plans as the people playing here may read them.
    let people: Vec<usize> = (0..2).filter(|&s| names[s] == "human").collect();
    let history = history.map_or_else(Vec::new, |save| crate::terminal::history(&rec, &save, &people));
    let seed = rec.seed;
    let autosave = crate::terminal::autosave_for(&rec.scenario);
    // By file, this terminal plays the side to decide: the one named for a new game, the one
    // the battle waits for in a game gone on with.
    let by_file = turn_file.map(|(path, key, side)| crate::terminal::TurnFile {
        side: if load.is_some() { b.actor() } else { side },
        path,
        key,
    });
    let game = crate::terminal::Game {
        battle: b,
        events,
        sides: names,
        seed,
        recording: rec,
        brief: crate::terminal::brief_of(&scenario_path),
        history,
        // A turn file is written back only signed: `s` and `q` save elsewhere.
        loaded: if by_file.is_some() { None } else { load },
        autosave,
        turn_file: by_file,
    };
    // The game saves before it ends, whether the output goes away or Ctrl-C is pressed.
    out::keep_going_on_closed_pipe();
    crate::terminal::catch_interrupt();
    crate::terminal::run(game, std::io::BufReader::new(crate::terminal::Stdin))
}
