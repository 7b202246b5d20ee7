//! The scheduler: the computer opponent for solo play (DECISIONS "The scheduler"). This is
//! its one-step judge, played as `scheduler-easy`; `scheduler` and `scheduler-hard` search
//! ahead with it ([`lookahead`]).
//!
//! Each of its command phases it deals a **random move stack** (the seed rules' "Game Turn
//! Sequence" A): one card per living commander, shuffled from its own stream seeded by the game
//! seed; commanders act in card order, each still making its command rolls. For the units with
//! orders in hand it picks the action worth most by the rules' exact odds ([`evaluate`]); a
//! commander gives a further order only while the chance of the roll is worth the risk. It
//! knows only what its side could see ([`crate::agents::perception`]) and never tries an action
//! out on a copy of the battle (the look-ahead does, on copies with its own dice).
//!
//! Every choice leaves a one-line reason ([`Agent::reason`]) for the battle log.

pub mod evaluate;
pub mod lookahead;
mod passing;
pub mod plan;
pub mod planner;
pub mod value;

use super::agent::Agent;
use crate::battle::state::{CmdId, Phase, SideId, Step, UnitId};
use crate::battle::{Action, Battle};
use crate::rules::dice::Dice;
use crate::rules::odds;
use evaluate::{Ctx, judge};
use plan::{Plan, Task};
use planner::Planner;
use std::collections::BTreeSet;
use std::sync::Arc;

/// The least chance worth rolling for when a failure costs only this commander's later orders.
const NEED_ANY: f64 = 0.1;

/// The least chance for a commander's first order of the turn: a failure there loses all its
/// orders this turn, so a long shot at a big group (six far-flung units at 17%, turn after
/// turn on the river crossing) gives way to a likely order for fewer units.
const NEED_FIRST: f64 = 0.4;

/// An ordered unit's action must be worth more than this to be taken; else the unit is idle.
pub const ACTING_FLOOR: f64 = 0.05;

#[derive(Clone)]
pub struct Scheduler {
    dice: Dice,
    /// The player turn the cards were dealt for.
    dealt: Option<u32>,
    cards: Vec<CmdId>,
    card: usize,
    /// Units with actions in hand that have nothing worth doing this turn.
    idle: BTreeSet<UnitId>,
    /// Units it has tried to activate this initiative (initiative passing: each once).
    tried: BTreeSet<UnitId>,
    /// Units the look-ahead chose to hold for the rest of a phase: (player turn, phase, units).
    held: (u32, Phase, BTreeSet<UnitId>),
    reason: Option<String>,
    /// Its side's plan, on a planned battle ([`planner`]).
    plan: Option<Arc<Plan>>,
    /// What makes and remakes the plan: only the agent that plays (`scheduler`,
    /// `scheduler-hard`), not the copies its play-outs use, which keep the plan they started
    /// with.
    planner: Option<Box<Planner>>,
}

impl Scheduler {
    pub fn new(seed: u64) -> Self {
        Scheduler {
            dice: Dice::new(seed),
            dealt: None,
            cards: Vec::new(),
            card: 0,
            idle: BTreeSet::new(),
            tried: BTreeSet::new(),
            held: (0, Phase::Initiative, BTreeSet::new()),
            reason: None,
            plan: None,
            planner: None,
        }
    }

    /// This judge, making and remaking a plan on a big battle ([`planner`]), each candidate
    /// played out on `seeds` seeds for `turns` player turns.
    pub fn planning(mut self, seed: u64, seeds: usize, turns: u32) -> Self {
        self.planner = Some(Box::new(Planner::new(seed).deeper(seeds, turns)));
        self
    }

    /// This judge, playing inside `plan` (which it never changes).
    pub fn with_plan(mut self, plan: Arc<Plan>) -> Self {
        self.plan = Some(plan);
        self
    }

    /// A copy for a play-out: the same plan, never remade.
    pub fn frozen(&self) -> Self {
        let mut copy = self.clone();
        copy.planner = None;
        copy
    }

    /// Its side's plan, if the battle is planned.
    pub fn plan(&self) -> Option<&Plan> {
        self.plan.as_deref()
    }

