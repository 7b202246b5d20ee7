//! Whole games, headless: the agents choose, `Battle::step` applies (the door the window's ECS
//! app applies its requests through; a game played there hashes equal to one played here).

use crate::agents::Agent;
use crate::battle::state::ResultKind;
use crate::battle::{Action, Battle};
use serde::Serialize;
use std::collections::BTreeMap;

/// What `volley simulate --json` prints.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SimResult {
    pub scenario: String,
    pub seed: u64,
    /// A side's name or `draw`.
    pub winner: String,
    /// `decisive`, `minor` or `draw`.
    pub result: String,
    pub game_turns: u32,
    pub units_lost: BTreeMap<String, u32>,
    pub victory_points: BTreeMap<String, u32>,
    /// The best objective each side held at the end: `major`, `minor` or `none` (BPT
    /// "Reaching an Objective"; a broken side's counts for nothing in the result).
    pub objectives: BTreeMap<String, String>,
    pub actions: u64,
    pub state_hash: String,
    pub reason: String,
    /// The optional rules on (`none`, or `weather, order-delay`).
    pub rules: String,
}

/// Why a simulation stopped without a result.
#[derive(Debug)]
pub enum SimError {
    Refused(Action, String),
    TooLong(u64),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Refused(a, r) => write!(f, "an agent's action was refused: {a:?}: {r}"),
            SimError::TooLong(n) => write!(f, "no result after {n} actions"),
        }
    }
}

/// Play to the end. `observe` sees each applied action (recording, invariant checks).
pub fn play(
    battle: Battle,
    agents: &mut [Box<dyn Agent>; 2],
    max_actions: u64,
    mut observe: impl FnMut(&Battle, &Action, &[crate::battle::Event]),
) -> Result<Battle, SimError> {
    play_with_reasons(battle, agents, max_actions, |b, a, ev, _| observe(b, a, ev))
}

/// [`play`], with each choice's one-line reason from its agent (for the battle log).
pub fn play_with_reasons(
    battle: Battle,
    agents: &mut [Box<dyn Agent>; 2],
    max_actions: u64,
    observe: impl FnMut(&Battle, &Action, &[crate::battle::Event], Option<&str>),
) -> Result<Battle, SimError> {
    play_timed(battle, agents, max_actions, observe).map(|(b, _)| b)
}

/// One choice's thinking time (wall clock), the game turn it was made in and the agent's reason
/// for it (what it looked at), if it gave one.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub took: std::time::Duration,
    pub turn: u32,
    pub why: Option<String>,
    /// How many actions this game had played before it (its action's index, from 0).
    pub nth: u64,
    /// The plan it made or changed with this choice, whole (a computer that plans).
    pub plan: Option<String>,
    /// That plan as the other side may read it ([`crate::replay::PlanNote`]).
    pub plan_to_other: Option<String>,
}

/// [`play_with_reasons`], also timing every choice of each side (`volley simulate --timing`).
pub fn play_timed(
    battle: Battle,
    agents: &mut [Box<dyn Agent>; 2],
    max_actions: u64,
    mut observe: impl FnMut(&Battle, &Action, &[crate::battle::Event], Option<&str>),
) -> Result<(Battle, [Vec<Decision>; 2]), SimError> {
    let mut b = battle;
    let first = b.actions;
    let mut times: [Vec<Decision>; 2] = [Vec::new(), Vec::new()];
    loop {
        if b.is_over() {
            break;
        }
        if b.actions >= max_actions {
            return Err(SimError::TooLong(b.actions));
        }
        let legal = b.legal_actions();
        let side = b.actor();
        let started = std::time::Instant::now();
        let action = agents[side].choose_action(&b, &legal);
        let (took, turn) = (started.elapsed(), b.game_turn);
        // A plan made or changed comes before the choice's own reason (headless: all of it).
        let plan = agents[side].plan_news(&b, None);
        let plan_to_other = plan.as_ref().and_then(|_| agents[side].plan_told(&b, Some(1 - side)));
        let reason = crate::report::with_plan(plan.clone(), agents[side].reason());
        let nth = b.actions - first;
        // The one door the window's app uses too (`app` sends its requests through it).
        let applied = b
            .step(&action)
            .map_err(|r| SimError::Refused(action.clone(), r.to_string()))?;
        observe(&b, &action, &applied.events, reason.as_deref());
        // The reason moves into the record (no copy a choice: `match` and `balance` play here too).
        times[side].push(Decision {
            took,
            turn,
            why: reason,
            nth,
            plan,
            plan_to_other,
        });
    }
    Ok((b, times))
}

