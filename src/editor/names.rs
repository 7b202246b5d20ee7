//! The scenario's units, commanders and army rows in a player's words. A scenario file links
//! its pieces by ids (`us_20me`, `s0_co`, `brigade_average`); the editor shows names: "20th
//! Maine", "Col. Joshua Chamberlain", "Brigade, average (command 8)". Two units (or two
//! commanders) with one name are told apart by their side, then by their place among that
//! side's pieces of the name: "Line Infantry (Union, 2nd of 3)". [`in_words`] says a text of
//! the checker's (which names pieces by id, as the file does) in these words. What is written
//! to the file keeps its ids.

use crate::data::army::{ArmyList, CommandRow};
use crate::data::scenario::Scenario;

/// A unit or a commander.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Unit,
    Commander,
}

/// Every unit (or commander) of the scenario: side, index and name.
fn all(sc: &Scenario, kind: Kind) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    for (s, side) in sc.sides.iter().enumerate() {
        match kind {
            Kind::Unit => out.extend(side.units.iter().enumerate().map(|(i, u)| (s, i, u.name.trim()))),
            Kind::Commander => out.extend(side.commanders.iter().enumerate().map(|(i, c)| (s, i, c.name.trim()))),
        }
    }
    out
}

/// "1st", "2nd", "3rd", "11th", "22nd".
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn words(sc: &Scenario, kind: Kind, side: usize, i: usize) -> String {
    let all = all(sc, kind);
    let Some(&(_, _, name)) = all.iter().find(|(s, k, _)| (*s, *k) == (side, i)) else {
        return String::new();
    };
    let shown = match (name.is_empty(), kind) {
        (false, _) => name,
        (true, Kind::Unit) => "an unnamed unit",
        (true, Kind::Commander) => "an unnamed commander",
    };
    let same: Vec<(usize, usize)> = all
        .iter()
        .filter(|(_, _, n)| *n == name)
        .map(|(s, k, _)| (*s, *k))
        .collect();
    if same.len() <= 1 {
        return shown.to_string();
    }
    let side_name = match sc.sides[side].name.trim() {
        "" => format!("side {}", side + 1),
        n => n.to_string(),
    };
    let on_side: Vec<usize> = same.iter().filter(|(s, _)| *s == side).map(|(_, k)| *k).collect();
    if on_side.len() <= 1 {
        return format!("{shown} ({side_name})");
    }
    let nth = on_side.iter().position(|k| *k == i).unwrap_or(0) + 1;
    format!("{shown} ({side_name}, {} of {})", ordinal(nth), on_side.len())
}

/// Unit `i` of side `side` as the editor names it (empty if there is none).
pub fn unit_words(sc: &Scenario, side: usize, i: usize) -> String {
    words(sc, Kind::Unit, side, i)
}

/// Commander `i` of side `side` as the editor names him (empty if there is none).
pub fn commander_words(sc: &Scenario, side: usize, i: usize) -> String {
    words(sc, Kind::Commander, side, i)
}

/// The commander of side `side` whose id is `id`, by name; an id naming none of them (a file
/// written by hand) is said so.
pub fn commander_of_side(sc: &Scenario, side: usize, id: &str) -> String {
    match sc
        .sides
        .get(side)
        .and_then(|s| s.commanders.iter().position(|c| c.id == id))
    {
        Some(i) => commander_words(sc, side, i),
        None => "nobody (no such commander on this side)".into(),
    }
}

/// A command row in words: "Brigade, average (command 8)".
pub fn command_row_words(row: &CommandRow) -> String {
    let quality = format!("{:?}", row.quality).to_lowercase();
    format!("{:?}, {quality} (command {})", row.level, row.command)
}

/// The row `id` of `army` in words: a troop row's name, a command row's words; `None` if the
/// army has no such row.
pub fn row_words(army: &ArmyList, id: &str) -> Option<String> {
    army.troop(id)
        .map(|t| t.name.clone())
        .or_else(|| army.command(id).map(command_row_words))
}

/// The unit or commander whose id is `id`, by name: `None` when no piece has it, or more than
/// one (the checker's "duplicate id": there the id itself is what is wrong).
pub fn piece_words(sc: &Scenario, id: &str) -> Option<String> {
    let mut found = Vec::new();
    for (s, side) in sc.sides.iter().enumerate() {
        for (i, u) in side.units.iter().enumerate() {
            if u.id == id {
                found.push(unit_words(sc, s, i));
            }
        }
        for (i, c) in side.commanders.iter().enumerate() {
            if c.id == id {
                found.push(commander_words(sc, s, i));
            }
        }
    }
    match found.len() {
        1 => found.pop(),
        _ => None,
    }
}

