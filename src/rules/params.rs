//! Every rule number, read from `assets/rules/*.ron` (DECISIONS.md: "every number lives in a
//! rules data file"). Field names follow the book's terms; the doc comment of each names the
//! section it comes from.

use super::formation::Formation;
use super::geometry::V2;
use super::terrain::AreaKind;
use serde::{Deserialize, Serialize};

/// Width × depth of a base in cm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    pub width: f64,
    pub depth: f64,
}

/// DECISIONS "Scale and the table": stand footprints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Footprints {
    pub infantry: Shape,
    pub cavalry: Shape,
    pub gun: Shape,
    pub limber: Shape,
    pub command_stand: Shape,
    pub commander_diameter: f64,
    /// BPT "Extended Line": 1 cm between stands, 2 cm for light infantry/sharpshooters.
    pub extended_gap: f64,
    pub skirmish_gap: f64,
}

/// DECISIONS "Arcs" and "Line of sight"; BPT "Visibility", "Weather".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Visibility {
    pub normal: f64,
    pub poor: f64,
    pub extreme: f64,
    pub into_area: f64,
    pub seen_in_high: f64,
    pub seen_in_low: f64,
    pub seen_hidden: f64,
    pub low_strip_max: f64,
    /// Base contact tolerance in cm (touching an obstacle, a boundary, a unit).
    pub contact: f64,
    /// Half of the fire cone, degrees (15° either side: 30° in all).
    pub fire_cone_half_deg: f64,
}

/// BPT "Initiative Phase", "Counter-Initiative"; DECISIONS "Phases" 1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Initiative {
    /// Units that see an enemy within this may act on initiative (DECISIONS: 20 cm).
    pub distance: f64,
    /// Units within this of a unit under charge may counter-initiative.
    pub counter_radius: f64,
    /// An evading unit must end at least this far from where the charger ends, else knocked out.
    pub evade_min_gap: f64,
    /// Charging units are first placed this far from their target for counter-initiative.
    pub charge_hold_off: f64,
    /// Towed guns that limber and cavalry that mount evade at this fraction of a move.
    pub evade_mounting_fraction: f64,
    /// A charged gun may man-handle up to this many degrees to face the charge (BPT
    /// "Charging": "up to 90 degrees"). Absent in rules files before issue 64: 90.
    #[serde(default = "ninety")]
    pub gun_face_charge_deg: f64,
}

/// One entry of the blunder table (BPT "Command Blunder").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BlunderEffect {
    /// 1: the command unit takes d6 attacks from firing.
    CeaseFiring,
    /// 2: the three units nearest the command unit each take 3 attacks in the flank.
    CrossFire,
    /// 3: the command unit moves half a move directly away from the nearest visible enemy.
    Relocate,
    /// 4: all unsuppressed ordered units in the open half-move away from the nearest visible enemy.
    PullBack,
    /// 5: all unsuppressed ordered units fire at the nearest visible enemy in range.
    OpenFire,
    /// 6: all unsuppressed ordered units in the open half-move towards the nearest visible enemy.
    LetsGetEm,
}

/// BPT "Command Phase", "Command Modifiers", "Command Bonus", "Command Blunder";
/// DECISIONS "Phases" 2.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Command {
    /// No distance penalty while the farthest unit is within this (20 cm: the book's
    /// "0–20 cm").
    pub free_distance: f64,
    /// `per_distance` for each band of this begun beyond `free_distance` (20 cm: 21–40 cm
    /// −1, 41–60 cm −2).
    pub distance_step: f64,
    pub per_distance: i32,
    /// −1 for each successive order to the same unit or formation.
    pub successive: i32,
    /// −1 moving into, through or out of dense terrain.
    pub dense: i32,
    /// −1 charging a visible enemy within `charge_zone` (DECISIONS: 10 cm, "zone of control").
    pub charge: i32,
    pub charge_zone: f64,
    /// −1 for units that used initiative or opportunity fire.
    pub used_initiative: i32,
    /// −1 when the CO orders units an HQ failed to order.
    pub co_reorder: i32,
    /// +1 when the commander touches the units it orders in march column.
    pub march_column_touch: i32,
    /// Weather: poor −1, extreme −2 (BPT "Weather").
    pub weather_poor: i32,
    pub weather_extreme: i32,
    /// Blunder table, indexed by the d6 score − 1.
    pub blunders: Vec<BlunderEffect>,
    /// Attack dice of the blunder "Cross-fire" per unit.
    pub crossfire_attacks: u32,
    /// Isolated units (no friendly commander within this) may order themselves every second turn.
    pub isolation_distance: f64,
    /// The command value an isolated unit rolls against (decision: the book gives none).
    pub self_order_value: i32,
    /// Game turns between self-orders (every second turn).
    pub self_order_interval: u32,
    /// A replaced commander's command value is reduced by this.
    pub replacement_penalty: i32,
    /// An overrun commander must join a friendly unit within this fraction of its move.
    pub overrun_join_fraction: f64,
}

/// BPT "Movement", "Terrain"; DECISIONS "Scale".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    pub road_bonus_foot: f64,
    pub road_bonus_horse: f64,
    /// Wheel / oblique at most this many degrees in one move.
    pub wheel_max_deg: f64,
    pub oblique_max_deg: f64,
    /// About face costs this fraction of the move allowance.
    pub about_face_cost: f64,
    /// Retire (infantry backwards without turning) costs this fraction.
    pub retire_cost: f64,
    /// Passage of lines through friends costs this fraction.
    pub passage_of_lines_cost: f64,
    /// Movement multipliers: low area ×2 (half speed), high area ×4 (quarter), dense ×4.
    pub low_area_factor: f64,
    pub high_area_factor: f64,
    pub dense_factor: f64,
    /// A move that enters or leaves area terrain must stop within this of the boundary.
    pub stop_tolerance: f64,
    /// Tolerance for comparing distances to allowances.
    pub epsilon: f64,
    /// Refuse the flank: the end stand swings back this many degrees.
    pub refuse_flank_deg: f64,
    /// Formation changes allowed by the deployment table: (from, to).
    pub deployment: Vec<(Formation, Vec<Formation>)>,
}

