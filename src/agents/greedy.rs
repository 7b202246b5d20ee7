//! The `greedy` baseline (the scheduler is measured against it): advance on the nearest enemy,
//! fire at the nearest target, charge when adjacent. It issues every commander's order to all
//! its units at once, loads guns with shot, and never reasons about odds.

use super::agent::Agent;
use super::perception::known_enemies;
use crate::battle::action::Deploy;
use crate::battle::state::Phase;
use crate::battle::{Action, Battle};
use crate::data::scenario::Ammo;

/// "Adjacent": a charge is declared only at this edge-to-edge distance or less, cm.
const ADJACENT: f64 = 5.0;

#[derive(Default)]
pub struct GreedyAgent {
    reason: Option<String>,
}

impl GreedyAgent {
    pub fn new() -> Self {
        Self::default()
    }

    fn pick(&self, b: &Battle, legal: &[Action]) -> (usize, String) {
        let find = |f: &dyn Fn(&Action) -> bool| legal.iter().position(f);
        let dist = |a: u32, t: u32| b.unit_distance(a, t);
        // Windows first: counter-fire, opportunity fire and support whenever offered.
        if let Some(i) = find(&|a| matches!(a, Action::CounterFire { .. })) {
            return (i, "fires at the charger".into());
        }
        if let Some(i) = find(&|a| matches!(a, Action::OpportunityFire { .. } | Action::Support { .. })) {
            return (i, "takes the shot / supports".into());
        }
        // A consolidation: straight ahead, as far as it goes (the first offered that keeps facing).
        if let Some(i) = find(&|a| match a {
            Action::Consolidate { unit, to } => {
                crate::rules::geometry::wrap_angle(to.facing - b.unit(*unit).pose.facing).abs() < 1e-9
            }
            _ => false,
        }) {
            return (i, "consolidates straight ahead".into());
        }
        if let Some(i) = find(&|a| matches!(a, Action::Pass)) {
            return (i, "passes".into());
        }
        match b.phase {
            Phase::Initiative => {
                if let Some(i) = find(
                    &|a| matches!(a, Action::InitiativeCharge { unit, target } if dist(*unit, *target) <= ADJACENT),
                ) {
                    return (i, "charges the adjacent enemy".into());
                }
                if let Some(i) = find(&|a| matches!(a, Action::InitiativeFire { .. })) {
                    return (i, "fires at the nearest enemy".into());
                }
            }
            Phase::Command => {
                // Units with orders in hand: charge adjacent, fire at the nearest, load, advance.
                if let Some(i) =
                    find(&|a| matches!(a, Action::Charge { unit, target } if dist(*unit, *target) <= ADJACENT))
                {
                    return (i, "charges the adjacent enemy".into());
                }
                let fires: Vec<usize> = (0..legal.len())
                    .filter(|&i| matches!(legal[i], Action::Fire { .. }))
                    .collect();
                if let Some(&i) = fires.iter().min_by(|&&x, &&y| {
                    let d = |a: &Action| match a {
                        Action::Fire { unit, target } => dist(*unit, *target),
                        _ => f64::INFINITY,
                    };
                    d(&legal[x]).total_cmp(&d(&legal[y])).then(x.cmp(&y))
                }) {
                    return (i, "fires at the nearest enemy".into());
                }
                if let Some(i) = find(&|a| {
                    matches!(
                        a,
                        Action::Deploy {
                            deploy: Deploy::Load(Ammo::Shot),
                            ..
                        }
                    )
                }) {
                    return (i, "loads shot".into());
                }
                if let Some(i) = find(&|a| {
                    matches!(
                        a,
                        Action::Deploy {
                            deploy: Deploy::Unlimber,
                            ..
                        }
                    )
                }) {
                    return (i, "unlimbers".into());
                }
                if let Some((i, _)) = self.best_advance(b, legal) {
                    return (i, "advances on the nearest enemy".into());
                }
                // New orders: each commander to all its units (the largest order offered).
                let order = (0..legal.len())
                    .filter_map(|i| match &legal[i] {
                        Action::Order {
                            units, charge: false, ..
                        } => Some((i, units.len())),
                        _ => None,
                    })
                    .max_by(|x, y| x.1.cmp(&y.1).then(y.0.cmp(&x.0)));
                if let Some((i, _)) = order {
                    return (i, "orders its brigade forward".into());
                }
            }
            _ => {}
        }
        let i = find(&|a| matches!(a, Action::EndPhase)).unwrap_or(0);
        (i, "ends the phase".into())
    }

    /// The move that brings an ordered unit nearest its nearest known enemy.
    fn best_advance(&self, b: &Battle, legal: &[Action]) -> Option<(usize, f64)> {
        let side = b.actor();
        let enemies = known_enemies(b, side);
        let mut best: Option<(usize, f64)> = None;
        for (i, a) in legal.iter().enumerate() {
            let Action::Move { unit, to } = a else { continue };
            let here = b.unit(*unit).pose.pos;
            let Some(goal) = enemies
                .iter()
                .map(|&e| b.unit(e).pose.pos)
                .min_by(|p, q| p.dist(here).total_cmp(&q.dist(here)))
            else {
                continue;
            };
            let gain = here.dist(goal) - to.pos.dist(goal);
            if gain > 0.5 && best.is_none_or(|(_, g)| gain > g) {
                best = Some((i, gain));
            }
        }
        best
    }
}

impl Agent for GreedyAgent {
    fn choose(&mut self, battle: &Battle, legal: &[Action]) -> usize {
        // Its judge asks only whether actions are allowed: refusals go unworded.
        let (i, why) = crate::battle::action::quietly(|| self.pick(battle, legal));
        self.reason = Some(why);
        i
    }
    fn name(&self) -> &'static str {
        "greedy"
    }
    fn reason(&self) -> Option<String> {
        self.reason.clone()
    }
}
