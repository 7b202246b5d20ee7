//! Fuzz-style property tests (issue 17): mutated scenarios, army lists, rules files and
//! recordings go to every loader and to `verify`; random bytes go to every loader (scenario,
//! army list, rules file, recording and save, settings) and, as typed input, to the terminal
//! game. Each case must end, within a time bound, in an answer: accepted, or refused by an
//! error that names the file. No panic, no hang; the cases run through the program also stay
//! under a memory bound (1 GiB of address space). The cases are drawn from fixed seeds, so CI
//! runs the same cases every time.

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

/// Random bytes of one of three kinds: any bytes at all; RON-like text (brackets, names,
/// numbers, strings, comments, runs of white space); or the start of a real file followed by
/// either. At most `max` bytes.
fn random_bytes(rng: &mut ChaCha8Rng, real: &str, max: usize) -> Vec<u8> {
    const TOKENS: [&str; 24] = [
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ":",
        ",",
        "\"",
        "'",
        "//",
        "/*",
        "*/",
        "#![enable(implicit_some)]",
        "Some(",
        "None",
        "true",
        "1e308",
        "-1",
        "Recording(",
        "units",
        "\n",
        "    ",
        "\u{feff}",
    ];
    let len = rng.random_range(0..max);
    let mut out = Vec::with_capacity(len);
    let kind = rng.random_range(0..3);
    if kind == 2 {
        let cut = rng.random_range(0..real.len());
        out.extend_from_slice(&real.as_bytes()[..cut]);
    }
    let text = kind == 1 || (kind == 2 && rng.random_bool(0.5));
    while out.len() < len {
        if text {
            match rng.random_range(0..4) {
                0 => out.extend_from_slice(TOKENS[rng.random_range(0..TOKENS.len())].as_bytes()),
                1 => out.extend_from_slice(rng.random_range(-100_000i64..100_000).to_string().as_bytes()),
                2 => out.push(rng.random_range(b'a'..=b'z')),
                _ => out.push(b' '),
            }
        } else {
            out.push(rng.random::<u8>());
        }
    }
    out
}

