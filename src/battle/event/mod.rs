//! What happened: the outcome of an action, each die roll with its modifiers and the rule.

use serde::{Deserialize, Serialize};

mod artillery;
mod command;
mod fire;
mod formations;
mod melee;
mod morale;
mod movement;
mod order_delay;
mod parts;
mod passing;
mod phase;
mod prone;
mod saber;
mod scouting;
mod weather;
mod works;
pub use artillery::ArtilleryEvent;
pub use command::CommandEvent;
pub use fire::FireEvent;
pub use formations::FormationsEvent;
pub use melee::MeleeEvent;
pub use morale::MoraleEvent;
pub use movement::MovementEvent;
pub use order_delay::OrderDelayEvent;
pub use parts::*;
pub use passing::PassingEvent;
pub use phase::PhaseEvent;
pub use prone::ProneEvent;
pub use saber::SaberEvent;
pub use scouting::ScoutingEvent;
pub use weather::WeatherEvent;
pub use works::WorksEvent;

/// What happened, by family: each family's module owns its variants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    Phase(PhaseEvent),
    Command(CommandEvent),
    Movement(MovementEvent),
    Fire(FireEvent),
    Artillery(ArtilleryEvent),
    Morale(MoraleEvent),
    Melee(MeleeEvent),
    Works(WorksEvent),
    Weather(WeatherEvent),
    Passing(PassingEvent),
    Scouting(ScoutingEvent),
    Saber(SaberEvent),
    Formations(FormationsEvent),
    Prone(ProneEvent),
    OrderDelay(OrderDelayEvent),
}

impl From<PhaseEvent> for Event {
    fn from(e: PhaseEvent) -> Self {
        Event::Phase(e)
    }
}

impl From<CommandEvent> for Event {
    fn from(e: CommandEvent) -> Self {
        Event::Command(e)
    }
}

impl From<MovementEvent> for Event {
    fn from(e: MovementEvent) -> Self {
        Event::Movement(e)
    }
}

impl From<FireEvent> for Event {
    fn from(e: FireEvent) -> Self {
        Event::Fire(e)
    }
}

impl From<ArtilleryEvent> for Event {
    fn from(e: ArtilleryEvent) -> Self {
        Event::Artillery(e)
    }
}

impl From<MoraleEvent> for Event {
    fn from(e: MoraleEvent) -> Self {
        Event::Morale(e)
    }
}

impl From<MeleeEvent> for Event {
    fn from(e: MeleeEvent) -> Self {
        Event::Melee(e)
    }
}

impl From<WorksEvent> for Event {
    fn from(e: WorksEvent) -> Self {
        Event::Works(e)
    }
}

impl From<WeatherEvent> for Event {
    fn from(e: WeatherEvent) -> Self {
        Event::Weather(e)
    }
}

impl From<PassingEvent> for Event {
    fn from(e: PassingEvent) -> Self {
        Event::Passing(e)
    }
}

impl From<ScoutingEvent> for Event {
    fn from(e: ScoutingEvent) -> Self {
        Event::Scouting(e)
    }
}

impl From<SaberEvent> for Event {
    fn from(e: SaberEvent) -> Self {
        Event::Saber(e)
    }
}

impl From<FormationsEvent> for Event {
    fn from(e: FormationsEvent) -> Self {
        Event::Formations(e)
    }
}

impl From<ProneEvent> for Event {
    fn from(e: ProneEvent) -> Self {
        Event::Prone(e)
    }
}

impl From<OrderDelayEvent> for Event {
    fn from(e: OrderDelayEvent) -> Self {
        Event::OrderDelay(e)
    }
}

/// The family enums, for `use …::event::families::*`.
pub mod families {
    pub use super::{
        ArtilleryEvent, CommandEvent, FireEvent, FormationsEvent, MeleeEvent, MoraleEvent, MovementEvent,
        OrderDelayEvent, PassingEvent, PhaseEvent, ProneEvent, SaberEvent, ScoutingEvent, WeatherEvent, WorksEvent,
    };
}
