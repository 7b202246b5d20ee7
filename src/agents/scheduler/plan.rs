//! The plan above the look-ahead (issue 66): on a big battle each of the side's formations (a
//! brigade: a commander and the units he leads himself) gets a task (attack, hold, be the
//! reserve), said as the intent a player could give it ("to Herr Tavern", "into range of 13th
//! Alabama", "retire behind Herr Ridge", "hold"), with the game turn it should be there by.
//! The judge then ranks each unit's moves by how they serve its formation's task
//! ([`Plan::goal`]). What a plan is and how it is said; how one is chosen and when it changes
//! is [`super::planner`].
//!
//! A plan is made from what the side knows: its own units, the enemy units it knows of, the
//! table's places. Nothing else reaches it.

use crate::battle::Battle;
use crate::battle::intent::{Intent, Place, PlaceKind};
use crate::battle::state::{CmdId, SideId, UnitId};
use crate::rules::geometry::V2;
use std::collections::{BTreeMap, BTreeSet};

/// A formation's task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Task {
    /// Go for the plan's aim (an objective or an enemy force), fighting what stands in the way.
    Attack,
    /// Stay on a place the side holds (an objective of its own, or one of the enemy's it
    /// denies), fighting from there.
    Hold,
    /// Wait behind a place, out of the fight, until the plan commits it.
    Reserve,
}

/// What a plan aims at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// One of the side's own objectives (its index in the scenario's list).
    Objective(usize),
    /// An enemy formation the side knows of (its commander).
    Force(CmdId),
    /// Nowhere: every formation holds where it stands.
    Stand,
}

/// One formation's part in a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub commander: CmdId,
    pub task: Task,
    pub intent: Intent,
    /// The game turn it should be there by.
    pub by: u32,
}

/// The side's plan: a part for each of its formations.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub aim: Aim,
    pub parts: Vec<Part>,
    /// The game turn it was made.
    pub made: u32,
}

/// The formations of `side` with units left: each commander (by id) with the living units he
/// leads himself.
pub fn formations(b: &Battle, side: SideId) -> Vec<(CmdId, Vec<UnitId>)> {
    by_commander(b, b.side_units(side).map(|u| u.id))
}

/// `units` (the living among them) grouped by the commander who leads them, in his id's order.
fn by_commander(b: &Battle, units: impl Iterator<Item = UnitId>) -> Vec<(CmdId, Vec<UnitId>)> {
    let mut by: BTreeMap<CmdId, Vec<UnitId>> = BTreeMap::new();
    for u in units.filter(|&u| b.unit(u).alive()) {
        by.entry(b.unit(u).hq).or_default().push(u);
    }
    by.into_iter().collect()
}

/// The middle of some units.
pub fn middle(b: &Battle, units: &[UnitId]) -> V2 {
    let n = units.len().max(1) as f64;
    units.iter().fold(V2::ZERO, |a, &u| a + b.unit(u).pose.pos * (1.0 / n))
}

/// The enemy formations `side` knows of: each enemy commander with the units of his it knows.
pub fn known_forces(b: &Battle, known: &[UnitId]) -> Vec<(CmdId, Vec<UnitId>)> {
    by_commander(b, known.iter().copied())
}

/// An objective as a place an intent may aim at.
pub fn objective_place(b: &Battle, i: usize) -> Place {
    let o = &b.objectives[i];
    Place {
        name: o.name.clone(),
        kind: PlaceKind::Objective(i),
        pos: o.pos,
    }
}

/// Which side holds objective `i` as `side` knows it: a unit of one side within its radius
/// and no unit of the other (of the enemy, one `side` knows of).
pub fn holder(b: &Battle, i: usize, side: SideId, known: &[UnitId]) -> Option<SideId> {
    let o = &b.objectives[i];
    let near = |u: UnitId| b.rects(u).iter().any(|r| r.distance_to_point(o.pos) <= o.radius);
    let mine = b.side_units(side).any(|u| u.alive() && near(u.id));
    let theirs = known.iter().any(|&e| b.unit(e).alive() && near(e));
    match (mine, theirs) {
        (true, false) => Some(side),
        (false, true) => Some(1 - side),
        _ => None,
    }
}