/// Random bytes go to every loader (scenario, army list, rules file, recording and save,
/// settings): each answers, in time, with the file or a refusal that names it. A few cases of
/// each go through the program itself, under a memory bound.
#[test]
fn random_bytes_are_answered_by_every_loader() {
    use super::faults::run_bounded;
    let scratch_dir = scratch("random");
    let armies = scratch_dir.join("armies");
    let rules_dir = scratch_dir.join("rules");
    std::fs::create_dir_all(&armies).unwrap();
    std::fs::create_dir_all(&rules_dir).unwrap();
    let real = |p: &str| std::fs::read_to_string(format!("{ROOT}/{p}")).unwrap();
    let (map, army, rules) = (
        real("maps/first_battle.ron"),
        real("assets/armies/acw_union.ron"),
        real("assets/rules/bpt.ron"),
    );
    let rec_text = {
        let rec = scratch_dir.join("original.ron");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_volley"))
            .args([
                "simulate",
                "maps/first_battle.ron",
                "--seed",
                "3",
                "--max-turns",
                "1",
                "--record",
            ])
            .arg(&rec)
            .current_dir(ROOT)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        std::fs::read_to_string(&rec).unwrap()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for k in 0..CASES {
        let max = if k % 10 == 9 { 1 << 20 } else { 1 << 14 };
        // A scenario.
        let f = scratch_dir.join(format!("map{k}.ron"));
        std::fs::write(&f, random_bytes(&mut rng, &map, max)).unwrap();
        let g = f.clone();
        bounded(&f, &format!("random scenario {k}"), move || {
            let fp = volley::footprints(&volley::load_rules(None).map_err(|e| e.to_string())?);
            volley::data::load_scenario(&g, &Path::new(ROOT).join("assets/armies"), &fp)
                .map(|_| ())
                .map_err(|e| e.to_string())?;
            volley::data::check::check_file(&g)
                .map(|_| ())
                .map_err(|e| e.to_string())
        });
        // An army list.
        let f = armies.join(format!("list{k}.ron"));
        std::fs::write(&f, random_bytes(&mut rng, &army, max)).unwrap();
        let g = f.clone();
        bounded(&f, &format!("random army list {k}"), move || {
            volley::data::load_army(&g).map(|_| ()).map_err(|e| e.to_string())?;
            volley::data::check::check_file(&g)
                .map(|_| ())
                .map_err(|e| e.to_string())
        });
        // A rules file.
        let f = rules_dir.join(format!("rules{k}.ron"));
        std::fs::write(&f, random_bytes(&mut rng, &rules, max)).unwrap();
        let g = f.clone();
        bounded(&f, &format!("random rules file {k}"), move || {
            let text = volley::data::load::read_text(&g).map_err(|e| e.to_string())?;
            let r: volley::rules::params::Rules = volley::data::parse_ron(&text, &g).map_err(|e| e.to_string())?;
            volley::check_rules(&r, &g).map_err(|e| e.to_string())?;
            volley::data::check::check_file(&g)
                .map(|_| ())
                .map_err(|e| e.to_string())
        });
        // A recording, and the same file loaded as a save.
        let f = scratch_dir.join(format!("rec{k}.ron"));
        std::fs::write(&f, random_bytes(&mut rng, &rec_text, max)).unwrap();
        let g = f.clone();
        bounded(&f, &format!("random recording {k}"), move || {
            if let Ok(rec) = volley::replay::Recording::load(&g) {
                let _ = volley::terminal::history(&rec, &g, &[0]);
            }
            volley::replay::verify::verify_report(&g).map(|_| ())
        });
        // Settings (the window's): a bad file gives the defaults and the reason.
        #[cfg(feature = "gui")]
        {
            let d = scratch_dir.join(format!("settings{k}"));
            std::fs::create_dir_all(&d).unwrap();
            let f = d.join("settings.ron");
            std::fs::write(&f, random_bytes(&mut rng, "(\n  speed: 2.0,\n)\n", max)).unwrap();
            bounded(
                &f,
                &format!("random settings {k}"),
                move || match volley::ui::settings::Settings::load(&d) {
                    (_, Some(e)) => Err(e),
                    (_, None) => Ok(()),
                },
            );
        }
        // Through the program, under the memory bound.
        if k % 8 == 0 {
            for (args, file) in [
                (vec!["check"], scratch_dir.join(format!("map{k}.ron"))),
                (vec!["check"], armies.join(format!("list{k}.ron"))),
                (vec!["verify"], scratch_dir.join(format!("rec{k}.ron"))),
                (
                    vec!["play", "--terminal", "--load"],
                    scratch_dir.join(format!("rec{k}.ron")),
                ),
            ] {
                let mut a = args.clone();
                a.push(file.to_str().unwrap());
                let r = run_bounded(&a, &scratch_dir, std::process::Stdio::null());
                assert!(!r.stderr.contains("panicked"), "{a:?}: {}", r.all());
                assert!(r.status.code().is_some(), "{a:?} was killed: {}", r.all());
            }
        }
    }
}

/// Random input typed into the terminal game (through the program, standard input from a
/// file): it answers every line, never panics, ends at the end of the input within the time
/// bound and under the memory bound, and saves the game where it says.
#[test]
fn random_input_to_the_terminal_game_is_answered() {
    use super::faults::run_bounded;
    let dir = scratch("typing");
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    const WORDS: [&str; 16] = [
        "0",
        "1",
        "2",
        "l",
        "l A",
        "units",
        "map",
        "log 5",
        "odds 1",
        "help",
        "brief",
        "s x.ron",
        "q",
        "n",
        "log 99999999999999999999",
        "odds -1",
    ];
    for k in 0..6 {
        let input = dir.join(format!("input{k}"));
        let mut bytes = Vec::new();
        match k % 3 {
            // Any bytes, but no slash: a random `s FILE` stays in the scratch folder.
            0 => bytes.extend((0..(64 << 10)).map(|_| rng.random::<u8>()).filter(|b| *b != b'/')),
            // Commands, numbers and junk lines, some very long.
            _ => {
                for _ in 0..400 {
                    match rng.random_range(0..10) {
                        0 => bytes.extend(
                            (0..rng.random_range(0..200))
                                .map(|_| rng.random::<u8>())
                                .filter(|b| *b != b'/'),
                        ),
                        1 => bytes.extend(std::iter::repeat_n(b'7', rng.random_range(0..20_000))),
                        2 => bytes.extend_from_slice(rng.random_range(0..100).to_string().as_bytes()),
                        _ => bytes.extend_from_slice(WORDS[rng.random_range(0..WORDS.len())].as_bytes()),
                    }
                    bytes.push(if rng.random_bool(0.05) { b'\r' } else { b'\n' });
                }
            }
        }
        std::fs::write(&input, &bytes).unwrap();
        let map = format!("{ROOT}/maps/first_battle.ron");
        let r = run_bounded(
            &["play", &map, "--terminal"],
            &dir,
            std::process::Stdio::from(std::fs::File::open(&input).unwrap()),
        );
        assert!(!r.stderr.contains("panicked"), "input {k}: {}", r.all());
        assert!(r.status.success(), "input {k}: {}", r.all());
        assert!(r.stdout_len < 64 << 20, "input {k}: {} bytes printed", r.stdout_len);
        let saved = ["saves/autosave-first_battle.ron", "x.ron"]
            .iter()
            .any(|f| dir.join(f).is_file());
        assert!(
            saved || r.stdout.contains("Quit without saving"),
            "input {k}: {}",
            r.all()
        );
    }
}
