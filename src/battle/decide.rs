//! Decide: whether an action may be taken now, and everything its carrying out needs, read off
//! the state without changing it. A refusal cites the rule that forbids the action. What is
//! decided cannot then be refused: [`Battle::carry_out`] (carry.rs) takes it as it is, rolls
//! the dice and changes the battle.
//!
//! `validate` is this decision alone: no copy of the battle is made to check an action.

use super::action::{Action, Deploy, Ground, Purpose, Refusal, refuse, refuse_with};
use super::charge::ChargePlan;
use super::command::{OrderFlags, OrderPlan};
use super::fire::{FireContext, FirePlan};
use super::formations::AttachPlan;
use super::movement::MoveCheck;
use super::passing::RollPlan;
use super::state::*;
use super::works::Task;
use crate::data::army::Arm;
use crate::rules::geometry::{Pose, V2};

/// A decided action: the action with what its checks found (the fire's plan, the charge's
/// path, the order's roll, the pose a support ends in …).
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    // ---- Initiative phase (BPT "Initiative Phase") ----
    InitiativeFire {
        unit: UnitId,
        plan: FirePlan,
    },
    Engineer {
        unit: UnitId,
        linear: u32,
        task: Task,
    },
    InitiativeEvade {
        unit: UnitId,
        enemy: UnitId,
    },
    InitiativeDeploy {
        unit: UnitId,
        deploy: Deploy,
    },
    InitiativeCharge {
        plan: ChargePlan,
    },
    InitiativeSupport {
        unit: UnitId,
        friend: UnitId,
        pose: Pose,
    },
    EndInitiative,
    /// Optional rule "Saber Charge", in either phase.
    DrawSabers {
        unit: UnitId,
    },

    // ---- Command phase (BPT "Command Phase") ----
    Order {
        commander: CmdId,
        units: Vec<UnitId>,
        plan: OrderPlan,
        flags: OrderFlags,
    },
    SelfOrder {
        unit: UnitId,
    },
    Attach {
        unit: UnitId,
        hq: CmdId,
        plan: AttachPlan,
    },
    Move {
        unit: UnitId,
        to: Pose,
        check: MoveCheck,
    },
    Deploy {
        unit: UnitId,
        deploy: Deploy,
    },
    Fire {
        unit: UnitId,
        plan: FirePlan,
        manhandled: bool,
    },
    FireTogether {
        unit: UnitId,
        firers: Vec<UnitId>,
        plans: Vec<FirePlan>,
    },
    Charge {
        plan: ChargePlan,
    },
    Support {
        unit: UnitId,
        friend: UnitId,
        pose: Pose,
    },
    CommanderMove {
        commander: CmdId,
        to: V2,
    },
    EndCommand,

    // ---- Command phase with initiative passing (*Glory Days!*) ----
    Activate {
        unit: UnitId,
        purpose: Purpose,
        into: Ground,
        plan: RollPlan,
    },
    Rally {
        unit: UnitId,
        plan: RollPlan,
    },
    PassingFire {
        unit: UnitId,
        target: UnitId,
        plan: FirePlan,
    },
    /// The charge test, then BPT's charge (`charge`) if it is passed.
    PassingCharge {
        charge: ChargePlan,
    },
    /// A move, deploy or support of the activated unit: BPT's own (`bpt`); `moved` when it
    /// counts as the unit having moved on this initiative.
    PassingAct {
        unit: UnitId,
        bpt: Box<Decision>,
        moved: bool,
    },

    // ---- Counter-initiative (BPT "Counter-Initiative", "Response") ----
    CounterPass,
    CounterFire {
        unit: UnitId,
        plan: FirePlan,
    },
    CounterEvade {
        unit: UnitId,
    },
    CounterDeploy {
        unit: UnitId,
        deploy: Deploy,
    },
    CounterCharge,

    // ---- Opportunity fire (BPT "Opportunity Fire") ----
    ReactionPass,
    OpportunityFire {
        mover: UnitId,
        firers: Vec<UnitId>,
        plans: Vec<FirePlan>,
    },

    // ---- Supports before the charges are fought (BPT "Support") ----
    WindowSupport {
        side: SideId,
        unit: UnitId,
        friend: UnitId,
        pose: Pose,
    },
    WindowPass {
        side: SideId,
    },

    // ---- Consolidation (BPT "Consolidate") ----
    Consolidate {
        unit: UnitId,
        queue: Vec<UnitId>,
        to: Pose,
    },
}

