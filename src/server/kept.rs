//! The seats a client keeps on this machine (`saves/online/<game>.json`), the terminal's and
//! the window's alike: a seat's token is the only key to it, shown once by the server, so it
//! is kept to come back to the game later ("my games").

use super::protocol::Seat;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A seat as the client keeps it between sessions (`saves/online/<game>.json`): enough to
/// come back to the game (`volley play --server URL --game ID --terminal`, the window's My games).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeptSeat {
    pub server: String,
    pub seat: Seat,
}

/// A game's id as part of a file's name: its letters and digits (the server's ids are
/// nothing else; a server that sent others could not name a path elsewhere).
pub fn file_id(id: &str) -> String {
    id.chars().filter(|c| c.is_ascii_alphanumeric()).collect()
}

/// Where a seat of game `id` is kept.
pub fn seat_file(id: &str) -> PathBuf {
    Path::new("saves").join("online").join(format!("{}.json", file_id(id)))
}

/// Keep a seat (its token is the only key to it).
pub fn keep_seat(server: &str, seat: &Seat) -> Result<PathBuf, String> {
    let path = seat_file(&seat.game);
    std::fs::create_dir_all(path.parent().expect("a folder")).map_err(|e| format!("saves/online: {e}"))?;
    let kept = KeptSeat {
        server: server.to_string(),
        seat: seat.clone(),
    };
    let text = serde_json::to_string_pretty(&kept).expect("a seat serialises");
    crate::replay::save_atomically(&path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// The seat kept for game `id`.
pub fn kept_seat(id: &str) -> Result<KeptSeat, String> {
    let path = seat_file(id);
    let text =
        std::fs::read_to_string(&path).map_err(|e| format!("no seat kept for game {id} ({}: {e})", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Every seat kept here, in file order.
pub fn kept_seats() -> Vec<KeptSeat> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(Path::new("saves").join("online"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files
        .iter()
        .filter_map(|p| serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok())
        .collect()
}

/// Where a finished game `id`'s recording is saved, in the folder of saves `saves`.
pub fn recording_file(saves: &Path, id: &str) -> PathBuf {
    saves.join(format!("online-{}.ron", file_id(id)))
}

/// Save finished game `id`'s recording `text` (as the server gave it) in `saves`, made if
/// missing, atomically: where it went.
pub fn save_recording(saves: &Path, id: &str, text: &str) -> Result<PathBuf, String> {
    let path = recording_file(saves, id);
    std::fs::create_dir_all(saves).map_err(|e| format!("{}: {e}", saves.display()))?;
    crate::replay::save_atomically(&path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}