    /// One play-out of `plan` from `base` on dice `seed` ([`planner::PlayOut`]): the judge
    /// plays both sides, `side`'s inside the plan, for `turns` player turns.
    pub fn play_plan(base: &Battle, side: SideId, plan: &Plan, seed: u64, turns: u32) -> Battle {
        let mut b = base.clone();
        b.set_dice(Dice::new(seed));
        let mut players = [Scheduler::new(seed), Scheduler::new(seed.rotate_left(17))];
        players[side] = Scheduler::new(seed).with_plan(Arc::new(plan.clone()));
        let turn = b.player_turn;
        for _ in 0..planner::PLAN_HORIZON {
            if b.is_over() || (b.player_turn >= turn + turns && b.phase == Phase::Command) {
                break;
            }
            let legal = b.legal_actions();
            if legal.is_empty() {
                break;
            }
            let (i, _) = players[b.actor()].pick(&b, &legal);
            if b.step(&legal[i.min(legal.len() - 1)]).is_err() {
                break;
            }
        }
        b
    }

    /// Make or remake the plan if it is due ([`Planner::update`]).
    pub fn update_plan(&mut self, b: &Battle) {
        let side = b.actor();
        if let Some(planner) = self.planner.as_mut()
            && let Some(plan) = planner.update(b, side, self.plan.as_deref(), Scheduler::play_plan)
        {
            self.plan = Some(Arc::new(plan));
        }
    }

    /// The plan made or changed since it was last said, in a line said to `viewer`
    /// ([`Plan::words_for`]).
    pub fn take_plan_news(&mut self, b: &Battle, viewer: Option<SideId>) -> Option<String> {
        let planner = self.planner.as_mut()?;
        let why = planner.news.take()?;
        self.plan.as_ref()?;
        planner.told = Some(why);
        self.plan_told(b, viewer)
    }

    /// The plan last told ([`Scheduler::take_plan_news`]), with why, said to `viewer`.
    pub fn plan_told(&self, b: &Battle, viewer: Option<SideId>) -> Option<String> {
        let why = self.planner.as_ref()?.told.as_ref()?;
        Some(format!("{why}: {}", self.plan.as_ref()?.words_for(b, viewer)))
    }

    /// The judge's context for a decision, its plan steering its units.
    pub fn ctx(&self, b: &Battle, legal: &[Action]) -> Ctx {
        Ctx::planned(b, b.actor(), legal, self.plan.clone())
    }

    /// Hold `unit` for the rest of this phase (the look-ahead's "hold" option): held in the
    /// initiative phase it takes no initiative but may still be ordered; held in the command
    /// phase it takes no order's action and is not ordered.
    pub fn hold(&mut self, b: &Battle, unit: UnitId) {
        if (self.held.0, self.held.1) != (b.player_turn, b.phase) {
            self.held = (b.player_turn, b.phase, BTreeSet::new());
        }
        self.held.2.insert(unit);
    }

    fn is_held(&self, b: &Battle, unit: UnitId) -> bool {
        (self.held.0, self.held.1) == (b.player_turn, b.phase) && self.held.2.contains(&unit)
    }

    /// The random move stack dealt for the current command phase, top card first.
    pub fn cards(&self) -> &[CmdId] {
        &self.cards
    }

    /// A new command phase: shuffle one card per living commander of the side.
    fn deal(&mut self, b: &Battle) {
        let mut cards: Vec<CmdId> = b
            .commanders
            .iter()
            .filter(|c| c.side == b.active && c.alive())
            .map(|c| c.id)
            .collect();
        self.dice.shuffle(&mut cards);
        self.cards = cards;
        self.card = 0;
        self.idle.clear();
        self.tried.clear();
        self.dealt = Some(b.player_turn);
    }

    /// The one-step choice: the index of the action and why.
    pub fn pick(&mut self, b: &Battle, legal: &[Action]) -> (usize, String) {
        let ctx = self.ctx(b, legal);
        if let Step::Consolidate { unit, .. } = b.step {
            return consolidation(b, unit, legal);
        }
        let end = legal.iter().position(|a| matches!(a, Action::EndPhase | Action::Pass));
        // Windows (counter-initiative, opportunity fire, support): the best positive action, or pass.
        if legal.iter().any(|a| matches!(a, Action::Pass)) {
            return self
                .best(b, legal, &ctx, |_| true, 0.15)
                .unwrap_or((end.unwrap_or(0), "lets it pass".into()));
        }
        match b.phase {
            Phase::Initiative => self
                .best(b, legal, &ctx, |a| a.unit().is_none_or(|u| !self.is_held(b, u)), 0.35)
                .unwrap_or((end.unwrap_or(0), "no initiative worth taking".into())),
            Phase::Command => self.command(b, legal, &ctx, end),
            _ => (end.unwrap_or(0), "ends the phase".into()),
        }
    }

