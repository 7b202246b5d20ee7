//! The battle's state: every unit, stand and commander, the phase, and the dice.
//!
//! This is plain data so the whole battle can be cloned (undo, the scheduler's look-ahead,
//! replay seeking) and hashed. The ECS mirrors it (see `app`); only the action
//! pipeline (`Battle::apply`) changes it.

use crate::data::army::{Arm, CommandRow, Trait, TroopRow};
use crate::data::scenario::{Ammo, Grade, Morale, Objective, TableSize, Weather};
use crate::rules::dice::Dice;
use crate::rules::formation::Formation;
use crate::rules::geometry::{Pose, Rect, V2};
use crate::rules::layout::{self, StandShape};
use crate::rules::los::{Blocker, LosWorld, Sighting};
use crate::rules::params::{Rules, Shape};
use crate::rules::terrain::Terrain;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

pub use super::ids::{CmdId, SideId, UnitId};

mod change;
pub use change::*;

/// The phases of a player turn (BPT "Sequence of Play"). The app's state machine walks them as
/// `app::GamePhase` (the core has no Bevy state of its own).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    #[default]
    Deployment,
    Initiative,
    Command,
    Charge,
    End,
    GameOver,
}

/// A decision window inside a phase, where someone other than the phase's normal actor
/// may be the one to act.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Step {
    /// The active player acts.
    Open,
    /// A charge has been declared: the defending side may counter-initiative / respond
    /// (BPT "Counter-Initiative", "Response").
    CounterInitiative {
        charger: UnitId,
        target: UnitId,
        /// Units that may still react.
        eligible: Vec<UnitId>,
        /// Distance the charger may still travel after being held off.
        charge_left: f64,
        /// Where the charger was held off; if it is no longer there it fell back.
        held: Pose,
    },
    /// The inactive side may opportunity-fire at a unit that moved or fired (BPT "Opportunity Fire").
    Reaction { mover: UnitId, eligible: Vec<UnitId> },
    /// Before charges are resolved, `side` may send units in support (BPT "Support").
    Support { side: SideId },
    /// A charge has been fought: `unit`, on the winning side (or either side of a combat broken
    /// off), may consolidate: stay, or move up to the rules' distance straight ahead and face
    /// as it likes (BPT "Consolidate"). `queue`: the units of the same combat to consolidate
    /// after it, in order; the charges still to fight wait in `Battle::combats`.
    Consolidate { unit: UnitId, queue: Vec<UnitId> },
}

