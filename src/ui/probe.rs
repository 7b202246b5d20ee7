//! The window's probe for tests that drive the real window from outside (`xdotool` under
//! Xvfb): with `VOLLEY_PROBE=FILE` set, the window writes what is where on the screen to
//! `FILE` as JSON whenever it changes: the screen and phase, each unit's and commander's place
//! in window pixels (read from the pieces' entities through the table camera), the selection,
//! where the frame saw the pointer, the order at the pointer, the status line and refusal,
//! and the actions recorded so far. A test reads it to know where to click, and what its
//! clicks did. Written atomically (a temporary file, then a rename), so a reader never sees
//! half a file.

use crate::app::{BattleState, CommanderBase, Stand, UnitPiece};
use crate::ui::camera::TableCamera;
use crate::ui::common::{PointerOrder, Screen, Selection};
use crate::ui::session::{BattleLog, GameRecord};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use serde::Serialize;
use std::path::PathBuf;

/// The environment variable naming the probe's file.
pub const PROBE_ENV: &str = "VOLLEY_PROBE";

/// Where the probe writes.
#[derive(Resource, Clone, Debug)]
pub struct ProbeFile(pub PathBuf);

pub(crate) fn plugin(app: &mut App) {
    if let Some(path) = std::env::var_os(PROBE_ENV).filter(|p| !p.is_empty()) {
        app.insert_resource(ProbeFile(PathBuf::from(path)))
            .add_systems(Last, write_probe);
    }
}

/// A piece's place in window pixels (origin top-left, y down).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct PieceAt {
    pub id: u32,
    pub name: String,
    pub side: usize,
    /// The centre of its bases (a unit: the middle of its stands).
    pub at: [f32; 2],
    pub stands: Vec<[f32; 2]>,
    pub facing_deg: f64,
}

/// What the probe writes.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Probe {
    pub screen: String,
    /// The player at the table may act now (their turn, the table shown).
    pub at_table: bool,
    pub window: [f32; 2],
    pub phase: String,
    /// The game turn (1 to the scenario's limit).
    pub game_turn: u32,
    pub active: usize,
    pub actor: usize,
    pub actions: u64,
    pub over: bool,
    /// A decision window is open (counter-initiative, reaction, support).
    pub window_open: bool,
    /// The units holding an order's actions this command phase.
    pub holding: Vec<u32>,
    /// The question "end the command phase?" is open.
    pub end_phase_asked: bool,
    /// A melee's result is held on the table (`handover::ResultPause`): before the hot-seat
    /// hand-over, or in solo play till the player goes on.
    pub result_pause: bool,
    /// The held melee's lines, as its panel shows them (the dice drawn under each).
    pub result_lines: Vec<String>,
    pub selection: [Option<u32>; 2],
    /// Where the frame saw the pointer, in window pixels (none: outside the window).
    pub pointer: Option<[f32; 2]>,
    pub pointer_order: Vec<String>,
    pub status: Option<String>,
    pub refusal: Option<String>,
    /// What the open decision window asks of the player at the table (`prompt::WindowPrompt`).
    pub prompt: Option<String>,
    /// The actions recorded so far, as the recording holds them.
    pub recorded: Vec<crate::battle::Action>,
    pub units: Vec<PieceAt>,
    pub commanders: Vec<PieceAt>,
    /// The scenario editor, on its screen.
    pub editor: Option<EditorProbe>,
    /// The main menu's buttons as last drawn (label, window rect [x0, y0, x1, y1]), on its
    /// screen.
    pub menu: Vec<(String, [f32; 4])>,
    /// The "Play online" window, while it is open on the menu screen.
    pub online_menu: Option<OnlineMenuProbe>,
    /// The online game at the table, if the table's game is one.
    pub online: Option<OnlineProbe>,
    /// The side whose computer player is thinking, and how many choices computer players
    /// have made off the frame so far (`play::Thinking`).
    pub thinking: Option<usize>,
    pub thought: u64,
    /// The orders panel's buttons as last drawn (label, window rect [x0, y0, x1, y1]).
    pub orders: Vec<(String, [f32; 4])>,
    /// An intent is being played out (`ui::intent`).
    pub intent_in_hand: bool,
}

