//! The rules file (`assets/rules/<stem>.ron`): where the assets are, loading it with its
//! content hash, refusing numbers the game cannot play, and the footprints the scenario
//! validator takes from it.

use super::load::{RonSpans, Seg, read_text};
use super::{DataError, Footprints, content_hash};
use crate::rules;
use crate::rules::params::RulePart;
use std::path::{Path, PathBuf};

/// The project's asset folder: `./assets` when run from the project, else the build's own.
pub fn assets_dir() -> PathBuf {
    let local = PathBuf::from("assets");
    if local.join("rules").is_dir() {
        local
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
    }
}

/// Rules file by stem (default `bpt`).
pub fn load_rules(stem: Option<&str>) -> Result<rules::params::Rules, DataError> {
    let path = assets_dir()
        .join("rules")
        .join(format!("{}.ron", stem.unwrap_or("bpt")));
    let text = read_text(&path)?;
    super::validate::precheck_lists(&text, &path)?;
    let mut rules: rules::params::Rules = super::validate::parse_text(&text, &path)?;
    // The numbers, not the comments or the layout: a reworded comment changes nothing.
    rules.content_hash = content_hash(ron::ser::to_string(&rules).unwrap_or_default().as_bytes());
    check_rules_text(&rules, &text, &path)?;
    Ok(rules)
}

/// Refuse rule numbers the game cannot play with ([`rules::params::Rules::problems`]: every
/// number in its range, the lists and relations the game needs), naming the place in the file
/// (read again from `path`; see [`check_rules_text`]).
pub fn check_rules(rules: &rules::params::Rules, path: &Path) -> Result<(), DataError> {
    let text = read_text(path).unwrap_or_default();
    check_rules_text(rules, &text, path)
}

/// [`check_rules`] on the file's text, already read: the problem is placed at its value in
/// `text` (`file:line:col`).
pub fn check_rules_text(rules: &rules::params::Rules, text: &str, path: &Path) -> Result<(), DataError> {
    match rules.problems() {
        None => Ok(()),
        Some(p) => {
            let segs: Vec<Seg> = p
                .path
                .iter()
                .map(|s| match *s {
                    RulePart::Field(f) => Seg::Field(f),
                    RulePart::Index(i) => Seg::Index(i),
                })
                .collect();
            Err(RonSpans::new(text).error(path, &segs, p.msg))
        }
    }
}

