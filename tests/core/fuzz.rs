//! Fuzz-style property test (issue 17): mutated scenarios, army lists, rules files and
//! recordings go to every loader and to `verify`. Each case must end, within a time bound,
//! in an answer: accepted, or refused by an error that names the file. No panic, no hang.
//! The mutations are drawn from a fixed seed, so CI runs the same cases every time.

use super::common::Scratch;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// Cases per kind of file.
const CASES: usize = 40;
/// The bound on one case (a debug build on a busy 2-core machine; a case takes milliseconds).
const CASE_LIMIT: Duration = Duration::from_secs(20);

/// Numbers a careless or hostile editor might type.
const WILD_NUMBERS: [&str; 10] = [
    "1e308",
    "-1e308",
    "NaN",
    "inf",
    "-inf",
    "4294967296",
    "18446744073709551616",
    "-1",
    "1e-320",
    "0",
];

/// One mutation of `text`: a bit flip, a truncation, two lines swapped, or a number replaced.
fn mutate(text: &str, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    match rng.random_range(0..4) {
        0 => {
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..bytes.len());
                bytes[i] ^= 1 << rng.random_range(0..8);
            }
        }
        1 => bytes.truncate(rng.random_range(0..bytes.len())),
        2 => {
            let mut lines: Vec<&str> = text.lines().collect();
            let (a, b) = (rng.random_range(0..lines.len()), rng.random_range(0..lines.len()));
            lines.swap(a, b);
            bytes = lines.join("\n").into_bytes();
        }
        _ => {
            // Replace the k-th number literal.
            let starts: Vec<usize> = text
                .char_indices()
                .filter(|&(i, c)| {
                    c.is_ascii_digit()
                        && !text[..i].ends_with(|p: char| p.is_ascii_alphanumeric() || p == '.' || p == '_')
                })
                .map(|(i, _)| i)
                .collect();
            if let Some(&at) = starts.get(rng.random_range(0..starts.len().max(1))) {
                let end = at
                    + text[at..]
                        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                        .unwrap_or(text.len() - at);
                let wild = WILD_NUMBERS[rng.random_range(0..WILD_NUMBERS.len())];
                bytes = format!("{}{wild}{}", &text[..at], &text[end..]).into_bytes();
            }
        }
    }
    bytes
}

/// Run `case` on its own thread; it must answer within [`CASE_LIMIT`] without panicking, and
/// a refusal must name `file`.
fn bounded(file: &Path, what: &str, case: impl FnOnce() -> Result<(), String> + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(case));
        let _ = tx.send(r);
    });
    match rx.recv_timeout(CASE_LIMIT) {
        Err(_) => panic!("{what}: no answer within {CASE_LIMIT:?} ({})", file.display()),
        Ok(Err(_)) => panic!("{what}: panicked on {}", file.display()),
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(e))) => {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            assert!(e.contains(&name), "{what}: the refusal does not name {name}: {e}");
        }
    }
}

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("fuzz-{name}"))
}

fn fuzz_checked_files(kind: &str, originals: &[&str], dir: &Path, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for k in 0..CASES {
        let original = originals[k % originals.len()];
        let text = std::fs::read_to_string(format!("{ROOT}/{original}")).unwrap();
        let file = dir.join(format!("case{k}.ron"));
        std::fs::write(&file, mutate(&text, &mut rng)).unwrap();
        let f = file.clone();
        bounded(&file, &format!("{kind} case {k} (from {original})"), move || {
            volley::data::check::check_file(&f)
                .map(|_| ())
                .map_err(|e| e.to_string())
        });
    }
}

#[test]
fn mutated_scenarios_are_answered_without_a_panic() {
    let dir = scratch("maps");
    fuzz_checked_files(
        "scenario",
        &[
            "maps/first_battle.ron",
            "maps/skirmish.ron",
            "maps/river_crossing.ron",
            "maps/peninsula.ron",
        ],
        &dir,
        17,
    );
}

#[test]
fn mutated_army_lists_are_answered_without_a_panic() {
    let scratch_dir = scratch("lists");
    let dir = scratch_dir.join("armies");
    std::fs::create_dir_all(&dir).unwrap();
    fuzz_checked_files(
        "army list",
        &[
            "assets/armies/acw_union.ron",
            "assets/armies/acw_confederate.ron",
            "assets/armies/nap_french.ron",
        ],
        &dir,
        18,
    );
}

/// A mutated rules file is checked; when it is accepted, a short game is played with it
/// (random agents, 300 actions at most): the rules' numbers reach the game without a panic.
#[test]
fn mutated_rules_files_are_answered_and_accepted_ones_play() {
    let scratch_dir = scratch("rules");
    let dir = scratch_dir.join("rules");
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(format!("{ROOT}/assets/rules/bpt.ron")).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let mut played = 0;
    for k in 0..CASES {
        let file = dir.join(format!("case{k}.ron"));
        std::fs::write(&file, mutate(&text, &mut rng)).unwrap();
        let f = file.clone();
        let accepted = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let acc = accepted.clone();
        bounded(&file, &format!("rules case {k}"), move || {
            let text = volley::data::load::read_text(&f).map_err(|e| e.to_string())?;
            let rules: volley::rules::params::Rules = volley::data::parse_ron(&text, &f).map_err(|e| e.to_string())?;
            volley::check_rules(&rules, &f).map_err(|e| e.to_string())?;
            acc.store(true, std::sync::atomic::Ordering::Relaxed);
            let fp = volley::footprints(&rules);
            let map = Path::new(ROOT).join("maps/first_battle.ron");
            // The footprints come from the rules: a scenario may not fit them any more.
            let loaded = volley::data::load_scenario(&map, &Path::new(ROOT).join("assets/armies"), &fp)
                .map_err(|e| format!("{} (with {})", e, f.display()))?;
            let (b, _) = volley::battle::Battle::new(&loaded, rules, k as u64);
            let mut agents = [
                volley::agents::by_name("random", k as u64, 0)?,
                volley::agents::by_name("random", k as u64, 1)?,
            ];
            volley::sim::play(b, &mut agents, 300, |_, _, _| {}).map_err(|e| format!("{} ({e})", f.display()))?;
            Ok(())
        });
        if accepted.load(std::sync::atomic::Ordering::Relaxed) {
            played += 1;
        }
    }
    assert!(
        played > 0,
        "no mutated rules file was accepted: the game half of the test never ran"
    );
}

#[test]
fn mutated_recordings_are_answered_by_verify_without_a_panic() {
    let dir = scratch("recs");
    let rec = dir.join("original.ron");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_volley"))
        .args([
            "simulate",
            "maps/first_battle.ron",
            "--seed",
            "11",
            "--max-turns",
            "2",
            "--record",
        ])
        .arg(&rec)
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&rec).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    for k in 0..CASES {
        let file = dir.join(format!("case{k}.ron"));
        std::fs::write(&file, mutate(&text, &mut rng)).unwrap();
        let f = file.clone();
        // What `volley verify` prints, as it prints it: the refusal must name the file itself.
        bounded(&file, &format!("recording case {k}"), move || {
            volley::replay::verify::verify_report(&f).map(|_| ())
        });
    }
}
