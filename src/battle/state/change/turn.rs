//! Changes to the turn, the phase and its decision window, and to the charges in contact.

use super::super::*;
use crate::data::scenario::Weather;

/// A change to the turn, the phase or the decision window.
#[derive(Clone, Debug, PartialEq)]
pub enum TurnChange {
    Phase(Phase),
    Step(Step),
    /// Both at once: a new phase opens with no window.
    PhaseOpen(Phase),
    Active(SideId),
    GameTurn(u32),
    PlayerTurn(u32),
    /// The sequence number of the order being carried out.
    OrderSeq(u32),
    /// The battle is over.
    Over(Box<Outcome>),
    /// One more action applied.
    Counted,
    /// BPT "Weather": the weather, and how far one sees in it (cm).
    Weather(Weather, f64),
}

impl TurnChange {
    pub(super) fn apply(&self, s: &mut State) {
        match self {
            TurnChange::Phase(p) => s.phase = *p,
            TurnChange::Step(st) => s.step = st.clone(),
            TurnChange::PhaseOpen(p) => {
                s.phase = *p;
                s.step = Step::Open;
            }
            TurnChange::Active(a) => s.active = *a,
            TurnChange::GameTurn(t) => s.game_turn = *t,
            TurnChange::PlayerTurn(t) => s.player_turn = *t,
            TurnChange::OrderSeq(n) => s.order_seq = *n,
            TurnChange::Over(o) => {
                s.outcome = Some((**o).clone());
                s.phase = Phase::GameOver;
                s.step = Step::Open;
            }
            TurnChange::Counted => s.actions += 1,
            TurnChange::Weather(w, seen) => {
                s.weather = *w;
                s.los.set_visibility(*seen);
            }
        }
    }
}

/// A change to the charges in contact.
#[derive(Clone, Debug, PartialEq)]
pub enum ChargeChange {
    /// The charges to fight, as they now stand.
    Combats(Vec<Combat>),
    /// The charged cavalry counter-charging, if any.
    CounterCharging(Option<UnitId>),
}

impl ChargeChange {
    pub(super) fn apply(&self, s: &mut State) {
        match self {
            ChargeChange::Combats(c) => s.combats = c.clone(),
            ChargeChange::CounterCharging(u) => s.counter_charging = *u,
        }
    }
}
