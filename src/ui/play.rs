//! The game in the window, played: a new game's resources, the computer players' turns, the
//! record, log and undo kept as actions are applied, and the seat: who is to act (`Turn`, a
//! Bevy state that follows the battle), with the hand-over, the result screen and the
//! autosave run on entering a turn or a phase.

use super::screens::handover::{ResultPause, fought_melee, held, melee_seen};
use super::session::{AUTOSAVE, Agents, BattleLog, GameRecord, LogLine, Seats, Turn};
use super::undo::UndoStack;
use crate::app::{ActionApplied, ActionRefused, ActionRequest, BattleState, BattleSystems, GamePhase};
use crate::battle::{Action, Battle, Event};
use crate::replay::Recording;
use crate::ui::common::{Preview, Screen, Selection};
use crate::ui::screenshot::ShotRequest;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::path::{Path, PathBuf};

pub(crate) fn plugin(app: &mut App) {
    app.init_state::<Turn>()
        .init_resource::<Thinking>()
        .add_systems(
            Update,
            (
                // After the phase walk, not in its set: the walk runs the state transitions
                // within the frame, and the seat's (with its hand-over, which reads the log
                // written after the frame's systems) must wait for the next frame's.
                follow_turn.after(BattleSystems::Follow),
                // Not while a melee is held on the table for the player to read (solo).
                agent_turn.run_if(
                    in_state(Screen::Battle)
                        .and_then(computers_turn)
                        .and_then(|p: Option<Res<ResultPause>>| !held(&p)),
                ),
            ),
        )
        .add_systems(PostUpdate, (on_applied, on_refused).chain())
        .add_systems(OnEnter(GamePhase::Initiative), autosave)
        .add_systems(OnEnter(GamePhase::GameOver), (autosave, to_result))
        .add_systems(OnEnter(Screen::Battle), hand_over);
    for side in 0..2 {
        app.add_systems(OnEnter(Turn::Player(side)), hand_over);
    }
}

/// A new game's resources: the seats, the record, the log and the undo stack.
pub struct NewGame {
    pub seats: Seats,
    pub record: GameRecord,
    pub log: BattleLog,
    pub undo: UndoStack,
}

impl NewGame {
    pub fn new(
        battle: &Battle,
        events: &[Event],
        scenario: PathBuf,
        seed: u64,
        sides: [String; 2],
        recording: Option<Recording>,
        no_handover: bool,
    ) -> NewGame {
        let recording =
            recording.unwrap_or_else(|| Recording::start(battle, &scenario.display().to_string(), seed, None));
        NewGame {
            seats: Seats::new(battle, sides, no_handover),
            record: GameRecord {
                scenario,
                seed,
                recording,
            },
            log: BattleLog::new(battle, events),
            undo: UndoStack::new(battle),
        }
    }

    /// Put them in the world (replacing a game before).
    pub fn insert(self, world: &mut World) {
        world.insert_resource(self.seats);
        world.insert_resource(self.record);
        world.insert_resource(self.log);
        world.insert_resource(self.undo);
        world.insert_resource(ResultPause::default());
    }
}

/// Seconds between a computer player's actions, so a person can follow its turn.
pub const AGENT_PACE: f32 = 0.5;

/// A computer player choosing: its search runs on another thread, so the window keeps
/// drawing while it thinks.
pub struct Pending {
    handle: std::thread::JoinHandle<(Box<dyn crate::agents::Agent>, Action)>,
    side: usize,
    /// The game its agent belongs to (`Agents::1`) and the state it is choosing for.
    game: u64,
    state: u64,
}

/// The side whose computer player is thinking, if one is (the phase bar shows it), and how
/// many choices computer players have made off the frame.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    pub side: Option<usize>,
    pub decided: u64,
}

/// A computer player's choice in progress: the battle's action count when its last choice was
/// sent (it waits for it to be applied), the choice being worked out, and who is thinking.
#[derive(SystemParam)]
struct Choosing<'w, 's> {
    waiting: Local<'s, Option<u64>>,
    pending: Local<'s, Option<Pending>>,
    thinking: ResMut<'w, Thinking>,
}

/// When a computer player may play: the time since its last action (`AGENT_PACE`), a
/// screenshot's run (no pause), and the last action's animation still playing.
#[derive(SystemParam)]
struct AgentPace<'w, 's> {
    clock: Local<'s, f32>,
    time: Res<'w, Time>,
    shot: Option<Res<'w, super::screenshot::ShotRequest>>,
    effects: Query<'w, 's, (), With<super::animation::Effect>>,
}

