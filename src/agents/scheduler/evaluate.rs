//! The scheduler's judgement: what an action is worth, from the rules' exact odds and the
//! scenario's goals. Pure reading of the battle; no dice are rolled and nothing is tried out
//! on a copy (that would peek at the game's dice).

use super::plan::{Plan, Task};
use crate::agents::perception::known_enemies;
use crate::battle::action::Deploy;
use crate::battle::fire::FireContext;
use crate::battle::state::{SideId, UnitId};
use crate::battle::{Action, Battle};
use crate::data::army::Arm;
use crate::data::scenario::{Ammo, ObjectiveLevel};
use crate::rules::formation::Formation;
use crate::rules::geometry::V2;
use crate::rules::odds;
use std::collections::BTreeMap;
use std::sync::Arc;

/// An action's worth and the one-line reason the log shows.
pub struct Judged {
    pub score: f64,
    pub why: String,
}

impl Judged {
    fn new(score: f64, why: impl Into<String>) -> Self {
        Judged { score, why: why.into() }
    }
    fn nothing() -> Self {
        Judged::new(f64::NEG_INFINITY, "")
    }
}

/// Expected hits and the chance to suppress of `unit` firing at `target` in `ctx`, if legal.
pub fn fire_value(b: &Battle, unit: UnitId, target: UnitId, ctx: FireContext) -> Option<(f64, f64, String)> {
    b.check_fire(unit, target, ctx).ok()?;
    // As the fire will be rolled: after a square it forces (BPT "Square").
    let fired_on = b.as_fired_on(target);
    let b = &*fired_on;
    let plan = b.fire_plan(unit, target, ctx);
    let dist = odds::hits_distribution(plan.dice, plan.effective_to_hit(), plan.save);
    let mean = odds::mean(&dist);
    let p_sup = if b.unit(target).suppressed() {
        0.0
    } else {
        odds::p_suppress(&dist, b.morale_grade(target).map_or(plan.to_hit, |g| g.suppressed_on))
    };
    let t = b.unit(target);
    let left = t.hits_value(&b.rules, b.player_turn).saturating_sub(t.hits) as f64;
    // A unit near its hits value is worth finishing; guns and objectives' holders are worth more.
    let finish = if mean >= left * 0.6 { 1.0 } else { 0.0 };
    let score = mean * (1.0 + 0.6 * finish) + 0.4 * p_sup;
    let ammo = if b.uses_ammo(unit) {
        match b.ammo_for(unit, ctx) {
            Some(Ammo::Canister) => " (canister)",
            Some(Ammo::Shell) => " (shell)",
            Some(Ammo::AirBurst) => " (air-burst shell)",
            _ => " (round shot)",
        }
    } else {
        ""
    };
    let why = format!(
        "{}: fire at {}{ammo}, {} at {}+, {:.1} hits expected, {:.0}% to suppress",
        b.unit(unit).name,
        t.name,
        crate::report::count(plan.dice, "die"),
        plan.effective_to_hit(),
        mean,
        p_sup * 100.0
    );
    Some((score, p_sup, why))
}

/// The chance that `unit`'s fire at `target` lands at least one hit (initiative passing:
/// fire that lands none passes the initiative).
pub fn hit_chance(b: &Battle, unit: UnitId, target: UnitId, ctx: FireContext) -> Option<f64> {
    b.check_fire(unit, target, ctx).ok()?;
    let plan = b.as_fired_on(target).fire_plan(unit, target, ctx);
    let dist = odds::hits_distribution(plan.dice, plan.effective_to_hit(), plan.save);
    Some(1.0 - dist.first().copied().unwrap_or(1.0))
}

/// What a charge's outcomes are worth to the charger, on the scale of a fire's score (about
/// a hit expected = 1): won by double (the enemy knocked out), won (the enemy suppressed and
/// sent back), lost (its own unit so), lost by double (knocked out: on top of lost). A win
/// by double takes a whole unit off the table, several stands and the loss toward the
/// breakpoint, where a volley takes a hit or two: it was once worth 2.5 and a win 1, and the
/// scheduler fired where it should have closed (`scheduler` against `greedy` on *First
/// Battle*: 71% won on the tuning seeds 1–300, 82% with the wins three times as heavy and the
/// next two changes; 73% and 77% on the held-out seeds 1001–1300; docs/rules.md "The
/// scheduler").
pub const CHARGE_WORTH: [f64; 4] = [7.5, 3.0, -1.5, -2.0];

/// The least chance to win a charge (by double or not) for which a commander gives a charge
/// order (−1 to its roll); it was 0.55.
pub const CHARGE_ORDER_ODDS: f64 = 0.4;

/// What a charge the target evades is worth to the charger: it gains nothing and ends
/// disordered where it stopped, often out in front of its line (in Gettysburg's games such a
/// charger was charged in the rear at once and lost by double: seed 50014).
pub const CHARGE_EVADED: f64 = -0.3;

/// The worth of a charge's odds to the charger ([`CHARGE_WORTH`]).
fn charge_worth(o: &odds::ChargeOdds) -> f64 {
    let [double, win, lost, lost_double] = CHARGE_WORTH;
    double * o.a_double + win * o.a_wins + lost * (o.b_double + o.b_wins) + lost_double * o.b_double
}

