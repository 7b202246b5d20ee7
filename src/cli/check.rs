//! `volley check`: validate maps, scenarios, army lists, rules files and recordings.

use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct Check {
    files: Vec<PathBuf>,
    #[arg(long)]
    json: bool,
}

impl Check {
    pub fn run(self) -> Result<(), String> {
        crate::data::check::run(&self.files, self.json, &crate::replay::check_recording)
    }
}
