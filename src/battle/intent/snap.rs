//! A dragged move snapped to the nearest legal one (issue 65, "Drag that snaps"): no hand
//! drags perfectly straight, nor exactly the allowance. When the pose dragged to is refused,
//! the moves near it are tried (the same pose shortened to what the move allows, without the
//! wheel, as a wheel, straight ahead or back), each checked by the rule the move is applied
//! with (`Battle::check_ordered_move`), and the legal one nearest the pose dragged to is
//! offered, with what it is.

use crate::battle::state::{Battle, UnitId};
use crate::rules::geometry::{Pose, wrap_angle};

/// What the snapped move is, in a player's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnapKind {
    /// The pose dragged to is legal as it is.
    AsDragged,
    /// The same way and turn, shortened to what the move allows.
    Shortened,
    /// The move dragged to, without its turn (an advance or an oblique).
    NoTurn,
    /// The turn dragged, as a wheel (its centre goes half the turn's way).
    Wheel,
    /// Straight ahead or back, as far as dragged along the facing.
    Straight,
}

impl SnapKind {
    pub fn words(self) -> &'static str {
        match self {
            SnapKind::AsDragged => "as dragged",
            SnapKind::Shortened => "shortened to what its move allows",
            SnapKind::NoTurn => "without the turn",
            SnapKind::Wheel => "as a wheel",
            SnapKind::Straight => "straight along its facing",
        }
    }
}

/// How much a degree of facing weighs against a cm of place, choosing the nearest.
const DEG_CM: f64 = 0.1;
/// Fractions of a dragged move tried, longest first.
const FRACTIONS: [f64; 12] = [1.0, 0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1];

impl Battle {
    /// The legal move of unit `id` nearest `wanted` (a dragged pose), and what it is; None
    /// when no move near it is legal (the unit has no order, it is hemmed in...): then the
    /// drag stays refused, and says why.
    pub fn snap_move(&self, id: UnitId, wanted: Pose) -> Option<(Pose, SnapKind)> {
        let from = self.units.get(id as usize)?.pose;
        let legal = |q: Pose| self.check_ordered_move(id, q).is_ok();
        if legal(wanted) {
            return Some((wanted, SnapKind::AsDragged));
        }
        let d = wanted.pos - from.pos;
        let turn = wrap_angle(wanted.facing - from.facing);
        let fwd = from.forward();
        let ahead = d.dot(fwd);
        // Each way of reading the drag: (kind, the pose at the whole of it, as a fraction).
        let ways: [(SnapKind, &dyn Fn(f64) -> Pose); 4] = [
            (SnapKind::Shortened, &|k| {
                Pose::new(from.pos + d * k, wrap_angle(from.facing + turn * k))
            }),
            (SnapKind::NoTurn, &|k| Pose::new(from.pos + d * k, from.facing)),
            (SnapKind::Wheel, &|k| {
                let a = (turn * k).clamp(-std::f64::consts::FRAC_PI_4, std::f64::consts::FRAC_PI_4);
                Pose::new(
                    from.pos + fwd.rotate(a / 2.0) * (d.len() * k),
                    wrap_angle(from.facing + a),
                )
            }),
            (SnapKind::Straight, &|k| {
                Pose::new(from.pos + fwd * (ahead * k), from.facing)
            }),
        ];
        let mut best: Option<(f64, Pose, SnapKind)> = None;
        for (kind, at) in ways {
            // The longest legal fraction of this reading.
            if let Some(q) = FRACTIONS.iter().map(|&k| at(k)).find(|&q| legal(q)) {
                let off = q.pos.dist(wanted.pos) + wrap_angle(q.facing - wanted.facing).abs().to_degrees() * DEG_CM;
                if best.is_none_or(|(b, _, _)| off < b - 1e-9) {
                    best = Some((off, q, kind));
                }
            }
        }
        best.map(|(_, q, k)| (q, k))
            .filter(|(q, _)| q.pos.dist(from.pos) > 1e-6 || wrap_angle(q.facing - from.facing).abs() > 1e-6)
    }
}