/// BPT "Firing"; DECISIONS "Firing (BPT)".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fire {
    pub to_hit_open: u32,
    pub to_hit_soft: u32,
    pub to_hit_hard: u32,
    pub to_hit_commander: u32,
    pub extended_line_target: i32,
    pub half_range: i32,
    pub flank_rear: i32,
    /// Firing attacks lost by a unit in extended line.
    pub extended_line_firer: i32,
    /// Stands that may fire in march column / attack column.
    pub march_column_stands: u32,
    pub attack_column_stands: u32,
    /// ACW special rules: +1 to the hit die roll the first time a unit fires.
    pub first_fire_roll_bonus: u32,
    /// Saves are one worse against flank/rear hits (6 stays 6).
    pub flank_save_worse: u32,
    /// Fall back more than this in one roll → knocked out.
    pub fall_back_ko: f64,
    /// Dug-in troops and unlimbered guns: knocked out only beyond this.
    pub fall_back_ko_dug_in: f64,
    /// Disordered: fewer dice and one less hit per stand.
    pub disordered_attacks: i32,
    pub disordered_hits: i32,
    pub exhausted_hits: i32,
    /// Elite infantry: one fewer fall-back die, +1 hit per stand; poor: one more die.
    pub elite_fall_back_dice: i32,
    pub elite_hits: i32,
    pub poor_fall_back_dice: i32,
    /// Weapon range of mounted cavalry (ACW notes 2, 4, 5).
    pub mounted_range: f64,
    /// Dismounted cavalry: stands that hold the horses and do not fire (BPT "Unit
    /// Organization": "1 horse holder stand").
    #[serde(default = "one")]
    pub horse_holders: u32,
    /// ACW note 12: "Gatling guns have a range of 10cm" (the chart prints 20).
    #[serde(default = "gatling_range")]
    pub gatling_range: f64,
    /// BPT "Square": "+1 Infantry per unit versus Infantry in square".
    #[serde(default = "one_i")]
    pub square_infantry: i32,
    /// BPT "Square": "+1 Artillery per stand versus Infantry in square".
    #[serde(default = "one_i")]
    pub square_artillery_per_stand: i32,
    /// BPT "Square": infantry fired on "has enemy cavalry within 30cm, and no friendly
    /// cavalry units are within 30cm ... must form square".
    #[serde(default = "thirty")]
    pub square_cavalry_threat: f64,
    /// Infantry in line roll one failed save again (BPT "Line": "a bonus save die roll").
    pub line_save_rerolls: u32,
    /// BPT "Prone Movement" (switch `Prone`): hits fewer per unit firing at a prone unit.
    #[serde(default = "one")]
    pub prone_fewer_hits: u32,
    /// Cover given by each kind of area terrain to troops inside it (decision, docs/rules.md).
    pub area_cover: Vec<(AreaKind, Cover)>,
    /// Cover behind a wall, fence or hedge the target touches (BPT "Scoring Hits": soft).
    pub obstacle_cover: Cover,
    /// Cover of dug-in troops (BPT "Scoring Hits": fortified works, hard).
    pub dug_in_cover: Cover,
    /// Victory points per stand for rows the chart prints no points for (skirmishers).
    pub default_stand_points: u32,
}

/// BPT "Scoring Hits": the three grades of cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Cover {
    Open,
    Soft,
    Hard,
}

/// BPT "Charge"; DECISIONS "Phases" 3.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Charge {
    pub distance: f64,
    pub support_distance: f64,
    pub response_distance: f64,
    pub attacks_sabre: u32,
    pub attacks_cavalry: u32,
    /// BPT "Saber Charge" (switch `SaberCharge`): "Infantry equipped with rifled muskets get 1
    /// additional attack against mounted cavalry who have made them the target of a charge"
    /// (**decision**: per stand in contact, against a saber charge).
    #[serde(default = "one")]
    pub rifled_against_saber: u32,
    pub attacks_foot: u32,
    pub attacks_other: u32,
    pub charging: i32,
    pub supporting: i32,
    pub suppressed: i32,
    pub flank_rear: i32,
    pub consolidate: f64,
    pub consolidate_gap: f64,
    /// A base edge cannot be contacted with enemy or impassable terrain within this.
    pub edge_clearance: f64,
    /// Rounds before a drawn combat is broken off (decision: the book fights to a finish).
    pub max_rounds: u32,
}

/// BPT "End of the Battle", "Breakpoint", "Deciding the Winner".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    /// Breakpoint: this fraction of the non-command units, rounded up.
    pub breakpoint_fraction: f64,
    /// Twice the opponent's VPs improves the result one category.
    pub vp_ratio: u32,
}

/// BPT "Weather (Optional Rule)", "Night (Optional Rule)".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeatherRules {
    /// Before the game, 2d6 at least this: extreme weather.
    pub extreme_from: u32,
    /// Before the game, 2d6 at least this (and below `extreme_from`): poor weather.
    pub poor_from: u32,
    /// At the end of each game turn, a double of this face: the weather worsens one step.
    pub worsen_double: u32,
    /// A double of this face: it improves one step.
    pub improve_double: u32,
    /// Treat every scenario as historical (its weather is not rolled before the game). The
    /// book's rule is per scenario: the scenario's `historical: true`.
    #[serde(default)]
    pub keep_scenario_weather: bool,
}

/// BPT "Engineering" (switch `Engineers`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineerRules {
    /// "Obstacle Clearance": one die, successful on this or more (fences and hedges).
    pub clear_score: u32,
    /// "Demolition": one die, successful on this or more (walls).
    pub demolish_score: u32,
    /// Width of the section cleared or demolished, cm ("a 5cm wide section").
    pub gap: f64,
    /// "Bridging": cm of bridge built per bridging unit per initiative phase.
    pub bridge_section: f64,
    /// Width of the finished bridge (the road that crosses the river), cm.
    pub bridge_width: f64,
    /// **Decision**: bridging units whose nearest points of the river lie within this (cm)
    /// are at one crossing and build one bridge, "a 5cm section … per bridging unit".
    #[serde(default = "default_same_crossing")]
    pub same_crossing: f64,
}

fn default_same_crossing() -> f64 {
    10.0
}