    /// The highest-scoring unit action above `floor` among those `keep` allows (ties: first).
    fn best(
        &self,
        b: &Battle,
        legal: &[Action],
        ctx: &Ctx,
        keep: impl Fn(&Action) -> bool,
        floor: f64,
    ) -> Option<(usize, String)> {
        let mut best: Option<(usize, f64, String)> = None;
        for (i, a) in legal.iter().enumerate() {
            if !keep(a) {
                continue;
            }
            let j = judge(b, a, ctx);
            if j.score > floor && best.as_ref().is_none_or(|(_, s, _)| j.score > *s) {
                best = Some((i, j.score, j.why));
            }
        }
        best.map(|(i, _, why)| (i, why))
    }

    fn command(&mut self, b: &Battle, legal: &[Action], ctx: &Ctx, end: Option<usize>) -> (usize, String) {
        if self.dealt != Some(b.player_turn) {
            self.deal(b);
        }
        if b.initiative_passing() {
            return self.passing(b, legal, ctx, end);
        }
        // 1. Units with actions in hand act first.
        loop {
            let idle = &self.idle;
            let acting = |a: &Action| {
                a.ordered_unit()
                    .is_some_and(|u| !idle.contains(&u) && !self.is_held(b, u))
            };
            if let Some(pick) = self.best(b, legal, ctx, acting, ACTING_FLOOR) {
                return pick;
            }
            // Whoever still holds actions has nothing worth doing: mark them idle.
            let holding: Vec<UnitId> = legal
                .iter()
                .filter(|a| acting(a))
                .filter_map(Action::ordered_unit)
                .collect();
            if holding.is_empty() {
                break;
            }
            self.idle.extend(holding);
        }
        // 2. The commander of the top card gives its next order, if worth the roll.
        while self.card < self.cards.len() {
            let c = self.cards[self.card];
            if let Some(pick) = self.attach_for(b, legal, ctx, c) {
                return pick;
            }
            if let Some(pick) = self.order_for(b, legal, ctx, c) {
                return pick;
            }
            self.card += 1;
        }
        // 3. Commanders close up on their units (a commander that moves gives no more orders).
        if let Some(pick) = self.commander_move(b, legal, ctx) {
            return pick;
        }
        (end.unwrap_or(0), "all cards played: ends the command phase".into())
    }

    /// BPT "Fixed Formations": the CO `c` sends a unit of his own formation that has nothing
    /// to fire at to the HQ whose formation stands nearest the enemy, when that brings it at
    /// least 10 cm nearer and the roll is safe (a failure ends every order of the side).
    fn attach_for(&self, b: &Battle, legal: &[Action], ctx: &Ctx, c: CmdId) -> Option<(usize, String)> {
        if !b.fixed_formations() || !b.commander(c).is_co() {
            return None;
        }
        let others_waiting = self.cards[self.card + 1..].iter().any(|&o| o != c);
        let need = if others_waiting { 0.8 } else { 0.6 };
        let enemy_near = |p: crate::rules::geometry::V2| {
            ctx.enemies
                .iter()
                .map(|&e| b.unit(e).pose.pos.dist(p))
                .fold(f64::INFINITY, f64::min)
        };
        let mut best: Option<(usize, f64, String)> = None;
        for (i, a) in legal.iter().enumerate() {
            let Action::Attach { unit, hq } = a else { continue };
            let u = b.unit(*unit);
            if ctx.can_fire.contains(unit)
                || (u.is_artillery() && !u.limbered)
                || self.idle.contains(unit)
                || b.pending_order_of(*unit).is_some()
            {
                continue;
            }
            let Ok(plan) = b.check_attach(*unit, *hq) else { continue };
            let p = odds::command_roll_odds(plan.target).success;
            let gain = enemy_near(u.pose.pos) - enemy_near(plan.to.pos);
            if p < need || gain < 10.0 || !gain.is_finite() {
                continue;
            }
            let score = p * gain;
            if best.as_ref().is_none_or(|(_, s, _)| score > *s) {
                best = Some((
                    i,
                    score,
                    format!(
                        "{}: attach {} to {}'s formation, {gain:.0} cm nearer the enemy, {:.0}% to succeed",
                        b.commander(c).name,
                        u.name,
                        b.commander(*hq).name,
                        p * 100.0
                    ),
                ));
            }
        }
        best.map(|(i, _, why)| (i, why))
    }

