//! The 64-bit state hash: everything that matters to the rules, in a canonical order.

use super::state::*;
use serde::Serialize;

#[derive(Serialize)]
struct HashView<'a> {
    units: &'a [Unit],
    commanders: &'a [Commander],
    sides: &'a [Side; 2],
    phase: Phase,
    step: &'a Step,
    active: SideId,
    game_turn: u32,
    player_turn: u32,
    draws: u64,
    seed: u64,
    cmd: &'a CommandState,
    order_seq: u32,
    combats: &'a [Combat],
    outcome: &'a Option<Outcome>,
    scenario: u64,
    rules: &'a str,
    /// Only with optional rules on, so the hashes of games without them stay as they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    optional: Option<Optional<'a>>,
}

/// What the optional rules add to the state.
#[derive(Serialize)]
struct Optional<'a> {
    switches: &'a crate::rules::switches::Switches,
    weather: crate::data::scenario::Weather,
    works: &'a super::engineers::Works,
    /// Orders on their way (order delay); absent when none, so other switches' hashes stay.
    #[serde(skip_serializing_if = "<[PendingOrder]>::is_empty")]
    pending: &'a [PendingOrder],
    /// Building hits (constructions); absent when none.
    #[serde(skip_serializing_if = "super::constructions::Constructions::is_empty")]
    constructions: &'a super::constructions::Constructions,
}

/// FNV-1a, 64 bit.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Battle {
    /// A hash of the whole rules state (positions to the bit, hits, markers, phase, dice drawn).
    pub fn state_hash(&self) -> u64 {
        let view = HashView {
            units: &self.units,
            commanders: &self.commanders,
            sides: &self.sides,
            phase: self.phase,
            step: &self.step,
            active: self.active,
            game_turn: self.game_turn,
            player_turn: self.player_turn,
            draws: self.dice.draws(),
            seed: self.dice.seed(),
            cmd: &self.cmd,
            order_seq: self.order_seq,
            combats: &self.combats,
            outcome: &self.outcome,
            scenario: self.scenario_hash,
            rules: &self.rules.version,
            optional: (!self.rules.switches.is_empty()).then_some(Optional {
                switches: &self.rules.switches,
                weather: self.weather,
                works: &self.works,
                pending: &self.pending,
                constructions: &self.constructions,
            }),
        };
        let bytes = serde_json::to_vec(&view).expect("the state serialises");
        fnv1a(&bytes)
    }
}
