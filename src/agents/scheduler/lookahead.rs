//! The look-ahead scheduler (`scheduler`, `scheduler-hard`): the one-step judge
//! ([`super::Scheduler`], `scheduler-easy`) with a search over the rest of the player turn.
//!
//! Where a unit's choice is contested (a known enemy within reach of a fight) or a window is
//! open (counter-initiative, opportunity fire, support), it lists a few options: the one-step
//! judge's choice, the unit's next best actions by the same judge, and holding (doing nothing
//! more this phase: held in the initiative phase it may still be ordered; passing in a
//! window). A unit the judge would leave idle with an order's actions in hand (none worth
//! its floor) while an enemy is within reach is searched too, holding it first
//! (`idle_options`): the judge's caution kept units from contesting a held objective turn
//! after turn. Under initiative passing, a pass of the judge's is searched against advancing
//! (`advance_options`): activating a contested unit and, if its roll succeeds, the move that
//! closes most on its goal. Each option is played out on copies of the battle through the enemy's next
//! player turn to the side's own next command phase ([`Budget::turns`]), so its own later
//! orders and the enemy's answers (opportunity fire, counter-charges, the enemy's initiative
//! phase, and the enemy's own orders, fire and charges) are in it, with the one-step judge
//! playing both sides (`scheduler` plays on through its own next turn and the enemy's answer,
//! four player turns; `scheduler-hard` one more of each, six, but four on a planned battle).
//! The option worth most on average ([`super::value`]) is taken, if the play-outs show it
//! better than the judge's choice beyond their luck ([`surely_best`]); else the judge's
//! choice stands.
//!
//! **Determinized, never cheating.** The copies roll the agent's own stream, seeded from the
//! game seed, never the game's dice (each copy gets fresh dice, the same for every option:
//! common random numbers). Enemy units the side does not know of
//! ([`crate::agents::perception::known_enemies`]) are taken off the copies before anything
//! is played, so what it cannot see cannot change what it chooses. The budget is counted in
//! simulations, not time, so a game replays identically.

use super::Scheduler;
use super::evaluate::{Ctx, judge};
use super::planner::{self, planned};
use super::value::{WEIGHTS, value};
use crate::agents::agent::Agent;
use crate::agents::perception::{determinized, known_enemies};
use crate::battle::state::{Phase, SideId, UnitId};
use crate::battle::{Action, Battle, Purpose};
use crate::rules::dice::Dice;
use crate::rules::geometry::V2;

/// How much a level searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Play-outs per decision, shared out among its options.
    pub sims: u32,
    /// Options per decision, holding included.
    pub width: usize,
    /// Actions a play-out may run before it is judged where it stands.
    pub horizon: u32,
    /// Player turns a play-out runs: it stops at the command phase this many player turns on.
    /// 1 stops at the enemy's command phase (its initiative phase played, its orders and
    /// charges not); 2 plays the enemy's whole turn and stops at the side's own next command
    /// phase, so the charges its choice invites are in the play-out; 4 (`scheduler`) plays the
    /// side's next turn and the enemy's answer to it as well; 6 (`scheduler-hard`) one more of
    /// each. At most [`PLANNED_TURNS`] on a planned battle.
    pub turns: u32,
    /// The work all the play-outs of one choice may do together, about, counted in actions
    /// weighed: at every step of a play-out, every legal action the judge looks at. A search
    /// plays round after round (every option on one seed) and stops early, after two rounds at
    /// least, when another round would pass this; a play-out is cut at its share of two
    /// rounds; a choice that holds a unit and searches again shares it, and once it is spent
    /// the rest of the choice is the judge's. A battle of more than [`FULL_WORK_STANDS`]
    /// stands gets less in proportion ([`Lookahead::work`]). Big battles reach it (Gettysburg:
    /// it keeps a choice near a second there), and so do `scheduler`'s four-turn play-outs
    /// over twelve options on the skirmish; *First Battle* seldom does. Counted in actions,
    /// not time, so a game still replays identically.
    pub weighed: u64,
    /// How sure a search must be to take an option over the one-step judge's choice: its
    /// mean gain over that choice, play-out by play-out on the same dice, must exceed this
    /// many standard errors. A few play-outs of a dice game are noisy, and the best of several
    /// noisy means is usually luck; the judge's choice stands unless the search shows better.
    pub sure: f64,
    /// A known enemy within this much more than a unit's weapon range and a charge makes its
    /// choice contested (searched), cm.
    pub margin: f64,
    /// Whether the play-outs are spent by sequential halving: in stages, each with an even
    /// part of [`Budget::sims`], after each of which the worse half of the options is dropped
    /// (the one-step choice is always kept, as what the others are measured against), so the
    /// last few options get most of the play-outs. Off, every option gets the same share.
    pub halving: bool,
    /// On a planned battle ([`super::planner`]): play-outs of each candidate plan.
    pub plan_seeds: u32,
    /// On a planned battle: player turns a candidate plan is played out for.
    pub plan_turns: u32,
}

