//! Recordings and saves: round trip, tampering, bad files, a fuzz of the loader, a crash
//! between write and rename.

use super::common::*;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use volley::agents;
use volley::battle::Action;
use volley::replay::verify::{Mismatch, verify, verify_file};
use volley::replay::{Recording, save_atomically};
use volley::sim;

fn tmp(name: &str) -> Scratch {
    Scratch::new(&format!("replay-{name}"))
}

fn scenario_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron")
}

/// Record an eager game of the skirmish.
fn record(seed: u64) -> (Recording, u64) {
    let b = skirmish(seed);
    let mut rec = Recording::start(&b, &scenario_path().display().to_string(), seed, Some(4));
    let mut b = b;
    b.cap_turns(Some(4));
    let mut a = [
        agents::by_name("eager", seed, 0).unwrap(),
        agents::by_name("eager", seed, 1).unwrap(),
    ];
    let done = sim::play(b, &mut a, 100_000, |b, act, ev| rec.push(b, act, ev)).unwrap();
    (rec, done.state_hash())
}

#[test]
fn a_recorded_game_verifies_with_the_simulations_hash_and_reloads_to_the_same_state() {
    let (rec, hash) = record(21);
    assert!(!rec.checkpoints.is_empty());
    let dir = tmp("roundtrip");
    let file = dir.join("game.ron");
    rec.save(&file).unwrap();
    assert_eq!(verify_file(&file), Ok(hash));
    let back = Recording::load(&file).unwrap();
    assert_eq!(back, rec);
    let (b, h) = verify(&back, &file).unwrap();
    assert_eq!(h, hash);
    assert!(b.is_over());
}

#[test]
fn an_edited_action_is_found_at_the_first_action_or_phase_where_states_diverge() {
    let (mut rec, _) = record(22);
    // Replace the first order by the same order to another commander's units, or end the phase.
    let i = rec
        .actions
        .iter()
        .position(|a| matches!(a, Action::Order { .. }))
        .expect("an order");
    rec.actions[i] = Action::EndPhase;
    match verify(&rec, Path::new("x.ron")).map(|(_, h)| h) {
        // A phase that now ends where none did (or no longer ends where one did) is found
        // by the checkpoints' places as well as their hashes.
        Err(Mismatch::Refused { index, .. })
        | Err(Mismatch::Diverged { index, .. })
        | Err(Mismatch::CheckpointMissing { index, .. })
        | Err(Mismatch::CheckpointStray { index, .. }) => {
            assert!(index as usize >= i, "found at {index}, edit at {i}")
        }
        other => panic!("expected a divergence, got {other:?}"),
    }
}

#[test]
fn an_edited_seed_is_found() {
    let (mut rec, _) = record(23);
    rec.seed += 1;
    let e = verify(&rec, Path::new("x.ron")).map(|(_, h)| h).unwrap_err();
    assert!(
        matches!(e, Mismatch::Diverged { .. } | Mismatch::Refused { .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("action #"), "{e}");
}

#[test]
fn a_changed_terrain_feature_in_the_scenario_is_found() {
    let (mut rec, _) = record(24);
    let dir = tmp("terrain");
    let text = std::fs::read_to_string(scenario_path()).unwrap();
    // Move one terrain point by a centimetre.
    let at = text
        .find("V2(x:")
        .or_else(|| text.find("(x:"))
        .expect("a point in the scenario");
    let end = at + text[at..].find(',').unwrap();
    let edited = format!("{}{}.25{}", &text[..end], "", &text[end..]);
    assert_ne!(edited, text);
    let changed = dir.join("skirmish.ron");
    std::fs::write(&changed, edited).unwrap();
    rec.scenario = changed.display().to_string();
    let e = verify(&rec, Path::new("x.ron")).map(|(_, h)| h).unwrap_err();
    assert!(matches!(e, Mismatch::ScenarioChanged { .. }), "{e:?}");
}

#[test]
fn bad_recording_files_are_refused_with_their_place() {
    let (rec, _) = record(25);
    let dir = tmp("bad");
    let good = rec.to_ron();
    let cases = [
        ("truncated.ron", good[..good.len() / 2].to_string()),
        ("junk.ron", "this is not RON at all".to_string()),
        (
            "version.ron",
            good.replacen(
                &format!("version: {}", volley::replay::FORMAT_VERSION),
                "version: 99",
                1,
            ),
        ),
        (
            "missing.ron",
            // Neither where it was named nor by the full path it was recorded from.
            good.replacen(&rec.scenario, "maps/no-such-map.ron", 1).replacen(
                rec.scenario_full_path.as_deref().unwrap_or("-"),
                "/no-such-dir/no-such-map.ron",
                1,
            ),
        ),
    ];
    for (name, text) in cases {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let e = verify_file(&f).unwrap_err().to_string();
        assert!(e.contains(':'), "{name}: {e}");
        if name != "missing.ron" {
            assert!(e.contains(name), "{name}: the error names the file: {e}");
            let parts: Vec<&str> = e.splitn(4, ':').collect();
            assert!(
                parts[1].parse::<u32>().is_ok() && parts[2].parse::<u32>().is_ok(),
                "{name}: line:col in {e}"
            );
        } else {
            assert!(e.contains("no-such-map"), "{e}");
        }
    }
}

#[test]
fn a_crash_between_write_and_rename_leaves_the_previous_save_intact() {
    let (rec, _) = record(26);
    let dir = tmp("crash");
    let file = dir.join("save.ron");
    rec.save(&file).unwrap();
    // The crash: a half-written temporary beside the save, never renamed.
    let text = rec.to_ron();
    std::fs::write(dir.join(".save.ron.999.tmp"), &text[..text.len() / 3]).unwrap();
    assert_eq!(Recording::load(&file).unwrap(), rec);
    // A failing save (its target is a directory) leaves the previous file as it was.
    let blocked = dir.join("blocked");
    std::fs::create_dir_all(blocked.join("inner")).unwrap();
    assert!(save_atomically(&blocked, b"x").is_err());
    assert!(blocked.join("inner").is_dir());
    assert_eq!(Recording::load(&file).unwrap(), rec);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(5), ..ProptestConfig::default() })]

    /// The loader never panics: truncations and byte changes of a real recording, and junk.
    #[test]
    fn the_recording_loader_never_panics(cut in 0usize..4000, flip in 0usize..4000, byte in any::<u8>(), junk in ".{0,200}") {
        static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let good = TEXT.get_or_init(|| record(1).0.to_ron());
        let mut text = good.clone().into_bytes();
        let n = text.len();
        text[flip % n] = byte;
        text.truncate(cut % (n + 1));
        let s = String::from_utf8_lossy(&text).into_owned();
        let _ = Recording::parse(&s, Path::new("fuzz.ron"));
        let _ = Recording::parse(&junk, Path::new("junk.ron"));
    }
}