/// *Glory Days!* "Activation", "Reaction Fire", "Effect of Hits", "Rallying" as a variant of
/// BPT's command phase (switch `InitiativePassing`; docs/rules.md "Initiative passing").
/// Glory Days' inches become cm at its rifled-musket range (6") = BPT's (20 cm).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitiativePassing {
    /// "Activation": the base target number on one d6 (3).
    pub activation_base: i32,
    /// "In column & on a road" −1 (BPT march column with its centre on a road).
    pub column_on_road: i32,
    /// "General with unit" −1 (a commander of its chain in contact).
    pub general_with_unit: i32,
    /// "Per previous move made on this initiative" +1.
    pub per_previous_move: i32,
    /// "No friendly units within 6"" +1.
    pub alone: i32,
    /// 6" in cm (Decision: GD's rifled musket 6" = BPT's 20 cm).
    pub friend_distance: f64,
    /// "Moving in/into Difficult Terrain" +1.
    pub difficult: i32,
    /// "Moving in/into Godforsaken Terrain" +2.
    pub godforsaken: i32,
    /// Area terrain Glory Days calls difficult (light woodland, orchards, tall crops).
    pub difficult_areas: Vec<AreaKind>,
    /// Area terrain Glory Days calls godforsaken (built-up areas, swamp, bayou).
    pub godforsaken_areas: Vec<AreaKind>,
    /// Experience (Decision, the transcription lost the rows; the worked example makes Raw +1):
    /// BPT elite, regular, poor.
    pub elite: i32,
    pub regular: i32,
    pub poor: i32,
    /// Added to a charge activation's target (0 since `bpt-3`: the charge test is its own
    /// roll; `bpt-2` folded it in as +1).
    pub charge: i32,
    /// "Each D-marker adds one to the target number": activation.
    pub per_d_marker: i32,
    /// D-markers and the unit's own score to hit when it fires (Decision: +1 each, a 6 always hits).
    pub per_d_marker_to_hit: u32,
    /// D-markers and the rally roll (Decision: 0; GD's rally table lists none).
    pub per_d_marker_rally: i32,
    /// "If firer moved on this initiative +1" (to its score to hit).
    pub moved_to_hit: u32,
    /// "Any unit may carry up to 3 D-markers".
    pub max_d_markers: u32,
    /// "Failure to activate a unit to move into or in difficult or godforsaken terrain gains the
    /// unit a D-marker."
    pub failed_in_terrain_marker: bool,
    /// Fire that lands fewer hits than this (after saves) passes the initiative (Decision: 1,
    /// "provided he hits with enough dice").
    pub fire_keep_hits: u32,
    /// "Reaction Fire": a reaction that scores at least this many hits stops the move (2).
    pub reaction_stop_hits: u32,
    /// "Effect of Hits": how fire hits are taken (Decision: D-markers first, up to the limit).
    pub d_marker_policy: DMarkerPolicy,
    /// "Rallying": base target (3).
    pub rally_base: i32,
    /// "Veteran General with unit" −2 / "Seasoned" −1: by the commander's BPT quality.
    pub rally_general_exceptional: i32,
    pub rally_general_average: i32,
    pub rally_general_uninspiring: i32,
    /// "Outside movement range of any known enemy" −1.
    pub rally_out_of_reach: i32,
    /// "No friendly units within 6"" +1.
    pub rally_alone: i32,
    /// "Changing Formation": the base target number on one d6 (3).
    #[serde(default = "gd_three")]
    pub formation_base: i32,
    /// "Changing Formation": "No enemy units within 12"" −1.
    #[serde(default = "gd_minus_one")]
    pub formation_no_enemy: i32,
    /// 12" in cm (twice `friend_distance`: 6" = 20 cm).
    #[serde(default = "gd_twelve_inches")]
    pub formation_enemy_distance: f64,
    /// "Melee": the charge test, one d6 at least this (4) after a charge activation succeeds.
    #[serde(default = "gd_four")]
    pub charge_test_base: i32,
    /// "Cavalry charging Infantry in the open" −1.
    #[serde(default = "gd_minus_one")]
    pub charge_cavalry_vs_infantry: i32,
    /// "General with unit" −1 (the charge test).
    #[serde(default = "gd_minus_one")]
    pub charge_general_with_unit: i32,
    /// "If it fails it stops 2" from its target": 2" in cm (a third of 6" = 20 cm).
    #[serde(default = "gd_two_inches")]
    pub charge_fail_gap: f64,
    /// "Fired on same target last initiative" −1 to the score to hit (the firer's previous
    /// own initiative).
    #[serde(default = "gd_minus_one")]
    pub same_target_to_hit: i32,
}

fn gd_three() -> i32 {
    3
}

fn gd_four() -> i32 {
    4
}

fn gd_minus_one() -> i32 {
    -1
}

fn gd_twelve_inches() -> f64 {
    40.0
}

fn gd_two_inches() -> f64 {
    20.0 / 3.0
}

/// How a unit under fire takes its hits in the initiative-passing variant ("Effect of Hits").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DMarkerPolicy {
    /// Each hit becomes a D-marker while the unit has fewer than the limit; the rest are hits.
    MarkersFirst,
    /// Every hit stays a BPT hit (stands lost); D-markers come only from terrain.
    HitsOnly,
}

impl Default for InitiativePassing {
    fn default() -> Self {
        use AreaKind::*;
        InitiativePassing {
            activation_base: 3,
            column_on_road: -1,
            general_with_unit: -1,
            per_previous_move: 1,
            alone: 1,
            friend_distance: 20.0,
            difficult: 1,
            godforsaken: 2,
            difficult_areas: vec![Field, Scrub, Woods, Orchard],
            godforsaken_areas: vec![BuiltUp, Marsh, Mud],
            elite: -1,
            regular: 0,
            poor: 1,
            charge: 0,
            per_d_marker: 1,
            per_d_marker_to_hit: 1,
            per_d_marker_rally: 0,
            moved_to_hit: 1,
            max_d_markers: 3,
            failed_in_terrain_marker: true,
            fire_keep_hits: 1,
            reaction_stop_hits: 2,
            d_marker_policy: DMarkerPolicy::MarkersFirst,
            rally_base: 3,
            rally_general_exceptional: -2,
            rally_general_average: -1,
            rally_general_uninspiring: 0,
            rally_out_of_reach: -1,
            rally_alone: 1,
            formation_base: gd_three(),
            formation_no_enemy: gd_minus_one(),
            formation_enemy_distance: gd_twelve_inches(),
            charge_test_base: gd_four(),
            charge_cavalry_vs_infantry: gd_minus_one(),
            charge_general_with_unit: gd_minus_one(),
            charge_fail_gap: gd_two_inches(),
            same_target_to_hit: gd_minus_one(),
        }
    }
}

/// One line of BPT's "Morale Grades" table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleGrade {
    /// Suppressed when any suppression die scores this or more.
    pub suppressed_on: u32,
    /// Knocked out when falling back further than this in one roll (cm).
    pub fall_back_ko: f64,
    /// The score to hit the unit in a charge.
    pub charge_to_hit: u32,
    /// Points cost adjustment, percent (victory points are the points of units knocked out).
    pub points_percent: i32,
}

/// BPT "Morale Grades" (optional rule `MoraleGrades`): how easily a unit is suppressed, how
/// far it may fall back before it is knocked out, and the score to hit it in a charge. A
/// scenario gives each unit one (`morale: Some(…)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Morale {
    Unmotivated,
    #[default]
    Regular,
    Motivated,
}

/// BPT "Morale Grades" (optional rule `MoraleGrades`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleRules {
    pub unmotivated: MoraleGrade,
    pub regular: MoraleGrade,
    pub motivated: MoraleGrade,
    /// "Morale grades can also be used to determine the score to hit units in charge."
    pub charge_to_hit: bool,
}

impl MoraleRules {
    pub fn grade(&self, m: Morale) -> &MoraleGrade {
        match m {
            Morale::Unmotivated => &self.unmotivated,
            Morale::Regular => &self.regular,
            Morale::Motivated => &self.motivated,
        }
    }
}

/// *A Perfect Sheet of Flame*, Sequence of Play, "C) Writing and executing orders" (switch
/// `OrderDelay`): "Units within 12 inches of officers may execute commands the turn they are
/// given. Units 12-24 inches of officers must wait one turn before executing commands. Units
/// further than 24 inches of an officer must wait 2 turns." The book's 12" and 24" are mapped
/// onto BPT's command distance ("Normal command distance is 20cm") and twice it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderDelayRules {
    /// An order takes effect at once while its farthest unit is within this (BPT's command
    /// distance, 20 cm; the book's 12").
    pub at_once: f64,
    /// Beyond `at_once` and up to this (40 cm; the book's 24"): `near_delay` turns later;
    /// beyond it `far_delay` turns later.
    pub one_turn: f64,
    /// The side's own turns an order waits at `at_once`–`one_turn` (the book: one).
    pub near_delay: u32,
    /// The side's own turns an order waits beyond `one_turn` (the book: two).
    pub far_delay: u32,
    /// **Decision**: an order on its way still arrives when its commander is knocked out
    /// meanwhile (`false`); `true` cancels it.
    pub lost_commander_cancels: bool,
}