/// The footprints the scenario validator uses, from the rules file.
pub fn footprints(r: &rules::params::Rules) -> Footprints {
    let f = &r.footprints;
    let s = |x: rules::params::Shape| rules::layout::StandShape {
        width: x.width,
        depth: x.depth,
    };
    Footprints {
        infantry: s(f.infantry),
        cavalry: s(f.cavalry),
        gun: s(f.gun),
        limber: s(f.limber),
        command_stand: s(f.command_stand),
        commander_diameter: f.commander_diameter,
        extended_gap: f.extended_gap,
        skirmish_gap: f.skirmish_gap,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::error::line_col;
    use crate::data::parse_ron;
    use crate::rules::params::{RuleNum, Rules, rule_numbers, rule_path_name, rule_range};

    /// Every rules file the game ships, with its text.
    fn bundled() -> Vec<(PathBuf, String)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rules");
        let mut files: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|f| f.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                (p, text)
            })
            .collect();
        files.sort();
        assert!(!files.is_empty());
        files
    }

    fn segs(path: &[RulePart]) -> Vec<Seg<'static>> {
        path.iter()
            .map(|s| match *s {
                RulePart::Field(f) => Seg::Field(f),
                RulePart::Index(i) => Seg::Index(i),
            })
            .collect()
    }

    #[test]
    fn every_bundled_rules_file_passes_and_every_number_in_it_has_a_range() {
        for (path, text) in bundled() {
            let r: Rules = parse_ron(&text, &path).unwrap_or_else(|e| panic!("{e}"));
            check_rules_text(&r, &text, &path).unwrap_or_else(|e| panic!("{e}"));
            let numbers = rule_numbers(&r);
            assert!(numbers.len() > 150, "{}: {} numbers", path.display(), numbers.len());
            for (p, n) in &numbers {
                let range = rule_range(p).unwrap_or_else(|| panic!("{} has no range", rule_path_name(p)));
                let v = match n {
                    RuleNum::Float(v) => *v,
                    RuleNum::Int(v) => *v as f64,
                    RuleNum::UInt(v) => *v as f64,
                };
                assert!(range.contains(v), "{} = {v}", rule_path_name(p));
            }
        }
    }

    /// Each number of each bundled rules file, set to NaN, to -1e9 and to 1e9 in the text, is
    /// refused: by its type (NaN or a negative for a whole number) or by its range, and then
    /// with its name, at its line and column.
    #[test]
    fn every_number_made_nan_or_a_billion_either_way_is_refused_at_its_place() {
        for (path, text) in bundled() {
            let r: Rules = parse_ron(&text, &path).unwrap();
            let spans = RonSpans::new(&text);
            let mut by_range = 0;
            for (p, _) in rule_numbers(&r) {
                let name = rule_path_name(&p);
                let leaf = p
                    .iter()
                    .rev()
                    .find_map(|s| match s {
                        RulePart::Field(f) => Some(*f),
                        RulePart::Index(_) => None,
                    })
                    .unwrap();
                let at = spans.offset(&segs(&p));
                let len = text[at..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+')))
                    .unwrap();
                let written = &text[at..at + len];
                assert!(
                    written.parse::<f64>().is_ok(),
                    "{name}: {written:?} at its place in {}: every number should be written in the file",
                    path.display()
                );
                let (line, col) = line_col(&text, at);
                for wild in ["NaN", "-1000000000", "1000000000"] {
                    let bad = format!("{}{wild}{}", &text[..at], &text[at + len..]);
                    let e = match parse_ron::<Rules>(&bad, &path) {
                        Err(e) => {
                            assert_eq!(e.line, line, "{name} = {wild}: {e}");
                            continue;
                        }
                        Ok(r) => check_rules_text(&r, &bad, &path).expect_err(&format!("{name} = {wild} was accepted")),
                    };
                    assert_eq!((e.line, e.col), (line, col), "{name} = {wild}: {e}");
                    assert!(e.msg.contains(&name) && e.msg.contains(leaf), "{name} = {wild}: {e}");
                    by_range += 1;
                }
            }
            assert!(by_range > 300, "{by_range} refusals by range");
        }
    }

    #[test]
    fn relations_and_lists_are_placed_too() {
        let (path, text) = bundled().remove(0);
        let refused = |from: &str, to: &str, what: &str| {
            assert!(text.contains(from), "{from}");
            let bad = text.replacen(from, to, 1);
            let r: Rules = parse_ron(&bad, &path).unwrap();
            let e = check_rules_text(&r, &bad, &path).expect_err(to);
            assert!(e.msg.contains(what), "{e}");
            // Placed on the (last) line of the change.
            let i = bad.find(to).unwrap() + to.rfind('\n').unwrap_or(0);
            assert_eq!(e.line, line_col(&bad, i + 1).0, "{e}");
        };
        refused("one_turn: 40.0", "one_turn: 10.0", "at least order_delay.at_once");
        refused(
            "extreme_from: 12,\n        poor_from: 10,",
            "extreme_from: 9,\n        poor_from: 10,",
            "at most weather.extreme_from",
        );
        refused("improve_double: 1,", "improve_double: 6,", "one double may not do both");
        refused("poor: 40.0,", "poor: 140.0,", "farther than normal");
        refused("version: \"bpt-8\"", "version: \"\"", "version is a name");
        refused(
            "blunders: [CeaseFiring, CrossFire, Relocate, PullBack, OpenFire, LetsGetEm]",
            "blunders: [CeaseFiring, CrossFire]",
            "needs 6 entries",
        );
        refused(
            "bounce_scores: [4, 5, 6]",
            "bounce_scores: [4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6]",
            "at most 10 times",
        );
    }
}