impl Budget {
    /// This budget with some of its numbers set from `spec`, `key=value` pairs joined by
    /// commas: `sims`, `width`, `turns`, `work` ([`Budget::weighed`]), `sure`, `margin`,
    /// `halving` (0 or 1), `plan_seeds` and `plan_turns`. For trials of a level's budget from
    /// the command line (`--agent scheduler:sims=96,width=12`); a game played with one still
    /// replays identically (the budget is counted, not timed).
    ///
    /// Every number is bounded ([`Budget::MOST`]): a budget past them would make a choice take
    /// hours or overflow, so it is refused with the bound, wherever the name comes from (the
    /// command line, or a save's `players` through [`crate::agents::check_name`]).
    pub fn with(self, spec: &str) -> Result<Budget, String> {
        let mut b = self;
        let most = Budget::MOST;
        for pair in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("'{pair}' is not key=value"))?;
            let key = key.trim();
            let whole = |least: u64, most: u64| -> Result<u64, String> {
                match value.trim().parse::<u64>() {
                    Ok(n) if (least..=most).contains(&n) => Ok(n),
                    _ => Err(format!(
                        "{key} wants a whole number from {least} to {most}, not '{value}'"
                    )),
                }
            };
            match key {
                "sims" => b.sims = whole(1, most.sims.into())? as u32,
                "width" => b.width = whole(2, most.width as u64)? as usize,
                "turns" => b.turns = whole(1, most.turns.into())? as u32,
                "work" => b.weighed = whole(1, most.weighed)?,
                "margin" => b.margin = whole(0, most.margin as u64)? as f64,
                "plan_seeds" => b.plan_seeds = whole(1, most.plan_seeds.into())? as u32,
                "plan_turns" => b.plan_turns = whole(1, most.plan_turns.into())? as u32,
                "halving" => {
                    b.halving = match value.trim() {
                        "0" => false,
                        "1" => true,
                        _ => return Err(format!("halving wants 0 or 1, not '{value}'")),
                    }
                }
                "sure" => {
                    b.sure = value
                        .trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite() && (0.0..=most.sure).contains(x))
                        .ok_or_else(|| {
                            format!(
                                "sure wants a number of standard errors from 0 to {}, not '{value}'",
                                most.sure
                            )
                        })?
                }
                other => {
                    return Err(format!(
                        "unknown budget key '{other}' (known: sims, width, turns, work, sure, margin, halving, plan_seeds, plan_turns)"
                    ));
                }
            }
        }
        Ok(b)
    }
}

impl Budget {
    /// The most a budget may ask for, key by key ([`Budget::with`]): about a hundred times
    /// `scheduler`'s play-outs and work (25 times `scheduler-hard`'s), far wider and longer
    /// play-outs than either, a margin past any table. Enough for any trial; a choice at
    /// these takes a minute or so on the skirmish, where a budget of `u32::MAX` play-outs
    /// would never end.
    pub const MOST: Budget = Budget {
        sims: 10_000,
        width: 64,
        horizon: 200,
        turns: 24,
        weighed: 4_000_000,
        sure: 10.0,
        margin: 500.0,
        halving: true,
        plan_seeds: 16,
        plan_turns: 12,
    };
}

/// `scheduler`: 96 play-outs over up to 12 options (the judge's choice, the unit's next ten by
/// the judge, and holding), play-outs of four player turns (through the enemy's reply, the
/// side's next turn and the enemy's answer to it). The width is what pays
/// (docs/scheduler-history.md, 2026-12-01 and 02); it was 24 play-outs over 4 options of two
/// player turns until 2026-12-02.
pub const NORMAL: Budget = Budget {
    sims: 96,
    width: 12,
    horizon: 200,
    turns: 4,
    weighed: 40_000,
    sure: 1.0,
    margin: 10.0,
    halving: false,
    plan_seeds: planner::PLAN_SEEDS as u32,
    plan_turns: planner::PLAN_TURNS,
};

/// `scheduler-hard`: four times `scheduler`'s play-outs over 16 options, four times its work,
/// play-outs of six player turns (four until 2026-12-02, when it was not measurably stronger
/// than `scheduler`: docs/scheduler-history.md). On a planned battle it searches as
/// `scheduler` does there, four options of four player turns ([`PLANNED_WIDTH`]), with four
/// times the work: more play-outs of each.
pub const HARD: Budget = Budget {
    sims: 384,
    width: 16,
    horizon: 200,
    turns: 6,
    weighed: 160_000,
    sure: 1.0,
    margin: 10.0,
    halving: false,
    plan_seeds: planner::PLAN_SEEDS as u32,
    plan_turns: planner::PLAN_TURNS,
};

/// A battle of up to this many stands at the start (both sides) gets a level's whole budget
/// of work and options a choice; a bigger one less in proportion ([`Lookahead::work`],
/// [`Lookahead::width`]).
pub const FULL_WORK_STANDS: u64 = 120;

/// On a planned battle ([`planner::PLAN_STANDS`]), the most options a search weighs and the
/// most player turns a play-out runs, at any level. `scheduler-hard`'s six-turn play-outs over
/// six options there got two rounds a search, as `scheduler`'s four over four do, and it was
/// not stronger (42% of 74001–74040); four over four with its four times the work play four or
/// more rounds, and the plan steers the turns after (docs/scheduler-history.md, session 90).
pub const PLANNED_WIDTH: usize = 4;
/// See [`PLANNED_WIDTH`].
pub const PLANNED_TURNS: u32 = 4;

/// `n` on a battle of up to [`FULL_WORK_STANDS`] stands at the start (both sides), less in
/// proportion on a bigger one.
fn in_proportion(b: &Battle, n: u64) -> u64 {
    let stands = u64::from(b.stands_at_start());
    if stands <= FULL_WORK_STANDS {
        n
    } else {
        n * FULL_WORK_STANDS / stands
    }
}

/// One option of a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The legal action at this index.
    Act(usize),
    /// The unit does nothing more this player turn.
    Hold(UnitId),
    /// Under initiative passing: the activation at this index, then, if the roll succeeds,
    /// the move it was for ([`Lookahead::advances`], by its place there).
    Advance(usize),
}

/// What one search found (for the log and tests).
#[derive(Clone, Debug)]
pub struct Searched {
    /// Options with their mean worth against the position before (stands), in the order
    /// they were listed (the one-step choice first).
    pub options: Vec<(Choice, f64)>,
    /// Play-outs run.
    pub sims: u32,
    pub chosen: Choice,
}

#[derive(Clone)]
pub struct Lookahead {
    policy: Scheduler,
    budget: Budget,
    stream: Dice,
    name: &'static str,
    reason: Option<String>,
    last: Option<Searched>,
    /// Actions weighed in play-outs for the choice being made ([`Budget::weighed`]).
    spent: u64,
    /// The advances of the decision being searched ([`Choice::Advance`]): the activation's
    /// index and the move to make once it succeeds.
    advances: Vec<(usize, Action)>,
    /// The move an advance taken was for: made at the next decision if it is legal then.
    follow: Option<Action>,
}

