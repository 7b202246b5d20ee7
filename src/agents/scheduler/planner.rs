//! How the scheduler chooses its plan ([`super::plan`]) and when it changes it (issue 66).
//!
//! On a battle of more than [`PLAN_STANDS`] stands, at its first decision and at each of its
//! initiative and command phases after, the scheduler reads the situation as its side knows
//! it ([`Situation`]): which objectives each side holds, how many units each of its formations
//! has, which enemy formations it has found. The plan is made again when that changed enough:
//! an objective taken or lost, a formation of its own broken (half its units gone), an enemy
//! formation found or gone, the turn to commit the reserves come, or the last turns come
//! ([`ENDGAME_TURNS`]) with none of its objectives held and one within reach while it goes
//! for an enemy force. Then
//! it makes one plan for each aim it could have (each of its objectives it does not hold, the
//! nearest enemy force it knows of, standing where it is; in those last turns, not the force
//! while an objective is within reach), plays each out with the fast judge for [`PLAN_TURNS`]
//! player turns on [`PLAN_SEEDS`] seeds (a level's budget may ask for more:
//! [`super::lookahead::Budget::plan_seeds`]), both sides played by the judge, its own inside the
//! candidate plan, and keeps the one worth most ([`super::value`]); ties keep the earlier.
//! The copies hold only the enemy units it knows of ([`determinized`]) and roll its own
//! stream, so a hidden unit cannot change its plan, and a game replays identically.

use super::plan::{Aim, Plan, Task, formations, holder, known_forces, make, middle};
use super::value::{WEIGHTS, value};
use crate::agents::perception::{determinized, known_enemies};
use crate::battle::Battle;
use crate::battle::state::{CmdId, Phase, SideId, UnitId};
use crate::rules::dice::Dice;
use std::collections::{BTreeMap, BTreeSet};

/// The last game turns, counted back from the turn limit, in which a side that holds none of
/// its own objectives plans for one its attackers reach before the last turn (or for
/// standing, when it is winning), not for an enemy force: an objective held at the end
/// decides the battle, an enemy force beaten in the last turns rarely does.
pub const ENDGAME_TURNS: u32 = 4;

/// A battle of more stands than this at the start is planned (Gettysburg's 300); the small
/// scenarios are the look-ahead's alone, as before.
pub const PLAN_STANDS: u32 = 120;

/// Player turns a candidate plan is played out for: the side's turn and the enemy's answer.
pub const PLAN_TURNS: u32 = 2;

/// Play-outs of each candidate plan, on the same dice for every candidate.
pub const PLAN_SEEDS: usize = 2;

/// Actions a plan's play-out may take before it is judged where it stands.
pub const PLAN_HORIZON: u32 = 3000;

/// How a candidate plan is played out: from a battle, for a side, on dice of a seed, for a
/// number of player turns, to the battle where it stops (the judge's,
/// [`super::Scheduler::play_plan`]).
pub type PlayOut = fn(&Battle, SideId, &Plan, u64, u32) -> Battle;

/// What a plan was made from, as the side knows it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Situation {
    /// Who holds each objective (as the side knows it).
    held: Vec<Option<SideId>>,
    /// Its formations with the units each has left.
    formations: BTreeMap<CmdId, usize>,
    /// The enemy formations it knows of.
    forces: BTreeSet<CmdId>,
}

impl Situation {
    pub fn read(b: &Battle, side: SideId, known: &[UnitId]) -> Self {
        Situation {
            held: (0..b.objectives.len()).map(|i| holder(b, i, side, known)).collect(),
            formations: formations(b, side).into_iter().map(|(c, us)| (c, us.len())).collect(),
            forces: known_forces(b, known).into_iter().map(|(c, _)| c).collect(),
        }
    }