    /// The order commander `c` should give now: the group or unit order with the best chance
    /// times the work its units have, when the roll's chance is worth it.
    fn order_for(&self, b: &Battle, legal: &[Action], ctx: &Ctx, c: CmdId) -> Option<(usize, String)> {
        // (An order that arrived this phase under the order delay was given in an earlier turn.)
        let first = !b
            .cmd
            .orders
            .iter()
            .any(|(u, o)| o.by == c && o.count > 0 && !b.cmd.arrived.contains(u));
        // A failed roll of the army's CO ends every order of the side this turn (BPT): while
        // other commanders still have cards to play, the CO only gives safe orders.
        let others_waiting = self.cards[self.card + 1..].iter().any(|&o| o != c);
        let co = b.commander(c).is_co();
        if co && others_waiting && !first {
            return None;
        }
        // Otherwise a failure only ends this commander's own orders: once it has ordered, any
        // order with work is worth its roll (a blunder, double six, is the only other risk);
        // its first order must not throw the whole turn away on a long shot.
        let need = match (co && others_waiting, first) {
            (true, _) => 0.8,
            (false, true) => NEED_FIRST,
            (false, false) => NEED_ANY,
        };
        // A unit that still holds an action it can take nowhere (boxed in by friends) gains
        // nothing from another order: in *Gettysburg* seed 50008 a regiment behind its guns was
        // ordered again and again for six turns, each roll a −1 on its brigadier's next.
        let mut can_act = vec![false; b.units.len()];
        for u in legal.iter().filter_map(Action::ordered_unit) {
            can_act[u as usize] = true;
        }
        let stuck =
            |u: UnitId| !can_act[u as usize] && b.cmd.orders.get(&u).is_some_and(|o| o.credits > 0 && !o.finished);
        let mut best: Option<(usize, f64, String)> = None;
        for (i, a) in legal.iter().enumerate() {
            let Action::Order {
                commander,
                units,
                charge,
                dense,
                road,
            } = a
            else {
                continue;
            };
            if *commander != c || units.iter().any(|u| self.idle.contains(u) && !first) {
                continue;
            }
            // A commander orders its own units; a superior reaches past a subordinate only when
            // that HQ failed on them or is gone (BPT CO re-ordering, at −1).
            if units.iter().any(|&u| {
                let hq = b.unit(u).hq;
                hq != c && b.commander(hq).alive() && !b.cmd.hq_failed.contains(&u) && b.nation_may_order(hq, u)
            }) {
                continue;
            }
            // Order delay: an order on its way is left to arrive, not replaced by a new one
            // (which would wait as long again).
            if units.iter().any(|&u| b.pending_order_of(u).is_some()) {
                continue;
            }
            let Ok(plan) = b.check_order_by(c, units, *charge, *dense, *road) else {
                continue;
            };
            let p = odds::command_roll_odds(plan.target).success;
            if p < need {
                continue;
            }
            let work = units
                .iter()
                .filter(|&&u| (*charge || !stuck(u)) && self.has_work(b, u, ctx))
                .count() as f64;
            if work == 0.0 {
                continue;
            }
            // A charge order costs −1: only when a charge is worth it.
            let charge_ok = !*charge
                || units.iter().any(|&u| {
                    ctx.enemies.iter().any(|&e| {
                        b.check_charge(u, e).is_ok_and(|plan| {
                            let (o, _) = evaluate::closing_fire_odds(b, &plan, ctx);
                            o.a_double + o.a_wins > evaluate::CHARGE_ORDER_ODDS && !evaluate::plan_evaded(b, &plan)
                        })
                    })
                });
            if !charge_ok {
                continue;
            }
            // Order delay (switch `OrderDelay`): an order that reaches its units only in a later
            // turn is worth less than one they act on now (and the charge may be gone by then).
            let delay = f64::from(plan.delay);
            let score = (p * work + if *charge && plan.delay == 0 { 0.5 } else { 0.0 }) / (1.0 + delay);
            if best.as_ref().is_none_or(|(_, s, _)| score > *s) {
                best = Some((
                    i,
                    score,
                    format!(
                        "{}: order {}{} at {} or less, {:.0}% to succeed{}",
                        b.commander(c).name,
                        if units.len() <= 3 {
                            units
                                .iter()
                                .map(|&u| b.unit(u).name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        } else {
                            crate::report::count(units.len() as i64, "unit")
                        },
                        if *charge { " to charge" } else { "" },
                        plan.target,
                        p * 100.0,
                        match plan.delay {
                            0 => String::new(),
                            1 => ", arriving next turn".into(),
                            d => format!(", arriving in {d} turns"),
                        }
                    ),
                ));
            }
        }
        best.map(|(i, _, why)| (i, why))
    }

    /// The unit has something to do: a known enemy or its objective to go to, or a gun to load.
    fn has_work(&self, b: &Battle, u: UnitId, ctx: &Ctx) -> bool {
        let unit = b.unit(u);
        if !unit.alive() || unit.suppressed() || self.is_held(b, u) {
            return false;
        }
        // A holder or a reserve of a plan has work off its place, or with an enemy to fire at.
        if matches!(ctx.task(b, u), Some(Task::Hold | Task::Reserve)) {
            let range = b.weapon_range(unit);
            let off = ctx.aim(b, u).is_some_and(|a| a.far > a.want + 3.0);
            return off || ctx.enemies.iter().any(|&e| b.unit_distance(u, e) <= range);
        }
        let obj = evaluate::objective(b, unit.side).is_some_and(|o| unit.pose.pos.dist(o) > 8.0);
        obj || !ctx.enemies.is_empty()
    }

    /// Where a commander rides once its orders are done: to a spot where a group order of its
    /// units with work carries a smaller distance penalty (BPT Command Modifiers note 2: −1
    /// per 20 cm beyond 20 to the farthest unit), else nearer their middle (by more than 2 cm,
    /// when it stands over 12 cm from it). Ties: their single orders' summed penalty, then a
    /// spot beside a unit (command presence), then nearer their middle.
    fn commander_move(&self, b: &Battle, legal: &[Action], ctx: &Ctx) -> Option<(usize, String)> {
        // (group order's penalty, single orders' summed, beside a unit, cm nearer the middle)
        type Key = (i32, i32, bool, f64);
        let mut best: Option<(usize, Key, String)> = None;
        for (i, a) in legal.iter().enumerate() {
            let Action::CommanderMove { commander, to } = a else {
                continue;
            };
            let cm = b.commander(*commander);
            let all: Vec<UnitId> = b
                .side_units(b.active)
                .filter(|u| u.hq == *commander)
                .map(|u| u.id)
                .collect();
            let working: Vec<UnitId> = all.iter().copied().filter(|&u| self.has_work(b, u, ctx)).collect();
            let mine = if working.is_empty() { all } else { working };
            if mine.is_empty() {
                continue;
            }
            // The penalty a group order of them all would carry from `at` (the farthest unit
            // counts), then their single orders' summed; both negative, 0 is best.
            let penalties = |at: crate::rules::geometry::V2| -> (i32, i32) {
                let each: Vec<i32> = mine.iter().map(|&u| b.command_distance_penalty(at, u)).collect();
                (each.iter().copied().min().unwrap_or(0), each.iter().sum())
            };
            let n = mine.len() as f64;
            let centre = mine
                .iter()
                .fold(crate::rules::geometry::V2::ZERO, |acc, &u| acc + b.unit(u).pose.pos)
                * (1.0 / n);
            let here = cm.pos;
            let gain = here.dist(centre) - to.dist(centre);
            let (now, then) = (penalties(here), penalties(*to));
            let worth = then.0 > now.0 || (then.0 == now.0 && here.dist(centre) > 12.0 && gain > 2.0);
            // Among equal spots, one touching a unit (BPT Command Presence: +1 attack to it).
            let key = (then.0, then.1, b.commander_would_touch(*commander, *to), gain);
            if worth && best.as_ref().is_none_or(|(_, k, _)| key > *k) {
                best = Some((
                    i,
                    key,
                    if then.0 > now.0 {
                        format!("{}: rides to bring its units within command distance", cm.name)
                    } else {
                        format!("{}: rides {gain:.0} cm nearer its units", cm.name)
                    },
                ));
            }
        }
        best.map(|(i, _, why)| (i, why))
    }
}

/// BPT "Consolidate", the winner's choice ("Units may change the direction they are
/// facing"): a unit with a known enemy able to charge its flank or rear (within charge
/// distance, not in its front) takes the pose on offer with fewest such, turned least (then
/// the farthest ahead); in Gettysburg's games a winner left facing the way it charged was
/// charged in the rear at once and lost by double (seeds 50008, 50013, 50014). Otherwise a
/// unit in cover it would lose by going ahead (a wood, a town, behind a wall) stays; any other
/// goes the whole way straight ahead, facing as it does (the move consolidation always was
/// before it was a choice).
fn consolidation(b: &Battle, unit: UnitId, legal: &[Action]) -> (usize, String) {
    let stay = legal.iter().position(|a| matches!(a, Action::Pass)).unwrap_or(0);
    let from = b.unit(unit).pose;
    if let Some(pick) = face_threats(b, unit, legal) {
        return pick;
    }
    let ahead = legal
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Action::Consolidate { unit: u, to }
                if *u == unit && crate::rules::geometry::wrap_angle(to.facing - from.facing).abs() < 1e-9 =>
            {
                Some((i, *to))
            }
            _ => None,
        })
        .max_by(|x, y| from.pos.dist(x.1.pos).total_cmp(&from.pos.dist(y.1.pos)));
    let Some((i, to)) = ahead else {
        return (stay, "stays: it cannot go ahead".into());
    };
    // Its cover against fire from ahead, where it fought.
    let here = b.cover_of(unit, from.pos + from.forward() * 100.0);
    if here > b.ground_cover_at(to.pos) {
        let cover = crate::report::cover_words(&here);
        return (stay, format!("stays {cover} rather than consolidate out of it"));
    }
    (
        i,
        format!("consolidates {:.1} cm straight ahead", from.pos.dist(to.pos)),
    )
}