impl Lookahead {
    pub fn new(seed: u64, budget: Budget, name: &'static str) -> Self {
        Lookahead {
            policy: Scheduler::new(seed).planning(seed, budget.plan_seeds as usize, budget.plan_turns),
            budget,
            // Apart from the card stream, so dealing is the same as `scheduler-easy`'s.
            stream: Dice::new(seed ^ 0x5851_f42d_4c95_7f2d),
            name,
            reason: None,
            last: None,
            spent: 0,
            advances: Vec::new(),
            follow: None,
        }
    }

    /// The last search this agent ran, if its last decision was searched.
    pub fn last_search(&self) -> Option<&Searched> {
        self.last.as_ref()
    }

    /// The budget of work of a choice on `b` ([`Budget::weighed`]), [`in_proportion`] to the
    /// battle: an action weighed costs more on a big one (the judge looks at more units for
    /// each). Every small bundled scenario has 70 stands or fewer and gets it all;
    /// Gettysburg's 300 get two fifths.
    fn work(&self, b: &Battle) -> u64 {
        in_proportion(b, self.budget.weighed)
    }

    /// The options a decision on `b` may have ([`Budget::width`]), [`in_proportion`] to the
    /// battle, never under 4 (nor over the level's). A search plays two rounds of every option
    /// at least, so on Gettysburg twelve options took up to 1.16 s a choice even with two
    /// fifths of the work; it gets 4 (its slowest choice was still 1.19 s once: the search's
    /// budget is not all of a slow choice, docs/scheduler-history.md 2026-12-02).
    ///
    /// On a planned battle at most [`PLANNED_WIDTH`] at any level: `scheduler-hard`'s work
    /// there buys more play-outs of each option, not more options.
    fn width(&self, b: &Battle) -> usize {
        let w = in_proportion(b, self.budget.width as u64) as usize;
        let w = w.max(4).min(self.budget.width);
        if planned(b) { w.min(PLANNED_WIDTH) } else { w }
    }

    /// The player turns a play-out runs on `b` ([`Budget::turns`]): on a planned battle at
    /// most [`PLANNED_TURNS`].
    fn turns(&self, b: &Battle) -> u32 {
        if planned(b) {
            self.budget.turns.min(PLANNED_TURNS)
        } else {
            self.budget.turns
        }
    }

    /// Whether the decision whose one-step choice is `pick` is worth searching (and the
    /// choice's budget is not spent): a window, or a unit's action (not a self-order,
    /// attachment, activation or rally) that is contested.
    fn searchable(&self, b: &Battle, legal: &[Action], pick: usize) -> bool {
        if self.spent >= self.work(b) {
            return false;
        }
        // A consolidation is the judge's rule (cover kept, else straight ahead), not searched.
        if matches!(b.step, crate::battle::state::Step::Consolidate { .. }) {
            return false;
        }
        if legal.iter().any(|a| matches!(a, Action::Pass)) {
            return true;
        }
        let Some(u) = legal[pick].unit() else { return false };
        if matches!(
            legal[pick],
            Action::SelfOrder { .. } | Action::Attach { .. } | Action::Activate { .. } | Action::Rally { .. }
        ) {
            return false;
        }
        self.contested(b, u)
    }

    /// The options of a searchable decision whose one-step choice is `pick`, or None when
    /// there is only that one.
    fn options(&self, b: &Battle, legal: &[Action], pick: usize, ctx: &Ctx) -> Option<Vec<Choice>> {
        let window = legal.iter().position(|a| matches!(a, Action::Pass));
        let unit = legal[pick].unit();
        let same = |a: &Action| match window {
            Some(_) => !matches!(a, Action::Pass),
            None => a.unit().is_some() && a.unit() == unit,
        };
        let mut scored: Vec<(usize, f64)> = legal
            .iter()
            .enumerate()
            .filter(|&(i, a)| i != pick && same(a))
            .map(|(i, a)| (i, judge(b, a, ctx).score))
            .filter(|(_, s)| s.is_finite())
            .collect();
        scored.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
        let mut out = vec![Choice::Act(pick)];
        let rest = self.width(b).saturating_sub(2);
        out.extend(scored.iter().take(rest).map(|&(i, _)| Choice::Act(i)));
        match (window, unit) {
            (Some(p), _) if p != pick => out.push(Choice::Act(p)),
            (None, Some(u)) => out.push(Choice::Hold(u)),
            _ => {}
        }
        (out.len() > 1).then_some(out)
    }

    /// A unit the one-step judge is about to leave idle although it is contested: in the
    /// command phase, when no unit with an order's actions in hand has one the judge thinks
    /// worth taking (it would mark them all idle), the first such unit with a known enemy
    /// within reach, with its options: holding it (the judge's choice, first) and its best
    /// actions by the judge. `probe` is the judge after its pick on this decision (a copy of
    /// the policy): it marked those units idle exactly when none had an action worth its
    /// floor, so the actions are not judged twice.
    fn idle_options(&self, b: &Battle, legal: &[Action], probe: &Scheduler) -> Option<(Vec<Choice>, Ctx)> {
        if self.spent >= self.work(b)
            || b.phase != crate::battle::state::Phase::Command
            || b.initiative_passing()
            || legal.iter().any(|a| matches!(a, Action::Pass))
        {
            return None;
        }
        let p = &self.policy;
        let fresh = p.dealt != Some(b.player_turn);
        let mut units: Vec<UnitId> = Vec::new();
        for u in legal.iter().filter_map(Action::ordered_unit) {
            if (fresh || !p.idle.contains(&u)) && !p.is_held(b, u) && !units.contains(&u) {
                units.push(u);
            }
        }
        // The judge marks every such unit idle at once, or none (it took an action).
        if !units.first().is_some_and(|u| probe.idle.contains(u)) {
            return None;
        }
        let unit = units.into_iter().find(|&u| self.contested(b, u))?;
        let ctx = self.policy.ctx(b, legal);
        let mut scored: Vec<(usize, f64)> = legal
            .iter()
            .enumerate()
            .filter(|(_, a)| a.ordered_unit() == Some(unit))
            .map(|(i, a)| (i, judge(b, a, &ctx).score))
            .filter(|(_, s)| s.is_finite())
            .collect();
        scored.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
        let mut out = vec![Choice::Hold(unit)];
        out.extend(
            scored
                .iter()
                .take(self.width(b).saturating_sub(1))
                .map(|&(i, _)| Choice::Act(i)),
        );
        (out.len() > 1).then_some((out, ctx))
    }

