//! Why a unit has no action now (issue 65, "a missing action can be asked about"): the rule
//! that stops it, worked out read-only from the same checks the actions are listed by. A
//! player asks it of a unit of the side to act; what it says is that side's own business (its
//! unit's state, its commanders), never where an enemy it does not know of stands.

use super::action::{Action, Refusal};
use super::fire::FireContext;
use super::state::*;

/// The rule that says who acts when.
const RULE: &str = "BPT Sequence of Play";

impl Battle {
    /// Why unit `id` has none of the actions in `legal` (the actions listed now), or `None`
    /// when it has some (an order naming it counts). The first rule that stops it.
    pub fn why_idle(&self, id: UnitId, legal: &[Action]) -> Option<Refusal> {
        if id as usize >= self.units.len() || legal.iter().any(|a| a.references().0.contains(&id)) {
            return None;
        }
        let u = self.unit(id);
        let no = |rule: &'static str, reason: String| Some(Refusal::new(rule, reason));
        if u.retired {
            return no(
                "BPT Scouting Cavalry",
                format!("{} has left the table (a scout fired upon or contacted)", u.name),
            );
        }
        if !u.alive() {
            return no("BPT Knock-Out", format!("{} has been knocked out", u.name));
        }
        if self.is_over() {
            return no("BPT Victory", "the battle is over".into());
        }
        if let Some(why) = self.window_stops(id) {
            return Some(why);
        }
        if u.side != self.active {
            return no(
                RULE,
                format!(
                    "{} acts in its own side's turn, or when a rule opens a window for it",
                    u.name
                ),
            );
        }
        let why = match self.phase {
            Phase::Initiative => self.check_initiative(id).err(),
            Phase::Command => self.command_stops(id),
            // The automatic phases (the battle's start and end are not played).
            Phase::Charge => return no(RULE, "nobody acts in the charge phase: the rules carry it out".into()),
            Phase::End => return no(RULE, "nobody acts in the end phase: the rules carry it out".into()),
            Phase::Deployment | Phase::GameOver => return no(RULE, "nobody acts now".into()),
        };
        why.or_else(|| {
            no(
                RULE,
                format!("{} has no move, fire or change of formation open to it now", u.name),
            )
        })
    }

    /// An open decision window that is not `id`'s: who acts in it.
    fn window_stops(&self, id: UnitId) -> Option<Refusal> {
        let name = &self.unit(id).name;
        let said = |rule: &'static str, reason: String| Some(Refusal::new(rule, reason));
        match &self.step {
            Step::Open => None,
            Step::Reaction { mover, eligible } if !eligible.contains(&id) => {
                self.check_fire(id, *mover, FireContext::Opportunity).err().or_else(|| {
                    said(
                        "BPT Opportunity Fire",
                        format!("{name} may not fire at the unit that moved"),
                    )
                })
            }
            Step::CounterInitiative { eligible, .. } if !eligible.contains(&id) => said(
                "BPT Counter-Initiative",
                format!("a charge is declared: only the units within reach of it answer, not {name}"),
            ),
            Step::Support { .. } => said(
                "BPT Support",
                format!("the charges are about to be fought: only units that can support one act, not {name}"),
            ),
            Step::Consolidate { unit, .. } if *unit != id => said(
                "BPT Consolidate",
                format!(
                    "{} consolidates after its charge: nobody else acts",
                    self.unit(*unit).name
                ),
            ),
            _ => None,
        }
    }

    /// In the command phase: the unit's order used up, or why its commanders cannot order it.
    fn command_stops(&self, id: UnitId) -> Option<Refusal> {
        let u = self.unit(id);
        if let Some(o) = self.cmd.orders.get(&id) {
            if o.finished || o.credits == 0 {
                return Some(Refusal::with("BPT Actions", || {
                    format!("{} has used the actions of its order this turn", u.name)
                }));
            }
            return None;
        }
        // Its own commander first, then every commander of its chain.
        let mut chain = vec![u.hq];
        while let Some(up) = chain.last().and_then(|&c| self.commander(c).superior) {
            if chain.contains(&up) {
                break;
            }
            chain.push(up);
        }
        chain
            .iter()
            .filter_map(|&c| self.check_order_allowed(c, &[id], false, false).err())
            .next()
            .or_else(|| self.check_self_order(id).err())
    }
}
