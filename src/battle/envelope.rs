//! Where a unit with an order in hand may go in one straight move, keeping its facing: the
//! window draws it while the player drags a move (issue 7, "see its legal envelope before
//! committing"). Every point is checked by the same rule the move itself is applied with
//! (`Battle::check_ordered_move`: allowance, oblique and retire, terrain, road bonus,
//! obstacles, other units), so the picture cannot disagree with the pipeline.

use super::state::{Battle, UnitId};
use crate::rules::geometry::{Pose, V2};

/// How far the unit may go along each of `rays` directions spread around it (angles in
/// radians from east, ascending), in steps of `step` cm: the reach of each ray, 0 where no
/// move that way is legal. A ray's reach is its furthest legal point, so a ray that is
/// blocked and then clear again (a friend in the way) reports the far side.
pub fn move_envelope(b: &Battle, unit: UnitId, rays: usize, step: f64) -> Vec<(f64, f64)> {
    let u = b.unit(unit);
    let from = u.pose;
    let m = &b.rules.movement;
    // No move is longer than the allowance plus the biggest road bonus.
    let longest = u.move_rate() + m.road_bonus_foot.max(m.road_bonus_horse);
    let steps = (longest / step).ceil() as usize;
    (0..rays)
        .map(|i| {
            let angle = std::f64::consts::TAU * i as f64 / rays as f64;
            let dir = V2::new(angle.cos(), angle.sin());
            let mut reach: f64 = 0.0;
            for k in 1..=steps {
                let d = k as f64 * step;
                match b.check_ordered_move(unit, Pose::new(from.pos + dir * d, from.facing)) {
                    Ok(_) => reach = d,
                    // Further along the ray the cost only grows and the direction stays the
                    // same, so nothing beyond is legal either; other refusals (a friend in the
                    // way) may clear further on.
                    Err(r) if ends_the_ray(&r.rule) => break,
                    Err(_) => {}
                }
            }
            (angle, reach)
        })
        .collect()
}

/// Refusals that hold for every point further along a straight ray from the unit: the move
/// allowance (the cost only grows with distance) and the direction rules (oblique, retire,
/// about face, wheel).
fn ends_the_ray(rule: &str) -> bool {
    ["allowance", "Oblique", "Retire", "About Face", "Wheel"]
        .iter()
        .any(|w| rule.contains(w))
}

/// The envelope as an outline around the unit's position: the end of every ray, and the
/// unit's own position wherever a ray has no reach, so the outline is a fan, not a ring.
pub fn envelope_outline(centre: V2, envelope: &[(f64, f64)]) -> Vec<V2> {
    envelope
        .iter()
        .map(|&(a, r)| centre + V2::new(a.cos(), a.sin()) * r)
        .collect()
}
