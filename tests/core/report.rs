//! Issue 63, "One report layer": what an event means is said in `src/report` only. No code
//! outside it matches on event kinds (a `match` arm, `matches!`, `if let` or `let … else` on an
//! `Event::` variant; building events in the core is fine), and no code reads the log's words
//! back (the hand-over, the dice panel and the animation read events). Test modules at the end
//! of a file are left out (they check the core's events themselves).

use std::path::Path;

/// Every source file under `src/` but the report layer, with its path and its code before its
/// test module.
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            if p.is_dir() {
                if rel != "report" {
                    walk(&p, root, out);
                }
            } else if p.extension().is_some_and(|x| x == "rs") {
                let src = std::fs::read_to_string(&p).unwrap();
                let code = src.split("#[cfg(test)]").next().unwrap().to_string();
                out.push((rel, code));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out
}

fn ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The event families' enums (`MovementEvent`, `FireEvent` …), read from `src/battle/event/`.
fn family_enums() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/battle/event");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let src = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for line in src.lines() {
            if let Some(name) = line.strip_prefix("pub enum ").and_then(|r| r.strip_suffix(" {"))
                && name.ends_with("Event")
                && name != "Event"
            {
                out.push(name.to_string());
            }
        }
    }
    out.sort();
    out
}

/// The names `Event` and its families go by in `src` (`Event`, each family's enum, and `X`
/// for `use …::Event as X`).
fn event_names(src: &str) -> Vec<String> {
    let mut names = vec!["Event".to_string()];
    names.extend(family_enums());
    let mut rest = src;
    while let Some(i) = rest.find("Event as ") {
        rest = &rest[i + "Event as ".len()..];
        let alias: String = rest.chars().take_while(|&c| ident(c)).collect();
        if !alias.is_empty() {
            names.push(alias);
        }
    }
    names
}

/// The end of the balanced group opening at `s[0]` (`{`, `(` or `[`), or 0 if none opens there.
fn group_end(s: &str) -> usize {
    let open = match s.chars().next() {
        Some(c @ ('{' | '(' | '[')) => c,
        _ => return 0,
    };
    let close = match open {
        '{' => '}',
        '(' => ')',
        _ => ']',
    };
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return i + 1;
            }
        }
    }
    s.len()
}

/// The variants of `Event` (by any of its names) that `src` matches on, with the line of each:
/// a variant followed (after its fields and any closing brackets) by `=>`, `|`, a guard `if`
/// or a `let`'s `=`, or named in the pattern of a `matches!`.
fn matched_variants(src: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let line_of = |i: usize| src[..i].matches('\n').count() + 1;
    for name in event_names(src) {
        let needle = format!("{name}::");
        let mut from = 0;
        while let Some(k) = src[from..].find(&needle) {
            let at = from + k;
            from = at + needle.len();
            if src[..at].chars().next_back().is_some_and(ident) {
                continue;
            }
            let after = &src[at + needle.len()..];
            let variant: String = after.chars().take_while(|&c| ident(c)).collect();
            if !variant.starts_with(|c: char| c.is_uppercase()) {
                continue;
            }
            let mut rest = after[variant.len()..].trim_start();
            rest = rest[group_end(rest)..].trim_start();
            while let Some(r) = rest.strip_prefix(')') {
                rest = r.trim_start();
            }
            let pattern = rest.starts_with("=>")
                || (rest.starts_with('|') && !rest.starts_with("||"))
                || rest.starts_with("if ")
                || (rest.starts_with('=') && !rest.starts_with("==") && !rest.starts_with("=>"))
                || in_matches_pattern(src, at);
            if pattern {
                out.push((line_of(at), format!("{name}::{variant}")));
            }
        }
    }
    out.sort();
    out
}

/// Whether position `at` lies in the pattern of a `matches!(value, pattern)`.
fn in_matches_pattern(src: &str, at: usize) -> bool {
    let mut from = 0;
    while let Some(k) = src[from..].find("matches!(") {
        let open = from + k + "matches!".len();
        let end = open + group_end(&src[open..]);
        from = open;
        if at < open || at >= end {
            continue;
        }
        // The first comma at the top level of the macro's arguments ends the value.
        let mut depth = 0;
        for (i, c) in src[open..end].char_indices() {
            match c {
                '(' | '{' | '[' => depth += 1,
                ')' | '}' | ']' => depth -= 1,
                ',' if depth == 1 => return at > open + i,
                _ => {}
            }
        }
    }
    false
}

