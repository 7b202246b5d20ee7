//! The battle as one side may know it (boardgame.io's `playerView`): the one definition of
//! what a player may know, read by the agents, the terminal, the window's tooltip, panels and
//! table fog, and (later) a network client.
//!
//! A [`PlayerView`] borrows the battle and hands out only what its [`Viewer`] may know:
//! - **its own units and commanders**, in full (hidden or not);
//! - **the enemy units it knows of**: every living enemy unit except
//!   - a unit still hidden by BPT hidden set-up (switch `Scouting`, `battle::scouting`): it is
//!     found when it acts or is spotted, and
//!   - a dug-in unit none of the viewer's units can see (BPT "Dug In": hidden until revealed);
//!
//!   of a known enemy unit everything is public (its markers stand on the table);
//! - every commander (the rules hide no commander);
//! - the phase, the turns, the objectives, the terrain, the table, the rules;
//! - the pending decision ([`PlayerView::step`]) with the other side's units in it only if
//!   known, and a side's hand (its orders, the actions open to it) only to that side
//!   ([`PlayerView::sees_hand_of`]).
//!
//! The viewer is a side, or [`Viewer::All`]: a spectator, a replay, a game of agents watched
//! in the window, which sees everything. The view is a borrow with no allocation (the agents
//! build one for every choice); what a unit may know is worked out when asked.

pub mod events;
pub mod mirror;
pub mod snapshot;
pub mod told;

use crate::battle::Battle;
use crate::battle::state::{CmdId, Commander, OrderState, Phase, SideId, Step, Unit, UnitId};
use crate::data::scenario::Objective;
use crate::rules::terrain::Terrain;

/// Who looks at the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Viewer {
    /// A side's player: its own units in full, the enemy only as far as it may know it.
    Side(SideId),
    /// A spectator, a replay or a game of agents watched: everything.
    All,
}

impl Viewer {
    /// A side, or everyone for none (the window's fog viewer: none when no human plays).
    pub fn of(side: Option<SideId>) -> Viewer {
        side.map_or(Viewer::All, Viewer::Side)
    }

    /// The viewer's side, if it is one.
    pub fn side(self) -> Option<SideId> {
        match self {
            Viewer::Side(s) => Some(s),
            Viewer::All => None,
        }
    }

    /// May the viewer see `side`'s hand: the units it may still act with, the orders it is
    /// giving, the actions open to it? Only its own player (and a spectator).
    pub fn sees_hand_of(self, side: SideId) -> bool {
        self.side().is_none_or(|s| s == side)
    }
}

/// The battle as `viewer` may know it. See the module's documentation for what that is.
#[derive(Clone, Copy)]
pub struct PlayerView<'a> {
    b: &'a Battle,
    viewer: Viewer,
}

impl<'a> PlayerView<'a> {
    pub fn of(b: &'a Battle, viewer: Viewer) -> PlayerView<'a> {
        PlayerView { b, viewer }
    }

    /// The view of `side`'s player.
    pub fn side(b: &'a Battle, side: SideId) -> PlayerView<'a> {
        PlayerView::of(b, Viewer::Side(side))
    }

    pub fn viewer(&self) -> Viewer {
        self.viewer
    }

    /// The battle looked at (for the readers in this module, `snapshot`: what they take of
    /// it is what the viewer may know).
    pub(crate) fn battle(&self) -> &'a Battle {
        self.b
    }

    /// May the viewer know of unit `id` (dead or alive)? Its own units always, an enemy unit
    /// unless hidden set-up or an unseen dug-in position hides it; false for no such unit.
    pub fn knows(&self, id: UnitId) -> bool {
        let Some(u) = self.b.units.get(id as usize) else {
            return false;
        };
        match self.viewer {
            Viewer::All => true,
            Viewer::Side(s) => self.b.known_to(s, u.id),
        }
    }

    /// Unit `id` if the viewer may know of it (dead or alive).
    pub fn unit(&self, id: UnitId) -> Option<&'a Unit> {
        self.knows(id).then(|| self.b.unit(id))
    }