/// BPT "Scouting Cavalry (Optional Rule)" and hidden set-up (switch `Scouting`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoutingRules {
    /// "Scouting cavalry spot hidden enemy troops in the open at up to 30cm and in cover at up
    /// to 15cm."
    pub scout_open: f64,
    pub scout_cover: f64,
    /// **Decision**: other troops spot hidden enemies they can see at the initiative distance
    /// (20 cm) in the open, half that in cover.
    pub troops_open: f64,
    pub troops_cover: f64,
}

impl Default for ScoutingRules {
    fn default() -> Self {
        ScoutingRules {
            scout_open: 30.0,
            scout_cover: 15.0,
            troops_open: 20.0,
            troops_cover: 10.0,
        }
    }
}

/// One row of BPT's "Constructions" table: per 5 cm length.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstructionRow {
    pub hits: u32,
    pub save: Option<u32>,
}

/// BPT "Constructions (Optional Rule)" (switch `Constructions`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstructionRules {
    pub wooden: ConstructionRow,
    pub brick: ConstructionRow,
    pub stone: ConstructionRow,
    pub fortification: ConstructionRow,
    /// The table is "per 5cm length" (**decision**: of the building's longest side, rounded up).
    pub section: f64,
    /// "Roll the attacks (hitting on sixes)".
    pub to_hit: u32,
}

impl ConstructionRules {
    pub fn row(&self, m: super::terrain::Material) -> ConstructionRow {
        use super::terrain::Material::*;
        match m {
            Wooden => self.wooden,
            Brick => self.brick,
            Stone => self.stone,
            Fortification => self.fortification,
        }
    }
}

impl Default for ConstructionRules {
    fn default() -> Self {
        let row = |hits, save| ConstructionRow { hits, save };
        ConstructionRules {
            wooden: row(3, None),
            brick: row(6, Some(5)),
            stone: row(9, Some(4)),
            fortification: row(12, Some(3)),
            section: 5.0,
            to_hit: 6,
        }
    }
}

/// BPT "Fixed Formations (Optional Rule)" (switch `FixedFormations`): the CO attaching a unit
/// of his own formation to another formation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixedFormationRules {
    /// "Deduct one per 10cm between the CO and the HQ": `per_distance` per full `distance_step`.
    pub distance_step: f64,
    pub per_distance: i32,
    /// "Deduct one from the command value for each section of dense terrain or each enemy unit
    /// between the CO and the HQ."
    pub per_dense: i32,
    pub per_enemy: i32,
    /// The area terrain that counts as dense between the CO and the HQ: BPT "Dense Terrain"
    /// for troops on foot and cavalry ("Mud, soft sand, deep snow, swamp, marsh"), the
    /// command units being foot: marsh and mud.
    pub dense_areas: Vec<super::terrain::AreaKind>,
    /// "Move the unit to within 10cm of the HQ."
    pub attach_within: f64,
}

impl Default for FixedFormationRules {
    fn default() -> Self {
        use super::terrain::AreaKind::*;
        FixedFormationRules {
            distance_step: 10.0,
            per_distance: -1,
            per_dense: -1,
            per_enemy: -1,
            dense_areas: vec![Marsh, Mud],
            attach_within: 10.0,
        }
    }
}

/// A whole rules file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Changes whenever a number changes; replays record it.
    pub version: String,
    /// FNV-1a of the rules' numbers (set when the file is read): recordings keep it, so an
    /// edit that forgets to change `version` is still noticed by `verify`.
    #[serde(skip)]
    pub content_hash: u64,
    pub footprints: Footprints,
    pub visibility: Visibility,
    pub initiative: Initiative,
    pub command: Command,
    pub movement: Movement,
    pub fire: Fire,
    pub charge: Charge,
    pub victory: Victory,
    /// DECISIONS "Artillery": Hardtack's round shot, canister and shell in BPT terms.
    pub artillery: super::artillery::ArtilleryParams,
    /// BPT's optional rules: weather.
    pub weather: WeatherRules,
    /// BPT "Engineering".
    pub engineers: EngineerRules,
    /// *Glory Days!* initiative passing and D-markers (switch `InitiativePassing`).
    #[serde(default)]
    pub initiative_passing: InitiativePassing,
    /// The order-delay variant (*A Perfect Sheet of Flame*).
    pub order_delay: OrderDelayRules,
    /// BPT's optional rule "Morale Grades".
    pub morale: MoraleRules,
    /// BPT's optional rule "Fixed Formations".
    #[serde(default)]
    pub fixed_formations: FixedFormationRules,
    /// BPT's optional rule "Constructions".
    #[serde(default)]
    pub constructions: ConstructionRules,
    /// BPT's optional rule "Scouting Cavalry" with hidden set-up.
    #[serde(default)]
    pub scouting: ScoutingRules,
    /// Optional rules and variants on in every battle with these rules (usually none; the
    /// scenario and the player add more).
    #[serde(default)]
    pub switches: super::switches::Switches,
}

