//! What `volley check` would say of the document, placed on its pieces.
//!
//! The document is written as it would be saved ([`write_scenario`]) and checked by the
//! checker's own function ([`validate_scenario_file`], what [`crate::data::load_scenario`]
//! runs), with the document's army lists; the line of the error names the piece written
//! there. The checker stops at the first error; to list more, the piece at fault is taken out
//! of a copy of the scenario and the copy checked again, up to the number asked for. Each
//! problem names the piece, line and column of the document itself (as [`write_scenario`]
//! writes it), however many pieces were taken out before it was found.
//!
//! The search stops (after the problem in hand) at an error that names no piece, and at one
//! whose piece cannot be taken out without making a problem of its own: a side's last unit
//! (a side with no units is an error), a commander who still commands (see
//! [`piece::remove`]) or a side's only CO.
//!
//! The checker names units, commanders and army rows by the ids the file links them with; a
//! problem says them by name ([`names::in_words`], read on the scenario checked), as the rest
//! of the editor does.

use super::Doc;
use super::names;
use super::piece::{self, Piece};
use super::write::{Written, piece_at_line, write_scenario};
use crate::data::load::{RonSpans, Seg};
use crate::data::scenario::Scenario;
use crate::data::validate::validate_scenario_file;

/// One problem: the checker's message (its ids said by name), where it is in the document as
/// written, and the piece it is about (`None` for the scenario's own fields, a side's name, …).
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub piece: Option<Piece>,
    /// 1-based, in the text [`write_scenario`] writes of the document (0: no place).
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

/// Up to `max` problems of the document, the checker's first first; empty when `volley check`
/// would accept the file saved.
pub fn problems(doc: &Doc, max: usize) -> Vec<Problem> {
    let mut out = Vec::new();
    if max == 0 {
        return out;
    }
    let armies_dir = crate::assets_dir().join("armies");
    let full = write_scenario(&doc.scenario, doc.original.as_deref());
    let mut sc = doc.scenario.clone();
    let mut origins = Origins::new(&sc);
    let mut now = full.clone();
    loop {
        let err = match validate_scenario_file(&now.text, &doc.path, &sc, &doc.armies, &armies_dir, &doc.footprints) {
            Ok(()) => {
                if let Some(p) = rules_problem(&sc, &full) {
                    out.push(p);
                }
                break;
            }
            Err(e) => e,
        };
        let at = piece_at_line(&now, err.line);
        let piece = at.map(|p| origins.original(p));
        let line = match (at, piece) {
            _ if out.is_empty() => err.line,
            (Some(a), Some(p)) => match (span(&now, a), span(&full, p)) {
                (Some(n), Some(f)) => f + (err.line - n),
                _ => map_line(&now.text, &full.text, err.line),
            },
            _ => map_line(&now.text, &full.text, err.line),
        };
        out.push(Problem {
            piece,
            line,
            col: err.col,
            msg: names::in_words(&sc, &doc.armies, &err.msg),
        });
        let Some(a) = at else { break };
        if out.len() >= max || !can_take_out(&sc, a) || piece::remove(&mut sc, a).is_err() {
            break;
        }
        origins.removed(a);
        now = write_scenario(&sc, doc.original.as_deref());
    }
    out
}

/// `volley check` also loads the rules file a scenario names (the checker only sees that it
/// is there): an error in it is a problem of the `rules` field.
fn rules_problem(sc: &Scenario, full: &Written) -> Option<Problem> {
    let stem = sc.rules.as_deref()?;
    let e = crate::load_rules(Some(stem)).err()?;
    let (line, col) = RonSpans::new(&full.text).find(&[Seg::Field("rules")]);
    Some(Problem {
        piece: None,
        line,
        col,
        msg: format!("the rules file does not load: {e}"),
    })
}

/// Whether taking `p` out of `sc` leaves no problem of its own making.
fn can_take_out(sc: &Scenario, p: Piece) -> bool {
    match p {
        Piece::Unit { side, .. } => sc.sides[side].units.len() > 1,
        Piece::Commander { side, i } => {
            let cs = &sc.sides[side].commanders;
            cs[i].superior.is_some() || cs.iter().filter(|c| c.superior.is_none()).count() > 1
        }
        _ => true,
    }
}

/// The first line of `p` in `w`.
fn span(w: &Written, p: Piece) -> Option<usize> {
    w.spans.iter().find(|(q, _)| *q == p).map(|(_, r)| *r.start())
}

