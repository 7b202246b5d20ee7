//! BPT "Constructions (Optional Rule)" (switch `Constructions`): "Constructions are buildings
//! and fortifications. They have their own hit and save values, which are determined by their
//! size and type. Infantry inside a construction may use the save value of the construction
//! when they take hits. Roll attacks against the troops inside the construction and the
//! construction itself. Whenever a construction comes under fire that can cause hits from
//! artillery, roll the attacks (hitting on sixes), roll saves, then make a note of the number
//! of hits against it. These are not removed at the end of a turn. … When the number of hits
//! reaches the hits values, the construction collapses immediately knocking-out all occupants
//! and suppressing any in contact with the construction."
//!
//! The constructions are the table's buildings (`material` in the scenario, brick if none).

use super::event::{Event, KnockOut};
use super::state::*;
use crate::data::army::Arm;
use crate::data::scenario::Ammo;
use crate::rules::geometry::{self, Rect};
use crate::rules::switches::Switch;
use crate::rules::terrain::Material;

pub use super::works::Constructions;
use crate::battle::event::families::*;

/// Whether artillery ammunition damages a construction of `material`: round shot every one
/// ("attacks all troops and fortifications"), shell and air burst wooden ones only, canister
/// none.
pub fn ammo_harms(ammo: Ammo, material: Material) -> bool {
    match ammo {
        Ammo::Shot => true,
        Ammo::Shell | Ammo::AirBurst => material == Material::Wooden,
        Ammo::Canister => false,
    }
}

impl Battle {
    pub fn constructions_rule(&self) -> bool {
        self.rules.switches.on(Switch::Constructions)
    }

    /// Building `i`'s hits value and save: the material's row times its 5 cm sections.
    pub fn construction_value(&self, i: u32) -> (u32, Option<u32>) {
        let r = &self.rules.constructions;
        let b = &self.terrain.buildings[i as usize];
        let pts = &b.outline.0;
        let longest = (0..pts.len())
            .map(|k| pts[k].dist(pts[(k + 1) % pts.len()]))
            .fold(0.0, f64::max);
        let sections = ((longest / r.section) - 1e-9).ceil().max(1.0) as u32;
        let row = r.row(b.material);
        (row.hits * sections, row.save)
    }

    /// The standing building a unit is inside (**decision**: any of its bases' centres within
    /// the outline), with the switch on.
    pub fn construction_of(&self, id: UnitId) -> Option<u32> {
        if !self.constructions_rule() {
            return None;
        }
        let rects = self.rects(id);
        self.terrain
            .buildings
            .iter()
            .enumerate()
            .map(|(i, b)| (i as u32, b))
            .filter(|(i, _)| !self.constructions.collapsed.contains(i))
            .find(|(_, b)| rects.iter().any(|r| b.outline.contains(r.center)))
            .map(|(i, _)| i)
    }

    /// "Infantry inside a construction may use the save value of the construction": the better
    /// of the two (a lower score).
    pub fn save_in_construction(&self, id: UnitId, save: Option<u32>) -> Option<u32> {
        if self.unit(id).row.arm != Arm::Infantry {
            return save;
        }
        let Some(i) = self.construction_of(id) else { return save };
        match (save, self.construction_value(i).1) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Artillery fire (`ammo`) at troops inside a building: the same dice against the building,
    /// hit on sixes, its save, and the hits noted; it collapses when they reach its hits value.
    /// BPT "Canister": "Canister has no effect on constructions"; BPT "Shell": "Shell
    /// ammunition can attack personnel and wooden constructions only" (an air burst is shell).
    pub(crate) fn strike_construction(&mut self, target: UnitId, dice: u32, ammo: Ammo, ev: &mut Vec<Event>) {
        let Some(i) = self.construction_of(target) else { return };
        if dice == 0 || !ammo_harms(ammo, self.terrain.buildings[i as usize].material) {
            return;
        }
        let (value, save) = self.construction_value(i);
        let need = self.rules.constructions.to_hit;
        let rolls = self.dice_mut().roll(dice, 6);
        let hits = rolls.iter().filter(|&&r| r >= need).count() as u32;
        let save_rolls = match save {
            Some(_) => self.dice_mut().roll(hits, 6),
            None => Vec::new(),
        };
        let saved = save.map_or(0, |s| save_rolls.iter().filter(|&&r| r >= s).count() as u32);
        let total = self.constructions.hits.get(&i).copied().unwrap_or(0) + hits - saved;
        self.apply_change(Change::Works(WorksChange::ConstructionHits(i, total)));
        ev.push(Event::Works(WorksEvent::ConstructionHit {
            building: i,
            rolls,
            need,
            save_rolls,
            hits: hits - saved,
            total,
            value,
        }));
        if total >= value {
            self.collapse(i, ev);
        }
    }

    /// "The construction collapses immediately knocking-out all occupants and suppressing any
    /// in contact with the construction."
    fn collapse(&mut self, i: u32, ev: &mut Vec<Event>) {
        let inside: Vec<UnitId> = self
            .units
            .iter()
            .filter(|u| u.alive())
            .map(|u| u.id)
            .filter(|&u| self.construction_of(u) == Some(i))
            .collect();
        let outline = self.terrain.buildings[i as usize].outline.clone();
        let contact = self.rules.visibility.contact;
        let touching: Vec<UnitId> = self
            .units
            .iter()
            .filter(|u| u.alive() && !inside.contains(&u.id))
            .map(|u| u.id)
            .filter(|&u| {
                self.rects(u).iter().any(|r: &Rect| {
                    outline
                        .edges()
                        .any(|(a, b)| geometry::rect_segment_distance(r, a, b) <= contact)
                })
            })
            .collect();
        self.apply_change(Change::Works(WorksChange::Collapsed(i)));
        ev.push(Event::Works(WorksEvent::ConstructionCollapsed {
            building: i,
            knocked_out: inside.clone(),
            suppressed: touching.clone(),
        }));
        for u in inside {
            self.knock_out(u, KnockOut::Collapsed, ev);
        }
        for u in touching {
            self.suppress(u, super::event::SuppressedWhy::BuildingCollapsed, ev);
        }
    }
}
