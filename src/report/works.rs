//! The works family: engineers at their tasks (a gap in a wall or fence, a pontoon bridge),
//! and buildings struck and collapsing (BPT "Constructions").

use super::aspects::Facts;
use super::dice::Throw;
use super::words::{building, dice as faces, plural, unit, units};
use crate::battle::event::WorksEvent;
use crate::battle::state::{Battle, UnitId};
use crate::battle::works::Task;

pub(crate) fn engineer(
    b: &Battle,
    (u, task, linear): (UnitId, Task, u32),
    roll: Option<(u32, u32)>,
    built: Option<(f64, f64)>,
    done: bool,
) -> String {
    // The feature by its name in the scenario, or its kind.
    let what = match b.terrain.linears.get(linear as usize) {
        Some(l) if !l.name.is_empty() => l.name.clone(),
        Some(l) => format!("{:?}", l.kind).to_lowercase(),
        None => "?".to_string(),
    };
    let who = unit(b, u);
    match (roll, built) {
        (Some((r, need)), _) => format!(
            "{who} try to {} a 5 cm section of {what}: need {need}+, rolled {r}: {} (BPT Engineering)",
            task.verb(),
            if done { "a gap is open" } else { "it stands" }
        ),
        (None, Some((b, of))) => format!(
            "{who} bridge {what}: {b:.0} of {of:.0} cm built{} (BPT Engineering: Bridging)",
            if done { ", the pontoon bridge is open" } else { "" }
        ),
        _ => format!("{who} work on {what}"),
    }
}

/// A task with a roll settles the action; bridging rolls nothing.
pub(crate) fn engineer_facts<'a>(roll: Option<(u32, u32)>, done: bool) -> Facts<'a> {
    match roll {
        Some((roll, need)) => Facts::rolled(vec![Throw::whole("engineering", format!("{need}+"), &[roll], done)]),
        None => Facts::none(),
    }
}

pub(crate) fn construction_hit(
    b: &Battle,
    i: u32,
    (rolls, need, save_rolls): (&[u32], u32, &[u32]),
    hits: u32,
    (total, value): (u32, u32),
) -> String {
    format!(
        "{} is struck: [{}] at {need}+{}: {hits} hit{}, {total} of {value} (BPT Constructions)",
        building(b, i),
        faces(rolls),
        if save_rolls.is_empty() {
            String::new()
        } else {
            format!(", saves [{}]", faces(save_rolls))
        },
        plural(hits)
    )
}

pub(crate) fn collapsed(b: &Battle, i: u32, knocked_out: &[UnitId], suppressed: &[UnitId]) -> String {
    format!(
        "{} collapses{}{} (BPT Constructions)",
        building(b, i),
        if knocked_out.is_empty() {
            String::new()
        } else {
            format!(": {} knocked out", units(b, knocked_out))
        },
        if suppressed.is_empty() {
            String::new()
        } else {
            format!("; {} suppressed", units(b, suppressed))
        }
    )
}

/// What a works event means, but its words (`report::facts`).
pub(super) fn facts_of(e: &WorksEvent) -> Facts<'_> {
    use WorksEvent as E;
    match e {
        E::EngineerWork { roll, done, .. } => engineer_facts(*roll, *done),
        E::ConstructionHit { .. } | E::ConstructionCollapsed { .. } => Facts::none(),
    }
}

/// A works event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn line_of(b: &Battle, e: &WorksEvent) -> String {
    use WorksEvent as E;
    match e {
        E::EngineerWork { unit, task, linear, roll, built, done } => engineer(b, (*unit, *task, *linear), *roll, *built, *done),
        E::ConstructionHit { building, rolls, need, save_rolls, hits, total, value } => {
            construction_hit(b, *building, (rolls, *need, save_rolls), *hits, (*total, *value))
        }
        E::ConstructionCollapsed { building, knocked_out, suppressed } => collapsed(b, *building, knocked_out, suppressed),
    }
}
