//! Scenarios (`maps/*.ron`): the table, its terrain, weather, turn limit, deployment zones,
//! objectives and each side's order of battle.

use crate::rules::formation::Formation;
use crate::rules::geometry::V2;
use crate::rules::terrain::{Polygon, Terrain};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Weather {
    #[default]
    Normal,
    Poor,
    Extreme,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ObjectiveLevel {
    Major,
    Minor,
}

/// A place a side must hold at the end of the battle (BPT "Reaching an Objective").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    pub name: String,
    /// The side (by name) for whom this is an objective.
    pub side: String,
    pub level: ObjectiveLevel,
    pub pos: V2,
    /// Held when a unit of that side is within this distance and no enemy unit is.
    #[serde(default = "default_objective_radius")]
    pub radius: f64,
}

fn default_objective_radius() -> f64 {
    5.0
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Grade {
    Elite,
    Regular,
    Poor,
}

/// A unit's morale grade: defined with the rules that read it (the rules layer sits below
/// the data layer), named here too because scenarios give it.
pub use crate::rules::params::Morale;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ammo {
    Shot,
    Canister,
    Shell,
    /// Shell with the fuse cut short (BPT "Air Burst Shell Fire", switch `AirBurst`).
    AirBurst,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderSpec {
    /// Unique within the scenario, e.g. `"us_bde1"`.
    pub id: String,
    pub name: String,
    /// What his formation was called, when history gave it a name ("Iron Brigade"); `None`
    /// is "Meredith's brigade" (his surname and level of command).
    #[serde(default)]
    pub formation: Option<String>,
    /// Row id in the side's command chart, e.g. `"brigade_average"`.
    pub row: String,
    /// The commander this one answers to; `None` for the side's CO.
    #[serde(default)]
    pub superior: Option<String>,
    pub pos: V2,
    #[serde(default = "yes")]
    pub mounted: bool,
    /// BPT "Multi-National Armies" (switch `MultiNational`): the commander's nation; `None`
    /// is the side's own.
    #[serde(default)]
    pub nation: Option<String>,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Unique within the scenario, e.g. `"us_20me"`.
    pub id: String,
    pub name: String,
    /// Row id in the side's troop chart.
    pub row: String,
    /// Fighting stands (the unit command stand is extra and always present).
    pub stands: u32,
    pub formation: Formation,
    /// Centre of the unit (its command stand).
    pub pos: V2,
    /// Degrees counter-clockwise from east (+x); 90 faces the far (+y) edge.
    pub facing: f64,
    /// The HQ (commander id) the unit belongs to.
    pub commander: String,
    #[serde(default)]
    pub grade: Option<Grade>,
    /// BPT "Morale Grades": played only with the `MoraleGrades` switch; `None` is regular.
    #[serde(default)]
    pub morale: Option<Morale>,
    /// BPT "Multi-National Armies" (switch `MultiNational`): the unit's nation; `None` is the
    /// side's own.
    #[serde(default)]
    pub nation: Option<String>,
    /// BPT "Scouting Cavalry" (switch `Scouting`): a stand of mounted cavalry deployed as
    /// scouting cavalry (one stand a unit).
    #[serde(default)]
    pub scout: bool,
    /// Artillery: starts limbered (hooked to its limber).
    #[serde(default)]
    pub limbered: bool,
    /// Artillery: ammunition loaded at the start (Hardtack: unloaded unless the scenario says).
    #[serde(default)]
    pub loaded: Option<Ammo>,
    /// Dug in at the start (BPT "Dug In").
    #[serde(default)]
    pub dug_in: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub name: String,
    /// Army list file stem under `assets/armies/`, e.g. `"acw_union"`.
    pub army: String,
    #[serde(default)]
    pub deployment: Option<Polygon>,
    pub commanders: Vec<CommanderSpec>,
    pub units: Vec<UnitSpec>,
    /// BPT "Multi-National Armies": "Some army lists may alter this (for example, Portuguese
    /// troops … will be able to receive order from British HQs)": a nation → the other
    /// nations whose HQs may also order its units.
    #[serde(default)]
    pub obeys: std::collections::BTreeMap<String, Vec<String>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSize {
    pub width: f64,
    pub height: f64,
}

impl Default for TableSize {
    fn default() -> Self {
        TableSize {
            width: 240.0,
            height: 180.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub title: String,
    #[serde(default)]
    pub brief: String,
    #[serde(default)]
    pub table: TableSize,
    #[serde(default)]
    pub weather: Weather,
    /// Ground is wet (round shot does not bounce), whatever the weather.
    #[serde(default)]
    pub wet_ground: bool,
    #[serde(default)]
    pub night: bool,
    /// A historical battle whose `weather` is the day's: with the `Weather` switch it is not
    /// rolled before the battle (BPT "Weather": "In historical scenarios use the historical
    /// weather"); it still changes at the end of each game turn.
    #[serde(default)]
    pub historical: bool,
    /// Optional rules and variants this scenario plays with (issue 8), e.g. `[Weather]`.
    #[serde(default)]
    pub switches: crate::rules::switches::Switches,
    /// Game turns (each two player turns).
    pub turn_limit: u32,
    /// A scenario rule: when the objectives leave the battle drawn (equal objectives held,
    /// no side broken), the side with more victory points wins a minor victory, not only
    /// one with twice the enemy's (BPT "Deciding the Winner"). For a large table whose
    /// objectives stand far apart (Gettysburg).
    #[serde(default)]
    pub decide_on_points: bool,
    /// Index into `sides` of the side that plays first.
    #[serde(default)]
    pub first_side: usize,
    /// Rules file under `assets/rules/` (stem); default `"bpt"`.
    #[serde(default)]
    pub rules: Option<String>,
    #[serde(default)]
    pub terrain: Terrain,
    #[serde(default)]
    pub objectives: Vec<Objective>,
    pub sides: Vec<SideSpec>,
}
