//! Carry out a decided action ([`Decision`], decide.rs): roll its dice and change the battle.
//! Nothing here refuses: every check was made when the action was decided, on this same
//! state.

use super::decide::Decision;
use super::event::{ChargeFailure, Event, MoveKind};
use super::fire::FireContext;
use super::state::*;
use crate::battle::event::families::*;
use crate::data::army::Arm;

impl Battle {
    /// Carry out what [`Battle::decide`] decided on this state.
    pub(crate) fn carry_out(&mut self, decision: Decision, ev: &mut Vec<Event>) {
        match decision {
            Decision::InitiativeFire { unit, plan } => {
                self.change_unit(unit, UnitChange::InitiativeTurn(Some(self.player_turn)));
                self.resolve_fire(plan, FireContext::Initiative, ev);
            }
            Decision::Engineer { unit, linear, task } => self.engineer_work(unit, linear, task, ev),
            Decision::InitiativeEvade { unit, enemy } => {
                self.change_unit(unit, UnitChange::InitiativeTurn(Some(self.player_turn)));
                self.evade(unit, enemy, ev);
            }
            Decision::InitiativeDeploy { unit, deploy } => {
                self.change_unit(unit, UnitChange::InitiativeTurn(Some(self.player_turn)));
                self.do_deploy(unit, deploy, ev);
            }
            Decision::InitiativeCharge { plan } => {
                self.change_unit(plan.unit, UnitChange::InitiativeTurn(Some(self.player_turn)));
                // Glory Days "Melee" (switch InitiativePassing): every charge takes the charge
                // test; a failure stops it 2" short (the initiative passes in the command
                // phase only).
                if !self.initiative_passing() || self.take_charge_test(&plan, ev) {
                    self.declare_charge(plan, true, ev);
                }
            }
            Decision::InitiativeSupport { unit, friend, pose } => {
                self.change_unit(unit, UnitChange::InitiativeTurn(Some(self.player_turn)));
                self.do_support(unit, friend, pose, ev);
            }
            Decision::EndInitiative => self.end_initiative(ev),
            Decision::DrawSabers { unit } => self.do_draw_sabers(unit, ev),
            Decision::Order {
                commander,
                units,
                plan,
                flags,
            } => self.do_order(commander, &units, plan, flags, ev),
            Decision::SelfOrder { unit } => self.do_self_order(unit, ev),
            Decision::Attach { unit, hq, plan } => self.do_attach(unit, hq, plan, ev),
            Decision::Move { unit, to, check } => self.carry_move(unit, to, check.cost, ev),
            Decision::Deploy { unit, deploy } => {
                self.spend(unit);
                self.do_deploy(unit, deploy, ev);
            }
            Decision::Fire { unit, plan, manhandled } => {
                if manhandled {
                    self.change_order(unit, |o| o.fire_after_manhandle = false);
                } else {
                    self.spend(unit);
                }
                // BPT "Opportunity Fire": units opportunity-firing at a unit that fires fire
                // immediately after it.
                self.resolve_fire(plan, FireContext::Order, ev);
                self.open_reaction(unit, ev);
            }
            Decision::FireTogether { unit, firers, plans } => {
                for &f in &firers {
                    self.spend(f);
                }
                self.resolve_volley(plans, FireContext::Order, ev);
                // **Decision**: the opportunity-fire window opens at the first unit named.
                self.open_reaction(unit, ev);
            }
            Decision::Charge { plan } => {
                self.spend(plan.unit);
                self.declare_charge(plan, false, ev);
            }
            Decision::Support { unit, friend, pose } => {
                self.spend(unit);
                self.do_support(unit, friend, pose, ev);
            }
            Decision::CommanderMove { commander: c, to } => {
                let from = self.commander(c).pos;
                self.change_commander(c, CommanderChange::Pos(to));
                self.change_command(CommandChange::Moved(c));
                self.change_command(CommandChange::Done(c));
                ev.push(Event::Command(CommandEvent::CommanderMoved { commander: c, from, to }));
            }
            Decision::EndCommand => self.end_command(ev),
            Decision::Activate {
                unit,
                purpose,
                into,
                plan,
            } => self.do_activate(unit, purpose, into, plan, ev),
            Decision::Rally { unit, plan } => self.do_rally(unit, plan, ev),
            Decision::PassingFire { unit, target, plan } => self.do_passing_fire(unit, target, plan, ev),
            Decision::PassingCharge { charge } => self.do_passing_charge(charge, ev),
            Decision::PassingAct { unit, bpt, moved } => {
                self.carry_out(*bpt, ev);
                if moved {
                    self.change_passing(PassingChange::Moved(unit));
                }
            }
            decision @ (Decision::CounterPass
            | Decision::CounterFire { .. }
            | Decision::CounterEvade { .. }
            | Decision::CounterDeploy { .. }
            | Decision::CounterCharge) => self.carry_counter(decision, ev),
            Decision::ReactionPass => self.change_turn(TurnChange::Step(Step::Open)),
            Decision::OpportunityFire { mover, firers, plans } => {
                for &f in &firers {
                    self.change_unit(f, UnitChange::OpportunityTurn(Some(self.player_turn)));
                }
                let landed = self.cmd.passing.landed;
                self.resolve_volley(plans, FireContext::Opportunity, ev);
                self.reaction_stops(mover, landed, ev);
                // "Roll all the attacks together": the fire at the mover is made; the units that
                // did not join it may not add a fire of their own (**Decision**).
                self.change_turn(TurnChange::Step(Step::Open));
            }
            Decision::WindowSupport {
                side,
                unit,
                friend,
                pose,
            } => {
                if side == self.active {
                    self.change_order(unit, |o| o.credits -= 1);
                }
                self.do_support(unit, friend, pose, ev);
                if self.possible_supports(side).is_empty() {
                    self.after_support_window(side, ev);
                }
            }
            Decision::WindowPass { side } => self.after_support_window(side, ev),
            Decision::Consolidate { unit, queue, to } => {
                self.consolidate_to(unit, to, ev);
                if !self.open_consolidation(queue) {
                    self.resolve_combats(ev);
                }
            }
        }
    }