/// An action decided on this state, for [`Battle::apply_decision`]: only [`Battle::decide`]
/// makes one.
#[derive(Clone, Debug, PartialEq)]
pub struct Decided {
    pub decision: Decision,
    /// The unit whose action it is (a hidden unit that acts shows itself).
    unit: Option<UnitId>,
}

impl Decided {
    pub fn unit(&self) -> Option<UnitId> {
        self.unit
    }
}

impl Battle {
    /// Check an action without changing anything.
    pub fn validate(&self, action: &Action) -> Result<(), Refusal> {
        self.decide(action).map(|_| ())
    }

    /// Decide an action: refused with its rule, or what carrying it out needs.
    pub fn decide(&self, action: &Action) -> Result<Decided, Refusal> {
        Ok(Decided {
            decision: self.decision(action)?,
            unit: action.unit(),
        })
    }

    fn decision(&self, action: &Action) -> Result<Decision, Refusal> {
        if self.phase == Phase::GameOver {
            return refuse("BPT End of the Battle", "the battle is over");
        }
        match &self.step {
            Step::CounterInitiative { .. } => self.decide_counter(action),
            Step::Reaction { mover, eligible } => self.decide_reaction(*mover, eligible, action),
            Step::Support { side } => self.decide_support_window(*side, action),
            Step::Consolidate { unit, queue } => self.decide_consolidation(*unit, queue, action),
            Step::Open => match self.phase {
                Phase::Initiative => self.decide_initiative(action),
                Phase::Command if self.initiative_passing() => match self.decide_passing(action) {
                    Some(d) => d,
                    None => self.decide_command(action),
                },
                Phase::Command => self.decide_command(action),
                _ => refuse("BPT Sequence of Play", "no decision is due in this phase"),
            },
        }
    }

    fn decide_initiative(&self, action: &Action) -> Result<Decision, Refusal> {
        Ok(match action {
            Action::InitiativeFire { unit, target } => {
                let (_, near) = self.check_initiative(*unit)?;
                self.check_unit_id(*target)?;
                if !self.initiative_fire_targets(*unit, near).contains(target) {
                    return refuse(
                        "BPT Initiative Phase: Firing",
                        "on initiative a unit fires at the nearest visible enemy (artillery: or the nearest enemy artillery)",
                    );
                }
                let plan = self.check_fire(*unit, *target, FireContext::Initiative)?;
                Decision::InitiativeFire { unit: *unit, plan }
            }
            Action::Engineer { unit, linear } => Decision::Engineer {
                unit: *unit,
                linear: *linear,
                task: self.check_engineer(*unit, *linear)?,
            },
            Action::InitiativeEvade { unit } => {
                let (enemy, _) = self.check_initiative(*unit)?;
                self.check_evade(*unit)?;
                Decision::InitiativeEvade { unit: *unit, enemy }
            }
            Action::InitiativeDeploy { unit, deploy } => {
                self.check_initiative(*unit)?;
                self.check_deploy(*unit, *deploy, true)?;
                Decision::InitiativeDeploy {
                    unit: *unit,
                    deploy: *deploy,
                }
            }
            Action::DrawSabers { unit } => {
                self.check_draw_sabers(*unit)?;
                Decision::DrawSabers { unit: *unit }
            }
            Action::InitiativeCharge { unit, target } => {
                let (_, near) = self.check_initiative(*unit)?;
                self.check_unit_id(*target)?;
                if !self.is_nearest(*unit, *target, near) {
                    return refuse(
                        "BPT Initiative Phase: Charging",
                        "on initiative a unit charges the nearest visible enemy",
                    );
                }
                let plan = self.check_charge(*unit, *target)?;
                self.check_initiative_charge_test(*unit, *target)?;
                Decision::InitiativeCharge { plan }
            }
            Action::Support { unit, friend } => Decision::InitiativeSupport {
                unit: *unit,
                friend: *friend,
                pose: self.check_initiative_support(*unit, *friend)?,
            },
            Action::EndPhase => Decision::EndInitiative,
            other => {
                return refuse_with("BPT Initiative Phase", || {
                    format!("{} is not an initiative action", other.name())
                });
            }
        })
    }