/// A side's thinking time over a game: how many choices, the median, the 95th percentile and
/// the slowest (with its game turn and the agent's reason for it), in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Thinking {
    pub decisions: usize,
    pub median_ms: f64,
    pub p95_ms: f64,
    pub slowest_ms: f64,
    pub slowest_turn: u32,
    pub slowest_why: Option<String>,
}

impl Thinking {
    /// The figures of `times` (nearest-rank percentiles).
    pub fn of(times: &[Decision]) -> Thinking {
        if times.is_empty() {
            return Thinking::default();
        }
        let mut ms: Vec<f64> = times.iter().map(|d| d.took.as_secs_f64() * 1000.0).collect();
        ms.sort_by(f64::total_cmp);
        let rank = |q: f64| ms[((q * ms.len() as f64).ceil() as usize).clamp(1, ms.len()) - 1];
        let slowest = times.iter().max_by_key(|d| d.took).expect("not empty");
        Thinking {
            decisions: times.len(),
            median_ms: rank(0.5),
            p95_ms: rank(0.95),
            slowest_ms: slowest.took.as_secs_f64() * 1000.0,
            slowest_turn: slowest.turn,
            slowest_why: slowest.why.clone(),
        }
    }
}

/// Summarise a finished battle.
pub fn summary(b: &Battle, scenario: &str, seed: u64) -> SimResult {
    let o = b
        .outcome
        .clone()
        .unwrap_or_else(|| b.compute_outcome(crate::battle::event::EndReason::Unfinished));
    let name = |s: usize| b.sides[s].name.clone();
    SimResult {
        scenario: scenario.to_string(),
        seed,
        winner: o.winner.map(name).unwrap_or_else(|| "draw".into()),
        result: match o.result {
            ResultKind::Decisive => "decisive",
            ResultKind::Minor => "minor",
            ResultKind::Draw => "draw",
        }
        .into(),
        game_turns: b.game_turn,
        units_lost: (0..2).map(|s| (name(s), o.units_lost[s])).collect(),
        victory_points: (0..2).map(|s| (name(s), o.victory_points[s])).collect(),
        objectives: (0..2)
            .map(|s| {
                let held = match o.objectives[s] {
                    Some(crate::data::scenario::ObjectiveLevel::Major) => "major",
                    Some(crate::data::scenario::ObjectiveLevel::Minor) => "minor",
                    None => "none",
                };
                (name(s), held.to_string())
            })
            .collect(),
        actions: b.actions,
        state_hash: format!("{:016x}", b.state_hash()),
        reason: crate::report::end_reason_words(o.reason).to_string(),
        rules: b.rules.switches.describe(),
    }
}

/// What `volley match` prints: agent `a` against agent `b` over `games` seeds from
/// `first_seed` on, `a` taking the first side on even seeds and the second on odd ones.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MatchResult {
    pub scenario: String,
    pub agent: String,
    pub against: String,
    pub first_seed: u64,
    pub games: u64,
    pub won: u64,
    pub drawn: u64,
    pub lost: u64,
    /// Won / games.
    pub win_rate: f64,
    /// 95% Wilson score interval of the win rate.
    pub ci95: [f64; 2],
}

/// Play the match, the games shared over the machine's cores (each game is its own seed, so
/// the result does not depend on how many there are).
pub fn play_match(
    scenario: &std::path::Path,
    a: &str,
    b: &str,
    games: u64,
    first_seed: u64,
    rules: &crate::rules::switches::Switches,
    tick: &(dyn Fn() + Sync),
) -> Result<MatchResult, String> {
    // The scenario and the agents' names are checked once, before any thread starts.
    crate::load_battle_with(scenario, 1, rules).map_err(|e| e.to_string())?;
    for name in [a, b] {
        crate::agents::by_name(name, 1, 0)?;
    }
    let one = |seed: u64| -> Result<i8, String> {
        let (battle, _) = crate::load_battle_with(scenario, seed, rules).map_err(|e| e.to_string())?;
        let a_side = usize::from(!seed.is_multiple_of(2));
        let names = if a_side == 0 { [a, b] } else { [b, a] };
        let mut players = [
            crate::agents::by_name(names[0], seed, 0)?,
            crate::agents::by_name(names[1], seed, 1)?,
        ];
        let done = play(battle, &mut players, 200_000, |_, _, _| {}).map_err(|e| format!("seed {seed}: {e}"))?;
        let o = done
            .outcome
            .clone()
            .unwrap_or_else(|| done.compute_outcome(crate::battle::event::EndReason::Unfinished));
        Ok(match o.winner {
            Some(w) if w == a_side => 1,
            None => 0,
            Some(_) => -1,
        })
    };
    let results = in_parallel(games, tick, |g| one(first_seed - 1 + g));
    let mut r = MatchResult {
        scenario: scenario.display().to_string(),
        agent: a.to_string(),
        against: b.to_string(),
        first_seed,
        games,
        won: 0,
        drawn: 0,
        lost: 0,
        win_rate: 0.0,
        ci95: [0.0, 1.0],
    };
    for x in results {
        match x? {
            1 => r.won += 1,
            0 => r.drawn += 1,
            _ => r.lost += 1,
        }
    }
    r.win_rate = if games > 0 { r.won as f64 / games as f64 } else { 0.0 };
    r.ci95 = wilson95(r.won, games);
    Ok(r)
}

