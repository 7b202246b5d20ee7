//! The artillery family: a gun's round shot (its flight, bounces and the dice each unit in
//! its path takes), its shell (accuracy, deviation, burst), canister blasting through.

use super::aspects::{Clip, Deed, Facts};
use super::dice::Throw;
use super::words::{count, dice as faces, unit};
use crate::battle::event::ArtilleryEvent;
use crate::battle::event::ShellLost;
use crate::battle::state::{Battle, UnitId};
use crate::rules::artillery::ShotTrace;
use crate::rules::geometry::V2;

/// The units a ball or shell strikes, with their dice: "4th AL 2 dice, 6th AL 1 die".
fn struck(b: &Battle, attacked: &[(UnitId, u32)]) -> Vec<String> {
    attacked
        .iter()
        .map(|(u, k)| format!("{} {}", unit(b, *u), count(*k, "die")))
        .collect()
}

pub(crate) fn round_shot(b: &Battle, firer: UnitId, trace: &ShotTrace, attacked: &[(UnitId, u32)]) -> String {
    let mut parts = vec![format!(
        "{} round shot: accuracy d6 [{}] need {}+",
        unit(b, firer),
        trace.accuracy_roll,
        trace.accuracy_need
    )];
    match &trace.deviation {
        None => parts.push("on the aim point".into()),
        Some((clock, d6s, cm)) => parts.push(format!("deviates {clock} o'clock by [{}] = {cm:.0} cm", faces(d6s))),
    }
    for (i, imp) in trace.impacts.iter().enumerate() {
        let mut t = format!(
            "impact {} at ({:.1}, {:.1}) with {}",
            i + 1,
            imp.point.x,
            imp.point.y,
            count(imp.attacks, "die")
        );
        if let Some((clock, d4)) = imp.deviation {
            t.push_str(&format!(" (landing {clock} o'clock, d4 {d4})"));
        }
        if let (Some(r), Some(n)) = (imp.bounce_roll, imp.bounce_need) {
            t.push_str(&format!(", bounce d6 [{r}] need {n}+"));
        }
        parts.push(t);
    }
    if let Some((clock, d4)) = trace.exit_landing {
        parts.push(format!("bounces off the table (landing {clock} o'clock, d4 {d4})"));
    }
    parts.push(format!("the ball stops: {}", trace.end));
    let hit = struck(b, attacked);
    parts.push(if hit.is_empty() {
        "no stand in its path".into()
    } else {
        format!("strikes {}", hit.join(", "))
    });
    parts.join("; ")
}

/// A round shot's rolls are in its trace (the log tells them); the action stands.
pub(crate) fn round_shot_facts(firer: UnitId, trace: &ShotTrace) -> Facts<'_> {
    Facts::rolled(Vec::new())
        .clip(Clip::Ball { trace })
        .about(firer)
        .deed(Deed::Fired(Some(firer)))
}

type Deviation = Option<(u32, Vec<u32>, f64)>;

pub(crate) fn shell(
    b: &Battle,
    firer: UnitId,
    (high_angle, air_burst): (bool, bool),
    (accuracy_roll, accuracy_need, deviation): (u32, u32, &Deviation),
    (burst, lost, attacked): (V2, &Option<ShellLost>, &[(UnitId, u32)]),
) -> String {
    let mut t = format!(
        "{} shell{}{}: accuracy d6 [{accuracy_roll}] need {accuracy_need}+",
        unit(b, firer),
        if high_angle { " (high-angle fire)" } else { "" },
        if air_burst {
            " (air burst: every stand within 2 cm, one die fewer, as in the open)"
        } else {
            ""
        }
    );
    match deviation {
        None => t.push_str(", on the aim point"),
        Some((clock, d6s, cm)) => t.push_str(&format!(", deviates {clock} o'clock by [{}] = {cm:.0} cm", faces(d6s))),
    }
    match lost {
        Some(why) => {
            let why = match why {
                ShellLost::OffTable => "off the table".to_string(),
                ShellLost::WetArea(k) => format!("wet terrain ({k:?})"),
                ShellLost::WetLinear(k) => format!("wet terrain ({k:?})"),
            };
            t.push_str(&format!("; the shell is lost ({why})"))
        }
        None => {
            t.push_str(&format!("; bursts at ({:.1}, {:.1})", burst.x, burst.y));
            let hit = struck(b, attacked);
            if hit.is_empty() {
                t.push_str(", no stand within reach");
            } else {
                t.push_str(&format!(", strikes {}", hit.join(", ")));
            }
        }
    }
    t
}

/// The accuracy die passes or not (the throw's result); a deviation's clock (d12) and cm
/// (d6s) only count.
pub(crate) fn shell_facts<'a>(
    firer: UnitId,
    (gun, burst): (V2, V2),
    (accuracy_roll, accuracy_need): (u32, u32),
    deviation: &Deviation,
) -> Facts<'a> {
    let mut v = vec![Throw::each("accuracy", &[accuracy_roll], accuracy_need)];
    v[0].passed = Some(accuracy_roll >= accuracy_need);
    if let Some((clock, d6s, _)) = deviation {
        v.push(Throw::counted("deviates (clock)", &[*clock], 12));
        v.push(Throw::counted("deviates (cm)", d6s, 6));
    }
    Facts::rolled(v)
        .clip(Clip::Shell { gun, burst })
        .about(firer)
        .deed(Deed::Fired(Some(firer)))
}

pub(crate) fn blast(b: &Battle, firer: UnitId, next: UnitId, damaged_in_front: u32, to_hit: Option<u32>) -> String {
    match to_hit {
        Some(k) => format!(
            "{}'s canister blasts through to {} ({damaged_in_front} damaged in front: hit on {k}+)",
            unit(b, firer),
            unit(b, next)
        ),
        None => format!(
            "{}'s canister would need more than 6 to hit {}: the blast stops",
            unit(b, firer),
            unit(b, next)
        ),
    }
}

/// Its dice are the next `Fired`'s; the blast's corridor shows.
pub(crate) fn blast_facts<'a>(corridor: [V2; 4]) -> Facts<'a> {
    Facts::rolled(Vec::new()).clip(Clip::Corridor { pts: corridor })
}

/// What a artillery event means, but its words (`report::facts`).
pub(super) fn facts_of(e: &ArtilleryEvent) -> Facts<'_> {
    use ArtilleryEvent as E;
    match e {
        E::RoundShot { firer, trace, .. } => round_shot_facts(*firer, trace),
        E::ShellFired {
            firer,
            gun,
            accuracy_roll,
            accuracy_need,
            deviation,
            burst,
            ..
        } => shell_facts(*firer, (*gun, *burst), (*accuracy_roll, *accuracy_need), deviation),
        E::BlastThrough { corridor, .. } => blast_facts(*corridor),
    }
}

/// A artillery event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn line_of(b: &Battle, e: &ArtilleryEvent) -> String {
    use ArtilleryEvent as E;
    match e {
        E::RoundShot { firer, trace, attacked } => round_shot(b, *firer, trace, attacked),
        E::ShellFired { firer, high_angle, accuracy_roll, accuracy_need, deviation, burst, lost, attacked, air_burst, .. } => {
            shell(b, *firer, (*high_angle, *air_burst), (*accuracy_roll, *accuracy_need, deviation), (*burst, lost, attacked))
        }
        E::BlastThrough { firer, next, damaged_in_front, to_hit, .. } => blast(b, *firer, *next, *damaged_in_front, *to_hit),
    }
}
