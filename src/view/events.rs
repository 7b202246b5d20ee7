//! The events a viewer may see: what a game server sends each client after a step.
//!
//! **Decision**: an event that names a unit the viewer does not know of (on the battle after
//! the events, [`PlayerView::knows`]) is left out whole, not sent with that unit taken out:
//! a fire, a shot's flight, a move or a melee says where its units stand and how many dice
//! they roll, so any part of it could tell of the unit. So a side fired on by a dug-in unit it
//! cannot see reads the hits its unit took, not the fire. An event that names no unit (a
//! phase begun, the weather, a commander's roll for no unit) every viewer sees.

use super::PlayerView;
use crate::battle::Event;
use crate::battle::state::UnitId;

/// The events of `events` that `v`'s viewer may see, in order (see the module's
/// documentation). `v` is the view of the battle after them.
pub fn visible(v: &PlayerView, events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .filter(|e| named_units(e).into_iter().all(|u| v.knows(u)))
        .cloned()
        .collect()
}

/// Every unit an event names, in any of its fields.
pub fn named_units(e: &Event) -> Vec<UnitId> {
    use Event as E;
    match e {
        E::PhaseStarted { .. }
        | E::Blunder { .. }
        | E::OrdersEnded { .. }
        | E::CommanderMoved { .. }
        | E::CommanderAttacked { .. }
        | E::CommanderSuppressed { .. }
        | E::CommanderKnockedOut { .. }
        | E::CommanderReplaced { .. }
        | E::BreakpointRoll { .. }
        | E::SideBroken { .. }
        | E::WeatherRoll { .. }
        | E::ConstructionHit { .. }
        | E::InitiativePassed { .. }
        | E::GameOver { .. } => Vec::new(),
        E::CommandRoll { units, .. } | E::OrderDelayed { units, .. } | E::OrderReplaced { units, .. } => units.clone(),
        E::OrderArrived { units, lapsed, .. } => units.iter().copied().chain(lapsed.iter().map(|l| l.0)).collect(),
        E::SelfOrderRoll { unit, .. }
        | E::Moved { unit, .. }
        | E::Deployed { unit, .. }
        | E::HitsTaken { unit, .. }
        | E::SuppressionTest { unit, .. }
        | E::FellBack { unit, .. }
        | E::Suppressed { unit, .. }
        | E::KnockedOut { unit, .. }
        | E::CommanderJoined { unit, .. }
        | E::StandsRemoved { unit, .. }
        | E::Retreated { unit, .. }
        | E::Consolidated { unit, .. }
        | E::Disordered { unit }
        | E::DisorderEnded { unit }
        | E::SuppressionCleared { unit }
        | E::EngineerWork { unit, .. }
        | E::ActivationRoll { unit, .. }
        | E::RallyRoll { unit, .. }
        | E::DMarkers { unit, .. }
        | E::ScoutRetired { unit, .. }
        | E::ScoutFree { unit }
        | E::SabersDrawn { unit }
        | E::Attached { unit, .. }
        | E::ProneSaved { unit, .. } => vec![*unit],
        E::Halted { unit, by } => vec![*unit, *by],
        E::Revealed { unit, by, .. } => std::iter::once(*unit).chain(*by).collect(),
        E::Fired { firers, target, .. } => firers.iter().copied().chain([*target]).collect(),
        E::RoundShot { firer, attacked, .. } | E::ShellFired { firer, attacked, .. } => {
            std::iter::once(*firer).chain(attacked.iter().map(|a| a.0)).collect()
        }
        E::BlastThrough { firer, next, .. } => vec![*firer, *next],
        E::ChargeDeclared { unit, target, .. }
        | E::ChargeContact { unit, target, .. }
        | E::ChargeFailed { unit, target, .. } => vec![*unit, *target],
        E::ChargeTest { unit, enemy, .. } => vec![*unit, *enemy],
        E::Supporting { unit, friend } => vec![*unit, *friend],
        E::CombatRound { target, sides, .. } => {
            std::iter::once(*target).chain(sides.iter().map(|s| s.struck)).collect()
        }
        E::CombatResult { target, .. } => vec![*target],
        E::ConstructionCollapsed {
            knocked_out,
            suppressed,
            ..
        } => knocked_out.iter().chain(suppressed).copied().collect(),
    }
}