    /// Under initiative passing, when the one-step judge would pass the initiative (no step
    /// worth its risk) while a unit of the side could be activated to move and is contested:
    /// passing (the judge's choice, first) against activating such a unit and, if its roll
    /// succeeds, making the move that closes most on its goal. The judge prices every move at
    /// the fire it walks into, and its activations want a move worth more than nothing: in
    /// the initiative demo (seed 4017) the Confederates passed at once five turns running,
    /// 16 cm from the farm the Union held, and lost at the turn limit. The options, the
    /// advances ([`Choice::Advance`]: up to `width - 1` units, nearest an enemy first) and the
    /// judge's context.
    fn advance_options(&self, b: &Battle, legal: &[Action], pick: usize) -> Option<Advances> {
        if self.spent >= self.work(b)
            || !b.initiative_passing()
            || b.phase != Phase::Command
            || !matches!(legal[pick], Action::EndPhase)
        {
            return None;
        }
        let side = b.actor();
        let known = known_enemies(b, side);
        // (distance to the nearest known enemy, the activation's index, the unit)
        let mut units: Vec<(f64, usize, UnitId)> = Vec::new();
        for (i, a) in legal.iter().enumerate() {
            let Action::Activate {
                unit,
                purpose: Purpose::Move,
                ..
            } = a
            else {
                continue;
            };
            if units.iter().any(|x| x.2 == *unit) || !self.contested(b, *unit) {
                continue;
            }
            let near = known
                .iter()
                .map(|&e| b.unit_distance(*unit, e))
                .fold(f64::INFINITY, f64::min);
            units.push((near, i, *unit));
        }
        units.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.2.cmp(&y.2)));
        let mut advances: Vec<(usize, Action)> = Vec::new();
        for (_, i, unit) in units {
            if advances.len() + 1 >= self.width(b) {
                break;
            }
            if let Some(then) = closing_move(b, &legal[i], unit) {
                advances.push((i, then));
            }
        }
        if advances.is_empty() {
            return None;
        }
        let mut options = vec![Choice::Act(pick)];
        options.extend((0..advances.len()).map(Choice::Advance));
        Some((options, advances, self.policy.ctx(b, legal)))
    }

    /// A known enemy is within `u`'s weapon range or the charge distance, and
    /// [`Budget::margin`].
    fn contested(&self, b: &Battle, u: UnitId) -> bool {
        let reach = b.weapon_range(b.unit(u)).max(b.rules.charge.distance) + self.budget.margin;
        known_enemies(b, b.actor())
            .into_iter()
            .any(|e| b.unit_distance(u, e) <= reach)
    }

    /// Search `options` and take the chosen: an action's index (its line the reason), or
    /// None once a held unit is held (its line kept in `held`, for the reason to come).
    fn take(
        &mut self,
        b: &Battle,
        legal: &[Action],
        options: &[Choice],
        ctx: &Ctx,
        held: &mut String,
    ) -> Option<usize> {
        let found = self.search(b, legal, options, &ctx.enemies);
        let worth = |c: Choice| found.options.iter().find(|o| o.0 == c).map_or(0.0, |o| o.1);
        let chosen = found.chosen;
        let runner_up = found
            .options
            .iter()
            .filter(|o| o.0 != chosen)
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map(|o| o.0);
        let mut line = format!(
            "{}; looked ahead {} games: {:+.1} stands",
            self.label(b, legal, chosen, ctx),
            found.sims,
            worth(chosen)
        );
        if let Some(r) = runner_up {
            line += &format!(" against {:+.1} for {}", worth(r), self.label(b, legal, r, ctx));
            if worth(r) > worth(chosen) {
                line += " (closer than the luck of so few games can tell apart)";
            }
        }
        self.last = Some(found);
        match chosen {
            Choice::Act(i) => {
                self.reason = Some(format!("{held}{line}"));
                Some(i)
            }
            Choice::Advance(k) => {
                self.reason = Some(format!("{held}{line}"));
                let (i, then) = self.advances[k].clone();
                self.follow = Some(then);
                Some(i)
            }
            // Held: the one-step judge chooses again without that unit.
            Choice::Hold(u) => {
                *held += &format!("{line}; then ");
                self.policy.hold(b, u);
                None
            }
        }
    }

    /// Play every option out `sims / options` times and return their mean worth; with
    /// [`Budget::halving`], in [`halving_stages`] stages of an even part of `sims` each, the
    /// worse half of the options dropped after each ([`halved`]), so the last two (the one-step
    /// choice and the best of the rest) get most of the play-outs, and only the options left
    /// at the end may be taken. `known`: the enemies the side knows of (the judge's context
    /// has them).
    fn search(&mut self, b: &Battle, legal: &[Action], options: &[Choice], known: &[UnitId]) -> Searched {
        let side = b.actor();
        let base = determinized(b, side, known);
        let before = value(&base, side, known, &WEIGHTS);
        let stages = if self.budget.halving {
            halving_stages(options.len())
        } else {
            1
        };
        // Each option's worth in each round it was played.
        let mut rows: Vec<Vec<f64>> = vec![Vec::new(); options.len()];
        let mut alive: Vec<usize> = (0..options.len()).collect();
        // Two rounds of every option fit the budget: a play-out is cut at its share of it.
        let work = self.work(b);
        let share = work / (2 * options.len() as u64).max(1);
        let (mut played, mut plays, mut used) = (0usize, 0u64, 0u64);
        'stages: for stage in 0..stages {
            if stage > 0 {
                alive = halved(&alive, &rows);
            }
            let rounds = (self.budget.sims as usize / (stages * alive.len())).max(1);
            for _ in 0..rounds {
                // Common random numbers: every option left is played on the same seed in a round.
                let seed = draw_seed(&mut self.stream);
                for &k in &alive {
                    let (end, weighed) = self.play_out(&base, legal, (options[k], share), seed, side);
                    used += weighed;
                    plays += 1;
                    rows[k].push(value(&end, side, known, &WEIGHTS) - before);
                }
                played += 1;
                // The next round's work, at the mean of a play-out so far.
                let next = used * alive.len() as u64 / plays;
                if played >= 2 && self.spent + used + next > work {
                    break 'stages;
                }
            }
        }
        self.spent += used;
        let out: Vec<(Choice, f64)> = options.iter().zip(&rows).map(|(&c, r)| (c, mean(r))).collect();
        let left: Vec<Vec<f64>> = alive.iter().map(|&k| rows[k].clone()).collect();
        let chosen = options[alive[surely_best(&left, self.budget.sure)]];
        Searched {
            options: out,
            sims: plays as u32,
            chosen,
        }
    }

    /// One play-out of `choice` from `base` on dice `seed`, to the command phase
    /// [`Budget::turns`] player turns on (or the horizon, or `share` actions weighed, or the end
    /// of the game): the battle there and the actions weighed.
    fn play_out(
        &self,
        base: &Battle,
        legal: &[Action],
        (choice, share): (Choice, u64),
        seed: u64,
        side: SideId,
    ) -> (Battle, u64) {
        let mut b = base.clone();
        b.set_dice(Dice::new(seed));
        let mut players = [self.policy.frozen(), self.policy.frozen()];
        players[1 - side] = Scheduler::new(seed.rotate_left(17));
        match choice {
            Choice::Act(i) => {
                if b.step(&legal[i]).is_err() {
                    return (b, 1);
                }
            }
            Choice::Hold(u) => players[side].hold(&b, u),
            Choice::Advance(k) => {
                let (i, then) = &self.advances[k];
                if b.step(&legal[*i]).is_err() {
                    return (b, 1);
                }
                // The roll failed: the initiative has passed, and the move is not legal.
                if b.legal_actions().contains(then) && b.step(then).is_err() {
                    return (b, 2);
                }
            }
        }
        let turn = base.player_turn;
        let turns = self.turns(base);
        let mut run = 1;
        for _ in 0..self.budget.horizon {
            if run >= share
                || b.is_over()
                || (b.player_turn >= turn + turns && b.phase == crate::battle::state::Phase::Command)
            {
                break;
            }
            let legal = b.legal_actions();
            if legal.is_empty() {
                break;
            }
            let actor = b.actor();
            let (i, _) = players[actor].pick(&b, &legal);
            run += legal.len() as u64;
            if b.step(&legal[i.min(legal.len() - 1)]).is_err() {
                break;
            }
        }
        (b, run)
    }

    fn label(&self, b: &Battle, legal: &[Action], choice: Choice, ctx: &Ctx) -> String {
        match choice {
            Choice::Advance(k) => {
                let (i, then) = &self.advances[k];
                let Action::Activate { unit, purpose, into } = legal[*i] else {
                    return legal[*i].name().to_string();
                };
                let need = b
                    .activation_plan(unit, purpose, into)
                    .map_or(String::new(), |p| format!(" at {}+", p.target));
                let name = &b.unit(unit).name;
                let why = judge(b, then, ctx).why;
                let what = why.strip_prefix(&format!("{name}: ")).unwrap_or(&why);
                format!("activating {name}{need} to {what}")
            }
            Choice::Hold(u) => format!("holding {}", b.unit(u).name),
            Choice::Act(i) if matches!(legal[i], Action::Pass) => "letting it pass".into(),
            Choice::Act(i) if matches!(legal[i], Action::EndPhase) && b.initiative_passing() => {
                "passing the initiative".into()
            }
            Choice::Act(i) => {
                let why = judge(b, &legal[i], ctx).why;
                if why.is_empty() {
                    legal[i].name().to_string()
                } else {
                    why
                }
            }
        }
    }
}