/// The units the scheduler expects to evade a charge they would lose, and evades with itself:
/// cavalry, mounted or dismounted (BPT "Counter-Charge": "Cavalry units did not receive a charge standing still; they
/// always will either evade or counter charge") and skirmishers in extended line. A formed
/// line gives its ground only to its orders: counting every unit an evader made the scheduler
/// pass up charges that `greedy`, which never evades, would have lost (*First Battle*, seeds
/// 1–100: 84 won with none evading, 80 with every unit, 77 evading itself too).
pub fn evades_by_nature(b: &Battle, unit: UnitId) -> bool {
    let u = b.unit(unit);
    u.row.arm == Arm::Cavalry
        || u.row.has(crate::data::army::Trait::Dismounted)
        || u.formation == Formation::ExtendedLine
}

/// BPT "Counter-Initiative": may `target`, charged by `charger` held `gap` cm off it with
/// `pursuit` cm of its charge left, evade and end at least the rules' gap (3 cm) from where the
/// charger ends ("otherwise the evading unit is knocked-out")? It must be unsuppressed, out of
/// a fight, see the charger and be able to evade (BPT "Evading": its full move directly away,
/// towed guns limbered half of it); its way away is stopped as the evade's is, and the charger
/// is taken to follow straight after it.
pub fn evade_escapes(
    b: &Battle,
    charger: UnitId,
    target: UnitId,
    held: crate::rules::geometry::Pose,
    gap: f64,
    pursuit: f64,
) -> bool {
    let t = b.unit(target);
    if !evades_by_nature(b, target)
        || t.suppressed()
        || b.engaged(target)
        || !b.sees(target, charger)
        || b.check_evade(target).is_err()
    {
        return false;
    }
    let allowance = if t.is_artillery() && !t.limbered {
        t.march_rate() * b.rules.initiative.evade_mounting_fraction
    } else {
        t.move_rate()
    };
    let away = (t.pose.pos - held.pos).norm();
    if away == V2::ZERO {
        return false;
    }
    let went = b.travel_limit(target, away, allowance, (-away).angle(), 0.0);
    gap + went - pursuit >= b.rules.initiative.evade_min_gap
}

/// [`evade_escapes`] for a charge checked and not yet made: held where its plan holds it, with
/// what is left of its charge from there (as the charge step gives it).
pub fn plan_evaded(b: &Battle, plan: &crate::battle::charge::ChargePlan) -> bool {
    let pursuit = b.charge_left_when_held(plan);
    evade_escapes(b, plan.unit, plan.target, plan.held, plan.left, pursuit)
}

fn charge_value(b: &Battle, unit: UnitId, target: UnitId, ctx: &Ctx) -> Judged {
    let (o, closing, evades) = match b.check_charge(unit, target) {
        Ok(plan) => {
            let (o, closing) = closing_fire_odds(b, &plan, ctx);
            (o, closing, plan_evaded(b, &plan))
        }
        Err(_) => (b.charge_estimate(unit, target), None, false),
    };
    let lose = o.b_double + o.b_wins;
    // A target that may evade and get away does so when standing would cost it more (the
    // charger is not counted on to meet an enemy that would rather leave).
    let stand = charge_worth(&o);
    let score = if evades { stand.min(CHARGE_EVADED) } else { stand };
    let closing = closing.map_or(String::new(), |p| {
        format!(" (its fire first: {:.0}% to stop or suppress it)", p * 100.0)
    });
    let closing = if evades && stand > CHARGE_EVADED {
        format!("{closing}, but it may evade out of reach")
    } else {
        closing
    };
    Judged::new(
        score,
        format!(
            "{}: charge {}, {:.0}% to win by double, {:.0}% to lose{closing}",
            b.unit(unit).name,
            b.unit(target).name,
            o.a_double * 100.0,
            lose * 100.0
        ),
    )
}

