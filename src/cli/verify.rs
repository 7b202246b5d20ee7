//! `volley verify`: re-play a recording headless: `ok <state_hash>`, or where it diverges.

use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct Verify {
    recording: PathBuf,
}

impl Verify {
    pub fn run(self) -> Result<(), String> {
        let v = crate::replay::verify::verify_report(&self.recording)?;
        super::out::one_line(format_args!("ok {v}"))
    }
}
