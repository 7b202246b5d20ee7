//! The optional rules' events: weather, *Glory Days!* initiative passing (activation, charge
//! test, rally, D-markers, the initiative passing), hidden set-up and scouting cavalry, the
//! saber charge, fixed formations, prone, and order delay.

use super::aspects::Facts;
use super::dice::Throw;
use super::words::{commander, d6_line, pass_reason_words, plural, side, unit, units};
use crate::battle::event::{DMarkerWhy, Lapsed, Modifier, PassReason, RetiredWhy};
use crate::battle::event::{
    FormationsEvent, OrderDelayEvent, PassingEvent, ProneEvent, SaberEvent, ScoutingEvent, WeatherEvent,
};
use crate::battle::state::{Battle, CmdId, SideId, UnitId};
use crate::data::scenario::Weather;

/// "Weather, end of game turn 3: rolled 4+5: the weather turns from fair to rain (BPT Weather)".
pub(crate) fn weather(d: &[u32; 2], from: &Weather, to: &Weather, when: Option<u32>) -> String {
    let when = match when {
        None => "before the battle".to_string(),
        Some(turn) => format!("end of game turn {turn}"),
    };
    let change = if from == to {
        format!("the weather stays {}", format!("{to:?}").to_lowercase())
    } else {
        format!(
            "the weather turns from {} to {}",
            format!("{from:?}").to_lowercase(),
            format!("{to:?}").to_lowercase()
        )
    };
    format!("Weather, {when}: rolled {}+{}: {change} (BPT Weather)", d[0], d[1])
}

pub(crate) fn weather_facts<'a>(d: &[u32; 2]) -> Facts<'a> {
    Facts::rolled(vec![Throw::counted("weather", d, 6)])
}

/// A *Glory Days!* d6 ≥ the target (activation, charge test, rally): passes or fails whole.
pub(crate) fn d6_facts<'a>(what: &'static str, target: i32, roll: u32, success: bool) -> Facts<'a> {
    Facts::rolled(vec![Throw::whole(what, format!("{target}+"), &[roll], success)])
}

pub(crate) fn activation(
    b: &Battle,
    u: UnitId,
    (modifiers, target): (&[Modifier], i32),
    roll: u32,
    ok: bool,
) -> String {
    let outcome = if ok { "activated" } else { "fails" };
    let what = format!("{} activation", unit(b, u));
    d6_line(&what, modifiers, target, roll, outcome, "Glory Days Activation")
}

pub(crate) fn charge_test(
    b: &Battle,
    (u, enemy): (UnitId, UnitId),
    (modifiers, target): (&[Modifier], i32),
    roll: u32,
    ok: bool,
) -> String {
    let outcome = if ok {
        "charges home"
    } else {
        "stops 2\" short, the initiative passes"
    };
    let what = format!("{} charge test against {}", unit(b, u), unit(b, enemy));
    d6_line(&what, modifiers, target, roll, outcome, "Glory Days Melee")
}

pub(crate) fn rally(b: &Battle, u: UnitId, (modifiers, target): (&[Modifier], i32), roll: u32, ok: bool) -> String {
    let outcome = if ok { "a D-marker comes off" } else { "fails" };
    let what = format!("{} rallies", unit(b, u));
    d6_line(&what, modifiers, target, roll, outcome, "Glory Days Rallying")
}

pub(crate) fn d_markers(b: &Battle, u: UnitId, change: i32, total: u32, why: DMarkerWhy) -> String {
    let why = match why {
        DMarkerWhy::Hits => "hits taken as D-markers".to_string(),
        DMarkerWhy::FailedActivation(ground) => format!("failed to activate to move in or into {ground}"),
        DMarkerWhy::Rallied => "rallied".to_string(),
    };
    format!(
        "{} {} {} D-marker{} ({why}): {total} now",
        unit(b, u),
        if change >= 0 { "takes" } else { "loses" },
        change.unsigned_abs(),
        plural(change.unsigned_abs())
    )
}

pub(crate) fn revealed(b: &Battle, u: UnitId, by: Option<UnitId>, distance: f64) -> String {
    match by {
        Some(e) => format!(
            "{} spots {} at {distance:.0} cm: it is hidden no more",
            unit(b, e),
            unit(b, u)
        ),
        None => format!("{} gives its position away", unit(b, u)),
    }
}