/// The consolidation that leaves fewest known enemies able to charge `unit`'s flank or rear
/// (BPT "Charge": two dice down, mostly lost by double), when it leaves fewer than staying as
/// it is; of those, the one turned least, then the farthest ahead (ties: the first listed).
fn face_threats(b: &Battle, unit: UnitId, legal: &[Action]) -> Option<(usize, String)> {
    use crate::rules::geometry::{Pose, wrap_angle};
    let from = b.unit(unit).pose;
    let known = crate::agents::perception::known_enemies(b, b.unit(unit).side);
    let threats = |pose: Pose| b.flank_threats_at(unit, pose, &known);
    let now = threats(from);
    if now == 0 {
        return None;
    }
    // The turns offered are whole multiples of 45°: in whole degrees, they compare exactly.
    let turn = |to: &Pose| wrap_angle(to.facing - from.facing).to_degrees().round() as i64;
    let (i, to, left) = legal
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Action::Consolidate { unit: u, to } if *u == unit => Some((i, *to, threats(*to))),
            _ => None,
        })
        .min_by(|x, y| {
            x.2.cmp(&y.2)
                .then(turn(&x.1).abs().cmp(&turn(&y.1).abs()))
                .then(from.pos.dist(y.1.pos).total_cmp(&from.pos.dist(x.1.pos)))
        })?;
    if left >= now {
        return None;
    }
    Some((
        i,
        format!(
            "consolidates {:.1} cm and turns {}° to face an enemy at its flank or rear ({now} able to charge it there, {left} after)",
            from.pos.dist(to.pos),
            turn(&to)
        ),
    ))
}