/// A unit's suppression marker and when it was placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suppression {
    pub player_turn: u32,
    /// Order sequence number it was placed in (a unit is not suppressed and forced to fall
    /// back by the same order, BPT "Fall-back").
    pub order_seq: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    /// The scenario's id, e.g. `us_20me`.
    pub key: String,
    pub name: String,
    pub side: SideId,
    /// The row in force (changes on mount/dismount).
    pub row: TroopRow,
    /// The mounted row of dismounted cavalry, to mount again.
    pub mounted_row: Option<TroopRow>,
    pub grade: Grade,
    /// The HQ the unit belongs to.
    pub hq: CmdId,
    pub pose: Pose,
    pub formation: Formation,
    /// Fighting stands left (guns for artillery).
    pub stands: u32,
    pub start_stands: u32,
    /// Hits taken this player turn.
    pub hits: u32,
    pub suppressed: Option<Suppression>,
    /// Disordered until the end of the initiative phase of this player turn.
    pub disordered_until: Option<u32>,
    /// Hits it had taken this turn when it became disordered: those count against its full
    /// hits value at the end phase, the rest against the disordered one (**Decision**).
    #[serde(default)]
    pub hits_before_disorder: u32,
    pub exhausted: bool,
    /// ACW: the first time it fires it gets +1 to the hit roll.
    pub has_fired: bool,
    /// Player turn in which it last used initiative.
    pub initiative_turn: Option<u32>,
    /// Player turn in which it made opportunity fire.
    pub opportunity_turn: Option<u32>,
    /// Game turn of its last self-order.
    pub self_order_turn: Option<u32>,
    /// Player turn in which it carried out an engineer task (BPT "Engineering": no orders then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engineer_turn: Option<u32>,
    // Artillery.
    pub limbered: bool,
    pub has_limber: bool,
    pub horse_artillery: bool,
    pub loaded: Option<Ammo>,
    pub dug_in: bool,
    pub knocked_out: bool,
    /// Left and right flank stands refused (BPT "Refuse the Flank Movement").
    #[serde(default)]
    pub refused: (bool, bool),
    /// *Glory Days!* D-markers (switch `InitiativePassing`): each raises the unit's target
    /// numbers by one until rallied off. Never set with the switch off (and then not hashed).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub d_markers: u32,
    /// *Glory Days!* "Fired on same target last initiative": the enemy it fired at on its own
    /// initiative and the player turn it did (switch `InitiativePassing`; never set with it
    /// off, and then not hashed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gd_fired_at: Option<(UnitId, u32)>,
    /// BPT "Morale Grades" as the scenario gives it (`None` = regular); read only with the
    /// `MoraleGrades` switch. Not serialised when absent, so older state hashes stay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale: Option<Morale>,
    /// BPT "Multi-National Armies": the unit's nation (`None` the side's own). Set only with
    /// the `MultiNational` switch on (then not hashed otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nation: Option<String>,
    /// BPT "Scouting Cavalry" (switch `Scouting`): a scouting stand; `scout_free` once it has
    /// passed its first command roll (it then moves without orders).
    #[serde(default, skip_serializing_if = "is_false")]
    pub scout: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub scout_free: bool,
    /// Hidden set-up (switch `Scouting`): not yet found by the enemy.
    #[serde(default, skip_serializing_if = "is_false")]
    pub hidden: bool,
    /// A scout fired on or contacted: off the table, not lost.
    #[serde(default, skip_serializing_if = "is_false")]
    pub retired: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Unit {
    pub fn alive(&self) -> bool {
        !self.knocked_out
    }
    pub fn is_artillery(&self) -> bool {
        self.row.arm == Arm::Artillery
    }
    pub fn is_cavalry(&self) -> bool {
        self.row.arm == Arm::Cavalry
    }
    pub fn mounted(&self) -> bool {
        self.row.has(Trait::Mounted)
    }
    /// On foot for terrain (BPT "Partially wet terrain is impassable to all but troops on foot").
    pub fn on_foot(&self) -> bool {
        matches!(self.row.arm, Arm::Infantry | Arm::Engineers)
    }
    pub fn is_skirmisher(&self) -> bool {
        self.row.has(Trait::Sharpshooter)
    }
    pub fn suppressed(&self) -> bool {
        self.suppressed.is_some()
    }
    pub fn disordered(&self, player_turn: u32) -> bool {
        self.disordered_until.is_some_and(|t| t >= player_turn)
    }
    /// BPT "Attacks, Hits & Saves": hits a stand can take, with ACW elite, disorder and exhaustion.
    pub fn stand_hits(&self, rules: &Rules, player_turn: u32) -> u32 {
        let mut h = self.ordered_stand_hits(rules) as i32;
        if self.disordered(player_turn) {
            h += rules.fire.disordered_hits;
            if self.exhausted {
                h += rules.fire.exhausted_hits;
            }
        }
        h.max(1) as u32
    }
    /// Disordered in player turn `pt`, until the end of the next initiative phase (BPT
    /// "Disordered"); hits taken before now keep counting at its full value.
    pub fn disorder(&mut self, pt: u32) {
        if !self.disordered(pt) {
            self.hits_before_disorder = self.hits;
        }
        self.disordered_until = Some(pt + 1);
    }
    /// A stand's hits value when not disordered (army list "Hits", elite +1).
    fn ordered_stand_hits(&self, rules: &Rules) -> u32 {
        let mut h = self.row.hits as i32;
        if self.grade == Grade::Elite {
            h += rules.fire.elite_hits;
        }
        h.max(1) as u32
    }
    /// Stands the end phase removes for the hits taken (BPT "Knock-Out", "Disordered": "takes
    /// one less hit"). **Decision**: each hit is worth a stand's share at the value it was
    /// taken at: hits from before the unit became disordered this turn at its full value,
    /// later ones at the disordered value, so a charge's winner does not lose stands for the
    /// charge's hits at the value it only has after winning.
    pub fn stands_lost(&self, rules: &Rules, player_turn: u32) -> u32 {
        let now = self.stand_hits(rules, player_turn);
        let before = self.hits_before_disorder.min(self.hits);
        let full = self.ordered_stand_hits(rules);
        if before == 0 || now == full {
            return (self.hits / now).min(self.stands);
        }
        let after = self.hits - before;
        ((before * now + after * full) / (full * now)).min(self.stands)
    }
    /// The unit's hits value: stand hits × stands (DECISIONS "Entities").
    pub fn hits_value(&self, rules: &Rules, player_turn: u32) -> u32 {
        self.stand_hits(rules, player_turn) * self.stands
    }
    /// Move allowance in cm before terrain (army list "Move"; limbers; ACW notes 8, 9, 15).
    pub fn move_rate(&self) -> f64 {
        self.rate(self.limbered)
    }
    /// The rate it marches at: a field gun's limbered rate even while it stands unlimbered
    /// (0 for a gun that cannot move).
    pub fn march_rate(&self) -> f64 {
        self.rate(true)
    }
    fn rate(&self, limbered: bool) -> f64 {
        if self.is_artillery() {
            if self.row.has(Trait::Siege) || self.row.has(Trait::Mortar) || self.row.movement <= 0.0 {
                return 0.0;
            }
            if limbered {
                return if self.horse_artillery { 30.0 } else { 15.0 };
            }
        }
        self.row.movement
    }
    pub fn shape(&self, rules: &Rules) -> Shape {
        let f = &rules.footprints;
        match self.row.arm {
            Arm::Cavalry if self.mounted() => f.cavalry,
            Arm::Artillery => f.gun,
            _ => f.infantry,
        }
    }
    pub fn gap(&self, rules: &Rules) -> f64 {
        if self.is_skirmisher() {
            rules.footprints.skirmish_gap
        } else {
            rules.footprints.extended_gap
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Commander {
    pub id: CmdId,
    pub key: String,
    pub name: String,
    pub side: SideId,
    pub row: CommandRow,
    pub superior: Option<CmdId>,
    pub pos: V2,
    pub mounted: bool,
    /// Command value in force (a replacement loses one).
    pub command_value: i32,
    pub knocked_out: bool,
    pub replaced: bool,
    /// Player turn it was placed as a replacement: it may not order or move that turn.
    pub placed_turn: Option<u32>,
    pub suppressed: Option<Suppression>,
    /// Hits taken this player turn (only blunders and attached units hit commanders).
    pub hits: u32,
    /// BPT "Multi-National Armies": the commander's nation, as [`Unit::nation`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nation: Option<String>,
    /// His formation's own name, from the scenario ("Iron Brigade"), if history gave it one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formation: Option<String>,
}

impl Commander {
    pub fn alive(&self) -> bool {
        !self.knocked_out
    }
    pub fn is_co(&self) -> bool {
        self.superior.is_none()
    }
    pub fn move_rate(&self) -> f64 {
        if self.mounted {
            self.row.movement_mounted
        } else {
            self.row.movement
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Side {
    pub name: String,
    pub army: String,
    /// Units (non-command) lost before the breakpoint test starts.
    pub breakpoint: u32,
    pub broken: bool,
    /// Player turn in which it broke.
    pub broke_turn: Option<u32>,
    /// BPT "Multi-National Armies": a nation → the nations whose HQs may also order it (only
    /// with the switch on).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub obeys: std::collections::BTreeMap<String, Vec<String>>,
}

/// A unit's orders this turn (BPT "Command Phase").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrderState {
    pub by: CmdId,
    /// Orders received this turn.
    pub count: u32,
    /// Actions left from the current order.
    pub credits: u32,
    /// No more orders this turn.
    pub finished: bool,
    /// The current order declared a charge / dense terrain.
    pub may_charge: bool,
    pub may_enter_dense: bool,
    /// A self-order: may only move towards the nearest commander.
    pub self_order: bool,
    /// An unlimbered gun man-handled under this order may still fire once (DECISIONS
    /// "Artillery handling": "man-handled (3 cm) and fire in the same order").
    #[serde(default)]
    pub fire_after_manhandle: bool,
    /// A road order (BPT "Command Modifiers" note 2): it may only travel along a road.
    #[serde(default)]
    pub road: bool,
}

impl OrderState {
    /// A unit's order state before its first order from `by` this turn: no actions yet.
    pub fn new(by: CmdId) -> Self {
        OrderState {
            by,
            count: 0,
            credits: 0,
            finished: false,
            may_charge: false,
            may_enter_dense: false,
            self_order: false,
            fire_after_manhandle: false,
            road: false,
        }
    }
}

/// The command phase's book-keeping, cleared every player turn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CommandState {
    pub orders: BTreeMap<UnitId, OrderState>,
    /// Commanders that have finished ordering (failed, or moved).
    pub done: BTreeSet<CmdId>,
    /// Units an HQ failed to order (the CO may try them at −1).
    pub hq_failed: BTreeSet<UnitId>,
    /// The army CO failed: no more orders by anyone this turn.
    pub all_stopped: bool,
    /// The commander whose order is current.
    pub current: Option<CmdId>,
    /// Commanders that have moved this phase.
    pub moved: BTreeSet<CmdId>,
    /// The initiative-passing variant's book-keeping (empty with the switch off, and then
    /// not hashed).
    #[serde(default, skip_serializing_if = "Passing::is_idle")]
    pub passing: Passing,
    /// Order delay (switch `OrderDelay`): units acting on an order that arrived at the start
    /// of this command phase and have not been ordered since. Their actions are not taken
    /// away when their commander gives another order (the order was given turns ago).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub arrived: BTreeSet<UnitId>,
    /// Order delay: orders passed to each unit this command phase and held (on their way);
    /// they count as orders this turn for the successive-order modifier.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub held: BTreeMap<UnitId, u32>,
}

/// *Glory Days!* "Activation": who acted on this initiative (one player turn's command phase).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Passing {
    /// The unit activated last: only it may be activated again (consecutively).
    pub activated: Option<UnitId>,
    /// Units that moved (or deployed) on this initiative: +1 to their score to hit.
    pub moved: BTreeSet<UnitId>,
    /// Units that fired on this initiative (each fires once).
    pub fired: BTreeSet<UnitId>,
    /// Hits landed by fire on either side this phase (a running count: the fire rules read
    /// its change).
    pub landed: u32,
    /// The initiative has passed: the phase ends as soon as no window is open. The reason.
    pub passed: Option<super::reasons::PassReason>,
    /// What the activated unit's activation was for (its table and its actions).
    #[serde(default)]
    pub purpose: Option<crate::battle::action::Purpose>,
    /// The worst terrain the activated unit may move into or in: the level it stood in when
    /// activated or the one its activation declared, whichever is worse.
    #[serde(default)]
    pub ground: crate::battle::action::Ground,
}

impl Passing {
    pub fn is_idle(&self) -> bool {
        *self == Passing::default()
    }
}

/// An order given under the order-delay variant (*A Perfect Sheet of Flame*, "Writing and
/// executing orders"; switch `OrderDelay`): its command roll passed when it was given, and it
/// reaches its units at the start of their side's command phase of `due_player_turn`. The
/// window draws these on the table (unit, commander, due turn, what it allows).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingOrder {
    pub commander: CmdId,
    pub side: SideId,
    pub units: Vec<UnitId>,
    /// Player and game turn it was given in.
    pub given_player_turn: u32,
    pub given_game_turn: u32,
    /// Player and game turn at whose command phase it takes effect.
    pub due_player_turn: u32,
    pub due_game_turn: u32,
    /// The side's own turns it waits (1 or 2).
    pub delay: u32,
    /// Distance from the commander to the farthest of its units when it was given (cm).
    pub distance: f64,
    /// Actions each unit gets when it arrives (2 for a double 1).
    pub credits: u32,
    /// It declared a charge / dense terrain (or was a double 1).
    pub may_charge: bool,
    pub may_enter_dense: bool,
    /// A road order (BPT "Command Modifiers" note 2).
    #[serde(default)]
    pub road: bool,
    /// An attachment (BPT "Fixed Formations", switch `FixedFormations`): the CO's order to
    /// join this HQ's formation; on arrival the unit moves to within 10 cm of the HQ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attach: Option<CmdId>,
}

/// A charge in contact, to be resolved in the charge phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Combat {
    pub chargers: Vec<UnitId>,
    pub target: UnitId,
    /// Supporting units of each side (index = side).
    pub supports: [Vec<UnitId>; 2],
    /// Both sides count as charging in the first round (cavalry counter-charge).
    pub counter_charge: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResultKind {
    Draw,
    Minor,
    Decisive,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<SideId>,
    pub result: ResultKind,
    pub victory_points: [u32; 2],
    pub units_lost: [u32; 2],
    pub objectives: [Option<crate::data::scenario::ObjectiveLevel>; 2],
    pub reason: super::reasons::EndReason,
}

/// Geometry derived from the state, rebuilt after every change (not hashed).
#[derive(Clone, Debug, Default)]
pub struct UnitGeom {
    /// Every base: fighting stands, then the command stand (artillery: guns then limber).
    pub rects: Vec<Rect>,
    /// Fighting stands only.
    pub fighting: usize,
    pub front: (V2, V2),
    /// A box holding every base (`Battle::unit_box`); inverted (lo > hi) when it has none.
    pub bbox: (V2, V2),
    /// What the geometry was built from: unchanged, it is not built again.
    key: Option<GeomKey>,
}

/// Everything of a unit its bases are laid out from (`Battle::compute_geom`), floats by
/// their bits. Rules do not change within a battle.
#[derive(Clone, Copy, Debug, PartialEq)]
struct GeomKey {
    pose: [u64; 3],
    formation: Formation,
    stands: u32,
    refused: (bool, bool),
    limbered: bool,
    has_limber: bool,
    alive: bool,
    shape: [u64; 2],
    gap: u64,
    artillery: bool,
    skirmisher: bool,
}

impl GeomKey {
    fn of(u: &Unit, rules: &Rules) -> GeomKey {
        let shape = u.shape(rules);
        GeomKey {
            pose: [u.pose.pos.x.to_bits(), u.pose.pos.y.to_bits(), u.pose.facing.to_bits()],
            formation: u.formation,
            stands: u.stands,
            refused: u.refused,
            limbered: u.limbered,
            has_limber: u.has_limber,
            alive: u.alive(),
            shape: [shape.width.to_bits(), shape.depth.to_bits()],
            gap: u.gap(rules).to_bits(),
            artillery: u.is_artillery(),
            skirmisher: u.is_skirmisher(),
        }
    }
}

impl UnitGeom {
    fn new(rects: Vec<Rect>, fighting: usize, front: (V2, V2)) -> UnitGeom {
        let bbox = crate::rules::geometry::points_box(rects.iter().flat_map(|r| {
            let (a, b) = r.aabb();
            [a, b]
        }));
        UnitGeom {
            rects,
            fighting,
            front,
            bbox,
            key: None,
        }
    }
}

/// Everything a battle is, to read: `Battle` derefs to it. Nothing outside this module can
/// change it in play: every change is a [`Change`] through [`Battle::apply_change`]
/// (change.rs), and the dice only roll. A position is set up with [`Battle::arrange`].
#[derive(Clone)]
pub struct State {
    pub title: String,
    pub scenario_hash: u64,
    pub table: TableSize,
    /// Shared by every copy of the battle; the engineers' works change it copy-on-write.
    pub terrain: Arc<Terrain>,
    pub weather: Weather,
    /// BPT "Night (Optional Rule)": treated as poor weather that cannot change.
    pub night: bool,
    pub wet_ground: bool,
    pub turn_limit: u32,
    /// The scenario rule [`crate::data::scenario::Scenario::decide_on_points`].
    pub decide_on_points: bool,
    pub first_side: SideId,
    pub objectives: Vec<Objective>,
    /// The rules in force, shared by every copy of the battle.
    pub rules: Arc<Rules>,
    pub units: Vec<Unit>,
    pub commanders: Vec<Commander>,
    pub sides: [Side; 2],
    pub phase: Phase,
    pub step: Step,
    pub active: SideId,
    /// Game turn, from 1.
    pub game_turn: u32,
    /// Player turn, from 1.
    pub player_turn: u32,
    pub dice: Dice,
    pub cmd: CommandState,
    /// Sequence number of the order being carried out (for the fall-back exception).
    pub order_seq: u32,
    pub combats: Vec<Combat>,
    pub outcome: Option<Outcome>,
    /// Actions applied so far.
    pub actions: u64,
    pub geom: Vec<UnitGeom>,
    /// Each unit's `geom` box (`UnitGeom::bbox`, inverted for a fallen unit, which has no
    /// bases), side by side in memory for the scans over every unit a listing makes (issue
    /// 66's speed).
    pub boxes: Vec<(V2, V2)>,
    pub los: LosWorld,
    /// Each side's troop chart (for dismounting to another row).
    pub rows: Arc<Vec<Vec<TroopRow>>>,
    /// Each side's army list notes (the special rules by note number), for the unit card.
    pub notes: Arc<Vec<Vec<(u32, String)>>>,
    /// Set while a charged cavalry unit is counter-charging.
    pub counter_charging: Option<UnitId>,
    /// Engineer work done to the table (gaps, bridges) and bridges under construction.
    pub works: super::works::Works,
    /// BPT "Constructions": hits noted against buildings, and those that collapsed.
    pub constructions: super::works::Constructions,
    /// Orders on their way (switch `OrderDelay`), in the order they were given.
    pub pending: Vec<PendingOrder>,
    /// The optional rules' own tables, keyed by unit (`battle::optional`).
    pub optional: super::optional::tables::Tables,
}

impl State {
    pub fn unit(&self, id: UnitId) -> &Unit {
        &self.units[id as usize]
    }
    /// A unit to set up ([`Battle::arrange`]).
    pub fn unit_mut(&mut self, id: UnitId) -> &mut Unit {
        &mut self.units[id as usize]
    }
    pub fn commander(&self, id: CmdId) -> &Commander {
        &self.commanders[id as usize]
    }
}

/// A battle being set up ([`Battle::arranging`]): its state to change; the geometry is
/// derived again when it is dropped.
pub struct Arranging<'a>(&'a mut Battle);

impl std::ops::Deref for Arranging<'_> {
    type Target = State;
    fn deref(&self) -> &State {
        &self.0.state
    }
}