/// The line of `full` that is line `line` of `now`, `now` being `full` less some pieces' lines
/// (and of lists left empty): `now`'s lines are matched in order to the first equal lines of
/// `full`.
fn map_line(now: &str, full: &str, line: usize) -> usize {
    let full: Vec<&str> = full.lines().collect();
    let mut j = 0;
    for (k, l) in now.lines().enumerate() {
        match full[j..].iter().position(|f| f == &l) {
            Some(d) => j += d,
            None => return line,
        }
        if k + 1 == line {
            return j + 1;
        }
        j += 1;
    }
    line
}

/// For each list of pieces, the document's index of each piece still in the copy.
struct Origins {
    areas: Vec<usize>,
    linears: Vec<usize>,
    hills: Vec<usize>,
    buildings: Vec<usize>,
    objectives: Vec<usize>,
    units: Vec<Vec<usize>>,
    commanders: Vec<Vec<usize>>,
}

impl Origins {
    fn new(sc: &Scenario) -> Self {
        let t = &sc.terrain;
        Origins {
            areas: (0..t.areas.len()).collect(),
            linears: (0..t.linears.len()).collect(),
            hills: (0..t.hills.len()).collect(),
            buildings: (0..t.buildings.len()).collect(),
            objectives: (0..sc.objectives.len()).collect(),
            units: sc.sides.iter().map(|s| (0..s.units.len()).collect()).collect(),
            commanders: sc.sides.iter().map(|s| (0..s.commanders.len()).collect()).collect(),
        }
    }

    /// The list `p` is in and its index there (deployment zones are in none: they keep their
    /// place).
    fn slot(&mut self, p: Piece) -> Option<(&mut Vec<usize>, usize)> {
        match p {
            Piece::Area(i) => Some((&mut self.areas, i)),
            Piece::Linear(i) => Some((&mut self.linears, i)),
            Piece::Hill(i) => Some((&mut self.hills, i)),
            Piece::Building(i) => Some((&mut self.buildings, i)),
            Piece::Objective(i) => Some((&mut self.objectives, i)),
            Piece::Unit { side, i } => Some((self.units.get_mut(side)?, i)),
            Piece::Commander { side, i } => Some((self.commanders.get_mut(side)?, i)),
            Piece::Deployment(_) => None,
        }
    }

    /// The document's piece that is `p` of the copy.
    fn original(&mut self, p: Piece) -> Piece {
        let Some(j) = self.slot(p).and_then(|(v, i)| v.get(i).copied()) else {
            return p;
        };
        match p {
            Piece::Area(_) => Piece::Area(j),
            Piece::Linear(_) => Piece::Linear(j),
            Piece::Hill(_) => Piece::Hill(j),
            Piece::Building(_) => Piece::Building(j),
            Piece::Objective(_) => Piece::Objective(j),
            Piece::Unit { side, .. } => Piece::Unit { side, i: j },
            Piece::Commander { side, .. } => Piece::Commander { side, i: j },
            Piece::Deployment(side) => Piece::Deployment(side),
        }
    }

