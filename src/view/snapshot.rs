//! An owned, serialisable copy of the battle as one viewer may know it ([`Snapshot`]), made
//! from a [`PlayerView`]: what a game server sends each client, what `volley view` prints.
//!
//! It holds nothing about a unit the viewer may not know of: not its id, key, name, place,
//! count or state. Of the viewer's own side (every side, for [`Viewer::All`]) it holds the
//! units and commanders in full ([`Unit`], [`Commander`]) with the side's hand (orders given,
//! orders on their way, the command phase's book-keeping); of the other side, the units the
//! viewer knows of as the table shows them ([`SeenUnit`]: place, formation, stands and
//! markers; not its commander, its last initiative or self-order, its loaded ammunition, its
//! morale grade) and every commander as the table shows him ([`SeenCommander`]: place and
//! markers, not his command value). Of what stands between the sides: the combats waiting
//! for the charge phase and the charge being counter-charged ([`SeenCombat`]), the initiative
//! passing's state (*Glory Days!*, [`PassingSeen`]), the optional rules' markers (prone,
//! sabers drawn), each naming only known units; and what the battle did to the table
//! ([`WorksSeen`]: the engineers' works, the hits noted against buildings).
//!
//! The terrain is not copied: the scenario (its title and [`Snapshot::scenario_hash`]) has it,
//! and [`WorksSeen::done`] the changes made to it since, in the order they were made.
//! The dice stream is never in it (it would tell the rolls to come).
use super::{PlayerView, Viewer};
use crate::battle::reasons::PassReason;
use crate::battle::state::{CmdId, Commander, OrderState, Outcome, PendingOrder, Phase, SideId, Step, Unit, UnitId};
use crate::battle::works::{Bridging, Task};
use crate::battle::{Ground, Purpose};
use crate::data::army::TroopRow;
use crate::data::scenario::{Grade, Objective, Weather};
use crate::rules::formation::Formation;
use crate::rules::geometry::{Pose, V2};
use crate::rules::switches::Switches;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The battle as one viewer may know it, owned and serialisable (see the module's
/// documentation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Whose view this is.
    pub viewer: Viewer,
    /// The scenario: its title and the hash of its file (the terrain and table are its).
    pub title: String,
    pub scenario_hash: u64,
    /// The rules' version and the optional rules in play.
    pub rules_version: String,
    pub switches: Switches,
    pub weather: Weather,
    pub night: bool,
    pub wet_ground: bool,
    pub phase: Phase,
    /// The decision the battle waits for, as the viewer may see it ([`PlayerView::step`]).
    pub step: Step,
    /// The side whose player turn it is, and the side whose decision the battle waits for.
    pub active: SideId,
    pub actor: SideId,
    pub game_turn: u32,
    pub player_turn: u32,
    pub turn_limit: u32,
    pub sides: [SideSeen; 2],
    /// The viewer's own units (every unit, for [`Viewer::All`]), alive or not, in id order.
    pub units: Vec<Unit>,
    /// The other side's units the viewer knows of, alive or not, in id order.
    pub enemies: Vec<SeenUnit>,
    /// The viewer's own commanders (every one for [`Viewer::All`]), in id order.
    pub commanders: Vec<Commander>,
    /// The other side's commanders, in id order (the rules hide none).
    pub enemy_commanders: Vec<SeenCommander>,
    pub objectives: Vec<Objective>,
    /// The viewer's hand: the orders its units hold this turn, the commanders done giving
    /// orders, the orders on their way (switch `OrderDelay`). Empty for a side not active.
    pub orders: BTreeMap<UnitId, OrderState>,
    pub commanders_done: BTreeSet<CmdId>,
    pub pending: Vec<PendingOrder>,
    /// The rest of the viewer's hand in the command phase (empty for a side not active).
    #[serde(default)]
    pub command: CommandSeen,
    /// *Glory Days!* initiative passing (switch `InitiativePassing`): who acted on this
    /// initiative and whether it passed, as far as the viewer knows the units.
    #[serde(default)]
    pub passing: PassingSeen,
    /// The combats waiting for the charge phase whose target and chargers the viewer knows of.
    #[serde(default)]
    pub combats: Vec<SeenCombat>,
    /// The cavalry unit counter-charging now, if the viewer knows of it.
    #[serde(default)]
    pub counter_charging: Option<UnitId>,
    /// The optional rules' markers on the units the viewer knows of: lying prone (BPT "Prone
    /// Movement"), and the player turn each drew sabers in (BPT "Saber Charge").
    #[serde(default)]
    pub prone: BTreeSet<UnitId>,
    #[serde(default)]
    pub sabers: BTreeMap<UnitId, u32>,
    /// What the battle did to the table, as far as the viewer may know it.
    #[serde(default)]
    pub works: WorksSeen,
    /// The result, once the battle is over (victory points, who won and why).
    pub outcome: Option<Outcome>,
}

