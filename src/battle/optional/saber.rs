//! BPT "Saber Charge (Optional Rule)" (switch `SaberCharge`): "To make a saber charge with
//! cavalry (and only cavalry) the player must announce "Saber Charge" at the start of the
//! charge. This means that the charging unit has drawn sabers and may not fire any range
//! weapons once this announcement is made. The saber charging unit gets an extra attack per
//! stand when using the saber. … Infantry equipped with rifled muskets get 1 additional attack
//! against mounted cavalry who have made them the target of a charge. … If this rule is not
//! used stick with the 3 attacks for Mounted Cavalry charge."
//!
//! DECISIONS gives sabre-armed cavalry 4 attacks a stand as the core rule. With the switch on,
//! they get those 4 only after announcing (`DrawSabers`, free, before the charge, on
//! initiative or on an order that may charge), else 3; without a sabre (the `Sabre` trait)
//! there is no saber charge. Announcing forbids firing for the rest of the player turn. Under
//! initiative passing it is announced once the unit is activated to charge, before the charge
//! test (until issue 64 it was never offered there, so every cavalry charge fought with 3).

use super::hooks::{Act, OptionalRule};
use crate::battle::action::{Action, Refusal, refuse, refuse_with};
use crate::battle::event::families::*;
use crate::battle::event::{Event, ModRule, Modifier};
use crate::battle::state::*;
use crate::data::army::{Arm, Trait};
use crate::rules::switches::Switch;

const RULE: &str = "BPT Saber Charge";

/// The rule's hooks (switch `SaberCharge`).
pub struct SaberCharge;

impl OptionalRule for SaberCharge {
    fn switch(&self) -> Switch {
        Switch::SaberCharge
    }

    /// Announcing forbids firing for the rest of the player turn.
    fn check_act(&self, b: &Battle, id: UnitId, act: Act) -> Result<(), Refusal> {
        if act == Act::Fire && b.sabers_drawn(id) {
            return refuse_with(RULE, || {
                format!("{} has drawn sabers and may not fire this turn", b.unit(id).name)
            });
        }
        Ok(())
    }

    /// Sabre cavalry fight with the sabre's attacks only after announcing, else as cavalry.
    fn contact_attacks(&self, b: &Battle, u: &Unit, attacks: u32) -> u32 {
        if u.is_cavalry() && u.mounted() && u.row.has(Trait::Sabre) && !b.sabers_drawn(u.id) {
            b.rules.charge.attacks_cavalry
        } else {
            attacks
        }
    }

    fn fighter_modifier(&self, b: &Battle, id: UnitId, enemies: &[UnitId]) -> Option<Modifier> {
        b.rifles_against_sabers(id, enemies)
    }

    fn legal(&self, b: &Battle, out: &mut Vec<Action>) {
        b.legal_draw_sabers(out);
    }
}

impl Battle {
    pub fn saber_rule(&self) -> bool {
        self.rules.switches.on(Switch::SaberCharge)
    }

    /// The unit announced a saber charge this player turn.
    pub fn sabers_drawn(&self, id: UnitId) -> bool {
        self.optional.sabers.drawn_in(id) == Some(self.player_turn)
    }

    /// Whether `id` may announce a saber charge now: the switch, mounted cavalry with sabres
    /// of the active side, not yet announced, with a charge on offer now.
    pub fn check_draw_sabers(&self, id: UnitId) -> Result<(), Refusal> {
        if !self.saber_rule() {
            return refuse(RULE, "the optional rule is off (switch saber-charge)");
        }
        self.check_unit_id(id)?;
        let u = self.unit(id);
        if !(u.is_cavalry() && u.mounted() && u.row.has(Trait::Sabre)) {
            return refuse(RULE, "only mounted cavalry with sabres make a saber charge");
        }
        if u.side != self.active || !u.alive() {
            return refuse(RULE, "the active player's cavalry announce a saber charge");
        }
        if self.sabers_drawn(id) {
            return refuse_with(RULE, || format!("{} has already drawn sabers", u.name));
        }
        if !self.may_charge_now(id) {
            return refuse(RULE, "announced at the start of a charge: this unit may not charge now");
        }
        Ok(())
    }

    /// A charge the unit may make now: on initiative at its nearest visible enemy, or on an
    /// order that may charge, with an action left (as `legal_initiative`, `legal_command`).
    fn may_charge_now(&self, id: UnitId) -> bool {
        let visible = self.visible_enemies(id);
        match (self.phase, &self.step) {
            (Phase::Initiative, Step::Open) => self.check_initiative(id).is_ok_and(|(_, near)| {
                visible
                    .iter()
                    .any(|&(e, d)| d <= near + 1e-9 && self.check_charge(id, e).is_ok())
            }),
            // Initiative passing: the unit activated to charge, its roll made (the charge test
            // follows the announcement).
            (Phase::Command, Step::Open) if self.initiative_passing() => {
                self.cmd.passing.passed.is_none()
                    && self.cmd.passing.activated == Some(id)
                    && self
                        .cmd
                        .orders
                        .get(&id)
                        .is_some_and(|o| !o.finished && o.credits > 0 && o.may_charge)
                    && visible
                        .iter()
                        .any(|&(e, _)| self.check_charge(id, e).is_ok() && self.charge_test_plan(id, e).is_ok())
            }
            (Phase::Command, Step::Open) => {
                self.cmd
                    .orders
                    .get(&id)
                    .is_some_and(|o| !o.finished && o.credits > 0 && o.may_charge && !o.self_order)
                    && visible.iter().any(|&(e, _)| self.check_charge(id, e).is_ok())
            }
            _ => false,
        }
    }

    /// Carry out a decided draw of sabers.
    pub(crate) fn do_draw_sabers(&mut self, id: UnitId, ev: &mut Vec<Event>) {
        let turn = self.player_turn;
        self.apply_change(Change::Saber(SaberChange(id, Some(turn))));
        ev.push(Event::Saber(SaberEvent::SabersDrawn { unit: id }));
    }

    /// Saber charges on offer: one for every unit with a charge among `out`.
    fn legal_draw_sabers(&self, out: &mut Vec<Action>) {
        let mut units: Vec<UnitId> = out
            .iter()
            .filter_map(|a| match a {
                Action::Charge { unit, .. } | Action::InitiativeCharge { unit, .. } => Some(*unit),
                _ => None,
            })
            .collect();
        units.dedup();
        for id in units {
            let u = self.unit(id);
            if u.is_cavalry() && u.mounted() && u.row.has(Trait::Sabre) && !self.sabers_drawn(id) {
                out.push(Action::DrawSabers { unit: id });
            }
        }
    }

    /// Rifled infantry in contact with saber-charging cavalry: one more attack a stand.
    fn rifles_against_sabers(&self, id: UnitId, enemies: &[UnitId]) -> Option<Modifier> {
        let u = self.unit(id);
        if u.row.arm != Arm::Infantry || !u.row.has(Trait::Rifled) {
            return None;
        }
        let sabres: Vec<UnitId> = enemies
            .iter()
            .copied()
            .filter(|&e| self.sabers_drawn(e) && self.unit(e).is_cavalry() && self.unit(e).mounted())
            .collect();
        if sabres.is_empty() {
            return None;
        }
        let stands = self.stands_in_contact(id, &sabres) * self.rules.charge.rifled_against_saber;
        (stands > 0).then(|| Modifier::new(stands as i32, ModRule::SaberRifledMuskets))
    }
}