/// A charge's odds with the fire it meets before contact (BPT "Counter-Initiative",
/// "Response"): every known enemy that may answer it (the target, and those near it that see
/// the charger where it is held, unsuppressed and not in a fight) fires at the charger, one
/// after the other. The hits it carries into the fight, a suppression (one die fewer), or the
/// charge stopped (knocked out: lost by double; a suppressed charger hit again outside the
/// command phase falls back: lost) weigh the fight's odds. Also the chance the fire stops or
/// suppresses it, when any enemy may fire.
pub fn closing_fire_odds(
    b: &Battle,
    plan: &crate::battle::charge::ChargePlan,
    ctx: &Ctx,
) -> (odds::ChargeOdds, Option<f64>) {
    let charger = plan.unit;
    let mut scratch = ctx.scratch.borrow_mut();
    let copy = scratch.get_or_insert_with(|| b.clone());
    let c = b.unit(charger);
    copy.arrange(|s| s.units[charger as usize].pose = plan.held);
    let initiative = b.phase == crate::battle::state::Phase::Initiative;
    let able: Vec<UnitId> = copy
        .charge_responders(charger, plan.target, initiative)
        .into_iter()
        .filter(|d| ctx.enemies.contains(d) && copy.check_fire(*d, charger, FireContext::Counter).is_ok())
        .collect();
    // Fired on where it is held with enemy cavalry near, an infantry charger forms square and
    // halts (BPT "Square"; **Decision**, rules `bpt-8`): the charge comes to nothing. Otherwise
    // the fire is rolled at the charger as it stands.
    let squared = !able.is_empty() && copy.square_forced_on(charger);
    let firers: Vec<(Vec<f64>, u32)> = if squared {
        Vec::new()
    } else {
        able.iter()
            .map(|&d| {
                let f = copy.fire_plan(d, charger, FireContext::Counter);
                let need = copy.morale_grade(charger).map_or(f.to_hit, |g| g.suppressed_on);
                (odds::hits_distribution(f.dice, f.effective_to_hit(), f.save), need)
            })
            .collect()
    };
    copy.arrange_lazily(|s| s.units[charger as usize].pose = c.pose);
    if squared {
        let halts = odds::ChargeOdds {
            a_double: 0.0,
            a_wins: 0.0,
            draw: 1.0,
            b_wins: 0.0,
            b_double: 0.0,
        };
        return (halts, Some(1.0));
    }
    if firers.is_empty() {
        drop(scratch);
        return (b.planned_charge_estimate(plan), None);
    }
    let value = c.hits_value(&b.rules, b.player_turn);
    let falls_back = b.phase != crate::battle::state::Phase::Command;
    // (hits taken, suppressed) → chance; and the chances the charge is stopped.
    let mut states: BTreeMap<(u32, bool), f64> = BTreeMap::from([((c.hits, c.suppressed()), 1.0)]);
    let (mut fell_back, mut knocked_out) = (0.0, 0.0);
    for (dist, need) in &firers {
        let miss = 1.0 - odds::p_at_least(*need);
        let mut next = BTreeMap::new();
        for (&(h, sup), &p) in &states {
            for (k, &pk) in dist.iter().enumerate() {
                let (k, q) = (k as u32, p * pk);
                if q == 0.0 {
                    continue;
                }
                if k == 0 {
                    *next.entry((h, sup)).or_insert(0.0) += q;
                } else if h + k >= value {
                    knocked_out += q;
                } else if sup && (falls_back || c.suppressed()) {
                    fell_back += q;
                } else if sup {
                    *next.entry((h + k, true)).or_insert(0.0) += q;
                } else {
                    let p_sup = 1.0 - miss.powi(k as i32);
                    *next.entry((h + k, true)).or_insert(0.0) += q * p_sup;
                    *next.entry((h + k, false)).or_insert(0.0) += q * (1.0 - p_sup);
                }
            }
        }
        states = next;
    }
    let mut o = odds::ChargeOdds {
        a_double: 0.0,
        a_wins: 0.0,
        draw: 0.0,
        b_wins: fell_back,
        b_double: knocked_out,
    };
    let mut stopped = fell_back + knocked_out;
    for (&(h, sup), &p) in &states {
        let suppressed = sup.then_some(crate::battle::state::Suppression {
            player_turn: b.player_turn,
            order_seq: b.order_seq,
        });
        copy.arrange_lazily(|s| {
            let u = &mut s.units[charger as usize];
            u.hits = h;
            u.suppressed = suppressed;
        });
        if sup && !c.suppressed() {
            stopped += p;
        }
        let e = copy.planned_charge_estimate(plan);
        o.a_double += p * e.a_double;
        o.a_wins += p * e.a_wins;
        o.draw += p * e.draw;
        o.b_wins += p * e.b_wins;
        o.b_double += p * e.b_double;
    }
    copy.arrange_lazily(|s| {
        let u = &mut s.units[charger as usize];
        u.hits = c.hits;
        u.suppressed = c.suppressed;
    });
    (o, Some(stopped))
}

/// Where `side` wants to be: its major objective (else minor), if it has one.
pub fn objective(b: &Battle, side: SideId) -> Option<V2> {
    let name = &b.sides[side].name;
    let mine = b.objectives.iter().filter(|o| &o.side == name);
    mine.clone()
        .find(|o| o.level == ObjectiveLevel::Major)
        .or_else(|| mine.clone().next())
        .map(|o| o.pos)
}

/// The objectives `side` plays for: its own (major 3, minor 2) and the enemy's it can deny by
/// standing on them (1.5): (point, radius, worth), worth first.
fn objective_points(b: &Battle, side: SideId, enemies: &[UnitId]) -> Vec<(V2, f64, f64)> {
    let last_turn = b.game_turn >= b.turn_limit;
    let enemies_within = |p: V2, d: f64| {
        enemies
            .iter()
            .filter(|&&e| b.rects(e).iter().any(|r| r.distance_to_point(p) <= d))
            .count()
    };
    let mut v: Vec<(V2, f64, f64)> = b
        .objectives
        .iter()
        .map(|o| {
            let own = o.side == b.sides[side].name;
            let worth = match (own, o.level) {
                (true, ObjectiveLevel::Major) => 3.0,
                (true, ObjectiveLevel::Minor) => 2.0,
                (false, _) => 1.5,
            };
            (o.pos, o.radius, worth, own)
        })
        // Deny an enemy objective only when an enemy could reach it; go for an own one unless
        // it is too hot for a lone unit (three enemies close by; it was two), save in the last
        // turn.
        .filter(|&(p, r, _, own)| {
            if own {
                last_turn || enemies_within(p, r + 15.0) < 3
            } else {
                enemies_within(p, r + 40.0) > 0
            }
        })
        .map(|(p, r, w, _)| (p, r, w))
        .collect();
    v.sort_by(|a, b| b.2.total_cmp(&a.2));
    // One entry per place (a shared objective counts once, at its higher worth).
    let mut out: Vec<(V2, f64, f64)> = Vec::new();
    for p in v {
        if !out.iter().any(|q| q.0.dist(p.0) < 1.0) {
            out.push(p);
        }
    }
    out
}