/// A searched advance: the options (passing first), the advances and the judge's context.
type Advances = (Vec<Choice>, Vec<(usize, Action)>, Ctx);

/// The move `unit` would make once `activate` (its activation to move) succeeded: of its moves
/// then, the one that ends nearest the distance it wants from its goal (the judge's
/// [`Ctx::aim`]: its objective, else the nearest known enemy a bit inside its range), if one
/// closes by more than 1 cm.
fn closing_move(b: &Battle, activate: &Action, unit: UnitId) -> Option<Action> {
    let Action::Activate { purpose, into, .. } = *activate else {
        return None;
    };
    let granted = b.with_activation_granted(unit, purpose, into).ok()?;
    let then = granted.legal_actions();
    let ctx = Ctx::new(&granted, b.actor(), &then);
    let aim = ctx.aim(&granted, unit)?;
    let off = |p: V2| (p.dist(aim.at) - aim.want).abs();
    let now = off(b.unit(unit).pose.pos);
    then.into_iter()
        .filter_map(|t| match t {
            Action::Move { unit: m, to } if m == unit => Some((off(to.pos), t)),
            _ => None,
        })
        .filter(|(d, _)| *d < now - 1.0)
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, t)| t)
}

/// Which option a search takes, from each option's worth play-out by play-out (`rows`, the
/// one-step choice first, every option on the same dice in a round): the best mean among the
/// options whose gain over the first lies more than `sure` standard errors above nothing
/// ([`paired_t`]), else the first. A tie keeps the earlier option.
pub fn surely_best(rows: &[Vec<f64>], sure: f64) -> usize {
    let Some(first) = rows.first() else { return 0 };
    let mut best = (0, mean(first));
    for (k, r) in rows.iter().enumerate().skip(1) {
        let m = mean(r);
        if m > best.1 && paired_t(r, first) > sure {
            best = (k, m);
        }
    }
    best.0
}