/// `text` (the checker's words, which name pieces by their ids) with each id of a unit or
/// commander of `sc` said by its name ([`piece_words`]), and each row id of `armies` in quotes
/// ("\"brigade_average\"") or in the checker's list of an army's rows ("(rows: a, b)", said
/// "(rows: A; B)") by its words ([`row_words`]). An id is a whole word: letters, digits and `_`. Ids of nothing in the
/// scenario (a file's typing error) stay as they are.
pub fn in_words(sc: &Scenario, armies: &[ArmyList], text: &str) -> String {
    const ROWS: &str = "(rows: ";
    let row = |id: &str| armies.iter().find_map(|a| row_words(a, id));
    let text = match text.split_once(ROWS) {
        Some((before, rest)) => {
            let (list, after) = rest.split_once(')').unwrap_or((rest, ""));
            let said: Vec<String> = list
                .split(", ")
                .map(|id| row(id.trim()).unwrap_or_else(|| id.to_string()))
                .collect();
            // Names may hold commas ("Brigade, average (command 7)").
            format!("{before}{ROWS}{}){after}", said.join("; "))
        }
        None => text.to_string(),
    };
    let is_id_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(start) = rest.find(is_id_char) {
        let (before, from) = rest.split_at(start);
        out.push_str(before);
        let end = from.find(|c: char| !is_id_char(c)).unwrap_or(from.len());
        let (word, after) = from.split_at(end);
        let quoted = before.ends_with('"') && after.starts_with('"');
        let named = piece_words(sc, word).or_else(|| quoted.then(|| row(word)).flatten());
        out.push_str(named.as_deref().unwrap_or(word));
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::Doc;
    use std::path::Path;

    fn skirmish() -> Doc {
        Doc::open(Path::new("maps/skirmish.ron")).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn ordinals_read_as_words() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal).into();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"
            ]
        );
    }

    #[test]
    fn pieces_are_named_and_told_apart_in_words() {
        let mut doc = skirmish();
        let sc = &doc.scenario;
        assert_eq!(sc.sides[0].units[0].id, "us_20me");
        assert_eq!(unit_words(sc, 0, 0), "20th Maine");
        assert_eq!(piece_words(sc, "us_20me").as_deref(), Some("20th Maine"));
        let co = &sc.sides[0].commanders[0];
        assert_eq!(commander_words(sc, 0, 0), co.name);
        assert_eq!(commander_of_side(sc, 0, &co.id), co.name);
        assert!(commander_of_side(sc, 1, &co.id).starts_with("nobody"));
        // One name on both sides: the side tells them apart; twice on one side, the place.
        doc.edit(|s| {
            s.sides[1].units[0].name = "20th Maine".into();
            s.sides[0].units[1].name = "20th Maine".into();
        })
        .unwrap();
        let sc = &doc.scenario;
        let union = sc.sides[0].name.clone();
        let other = sc.sides[1].name.clone();
        assert_eq!(unit_words(sc, 0, 0), format!("20th Maine ({union}, 1st of 2)"));
        assert_eq!(unit_words(sc, 0, 1), format!("20th Maine ({union}, 2nd of 2)"));
        assert_eq!(unit_words(sc, 1, 0), format!("20th Maine ({other})"));
    }

    #[test]
    fn the_checkers_ids_are_said_by_name() {
        let doc = skirmish();
        let (sc, armies) = (&doc.scenario, &doc.armies);
        assert_eq!(
            in_words(sc, armies, "overlapping stands: us_20me and us_83pa"),
            "overlapping stands: 20th Maine and 83rd Pennsylvania"
        );
        assert_eq!(
            in_words(
                sc,
                armies,
                "commander \"brigade_average\", row \"regular_infantry_rifled\""
            ),
            "commander \"Brigade, average (command 7)\", row \"Regular Infantry Rifled/Breech Loading Musket\""
        );
        // The checker's list of an army's rows.
        assert_eq!(
            in_words(
                sc,
                armies,
                "unknown row \"x\" in ACW Union Army (rows: mortar, brigade_average)"
            ),
            "unknown row \"x\" in ACW Union Army (rows: Mortar; Brigade, average (command 7))"
        );
        // Not quoted, a row id is not taken for one; an id of nothing stays; so does a longer
        // word that holds an id.
        assert_eq!(
            in_words(sc, armies, "brigade_average no_such_row us_20me_x"),
            "brigade_average no_such_row us_20me_x"
        );
    }
}