pub(crate) fn scout_retired(b: &Battle, u: UnitId, why: RetiredWhy) -> String {
    let why = match why {
        RetiredWhy::FiredUpon => "fired upon",
        RetiredWhy::UnderArtilleryFire => "under artillery fire",
        RetiredWhy::Contacted => "contacted by the enemy",
    };
    format!(
        "{} retires out of danger ({why}): off the table, not lost (BPT Scouting Cavalry)",
        unit(b, u)
    )
}

pub(crate) fn scout_free(b: &Battle, u: UnitId) -> String {
    format!("{} scouts on without orders", unit(b, u))
}

pub(crate) fn sabers_drawn(b: &Battle, u: UnitId) -> String {
    format!(
        "{} announces a saber charge: one more attack a stand in its charges this turn, and no firing (BPT Saber Charge)",
        unit(b, u)
    )
}

pub(crate) fn attached(b: &Battle, u: UnitId, co: CmdId, hq: CmdId) -> String {
    format!(
        "{} attaches {} to {}'s formation for the rest of the battle (BPT Fixed Formations)",
        commander(b, co),
        unit(b, u),
        commander(b, hq)
    )
}

pub(crate) fn prone_saved(b: &Battle, u: UnitId, hits: u32, taken: u32) -> String {
    format!(
        "{} lies prone: {hits} hit{} become {taken} (BPT Prone Movement: one hit fewer per unit firing)",
        unit(b, u),
        plural(hits)
    )
}

pub(crate) fn initiative_passed(b: &Battle, s: SideId, reason: &PassReason) -> String {
    format!("{} lose the initiative: {}", side(b, s), pass_reason_words(b, reason))
}

pub(crate) fn order_delayed(
    b: &Battle,
    (c, ordered): (CmdId, &[UnitId]),
    distance: f64,
    delay: u32,
    due_game_turn: u32,
) -> String {
    format!(
        "{}'s order to {} is on its way: {distance:.1} cm away, it takes effect {delay} game turn{} later, in turn {due_game_turn} (A Perfect Sheet of Flame: order delay)",
        commander(b, c),
        units(b, ordered),
        plural(delay)
    )
}

pub(crate) fn order_replaced(b: &Battle, (c, ordered): (CmdId, &[UnitId]), given_game_turn: u32, by: CmdId) -> String {
    format!(
        "{}'s new order replaces {}'s order of turn {given_game_turn} on its way to {}: that order is removed (order delay)",
        commander(b, by),
        commander(b, c),
        units(b, ordered)
    )
}

pub(crate) fn order_arrived(
    b: &Battle,
    (c, ordered): (CmdId, &[UnitId]),
    credits: u32,
    given_game_turn: u32,
    lapsed: &[(UnitId, Lapsed)],
) -> String {
    let mut line = if ordered.is_empty() {
        format!(
            "{}'s order of turn {given_game_turn} arrives with no unit left to carry it out",
            commander(b, c)
        )
    } else {
        format!(
            "{}'s order of turn {given_game_turn} reaches {}{} (order delay)",
            commander(b, c),
            units(b, ordered),
            if credits > 0 {
                format!(": {credits} action{} each", plural(credits))
            } else {
                String::new()
            }
        )
    };
    for (u, why) in lapsed {
        let why = match why {
            Lapsed::KnockedOut => "knocked out".to_string(),
            Lapsed::CommanderFallen => "its commander has fallen".to_string(),
            Lapsed::Suppressed => "suppressed".to_string(),
            Lapsed::LockedInCharge => "locked in a charge".to_string(),
            Lapsed::EngineeringTask => "carried out an engineering task this turn".to_string(),
            Lapsed::HqFallen(hq) => format!("{} has fallen", commander(b, *hq)),
            Lapsed::NoRoomByHq(hq) => format!("there is no room within 10 cm of {}", commander(b, *hq)),
        };
        line.push_str(&format!("; {} lets it lapse: {why}", unit(b, *u)));
    }
    line
}

/// What a weather event means, but its words (`report::facts`).
pub(super) fn weather_facts_of(e: &WeatherEvent) -> Facts<'_> {
    use WeatherEvent as E;
    match e {
        E::WeatherRoll { dice, .. } => weather_facts(dice),
    }
}

/// A weather event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn weather_line_of(_b: &Battle, e: &WeatherEvent) -> String {
    use WeatherEvent as E;
    match e {
        E::WeatherRoll { dice, from, to, when } => weather(dice, from, to, *when),
    }
}