impl Rules {
    /// The first thing in the rules the game cannot play with: a number outside its range
    /// ([`RULE_RANGES`]; a number with no range at all), a list of the wrong length, or two
    /// numbers that contradict each other; with the steps to it in the file.
    pub fn problems(&self) -> Option<RuleProblem> {
        let at = |fields: &[&'static str]| fields.iter().map(|f| RulePart::Field(f)).collect::<Vec<_>>();
        let problem = |path: Vec<RulePart>, msg: String| Some(RuleProblem { path, msg });
        let v = &self.version;
        if v.trim().is_empty() || v.chars().count() > MAX_VERSION_CHARS || v.chars().any(char::is_control) {
            return problem(
                at(&["version"]),
                format!("version is a name of 1 to {MAX_VERSION_CHARS} characters with no control characters"),
            );
        }
        for (path, n) in rule_numbers(self) {
            let name = rule_path_name(&path);
            match rule_range(&path) {
                None => {
                    return problem(
                        path,
                        format!(
                            "{name} has no range in the table of the rules' ranges (RULE_RANGES, src/rules/params.rs): every number the game reads needs one"
                        ),
                    );
                }
                Some(r) if !r.contains(n.as_f64()) => {
                    return problem(path, format!("{name} must be {}, not {n}", r.describe()));
                }
                Some(_) => {}
            }
        }
        if self.command.blunders.len() != 6 {
            return problem(
                at(&["command", "blunders"]),
                format!("the blunder table needs 6 entries, not {}", self.command.blunders.len()),
            );
        }
        if self.artillery.bounce_scores.len() > MAX_BOUNCES {
            return problem(
                at(&["artillery", "bounce_scores"]),
                format!(
                    "artillery.bounce_scores has {} entries; a ball bounces at most {MAX_BOUNCES} times",
                    self.artillery.bounce_scores.len()
                ),
            );
        }
        let vis = &self.visibility;
        if vis.poor > vis.normal || vis.extreme > vis.poor {
            return problem(
                at(&["visibility", "poor"]),
                format!(
                    "visibility: poor weather ({}) may not see farther than normal ({}), nor extreme ({}) farther than poor",
                    vis.poor, vis.normal, vis.extreme
                ),
            );
        }
        if self.order_delay.one_turn < self.order_delay.at_once {
            return problem(
                at(&["order_delay", "one_turn"]),
                format!(
                    "order_delay.one_turn ({}) is at least order_delay.at_once ({})",
                    self.order_delay.one_turn, self.order_delay.at_once
                ),
            );
        }
        let w = &self.weather;
        if w.poor_from > w.extreme_from {
            return problem(
                at(&["weather", "poor_from"]),
                format!(
                    "weather.poor_from ({}) is at most weather.extreme_from ({})",
                    w.poor_from, w.extreme_from
                ),
            );
        }
        if w.worsen_double == w.improve_double {
            return problem(
                at(&["weather", "improve_double"]),
                format!(
                    "weather.improve_double and weather.worsen_double are both {}: one double may not do both",
                    w.worsen_double
                ),
            );
        }
        None
    }

    /// The formations a unit in `from` may deploy into.
    pub fn can_deploy(&self, from: Formation, to: Formation) -> bool {
        self.movement
            .deployment
            .iter()
            .any(|(f, tos)| *f == from && tos.contains(&to))
    }
}

/// The longest `version` name.
pub const MAX_VERSION_CHARS: usize = 80;
/// The most bounces `artillery.bounce_scores` may give a ball.
pub const MAX_BOUNCES: usize = 10;

/// Degrees to radians.
pub fn rad(deg: f64) -> f64 {
    deg.to_radians()
}

/// Convenience for tests and tools.
pub fn v(x: f64, y: f64) -> V2 {
    V2::new(x, y)
}

fn one() -> u32 {
    1
}

fn gatling_range() -> f64 {
    10.0
}

fn one_i() -> i32 {
    1
}

fn thirty() -> f64 {
    30.0
}

fn ninety() -> f64 {
    90.0
}

/// One step of the way to a number of the rules file: a field of a struct, or a place in a
/// list or tuple (the same steps the rules file is written in).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulePart {
    Field(&'static str),
    Index(usize),
}

/// A number of the rules as it was read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RuleNum {
    Float(f64),
    Int(i64),
    UInt(u64),
}

impl RuleNum {
    fn as_f64(self) -> f64 {
        match self {
            RuleNum::Float(v) => v,
            RuleNum::Int(v) => v as f64,
            RuleNum::UInt(v) => v as f64,
        }
    }
}

impl std::fmt::Display for RuleNum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // Debug: 1e308 as `1e308`, not 309 digits.
            RuleNum::Float(v) => write!(f, "{v:?}"),
            RuleNum::Int(v) => write!(f, "{v}"),
            RuleNum::UInt(v) => write!(f, "{v}"),
        }
    }
}

/// The dotted name of a number of the rules: `footprints.infantry.width`,
/// `artillery.bounce_scores[2]`.
pub fn rule_path_name(path: &[RulePart]) -> String {
    let mut s = String::new();
    for p in path {
        match p {
            RulePart::Field(f) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(f);
            }
            RulePart::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// A problem with a rules file: where (the steps to the value) and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleProblem {
    pub path: Vec<RulePart>,
    pub msg: String,
}

/// The range one number of the rules may take: finite, `lo` (or more than `lo` when
/// `lo_open`) to `hi`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RuleRange {
    pub lo: f64,
    pub hi: f64,
    pub lo_open: bool,
    /// What the number is, for the message: "a length in cm".
    pub what: &'static str,
}

impl RuleRange {
    const fn closed(lo: f64, hi: f64, what: &'static str) -> Self {
        RuleRange {
            lo,
            hi,
            lo_open: false,
            what,
        }
    }

    const fn above(lo: f64, hi: f64, what: &'static str) -> Self {
        RuleRange {
            lo,
            hi,
            lo_open: true,
            what,
        }
    }

    pub fn contains(&self, v: f64) -> bool {
        v.is_finite() && (if self.lo_open { v > self.lo } else { v >= self.lo }) && v <= self.hi
    }

    /// "a length in cm, more than 0 and at most 1000".
    pub fn describe(&self) -> String {
        if self.lo_open {
            format!("{}, more than {} and at most {}", self.what, self.lo, self.hi)
        } else {
            format!("{}, {} to {}", self.what, self.lo, self.hi)
        }
    }
}

/// The longest distance a rule may give, cm (the largest table is 10,000 cm; BPT's longest
/// rule distance is 100 cm of sight).
pub const MAX_RULE_CM: f64 = 1000.0;
/// The most dice a rule may give or take away per stand or unit.
pub const MAX_RULE_DICE: f64 = 20.0;

const CM: RuleRange = RuleRange::above(0.0, MAX_RULE_CM, "a distance in cm");
const CM0: RuleRange = RuleRange::closed(0.0, MAX_RULE_CM, "a distance in cm");
const BASE: RuleRange = RuleRange::closed(0.1, 50.0, "a base size in cm");
const GAP: RuleRange = RuleRange::closed(0.0, 50.0, "a gap in cm");
const TOLERANCE: RuleRange = RuleRange::above(0.0, 10.0, "a tolerance in cm");
const ANGLE: RuleRange = RuleRange::above(0.0, 180.0, "an angle in degrees");
const FRACTION: RuleRange = RuleRange::closed(0.0, 1.0, "a fraction");
const FRACTION_POS: RuleRange = RuleRange::above(0.0, 1.0, "a fraction");
const FACTOR: RuleRange = RuleRange::closed(1.0, 100.0, "a movement factor");
const SCORE: RuleRange = RuleRange::closed(2.0, 6.0, "a d6 score");
const SCORE_2D6: RuleRange = RuleRange::closed(2.0, 12.0, "a 2d6 score");
const FACE: RuleRange = RuleRange::closed(1.0, 6.0, "a die's face");
const DICE: RuleRange = RuleRange::closed(0.0, MAX_RULE_DICE, "a number of dice");
const DICE_MOD: RuleRange = RuleRange::closed(-MAX_RULE_DICE, MAX_RULE_DICE, "a number of dice more or fewer");
const MODIFIER: RuleRange = RuleRange::closed(-6.0, 6.0, "a modifier to a roll");
const SCORE_MOD: RuleRange = RuleRange::closed(0.0, 5.0, "a modifier to a d6 score");
const HITS: RuleRange = RuleRange::closed(0.0, 100.0, "a number of hits");
const HITS_MOD: RuleRange = RuleRange::closed(-10.0, 10.0, "a number of hits more or fewer");
const STANDS: RuleRange = RuleRange::closed(0.0, 40.0, "a number of stands");
const COMMAND_VALUE: RuleRange = RuleRange::closed(2.0, 12.0, "a command value");
const TURNS: RuleRange = RuleRange::closed(0.0, 20.0, "a number of turns");
const POINTS: RuleRange = RuleRange::closed(0.0, 1000.0, "victory points");

