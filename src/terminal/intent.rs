//! Intent orders typed at the prompt: `WHO: INTENT`. WHO is a unit (its label or a word of
//! its name) or a commander (a word of his name: his whole formation, a brigade or a
//! division); INTENT is one of
//!
//! - `to PLACE` (an objective, a wood, a hill, a farm, a road: a word of its name)
//! - `beside UNIT` (a friendly unit)
//! - `range ENEMY` / `into range of ENEMY`
//! - `reach ENEMY` / `charge reach of ENEMY`
//! - `face ENEMY-OR-PLACE` / `form line facing ...`
//! - `behind PLACE` / `retire behind PLACE`
//! - `hold`
//!
//! Only what the side may know is named: its own units and commanders, the enemy units it
//! knows of ([`Battle::known_to`]), the table's places.

use super::view;
use super::words::echo;
use crate::battle::intent::{Aim, Intent, Place, name_matches};
use crate::battle::state::{Battle, SideId, UnitId};
use crate::rules::geometry::V2;

/// What a typed intent names: the units that act, who they are in words, and the intent.
#[derive(Clone, Debug)]
pub struct Typed {
    pub units: Vec<UnitId>,
    pub who: String,
    pub intent: Intent,
}

/// The intent phrases, longest first, and what each wants after it.
const PHRASES: &[(&str, Want)] = &[
    ("into range of ", Want::Enemy(Kind::Range)),
    ("charge reach of ", Want::Enemy(Kind::Reach)),
    ("form line facing ", Want::Aim),
    ("retire behind ", Want::Place(Kind::Behind)),
    ("range of ", Want::Enemy(Kind::Range)),
    ("reach of ", Want::Enemy(Kind::Reach)),
    ("range ", Want::Enemy(Kind::Range)),
    ("reach ", Want::Enemy(Kind::Reach)),
    ("face ", Want::Aim),
    ("behind ", Want::Place(Kind::Behind)),
    ("beside ", Want::Friend),
    ("to ", Want::Place(Kind::To)),
];

#[derive(Clone, Copy)]
enum Kind {
    Range,
    Reach,
    Behind,
    To,
}

#[derive(Clone, Copy)]
enum Want {
    Enemy(Kind),
    Place(Kind),
    Friend,
    Aim,
}

/// The intents as the help and a wrong line say them.
pub const USAGE: &str =
    "WHO: to PLACE | beside UNIT | range ENEMY | reach ENEMY | face ENEMY-OR-PLACE | behind PLACE | hold";

/// Reads `WHO: INTENT` for `side`, or says what is wrong with it.
pub fn parse(b: &Battle, side: SideId, line: &str) -> Result<Typed, String> {
    let Some((who, what)) = line.split_once(':') else {
        return Err(format!("an intent is `{USAGE}`"));
    };
    let (units, who) = formation(b, side, who.trim())?;
    let middle = units.iter().fold(V2::new(0.0, 0.0), |a, &u| {
        a + b.unit(u).pose.pos * (1.0 / units.len() as f64)
    });
    let what = what.trim();
    let lower = what.to_lowercase();
    if lower == "hold" {
        return Ok(Typed {
            units,
            who,
            intent: Intent::Hold,
        });
    }
    let Some((phrase, want)) = PHRASES.iter().find(|(p, _)| lower.starts_with(p)) else {
        return Err(format!("`{}` is not an intent: {USAGE}", echo(what)));
    };
    let rest = what[phrase.len()..].trim();
    let intent = match want {
        Want::Enemy(k) => {
            let e = enemy(b, side, rest, middle)?;
            match k {
                Kind::Reach => Intent::ChargeReach(e),
                _ => Intent::IntoRange(e),
            }
        }
        Want::Place(k) => {
            let p = place(b, side, rest)?;
            match k {
                Kind::Behind => Intent::Behind(p),
                _ => Intent::To(p),
            }
        }
        Want::Friend => Intent::Beside(one_unit(b, side, rest, true)?),
        Want::Aim => match enemy(b, side, rest, middle) {
            Ok(e) => Intent::Face(Aim::Unit(e)),
            Err(_) => Intent::Face(Aim::Place(place(b, side, rest)?)),
        },
    };
    Ok(Typed { units, who, intent })
}