/// The command phase's book-keeping that only the active side's player holds (besides its
/// orders, [`Snapshot::orders`]), BPT "Command Phase".
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CommandSeen {
    /// Units an HQ failed to order (the CO may try them at −1).
    pub hq_failed: BTreeSet<UnitId>,
    /// The army CO failed: no more orders this turn.
    pub all_stopped: bool,
    /// The commander whose order is current.
    pub current: Option<CmdId>,
    /// Commanders that have moved this phase.
    pub moved: BTreeSet<CmdId>,
    /// Order delay: units acting on an order that arrived this command phase, and the orders
    /// held for each unit this phase (they count for the successive-order modifier).
    pub arrived: BTreeSet<UnitId>,
    pub held: BTreeMap<UnitId, u32>,
}

/// *Glory Days!* "Activation" as the viewer may know it: the units named are the ones it
/// knows of. The running count of hits landed this phase is not in it (the hits stand on the
/// units as markers, as far as the viewer knows the units).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PassingSeen {
    /// The unit activated last (only it may be activated again), what for, and the worst
    /// ground it may move in; none if the viewer does not know of it.
    pub activated: Option<UnitId>,
    pub purpose: Option<Purpose>,
    pub ground: Option<Ground>,
    /// Units that moved (or deployed) on this initiative, and units that fired on it.
    pub moved: BTreeSet<UnitId>,
    pub fired: BTreeSet<UnitId>,
    /// The initiative has passed (the phase ends once no window is open), and why, if the
    /// viewer knows of the units the reason names.
    pub passed: bool,
    pub reason: Option<PassReason>,
}

/// A combat waiting for the charge phase (BPT "Charge"): its chargers, its target, the
/// supporting units of each side the viewer knows of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeenCombat {
    pub chargers: Vec<UnitId>,
    pub target: UnitId,
    pub supports: [Vec<UnitId>; 2],
    pub counter_charge: bool,
}

/// What the battle did to the table (BPT "Engineering", "Constructions"). See
/// docs/rules.md "Player view": works done are ground on the table and public, unless a unit
/// the viewer does not know of stands at one (its place would tell where that unit is).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorksSeen {
    /// Finished works, in the order they were made: (task, linear terrain index, place).
    pub done: Vec<(Task, u32, V2)>,
    /// Bridges under construction begun by a unit the viewer knows of.
    pub bridging: Vec<Bridging>,
    /// Hits noted against each building, and the buildings that collapsed (public).
    pub construction_hits: BTreeMap<u32, u32>,
    pub collapsed: BTreeSet<u32>,
}

/// A side as every player knows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideSeen {
    pub name: String,
    pub army: String,
    pub breakpoint: u32,
    pub broken: bool,
    /// The player turn it broke in.
    #[serde(default)]
    pub broke_turn: Option<u32>,
    /// BPT "Multi-National Armies": a nation → the nations whose HQs may also order it.
    #[serde(default)]
    pub obeys: BTreeMap<String, Vec<String>>,
    /// Its units lost that the viewer knows of.
    pub lost: u32,
}

/// An enemy unit the viewer knows of, as the table shows it: its figures, place, formation,
/// stands and markers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeenUnit {
    pub id: UnitId,
    pub key: String,
    pub name: String,
    pub side: SideId,
    /// Its troop type (the figures show it).
    pub row: TroopRow,
    pub grade: Grade,
    pub pose: Pose,
    pub formation: Formation,
    pub stands: u32,
    pub start_stands: u32,
    /// Hits on it this player turn (markers).
    pub hits: u32,
    pub suppressed: bool,
    pub disordered: bool,
    pub exhausted: bool,
    pub limbered: bool,
    pub dug_in: bool,
    pub prone: bool,
    pub refused: (bool, bool),
    pub d_markers: u32,
    pub nation: Option<String>,
    pub scout: bool,
    pub knocked_out: bool,
    pub retired: bool,
}

/// An enemy commander as the table shows him.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeenCommander {
    pub id: CmdId,
    pub key: String,
    pub name: String,
    pub side: SideId,
    pub pos: crate::rules::geometry::V2,
    pub mounted: bool,
    pub suppressed: bool,
    pub knocked_out: bool,
    pub replaced: bool,
    pub nation: Option<String>,
}

