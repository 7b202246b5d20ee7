//! Each side's strength turn by turn, for the result screen's chart: the fighting stands (guns
//! for artillery) of its units still in the battle, at the start of every game turn and at the
//! end, computed by re-playing the recording.

use super::Recording;
use super::verify::{Mismatch, verify_each};
use crate::battle::Battle;
use std::path::Path;

/// One point of the chart: the game turn and each side's stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    pub game_turn: u32,
    pub stands: [u32; 2],
}

/// The fighting stands of each side's units still in the battle.
pub fn stands_left(b: &Battle) -> [u32; 2] {
    let mut out = [0, 0];
    for u in b.alive_units() {
        out[u.side] += u.stands;
    }
    out
}

/// Collects the points from the states of a game, in order.
#[derive(Default)]
pub struct StrengthChart {
    pub points: Vec<Strength>,
}

impl StrengthChart {
    /// Look at the next state: a new game turn adds a point; the same turn updates its last
    /// point (so the last point of each turn is where it ended, and the final state ends it).
    pub fn see(&mut self, b: &Battle) {
        let p = Strength {
            game_turn: b.game_turn,
            stands: stands_left(b),
        };
        match self.points.last_mut() {
            Some(last) if last.game_turn == p.game_turn => *last = p,
            _ => self.points.push(p),
        }
    }
}

/// The strength at the end of every game turn (the first point: the start of the game),
/// by re-playing the recording.
pub fn strength_by_turn(rec: &Recording, recording: &Path) -> Result<Vec<Strength>, Mismatch> {
    let mut chart = StrengthChart::default();
    let mut start = None;
    verify_each(rec, recording, |n, b| {
        if n == 0 {
            start = Some(Strength {
                game_turn: 0,
                stands: stands_left(b),
            });
        }
        chart.see(b);
    })?;
    Ok(start.into_iter().chain(chart.points).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_starts_with_the_deployment_and_ends_with_the_final_state() {
        let path = Path::new("maps/skirmish.ron");
        let (mut b, _) = crate::load_battle(path, 2).expect("skirmish");
        let start = stands_left(&b);
        assert!(start[0] > 0 && start[1] > 0);
        let mut rec = Recording::start(&b, "maps/skirmish.ron", 2, None);
        let mut agents = [0, 1].map(|s| crate::agents::by_name("eager", 2, s).expect("agent"));
        let mut per_turn_end = std::collections::BTreeMap::new();
        for _ in 0..3000 {
            if b.is_over() {
                break;
            }
            let legal = b.legal_actions();
            let a = legal[agents[b.actor()].choose(&b, &legal).min(legal.len() - 1)].clone();
            let events = b.apply(&a).expect("legal");
            rec.push(&b, &a, &events);
            per_turn_end.insert(b.game_turn, stands_left(&b));
        }
        let chart = strength_by_turn(&rec, Path::new("maps/skirmish.ron")).expect("re-plays");
        assert_eq!(
            chart[0],
            Strength {
                game_turn: 0,
                stands: start
            }
        );
        assert_eq!(chart.last().unwrap().stands, stands_left(&b));
        // One point per game turn, each where that turn ended.
        let turns: Vec<u32> = chart[1..].iter().map(|p| p.game_turn).collect();
        assert_eq!(turns, per_turn_end.keys().copied().collect::<Vec<_>>());
        for p in &chart[1..] {
            assert_eq!(p.stands, per_turn_end[&p.game_turn], "turn {}", p.game_turn);
        }
    }

    #[test]
    fn a_point_per_turn_follows_losses() {
        let (mut b, _) = crate::load_battle(Path::new("maps/skirmish.ron"), 1).expect("skirmish");
        let mut chart = StrengthChart::default();
        chart.see(&b);
        let before = stands_left(&b);
        let u = b
            .alive_units()
            .find(|u| u.side == 1 && u.stands > 1)
            .expect("a unit")
            .id;
        b.arranging().units[u as usize].stands -= 1;
        chart.see(&b);
        assert_eq!(chart.points.len(), 1, "same turn: one point, updated");
        assert_eq!(chart.points[0].stands, [before[0], before[1] - 1]);
        b.arranging().game_turn += 1;
        chart.see(&b);
        assert_eq!(chart.points.len(), 2);
    }
}