/// The stages sequential halving takes over `n` options ([`Budget::halving`]): one more than
/// the halvings ([`halved`]) that leave two (16 options: 16, 8, 4, 2, four stages; 2 or fewer:
/// one, every option alike).
pub fn halving_stages(n: usize) -> usize {
    let (mut m, mut stages) = (n, 1);
    while m > 2 {
        m = 1 + halved_rest(m);
        stages += 1;
    }
    stages
}

/// How many options besides the one-step choice a stage of sequential halving keeps of `alive`
/// options: half of them less one, one at least.
fn halved_rest(alive: usize) -> usize {
    (alive.div_ceil(2) - 1).max(1)
}

/// The options kept after a stage of sequential halving, of `alive` (indices into `rows`, the
/// one-step choice, index 0, first): that choice, which the others are measured against, and
/// the best of the rest by mean worth so far, half of all those alive less one (one at
/// least), in their listed order. A tie keeps the earlier option.
pub fn halved(alive: &[usize], rows: &[Vec<f64>]) -> Vec<usize> {
    let mut rest: Vec<usize> = alive.iter().copied().filter(|&k| k != 0).collect();
    rest.sort_by(|&x, &y| mean(&rows[y]).total_cmp(&mean(&rows[x])).then(x.cmp(&y)));
    rest.truncate(halved_rest(alive.len()));
    let mut kept: Vec<usize> = alive.iter().copied().filter(|&k| k == 0).collect();
    kept.extend(rest);
    kept.sort_unstable();
    kept
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / (xs.len().max(1) as f64)
}

/// How many standard errors the mean of `a − b`, play-out by play-out, lies above 0: +∞ for
/// the same gain in every play-out, 0 for no gain or with fewer than two play-outs.
pub fn paired_t(a: &[f64], b: &[f64]) -> f64 {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = d.len() as f64;
    if d.len() < 2 {
        return 0.0;
    }
    let m = mean(&d);
    let var = d.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    if m <= 0.0 {
        0.0
    } else if var == 0.0 {
        f64::INFINITY
    } else {
        m / (var / n).sqrt()
    }
}

/// A 64-bit seed from the agent's stream.
fn draw_seed(d: &mut Dice) -> u64 {
    (u64::from(d.d(u32::MAX)) << 32) | u64::from(d.d(u32::MAX))
}

impl Agent for Lookahead {
    fn choose(&mut self, b: &Battle, legal: &[Action]) -> usize {
        // Its judge and play-outs ask only whether actions are allowed: refusals go unworded.
        crate::battle::action::quietly(|| {
            self.policy.update_plan(b);
            self.search_choice(b, legal)
        })
    }
    fn plan_news(&mut self, b: &Battle, viewer: Option<SideId>) -> Option<String> {
        self.policy.take_plan_news(b, viewer)
    }
    fn plan_told(&self, b: &Battle, viewer: Option<SideId>) -> Option<String> {
        self.policy.plan_told(b, viewer)
    }
    fn name(&self) -> &'static str {
        self.name
    }
    fn reason(&self) -> Option<String> {
        self.reason.clone()
    }
}

