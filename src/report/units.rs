//! The units an event names, in any of its fields: what the player view asks of an event to
//! know whether a side may see it (`view::events`).

use crate::battle::event::Event;
use crate::battle::event::families::*;
use crate::battle::state::UnitId;

/// Every unit an event names, in any of its fields.
pub fn named_units(e: &Event) -> Vec<UnitId> {
    use Event as E;
    match e {
        E::Phase(PhaseEvent::PhaseStarted { .. })
        | E::Command(CommandEvent::Blunder { .. })
        | E::Command(CommandEvent::OrdersEnded { .. })
        | E::Command(CommandEvent::CommanderMoved { .. })
        | E::Command(CommandEvent::CommanderAttacked { .. })
        | E::Command(CommandEvent::CommanderSuppressed { .. })
        | E::Command(CommandEvent::CommanderKnockedOut { .. })
        | E::Command(CommandEvent::CommanderReplaced { .. })
        | E::Morale(MoraleEvent::BreakpointRoll { .. })
        | E::Morale(MoraleEvent::SideBroken { .. })
        | E::Weather(WeatherEvent::WeatherRoll { .. })
        | E::Works(WorksEvent::ConstructionHit { .. })
        | E::Phase(PhaseEvent::GameOver { .. }) => Vec::new(),
        E::Passing(PassingEvent::InitiativePassed { reason, .. }) => reason.units(),
        E::Command(CommandEvent::CommandRoll { units, .. })
        | E::OrderDelay(OrderDelayEvent::OrderDelayed { units, .. })
        | E::OrderDelay(OrderDelayEvent::OrderReplaced { units, .. }) => units.clone(),
        E::OrderDelay(OrderDelayEvent::OrderArrived { units, lapsed, .. }) => {
            units.iter().copied().chain(lapsed.iter().map(|l| l.0)).collect()
        }
        E::Command(CommandEvent::SelfOrderRoll { unit, .. })
        | E::Movement(MovementEvent::Moved { unit, .. })
        | E::Movement(MovementEvent::Deployed { unit, .. })
        | E::Morale(MoraleEvent::HitsTaken { unit, .. })
        | E::Morale(MoraleEvent::SuppressionTest { unit, .. })
        | E::Morale(MoraleEvent::FellBack { unit, .. })
        | E::Morale(MoraleEvent::Suppressed { unit, .. })
        | E::Morale(MoraleEvent::KnockedOut { unit, .. })
        | E::Command(CommandEvent::CommanderJoined { unit, .. })
        | E::Morale(MoraleEvent::StandsRemoved { unit, .. })
        | E::Melee(MeleeEvent::Retreated { unit, .. })
        | E::Melee(MeleeEvent::Consolidated { unit, .. })
        | E::Morale(MoraleEvent::Disordered { unit })
        | E::Morale(MoraleEvent::DisorderEnded { unit })
        | E::Morale(MoraleEvent::SuppressionCleared { unit })
        | E::Works(WorksEvent::EngineerWork { unit, .. })
        | E::Passing(PassingEvent::ActivationRoll { unit, .. })
        | E::Passing(PassingEvent::RallyRoll { unit, .. })
        | E::Passing(PassingEvent::DMarkers { unit, .. })
        | E::Scouting(ScoutingEvent::ScoutRetired { unit, .. })
        | E::Scouting(ScoutingEvent::ScoutFree { unit })
        | E::Saber(SaberEvent::SabersDrawn { unit })
        | E::Formations(FormationsEvent::Attached { unit, .. })
        | E::Prone(ProneEvent::ProneSaved { unit, .. }) => vec![*unit],
        E::Movement(MovementEvent::Halted { unit, by }) => vec![*unit, *by],
        E::Scouting(ScoutingEvent::Revealed { unit, by, .. }) => std::iter::once(*unit).chain(*by).collect(),
        E::Fire(FireEvent::Fired { firers, target, .. }) => firers.iter().copied().chain([*target]).collect(),
        E::Artillery(ArtilleryEvent::RoundShot { firer, attacked, .. })
        | E::Artillery(ArtilleryEvent::ShellFired { firer, attacked, .. }) => {
            std::iter::once(*firer).chain(attacked.iter().map(|a| a.0)).collect()
        }
        E::Artillery(ArtilleryEvent::BlastThrough { firer, next, .. }) => vec![*firer, *next],
        E::Melee(MeleeEvent::ChargeDeclared { unit, target, .. })
        | E::Melee(MeleeEvent::ChargeContact { unit, target, .. })
        | E::Melee(MeleeEvent::ChargeFailed { unit, target, .. }) => vec![*unit, *target],
        E::Passing(PassingEvent::ChargeTest { unit, enemy, .. }) => vec![*unit, *enemy],
        E::Melee(MeleeEvent::Supporting { unit, friend }) => vec![*unit, *friend],
        E::Melee(MeleeEvent::CombatRound { target, sides, .. }) => {
            std::iter::once(*target).chain(sides.iter().map(|s| s.struck)).collect()
        }
        E::Melee(MeleeEvent::CombatResult { target, .. }) => vec![*target],
        E::Works(WorksEvent::ConstructionCollapsed {
            knocked_out,
            suppressed,
            ..
        }) => knocked_out.iter().chain(suppressed).copied().collect(),
    }
}
