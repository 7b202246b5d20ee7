//! The replay viewer: a verified recording on the table, played, paused, stepped one action or
//! one phase, jumped to any game turn, scrubbed, faster or slower, with the dice panel and the
//! battle log following; "take command here" hands the game over to play on from that point.
//! It only ever sets `BattleState` to a state the timeline re-played; nothing is decided here.

use super::follow::ComputerPlan;
use super::session::{Agents, BattleLog, GameRecord, Seats};
use super::undo::UndoStack;
use crate::app::BattleState;
use crate::battle::Applied;
use crate::replay::timeline::Timeline;
use bevy::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, tick.run_if(resource_exists::<Viewer>));
}

/// Seconds an action stays on the table at speed 1.
pub const PACE: f32 = 0.6;

#[derive(Resource)]
pub struct Viewer {
    pub timeline: Timeline,
    /// Actions shown so far (0: the deployment).
    pub at: usize,
    pub playing: bool,
    /// 0.25 to 8.
    pub speed: f32,
    clock: f32,
}

impl Viewer {
    pub fn new(timeline: Timeline) -> Viewer {
        Viewer {
            timeline,
            at: 0,
            playing: false,
            speed: 1.0,
            clock: 0.0,
        }
    }

    /// The first action after `at` that starts a new phase (for "step one phase").
    pub fn next_phase(&self) -> usize {
        let n = self.timeline.len();
        self.timeline
            .recording()
            .checkpoints
            .iter()
            .map(|c| c.action as usize + 1)
            .find(|&a| a > self.at)
            .unwrap_or(n)
            .min(n)
    }
}

/// What the replay panel asked for this frame.
#[derive(Default)]
pub struct ReplayAsks {
    pub seek: Option<usize>,
    pub take_command: Option<[String; 2]>,
}

/// The plans a computer said before action `i` of the recording (issue 66): a line of the log
/// each, as the game said them, and each side's newest in the orders panel ([`ComputerPlan`]).
fn say_plans(
    rec: &crate::replay::Recording,
    i: usize,
    b: &crate::battle::Battle,
    log: &mut BattleLog,
    plan: &mut ComputerPlan,
) {
    for p in rec.plans_before(i) {
        let side = p.side.min(1);
        let line = crate::report::computer_says(&b.sides[side].name, &p.agent, &p.text);
        log.lines.push(super::session::LogLine::text(b.game_turn, false, line));
        plan.0[side] = Some(p.text.clone());
    }
}

/// Show the state after `n` actions, the log up to it and the last action's dice, and the
/// computers' plans said by then.
pub fn seek(viewer: &mut Viewer, n: usize, battle: &mut BattleState, log: &mut BattleLog, plan: &mut ComputerPlan) {
    let n = n.min(viewer.timeline.len());
    viewer.at = n;
    // The log and dice panel: every action up to `n`, described on its own state; the state
    // they lead to is the one shown.
    let rec = viewer.timeline.recording();
    let mut b = viewer.timeline.state_at(0);
    log.lines.truncate(1);
    log.last = None;
    plan.0 = [None, None];
    for (i, a) in rec.actions[..n].iter().enumerate() {
        say_plans(rec, i, &b, log, plan);
        let heading = crate::report::heading(&b, a);
        let Ok(Applied { game_turn, events }) = b.step(a) else {
            break;
        };
        log.push_action(&b, game_turn, heading, &events);
    }
    battle.0 = b;
}

/// Playing: one action every `PACE / speed` seconds, the log and dice panel following.
fn tick(
    mut viewer: ResMut<Viewer>,
    mut battle: ResMut<BattleState>,
    mut log: ResMut<BattleLog>,
    mut plan: ResMut<ComputerPlan>,
    time: Res<Time>,
) {
    if !viewer.playing {
        return;
    }
    viewer.clock += time.delta_secs() * viewer.speed;
    if viewer.clock < PACE {
        return;
    }
    viewer.clock = 0.0;
    let n = viewer.at;
    if n >= viewer.timeline.len() {
        viewer.playing = false;
        return;
    }
    // The table shows the state after `n` actions: play the recorded action on it.
    let action = viewer.timeline.recording().actions[n].clone();
    say_plans(viewer.timeline.recording(), n, &battle.0, &mut log, &mut plan);
    let heading = crate::report::heading(&battle.0, &action);
    let Ok(Applied { game_turn, events }) = battle.0.step(&action) else {
        viewer.playing = false;
        return;
    };
    viewer.at = n + 1;
    log.push_action(&battle.0, game_turn, heading, &events);
}

/// "Take command here": the game from this point is a new game (its recording the old one
/// cut here), played by `sides`; the viewer closes. The file on disk is not touched.
pub fn take_command(world: &mut World, sides: [String; 2]) -> Result<(), String> {
    let Some(viewer) = world.remove_resource::<Viewer>() else {
        return Ok(());
    };
    let (b, rec) = viewer.timeline.take_command(viewer.at);
    let seed = rec.seed;
    let agents = Agents::new(&sides, seed)?;
    world.insert_non_send(agents);
    // The new game's computers say their own plans.
    world.insert_resource(ComputerPlan::default());
    world.resource_mut::<UndoStack>().reset(&b);
    world.resource_mut::<GameRecord>().recording = rec;
    let mut seats = world.resource_mut::<Seats>();
    seats.no_handover = sides.iter().filter(|s| *s == "human").count() < 2;
    seats.viewer = None;
    seats.sides = sides;
    world.resource_mut::<BattleLog>().status = Some(format!("took command after action {}", viewer.at));
    world.resource_mut::<BattleState>().0 = b;
    Ok(())
}

/// [`seek`] with world access (queued by the panel).
pub fn seek_world(world: &mut World, n: usize) {
    world.resource_scope(|world, mut viewer: Mut<Viewer>| {
        world.resource_scope(|world, mut battle: Mut<BattleState>| {
            world.resource_scope(|world, mut plan: Mut<ComputerPlan>| {
                let mut log = world.resource_mut::<BattleLog>();
                seek(&mut viewer, n, &mut battle, &mut log, &mut plan);
            });
        });
    });
}
