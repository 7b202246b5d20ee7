//! The units an event names, in any of its fields: what the player view asks of an event to
//! know whether a side may see it (`view::events`).

use crate::battle::event::Event;
use crate::battle::state::UnitId;

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
