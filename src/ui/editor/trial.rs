//! Trying a scenario from the editor: a play-test (hot-seat, or against the scheduler) of the
//! saved file, back to the editor when the battle is left; and a balance run (`volley
//! balance`'s games) in a thread of its own, with a progress bar, its win rates and their
//! 95% intervals.

use super::state::Editor;
use crate::sim::BalanceResult;
use crate::ui::common::Screen;
use bevy::prelude::*;
use bevy_egui::egui;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TrialRequest>()
        .init_resource::<BalanceJob>()
        .add_systems(Update, start_trial.run_if(in_state(Screen::Editor)))
        .add_systems(OnEnter(Screen::Menu), back_to_editor);
}

/// Who plays the play-test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrialAsk {
    HotSeat,
    /// The author plays the first side against the scheduler.
    VsScheduler,
}

/// A play-test to start, of the scenario saved at the path.
#[derive(Resource, Default)]
pub struct TrialRequest(pub Option<(TrialAsk, PathBuf)>);

/// The seed of play-tests.
pub const TRIAL_SEED: u64 = 1;

fn start_trial(mut request: ResMut<TrialRequest>, mut editor: ResMut<Editor>, mut commands: Commands) {
    let Some((ask, path)) = request.0.take() else { return };
    let players: [String; 2] = match ask {
        TrialAsk::HotSeat => ["human".into(), "human".into()],
        TrialAsk::VsScheduler => ["human".into(), "scheduler".into()],
    };
    let start = crate::ui::screens::menu::Start::New {
        scenario: path,
        seed: TRIAL_SEED,
        switches: Default::default(),
    };
    match crate::ui::screens::menu::start_game(&mut commands, start, players) {
        Ok(()) => {
            editor.playtesting = true;
            editor.shown = None;
        }
        Err(e) => editor.status = Some(format!("cannot play it: {e}")),
    }
}

/// A play-test's battle left for the menu goes back to the editor instead.
fn back_to_editor(mut editor: ResMut<Editor>, mut next: ResMut<NextState<Screen>>) {
    if editor.playtesting && editor.doc.is_some() {
        editor.playtesting = false;
        editor.shown = None;
        next.set(Screen::Editor);
    }
}

/// A balance run in its own thread.
#[derive(Resource)]
pub struct BalanceJob {
    pub games: u64,
    pub agent: String,
    done: Arc<AtomicU64>,
    result: Arc<Mutex<Option<Result<BalanceResult, String>>>>,
    running: Option<(u64, std::thread::JoinHandle<()>)>,
    last: Option<Result<BalanceResult, String>>,
}

impl Default for BalanceJob {
    fn default() -> Self {
        BalanceJob {
            games: 20,
            agent: "greedy".into(),
            done: Arc::new(AtomicU64::new(0)),
            result: Arc::new(Mutex::new(None)),
            running: None,
            last: None,
        }
    }
}

impl BalanceJob {
    pub fn running(&self) -> bool {
        self.running.is_some()
    }

    /// Starts `games` games of the scenario at `path` (seeds 1..=games), `agents` by side.
    pub fn start(&mut self, path: PathBuf, games: u64, agents: [String; 2]) {
        if self.running.is_some() {
            return;
        }
        self.done.store(0, Ordering::SeqCst);
        self.last = None;
        let (done, result) = (self.done.clone(), self.result.clone());
        let handle = std::thread::spawn(move || {
            let tick = || {
                done.fetch_add(1, Ordering::SeqCst);
            };
            let r = crate::sim::balance(&path, &agents, games, 1, &Default::default(), &tick);
            *result.lock().expect("the balance result") = Some(r);
        });
        self.running = Some((games, handle));
    }

    /// Games played of the run (or of the last run), and how many it plays.
    pub fn progress(&self) -> (u64, u64) {
        let of = self.running.as_ref().map_or(self.games, |(g, _)| *g);
        (self.done.load(Ordering::SeqCst), of)
    }

    /// Takes a finished run's result.
    pub fn poll(&mut self) -> Option<&Result<BalanceResult, String>> {
        if let Some((_, h)) = &self.running
            && h.is_finished()
        {
            let (_, h) = self.running.take().expect("running");
            let _ = h.join();
            self.last = self.result.lock().expect("the balance result").take();
        }
        self.last.as_ref()
    }

    /// The progress bar, then the win rates with their intervals.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let (done, of) = self.progress();
        if self.running() {
            ui.add(
                egui::ProgressBar::new(done as f32 / of.max(1) as f32)
                    .text(format!("{done} of {of} games"))
                    .animate(true),
            );
        }
        match self.poll() {
            Some(Ok(r)) => {
                for s in &r.sides {
                    wrapped(
                        ui,
                        format!(
                            "{} ({}): won {} of {} ({:.0}%, 95% interval {:.0}–{:.0}%), {:.1} units lost a game",
                            s.side,
                            s.agent,
                            s.wins,
                            r.games,
                            s.win_rate * 100.0,
                            s.ci95[0] * 100.0,
                            s.ci95[1] * 100.0,
                            s.avg_units_lost
                        ),
                    );
                }
                wrapped(
                    ui,
                    format!("{} drawn; {:.1} game turns a game", r.draws, r.avg_game_turns),
                );
            }
            Some(Err(e)) => {
                wrapped(ui, e.clone());
            }
            None => {}
        }
        if self.running() {
            ui.ctx().request_repaint();
        }
    }
}

fn wrapped(ui: &mut egui::Ui, text: String) {
    ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Wrap));
}