/// The range of every number of the rules file, by its dotted name (`*` stands for any one
/// step). A number with no row here is refused: a new field must be given its range.
pub const RULE_RANGES: &[(&str, RuleRange)] = &[
    ("footprints.*.width", BASE),
    ("footprints.*.depth", BASE),
    ("footprints.commander_diameter", BASE),
    ("footprints.extended_gap", GAP),
    ("footprints.skirmish_gap", GAP),
    ("visibility.normal", CM),
    ("visibility.poor", CM),
    ("visibility.extreme", CM),
    ("visibility.into_area", CM0),
    ("visibility.seen_in_high", CM0),
    ("visibility.seen_in_low", CM0),
    ("visibility.seen_hidden", CM0),
    ("visibility.low_strip_max", CM0),
    ("visibility.contact", TOLERANCE),
    ("visibility.fire_cone_half_deg", ANGLE),
    ("initiative.distance", CM0),
    ("initiative.counter_radius", CM0),
    ("initiative.evade_min_gap", CM0),
    ("initiative.charge_hold_off", CM0),
    ("initiative.evade_mounting_fraction", FRACTION),
    ("initiative.gun_face_charge_deg", ANGLE),
    ("command.free_distance", CM0),
    ("command.distance_step", CM),
    ("command.per_distance", MODIFIER),
    ("command.successive", MODIFIER),
    ("command.dense", MODIFIER),
    ("command.charge", MODIFIER),
    ("command.charge_zone", CM0),
    ("command.used_initiative", MODIFIER),
    ("command.co_reorder", MODIFIER),
    ("command.march_column_touch", MODIFIER),
    ("command.weather_poor", MODIFIER),
    ("command.weather_extreme", MODIFIER),
    ("command.crossfire_attacks", DICE),
    ("command.isolation_distance", CM0),
    ("command.self_order_value", COMMAND_VALUE),
    (
        "command.self_order_interval",
        RuleRange::closed(1.0, 20.0, "a number of turns"),
    ),
    ("command.replacement_penalty", MODIFIER),
    ("command.overrun_join_fraction", FRACTION),
    ("movement.road_bonus_foot", CM0),
    ("movement.road_bonus_horse", CM0),
    ("movement.wheel_max_deg", ANGLE),
    ("movement.oblique_max_deg", ANGLE),
    ("movement.about_face_cost", FRACTION),
    ("movement.retire_cost", FRACTION),
    ("movement.passage_of_lines_cost", FRACTION),
    ("movement.low_area_factor", FACTOR),
    ("movement.high_area_factor", FACTOR),
    ("movement.dense_factor", FACTOR),
    ("movement.stop_tolerance", CM0),
    ("movement.epsilon", RuleRange::above(0.0, 1.0, "a tolerance in cm")),
    ("movement.refuse_flank_deg", ANGLE),
    ("fire.to_hit_open", SCORE),
    ("fire.to_hit_soft", SCORE),
    ("fire.to_hit_hard", SCORE),
    ("fire.to_hit_commander", SCORE),
    ("fire.extended_line_target", MODIFIER),
    ("fire.half_range", MODIFIER),
    ("fire.flank_rear", MODIFIER),
    ("fire.extended_line_firer", DICE_MOD),
    ("fire.march_column_stands", STANDS),
    ("fire.attack_column_stands", STANDS),
    ("fire.first_fire_roll_bonus", SCORE_MOD),
    ("fire.flank_save_worse", SCORE_MOD),
    ("fire.fall_back_ko", CM0),
    ("fire.fall_back_ko_dug_in", CM0),
    ("fire.disordered_attacks", DICE_MOD),
    ("fire.disordered_hits", HITS_MOD),
    ("fire.exhausted_hits", HITS_MOD),
    ("fire.elite_fall_back_dice", DICE_MOD),
    ("fire.elite_hits", HITS_MOD),
    ("fire.poor_fall_back_dice", DICE_MOD),
    ("fire.mounted_range", CM0),
    ("fire.horse_holders", STANDS),
    ("fire.gatling_range", CM0),
    ("fire.square_infantry", DICE_MOD),
    ("fire.square_artillery_per_stand", DICE_MOD),
    ("fire.square_cavalry_threat", CM0),
    ("fire.line_save_rerolls", DICE),
    ("fire.prone_fewer_hits", HITS),
    ("fire.default_stand_points", POINTS),
    ("charge.distance", CM0),
    ("charge.support_distance", CM0),
    ("charge.response_distance", CM0),
    ("charge.attacks_sabre", DICE),
    ("charge.attacks_cavalry", DICE),
    ("charge.rifled_against_saber", DICE),
    ("charge.attacks_foot", DICE),
    ("charge.attacks_other", DICE),
    ("charge.charging", MODIFIER),
    ("charge.supporting", MODIFIER),
    ("charge.suppressed", MODIFIER),
    ("charge.flank_rear", MODIFIER),
    ("charge.consolidate", CM0),
    ("charge.consolidate_gap", CM0),
    ("charge.edge_clearance", CM0),
    (
        "charge.max_rounds",
        RuleRange::closed(1.0, 100.0, "a number of combat rounds"),
    ),
    ("victory.breakpoint_fraction", FRACTION_POS),
    (
        "victory.vp_ratio",
        RuleRange::closed(1.0, 10.0, "a ratio of victory points"),
    ),
    ("artillery.accuracy_veteran", SCORE),
    ("artillery.accuracy_regular", SCORE),
    ("artillery.accuracy_green", SCORE),
    ("artillery.deviation_per_range", CM),
    ("artillery.strip_width", CM),
    ("artillery.penetration_smoothbore", CM),
    ("artillery.penetration_default", CM),
    ("artillery.bounce_scores[*]", SCORE),
    ("artillery.bounce_deviation_step", CM0),
    ("artillery.canister_range", CM0),
    ("artillery.canister_attacks_smoothbore", DICE),
    ("artillery.canister_attacks_rifled", DICE),
    ("artillery.canister_corridor_width", CM),
    ("artillery.canister_extra_depth", CM0),
    ("artillery.shell_radius", CM0),
    ("artillery.shrapnel_bonus", DICE),
    ("artillery.air_burst_radius", CM0),
    ("artillery.air_burst_dice", DICE_MOD),
    ("artillery.first_flight_clear", CM0),
    ("artillery.high_angle_first", CM),
    ("artillery.high_angle_step", CM),
    ("weather.extreme_from", SCORE_2D6),
    ("weather.poor_from", SCORE_2D6),
    ("weather.worsen_double", FACE),
    ("weather.improve_double", FACE),
    ("engineers.clear_score", SCORE),
    ("engineers.demolish_score", SCORE),
    ("engineers.gap", CM),
    ("engineers.bridge_section", CM),
    ("engineers.bridge_width", CM),
    ("engineers.same_crossing", CM0),
    ("initiative_passing.activation_base", SCORE),
    ("initiative_passing.column_on_road", MODIFIER),
    ("initiative_passing.general_with_unit", MODIFIER),
    ("initiative_passing.per_previous_move", MODIFIER),
    ("initiative_passing.alone", MODIFIER),
    ("initiative_passing.friend_distance", CM0),
    ("initiative_passing.difficult", MODIFIER),
    ("initiative_passing.godforsaken", MODIFIER),
    ("initiative_passing.elite", MODIFIER),
    ("initiative_passing.regular", MODIFIER),
    ("initiative_passing.poor", MODIFIER),
    ("initiative_passing.charge", MODIFIER),
    ("initiative_passing.per_d_marker", MODIFIER),
    ("initiative_passing.per_d_marker_to_hit", SCORE_MOD),
    ("initiative_passing.per_d_marker_rally", MODIFIER),
    ("initiative_passing.moved_to_hit", SCORE_MOD),
    (
        "initiative_passing.max_d_markers",
        RuleRange::closed(0.0, 10.0, "a number of D-markers"),
    ),
    ("initiative_passing.fire_keep_hits", HITS),
    ("initiative_passing.reaction_stop_hits", HITS),
    ("initiative_passing.rally_base", SCORE),
    ("initiative_passing.rally_general_exceptional", MODIFIER),
    ("initiative_passing.rally_general_average", MODIFIER),
    ("initiative_passing.rally_general_uninspiring", MODIFIER),
    ("initiative_passing.rally_out_of_reach", MODIFIER),
    ("initiative_passing.rally_alone", MODIFIER),
    ("initiative_passing.formation_base", SCORE),
    ("initiative_passing.formation_no_enemy", MODIFIER),
    ("initiative_passing.formation_enemy_distance", CM0),
    ("initiative_passing.charge_test_base", SCORE),
    ("initiative_passing.charge_cavalry_vs_infantry", MODIFIER),
    ("initiative_passing.charge_general_with_unit", MODIFIER),
    ("initiative_passing.charge_fail_gap", CM0),
    ("initiative_passing.same_target_to_hit", MODIFIER),
    ("order_delay.at_once", CM),
    ("order_delay.one_turn", CM),
    ("order_delay.near_delay", TURNS),
    ("order_delay.far_delay", TURNS),
    ("morale.*.suppressed_on", SCORE),
    ("morale.*.fall_back_ko", CM0),
    ("morale.*.charge_to_hit", SCORE),
    (
        "morale.*.points_percent",
        RuleRange::closed(-100.0, 100.0, "a percentage"),
    ),
    ("fixed_formations.distance_step", CM),
    ("fixed_formations.per_distance", MODIFIER),
    ("fixed_formations.per_dense", MODIFIER),
    ("fixed_formations.per_enemy", MODIFIER),
    ("fixed_formations.attach_within", CM0),
    (
        "constructions.*.hits",
        RuleRange::closed(1.0, 100.0, "a number of hits"),
    ),
    ("constructions.*.save", SCORE),
    ("constructions.section", CM),
    ("constructions.to_hit", SCORE),
    ("scouting.scout_open", CM0),
    ("scouting.scout_cover", CM0),
    ("scouting.troops_open", CM0),
    ("scouting.troops_cover", CM0),
];

