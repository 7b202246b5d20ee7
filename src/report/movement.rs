//! The movement family: a unit moves (on an order, evading, charging, in support, on a
//! blunder, deploying), deploys into a formation, halts against an enemy.

use super::aspects::{Caption, Clip, Deed, Facts};
use super::words::{degrees, move_verb, unit};
use crate::battle::event::MovementEvent;
use crate::battle::event::{Deployment, MoveKind};
use crate::battle::state::{Battle, UnitId};
use crate::rules::geometry::Pose;

/// "5th NH moves 10.0 cm to (45.0, 26.0), facing 90° (12.0 cm of its move used, its wheel,
/// turn and ground counted)".
pub(crate) fn moved(b: &Battle, u: UnitId, (from, to): (&Pose, &Pose), kind: &MoveKind, cost: f64) -> String {
    let dist = from.pos.dist(to.pos);
    let turned = (to.facing - from.facing).abs() > 1e-6;
    let mut t = format!("{} {}", unit(b, u), move_verb(kind));
    if dist >= 0.05 {
        t.push_str(&format!(" {dist:.1} cm to ({:.1}, {:.1})", to.pos.x, to.pos.y));
    } else if turned {
        t.push_str(" in place");
    }
    t.push_str(&format!(", facing {}", degrees(to.facing)));
    if (cost - dist).abs() > 0.05 {
        t.push_str(&format!(
            " ({cost:.1} cm of its move used, its wheel, turn and ground counted)"
        ));
    }
    t
}

/// A move glides on the table (but a deployment, which only changes formation); the summary
/// counts who moved, charged or evaded (falls back, retreats and consolidations are told by
/// their own events).
pub(crate) fn moved_facts<'a>(unit: UnitId, from: Pose, to: Pose, kind: MoveKind) -> Facts<'a> {
    let f = Facts::none().caption(Caption::Moved { unit, from, to }).about(unit);
    let f = if kind == MoveKind::Deploy {
        f
    } else {
        f.clip(Clip::Glide { unit, from, to })
    };
    match kind {
        MoveKind::Order | MoveKind::Blunder | MoveKind::Support => f.deed(Deed::Moved(unit)),
        MoveKind::Charge => f.deed(Deed::Charged(unit)),
        MoveKind::Evade => f.deed(Deed::Evaded(unit)),
        MoveKind::FallBack | MoveKind::Retreat | MoveKind::Consolidate | MoveKind::Deploy => f,
    }
}

pub(crate) fn deployed(b: &Battle, u: UnitId, what: &Deployment) -> String {
    let what = match what {
        Deployment::Ordered(d) => d.to_string(),
        Deployment::SquareAgainstCavalry => "forms square: enemy cavalry within 30 cm".to_string(),
    };
    format!("{} deploys: {what}", unit(b, u))
}

pub(crate) fn halted(b: &Battle, u: UnitId, by: UnitId) -> String {
    format!("{} halts against {}", unit(b, u), unit(b, by))
}

/// What a movement event means, but its words (`report::facts`).
pub(super) fn facts_of(e: &MovementEvent) -> Facts<'_> {
    use MovementEvent as E;
    match e {
        E::Moved {
            unit, from, to, kind, ..
        } => moved_facts(*unit, *from, *to, *kind),
        E::Deployed { .. } | E::Halted { .. } => Facts::none(),
    }
}

/// A movement event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn line_of(b: &Battle, e: &MovementEvent) -> String {
    use MovementEvent as E;
    match e {
        E::Moved { unit, from, to, kind, cost } => moved(b, *unit, (from, to), kind, *cost),
        E::Deployed { unit, what } => deployed(b, *unit, what),
        E::Halted { unit, by } => halted(b, *unit, *by),
    }
}