    /// BPT's command phase actions.
    fn decide_command(&self, action: &Action) -> Result<Decision, Refusal> {
        Ok(match action {
            Action::Order {
                commander,
                units,
                charge,
                dense,
                road,
            } => {
                if *commander as usize >= self.commanders.len() {
                    return refuse("BPT Command Phase", "no such commander");
                }
                Decision::Order {
                    commander: *commander,
                    units: units.clone(),
                    plan: self.check_order_by(*commander, units, *charge, *dense, *road)?,
                    flags: OrderFlags {
                        charge: *charge,
                        dense: *dense,
                        road: *road,
                    },
                }
            }
            Action::SelfOrder { unit } => {
                self.check_self_order(*unit)?;
                Decision::SelfOrder { unit: *unit }
            }
            Action::Attach { unit, hq } => Decision::Attach {
                unit: *unit,
                hq: *hq,
                plan: self.check_attach(*unit, *hq)?,
            },
            Action::DrawSabers { unit } => {
                self.check_draw_sabers(*unit)?;
                Decision::DrawSabers { unit: *unit }
            }
            Action::Move { unit, to } => {
                self.check_unit_id(*unit)?;
                Decision::Move {
                    unit: *unit,
                    to: *to,
                    check: self.check_ordered_move(*unit, *to)?,
                }
            }
            Action::Deploy { unit, deploy } => {
                self.check_unit_id(*unit)?;
                self.not_on_road_order(*unit)?;
                self.check_deploy(*unit, *deploy, false)?;
                Decision::Deploy {
                    unit: *unit,
                    deploy: *deploy,
                }
            }
            Action::Fire { unit, target } => {
                self.check_unit_id(*unit)?;
                self.check_unit_id(*target)?;
                let manhandled = self.ordered_to_fire_after_manhandling(*unit);
                if !manhandled {
                    self.not_on_road_order(*unit)?;
                }
                Decision::Fire {
                    unit: *unit,
                    plan: self.check_fire(*unit, *target, FireContext::Order)?,
                    manhandled,
                }
            }
            Action::FireTogether { unit, target, with } => {
                let firers: Vec<UnitId> = std::iter::once(*unit).chain(with.iter().copied()).collect();
                let plans = self.check_fire_together(&firers, *target)?;
                Decision::FireTogether {
                    unit: *unit,
                    firers,
                    plans,
                }
            }
            Action::Charge { unit, target } => {
                self.check_unit_id(*unit)?;
                self.check_unit_id(*target)?;
                if !self.not_on_road_order(*unit)?.may_charge {
                    return refuse("BPT Command Modifiers note 4", "the order did not declare a charge");
                }
                Decision::Charge {
                    plan: self.check_charge(*unit, *target)?,
                }
            }
            Action::Support { unit, friend } => {
                self.check_unit_id(*unit)?;
                self.check_unit_id(*friend)?;
                self.not_on_road_order(*unit)?;
                Decision::Support {
                    unit: *unit,
                    friend: *friend,
                    pose: self.check_support(*unit, *friend)?,
                }
            }
            Action::CommanderMove { commander, to } => {
                self.check_commander_may_move(*commander)?;
                self.check_commander_move(*commander, *to)?;
                Decision::CommanderMove {
                    commander: *commander,
                    to: *to,
                }
            }
            Action::EndPhase => Decision::EndCommand,
            other => {
                return refuse_with("BPT Command Phase", || {
                    format!("{} is not a command phase action", other.name())
                });
            }
        })
    }

