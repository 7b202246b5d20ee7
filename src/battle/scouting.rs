//! BPT "Scouting Cavalry (Optional Rule)" with hidden set-up (switch `Scouting`): "Scouting
//! cavalry are used to reveal the deployment of enemy units when hidden setup is being used.
//! Scouting cavalry are deployed as individual stands and may only be moved as such. After
//! passing an initial command roll they may move as the player wishes without further orders.
//! Scouting cavalry spot hidden enemy troops in the open at up to 30cm and in cover at up to
//! 15cm. Scouting cavalry who are fired upon by enemy or contacted by enemy troops are removed
//! from the table but do not count as lost."
//!
//! Hidden set-up (**decisions**, the book gives no more): with the switch every unit but the
//! scouts starts hidden. A hidden unit cannot be targeted, charged or seen (it is left out of
//! `visible_enemies`, so of initiative and the scheduler's knowledge); it is found when it
//! acts (any action of its own gives it away) or when an enemy unit that sees it comes within
//! spotting distance: scouts 30 cm in the open / 15 cm in cover, other troops 20 / 10 cm.

use super::event::Event;
use super::state::*;
use crate::battle::event::families::*;
use crate::rules::params::Cover;
use crate::rules::switches::Switch;

impl Battle {
    pub fn scouting_rule(&self) -> bool {
        self.rules.switches.on(Switch::Scouting)
    }

    /// How far `spotter` spots the hidden unit `hidden` (it must also see it).
    fn spotting_range(&self, spotter: UnitId, hidden: UnitId) -> f64 {
        let r = &self.rules.scouting;
        let cover = self.cover_of(hidden, self.unit(spotter).pose.pos) != Cover::Open;
        match (self.unit(spotter).scout, cover) {
            (true, false) => r.scout_open,
            (true, true) => r.scout_cover,
            (false, false) => r.troops_open,
            (false, true) => r.troops_cover,
        }
    }

    /// After every action: the actor gives itself away; enemies within spotting distance that
    /// see a hidden unit find it. Units in id order, spotters in id order.
    pub(crate) fn reveal_hidden(&mut self, actor: Option<UnitId>, ev: &mut Vec<Event>) {
        if !self.scouting_rule() {
            return;
        }
        if let Some(id) = actor.filter(|&u| (u as usize) < self.units.len())
            && self.unit(id).hidden
        {
            self.change_unit(id, UnitChange::Hidden(false));
            ev.push(Event::Scouting(ScoutingEvent::Revealed {
                unit: id,
                by: None,
                distance: 0.0,
            }));
        }
        let hidden: Vec<UnitId> = self
            .units
            .iter()
            .filter(|u| u.alive() && u.hidden)
            .map(|u| u.id)
            .collect();
        for h in hidden {
            let side = self.unit(h).side;
            let spotter = self.side_units(1 - side).map(|e| e.id).find(|&e| {
                let d = self.unit_distance(e, h);
                d <= self.spotting_range(e, h) && self.sees(e, h)
            });
            if let Some(e) = spotter {
                let distance = self.unit_distance(e, h);
                self.change_unit(h, UnitChange::Hidden(false));
                ev.push(Event::Scouting(ScoutingEvent::Revealed {
                    unit: h,
                    by: Some(e),
                    distance,
                }));
            }
        }
    }

    /// "Scouting cavalry who are fired upon by enemy or contacted by enemy troops are removed
    /// from the table but do not count as lost." Returns whether `id` was such a scout.
    pub(crate) fn retire_scout(&mut self, id: UnitId, why: super::event::RetiredWhy, ev: &mut Vec<Event>) -> bool {
        let u = self.unit(id);
        if !u.scout || !u.alive() {
            return false;
        }
        self.change_unit(id, UnitChange::KnockedOut(true));
        self.change_unit(id, UnitChange::Retired(true));
        ev.push(Event::Scouting(ScoutingEvent::ScoutRetired { unit: id, why }));
        self.refresh_geometry();
        true
    }

    /// "After passing an initial command roll they may move as the player wishes without
    /// further orders": at the start of its side's command phase each freed scout holds an
    /// order of one action (no charge) without a roll.
    pub(crate) fn free_scouts(&mut self, ev: &mut Vec<Event>) {
        if !self.scouting_rule() {
            return;
        }
        let free: Vec<UnitId> = self
            .side_units(self.active)
            // A scout whose order arrived this phase (order delay) acts on that order.
            .filter(|u| u.scout && u.scout_free && !u.suppressed() && !self.cmd.arrived.contains(&u.id))
            .map(|u| u.id)
            .collect();
        for id in free {
            self.change_command(CommandChange::Order(
                id,
                OrderState {
                    count: 1,
                    credits: 1,
                    ..OrderState::new(u32::MAX)
                },
            ));
            ev.push(Event::Scouting(ScoutingEvent::ScoutFree { unit: id }));
        }
    }
}
