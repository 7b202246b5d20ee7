//! A client's mirror of the battle: the scenario's battle, set to what a [`Snapshot`] says
//! and nothing more, so the code that draws a battle and words its actions (the terminal,
//! the window) serves a client that holds only its side's view (an online game).
//!
//! The mirror knows only the snapshot: an enemy unit the snapshot does not name is kept
//! hidden (`Unit::hidden`, so the view knows nothing of it) and far off the table, where it
//! stands in nobody's way and no line of sight; an enemy unit's hidden particulars (its
//! commander, ammunition, morale grade) stay as the scenario set them; its dice are a
//! stream from seed 0, never rolled (the mirror takes no action: the server does). So
//! `Snapshot::of` the mirror's view gives the snapshot back (tested).

use super::snapshot::{SeenCommander, SeenUnit, Snapshot};
use crate::battle::Battle;
use crate::battle::reasons::PassReason;
use crate::battle::state::{Combat, CommandState, Passing, State, Suppression};
use crate::rules::geometry::{Pose, V2};
use crate::rules::terrain::polyline_project;

/// Where the mirror keeps the enemy units its side does not know of.
const NOWHERE: V2 = V2 { x: -1.0e6, y: -1.0e6 };

/// Why a snapshot cannot be mirrored on a battle.
#[derive(Debug, Clone, PartialEq)]
pub struct MirrorError(pub String);