impl std::ops::DerefMut for Arranging<'_> {
    fn deref_mut(&mut self) -> &mut State {
        &mut self.0.state
    }
}

impl Drop for Arranging<'_> {
    fn drop(&mut self) {
        self.0.refresh_geometry();
    }
}

/// The battle: a [`State`] to read (by `Deref`) and one door that changes it,
/// [`Battle::apply_change`]. Its state is private to this module.
pub struct Battle {
    state: State,
    /// The changes of the action being carried out, in order (cleared as each action starts).
    journal: Vec<Change>,
}

/// A copy has made no action yet: its journal starts empty (the look-ahead copies battles by
/// the thousand).
impl Clone for Battle {
    fn clone(&self) -> Battle {
        Battle {
            state: self.state.clone(),
            journal: Vec::new(),
        }
    }
}

impl std::ops::Deref for Battle {
    type Target = State;
    fn deref(&self) -> &State {
        &self.state
    }
}

impl Battle {
    /// A battle in the given state (its geometry derived).
    pub fn from_state(state: State) -> Battle {
        let mut b = Battle {
            state,
            journal: Vec::new(),
        };
        b.refresh_geometry();
        b
    }

    /// Set a position up outside play: a scenario's deployment, a side's mirror of what it
    /// knows, a test's position. Never called by the action pipeline or the table (the
    /// layers test lists its callers).
    pub fn arrange<R>(&mut self, f: impl FnOnce(&mut State) -> R) -> R {
        let r = f(&mut self.state);
        self.refresh_geometry();
        r
    }

