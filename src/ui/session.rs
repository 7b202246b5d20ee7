//! The game being played in the window: who plays each side, the record of the game (for
//! saves), the battle log, the last action's dice, the last refusal, and who sits at the table.
//! Agents play their side through `ActionRequest`s like a person.

use crate::agents::{self, Agent};
use crate::battle::ecs::{ActionApplied, ActionRefused, ActionRequest, BattleState};
use crate::battle::{Action, Battle, Event, Phase, Refusal, SideId};
use crate::replay::Recording;
use crate::ui::common::{Preview, Screen, Selection};
use bevy::prelude::*;
use std::path::{Path, PathBuf};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, agent_turn.run_if(in_state(Screen::Battle)))
        .add_systems(PostUpdate, (on_applied, on_refused, seat).chain());
}

/// Where the window autosaves at the end of every player turn (as the terminal game does).
pub const AUTOSAVE: &str = crate::terminal::AUTOSAVE;

/// One line of the battle log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    pub game_turn: u32,
    /// An action (a heading) or what it caused.
    pub action: bool,
    pub text: String,
}

#[derive(Resource)]
pub struct Session {
    pub scenario: PathBuf,
    pub seed: u64,
    /// `human` or an agent's name, by side.
    pub sides: [String; 2],
    pub recording: Recording,
    pub log: Vec<LogLine>,
    /// The last applied action and what it caused (the dice panel).
    pub last: Option<(String, Vec<String>)>,
    /// The last refused action and why.
    pub refusal: Option<(String, Refusal)>,
    /// The side whose player sits at the table (hot-seat).
    pub viewer: Option<SideId>,
    /// Never hide the table (screenshots, a game with at most one human).
    pub no_handover: bool,
    /// A short message for the status line (saved, loaded...).
    pub status: Option<String>,
    /// The steps that can be taken back (since the last roll, reveal or change of player).
    pub undo: super::undo::UndoStack,
}

impl Session {
    pub fn new(
        battle: &Battle,
        events: &[Event],
        scenario: PathBuf,
        seed: u64,
        sides: [String; 2],
        recording: Option<Recording>,
        no_handover: bool,
    ) -> Session {
        let recording =
            recording.unwrap_or_else(|| Recording::start(battle, &scenario.display().to_string(), seed, None));
        let mut log = vec![LogLine {
            game_turn: battle.game_turn,
            action: true,
            text: battle.title.clone(),
        }];
        log.extend(events.iter().map(|e| LogLine {
            game_turn: battle.game_turn,
            action: false,
            text: battle.describe(e),
        }));
        let humans: Vec<SideId> = (0..2).filter(|&s| sides[s] == "human").collect();
        let viewer = if humans.len() == 1 || no_handover {
            Some(humans.first().copied().unwrap_or(battle.actor()))
        } else {
            None
        };
        Session {
            scenario,
            seed,
            sides,
            recording,
            log,
            last: None,
            refusal: None,
            viewer,
            no_handover: no_handover || humans.len() < 2,
            status: None,
            undo: super::undo::UndoStack::new(battle),
        }
    }

    /// Log an action (a heading) and what it caused, and show it in the dice panel.
    pub fn push_action(&mut self, game_turn: u32, heading: String, lines: Vec<String>) {
        self.log.push(LogLine {
            game_turn,
            action: true,
            text: heading.clone(),
        });
        self.log.extend(lines.iter().map(|l| LogLine {
            game_turn,
            action: false,
            text: l.clone(),
        }));
        self.last = Some((heading, lines));
    }

    pub fn human(&self, side: SideId) -> bool {
        self.sides[side] == "human"
    }

    /// Save the game so far (a recording: `volley play --load FILE` continues it).
    pub fn save(&mut self, path: &Path) {
        self.status = Some(match self.recording.save(path) {
            Ok(()) => format!("saved to {}", path.display()),
            Err(e) => format!("could not save to {}: {e}", path.display()),
        });
    }
}

/// The programs playing a side (not `Send`: they live on the main thread).
pub struct Agents(pub [Option<Box<dyn Agent>>; 2]);

impl Agents {
    pub fn new(sides: &[String; 2], seed: u64) -> Result<Agents, String> {
        let mut out: [Option<Box<dyn Agent>>; 2] = [None, None];
        for s in 0..2 {
            // `replay`: the replay viewer moves the table, nobody plays.
            if sides[s] != "human" && sides[s] != "replay" {
                out[s] = Some(agents::by_name(&sides[s], seed, s)?);
            }
        }
        Ok(Agents(out))
    }
}

/// Seconds between a computer player's actions, so a person can follow its turn.
pub const AGENT_PACE: f32 = 0.5;

