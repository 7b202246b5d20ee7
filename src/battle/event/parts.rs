//! The parts events are made of (modifiers, the why of a knock-out, a fire's cause …),
//! shared by the families.

pub use crate::battle::reasons::{EndReason, PassReason};
pub(super) use crate::battle::state::{CmdId, Phase, ResultKind, SideId, UnitId};
pub(super) use crate::rules::artillery::ShotTrace;
pub(super) use crate::rules::geometry::{Aspect, Pose, V2};
pub(super) use crate::rules::params::{BlunderEffect, Cover};
pub(super) use serde::{Deserialize, Serialize};

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
    Ordered(crate::battle::action::Deploy),
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
    FailedActivation(crate::battle::action::Ground),
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