/// Where a computer's reason goes: the ring on the table, said to the person at it.
#[derive(SystemParam)]
struct Telling<'w> {
    reason: Option<ResMut<'w, super::follow::ComputerReason>>,
    plan: Option<ResMut<'w, super::follow::ComputerPlan>>,
    seats: Res<'w, Seats>,
    /// The game's record keeps each plan told, whole, for a replay.
    record: Option<ResMut<'w, GameRecord>>,
}

/// An agent whose turn it is picks one legal action every `AGENT_PACE` seconds; its reason
/// goes into the battle log. It chooses on another thread ([`Pending`]); a choice made for a
/// state the battle has left (undo, a new game) is dropped.
fn agent_turn(
    mut agents: NonSendMut<Agents>,
    battle: Res<BattleState>,
    mut log: ResMut<BattleLog>,
    mut requests: MessageWriter<ActionRequest>,
    choosing: Choosing,
    pace: AgentPace,
    telling: Telling,
) {
    let Telling {
        reason,
        plan,
        seats,
        record,
    } = telling;
    let Choosing {
        mut waiting,
        mut pending,
        mut thinking,
    } = choosing;
    let AgentPace {
        mut clock,
        time,
        shot,
        effects,
    } = pace;
    let b = &battle.0;
    if let Some(p) = pending.as_ref() {
        if !p.handle.is_finished() {
            return;
        }
        let Some(p) = pending.take() else { return };
        thinking.side = None;
        thinking.decided += 1;
        let (agent, chosen) = p.handle.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        if agents.1 != p.game {
            return; // another game began meanwhile
        }
        if agents.0[p.side].is_none() {
            agents.0[p.side] = Some(agent);
        }
        if b.is_over() || b.state_hash() != p.state {
            return; // the battle moved on (undo, a replay's jump): choose again
        }
        let Some(agent) = agents.0[p.side].as_mut() else { return };
        // A plan made or changed comes first, said of what the person at the table can see
        // (all of it when computers play both sides).
        let viewer = seats.solo().filter(|&me| me != p.side);
        let news = agent.plan_news(b, viewer);
        let says = |why: &str| crate::report::computer_says(&b.sides[p.side].name, agent.name(), why);
        if let Some(n) = news.as_ref() {
            if let Some(mut shown) = plan {
                shown.0[p.side] = Some(n.clone());
            }
            // The recording keeps it whole and as the other side heard it, before the action it
            // comes with (an online game's record is the server's).
            if let (Some(mut record), Some((whole, to_other))) = (record, agent.plan_kept(b, p.side))
                && !seats.online()
            {
                record.recording.note_plan(p.side, agent.name(), whole, to_other);
            }
        }
        // The plan and the reason are lines of their own: a reason the person may not read
        // (`view::told`) leaves the plan said.
        let why = agent.reason();
        for line in news.iter().chain(why.iter()) {
            log.lines.push(LogLine::told(b, b.game_turn, false, says(line)));
        }
        // The table shows the reason with the action (`follow`).
        if let Some(mut r) = reason {
            r.0 = crate::report::with_plan(news, why);
        }
        requests.write(ActionRequest(chosen));
        *waiting = Some(b.actions);
        return;
    }
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
    if !effects.is_empty() {
        *clock = 0.0;
        return;
    }
    let side = b.actor();
    if agents.0[side].is_none() {
        return;
    }
    *clock += time.delta_secs();
    if *clock < delay {
        return;
    }
    *clock = 0.0;
    let legal = b.legal_actions();
    if legal.is_empty() {
        return;
    }
    let Some(mut agent) = agents.0[side].take() else {
        return;
    };
    let seen = b.clone();
    let offered = legal.clone();
    thinking.side = Some(side);
    *pending = Some(Pending {
        handle: std::thread::spawn(move || {
            let chosen = agent.choose_action(&seen, &offered);
            (agent, chosen)
        }),
        side,
        game: agents.1,
        state: b.state_hash(),
    });
}

/// Where an applied action is written: the battle log (and dice panel), the game's record,
/// the undo stack, and in solo play the melee it fought, held on the table.
#[derive(SystemParam)]
struct Written<'w> {
    log: ResMut<'w, BattleLog>,
    record: ResMut<'w, GameRecord>,
    undo: ResMut<'w, UndoStack>,
    pause: ResMut<'w, ResultPause>,
    shot: Option<Res<'w, ShotRequest>>,
}

