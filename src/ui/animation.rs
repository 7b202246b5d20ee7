//! Event animation, the timing part (no drawing, so it runs headless): every applied action's
//! events become effect entities (`Effect`, a clip each), played one after the other and
//! despawned when played: a unit that moved, fell back,
//! retreated, charged or consolidated glides from its old place to its new one; round shot flies
//! from the gun and bounces along its trace, leaving craters that fade; shell flies and bursts;
//! canister flashes its cone and blast-through corridor; musketry draws its lines; a unit that
//! took hits flashes. The battle state is already final: the clips only change what is drawn
//! (`table::animate`). Agents wait until no effect is left, so a person sees each action.
//! The clock runs at the player's animation speed; speed 0 turns animation off.

use crate::app::ActionApplied;
use crate::battle::{Battle, Event, UnitId};
use crate::report::Clip as EventClip;
use crate::rules::geometry::{Pose, V2};
use bevy::prelude::*;
use std::f64::consts::{PI, TAU};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Anim>().init_resource::<AnimHidden>().add_systems(
        Update,
        (enqueue, tick).chain().in_set(crate::ui::common::TableSystems::Animate),
    );
}

/// One thing to show.
#[derive(Clone, Debug, PartialEq)]
pub enum Fx {
    /// A unit gliding between two poses.
    Glide { unit: UnitId, from: Pose, to: Pose },
    /// Round shot: the gun, then every impact point, then where the ball came to rest (if
    /// not at the last impact); `impacts` of the points after the gun are impacts.
    Ball { path: Vec<V2>, impacts: usize },
    /// A shell from the gun to where it burst.
    Shell { from: V2, to: V2 },
    /// Canister's cone: the gun and the two outer edges at the target.
    Cone { pts: [V2; 3] },
    /// Canister's blast-through corridor.
    Corridor { pts: [V2; 4] },
    /// Musketry: lines from the firers to the target.
    Volley { from: Vec<V2>, to: V2 },
    /// A unit struck: a ring that flashes.
    Hit { at: V2 },
}

/// A clip: what, when it starts on the queue's clock, how long it shows (seconds at speed 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub fx: Fx,
    pub start: f32,
    pub dur: f32,
}

/// An effect on the table: one clip of an applied action's events, as an entity that lives
/// until its clip has played (a shot flying along its trace, a volley, a unit gliding).
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Effect(pub Clip);

/// The effects' clock and where the next action's clips may start.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Anim {
    /// Seconds of animation per second of real time; 0: no animation.
    pub speed: f32,
    pub clock: f32,
    /// When the next action's clips may start.
    cursor: f32,
}

impl Default for Anim {
    fn default() -> Self {
        Anim {
            speed: 1.0,
            clock: 0.0,
            cursor: 0.0,
        }
    }
}

/// The units drawn by the animation instead of the troop layer (they glide).
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct AnimHidden(pub Vec<UnitId>);

impl Anim {
    /// The clips of one action's effects (each with its duration and the time before the next
    /// one starts), after whatever is scheduled. None at speed 0.
    pub fn schedule(&mut self, fx: Vec<(Fx, f32, f32)>) -> Vec<Clip> {
        if self.speed <= 0.0 {
            return Vec::new();
        }
        let mut at = self.cursor.max(self.clock);
        let mut out = Vec::new();
        for (fx, dur, hold) in fx {
            out.push(Clip { fx, start: at, dur });
            at += hold;
        }
        self.cursor = at;
        out
    }

    /// Run the clock on by `dt` real seconds while anything plays; with nothing left the
    /// clock starts again from 0.
    pub fn advance(&mut self, dt: f32, playing: bool) {
        if !playing {
            self.clock = 0.0;
            self.cursor = 0.0;
            return;
        }
        self.clock += dt * self.speed.max(0.0);
    }

    /// Clip `c` has played to its end (or animation is off).
    pub fn over(&self, c: &Clip) -> bool {
        self.speed <= 0.0 || self.clock >= c.start + c.dur
    }