    /// Why a plan made on `self` no longer fits `now`, in words, if it does not.
    pub fn changed(&self, b: &Battle, side: SideId, now: &Situation, plan: &Plan, known: &[UnitId]) -> Option<String> {
        use crate::report::intent::{formation_named, formation_words};
        for (i, (was, is)) in self.held.iter().zip(&now.held).enumerate() {
            if was != is {
                let name = &b.objectives[i].name;
                let own = b.objectives[i].side == b.sides[side].name;
                return Some(match (is, own) {
                    (Some(s), true) if *s == side => format!("{name} taken"),
                    (Some(_), true) => format!("{name} lost to the enemy"),
                    (Some(s), false) if *s == side => format!("the enemy's {name} denied"),
                    (Some(_), false) => format!("the enemy took {name}"),
                    (None, _) => format!("{name} contested"),
                });
            }
        }
        for (c, &n) in &self.formations {
            let left = now.formations.get(c).copied().unwrap_or(0);
            if left * 2 <= n && n > 0 {
                return Some(format!("{} broken", formation_words(b, b.commander(*c))));
            }
        }
        let enemy_name = |c: CmdId| {
            let mut theirs = known.iter().filter(|&&e| b.unit(e).hq == c).peekable();
            let guns = theirs.peek().is_some() && theirs.all(|&e| b.unit(e).is_artillery());
            formation_named(b.commander(c), guns)
        };
        if let Some(&c) = now.forces.difference(&self.forces).next() {
            return Some(format!("{} found", enemy_name(c)));
        }
        if let Aim::Force(f) = plan.aim
            && !now.forces.contains(&f)
        {
            return Some(format!("{} out of sight", enemy_name(f)));
        }
        // Only while an objective within reach is among the plans to choose from: two turns
        // from the end none is (an attacker is "by" the next turn at the soonest, and one by
        // the last turn is late), and the force plan stays.
        if endgame(b)
            && matches!(plan.aim, Aim::Force(_))
            && !holds_own(b, side, side, known)
            && candidates(b, side, known)
                .iter()
                .any(|p| matches!(p.aim, Aim::Objective(_)))
        {
            return Some("time to take an objective".into());
        }
        if b.game_turn >= super::plan::commit_turn(b) && plan.parts.iter().any(|p| p.task == Task::Reserve) {
            return Some("time to commit the reserves".into());
        }
        None
    }
}

/// The plan a scheduler keeps and remakes.
#[derive(Clone)]
pub struct Planner {
    dice: Dice,
    /// Play-outs of each candidate plan ([`PLAN_SEEDS`] unless made [`Planner::deeper`]).
    seeds: usize,
    /// Player turns a candidate is played out for ([`PLAN_TURNS`] unless deeper).
    turns: u32,
    seen: Situation,
    /// The (player turn, phase) last checked.
    checked: Option<(u32, Phase)>,
    /// The plan made or changed, to be said with the next choice: "plan changes (turn 5,
    /// Willoughby Run crossing taken)".
    pub news: Option<String>,
    /// Why the plan last told was made or changed (`Scheduler::plan_told`).
    pub told: Option<String>,
}

impl Planner {
    pub fn new(seed: u64) -> Self {
        Planner {
            dice: Dice::new(seed ^ 0x9e37_79b9_7f4a_7c15),
            seeds: PLAN_SEEDS,
            turns: PLAN_TURNS,
            seen: Situation::default(),
            checked: None,
            news: None,
            told: None,
        }
    }

    /// This planner, each candidate played out on `seeds` seeds for `turns` player turns
    /// (a level's [`super::lookahead::Budget`]).
    pub fn deeper(mut self, seeds: usize, turns: u32) -> Self {
        self.seeds = seeds.max(1);
        self.turns = turns.max(1);
        self
    }

    /// Make the plan, or make it again if the situation changed enough, at the side's own
    /// initiative and command phases (once each): the new plan, if one was made.
    pub fn update(&mut self, b: &Battle, side: SideId, plan: Option<&Plan>, play: PlayOut) -> Option<Plan> {
        // Asked at every choice: the cheap tests first.
        if b.active != side
            || !matches!(b.phase, Phase::Initiative | Phase::Command)
            || self.checked == Some((b.player_turn, b.phase))
            || b.is_over()
            || !planned(b)
        {
            return None;
        }
        self.checked = Some((b.player_turn, b.phase));
        let known = known_enemies(b, side);
        let now = Situation::read(b, side, &known);
        let why = match plan {
            None => "the battle begins".to_string(),
            Some(p) => self.seen.changed(b, side, &now, p, &known)?,
        };
        self.seen = now;
        let chosen = self.choose(b, side, &known, play);
        let same = plan.is_some_and(|p| p.aim == chosen.aim && p.parts == chosen.parts);
        if !same {
            let verb = if plan.is_some() { "changes" } else { "made" };
            self.news = Some(format!("plan {verb} (turn {}, {why})", b.game_turn));
        }
        Some(chosen)
    }