/// The turns a formation needs to cover `d` cm: a move and a half a turn (an order and a
/// follow-up, about) at its slowest unit's rate.
fn turns_for(b: &Battle, units: &[UnitId], d: f64) -> u32 {
    // At the pace of its slowest unit that can move, a gun at its limbered rate (a gun that
    // cannot move at all does not hold the formation back).
    let rate = units
        .iter()
        .map(|&u| b.unit(u).march_rate())
        .filter(|&r| r > 0.0)
        .fold(f64::INFINITY, f64::min);
    if !rate.is_finite() {
        return b.turn_limit.saturating_sub(b.game_turn).max(1);
    }
    (d / (rate.max(1.0) * 1.5)).ceil().max(1.0) as u32
}

/// The named hill or area nearest `p`, as a place (a reserve waits behind it).
fn cover_place(b: &Battle, side: SideId, p: V2) -> Option<Place> {
    b.places(side)
        .into_iter()
        .filter(|pl| matches!(pl.kind, PlaceKind::Hill(_) | PlaceKind::Area(_)))
        .min_by(|x, y| x.pos.dist(p).total_cmp(&y.pos.dist(p)))
}

/// A formation holds an enemy's objective it stands on (denying it) while a known enemy is
/// this near it (cm); else it is free to attack.
pub const DENY_WITHIN: f64 = 40.0;

/// A division with this many formations left to attack keeps one back as its reserve.
pub const RESERVE_FROM: usize = 3;

/// The game turn from which the plan commits its reserves: the second half of the battle.
pub fn commit_turn(b: &Battle) -> u32 {
    b.turn_limit.div_ceil(2) + 1
}

/// The plan that goes for `aim`: a formation standing on an objective (its side's, or one of
/// the enemy's it denies) holds it, one a place; in each division of three formations or more
/// left to attack, the one farthest from the aim is the reserve until [`commit_turn`]; every
/// other formation attacks. `known`: the enemy units the side knows of.
pub fn make(b: &Battle, side: SideId, known: &[UnitId], aim: Aim) -> Plan {
    let forms = formations(b, side);
    let forces = known_forces(b, known);
    let target = match aim {
        Aim::Objective(i) => Some(b.objectives[i].pos),
        Aim::Force(f) => forces.iter().find(|(c, _)| *c == f).map(|(_, us)| middle(b, us)),
        Aim::Stand => None,
    };
    let mut parts: Vec<Part> = Vec::new();
    let mut placed: BTreeSet<CmdId> = BTreeSet::new();
    // Holders: for each objective the side stands on, the formation with a unit nearest it;
    // one of the enemy's (denied by standing on it) only while a known enemy is within
    // [`DENY_WITHIN`] of it.
    for i in 0..b.objectives.len() {
        if holder(b, i, side, known) != Some(side) {
            continue;
        }
        let o = b.objectives[i].pos;
        let theirs = b.objectives[i].side != b.sides[side].name;
        if theirs
            && !known
                .iter()
                .any(|&e| b.unit(e).alive() && b.unit(e).pose.pos.dist(o) <= DENY_WITHIN)
        {
            continue;
        }
        let nearest = forms
            .iter()
            .filter(|(c, _)| !placed.contains(c))
            .flat_map(|(c, us)| us.iter().map(move |&u| (*c, u)))
            .min_by(|x, y| {
                let d = |u: UnitId| b.unit(u).pose.pos.dist(o);
                d(x.1).total_cmp(&d(y.1)).then(x.0.cmp(&y.0))
            });
        if let Some((c, _)) = nearest {
            placed.insert(c);
            parts.push(Part {
                commander: c,
                task: Task::Hold,
                intent: Intent::To(objective_place(b, i)),
                by: b.game_turn,
            });
        }
    }
    let Some(target) = target else {
        for (c, _) in forms.iter().filter(|(c, _)| !placed.contains(c)) {
            parts.push(Part {
                commander: *c,
                task: Task::Hold,
                intent: Intent::Hold,
                by: b.game_turn,
            });
        }
        parts.sort_by_key(|p| p.commander);
        return Plan {
            aim,
            parts,
            made: b.game_turn,
        };
    };
    // The rest by division, each division's farthest formation in reserve while it has three.
    let mut divisions: BTreeMap<CmdId, Vec<(CmdId, &Vec<UnitId>)>> = BTreeMap::new();
    for (c, us) in forms.iter().filter(|(c, _)| !placed.contains(c)) {
        divisions.entry(b.division_of(*c)).or_default().push((*c, us));
    }
    let reserving = b.game_turn < commit_turn(b);
    for (_, mut members) in divisions {
        let far = |us: &Vec<UnitId>| middle(b, us).dist(target);
        members.sort_by(|x, y| far(x.1).total_cmp(&far(y.1)).then(x.0.cmp(&y.0)));
        let reserve = (reserving && members.len() >= RESERVE_FROM)
            .then(|| members.pop())
            .flatten();
        if let Some((c, us)) = reserve
            && let Some(place) = cover_place(b, side, middle(b, us) + (target - middle(b, us)) * 0.25)
        {
            parts.push(Part {
                commander: c,
                task: Task::Reserve,
                intent: Intent::Behind(place),
                by: b.game_turn + turns_for(b, us, 20.0),
            });
        } else if let Some((c, us)) = reserve {
            members.push((c, us));
        }
        for (c, us) in members {
            let from = middle(b, us);
            let intent = match aim {
                Aim::Force(f) => {
                    let them = &forces.iter().find(|(k, _)| *k == f).expect("the aim's force").1;
                    let e = *them
                        .iter()
                        .min_by(|x, y| {
                            let d = |e: UnitId| b.unit(e).pose.pos.dist(from);
                            d(**x).total_cmp(&d(**y)).then(x.cmp(y))
                        })
                        .expect("a force has units");
                    Intent::IntoRange(e)
                }
                Aim::Objective(i) => Intent::To(objective_place(b, i)),
                Aim::Stand => unreachable!("Stand has no target"),
            };
            parts.push(Part {
                commander: c,
                task: Task::Attack,
                intent,
                by: (b.game_turn + turns_for(b, us, from.dist(target))).min(b.turn_limit),
            });
        }
    }
    parts.sort_by_key(|p| p.commander);
    Plan {
        aim,
        parts,
        made: b.game_turn,
    }
}

