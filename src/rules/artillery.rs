//! Artillery fire: Hardtack's round shot with bounces and its canister blast-through, translated
//! into BPT's d6 attacks (DECISIONS.md "Artillery: round shot with bounce (Hardtack → BPT)",
//! "Artillery: canister with blast-through", "Shell and howitzers").
//!
//! Pure rules maths: no ECS, no I/O. The battle asks the questions (where is the gun, where does
//! it aim, which stands are where, what the ground is like) and turns the answers into events,
//! attacks, hits and saves.
//!
//! # The clock face
//! Deviations are given as a d12 clock face seen from above, with **12 o'clock pointing directly
//! away from the gun along the line of fire** (for a bounce: along the ball's direction of
//! travel), **3 o'clock to the right** of the line of fire looking from the gun, 6 back towards
//! the gun, 9 to the left. "Right" and "left" are in table coordinates (x right, y up; angles
//! counter-clockwise), so clock `h` is the line of fire turned clockwise by `h × 30°`
//! (see [`clock_dir`]).
//!
//! # Round shot, step by step
//! 1. Accuracy: a d6 ≥ the crew's accuracy score lands the ball on the aim point; otherwise it
//!    deviates a d12 clock direction by 1d6 cm plus 1d6 per full `deviation_per_range` cm of
//!    range (gun to aim point). The flight from the gun to this first impact is aimed fire and
//!    is not stopped by the ground (the gunners aimed over whatever lies between).
//! 2. Each impact point starts a strip along the line of fire ([`impact_strip`],
//!    [`strip_hits`]): the first stand in it takes the impact's attack dice, each further one 1.
//! 3. At each impact: if the ground there does not allow a bounce ([`ShotGround::bounces_at`]),
//!    the shot ends. If the next bounce would strike with 0 attack dice, the shot ends (no roll).
//!    If every bounce score has been used (three), the shot ends: never a fourth bounce.
//!    Otherwise a d6 against the bounce score (4+, 5+, 6) decides.
//! 4. A bounce flies on along the line from the previous point through this impact, half the
//!    distance the ball last travelled (exact, no rounding: Hardtack rounds down to the inch,
//!    the game measures in cm), then its landing deviates d12 clock by d4 × 0.5 cm. The flight
//!    runs from this impact to the deviated landing point; the first thing on it that stops the
//!    ball ([`ShotGround::stop_between`]) becomes the last impact point (it strikes what stands
//!    there); leaving the table ends the shot with no further impact.
//!
//! Every stage lands in the [`ShotTrace`], so the table can animate the ball and the dice panel
//! can explain each roll.

use super::dice::Dice;
use super::geometry::{EPS, Rect, V2, convex_overlaps_rect, corridor, point_segment_distance};
use super::odds::{p_at_least, p_hit_unsaved};
use super::terrain::{AreaKind, LinearKind, Terrain, kind_words, polyline_crossing, polyline_distance_to_point};
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;

/// Every artillery number (DECISIONS "Artillery: ..." sections); lives in the rules file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtilleryParams {
    /// Round shot accuracy: the d6 score needed to land on the aim point (veteran 3+).
    pub accuracy_veteran: u32,
    /// Regular crews: 4+.
    pub accuracy_regular: u32,
    /// Green crews: 5+.
    pub accuracy_green: u32,
    /// A missed shot deviates 1d6 cm, plus 1d6 for every full `deviation_per_range` cm of range
    /// (gun to aim point): the range step per extra die, 30 cm.
    pub deviation_per_range: f64,
    /// Width of the impact strip, cm (0.5).
    pub strip_width: f64,
    /// Length of the impact strip for ACW smoothbores, cm (2).
    pub penetration_smoothbore: f64,
    /// Length of the impact strip otherwise (the BPT default), cm (5).
    pub penetration_default: f64,
    /// The d6 score needed for the 1st, 2nd, 3rd bounce ([4, 5, 6]); there is never a bounce
    /// beyond the last entry.
    pub bounce_scores: Vec<u32>,
    /// A bounce's landing deviates d4 × this many cm (0.5).
    pub bounce_deviation_step: f64,
    /// Canister range, cm (10, BPT note 6).
    pub canister_range: f64,
    /// Canister attacks per smoothbore gun stand (3).
    pub canister_attacks_smoothbore: u32,
    /// Canister attacks per rifled gun stand (2).
    pub canister_attacks_rifled: u32,
    /// Full width of the blast-through corridor, cm (1).
    pub canister_corridor_width: f64,
    /// The blast-through corridor runs this far beyond canister range, cm (5).
    pub canister_extra_depth: f64,
    /// Shell: every stand within this of the impact point is attacked, cm (3).
    pub shell_radius: f64,
    /// Shrapnel (shell fired after 1845, so all ACW shell): extra attack dice per stand (1).
    pub shrapnel_bonus: u32,
    /// BPT "Air Burst Shell Fire" (switch `AirBurst`): "attacks all stands in a 2cm fire zone
    /// at -1 die" (per gun; the stands as though in the open).
    #[serde(default = "air_burst_radius")]
    pub air_burst_radius: f64,
    #[serde(default = "air_burst_dice")]
    pub air_burst_dice: i32,
    /// The first flight (muzzle to first impact) passes over obstacles this close to the muzzle,
    /// cm (1): a gun lining a wall fires over it (**Decision**, issue 21 Hardtack 1).
    #[serde(default = "first_flight_clear")]
    pub first_flight_clear: f64,
    /// High-angle fire (howitzers, mortars; BPT "High Angle Direct Fire"): one deviation d6
    /// for the first `high_angle_first` cm of range (10) ...
    pub high_angle_first: f64,
    /// ... and one more per further `high_angle_step` cm or part of it (5), plus one if the
    /// target point is unseen.
    pub high_angle_step: f64,
}

impl Default for ArtilleryParams {
    fn default() -> Self {
        ArtilleryParams {
            accuracy_veteran: 3,
            accuracy_regular: 4,
            accuracy_green: 5,
            deviation_per_range: 30.0,
            strip_width: 0.5,
            penetration_smoothbore: 2.0,
            penetration_default: 5.0,
            bounce_scores: vec![4, 5, 6],
            bounce_deviation_step: 0.5,
            canister_range: 10.0,
            canister_attacks_smoothbore: 3,
            canister_attacks_rifled: 2,
            canister_corridor_width: 1.0,
            canister_extra_depth: 5.0,
            shell_radius: 3.0,
            shrapnel_bonus: 1,
            air_burst_radius: 2.0,
            air_burst_dice: -1,
            first_flight_clear: 1.0,
            high_angle_first: 10.0,
            high_angle_step: 5.0,
        }
    }
}

impl ArtilleryParams {
    /// Length of the impact strip: ACW smoothbore or the BPT default.
    pub fn penetration(&self, smoothbore: bool) -> f64 {
        if smoothbore {
            self.penetration_smoothbore
        } else {
            self.penetration_default
        }
    }
    /// Canister attacks per gun stand.
    pub fn canister_attacks(&self, smoothbore: bool) -> u32 {
        if smoothbore {
            self.canister_attacks_smoothbore
        } else {
            self.canister_attacks_rifled
        }
    }
    /// Number of deviation d6 of high-angle fire at this range (BPT: 1 die from 0–10 cm, 2 from
    /// 11–15 cm, ...), plus one when the target point is unseen.
    pub fn high_angle_dice(&self, range: f64, unseen: bool) -> u32 {
        let beyond = (range - self.high_angle_first).max(0.0);
        let steps = if self.high_angle_step > 0.0 {
            (beyond / self.high_angle_step - 1e-9).ceil().max(0.0) as u32
        } else {
            0
        };
        1 + steps + u32::from(unseen)
    }
    /// Number of d6 for a missed round shot's deviation at this range: 1 + one per full step.
    pub fn deviation_dice(&self, range: f64) -> u32 {
        if self.deviation_per_range > 0.0 && range.is_finite() {
            1 + (range.max(0.0) / self.deviation_per_range + 1e-9).floor() as u32
        } else {
            1
        }
    }
}