/// Which unit goes to which objective: for each objective, worth first, the nearest free
/// unit that can move (not an unlimbered gun, not suppressed), if it is within reach of the
/// remaining turns; a unit already inside an objective's radius keeps it.
pub fn assign_objectives(b: &Battle, side: SideId, enemies: &[UnitId]) -> BTreeMap<UnitId, (V2, f64)> {
    let mut out = BTreeMap::new();
    let turns_left = (b.turn_limit + 1).saturating_sub(b.game_turn) as f64;
    // Own objectives get a second unit (a holder must be unsuppressed at the end; a spare
    // covers a suppressed holder), after every objective has its first.
    let points = objective_points(b, side, enemies);
    let seconds: Vec<_> = points.iter().copied().filter(|p| p.2 >= 2.0).collect();
    for (pos, radius, _) in points.into_iter().chain(seconds) {
        let holder = b
            .side_units(side)
            .filter(|u| !out.contains_key(&u.id))
            .find(|u| b.rects(u.id).iter().any(|r| r.distance_to_point(pos) <= radius));
        if let Some(h) = holder {
            out.insert(h.id, (pos, radius));
            continue;
        }
        let best = b
            .side_units(side)
            .filter(|u| (!u.is_artillery() || u.limbered) && !u.suppressed() && !out.contains_key(&u.id))
            .map(|u| (u.id, u.pose.pos.dist(pos), u.move_rate()))
            .filter(|(_, d, rate)| *d <= rate * 2.0 * turns_left + radius)
            .min_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)));
        if let Some((id, _, _)) = best {
            out.insert(id, (pos, radius));
        }
    }
    out
}

/// The point a unit advances on and the distance it wants to stop at: its assigned objective,
/// else the nearest known enemy at a bit inside its weapon range.
///
/// On a planned battle ([`Plan`]) a unit not sent to an objective goes where its formation's
/// part sends it: an attacker to the plan's aim, fighting a known enemy within its weapon
/// range and [`ENGAGE_MARGIN`] on the way; a holder or a reserve to its place.
fn goal(
    b: &Battle,
    unit: UnitId,
    enemies: &[UnitId],
    assigned: &BTreeMap<UnitId, (V2, f64)>,
    plan: Option<&Plan>,
) -> Option<(V2, f64)> {
    if let Some(&(p, r)) = assigned.get(&unit) {
        return Some((p, r * 0.4));
    }
    let u = b.unit(unit);
    let here = u.pose.pos;
    let nearest = enemies
        .iter()
        .map(|&e| (b.unit(e).pose.pos, b.unit_distance(unit, e)))
        .min_by(|x, y| x.1.total_cmp(&y.1));
    let range = b.weapon_range(u).max(b.rules.charge.distance * 0.5);
    if let Some(plan) = plan.filter(|p| p.part_of(b, unit).is_some()) {
        let (task, at, want) = plan.goal(b, unit)?;
        return match nearest {
            Some((p, d)) if task == Task::Attack && d <= b.weapon_range(u) + ENGAGE_MARGIN => Some((p, range * 0.7)),
            _ => Some((at, want)),
        };
    }
    let obj = objective(b, u.side);
    match (nearest, obj) {
        (Some((_, d)), Some(o)) if here.dist(o) < d => Some((o, 0.0)),
        (Some((p, _)), _) => Some((p, range * 0.7)),
        (None, Some(o)) => Some((o, 0.0)),
        (None, None) => None,
    }
}

/// Where a unit advances and how far it is from there, worked out once per unit and decision
/// ([`Ctx::aim`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Aim {
    /// Its goal and the distance it wants to stop at ([`goal`]).
    pub at: V2,
    pub want: f64,
    /// How far the goal is: straight for a unit with a target (it fights from where it stands,
    /// across a river if so); for one without, by the way it could go
    /// ([`crate::rules::terrain::Terrain::way_length`]).
    pub far: f64,
    /// The river a unit without a target must cross by a bridge or ford to reach its goal, if
    /// the straight way is barred and a crossing opens it.
    pub river: Option<String>,
}

fn aim(b: &Battle, unit: UnitId, ctx: &Ctx) -> Option<Aim> {
    let (at, want) = goal(b, unit, &ctx.enemies, &ctx.assigned, ctx.plan.as_deref())?;
    let can_fire = &ctx.can_fire;
    let u = b.unit(unit);
    let straight = u.pose.pos.dist(at);
    let way = (!can_fire.contains(&unit))
        .then(|| b.terrain.way_via(u.pose.pos, at, u.on_foot()))
        .flatten();
    Some(match way {
        Some((river, c)) => Aim {
            at,
            want,
            far: c.way_length(u.pose.pos, at),
            river: Some(river),
        },
        None => Aim {
            at,
            want,
            far: straight,
            river: None,
        },
    })
}

/// What one enemy able to charge a unit's flank or rear costs a move that leaves it so.
const FLANK_THREAT: f64 = 1.0;

/// A unit whose formation attacks in the plan closes on its goal at this much a cm (others
/// 0.08): the plan's aim is worth the fire it walks into.
pub const ATTACK_PULL: f64 = 0.2;

/// What the enemy's opportunity fire at a move costs an attacker, times its worth to the
/// enemy (others [`OPPORTUNITY_EXPOSURE`]).
pub const ATTACK_EXPOSURE: f64 = 0.5;

/// An attacker fights a known enemy within its weapon range and this much more (cm) on its
/// way to the plan's aim.
pub const ENGAGE_MARGIN: f64 = 15.0;

/// A move costs this times what the enemy's opportunity fire at the unit where it ends is
/// worth to the enemy ([`opportunity_exposure`], on the scale of a fire's score). Without it
/// the judge walked units into the enemy's first volley a few cm at a time (*First Battle*,
/// `scheduler` against `greedy`, tuning seeds 1–300: 233 won, 245 with it at 0.25, 0.5, 1
/// or 2 alike).
pub const OPPORTUNITY_EXPOSURE: f64 = 1.0;