impl Lookahead {
    /// The choice, searched where it is worth it (the judge's otherwise).
    fn search_choice(&mut self, b: &Battle, legal: &[Action]) -> usize {
        self.last = None;
        self.spent = 0;
        // The move an advance was activated for, if its roll succeeded.
        if let Some(then) = self.follow.take()
            && let Some(i) = legal.iter().position(|a| *a == then)
        {
            let ctx = self.policy.ctx(b, legal);
            self.reason = Some(format!("{} (what it was activated for)", judge(b, &then, &ctx).why));
            return i;
        }
        // Units held on the way (their lines come first).
        let mut held = String::new();
        // Units the judge would leave idle though an enemy is near: act or hold, searched,
        // until the judge takes an action or no such unit is left.
        let mut idle_search = true;
        loop {
            // The judge picks on a copy, kept unless an idle unit is searched instead.
            let mut probe = self.policy.clone();
            let (pick, why) = probe.pick(b, legal);
            if idle_search {
                if let Some((options, ctx)) = self.idle_options(b, legal, &probe) {
                    if let Some(i) = self.take(b, legal, &options, &ctx, &mut held) {
                        return i;
                    }
                    continue;
                }
                idle_search = false;
            }
            self.policy = probe;
            if let Some((options, advances, ctx)) = self.advance_options(b, legal, pick) {
                self.advances = advances;
                if let Some(i) = self.take(b, legal, &options, &ctx, &mut held) {
                    return i;
                }
            }
            // The judge's context only for a decision worth searching (most are not).
            let searched = self.searchable(b, legal, pick).then(|| {
                let ctx = self.policy.ctx(b, legal);
                self.options(b, legal, pick, &ctx).map(|o| (o, ctx))
            });
            let Some((options, ctx)) = searched.flatten() else {
                self.reason = Some(format!("{held}{why}"));
                return pick;
            };
            if let Some(i) = self.take(b, legal, &options, &ctx, &mut held) {
                return i;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A level's budget may be set from its name for trials (`scheduler:sims=96,width=12`):
    /// the keys given change, the rest stay the level's; a bad key or number is refused with
    /// what is wrong, and only the look-ahead levels take one.
    #[test]
    fn a_budget_is_set_from_the_agents_name_and_a_bad_one_is_refused() {
        let b = NORMAL
            .with("sims=96, width=12,turns=4,work=400000,sure=0.5,margin=25,halving=1,plan_seeds=4,plan_turns=3")
            .expect("a good spec");
        assert_eq!(
            b,
            Budget {
                sims: 96,
                width: 12,
                turns: 4,
                weighed: 400_000,
                sure: 0.5,
                margin: 25.0,
                halving: true,
                plan_seeds: 4,
                plan_turns: 3,
                ..NORMAL
            }
        );
        assert_eq!(NORMAL.with("").expect("nothing to change"), NORMAL);
        assert_eq!(HARD.with("turns=2").expect("one key").turns, 2);
        for (spec, says) in [
            ("depth=3", "unknown budget key 'depth'"),
            ("sims", "'sims' is not key=value"),
            ("sims=0", "sims wants a whole number from 1 to 10000"),
            ("width=1", "width wants a whole number from 2 to 64"),
            ("turns=-2", "turns wants a whole number"),
            ("sure=much", "sure wants a number"),
            ("margin=-5", "margin wants a whole number from 0 to 500"),
            // Past the bounds: a choice that would never end, or overflow, is refused.
            (
                "sims=4294967295",
                "sims wants a whole number from 1 to 10000, not '4294967295'",
            ),
            (
                "work=18446744073709551615",
                "work wants a whole number from 1 to 4000000",
            ),
            ("width=100000", "width wants a whole number from 2 to 64"),
            ("turns=99", "turns wants a whole number from 1 to 24"),
            ("plan_seeds=0", "plan_seeds wants a whole number from 1 to 16"),
            ("plan_turns=13", "plan_turns wants a whole number from 1 to 12"),
            ("sure=1e300", "sure wants a number of standard errors from 0 to 10"),
            ("margin=100000", "margin wants a whole number from 0 to 500"),
            ("halving=yes", "halving wants 0 or 1"),
        ] {
            let e = NORMAL.with(spec).expect_err(spec);
            assert!(e.contains(says), "{spec}: {e}");
        }
        let refused = |name: &str| match crate::agents::by_name(name, 1, 0) {
            Err(e) => e,
            Ok(_) => panic!("{name} is refused"),
        };
        let e = refused("scheduler:width=x");
        assert!(
            e.contains("agent 'scheduler:width=x'") && e.contains("width wants"),
            "{e}"
        );
        let e = refused("greedy:sims=4");
        assert!(e.contains("only scheduler and scheduler-hard"), "{e}");
        let a = crate::agents::by_name("scheduler-hard:sims=8", 1, 0).expect("a level with a budget");
        assert_eq!(a.name(), "scheduler-hard");
    }

    /// Sequential halving over 16 options plays four stages (16, 8, 4, 2 options left), over 6
    /// (Gettysburg's width for `scheduler-hard`) three (6, 3, 2), over 2 one; a stage keeps the
    /// one-step choice and the best of the rest by mean, in their listed order, a tie to the
    /// earlier.
    #[test]
    fn sequential_halving_keeps_the_one_step_choice_and_the_better_half_of_the_rest() {
        let stages: Vec<usize> = [1, 2, 3, 4, 5, 6, 16].map(halving_stages).to_vec();
        assert_eq!(stages, vec![1, 1, 2, 2, 3, 3, 4]);
        // Means: 0 (the one-step choice) the worst; 3 and 5 tie.
        let rows: Vec<Vec<f64>> = [-2.0, 1.0, 0.5, 3.0, -1.0, 3.0]
            .iter()
            .map(|&m| vec![m - 1.0, m + 1.0])
            .collect();
        let all: Vec<usize> = (0..6).collect();
        assert_eq!(halved(&all, &rows), vec![0, 3, 5]);
        assert_eq!(halved(&[0, 3, 5], &rows), vec![0, 3]);
        assert_eq!(halved(&[0, 1, 2, 4], &rows), vec![0, 1]);
    }

    /// A choice's budget of work and options are the level's on a battle of up to 120 stands
    /// (every small bundled scenario: the skirmish has 70); on Gettysburg's 300, two fifths of
    /// the work and 4 options (`scheduler`: 12 a choice, so 4; `scheduler-hard`: 16, so 6,
    /// and at most [`PLANNED_WIDTH`], 4, on a planned battle), play-outs of at most
    /// [`PLANNED_TURNS`] there: the hard level's four times the work buys more play-outs of
    /// the same four options (session 90).
    #[test]
    fn a_big_battle_gets_a_budget_of_work_and_options_in_proportion_to_its_stands() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps");
        let a = Lookahead::new(1, NORMAL, "scheduler");
        let skirmish = crate::load_battle(&dir.join("skirmish.ron"), 1).expect("loads").0;
        assert_eq!(a.work(&skirmish), 40_000);
        let big = crate::load_battle(&dir.join("gettysburg.ron"), 1).expect("loads").0;
        assert_eq!(big.units.iter().map(|u| u.start_stands).sum::<u32>(), 300);
        assert_eq!(a.work(&big), 16_000);
        assert_eq!((a.width(&skirmish), a.width(&big)), (12, 4));
        let hard = Lookahead::new(1, HARD, "scheduler-hard");
        assert_eq!((hard.work(&big), hard.width(&big)), (64_000, 4));
        assert_eq!((a.turns(&skirmish), a.turns(&big)), (4, 4));
        assert_eq!(
            (hard.width(&skirmish), hard.turns(&skirmish), hard.turns(&big)),
            (16, 6, 4)
        );
    }

    /// A play-out runs [`Budget::turns`] player turns: two play the enemy's whole turn (its
    /// orders, fire and charges) and stop at the side's own next command phase; one would stop
    /// at the enemy's command phase, before its orders; both look-ahead levels play four and
    /// stop at the side's command phase two turns on.
    #[test]
    fn a_play_out_runs_through_the_enemys_turn_to_the_sides_next_command_phase() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
        let mut b = crate::load_battle(&path, 1).expect("skirmish loads").0;
        while b.phase != crate::battle::state::Phase::Command {
            b.step(&Action::EndPhase).expect("the phase ends");
        }
        let side = b.actor();
        let legal = b.legal_actions();
        let end = legal
            .iter()
            .position(|a| matches!(a, Action::EndPhase))
            .expect("end phase");
        for (turns, actor) in [(1, 1 - side), (2, side), (3, 1 - side), (4, side), (6, side)] {
            let budget = Budget { turns, ..HARD };
            let a = Lookahead::new(1, budget, "scheduler");
            let (after, weighed) = a.play_out(&b, &legal, (Choice::Act(end), u64::MAX), 7, side);
            assert!(!after.is_over() && weighed > 1);
            assert_eq!(after.player_turn, b.player_turn + turns, "{turns} player turns");
            assert_eq!(after.phase, crate::battle::state::Phase::Command);
            assert_eq!(after.actor(), actor, "{turns} player turns: whose command phase");
        }
        assert_eq!(NORMAL.turns, 4);
        assert_eq!(HARD.turns, 6);
    }

    /// Under initiative passing, a pass of the one-step judge with a contested unit able to
    /// activate is searched against advancing: activating the unit and making the move that
    /// closes most on its goal. The move is legal once the real roll succeeds, and the agent
    /// makes it at its next decision.
    #[test]
    fn under_initiative_passing_a_pass_is_searched_against_advancing() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/initiative_demo.ron");
        let mut b = crate::load_battle(&path, 4017).expect("initiative demo loads").0;
        // `scheduler-easy` on both sides (the search does not change it) until a searched pass.
        let mut judges = [Scheduler::new(1), Scheduler::new(2)];
        let agent = Lookahead::new(3, NORMAL, "scheduler");
        let (legal, pick, options, advances) = loop {
            assert!(!b.is_over(), "a pass with a unit able to advance comes before the end");
            let legal = b.legal_actions();
            let (pick, _) = judges[b.actor()].clone().pick(&b, &legal);
            if let Some((options, advances, _)) = agent.advance_options(&b, &legal, pick) {
                break (legal, pick, options, advances);
            }
            let (i, _) = judges[b.actor()].pick(&b, &legal);
            b.step(&legal[i]).expect("legal");
        };
        assert!(b.initiative_passing() && matches!(legal[pick], Action::EndPhase));
        assert_eq!(options[0], Choice::Act(pick), "the judge's pass first");
        assert_eq!(options.len(), advances.len() + 1);
        assert!(options.len() <= NORMAL.width);
        let side = b.actor();
        for (i, then) in &advances {
            let Action::Activate { unit, .. } = legal[*i] else {
                panic!("{:?}", legal[*i])
            };
            let Action::Move { unit: m, to } = then else {
                panic!("{then:?}")
            };
            assert_eq!(*m, unit);
            assert!(agent.contested(&b, unit));
            // The move closes on the unit's goal.
            let ctx = Ctx::new(&b, side, &legal);
            let aim = ctx.aim(&b, unit).expect("an aim");
            let off = |p: V2| (p.dist(aim.at) - aim.want).abs();
            assert!(off(to.pos) < off(b.unit(unit).pose.pos) - 1.0, "{then:?} closes");
            // On dice where the roll succeeds (the initiative stays), the move is legal, and
            // the agent that took the advance makes it.
            let mut found = false;
            for seed in 1..40 {
                let mut real = b.clone();
                real.set_dice(Dice::new(seed));
                real.step(&legal[*i]).expect("the activation is legal");
                if real.actor() != side || real.phase != Phase::Command {
                    continue; // failed: the initiative passed
                }
                let now = real.legal_actions();
                assert!(now.contains(then), "the advance's move is legal after the roll");
                let mut a = agent.clone();
                a.follow = Some(then.clone());
                assert_eq!(now[a.choose(&real, &now)], *then);
                assert!(a.reason().is_some_and(|r| r.contains("what it was activated for")));
                found = true;
                break;
            }
            assert!(found, "some roll succeeds");
        }
    }

