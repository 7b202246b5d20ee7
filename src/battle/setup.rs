//! Building a battle from a loaded scenario (deployment as the scenario places it).

use super::event::Event;
use super::state::*;
use crate::data::army::{Arm, Trait};
use crate::data::scenario::{Grade, Weather};
use crate::data::validate::LoadedScenario;
use crate::rules::dice::Dice;
use crate::rules::geometry::Pose;
use crate::rules::los::{LosParams, LosWorld};
use crate::rules::params::Rules;
use std::collections::BTreeMap;
use std::sync::Arc;

impl Battle {
    /// A new battle at the start of the first player's first initiative phase.
    /// Returns the battle and the events of its start.
    pub fn new(loaded: &LoadedScenario, rules: Rules, seed: u64) -> (Battle, Vec<Event>) {
        let sc = &loaded.scenario;
        let nations = rules.switches.on(crate::rules::switches::Switch::MultiNational);
        let scouting = rules.switches.on(crate::rules::switches::Switch::Scouting);
        let (commanders, cmd_ids) = commanders_of(loaded, nations);
        let units = units_of(loaded, &cmd_ids, nations, scouting);
        let sides = sides_of(loaded, &units, &rules, nations);
        let los = los_world(sc, &rules);
        let mut b = Battle::from_state(State {
            title: sc.title.clone(),
            scenario_hash: loaded.content_hash,
            table: sc.table,
            terrain: Arc::new(sc.terrain.clone()),
            weather: if sc.night && sc.weather == Weather::Normal {
                Weather::Poor
            } else {
                sc.weather
            },
            night: sc.night,
            wet_ground: sc.wet_ground,
            turn_limit: sc.turn_limit,
            decide_on_points: sc.decide_on_points,
            first_side: sc.first_side,
            objectives: sc.objectives.clone(),
            rules: Arc::new(rules),
            units,
            commanders,
            sides,
            phase: Phase::Deployment,
            step: Step::Open,
            active: sc.first_side,
            game_turn: 1,
            player_turn: 1,
            dice: Dice::new(seed),
            cmd: CommandState::default(),
            order_seq: 0,
            combats: Vec::new(),
            outcome: None,
            actions: 0,
            geom: Vec::new(),
            boxes: Vec::new(),
            los,
            rows: Arc::new(loaded.armies.iter().map(|a| a.troops.clone()).collect()),
            notes: Arc::new(loaded.armies.iter().map(|a| a.notes.clone()).collect()),
            counter_charging: None,
            works: Default::default(),
            constructions: Default::default(),
            pending: Vec::new(),
            optional: Default::default(),
        });
        let mut events = Vec::new();
        b.weather_before_battle(sc.historical, &mut events);
        b.start_player_turn(&mut events);
        (b, events)
    }

    /// Cap the turn limit before play (`--max-turns`, a recording's `max_turns`): never below
    /// one turn.
    pub fn cap_turns(&mut self, max_turns: Option<u32>) {
        if let Some(t) = max_turns {
            self.arrange(|s| s.turn_limit = s.turn_limit.min(t.max(1)));
        }
    }
}

/// The scenario's commanders, numbered in the scenario's order side by side, with their
/// superiors; and the number of each by its key.
fn commanders_of(loaded: &LoadedScenario, nations: bool) -> (Vec<Commander>, BTreeMap<&str, CmdId>) {
    let sc = &loaded.scenario;
    let mut commanders = Vec::new();
    let mut cmd_ids: BTreeMap<&str, CmdId> = BTreeMap::new();
    for (side, spec) in sc.sides.iter().enumerate() {
        for c in &spec.commanders {
            let id = commanders.len() as CmdId;
            cmd_ids.insert(c.id.as_str(), id);
            let row = loaded.armies[side].command(&c.row).cloned().expect("validated");
            commanders.push(Commander {
                id,
                key: c.id.clone(),
                name: c.name.clone(),
                side,
                command_value: row.command as i32,
                row,
                superior: None,
                pos: c.pos,
                mounted: c.mounted,
                knocked_out: false,
                replaced: false,
                placed_turn: None,
                suppressed: None,
                hits: 0,
                nation: c.nation.clone().filter(|_| nations),
                formation: c.formation.clone(),
            });
        }
    }
    for spec in &sc.sides {
        for c in &spec.commanders {
            let id = cmd_ids[c.id.as_str()];
            commanders[id as usize].superior = c.superior.as_deref().and_then(|s| cmd_ids.get(s).copied());
        }
    }
    (commanders, cmd_ids)
}

