//! The orders panel with nothing selected: who may act now and what each may do, a button
//! each to select it; on a big battle folded by division.

use super::entry::{Click, Entry, OrderGroup, group, titled};
use crate::battle::{Action, Battle};
use crate::report::count;
use crate::ui::common::Selection;

/// The list of who may act now, each with what it may do, to select: commanders (orders,
/// rides) first, then units, in the order their actions come.
pub(super) fn who_may_act(b: &Battle, legal: &[Action]) -> Vec<OrderGroup> {
    // (who, [(kind word, count)]) in first-seen order.
    let mut who: Vec<(Selection, Vec<(&'static str, usize)>)> = Vec::new();
    for a in legal.iter().filter(|a| group(a) != "Phase") {
        let (units, commander) = a.references();
        let s = match a {
            Action::Order { commander, .. } | Action::CommanderMove { commander, .. } => Selection {
                unit: None,
                commander: Some(*commander),
            },
            _ => match units.first() {
                Some(u) => Selection {
                    unit: Some(*u),
                    commander: None,
                },
                None => Selection { unit: None, commander },
            },
        };
        if s.unit.is_some_and(|u| u as usize >= b.units.len())
            || s.commander.is_some_and(|c| c as usize >= b.commanders.len())
        {
            continue;
        }
        let kind = summary_word(a);
        let i = match who.iter().position(|(w, _)| *w == s) {
            Some(i) => i,
            None => {
                who.push((s, Vec::new()));
                who.len() - 1
            }
        };
        let kinds = &mut who[i].1;
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    // Commanders before units.
    who.sort_by_key(|(s, _)| s.commander.is_none());
    // On a big battle, folded by division (the formations under the side's chief).
    let division = |s: &Selection| match (s.unit, s.commander) {
        (Some(u), _) => Some(b.division_of(b.unit(u).hq)),
        (None, Some(c)) => Some(b.division_of(c)),
        _ => None,
    };
    let mut divisions: Vec<Option<u32>> = who.iter().map(|(s, _)| division(s)).collect();
    divisions.sort();
    divisions.dedup();
    if divisions.len() > 1 && who.len() > WHO_FOLDED {
        let note = "Select one (here or on the table) to see its orders; each division folds.";
        return divisions
            .into_iter()
            .enumerate()
            .map(|(i, d)| {
                let mine: Vec<(Selection, Vec<(&'static str, usize)>)> =
                    who.iter().filter(|(s, _)| division(s) == d).cloned().collect();
                let name = d.map_or("Others".to_string(), |c| {
                    crate::report::intent::formation_words(b, b.commander(c))
                });
                let entries = who_entries(b, mine);
                OrderGroup {
                    title: titled(&name, entries.len()),
                    note: (i == 0).then(|| note.to_string()),
                    entries,
                    open: false,
                }
            })
            .collect();
    }
    let entries = who_entries(b, who);
    if entries.is_empty() {
        return Vec::new();
    }
    vec![OrderGroup {
        title: titled("Who may act", entries.len()),
        note: Some("Select one (here or on the table) to see its orders.".into()),
        entries,
        open: true,
    }]
}

/// More of who may act than this, on a battle of several divisions: folded by division.
const WHO_FOLDED: usize = 12;

/// Who may act, a button each: "Brig. Gen. James Archer: 6 orders, 5 rides".
fn who_entries(b: &Battle, who: Vec<(Selection, Vec<(&'static str, usize)>)>) -> Vec<Entry> {
    who.into_iter()
        .map(|(s, kinds)| {
            let name = match (s.unit, s.commander) {
                (Some(u), _) => b.unit(u).name.clone(),
                (None, Some(c)) => b.commander(c).name.clone(),
                (None, None) => String::new(),
            };
            let what: Vec<String> = kinds.iter().map(|(k, n)| kind_count(k, *n)).collect();
            Entry {
                text: format!("{name}: {}", what.join(", ")),
                click: Click::Select(s),
            }
        })
        .collect()
}

/// The kind of an action in the list of who may act.
fn summary_word(a: &Action) -> &'static str {
    match a {
        Action::CommanderMove { .. } => "ride",
        Action::Move { .. } | Action::InitiativeEvade { .. } | Action::CounterEvade { .. } => "move",
        Action::Consolidate { .. } => "consolidation",
        _ => match group(a) {
            "Order" => "order",
            "Fire" => "fire",
            "Charge" => "charge",
            _ => "deploy",
        },
    }
}

fn kind_count(kind: &str, n: usize) -> String {
    match kind {
        "fire" => format!("{} to fire at", count(n as i64, "target")),
        "deploy" if n == 1 => "1 change of formation or drill".into(),
        "deploy" => format!("{n} changes of formation or drill"),
        k => count(n as i64, k),
    }
}