    /// `p` of the copy was taken out.
    fn removed(&mut self, p: Piece) {
        if let Some((v, i)) = self.slot(p)
            && i < v.len()
        {
            v.remove(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn skirmish() -> Doc {
        Doc::open(Path::new("maps/skirmish.ron")).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The text from `line:col` of the document as written.
    fn at(doc: &Doc, p: &Problem) -> String {
        let w = write_scenario(&doc.scenario, doc.original.as_deref());
        let l = w.text.lines().nth(p.line - 1).unwrap();
        l.chars().skip(p.col - 1).collect()
    }

    #[test]
    fn a_unit_on_another_is_placed_on_it_in_the_checkers_words() {
        let mut doc = skirmish();
        assert_eq!(problems(&doc, 10), Vec::new());
        // The 83rd Pennsylvania on the 20th Maine, at (72, 45).
        doc.edit(|s| s.sides[0].units[1].pos = s.sides[0].units[0].pos).unwrap();
        let ps = problems(&doc, 10);
        assert_eq!(ps.len(), 1, "{ps:?}");
        let p = &ps[0];
        assert_eq!(p.piece, Some(Piece::Unit { side: 0, i: 1 }));
        assert_eq!(p.msg, "overlapping stands: 20th Maine and 83rd Pennsylvania");
        assert!(at(&doc, p).starts_with("(x: 72, y: 45), facing: 90, commander: \"us_bde1\", grade: Some(Elite)"));
        // Exactly what the checker says of the file, its ids said by name.
        let text = write_scenario(&doc.scenario, doc.original.as_deref()).text;
        let dir = crate::assets_dir().join("armies");
        let e =
            validate_scenario_file(&text, &doc.path, &doc.scenario, &doc.armies, &dir, &doc.footprints).unwrap_err();
        assert_eq!(e.msg, "overlapping stands: us_20me and us_83pa");
        let said = names::in_words(&doc.scenario, &doc.armies, &e.msg);
        assert_eq!((e.line, e.col, said.as_str()), (p.line, p.col, p.msg.as_str()));
    }

    #[test]
    fn independent_faults_are_all_listed_at_the_documents_places() {
        let mut doc = skirmish();
        doc.edit(|s| {
            // Miller's Orchard with two points.
            s.terrain.areas[3].outline.0.truncate(2);
            // Tanner's Bridge off the table.
            s.objectives[2].pos.x = 300.0;
            // The 20th Maine of a row its army does not have.
            s.sides[0].units[0].row = "no_such_row".into();
            // The 16th Michigan on the 12th New Jersey: found once the 20th Maine, before it,
            // is taken out of the copy, and still named by its own index.
            s.sides[0].units[5].pos = s.sides[0].units[3].pos;
        })
        .unwrap();
        let ps = problems(&doc, 10);
        let pieces: Vec<_> = ps.iter().map(|p| p.piece).collect();
        assert_eq!(
            pieces,
            [
                Some(Piece::Area(3)),
                Some(Piece::Objective(2)),
                Some(Piece::Unit { side: 0, i: 0 }),
                Some(Piece::Unit { side: 0, i: 5 }),
            ]
        );
        assert_eq!(ps[0].msg, "Orchard area 3: a polygon needs at least 3 points");
        assert_eq!(
            ps[1].msg,
            "objective \"Tanner's Bridge\" at (300.0, 90.0) is off the table"
        );
        assert!(
            ps[2]
                .msg
                .starts_with("unit 20th Maine: unknown troop row \"no_such_row\" in ACW Union Army")
        );
        assert_eq!(ps[3].msg, "overlapping stands: 12th New Jersey and 16th Michigan");
        let full = write_scenario(&doc.scenario, doc.original.as_deref());
        for p in &ps {
            assert_eq!(piece_at_line(&full, p.line), p.piece, "{p:?}");
        }
        assert!(at(&doc, &ps[1]).starts_with("(x: 300, y: 90), radius: 6)"));
        assert!(at(&doc, &ps[2]).starts_with("\"no_such_row\""));
        assert!(at(&doc, &ps[3]).starts_with("(x: 145, y: 45), facing: 90, commander: \"us_bde2\")"));
        assert_eq!(problems(&doc, 2), ps[..2]);
        assert!(problems(&doc, 0).is_empty());
    }

    #[test]
    fn a_fault_of_no_piece_ends_the_list_and_is_placed_in_the_documents_text() {
        let mut doc = skirmish();
        doc.edit(|s| {
            s.terrain.areas[3].outline.0.truncate(2);
            // No CO on the Confederate side: the division answers to a brigade.
            s.sides[1].commanders[0].superior = Some("cs_bde1".into());
        })
        .unwrap();
        let ps = problems(&doc, 10);
        assert_eq!(ps.len(), 2, "{ps:?}");
        assert_eq!(ps[1].piece, None);
        assert_eq!(ps[1].msg, "side Confederate has no CO (a commander with no superior)");
        let full = write_scenario(&doc.scenario, doc.original.as_deref()).text;
        let lines: Vec<&str> = full.lines().collect();
        let second = (0..lines.len())
            .filter(|&k| lines[k].trim() == "commanders: [")
            .nth(1)
            .unwrap();
        assert_eq!((ps[1].line, at(&doc, &ps[1]).as_str()), (second + 1, "["));
        // The first fault of no piece: nothing after it.
        doc.edit(|s| s.title = " ".into()).unwrap();
        let ps = problems(&doc, 10);
        assert_eq!(ps.len(), 1);
        assert_eq!(
            (ps[0].piece, ps[0].msg.as_str()),
            (None, "the title is empty: players pick a battle by it")
        );
    }

    #[test]
    fn a_sides_last_unit_is_not_taken_out() {
        let mut doc = skirmish();
        doc.edit(|s| {
            s.sides[1].units.truncate(1);
            s.sides[1].units[0].row = "no_such_row".into();
            s.sides[0].units[1].pos = s.sides[0].units[0].pos;
        })
        .unwrap();
        // Taking it out would make "side Confederate has no units" of it: the list ends there.
        let ps = problems(&doc, 10);
        assert_eq!(ps.len(), 1, "{ps:?}");
        assert_eq!(ps[0].piece, Some(Piece::Unit { side: 1, i: 0 }));
    }
}