/// What a passing event means, but its words (`report::facts`).
pub(super) fn passing_facts_of(e: &PassingEvent) -> Facts<'_> {
    use PassingEvent as E;
    match e {
        E::ActivationRoll {
            target, roll, success, ..
        } => d6_facts("activation", *target, *roll, *success),
        E::ChargeTest {
            target, roll, success, ..
        } => d6_facts("charge test", *target, *roll, *success),
        E::RallyRoll {
            target, roll, success, ..
        } => d6_facts("rally", *target, *roll, *success),
        E::DMarkers { .. } | E::InitiativePassed { .. } => Facts::none(),
    }
}

/// A passing event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn passing_line_of(b: &Battle, e: &PassingEvent) -> String {
    use PassingEvent as E;
    match e {
        E::ActivationRoll { unit, modifiers, target, roll, success } => activation(b, *unit, (modifiers, *target), *roll, *success),
        E::ChargeTest { unit, enemy, modifiers, target, roll, success } => {
            charge_test(b, (*unit, *enemy), (modifiers, *target), *roll, *success)
        }
        E::RallyRoll { unit, modifiers, target, roll, success } => rally(b, *unit, (modifiers, *target), *roll, *success),
        E::DMarkers { unit, change, total, why } => d_markers(b, *unit, *change, *total, *why),
        E::InitiativePassed { side, reason } => initiative_passed(b, *side, reason),
    }
}

/// What a scouting event means, but its words (`report::facts`).
pub(super) fn scouting_facts_of(e: &ScoutingEvent) -> Facts<'_> {
    use ScoutingEvent as E;
    match e {
        E::Revealed { .. } | E::ScoutRetired { .. } | E::ScoutFree { .. } => Facts::none(),
    }
}

/// A scouting event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn scouting_line_of(b: &Battle, e: &ScoutingEvent) -> String {
    use ScoutingEvent as E;
    match e {
        E::Revealed { unit, by, distance } => revealed(b, *unit, *by, *distance),
        E::ScoutRetired { unit, why } => scout_retired(b, *unit, *why),
        E::ScoutFree { unit } => scout_free(b, *unit),
    }
}

/// What a saber event means, but its words (`report::facts`).
pub(super) fn saber_facts_of(e: &SaberEvent) -> Facts<'_> {
    use SaberEvent as E;
    match e {
        E::SabersDrawn { .. } => Facts::none(),
    }
}

/// A saber event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn saber_line_of(b: &Battle, e: &SaberEvent) -> String {
    use SaberEvent as E;
    match e {
        E::SabersDrawn { unit } => sabers_drawn(b, *unit),
    }
}

/// What a formations event means, but its words (`report::facts`).
pub(super) fn formations_facts_of(e: &FormationsEvent) -> Facts<'_> {
    use FormationsEvent as E;
    match e {
        E::Attached { .. } => Facts::none(),
    }
}

/// A formations event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn formations_line_of(b: &Battle, e: &FormationsEvent) -> String {
    use FormationsEvent as E;
    match e {
        E::Attached { unit, co, hq } => attached(b, *unit, *co, *hq),
    }
}

/// What a prone event means, but its words (`report::facts`).
pub(super) fn prone_facts_of(e: &ProneEvent) -> Facts<'_> {
    use ProneEvent as E;
    match e {
        E::ProneSaved { .. } => Facts::none(),
    }
}

/// A prone event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn prone_line_of(b: &Battle, e: &ProneEvent) -> String {
    use ProneEvent as E;
    match e {
        E::ProneSaved { unit, hits, taken } => prone_saved(b, *unit, *hits, *taken),
    }
}

/// What a order delay event means, but its words (`report::facts`).
pub(super) fn order_delay_facts_of(e: &OrderDelayEvent) -> Facts<'_> {
    use OrderDelayEvent as E;
    match e {
        E::OrderDelayed { .. } | E::OrderArrived { .. } | E::OrderReplaced { .. } => Facts::none(),
    }
}

/// A order delay event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn order_delay_line_of(b: &Battle, e: &OrderDelayEvent) -> String {
    use OrderDelayEvent as E;
    match e {
        E::OrderDelayed { commander, units, distance, delay, due_game_turn } => {
            order_delayed(b, (*commander, units), *distance, *delay, *due_game_turn)
        }
        E::OrderArrived { commander, units, credits, given_game_turn, lapsed } => {
            order_arrived(b, (*commander, units), *credits, *given_game_turn, lapsed)
        }
        E::OrderReplaced { commander, units, given_game_turn, by } => {
            order_replaced(b, (*commander, units), *given_game_turn, *by)
        }
    
    }
}