/// The `end` of a shot whose ball left the table. A [`ShotGround`] returns exactly this from
/// `stop_between` for the table edge: it ends the shot without a further impact.
pub const TABLE_EDGE: &str = "table edge";
/// The `end` of a shot whose bounce roll failed.
pub const BOUNCE_FAILED: &str = "bounce roll failed";
/// The `end` of a shot whose next bounce would strike with no attack dice.
pub const OUT_OF_DICE: &str = "out of attack dice";
/// The `end` of a shot that bounced as often as the bounce scores allow (never a fourth).
pub const NO_MORE_BOUNCES: &str = "no further bounce allowed";
/// Prefix of the `end` of a shot that landed where it cannot bounce ("no bounce: wet ground").
pub const NO_BOUNCE: &str = "no bounce";

/// What the ground does to a ball landing at a point / travelling a segment (the caller answers
/// from the terrain; [`TerrainGround`] is the ready-made answer).
pub trait ShotGround {
    /// Can a ball bounce from here? (open ground or road, not wet, not rising ground)
    fn bounces_at(&self, p: V2) -> bool;
    /// The first thing along a→b that stops the ball: linear obstacles, buildings, high area
    /// terrain edges (woods), a rising slope (that point becomes its last impact point), the
    /// table edge (answer exactly [`TABLE_EDGE`]). Returns (t in 0..=1, what).
    fn stop_between(&self, a: V2, b: V2) -> Option<(f64, String)>;
    /// The first thing that stops the ball on its first flight, a→b (muzzle to where it first
    /// lands): as [`stop_between`](Self::stop_between) but a slope stops it only where the
    /// ground rises above both ends (the gun is laid for the height of its target), and the
    /// table edge never (the ball is on the table at both ends or lands off it).
    fn stop_in_flight(&self, a: V2, b: V2) -> Option<(f64, String)> {
        self.stop_between(a, b).filter(|(_, what)| what != TABLE_EDGE)
    }
    /// Why a ball cannot bounce at `p` (only asked when `bounces_at(p)` is false), for the log.
    fn no_bounce_reason(&self, _p: V2) -> String {
        "ground".to_string()
    }
}

/// A ready-made [`ShotGround`] over a [`Terrain`], a table of `width × height` cm with its corner
/// at the origin, and a wet flag (poor/extreme weather or a scenario flag: no ball bounces).
///
/// DECISIONS' rules as read here:
/// * Bounces only on open ground or a road: not off the table, not wet, not inside any area
///   terrain (fields, scrub, woods, orchards, built-up, buildings, marsh, mud, lakes), not in a
///   stream or river, and not on a hill ("rising ground": Hardtack's "the side of a hill"; BPT
///   hills are stepped contours, so all of a hill counts). A road bounces even across a field.
/// * Stops the ball: the table edge, walls/fences/hedges, buildings, the edge of high area
///   terrain (woods, orchards, built-up), and a rising slope: the ball enters a contour of
///   greater height than the ground it came from (the elevation at `a`).
pub struct TerrainGround<'a> {
    pub terrain: &'a Terrain,
    pub width: f64,
    pub height: f64,
    pub wet: bool,
}

impl TerrainGround<'_> {
    fn on_table(&self, p: V2) -> bool {
        p.x >= -EPS && p.y >= -EPS && p.x <= self.width + EPS && p.y <= self.height + EPS
    }
    fn on_road(&self, p: V2) -> bool {
        self.terrain
            .linears
            .iter()
            .filter(|l| l.kind == LinearKind::Road)
            .any(|l| polyline_distance_to_point(&l.points, p) <= l.width * 0.5 + EPS)
    }
    fn in_water(&self, p: V2) -> bool {
        self.terrain
            .linears
            .iter()
            .filter(|l| matches!(l.kind, LinearKind::Stream | LinearKind::River))
            .any(|l| polyline_distance_to_point(&l.points, p) <= l.width * 0.5 + EPS)
    }
    /// Why no bounce at `p`, or None when it bounces.
    fn refusal(&self, p: V2) -> Option<String> {
        if !self.on_table(p) {
            return Some("off the table".into());
        }
        if self.wet {
            return Some("wet ground".into());
        }
        if self.terrain.elevation_at(p) > 0 {
            return Some("rising ground".into());
        }
        if self.in_water(p) {
            return Some("water".into());
        }
        if self.on_road(p) {
            return None;
        }
        if let Some(k) = self.terrain.area_kinds_at(p).first() {
            return Some(match k {
                AreaKind::Marsh | AreaKind::Mud | AreaKind::Lake => format!("wet ground ({})", kind_words(k)),
                _ => kind_words(k),
            });
        }
        None
    }
}

fn named(name: &str, kind: impl std::fmt::Debug) -> String {
    if name.is_empty() {
        kind_words(kind)
    } else {
        format!("{} {name}", kind_words(kind))
    }
}

/// Exit parameter of a→b from the box [0, w] × [0, h], when a is inside and b is not.
fn table_exit(a: V2, b: V2, w: f64, h: f64) -> Option<f64> {
    let inside = |p: V2| p.x >= -EPS && p.y >= -EPS && p.x <= w + EPS && p.y <= h + EPS;
    if inside(b) {
        return None;
    }
    let d = b - a;
    let mut t = 1.0f64;
    if d.x > 0.0 {
        t = t.min((w - a.x) / d.x);
    }
    if d.x < 0.0 {
        t = t.min(-a.x / d.x);
    }
    if d.y > 0.0 {
        t = t.min((h - a.y) / d.y);
    }
    if d.y < 0.0 {
        t = t.min(-a.y / d.y);
    }
    Some(t.clamp(0.0, 1.0))
}

impl ShotGround for TerrainGround<'_> {
    fn bounces_at(&self, p: V2) -> bool {
        self.refusal(p).is_none()
    }

    fn no_bounce_reason(&self, p: V2) -> String {
        self.refusal(p).unwrap_or_else(|| "ground".into())
    }

    fn stop_between(&self, a: V2, b: V2) -> Option<(f64, String)> {
        self.stops(a, b, self.terrain.elevation_at(a), true)
    }

    fn stop_in_flight(&self, a: V2, b: V2) -> Option<(f64, String)> {
        let floor = self.terrain.elevation_at(a).max(self.terrain.elevation_at(b));
        self.stops(a, b, floor, false)
    }
}

impl TerrainGround<'_> {
    /// The first stop along a→b: the table edge (when `edge`), obstacles, buildings, high area
    /// terrain, and contours higher than `floor`.
    fn stops(&self, a: V2, b: V2, floor: u32, edge: bool) -> Option<(f64, String)> {
        let mut best: Option<(f64, String)> = None;
        let mut consider = |t: f64, what: &dyn Fn() -> String| {
            if best.as_ref().is_none_or(|(bt, _)| t < *bt) {
                best = Some((t, what()));
            }
        };
        let len = a.dist(b);
        let eps_t = if len > 0.0 { EPS / len } else { 0.0 };
        if let Some(t) = table_exit(a, b, self.width, self.height).filter(|_| edge) {
            consider(t, &|| TABLE_EDGE.to_string());
        }
        for l in self.terrain.linears.iter().filter(|l| l.kind.is_obstacle()) {
            if let Some(t) = polyline_crossing(&l.points, a, b) {
                consider(t, &|| named(&l.name, l.kind));
            }
        }
        // Entering high area terrain or a building (a start already inside does not stop it:
        // it cannot have bounced from there anyway).
        let n_areas = self.terrain.areas.len();
        for (i, kind, poly, name) in self.terrain.area_polys() {
            let is_building = i >= n_areas;
            if !kind.is_high() {
                continue;
            }
            let mut first = None;
            poly.for_each_interval(a, b, |t0, _| {
                if first.is_none() && t0 > eps_t {
                    first = Some(t0);
                }
            });
            if let Some(t) = first {
                if is_building {
                    consider(t, &|| {
                        if name.is_empty() {
                            "Building".to_string()
                        } else {
                            format!("Building {name}")
                        }
                    });
                } else {
                    consider(t, &|| named(name, kind));
                }
            }
        }
        // A rising slope: entering a contour higher than the ground the ball came from.
        for h in &self.terrain.hills {
            for c in h.contours.iter().filter(|c| c.height > floor) {
                let mut first = None;
                c.outline.for_each_interval(a, b, |t0, _| {
                    if first.is_none() && t0 > eps_t {
                        first = Some(t0);
                    }
                });
                if let Some(t) = first {
                    consider(t, &|| {
                        if h.name.is_empty() {
                            "rising slope".to_string()
                        } else {
                            format!("rising slope of {}", h.name)
                        }
                    });
                }
            }
        }
        best
    }
}

