//! `volley check`: validate maps, scenarios, army lists and rules files, and say what was checked.

use super::army::ArmyList;
use super::load::read_text;
use super::validate::parse_text;
use super::{DataError, load_scenario, validate_army};
use crate::rules::params::Rules;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What one file turned out to be, and what was in it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CheckReport {
    pub file: String,
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<String>,
    /// Fighting stands per side (scenarios), or troop rows (army lists).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub stands: BTreeMap<String, u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_stands: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commanders: Option<u32>,
}

/// The kinds of file `check` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Scenario,
    ArmyList,
    Rules,
    Recording,
}

impl Kind {
    /// As `check` names it: `ok maps/x.ron (scenario)`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Scenario => "scenario",
            Kind::ArmyList => "army list",
            Kind::Rules => "rules",
            Kind::Recording => "recording",
        }
    }
}

/// The top-level fields that tell each kind apart (fields two kinds share, `version` and
/// `switches`, tell nothing).
const KIND_FIELDS: [(Kind, &[&str]); 4] = [
    (
        Kind::Scenario,
        &[
            "title",
            "brief",
            "table",
            "weather",
            "turn_limit",
            "terrain",
            "objectives",
            "sides",
            "first_side",
        ],
    ),
    (
        Kind::ArmyList,
        &["name", "troops", "commands", "exceptional_per_level", "notes"],
    ),
    (
        Kind::Rules,
        &[
            "footprints",
            "visibility",
            "initiative",
            "command",
            "movement",
            "fire",
            "charge",
            "victory",
            "artillery",
        ],
    ),
    (
        Kind::Recording,
        &[
            "scenario",
            "scenario_hash",
            "rules_version",
            "rules_hash",
            "seed",
            "actions",
            "checkpoints",
            "final_hash",
        ],
    ),
];

/// Which kind of file `text` is, by its structure: the struct name written before its
/// top-level `( … )` (`Scenario(`, `ArmyList(`, `Rules(`, `Recording(`), else the kind most of
/// whose top-level fields it has. Words in strings and comments do not count, nor does the
/// folder, except for a text with no top-level field at all (empty or broken before its first
/// field): then a file in an `armies` or `rules` folder is read as that, anything else as a
/// scenario, so the error is the one its own reader gives.
pub fn kind_of(path: &Path, text: &str) -> Kind {
    let (name, fields) = top_level(text);
    let named = match name {
        Some("Scenario") => Some(Kind::Scenario),
        Some("ArmyList") => Some(Kind::ArmyList),
        Some("Rules") => Some(Kind::Rules),
        Some("Recording") => Some(Kind::Recording),
        _ => None,
    };
    if let Some(k) = named {
        return k;
    }
    let score = |names: &[&str]| fields.iter().filter(|f| names.contains(f)).count();
    let best = KIND_FIELDS
        .iter()
        .map(|(k, names)| (score(names), *k))
        .max_by_key(|(n, _)| *n)
        .filter(|(n, _)| *n > 0);
    if let Some((_, k)) = best {
        return k;
    }
    let in_dir = |d: &str| path.components().any(|c| c.as_os_str() == d);
    if in_dir("armies") {
        Kind::ArmyList
    } else if in_dir("rules") {
        Kind::Rules
    } else {
        Kind::Scenario
    }
}

