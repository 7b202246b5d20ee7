//! A spectator in the terminal: a game on a server followed by its spectators' code
//! (`volley watch --server URL --code CODE`). While it is played each side's view is shown
//! some actions behind the game (the server's `WATCH_DELAY`), each through its own fog; once
//! it is over, the whole battle and its result. The spectator holds no seat and sends nothing
//! but the code.

use super::view;
use crate::battle::Battle;
use crate::server::client::{Client, ClientError};
use crate::server::protocol::Watch;
use std::io::Write;
use std::time::{Duration, Instant};

/// How often the spectator asks the server.
const POLL: Duration = Duration::from_secs(2);

/// Follow the game of spectators' code `code` on `server`, writing to `out`: every new point
/// the views reach, until the game is over (or at once, with `once`, what the views show now).
pub fn run_watch(server: &str, code: &str, once: bool, mut out: impl Write) -> Result<(), String> {
    let rt = crate::server::runtime()?;
    let client = Client::new(server);
    let mut start: Option<Battle> = None;
    let mut shown: Option<u64> = None;
    let mut lost_since: Option<Instant> = None;
    loop {
        let w = match rt.block_on(client.watch(code)) {
            Ok(w) => {
                lost_since = None;
                w
            }
            // A dropped connection is tried again for a minute.
            Err(ClientError::Network(e)) if lost_since.is_none_or(|t| t.elapsed() < Duration::from_secs(60)) => {
                if lost_since.is_none() {
                    lost_since = Some(Instant::now());
                    writeln!(out, "(no answer from the server: {e}; trying again…)").map_err(|e| e.to_string())?;
                }
                std::thread::sleep(POLL);
                continue;
            }
            Err(e) => return Err(e.to_string()),
        };
        if shown != Some(w.seq) {
            shown = Some(w.seq);
            if start.is_none() {
                let first = w.views.first().ok_or("the server sent no view")?;
                start = Some(crate::server::client::scenario_for(first)?.1);
            }
            let start = start.as_ref().expect("set above");
            for line in lines(start, &w)? {
                writeln!(out, "{line}").map_err(|e| e.to_string())?;
            }
        }
        if w.over || once {
            return Ok(());
        }
        std::thread::sleep(POLL);
    }
}

/// What the spectator is shown of one answer: each view's units (as that side knows them),
/// or, once the game is over, the whole battle and its result.
pub fn lines(start: &Battle, w: &Watch) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    if w.over {
        out.push(format!("The battle is over after {} actions. The whole battle:", w.seq));
    } else {
        out.push(format!(
            "After action {} (spectators see the game {} actions behind):",
            w.seq,
            crate::server::game::WATCH_DELAY
        ));
    }
    let views: Vec<Battle> = w
        .views
        .iter()
        .map(|snap| crate::view::mirror::mirror(start, snap).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    if w.over {
        // One view of everything: both sides' units, and the result.
        let b = views.first().ok_or("the server sent no view")?;
        for side in 0..b.sides.len() {
            out.extend(view::units(b, side));
        }
        out.extend(view::result(b));
        return Ok(out);
    }
    for (side, b) in views.iter().enumerate() {
        out.push(format!(
            "— as {} know it (turn {} of {}, {:?} phase):",
            b.sides[side].name, b.game_turn, b.turn_limit, b.phase
        ));
        out.extend(view::units(b, side));
    }
    Ok(out)
}
