//! The scheduler under initiative passing (Glory Days, switch `InitiativePassing`): its
//! command phase is a run of risky steps that stops at the first failure.

use super::Scheduler;
use super::evaluate::{self, Ctx, judge};
use crate::battle::fire::FireContext;
use crate::battle::{Action, Battle, Purpose};
use crate::rules::formation::Formation;

/// Where a step that goes through with chance `p` and is worth `v` belongs in a run that
/// stops at its first failure: steps in falling order of `p·v / (1 − p)` give the run its
/// greatest expected worth (a sure step, infinitely first).
pub fn run_index(p: f64, v: f64) -> f64 {
    if p >= 1.0 { f64::INFINITY } else { p * v / (1.0 - p) }
}

impl Scheduler {
    /// Initiative passing (Glory Days): the command phase is a run of risky steps, and the
    /// first that fails (an activation roll, fire that lands no hit, a rally) passes the
    /// initiative. The activated unit first does what it was activated for (its roll is made);
    /// then of the fire, activations and rallies worth doing, the one with the highest
    /// `p·v / (1 − p)` goes next (the order that gets most out of a run that stops at its first
    /// failure: likely and valuable steps first, long shots last). An activation is worth what
    /// the unit would do with it: its best action on a copy of the battle where it succeeded.
    pub(super) fn passing(&mut self, b: &Battle, legal: &[Action], ctx: &Ctx, end: Option<usize>) -> (usize, String) {
        // Actions in hand: the activated unit's (and a scout's free action, with `scouting`
        // on too); any unit may fire, so fire waits for its turn below.
        let in_hand =
            |a: &Action| !matches!(a, Action::Fire { .. }) && a.ordered_unit().is_some_and(|u| !self.is_held(b, u));
        if let Some(pick) = self.best(b, legal, ctx, in_hand, 0.05) {
            return pick;
        }
        let mut best: Option<(usize, f64, String)> = None;
        for (i, a) in legal.iter().enumerate() {
            let Some((p, v, why)) = self.passing_step(b, a, ctx) else {
                continue;
            };
            let index = run_index(p, v);
            if best.as_ref().is_none_or(|(_, s, _)| index > *s) {
                best = Some((i, index, why));
            }
        }
        if let Some((i, _, why)) = best {
            if let Some(Action::Activate { unit, .. }) = legal.get(i) {
                self.tried.insert(*unit);
            }
            return (i, why);
        }
        if let Some(pick) = self.commander_move(b, legal, ctx) {
            return pick;
        }
        (end.unwrap_or(0), "no step worth the risk: passes the initiative".into())
    }