fn move_value(b: &Battle, unit: UnitId, to: crate::rules::geometry::Pose, ctx: &Ctx) -> Judged {
    let u = b.unit(unit);
    if u.is_artillery() && !u.limbered {
        return Judged::nothing(); // unlimbered guns stay and shoot
    }
    let Some(Aim { at: g, want, far, .. }) = ctx.aim(b, unit) else {
        return Judged::nothing();
    };
    // A unit with a target fights from where it stands (across a river, if so); one without
    // measures its goal by the way it could go ([`crate::rules::terrain::Terrain::way_length`]):
    // measured straight, a goal across a river drew units to their bank and no further (the
    // engineers scenario's Union sat there from turn 7, ordered and idle).
    let way = |from: V2| {
        if ctx.can_fire.contains(&unit) {
            from.dist(g)
        } else {
            b.terrain.way_length(from, g, u.on_foot())
        }
    };
    let before = (far - want).abs();
    let after = (way(to.pos) - want).abs();
    let attacking = ctx.task(b, unit) == Some(Task::Attack);
    let mut score = if attacking { ATTACK_PULL } else { 0.08 } * (before - after);
    if let Some(&(o, r)) = ctx.assigned.get(&unit) {
        let inside = |pose: crate::rules::geometry::Pose| {
            b.rects_at(unit, pose)
                .iter()
                .any(|rect| rect.distance_to_point(o) <= r * 0.8)
        };
        match (inside(u.pose), inside(to)) {
            (false, true) => score += 1.2,
            (true, false) => score -= 2.0,
            _ => {}
        }
    } else if ctx.can_fire.contains(&unit) {
        score *= 0.3;
    }
    // Danger: an enemy at its flank or rear within charge distance (such a charge is fought
    // two dice down and mostly lost by double); turning to face it or stepping away is work.
    let threats = |pose| b.flank_threats_at(unit, pose, &ctx.enemies) as f64;
    score += FLANK_THREAT * (threats(u.pose) - threats(to));
    let exposure = if attacking {
        ATTACK_EXPOSURE
    } else {
        OPPORTUNITY_EXPOSURE
    };
    score -= exposure * opportunity_exposure(b, unit, to, ctx);
    Judged::new(
        score,
        format!(
            "{}: move {:.0} cm towards {}",
            u.name,
            u.pose.pos.dist(to.pos),
            if ctx.assigned.contains_key(&unit) {
                "its objective"
            } else {
                match ctx.task(b, unit) {
                    Some(Task::Attack) => "its brigade's aim",
                    Some(_) => "its brigade's place",
                    None => "the enemy",
                }
            }
        ),
    )
}

/// What the known enemies' opportunity fire at `unit` moved to `to` would be worth to them
/// (BPT "Opportunity Fire": a unit that moves in sight of an enemy that has not yet fired this
/// turn may be fired at; one that fires now may not use initiative next turn, so each enemy
/// shoots once either way). Judged on the context's scratch copy, the unit set at `to`.
fn opportunity_exposure(b: &Battle, unit: UnitId, to: crate::rules::geometry::Pose, ctx: &Ctx) -> f64 {
    let turn = b.player_turn;
    let near: Vec<UnitId> = ctx
        .enemies
        .iter()
        .copied()
        .filter(|&e| {
            let eu = b.unit(e);
            eu.alive() && eu.opportunity_turn != Some(turn) && eu.pose.pos.dist(to.pos) <= b.weapon_range(eu) + 20.0
        })
        .collect();
    if near.is_empty() {
        return 0.0;
    }
    let mut scratch = ctx.scratch.borrow_mut();
    let moved = scratch.get_or_insert_with(|| b.clone());
    moved.arrange(|s| s.units[unit as usize].pose = to);
    let cost = near
        .into_iter()
        .filter_map(|e| fire_value(moved, e, unit, FireContext::Opportunity).map(|(s, _, _)| s))
        .sum();
    let back = b.unit(unit).pose;
    moved.arrange_lazily(|s| s.units[unit as usize].pose = back);
    cost
}

/// BPT "Air Burst Shell Fire": the expected hits (after saves) of one of `gun`'s stands firing
/// an air burst and round shot at `target`, or None if the target is not in open ground (the
/// air burst would be refused). Both land on the aim point (the target's point nearest the
/// gun; the same accuracy roll and deviation, so left out). Round shot: the gun's dice on the
/// first stand and one die on each further stand its strip crosses (bounces left out). Air
/// burst: one die fewer (and the ACW shrapnel die) on every stand within 2 cm, all in the open.
pub fn air_burst_and_shot(b: &Battle, gun: UnitId, target: UnitId) -> Option<(f64, f64)> {
    use crate::rules::params::Cover;
    let from = b.nearest_rect(gun, target).center;
    if b.cover_of(target, from) != Cover::Open {
        return None;
    }
    let g = b.unit(gun);
    let t = b.unit(target);
    let p = &b.rules.artillery;
    let aim = b.aim_at(target, from);
    let rects = b.rects(target);
    let dir = (aim - from).norm();
    let pen = p.penetration(!g.row.has(crate::data::army::Trait::Rifled));
    let strip = rects
        .iter()
        .filter(|r| r.intersects_segment(aim, aim + dir * pen))
        .count()
        .max(1) as u32;
    let mut air_p = p.clone();
    air_p.shell_radius = p.air_burst_radius;
    let zone = crate::rules::artillery::shell_hits(aim, &air_p, rects).len() as u32;
    let shrapnel = if b.sides[g.side].army.starts_with("ACW") {
        p.shrapnel_bonus
    } else {
        0
    };
    let air_dice = (g.row.attacks as i32 + p.air_burst_dice).max(0) as u32 + shrapnel;
    let hit = odds::p_hit_unsaved(b.rules.fire.to_hit_open, t.row.save.map(u32::from));
    let shot = f64::from(g.row.attacks + strip - 1) * hit;
    let air = f64::from(air_dice * zone) * hit;
    Some((air, shot))
}