/// Run `one(seed)` for seeds 1..=games on every core; the results in seed order (each game is
/// its own seed, so they do not depend on how many cores there are). `tick` is called after
/// each game (a progress bar).
pub fn in_parallel<T: Send>(games: u64, tick: &(dyn Fn() + Sync), one: impl Fn(u64) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get()) as u64;
    let mut out: Vec<(u64, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let one = &one;
                s.spawn(move || {
                    (1..=games)
                        .filter(|g| g % threads == t)
                        .map(|g| {
                            let r = (g, one(g));
                            tick();
                            r
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a game thread panicked"))
            .collect()
    });
    out.sort_by_key(|(g, _)| *g);
    out.into_iter().map(|(_, r)| r).collect()
}

/// One side's figures in a balance run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SideBalance {
    pub side: String,
    pub agent: String,
    pub wins: u64,
    pub win_rate: f64,
    /// 95% Wilson score interval of the win rate.
    pub ci95: [f64; 2],
    /// Units lost per game, on average.
    pub avg_units_lost: f64,
    /// Formations (brigades) with half their units or more lost, per game on average.
    pub avg_brigades_lost: f64,
    /// Charges declared and fire actions (of every kind) per game, on average.
    pub avg_charges: f64,
    pub avg_fires: f64,
}

/// One game of a balance run: did a battle happen?
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameFigures {
    pub seed: u64,
    /// The winning side's index, or None for a draw.
    pub winner: Option<usize>,
    pub game_turns: u32,
    /// Per side: units lost, charges declared, fire actions.
    pub units_lost: [u32; 2],
    /// Per side: formations with half their units or more lost ([`Battle::brigades_lost`]).
    pub brigades_lost: [u32; 2],
    pub charges: [u32; 2],
    pub fires: [u32; 2],
    /// The game turn of the first fire or charge, if any came.
    pub first_contact: Option<u32>,
}

impl GameFigures {
    /// Count `act` (taken in game turn `turn` on battle `b`) if it is a fire or a charge.
    fn count(&mut self, b: &Battle, act: &Action, turn: u32) {
        let (fire, charge) = match act {
            Action::Fire { .. }
            | Action::InitiativeFire { .. }
            | Action::OpportunityFire { .. }
            | Action::FireTogether { .. }
            | Action::CounterFire { .. } => (true, false),
            Action::Charge { .. } | Action::InitiativeCharge { .. } | Action::CounterCharge { .. } => (false, true),
            _ => return,
        };
        let Some(u) = act.unit() else { return };
        let side = b.unit(u).side;
        self.fires[side] += u32::from(fire);
        self.charges[side] += u32::from(charge);
        self.first_contact.get_or_insert(turn);
    }
}

/// What `volley balance` prints.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BalanceResult {
    pub scenario: String,
    pub games: u64,
    /// The optional rules on (`none`, or `weather, order-delay`).
    pub rules: String,
    pub sides: Vec<SideBalance>,
    pub draws: u64,
    pub avg_game_turns: f64,
    /// Games with no fire and no charge at all.
    pub quiet_games: u64,
    /// The first fire or charge, on average over the games that had one (game turn).
    pub avg_first_contact: Option<f64>,
    pub per_game: Vec<GameFigures>,
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson95(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054f64;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / d;
    [(c - h).max(0.0), (c + h).min(1.0)]
}

/// Play `games` seeded games (seeds `first_seed..`) of `scenario` with the given agents per side.
pub fn balance(
    scenario: &std::path::Path,
    agents: &[String; 2],
    games: u64,
    first_seed: u64,
    rules: &crate::rules::switches::Switches,
    tick: &(dyn Fn() + Sync),
) -> Result<BalanceResult, String> {
    let (first, _) = crate::load_battle_with(scenario, 1, rules).map_err(|e| e.to_string())?;
    for (s, a) in agents.iter().enumerate() {
        crate::agents::by_name(a, 1, s)?;
    }
    let one = |seed: u64| -> Result<GameFigures, String> {
        let (battle, _) = crate::load_battle_with(scenario, seed, rules).map_err(|e| e.to_string())?;
        let mut players = [
            crate::agents::by_name(&agents[0], seed, 0)?,
            crate::agents::by_name(&agents[1], seed, 1)?,
        ];
        let mut g = GameFigures {
            seed,
            winner: None,
            game_turns: 0,
            units_lost: [0; 2],
            brigades_lost: [0; 2],
            charges: [0; 2],
            fires: [0; 2],
            first_contact: None,
        };
        // The turn an action was taken in: the callback sees the battle after it.
        let mut turn = battle.game_turn;
        let done = play(battle, &mut players, 200_000, |b, act, _| {
            g.count(b, act, turn);
            turn = b.game_turn;
        })
        .map_err(|e| format!("seed {seed}: {e}"))?;
        let o = done
            .outcome
            .clone()
            .unwrap_or_else(|| done.compute_outcome(crate::battle::event::EndReason::Unfinished));
        g.winner = o.winner;
        g.game_turns = done.game_turn;
        g.units_lost = o.units_lost;
        g.brigades_lost = [done.brigades_lost(0), done.brigades_lost(1)];
        Ok(g)
    };
    let per_game = in_parallel(games, tick, |g| one(first_seed - 1 + g))
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    let n = games.max(1) as f64;
    let sum = |f: &dyn Fn(&GameFigures) -> u32| per_game.iter().map(|g| f64::from(f(g))).sum::<f64>() / n;
    let wins = |s: usize| per_game.iter().filter(|g| g.winner == Some(s)).count() as u64;
    let contacts: Vec<f64> = per_game.iter().filter_map(|g| g.first_contact.map(f64::from)).collect();
    Ok(BalanceResult {
        scenario: scenario.display().to_string(),
        games,
        rules: first.rules.switches.describe(),
        sides: (0..2)
            .map(|s| SideBalance {
                side: first.sides[s].name.clone(),
                agent: agents[s].clone(),
                wins: wins(s),
                win_rate: wins(s) as f64 / n,
                ci95: wilson95(wins(s), games),
                avg_units_lost: sum(&|g| g.units_lost[s]),
                avg_brigades_lost: sum(&|g| g.brigades_lost[s]),
                avg_charges: sum(&|g| g.charges[s]),
                avg_fires: sum(&|g| g.fires[s]),
            })
            .collect(),
        draws: per_game.iter().filter(|g| g.winner.is_none()).count() as u64,
        avg_game_turns: sum(&|g| g.game_turns),
        quiet_games: (per_game.len() - contacts.len()) as u64,
        avg_first_contact: (!contacts.is_empty()).then(|| contacts.iter().sum::<f64>() / contacts.len() as f64),
        per_game,
    })
}

#[cfg(test)]
mod tests {
    use super::{Decision, Thinking, wilson95};

    #[test]
    fn wilson_interval_matches_the_formula() {
        // 50 of 100: p = 0.5, z = 1.96: 0.5 ± 0.0962 (known value 0.4038–0.5962).
        let [lo, hi] = wilson95(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
        // 0 of 10: lower bound 0, upper 0.2775.
        let [lo, hi] = wilson95(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3, "{hi}");
    }

    #[test]
    fn thinking_time_reports_the_median_the_95th_percentile_and_the_slowest_with_its_turn() {
        // 20 choices of 1..=20 ms, the 20 ms one in turn 7: the median is the 10th (10 ms), the
        // 95th percentile the 19th (19 ms), the slowest 20 ms, with its own reason.
        let times: Vec<Decision> = (1..=20u64)
            .map(|i| Decision {
                took: std::time::Duration::from_millis(i),
                turn: if i == 20 { 7 } else { 1 },
                why: Some(format!("choice {i}")),
                nth: i - 1,
                plan: None,
                plan_to_other: None,
            })
            .rev()
            .collect();
        let t = Thinking::of(&times);
        assert_eq!(t.decisions, 20);
        assert!((t.median_ms - 10.0).abs() < 1e-9, "{t:?}");
        assert!((t.p95_ms - 19.0).abs() < 1e-9, "{t:?}");
        assert!((t.slowest_ms - 20.0).abs() < 1e-9, "{t:?}");
        assert_eq!(t.slowest_turn, 7);
        assert_eq!(t.slowest_why.as_deref(), Some("choice 20"));
        assert_eq!(Thinking::of(&[]), Thinking::default());
    }
}