/// An agent whose turn it is picks one legal action every `AGENT_PACE` seconds; its reason
/// goes into the battle log.
#[allow(clippy::too_many_arguments)]
fn agent_turn(
    mut agents: NonSendMut<Agents>,
    battle: Res<BattleState>,
    mut session: ResMut<Session>,
    mut requests: MessageWriter<ActionRequest>,
    mut waiting: Local<Option<u64>>,
    mut clock: Local<f32>,
    time: Res<Time>,
    shot: Option<Res<super::screenshot::ShotRequest>>,
    anim: Option<Res<super::animation::Anim>>,
) {
    let b = &battle.0;
    if b.is_over() {
        return;
    }
    // A screenshot after N actions: play them at once, then hold still.
    let delay = match &shot {
        Some(s) if b.actions >= s.after_actions => return,
        Some(_) => 0.0,
        None => AGENT_PACE,
    };
    if let Some(at) = *waiting {
        if b.actions == at {
            return;
        }
        *waiting = None;
    }
    // Let the last action's animation finish first.
    if anim.is_some_and(|a| a.busy()) {
        *clock = 0.0;
        return;
    }
    let Some(agent) = agents.0[b.actor()].as_mut() else {
        return;
    };
    *clock += time.delta_secs();
    if *clock < delay {
        return;
    }
    *clock = 0.0;
    let legal = b.legal_actions();
    if legal.is_empty() {
        return;
    }
    let i = agent.choose(b, &legal).min(legal.len() - 1);
    if let Some(why) = agent.reason() {
        session.log.push(LogLine {
            game_turn: b.game_turn,
            action: false,
            text: format!("[{}] {why}", agent.name()),
        });
    }
    requests.write(ActionRequest(legal[i].clone()));
    *waiting = Some(b.actions);
}

/// Record applied actions, write the log and the dice panel, autosave at each new player turn.
fn on_applied(
    mut applied: MessageReader<ActionApplied>,
    battle: Res<BattleState>,
    mut session: ResMut<Session>,
    mut preview: ResMut<Preview>,
    mut selection: ResMut<Selection>,
    shot: Option<Res<super::screenshot::ShotRequest>>,
) {
    let b = &battle.0;
    let mut any = false;
    for ev in applied.read() {
        any = true;
        let who = describe_actor(b, &ev.action);
        let heading = format!("{who}{}", ev.heading);
        super::undo::track(&mut session, &ev.action, &ev.events, ev.state_hash, &heading);
        session.recording.push(b, &ev.action, &ev.events);
        let lines: Vec<String> = ev.events.iter().map(|e| b.describe(e)).collect();
        session.push_action(b.game_turn, heading, lines);
        session.refusal = None;
        let new_turn = ev.events.iter().any(|e| {
            matches!(
                e,
                Event::PhaseStarted {
                    phase: Phase::Initiative,
                    ..
                } | Event::GameOver { .. }
            )
        });
        // A screenshot does not overwrite the player's autosave.
        if new_turn && shot.is_none() {
            let r = session.recording.save(Path::new(AUTOSAVE));
            if let Err(e) = r {
                session.status = Some(format!("autosave failed: {e}"));
            }
        }
    }
    if any {
        super::undo::settle(&mut session, b);
        if preview.0.is_some() {
            preview.0 = None;
        }
        let gone = selection.unit.is_some_and(|u| !b.unit(u).alive())
            || selection.commander.is_some_and(|c| !b.commander(c).alive());
        if gone {
            *selection = Selection::default();
        }
    }
}

/// "Union: " for a decision of the side that made it.
fn describe_actor(b: &Battle, a: &Action) -> String {
    let side = match a {
        Action::Order { commander, .. } | Action::CommanderMove { commander, .. } => b.commander(*commander).side,
        _ => match a.unit() {
            Some(u) => b.unit(u).side,
            None => return String::new(),
        },
    };
    format!("{}: ", b.sides[side].name)
}

fn on_refused(mut refused: MessageReader<ActionRefused>, battle: Res<BattleState>, mut session: ResMut<Session>) {
    for ev in refused.read() {
        session.refusal = Some((battle.0.describe_action(&ev.action), ev.refusal.clone()));
    }
}

/// Move between the battle, the hand-over and the result screens.
fn seat(
    battle: Res<BattleState>,
    mut session: ResMut<Session>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
) {
    let b = &battle.0;
    match screen.get() {
        Screen::Battle | Screen::Handover if b.is_over() => next.set(Screen::Result),
        Screen::Battle => {
            let actor = b.actor();
            if !session.human(actor) {
                return;
            }
            if session.no_handover {
                if session.viewer != Some(actor) && session.sides.iter().all(|s| s == "human") {
                    session.viewer = Some(actor);
                }
                return;
            }
            if session.viewer != Some(actor) {
                next.set(Screen::Handover);
            }
        }
        _ => {}
    }
}