/// One impact of a round shot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Impact {
    /// Where the ball strikes.
    pub point: V2,
    /// The impact strip (drawn with `penetration_default` and `strip_width`; see
    /// [`ShotTrace::restrip`]) as [`corridor`] corners: point-left, far-left, far-right, point-right.
    pub strip: [V2; 4],
    /// The first stand's attack dice at this impact (each further stand in the strip takes 1).
    pub attacks: u32,
    /// The d6 rolled here to see whether the ball bounces on (None when no roll was made: the
    /// ground, the dice or the bounce limit ended the shot, or it was stopped here).
    pub bounce_roll: Option<u32>,
    /// The score that roll needed.
    pub bounce_need: Option<u32>,
    /// The landing deviation of the bounce that made this impact: (d12 clock, d4). None for the
    /// first impact (its deviation is [`ShotTrace::deviation`]). For an impact where something
    /// stopped the ball in flight, the dice that set the direction it flew before it struck.
    pub deviation: Option<(u32, u32)>,
}

/// Everything that happened to one round shot, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShotTrace {
    pub gun: V2,
    pub aim: V2,
    pub accuracy_roll: u32,
    pub accuracy_need: u32,
    /// A missed shot's deviation: (d12 clock, the d6s, total cm). None when it landed on the aim.
    pub deviation: Option<(u32, Vec<u32>, f64)>,
    /// The impacts, first to last (never empty).
    pub impacts: Vec<Impact>,
    /// Why the ball stopped: [`TABLE_EDGE`], [`BOUNCE_FAILED`], [`OUT_OF_DICE`],
    /// [`NO_MORE_BOUNCES`], "no bounce: <ground>", or what struck it ("Wall", "Building Barn",
    /// "Woods Bois", "rising slope of Mont").
    pub end: String,
    /// Where the ball's flight ended: the last impact, or where it left the table.
    pub rest: V2,
    /// A bounce that carried the ball off the table: its landing dice (d12 clock, d4), which
    /// no impact records.
    #[serde(default)]
    pub exit_landing: Option<(u32, u32)>,
}

impl ShotTrace {
    /// Where the ball came from into impact `i`: the gun for the first, else the impact before.
    pub fn from_of(&self, i: usize) -> V2 {
        if i == 0 { self.gun } else { self.impacts[i - 1].point }
    }
    /// Redraw every impact strip with this penetration and width (e.g. a smoothbore's 2 cm).
    pub fn restrip(&mut self, penetration: f64, width: f64) {
        for i in 0..self.impacts.len() {
            let from = self.from_of(i);
            let imp = &mut self.impacts[i];
            imp.strip = impact_strip(imp.point, from, penetration, width);
        }
    }
    /// The number of bounces the ball made (impacts after the first).
    pub fn bounces(&self) -> usize {
        self.impacts.len().saturating_sub(1)
    }
}

/// Unit vector of clock face `clock` (1..=12) relative to `forward` (12 o'clock): turned
/// clockwise by `clock × 30°`, so 3 is to the right, 9 to the left (module docs).
pub fn clock_dir(forward: V2, clock: u32) -> V2 {
    forward.norm().rotate(-f64::from(clock % 12) * PI / 6.0)
}

/// The impact strip: from `point` along the line of fire (the direction `from` → `point`),
/// `width` wide and `penetration` long, as [`corridor`] corners.
pub fn impact_strip(point: V2, from: V2, penetration: f64, width: f64) -> [V2; 4] {
    let u = (point - from).norm();
    corridor(point, point + u * penetration, width)
}

fn make_impact(point: V2, from: V2, attacks: u32, p: &ArtilleryParams, deviation: Option<(u32, u32)>) -> Impact {
    Impact {
        point,
        strip: impact_strip(point, from, p.penetration_default, p.strip_width),
        attacks,
        bounce_roll: None,
        bounce_need: None,
        deviation,
    }
}

/// Round shot: aim point → accuracy d6 → (deviation d12 clock, 12 = away from the gun, 1d6 +
/// 1d6 per full 30 cm of range) → impacts with bounce rolls (4+, 5+, 6, never a fourth), half the
/// previous distance, d12/d4×0.5 landing deviation, one attack die fewer each bounce (stop at 0),
/// stopping per [`ShotGround`]. See the module docs for the order of the rolls.
///
/// Dice drawn, in order: d6 accuracy; if missed d12 then the d6s; then per bounce: d6 bounce,
/// and if it bounces d12 and d4 for the landing.
pub fn round_shot(
    gun: V2,
    aim: V2,
    attacks: u32,
    accuracy_need: u32,
    p: &ArtilleryParams,
    ground: &impl ShotGround,
    dice: &mut Dice,
) -> ShotTrace {
    let accuracy_roll = dice.d6();
    let line = aim - gun;
    let (first, deviation) = if accuracy_roll >= accuracy_need {
        (aim, None)
    } else {
        let clock = dice.d(12);
        let d6s = dice.roll(p.deviation_dice(line.len()), 6);
        let cm = f64::from(d6s.iter().sum::<u32>());
        (aim + clock_dir(line, clock) * cm, Some((clock, d6s, cm)))
    };
    // The first flight (DECISIONS "round shot" 5; Hardtack "If a shot encounters a hill ... a
    // building ... If a shot hits woods, the impact point would be the edge of the woods"): what
    // it meets between the muzzle (past what the gun lines) and where it lands becomes its first
    // and last impact.
    let flight = first - gun;
    if flight.len() > p.first_flight_clear {
        let start = gun + flight.norm() * p.first_flight_clear;
        if let Some((t, what)) = ground.stop_in_flight(start, first) {
            let at = start.lerp(first, t.clamp(0.0, 1.0));
            return ShotTrace {
                gun,
                aim,
                accuracy_roll,
                accuracy_need,
                deviation,
                impacts: vec![make_impact(at, gun, attacks, p, None)],
                end: what,
                rest: at,
                exit_landing: None,
            };
        }
    }
    let mut impacts = vec![make_impact(first, gun, attacks, p, None)];
    let mut from = gun;
    let mut cur = first;
    let mut last_dist = gun.dist(first);
    let mut rest = first;
    let mut exit_landing = None;
    let end = loop {
        let n = impacts.len() - 1; // bounces made so far
        let here_attacks = impacts[n].attacks;
        if !ground.bounces_at(cur) {
            break format!("{NO_BOUNCE}: {}", ground.no_bounce_reason(cur));
        }
        let Some(&need) = p.bounce_scores.get(n) else {
            break NO_MORE_BOUNCES.to_string();
        };
        let next_attacks = here_attacks.saturating_sub(1);
        if next_attacks == 0 {
            break OUT_OF_DICE.to_string();
        }
        let roll = dice.d6();
        impacts[n].bounce_roll = Some(roll);
        impacts[n].bounce_need = Some(need);
        if roll < need {
            break BOUNCE_FAILED.to_string();
        }
        let mut u = (cur - from).norm();
        if u == V2::ZERO {
            // Gun fired at its own feet: any direction is as good; keep it deterministic.
            u = V2::new(1.0, 0.0);
        }
        let target = cur + u * (last_dist * 0.5);
        let clock = dice.d(12);
        let d4 = dice.d(4);
        let land = target + clock_dir(u, clock) * (f64::from(d4) * p.bounce_deviation_step);
        if let Some((t, what)) = ground.stop_between(cur, land) {
            let at = cur.lerp(land, t.clamp(0.0, 1.0));
            rest = at;
            if what == TABLE_EDGE {
                exit_landing = Some((clock, d4));
            } else {
                impacts.push(make_impact(at, cur, next_attacks, p, Some((clock, d4))));
            }
            break what;
        }
        impacts.push(make_impact(land, cur, next_attacks, p, Some((clock, d4))));
        last_dist = cur.dist(land);
        from = cur;
        cur = land;
        rest = land;
    };
    ShotTrace {
        gun,
        aim,
        accuracy_roll,
        accuracy_need,
        deviation,
        impacts,
        end,
        rest,
        exit_landing,
    }
}