    /// The living units the viewer knows of, in id order.
    pub fn units(self) -> impl Iterator<Item = &'a Unit> {
        self.b.alive_units().filter(move |u| self.knows(u.id))
    }

    /// `side`'s living units that the viewer knows of, in id order.
    pub fn side_units(self, side: SideId) -> impl Iterator<Item = &'a Unit> {
        self.b.side_units(side).filter(move |u| self.knows(u.id))
    }

    /// The living units of the other side that the viewer knows of, in id order (for
    /// [`Viewer::All`], the units of the side not acting).
    pub fn enemies(self) -> impl Iterator<Item = &'a Unit> {
        let me = self.viewer.side().unwrap_or_else(|| self.b.actor());
        self.side_units(1 - me)
    }

    /// The ids of [`PlayerView::enemies`].
    pub fn enemy_ids(&self) -> Vec<UnitId> {
        self.enemies().map(|u| u.id).collect()
    }

    /// Does any of the viewer's units see unit `id`? (For [`Viewer::All`]: any unit of the
    /// other side.)
    pub fn in_sight(&self, id: UnitId) -> bool {
        let Some(u) = self.unit(id) else { return false };
        let me = self.viewer.side().unwrap_or(1 - u.side);
        self.b.side_units(me).any(|m| self.b.sees(m.id, id))
    }

    /// Every commander, dead or alive, in id order (the rules hide none).
    pub fn commanders(&self) -> &'a [Commander] {
        &self.b.commanders
    }

    pub fn commander(&self, id: CmdId) -> Option<&'a Commander> {
        self.b.commanders.get(id as usize)
    }

    /// The orders unit `id` holds this turn, if the viewer knows of it.
    pub fn orders_of(&self, id: UnitId) -> Option<&'a OrderState> {
        self.unit(id).and_then(|u| self.b.cmd.orders.get(&u.id))
    }

    /// May the viewer see `side`'s hand? See [`Viewer::sees_hand_of`].
    pub fn sees_hand_of(&self, side: SideId) -> bool {
        self.viewer.sees_hand_of(side)
    }

    /// The decision the battle waits for, with the units of the other side named in it only
    /// if the viewer knows of them.
    pub fn step(&self) -> Step {
        let keep = |v: &Vec<UnitId>| v.iter().copied().filter(|&u| self.knows(u)).collect();
        match &self.b.step {
            // A charge by or at a unit the viewer does not know of is a decision it cannot see.
            Step::CounterInitiative { charger, target, .. } if !self.knows(*charger) || !self.knows(*target) => {
                Step::Open
            }
            Step::Reaction { mover, .. } if !self.knows(*mover) => Step::Open,
            Step::CounterInitiative {
                charger,
                target,
                eligible,
                charge_left,
                held,
            } => Step::CounterInitiative {
                charger: *charger,
                target: *target,
                eligible: keep(eligible),
                charge_left: *charge_left,
                held: *held,
            },
            Step::Reaction { mover, eligible } => Step::Reaction {
                mover: *mover,
                eligible: keep(eligible),
            },
            // A consolidation by a unit the viewer does not know of is a decision it cannot see.
            Step::Consolidate { unit, queue } if self.knows(*unit) => Step::Consolidate {
                unit: *unit,
                queue: keep(queue),
            },
            Step::Consolidate { .. } => Step::Open,
            s @ (Step::Open | Step::Support { .. }) => s.clone(),
        }
    }

    pub fn phase(&self) -> Phase {
        self.b.phase
    }

    /// The side whose player turn it is.
    pub fn active(&self) -> SideId {
        self.b.active
    }

    /// Whose decision the battle waits for.
    pub fn actor(&self) -> SideId {
        self.b.actor()
    }

    pub fn game_turn(&self) -> u32 {
        self.b.game_turn
    }

    pub fn player_turn(&self) -> u32 {
        self.b.player_turn
    }

    pub fn turn_limit(&self) -> u32 {
        self.b.turn_limit
    }

    pub fn objectives(&self) -> &'a [Objective] {
        &self.b.objectives
    }

    pub fn terrain(&self) -> &'a Terrain {
        &self.b.terrain
    }

    /// The side's name.
    pub fn side_name(&self, side: SideId) -> &'a str {
        &self.b.sides[side].name
    }
}
