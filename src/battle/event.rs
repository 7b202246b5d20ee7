//! What happened: the outcome of an action, each die roll with its modifiers and the rule.

pub use super::reasons::{EndReason, PassReason};
use super::state::{CmdId, Phase, ResultKind, SideId, UnitId};
use crate::rules::artillery::ShotTrace;
use crate::rules::geometry::{Aspect, Pose, V2};
use crate::rules::params::{BlunderEffect, Cover};
use serde::{Deserialize, Serialize};

/// One modifier and the rule that applied it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Modifier {
    pub amount: i32,
    pub rule: ModRule,
}

impl Modifier {
    pub fn new(amount: i32, rule: ModRule) -> Self {
        Modifier { amount, rule }
    }
}

/// The rule that applied a modifier (the report cites it: "BPT Command Presence").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ModRule {
    ChargeSuppressed,
    Disordered,
    ChargeFlankRear,
    CommandPresence,
    AcwLancers,
    NapoleonicHeavyCavalry,
    ChargeCharging,
    ChargeSupporting,
    WeatherPoor,
    WeatherExtreme,
    WeatherPoorActivation,
    WeatherExtremeActivation,
    SuccessiveOrder,
    OpportunityFireLastTurn,
    UsedInitiative,
    CommandDistance,
    DenseTerrain,
    ChargingEnemyClose,
    CoReorder,
    MarchColumnTouch,
    ExtendedLineFirer,
    ExtendedLineTarget,
    HalfRange,
    FireFlankRear,
    DisorderedFire,
    SquareArtillery,
    SquareInfantry,
    NapoleonicExtraDie,
    AttachDistance,
    AttachDense,
    AttachEnemies,
    UsedInitiativeOrOpportunity,
    SaberRifledMuskets,
    TroopExperience,
    FormationNoEnemy,
    ColumnOnRoad,
    ActivationGeneral,
    PreviousMoves,
    ActivationAlone,
    FormationGodforsaken,
    FormationDifficult,
    ActivationGodforsaken,
    ActivationDifficult,
    DMarkers,
    ActivationCharge,
    CavalryChargingInfantry,
    ChargeGeneral,
    ChargeGodforsaken,
    ChargeDifficult,
    RallyVeteranGeneral,
    RallySeasonedGeneral,
    RallyRawGeneral,
    RallyOutOfReach,
    RallyAlone,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CommandOutcome {
    Success,
    /// Double 1: two actions (BPT "Command Bonus").
    Bonus,
    Failure,
    /// Double 6 (BPT "Command Blunder").
    Blunder,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveKind {
    Order,
    Evade,
    Charge,
    Support,
    FallBack,
    Retreat,
    Consolidate,
    Blunder,
    Deploy,
}

/// Why a fire was rolled (the report words it: "order", "opportunity fire"...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FireWhy {
    Initiative,
    Order,
    Opportunity,
    Counter,
    /// BPT "Command Blunder": open fire.
    OpenFire,
    /// BPT "Command Blunder": cross-fire (no firer).
    CrossFire,
}

/// How a fire's dice were rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FireHow {
    /// One unit's fire.
    Alone,
    /// Several units' attacks rolled together (opportunity fire).
    Together,
    /// A gun's canister at its target.
    Canister,
    /// A round shot's attack dice on a unit in its path.
    RoundShot,
    /// A shell's attack dice on a unit within its burst.
    Shell,
    /// Canister blasting through to the unit behind.
    BlastThrough,
}

/// Why and how a fire was rolled: typed, so that whoever shows it (the log, the animation)
/// reads it without parsing words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireCause {
    pub why: FireWhy,
    pub how: FireHow,
}