/// Reading the log's words back: what the hand-over, the dice panel and the animation once did.
const TEXT_PARSING: &[&str] = &[
    "\" moves \"",
    "\"Charge on ",
    "ends_with(\"canister\")",
    "starts_with(\"— \")",
    "\" phase —\"",
    ".text.contains(",
    ".text.starts_with(",
    ".text.ends_with(",
    ".text.strip_prefix(",
    ".text.split",
    ".text.find(",
];

#[test]
fn the_detector_finds_every_way_of_matching_an_event_and_not_building_one() {
    let src = r#"
        use crate::battle::Event as E;
        fn f(e: &Event, ev: &mut Vec<Event>) {
            ev.push(Event::Disordered { unit: 1 });
            let x = Some(Event::SideBroken { side: 0 });
            match e {
                Event::Moved { unit, .. } if *unit > 0 => {}
                Event::Fired { .. }
                | Event::RoundShot { .. } => {}
                _ => {}
            }
            if let Event::PhaseStarted { phase, .. } = e {}
            let Event::GameOver { .. } = e else { return };
            assert!(matches!(e, E::CombatRound { .. }));
            let _ = matches!(Some(Event::Halted { unit: 0, by: 1 }), x);
            let w = WindowEvent::CursorMoved(c);
            match w { WindowEvent::Focused(_) => {} }
            match o { Some(Event::Blunder { .. }) => {} }
            ev.push(Event::Melee(MeleeEvent::Retreated { unit: 1, from, to }));
            match e { Event::Melee(MeleeEvent::Retreated { .. }) => {} _ => {} }
            if let Some(MoraleEvent::Suppressed { .. }) = m {}
        }
    "#;
    let found: Vec<String> = matched_variants(src).into_iter().map(|(_, v)| v).collect();
    assert_eq!(
        found,
        [
            "Event::Moved",
            "Event::Fired",
            "Event::RoundShot",
            "Event::PhaseStarted",
            "Event::GameOver",
            "E::CombatRound",
            "Event::Blunder",
            "Event::Melee",
            "MeleeEvent::Retreated",
            "MoraleEvent::Suppressed",
        ]
    );
}

#[test]
fn no_code_outside_the_report_matches_on_event_kinds() {
    let found: Vec<String> = sources()
        .iter()
        .flat_map(|(path, code)| {
            matched_variants(code)
                .into_iter()
                .map(move |(line, v)| format!("src/{path}:{line}: {v}"))
        })
        .collect();
    assert_eq!(found, Vec::<String>::new(), "ask `volley::report` what an event means");
}