fn deploy_value(b: &Battle, unit: UnitId, d: Deploy, ctx: &Ctx) -> Judged {
    let u = b.unit(unit);
    let nearest = ctx
        .enemies
        .iter()
        .map(|&e| b.unit_distance(unit, e))
        .fold(f64::INFINITY, f64::min);
    match d {
        Deploy::Load(ammo) => {
            // BPT "Air Burst Shell Fire": at the nearest enemy, in the open and beyond canister
            // range, when an air burst is worth more hits than round shot.
            let air = b.rules.switches.on(crate::rules::switches::Switch::AirBurst)
                && !b.high_angle(unit)
                && nearest > b.rules.artillery.canister_range + 2.0
                && nearest <= b.weapon_range(u)
                && ctx
                    .enemies
                    .iter()
                    .min_by(|&&x, &&y| b.unit_distance(unit, x).total_cmp(&b.unit_distance(unit, y)))
                    .and_then(|&e| air_burst_and_shot(b, unit, e))
                    .is_some_and(|(air, shot)| air > shot);
            let want = if air {
                Ammo::AirBurst
            } else if b.high_angle(unit) {
                Ammo::Shell
            } else if nearest <= b.rules.artillery.canister_range + 2.0 {
                Ammo::Canister
            } else {
                Ammo::Shot
            };
            if ammo == want && u.loaded != Some(want) {
                Judged::new(
                    0.9,
                    format!(
                        "{}: load {} (nearest enemy {nearest:.0} cm)",
                        u.name,
                        crate::report::words_of(&format!("{ammo:?}"))
                    ),
                )
            } else {
                Judged::nothing()
            }
        }
        Deploy::Unlimber if nearest <= b.weapon_range(u) + 15.0 => {
            Judged::new(0.8, format!("{}: unlimber, enemy {nearest:.0} cm off", u.name))
        }
        Deploy::Limber if nearest > b.weapon_range(u) + 20.0 && nearest.is_finite() => {
            Judged::new(0.3, format!("{}: limber up to close the range", u.name))
        }
        Deploy::Formation(Formation::Line)
            if u.row.arm == Arm::Infantry
                && u.formation != Formation::Line
                && nearest <= 35.0
                && ctx.aim(b, unit).is_none_or(|a| a.river.is_none()) =>
        {
            Judged::new(0.6, format!("{}: form line, enemy {nearest:.0} cm off", u.name))
        }
        // A river between the unit and its goal, crossed only where a road does: march column,
        // which turns freely to go along the bank and files over (a line cannot step sideways,
        // BPT "Oblique Movement", nor fit more than two or three stands on a bridge).
        Deploy::Formation(Formation::MarchColumn)
            if matches!(u.row.arm, Arm::Infantry | Arm::Cavalry)
                && u.formation != Formation::MarchColumn
                && let Some(river) = ctx.aim(b, unit).and_then(|a| a.river) =>
        {
            Judged::new(
                0.5,
                format!("{}: form march column to cross {river} by the road", u.name),
            )
        }
        Deploy::Formation(Formation::MarchColumn)
            if u.row.arm == Arm::Infantry && u.formation == Formation::Line && nearest > 60.0 =>
        {
            Judged::new(0.15, format!("{}: form march column to close faster", u.name))
        }
        // BPT "Towed Guns": an unlimbered gun with nothing in its fire cone turns to bring a
        // known enemy into it, worth a little less than the fire it then has (a further action).
        Deploy::Pivot(a) if !ctx.can_fire.contains(&unit) => {
            let mut turned = b.clone();
            turned.arrange(|s| s.units[unit as usize].pose.facing = a);
            let best = ctx
                .enemies
                .iter()
                .filter_map(|&e| fire_value(&turned, unit, e, FireContext::Order).map(|(s, _, _)| (s, e)))
                .max_by(|x, y| x.0.total_cmp(&y.0));
            match best {
                Some((s, e)) if s > 0.0 => Judged::new(
                    0.7 * s,
                    format!("{}: pivot to bring {} into its fire cone", u.name, b.unit(e).name),
                ),
                _ => Judged::nothing(),
            }
        }
        // BPT "Prone Movement": lie down to hold an objective under fire (skirmishers keep
        // firing prone, close order only when it has nothing to fire at); get up to go on.
        Deploy::Prone(true) => {
            let holding = ctx.holds_objective(b, unit);
            let skirmish = u.formation == Formation::ExtendedLine;
            // Under an enemy's weapon range, but not so close that it may charge.
            let threatened = nearest >= 10.0
                && ctx
                    .enemies
                    .iter()
                    .any(|&e| b.unit_distance(e, unit) <= b.weapon_range(b.unit(e)));
            if threatened && (holding || skirmish) && (skirmish || !ctx.can_fire.contains(&unit)) {
                Judged::new(
                    0.5,
                    format!("{}: go prone under fire, enemy {nearest:.0} cm off", u.name),
                )
            } else {
                Judged::nothing()
            }
        }
        Deploy::Prone(false) => {
            let holding = ctx.holds_objective(b, unit);
            if !holding || nearest > 40.0 {
                Judged::new(0.7, format!("{}: stand up and go on", u.name))
            } else {
                Judged::nothing()
            }
        }
        _ => Judged::nothing(),
    }
}