#[test]
fn the_timeline_reaches_every_state_the_game_passed_through_and_jumps_to_any_turn() {
    // The viewer's round trip: record, verify, lay out, jump to the last turn — the same state
    // as playing the actions one by one; the last state has the simulation's hash.
    let (rec, hash) = record(23);
    let dir = tmp("timeline");
    let path = dir.join("game.ron");
    rec.save(&path).unwrap();
    let rec = Recording::load(&path).unwrap();
    let tl = volley::replay::timeline::Timeline::build(rec.clone(), &path).expect("verifies");
    assert_eq!(tl.final_hash(), hash);
    assert_eq!(tl.state_at(tl.len()).state_hash(), hash);
    let mut b = volley::replay::verify::start_battle(&rec, &path).unwrap();
    for n in 0..=tl.len() {
        assert_eq!(tl.state_at(n).state_hash(), b.state_hash(), "after {n} actions");
        if n < tl.len() {
            let ev = b.apply(&rec.actions[n]).unwrap();
            assert_eq!(tl.events_of(n), ev, "the events of action {n}");
        }
    }
    let last = tl.turns().last().expect("turn marks").clone();
    assert!(last.game_turn >= 2, "{last:?}");
    let at = tl.turn_start(last.game_turn).unwrap();
    let s = tl.state_at(at);
    assert_eq!(s.game_turn, last.game_turn);
    assert!(tl.turns().windows(2).all(|w| w[0].at < w[1].at), "turns in order");
}

#[test]
fn taking_command_mid_game_gives_a_recording_that_verifies_and_plays_on() {
    let (rec, _) = record(24);
    let dir = tmp("take");
    let path = dir.join("game.ron");
    rec.save(&path).unwrap();
    let tl = volley::replay::timeline::Timeline::build(rec.clone(), &path).unwrap();
    let n = tl.len() / 2;
    let (b, cut) = tl.take_command(n);
    assert_eq!(cut.actions.len(), n);
    let cut_path = dir.join("cut.ron");
    cut.save(&cut_path).unwrap();
    assert_eq!(verify_file(&cut_path).unwrap(), b.state_hash());
    // Play on from there with the scheduler on both sides: the game ends.
    let mut a = [
        agents::by_name(SCHEDULER, 1, 0).unwrap(),
        agents::by_name(SCHEDULER, 1, 1).unwrap(),
    ];
    let done = sim::play(b, &mut a, 100_000, |_, _, _| {}).unwrap();
    assert!(done.is_over());
    // The original file is untouched.
    assert_eq!(Recording::load(&path).unwrap(), rec);
}

#[test]
fn a_different_rules_version_is_found() {
    let (mut rec, _) = record(25);
    rec.rules_version = "bpt-0".into();
    let dir = tmp("rules");
    let path = dir.join("game.ron");
    rec.save(&path).unwrap();
    match verify_file(&path) {
        Err(Mismatch::RulesVersion { recorded, .. }) => assert_eq!(recorded, "bpt-0"),
        other => panic!("{other:?}"),
    }
}