    /// [`Battle::arrange`] as a guard: `b.arranging().unit_mut(id).pose = p;`.
    pub fn arranging(&mut self) -> Arranging<'_> {
        Arranging(self)
    }

    /// [`Battle::arrange`] without deriving the geometry again: for a copy the caller sets
    /// back or arranges again before it reads sight or distances (an agent's scratch copy).
    pub fn arrange_lazily(&mut self, f: impl FnOnce(&mut State)) {
        f(&mut self.state);
    }

    /// The dice stream to roll (carrying out an action rolls it).
    pub(crate) fn dice_mut(&mut self) -> &mut Dice {
        &mut self.state.dice
    }

    /// Replace the dice stream: a look-ahead deals a copy's future afresh; a test scripts it.
    pub fn set_dice(&mut self, dice: Dice) {
        self.state.dice = dice;
    }

    /// The changes the last action this copy carried out made, in order.
    pub fn last_changes(&self) -> &[Change] {
        &self.journal
    }

    pub(crate) fn clear_journal(&mut self) {
        self.journal.clear();
    }

    pub fn inactive(&self) -> SideId {
        1 - self.active
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }
    /// Alive units in id order.
    pub fn alive_units(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| u.alive())
    }
    /// The stands both sides began with: how big a battle is (the scheduler's budget and plan
    /// go by it).
    pub fn stands_at_start(&self) -> u32 {
        self.units.iter().map(|u| u.start_stands).sum()
    }
    pub fn side_units(&self, side: SideId) -> impl Iterator<Item = &Unit> {
        self.alive_units().filter(move |u| u.side == side)
    }

    /// Whose decision the battle is waiting for.
    pub fn actor(&self) -> SideId {
        match &self.step {
            Step::Open => self.active,
            Step::CounterInitiative { .. } | Step::Reaction { .. } => self.inactive(),
            Step::Support { side } => *side,
            Step::Consolidate { unit, .. } => self.unit(*unit).side,
        }
    }

    /// Every base of a unit as placed by its formation.
    pub fn compute_geom(&self, u: &Unit) -> UnitGeom {
        let (rects, fighting, front) = self.lay_out(u, u.pose, u.refused, true);
        UnitGeom::new(rects, fighting, front)
    }

    /// The bases alone of [`Battle::compute_geom`], as if unit `u` stood at `pose` with its
    /// flanks `refused`: the same numbers, without a copy of the unit, a front edge or a box
    /// (what a check of a place needs; a listing asks it of every candidate move).
    pub fn rects_laid_out(&self, u: &Unit, pose: Pose, refused: (bool, bool)) -> Vec<Rect> {
        self.lay_out(u, pose, refused, false).0
    }

    /// Every base (fighting stands, then the command stand or limber), how many fight, and the
    /// front edge when `with_front` (else the pose's place twice).
    fn lay_out(&self, u: &Unit, pose: Pose, refused: (bool, bool), with_front: bool) -> (Vec<Rect>, usize, (V2, V2)) {
        let shape = u.shape(&self.rules);
        let fp = &self.rules.footprints;
        let ss = StandShape {
            width: shape.width,
            depth: shape.depth,
        };
        if u.is_artillery() {
            let (guns, limber) = layout::artillery_rects(
                pose,
                u.stands as usize,
                u.limbered,
                u.has_limber,
                ss,
                StandShape {
                    width: fp.limber.width,
                    depth: fp.limber.depth,
                },
            );
            let fighting = guns.len();
            let front = if u.limbered {
                limber.map(|l| l.front_edge()).unwrap_or_else(|| guns[0].front_edge())
            } else {
                let l = guns.first().map(|g| g.front_edge().0).unwrap_or(pose.pos);
                let r = guns.last().map(|g| g.front_edge().1).unwrap_or(pose.pos);
                (l, r)
            };
            let mut rects = guns;
            rects.extend(limber);
            return (rects, fighting, front);
        }
        let n = u.stands as usize;
        let gap = u.gap(&self.rules);
        let mut rects = layout::stand_rects(pose, u.formation, n, ss, gap);
        let fighting = rects.len();
        let mut front = if with_front {
            layout::front_edge(pose, u.formation, n, ss, gap)
        } else {
            (pose.pos, pose.pos)
        };
        if refused != (false, false) && rects.len() >= 3 {
            let angle = self.rules.movement.refuse_flank_deg.to_radians();
            layout::refuse_flanks(&mut rects, refused.0, refused.1, angle);
            let first = if refused.0 { 1 } else { 0 };
            let last = if refused.1 { rects.len() - 2 } else { rects.len() - 1 };
            front = (rects[first].front_edge().0, rects[last].front_edge().1);
        }
        rects.push(layout::command_stand_rect(
            pose,
            u.formation,
            n,
            ss,
            gap,
            StandShape {
                width: fp.command_stand.width,
                depth: fp.command_stand.depth,
            },
        ));
        (rects, fighting, front)
    }

    /// Rebuild the derived geometry and the line-of-sight blockers. Called after every change
    /// of position.
    pub fn refresh_geometry(&mut self) {
        // Only units whose layout inputs changed are laid out again; when none did, the
        // blockers are as they were too.
        let mut geom = std::mem::take(&mut self.state.geom);
        geom.resize_with(self.units.len(), UnitGeom::default);
        let mut changed = false;
        for (u, g) in self.units.iter().zip(geom.iter_mut()) {
            let key = GeomKey::of(u, &self.rules);
            if g.key == Some(key) {
                continue;
            }
            *g = if u.alive() {
                self.compute_geom(u)
            } else {
                UnitGeom::new(Vec::new(), 0, Default::default())
            };
            g.key = Some(key);
            changed = true;
        }
        self.state.geom = geom;
        if !changed {
            return;
        }
        let mut boxes = std::mem::take(&mut self.state.boxes);
        boxes.clear();
        boxes.extend(self.state.geom.iter().map(|g| g.bbox));
        self.state.boxes = boxes;
        let mut blockers = Vec::new();
        for u in self.units.iter().filter(|u| u.alive()) {
            // DECISIONS "Line of sight": commanders, skirmishers and unlimbered guns do not block.
            if u.is_skirmisher() || (u.is_artillery() && !u.limbered) {
                continue;
            }
            for r in &self.geom[u.id as usize].rects {
                blockers.push(Blocker { id: u.id, rect: *r });
            }
        }
        self.state.los.set_blockers(blockers);
    }

    pub fn rects(&self, id: UnitId) -> &[Rect] {
        &self.geom[id as usize].rects
    }

    /// The commander's round base, as a square of the same width for distance maths.
    pub fn commander_rect(&self, c: &Commander) -> Rect {
        let d = self.rules.footprints.commander_diameter;
        Rect::new(c.pos, 0.0, d, d)
    }

    pub fn sighting(&self, id: UnitId) -> Sighting<'_> {
        let u = self.unit(id);
        let g = &self.geom[id as usize];
        Sighting {
            id,
            stands: &g.rects,
            front: g.front,
            facing: u.pose.facing,
            all_round: u.formation == Formation::Square,
            hard_to_see: u.dug_in || (u.is_artillery() && !u.limbered),
            dug_in: u.dug_in,
        }
    }

    /// Edge-to-edge distance between two units.
    pub fn unit_distance(&self, a: UnitId, b: UnitId) -> f64 {
        crate::rules::geometry::rects_distance(self.rects(a), self.rects(b))
    }

    /// Does unit `a` see unit `b` (BPT "Line of Sight")?
    pub fn sees(&self, a: UnitId, b: UnitId) -> bool {
        self.los.sees(&self.sighting(a), &self.sighting(b)).is_ok()
    }

    /// Enemy units `id` can see, nearest first (ties by id), with their distances.
    pub fn visible_enemies(&self, id: UnitId) -> Vec<(UnitId, f64)> {
        let mut v = self.enemies_within(id, self.los.params().visibility);
        v.retain(|(e, _)| self.sees(id, *e));
        v
    }

    /// The nearest visible enemy, if any ([`Battle::visible_enemies`]' first).
    pub fn nearest_visible_enemy(&self, id: UnitId) -> Option<(UnitId, f64)> {
        self.nearest_visible_enemy_within(id, self.los.params().visibility)
    }

    /// The nearest visible enemy of `id` no farther than `max` cm (and the visibility), if
    /// any: [`Battle::visible_enemies`]' first when it is that near. The sight lines, the dear
    /// part, are drawn nearest first and only until one is seen (issue 66's speed: the
    /// initiative phase's listing asks this of every unit).
    pub fn nearest_visible_enemy_within(&self, id: UnitId, max: f64) -> Option<(UnitId, f64)> {
        self.enemies_within(id, max.min(self.los.params().visibility))
            .into_iter()
            .find(|(e, _)| self.sees(id, *e))
    }

    /// The enemy units not hidden whose bases are within `reach` cm of `id`'s, nearest first
    /// (ties by id), with their distances; whether `id` sees them is not asked.
    fn enemies_within(&self, id: UnitId, reach: f64) -> Vec<(UnitId, f64)> {
        let side = self.unit(id).side;
        let bx = self.geom[id as usize].bbox;
        // Boxes farther apart than the reach first: their bases are farther still, and the
        // exact distance is dear.
        let mut near: Vec<(UnitId, f64)> = self
            .side_units(1 - side)
            .filter(|e| !e.hidden && !crate::rules::geometry::boxes_apart(bx, self.geom[e.id as usize].bbox, reach))
            .map(|e| (e.id, self.unit_distance(id, e.id)))
            .filter(|(_, d)| *d <= reach)
            .collect();
        near.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        near
    }

    /// The commander (if any) touching unit `id` who commands it: BPT "Command Presence".
    pub fn touching_commander(&self, id: UnitId) -> Option<CmdId> {
        let u = self.unit(id);
        self.commanders
            .iter()
            .filter(|c| c.alive() && c.side == u.side)
            .find(|c| self.touches_at(c.id, c.pos, u))
            .map(|c| c.id)
    }

    /// Would commander `c`, standing at `p`, touch a unit of its command (and so be lost with
    /// it if the unit is knocked out: [`Battle::touching_commander`])?
    pub fn commander_would_touch(&self, c: CmdId, p: V2) -> bool {
        self.side_units(self.commander(c).side)
            .any(|u| self.touches_at(c, p, u))
    }

    /// Commander `c`, standing at `p`, touches unit `u` of its command.
    fn touches_at(&self, c: CmdId, p: V2, u: &Unit) -> bool {
        let d = self.rules.footprints.commander_diameter;
        self.in_chain(u.hq, c)
            && crate::rules::geometry::rects_distance(&[Rect::new(p, 0.0, d, d)], self.rects(u.id))
                <= self.rules.visibility.contact
    }

    /// The living units commander `c` commands, himself or through his subordinates: his
    /// whole formation (a brigade, a division, a corps).
    pub fn commanded_units(&self, c: CmdId) -> impl Iterator<Item = &Unit> + '_ {
        self.alive_units().filter(move |u| self.in_chain(u.hq, c))
    }

    /// The formation `c` is folded under in a long list: of his chain of command, the one
    /// directly under the side's commander-in-chief (a division under a corps), or the chief
    /// himself.
    pub fn division_of(&self, c: CmdId) -> CmdId {
        let mut cur = c;
        for _ in 0..64 {
            match self.commander(cur).superior {
                Some(up) if self.commander(up).superior.is_some() => cur = up,
                _ => break,
            }
        }
        cur
    }

    /// Is `cmd` the HQ `hq` or one of its superiors?
    pub fn in_chain(&self, hq: CmdId, cmd: CmdId) -> bool {
        self.chain_of(hq).any(|c| c == cmd)
    }

    /// The HQ `hq` and its superiors up to the top, nearest first (at most 65, against a loop
    /// in a hand-edited command tree).
    pub fn chain_of(&self, hq: CmdId) -> impl Iterator<Item = CmdId> + '_ {
        std::iter::successors(Some(hq), |&c| self.commander(c).superior).take(65)
    }

    /// The side's CO in force: the highest commander still alive.
    pub fn co(&self, side: SideId) -> Option<CmdId> {
        let alive: Vec<&Commander> = self.commanders.iter().filter(|c| c.side == side && c.alive()).collect();
        alive
            .iter()
            .find(|c| c.is_co())
            .or_else(|| alive.iter().max_by_key(|c| (c.row.level, std::cmp::Reverse(c.id))))
            .map(|c| c.id)
    }

    /// Is a point inside the table?
    pub fn on_table(&self, p: V2) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= self.table.width && p.y <= self.table.height
    }
}