/// The scenario's units, numbered in the scenario's order side by side, under the commanders
/// `cmd_ids` numbers (`nations`, `scouting`: those optional rules are on).
fn units_of(loaded: &LoadedScenario, cmd_ids: &BTreeMap<&str, CmdId>, nations: bool, scouting: bool) -> Vec<Unit> {
    let sc = &loaded.scenario;
    let mut units = Vec::new();
    for (side, spec) in sc.sides.iter().enumerate() {
        let army = &loaded.armies[side];
        // ACW note 9: limbered artillery attached to a cavalry brigade is horse artillery.
        let cavalry_hqs: Vec<&str> = spec
            .units
            .iter()
            .filter(|u| army.troop(&u.row).is_some_and(|r| r.arm == Arm::Cavalry))
            .map(|u| u.commander.as_str())
            .collect();
        for u in &spec.units {
            let row = army.troop(&u.row).cloned().expect("validated");
            let mounted_row = None;
            let is_art = row.arm == Arm::Artillery;
            units.push(Unit {
                id: units.len() as UnitId,
                key: u.id.clone(),
                name: u.name.clone(),
                side,
                mounted_row,
                grade: u.grade.unwrap_or(Grade::Regular),
                hq: cmd_ids[u.commander.as_str()],
                pose: Pose::new(u.pos, u.facing.to_radians()),
                formation: u.formation,
                stands: u.stands,
                start_stands: u.stands,
                hits: 0,
                suppressed: None,
                disordered_until: None,
                hits_before_disorder: 0,
                exhausted: false,
                has_fired: false,
                initiative_turn: None,
                opportunity_turn: None,
                self_order_turn: None,
                engineer_turn: None,
                limbered: is_art && u.limbered,
                has_limber: is_art && !row.has(Trait::Siege) && !row.has(Trait::Mortar),
                horse_artillery: is_art && cavalry_hqs.contains(&u.commander.as_str()),
                loaded: u.loaded,
                dug_in: u.dug_in,
                knocked_out: false,
                refused: (false, false),
                d_markers: 0,
                gd_fired_at: None,
                morale: u.morale,
                scout: u.scout && scouting,
                scout_free: false,
                hidden: scouting && !u.scout,
                retired: false,
                nation: u.nation.clone().filter(|_| nations),
                row,
            });
        }
    }
    units
}

/// The two sides: names, armies, breakpoints (of `units`), and whom they obey.
fn sides_of(loaded: &LoadedScenario, units: &[Unit], rules: &Rules, nations: bool) -> [Side; 2] {
    let sc = &loaded.scenario;
    [0, 1].map(|s| {
        let n = units.iter().filter(|u: &&Unit| u.side == s).count() as f64;
        Side {
            name: sc.sides[s].name.clone(),
            army: loaded.armies[s].name.clone(),
            breakpoint: (n * rules.victory.breakpoint_fraction).ceil() as u32,
            broken: false,
            broke_turn: None,
            obeys: if nations {
                sc.sides[s].obeys.clone()
            } else {
                Default::default()
            },
        }
    })
}

/// The line-of-sight world of the scenario's terrain, under its weather and light.
fn los_world(sc: &crate::data::scenario::Scenario, rules: &Rules) -> LosWorld {
    let visibility = super::weather::visibility(&rules.visibility, sc.weather, sc.night);
    let vis = &rules.visibility;
    LosWorld::new(
        &sc.terrain,
        sc.table.width,
        sc.table.height,
        LosParams {
            visibility,
            into_area: vis.into_area,
            seen_in_high: vis.seen_in_high,
            seen_in_low: vis.seen_in_low,
            seen_hidden: vis.seen_hidden,
            low_strip_max: vis.low_strip_max,
            contact: vis.contact,
        },
    )
}