/// The range [`RULE_RANGES`] gives the number at `path`, if any.
pub fn rule_range(path: &[RulePart]) -> Option<RuleRange> {
    RULE_RANGES
        .iter()
        .find(|(pat, _)| pattern_matches(pat, path))
        .map(|(_, r)| *r)
}

/// Whether a dotted pattern (`morale.*.fall_back_ko`, `artillery.bounce_scores[*]`) names
/// `path`.
fn pattern_matches(pat: &str, path: &[RulePart]) -> bool {
    let mut steps = Vec::new();
    for seg in pat.split('.') {
        let (name, rest) = seg.split_once('[').unwrap_or((seg, ""));
        steps.push(Some(name));
        if !rest.is_empty() {
            steps.push(None);
        }
    }
    steps.len() == path.len()
        && steps.iter().zip(path).all(|(s, p)| match (s, p) {
            (None, RulePart::Index(_)) => true,
            (Some("*"), _) => true,
            (Some(name), RulePart::Field(f)) => name == f,
            _ => false,
        })
}

/// Every number of `value` with the steps to it, in the order they are written.
pub fn rule_numbers<T: Serialize>(value: &T) -> Vec<(Vec<RulePart>, RuleNum)> {
    let mut w = walk::Walker::default();
    // The walker's serializer has no way to fail.
    let _ = value.serialize(&mut w);
    w.out
}

/// A serde serializer that writes nothing and collects every number with its path.
mod walk {
    use super::{RuleNum, RulePart};
    use serde::ser::{self, Serialize};

    #[derive(Default)]
    pub struct Walker {
        pub path: Vec<RulePart>,
        /// The next index of each list being walked (innermost last).
        next: Vec<usize>,
        pub out: Vec<(Vec<RulePart>, RuleNum)>,
    }

    impl Walker {
        fn num(&mut self, n: RuleNum) -> Result<(), Never> {
            self.out.push((self.path.clone(), n));
            Ok(())
        }

        fn open(&mut self) -> Result<&mut Self, Never> {
            self.next.push(0);
            Ok(self)
        }

        fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
            let i = self.next.last().copied().unwrap_or(0);
            self.path.push(RulePart::Index(i));
            let r = v.serialize(&mut *self);
            self.path.pop();
            if let Some(n) = self.next.last_mut() {
                *n += 1;
            }
            r
        }

        fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), Never> {
            self.path.push(RulePart::Field(key));
            let r = v.serialize(&mut *self);
            self.path.pop();
            r
        }

        fn close(&mut self) -> Result<(), Never> {
            self.next.pop();
            Ok(())
        }
    }

    #[derive(Debug)]
    pub struct Never;

    impl std::fmt::Display for Never {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("never")
        }
    }

    impl std::error::Error for Never {}

    impl ser::Error for Never {
        fn custom<T: std::fmt::Display>(_: T) -> Self {
            Never
        }
    }

    impl<'a> ser::Serializer for &'a mut Walker {
        type Ok = ();
        type Error = Never;
        type SerializeSeq = &'a mut Walker;
        type SerializeTuple = &'a mut Walker;
        type SerializeTupleStruct = &'a mut Walker;
        type SerializeTupleVariant = &'a mut Walker;
        type SerializeMap = &'a mut Walker;
        type SerializeStruct = &'a mut Walker;
        type SerializeStructVariant = &'a mut Walker;

        fn serialize_bool(self, _: bool) -> Result<(), Never> {
            Ok(())
        }
        fn serialize_i8(self, v: i8) -> Result<(), Never> {
            self.num(RuleNum::Int(v.into()))
        }
        fn serialize_i16(self, v: i16) -> Result<(), Never> {
            self.num(RuleNum::Int(v.into()))
        }
        fn serialize_i32(self, v: i32) -> Result<(), Never> {
            self.num(RuleNum::Int(v.into()))
        }
        fn serialize_i64(self, v: i64) -> Result<(), Never> {
            self.num(RuleNum::Int(v))
        }
        fn serialize_u8(self, v: u8) -> Result<(), Never> {
            self.num(RuleNum::UInt(v.into()))
        }
        fn serialize_u16(self, v: u16) -> Result<(), Never> {
            self.num(RuleNum::UInt(v.into()))
        }
        fn serialize_u32(self, v: u32) -> Result<(), Never> {
            self.num(RuleNum::UInt(v.into()))
        }
        fn serialize_u64(self, v: u64) -> Result<(), Never> {
            self.num(RuleNum::UInt(v))
        }
        fn serialize_f32(self, v: f32) -> Result<(), Never> {
            self.num(RuleNum::Float(v.into()))
        }
        fn serialize_f64(self, v: f64) -> Result<(), Never> {
            self.num(RuleNum::Float(v))
        }
        fn serialize_char(self, _: char) -> Result<(), Never> {
            Ok(())
        }
        fn serialize_str(self, _: &str) -> Result<(), Never> {
            Ok(())
        }
        fn serialize_bytes(self, _: &[u8]) -> Result<(), Never> {
            Ok(())
        }
        fn serialize_none(self) -> Result<(), Never> {
            Ok(())
        }
        fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Never> {
            // `Some(x)`: the file's place of `x` is the place of the option.
            v.serialize(self)
        }
        fn serialize_unit(self) -> Result<(), Never> {
            Ok(())
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<(), Never> {
            Ok(())
        }
        fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Never> {
            Ok(())
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<(), Never> {
            v.serialize(self)
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            v: &T,
        ) -> Result<(), Never> {
            self.open()?;
            self.element(v)?;
            self.close()
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Self, Never> {
            self.open()
        }
        fn serialize_tuple(self, _: usize) -> Result<Self, Never> {
            self.open()
        }
        fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
            self.open()
        }
        fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self, Never> {
            self.open()
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self, Never> {
            self.open()
        }
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
            Ok(self)
        }
        fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self, Never> {
            Ok(self)
        }
    }

    impl ser::SerializeSeq for &mut Walker {
        type Ok = ();
        type Error = Never;
        fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
            self.element(v)
        }
        fn end(self) -> Result<(), Never> {
            self.close()
        }
    }

    impl ser::SerializeTuple for &mut Walker {
        type Ok = ();
        type Error = Never;
        fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
            self.element(v)
        }
        fn end(self) -> Result<(), Never> {
            self.close()
        }
    }

    impl ser::SerializeTupleStruct for &mut Walker {
        type Ok = ();
        type Error = Never;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
            self.element(v)
        }
        fn end(self) -> Result<(), Never> {
            self.close()
        }
    }

    impl ser::SerializeTupleVariant for &mut Walker {
        type Ok = ();
        type Error = Never;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
            self.element(v)
        }
        fn end(self) -> Result<(), Never> {
            self.close()
        }
    }

    impl ser::SerializeMap for &mut Walker {
        type Ok = ();
        type Error = Never;
        fn serialize_key<T: Serialize + ?Sized>(&mut self, _: &T) -> Result<(), Never> {
            // Keys are names here; the file's place of an entry is its value.
            Ok(())
        }
        fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
            self.element(v)
        }
        fn end(self) -> Result<(), Never> {
            self.close()
        }
    }

    impl ser::SerializeStruct for &mut Walker {
        type Ok = ();
        type Error = Never;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), Never> {
            self.field(key, v)
        }
        fn end(self) -> Result<(), Never> {
            Ok(())
        }
    }

    impl ser::SerializeStructVariant for &mut Walker {
        type Ok = ();
        type Error = Never;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), Never> {
            self.field(key, v)
        }
        fn end(self) -> Result<(), Never> {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bpt() -> Rules {
        ron::from_str(include_str!("../../assets/rules/bpt.ron")).expect("the bundled rules parse")
    }

    fn num(r: &Rules, name: &str) -> RuleNum {
        rule_numbers(r)
            .into_iter()
            .find(|(p, _)| rule_path_name(p) == name)
            .unwrap_or_else(|| panic!("no number {name}"))
            .1
    }

    #[test]
    fn the_walk_finds_every_number_by_its_path() {
        let r = bpt();
        assert_eq!(num(&r, "footprints.infantry.width"), RuleNum::Float(2.5));
        assert_eq!(num(&r, "artillery.bounce_scores[2]"), RuleNum::UInt(6));
        assert_eq!(num(&r, "constructions.brick.save"), RuleNum::UInt(5));
        assert_eq!(num(&r, "morale.unmotivated.points_percent"), RuleNum::Int(-25));
        assert_eq!(num(&r, "charge.attacks_foot"), RuleNum::UInt(2));
        // `save: None` has no number; the hash is not part of the file.
        let names: Vec<String> = rule_numbers(&r).iter().map(|(p, _)| rule_path_name(p)).collect();
        assert!(!names.contains(&"constructions.wooden.save".to_string()));
        assert!(!names.iter().any(|n| n.contains("content_hash")));
        assert!(r.problems().is_none(), "{:?}", r.problems());
    }

    #[test]
    fn patterns_name_one_step_each() {
        let p = |parts: &[RulePart]| parts.to_vec();
        use RulePart::{Field as F, Index as I};
        assert!(pattern_matches(
            "morale.*.fall_back_ko",
            &p(&[F("morale"), F("regular"), F("fall_back_ko")])
        ));
        assert!(!pattern_matches(
            "morale.*.fall_back_ko",
            &p(&[F("fire"), F("fall_back_ko")])
        ));
        assert!(pattern_matches(
            "artillery.bounce_scores[*]",
            &p(&[F("artillery"), F("bounce_scores"), I(0)])
        ));
        assert!(!pattern_matches(
            "artillery.bounce_scores[*]",
            &p(&[F("artillery"), F("bounce_scores")])
        ));
        assert!(!pattern_matches(
            "fire.to_hit_open",
            &p(&[F("fire"), F("to_hit_open"), I(0)])
        ));
        // Each row of the table names a number of the rules (no row left over from a field
        // since removed).
        let r = bpt();
        let numbers = rule_numbers(&r);
        for (pat, _) in RULE_RANGES {
            assert!(
                numbers.iter().any(|(p, _)| pattern_matches(pat, p)),
                "{pat} names nothing"
            );
        }
    }

    #[test]
    fn docs_rules_lists_every_range() {
        let doc = include_str!("../../docs/rules.md");
        for (pat, r) in RULE_RANGES {
            let row = format!("| `{pat}` | {} |", r.describe());
            assert!(doc.contains(&row), "docs/rules.md lacks the row {row}");
        }
    }

    #[test]
    fn a_number_out_of_range_is_named_with_its_range() {
        let mut r = bpt();
        r.victory.breakpoint_fraction = f64::NAN;
        let p = r.problems().unwrap();
        assert_eq!(rule_path_name(&p.path), "victory.breakpoint_fraction");
        assert_eq!(
            p.msg,
            "victory.breakpoint_fraction must be a fraction, more than 0 and at most 1, not NaN"
        );
        let mut r = bpt();
        r.charge.attacks_foot = 4_000_000_000;
        let p = r.problems().unwrap();
        assert_eq!(
            p.msg,
            "charge.attacks_foot must be a number of dice, 0 to 20, not 4000000000"
        );
        let mut r = bpt();
        r.footprints.gun.depth = -2.5;
        assert_eq!(
            r.problems().unwrap().msg,
            "footprints.gun.depth must be a base size in cm, 0.1 to 50, not -2.5"
        );
        let mut r = bpt();
        r.visibility.normal = 1e308;
        assert!(r.problems().unwrap().msg.ends_with("not 1e308"));
    }
}