impl Agent for Scheduler {
    fn choose(&mut self, battle: &Battle, legal: &[Action]) -> usize {
        // Its judge asks only whether actions are allowed: refusals go unworded.
        let (i, why) = crate::battle::action::quietly(|| {
            self.update_plan(battle);
            self.pick(battle, legal)
        });
        self.reason = Some(why);
        i
    }
    fn plan_news(&mut self, b: &Battle, viewer: Option<SideId>) -> Option<String> {
        self.take_plan_news(b, viewer)
    }
    fn plan_told(&self, b: &Battle, viewer: Option<SideId>) -> Option<String> {
        Scheduler::plan_told(self, b, viewer)
    }
    fn name(&self) -> &'static str {
        "scheduler-easy"
    }
    fn reason(&self) -> Option<String> {
        self.reason.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The random move stack (seed 001 "Game Turn Sequence" A: "Turn over the top card …
    /// Keep turning cards until the stack has been run through"): one card per living
    /// commander of the side, shuffled; the commanders give their orders in card order.
    #[test]
    fn commanders_give_their_orders_in_the_order_of_their_cards() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
        let mut decks = BTreeSet::new();
        let mut orders = 0;
        for seed in 1..=6u64 {
            let (mut b, _) = crate::load_battle(&path, seed).expect("skirmish loads");
            let mut agents = [Scheduler::new(seed), Scheduler::new(seed + 100)];
            let mut side = None;
            let mut given = Vec::new();
            loop {
                match (b.phase == Phase::Command, side) {
                    (true, None) => side = Some(b.active),
                    (false, Some(_)) => break,
                    _ => {}
                }
                let legal = b.legal_actions();
                let actor = b.actor();
                let i = agents[actor].choose(&b, &legal);
                if side == Some(actor)
                    && let Action::Order { commander, .. } = &legal[i]
                {
                    given.push(*commander);
                }
                b.apply(&legal[i]).expect("a legal action applies");
            }
            let side = side.expect("a command phase");
            let cards = agents[side].cards().to_vec();
            let mut living: Vec<CmdId> = b
                .commanders
                .iter()
                .filter(|c| c.side == side && c.alive())
                .map(|c| c.id)
                .collect();
            let mut sorted = cards.clone();
            sorted.sort_unstable();
            living.sort_unstable();
            assert_eq!(sorted, living, "seed {seed}: one card per living commander");
            let place: Vec<usize> = given
                .iter()
                .map(|c| cards.iter().position(|k| k == c).expect("a commander with a card"))
                .collect();
            assert!(
                place.windows(2).all(|w| w[0] <= w[1]),
                "seed {seed}: orders {given:?} follow the cards {cards:?}"
            );
            orders += given.len();
            decks.insert(cards);
        }
        assert!(orders > 0, "some orders were given");
        assert!(decks.len() > 1, "the stack is shuffled: {decks:?}");
    }

    /// BPT Command Modifiers note 2 (−1 per 20 cm beyond 20 to the farthest unit ordered): once
    /// its orders are done, a commander whose units stand around it (their middle 4 cm away)
    /// but one of them beyond 20 cm rides to bring that one within 20 cm, losing no other.
    #[test]
    fn a_commander_rides_to_bring_its_units_within_command_distance() {
        use crate::rules::geometry::{Pose, V2};
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/first_battle.ron");
        let (mut b, _) = crate::load_battle(&path, 1).expect("first battle loads");
        while b.phase != Phase::Command {
            b.apply(&Action::EndPhase).expect("the initiative phase ends");
        }
        let side = b.active;
        let c = b.commanders.iter().find(|c| c.side == side).expect("a colonel").id;
        let units: Vec<UnitId> = b.side_units(side).map(|u| u.id).collect();
        let far = units[1];
        b.arranging().commanders[c as usize].pos = V2::new(62.0, 30.0);
        let facing = b.units[far as usize].pose.facing;
        b.arranging().units[far as usize].pose = Pose::new(V2::new(90.0, 45.0), facing);
        b.refresh_geometry();
        let worst = |b: &Battle, at: V2| {
            units
                .iter()
                .map(|&u| b.command_distance_penalty(at, u))
                .min()
                .unwrap_or(0)
        };
        let here = b.commander(c).pos;
        let centre = units.iter().fold(V2::ZERO, |acc, &u| acc + b.unit(u).pose.pos) * (1.0 / units.len() as f64);
        let legal = b.legal_actions();
        let ctx = Ctx::new(&b, side, &legal);
        let agent = Scheduler::new(1);
        let (i, why) = agent.commander_move(&b, &legal, &ctx).expect("the colonel rides");
        let Action::CommanderMove { commander, to } = legal[i] else {
            panic!("{:?}", legal[i]);
        };
        assert_eq!(commander, c);
        assert!(
            here.dist(centre) < 12.0,
            "the old rule (their middle over 12 cm away) would stay"
        );
        assert_eq!(worst(&b, here), -1, "one unit beyond 20 cm");
        assert_eq!(worst(&b, to), 0, "{why}: every unit within 20 cm from {to:?}");
    }
}