impl FireCause {
    pub fn new(why: FireWhy, how: FireHow) -> Self {
        FireCause { why, how }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum KnockOut {
    /// Hits equal to the unit's hits value.
    Hits,
    /// Fell back more than the limit in one roll.
    FellBackTooFar,
    /// Fell back or retreated into enemy, impassable terrain or off the table.
    ForcedInto(ForcedInto),
    /// Lost a charge by double.
    ChargeLost,
    /// Evaded but the charger ended within the minimum gap.
    CaughtEvading,
    /// Its commander / towing limber / attached unit was lost.
    WithOther,
    /// A commander overrun with no friend within reach.
    Overrun,
    /// BPT "Constructions": the building it was in collapsed.
    Collapsed,
    /// ACW note 12: a Gatling gun jammed on a double among its attack dice.
    Jammed,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    PhaseStarted {
        phase: Phase,
        active: SideId,
        game_turn: u32,
        player_turn: u32,
    },
    CommandRoll {
        commander: CmdId,
        units: Vec<UnitId>,
        value: i32,
        modifiers: Vec<Modifier>,
        target: i32,
        dice: [u32; 2],
        outcome: CommandOutcome,
    },
    SelfOrderRoll {
        unit: UnitId,
        target: i32,
        dice: [u32; 2],
        success: bool,
    },
    Blunder {
        commander: CmdId,
        roll: u32,
        effect: BlunderEffect,
    },
    OrdersEnded {
        commander: CmdId,
        all: bool,
    },
    Moved {
        unit: UnitId,
        from: Pose,
        to: Pose,
        kind: MoveKind,
        cost: f64,
    },
    CommanderMoved {
        commander: CmdId,
        from: V2,
        to: V2,
    },
    Deployed {
        unit: UnitId,
        what: Deployment,
    },
    Fired {
        firers: Vec<UnitId>,
        target: UnitId,
        /// Opportunity, initiative, counter-initiative, order, blunder...; alone, rolled
        /// together, canister...
        context: FireCause,
        base_dice: i32,
        modifiers: Vec<Modifier>,
        dice: u32,
        aspect: Aspect,
        cover: Cover,
        to_hit: u32,
        roll_bonus: u32,
        rolls: Vec<u32>,
        hits: u32,
        save: Option<u32>,
        save_rolls: Vec<u32>,
        saved: u32,
    },
    /// One gun's round shot (DECISIONS "Artillery: round shot with bounce"): the whole flight,
    /// every roll and point of it, and the attack dice each unit in an impact strip takes.
    RoundShot {
        firer: UnitId,
        trace: ShotTrace,
        attacked: Vec<(UnitId, u32)>,
    },
    /// One gun's shell (DECISIONS "Shell and howitzers"): the aim, the accuracy roll, the
    /// deviation (d12 clock, the d6s, cm), where it burst or why it was lost, and the dice each
    /// unit within the burst takes.
    ShellFired {
        firer: UnitId,
        gun: V2,
        aim: V2,
        high_angle: bool,
        accuracy_roll: u32,
        accuracy_need: u32,
        deviation: Option<(u32, Vec<u32>, f64)>,
        burst: V2,
        lost: Option<ShellLost>,
        attacked: Vec<(UnitId, u32)>,
        /// BPT "Air Burst Shell Fire": burst in the air (2 cm, one die fewer, as in the open).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        air_burst: bool,
    },
    /// Canister blasts through the unit in front (DECISIONS "Artillery: canister with
    /// blast-through"): the corridor, the next unit, and the score it is attacked at (None: the
    /// score would pass 6, so the blast stops).
    BlastThrough {
        firer: UnitId,
        corridor: [V2; 4],
        next: UnitId,
        damaged_in_front: u32,
        to_hit: Option<u32>,
    },
    CommanderAttacked {
        commander: CmdId,
        dice: u32,
        rolls: Vec<u32>,
        hits: u32,
        knocked_out: bool,
    },
    HitsTaken {
        unit: UnitId,
        hits: u32,
        total: u32,
        value: u32,
    },
    SuppressionTest {
        unit: UnitId,
        rolls: Vec<u32>,
        need: u32,
        suppressed: bool,
    },
    FellBack {
        unit: UnitId,
        rolls: Vec<u32>,
        distance: f64,
        from: Pose,
        to: Pose,
    },
    Halted {
        unit: UnitId,
        by: UnitId,
    },
    Suppressed {
        unit: UnitId,
        why: SuppressedWhy,
    },
    CommanderSuppressed {
        commander: CmdId,
    },
    KnockedOut {
        unit: UnitId,
        why: KnockOut,
    },
    CommanderKnockedOut {
        commander: CmdId,
        why: KnockOut,
    },
    CommanderJoined {
        commander: CmdId,
        unit: UnitId,
    },
    CommanderReplaced {
        commander: CmdId,
        pos: V2,
        command_value: i32,
    },
    StandsRemoved {
        unit: UnitId,
        removed: u32,
        left: u32,
    },
    ChargeDeclared {
        unit: UnitId,
        target: UnitId,
        held_at: Pose,
    },
    ChargeContact {
        unit: UnitId,
        target: UnitId,
        aspect: Aspect,
    },
    ChargeFailed {
        unit: UnitId,
        target: UnitId,
        why: ChargeFailure,
    },
    Supporting {
        unit: UnitId,
        friend: UnitId,
    },
    CombatRound {
        round: u32,
        target: UnitId,
        /// Side index → (dice, modifiers, to_hit, rolls, hits before saves, saved, hits).
        sides: Vec<CombatSide>,
    },
    CombatResult {
        target: UnitId,
        winner: Option<SideId>,
        by_double: bool,
        hits: [u32; 2],
    },
    Retreated {
        unit: UnitId,
        from: Pose,
        to: Pose,
    },
    Consolidated {
        unit: UnitId,
        from: Pose,
        to: Pose,
    },
    Disordered {
        unit: UnitId,
    },
    DisorderEnded {
        unit: UnitId,
    },
    SuppressionCleared {
        unit: UnitId,
    },
    BreakpointRoll {
        side: SideId,
        value: i32,
        dice: [u32; 2],
        broken: bool,
    },
    SideBroken {
        side: SideId,
    },
    /// BPT "Engineering": a task carried out (its roll and need, or the bridge built so far).
    EngineerWork {
        unit: UnitId,
        task: super::works::Task,
        /// The linear feature worked on (its index in the terrain; the report names it).
        linear: u32,
        roll: Option<(u32, u32)>,
        /// Bridging: cm built of the river's width.
        built: Option<(f64, f64)>,
        /// The gap is open / the bridge stands.
        done: bool,
    },
    /// BPT "Weather (Optional Rule)": the roll before the game or at the end of a game turn.
    WeatherRoll {
        dice: [u32; 2],
        from: crate::data::scenario::Weather,
        to: crate::data::scenario::Weather,
        /// The game turn at whose end it was rolled (`None`: before the battle).
        when: Option<u32>,
    },
    /// *Glory Days!* "Activation" (switch `InitiativePassing`): one d6 ≥ the target.
    ActivationRoll {
        unit: UnitId,
        modifiers: Vec<Modifier>,
        target: i32,
        roll: u32,
        success: bool,
    },
    /// *Glory Days!* "Melee": the charge test after a charge activation, one d6 ≥ the
    /// target; a failure stops the charger 2" short of `enemy` and passes the initiative.
    ChargeTest {
        unit: UnitId,
        enemy: UnitId,
        modifiers: Vec<Modifier>,
        target: i32,
        roll: u32,
        success: bool,
    },
    /// *Glory Days!* "Rallying": one d6 ≥ the target removes a D-marker.
    RallyRoll {
        unit: UnitId,
        modifiers: Vec<Modifier>,
        target: i32,
        roll: u32,
        success: bool,
    },
    /// *Glory Days!* D-markers gained (positive) or rallied off (negative); `total` after.
    DMarkers {
        unit: UnitId,
        change: i32,
        total: u32,
        why: DMarkerWhy,
    },
    /// BPT "Constructions": artillery fire at troops inside struck the building too.
    ConstructionHit {
        building: u32,
        rolls: Vec<u32>,
        need: u32,
        save_rolls: Vec<u32>,
        /// Hits after saves.
        hits: u32,
        total: u32,
        value: u32,
    },
    /// BPT "Constructions": the building collapsed.
    ConstructionCollapsed {
        building: u32,
        knocked_out: Vec<UnitId>,
        suppressed: Vec<UnitId>,
    },
    /// Hidden set-up (switch `Scouting`): a hidden unit is found (`by` the enemy unit that
    /// spotted it, at `distance`; `None`: it gave itself away by acting).
    Revealed {
        unit: UnitId,
        by: Option<UnitId>,
        distance: f64,
    },
    /// BPT "Scouting Cavalry": a scout fired on or contacted leaves the table, not lost.
    ScoutRetired {
        unit: UnitId,
        why: RetiredWhy,
    },
    /// BPT "Scouting Cavalry": a scout that passed its command roll moves without orders.
    ScoutFree {
        unit: UnitId,
    },
    /// BPT "Saber Charge": the unit announced a saber charge.
    SabersDrawn {
        unit: UnitId,
    },
    /// BPT "Fixed Formations" (switch `FixedFormations`): the CO attached a unit of his own
    /// formation to an HQ's, for the rest of the battle.
    Attached {
        unit: UnitId,
        co: CmdId,
        hq: CmdId,
    },
    /// BPT "Prone Movement" (switch `Prone`): a prone unit takes one hit fewer from a fire.
    ProneSaved {
        unit: UnitId,
        hits: u32,
        taken: u32,
    },
    /// *Glory Days!* "Core Concepts": the initiative passes to the opponent (the active
    /// player's command phase ends once any open window closes).
    InitiativePassed {
        side: SideId,
        reason: PassReason,
    },
    /// *A Perfect Sheet of Flame* "Writing and executing orders" (switch `OrderDelay`): the
    /// command roll passed, but these units are beyond command distance, so the order
    /// reaches them `delay` of the side's own turns (game turns) later. No die.
    OrderDelayed {
        commander: CmdId,
        units: Vec<UnitId>,
        /// Commander to the farthest unit, cm.
        distance: f64,
        delay: u32,
        due_game_turn: u32,
    },
    /// The order given in `given_game_turn` reaches its units at the start of the command
    /// phase: they act on it as if it had just been passed, without a new roll. Units that can
    /// no longer act on it (knocked out, suppressed, locked in a charge) let it lapse. No die.
    OrderArrived {
        commander: CmdId,
        units: Vec<UnitId>,
        credits: u32,
        given_game_turn: u32,
        /// Units that lost it, and why.
        lapsed: Vec<(UnitId, Lapsed)>,
    },
    /// *A Perfect Sheet of Flame* "Sequence of Play": "If the new orders override any pending
    /// orders, the pending orders are removed": `by`'s order, just passed, takes `units` out
    /// of `commander`'s order of `given_game_turn` that was on its way to them. No die.
    OrderReplaced {
        commander: CmdId,
        units: Vec<UnitId>,
        given_game_turn: u32,
        by: CmdId,
    },
    GameOver {
        winner: Option<SideId>,
        result: ResultKind,
        victory_points: [u32; 2],
        reason: EndReason,
    },
}

/// What a unit fell back or retreated into that cost it the unit (`KnockOut::ForcedInto`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForcedInto {
    OffTable,
    Impassable,
    /// This enemy unit.
    Enemy(UnitId),
    SuppressedFriend,
    /// BPT "Artillery": retreating unlimbered guns are lost.
    UnlimberedGuns,
    /// BPT "Fortifications": units retreating out of their fortifications are lost.
    Fortifications,
}

/// What a unit deployed to (`Event::Deployed`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Deployment {
    /// The deploy action it was ordered.
    Ordered(super::action::Deploy),
    /// BPT "Square": it formed square as enemy cavalry came within 30 cm.
    SquareAgainstCavalry,
}