/// The struct name (if any) and the field names of a RON text's top-level `( … )`, read in one
/// pass that builds nothing: strings, characters and comments are skipped, brackets counted.
/// At most 64 field names are kept.
fn top_level(text: &str) -> (Option<&str>, Vec<&str>) {
    let b = text.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    let mut name = None;
    let mut fields = Vec::new();
    // Whether the next identifier at depth 1 may be a field name (after `(` or `,`).
    let mut expect_field = false;
    let ident_start = |c: u8| c.is_ascii_alphabetic() || c == b'_';
    let ident_char = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < b.len() {
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => i = super::load::line_comment_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = super::load::block_comment_end(b, i);
                continue;
            }
            b'#' if depth == 0 && b.get(i + 1) == Some(&b'!') => {
                while i < b.len() && b[i] != b']' {
                    i += 1;
                }
            }
            b'"' | b'\'' => {
                i = super::load::quoted_end(b, i);
                expect_field = false;
            }
            b'r' if matches!(b.get(i + 1), Some(b'"') | Some(b'#')) => {
                match super::load::raw_string_end(b, i) {
                    Some(end) => i = end,
                    None => return (name, fields),
                }
                expect_field = false;
                continue;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                expect_field = depth == 1 && c == b'(';
            }
            b')' | b']' | b'}' => {
                if depth <= 1 {
                    return (name, fields);
                }
                depth -= 1;
            }
            b',' if depth == 1 => expect_field = true,
            c if ident_start(c) => {
                let start = i;
                while i < b.len() && ident_char(b[i]) {
                    i += 1;
                }
                let word = &text[start..i];
                let mut j = i;
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                if depth == 0 && name.is_none() && b.get(j) == Some(&b'(') {
                    name = Some(word);
                } else if depth == 1
                    && expect_field
                    && b.get(j) == Some(&b':')
                    && b.get(j + 1) != Some(&b':')
                    && fields.len() < 64
                {
                    fields.push(word);
                }
                expect_field = false;
                continue;
            }
            c if c.is_ascii_whitespace() => {}
            _ => expect_field = false,
        }
        i += 1;
    }
    (name, fields)
}

/// Reads a recording for `check` (its text and file): what to say of it, or why it is refused.
/// Recordings are read by the `replay` layer, above this one, which hands its reader in
/// (`volley check` passes `replay::check_recording`).
pub type RecordingReader<'a> = &'a dyn Fn(&str, &Path) -> Result<String, DataError>;

/// What [`check_file`] says of a recording without the replay layer's reader: its syntax
/// checked, its contents left to `volley verify`.
fn recording_syntax(text: &str, path: &Path) -> Result<String, DataError> {
    parse_text::<ron::Value>(text, path)?;
    Ok("a recording (read as RON only: `volley check` and `volley verify` read it in full)".into())
}

/// Check one file: read it, tell its kind by its structure ([`kind_of`]) and check it as that
/// (a recording by its syntax only: [`check_file_with`] takes the full reader).
pub fn check_file(path: &Path) -> Result<CheckReport, DataError> {
    check_file_with(path, &recording_syntax)
}

/// [`check_file`], a recording read by `recordings`.
pub fn check_file_with(path: &Path, recordings: RecordingReader) -> Result<CheckReport, DataError> {
    let text = read_text(path)?;
    let file = path.display().to_string();
    let kind = kind_of(path, &text);
    let mut report = CheckReport {
        file,
        kind: kind.name().to_string(),
        title: None,
        sides: Vec::new(),
        stands: BTreeMap::new(),
        total_stands: None,
        units: None,
        commanders: None,
    };
    match kind {
        Kind::ArmyList => {
            super::validate::precheck_lists(&text, path)?;
            let a: ArmyList = parse_text(&text, path)?;
            validate_army(&text, path, &a)?;
            report.title = Some(a.name.clone());
            report.units = Some(a.troops.len() as u32);
            report.commanders = Some(a.commands.len() as u32);
        }
        Kind::Rules => {
            super::validate::precheck_lists(&text, path)?;
            let r: Rules = parse_text(&text, path)?;
            super::rules_file::check_rules_text(&r, &text, path)?;
            report.title = Some(r.version);
        }
        Kind::Recording => report.title = Some(recordings(&text, path)?),
        Kind::Scenario => {
            let rules = super::rules_file::load_rules(None)?;
            let armies = armies_dir_for(path);
            let sc = load_scenario(path, &armies, &super::rules_file::footprints(&rules))?;
            // The scenario's own rules file, when it names one, must be playable too.
            if sc.scenario.rules.is_some() {
                super::rules_file::load_rules(sc.scenario.rules.as_deref())?;
            }
            report.title = Some(sc.scenario.title.clone());
            let mut total = 0;
            for s in &sc.scenario.sides {
                let n: u32 = s.units.iter().map(|u| u.stands).sum();
                total += n;
                report.sides.push(s.name.clone());
                report.stands.insert(s.name.clone(), n);
            }
            report.total_stands = Some(total);
            report.units = Some(sc.scenario.sides.iter().map(|s| s.units.len() as u32).sum());
            report.commanders = Some(sc.scenario.sides.iter().map(|s| s.commanders.len() as u32).sum());
        }
    }
    Ok(report)
}

fn armies_dir_for(_scenario: &Path) -> PathBuf {
    super::rules_file::assets_dir().join("armies")
}

