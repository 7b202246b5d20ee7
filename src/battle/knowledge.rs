//! What a side may know of a unit: the rule the per-side view (`view::PlayerView`) applies,
//! kept in the core so the core's own listings for a side (the candidate moves of
//! `legal_actions`) never steer by a unit that side may not know of.

use super::state::*;

impl Battle {
    /// May `side` know of unit `id` (dead or alive)? Its own units always; an enemy unit
    /// unless hidden set-up (switch `Scouting`) or a dug-in position none of `side`'s units
    /// sees hides it. False for no such unit.
    pub fn known_to(&self, side: SideId, id: UnitId) -> bool {
        let Some(u) = self.units.get(id as usize) else {
            return false;
        };
        u.side == side || (!u.hidden && (!u.dug_in || self.side_units(side).any(|m| self.sees(m.id, id))))
    }

    /// The nearest living enemy of unit `id` its side knows of, seen now or not (for facing
    /// and advancing), by centre distance; ties to the lower id.
    pub fn nearest_known_enemy(&self, id: UnitId) -> Option<(UnitId, f64)> {
        let u = self.unit(id);
        self.side_units(1 - u.side)
            .filter(|e| self.known_to(u.side, e.id))
            .map(|e| (e.id, e.pose.pos.dist(u.pose.pos)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
    }
}
