//! `volley view`: a recorded game as one side may know it: the owned snapshot
//! (`view::snapshot::Snapshot`) a game server would send that side's client, as JSON (or RON).

use crate::replay::Recording;
use crate::replay::timeline::Timeline;
use crate::view::snapshot::Snapshot;
use crate::view::{PlayerView, Viewer};
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct View {
    /// The recording (a saved game); it must re-play to its hashes.
    recording: PathBuf,
    /// The side whose view (0 or 1); everyone's if not given.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=1))]
    side: Option<u8>,
    /// After the first N actions (all of them if not given).
    #[arg(long)]
    at: Option<usize>,
    /// RON instead of JSON.
    #[arg(long)]
    ron: bool,
}

impl View {
    pub fn run(self) -> Result<(), String> {
        let rec = Recording::load(&self.recording).map_err(|e| e.to_string())?;
        let timeline =
            Timeline::build(rec, &self.recording).map_err(|e| format!("{}: {e}", self.recording.display()))?;
        let b = timeline.state_at(self.at.unwrap_or(usize::MAX));
        let viewer = Viewer::of(self.side.map(usize::from));
        let snap = Snapshot::of(&PlayerView::of(&b, viewer));
        let text = if self.ron {
            ron::ser::to_string_pretty(&snap, ron::ser::PrettyConfig::default()).map_err(|e| e.to_string())?
        } else {
            serde_json::to_string_pretty(&snap).map_err(|e| e.to_string())?
        };
        super::out::one_line(format_args!("{text}"))
    }
}