/// Record applied actions, write the log and the dice panel. In solo play, an action (the
/// computer's or the player's) that fought a melee the player may see holds it on the table
/// (`handover::ResultPause`) until the player goes on; a screenshot's run never stops.
fn on_applied(
    mut applied: MessageReader<ActionApplied>,
    battle: Res<BattleState>,
    written: Written,
    seats: Res<Seats>,
    mut preview: ResMut<Preview>,
    mut selection: ResMut<Selection>,
) {
    let Written {
        mut log,
        mut record,
        mut undo,
        mut pause,
        shot,
    } = written;
    let b = &battle.0;
    let mut any = false;
    for ev in applied.read() {
        any = true;
        let who = ev.action.as_ref().map(|a| describe_actor(b, a)).unwrap_or_default();
        let heading = format!("{who}{}", ev.heading);
        match &ev.action {
            // An online game's record is the server's (downloaded when it is over).
            Some(action) if !seats.online() => {
                super::undo::track(&mut undo, &seats, &log, &record, ev, b, &heading);
                record.recording.push(b, action, &ev.events);
            }
            _ => undo.refuse(super::undo::ONLINE),
        }
        log.push_action(b, ev.game_turn, heading, &ev.events);
        log.refusal = None;
        if let Some(me) = seats.solo().filter(|_| shot.is_none())
            && fought_melee(&ev.events)
        {
            let melee = melee_seen(b, &log.lines, Some(me));
            if !melee.is_empty() {
                pause.0 = Some(melee);
            }
        }
    }
    if any {
        undo.settle(b);
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

/// Autosave as each new player turn begins and when the game ends (not a screenshot's game,
/// nor a replay being watched, nor a game with nothing played yet).
fn autosave(
    record: Res<GameRecord>,
    seats: Res<Seats>,
    mut log: ResMut<BattleLog>,
    shot: Option<Res<ShotRequest>>,
    screen: Option<Res<State<Screen>>>,
) {
    // The editor's table is a battle too, never played.
    if screen.is_some_and(|s| *s.get() == Screen::Editor) {
        return;
    }
    if shot.is_some()
        || record.recording.actions.is_empty()
        || seats.sides.iter().any(|s| s == "replay")
        || seats.online()
    {
        return;
    }
    if let Err(e) = record.recording.save(Path::new(AUTOSAVE)) {
        log.status = Some(format!("autosave failed: {e}"));
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

fn on_refused(mut refused: MessageReader<ActionRefused>, battle: Res<BattleState>, mut log: ResMut<BattleLog>) {
    for ev in refused.read() {
        log.refusal = Some((crate::report::heading(&battle.0, &ev.action), ev.refusal.clone()));
    }
}

/// A computer player is to act.
pub fn computers_turn(turn: Res<State<Turn>>) -> bool {
    matches!(turn.get(), Turn::Computer(_))
}

/// The turn follows the battle and the seats.
fn follow_turn(battle: Res<BattleState>, seats: Res<Seats>, turn: Res<State<Turn>>, mut next: ResMut<NextState<Turn>>) {
    let now = Turn::of(&battle.0, &seats);
    if *turn.get() != now {
        next.set(now);
    }
}

/// A player's turn begins: in hot-seat, the table is handed over if another player sits at it;
/// first, if the last action fought a melee, its player sees it (`handover::ResultPause`).
fn hand_over(
    turn: Res<State<Turn>>,
    mut seats: ResMut<Seats>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    (battle, log): (Res<BattleState>, Res<BattleLog>),
    mut pause: ResMut<ResultPause>,
) {
    let Turn::Player(actor) = *turn.get() else { return };
    if *screen.get() != Screen::Battle || seats.viewer == Some(actor) {
        return;
    }
    if seats.no_handover {
        if seats.sides.iter().all(|s| s == "human") {
            seats.viewer = Some(actor);
        }
        return;
    }
    if seats.viewer.is_some() {
        let melee = melee_seen(&battle.0, &log.lines, seats.viewer);
        if !melee.is_empty() {
            pause.0 = Some(melee);
            return;
        }
    }
    next.set(Screen::Handover);
}

/// The game is over: to the result screen.
fn to_result(screen: Res<State<Screen>>, mut next: ResMut<NextState<Screen>>) {
    if matches!(screen.get(), Screen::Battle | Screen::Handover) {
        next.set(Screen::Result);
    }
}
