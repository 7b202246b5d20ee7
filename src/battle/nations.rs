//! BPT "Multi-National Armies" (switch `MultiNational`): "units may receive orders only from
//! the Army HQ and from HQs of their own nationality … A Brigade containing units from several
//! Nationalities cannot receive orders from a HQ unless that HQ can command all of the units
//! in the Brigade. Some army lists may alter this (for example, Portuguese troops … will be
//! able to receive order from British HQs)."
//!
//! The army HQ is the side's CO. A unit's or commander's nation is the scenario's `nation`
//! (none: the side's own); the side's `obeys` lists the exceptions. An order is checked unit
//! by unit, so an order to a mixed brigade passes only if the HQ may command every unit in it.

use super::action::{Refusal, refuse};
use super::state::*;
use crate::rules::switches::Switch;

impl Battle {
    /// Whether commander `c` may order `unit` as far as nationality goes (always, with the
    /// switch off).
    pub fn nation_may_order(&self, c: CmdId, unit: UnitId) -> bool {
        if !self.rules.switches.on(Switch::MultiNational) {
            return true;
        }
        let cm = self.commander(c);
        if cm.is_co() {
            return true;
        }
        let u = self.unit(unit);
        let theirs = u.nation.as_deref().unwrap_or(&self.sides[u.side].name);
        let his = cm.nation.as_deref().unwrap_or(&self.sides[cm.side].name);
        theirs == his
            || self.sides[u.side]
                .obeys
                .get(theirs)
                .is_some_and(|n| n.iter().any(|x| x == his))
    }

    /// [`Battle::nation_may_order`] as a refusal naming the rule.
    pub(crate) fn check_nation(&self, c: CmdId, unit: UnitId) -> Result<(), Refusal> {
        if self.nation_may_order(c, unit) {
            return Ok(());
        }
        let u = self.unit(unit);
        let nation = u.nation.as_deref().unwrap_or(&self.sides[u.side].name);
        refuse(
            "BPT Multi-National Armies",
            format!(
                "{} ({nation}) takes orders only from the army HQ or {nation} HQs, not {}",
                u.name,
                self.commander(c).name
            ),
        )
    }
}
