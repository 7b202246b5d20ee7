//! One integration-test crate (Bevy links once): modules by area.

mod core;