/// What the probe tells of the "Play online" window.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct OnlineMenuProbe {
    /// Its buttons and fields: label and window rect [x0, y0, x1, y1] in pixels.
    pub buttons: Vec<(String, [f32; 4])>,
    pub server: String,
    /// The scenario "Host the game" would host (the menu's choice).
    pub scenario: Option<String>,
    pub busy: Option<String>,
    pub error: Option<String>,
}

/// What the probe tells of an online game at the table.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct OnlineProbe {
    pub server: String,
    pub game: String,
    pub side: usize,
    pub invite: Option<String>,
    /// Actions the server has applied, as last told.
    pub seq: u64,
    pub your_decision: bool,
    pub connected: bool,
    /// An action sent and not answered yet.
    pub sent: bool,
    pub over: bool,
    pub recording: Option<String>,
}

/// The online parts the probe reads: the "Play online" window and the settings (its server),
/// and the online game with its link.
#[derive(SystemParam)]
struct ProbeOnline<'w> {
    menu: Option<Res<'w, crate::ui::online::OnlineMenu>>,
    settings: Option<Res<'w, crate::ui::settings::Settings>>,
    game: Option<Res<'w, crate::ui::online::OnlineGame>>,
    link: Option<Res<'w, crate::ui::online::Link>>,
}

impl ProbeOnline<'_> {
    fn menu(&self, screen: &Screen, scenario: Option<String>) -> Option<OnlineMenuProbe> {
        let m = self.menu.as_ref().filter(|m| m.open && *screen == Screen::Menu)?;
        Some(OnlineMenuProbe {
            buttons: m.buttons.clone(),
            server: self.settings.as_ref().map(|s| s.server.clone()).unwrap_or_default(),
            scenario,
            busy: m.busy().map(str::to_string),
            error: m.error.clone(),
        })
    }

    fn game(&self) -> Option<OnlineProbe> {
        let (g, l) = (self.game.as_ref()?, self.link.as_ref()?);
        Some(OnlineProbe {
            server: l.server.clone(),
            game: l.seat.game.clone(),
            side: l.seat.side,
            invite: l.seat.invite.clone(),
            seq: g.seq,
            your_decision: g.your_decision,
            connected: g.connected,
            sent: g.sent.is_some(),
            over: g.over,
            recording: g.recording.as_ref().map(|p| p.display().to_string()),
        })
    }
}

/// What the probe tells of the scenario editor.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct EditorProbe {
    pub path: String,
    pub dirty: bool,
    pub version: u64,
    pub tool: String,
    pub selected: Option<String>,
    /// Points of the outline being drawn.
    pub drawing: usize,
    /// Area terrain by kind and name, in order.
    pub areas: Vec<String>,
    /// Units per side, by id.
    pub units: Vec<Vec<String>>,
    pub objectives: usize,
    pub problems: Vec<String>,
    pub status: Option<String>,
    /// The panel's buttons: label and window rect [x0, y0, x1, y1] in pixels.
    pub buttons: Vec<(String, [f32; 4])>,
    /// Window pixels of the table's corners (0, 0) and (width, height).
    pub table_px: [[f32; 2]; 2],
    pub can_undo: bool,
}

