//! BPT "Multi-National Armies" (switch `MultiNational`): "units may receive orders only from
//! the Army HQ and from HQs of their own nationality … A Brigade containing units from several
//! Nationalities cannot receive orders from a HQ unless that HQ can command all of the units
//! in the Brigade. Some army lists may alter this (for example, Portuguese troops … will be
//! able to receive order from British HQs)."
//!
//! The army HQ is the side's CO. A unit's or commander's nation is the scenario's `nation`
//! (none: the side's own); the side's `obeys` lists the exceptions. A unit's brigade is every
//! living unit under the same commander (`hq`): an HQ other than the CO may order a unit only
//! if he may command every unit of its brigade, so a mixed brigade takes no orders from him at
//! all, not even for the units of his own nation.

use super::action::{Refusal, refuse};
use super::state::*;
use crate::rules::switches::Switch;

impl Battle {
    /// Whether commander `c` may order `unit` as far as nationality goes (always, with the
    /// switch off): he may command it and every living unit of its brigade.
    pub fn nation_may_order(&self, c: CmdId, unit: UnitId) -> bool {
        self.nation_bar(c, unit).is_none()
    }

    /// Whether `c` may command `unit` by their two nations alone (the CO anyone).
    fn nation_commands(&self, c: CmdId, unit: UnitId) -> bool {
        let cm = self.commander(c);
        if cm.is_co() {
            return true;
        }
        let theirs = self.nation_of(unit);
        let his = cm.nation.as_deref().unwrap_or(&self.sides[cm.side].name);
        theirs == his
            || self.sides[self.unit(unit).side]
                .obeys
                .get(theirs)
                .is_some_and(|n| n.iter().any(|x| x == his))
    }

    fn nation_of(&self, unit: UnitId) -> &str {
        let u = self.unit(unit);
        u.nation.as_deref().unwrap_or(&self.sides[u.side].name)
    }

    /// The unit (the ordered one first, then its brigade in id order) that `c` may not
    /// command, if any.
    fn nation_bar(&self, c: CmdId, unit: UnitId) -> Option<UnitId> {
        if !self.rules.switches.on(Switch::MultiNational) || self.commander(c).is_co() {
            return None;
        }
        if !self.nation_commands(c, unit) {
            return Some(unit);
        }
        let u = self.unit(unit);
        self.side_units(u.side)
            .filter(|w| w.hq == u.hq && w.id != unit)
            .map(|w| w.id)
            .find(|&w| !self.nation_commands(c, w))
    }

    /// [`Battle::nation_may_order`] as a refusal naming the rule.
    pub(crate) fn check_nation(&self, c: CmdId, unit: UnitId) -> Result<(), Refusal> {
        let Some(bar) = self.nation_bar(c, unit) else {
            return Ok(());
        };
        let nation = self.nation_of(bar);
        let who = &self.commander(c).name;
        let reason = if bar == unit {
            format!(
                "{} ({nation}) takes orders only from the army HQ or {nation} HQs, not {who}",
                self.unit(unit).name
            )
        } else {
            format!(
                "{}'s brigade holds {} ({nation}), whom {who} may not command: a brigade of \
                 several nations takes orders only from a HQ that can command all its units",
                self.unit(unit).name,
                self.unit(bar).name
            )
        };
        refuse("BPT Multi-National Armies", reason)
    }
}
