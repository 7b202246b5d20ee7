//! A turn-by-turn game in the terminal: the legal actions numbered, the battle log as it
//! happens, save and load at any moment, an autosave at the end of every player turn. The same
//! pipeline as the window; it stands in until the window exists.

use crate::agents::{self, Agent};
use crate::battle::{Battle, Event};
use crate::replay::Recording;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// Where the autosave goes.
pub const AUTOSAVE: &str = "saves/autosave.ron";

/// Play with `sides[i]` = `human` or an agent name, recording into `rec`.
pub fn play(
    mut b: Battle,
    events: Vec<Event>,
    sides: [String; 2],
    seed: u64,
    mut rec: Recording,
) -> Result<(), String> {
    let mut bots: [Option<Box<dyn Agent>>; 2] = [None, None];
    for s in 0..2 {
        if sides[s] != "human" {
            bots[s] = Some(agents::by_name(&sides[s], seed, s)?);
        }
    }
    println!("{}\n", b.title);
    for e in &events {
        println!("  {}", b.describe(e));
    }
    println!("(type a number to act, `s FILE` to save, `q` to quit; autosave: {AUTOSAVE})");
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while !b.is_over() {
        let legal = b.legal_actions();
        let side = b.actor();
        let choice = if let Some(bot) = bots[side].as_mut() {
            let i = bot.choose(&b, &legal);
            if let Some(why) = bot.reason() {
                println!("  [{}] {why}", bot.name());
            }
            i
        } else {
            println!("\n{} to act ({:?}, turn {}):", b.sides[side].name, b.phase, b.game_turn);
            for (i, a) in legal.iter().enumerate() {
                println!("  {i:>3}. {}", b.describe_action(a));
            }
            print!("choice> ");
            std::io::stdout().flush().ok();
            let Some(Ok(line)) = lines.next() else { return Ok(()) };
            let line = line.trim();
            if line == "q" {
                return Ok(());
            }
            if let Some(file) = line
                .strip_prefix("s ")
                .or(if line == "s" { Some("saves/game.ron") } else { None })
            {
                match rec.save(Path::new(file.trim())) {
                    Ok(()) => println!("  saved to {}", file.trim()),
                    Err(e) => println!("  could not save to {}: {e}", file.trim()),
                }
                continue;
            }
            match line.parse::<usize>() {
                Ok(i) if i < legal.len() => i,
                _ => {
                    println!("  (type a number from the list)");
                    continue;
                }
            }
        };
        match b.apply(&legal[choice]) {
            Ok(evs) => {
                rec.push(&b, &legal[choice], &evs);
                for e in &evs {
                    println!("  {}", b.describe(e));
                }
                let new_turn = evs.iter().any(|e| {
                    matches!(
                        e,
                        Event::PhaseStarted {
                            phase: crate::battle::Phase::Initiative,
                            ..
                        }
                    ) || matches!(e, Event::GameOver { .. })
                });
                let saved = if new_turn {
                    rec.save(&PathBuf::from(AUTOSAVE))
                } else {
                    Ok(())
                };
                if let Err(e) = saved {
                    println!("  (autosave failed: {e})");
                }
            }
            Err(r) => println!("  refused: {r}"),
        }
    }
    Ok(())
}