    /// A unit's move under its order (BPT "Movement").
    fn carry_move(&mut self, unit: UnitId, to: crate::rules::geometry::Pose, cost: f64, ev: &mut Vec<Event>) {
        let self_order = self.cmd.orders.get(&unit).is_some_and(|o| o.self_order);
        let from = self.unit(unit).pose;
        self.spend(unit);
        let gun = self.unit(unit);
        if gun.is_artillery() && !gun.limbered && !self_order {
            self.change_order(unit, |o| o.fire_after_manhandle = true);
        }
        self.change_unit(unit, UnitChange::Pose(to));
        self.change_unit(unit, UnitChange::DugIn(false));
        self.change_unit(unit, UnitChange::Refused((false, false)));
        self.refresh_geometry();
        ev.push(Event::Movement(MovementEvent::Moved {
            unit,
            from,
            to,
            kind: MoveKind::Order,
            cost,
        }));
        self.overrun_along(unit, Some(from), ev);
        self.open_reaction(unit, ev);
    }

    /// Counter-initiative and response to a charge, decided (BPT "Counter-Initiative",
    /// "Response", "Counter-Charge").
    fn carry_counter(&mut self, decision: Decision, ev: &mut Vec<Event>) {
        let Step::CounterInitiative {
            charger,
            target,
            eligible,
            charge_left,
            held,
        } = self.step.clone()
        else {
            unreachable!("a counter-initiative decided outside its window")
        };
        // The window stays open for the units still eligible, or the charge goes on.
        let next = |b: &mut Battle, unit: UnitId, ev: &mut Vec<Event>| {
            let left: Vec<UnitId> = eligible.iter().copied().filter(|u| *u != unit).collect();
            if left.is_empty() {
                b.complete_charge(charger, target, charge_left, held, ev);
            } else {
                b.change_turn(TurnChange::Step(Step::CounterInitiative {
                    charger,
                    target,
                    eligible: left,
                    charge_left,
                    held,
                }));
            }
        };
        match decision {
            Decision::CounterPass => {
                // BPT "Counter-Charge": charged cavalry never receive a charge standing still;
                // mounted cavalry that do not evade meet it.
                let t = self.unit(target);
                if t.row.arm == Arm::Cavalry && t.mounted() {
                    self.apply_change(Change::Charge(ChargeChange::CounterCharging(Some(target))));
                }
                self.complete_charge(charger, target, charge_left, held, ev);
            }
            Decision::CounterFire { unit, plan } => {
                self.resolve_fire(plan, FireContext::Counter, ev);
                // A charger knocked out or fallen back (no longer where it was held) does not
                // contact: `complete_charge` says so and closes the window.
                let c = self.unit(charger);
                if !c.alive() || c.pose != held {
                    self.complete_charge(charger, target, charge_left, held, ev);
                } else {
                    next(self, unit, ev);
                }
            }
            Decision::CounterEvade { unit } if unit != target => {
                // BPT "Counter-Initiative": "any units within 5cm of units under charge may
                // fire at or evade charging units"; the charge goes on at its target.
                self.evade(unit, charger, ev);
                next(self, unit, ev);
            }
            Decision::CounterEvade { unit } => {
                self.evade(unit, charger, ev);
                self.change_turn(TurnChange::Step(Step::Open));
                self.apply_change(Change::Charge(ChargeChange::CounterCharging(None)));
                self.pursue(charger, target, charge_left, true, ev);
                ev.push(Event::Melee(MeleeEvent::ChargeFailed {
                    unit: charger,
                    target,
                    why: ChargeFailure::TargetEvaded,
                }));
            }
            Decision::CounterDeploy { unit, deploy } => {
                self.do_deploy(unit, deploy, ev);
                next(self, unit, ev);
            }
            Decision::CounterCharge => {
                self.apply_change(Change::Charge(ChargeChange::CounterCharging(Some(target))));
                self.complete_charge(charger, target, charge_left, held, ev);
            }
            other => unreachable!("{other:?} is no counter-initiative"),
        }
    }
}
