//! The `general`: the computer commanding by intent, as a player can (issue 65), the first
//! floor of a planning opponent. In its command phase each of its brigades (a commander and
//! the units he leads himself) gets an intent: into range of the nearest enemy it knows of,
//! when one is within [`ENGAGE_CM`] of the brigade, else to the nearest of its side's
//! objectives. Each intent is played out by [`IntentRun`] (the order, then each unit's best
//! legal move, the brigade keeping together), the same engine the window's "By intent" and
//! the terminal's `WHO: INTENT` use. The rest (the fire of units left with actions, loading
//! guns, windows, the other phases) is the greedy baseline's, but that it gives no orders
//! or moves of its own in the command phase.
//!
//! It knows only what its side may: the enemy units it knows of (`known_enemies`), the
//! table's places; the intent engine itself steers by known enemies alone.

use super::agent::Agent;
use super::greedy::GreedyAgent;
use super::perception::known_enemies;
use crate::battle::intent::{Intent, IntentRun, PlaceKind, RunStep};
use crate::battle::state::{Phase, SideId, UnitId};
use crate::battle::{Action, Battle};

/// A brigade with a known enemy this close (cm, from the brigade's middle) closes into range
/// of it; farther, it makes for an objective.
pub const ENGAGE_CM: f64 = 45.0;

#[derive(Default)]
pub struct General {
    greedy: GreedyAgent,
    /// The command phase the runs were planned for: (game turn, player turn, side).
    planned: Option<(u32, u32, SideId)>,
    /// Each brigade's intent in play, with its name.
    runs: Vec<(String, IntentRun)>,
    reason: Option<String>,
    /// The phase's plan in a line, said with its first action.
    plan_line: Option<String>,
}

impl General {
    pub fn new() -> Self {
        Self::default()
    }

    /// Each brigade's intent for this command phase.
    fn plan(&mut self, b: &Battle, side: SideId) {
        self.runs.clear();
        let enemies = known_enemies(b, side);
        let objectives: Vec<_> = b
            .places(side)
            .into_iter()
            .filter(|p| matches!(p.kind, PlaceKind::Objective(_)))
            .collect();
        let mut said = Vec::new();
        for c in b.commanders.iter().filter(|c| c.side == side && c.alive()) {
            let units: Vec<UnitId> = b.side_units(side).filter(|u| u.hq == c.id).map(|u| u.id).collect();
            if units.is_empty() {
                continue;
            }
            let middle = super::scheduler::plan::middle(b, &units);
            let nearest = enemies
                .iter()
                .map(|&e| (b.unit(e).pose.pos.dist(middle), e))
                .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            let intent = match nearest {
                Some((d, e)) if d <= ENGAGE_CM => Intent::IntoRange(e),
                _ => match objectives
                    .iter()
                    .min_by(|p, q| p.pos.dist(middle).total_cmp(&q.pos.dist(middle)))
                {
                    Some(p) => Intent::To(p.clone()),
                    None => match nearest {
                        Some((_, e)) => Intent::IntoRange(e),
                        None => continue,
                    },
                },
            };
            let who = crate::report::intent::formation_words(b, c);
            said.push(format!("{who} {}", intent.words(b)));
            if let Ok(run) = IntentRun::new(b, side, &units, intent) {
                self.runs.push((who, run));
            }
        }
        self.plan_line = (!said.is_empty()).then(|| format!("plans: {}", said.join("; ")));
    }

    /// The next action of the brigades' intents, if any is left.
    fn next_intent(&mut self, b: &Battle) -> Option<(Action, String)> {
        while let Some((who, run)) = self.runs.first_mut() {
            // A run ends by `Over`; each other step moves it on (bounded by its units).
            for _ in 0..64 {
                match run.next(b) {
                    RunStep::Order(a) => return Some((a, format!("{who}: {}: orders", run.intent.words(b)))),
                    RunStep::Act(a, m) => {
                        let line = crate::report::intent::intent_line(b, &run.intent, &m);
                        return Some((a, format!("{who} {}: {line}", run.intent.words(b))));
                    }
                    RunStep::Stays(_) | RunStep::Unordered(_) => continue,
                    RunStep::Wait | RunStep::Over(_) => break,
                }
            }
            self.runs.remove(0);
        }
        None
    }
}

impl Agent for General {
    fn choose(&mut self, battle: &Battle, legal: &[Action]) -> usize {
        self.greedy.choose(battle, legal)
    }

    fn choose_action(&mut self, b: &Battle, legal: &[Action]) -> Action {
        let side = b.actor();
        let own_phase = b.phase == Phase::Command && b.active == side && !b.is_over();
        // A decision window (counter-initiative, opportunity fire, support, consolidation) is
        // the greedy's.
        let window = b.step != crate::battle::state::Step::Open;
        if own_phase && !window {
            let key = (b.game_turn, b.player_turn, side);
            if self.planned != Some(key) {
                self.planned = Some(key);
                self.plan(b, side);
            }
            if let Some((a, why)) = self.next_intent(b) {
                self.reason = Some(match self.plan_line.take() {
                    Some(plan) => format!("{plan}. {why}"),
                    None => why,
                });
                return a;
            }
            // The intents played out: the greedy's fire, loading and unlimbering, but no
            // orders or moves of its own.
            let i = self.greedy.choose(b, legal);
            let a = &legal[i.min(legal.len() - 1)];
            if matches!(
                a,
                Action::Order { .. } | Action::Move { .. } | Action::CommanderMove { .. } | Action::SelfOrder { .. }
            ) {
                self.reason = Some("the brigades' intents are played out: ends the phase".into());
                if let Some(end) = legal.iter().find(|a| matches!(a, Action::EndPhase)) {
                    return end.clone();
                }
            }
            self.reason = self.greedy.reason();
            return a.clone();
        }
        let i = self.greedy.choose(b, legal);
        self.reason = self.greedy.reason();
        legal[i.min(legal.len() - 1)].clone()
    }

    fn name(&self) -> &'static str {
        "general"
    }

    fn reason(&self) -> Option<String> {
        self.reason.clone()
    }
}
