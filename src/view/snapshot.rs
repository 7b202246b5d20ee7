//! An owned, serialisable copy of the battle as one viewer may know it ([`Snapshot`]), made
//! from a [`PlayerView`]: what a game server sends each client, what `volley view` prints.
//!
//! It holds nothing about a unit the viewer may not know of: not its id, key, name, place,
//! count or state. Of the viewer's own side (every side, for [`Viewer::All`]) it holds the
//! units and commanders in full ([`Unit`], [`Commander`]) with the side's hand (orders given,
//! orders on their way); of the other side, the units the viewer knows of as the table shows
//! them ([`SeenUnit`]: place, formation, stands and markers; not its commander, its last
//! initiative or self-order, its loaded ammunition, its morale grade) and every commander as
//! the table shows him ([`SeenCommander`]: place and markers, not his command value).
//! The terrain is not copied: the scenario (its title and [`Snapshot::scenario_hash`]) has it.

use super::{PlayerView, Viewer};
use crate::battle::state::{CmdId, Commander, OrderState, Outcome, PendingOrder, Phase, SideId, Step, Unit, UnitId};
use crate::data::army::TroopRow;
use crate::data::scenario::{Grade, Objective, Weather};
use crate::rules::formation::Formation;
use crate::rules::geometry::Pose;
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
    /// The result, once the battle is over (victory points, who won and why).
    pub outcome: Option<Outcome>,
}

/// A side as every player knows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideSeen {
    pub name: String,
    pub army: String,
    pub breakpoint: u32,
    pub broken: bool,
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
            outcome: b.outcome.clone(),
        }
    }

    /// Every unit id the snapshot names: its units, the enemies, the step's, the orders'.
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
        ids
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