    /// A risky step of initiative passing worth taking: its chance to go through, its worth
    /// and why; `None` when it is not worth taking at all.
    fn passing_step(&self, b: &Battle, a: &Action, ctx: &Ctx) -> Option<(f64, f64, String)> {
        match a {
            Action::Fire { unit, target } => {
                if self.is_held(b, *unit) {
                    return None;
                }
                let j = judge(b, a, ctx);
                let p = evaluate::hit_chance(b, *unit, *target, FireContext::Order)?;
                (j.score > 0.05).then(|| (p, j.score, format!("{} ({:.0}% to hit)", j.why, p * 100.0)))
            }
            Action::Rally { unit } => {
                let plan = b.rally_plan(*unit).ok()?;
                let markers = b.unit(*unit).d_markers;
                (markers >= 2 && plan.chance() >= 0.66).then(|| {
                    (
                        plan.chance(),
                        0.3 * f64::from(markers),
                        format!("{}: rally at {}+", b.unit(*unit).name, plan.target),
                    )
                })
            }
            Action::Activate { unit, purpose, into } => {
                let again = b.cmd.passing.activated == Some(*unit);
                if (self.tried.contains(unit) && !again) || !self.has_work(b, *unit, ctx) {
                    return None;
                }
                let plan = b.activation_plan(*unit, *purpose, *into).ok()?;
                if plan.chance() < 0.5 {
                    return None;
                }
                // A change of formation only for a gun to load (or unlimber) or a unit in
                // march column with an enemy known.
                if *purpose == Purpose::Formation {
                    let u = b.unit(*unit);
                    let near = |r: f64| ctx.enemies.iter().any(|&e| b.unit_distance(*unit, e) <= r);
                    let work = (u.is_artillery() && !u.limbered && u.loaded.is_none())
                        || (u.is_artillery() && u.limbered && near(b.weapon_range(u)))
                        || (u.formation == Formation::MarchColumn && near(40.0));
                    if !work {
                        return None;
                    }
                }
                // What it would do with it: its best action once activated (a move into
                // worse ground is the same or a harder roll, so a little less).
                let granted = b.with_activation_granted(*unit, *purpose, *into).ok()?;
                let then = granted.legal_actions();
                let gctx = Ctx::new(&granted, b.actor(), &then);
                let (v, what) = then
                    .iter()
                    .filter(|t| t.unit() == Some(*unit) && !matches!(t, Action::Fire { .. }))
                    .map(|t| judge(&granted, t, &gctx))
                    .filter(|j| j.score > 0.05)
                    .map(|j| (j.score - 0.01 * (*into as u8 as f64), j.why))
                    .max_by(|x, y| x.0.total_cmp(&y.0))?;
                let name = &b.unit(*unit).name;
                let what = what.strip_prefix(&format!("{name}: ")).unwrap_or(&what);
                Some((
                    plan.chance(),
                    v,
                    format!("{name}: activate at {}+ to {what}", plan.target),
                ))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expected worth of a run of steps `(p, v)` taken in this order, stopping at the first
    /// that fails (a failed step is worth nothing).
    fn run_worth(steps: &[(f64, f64)]) -> f64 {
        let mut reach = 1.0;
        let mut worth = 0.0;
        for &(p, v) in steps {
            reach *= p;
            worth += reach * v;
        }
        worth
    }

    fn permutations(steps: &[(f64, f64)]) -> Vec<Vec<(f64, f64)>> {
        if steps.len() <= 1 {
            return vec![steps.to_vec()];
        }
        let mut out = Vec::new();
        for i in 0..steps.len() {
            let mut rest = steps.to_vec();
            let first = rest.remove(i);
            for mut p in permutations(&rest) {
                p.insert(0, first);
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn a_run_is_worth_each_step_times_the_chance_of_reaching_and_passing_it() {
        // An activation at 3+ (2/3) to move, worth 1, then fire with 1 die at 4+ (1/2), worth 2:
        // 2/3·1 + 2/3·1/2·2 = 4/3.
        let w = run_worth(&[(2.0 / 3.0, 1.0), (0.5, 2.0)]);
        assert!((w - 4.0 / 3.0).abs() < 1e-12, "{w}");
        // The other way round: 1/2·2 + 1/2·2/3·1 = 4/3 too (equal indices: 2 and 2).
        assert!((run_worth(&[(0.5, 2.0), (2.0 / 3.0, 1.0)]) - 4.0 / 3.0).abs() < 1e-12);
        assert!((run_index(2.0 / 3.0, 1.0) - run_index(0.5, 2.0)).abs() < 1e-12);
    }

    #[test]
    fn ordering_by_the_index_gives_the_best_run_of_every_order() {
        let sets: [&[(f64, f64)]; 3] = [
            &[(0.9, 1.0), (0.5, 3.0), (2.0 / 3.0, 1.5)],
            &[(1.0 / 6.0, 5.0), (5.0 / 6.0, 0.4), (0.5, 1.0), (35.0 / 36.0, 0.2)],
            &[(1.0, 0.1), (0.3, 4.0), (0.75, 0.8)],
        ];
        for steps in sets {
            let mut sorted = steps.to_vec();
            sorted.sort_by(|a, b| run_index(b.0, b.1).total_cmp(&run_index(a.0, a.1)));
            let best = permutations(steps)
                .iter()
                .map(|p| run_worth(p))
                .fold(f64::MIN, f64::max);
            assert!((run_worth(&sorted) - best).abs() < 1e-12, "{steps:?}");
        }
        // And a long shot first is worse: fire at 1/6 before a sure activation.
        assert!(run_worth(&[(1.0 / 6.0, 2.0), (5.0 / 6.0, 1.0)]) < run_worth(&[(5.0 / 6.0, 1.0), (1.0 / 6.0, 2.0)]));
    }
}
