//! `volley check`: validate maps, scenarios, army lists and rules files, and say what was checked.

use super::army::ArmyList;
use super::load::read_text;
use super::{DataError, load_army, load_ron, load_scenario};
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

/// Which kind of file, from its place and its first field.
fn kind_of(path: &Path, text: &str) -> &'static str {
    let in_dir = |d: &str| path.components().any(|c| c.as_os_str() == d);
    if in_dir("armies") || text.contains("troops:") {
        "army list"
    } else if in_dir("rules") || text.contains("footprints:") {
        "rules"
    } else {
        "scenario"
    }
}

/// Check one file.
pub fn check_file(path: &Path) -> Result<CheckReport, DataError> {
    let text = read_text(path)?;
    let file = path.display().to_string();
    let mut report = CheckReport {
        file,
        kind: kind_of(path, &text).to_string(),
        title: None,
        sides: Vec::new(),
        stands: BTreeMap::new(),
        total_stands: None,
        units: None,
        commanders: None,
    };
    match report.kind.as_str() {
        "army list" => {
            let a: ArmyList = load_army(path)?;
            report.title = Some(a.name.clone());
            report.units = Some(a.troops.len() as u32);
            report.commanders = Some(a.commands.len() as u32);
        }
        "rules" => {
            let r: Rules = load_ron(path)?;
            super::rules_file::check_rules(&r, path)?;
            report.title = Some(r.version);
        }
        _ => {
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
pub fn run(files: &[PathBuf], json: bool) -> Result<(), String> {
    if files.is_empty() {
        return Err("check: name at least one file".into());
    }
    let mut bad = 0;
    for f in files {
        match check_file(f) {
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