    /// The candidate plans, each played out, and the one worth most.
    pub fn choose(&mut self, b: &Battle, side: SideId, known: &[UnitId], play: PlayOut) -> Plan {
        let candidates = candidates(b, side, known);
        if candidates.len() == 1 {
            return candidates.into_iter().next().expect("one plan");
        }
        let base = determinized(b, side, known);
        let mut worth = vec![0.0; candidates.len()];
        for _ in 0..self.seeds {
            let seed = (u64::from(self.dice.d(u32::MAX)) << 32) | u64::from(self.dice.d(u32::MAX));
            for (k, plan) in candidates.iter().enumerate() {
                let end = play(&base, side, plan, seed, self.turns);
                worth[k] += value(&end, side, known, &WEIGHTS);
            }
        }
        let best = (0..candidates.len())
            .max_by(|&x, &y| worth[x].total_cmp(&worth[y]).then(y.cmp(&x)))
            .unwrap_or(0);
        candidates.into_iter().nth(best).expect("a plan")
    }
}

/// The plans `side` chooses among: one for each of its [`aims`], less an objective its
/// attackers would reach only in the last turn, or later (it must be held at the end), while
/// another aim is left, and less the enemy force in the last turns ([`ENDGAME_TURNS`]) while
/// none of its objectives is held and one is left.
pub fn candidates(b: &Battle, side: SideId, known: &[UnitId]) -> Vec<Plan> {
    let mut candidates: Vec<Plan> = aims(b, side, known)
        .into_iter()
        .map(|a| make(b, side, known, a))
        .collect();
    // An objective its attackers would reach only in the last turn, or later, is out of
    // reach (it must be held at the end), while another aim is left.
    let late = |p: &Plan| {
        matches!(p.aim, Aim::Objective(_))
            && p.parts
                .iter()
                .filter(|q| q.task == Task::Attack)
                .all(|q| q.by + 1 >= b.turn_limit)
    };
    if candidates.iter().any(|p| !late(p) && p.aim != Aim::Stand) {
        candidates.retain(|p| !late(p));
    }
    // The last turns, none of its objectives held: an objective within reach, not a force.
    if endgame(b) && !holds_own(b, side, side, known) && candidates.iter().any(|p| matches!(p.aim, Aim::Objective(_))) {
        candidates.retain(|p| !matches!(p.aim, Aim::Force(_)));
    }
    candidates
}

/// Whether `b` is a battle the scheduler plans: more than [`PLAN_STANDS`] stands at the start.
pub fn planned(b: &Battle) -> bool {
    b.stands_at_start() > PLAN_STANDS
}

/// Whether the battle is in its last [`ENDGAME_TURNS`] game turns.
pub fn endgame(b: &Battle) -> bool {
    b.game_turn + ENDGAME_TURNS >= b.turn_limit
}

/// Whether `who` holds one of its own objectives, as `side` knows the enemy's units.
pub fn holds_own(b: &Battle, who: SideId, side: SideId, known: &[UnitId]) -> bool {
    let name = &b.sides[who].name;
    (0..b.objectives.len()).any(|i| &b.objectives[i].side == name && holder(b, i, side, known) == Some(who))
}