    /// The command phase's actions with initiative passing on; `None` leaves the action to
    /// BPT's.
    fn decide_passing(&self, action: &Action) -> Option<Result<Decision, Refusal>> {
        const RULE: &str = super::passing::RULE;
        Some(match action {
            Action::Order { .. } | Action::SelfOrder { .. } => refuse(
                RULE,
                "with initiative passing, units are activated one by one, not ordered",
            ),
            Action::Activate { unit, purpose, into } => {
                self.activation_plan(*unit, *purpose, *into)
                    .map(|plan| Decision::Activate {
                        unit: *unit,
                        purpose: *purpose,
                        into: *into,
                        plan,
                    })
            }
            Action::Rally { unit } => self.rally_plan(*unit).map(|plan| Decision::Rally { unit: *unit, plan }),
            Action::Fire { unit, target } => {
                self.check_passing_fire(*unit, *target)
                    .map(|plan| Decision::PassingFire {
                        unit: *unit,
                        target: *target,
                        plan,
                    })
            }
            Action::Charge { unit, target } => self.decide_passing_charge(*unit, *target, action),
            Action::Move { unit, .. } | Action::Deploy { unit, .. } | Action::Support { unit, .. } => {
                self.decide_passing_act(*unit, action)
            }
            _ => return None,
        })
    }

    /// Glory Days "Melee": a unit activated to charge declares the charge; the charge test
    /// comes when it is carried out.
    fn decide_passing_charge(&self, id: UnitId, enemy: UnitId, action: &Action) -> Result<Decision, Refusal> {
        self.check_unit_id(id)?;
        self.check_unit_id(enemy)?;
        self.check_purpose(id, action)?;
        match self.cmd.orders.get(&id) {
            Some(o) if o.credits > 0 && !o.finished && o.may_charge => {}
            _ => {
                return refuse_with(super::passing::RULE, || {
                    format!("{} was not activated to charge", self.unit(id).name)
                });
            }
        }
        let charge = self.check_charge(id, enemy)?;
        self.check_passing_charge_ground(&charge)?;
        self.charge_test_plan(id, enemy)?;
        // BPT's own check of a charge that the above has not made, should the test be passed:
        // not under a road order (the order, its action and its charge are checked above).
        self.not_on_road_order(id)?;
        Ok(Decision::PassingCharge { charge })
    }

    /// The activated unit's move, deploy or support: its purpose, then BPT's checks.
    fn decide_passing_act(&self, unit: UnitId, action: &Action) -> Result<Decision, Refusal> {
        self.check_unit_id(unit)?;
        self.check_purpose(unit, action)?;
        if let Action::Move { to, .. } = action
            && let Some(o) = self.cmd.orders.get(&unit)
        {
            let road = self.check_move(unit, *to, o.may_enter_dense)?.road;
            self.check_passing_move(unit, *to, road)?;
        }
        Ok(Decision::PassingAct {
            unit,
            bpt: Box::new(self.decide_command(action)?),
            // "If firer moved on this initiative": a move (or a move into support), not a
            // deploy (Decision: a change of formation, loading, pivoting is no move).
            moved: !matches!(action, Action::Deploy { .. }),
        })
    }

    /// Counter-initiative and response to a charge (BPT "Counter-Initiative", "Response").
    fn decide_counter(&self, action: &Action) -> Result<Decision, Refusal> {
        let Step::CounterInitiative {
            charger,
            target,
            eligible,
            ..
        } = &self.step
        else {
            unreachable!()
        };
        let (charger, target) = (*charger, *target);
        const ONCE: &str = "only units under charge or close to it may respond, once";
        Ok(match action {
            Action::Pass => Decision::CounterPass,
            Action::CounterFire { unit } => {
                self.check_unit_id(*unit)?;
                if !eligible.contains(unit) {
                    return refuse("BPT Counter-Initiative", ONCE);
                }
                Decision::CounterFire {
                    unit: *unit,
                    plan: self.check_fire(*unit, charger, FireContext::Counter)?,
                }
            }
            Action::CounterEvade { unit } => {
                if !eligible.contains(unit) {
                    return refuse("BPT Counter-Initiative", ONCE);
                }
                self.check_evade(*unit)?;
                if *unit != target && self.phase != Phase::Initiative {
                    return refuse(
                        "BPT Response",
                        "units near a charge in the command phase may fire at the charger, not evade",
                    );
                }
                Decision::CounterEvade { unit: *unit }
            }
            Action::CounterDeploy { unit, deploy } => {
                self.check_counter_deploy(*unit, *deploy)?;
                Decision::CounterDeploy {
                    unit: *unit,
                    deploy: *deploy,
                }
            }
            Action::CounterCharge { unit } => {
                let u = self.unit(*unit);
                if *unit != target || !eligible.contains(unit) || !(u.row.arm == Arm::Cavalry && u.mounted()) {
                    return refuse("BPT Counter-Charge", "only charged mounted cavalry counter-charge");
                }
                Decision::CounterCharge
            }
            other => {
                return refuse_with("BPT Counter-Initiative", || {
                    format!(
                        "waiting for the charged side's counter-initiative, not a {}",
                        other.name()
                    )
                });
            }
        })
    }