/// The part of a convex polygon within `half` of the line through `o` along unit `u`:
/// the least distance along `u` (from `o`) of that part, or None if there is none.
fn nearest_along_band(corners: &[V2; 4], o: V2, u: V2, half: f64) -> Option<f64> {
    let n = u.perp();
    // Sutherland–Hodgman against the two side lines of the band, in (along, across) frame.
    let mut poly: Vec<(f64, f64)> = corners
        .iter()
        .map(|c| {
            let d = *c - o;
            (d.dot(u), d.dot(n))
        })
        .collect();
    for sign in [1.0, -1.0] {
        let inside = |q: &(f64, f64)| sign * q.1 <= half + EPS;
        let mut out = Vec::with_capacity(poly.len() + 2);
        for i in 0..poly.len() {
            let a = poly[i];
            let b = poly[(i + 1) % poly.len()];
            let (ia, ib) = (inside(&a), inside(&b));
            if ia {
                out.push(a);
            }
            if ia != ib {
                let lim = sign * half;
                let t = (lim - a.1) / (b.1 - a.1);
                out.push((a.0 + (b.0 - a.0) * t, lim));
            }
        }
        poly = out;
        if poly.is_empty() {
            return None;
        }
    }
    poly.iter().map(|q| q.0).reduce(f64::min)
}

/// Overlapping stands ordered along the band `o + u·s` (s ≥ 0), ties by index. `poly` is a
/// [`corridor`] (its centre line runs from the middle of edge 3–0 to the middle of edge 1–2).
fn order_along(poly: &[V2; 4], o: V2, u: V2, half: f64, stands: &[Rect]) -> Vec<(usize, f64)> {
    let start = (poly[0] + poly[3]) * 0.5;
    let end = (poly[1] + poly[2]) * 0.5;
    let (mut lo, mut hi) = (poly[0], poly[0]);
    for c in &poly[1..] {
        lo = V2::new(lo.x.min(c.x), lo.y.min(c.y));
        hi = V2::new(hi.x.max(c.x), hi.y.max(c.y));
    }
    let mut hit: Vec<(usize, f64)> = stands
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            // Cheap rejections by the stand's circumcircle (no trigonometry): against the
            // band's bounding box, then its centre line; then the exact SAT.
            let c = r.center;
            let m = 0.5 * (r.width + r.depth); // ≥ the circumradius
            if c.x < lo.x - m || c.x > hi.x + m || c.y < lo.y - m || c.y > hi.y + m {
                return false;
            }
            let radius = 0.5 * (r.width * r.width + r.depth * r.depth).sqrt();
            point_segment_distance(c, start, end) < half + radius + EPS && convex_overlaps_rect(poly, r)
        })
        .map(|(i, r)| (i, nearest_along_band(&r.corners(), o, u, half).unwrap_or(0.0).max(0.0)))
        .collect();
    hit.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    hit
}

/// The stands hit by one impact strip (from the impact point along the line of fire `from` →
/// `impact.point`, `strip_width` wide, `penetration` long): indexes into `stands` in order along
/// the strip (by where each first enters it), with the attack dice each takes (first:
/// `impact.attacks`, each further: 1). Stands merely touching the strip, wholly beyond its far
/// end, or between `from` and the impact (flown over) are not hit. `impact.strip` is ignored:
/// the strip is drawn from these arguments.
pub fn strip_hits(impact: &Impact, from: V2, penetration: f64, stands: &[Rect], strip_width: f64) -> Vec<(usize, u32)> {
    if impact.attacks == 0 {
        return Vec::new();
    }
    let u = (impact.point - from).norm();
    let strip = corridor(impact.point, impact.point + u * penetration, strip_width);
    order_along(&strip, impact.point, u, strip_width * 0.5, stands)
        .into_iter()
        .enumerate()
        .map(|(k, (i, _))| (i, if k == 0 { impact.attacks } else { 1 }))
        .collect()
}

/// Canister blast-through corridor: from the gun through `through` (the primary target's
/// nearest point) out to `range` + `canister_extra_depth` from the gun, `canister_corridor_width`
/// wide, as [`corridor`] corners (gun-left, far-left, far-right, gun-right).
pub fn canister_corridor(gun: V2, through: V2, range: f64, p: &ArtilleryParams) -> [V2; 4] {
    let u = (through - gun).norm();
    corridor(
        gun,
        gun + u * (range + p.canister_extra_depth),
        p.canister_corridor_width,
    )
}

/// The units (each a slice of stand rects, indexed) that a [`canister_corridor`] crosses, nearest
/// the gun first (by where the unit's nearest stand first enters the corridor; ties by index).
/// Every unit crossed is listed, the primary target and friendly units included: the caller
/// skips the primary and refuses canister if a friendly unit lies in front.
/// Stands merely touching the corridor do not count.
pub fn units_in_corridor(corridor: &[V2; 4], gun: V2, units: &[&[Rect]]) -> Vec<usize> {
    let far_mid = (corridor[1] + corridor[2]) * 0.5;
    let u = (far_mid - gun).norm();
    let half = corridor[0].dist(corridor[3]) * 0.5;
    let mut found: Vec<(usize, f64)> = units
        .iter()
        .enumerate()
        .filter_map(|(i, stands)| {
            order_along(corridor, gun, u, half, stands)
                .first()
                .map(|&(_, s)| (i, s))
        })
        .collect();
    found.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    found.into_iter().map(|(i, _)| i).collect()
}

/// The to-hit score for the n-th unit of a blast-through (n = units in front that took
/// damage): base + n; None beyond 6 (Hardtack: "the Range Die is shifted up beyond a D12").
pub fn blast_through_to_hit(base: u32, damaged_in_front: u32) -> Option<u32> {
    let s = base.saturating_add(damaged_in_front);
    (s <= 6).then_some(s)
}

/// Shell (DECISIONS "Shell and howitzers"): the stands within `shell_radius` of the impact point
/// (edge distance; touching counts), in index order. Each is attacked equally.
pub fn shell_hits(point: V2, p: &ArtilleryParams, stands: &[Rect]) -> Vec<usize> {
    stands
        .iter()
        .enumerate()
        .filter(|(_, r)| r.distance_to_point(point) <= p.shell_radius + EPS)
        .map(|(i, _)| i)
        .collect()
}

/// Exact bounce-chain probabilities on open ground with enough table, for a ball that first
/// strikes with `attacks` dice: P(at least k bounces) for k = 1, 2, 3, 4 — the product of the
/// chances of the first k bounce scores (with the defaults: 1/2, 1/6, 1/36, 0); 0 beyond the
/// last score, and 0 for bounce k when it would strike with no die (`attacks` − k = 0: "a
/// bounce that would have 0 dice ends the shot", so a 1-die ball never bounces).
pub fn bounce_chain_odds(p: &ArtilleryParams, attacks: u32) -> [f64; 4] {
    let mut out = [0.0; 4];
    let mut acc = 1.0;
    for (k, o) in out.iter_mut().enumerate() {
        let dice_left = attacks.saturating_sub(k as u32 + 1) > 0;
        acc *= p
            .bounce_scores
            .get(k)
            .filter(|_| dice_left)
            .map_or(0.0, |&s| p_at_least(s));
        *o = acc;
    }
    out
}

/// Expected hits (after saves) of a round shot whose first impact falls on a target, for
/// `volley odds` and the fire preview: the first stand's `attacks` dice at `to_hit` against
/// `save`. It ignores the further stands in the strip (1 die each), any bounces and the chance
/// that the shot deviates off the target, so it is the hits *given a hit on the aim point*.
pub fn expected_shot_hits(attacks: u32, to_hit: u32, save: Option<u32>) -> f64 {
    f64::from(attacks) * p_hit_unsaved(to_hit, save)
}

/// Exact expected hits (after saves) on each unit a canister blast reaches, for `volley odds`
/// and the fire preview: `to_hits[k]` and `saves[k]` are unit k's own score and save (0: the
/// primary target, then the units behind it in the corridor, nearest first). Unit k is reached
/// only if every unit in front took at least one hit after saves, and is attacked `k` worse
/// (DECISIONS "canister with blast-through"); past 6 the blast stops. `roll_bonus` (the
/// first-fire +1) is taken off each score after that, as the game rolls it. Line troops' save
/// re-roll is left out.
pub fn canister_expected_hits(dice: u32, to_hits: &[u32], saves: &[Option<u32>], roll_bonus: u32) -> Vec<f64> {
    let mut reach = 1.0;
    let mut out = Vec::with_capacity(to_hits.len());
    for (k, &base) in to_hits.iter().enumerate() {
        let Some(score) = blast_through_to_hit(base, k as u32) else {
            out.push(0.0);
            reach = 0.0;
            continue;
        };
        let need = score.saturating_sub(roll_bonus).max(1);
        let p = p_hit_unsaved(need, saves.get(k).copied().flatten());
        out.push(reach * f64::from(dice) * p);
        reach *= 1.0 - (1.0 - p).powi(dice as i32);
    }
    out
}