#[test]
fn no_code_reads_the_logs_words_back() {
    let mut found = Vec::new();
    for (path, code) in sources() {
        for (n, line) in code.lines().enumerate() {
            for p in TEXT_PARSING {
                if line.contains(p) {
                    found.push(format!("src/{path}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert_eq!(found, Vec::<String>::new(), "read the events, not the log's text");
}

/// Every event of a game's worth of actions in every bundled scenario has a line, and the
/// report's facts agree with its line where both say something: an event with dice settles
/// the action, and a phase mark is the line that opens a phase.
#[test]
fn every_event_of_played_games_is_reported() {
    use volley::report::{self, Mark};
    let mut kinds = std::collections::BTreeSet::new();
    for path in [
        "maps/skirmish.ron",
        "maps/first_battle.ron",
        "maps/morale_demo.ron",
        "maps/constructions_demo.ron",
        "maps/scouting_demo.ron",
        "maps/delay_demo.ron",
        "maps/initiative_demo.ron",
    ] {
        let (mut b, setup) = volley::load_battle(Path::new(path), 7).expect("a bundled scenario");
        let mut agents = [0, 1].map(|s| volley::agents::by_name("eager", 7, s).expect("agent"));
        let mut events = setup;
        for _ in 0..400 {
            if b.is_over() {
                break;
            }
            let legal = b.legal_actions();
            let a = legal[agents[b.actor()].choose(&b, &legal).min(legal.len() - 1)].clone();
            events.extend(b.apply(&a).expect("legal"));
        }
        for e in &events {
            let line = report::line(&b, e);
            assert!(!line.is_empty(), "{e:?}");
            let facts = report::facts(e);
            if !facts.throws.is_empty() {
                assert!(facts.settles, "{line}: dice without settling");
            }
            if let Some(Mark::PhaseStarted { .. }) = facts.mark {
                assert!(line.starts_with("— Turn ") && line.ends_with(" phase —"), "{line}");
                assert!(report::flow::player_turn_of(&b, e).is_some_and(|t| line.contains(&t)));
            }
            kinds.insert(format!("{e:?}").split([' ', '(', '{']).next().unwrap_or("").to_string());
        }
    }
    assert!(kinds.len() >= 10, "a varied game: {kinds:?}");
}

/// Issue 63, "the core speaks no English": the words of an event are the report's. A field of
/// an event type (`src/battle/event/`), or of the state an event is copied from (the passed
/// initiative's reason, the result's reason), holds ids, numbers and typed values, never text
/// built in the core: the report turns them into words. `String` (or `str`) is allowed only
/// for the fields listed here, each a key or name from the data files.
#[test]
fn events_carry_no_words() {
    /// `Type.field` (or `Type::Variant.field`) that may hold a `String`: data keys and names.
    const ALLOWED: &[&str] = &[];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/battle");
    let state = std::fs::read_to_string(root.join("state.rs")).unwrap();
    let reasons = std::fs::read_to_string(root.join("reasons.rs")).unwrap();
    // Every family's module of `battle/event/`.
    let mut found = Vec::new();
    let mut families: Vec<_> = std::fs::read_dir(root.join("event"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    families.sort();
    assert!(families.len() > 10, "the event families are read");
    for f in families {
        found.extend(string_fields(&std::fs::read_to_string(f).unwrap(), None));
    }
    found.extend(string_fields(&reasons, None));
    found.extend(string_fields(&state, Some(&["Passing", "Outcome"])));
    found.retain(|f| !ALLOWED.contains(&f.as_str()));
    assert_eq!(found, Vec::<String>::new(), "a typed value the report words, not text");
}

/// The fields of the structs and enums in `src` (only those named in `only`, if given) whose
/// type names `String` or `str`, as `Type.field` / `Type::Variant.field`.
fn string_fields(src: &str, only: Option<&[&str]>) -> Vec<String> {
    let code = src.split("#[cfg(test)]").next().unwrap();
    let mut out = Vec::new();
    let (mut ty, mut variant): (Option<String>, Option<String>) = (None, None);
    for line in code.lines() {
        let line = line.split("//").next().unwrap();
        let t = line.trim();
        if line.starts_with("pub struct ") || line.starts_with("pub enum ") || line.starts_with("impl") {
            let name: String = t
                .split_whitespace()
                .nth(2)
                .unwrap_or("")
                .chars()
                .take_while(|&c| ident(c))
                .collect();
            let wanted = t.starts_with("pub") && only.is_none_or(|o| o.contains(&name.as_str()));
            ty = wanted.then_some(name);
            variant = None;
            // A tuple struct: `pub struct X(String);`.
            if let Some(n) = &ty
                && has_string(t)
            {
                out.push(format!("{n}.0"));
            }
            continue;
        }
        if line.starts_with('}') {
            ty = None;
            continue;
        }
        let Some(n) = &ty else { continue };
        let indent = line.len() - line.trim_start().len();
        if indent == 4 && t.chars().next().is_some_and(|c| c.is_uppercase()) {
            // An enum variant: `Name {`, `Name(String),` or `Name,`.
            let name: String = t.chars().take_while(|&c| ident(c)).collect();
            variant = Some(name.clone());
            if has_string(t) {
                out.push(format!("{n}::{name}.0"));
            }
            continue;
        }
        if has_string(t) && !t.starts_with('#') {
            let field: String = t.trim_start_matches("pub ").chars().take_while(|&c| ident(c)).collect();
            out.push(match &variant {
                Some(v) if indent > 4 => format!("{n}::{v}.{field}"),
                _ => format!("{n}.{field}"),
            });
        }
    }
    out
}

/// Whether a line of code names the type `String` or `str` (not `to_string`, `string_of`...).
fn has_string(t: &str) -> bool {
    let mut words = t.split(|c: char| !ident(c));
    words.any(|w| w == "String" || w == "str")
}