/// Issue 15: a recording made before (a scheduler game of First Battle under `bpt-3`, kept in
/// `tests/data/`) still verifies to the hash it was recorded with, unless the rules' version
/// has changed since, in which case it is refused by that version's name. *First Battle* has
/// been revised since it was recorded: it verifies on the earlier file kept in `maps/history/`
/// by its content hash (without that file it would be refused as `ScenarioChanged`).
#[test]
fn a_recording_made_before_still_verifies_or_is_refused_by_its_rules_version() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/recorded_first_battle_bpt3.ron");
    let rec = Recording::load(&path).expect("the stored recording");
    assert_eq!(rec.rules_version, "bpt-3");
    match verify_file(&path) {
        Ok(hash) => assert_eq!(format!("{hash:016x}"), "9bb780850e7ada73"),
        Err(Mismatch::RulesVersion { recorded, .. }) => assert_eq!(recorded, "bpt-3"),
        Err(other) => panic!("the recording made under bpt-3 no longer verifies: {other:?}"),
    }
}

/// Issue 63: prone and sabers drawn moved from fields of the unit into the optional rules'
/// own tables (`battle::optional`); two games were recorded under `bpt-6` before the move with
/// `--rule prone,saber-charge`. Issue 64 changed how charges are fought (`bpt-7`): those two
/// are now refused by their rules version's name, as are the two recorded under `bpt-7` since
/// `bpt-8` played the Napoleonic notes. Two games recorded under `bpt-8` (a river crossing where units lay down 8 times, a
/// peninsula game where a cavalry regiment drew sabers and winners chose their consolidation
/// 7 times) verify at every phase's checkpoint to the hash they were recorded with.
#[test]
fn games_recorded_with_prone_and_sabers_verify_or_are_refused_by_their_rules_version() {
    for (file, action, version, hash) in [
        ("tests/data/recorded_prone_bpt6.ron", "Prone(true)", "bpt-6", None),
        ("tests/data/recorded_sabers_bpt6.ron", "DrawSabers", "bpt-6", None),
        ("tests/data/recorded_prone_bpt7.ron", "Prone(true)", "bpt-7", None),
        ("tests/data/recorded_sabers_bpt7.ron", "DrawSabers", "bpt-7", None),
        (
            "tests/data/recorded_prone_bpt8.ron",
            "Prone(true)",
            "bpt-8",
            Some("8b9ca79022548af8"),
        ),
        (
            "tests/data/recorded_sabers_bpt8.ron",
            "DrawSabers",
            "bpt-8",
            Some("1a442bda70275036"),
        ),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(action), "{file} has no {action}");
        let rec = Recording::load(&path).expect("the stored recording");
        assert_eq!(rec.rules_version, version);
        match (verify_file(&path), hash) {
            (Ok(h), Some(want)) => assert_eq!(format!("{h:016x}"), want, "{file}"),
            (Err(Mismatch::RulesVersion { recorded, now }), None) => {
                assert_eq!((recorded.as_str(), now.as_str()), (version, "bpt-8"), "{file}")
            }
            (other, _) => panic!("{file}: {other:?}"),
        }
    }
}

/// Issue 66, "a replay can show it": `simulate --record` keeps the computer's plan, whole, as
/// it said it before the action it came with; the seal covers it (an edited plan is found, by
/// file, line and column), a plan said out of order or past the last action is refused, the
/// recording verifies, and taking command at an action keeps only the plans said before it.
#[test]
fn a_recording_keeps_the_computers_plans_under_its_seal() {
    let dir = tmp("plans");
    let file = dir.join("gettysburg.ron");
    planned_gettysburg_recording(&file);
    let rec = Recording::load(&file).expect("it reads");
    assert_eq!(rec.plans.len(), 1, "{:?}", rec.plans);
    let p = &rec.plans[0];
    assert_eq!((p.action, p.side, p.agent.as_str()), (0, 1, "scheduler"));
    assert!(
        p.text
            .starts_with("plan made (turn 1, the battle begins): Heth's division: attack"),
        "{}",
        p.text
    );
    assert!(p.text.contains("Pender's division"), "whole: {}", p.text);
    verify_file(&file).expect("it verifies");
    let text = std::fs::read_to_string(&file).unwrap();
    // An edited plan breaks the seal.
    let edited = text.replacen("attack Gamble", "attack Buford", 1);
    assert!(edited != text, "the plan is in the file");
    let e = Recording::parse(&edited, &file).unwrap_err().to_string();
    assert!(e.contains("plans") && e.contains("seal does not match"), "{e}");
    // A plan past the end, sealed again as a writer would: refused where it stands.
    let mut bad = rec.clone();
    bad.plans[0].action = rec.actions.len() as u64 + 1;
    let e = Recording::parse(&bad.to_ron(), &file).unwrap_err().to_string();
    assert!(e.contains("gettysburg.ron:") && e.contains("past the"), "{e}");
    let mut bad = rec.clone();
    bad.plans[0].side = 2;
    assert!(Recording::parse(&bad.to_ron(), &file).is_err(), "side 2");
    // Taking command: before the plan, none; after it, kept.
    let tl = volley::replay::timeline::Timeline::build(rec.clone(), &file).unwrap();
    assert!(tl.take_command(0).1.plans.is_empty());
    assert_eq!(tl.take_command(5).1.plans, rec.plans);
}
