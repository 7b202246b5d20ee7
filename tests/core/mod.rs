pub mod common;

mod optional_air_burst;

mod armies_napoleonic;
mod charge;
mod cli;
mod command;
mod determinism;
mod ecs;
mod end;
mod fire;
mod initiative;
mod movement;
mod optional_constructions;
mod optional_engineers;
mod optional_formations;
mod optional_morale;
mod optional_nations;
mod optional_order_delay;
mod optional_passing;
mod optional_prone;
mod optional_saber;
mod optional_scouting;
mod optional_weather;
mod property;
mod replay;
mod rules_artillery;
mod rules_charge;
mod rules_command;
mod rules_fire;
mod scenarios;
mod scheduler;
#[cfg(feature = "gui")]
mod ui;