impl Plan {
    /// The part of the formation `unit` belongs to.
    pub fn part_of(&self, b: &Battle, unit: UnitId) -> Option<&Part> {
        let hq = b.unit(unit).hq;
        self.parts.iter().find(|p| p.commander == hq)
    }

    /// Where `unit` is sent by its formation's part and how near it wants to be (cm): the
    /// intent's point ([`Battle::intent_goal`]); an objective's point within two fifths of its
    /// radius, an enemy within seven tenths of the unit's weapon range. None for a unit its
    /// plan leaves where it stands, or whose part's enemy is gone.
    pub fn goal(&self, b: &Battle, unit: UnitId) -> Option<(Task, V2, f64)> {
        let part = self.part_of(b, unit)?;
        let u = b.unit(unit);
        let (at, want) = match &part.intent {
            Intent::Hold => return None,
            Intent::To(place) => {
                let r = match place.kind {
                    PlaceKind::Objective(i) => b.objectives.get(i).map_or(2.0, |o| o.radius * 0.4),
                    _ => 2.0,
                };
                (b.place_point(place, u.pose.pos), r)
            }
            Intent::IntoRange(e) | Intent::ChargeReach(e) => {
                let e = b.units.get(*e as usize).filter(|e| e.alive())?;
                (e.pose.pos, b.weapon_range(u) * 0.7)
            }
            intent => {
                let keep = crate::battle::intent::Keep::alone();
                (b.intent_goal(unit, intent, &keep)?.0, 2.0)
            }
        };
        Some((part.task, at, want))
    }

    /// The plan in a line a player reads: for each division, its aim and its brigades' parts
    /// ("Heth's division: attack Herr Tavern, Archer's brigade on the left, Davis's brigade on
    /// the right; Brockenbrough's brigade in reserve behind Herr Ridge"); a formation's
    /// intent is said where it is not the division's aim.
    pub fn words(&self, b: &Battle) -> String {
        self.words_for(b, None)
    }

