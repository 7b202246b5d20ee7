//! The morale family: hits taken, suppression (tests, suppressed, cleared), falling back,
//! knock-outs, stands removed, disorder, the breakpoint and a side that breaks.

use super::aspects::{Clip, Deed, Facts};
use super::dice::Throw;
use super::words::{cm, count, dice as faces, knock_out_words, side, unit};
use crate::battle::event::MoraleEvent;
use crate::battle::event::{KnockOut, SuppressedWhy};
use crate::battle::state::{Battle, SideId, UnitId};
use crate::rules::geometry::Pose;

pub(crate) fn hits(b: &Battle, u: UnitId, hits: u32, total: u32, value: u32) -> String {
    format!("{} takes {} ({total} of {value})", unit(b, u), count(hits, "hit"))
}

/// Hits flash on the unit and float over it (none for no hits).
pub(crate) fn hits_facts<'a>(unit: UnitId, hits: u32) -> Facts<'a> {
    let f = Facts::none().about(unit).result();
    if hits == 0 {
        return f;
    }
    f.clip(Clip::Hit { unit }).struck(unit, count(hits, "hit"))
}

pub(crate) fn suppression_test(b: &Battle, u: UnitId, rolls: &[u32], need: u32, suppressed: bool) -> String {
    format!(
        "{} suppression test, any {need}+ suppresses: [{}] → {}",
        unit(b, u),
        faces(rolls),
        if suppressed { "suppressed" } else { "holds" }
    )
}

pub(crate) fn suppression_test_facts(rolls: &[u32], need: u32) -> Facts<'_> {
    Facts::rolled(vec![Throw::each("suppression", rolls, need)])
}

pub(crate) fn fell_back(b: &Battle, u: UnitId, rolls: &[u32], distance: f64) -> String {
    format!("{} falls back [{}] = {distance:.0} cm", unit(b, u), faces(rolls))
}

/// The fall-back's dice only count (cm); the unit glides back.
pub(crate) fn fell_back_facts<'a>(unit: UnitId, rolls: &[u32], distance: f64, (from, to): (Pose, Pose)) -> Facts<'a> {
    Facts::rolled(vec![Throw::counted("falls back (cm)", rolls, 6)])
        .clip(Clip::Glide { unit, from, to })
        .struck(unit, format!("falls back {} cm", cm(distance)))
        .about(unit)
        .result()
}

pub(crate) fn suppressed(b: &Battle, u: UnitId, why: SuppressedWhy) -> String {
    let why = match why {
        SuppressedWhy::Test => "suppression test",
        SuppressedWhy::LostCharge => "lost a charge",
        SuppressedWhy::SupportedChargeLostByDouble => "supported a charge lost by double",
        SuppressedWhy::FriendFellBackInto => "a friendly unit fell back into it",
        SuppressedWhy::BuildingCollapsed => "a building collapsed beside it",
    };
    format!("{} is suppressed ({why})", unit(b, u))
}

pub(crate) fn suppressed_facts<'a>(unit: UnitId) -> Facts<'a> {
    Facts::none().struck(unit, "suppressed").about(unit).result()
}

pub(crate) fn knocked_out(b: &Battle, u: UnitId, why: &KnockOut) -> String {
    format!("{} is knocked out: {}", unit(b, u), knock_out_words(b, why))
}

pub(crate) fn knocked_out_facts<'a>(unit: UnitId) -> Facts<'a> {
    Facts::none()
        .struck(unit, "knocked out")
        .about(unit)
        .deed(Deed::Lost(unit))
        .result()
}

pub(crate) fn stands_removed(b: &Battle, u: UnitId, removed: u32, left: u32) -> String {
    format!("{} loses {}, {left} left", unit(b, u), count(removed, "stand"))
}

pub(crate) fn stands_facts<'a>(unit: UnitId, removed: u32) -> Facts<'a> {
    if removed == 0 {
        return Facts::none();
    }
    Facts::none().struck(unit, format!("loses {}", count(removed, "stand")))
}

pub(crate) fn disordered(b: &Battle, u: UnitId) -> String {
    format!("{} is disordered", unit(b, u))
}

pub(crate) fn disordered_facts<'a>(unit: UnitId) -> Facts<'a> {
    Facts::none().struck(unit, "disordered").about(unit).result()
}

pub(crate) fn disorder_ended(b: &Battle, u: UnitId) -> String {
    format!("{} is no longer disordered", unit(b, u))
}

pub(crate) fn suppression_cleared(b: &Battle, u: UnitId) -> String {
    format!("{} recovers from suppression", unit(b, u))
}

pub(crate) fn breakpoint(b: &Battle, s: SideId, value: i32, d: &[u32; 2], broken: bool) -> String {
    format!(
        "{} at its breakpoint: need ≤ {value}, rolled {}+{}: {}",
        side(b, s),
        d[0],
        d[1],
        if broken { "the command breaks" } else { "holds" }
    )
}

pub(crate) fn breakpoint_facts<'a>(value: i32, d: &[u32; 2], broken: bool) -> Facts<'a> {
    Facts::rolled(vec![Throw::whole("breakpoint", format!("≤ {value}"), d, !broken)])
}

pub(crate) fn side_broken(b: &Battle, s: SideId) -> String {
    format!("{} withdraws from the field", side(b, s))
}

/// What a morale event means, but its words (`report::facts`).
pub(super) fn facts_of(e: &MoraleEvent) -> Facts<'_> {
    use MoraleEvent as E;
    match e {
        E::HitsTaken { unit, hits, .. } => hits_facts(*unit, *hits),
        E::SuppressionTest { rolls, need, .. } => suppression_test_facts(rolls, *need),
        E::FellBack {
            unit,
            rolls,
            distance,
            from,
            to,
        } => fell_back_facts(*unit, rolls, *distance, (*from, *to)),
        E::Suppressed { unit, .. } => suppressed_facts(*unit),
        E::KnockedOut { unit, .. } => knocked_out_facts(*unit),
        E::StandsRemoved { unit, removed, .. } => stands_facts(*unit, *removed),
        E::Disordered { unit } => disordered_facts(*unit),
        E::BreakpointRoll {
            value, dice, broken, ..
        } => breakpoint_facts(*value, dice, *broken),
        E::SideBroken { .. } => Facts::none().result(),
        E::DisorderEnded { .. } | E::SuppressionCleared { .. } => Facts::none(),
    }
}

/// A morale event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn line_of(b: &Battle, e: &MoraleEvent) -> String {
    use MoraleEvent as E;
    match e {
        E::HitsTaken { unit, hits, total, value } => self::hits(b, *unit, *hits, *total, *value),
        E::SuppressionTest { unit, rolls, need, suppressed } => suppression_test(b, *unit, rolls, *need, *suppressed),
        E::FellBack { unit, rolls, distance, .. } => fell_back(b, *unit, rolls, *distance),
        E::Suppressed { unit, why } => suppressed(b, *unit, *why),
        E::KnockedOut { unit, why } => knocked_out(b, *unit, why),
        E::StandsRemoved { unit, removed, left } => stands_removed(b, *unit, *removed, *left),
        E::Disordered { unit } => disordered(b, *unit),
        E::DisorderEnded { unit } => disorder_ended(b, *unit),
        E::SuppressionCleared { unit } => suppression_cleared(b, *unit),
        E::BreakpointRoll { side, value, dice, broken } => breakpoint(b, *side, *value, dice, *broken),
        E::SideBroken { side } => side_broken(b, *side),
    }
}