/// Check every file; print a line each (or a JSON object per line); fail if any is bad.
pub fn run(files: &[PathBuf], json: bool, recordings: RecordingReader) -> Result<(), String> {
    if files.is_empty() {
        return Err("check: name at least one file".into());
    }
    let mut bad = 0;
    for f in files {
        match check_file_with(f, recordings) {
            Ok(r) => {
                if json {
                    println!("{}", serde_json::to_string(&r).expect("serialises"));
                } else {
                    let mut line = format!("ok {} ({})", r.file, r.kind);
                    if let Some(t) = &r.title {
                        line += &format!(": {t}");
                    }
                    for (s, n) in &r.stands {
                        line += &format!("; {s} {n} stands");
                    }
                    if let Some(t) = r.total_stands {
                        line += &format!("; {t} in all");
                    }
                    println!("{}", super::text::printable(&line));
                }
            }
            Err(e) => {
                bad += 1;
                if json {
                    println!(
                        "{}",
                        serde_json::json!({"file": f.display().to_string(), "error": e.to_string()})
                    );
                } else {
                    eprintln!("{}", super::text::printable(&e.to_string()));
                }
            }
        }
    }
    if bad > 0 {
        Err(format!("{bad} of {} files have errors", files.len()))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_level_is_read_past_strings_comments_and_nesting() {
        let t = "// troops: in a comment\n#![enable(implicit_some)]\nScenario( /* footprints: */ title: \"troops: (\\\" footprints:\", brief: r#\"actions: \"#, table: (width: 1, troops: 2), sides: [(name: \"x\")], c: ')', )";
        assert_eq!(
            top_level(t),
            (Some("Scenario"), vec!["title", "brief", "table", "sides", "c"])
        );
        assert_eq!(top_level("(a: 1,b:2, c : 3)"), (None, vec!["a", "b", "c"]));
        assert_eq!(top_level(""), (None, vec![]));
        assert_eq!(top_level("(((("), (None, vec![]));
        assert_eq!(top_level("(a: \"unterminated"), (None, vec!["a"]));
        assert_eq!(top_level("(a: r#\"unterminated"), (None, vec!["a"]));
        assert_eq!(top_level("(x::y: 1)"), (None, vec![]));
    }

    #[test]
    fn a_kind_is_told_by_structure_and_the_folder_only_breaks_a_tie_of_nothing() {
        let p = Path::new;
        let scenario = "(title: \"t\", brief: \"troops: footprints:\", sides: [])";
        assert_eq!(kind_of(p("rules/x.ron"), scenario), Kind::Scenario);
        assert_eq!(kind_of(p("armies/x.ron"), scenario), Kind::Scenario);
        assert_eq!(
            kind_of(p("x.ron"), "(name: \"A\", troops: [], commands: [])"),
            Kind::ArmyList
        );
        assert_eq!(
            kind_of(p("x.ron"), "(version: \"v\", footprints: (), fire: ())"),
            Kind::Rules
        );
        assert_eq!(
            kind_of(
                p("x.ron"),
                "(version: 2, scenario: \"m.ron\", seed: 1, actions: [], final_hash: 3)"
            ),
            Kind::Recording
        );
        assert_eq!(kind_of(p("x.ron"), "Rules(title: \"t\")"), Kind::Rules);
        assert_eq!(kind_of(p("armies/x.ron"), ""), Kind::ArmyList);
        assert_eq!(kind_of(p("rules/x.ron"), "(("), Kind::Rules);
        assert_eq!(kind_of(p("maps/x.ron"), ""), Kind::Scenario);
        // The bundled files are what they are.
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for (dir, kind) in [
            ("maps", Kind::Scenario),
            ("assets/armies", Kind::ArmyList),
            ("assets/rules", Kind::Rules),
        ] {
            for f in std::fs::read_dir(root.join(dir)).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "ron") {
                    let text = std::fs::read_to_string(&f).unwrap();
                    assert_eq!(kind_of(Path::new("x.ron"), &text), kind, "{}", f.display());
                }
            }
        }
        let rec = std::fs::read_to_string(root.join("tests/data/recorded_first_battle_bpt3.ron")).unwrap();
        assert_eq!(kind_of(Path::new("x.ron"), &rec), Kind::Recording);
    }
}
