//! The one door: decide an action against the state, carry it out, return the events.
//! An illegal action is refused with the rule that forbids it and changes nothing: the
//! decision (decide.rs) reads the battle and cannot change it.

use super::action::{Action, Refusal};
use super::decide::Decided;
use super::event::Event;
use super::state::*;
use crate::battle::event::families::*;

/// What one action did: the game turn it was taken in, and its events (the words for them,
/// and the action's heading read on the state before it, are the report's: `report::heading`).
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// An action that ends a game turn leaves the battle in the next one.
    pub game_turn: u32,
    pub events: Vec<Event>,
}

impl Battle {
    /// The one door with the game turn the action was taken in: validated and applied. A
    /// refusal changes nothing.
    pub fn step(&mut self, action: &Action) -> Result<Applied, Refusal> {
        let game_turn = self.game_turn;
        let events = self.apply(action)?;
        Ok(Applied { game_turn, events })
    }

    /// Validate and apply one action: decide it on the state as it is (decide.rs, read
    /// only), then carry it out (carry.rs).
    pub fn apply(&mut self, action: &Action) -> Result<Vec<Event>, Refusal> {
        let decided = self.decide(action)?;
        Ok(self.apply_decision(decided))
    }

    /// Carry out an action decided on this state ([`Battle::decide`]), and what follows every
    /// action: the initiative passing settled, hidden units found. Returns its events.
    pub fn apply_decision(&mut self, decided: Decided) -> Vec<Event> {
        let unit = decided.unit();
        let mut ev = Vec::new();
        self.clear_journal();
        self.carry_out(decided.decision, &mut ev);
        if self.initiative_passing() {
            self.settle_passing(&mut ev);
        }
        self.reveal_hidden(unit, &mut ev);
        self.change_turn(TurnChange::Counted);
        self.refresh_geometry();
        ev
    }

    /// Close the initiative phase and open the command phase.
    pub(crate) fn end_initiative(&mut self, ev: &mut Vec<Event>) {
        // BPT "Disordered": lasts until the end of the initiative phase of the next turn.
        let pt = self.player_turn;
        let ended: Vec<UnitId> = self
            .alive_units()
            .filter(|u| u.disordered_until.is_some_and(|t| t <= pt))
            .map(|u| u.id)
            .collect();
        for unit in ended {
            self.change_unit(unit, UnitChange::DisorderedUntil(None));
            self.change_unit(unit, UnitChange::Exhausted(false));
            ev.push(Event::Morale(MoraleEvent::DisorderEnded { unit }));
        }
        self.change_turn(TurnChange::PhaseOpen(Phase::Command));
        self.change_command(CommandChange::Reset);
        ev.push(self.phase_event());
        // Order delay: orders given in earlier turns reach their units now.
        self.deliver_orders(ev);
        self.free_scouts(ev);
    }

    /// Close the command phase: the charge phase resolves every contact, then the end phase.
    pub(crate) fn end_command(&mut self, ev: &mut Vec<Event>) {
        self.change_turn(TurnChange::PhaseOpen(Phase::Charge));
        ev.push(self.phase_event());
        self.open_support_window(self.inactive(), ev);
    }

    pub(crate) fn phase_event(&self) -> Event {
        Event::Phase(PhaseEvent::PhaseStarted {
            phase: self.phase,
            active: self.active,
            game_turn: self.game_turn,
            player_turn: self.player_turn,
        })
    }
}
