//! Every bundled scenario in `maps/`: passes the checker, has what the author's guide asks
//! for (title, brief, objectives, turn limit), and plays to the end under every agent.

use super::common::maps;
use std::path::Path;
use volley::agents;
use volley::data::check::check_file;
use volley::data::validate::load_scenario;
use volley::sim;

#[test]
fn the_library_has_the_five_bundled_scenarios() {
    let names: Vec<String> = maps()
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    for want in ["first_battle", "gettysburg", "peninsula", "river_crossing", "skirmish"] {
        assert!(names.iter().any(|n| n == want), "maps/{want}.ron missing: {names:?}");
    }
}

#[test]
fn every_scenario_passes_the_checker_and_has_a_brief_objectives_and_a_turn_limit() {
    for p in maps() {
        let r = check_file(&p).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.kind, "scenario", "{}", p.display());
        let rules = volley::load_rules(None).expect("rules load");
        let fp = volley::footprints(&rules);
        let armies = volley::assets_dir().join("armies");
        let loaded = load_scenario(&p, &armies, &fp).unwrap_or_else(|e| panic!("{e}"));
        let s = &loaded.scenario;
        assert!(!s.title.is_empty() && s.brief.len() > 100, "{}", p.display());
        assert!(s.turn_limit >= 1 && !s.objectives.is_empty(), "{}", p.display());
        for side in &s.sides {
            assert!(
                s.objectives.iter().any(|o| o.side == side.name),
                "{}: no objective for {}",
                p.display(),
                side.name
            );
        }
    }
}

#[test]
fn the_large_scenario_has_about_150_stands_a_side() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/gettysburg.ron");
    let r = check_file(&p).unwrap_or_else(|e| panic!("{e}"));
    for side in ["Union", "Confederate"] {
        let n = r.stands[side];
        assert!((140..=160).contains(&n), "{side}: {n} stands");
    }
}

#[test]
fn every_scenario_plays_to_the_end_with_every_agent() {
    for p in maps() {
        for agent in ["random", "greedy", "scheduler"] {
            let (b, _) = volley::load_battle(&p, 1).unwrap_or_else(|e| panic!("{e}"));
            let mut a = [
                agents::by_name(agent, 1, 0).unwrap(),
                agents::by_name(agent, 1, 1).unwrap(),
            ];
            let done = sim::play(b, &mut a, 200_000, |_, _, _| {})
                .unwrap_or_else(|e| panic!("{} with {agent}: {e}", p.display()));
            assert!(done.is_over() && done.outcome.is_some(), "{} with {agent}", p.display());
        }
    }
}