impl Snapshot {
    /// The battle as `v`'s viewer may know it.
    pub fn of(v: &PlayerView) -> Snapshot {
        let b = v.battle();
        let mine = |side: SideId| v.sees_hand_of(side);
        let units: Vec<Unit> = b.units.iter().filter(|u| mine(u.side)).cloned().collect();
        let enemies = b
            .units
            .iter()
            .filter(|u| !mine(u.side) && v.knows(u.id))
            .map(|u| seen_unit(v, u))
            .collect();
        let commanders = b.commanders.iter().filter(|c| mine(c.side)).cloned().collect();
        let enemy_commanders = b
            .commanders
            .iter()
            .filter(|c| !mine(c.side))
            .map(seen_commander)
            .collect();
        let hand = mine(b.active);
        Snapshot {
            viewer: v.viewer(),
            title: b.title.clone(),
            scenario_hash: b.scenario_hash,
            rules_version: b.rules.version.clone(),
            switches: b.rules.switches.clone(),
            weather: b.weather,
            night: b.night,
            wet_ground: b.wet_ground,
            phase: b.phase,
            step: v.step(),
            active: b.active,
            actor: v.actor(),
            game_turn: b.game_turn,
            player_turn: b.player_turn,
            turn_limit: b.turn_limit,
            sides: [0, 1].map(|s| side_seen(v, s)),
            units,
            enemies,
            commanders,
            enemy_commanders,
            objectives: b.objectives.clone(),
            orders: b
                .cmd
                .orders
                .iter()
                .filter(|(u, _)| mine(b.unit(**u).side))
                .map(|(u, o)| (*u, o.clone()))
                .collect(),
            commanders_done: if hand { b.cmd.done.clone() } else { BTreeSet::new() },
            pending: b.pending.iter().filter(|p| mine(p.side)).cloned().collect(),
            command: if hand { command_seen(v) } else { CommandSeen::default() },
            passing: passing_seen(v),
            combats: b.combats.iter().filter_map(|c| seen_combat(v, c)).collect(),
            counter_charging: b.counter_charging.filter(|&u| v.knows(u)),
            prone: b
                .units
                .iter()
                .map(|u| u.id)
                .filter(|&u| v.knows(u) && b.is_prone(u))
                .collect(),
            sabers: b
                .units
                .iter()
                .filter(|u| v.knows(u.id))
                .filter_map(|u| b.optional.sabers.drawn_in(u.id).map(|t| (u.id, t)))
                .collect(),
            works: works_seen(v),
            outcome: b.outcome.clone(),
        }
    }

    /// Every unit id the snapshot names: its units, the enemies, the step's, the orders', the
    /// hand's, the initiative passing's, the combats', the markers', the bridges' builders.
    pub fn unit_ids(&self) -> BTreeSet<UnitId> {
        let mut ids: BTreeSet<UnitId> = self.units.iter().map(|u| u.id).collect();
        ids.extend(self.enemies.iter().map(|u| u.id));
        ids.extend(self.orders.keys().copied());
        ids.extend(self.pending.iter().flat_map(|p| p.units.iter().copied()));
        match &self.step {
            Step::CounterInitiative {
                charger,
                target,
                eligible,
                ..
            } => ids.extend([*charger, *target].iter().chain(eligible)),
            Step::Reaction { mover, eligible } => ids.extend(std::iter::once(mover).chain(eligible)),
            Step::Consolidate { unit, queue } => ids.extend(std::iter::once(unit).chain(queue)),
            Step::Open | Step::Support { .. } => {}
        }
        let c = &self.command;
        ids.extend(c.hq_failed.iter().chain(&c.arrived).chain(c.held.keys()));
        let p = &self.passing;
        ids.extend(p.activated.iter().chain(&p.moved).chain(&p.fired));
        ids.extend(p.reason.iter().flat_map(PassReason::units));
        for cb in &self.combats {
            ids.extend(
                cb.chargers
                    .iter()
                    .chain([&cb.target])
                    .chain(cb.supports.iter().flatten()),
            );
        }
        ids.extend(self.counter_charging);
        ids.extend(self.prone.iter().chain(self.sabers.keys()));
        ids.extend(self.works.bridging.iter().map(|w| w.unit));
        ids
    }

    /// Every place of the table the snapshot names apart from its units and commanders: the
    /// works done and the bridges under construction.
    pub fn work_places(&self) -> Vec<V2> {
        let w = &self.works;
        w.done
            .iter()
            .map(|d| d.2)
            .chain(w.bridging.iter().map(|b| b.at))
            .collect()
    }
}

