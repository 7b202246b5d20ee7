//! BPT "Prone Movement (Optional Rule)" (switch `Prone`): "Units can go prone to avoid fire …
//! requires an order to be issued in order to go prone. Units that are prone take one less hit
//! per unit firing at them … A unit that is prone in skirmish order may continue fire but may
//! not move; a unit in close unit may not fire or move while prone."
//!
//! Going prone and standing up are deploy actions under an order (`Deploy::Prone`). Who lies prone is
//! this rule's table ([`super::tables::Prone`]), not a field of the unit. Its hooks ([`ProneMovement`]): a prone
//! unit may not move, charge, evade or support, nor fire in close order, nor change formation
//! before standing up; a fire's hits on it are one fewer per unit firing (once per target in
//! each fire action); a unit forced to move gets up.

use super::hooks::{Act, OptionalRule};
use crate::battle::action::{Deploy, Refusal, refuse, refuse_with};
use crate::battle::event::Event;
use crate::battle::event::families::*;
use crate::battle::state::*;
use crate::data::army::Arm;
use crate::rules::formation::Formation;
use crate::rules::switches::Switch;

const RULE: &str = "BPT Prone Movement";

/// The rule's hooks (switch `Prone`).
pub struct ProneMovement;

impl OptionalRule for ProneMovement {
    fn switch(&self) -> Switch {
        Switch::Prone
    }

    /// A prone unit "may not move": no move, charge, evade or support; in close order it may
    /// not fire; it stands up before any deploy but loading or pivoting a gun.
    fn check_act(&self, b: &Battle, id: UnitId, act: Act) -> Result<(), Refusal> {
        let u = b.unit(id);
        if !b.is_prone(id) {
            return Ok(());
        }
        let what = match act {
            Act::Move => "move",
            Act::Charge => "charge",
            Act::Evade => "evade",
            Act::Support => "move in support",
            Act::Fire if u.formation != Formation::ExtendedLine => {
                return refuse_with(RULE, || format!("{} is prone in close order and may not fire", u.name));
            }
            Act::Deploy(d) if !matches!(d, Deploy::Prone(_) | Deploy::Load(_) | Deploy::Pivot(_)) => {
                return refuse_with(RULE, || format!("{} is prone: order it to stand up first", u.name));
            }
            Act::Fire | Act::Deploy(_) => return Ok(()),
        };
        refuse_with(RULE, || {
            format!("{} is prone and may not {what}; order it to stand up", u.name)
        })
    }

    fn fire_begins(&self, b: &mut Battle) {
        b.apply_change(Change::Prone(ProneChange::FireBegins));
    }

    /// "One less hit per unit firing at them": the hits after saves of the first resolution of
    /// a fire that lands any on a prone target, less one; the fire's further resolutions
    /// against it (a battery's other balls or shells) take none off: one unit fired. A
    /// canister's blast-through strikes other units, each its own target.
    fn hits_landed(&self, b: &mut Battle, target: UnitId, net: u32, ev: &mut Vec<Event>) -> u32 {
        if !b.is_prone(target) || net == 0 || b.optional.prone.spent.contains(&target) {
            return net;
        }
        b.apply_change(Change::Prone(ProneChange::Spent(target)));
        let taken = net - b.rules.fire.prone_fewer_hits.min(net);
        ev.push(Event::Prone(ProneEvent::ProneSaved {
            unit: target,
            hits: net,
            taken,
        }));
        taken
    }

    /// **Decision**: a unit forced to move gets up.
    fn forced_move(&self, b: &mut Battle, unit: UnitId) {
        b.apply_change(Change::Prone(ProneChange::Lying(unit, false)));
    }
}

impl Battle {
    /// Whether `id` lies prone (BPT "Prone Movement").
    pub fn is_prone(&self, id: UnitId) -> bool {
        self.optional.prone.is_prone(id)
    }

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
        if self.is_prone(id) == down {
            return refuse_with(RULE, || {
                if down {
                    format!("{} is already prone", u.name)
                } else {
                    format!("{} is standing", u.name)
                }
            });
        }
        Ok(())
    }
}
