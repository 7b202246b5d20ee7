pub mod common;

mod armies_napoleonic;
mod bad_data;
mod charge;
mod cli;
mod command;
mod consolidate;
mod decide;
mod determinism;
mod ecs;
#[cfg(feature = "gui")]
mod editor;
mod editor_roundtrip;
mod end;
mod faults;
mod faults_replay;
mod fire;
#[cfg(feature = "gui")]
mod follow;
mod fuzz;
#[cfg(feature = "gui")]
mod glance;
mod hardening;
mod initiative;
mod intent;
mod layers;
mod movement;
mod optional_air_burst;
mod optional_all;
mod optional_combos;
mod optional_constructions;
mod optional_engineers;
mod optional_formations;
mod optional_morale;
mod optional_nations;
mod optional_order_delay;
mod optional_passing;
mod optional_prone;
mod optional_property;
mod optional_saber;
mod optional_scouting;
mod optional_weather;
#[cfg(feature = "gui")]
mod orders_panel;
mod property;
mod replay;
mod report;
mod rules_artillery;
mod rules_charge;
mod rules_command;
mod rules_contact;
mod rules_fire;
mod scenarios;
mod scheduler;
mod server;
#[cfg(feature = "gui")]
mod shown_true;
mod terminal;
mod turn_file;
#[cfg(feature = "gui")]
mod ui;
mod view;
mod why;
#[cfg(feature = "gui")]
mod window;
mod words;
