//! Issue 15: the crate's module graph has no import circle across files, and no module imports
//! one from a layer above it. The graph is read from the sources: every `crate::…` and
//! `super::…` path, and a `mod.rs`'s paths into its own children, resolved to the file that
//! holds the module (test modules at the end of a file left out; `main.rs` is its own crate).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn modules() -> BTreeMap<String, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, root, out);
            } else if p.extension().is_some_and(|x| x == "rs") && p != root.join("main.rs") {
                let rel = p.strip_prefix(root).unwrap().with_extension("");
                let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
                if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    parts.pop();
                }
                let src = std::fs::read_to_string(&p).unwrap();
                let src = src.split("#[cfg(test)]").next().unwrap().to_string();
                let is_mod = matches!(p.file_stem().and_then(|s| s.to_str()), Some("mod" | "lib" | "main"));
                out.insert(parts.join("::"), format!("{}{src}", if is_mod { "\u{1}" } else { "" }));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    walk(&root, &root, &mut out);
    out
}

/// Paths like `a::b::c` in `src` after `prefix` (`crate::`, `super::`…).
fn paths_after<'a>(src: &'a str, prefix: &str) -> Vec<Vec<&'a str>> {
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        out.push(rest[..end].split("::").filter(|s| !s.is_empty()).collect());
    }
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let files = modules();
    let resolve = |path: &[&str]| -> Option<String> {
        (1..=path.len())
            .rev()
            .map(|k| path[..k].join("::"))
            .find(|m| files.contains_key(m))
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, src) in &files {
        let is_mod = src.starts_with('\u{1}');
        let src: String = src
            .lines()
            .map(|l| l.split("//").next().unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        let here: Vec<&str> = if m.is_empty() { vec![] } else { m.split("::").collect() };
        let mut to = BTreeSet::new();
        for p in paths_after(&src, "crate::") {
            to.extend(resolve(&p));
        }
        // `super::super::x`: count the supers.
        for p in paths_after(&src, "super::") {
            let ups = 1 + p.iter().take_while(|s| **s == "super").count();
            let p: Vec<&str> = p.into_iter().skip_while(|s| *s == "super").collect();
            let mut base = here.clone();
            let drop = if is_mod { ups - 1 } else { ups };
            base.truncate(base.len().saturating_sub(drop));
            let full: Vec<&str> = base.iter().copied().chain(p).collect();
            to.extend(resolve(&full));
        }
        if is_mod {
            // A mod.rs naming its own children (`terrain::plugin`, `pub use child::X`).
            for (child, _) in files.iter().filter(|(c, _)| {
                c.rsplit_once("::").map(|(parent, _)| parent).unwrap_or("") == m.as_str() && !c.is_empty() && *c != m
            }) {
                let name = child.rsplit("::").next().unwrap();
                if src.contains(&format!("{name}::")) {
                    to.insert(child.clone());
                }
            }
        }
        to.remove(m);
        edges.insert(m.clone(), to);
    }
    edges
}

/// Strongly connected components of more than one module.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Kosaraju: finishing order, then the reversed graph.
    fn visit(v: &str, e: &BTreeMap<String, BTreeSet<String>>, seen: &mut BTreeSet<String>, order: &mut Vec<String>) {
        if !seen.insert(v.to_string()) {
            return;
        }
        for w in e.get(v).into_iter().flatten() {
            visit(w, e, seen, order);
        }
        order.push(v.to_string());
    }
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    for v in edges.keys() {
        visit(v, edges, &mut seen, &mut order);
    }
    let mut rev: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (v, ws) in edges {
        for w in ws {
            rev.entry(w.clone()).or_default().insert(v.clone());
        }
    }
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for v in order.iter().rev() {
        let mut comp = Vec::new();
        visit(v, &rev, &mut done, &mut comp);
        if comp.len() > 1 {
            comp.sort();
            out.push(comp);
        }
    }
    out
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let edges = graph();
    assert!(edges.len() > 100, "the sources were read ({} modules)", edges.len());
    assert!(edges["ui::camera"].contains("ui::common"), "edges are found");
    assert_eq!(circles(&edges), Vec::<Vec<String>>::new());
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let mut e: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    e.insert("a".into(), ["b".to_string()].into());
    e.insert("b".into(), ["c".to_string()].into());
    e.insert("c".into(), ["a".to_string()].into());
    e.insert("d".into(), ["a".to_string()].into());
    assert_eq!(circles(&e), vec![vec!["a".to_string(), "b".into(), "c".into()]]);
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    // Bottom to top; a module may import its own layer and those below.
    let layer = |m: &str| match m.split("::").next().unwrap_or("") {
        "rules" => 0,
        "data" => 1,
        "battle" => 2,
        "view" => 3,
        "report" => 3,
        "agents" | "replay" | "editor" => 3,
        "sim" | "terminal" | "ui" | "server" => 4,
        "app" => 4,
        _ => 5,
    };
    let up: Vec<(String, String)> = graph()
        .into_iter()
        .flat_map(|(m, to)| to.into_iter().map(move |t| (m.clone(), t)))
        .filter(|(m, t)| layer(t) > layer(m))
        .collect();
    assert_eq!(up, Vec::<(String, String)>::new());
}

/// The modules (test code left out) that call one of the battle's doors outside play.
fn callers_of_set_up_doors(modules: &BTreeMap<String, String>) -> BTreeSet<String> {
    const DOORS: [&str; 5] = [
        ".arrange(",
        ".arranging()",
        ".arrange_lazily(",
        ".apply_changes(",
        ".set_dice(",
    ];
    modules
        .iter()
        .filter(|(m, src)| m.as_str() != "battle::state" && DOORS.iter().any(|d| src.contains(d)))
        .map(|(m, _)| m.clone())
        .collect()
}

#[test]
fn only_set_up_code_changes_a_battle_outside_the_one_mutator() {
    // Issue 63: in play the battle changes only through `Battle::apply_change` (its state is
    // private to `battle::state`); the doors that set a position up outside play are called
    // only by the code that sets positions up: cutting the turn limit before play, a side's
    // mirror of a snapshot, the online table's count of actions, and the scheduler's
    // hypothetical copies (its search, its plans' play-outs, and a side's copy without the
    // enemy it does not know of). Never the action pipeline, the table or the app.
    let allowed: BTreeSet<String> = [
        "battle::setup",
        "view::mirror",
        "ui::online::table",
        "agents::scheduler::evaluate",
        "agents::scheduler::lookahead",
        "agents::scheduler",
        "agents::perception",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(callers_of_set_up_doors(&modules()), allowed);
}

#[test]
fn the_set_up_door_finder_finds_a_call() {
    let mut m = BTreeMap::new();
    m.insert(
        "ui::table".to_string(),
        "fn f(b: &mut Battle) { b.arranging().phase = Phase::End; }".to_string(),
    );
    m.insert(
        "ui::panel".to_string(),
        "fn g(b: &Battle) -> u32 { b.player_turn }".to_string(),
    );
    m.insert(
        "battle::state".to_string(),
        "pub fn arrange(&mut self) { self.arrange(|s| ()) }".to_string(),
    );
    assert_eq!(callers_of_set_up_doors(&m), ["ui::table".to_string()].into());
}
