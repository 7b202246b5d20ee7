//! BPT "Consolidate", the winner's choice after a charge: "Each unit may move up to 5cm in the
//! facing direction, but none may move closer than 3cm to a visible enemy unit. Units may
//! change the direction they are facing." Each unit that consolidates decides in its own
//! window (`Step::Consolidate`): stay (`Pass`, or its own pose), or a pose straight ahead.
//!
//! **Decision** (docs/rules.md): "in the facing direction" is the facing the unit had when the
//! combat ended, so the move goes straight ahead and the new facing is taken where it stops;
//! the way is checked as the forced move it replaces checked it (terrain, other units, the
//! table edge, 3 cm from the enemy), and the pose it ends in, turned, stands on the table, out
//! of impassable terrain, on no unit, and no nearer an enemy than 3 cm (or than it was).

use super::action::{Action, Refusal, refuse, refuse_with};
use super::event::Event;
use super::state::*;
use crate::battle::event::families::*;
use crate::rules::geometry::{self, Pose, V2};
use crate::rules::params::Cover;

pub(crate) const RULE: &str = "BPT Consolidate";

impl Battle {
    /// Open the consolidation window for the first living unit of `queue`; false when none is
    /// left to consolidate.
    pub(crate) fn open_consolidation(&mut self, mut queue: Vec<UnitId>) -> bool {
        queue.retain(|&u| self.unit(u).alive());
        if queue.is_empty() {
            return false;
        }
        let unit = queue.remove(0);
        self.change_turn(TurnChange::Step(Step::Consolidate { unit, queue }));
        true
    }

    /// The farthest `unit` may consolidate straight ahead now (BPT "Consolidate": up to the
    /// rules' distance, stopped as a forced move is, never within the rules' gap of an enemy).
    pub fn consolidation_reach(&self, unit: UnitId) -> f64 {
        let from = self.unit(unit).pose;
        let c = &self.rules.charge;
        self.travel_limit(unit, from.forward(), c.consolidate, from.facing, c.consolidate_gap)
    }

    /// Check a consolidation of `unit` to `to`; the pose it ends in (on the line straight
    /// ahead, to the bit).
    pub fn check_consolidation(&self, unit: UnitId, to: Pose) -> Result<Pose, Refusal> {
        let u = self.unit(unit);
        if !to.pos.x.is_finite() || !to.pos.y.is_finite() || !to.facing.is_finite() {
            return refuse(RULE, "not a place on the table");
        }
        let from = u.pose;
        let dir = from.forward();
        let off = to.pos - from.pos;
        let (ahead, across) = (off.dot(dir), off.dot(dir.perp()));
        let eps = 1e-3;
        if across.abs() > eps || ahead < -eps {
            return refuse_with(RULE, || {
                format!("{} may only move straight ahead, in the direction it faces", u.name)
            });
        }
        let c = &self.rules.charge;
        if ahead > c.consolidate + eps {
            return refuse_with(RULE, || {
                format!("{} may move up to {} cm, not {ahead:.1} cm", u.name, c.consolidate)
            });
        }
        let ahead = ahead.max(0.0);
        if ahead > eps {
            let reach = self.consolidation_reach(unit);
            if ahead > reach + eps {
                return refuse_with(RULE, || {
                    format!(
                        "{} can go only {reach:.1} cm ahead: terrain, another unit, the table edge or {} cm from the enemy stops it",
                        u.name, c.consolidate_gap
                    )
                });
            }
        }
        // Facing as it did (to the bit) unless it turns.
        let turned = geometry::wrap_angle(to.facing - from.facing).abs() >= 1e-9;
        let facing = if turned { to.facing } else { from.facing };
        let pose = if ahead <= eps && !turned {
            from
        } else {
            Pose::new(from.pos + dir * ahead, facing)
        };
        if pose != from {
            self.check_consolidated_pose(unit, pose)?;
        }
        Ok(pose)
    }

    /// The pose a consolidation ends in, turned as the player likes: on the table, out of
    /// impassable terrain, on no other unit, and no nearer an enemy than the rules' gap, or
    /// than it already stood.
    fn check_consolidated_pose(&self, unit: UnitId, pose: Pose) -> Result<(), Refusal> {
        let u = self.unit(unit);
        let rects = self.rects_at(unit, pose);
        if rects.iter().any(|r| r.corners().iter().any(|c| !self.on_table(*c))) {
            return refuse_with(RULE, || format!("{} would leave the table", u.name));
        }
        if rects.iter().any(|r| self.terrain.rect_in_impassable(r, u.on_foot())) {
            return refuse_with(RULE, || format!("{} cannot stand in impassable terrain", u.name));
        }
        if let Some(o) = self.overlapping_unit(unit, &rects) {
            return refuse_with(RULE, || format!("{} would overlap {}", u.name, self.unit(o).name));
        }
        let gap = self.rules.charge.consolidate_gap;
        for e in self.side_units(1 - u.side) {
            let before = geometry::rects_distance(self.rects(unit), self.rects(e.id));
            let after = geometry::rects_distance(&rects, self.rects(e.id));
            if after < gap.min(before) - 1e-6 {
                return refuse_with(RULE, || {
                    format!("{} may not come closer than {gap} cm to {}", u.name, e.name)
                });
            }
        }
        Ok(())
    }

    /// Place the consolidating unit (a checked pose; its own pose: it stays).
    pub(crate) fn consolidate_to(&mut self, unit: UnitId, to: Pose, ev: &mut Vec<Event>) {
        let from = self.unit(unit).pose;
        if to != from {
            self.change_unit(unit, UnitChange::Pose(to));
            self.refresh_geometry();
        }
        ev.push(Event::Melee(MeleeEvent::Consolidated { unit, from, to }));
        if to != from {
            self.overrun_commanders(unit, ev);
        }
    }

    /// The cover the ground itself gives a unit standing at `p` (BPT "Scoring Hits": the
    /// rules' area cover, a wood or a town), without obstacles or digging in.
    pub fn ground_cover_at(&self, p: V2) -> Cover {
        let f = &self.rules.fire;
        self.terrain
            .area_kinds_at(p)
            .into_iter()
            .filter_map(|k| f.area_cover.iter().find(|(a, _)| *a == k).map(|(_, c)| *c))
            .max()
            .unwrap_or(Cover::Open)
    }

    /// The consolidations offered: stay (`Pass`), the whole way ahead and half of it, each
    /// facing as it does, turned 45° or 90° either way, or about; and those turns in place.
    pub(crate) fn legal_consolidations(&self, unit: UnitId, out: &mut Vec<Action>) {
        let from = self.unit(unit).pose;
        let reach = self.consolidation_reach(unit);
        let mut dists = vec![reach, reach / 2.0, 0.0];
        dists.dedup_by(|a, b| (*a - *b).abs() < 0.05);
        let q = std::f64::consts::FRAC_PI_4;
        for d in dists {
            for turn in [0.0, q, -q, 2.0 * q, -2.0 * q, 4.0 * q] {
                if d < 0.05 && turn == 0.0 {
                    continue;
                }
                let facing = if turn == 0.0 {
                    from.facing
                } else {
                    geometry::wrap_angle(from.facing + turn)
                };
                let to = Pose::new(from.pos + from.forward() * d, facing);
                if self.check_consolidation(unit, to).is_ok() {
                    out.push(Action::Consolidate { unit, to });
                }
            }
        }
        out.push(Action::Pass);
    }
}