/// The aims `side` could plan for: each of its own objectives it does not hold, the known
/// enemy force nearest its army, and standing where it is.
pub fn aims(b: &Battle, side: SideId, known: &[UnitId]) -> Vec<Aim> {
    let name = &b.sides[side].name;
    let mine: Vec<UnitId> = b.side_units(side).filter(|u| u.alive()).map(|u| u.id).collect();
    let centre = middle(b, &mine);
    // Its objectives nearest first (a tie in the play-outs keeps the nearer).
    let mut objectives: Vec<usize> = (0..b.objectives.len())
        .filter(|&i| &b.objectives[i].side == name)
        .filter(|&i| holder(b, i, side, known) != Some(side))
        .collect();
    objectives.sort_by(|&x, &y| {
        let d = |i: usize| b.objectives[i].pos.dist(centre);
        d(x).total_cmp(&d(y)).then(x.cmp(&y))
    });
    let mut out: Vec<Aim> = objectives.into_iter().map(Aim::Objective).collect();
    if let Some((c, _)) = known_forces(b, known).into_iter().min_by(|x, y| {
        middle(b, &x.1)
            .dist(centre)
            .total_cmp(&middle(b, &y.1).dist(centre))
            .then(x.0.cmp(&y.0))
    }) {
        out.push(Aim::Force(c));
    }
    // Standing where it is wins only a battle the side is winning: when it holds an objective
    // of its own and the enemy none it knows of, or has the more victory points.
    let vp = b.victory_points();
    if (holds_own(b, side, side, known) && !holds_own(b, 1 - side, side, known)) || vp[side] > vp[1 - side] {
        out.push(Aim::Stand);
    }
    if out.is_empty() {
        out.push(Aim::Stand);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::Action;
    use crate::rules::geometry::{Pose, V2};

    const PLAY: PlayOut = crate::agents::scheduler::Scheduler::play_plan;

    fn gettysburg() -> Battle {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/gettysburg.ron");
        crate::load_battle(&path, 1).expect("gettysburg loads").0
    }

    /// Gettysburg at the start, the Confederates (who move first), the Union units they know
    /// of, and McPherson's Ridge (their minor objective).
    fn confederates_and_the_ridge() -> (Battle, SideId, Vec<UnitId>, usize) {
        let b = gettysburg();
        let side = b.first_side;
        let known = known_enemies(&b, side);
        let ridge = b
            .objectives
            .iter()
            .position(|o| o.name == "McPherson's Ridge")
            .expect("the ridge");
        (b, side, known, ridge)
    }

    /// Issue 66: a plan never uses what its side cannot see. A hidden enemy unit moved and
    /// cut to one stand leaves the Confederate plan as it was, play-outs and all; taking the
    /// enemy units it does know of off the table changes it (so the plan does read the enemy).
    #[test]
    fn a_plan_never_uses_what_its_side_cannot_see() {
        let mut b = gettysburg();
        let side = b.first_side;
        // The Union unit farthest from the Confederates, hidden (the scouting switch's hidden
        // set-up: unseen until found).
        let hidden = b
            .side_units(1 - side)
            .max_by(|x, y| {
                let d = |e: UnitId| {
                    b.side_units(side)
                        .map(|u| b.unit_distance(u.id, e))
                        .fold(f64::INFINITY, f64::min)
                };
                d(x.id).total_cmp(&d(y.id)).then(x.id.cmp(&y.id))
            })
            .expect("a Union unit")
            .id;
        b.arranging().unit_mut(hidden).hidden = true;
        let known = known_enemies(&b, side);
        assert!(!known.contains(&hidden));
        let mut changed = b.clone();
        let pose = changed.unit(hidden).pose;
        changed.arranging().units[hidden as usize].pose = Pose::new(pose.pos + V2::new(3.0, 2.0), pose.facing);
        changed.arranging().units[hidden as usize].stands = 1;
        changed.refresh_geometry();
        assert_eq!(known_enemies(&changed, side), known, "the change is out of sight too");
        assert_ne!(changed.unit(hidden).pose, b.unit(hidden).pose);
        let plan = Planner::new(5).choose(&b, side, &known, PLAY);
        assert_eq!(
            Planner::new(5).choose(&changed, side, &known, PLAY),
            plan,
            "a hidden unit changes nothing"
        );
        // The enemy it knows of does steer it: without them the plan aims elsewhere.
        assert!(!known.is_empty());
        let blind = Planner::new(5).choose(&b, side, &[], PLAY);
        assert_ne!(blind.parts, plan.parts, "{}\n{}", blind.words(&b), plan.words(&b));
    }

    /// Every formation gets one part; in a division of three formations or more left to
    /// attack, the one farthest from the aim is its reserve, behind a named hill or wood; the
    /// rest attack the aim; a formation on an objective with a known enemy near holds it.
    #[test]
    fn each_formation_has_a_part_and_a_big_division_keeps_its_farthest_in_reserve() {
        let (b, side, known, ridge) = confederates_and_the_ridge();
        let plan = make(&b, side, &known, Aim::Objective(ridge));
        let forms = formations(&b, side);
        let mut commanders: Vec<CmdId> = plan.parts.iter().map(|p| p.commander).collect();
        commanders.dedup();
        assert_eq!(
            commanders,
            forms.iter().map(|f| f.0).collect::<Vec<_>>(),
            "one part each"
        );
        let aim = b.objectives[ridge].pos;
        let mut divisions: BTreeMap<CmdId, Vec<&super::super::plan::Part>> = BTreeMap::new();
        for p in &plan.parts {
            divisions.entry(b.division_of(p.commander)).or_default().push(p);
        }
        let far = |c: CmdId| {
            let us = &forms.iter().find(|f| f.0 == c).expect("a formation").1;
            middle(&b, us).dist(aim)
        };
        let mut reserves = 0;
        for parts in divisions.values() {
            let free: Vec<_> = parts.iter().filter(|p| p.task != Task::Hold).collect();
            let reserve: Vec<_> = free.iter().filter(|p| p.task == Task::Reserve).collect();
            if free.len() >= super::super::plan::RESERVE_FROM {
                assert_eq!(reserve.len(), 1, "one reserve in {}", plan.words(&b));
                let r = reserve[0].commander;
                assert!(
                    free.iter().all(|p| far(p.commander) <= far(r)),
                    "the farthest is held back"
                );
                assert!(matches!(reserve[0].intent, crate::battle::intent::Intent::Behind(_)));
                reserves += 1;
            } else {
                assert!(reserve.is_empty());
            }
            for p in free.iter().filter(|p| p.task == Task::Attack) {
                assert!(
                    matches!(&p.intent, crate::battle::intent::Intent::To(pl) if pl.name == "McPherson's Ridge"),
                    "{:?}",
                    p.intent
                );
                assert!(p.by >= b.game_turn && p.by <= b.turn_limit);
            }
        }
        assert!(reserves >= 2, "Heth's and Pender's divisions each keep one back");
        let words = plan.words(&b);
        assert!(
            words.contains("Heth's division: attack McPherson's Ridge by turn"),
            "{words}"
        );
        assert!(words.contains("in reserve behind"), "{words}");
        assert!(
            words.contains(" on the left") && words.contains(" on the right"),
            "{words}"
        );
    }

    /// A formation's "by" turn is at its slowest movable unit's marching pace, a gun's at its
    /// limbered rate: on Gettysburg every division reaches its objectives before the last
    /// turn, so objectives stay among the aims (when an unlimbered gun's 3 cm a turn counted,
    /// every artillery brigade was "by turn 12" and every objective was dropped as late).
    #[test]
    fn a_formation_is_timed_at_its_marching_pace_and_objectives_stay_aims() {
        let (b, side, known, ridge) = confederates_and_the_ridge();
        let plan = make(&b, side, &known, Aim::Objective(ridge));
        let forms = formations(&b, side);
        let guns = forms
            .iter()
            .find(|(_, us)| us.iter().all(|&u| b.unit(u).is_artillery()))
            .expect("an artillery formation");
        let part = plan
            .parts
            .iter()
            .find(|p| p.commander == guns.0)
            .expect("the guns' part");
        let gun = b.unit(guns.1[0]);
        assert!(!gun.limbered && gun.move_rate() == 3.0 && gun.march_rate() == 15.0);
        // 15 cm a turn at one and a half moves a turn: the distance over 22.5, rounded up.
        let d = middle(&b, &guns.1).dist(b.objectives[ridge].pos);
        assert_eq!(part.task, Task::Attack, "{}", plan.words(&b));
        assert_eq!(part.by, b.game_turn + (d / 22.5).ceil().max(1.0) as u32, "{d}");
        assert!(plan.parts.iter().all(|p| p.by < b.turn_limit), "{}", plan.words(&b));
        let chosen = Planner::new(3).choose(&b, side, &known, PLAY);
        assert!(
            aims(&b, side, &known).iter().any(|a| matches!(a, Aim::Objective(_))),
            "the Confederates' objectives are aims"
        );
        assert_ne!(chosen.aim, Aim::Stand);
    }

    /// The last turns: from [`ENDGAME_TURNS`] before the turn limit, a side holding none of
    /// its own objectives, with one its attackers reach before the last turn, plans for it
    /// (or for standing), not for an enemy force, and a plan going for a force is made again
    /// then ("time to take an objective"), not a turn before; with every objective out of
    /// reach (the army where it started, or two turns from the end), the force plan stays and
    /// no objective is the aim; holding an objective of its own, an enemy force is an aim
    /// again.
    #[test]
    fn in_the_last_turns_a_side_holding_none_of_its_objectives_goes_for_one_it_can_reach() {
        let (b, side, known, ridge) = confederates_and_the_ridge();
        let at = |t: u32| {
            let mut c = b.clone();
            c.arranging().game_turn = t;
            c
        };
        // The army come forward: every unit at most a move and a half (its side's slowest
        // rate, twice, less a little) from the ridge, so its attackers are there by two turns.
        let forward = |t: u32| {
            let mut c = at(t);
            let p = c.objectives[ridge].pos;
            let slowest = c
                .side_units(side)
                .map(|u| u.march_rate())
                .filter(|&r| r > 0.0)
                .fold(f64::INFINITY, f64::min);
            let reach = slowest * 1.5 * 1.9;
            let mine: Vec<UnitId> = c.side_units(side).map(|u| u.id).collect();
            for u in mine {
                let pose = c.unit(u).pose;
                let off = pose.pos - p;
                let d = off.len();
                if d > reach {
                    c.arranging().unit_mut(u).pose = Pose::new(p + off * (reach / d), pose.facing);
                }
            }
            c.refresh_geometry();
            c
        };
        let before = at(b.turn_limit - ENDGAME_TURNS - 1);
        let late = forward(b.turn_limit - ENDGAME_TURNS);
        let last = forward(b.turn_limit - 2);
        assert!(!endgame(&before) && endgame(&late) && endgame(&last));
        assert!(!holds_own(&late, side, side, &known));
        let force = aims(&b, side, &known)
            .into_iter()
            .find(|a| matches!(a, Aim::Force(_)))
            .expect("at the start the nearest force is an aim");
        assert!(aims(&late, side, &known).contains(&Aim::Objective(ridge)));
        // A plan going for a force (made the turn before, its reserves committed) is made
        // again in the last turns.
        let plan = make(&before, side, &known, force);
        let read = |c: &Battle| Situation::read(c, side, &known);
        let seen = read(&b);
        assert_eq!(seen.changed(&before, side, &read(&before), &plan, &known), None);
        // Where it started, every objective is out of reach in the last turns: the plan stays.
        let behind = at(b.turn_limit - ENDGAME_TURNS);
        assert!(
            candidates(&behind, side, &known)
                .iter()
                .all(|p| !matches!(p.aim, Aim::Objective(_)))
        );
        assert_eq!(seen.changed(&behind, side, &read(&behind), &plan, &known), None);
        // Come forward (the plan made the turn before there), it is made again.
        let ahead = forward(b.turn_limit - ENDGAME_TURNS - 1);
        let seen = read(&ahead);
        assert_eq!(seen.changed(&ahead, side, &read(&ahead), &plan, &known), None);
        assert_eq!(
            seen.changed(&late, side, &read(&late), &plan, &known).as_deref(),
            Some("time to take an objective")
        );
        assert_eq!(seen.changed(&last, side, &read(&last), &plan, &known), None);
        let chosen = Planner::new(7).choose(&late, side, &known, PLAY);
        assert!(
            matches!(chosen.aim, Aim::Objective(_) | Aim::Stand),
            "{}",
            chosen.words(&late)
        );
        let beforehand = Planner::new(7).choose(&before, side, &known, PLAY);
        assert!(matches!(beforehand.aim, Aim::Force(_)), "{}", beforehand.words(&before));
        // Two turns from the end no objective is within reach: none is the aim.
        let out = Planner::new(7).choose(&last, side, &known, PLAY);
        assert!(!matches!(out.aim, Aim::Objective(_)), "{}", out.words(&last));
        // Holding McPherson's Ridge (a regiment on it, the Union units near it gone), its
        // force plan is not made again for the last turns.
        let mut held = late.clone();
        let p = held.objectives[ridge].pos;
        let near: Vec<UnitId> = known
            .iter()
            .copied()
            .filter(|&e| held.unit(e).pose.pos.dist(p) < 30.0)
            .collect();
        let regiment = held
            .side_units(side)
            .find(|u| !u.is_artillery())
            .expect("a regiment")
            .id;
        let facing = held.unit(regiment).pose.facing;
        held.arranging().unit_mut(regiment).pose = Pose::new(p, facing);
        for e in near {
            held.arranging().unit_mut(e).knocked_out = true;
        }
        held.refresh_geometry();
        let known_held = known_enemies(&held, side);
        assert!(holds_own(&held, side, side, &known_held));
        let now = Situation::read(&held, side, &known_held);
        assert_eq!(now.changed(&held, side, &now, &plan, &known_held), None);
    }

    /// The plan is made again when the situation changes enough: a formation losing half its
    /// units, an objective changing hands, the turn to commit the reserves.
    #[test]
    fn the_situation_changes_when_a_formation_breaks_or_an_objective_is_taken() {
        let b = gettysburg();
        let side = b.first_side;
        let known = known_enemies(&b, side);
        let plan = make(&b, side, &known, aims(&b, side, &known)[0]);
        let seen = Situation::read(&b, side, &known);
        assert_eq!(seen.changed(&b, side, &seen, &plan, &known), None, "nothing changed");
        // Half of Archer's brigade knocked out.
        let (archer, units) = formations(&b, side)
            .into_iter()
            .find(|(c, _)| b.commander(*c).name.contains("Archer"))
            .expect("Archer's brigade");
        let mut broken = b.clone();
        for &u in &units[..units.len().div_ceil(2)] {
            broken.arranging().units[u as usize].knocked_out = true;
        }
        broken.refresh_geometry();
        let now = Situation::read(&broken, side, &known);
        assert_eq!(
            seen.changed(&broken, side, &now, &plan, &known).as_deref(),
            Some("Archer's brigade broken"),
            "{archer}"
        );
        // A Confederate unit set on the Willoughby Run crossing (the Union's, with no Union
        // unit on it): the enemy's objective denied.
        let crossing = b
            .objectives
            .iter()
            .position(|o| o.name == "Willoughby Run crossing")
            .expect("the crossing");
        let mut on = b.clone();
        let p = on.objectives[crossing].pos;
        let facing = on.unit(units[0]).pose.facing;
        on.arranging().units[units[0] as usize].pose = Pose::new(p, facing);
        on.refresh_geometry();
        let known_on = known_enemies(&on, side);
        if holder(&on, crossing, side, &known_on) == Some(side) {
            let now = Situation::read(&on, side, &known_on);
            assert_eq!(
                seen.changed(&on, side, &now, &plan, &known_on).as_deref(),
                Some("the enemy's Willoughby Run crossing denied")
            );
        } else {
            panic!("the crossing is held by a unit standing on it");
        }
    }

    /// The scheduler plans on Gettysburg, and says so once, before its first choice's reason;
    /// on the small battles it does not (they play as before).
    #[test]
    fn the_scheduler_plans_a_big_battle_and_says_its_plan() {
        let mut b = gettysburg();
        let side = b.actor();
        let mut agent = crate::agents::by_name("scheduler", 1, side).expect("the scheduler");
        let legal = b.legal_actions();
        let i = agent.choose(&b, &legal);
        let news = agent.plan_news(&b, None).expect("a plan made at its first choice");
        assert!(news.starts_with("plan made (turn 1, the battle begins): "), "{news}");
        assert!(news.contains("attack"), "{news}");
        assert_eq!(agent.plan_news(&b, None), None, "said once");
        b.step(&legal[i]).expect("its choice applies");
        // Said to the Union player: only the Confederate formations the Union can see (two
        // brigades hidden, as by the scouting switch's hidden set-up).
        for name in ["Thomas", "Scales"] {
            let c = b
                .commanders
                .iter()
                .find(|c| c.name.contains(name))
                .expect("a brigade")
                .id;
            let ids: Vec<UnitId> = b.side_units(side).filter(|u| u.hq == c).map(|u| u.id).collect();
            for u in ids {
                b.arranging().unit_mut(u).hidden = true;
            }
        }
        let seen: BTreeSet<CmdId> = known_enemies(&b, 1 - side).into_iter().map(|e| b.unit(e).hq).collect();
        let unseen: Vec<CmdId> = formations(&b, side)
            .into_iter()
            .map(|f| f.0)
            .filter(|c| !seen.contains(c))
            .collect();
        assert!(
            !unseen.is_empty(),
            "some Confederate formation is out of the Union's sight"
        );
        let plan = make(&b, side, &known_enemies(&b, side), Aim::Stand);
        let told = plan.words_for(&b, Some(1 - side));
        for c in unseen {
            let name = super::super::plan::part_name(&b, c);
            assert!(!told.contains(&format!("{name} ")), "{name} is hidden: {told}");
        }
        for small in ["skirmish", "first_battle"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("maps/{small}.ron"));
            let (mut s, _) = crate::load_battle(&path, 1).expect("loads");
            let mut agent = crate::agents::by_name("scheduler", 1, 0).expect("the scheduler");
            for _ in 0..40 {
                if s.is_over() {
                    break;
                }
                let legal = s.legal_actions();
                let i = if s.actor() == 0 { agent.choose(&s, &legal) } else { 0 };
                assert_eq!(agent.plan_news(&s, None), None, "{small} is not planned");
                if s.step(&legal[i]).is_err() {
                    s.step(&Action::EndPhase).ok();
                }
            }
        }
    }

    /// Inside a plan the judge steers a unit by its formation's part: an attacker with no
    /// known enemy within its weapon range and [`ENGAGE_MARGIN`] makes for the aim, a reserve
    /// for its place; outside a plan a unit has no task.
    ///
    /// [`ENGAGE_MARGIN`]: super::super::evaluate::ENGAGE_MARGIN
    #[test]
    fn the_judge_steers_a_unit_by_its_formations_part() {
        use super::super::evaluate::{Ctx, ENGAGE_MARGIN};
        let (b, side, known, ridge) = confederates_and_the_ridge();
        let plan = std::sync::Arc::new(make(&b, side, &known, Aim::Objective(ridge)));
        let ctx = Ctx::planned(&b, side, &[], Some(plan.clone()));
        let plain = Ctx::new(&b, side, &[]);
        let free = |u: UnitId| {
            let range = b.weapon_range(b.unit(u)) + ENGAGE_MARGIN;
            !ctx.assigned.contains_key(&u) && known.iter().all(|&e| b.unit_distance(u, e) > range)
        };
        let mut attackers = 0;
        let mut reserves = 0;
        for u in b.side_units(side).map(|u| u.id).filter(|&u| free(u)) {
            let Some(part) = plan.part_of(&b, u) else { continue };
            let aim = ctx.aim(&b, u).expect("a planned unit has an aim");
            match part.task {
                Task::Attack => {
                    assert!(aim.at.dist(b.objectives[ridge].pos) < 1e-9, "{}", b.unit(u).name);
                    attackers += 1;
                }
                Task::Reserve => {
                    let (g, _) = plan.goal(&b, u).map(|(_, g, w)| (g, w)).expect("a place");
                    assert!(aim.at.dist(g) < 1e-9);
                    reserves += 1;
                }
                Task::Hold => {}
            }
            assert_eq!(ctx.task(&b, u), Some(part.task));
            assert_eq!(plain.task(&b, u), None);
        }
        assert!(
            attackers > 0 && reserves > 0,
            "{attackers} attackers, {reserves} reserves free"
        );
    }
}