    /// How far clip `c` has played: 0 before it starts, 1 after it ends.
    pub fn progress(&self, c: &Clip) -> f32 {
        progress(self.clock, c.start, c.dur)
    }
}

/// The units with a glide among `clips`, in order of first appearance.
pub fn moving_units<'a>(clips: impl IntoIterator<Item = &'a Clip>) -> Vec<UnitId> {
    let mut out = Vec::new();
    for c in clips {
        if let Fx::Glide { unit, .. } = c.fx
            && !out.contains(&unit)
        {
            out.push(unit);
        }
    }
    out
}

/// Where a gliding unit shows at `clock` among `clips` (in order of their start): its place
/// before its first glide until that starts, between two places during a glide, where its
/// last glide ended afterwards.
pub fn pose_of<'a>(clips: impl IntoIterator<Item = &'a Clip>, clock: f32, unit: UnitId) -> Option<Pose> {
    let mut shown = None;
    for c in clips {
        let Fx::Glide { unit: u, from, to } = c.fx else {
            continue;
        };
        if u != unit {
            continue;
        }
        let p = progress(clock, c.start, c.dur);
        if p <= 0.0 {
            return Some(shown.unwrap_or(from));
        }
        if p < 1.0 {
            return Some(lerp_pose(from, to, ease(p) as f64));
        }
        shown = Some(to);
    }
    shown
}

/// The effects' clips in the order they start.
pub fn in_order<'a>(effects: impl IntoIterator<Item = &'a Effect>) -> Vec<&'a Clip> {
    let mut v: Vec<&Clip> = effects.into_iter().map(|e| &e.0).collect();
    v.sort_by(|a, b| a.start.total_cmp(&b.start));
    v
}

/// How far a clip starting at `start` and lasting `dur` has played at `clock`, 0 to 1.
pub fn progress(clock: f32, start: f32, dur: f32) -> f32 {
    if dur <= 0.0 {
        return if clock >= start { 1.0 } else { 0.0 };
    }
    ((clock - start) / dur).clamp(0.0, 1.0)
}

