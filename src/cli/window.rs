//! The commands that open the window: `play` without `--terminal` (and `volley` alone, the
//! main menu), `replay`, `edit`, `screenshot` and `check-screenshot`. Their options are read
//! in every build; what they do is in [`open`], which a build without the `gui` feature
//! replaces with refusals (and `play` with the terminal game).

use super::args::Rules;
use super::game::Start;
use super::refusal::Refusal;
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct Replay {
    recording: PathBuf,
}

#[derive(clap::Args)]
pub(super) struct Edit {
    scenario: Option<PathBuf>,
}

#[derive(clap::Args)]
// Without the window nothing reads the options: the command is refused.
#[cfg_attr(not(feature = "gui"), allow(dead_code))]
pub(super) struct Screenshot {
    scenario: PathBuf,
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 1600)]
    width: u32,
    #[arg(long, default_value_t = 1000)]
    height: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Show only part of the table: X,Y,WIDTH in cm (centre and width shown).
    #[arg(long, value_parser = parse_focus)]
    focus: Option<[f32; 3]>,
    /// Let the `eager` agent play both sides for N actions first.
    #[arg(long, default_value_t = 0)]
    play: u64,
    /// Picture the main menu instead of the battle.
    #[arg(long)]
    menu: bool,
    /// Picture the replay viewer on this recording instead (the scenario is the one it names).
    #[arg(long)]
    replay: Option<PathBuf>,
    /// With --replay: after this many actions (default 0).
    #[arg(long, requires = "replay")]
    at: Option<usize>,
    /// Overlays to show: arc, cone, command, los=X1:Y1:X2:Y2, tape=X1:Y1:X2:Y2 (commas between).
    #[arg(long)]
    overlay: Option<String>,
    /// Select the unit or commander whose name contains this.
    #[arg(long)]
    select: Option<String>,
    /// Preview the selection's first legal action of a group (move, fire, charge, deploy, order).
    #[arg(long)]
    preview: Option<String>,
    #[command(flatten)]
    rules: Rules,
}

/// Why `screenshot --at` needs `--replay`.
pub(super) const SCREENSHOT_REFUSALS: &[Refusal] = &[Refusal::needs(
    "at",
    "replay",
    "--at goes with --replay (a position in the recording)",
)];

#[derive(clap::Args)]
pub(super) struct CheckScreenshot {
    png: PathBuf,
}

/// `X,Y,WIDTH` in cm.
fn parse_focus(s: &str) -> Result<[f32; 3], String> {
    let v: Vec<f32> = s
        .split(',')
        .map(|x| x.trim().parse::<f32>().map_err(|e| format!("'{x}': {e}")))
        .collect::<Result<_, _>>()?;
    match v[..] {
        [x, y, w] if w > 0.0 && x.is_finite() && y.is_finite() && w.is_finite() => Ok([x, y, w]),
        _ => Err(format!("want X,Y,WIDTH in cm with WIDTH > 0, not '{s}'")),
    }
}

/// A game in the window: on the main menu (`menu`), or straight into the battle.
pub(super) fn play(start: Start, menu: bool) -> Result<(), String> {
    open::play(start, menu)
}

impl Replay {
    /// Verify the recording, then open the viewer on it.
    pub fn run(self) -> Result<(), String> {
        open::replay(self.recording)
    }
}

impl Edit {
    pub fn run(self) -> Result<(), String> {
        open::edit(self.scenario.unwrap_or_else(|| super::args::DEFAULT_SCENARIO.into()))
    }
}

impl Screenshot {
    pub fn run(self) -> Result<(), String> {
        open::screenshot(self)
    }
}

impl CheckScreenshot {
    pub fn run(self) -> Result<(), String> {
        open::check_screenshot(&self.png)
    }
}

#[cfg(feature = "gui")]
mod open {
    use crate::cli::args::{DEFAULT_SCENARIO, side_agents};
    use crate::cli::game::Start;
    use crate::cli::out::one_line;
    use crate::cli::window::Screenshot;
    use crate::replay::Recording;
    use crate::ui::{Launch, screenshot as shot};
    use std::path::{Path, PathBuf};

    /// The window's launch with nothing asked of it but the battle.
    fn launch(battle: crate::battle::Battle, scenario: PathBuf, seed: u64, sides: [String; 2]) -> Launch {
        Launch {
            battle,
            events: Vec::new(),
            scenario,
            seed,
            sides,
            recording: None,
            menu: false,
            screenshot: None,
            width: 1600,
            height: 960,
            replay: None,
            edit: None,
        }
    }

    pub(super) fn play(start: Start, menu: bool) -> Result<(), String> {
        // `--turn-file` needs `--terminal` (clap): the window plays no game by file.
        let Start {
            scenario,
            sides,
            seed,
            load,
            rules,
            ..
        } = start;
        let (battle, events, recording, seed) = match load {
            Some(save) => {
                let rec = Recording::load(&save).map_err(|e| e.to_string())?;
                let (b, _) =
                    crate::replay::verify::verify(&rec, &save).map_err(|e| format!("{}: {e}", save.display()))?;
                let seed = rec.seed;
                (b, Vec::new(), Some(rec), seed)
            }
            None => {
                let (b, events) =
                    crate::load_battle_with(&scenario, seed, &rules.switches()?).map_err(|e| e.to_string())?;
                (b, events, None, seed)
            }
        };
        let names = side_agents(&battle, &sides, "human")?;
        crate::ui::run(Launch {
            events,
            recording,
            menu,
            ..launch(battle, scenario, seed, names)
        })
    }