/// Why a shell was lost (BPT "High Angle Direct Fire").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShellLost {
    OffTable,
    WetArea(crate::rules::terrain::AreaKind),
    WetLinear(crate::rules::terrain::LinearKind),
}

/// Why a unit was suppressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SuppressedWhy {
    /// It failed its suppression test.
    Test,
    LostCharge,
    SupportedChargeLostByDouble,
    /// A friendly unit fell back into it.
    FriendFellBackInto,
    /// BPT "Constructions": a building collapsed beside it.
    BuildingCollapsed,
}

/// Why a scout left the table (BPT "Scouting Cavalry").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RetiredWhy {
    FiredUpon,
    UnderArtilleryFire,
    Contacted,
}

/// Why D-markers were gained or lost (*Glory Days!*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DMarkerWhy {
    /// Fire hits taken as D-markers.
    Hits,
    /// It failed to activate to move in or into this ground.
    FailedActivation(super::action::Ground),
    Rallied,
}

/// Why a delayed order lapsed for a unit when it arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lapsed {
    KnockedOut,
    CommanderFallen,
    Suppressed,
    LockedInCharge,
    /// BPT "Engineering": it carried out an engineering task this turn.
    EngineeringTask,
    /// An attachment (BPT "Fixed Formations"): the HQ it was to join has fallen.
    HqFallen(CmdId),
    /// An attachment: there is no room within 10 cm of the HQ now.
    NoRoomByHq(CmdId),
}

/// Why a charge ended without contact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChargeFailure {
    /// The charger was knocked out before contact (by the fire it met).
    KnockedOut,
    /// The charger fell back before contact.
    FellBack,
    /// The target was gone before contact.
    TargetGone,
    /// The charge did not reach the target.
    DidNotClose,
    /// The target evaded.
    TargetEvaded,
    /// The fire it met forced the charger into square, which does not charge (BPT "Square",
    /// "Charging"; **Decision**, rules `bpt-8`).
    FormedSquare,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CombatSide {
    pub side: SideId,
    pub dice: u32,
    pub modifiers: Vec<Modifier>,
    pub to_hit: u32,
    pub rolls: Vec<u32>,
    pub hits: u32,
    pub save_rolls: Vec<u32>,
    pub saved: u32,
    /// The unit that took this side's hits.
    pub struck: UnitId,
}