/// Smooth start and stop (smoothstep), 0 → 0 and 1 → 1.
pub fn ease(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The angle from `a` to `b` the short way round, in (-π, π].
pub fn turn_between(a: f64, b: f64) -> f64 {
    let d = (b - a).rem_euclid(TAU);
    if d > PI { d - TAU } else { d }
}

/// The pose a fraction `t` of the way from `a` to `b` (turning the short way).
pub fn lerp_pose(a: Pose, b: Pose, t: f64) -> Pose {
    Pose::new(a.pos.lerp(b.pos, t), a.facing + turn_between(a.facing, b.facing) * t)
}

/// The point a fraction `t` of the way along a polyline (by length), and the index of the last
/// vertex passed.
pub fn along(path: &[V2], t: f64) -> (V2, usize) {
    let Some(&first) = path.first() else {
        return (V2::new(0.0, 0.0), 0);
    };
    let total: f64 = path.windows(2).map(|w| w[0].dist(w[1])).sum();
    if total <= 0.0 || t <= 0.0 {
        return (first, 0);
    }
    let mut left = total * t.min(1.0);
    for (i, w) in path.windows(2).enumerate() {
        let l = w[0].dist(w[1]);
        if left <= l && l > 0.0 {
            return (w[0].lerp(w[1], left / l), i);
        }
        left -= l;
    }
    (path[path.len() - 1], path.len() - 1)
}

/// The fraction of a polyline's length at which each vertex is reached.
pub fn vertex_fractions(path: &[V2]) -> Vec<f64> {
    let total: f64 = path.windows(2).map(|w| w[0].dist(w[1])).sum();
    let mut acc = 0.0;
    let mut out = vec![0.0];
    for w in path.windows(2) {
        acc += w[0].dist(w[1]);
        out.push(if total > 0.0 { acc / total } else { 1.0 });
    }
    out
}

/// A round shot clip: the ball's flight is this share of the clip; the craters fade after.
pub const BALL_FLIGHT: f32 = 0.45;

/// Canister's cone: from the gun to the outermost corners of the target's stands, as seen from
/// the gun (the widest angle either side of the line to the target's centre), reaching as far
/// as the farthest corner.
pub fn cone(gun: V2, target: V2, corners: &[V2]) -> [V2; 3] {
    let ahead = (target - gun).norm();
    let side = ahead.perp();
    let (mut lo, mut hi, mut far) = (0.0f64, 0.0f64, target.dist(gun));
    for &c in corners {
        let d = c - gun;
        let a = d.dot(ahead);
        if a <= 0.0 {
            continue;
        }
        let s = d.dot(side) / a;
        lo = lo.min(s);
        hi = hi.max(s);
        far = far.max(a);
    }
    [gun, gun + (ahead + side * lo) * far, gun + (ahead + side * hi) * far]
}

/// The clips of one applied action's events, in order, each with its duration and the time
/// before the next starts. `b` is the state after the action (where units now stand).
pub fn effects_of(b: &Battle, events: &[Event]) -> Vec<(Fx, f32, f32)> {
    let mut out = Vec::new();
    let glide = |out: &mut Vec<(Fx, f32, f32)>, unit: UnitId, from: Pose, to: Pose| {
        let dist = from.pos.dist(to.pos) as f32;
        let turn = turn_between(from.facing, to.facing).abs() as f32;
        if dist < 0.01 && turn < 0.01 {
            return;
        }
        let dur = (0.25 + dist / 60.0 + turn * 0.1).min(1.0);
        out.push((Fx::Glide { unit, from, to }, dur, dur));
    };
    let pos = |u: UnitId| b.unit(u).pose.pos;
    for e in events {
        let Some(clip) = crate::report::facts(e).clip else {
            continue;
        };
        match clip {
            EventClip::Glide { unit, from, to } => glide(&mut out, unit, from, to),
            EventClip::Ball { trace } => {
                let mut path = vec![trace.gun];
                path.extend(trace.impacts.iter().map(|i| i.point));
                if path.last().is_some_and(|l| l.dist(trace.rest) > 0.01) {
                    path.push(trace.rest);
                }
                let flight = 0.25 + 0.15 * (path.len() as f32 - 1.0);
                let dur = flight / BALL_FLIGHT;
                let impacts = trace.impacts.len();
                out.push((Fx::Ball { path, impacts }, dur, flight));
            }
            EventClip::Shell { gun, burst } => out.push((Fx::Shell { from: gun, to: burst }, 0.7, 0.5)),
            EventClip::Volley {
                firers,
                target,
                canister,
            } => {
                let Some(&first) = firers.first() else { continue };
                if canister {
                    let corners: Vec<V2> = b.rects(target).iter().flat_map(|r| r.corners()).collect();
                    let pts = cone(pos(first), pos(target), &corners);
                    out.push((Fx::Cone { pts }, 0.5, 0.3));
                } else if !b.unit(first).is_artillery() {
                    let from = firers.iter().map(|&f| pos(f)).collect();
                    out.push((Fx::Volley { from, to: pos(target) }, 0.35, 0.25));
                }
            }
            EventClip::Corridor { pts } => out.push((Fx::Corridor { pts }, 0.5, 0.3)),
            EventClip::Hit { unit } => out.push((Fx::Hit { at: pos(unit) }, 0.5, 0.15)),
        }
    }
    out
}

/// Spawn the effects of every action applied this frame (none for a screenshot: it must show
/// a settled table).
fn enqueue(
    mut commands: Commands,
    mut applied: MessageReader<ActionApplied>,
    battle: Res<crate::app::BattleState>,
    mut anim: ResMut<Anim>,
    shot: Option<Res<super::screenshot::ShotRequest>>,
) {
    for ev in applied.read() {
        if shot.is_none() {
            for clip in anim.schedule(effects_of(&battle.0, &ev.events)) {
                commands.spawn(Effect(clip));
            }
        }
    }
}

/// Run the clock, despawn the effects that have played, and keep the list of gliding units
/// up to date (changed only when it changes).
fn tick(
    mut commands: Commands,
    mut anim: ResMut<Anim>,
    mut hidden: ResMut<AnimHidden>,
    effects: Query<(Entity, &Effect)>,
    time: Res<Time>,
) {
    let playing = !effects.is_empty();
    if playing || anim.clock != 0.0 {
        anim.advance(time.delta_secs(), playing);
    }
    for (e, fx) in &effects {
        if anim.over(&fx.0) {
            commands.entity(e).despawn();
        }
    }
    let now = moving_units(in_order(
        effects.iter().filter(|(_, f)| !anim.over(&f.0)).map(|(_, f)| f),
    ));
    if hidden.0 != now {
        hidden.0 = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::event::MoveKind;
    use crate::battle::event::families::*;

    fn v(x: f64, y: f64) -> V2 {
        V2::new(x, y)
    }

    #[test]
    fn poses_interpolate_and_turn_the_short_way() {
        let a = Pose::new(v(0.0, 0.0), 0.1);
        let b = Pose::new(v(10.0, 20.0), TAU - 0.1);
        let m = lerp_pose(a, b, 0.5);
        assert!((m.pos.x - 5.0).abs() < 1e-9 && (m.pos.y - 10.0).abs() < 1e-9);
        // 0.1 to -0.1 the short way passes through 0, not through π.
        assert!(m.facing.abs() < 1e-9, "{}", m.facing);
        assert_eq!(lerp_pose(a, b, 0.0), a);
        let end = lerp_pose(a, b, 1.0);
        assert!((end.facing - (-0.1)).abs() < 1e-9);
        assert!((turn_between(3.0, -3.0) - (TAU - 6.0)).abs() < 1e-9);
        assert_eq!((ease(0.0), ease(0.5), ease(1.0)), (0.0, 0.5, 1.0));
    }

    #[test]
    fn a_point_along_a_polyline_goes_by_length() {
        let path = [v(0.0, 0.0), v(30.0, 0.0), v(30.0, 10.0)];
        assert_eq!(along(&path, 0.0), (v(0.0, 0.0), 0));
        let (p, i) = along(&path, 0.5);
        assert!((p.x - 20.0).abs() < 1e-9 && p.y.abs() < 1e-9 && i == 0);
        let (p, i) = along(&path, 0.875);
        assert!((p.x - 30.0).abs() < 1e-9 && (p.y - 5.0).abs() < 1e-9 && i == 1);
        assert_eq!(along(&path, 1.0).0, v(30.0, 10.0));
        assert_eq!(vertex_fractions(&path), vec![0.0, 0.75, 1.0]);
    }

    #[test]
    fn the_cone_spans_the_target_as_seen_from_the_gun() {
        let corners = [v(20.0, -3.0), v(20.0, 3.0), v(22.0, 3.0), v(22.0, -3.0)];
        let [g, a, b] = cone(v(0.0, 0.0), v(21.0, 0.0), &corners);
        assert_eq!(g, v(0.0, 0.0));
        // The edges pass through the widest corners (slope 3/20) and reach 22 cm ahead.
        assert!((a.x - 22.0).abs() < 1e-9 && (a.y + 22.0 * 0.15).abs() < 1e-9, "{a:?}");
        assert!((b.x - 22.0).abs() < 1e-9 && (b.y - 22.0 * 0.15).abs() < 1e-9, "{b:?}");
    }

    #[test]
    fn clips_play_in_turn_and_a_unit_shows_where_it_is_on_its_way() {
        let from = Pose::new(v(0.0, 0.0), 0.0);
        let to = Pose::new(v(10.0, 0.0), 0.0);
        let mut anim = Anim::default();
        let mut clips = anim.schedule(vec![
            (Fx::Glide { unit: 3, from, to }, 1.0, 1.0),
            (Fx::Hit { at: v(1.0, 1.0) }, 0.5, 0.0),
        ]);
        clips.extend(anim.schedule(vec![(
            Fx::Glide {
                unit: 3,
                from: to,
                to: from,
            },
            1.0,
            1.0,
        )]));
        assert_eq!(moving_units(&clips), vec![3]);
        assert_eq!(clips[1].start, 1.0);
        assert_eq!(clips[2].start, 1.0, "the next action starts when the hold ends");
        assert_eq!(pose_of(&clips, anim.clock, 3), Some(from));
        assert_eq!(pose_of(&clips, anim.clock, 4), None);
        anim.advance(0.5, true);
        let p = pose_of(&clips, anim.clock, 3).unwrap();
        assert!((p.pos.x - 5.0).abs() < 1e-6, "{p:?}");
        anim.speed = 2.0;
        anim.advance(0.25, true); // 0.5 s of animation at twice the speed: the second glide starts
        assert!((pose_of(&clips, anim.clock, 3).unwrap().pos.x - 10.0).abs() < 1e-6);
        assert!(anim.over(&clips[0]) && !anim.over(&clips[1]) && !anim.over(&clips[2]));
        anim.advance(0.25, true);
        assert!(
            (pose_of(&clips, anim.clock, 3).unwrap().pos.x - 5.0).abs() < 1e-6,
            "on its way back"
        );
        anim.advance(0.25, true);
        assert!(clips.iter().all(|c| anim.over(c)), "all played at the end");
        anim.advance(0.1, false);
        assert_eq!(anim.clock, 0.0, "nothing left: the clock starts again");
        anim.speed = 0.0;
        assert!(
            anim.schedule(vec![(Fx::Hit { at: v(0.0, 0.0) }, 0.5, 0.5)]).is_empty(),
            "speed 0: no animation"
        );
    }

    #[test]
    fn every_move_of_a_game_glides_and_hits_flash() {
        // Play the eager agents until a move and a fire have happened; every move becomes a
        // glide from the event's places, every hit a flash.
        let (mut b, _) = crate::load_battle(std::path::Path::new("maps/skirmish.ron"), 4).expect("skirmish");
        let mut agents = [0, 1].map(|s| crate::agents::by_name("eager", 4, s).expect("agent"));
        let (mut glides, mut hits, mut fired) = (0, 0, 0);
        for _ in 0..3000 {
            if b.is_over() {
                break;
            }
            let legal = b.legal_actions();
            let agent = &mut agents[b.actor()];
            let a = legal[agent.choose(&b, &legal).min(legal.len() - 1)].clone();
            let events = b.apply(&a).expect("legal");
            let fx = effects_of(&b, &events);
            let moves = events
                .iter()
                .filter(|e| match e {
                    Event::Movement(MovementEvent::Moved { from, to, kind, .. }) => {
                        *kind != MoveKind::Deploy && from != to
                    }
                    Event::Morale(MoraleEvent::FellBack { from, to, .. })
                    | Event::Melee(MeleeEvent::Retreated { from, to, .. })
                    | Event::Melee(MeleeEvent::Consolidated { from, to, .. }) => from != to,
                    _ => false,
                })
                .count();
            let g = fx.iter().filter(|f| matches!(f.0, Fx::Glide { .. })).count();
            assert_eq!(g, moves, "{events:?}");
            glides += g;
            fired += events
                .iter()
                .filter(|e| {
                    matches!(
                        e,
                        Event::Fire(FireEvent::Fired { .. }) | Event::Artillery(ArtilleryEvent::RoundShot { .. })
                    )
                })
                .count();
            hits += fx.iter().filter(|f| matches!(f.0, Fx::Hit { .. })).count();
            assert!(fx.iter().all(|f| f.1 > 0.0 && f.2 >= 0.0 && f.2 <= f.1));
        }
        assert!(
            glides > 0,
            "glides {glides}, hits {hits}, fired {fired}, actions {}",
            b.actions
        );
        assert_eq!(hits > 0, fired > 0);
        // A unit that took hits flashes where it stands; no hits, no flash.
        let u = b.alive_units().next().expect("a unit").id;
        let hit = |hits| {
            Event::Morale(MoraleEvent::HitsTaken {
                unit: u,
                hits,
                total: hits,
                value: 0,
            })
        };
        assert_eq!(effects_of(&b, &[hit(0)]), vec![]);
        assert_eq!(
            effects_of(&b, &[hit(2)]),
            vec![(Fx::Hit { at: b.unit(u).pose.pos }, 0.5, 0.15)]
        );
    }
}