    #[test]
    fn the_paired_t_is_the_mean_gain_over_its_standard_error() {
        // Gains 1 and 3: mean 2, sample variance 2, standard error sqrt(2 / 2) = 1.
        assert!((paired_t(&[1.0, 3.0], &[0.0, 0.0]) - 2.0).abs() < 1e-12);
        // Gains 2, 0, 1 (mean 1, variance 1, error 1 / sqrt 3): t = sqrt 3.
        let t = paired_t(&[3.0, 1.0, 1.0], &[1.0, 1.0, 0.0]);
        assert!((t - 3f64.sqrt()).abs() < 1e-12, "{t}");
        // The same gain every play-out: sure; no gain, a loss or one play-out: nothing shown.
        assert_eq!(paired_t(&[2.0, 3.0], &[1.0, 2.0]), f64::INFINITY);
        assert_eq!(paired_t(&[1.0, 1.0], &[1.0, 1.0]), 0.0);
        assert_eq!(paired_t(&[0.0, 1.0], &[1.0, 1.0]), 0.0);
        assert_eq!(paired_t(&[5.0], &[0.0]), 0.0);
    }

    /// An option whose better mean comes from one lucky play-out does not displace the
    /// one-step choice; one better on the same dice play-out after play-out does, and among
    /// those shown better the best mean is taken.
    #[test]
    fn the_one_step_choice_stands_unless_the_search_shows_better() {
        let first = vec![1.0, 1.0, 1.0, 1.0];
        // Mean 1.75 from one play-out of 7: gains 6, -1, -1, -1 (mean 0.75, variance 12.25,
        // standard error 3.5 / 2): t = 0.75 / 1.75 ≈ 0.43.
        let lucky = vec![7.0, 0.0, 0.0, 0.0];
        assert!((paired_t(&lucky, &first) - 0.75 / 1.75).abs() < 1e-12);
        let steady = vec![1.5, 1.6, 1.4, 1.5];
        let better = vec![2.0, 2.1, 1.9, 2.0];
        assert_eq!(surely_best(&[first.clone(), lucky.clone()], 1.0), 0);
        assert_eq!(surely_best(&[first.clone(), lucky.clone()], 0.4), 1, "less sure, taken");
        assert_eq!(surely_best(&[first.clone(), lucky.clone(), steady.clone()], 1.0), 2);
        assert_eq!(surely_best(&[first.clone(), steady, lucky, better], 1.0), 3);
        assert_eq!(surely_best(&[first.clone(), first], 1.0), 0, "a tie keeps the first");
    }
}
