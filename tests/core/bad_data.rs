//! Bad data files, from the issue "Nothing shown false, nothing lost": every number of a rules
//! file in its range, a file's kind told by its structure, messages that say the real fault
//! and the limit, and what `check` used to accept silently (a line of one repeated point, lines
//! and hills of any size, empty, huge or bidi-reversed names, unknown nations). Each is refused
//! by `volley check` with `file:line:col`, never accepted.

use super::cli::volley;
use super::common::Scratch;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(rel: &str) -> String {
    std::fs::read_to_string(format!("{ROOT}/{rel}")).unwrap()
}

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("bad-{name}"))
}

/// Replace `from` by `to` once, insisting the text had it.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the test's own text lacks {from:?}");
    text.replacen(from, to, 1)
}

/// The line (1-based) of the first `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    let at = text.find(needle).unwrap_or_else(|| panic!("no {needle:?} in the text"));
    1 + text[..at].matches('\n').count()
}

/// `text` written as `dir/name` and checked with `volley check`: refused at `file:line:` and
/// naming each of `what`, with no panic and no raw control or bidi character in the message.
fn refused(dir: &Path, name: &str, text: &str, line: usize, what: &[&str]) -> String {
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    let out = volley(&["check", f.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !out.status.success(),
        "{name} was accepted: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!err.contains("panicked"), "{name}: {err}");
    let place = format!("{}:{line}:", f.display());
    assert!(err.contains(&place), "{name}: the error is not at {place}: {err}");
    for w in what {
        assert!(err.contains(w), "{name}: the error does not say {w:?}: {err}");
    }
    assert!(
        !err.chars()
            .any(|c| c == '\u{1b}' || ('\u{202a}'..='\u{202e}').contains(&c)),
        "{name}: a control or bidi character reached the terminal: {err:?}"
    );
    err
}

/// `text` written as `dir/name` is accepted by `volley check`; its `ok` line.
fn accepted(dir: &Path, name: &str, text: &str) -> String {
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    let out = volley(&["check", f.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{name} was refused: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn rules_numbers_outside_their_range_are_refused_at_their_line() {
    let dir = scratch("rules");
    let rules = dir.join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    let bpt = read("assets/rules/bpt.ron");
    // The three of the issue: a negative base (a panic in `Rect::closest_point`), a breakpoint
    // that is not a number (a game decided with no losses), 4e9 attack dice (0 rolled).
    for (k, (from, to, name)) in [
        (
            "infantry: (width: 2.5,",
            "infantry: (width: -2.5,",
            "footprints.infantry.width",
        ),
        (
            "breakpoint_fraction: 0.5",
            "breakpoint_fraction: NaN",
            "breakpoint_fraction",
        ),
        ("attacks_foot: 2,", "attacks_foot: 4000000000,", "charge.attacks_foot"),
        ("poor: 40.0,", "poor: 1e308,", "visibility.poor"),
        ("accuracy_green: 5,", "accuracy_green: 9,", "d6 score"),
        ("charging: 1,", "charging: -99,", "charge.charging"),
        (
            "fortification: (hits: 12, save: Some(3))",
            "fortification: (hits: 12, save: Some(1))",
            "save",
        ),
        (
            "bounce_scores: [4, 5, 6]",
            "bounce_scores: [4, 5, 0]",
            "bounce_scores[2]",
        ),
        ("gatling_range: 10.0", "gatling_range: inf", "gatling_range"),
    ]
    .into_iter()
    .enumerate()
    {
        let text = edit(&bpt, from, to);
        let bad = to
            .rsplit([' ', '(', '['])
            .next()
            .unwrap()
            .trim_end_matches([',', ')', ']']);
        refused(&rules, &format!("r{k}.ron"), &text, line_of(&text, to), &[name, bad]);
    }
    // Every bundled rules file still passes.
    let mut n = 0;
    for f in std::fs::read_dir(format!("{ROOT}/assets/rules")).unwrap() {
        let f = f.unwrap().path();
        let out = volley(&["check", f.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("(rules)"));
        n += 1;
    }
    assert!(n >= 1);
}

#[test]
fn a_files_kind_is_told_by_its_structure_not_by_a_word_in_it_or_its_folder() {
    let dir = scratch("kind");
    let fb = read("maps/first_battle.ron");
    // A scenario whose brief says "troops:" and "footprints:" is a scenario.
    let wordy = edit(
        &fb,
        "Learn one thing at a time.",
        "Learn one thing at a time. troops: two regiments a side; footprints: none.",
    );
    assert!(accepted(&dir, "wordy.ron", &wordy).contains("(scenario)"));
    // A scenario in a folder named `armies` or `rules` is a scenario.
    for folder in ["armies", "rules"] {
        let d = dir.join(folder);
        std::fs::create_dir_all(&d).unwrap();
        assert!(accepted(&d, "battle.ron", &fb).contains("(scenario)"), "in {folder}/");
    }
    // An army list and a rules file anywhere are what they are; so is a named scenario.
    let list = accepted(&dir, "list.ron", &read("assets/armies/acw_union.ron"));
    assert!(list.contains("(army list)"), "{list}");
    let rules = accepted(&dir, "house.ron", &read("assets/rules/bpt.ron"));
    assert!(rules.contains("(rules)"), "{rules}");
    let named = edit(&fb, "\n(\n    title:", "\nScenario(\n    title:");
    assert!(accepted(&dir, "named.ron", &named).contains("(scenario)"));
    // A recording (a saved game) is told too: parsed, and pointed to `volley verify`.
    let rec = accepted(&dir, "rec.ron", &read("tests/data/recorded_first_battle_bpt3.ron"));
    assert!(rec.contains("(recording)") && rec.contains("volley verify"), "{rec}");
    // An army list that is wrong is reported as an army list wherever it is.
    let bad_list = edit(&read("assets/armies/acw_union.ron"), "hits: 3,", "hits: 0,");
    refused(
        &dir,
        "bad_list.ron",
        &bad_list,
        line_of(&bad_list, "hits: 0,"),
        &["hits must be 1..=100"],
    );
}

#[test]
fn messages_say_the_limit_and_the_real_fault() {
    let dir = scratch("msgs");
    let fb = read("maps/first_battle.ron");
    // A facing of 7200.5 is finite: the message says the limit.
    let t = edit(
        &fb,
        "facing: 270, commander: \"cs_co\"),",
        "facing: 7200.5, commander: \"cs_co\"),",
    );
    let e = refused(&dir, "facing.ron", &t, line_of(&t, "7200.5"), &["7200.5", "3600"]);
    assert!(!e.contains("finite"), "{e}");
    // 1e7 is finite too: the message says the limit, for a unit and for a point of a polygon.
    let t = edit(&fb, "pos: (x: 78, y: 62)", "pos: (x: 10000000, y: 62)");
    let e = refused(&dir, "coord.ron", &t, line_of(&t, "10000000"), &["1000000 cm"]);
    assert!(!e.contains("not a finite"), "{e}");
    let t = edit(
        &fb,
        "(x: 84, y: 40), (x: 84, y: 52)",
        "(x: 84, y: 40), (x: 10000000, y: 52)",
    );
    let e = refused(&dir, "coord2.ron", &t, line_of(&t, "10000000"), &["1000000 cm"]);
    assert!(!e.contains("not a finite"), "{e}");
    let t = edit(&fb, "(x: 84, y: 40), (x: 84, y: 52)", "(x: 84, y: 40), (x: NaN, y: 52)");
    refused(&dir, "nan.ron", &t, line_of(&t, "NaN"), &["not a finite"]);
    // A repeated point of a polygon is a repeated point, not crossing edges: next to itself,
    // or the first point given again at the end.
    let t = edit(
        &fb,
        "(x: 70, y: 40), (x: 84, y: 40), (x: 84, y: 52), (x: 70, y: 52),",
        "(x: 70, y: 40), (x: 84, y: 40), (x: 84, y: 40), (x: 84, y: 52), (x: 70, y: 52),",
    );
    let e = refused(&dir, "rep.ron", &t, line_of(&t, "(x: 84, y: 40), (x: 84"), &["repeat"]);
    assert!(!e.contains("cross"), "{e}");
    let t = edit(
        &fb,
        "(x: 84, y: 52), (x: 70, y: 52),",
        "(x: 84, y: 52), (x: 70, y: 52), (x: 70, y: 40),",
    );
    let e = refused(
        &dir,
        "closed.ron",
        &t,
        line_of(&t, "(x: 84, y: 52), (x: 70"),
        &["repeat"],
    );
    assert!(!e.contains("cross"), "{e}");
}

#[test]
fn files_with_old_mac_or_windows_line_ends_are_placed_on_the_right_line() {
    let dir = scratch("cr");
    // Without its comments (a `//` comment runs to a line feed) and with a bad facing.
    let fb: String = read("maps/first_battle.ron")
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    let t = edit(
        &fb,
        "facing: 270, commander: \"cs_co\"),",
        "facing: 99999, commander: \"cs_co\"),",
    );
    let line = line_of(&t, "99999");
    assert!(line > 50);
    refused(&dir, "lf.ron", &t, line, &["facing"]);
    refused(&dir, "crlf.ron", &t.replace('\n', "\r\n"), line, &["facing"]);
    refused(&dir, "cr.ron", &t.replace('\n', "\r"), line, &["facing"]);
    // A fault the parser finds (a number missing) too.
    let t = edit(
        &fb,
        "stands: 4,\n                 formation: Line, pos: (x: 78, y: 62)",
        "stands: ,\n                 formation: Line, pos: (x: 78, y: 62)",
    );
    let line = line_of(&t, "stands: ,");
    refused(&dir, "lf2.ron", &t, line, &["Expected"]);
    refused(&dir, "cr2.ron", &t.replace('\n', "\r"), line, &["Expected"]);
}

/// First Battle with one more line of terrain: `(kind: …, points: [POINTS])`.
fn with_line(fb: &str, kind: &str, points: &str) -> String {
    edit(
        fb,
        "        linears: [\n",
        &format!("        linears: [\n            (kind: {kind}, name: \"Added\", points: [{points}]),\n"),
    )
}

#[test]
fn degenerate_and_oversized_terrain_is_refused() {
    let dir = scratch("terrain");
    let fb = read("maps/first_battle.ron");
    // A fence of two identical points has no length.
    let t = edit(&fb, "(x: 40, y: 42), (x: 56, y: 42)", "(x: 40, y: 42), (x: 40, y: 42)");
    refused(&dir, "two.ron", &t, line_of(&t, "(x: 40, y: 42), (x: 40"), &["repeat"]);
    // A road with a point given twice in a row.
    let t = with_line(
        &fb,
        "Road",
        "(x: 1, y: 60), (x: 5, y: 60), (x: 5, y: 60), (x: 9, y: 61)",
    );
    refused(&dir, "twice.ron", &t, line_of(&t, "\"Added\""), &["repeat"]);
    // A hedge of 1,001 points; one of 200,000 (refused quickly, before anything else).
    let pts = |n: usize| {
        (0..n)
            .map(|i| format!("(x: {}, y: 89.5)", i as f64 * 0.1))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let ok = with_line(&fb, "Hedge", &pts(1000));
    accepted(&dir, "thousand.ron", &ok);
    let t = with_line(&fb, "Hedge", &pts(1001));
    refused(
        &dir,
        "many.ron",
        &t,
        line_of(&t, "\"Added\""),
        &["1001 points", "at most 1000"],
    );
    let t = with_line(&fb, "Hedge", &pts(200_000));
    let started = std::time::Instant::now();
    refused(
        &dir,
        "huge.ron",
        &t,
        line_of(&t, "\"Added\""),
        &["more than 2000 points in one list", "at most 1000"],
    );
    eprintln!("200,000 points refused in {:?}", started.elapsed());
    // A hill of 21 nested contours (20 are fine).
    let hill = |n: usize| {
        let contours: Vec<String> = (0..n)
            .map(|k| {
                let (hw, hh) = (20.0 - k as f64 * 0.9, 6.5 - k as f64 * 0.3);
                format!(
                    "(height: {}, outline: Polygon([(x: {}, y: {}), (x: {}, y: {}), (x: {}, y: {}), (x: {}, y: {})]))",
                    k + 1,
                    60.0 - hw,
                    9.0 - hh,
                    60.0 + hw,
                    9.0 - hh,
                    60.0 + hw,
                    9.0 + hh,
                    60.0 - hw,
                    9.0 + hh
                )
            })
            .collect();
        edit(
            &fb,
            "        hills: [\n",
            &format!(
                "        hills: [\n            (name: \"Terraced\", contours: [{}]),\n",
                contours.join(", ")
            ),
        )
    };
    accepted(&dir, "hill20.ron", &hill(20));
    let t = hill(21);
    refused(
        &dir,
        "hill21.ron",
        &t,
        line_of(&t, "\"Terraced\""),
        &["21 contours", "at most 20"],
    );
}

#[test]
fn names_are_one_to_eighty_visible_characters() {
    let dir = scratch("names");
    let fb = read("maps/first_battle.ron");
    let unit = "\"5th New Hampshire\"";
    let t = edit(&fb, unit, "\"\"");
    refused(&dir, "empty.ron", &t, line_of(&t, "name: \"\""), &["empty"]);
    let t = edit(&fb, unit, "\"   \"");
    refused(&dir, "blank.ron", &t, line_of(&t, "name: \"   \""), &["empty"]);
    let long = format!("\"{}\"", "x".repeat(81));
    let t = edit(&fb, unit, &long);
    refused(
        &dir,
        "long.ron",
        &t,
        line_of(&t, &long),
        &["81 characters", "at most 80"],
    );
    let huge = format!("\"{}\"", "x".repeat(1 << 20));
    let t = edit(&fb, unit, &huge);
    let e = refused(&dir, "huge.ron", &t, line_of(&t, &huge), &["at most 80"]);
    assert!(e.len() < 2000, "the message quotes the whole name: {} bytes", e.len());
    let t = edit(&fb, unit, &format!("\"{}\"", "é".repeat(80)));
    accepted(&dir, "eighty.ron", &t);
    // A right-to-left override (U+202E) or isolate (U+2066) in a name or the brief would
    // print text reversed: refused, and shown escaped.
    let t = edit(&fb, unit, "\"5th New \u{202e}erihspmaH\"");
    refused(&dir, "rlo.ron", &t, line_of(&t, "erihspmaH"), &["\\u{202e}"]);
    let t = edit(&fb, "\"Col. William Ashby\"", "\"Col. \u{2066}William Ashby\"");
    refused(&dir, "lri.ron", &t, line_of(&t, "William Ashby"), &["\\u{2066}"]);
    let t = edit(&fb, "Your first battle", "Your \u{202e}first battle");
    refused(&dir, "brief.ron", &t, line_of(&t, "first battle"), &["\\u{202e}"]);
    let t = edit(&fb, "\"Hickory orchard\"", "\"Hickory\u{200f} orchard\"");
    refused(&dir, "rlm.ron", &t, line_of(&t, "orchard\""), &["\\u{200f}"]);
    // In an army list too.
    let armies = dir.join("armies");
    std::fs::create_dir_all(&armies).unwrap();
    let list = read("assets/armies/acw_union.ron");
    let t = edit(&list, "name: \"US Engineers\"", "name: \"US \u{202e}Engineers\"");
    refused(&armies, "list.ron", &t, line_of(&t, "Engineers\""), &["\\u{202e}"]);
}

#[test]
fn nations_must_be_known_on_their_side() {
    let dir = scratch("nations");
    let pen = read("maps/peninsula.ron");
    accepted(&dir, "ok.ron", &pen);
    let obeys = "obeys: {\"Portuguese\": [\"British\"]}";
    // A nation no unit has in `obeys`; an HQ nation no commander has.
    let t = edit(&pen, obeys, "obeys: {\"Portugese\": [\"British\"]}");
    refused(
        &dir,
        "key.ron",
        &t,
        line_of(&t, "Portugese"),
        &["\"Portugese\"", "nation"],
    );
    let t = edit(&pen, obeys, "obeys: {\"Portuguese\": [\"Britsh\"]}");
    refused(&dir, "value.ron", &t, line_of(&t, "Britsh"), &["\"Britsh\"", "nation"]);
    // A unit of a nation no HQ of the side shares and no `obeys` names: only the CO could
    // order it (a misspelling).
    let t = edit(&pen, "nation: Some(\"Portuguese\")", "nation: Some(\"Portugese\")");
    refused(
        &dir,
        "unit.ron",
        &t,
        line_of(&t, "Portugese"),
        &["\"Portugese\"", "nation"],
    );
    // A commander of a nation no unit has and no `obeys` names: he could order nobody.
    let t = edit(
        &pen,
        "row: \"brigade_average\", superior: Some(\"gb_div\"),",
        "row: \"brigade_average\", superior: Some(\"gb_div\"), nation: Some(\"Spanish\"),",
    );
    refused(&dir, "hq.ron", &t, line_of(&t, "Spanish"), &["\"Spanish\"", "nation"]);
    // A nation is a name like any other.
    let t = edit(&pen, "nation: Some(\"Portuguese\")", "nation: Some(\"\")");
    refused(&dir, "blank.ron", &t, line_of(&t, "nation: Some(\"\")"), &["empty"]);
}

/// Every number of the rules at each end of its range: the file is accepted, and a short game
/// (random agents, 300 actions at most) on First Battle plays without a panic (a base too big
/// for the scenario is refused by the scenario's checks: that is an answer too).
#[test]
fn every_number_at_its_bounds_plays_without_a_panic() {
    use volley::data::load::{RonSpans, Seg};
    use volley::rules::params::{RuleNum, RulePart, Rules, rule_numbers, rule_path_name, rule_range};
    let path = Path::new(ROOT).join("assets/rules/bpt.ron");
    let text = read("assets/rules/bpt.ron");
    let rules: Rules = volley::data::parse_ron(&text, &path).unwrap();
    let spans = RonSpans::new(&text);
    let map = Path::new(ROOT).join("maps/first_battle.ron");
    let armies = Path::new(ROOT).join("assets/armies");
    let mut failures = Vec::new();
    let (mut played, mut unfit) = (0, 0);
    for (p, n) in rule_numbers(&rules) {
        let name = rule_path_name(&p);
        let range = rule_range(&p).unwrap();
        let segs: Vec<Seg> = p
            .iter()
            .map(|s| match *s {
                RulePart::Field(f) => Seg::Field(f),
                RulePart::Index(i) => Seg::Index(i),
            })
            .collect();
        let at = spans.offset(&segs);
        let len = text[at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+')))
            .unwrap();
        let float = matches!(n, RuleNum::Float(_));
        let lo = if range.lo_open {
            range.lo + if float { 0.01 } else { 1.0 }
        } else {
            range.lo
        };
        for v in [lo, range.hi] {
            let written = if float {
                format!("{v:?}")
            } else {
                format!("{}", v as i64)
            };
            let bad = format!("{}{written}{}", &text[..at], &text[at + len..]);
            let r: Rules = match volley::data::parse_ron(&bad, &path) {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{name} = {written}: {e}"));
                    continue;
                }
            };
            if let Err(e) = volley::data::rules_file::check_rules_text(&r, &bad, &path) {
                // A relation may refuse one end (poor sight beyond normal): that is a refusal.
                assert!(!e.msg.contains("must be"), "{name} = {written}: {e}");
                continue;
            }
            let run = std::panic::catch_unwind(|| -> Result<(), String> {
                let fp = volley::footprints(&r);
                let Ok(loaded) = volley::data::load_scenario(&map, &armies, &fp) else {
                    return Err("unfit".into());
                };
                let (b, _) = volley::battle::Battle::new(&loaded, r.clone(), 7);
                let mut agents = [
                    volley::agents::by_name("random", 7, 0)?,
                    volley::agents::by_name("random", 7, 1)?,
                ];
                volley::sim::play(b, &mut agents, 300, |_, _, _| {}).map_err(|e| e.to_string())?;
                Ok(())
            });
            match run {
                Ok(Ok(())) => played += 1,
                Ok(Err(e)) if e == "unfit" => unfit += 1,
                Ok(Err(e)) => failures.push(format!("{name} = {written}: {e}")),
                Err(_) => failures.push(format!("{name} = {written}: panicked")),
            }
        }
    }
    eprintln!("{played} games played, {unfit} bounds the scenario does not fit");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