/// WHO: a unit of `side` by its label, a commander by a word of his name (his whole
/// formation), else a unit by a word of its name; one only.
pub fn formation(b: &Battle, side: SideId, typed: &str) -> Result<(Vec<UnitId>, String), String> {
    if typed.is_empty() {
        return Err(format!("say who, before the colon: {USAGE}"));
    }
    let alive = |u: &&crate::battle::state::Unit| u.side == side && u.alive();
    if let Some(u) = b
        .units
        .iter()
        .filter(alive)
        .find(|u| view::label(b, side, u.id) == typed)
    {
        return Ok((vec![u.id], u.name.clone()));
    }
    let commanders: Vec<&crate::battle::state::Commander> = b
        .commanders
        .iter()
        .filter(|c| c.side == side && c.alive() && crate::battle::intent::commander_named(c, typed))
        .collect();
    let units: Vec<&crate::battle::state::Unit> = b
        .units
        .iter()
        .filter(alive)
        .filter(|u| name_matches(&u.name, typed))
        .collect();
    match (commanders.as_slice(), units.as_slice()) {
        // A commander before a unit named after him ("Battery L (Reynolds)": its label).
        ([c], _) => {
            let mine: Vec<UnitId> = b.commanded_units(c.id).map(|u| u.id).collect();
            if mine.is_empty() {
                return Err(format!("{} commands no unit now", c.name));
            }
            Ok((mine, crate::report::intent::formation_words(b, c)))
        }
        ([], [u]) => Ok((vec![u.id], u.name.clone())),
        ([], []) => Err(format!("none of your units or commanders is named `{}`", echo(typed))),
        (cs, us) => {
            let mut names: Vec<String> = cs.iter().map(|c| c.name.clone()).collect();
            names.extend(us.iter().map(|u| format!("{} {}", view::label(b, side, u.id), u.name)));
            let n = names.len();
            names.truncate(6);
            Err(format!(
                "`{}` names {n}: {}{}; type more of the name, or a unit's label",
                echo(typed),
                names.join(", "),
                if n > 6 { ", ..." } else { "" }
            ))
        }
    }
}

/// A unit by its label or a word of its name: of `side` (`own`) or an enemy `side` knows of.
fn one_unit(b: &Battle, side: SideId, typed: &str, own: bool) -> Result<UnitId, String> {
    let whose = if own { side } else { 1 - side };
    let known: Vec<&crate::battle::state::Unit> = b
        .units
        .iter()
        .filter(|u| u.side == whose && u.alive() && b.known_to(side, u.id))
        .collect();
    if let Some(u) = known.iter().find(|u| view::label(b, side, u.id) == typed) {
        return Ok(u.id);
    }
    let named: Vec<&&crate::battle::state::Unit> = known.iter().filter(|u| name_matches(&u.name, typed)).collect();
    let what = if own { "of your units" } else { "enemy unit you know of" };
    match named.as_slice() {
        [u] => Ok(u.id),
        [] => Err(format!("no {what} is named `{}`", echo(typed))),
        many => Err(format!(
            "`{}` names {} units ({}); type more of the name, or its label",
            echo(typed),
            many.len(),
            many.iter()
                .take(4)
                .map(|u| format!("{} {}", view::label(b, side, u.id), u.name))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// An enemy unit by its label or name; else an enemy commander's formation by a word of his
/// name: its unit nearest `from` the side knows of.
fn enemy(b: &Battle, side: SideId, typed: &str, from: V2) -> Result<UnitId, String> {
    let unit = one_unit(b, side, typed, false);
    if unit.is_ok() {
        return unit;
    }
    let cs: Vec<&crate::battle::state::Commander> = b
        .commanders
        .iter()
        .filter(|c| c.side != side && c.alive() && crate::battle::intent::commander_named(c, typed))
        .collect();
    let [c] = cs.as_slice() else {
        return unit;
    };
    b.commanded_units(c.id)
        .filter(|u| b.known_to(side, u.id))
        .min_by(|x, y| {
            x.pose
                .pos
                .dist(from)
                .total_cmp(&y.pose.pos.dist(from))
                .then(x.id.cmp(&y.id))
        })
        .map(|u| u.id)
        .ok_or_else(|| format!("you know of no unit of {}'s command", c.name))
}

/// A place of the table by a word of its name.
fn place(b: &Battle, side: SideId, typed: &str) -> Result<Place, String> {
    let found = b.find_places(side, typed);
    match found.as_slice() {
        [p] => Ok(p.clone()),
        [] => Err(format!(
            "no place is named `{}`; the places are: {}",
            echo(typed),
            b.places(side)
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        many => Err(format!(
            "`{}` names {} places ({}); type more of the name",
            echo(typed),
            many.len(),
            many.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")
        )),
    }
}