/// The game as the probe reports it: the battle, the screen, the selection and the order at
/// the pointer, the log and record, the open questions (end the phase, the result's pause),
/// whose turn it is, the editor, the computer's thinking and the menu.
#[derive(SystemParam)]
struct ProbeGame<'w> {
    battle: Res<'w, BattleState>,
    screen: Res<'w, State<Screen>>,
    selection: Res<'w, Selection>,
    pointer: Res<'w, PointerOrder>,
    log: Res<'w, BattleLog>,
    record: Res<'w, GameRecord>,
    ask: Res<'w, crate::ui::screens::battle::EndPhaseAsk>,
    turn: Res<'w, State<crate::ui::session::Turn>>,
    seats: Res<'w, crate::ui::session::Seats>,
    pause: Res<'w, crate::ui::screens::handover::ResultPause>,
    editor: Option<Res<'w, crate::ui::editor::Editor>>,
    thinking: Option<Res<'w, crate::ui::play::Thinking>>,
    menu: Option<Res<'w, crate::ui::screens::menu::MenuState>>,
    prompt: Option<Res<'w, crate::ui::prompt::WindowPrompt>>,
    orders: Option<Res<'w, crate::ui::panels::OrdersShown>>,
    intent: Option<Res<'w, crate::ui::intent::IntentInHand>>,
}

/// The pieces where the window shows them: the window, the table's camera, the stands, the
/// commanders' bases and the units.
#[derive(SystemParam)]
struct ProbePieces<'w, 's> {
    window: Option<Single<'w, 's, &'static Window, With<PrimaryWindow>>>,
    camera: Option<Single<'w, 's, (&'static Camera, &'static GlobalTransform), With<TableCamera>>>,
    stands: Query<'w, 's, (&'static Stand, &'static GlobalTransform)>,
    commanders: Query<'w, 's, (&'static CommanderBase, &'static GlobalTransform)>,
    pieces: Query<'w, 's, &'static UnitPiece>,
}

