//! The melee family: a charge declared, its contact or failure, supports, combat rounds and
//! their result, retreats and consolidations.

use super::aspects::{Clip, Facts, Mark};
use super::dice::Throw;
use super::words::{aspect_word, count, dice as faces, modifier_words, side, unit};
use crate::battle::event::MeleeEvent;
use crate::battle::event::{ChargeFailure, CombatSide};
use crate::battle::state::{Battle, SideId, UnitId};
use crate::rules::geometry::{Aspect, Pose};

pub(crate) fn declared(b: &Battle, u: UnitId, target: UnitId) -> String {
    format!("{} charges {}!", unit(b, u), unit(b, target))
}

pub(crate) fn contact(b: &Battle, u: UnitId, target: UnitId, aspect: &Aspect) -> String {
    format!(
        "{} contacts {} in the {}",
        unit(b, u),
        unit(b, target),
        aspect_word(aspect)
    )
}

/// Why a charge failed, said for who is still standing.
pub(crate) fn failed(b: &Battle, unit_id: UnitId, target: UnitId, why: ChargeFailure) -> String {
    let (u, t) = (unit(b, unit_id), unit(b, target));
    let target_gone = b.units.get(target as usize).is_some_and(|x| !x.alive());
    let charger_gone = b.units.get(unit_id as usize).is_some_and(|x| !x.alive());
    if charger_gone {
        format!("{u}'s charge on {t} ends: {u} is gone")
    } else if target_gone {
        format!("{u}'s charge on {t} ends: {t} is gone")
    } else {
        match why {
            ChargeFailure::DidNotClose => format!("{u}'s charge on {t} falls short: it did not reach {t}"),
            ChargeFailure::TargetEvaded => format!("{u}'s charge on {t} fails: {t} evaded"),
            ChargeFailure::FormedSquare => {
                format!("{u}'s charge on {t} halts: fired on with enemy cavalry near, it formed square")
            }
            ChargeFailure::FellBack => format!("{u}'s charge on {t} fails: {u} fell back"),
            ChargeFailure::KnockedOut => format!("{u}'s charge on {t} fails: knocked out"),
            ChargeFailure::TargetGone => format!("{u}'s charge on {t} fails: the target is gone"),
        }
    }
}

pub(crate) fn failed_facts<'a>(unit: UnitId) -> Facts<'a> {
    Facts::none().struck(unit, "charge fails")
}

pub(crate) fn supporting(b: &Battle, u: UnitId, friend: UnitId) -> String {
    format!("{} supports {}", unit(b, u), unit(b, friend))
}

/// "Charge on 4th AL, round 1: Union: 6 dice hit on 4+ [..] → 3 hits, 1 saved, on 4th AL | …".
pub(crate) fn round(b: &Battle, round: u32, target: UnitId, sides: &[CombatSide]) -> String {
    let parts: Vec<String> = sides
        .iter()
        .map(|s| {
            let mods = modifier_words(&s.modifiers);
            format!(
                "{}: {}{} hit on {}+ [{}] → {}, {} saved, on {}",
                side(b, s.side),
                count(s.dice, "die"),
                if mods.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", mods.join(", "))
                },
                s.to_hit,
                faces(&s.rolls),
                count(s.hits, "hit"),
                s.saved,
                unit(b, s.struck)
            )
        })
        .collect();
    format!("Charge on {}, round {round}: {}", unit(b, target), parts.join(" | "))
}

/// Each side's melee dice, then the saves of the unit it struck: the event keeps how many
/// were saved, and every die at or above the save saved, so the highest dice are the saved.
pub(crate) fn round_facts(sides: &[CombatSide]) -> Facts<'_> {
    let throws = sides
        .iter()
        .flat_map(|s| {
            let mut v = vec![Throw::each("melee", &s.rolls, s.to_hit)];
            if !s.save_rolls.is_empty() {
                v.push(Throw::top("saves", &s.save_rolls, s.saved));
            }
            v[0].side = Some(s.side);
            v
        })
        .collect();
    Facts::rolled(throws).mark(Mark::Melee)
}

pub(crate) fn result(b: &Battle, target: UnitId, winner: Option<SideId>, by_double: bool, hits: &[u32; 2]) -> String {
    match winner {
        Some(w) => format!(
            "Charge on {}: {} win{} (hits taken: {} v {})",
            unit(b, target),
            side(b, w),
            if by_double { " by double" } else { "" },
            hits[w],
            hits[1 - w]
        ),
        None => format!("Charge on {}: drawn, both fall apart", unit(b, target)),
    }
}

pub(crate) fn result_facts<'a>(target: UnitId) -> Facts<'a> {
    Facts {
        settles: true,
        ..Facts::none()
    }
    .mark(Mark::Melee)
    .about(target)
    .result()
}

pub(crate) fn retreated(b: &Battle, u: UnitId, from: &Pose, to: &Pose) -> String {
    format!("{} retreats {:.1} cm", unit(b, u), from.pos.dist(to.pos))
}

pub(crate) fn retreated_facts<'a>(unit: UnitId, from: Pose, to: Pose) -> Facts<'a> {
    Facts::none()
        .clip(Clip::Glide { unit, from, to })
        .struck(unit, "retreats")
        .about(unit)
        .result()
}

pub(crate) fn consolidated(b: &Battle, u: UnitId, from: &Pose, to: &Pose) -> String {
    let how = super::action::consolidation_words(from, to, true);
    format!("{} consolidates: {how}", unit(b, u))
}

pub(crate) fn consolidated_facts<'a>(unit: UnitId, from: Pose, to: Pose) -> Facts<'a> {
    Facts::none()
        .clip(Clip::Glide { unit, from, to })
        .mark(Mark::Consolidated)
}

/// What a melee event means, but its words (`report::facts`).
pub(super) fn facts_of(e: &MeleeEvent) -> Facts<'_> {
    use MeleeEvent as E;
    match e {
        E::ChargeFailed { unit, .. } => failed_facts(*unit),
        E::CombatRound { sides, .. } => round_facts(sides),
        E::CombatResult { target, .. } => result_facts(*target),
        E::Retreated { unit, from, to } => retreated_facts(*unit, *from, *to),
        E::Consolidated { unit, from, to } => consolidated_facts(*unit, *from, *to),
        E::ChargeDeclared { .. } | E::ChargeContact { .. } | E::Supporting { .. } => Facts::none(),
    }
}

/// A melee event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn line_of(b: &Battle, e: &MeleeEvent) -> String {
    use MeleeEvent as E;
    match e {
        E::ChargeDeclared { unit, target, .. } => declared(b, *unit, *target),
        E::ChargeContact { unit, target, aspect } => contact(b, *unit, *target, aspect),
        E::ChargeFailed { unit, target, why } => failed(b, *unit, *target, *why),
        E::Supporting { unit, friend } => supporting(b, *unit, *friend),
        E::CombatRound { round, target, sides } => self::round(b, *round, *target, sides),
        E::CombatResult { target, winner, by_double, hits } => result(b, *target, *winner, *by_double, hits),
        E::Retreated { unit, from, to } => retreated(b, *unit, from, to),
        E::Consolidated { unit, from, to } => consolidated(b, *unit, from, to),
    }
}