impl std::fmt::Display for MirrorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `start` (the snapshot's scenario, set up with its optional rules, before any action) set
/// to `snap`.
pub fn mirror(start: &Battle, snap: &Snapshot) -> Result<Battle, MirrorError> {
    if start.scenario_hash != snap.scenario_hash {
        return Err(MirrorError(format!(
            "the game's scenario ({}) is not this one's version of it",
            snap.title
        )));
    }
    let count = start.units.len();
    let fits = |id: u32| (id as usize) < count;
    if let Some(id) = snap
        .units
        .iter()
        .map(|u| u.id)
        .chain(snap.enemies.iter().map(|e| e.id))
        .find(|&id| !fits(id))
    {
        return Err(MirrorError(format!(
            "the snapshot names unit {id}, not in the scenario"
        )));
    }
    let mut b = start.clone();
    b.arrange(|s| set(s, snap));
    works(&mut b, snap);
    Ok(b)
}

/// The state set to what the snapshot says (its units checked to be the scenario's).
fn set(b: &mut State, snap: &Snapshot) {
    b.weather = snap.weather;
    b.night = snap.night;
    b.wet_ground = snap.wet_ground;
    b.phase = snap.phase;
    b.step = snap.step.clone();
    b.active = snap.active;
    b.game_turn = snap.game_turn;
    b.player_turn = snap.player_turn;
    b.turn_limit = snap.turn_limit;
    b.objectives = snap.objectives.clone();
    b.outcome = snap.outcome.clone();
    for (side, seen) in b.sides.iter_mut().zip(&snap.sides) {
        side.breakpoint = seen.breakpoint;
        side.broken = seen.broken;
        side.broke_turn = seen.broke_turn;
        side.obeys = seen.obeys.clone();
    }
    let count = b.units.len();
    // Every unit not the viewer's own is unknown until the snapshot names it.
    let own: Vec<u32> = snap.units.iter().map(|u| u.id).collect();
    for u in b.units.iter_mut().filter(|u| !own.contains(&u.id)) {
        u.hidden = true;
        u.pose = Pose { pos: NOWHERE, ..u.pose };
    }
    for u in &snap.units {
        b.units[u.id as usize] = u.clone();
    }
    for e in &snap.enemies {
        seen_unit(b, e);
    }
    let own_cmds: Vec<u32> = snap.commanders.iter().map(|c| c.id).collect();
    for c in &snap.commanders {
        if let Some(slot) = b.commanders.get_mut(c.id as usize) {
            *slot = c.clone();
        }
    }
    for c in snap.enemy_commanders.iter().filter(|c| !own_cmds.contains(&c.id)) {
        seen_commander(b, c);
    }
    let hand = &snap.command;
    b.cmd = CommandState {
        orders: snap.orders.clone(),
        done: snap.commanders_done.clone(),
        hq_failed: hand.hq_failed.clone(),
        all_stopped: hand.all_stopped,
        current: hand.current,
        moved: hand.moved.clone(),
        passing: passing(snap),
        arrived: hand.arrived.clone(),
        held: hand.held.clone(),
    };
    b.pending = snap.pending.clone();
    b.combats = snap
        .combats
        .iter()
        .map(|c| Combat {
            chargers: c.chargers.clone(),
            target: c.target,
            supports: c.supports.clone(),
            counter_charge: c.counter_charge,
        })
        .collect();
    b.counter_charging = snap.counter_charging;
    for id in 0..count as u32 {
        b.optional.prone.set(id, snap.prone.contains(&id));
        b.optional.sabers.set(id, snap.sabers.get(&id).copied());
    }
}

fn seen_unit(b: &mut State, e: &SeenUnit) {
    let pt = b.player_turn;
    let u = &mut b.units[e.id as usize];
    u.hidden = false;
    u.key = e.key.clone();
    u.name = e.name.clone();
    u.side = e.side;
    u.row = e.row.clone();
    u.grade = e.grade;
    u.pose = e.pose;
    u.formation = e.formation;
    u.stands = e.stands;
    u.start_stands = e.start_stands;
    u.hits = e.hits;
    u.suppressed = e.suppressed.then_some(Suppression {
        player_turn: pt,
        order_seq: 0,
    });
    u.disordered_until = e.disordered.then_some(pt);
    u.exhausted = e.exhausted;
    u.limbered = e.limbered;
    u.dug_in = e.dug_in;
    u.refused = e.refused;
    u.d_markers = e.d_markers;
    u.nation = e.nation.clone();
    u.scout = e.scout;
    u.knocked_out = e.knocked_out;
    u.retired = e.retired;
}

fn seen_commander(b: &mut State, c: &SeenCommander) {
    let penalty = b.rules.command.replacement_penalty;
    let Some(m) = b.commanders.get_mut(c.id as usize) else {
        return;
    };
    // A replacement commands at one less (public: the army list and the replacement are).
    if c.replaced && !m.replaced {
        m.command_value += penalty;
    }
    m.pos = c.pos;
    m.mounted = c.mounted;
    m.suppressed = c.suppressed.then_some(Suppression {
        player_turn: 0,
        order_seq: 0,
    });
    m.knocked_out = c.knocked_out;
    m.replaced = c.replaced;
    m.nation = c.nation.clone();
}

fn passing(snap: &Snapshot) -> Passing {
    let p = &snap.passing;
    // The initiative passed for a reason naming a unit the viewer does not know of: the
    // mirror says it passed, for a reason naming none it may not know.
    let passed = match (p.passed, p.reason) {
        (true, Some(r)) => Some(r),
        (true, None) => Some(PassReason::FireLanded {
            unit: p.activated.unwrap_or(0),
            hits: 0,
        }),
        (false, _) => None,
    };
    Passing {
        activated: p.activated,
        moved: p.moved.clone(),
        fired: p.fired.clone(),
        landed: 0,
        passed,
        purpose: p.purpose,
        ground: p.ground.unwrap_or_default(),
    }
}

/// The works the snapshot lists, laid on the scenario's table in order; the bridges begun and
/// the buildings' hits as it says.
fn works(b: &mut Battle, snap: &Snapshot) {
    for &(task, linear, at) in &snap.works.done {
        let Some(l) = b.terrain.linears.get(linear as usize) else {
            continue;
        };
        if let Some((s, at, dir)) = polyline_project(&l.points, at) {
            b.lay_work(task, linear, (s, at, dir));
        }
    }
    // The list as the snapshot gives it (laying a work notes it where it falls on the line).
    b.arrange(|s| {
        s.works.done = snap.works.done.clone();
        s.works.bridging = snap.works.bridging.clone();
        s.constructions.hits = snap.works.construction_hits.clone();
        s.constructions.collapsed = snap.works.collapsed.clone();
    });
}