/// What is worked out once per decision.
pub struct Ctx {
    pub enemies: Vec<UnitId>,
    /// Units with a legal fire among the actions on offer.
    pub can_fire: std::collections::BTreeSet<UnitId>,
    /// Units sent to hold or deny an objective: (point, radius).
    pub assigned: BTreeMap<UnitId, (V2, f64)>,
    /// The aims of the units with a move among the actions on offer (judged many times each).
    aims: BTreeMap<UnitId, Option<Aim>>,
    /// A copy of the battle to set a unit where a move would take it ([`opportunity_exposure`]),
    /// made the first time one is needed.
    scratch: std::cell::RefCell<Option<Battle>>,
    /// The side's plan, on a planned battle ([`super::planner`]).
    pub plan: Option<Arc<Plan>>,
}

impl Ctx {
    /// The unit stands on the objective it was sent to hold or deny.
    pub fn holds_objective(&self, b: &Battle, unit: UnitId) -> bool {
        self.assigned
            .get(&unit)
            .is_some_and(|(p, r)| b.rects(unit).iter().any(|rect| rect.distance_to_point(*p) <= *r))
    }

    pub fn new(b: &Battle, side: SideId, legal: &[Action]) -> Self {
        Self::planned(b, side, legal, None)
    }

    /// The task `unit`'s formation has in the plan, if the battle is planned.
    pub fn task(&self, b: &Battle, unit: UnitId) -> Option<Task> {
        self.plan.as_ref()?.part_of(b, unit).map(|p| p.task)
    }

    /// [`Ctx::new`], with the side's plan steering its units' goals.
    pub fn planned(b: &Battle, side: SideId, legal: &[Action], plan: Option<Arc<Plan>>) -> Self {
        let can_fire = legal
            .iter()
            .filter_map(|a| match a {
                Action::Fire { unit, .. } | Action::InitiativeFire { unit, .. } => Some(*unit),
                _ => None,
            })
            .collect();
        let enemies = known_enemies(b, side);
        let assigned = assign_objectives(b, side, &enemies);
        let mut ctx = Ctx {
            enemies,
            can_fire,
            assigned,
            aims: BTreeMap::new(),
            scratch: Default::default(),
            plan,
        };
        for a in legal {
            if let Action::Move { unit, .. } = a
                && !ctx.aims.contains_key(unit)
            {
                let found = aim(b, *unit, &ctx);
                ctx.aims.insert(*unit, found);
            }
        }
        ctx
    }

    /// Where `unit` advances and how far it is from there ([`Aim`]).
    pub fn aim(&self, b: &Battle, unit: UnitId) -> Option<Aim> {
        match self.aims.get(&unit) {
            Some(a) => a.clone(),
            None => aim(b, unit, self),
        }
    }
}

/// The worth of one unit action (fire, charge, move, deploy, support) in any phase.
pub fn judge(b: &Battle, a: &Action, ctx: &Ctx) -> Judged {
    match a {
        Action::Fire { unit, target } => fire_value(b, *unit, *target, FireContext::Order)
            .map_or_else(Judged::nothing, |(s, _, why)| Judged::new(s, why)),
        Action::InitiativeFire { unit, target } => fire_value(b, *unit, *target, FireContext::Initiative)
            .map_or_else(Judged::nothing, |(s, _, why)| Judged::new(s, why)),
        Action::OpportunityFire { unit, target, with } => {
            // A volley is worth its units' fire together (one suppression test: a little less
            // than the sum, so a single good shot is not wasted on it by a tie).
            let mut total = 0.0;
            let mut why = String::new();
            for u in std::iter::once(unit).chain(with) {
                match fire_value(b, *u, *target, FireContext::Opportunity) {
                    Some((s, _, w)) => {
                        total += s;
                        if why.is_empty() {
                            why = w;
                        }
                    }
                    None => return Judged::nothing(),
                }
            }
            if !with.is_empty() {
                why = format!("{} units together: {why}", with.len() + 1);
            }
            Judged::new(total - 0.25 * (with.len() + 1) as f64, why)
        }
        Action::CounterFire { unit } => {
            let charger = match &b.step {
                crate::battle::state::Step::CounterInitiative { charger, .. } => *charger,
                _ => return Judged::nothing(),
            };
            fire_value(b, *unit, charger, FireContext::Counter)
                .map_or_else(Judged::nothing, |(s, _, why)| Judged::new(s + 0.2, why))
        }
        Action::CounterDeploy { unit, .. } => counter_pivot_value(b, *unit),
        Action::CounterEvade { unit } => evade_value(b, *unit, ctx),
        Action::FireTogether { unit, target, with } => fire_together_value(b, *unit, *target, with, ctx),
        Action::Charge { unit, target } | Action::InitiativeCharge { unit, target } => {
            charge_value(b, *unit, *target, ctx)
        }
        Action::Move { unit, to } => move_value(b, *unit, *to, ctx),
        Action::Deploy { unit, deploy } | Action::InitiativeDeploy { unit, deploy } => {
            deploy_value(b, *unit, *deploy, ctx)
        }
        Action::Engineer { unit, linear } => engineer_value(b, *unit, *linear),
        Action::DrawSabers { unit } => saber_value(b, *unit, ctx),
        Action::Support { unit, friend } => Judged::new(
            0.7,
            format!("{}: support {} in its charge", b.unit(*unit).name, b.unit(*friend).name),
        ),
        _ => Judged::nothing(),
    }
}

