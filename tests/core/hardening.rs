//! Bad input on the command line: never a crash, never silently accepted (issue 17).

use super::common::Scratch;
use std::io::Read;
use std::process::{Command, Stdio};

use super::cli::volley;

/// Refused: a failure exit, no panic, and the message names `what`.
fn refused(args: &[&str], what: &str) {
    let out = volley(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "{args:?} was accepted: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(
        err.contains(what),
        "{args:?}: the refusal does not name {what:?}: {err}"
    );
}

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("hard-{name}"))
}

#[test]
fn odds_refuses_dice_and_scores_the_dice_cannot_have() {
    // 4294967295 dice asked for 34 GB before; 1100 and more printed NaN.
    refused(
        &["odds", "--dice", "4294967295", "--to-hit", "4"],
        "--dice must be 1 to 1000",
    );
    refused(&["odds", "--dice", "1100", "--to-hit", "4"], "--dice must be 1 to 1000");
    refused(&["odds", "--dice", "0", "--to-hit", "4"], "--dice");
    refused(&["odds", "--dice", "3", "--to-hit", "7"], "--to-hit");
    refused(&["odds", "--dice", "3", "--to-hit", "1"], "--to-hit");
    refused(&["odds", "--dice", "3", "--to-hit", "4", "--save", "9"], "--save");
    refused(
        &["odds", "--dice", "3", "--to-hit", "4", "--behind", "5"],
        "--behind is for canister",
    );
    refused(
        &[
            "odds", "--ammo", "canister", "--dice", "3", "--to-hit", "4", "--behind", "8",
        ],
        "--behind",
    );
    refused(
        &[
            "odds",
            "--ammo",
            "shot",
            "--dice",
            "3",
            "--to-hit",
            "4",
            "--accuracy",
            "0",
        ],
        "--accuracy",
    );
    // The bound itself is fine and its numbers are real.
    let out = volley(&["odds", "--dice", "1000", "--to-hit", "4", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!((v["mean"].as_f64().unwrap() - 500.0).abs() < 1e-6, "{v}");
}

/// `volley … | head -1`: the reader goes away; the writer must end without a panic.
fn into_closed_pipe(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut first = [0u8; 16];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .expect("some output");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{args:?} panicked into a closed pipe: {err}");
    assert!(err.is_empty(), "{args:?} complained into a closed pipe: {err}");
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    into_closed_pipe(&["odds", "--dice", "1000", "--to-hit", "4"]);
    into_closed_pipe(&["simulate", "maps/skirmish.ron", "--seed", "1", "--log"]);
    into_closed_pipe(&[
        "check",
        "maps/skirmish.ron",
        "maps/first_battle.ron",
        "maps/river_crossing.ron",
        "maps/gettysburg.ron",
        "maps/peninsula.ron",
        "maps/engineers.ron",
    ]);
}

#[test]
fn game_counts_turn_limits_and_repeated_sides_are_refused() {
    refused(
        &["balance", "maps/first_battle.ron", "--games", "0"],
        "--games must be 1 to",
    );
    refused(
        &[
            "match",
            "maps/first_battle.ron",
            "--agent",
            "random",
            "--against",
            "random",
            "--games",
            "0",
        ],
        "--games must be 1 to",
    );
    refused(
        &[
            "match",
            "--agent",
            "random",
            "--against",
            "random",
            "--games",
            "18446744073709551615",
        ],
        "--games must be 1 to",
    );
    refused(
        &["simulate", "maps/first_battle.ron", "--max-turns", "0"],
        "--max-turns",
    );
    refused(
        &[
            "simulate",
            "maps/first_battle.ron",
            "--side",
            "Union=random",
            "--side",
            "union=greedy",
        ],
        "--side Union is given twice",
    );
    refused(
        &["simulate", "maps/first_battle.ron", "--rule", ""],
        "no optional rule called \"\"",
    );
}

#[test]
fn play_load_refuses_what_the_save_decides() {
    let dir = scratch("load");
    let save = dir.join("game.ron");
    let out = volley(&[
        "simulate",
        "maps/first_battle.ron",
        "--seed",
        "3",
        "--max-turns",
        "1",
        "--record",
        save.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = save.to_str().unwrap();
    refused(
        &["play", "maps/skirmish.ron", "--load", s, "--terminal"],
        "leave out the scenario",
    );
    refused(&["play", "--load", s, "--seed", "9", "--terminal"], "leave out --seed");
    refused(
        &["play", "--load", s, "--rule", "weather", "--terminal"],
        "leave out --rule",
    );
}

#[test]
fn screenshot_refuses_bad_options_before_opening_a_window() {
    let dir = scratch("shot");
    let png = dir.join("x.png");
    let p = png.to_str().unwrap();
    refused(
        &["screenshot", "maps/first_battle.ron", "--out", p, "--preview", "bogus"],
        "--preview wants one of move, fire, charge, deploy, order",
    );
    refused(
        &[
            "screenshot",
            "maps/first_battle.ron",
            "--out",
            p,
            "--select",
            "Napoleon",
        ],
        "no unit or commander whose name contains 'Napoleon'",
    );
    refused(
        &["screenshot", "maps/first_battle.ron", "--out", p, "--at", "5"],
        "--at goes with --replay",
    );
    assert!(!png.exists(), "no picture is written for a refused request");
}

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn first_battle() -> String {
    std::fs::read_to_string(format!("{ROOT}/maps/first_battle.ron")).unwrap()
}

/// `text` written as `name` in a scratch folder, checked with `volley check`: refused, the
/// message naming the file, a line and column, and `what`.
fn check_refuses(dir: &std::path::Path, name: &str, text: &str, what: &str) {
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    let out = volley(&["check", f.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "{name} was accepted: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!err.contains("panicked"), "{name}: {err}");
    assert!(
        err.contains(&format!("{name}:")),
        "{name}: the error does not name the file: {err}"
    );
    assert!(err.contains(what), "{name}: the error does not say {what:?}: {err}");
    assert!(
        !err.contains('\u{1b}'),
        "{name}: an escape code reached the terminal: {err:?}"
    );
}

/// Replace `from` by `to` once, insisting the text had it.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the test's own text lacks {from:?}");
    text.replacen(from, to, 1)
}

#[test]
fn misspelt_fields_are_refused_not_ignored() {
    let dir = scratch("fields");
    let fb = first_battle();
    check_refuses(
        &dir,
        "a.ron",
        &edit(&fb, "turn_limit: 12", "turn_limt: 12"),
        "turn_limt",
    );
    check_refuses(
        &dir,
        "b.ron",
        &edit(&fb, "first_side: 0,", "first_side: 0, switchs: [Weather],"),
        "switchs",
    );
    check_refuses(&dir, "c.ron", &edit(&fb, "radius: 8),", "raduis: 8),"), "raduis");
    check_refuses(
        &dir,
        "d.ron",
        &edit(
            &fb,
            "commander: \"us_co\"),",
            "commander: \"us_co\", grad: Some(Elite)),",
        ),
        "grad",
    );
    check_refuses(
        &dir,
        "e.ron",
        &edit(&fb, "deployment: Some(", "deploy: None, deployment: Some("),
        "deploy",
    );
    let army = std::fs::read_to_string(format!("{ROOT}/assets/armies/acw_union.ron")).unwrap();
    let armies = dir.join("armies");
    std::fs::create_dir_all(&armies).unwrap();
    check_refuses(&armies, "f.ron", &edit(&army, "commands: [", "comands: ["), "comands");
}

#[test]
fn a_scenarios_rules_file_must_be_a_rules_file_in_the_rules_folder() {
    let dir = scratch("rulesfield");
    let fb = first_battle();
    check_refuses(
        &dir,
        "a.ron",
        &edit(&fb, "first_side: 0,", "first_side: 0, rules: Some(\"warhammer\"),"),
        "rules file not found",
    );
    check_refuses(
        &dir,
        "b.ron",
        &edit(
            &fb,
            "first_side: 0,",
            "first_side: 0, rules: Some(\"../../maps/skirmish\"),",
        ),
        "must be a file stem",
    );
    // The bundled rules file by name is fine.
    let ok = dir.join("c.ron");
    std::fs::write(&ok, edit(&fb, "first_side: 0,", "first_side: 0, rules: Some(\"bpt\"),")).unwrap();
    let out = volley(&["check", ok.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn escape_codes_in_names_are_refused_and_never_printed() {
    let dir = scratch("escape");
    let fb = first_battle();
    let evil = "First Battle\\u{1b}]0;pwned\\u{7}\\u{1b}[31m";
    check_refuses(
        &dir,
        "a.ron",
        &edit(&fb, "First Battle: Hickory Lane", evil),
        "control character",
    );
    check_refuses(
        &dir,
        "b.ron",
        &edit(&fb, "\"21st Georgia\"", "\"21st \\u{1b}[2JGeorgia\""),
        "control character",
    );
}

#[test]
fn scenarios_that_cannot_be_played_as_written_are_refused() {
    let dir = scratch("wrong");
    let fb = first_battle();
    // A side with no units.
    let start = fb.find("units: [").unwrap();
    let end = start + fb[start..].find("\n            ],").unwrap();
    let mut no_units = fb.clone();
    no_units.replace_range(start..end, "units: [");
    check_refuses(&dir, "a.ron", &no_units, "has no units");
    check_refuses(
        &dir,
        "b.ron",
        &edit(&fb, "turn_limit: 12", "turn_limit: 4000000000"),
        "turn_limit must be 1 to 100",
    );
    check_refuses(
        &dir,
        "c.ron",
        &edit(&fb, "First Battle: Hickory Lane", "  "),
        "the title is empty",
    );
    // A bow-tie wood: its edges cross.
    check_refuses(
        &dir,
        "d.ron",
        &edit(
            &fb,
            "(x: 8, y: 38), (x: 24, y: 36), (x: 26, y: 52), (x: 10, y: 54)",
            "(x: 8, y: 38), (x: 24, y: 36), (x: 10, y: 54), (x: 26, y: 52)",
        ),
        "edges cross",
    );
    // A wood all on one line.
    check_refuses(
        &dir,
        "e.ron",
        &edit(
            &fb,
            "(x: 8, y: 38), (x: 24, y: 36), (x: 26, y: 52), (x: 10, y: 54)",
            "(x: 8, y: 38), (x: 16, y: 38), (x: 24, y: 38)",
        ),
        "no area",
    );
    // The 5th New Hampshire set up in the middle of the table, outside the Union's zone.
    check_refuses(
        &dir,
        "f.ron",
        &edit(&fb, "pos: (x: 45, y: 23)", "pos: (x: 45, y: 40)"),
        "outside Union's deployment zone",
    );
    // An army list without command rows.
    let army = std::fs::read_to_string(format!("{ROOT}/assets/armies/acw_union.ron")).unwrap();
    let start = army.find("commands: [").unwrap();
    let end = start + army[start..].find("\n    ],").unwrap();
    let mut no_commands = army.clone();
    no_commands.replace_range(start..end, "commands: [");
    let armies = dir.join("armies");
    std::fs::create_dir_all(&armies).unwrap();
    check_refuses(&armies, "g.ron", &no_commands, "no command rows");
}

#[test]
fn size_nesting_and_byte_order_marks() {
    let dir = scratch("size");
    let fb = first_battle();
    // Over the file size limit: refused before it is parsed.
    let mut huge = fb.clone();
    huge.push_str(&" ".repeat(17 * 1024 * 1024));
    check_refuses(&dir, "a.ron", &huge, "at most 16777216 bytes");
    // 2,001 fields of terrain: over the count limit.
    let field = "(kind: Field, outline: Polygon([(x: 1, y: 30), (x: 2, y: 30), (x: 2, y: 31)])),\n";
    let many = edit(
        &fb,
        "        areas: [\n",
        &format!("        areas: [\n{}", field.repeat(2001)),
    );
    check_refuses(&dir, "b.ron", &many, "at most 2000");
    // Brackets nested 200 deep (in an action of a recording, where a field nobody reads is
    // skipped): refused in plain words, not with ron's advice to change its settings.
    let rec = record(&dir, "deep.ron");
    let text = std::fs::read_to_string(&rec).unwrap();
    let actions = text.find("actions: [").unwrap();
    let open = actions + text[actions..].find("(").unwrap() + 1;
    let mut deep = text.clone();
    deep.insert_str(open, &format!("zz: {}{}, ", "[".repeat(200), "]".repeat(200)));
    std::fs::write(&rec, deep).unwrap();
    let out = volley(&["verify", rec.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("deep.ron:") && err.contains("nested more than 64"),
        "{err}"
    );
    assert!(!err.contains("recursion_limit"), "{err}");
    // A byte-order mark at the start is not part of the text.
    let bom = dir.join("d.ron");
    std::fs::write(&bom, format!("\u{feff}{fb}")).unwrap();
    let out = volley(&["check", bom.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_recording_never_writes_over_a_scenario_and_leaves_no_stale_temporary_file() {
    let dir = scratch("record");
    let map = dir.join("map.ron");
    std::fs::write(&map, first_battle()).unwrap();
    let m = map.to_str().unwrap();
    let out = volley(&["simulate", m, "--seed", "2", "--max-turns", "1", "--record", m]);
    assert!(!out.status.success(), "--record over the scenario was accepted");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a Volley recording"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&map).unwrap(),
        first_battle(),
        "the scenario was changed"
    );
    // A save interrupted earlier left its temporary file; the next save removes it.
    let stale = dir.join(".game.ron.4242.tmp");
    std::fs::write(&stale, "half a save").unwrap();
    let game = dir.join("game.ron");
    let out = volley(&[
        "simulate",
        m,
        "--seed",
        "2",
        "--max-turns",
        "1",
        "--record",
        game.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!stale.exists(), "the stale temporary file is still there");
    // Writing over a recording is fine (a new game over an old one).
    let out = volley(&[
        "simulate",
        m,
        "--seed",
        "3",
        "--max-turns",
        "1",
        "--record",
        game.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn record(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let rec = dir.join(name);
    let out = volley(&[
        "simulate",
        "maps/first_battle.ron",
        "--seed",
        "5",
        "--max-turns",
        "2",
        "--record",
        rec.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    rec
}

fn verify_in(cwd: &std::path::Path, rec: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["verify", rec.to_str().unwrap()])
        .current_dir(cwd)
        .output()
        .expect("runs")
}

#[test]
fn recordings_verify_from_anywhere_and_catch_edited_rules_and_checkpoints() {
    let dir = scratch("verify");
    let rec = record(&dir, "game.ron");
    // From another working directory, the scenario named "maps/first_battle.ron" is still found.
    let out = verify_in(&dir, &rec);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // A checkpoint past the last action is refused by name.
    let text = std::fs::read_to_string(&rec).unwrap();
    let n = text.matches("Checkpoint(").count();
    assert!(n > 0);
    let at = text.find("action: ").unwrap();
    let end = at + text[at..].find(',').unwrap();
    let bad = dir.join("bad.ron");
    let mut t = text.clone();
    t.replace_range(at..end, "action: 99999999");
    std::fs::write(&bad, t).unwrap();
    let out = verify_in(&dir, &bad);
    assert!(!out.status.success(), "a checkpoint past the end verified");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.ron") && err.contains("checkpoint after action 99999999"),
        "{err}"
    );
    // The rules file edited (a number changed, the version string kept): refused.
    let assets = dir.join("edited").join("assets");
    std::fs::create_dir_all(assets.join("rules")).unwrap();
    std::fs::create_dir_all(assets.join("armies")).unwrap();
    let rules = std::fs::read_to_string(format!("{ROOT}/assets/rules/bpt.ron")).unwrap();
    // A reworded comment is no change; a number is.
    let reworded = edit(
        &rules,
        "// Every number the game uses.",
        "// Every number the game plays with.",
    );
    std::fs::write(assets.join("rules").join("bpt.ron"), &reworded).unwrap();
    for a in ["acw_union", "acw_confederate"] {
        std::fs::copy(
            format!("{ROOT}/assets/armies/{a}.ron"),
            assets.join("armies").join(format!("{a}.ron")),
        )
        .unwrap();
    }
    let out = verify_in(&dir.join("edited"), &rec);
    assert!(
        out.status.success(),
        "a reworded comment broke the recording: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let edited = edit(&rules, "poor: 40.0,", "poor: 45.0,");
    std::fs::write(assets.join("rules").join("bpt.ron"), edited).unwrap();
    let out = verify_in(&dir.join("edited"), &rec);
    assert!(!out.status.success(), "a recording verified under an edited rules file");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the rules file") && err.contains("was edited since the recording"),
        "{err}"
    );
}

#[test]
fn the_terminal_game_will_not_save_over_a_scenario() {
    use std::io::Write;
    let dir = scratch("terminal");
    let map = dir.join("map.ron");
    std::fs::write(&map, first_battle()).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["play", map.to_str().unwrap(), "--terminal"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    writeln!(child.stdin.as_mut().unwrap(), "s {}\nq", map.display()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("could not save") && text.contains("not a Volley recording"),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(&map).unwrap(),
        first_battle(),
        "the scenario was changed"
    );
}

#[test]
fn match_and_balance_show_a_progress_bar_on_a_terminal_only() {
    // Issue 17: `match` shows a progress bar like `balance`, on a terminal. `script` (util-linux,
    // in every Debian base system) gives the command a pseudo-terminal; piped, no bar is drawn.
    let bin = env!("CARGO_BIN_EXE_volley");
    for cmd in [
        format!("{bin} match maps/first_battle.ron --agent random --against random --games 3"),
        format!("{bin} balance maps/first_battle.ron --games 3 --side Union=random --side Confederate=random"),
    ] {
        let out = Command::new("script")
            .args(["-q", "-e", "-c", &cmd, "/dev/null"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .output()
            .expect("script runs");
        assert!(out.status.success(), "{cmd}: {}", String::from_utf8_lossy(&out.stderr));
        let seen = String::from_utf8_lossy(&out.stdout);
        assert!(seen.contains("] 3/3"), "{cmd}: no progress bar on a terminal: {seen}");
        let args: Vec<&str> = cmd.split(' ').skip(1).collect();
        let piped = volley(&args);
        assert!(piped.status.success());
        assert!(
            !String::from_utf8_lossy(&piped.stderr).contains("] 3/3"),
            "{cmd}: a bar into a pipe"
        );
    }
}