    /// [`Plan::words`] said to `viewer`: of the formations that side can see (a formation with
    /// a unit it knows of; its own side's all), the rest left out ("and what it cannot see" is
    /// not said either). None: all of them.
    pub fn words_for(&self, b: &Battle, viewer: Option<SideId>) -> String {
        use crate::report::intent::formation_words;
        let name = |c: CmdId| part_name(b, c);
        let seen: Option<BTreeSet<CmdId>> = viewer
            .filter(|&v| self.parts.first().is_some_and(|p| b.commander(p.commander).side != v))
            .map(|v| {
                crate::agents::perception::known_enemies(b, v)
                    .into_iter()
                    .map(|e| b.unit(e).hq)
                    .collect()
            });
        let mut divisions: BTreeMap<CmdId, Vec<&Part>> = BTreeMap::new();
        for p in self
            .parts
            .iter()
            .filter(|p| seen.as_ref().is_none_or(|s| s.contains(&p.commander)))
        {
            divisions.entry(b.division_of(p.commander)).or_default().push(p);
        }
        let mut out = Vec::new();
        for (d, parts) in divisions {
            let mut said = Vec::new();
            let attackers: Vec<&&Part> = parts.iter().filter(|p| p.task == Task::Attack).collect();
            if !attackers.is_empty() {
                let aim = match self.aim {
                    Aim::Objective(i) => b.objectives[i].name.clone(),
                    Aim::Force(f) => formation_words(b, b.commander(f)),
                    Aim::Stand => String::new(),
                };
                let by = attackers.iter().map(|p| p.by).max().unwrap_or(b.game_turn);
                let mut line = format!("attack {aim} by turn {by}");
                let sides = flanks(b, &attackers.iter().map(|p| p.commander).collect::<Vec<_>>(), self);
                let heading = formation_words(b, b.commander(d));
                for (c, flank) in sides {
                    // A division of one formation is not named twice.
                    if !(flank.is_empty() && name(c) == heading) {
                        line += &format!(", {}{flank}", name(c));
                    }
                }
                said.push(line);
            }
            for p in parts.iter().filter(|p| p.task != Task::Attack) {
                said.push(match (&p.task, &p.intent) {
                    (Task::Hold, Intent::To(place)) => format!("{} holds {}", name(p.commander), place.name),
                    (Task::Hold, _) => format!("{} holds where it stands", name(p.commander)),
                    (_, Intent::Behind(place)) => {
                        format!("{} in reserve behind {}", name(p.commander), place.name)
                    }
                    (_, intent) => format!("{} in reserve, {}", name(p.commander), intent.words(b)),
                });
            }
            out.push(format!("{}: {}", formation_words(b, b.commander(d)), said.join("; ")));
        }
        if out.is_empty() {
            return "nothing of it you can see".into();
        }
        out.join(". ")
    }
}

/// A formation as a plan names it: a brigade by [`formation_words`]; the units a division's or
/// corps' commander leads himself by the one unit's name ("Battery A, 2nd US (Calef)"), else
/// as his own ("Buford's own guns").
///
/// [`formation_words`]: crate::report::intent::formation_words
pub fn part_name(b: &Battle, c: CmdId) -> String {
    use crate::data::army::CommandLevel;
    let cm = b.commander(c);
    if cm.row.level == CommandLevel::Brigade {
        return crate::report::intent::formation_words(b, cm);
    }
    let own: Vec<&crate::battle::state::Unit> = b.units.iter().filter(|u| u.hq == c && u.alive()).collect();
    match own.as_slice() {
        [one] => one.name.clone(),
        _ => {
            let surname = cm.name.rsplit(' ').next().unwrap_or(&cm.name);
            let what = if own.iter().all(|u| u.is_artillery()) {
                "guns"
            } else {
                "units"
            };
            format!("{surname}'s own {what}")
        }
    }
}

/// The attacking formations `cs` from left to right as they face the aim: each with " on the
/// left", " in the centre" or " on the right" (one alone: nothing).
fn flanks(b: &Battle, cs: &[CmdId], plan: &Plan) -> Vec<(CmdId, &'static str)> {
    if cs.len() < 2 {
        return cs.iter().map(|&c| (c, "")).collect();
    }
    let forms = formations(b, b.commander(cs[0]).side);
    let mid = |c: CmdId| forms.iter().find(|f| f.0 == c).map_or(V2::ZERO, |f| middle(b, &f.1));
    let centre = cs.iter().fold(V2::ZERO, |a, &c| a + mid(c) * (1.0 / cs.len() as f64));
    let target = cs
        .first()
        .and_then(|&c| plan.parts.iter().find(|p| p.commander == c))
        .and_then(|p| match &p.intent {
            Intent::To(place) => Some(place.pos),
            Intent::IntoRange(e) => b.units.get(*e as usize).map(|u| u.pose.pos),
            _ => None,
        })
        .unwrap_or(centre);
    let ahead = (target - centre).norm();
    // Left of the way ahead is its counter-clockwise perpendicular (x east, y north).
    let left = V2::new(-ahead.y, ahead.x);
    let mut by: Vec<(CmdId, f64)> = cs.iter().map(|&c| (c, (mid(c) - centre).dot(left))).collect();
    by.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    let n = by.len();
    by.into_iter()
        .enumerate()
        .map(|(k, (c, _))| {
            (
                c,
                if k == 0 {
                    " on the left"
                } else if k + 1 == n {
                    " on the right"
                } else {
                    " in the centre"
                },
            )
        })
        .collect()
}