/// BPT "Counter-Initiative": the charge's target evades when it gets away (ends 3 cm or more
/// from where the charger stops, [`evade_escapes`]) and standing would cost it: worth most of
/// what the charge is worth to the charger ([`CHARGE_WORTH`], as it stands held off), less the
/// objective it would give up. Another unit near the target has no reason to evade.
fn evade_value(b: &Battle, unit: UnitId, ctx: &Ctx) -> Judged {
    let crate::battle::state::Step::CounterInitiative {
        charger,
        target,
        charge_left,
        held,
        ..
    } = &b.step
    else {
        return Judged::nothing();
    };
    if unit != *target || !evade_escapes(b, *charger, unit, *held, b.unit_distance(*charger, unit), *charge_left) {
        return Judged::nothing();
    }
    let threat = charge_worth(&b.charge_estimate(*charger, unit));
    let given_up = if ctx.holds_objective(b, unit) { 1.2 } else { 0.0 };
    Judged::new(
        0.8 * threat - given_up,
        format!(
            "{}: evade {}'s charge out of its reach",
            b.unit(unit).name,
            b.unit(*charger).name
        ),
    )
}

/// BPT "Firing": "When two or more units are firing at the same target, roll all the dice
/// together". Worth it when every firer's own best target is this one (fire is never
/// concentrated on a target a unit would not choose): the fires' worth together, and a little
/// more, as the enemy then gets one opportunity to fire back at the first unit named, not one
/// after each (BPT "Opportunity Fire").
fn fire_together_value(b: &Battle, unit: UnitId, target: UnitId, with: &[UnitId], ctx: &Ctx) -> Judged {
    let mut total = 0.0;
    for &f in std::iter::once(&unit).chain(with) {
        let Some((here, _, _)) = fire_value(b, f, target, FireContext::Order) else {
            return Judged::nothing();
        };
        let better_elsewhere = ctx
            .enemies
            .iter()
            .filter(|&&e| e != target)
            .filter_map(|&e| fire_value(b, f, e, FireContext::Order))
            .any(|(s, _, _)| s > here);
        if better_elsewhere {
            return Judged::nothing();
        }
        total += here;
    }
    Judged::new(
        total + 0.1,
        format!(
            "{} units fire together at {}, one roll ({})",
            with.len() + 1,
            b.unit(target).name,
            std::iter::once(&unit)
                .chain(with)
                .map(|&f| b.unit(f).name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
}

/// BPT "Charging": a charged gun man-handles to face the charge when the charger comes at its
/// flank or rear (flank −2 in the combat, BPT "Combat Modifiers"); met in front already, a few
/// degrees gain nothing. Worth more than a pass, less than the counter fire a gun facing its
/// charger has.
fn counter_pivot_value(b: &Battle, gun: UnitId) -> Judged {
    let charger = match &b.step {
        crate::battle::state::Step::CounterInitiative { charger, target, .. } if *target == gun => *charger,
        _ => return Judged::nothing(),
    };
    match b.contact_aspect(gun, charger) {
        crate::rules::geometry::Aspect::Front => Judged::nothing(),
        aspect => Judged::new(
            0.6,
            format!(
                "{}: turns its guns to meet {} in front, not in the {}",
                b.unit(gun).name,
                b.unit(charger).name,
                if aspect == crate::rules::geometry::Aspect::Rear {
                    "rear"
                } else {
                    "flank"
                }
            ),
        ),
    }
}

/// BPT "Saber Charge": announced when the unit's best charge, with sabers drawn, is worth
/// making; a little above that charge, so the announcement comes first and the charge next.
fn saber_value(b: &Battle, unit: UnitId, ctx: &Ctx) -> Judged {
    let mut drawn = b.clone();
    drawn.arrange_lazily(|s| s.optional.sabers.set(unit, Some(s.player_turn)));
    // The charge with sabers drawn, after the fire it meets ([`closing_fire_odds`] fights it
    // on the context's scratch copy: sabers drawn there too while it is judged).
    let set = |sabers| {
        let mut scratch = ctx.scratch.borrow_mut();
        scratch
            .get_or_insert_with(|| b.clone())
            .arrange_lazily(|s| s.optional.sabers.set(unit, sabers));
    };
    set(Some(b.player_turn));
    let best = ctx
        .enemies
        .iter()
        .filter(|&&e| b.check_charge(unit, e).is_ok())
        .map(|&e| charge_value(&drawn, unit, e, ctx))
        .max_by(|x, y| x.score.total_cmp(&y.score));
    set(b.optional.sabers.drawn_in(unit));
    match best {
        Some(j) if j.score > 0.0 => Judged::new(
            j.score + 0.05,
            format!("{}: announces a saber charge ({})", b.unit(unit).name, j.why),
        ),
        _ => Judged::nothing(),
    }
}

/// BPT "Engineering": worth doing when the obstacle stands between the engineers and the
/// nearest enemy they know of (the way forward), and no enemy is close enough to punish it.
fn engineer_value(b: &Battle, unit: UnitId, linear: u32) -> Judged {
    let u = b.unit(unit);
    let Some(l) = b.terrain.linears.get(linear as usize) else {
        return Judged::nothing();
    };
    let nearest = known_enemies(b, u.side)
        .into_iter()
        .map(|e| b.unit(e).pose.pos)
        .min_by(|p, q| p.dist(u.pose.pos).total_cmp(&q.dist(u.pose.pos)));
    let Some(enemy) = nearest else {
        return Judged::nothing();
    };
    if enemy.dist(u.pose.pos) < b.rules.initiative.distance {
        return Judged::nothing();
    }
    if crate::rules::terrain::polyline_crossing(&l.points, u.pose.pos, enemy).is_none() {
        return Judged::nothing();
    }
    Judged::new(
        0.5,
        format!(
            "{}: opens the way through the {} towards the enemy",
            u.name,
            format!("{:?}", l.kind).to_lowercase()
        ),
    )
}