    /// The opportunity-fire window (BPT "Opportunity Fire").
    fn decide_reaction(&self, mover: UnitId, eligible: &[UnitId], action: &Action) -> Result<Decision, Refusal> {
        match action {
            Action::Pass => Ok(Decision::ReactionPass),
            Action::OpportunityFire { unit, target, with } => {
                let firers: Vec<UnitId> = std::iter::once(*unit).chain(with.iter().copied()).collect();
                for (i, &f) in firers.iter().enumerate() {
                    self.check_unit_id(f)?;
                    if *target != mover || !eligible.contains(&f) || firers[..i].contains(&f) {
                        return refuse(
                            "BPT Opportunity Fire",
                            "only units that have not yet fired may fire at the unit that moved or fired",
                        );
                    }
                    if firers.len() > 1 && self.uses_ammo(f) {
                        return refuse_with("BPT Opportunity Fire", || {
                            format!(
                                "{} fires its guns alone (Hardtack's shot, shell and canister)",
                                self.unit(f).name
                            )
                        });
                    }
                }
                let plans = firers
                    .iter()
                    .map(|&f| self.check_fire(f, *target, FireContext::Opportunity))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Decision::OpportunityFire { mover, firers, plans })
            }
            other => refuse_with("BPT Opportunity Fire", || {
                format!(
                    "waiting for the inactive player's opportunity fire, not a {}",
                    other.name()
                )
            }),
        }
    }

    /// Supports sent before the charges are fought (BPT "Support").
    fn decide_support_window(&self, side: SideId, action: &Action) -> Result<Decision, Refusal> {
        match action {
            Action::Support { unit, friend } => {
                self.check_unit_id(*unit)?;
                self.check_unit_id(*friend)?;
                if self.unit(*unit).side != side {
                    return refuse("BPT Support", "not this side's unit");
                }
                if !self.may_support_in_window(side, *unit) {
                    return refuse_with("BPT Support", || {
                        format!(
                            "{} supports one charge per order; it has no order's action left",
                            self.unit(*unit).name
                        )
                    });
                }
                Ok(Decision::WindowSupport {
                    side,
                    unit: *unit,
                    friend: *friend,
                    pose: self.check_support(*unit, *friend)?,
                })
            }
            Action::Pass => Ok(Decision::WindowPass { side }),
            other => refuse_with("BPT Support", || {
                format!("waiting for supports, not a {}", other.name())
            }),
        }
    }

    /// The consolidation window: the unit's choice (BPT "Consolidate").
    fn decide_consolidation(&self, unit: UnitId, queue: &[UnitId], action: &Action) -> Result<Decision, Refusal> {
        const RULE: &str = super::consolidate::RULE;
        let to = match action {
            Action::Pass => self.unit(unit).pose,
            Action::Consolidate { unit: u, to } => {
                self.check_unit_id(*u)?;
                if *u != unit {
                    return refuse_with(RULE, || {
                        format!("{} consolidates now, not {}", self.unit(unit).name, self.unit(*u).name)
                    });
                }
                self.check_consolidation(unit, *to)?
            }
            other => {
                return refuse_with(RULE, || {
                    format!(
                        "waiting for {} to consolidate, not a {}",
                        self.unit(unit).name,
                        other.name()
                    )
                });
            }
        };
        Ok(Decision::Consolidate {
            unit,
            queue: queue.to_vec(),
            to,
        })
    }
}
