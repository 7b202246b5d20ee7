//! Actions as a player says them: moves relative to the unit ("advance 10 cm", "wheel 45°
//! left", "about face"), with the destination after; orders with the modifiers of their need;
//! the long list grouped by who acts.

use crate::battle::{Action, Battle};
pub use crate::report::direction::{cm, compass, facing_text, place_phrase, relative_bearing, relative_move};
use crate::rules::geometry::Pose;

/// The whole move line: "5th New Hampshire: advance 10 cm, to (45, 26) facing 90° (north)".
pub fn move_text(b: &Battle, unit: u32, to: &Pose) -> String {
    let u = b.unit(unit);
    format!(
        "{}: {}, to ({}, {}) facing {}",
        u.name,
        relative_move(&u.pose, to),
        cm(to.pos.x),
        cm(to.pos.y),
        facing_text(to.facing)
    )
}

/// Modifiers as the log writes them: "-1 for successive order (BPT Command Modifiers note 1)".
pub fn modifiers_text(mods: &[crate::battle::event::Modifier]) -> String {
    mods.iter()
        .map(crate::report::words::modifier_phrase)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every unit and commander `a` names is in `b` (else only the battle log's own description,
/// which checks, may be used to say it).
pub fn names_known_pieces(b: &Battle, a: &Action) -> bool {
    let (units, commander) = a.references();
    units.iter().all(|u| (*u as usize) < b.units.len()) && commander.is_none_or(|c| (c as usize) < b.commanders.len())
}

/// An action as the terminal lists it: moves relative to the unit, commanders' rides
/// relative to the nearest unit of their side, orders with the modifiers of their need; the
/// rest as the battle log describes them.
pub fn action_text(b: &Battle, a: &Action) -> String {
    if !names_known_pieces(b, a) {
        return crate::report::heading(b, a);
    }
    match a {
        Action::Move { unit, to } => format!("move: {}", move_text(b, *unit, to)),
        Action::CommanderMove { commander, to } => {
            let c = b.commander(*commander);
            let near = b
                .side_units(c.side)
                .map(|u| (u, u.pose.pos.dist(*to)))
                .min_by(|x, y| x.1.total_cmp(&y.1));
            let from = c.pos.dist(*to);
            let dir = *to - c.pos;
            let heading = compass(dir.y.atan2(dir.x).to_degrees());
            format!(
                "commander move: {} rides {} cm {heading}{}, to ({}, {})",
                c.name,
                cm(from),
                near.map(|(u, d)| format!(
                    ", {} cm {} {}",
                    cm(d),
                    place_phrase(relative_bearing(&u.pose, *to)),
                    u.name
                ))
                .unwrap_or_default(),
                cm(to.x),
                cm(to.y)
            )
        }
        Action::Order {
            commander,
            units,
            charge,
            dense,
            road,
        } => {
            let names: Vec<&str> = units.iter().map(|u| b.unit(*u).name.as_str()).collect();
            let need = match b.check_order_by(*commander, units, *charge, *dense, *road) {
                Ok(p) if p.modifiers.is_empty() => format!("need ≤ {}: command {}", p.target, p.value),
                Ok(p) => format!(
                    "need ≤ {}: command {}, {}",
                    p.target,
                    p.value,
                    modifiers_text(&p.modifiers)
                ),
                Err(_) => "need ?".into(),
            };
            format!(
                "order: {} → {}{}{}{} ({need})",
                b.commander(*commander).name,
                names.join(", "),
                if *charge { " [may charge]" } else { "" },
                if *dense { " [dense]" } else { "" },
                if *road { " [along the road]" } else { "" },
            )
        }
        Action::Attach { unit, hq } => match b.check_attach(*unit, *hq) {
            Ok(p) => format!(
                "attach: {} to {}'s formation (need ≤ {}: command {}{}{})",
                b.unit(*unit).name,
                b.commander(*hq).name,
                p.target,
                p.value,
                if p.modifiers.is_empty() { "" } else { ", " },
                modifiers_text(&p.modifiers)
            ),
            Err(_) => crate::report::heading(b, a),
        },
        Action::Activate { unit, purpose, into } => match b.activation_plan(*unit, *purpose, *into) {
            Ok(p) if !p.modifiers.is_empty() => {
                format!("{} [{}]", crate::report::heading(b, a), modifiers_text(&p.modifiers))
            }
            _ => crate::report::heading(b, a),
        },
        Action::Rally { unit } => match b.rally_plan(*unit) {
            Ok(p) if !p.modifiers.is_empty() => {
                format!("{} [{}]", crate::report::heading(b, a), modifiers_text(&p.modifiers))
            }
            _ => crate::report::heading(b, a),
        },
        _ => crate::report::heading(b, a),
    }
}

/// Who an action belongs to in the grouped list: the unit, or the commander for orders and
/// rides; `None` for the phase's own (end phase, pass).
pub fn actor_name(b: &Battle, a: &Action) -> Option<String> {
    let (units, commander) = a.references();
    match a {
        Action::Order { .. } | Action::CommanderMove { .. } => commander.map(|c| b.commander(c).name.clone()),
        _ => units
            .first()
            .filter(|u| (**u as usize) < b.units.len())
            .map(|u| b.unit(*u).name.clone())
            .or_else(|| commander.map(|c| b.commander(c).name.clone())),
    }
}

/// The kind of an action for a group's summary, singular: "move", "order", "fire"…
pub fn kind_word(a: &Action) -> &'static str {
    match a {
        Action::Move { .. } => "move",
        Action::Order { .. } => "order",
        Action::CommanderMove { .. } => "ride",
        Action::Deploy { .. } | Action::InitiativeDeploy { .. } | Action::CounterDeploy { .. } => "deploy",
        Action::Fire { .. }
        | Action::InitiativeFire { .. }
        | Action::OpportunityFire { .. }
        | Action::FireTogether { .. } => "fire",
        Action::Charge { .. } | Action::InitiativeCharge { .. } => "charge",
        _ => a.name(),
    }
}

/// The most characters of a line typed that an answer shows again.
const ECHO: usize = 60;

/// Text the player typed, as an answer shows it again: control characters shown as escapes,
/// at most [`ECHO`] characters.
pub fn echo(s: &str) -> String {
    let p = crate::data::text::printable(s);
    if p.chars().count() <= ECHO {
        return p.into_owned();
    }
    let cut: String = p.chars().take(ECHO).collect();
    format!("{cut}… ({} characters)", s.chars().count())
}