    /// The scenario editor on the file (the table behind it starts as the document's battle,
    /// or the default scenario's until the document's can be built).
    pub(super) fn edit(scenario: PathBuf) -> Result<(), String> {
        let doc = crate::editor::Doc::open(&scenario).map_err(|e| e.to_string())?;
        let (battle, events) = match crate::editor::preview::preview(&doc, 1) {
            Ok(b) => b,
            Err(_) => {
                let default = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_SCENARIO);
                crate::load_battle(&default, 1).map_err(|e| e.to_string())?
            }
        };
        crate::ui::run(Launch {
            events,
            edit: Some(scenario.clone()),
            ..launch(battle, scenario, 1, ["human".into(), "human".into()])
        })
    }

    pub(super) fn replay(path: PathBuf) -> Result<(), String> {
        let rec = Recording::load(&path).map_err(|e| e.to_string())?;
        let timeline = crate::replay::timeline::Timeline::build(rec.clone(), &path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let scenario = crate::replay::verify::scenario_path(&rec, &path);
        let battle = timeline.state_at(0);
        let seed = rec.seed;
        crate::ui::run(Launch {
            recording: Some(rec),
            replay: Some((timeline, 0)),
            ..launch(battle, scenario, seed, ["replay".into(), "replay".into()])
        })
    }

    /// The groups of legal actions `--preview` can hold (the orders panel's groups).
    const PREVIEW_GROUPS: [&str; 5] = ["move", "fire", "charge", "deploy", "order"];

    /// Draw the battle, save a PNG, check it shows a battle.
    pub(super) fn screenshot(s: Screenshot) -> Result<(), String> {
        let overlays = s
            .overlay
            .as_deref()
            .map(crate::ui::measure::parse_overlays)
            .transpose()?;
        let (width, height) = (s.width, s.height);
        if !(64..=8192).contains(&width) || !(64..=8192).contains(&height) {
            return Err(format!("--width and --height must be 64 to 8192, not {width}x{height}"));
        }
        if let Some(p) = &s.preview
            && !PREVIEW_GROUPS.iter().any(|g| g.eq_ignore_ascii_case(p))
        {
            return Err(format!(
                "--preview wants one of {}, not '{p}'",
                PREVIEW_GROUPS.join(", ")
            ));
        }
        let (battle, events) =
            crate::load_battle_with(&s.scenario, s.seed, &s.rules.switches()?).map_err(|e| e.to_string())?;
        if let Some(name) = &s.select {
            let lower = name.to_lowercase();
            let found = battle.commanders.iter().any(|c| c.name.to_lowercase().contains(&lower))
                || battle.units.iter().any(|u| u.name.to_lowercase().contains(&lower));
            if !found {
                return Err(format!(
                    "--select: no unit or commander whose name contains '{name}' in {}",
                    s.scenario.display()
                ));
            }
        }
        let (replay, recording) = match &s.replay {
            Some(path) => {
                let rec = Recording::load(path).map_err(|e| e.to_string())?;
                let t = crate::replay::timeline::Timeline::build(rec.clone(), path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                (Some((t, s.at.unwrap_or(0))), Some(rec))
            }
            None => (None, None),
        };
        shot::check_before_window(&s.out, overlays.as_ref(), &battle, replay.as_ref())?;
        let sides: [String; 2] = match (&recording, s.play) {
            (Some(_), _) => ["replay".into(), "replay".into()],
            (None, 0) => ["human".into(), "human".into()],
            (None, _) => ["eager".into(), "eager".into()],
        };
        crate::ui::run(Launch {
            events,
            recording,
            menu: s.menu,
            screenshot: Some(shot::ShotRequest {
                out: s.out.clone(),
                focus: s.focus,
                after_actions: s.play,
                overlays,
                select: s.select,
                preview: s.preview,
            }),
            width,
            height,
            replay,
            ..launch(battle, s.scenario, s.seed, sides)
        })?;
        if s.focus.is_some() {
            // A close-up need not show both sides.
            return Ok(());
        }
        // The player's palette (settings) decides which side colours the picture must show.
        let palette = crate::ui::settings::load_from_env().0.palette;
        let stats = shot::check_png_with(&s.out, crate::ui::palette::side_rgb(palette))?;
        match stats.problem() {
            None => one_line(format_args!("{}: ok ({stats})", s.out.display())),
            Some(p) => Err(format!("{}: {p}", s.out.display())),
        }
    }

    pub(super) fn check_screenshot(png: &Path) -> Result<(), String> {
        let stats = shot::check_png(png)?;
        match stats.problem() {
            None => one_line(format_args!("{}: ok ({stats})", png.display())),
            Some(p) => Err(format!("{}: {p}", png.display())),
        }
    }
}

#[cfg(not(feature = "gui"))]
mod open {
    use crate::cli::game::Start;
    use crate::cli::window::Screenshot;
    use std::path::{Path, PathBuf};

    /// Without the window, `play` is the terminal game (and the menu its default battle).
    pub(super) fn play(start: Start, _menu: bool) -> Result<(), String> {
        crate::cli::game::terminal(start)
    }

    pub(super) fn edit(scenario: PathBuf) -> Result<(), String> {
        Err(format!(
            "{}: the scenario editor needs the window (build with the gui feature)",
            scenario.display()
        ))
    }

    pub(super) fn replay(path: PathBuf) -> Result<(), String> {
        Err(format!(
            "{}: the replay viewer needs the window (build with the gui feature); `volley verify` checks it headless",
            path.display()
        ))
    }

    pub(super) fn screenshot(_: Screenshot) -> Result<(), String> {
        Err("this build has no window (built without the `gui` feature)".into())
    }

    pub(super) fn check_screenshot(_: &Path) -> Result<(), String> {
        Err("this build has no window (built without the `gui` feature)".into())
    }
}
