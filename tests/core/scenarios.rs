//! Every bundled scenario in `maps/`: passes the checker, has what the author's guide asks
//! for (title, brief, objectives, turn limit), and plays to the end under every agent.

use super::common::{SCHEDULER, maps};
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
        for agent in ["random", "greedy", SCHEDULER] {
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

/// Which bundled scenarios start with a commander touching one of its units (and so lost with
/// it if the unit is knocked out, docs/rules.md "Command presence")? *First Battle* did: its
/// colonels stood touching their gun sections, and a gun knocked out in turn 1 took the colonel.
#[test]
fn no_commander_starts_touching_a_unit_it_would_be_lost_with() {
    let mut touching = Vec::new();
    for p in maps() {
        let (b, _) = volley::load_battle(&p, 1).unwrap_or_else(|e| panic!("{e}"));
        for c in &b.commanders {
            if b.commander_would_touch(c.id, c.pos) {
                touching.push(format!("{}: {}", p.file_stem().unwrap().to_string_lossy(), c.name));
            }
        }
    }
    assert!(touching.is_empty(), "{touching:#?}");
}

/// A revised scenario's earlier version is kept in `maps/history/` under the content hash that
/// recordings made on it carry, so they still replay (`replay::verify::archived_scenario`).
/// If this fails after an army list was edited, the archive no longer matches any recording:
/// its name must follow the new hash, or the file go.
#[test]
fn every_archived_scenario_loads_and_is_named_by_its_content_hash() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/history");
    let rules = volley::load_rules(None).expect("rules load");
    let fp = volley::footprints(&rules);
    let armies = volley::assets_dir().join("armies");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("maps/history/") {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "ron") {
            continue;
        }
        let loaded = load_scenario(&p, &armies, &fp).unwrap_or_else(|e| panic!("{e}"));
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let (stem, hash) = name.rsplit_once('-').expect("<stem>-<hash>.ron");
        assert_eq!(hash, format!("{:016x}", loaded.content_hash), "{}", p.display());
        let current = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("maps")
            .join(format!("{stem}.ron"));
        assert!(current.is_file(), "{}: no maps/{stem}.ron", p.display());
        assert_eq!(
            volley::replay::verify::archived_scenario(&current, loaded.content_hash),
            Some(dir.join(format!("{name}.ron")))
        );
        n += 1;
    }
    assert!(n >= 2, "{n} archived scenarios");
}
