//! The command line, as a player runs it.

use super::common::{SCHEDULER, Scratch};
use std::process::Command;

/// Run the `volley` binary from the project folder.
pub(super) fn volley(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs")
}

#[test]
fn simulate_json_has_every_field_and_is_repeatable() {
    let out = volley(&["simulate", "maps/skirmish.ron", "--seed", "4", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    for k in [
        "scenario",
        "seed",
        "winner",
        "result",
        "game_turns",
        "units_lost",
        "victory_points",
        "objectives",
        "actions",
        "state_hash",
    ] {
        assert!(v.get(k).is_some(), "missing {k}: {v}");
    }
    assert!(["decisive", "minor", "draw"].contains(&v["result"].as_str().unwrap()));
    let held = v["objectives"].as_object().expect("objectives by side");
    assert_eq!(held.keys().collect::<Vec<_>>(), ["Confederate", "Union"]);
    assert!(
        held.values()
            .all(|h| ["major", "minor", "none"].contains(&h.as_str().unwrap())),
        "{v}"
    );
    let again = volley(&["simulate", "maps/skirmish.ron", "--seed", "4", "--json"]);
    assert_eq!(out.stdout, again.stdout);
}

#[test]
fn check_reports_the_scenario_and_refuses_a_bad_file_with_its_place() {
    let out = volley(&["check", "maps/skirmish.ron", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["kind"], "scenario");
    assert!(v["total_stands"].as_u64().unwrap() > 0);
    let dir = Scratch::new("cli");
    let bad = dir.join("bad.ron");
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/maps/skirmish.ron")).unwrap();
    std::fs::write(
        &bad,
        text.replacen("regular_infantry_rifled", "regular_infantry_laser", 1),
    )
    .unwrap();
    let out = volley(&["check", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.ron:") && err.contains("regular_infantry_laser"),
        "{err}"
    );
    let line_col: Vec<&str> = err.split(':').skip(1).take(2).collect();
    assert!(line_col.iter().all(|p| p.trim().parse::<u32>().is_ok()), "{err}");
}

#[test]
fn odds_prints_the_exact_distribution() {
    let out = volley(&["odds", "--dice", "6", "--to-hit", "4", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((v["mean"].as_f64().unwrap() - 3.0).abs() < 1e-12);
    assert!((v["distribution"][0].as_f64().unwrap() - 1.0 / 64.0).abs() < 1e-12);
}

#[test]
fn odds_shows_a_canister_blast_and_a_round_shot() {
    // 3 dice at 4+, then a unit behind at 4+ (5+ once the first is damaged): 1.5, then
    // 7/8 × 3 × 1/3 = 0.875 (DECISIONS "canister with blast-through").
    let out = volley(&[
        "odds", "--ammo", "canister", "--dice", "3", "--to-hit", "4", "--behind", "4", "--json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((v["expected_hits"][0].as_f64().unwrap() - 1.5).abs() < 1e-12);
    assert!((v["expected_hits"][1].as_f64().unwrap() - 0.875).abs() < 1e-12);
    // Round shot: regular crew (4+) lands half its balls on the aim point.
    let out = volley(&["odds", "--ammo", "shot", "--dice", "3", "--to-hit", "4", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((v["expected_hits"].as_f64().unwrap() - 0.75).abs() < 1e-12);
    let bad = volley(&["odds", "--ammo", "grape", "--dice", "3", "--to-hit", "4"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("shot or canister"));
}

#[test]
fn odds_first_fire_and_bounces_follow_the_dice() {
    // Issue 21, Hardtack 6. A ball striking with 1 die has none left to bounce with (each
    // bounce strikes with one die fewer; none ends the shot): no bounce at all. With 2 dice the
    // first bounce is the book's 4+ (1/2) and a second is impossible.
    let json = |args: &[&str]| -> serde_json::Value {
        let out = volley(args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let v = json(&["odds", "--ammo", "shot", "--dice", "1", "--to-hit", "4", "--json"]);
    assert_eq!(v["p_bounces"], serde_json::json!([0.0, 0.0, 0.0, 0.0]));
    let v = json(&["odds", "--ammo", "shot", "--dice", "2", "--to-hit", "4", "--json"]);
    assert_eq!(v["p_bounces"], serde_json::json!([0.5, 0.0, 0.0, 0.0]));
    // The first-fire +1 through a canister chain: 3 dice at 4+ hit on 3+ (2 expected); the
    // unit behind, 5+ for one damaged in front, is rolled at 4+: reached with 1 − (1/3)³.
    let v = json(&[
        "odds",
        "--ammo",
        "canister",
        "--dice",
        "3",
        "--to-hit",
        "4",
        "--behind",
        "4",
        "--first-fire",
        "--json",
    ]);
    assert!((v["expected_hits"][0].as_f64().unwrap() - 2.0).abs() < 1e-12);
    assert!((v["expected_hits"][1].as_f64().unwrap() - 26.0 / 27.0 * 1.5).abs() < 1e-12);
    // Not for plain fire, where the score is given as it is needed.
    let bad = volley(&["odds", "--dice", "3", "--to-hit", "4", "--first-fire"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--first-fire"));
}

#[test]
fn balance_reports_each_sides_win_rate_with_its_interval() {
    let out = volley(&[
        "balance",
        concat!(env!("CARGO_MANIFEST_DIR"), "/maps/skirmish.ron"),
        "--games",
        "4",
        "--side",
        &format!("Union={SCHEDULER}"),
        "--side",
        "Confederate=random",
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 4);
    let sides = v["sides"].as_array().unwrap();
    assert_eq!(sides[0]["side"], "Union");
    assert_eq!(sides[0]["agent"], SCHEDULER);
    let wins: u64 = sides.iter().map(|s| s["wins"].as_u64().unwrap()).sum::<u64>() + v["draws"].as_u64().unwrap();
    assert_eq!(wins, 4);
    let ci = sides[0]["ci95"].as_array().unwrap();
    let rate = sides[0]["win_rate"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() <= rate && rate <= ci[1].as_f64().unwrap());
    let bad = volley(&[
        "balance",
        concat!(env!("CARGO_MANIFEST_DIR"), "/maps/skirmish.ron"),
        "--side",
        "Union=clever",
    ]);
    assert!(!bad.status.success());
}

#[test]
fn a_rules_file_with_a_short_blunder_table_is_refused_with_its_place() {
    let dir = Scratch::new("rules");
    let rules = dir.join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/rules/bpt.ron")).unwrap();
    let bad = rules.join("short.ron");
    std::fs::write(&bad, text.replace("OpenFire, LetsGetEm]", "OpenFire]")).unwrap();
    let out = volley(&["check", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("short.ron:") && err.contains("6 entries"), "{err}");
    let good = volley(&[
        "check",
        "assets/rules/bpt.ron",
        "assets/armies/acw_union.ron",
        "assets/armies/acw_confederate.ron",
    ]);
    assert!(good.status.success(), "{}", String::from_utf8_lossy(&good.stderr));
}

#[test]
fn rule_switches_reach_simulate_and_balance_and_a_wrong_name_is_refused_with_the_list() {
    let plain = volley(&["simulate", "maps/skirmish.ron", "--seed", "4", "--json"]);
    let on = volley(&[
        "simulate",
        "maps/skirmish.ron",
        "--seed",
        "4",
        "--json",
        "--rule",
        "weather",
    ]);
    assert!(on.status.success(), "{}", String::from_utf8_lossy(&on.stderr));
    let (p, w): (serde_json::Value, serde_json::Value) = (
        serde_json::from_slice(&plain.stdout).unwrap(),
        serde_json::from_slice(&on.stdout).unwrap(),
    );
    assert_eq!(p["rules"], "none");
    assert_eq!(w["rules"], "weather");
    assert_ne!(p["state_hash"], w["state_hash"], "the weather rolls change the game");
    let bal = volley(&[
        "balance",
        "maps/skirmish.ron",
        "--games",
        "2",
        "--json",
        "--rule",
        "weather,engineers",
        "--side",
        &format!("Union={SCHEDULER}"),
        "--side",
        &format!("Confederate={SCHEDULER}"),
    ]);
    assert!(bal.status.success(), "{}", String::from_utf8_lossy(&bal.stderr));
    let b: serde_json::Value = serde_json::from_slice(&bal.stdout).unwrap();
    assert_eq!(b["rules"], "weather, engineers");
    let bad = volley(&["simulate", "maps/skirmish.ron", "--rule", "sabre"]);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("saber-charge") && err.contains("order-delay"), "{err}");
}

#[test]
fn balance_reports_each_games_losses_charges_fires_and_first_contact_on_the_seeds_asked() {
    use volley::battle::Action;
    let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
    let agents = ["greedy".to_string(), "greedy".to_string()];
    let r = volley::sim::balance(&map, &agents, 3, 7, &Default::default(), &|| {}).unwrap();
    let seeds: Vec<u64> = r.per_game.iter().map(|g| g.seed).collect();
    assert_eq!(seeds, [7, 8, 9]);
    for g in &r.per_game {
        // The same game played here, counted on its own.
        let (b, _) = volley::load_battle(&map, g.seed).unwrap();
        let mut players = [
            volley::agents::by_name("greedy", g.seed, 0).unwrap(),
            volley::agents::by_name("greedy", g.seed, 1).unwrap(),
        ];
        let (mut fires, mut charges, mut first) = ([0u32; 2], [0u32; 2], None);
        let mut turn = b.game_turn;
        let done = volley::sim::play(b, &mut players, 200_000, |b, act, _| {
            let side = act.unit().map(|u| b.unit(u).side);
            match (act, side) {
                (
                    Action::Fire { .. }
                    | Action::InitiativeFire { .. }
                    | Action::OpportunityFire { .. }
                    | Action::CounterFire { .. },
                    Some(s),
                ) => {
                    fires[s] += 1;
                    first.get_or_insert(turn);
                }
                (Action::Charge { .. } | Action::InitiativeCharge { .. } | Action::CounterCharge { .. }, Some(s)) => {
                    charges[s] += 1;
                    first.get_or_insert(turn);
                }
                _ => {}
            }
            turn = b.game_turn;
        })
        .unwrap();
        let o = done.outcome.clone().unwrap();
        assert_eq!(
            (g.winner, g.units_lost, g.game_turns),
            (o.winner, o.units_lost, done.game_turn)
        );
        assert_eq!(
            (g.fires, g.charges, g.first_contact),
            (fires, charges, first),
            "seed {}",
            g.seed
        );
    }
    assert!(
        r.per_game.iter().any(|g| g.fires[0] + g.fires[1] > 0),
        "greedy skirmishes fire"
    );
    let n = r.per_game.len() as f64;
    let fires0 = r.per_game.iter().map(|g| f64::from(g.fires[0])).sum::<f64>() / n;
    assert!((r.sides[0].avg_fires - fires0).abs() < 1e-12);
    // On the command line: the seeds and the per-game lines.
    let out = volley(&[
        "balance",
        "maps/first_battle.ron",
        "--games",
        "2",
        "--first-seed",
        "11",
        "--side",
        "Union=greedy",
        "--side",
        "Confederate=greedy",
        "--per-game",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("seeds 11–12") && text.contains("first contact") && text.contains("charges"),
        "{text}"
    );
    let m = volley(&[
        "match",
        "maps/first_battle.ron",
        "--agent",
        "greedy",
        "--against",
        "random",
        "--games",
        "2",
        "--first-seed",
        "501",
        "--json",
    ]);
    assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
    let v: serde_json::Value = serde_json::from_slice(&m.stdout).unwrap();
    assert_eq!((v["first_seed"].as_u64(), v["games"].as_u64()), (Some(501), Some(2)));
    assert!(
        volley(&["match", "--agent", "greedy", "--against", "random", "--first-seed", "0"])
            .status
            .code()
            != Some(0)
    );
}

#[test]
fn simulate_timing_reports_every_choice_of_each_side_and_changes_nothing() {
    let args = [
        "simulate",
        "maps/first_battle.ron",
        "--seed",
        "3",
        "--side",
        "Union=scheduler",
        "--side",
        "Confederate=greedy",
    ];
    let plain = volley(&args);
    let timed = volley(&[&args[..], &["--timing"]].concat());
    assert!(timed.status.success(), "{}", String::from_utf8_lossy(&timed.stderr));
    let (plain, timed) = (
        String::from_utf8_lossy(&plain.stdout).to_string(),
        String::from_utf8_lossy(&timed.stdout).to_string(),
    );
    // The same game: everything before the timing lines is what it printed without them.
    assert!(timed.starts_with(&plain), "{plain}\n---\n{timed}");
    let actions: usize = plain
        .split(" actions")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the action count");
    let lines: Vec<&str> = timed[plain.len()..].lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("thinking, Union (scheduler): "), "{}", lines[0]);
    assert!(lines[1].starts_with("thinking, Confederate (greedy): "), "{}", lines[1]);
    let field = |l: &str, after: &str, before: &str| -> f64 {
        let rest = &l[l.find(after).unwrap_or_else(|| panic!("{after} in {l}")) + after.len()..];
        rest[..rest.find(before).expect(before)]
            .trim()
            .parse()
            .expect("a number")
    };
    let choices: f64 = lines.iter().map(|l| field(l, "): ", " choices")).sum();
    assert_eq!(choices as usize, actions, "one timed choice an action");
    for l in &lines {
        let (median, p95, slowest) = (
            field(l, "median ", " ms"),
            field(l, "95th percentile ", " ms"),
            field(l, "slowest ", " ms"),
        );
        assert!(median <= p95 && p95 <= slowest, "{l}");
    }
    // The slowest choice carries the agent's reason: the look-ahead's says what it searched.
    let slowest = &lines[0][lines[0].find("slowest ").expect("slowest")..];
    assert!(slowest.contains(" ms (turn ") && slowest.contains(": "), "{slowest}");
    assert!(slowest.contains("looked ahead"), "{slowest}");
}

/// A look-ahead level with a budget after a colon plays (a tiny budget: two options, four
/// play-outs), and names the same game as the level it was given to when the budget is the
/// level's own; a bad budget is refused before any game, saying what is wrong.
#[test]
fn a_budget_after_the_agents_name_plays_and_a_bad_one_is_refused() {
    let game = |agent: &str| {
        let side = format!("Union={agent}");
        let out = volley(&[
            "simulate",
            "maps/first_battle.ron",
            "--seed",
            "3",
            "--side",
            &side,
            "--side",
            "Confederate=greedy",
            "--max-turns",
            "3",
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{agent}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        v["state_hash"].as_str().expect("a state hash").to_string()
    };
    let level = game("scheduler");
    assert_eq!(
        game("scheduler:sims=96,width=12,turns=4"),
        level,
        "the level's own budget"
    );
    assert_ne!(game("scheduler:sims=4,width=2"), level, "another budget, another game");
    let out = volley(&[
        "match",
        "maps/first_battle.ron",
        "--agent",
        "scheduler:depth=2",
        "--against",
        "greedy",
        "--games",
        "2",
    ]);
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("agent 'scheduler:depth=2': unknown budget key 'depth'"),
        "{e}"
    );
}
