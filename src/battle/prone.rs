//! BPT "Prone Movement (Optional Rule)" (switch `Prone`): "Units can go prone to avoid fire …
//! requires an order to be issued in order to go prone. Units that are prone take one less hit
//! per unit firing at them … A unit that is prone in skirmish order may continue fire but may
//! not move; a unit in close unit may not fire or move while prone."
//!
//! Going prone and standing up are deploy actions under an order (`Deploy::Prone`). The move,
//! charge, evade and support checks ask [`Battle::check_not_prone`]; the fire check refuses a
//! prone unit in close order; `take_fire_hits` takes one hit off per unit firing: once per
//! target in each fire action (`Battle::prone_spent`, cleared as each fire begins).

use super::action::{Refusal, refuse};
use super::event::Event;
use super::state::*;
use crate::data::army::Arm;
use crate::rules::formation::Formation;
use crate::rules::switches::Switch;

const RULE: &str = "BPT Prone Movement";

impl Battle {
    /// Whether `id` may go prone (`down`) or stand up, as a deploy action.
    pub(crate) fn check_prone(&self, id: UnitId, down: bool, initiative: bool) -> Result<(), Refusal> {
        let u = self.unit(id);
        if !self.rules.switches.on(Switch::Prone) {
            return refuse(RULE, "the optional rule is off (switch prone)");
        }
        if initiative {
            return refuse(RULE, "going prone or standing up needs an order");
        }
        // **Decision**: troops on foot lie down: infantry, engineers, dismounted cavalry.
        let foot = matches!(u.row.arm, Arm::Infantry | Arm::Engineers) || (u.is_cavalry() && !u.mounted());
        if !foot {
            return refuse(RULE, "only troops on foot go prone");
        }
        // **Decision**: a square or a march column does not lie down.
        if down && matches!(u.formation, Formation::Square | Formation::MarchColumn) {
            return refuse(RULE, "a square or march column does not go prone");
        }
        if u.prone == down {
            return refuse(
                RULE,
                if down {
                    format!("{} is already prone", u.name)
                } else {
                    format!("{} is standing", u.name)
                },
            );
        }
        Ok(())
    }

    /// A prone unit "may not move": no move, charge, evade or support (`what`).
    pub fn check_not_prone(&self, id: UnitId, what: &str) -> Result<(), Refusal> {
        let u = self.unit(id);
        if u.prone {
            return refuse(
                RULE,
                format!("{} is prone and may not {what}; order it to stand up", u.name),
            );
        }
        Ok(())
    }

    /// "One less hit per unit firing at them": the hits after saves of the first resolution of
    /// a fire that lands any on a prone target, less one; the fire's further resolutions
    /// against it (a battery's other balls or shells) take none off: one unit fired. A
    /// canister's blast-through strikes other units, each its own target.
    pub(crate) fn prone_fewer_hits(&mut self, target: UnitId, net: u32, ev: &mut Vec<Event>) -> u32 {
        if !self.unit(target).prone || net == 0 || self.prone_spent.contains(&target) {
            return net;
        }
        self.prone_spent.push(target);
        let taken = net - self.rules.fire.prone_fewer_hits.min(net);
        ev.push(Event::ProneSaved {
            unit: target,
            hits: net,
            taken,
        });
        taken
    }

    /// A new fire action begins (a unit fires): no prone target has had its hit taken off yet.
    pub(crate) fn begin_fire(&mut self) {
        self.prone_spent.clear();
    }
}