/// The hand's book-keeping; its sets hold the active side's units, all known to their player
/// (the filter keeps it so should another unit ever be in them).
fn command_seen(v: &PlayerView) -> CommandSeen {
    let c = &v.battle().cmd;
    let known = |s: &BTreeSet<UnitId>| s.iter().copied().filter(|&u| v.knows(u)).collect();
    CommandSeen {
        hq_failed: known(&c.hq_failed),
        all_stopped: c.all_stopped,
        current: c.current,
        moved: c.moved.clone(),
        arrived: known(&c.arrived),
        held: c
            .held
            .iter()
            .filter(|(u, _)| v.knows(**u))
            .map(|(u, n)| (*u, *n))
            .collect(),
    }
}

fn passing_seen(v: &PlayerView) -> PassingSeen {
    let p = &v.battle().cmd.passing;
    let known = |s: &BTreeSet<UnitId>| s.iter().copied().filter(|&u| v.knows(u)).collect();
    let activated = p.activated.filter(|&u| v.knows(u));
    PassingSeen {
        activated,
        purpose: activated.and(p.purpose),
        ground: activated.map(|_| p.ground),
        moved: known(&p.moved),
        fired: known(&p.fired),
        passed: p.passed.is_some(),
        reason: p.passed.filter(|r| r.units().iter().all(|&u| v.knows(u))),
    }
}

/// A combat as the viewer may know it: none unless it knows of its target and every charger.
fn seen_combat(v: &PlayerView, c: &crate::battle::state::Combat) -> Option<SeenCombat> {
    if !v.knows(c.target) || !c.chargers.iter().all(|&u| v.knows(u)) {
        return None;
    }
    Some(SeenCombat {
        chargers: c.chargers.clone(),
        target: c.target,
        supports: c
            .supports
            .clone()
            .map(|s| s.into_iter().filter(|&u| v.knows(u)).collect()),
        counter_charge: c.counter_charge,
    })
}

/// Does a living unit the viewer does not know of stand at `at` (a base within the rules'
/// `engineers.same_crossing` of it: the distance at which units are at one work)?
pub fn unknown_unit_at(v: &PlayerView, at: V2) -> bool {
    let b = v.battle();
    let reach = b.rules.engineers.same_crossing;
    b.alive_units().filter(|u| !v.knows(u.id)).any(|u| {
        b.rects(u.id)
            .iter()
            .any(|r| crate::rules::geometry::rect_segment_distance(r, at, at) <= reach)
    })
}

/// The works as the viewer may know them (docs/rules.md "Player view", the works' decision).
fn works_seen(v: &PlayerView) -> WorksSeen {
    let b = v.battle();
    WorksSeen {
        done: b
            .works
            .done
            .iter()
            .filter(|w| !unknown_unit_at(v, w.2))
            .copied()
            .collect(),
        bridging: b
            .works
            .bridging
            .iter()
            .filter(|w| v.knows(w.unit) && !unknown_unit_at(v, w.at))
            .cloned()
            .collect(),
        construction_hits: b.constructions.hits.clone(),
        collapsed: b.constructions.collapsed.clone(),
    }
}

fn side_seen(v: &PlayerView, s: SideId) -> SideSeen {
    let b = v.battle();
    let side = &b.sides[s];
    SideSeen {
        name: side.name.clone(),
        army: side.army.clone(),
        breakpoint: side.breakpoint,
        broken: side.broken,
        broke_turn: side.broke_turn,
        obeys: side.obeys.clone(),
        lost: b
            .units
            .iter()
            .filter(|u| u.side == s && u.knocked_out && !u.retired && v.knows(u.id))
            .count() as u32,
    }
}

fn seen_unit(v: &PlayerView, u: &Unit) -> SeenUnit {
    let b = v.battle();
    SeenUnit {
        id: u.id,
        key: u.key.clone(),
        name: u.name.clone(),
        side: u.side,
        row: u.row.clone(),
        grade: u.grade,
        pose: u.pose,
        formation: u.formation,
        stands: u.stands,
        start_stands: u.start_stands,
        hits: u.hits,
        suppressed: u.suppressed(),
        disordered: u.disordered(b.player_turn),
        exhausted: u.exhausted,
        limbered: u.limbered,
        dug_in: u.dug_in,
        prone: b.is_prone(u.id),
        refused: u.refused,
        d_markers: u.d_markers,
        nation: u.nation.clone(),
        scout: u.scout,
        knocked_out: u.knocked_out,
        retired: u.retired,
    }
}

fn seen_commander(c: &Commander) -> SeenCommander {
    SeenCommander {
        id: c.id,
        key: c.key.clone(),
        name: c.name.clone(),
        side: c.side,
        pos: c.pos,
        mounted: c.mounted,
        suppressed: c.suppressed.is_some(),
        knocked_out: c.knocked_out,
        replaced: c.replaced,
        nation: c.nation.clone(),
    }
}