/// The chance a round shot lands on its aim point: the accuracy d6.
pub fn p_on_target(accuracy_need: u32) -> f64 {
    p_at_least(accuracy_need)
}

fn air_burst_radius() -> f64 {
    2.0
}

fn air_burst_dice() -> i32 {
    -1
}

fn first_flight_clear() -> f64 {
    1.0
}

#[cfg(test)]
mod tests {
    use super::super::terrain::{Area, Building, Contour, Hill, Linear, Polygon};
    use super::*;

    fn sq(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon {
        Polygon(vec![V2::new(x0, y0), V2::new(x1, y0), V2::new(x1, y1), V2::new(x0, y1)])
    }
    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }
    fn vclose(a: V2, b: V2) -> bool {
        a.dist(b) < 1e-9
    }
    fn ground(t: &Terrain) -> TerrainGround<'_> {
        TerrainGround {
            terrain: t,
            width: 240.0,
            height: 180.0,
            wet: false,
        }
    }
    /// Infantry stand (2.5 × 1.5) facing the gun at the origin side (−x).
    fn inf(x: f64, y: f64) -> Rect {
        Rect::new(V2::new(x, y), PI, 2.5, 1.5)
    }

    #[test]
    fn defaults_match_decisions() {
        let p = ArtilleryParams::default();
        assert_eq!((p.accuracy_veteran, p.accuracy_regular, p.accuracy_green), (3, 4, 5));
        assert_eq!(p.bounce_scores, vec![4, 5, 6]);
        assert_eq!(p.penetration(true), 2.0);
        assert_eq!(p.penetration(false), 5.0);
        assert_eq!((p.canister_attacks(true), p.canister_attacks(false)), (3, 2));
        assert_eq!(p.deviation_dice(0.0), 1);
        assert_eq!(p.deviation_dice(29.9), 1);
        assert_eq!(p.deviation_dice(30.0), 2);
        assert_eq!(p.deviation_dice(45.0), 2);
        assert_eq!(p.deviation_dice(95.0), 4);
    }

    #[test]
    fn clock_convention() {
        let f = V2::new(0.0, 1.0); // line of fire to +y
        assert!(vclose(clock_dir(f, 12), f));
        assert!(vclose(clock_dir(f, 3), V2::new(1.0, 0.0))); // right of +y is +x
        assert!(vclose(clock_dir(f, 6), V2::new(0.0, -1.0)));
        assert!(vclose(clock_dir(f, 9), V2::new(-1.0, 0.0)));
        let eleven = clock_dir(f, 11);
        assert!(eleven.x < 0.0 && eleven.y > 0.0 && close(eleven.y, (PI / 6.0).cos()));
    }

    /// Hardtack "Shot Fire Example", in game terms.
    ///
    /// Book → game:
    /// * Regular crew, LV 2, Quality die roll 1 (not > 2: deviates) → regular accuracy 4+,
    ///   d6 roll 2: deviates.
    /// * Range 45" → 45 cm: 1d6 + 1d6 for one full 30 cm. Deviation D12 = 11, D8 = 5" → clock
    ///   11, d6s 2 + 3 = 5 cm ("5 away and off to the left of the aim point").
    /// * Impact die D10 → 3 attack dice at the first impact; each bounce shifts the impact die
    ///   down (D8, then D6 on the building) → 2 dice, then 1.
    /// * First bounce: Quality D8 roll 5 > LV + 2 = 4 → d6 5 ≥ 4+. Distance 49" → the game's
    ///   ~49.4 cm, halved without rounding (book: 24"). Landing D12 = 12, D4 = 1 → clock 12, d4 1:
    ///   0.5 cm further along the line.
    /// * Second bounce: Quality D8 roll 8 > LV + 4 = 6 → d6 6 ≥ 5+. It would fly half the last
    ///   distance (book: 12") and off the table edge at x = 85, but a building ("Barn") 3 cm
    ///   beyond the second impact stops it: the last impact, at the barn wall, with 1 die
    ///   (book: D6 impact die against the building). Its landing dice (clock 3, d4 2) only set
    ///   the direction it flew before it struck.
    #[test]
    fn hardtack_shot_fire_example() {
        let p = ArtilleryParams::default();
        let gun = V2::new(1.0, 90.0);
        let aim = V2::new(46.0, 90.0);
        // Where the story says the balls land (checked below), to place the barn.
        let first = aim + V2::new((PI / 6.0).cos(), (PI / 6.0).sin()) * 5.0;
        let u1 = (first - gun).norm();
        let second = first + u1 * (gun.dist(first) * 0.5 + 0.5);
        let barn_x = second.x + 3.0;
        let terrain = Terrain {
            buildings: vec![Building {
                name: "Barn".into(),
                outline: sq(barn_x, 80.0, barn_x + 4.0, 100.0),
                material: Default::default(),
            }],
            ..Terrain::default()
        };
        let g = TerrainGround {
            terrain: &terrain,
            width: 85.0,
            height: 180.0,
            wet: false,
        };
        let mut dice = Dice::scripted(vec![2, 11, 2, 3, 5, 12, 1, 6, 3, 2]);
        let tr = round_shot(gun, aim, 3, p.accuracy_regular, &p, &g, &mut dice);
        assert_eq!(dice.remaining_scripted(), Some(0));
        assert_eq!((tr.accuracy_roll, tr.accuracy_need), (2, 4));
        assert_eq!(tr.deviation, Some((11, vec![2, 3], 5.0)));
        assert_eq!(tr.impacts.len(), 3);
        let [i0, i1, i2] = [&tr.impacts[0], &tr.impacts[1], &tr.impacts[2]];
        assert!(vclose(i0.point, first));
        assert!(i0.point.x > aim.x && i0.point.y > aim.y, "forward and to the left");
        assert!((gun.dist(i0.point) - 49.39).abs() < 0.01); // the book's 49"
        assert_eq!(
            (i0.attacks, i0.bounce_roll, i0.bounce_need, i0.deviation),
            (3, Some(5), Some(4), None)
        );
        assert!(vclose(i1.point, second));
        assert_eq!(
            (i1.attacks, i1.bounce_roll, i1.bounce_need, i1.deviation),
            (2, Some(6), Some(5), Some((12, 1)))
        );
        assert!((i2.point.x - barn_x).abs() < 1e-6);
        assert_eq!((i2.attacks, i2.bounce_roll, i2.deviation), (1, None, Some((3, 2))));
        assert_eq!(tr.end, "Building Barn");
        assert!(vclose(tr.rest, i2.point));
        // Without the barn the same dice take the ball off the table.
        let bare = Terrain::default();
        let g2 = TerrainGround { terrain: &bare, ..g };
        let mut dice = Dice::scripted(vec![2, 11, 2, 3, 5, 12, 1, 6, 3, 2]);
        let tr2 = round_shot(gun, aim, 3, p.accuracy_regular, &p, &g2, &mut dice);
        assert_eq!(tr2.end, TABLE_EDGE);
        assert_eq!(tr2.impacts.len(), 2);
        assert!(close(tr2.rest.x, 85.0));
        // With 2 attack dice (book: the D4 impact die stops bouncing) the second bounce would
        // strike with 0 dice: no roll, the shot ends at the second impact.
        let mut dice = Dice::scripted(vec![2, 11, 2, 3, 5, 12, 1]);
        let tr3 = round_shot(gun, aim, 2, p.accuracy_regular, &p, &g, &mut dice);
        assert_eq!(dice.remaining_scripted(), Some(0));
        let att: Vec<u32> = tr3.impacts.iter().map(|i| i.attacks).collect();
        assert_eq!(att, vec![2, 1]);
        assert_eq!(tr3.end, OUT_OF_DICE);
        assert_eq!(tr3.impacts[1].bounce_roll, None);
    }

    #[test]
    fn accurate_shot_lands_on_aim() {
        let p = ArtilleryParams::default();
        let t = Terrain::default();
        let mut dice = Dice::scripted(vec![4, 3]);
        let tr = round_shot(
            V2::new(10.0, 10.0),
            V2::new(40.0, 10.0),
            3,
            4,
            &p,
            &ground(&t),
            &mut dice,
        );
        assert_eq!(tr.deviation, None);
        assert!(vclose(tr.impacts[0].point, V2::new(40.0, 10.0)));
        assert_eq!(tr.end, BOUNCE_FAILED);
        assert_eq!(tr.impacts[0].bounce_roll, Some(3));
        assert_eq!(tr.bounces(), 0);
    }

    #[test]
    fn wet_ground_no_bounce() {
        let p = ArtilleryParams::default();
        let t = Terrain::default();
        let g = TerrainGround {
            wet: true,
            ..ground(&t)
        };
        let mut dice = Dice::scripted(vec![6]);
        let tr = round_shot(V2::new(10.0, 10.0), V2::new(40.0, 10.0), 3, 4, &p, &g, &mut dice);
        assert_eq!(tr.impacts.len(), 1);
        assert_eq!(tr.end, "no bounce: wet ground");
        assert_eq!(tr.impacts[0].bounce_roll, None);
        // Marsh and mud are wet too; woods and fields do not bounce either; a road does.
        let t = Terrain {
            areas: vec![
                Area {
                    kind: AreaKind::Mud,
                    name: String::new(),
                    outline: sq(35.0, 0.0, 45.0, 20.0),
                },
                Area {
                    kind: AreaKind::Field,
                    name: String::new(),
                    outline: sq(35.0, 20.0, 45.0, 40.0),
                },
            ],
            linears: vec![Linear {
                kind: LinearKind::Road,
                name: String::new(),
                points: vec![V2::new(40.0, 25.0), V2::new(40.0, 35.0)],
                width: 2.0,
            }],
            ..Terrain::default()
        };
        let g = ground(&t);
        assert!(!g.bounces_at(V2::new(40.0, 10.0)));
        assert_eq!(g.no_bounce_reason(V2::new(40.0, 10.0)), "wet ground (Mud)");
        assert!(!g.bounces_at(V2::new(36.0, 30.0)));
        assert!(g.bounces_at(V2::new(40.5, 30.0)));
        assert!(g.bounces_at(V2::new(60.0, 30.0)));
        assert!(!g.bounces_at(V2::new(-1.0, 30.0)));
    }

    fn hill_terrain() -> Terrain {
        Terrain {
            hills: vec![Hill {
                name: "Mont".into(),
                contours: vec![
                    Contour {
                        height: 1,
                        outline: sq(70.0, 0.0, 120.0, 60.0),
                    },
                    Contour {
                        height: 2,
                        outline: sq(80.0, 0.0, 110.0, 60.0),
                    },
                ],
                mountain: false,
            }],
            ..Terrain::default()
        }
    }

    #[test]
    fn rising_slope_is_last_impact() {
        let p = ArtilleryParams::default();
        let t = hill_terrain();
        // Gun at x=10, aim at x=50 (40 cm): the bounce would fly 20 cm to x≈70.5+; the slope at
        // x=70 is the last impact, with one die fewer.
        let mut dice = Dice::scripted(vec![6, 4, 12, 2]);
        let tr = round_shot(
            V2::new(10.0, 30.0),
            V2::new(50.0, 30.0),
            3,
            4,
            &p,
            &ground(&t),
            &mut dice,
        );
        assert_eq!(tr.impacts.len(), 1 + 1);
        assert!(close(tr.impacts[1].point.x, 70.0));
        assert_eq!(tr.impacts[1].attacks, 2);
        assert_eq!(tr.end, "rising slope of Mont");
        // A ball landing on the hill itself does not bounce.
        let mut dice = Dice::scripted(vec![6]);
        let tr = round_shot(
            V2::new(10.0, 30.0),
            V2::new(75.0, 30.0),
            3,
            4,
            &p,
            &ground(&t),
            &mut dice,
        );
        assert_eq!(tr.end, "no bounce: rising ground");
        // Going downhill (from contour 2 to 1 to the plain) is not a rising slope.
        let g = ground(&t);
        assert!(g.stop_between(V2::new(100.0, 30.0), V2::new(140.0, 30.0)).is_none());
        // Contour 1 to contour 2 is.
        let s = g.stop_between(V2::new(75.0, 30.0), V2::new(100.0, 30.0)).unwrap();
        assert!(close(s.0, 0.2));
    }

    /// Woods "Bois" from x = 60 to 80 (y 0 to 20) and a wall along x from y0 to y1 for each
    /// `(x, y0, y1)`.
    fn woods_and_walls(walls: &[(f64, f64, f64)]) -> Terrain {
        Terrain {
            areas: vec![Area {
                kind: AreaKind::Woods,
                name: "Bois".into(),
                outline: sq(60.0, 0.0, 80.0, 20.0),
            }],
            linears: walls
                .iter()
                .map(|&(x, y0, y1)| Linear {
                    kind: LinearKind::Wall,
                    name: String::new(),
                    points: vec![V2::new(x, y0), V2::new(x, y1)],
                    width: 0.5,
                })
                .collect(),
            ..Terrain::default()
        }
    }

    #[test]
    fn woods_edge_and_wall_stop_the_ball() {
        let p = ArtilleryParams::default();
        let t = woods_and_walls(&[(60.0, 40.0, 60.0)]);
        let g = ground(&t);
        for (y, end) in [(10.0, "Woods Bois"), (50.0, "Wall")] {
            let mut dice = Dice::scripted(vec![6, 6, 12, 1]);
            let tr = round_shot(V2::new(10.0, y), V2::new(50.0, y), 3, 4, &p, &g, &mut dice);
            assert_eq!(tr.end, end);
            assert_eq!(tr.impacts.len(), 2);
            assert!(close(tr.impacts[1].point.x, 60.0));
            assert_eq!(tr.impacts[1].attacks, 2);
            assert_eq!(tr.impacts[1].bounce_roll, None);
        }
        // Open ground beside them does not stop it.
        assert!(g.stop_between(V2::new(10.0, 100.0), V2::new(100.0, 100.0)).is_none());
    }

    #[test]
    fn the_first_flight_stops_at_woods_a_wall_or_a_crest_but_not_a_wall_the_gun_lines() {
        // Hardtack: "If a shot hits woods, the impact point would be the edge of the woods";
        // DECISIONS round shot 5. Gun at x=10 aims 40 cm on (2 deviation d6s); a miss (1 < 4)
        // at 12 o'clock (away from the gun) by 6 + 6 = 12 cm would land at x=62, 2 cm inside
        // woods whose edge is at x=60: the ball strikes the edge with the gun's full 3 dice.
        let p = ArtilleryParams::default();
        let t = woods_and_walls(&[(56.0, 40.0, 60.0), (10.5, 70.0, 90.0)]);
        let g = ground(&t);
        let mut dice = Dice::scripted(vec![1, 12, 6, 6]);
        let tr = round_shot(V2::new(10.0, 10.0), V2::new(50.0, 10.0), 3, 4, &p, &g, &mut dice);
        assert_eq!(tr.deviation, Some((12, vec![6, 6], 12.0)));
        assert_eq!(tr.impacts.len(), 1);
        assert!(close(tr.impacts[0].point.x, 60.0));
        assert_eq!(tr.impacts[0].attacks, 3);
        assert_eq!(tr.end, "Woods Bois");
        // A wall 6 cm past the aim point stops the deviated ball there (no bounce roll drawn).
        let mut dice = Dice::scripted(vec![1, 12, 6, 6]);
        let tr = round_shot(V2::new(10.0, 50.0), V2::new(50.0, 50.0), 3, 4, &p, &g, &mut dice);
        assert_eq!((tr.impacts.len(), tr.end.as_str()), (1, "Wall"));
        assert!(close(tr.impacts[0].point.x, 56.0));
        // A wall 0.5 cm in front of the muzzle is the gun's own: the ball flies over it and
        // lands on its aim (4 hits the aim, then a 1 fails the bounce).
        let mut dice = Dice::scripted(vec![4, 1]);
        let tr = round_shot(V2::new(10.0, 80.0), V2::new(50.0, 80.0), 3, 4, &p, &g, &mut dice);
        assert!(close(tr.impacts[0].point.x, 50.0));
        assert_eq!(tr.end, BOUNCE_FAILED);
        // A slope rising above both ends stops the flight at its foot; a ball laid on the hill's
        // first contour flies over the plain onto it.
        let t = hill_terrain();
        let g = ground(&t);
        let mut dice = Dice::scripted(vec![4]);
        let tr = round_shot(V2::new(10.0, 30.0), V2::new(75.0, 30.0), 3, 4, &p, &g, &mut dice);
        assert!(close(tr.impacts[0].point.x, 75.0));
        let mut dice = Dice::scripted(vec![4]);
        let tr = round_shot(V2::new(10.0, 30.0), V2::new(130.0, 30.0), 3, 4, &p, &g, &mut dice);
        assert_eq!(tr.impacts.len(), 1);
        assert!(close(tr.impacts[0].point.x, 70.0));
        assert_eq!(tr.end, "rising slope of Mont");
    }

    #[test]
    fn table_edge_ends_without_impact() {
        let p = ArtilleryParams::default();
        let t = Terrain::default();
        let g = TerrainGround {
            width: 60.0,
            ..ground(&t)
        };
        let mut dice = Dice::scripted(vec![6, 4, 12, 1]);
        let tr = round_shot(V2::new(10.0, 30.0), V2::new(50.0, 30.0), 3, 4, &p, &g, &mut dice);
        assert_eq!(tr.end, TABLE_EDGE);
        assert_eq!(tr.impacts.len(), 1);
        assert!(vclose(tr.rest, V2::new(60.0, 30.0)));
        // The landing dice of the bounce that left the table are kept (issue 21, Hardtack 7).
        assert_eq!(tr.exit_landing, Some((12, 1)));
        // A first impact deviated off the table does not bounce.
        let mut dice = Dice::scripted(vec![1, 12, 6, 6]);
        let tr = round_shot(V2::new(10.0, 30.0), V2::new(55.0, 30.0), 3, 4, &p, &g, &mut dice);
        assert_eq!(tr.end, "no bounce: off the table");
    }

    #[test]
    fn dice_exhausted_and_never_a_fourth_bounce() {
        let p = ArtilleryParams::default();
        let t = Terrain::default();
        let g = TerrainGround {
            terrain: &t,
            width: 1e4,
            height: 1e4,
            wet: false,
        };
        let (gun, aim) = (V2::new(100.0, 100.0), V2::new(164.0, 100.0));
        // 1 attack die: no bounce roll at all.
        let mut dice = Dice::scripted(vec![6]);
        let tr = round_shot(gun, aim, 1, 4, &p, &g, &mut dice);
        assert_eq!(tr.end, OUT_OF_DICE);
        assert_eq!(tr.impacts.len(), 1);
        // 9 dice, every roll a 6, landing dice 12/1 (0.5 cm on): three bounces, then no fourth.
        let mut dice = Dice::scripted(vec![6, 6, 12, 1, 6, 12, 1, 6, 12, 1]);
        let tr = round_shot(gun, aim, 9, 4, &p, &g, &mut dice);
        assert_eq!(dice.remaining_scripted(), Some(0));
        assert_eq!(tr.end, NO_MORE_BOUNCES);
        let att: Vec<u32> = tr.impacts.iter().map(|i| i.attacks).collect();
        assert_eq!(att, vec![9, 8, 7, 6]);
        let needs: Vec<Option<u32>> = tr.impacts.iter().map(|i| i.bounce_need).collect();
        assert_eq!(needs, vec![Some(4), Some(5), Some(6), None]);
        // Half the last distance each time (+0.5 cm landing deviation): 64 → 32.5 → 16.75 → 8.875.
        let xs: Vec<f64> = tr.impacts.iter().map(|i| i.point.x - 100.0).collect();
        for (x, e) in xs.iter().zip([64.0, 96.5, 113.25, 122.125]) {
            assert!(close(*x, e), "{xs:?}");
        }
        // 3 dice: impacts at 3, 2, 1, then the third bounce would strike with 0 dice.
        let mut dice = Dice::scripted(vec![6, 6, 12, 1, 6, 12, 1]);
        let tr = round_shot(gun, aim, 3, 4, &p, &g, &mut dice);
        assert_eq!(tr.end, OUT_OF_DICE);
        assert_eq!(tr.impacts.iter().map(|i| i.attacks).collect::<Vec<_>>(), vec![3, 2, 1]);
        // A failed second bounce (5+ needed, 4 rolled).
        let mut dice = Dice::scripted(vec![6, 4, 12, 1, 4]);
        let tr = round_shot(gun, aim, 3, 4, &p, &g, &mut dice);
        assert_eq!(tr.end, BOUNCE_FAILED);
        assert_eq!(tr.impacts[1].bounce_roll, Some(4));
        assert_eq!(tr.impacts[1].bounce_need, Some(5));
    }

    #[test]
    fn bounce_landing_deviation_is_relative_to_travel() {
        let p = ArtilleryParams::default();
        let t = Terrain::default();
        let g = ground(&t);
        // Fire along +y; landing clock 3 (right = +x) by d4 4 (2 cm).
        let mut dice = Dice::scripted(vec![6, 4, 3, 4, 1]);
        let tr = round_shot(V2::new(50.0, 10.0), V2::new(50.0, 50.0), 3, 4, &p, &g, &mut dice);
        assert!(vclose(tr.impacts[1].point, V2::new(52.0, 70.0)));
        // The second strip runs along the new travel direction.
        let u = (tr.impacts[1].point - tr.impacts[0].point).norm();
        let s = tr.impacts[1].strip;
        assert!(((s[1] + s[2]) * 0.5 - (tr.impacts[1].point + u * 5.0)).len() < 1e-9);
        assert!(vclose(tr.from_of(1), tr.impacts[0].point));
    }

    #[test]
    fn exact_bounce_odds() {
        let o = bounce_chain_odds(&ArtilleryParams::default(), 4);
        let e = [0.5, 0.5 / 3.0, 0.5 / 3.0 / 6.0, 0.0];
        for k in 0..4 {
            assert!(close(o[k], e[k]), "{o:?}");
        }
        // Each bounce strikes with one die fewer and a bounce with none ends the shot: a 1-die
        // ball never bounces, a 2-die ball at most once, a 3-die ball at most twice.
        let p = ArtilleryParams::default();
        assert_eq!(bounce_chain_odds(&p, 1), [0.0; 4]);
        assert_eq!(bounce_chain_odds(&p, 2), [0.5, 0.0, 0.0, 0.0]);
        let three = bounce_chain_odds(&p, 3);
        assert!(close(three[1], 0.5 / 3.0) && three[2] == 0.0);
        // The same from the dice: a 1-die ball on open ground stops without a bounce roll.
        let t = Terrain::default();
        let mut dice = Dice::scripted(vec![6]);
        let tr = round_shot(
            V2::new(10.0, 30.0),
            V2::new(50.0, 30.0),
            1,
            4,
            &p,
            &ground(&t),
            &mut dice,
        );
        assert_eq!(
            (tr.bounces(), tr.impacts[0].bounce_roll, tr.end.as_str()),
            (0, None, OUT_OF_DICE)
        );
    }

    /// 200 000 seeded shots on open ground, huge table, plenty of dice: the observed frequency of
    /// at least k bounces is within ±0.005 of the exact odds (that is ≥ 4.4 standard errors for
    /// k = 1, the widest; the seed is fixed so the test is deterministic).
    #[test]
    fn sampled_bounce_odds() {
        let p = ArtilleryParams::default();
        let t = Terrain::default();
        let g = TerrainGround {
            terrain: &t,
            width: 1e5,
            height: 1e5,
            wet: false,
        };
        let mut dice = Dice::new(20_240_601);
        let n = 200_000;
        let mut at_least = [0u32; 4];
        for _ in 0..n {
            let tr = round_shot(V2::new(5e4, 5e4), V2::new(5e4 + 60.0, 5e4), 10, 4, &p, &g, &mut dice);
            for (k, c) in at_least.iter_mut().enumerate() {
                if tr.bounces() > k {
                    *c += 1;
                }
            }
        }
        let o = bounce_chain_odds(&p, 10);
        for k in 0..4 {
            let f = f64::from(at_least[k]) / f64::from(n);
            assert!((f - o[k]).abs() <= 0.005, "k={} observed {f} exact {}", k + 1, o[k]);
        }
        assert_eq!(at_least[3], 0);
    }

    #[test]
    fn strip_hits_order_and_dice() {
        let gun = V2::new(0.0, 50.0);
        let imp = Impact {
            point: V2::new(40.0, 50.0),
            strip: [V2::ZERO; 4],
            attacks: 3,
            bounce_roll: None,
            bounce_need: None,
            deviation: None,
        };
        let stands = [
            inf(44.0, 50.0),  // 0: 3.25 cm on: in a 5 cm strip
            inf(30.0, 50.0),  // 1: between gun and impact: flown over
            inf(41.0, 50.2),  // 2: first in the strip
            inf(42.5, 50.0),  // 3: second
            inf(46.5, 50.0),  // 4: begins at 45.75 > 45: beyond the strip
            inf(43.0, 51.5),  // 5: its edge at y=50.25 touches the strip: not hit
            inf(40.0, 50.0),  // 6: straddles the impact point: hit, first with 2
            inf(43.0, 51.49), // 7: overlaps the strip edge by 0.01
        ];
        let hits = strip_hits(&imp, gun, 5.0, &stands, 0.5);
        assert_eq!(hits, vec![(6, 3), (2, 1), (3, 1), (7, 1), (0, 1)]);
        // A 2 cm smoothbore strip (to x = 42) still reaches stand 3 (from 41.75), not 7 or 0.
        let hits = strip_hits(&imp, gun, 2.0, &stands, 0.5);
        assert_eq!(hits, vec![(6, 3), (2, 1), (3, 1)]);
        // Without the straddling stand, the first in the strip takes the full dice.
        let hits = strip_hits(&imp, gun, 5.0, &stands[..6], 0.5);
        assert_eq!(hits[0], (2, 3));
        assert!(!hits.iter().any(|&(i, _)| i == 1 || i == 4 || i == 5));
        // Direction matters: fired from the other side, the strip runs to −x.
        let hits = strip_hits(&imp, V2::new(100.0, 50.0), 5.0, &stands, 0.5);
        assert_eq!(hits, vec![(6, 3)]);
    }

    #[test]
    fn canister_corridor_units_in_order() {
        let p = ArtilleryParams::default();
        let gun = V2::new(0.0, 0.0);
        let through = V2::new(6.0, 0.0);
        let c = canister_corridor(gun, through, p.canister_range, &p);
        assert!(vclose(c[0], V2::new(0.0, 0.5)) && vclose(c[2], V2::new(15.0, -0.5)));
        let primary = [inf(6.75, 0.0), inf(6.75, 2.5)];
        let behind = [inf(12.0, 0.8), inf(12.0, 3.3)]; // its first stand overlaps y ∈ [-0.45, 2.05]
        let beyond = [inf(17.0, 0.0)]; // starts at 16.25 > 15
        let aside = [inf(9.0, 5.0)];
        let between = [inf(9.0, -1.0)]; // y ∈ [-2.25, 0.25]
        let units: Vec<&[Rect]> = vec![&behind, &beyond, &primary, &aside, &between];
        assert_eq!(units_in_corridor(&c, gun, &units), vec![2, 4, 0]);
        assert_eq!(blast_through_to_hit(4, 0), Some(4));
        assert_eq!(blast_through_to_hit(4, 2), Some(6));
        assert_eq!(blast_through_to_hit(4, 3), None);
        assert_eq!(blast_through_to_hit(6, 1), None);
    }

    /// Hardtack "Canister Fire Example", in game terms.
    ///
    /// Book → game: the 3" rifle (rifled: 2 attacks per gun stand) fires at the lead company of
    /// the regiment (the primary target, 4+ in the open); the company behind it in the corridor
    /// is the blast-through target. Book: the lead company "took damage" (a major hit, saves
    /// failed) → game: at least one hit after saves. Book: the second company's range die is
    /// shifted up 1 for the one company in front that took damage → game: to-hit 4 + 1 = 5.
    /// Book: the cannon rolls 4, 3, 1 against a D8 range die of 8: no damage → game: 2 dice
    /// rolling 4 and 3 against 5+: no hit, and so no more blast-through (a third company behind
    /// is never attacked).
    #[test]
    fn hardtack_canister_fire_example() {
        let p = ArtilleryParams::default();
        let gun = V2::new(0.0, 0.0);
        let lead = [inf(7.0, 0.0), inf(7.0, 2.5), inf(7.0, -2.5)];
        let second = [inf(11.0, 0.0), inf(11.0, 2.5), inf(11.0, -2.5)];
        let third = [inf(14.0, 0.0), inf(14.0, 2.5)];
        let units: Vec<&[Rect]> = vec![&third, &lead, &second];
        let c = canister_corridor(gun, V2::new(6.25, 0.0), p.canister_range, &p);
        let order = units_in_corridor(&c, gun, &units);
        assert_eq!(order, vec![1, 2, 0]);
        let attacks = p.canister_attacks(false);
        assert_eq!(attacks, 2);
        // Scripted: primary 6, 5 to hit (4+), saves 1, 2 against 5+ (both fail);
        // second unit 4, 3 against 5+.
        let mut dice = Dice::scripted(vec![6, 5, 1, 2, 4, 3]);
        let save = Some(5);
        let mut attacked = Vec::new();
        // A unit that takes no hit ends the blast, so every unit in front took damage: the
        // count of damaged units in front is the position in the corridor order.
        for (damaged, &u) in (0u32..).zip(&order) {
            let Some(to_hit) = blast_through_to_hit(4, damaged) else {
                break;
            };
            attacked.push((u, to_hit));
            let hits = dice.roll(attacks, 6).into_iter().filter(|&d| d >= to_hit).count() as u32;
            let saves = dice
                .roll(hits, 6)
                .into_iter()
                .filter(|&d| save.is_some_and(|s| d >= s))
                .count() as u32;
            if hits - saves == 0 {
                break;
            }
        }
        assert_eq!(attacked, vec![(1, 4), (2, 5)]);
        assert_eq!(dice.remaining_scripted(), Some(0));
    }

    #[test]
    fn shell_and_expected_hits() {
        let p = ArtilleryParams::default();
        let stands = [inf(0.0, 0.0), inf(3.75, 0.0), inf(3.76, 0.0), inf(0.0, 4.0)];
        assert_eq!(shell_hits(V2::ZERO, &p, &stands), vec![0, 1, 3]);
        assert!(close(expected_shot_hits(3, 4, None), 1.5));
        assert!(close(expected_shot_hits(3, 4, Some(4)), 0.75));
        assert!(close(expected_shot_hits(2, 7, None), 0.0));
    }

    #[test]
    fn traces_serialize_round_trip_fields() {
        // The trace is plain data (serde derives) for the log; a quick structural check.
        let p = ArtilleryParams::default();
        let t = Terrain::default();
        let mut dice = Dice::new(7);
        let tr = round_shot(
            V2::new(10.0, 90.0),
            V2::new(70.0, 90.0),
            3,
            4,
            &p,
            &ground(&t),
            &mut dice,
        );
        let mut again = tr.clone();
        again.restrip(2.0, 0.5);
        for (a, b) in tr.impacts.iter().zip(&again.impacts) {
            assert_eq!(a.point, b.point);
            assert!(b.strip[0].dist(b.strip[1]) < 2.0 + 1e-9);
        }
        let mut d2 = Dice::new(7);
        assert_eq!(
            round_shot(V2::new(10.0, 90.0), V2::new(70.0, 90.0), 3, 4, &p, &ground(&t), &mut d2),
            tr
        );
    }

    #[test]
    fn canister_blast_odds_are_exact() {
        // 3 dice at 4+ (p = 1/2): the primary expects 1.5 hits; the next unit is reached when
        // the primary took a hit (1 − 1/8 = 7/8) and is hit on 5+ (1/3): 7/8 × 3 × 1/3 = 7/8;
        // the third is reached with 7/8 × (1 − (2/3)³) = 7/8 × 19/27 and hit on 6+.
        let e = canister_expected_hits(3, &[4, 4, 4, 4], &[None; 4], 0);
        assert!(close(e[0], 1.5));
        assert!(close(e[1], 7.0 / 8.0));
        assert!(close(e[2], 7.0 / 8.0 * 19.0 / 27.0 * 3.0 / 6.0));
        assert_eq!(e[3], 0.0, "would need 7");
        // A save halves the primary's expected hits at 4+.
        let e = canister_expected_hits(3, &[4], &[Some(4)], 0);
        assert!(close(e[0], 0.75));
        assert!(close(p_on_target(4), 0.5));
        // The first-fire +1 (BPT): scores 4, 5, 6 become rolls of 3+, 4+, 5+; the chain still
        // stops where the score would pass 6 (the bonus changes the roll, not the score).
        let e = canister_expected_hits(3, &[4, 4, 4, 4], &[None; 4], 1);
        let reach1 = 1.0 - (1.0f64 / 3.0).powi(3); // the primary hit on 3+ at least once
        assert!(close(e[0], 2.0));
        assert!(close(e[1], reach1 * 1.5));
        assert!(close(e[2], reach1 * (1.0 - 0.125) * 1.0));
        assert_eq!(e[3], 0.0);
    }
}
