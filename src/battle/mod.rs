//! The battle: state, the action pipeline, the four phases, legal actions (the ECS mirror is
//! [`crate::app`]).

pub mod action;
pub mod apply;
pub mod artillery;
pub mod carry;
pub mod charge;
pub mod command;
pub mod consolidate;
pub mod constructions;
pub mod decide;
pub mod end;
pub mod engineers;
pub mod envelope;
pub mod event;
pub mod fire;
pub mod formations;
pub mod hash;
pub mod ids;
pub mod initiative;
pub mod intent;
pub mod knowledge;
pub mod legal;
pub mod movement;
pub mod nations;
pub mod optional;
pub mod order_delay;
pub mod passing;
pub mod reasons;
pub mod scouting;
pub mod setup;
pub mod state;
pub mod weather;
pub mod why;
pub mod works;

pub use action::{Action, Deploy, Ground, Purpose, Refusal};
pub use apply::Applied;
pub use event::Event;
pub use state::{Battle, Phase, SideId, Step, UnitId};