fn write_probe(
    file: Res<ProbeFile>,
    game: ProbeGame,
    on_screen: ProbePieces,
    online: ProbeOnline,
    mut last: Local<Option<Probe>>,
) {
    let ProbeGame {
        battle,
        screen,
        selection,
        pointer,
        log,
        record,
        ask,
        turn,
        seats,
        pause,
        editor,
        thinking,
        menu,
        prompt,
        orders,
        intent,
    } = game;
    let ProbePieces {
        window,
        camera,
        stands,
        commanders,
        pieces,
    } = on_screen;
    let (Some(window), Some(camera)) = (window, camera) else {
        return;
    };
    let (cam, cam_tf) = camera.into_inner();
    let b = &battle.0;
    let px = |p: Vec3| {
        cam.world_to_viewport(cam_tf, p)
            .map(|v| [v.x, v.y])
            .unwrap_or([f32::NAN, f32::NAN])
    };
    let mut units: Vec<PieceAt> = pieces
        .iter()
        .filter(|p| (p.unit as usize) < b.units.len() && b.unit(p.unit).alive())
        .map(|p| {
            let u = b.unit(p.unit);
            PieceAt {
                id: u.id,
                name: u.name.clone(),
                side: u.side,
                at: [0.0, 0.0],
                stands: Vec::new(),
                facing_deg: u.pose.facing.to_degrees(),
            }
        })
        .collect();
    units.sort_by_key(|u| u.id);
    let mut sorted: Vec<(&Stand, &GlobalTransform)> = stands.iter().collect();
    sorted.sort_by_key(|(s, _)| (s.unit, s.index));
    for (s, at) in sorted {
        if let Some(u) = units.iter_mut().find(|u| u.id == s.unit) {
            u.stands.push(px(at.translation()));
        }
    }
    for u in &mut units {
        let n = u.stands.len().max(1) as f32;
        let sum = u
            .stands
            .iter()
            .fold([0.0, 0.0], |acc, p| [acc[0] + p[0], acc[1] + p[1]]);
        u.at = [sum[0] / n, sum[1] / n];
    }
    let mut cmds: Vec<PieceAt> = commanders
        .iter()
        .filter(|(c, _)| (c.commander as usize) < b.commanders.len() && b.commander(c.commander).alive())
        .map(|(c, at)| {
            let cmd = b.commander(c.commander);
            let p = px(at.translation());
            PieceAt {
                id: cmd.id,
                name: cmd.name.clone(),
                side: cmd.side,
                at: p,
                stands: vec![p],
                facing_deg: 0.0,
            }
        })
        .collect();
    cmds.sort_by_key(|c| c.id);
    let hosting = menu
        .as_ref()
        .and_then(|m| m.scenarios.get(m.chosen))
        .map(|s| s.title.clone());
    let probe = Probe {
        screen: format!("{:?}", screen.get()),
        // The turn state follows the battle a frame later: not yet at the table till it has.
        at_table: *screen.get() == Screen::Battle
            && *turn.get() == crate::ui::session::Turn::Player(b.actor())
            && crate::ui::session::at_table(turn.get(), &seats, pause.0.is_some()),
        window: [window.width(), window.height()],
        phase: format!("{:?}", b.phase),
        game_turn: b.game_turn,
        active: b.active,
        actor: b.actor(),
        actions: b.actions,
        over: b.is_over(),
        window_open: b.step != crate::battle::Step::Open,
        holding: {
            let mut h: Vec<u32> = b
                .cmd
                .orders
                .iter()
                .filter(|(_, o)| o.credits > 0)
                .map(|(u, _)| *u)
                .collect();
            h.sort_unstable();
            h
        },
        end_phase_asked: ask.open(b),
        result_pause: pause.0.is_some(),
        result_lines: pause
            .0
            .iter()
            .flatten()
            .map(|l| crate::ui::common::plain(&l.text))
            .collect(),
        selection: [selection.unit, selection.commander],
        pointer: window.cursor_position().map(|c| [c.x, c.y]),
        pointer_order: pointer.lines.clone(),
        status: log.status.clone(),
        prompt: prompt.as_ref().and_then(|p| p.0.clone()),
        refusal: log
            .refusal
            .as_ref()
            .map(|(what, r)| format!("{what}: {}: {}", r.rule, r.reason)),
        recorded: record.recording.actions.clone(),
        thinking: thinking.as_ref().and_then(|t| t.side),
        thought: thinking.as_ref().map_or(0, |t| t.decided),
        orders: orders.map(|o| o.0.clone()).unwrap_or_default(),
        intent_in_hand: intent.is_some_and(|i| i.0.is_some()),
        units,
        commanders: cmds,
        editor: editor
            .filter(|_| *screen.get() == Screen::Editor)
            .and_then(|e| editor_probe(&e, &px)),
        menu: menu
            .filter(|_| *screen.get() == Screen::Menu)
            .map(|m| m.buttons.clone())
            .unwrap_or_default(),
        online_menu: online.menu(screen.get(), hosting),
        online: online.game(),
    };
    if last.as_ref() == Some(&probe) {
        return;
    }
    if let Ok(json) = serde_json::to_string_pretty(&probe) {
        let tmp = file.0.with_extension("tmp");
        if std::fs::write(&tmp, json).is_ok() {
            let _ = std::fs::rename(&tmp, &file.0);
        }
    }
    *last = Some(probe);
}

fn editor_probe(e: &crate::ui::editor::Editor, px: &dyn Fn(Vec3) -> [f32; 2]) -> Option<EditorProbe> {
    let doc = e.doc.as_ref()?;
    let sc = &doc.scenario;
    Some(EditorProbe {
        path: doc.path.display().to_string(),
        dirty: doc.dirty(),
        version: doc.version,
        tool: format!("{:?}", e.tool),
        selected: e.selected.map(|p| p.label(sc)),
        drawing: e.drawing.len(),
        areas: sc
            .terrain
            .areas
            .iter()
            .map(|a| format!("{:?} {}", a.kind, a.name))
            .collect(),
        units: sc
            .sides
            .iter()
            .map(|s| s.units.iter().map(|u| u.id.clone()).collect())
            .collect(),
        objectives: sc.objectives.len(),
        problems: e.problems.iter().map(|p| p.msg.clone()).collect(),
        status: e.status.clone(),
        buttons: e.buttons.clone(),
        table_px: [
            px(Vec3::ZERO),
            px(Vec3::new(sc.table.width as f32, sc.table.height as f32, 0.0)),
        ],
        can_undo: doc.can_undo(),
    })
}
