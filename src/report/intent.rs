//! An intent's step as a player reads it: what the unit does and where that leaves it:
//! "7th Wisconsin: advance 10 cm, 14 cm short of Hickory farm; 12th Virginia 32 cm away, in
//! sight, out of range (24 cm)". One line a step, facts only the side may know (its own
//! unit, an enemy its side knows of).

use super::direction::relative_move;
use super::words::cm;
use crate::battle::Battle;
use crate::battle::action::Action;
use crate::battle::intent::{Intent, IntentMove};

/// The line for one step of `intent`.
pub fn intent_line(b: &Battle, intent: &Intent, m: &IntentMove) -> String {
    let u = b.unit(m.unit);
    let did = match &m.action {
        Some(Action::Move { to, .. }) => relative_move(&m.from, to),
        Some(Action::Deploy { deploy, .. }) => deploy.to_string(),
        Some(other) => crate::report::heading(b, other),
        None if m.met() => "is there: stays".into(),
        None => "stays: no legal move serves it better".into(),
    };
    let mut facts: Vec<String> = Vec::new();
    if let Some((name, off)) = &m.place {
        facts.push(if *off <= 0.5 {
            match intent {
                Intent::Beside(_) => format!("beside {name}"),
                Intent::Behind(_) => format!("behind {name}"),
                _ => format!("on {name}"),
            }
        } else {
            format!("{} cm short of {name}", cm(*off))
        });
    }
    if let Some(e) = &m.enemy {
        let name = &b.unit(e.unit).name;
        let sight = if e.sees { "in sight" } else { "out of sight" };
        let range = if e.in_range {
            format!("in its fire cone and range ({} cm)", cm(e.range))
        } else if e.range > 0.0 && e.distance > e.range {
            format!("{} cm beyond its range ({} cm)", cm(e.distance - e.range), cm(e.range))
        } else if e.range > 0.0 {
            format!("outside its fire cone (range {} cm)", cm(e.range))
        } else {
            "it does not fire".into()
        };
        let reach = match intent {
            Intent::ChargeReach(_) if e.distance <= b.rules.charge.distance => {
                format!(", within charge reach ({} cm)", cm(b.rules.charge.distance))
            }
            Intent::ChargeReach(_) => format!(
                ", {} cm beyond charge reach ({} cm)",
                cm(e.distance - b.rules.charge.distance),
                cm(b.rules.charge.distance)
            ),
            _ => String::new(),
        };
        facts.push(format!("{name} {} cm away, {sight}, {range}{reach}", cm(e.distance)));
    }
    let tail = if facts.is_empty() {
        String::new()
    } else {
        format!("; {}", facts.join("; "))
    };
    format!("{}: {did}{tail}", u.name)
}

/// A commander's formation as players name it: its own name when history gave it one ("Iron
/// Brigade"), else "Davis's brigade", "Heth's division", "Reynolds's corps" (his surname and
/// level of command), "Pegram's artillery" for a brigade of guns alone.
pub fn formation_words(b: &Battle, c: &crate::battle::state::Commander) -> String {
    let mut units = b.units.iter().filter(|u| u.hq == c.id).peekable();
    let guns = units.peek().is_some() && units.all(|u| u.is_artillery());
    formation_named(c, guns)
}

/// [`formation_words`], told whether his units are guns alone (for an enemy's formation:
/// whether those the side knows of are).
pub fn formation_named(c: &crate::battle::state::Commander, guns: bool) -> String {
    use crate::data::army::CommandLevel;
    if let Some(name) = &c.formation {
        return name.clone();
    }
    let surname = c.name.rsplit(' ').next().unwrap_or(&c.name);
    let level = match c.row.level {
        CommandLevel::Brigade if guns => "artillery",
        CommandLevel::Brigade => "brigade",
        CommandLevel::Division => "division",
        CommandLevel::Corps => "corps",
        CommandLevel::Army => "army",
    };
    format!("{surname}'s {level}")
}

/// A formation as a list heads it: its name, its commander, and the formation above it,
/// "Iron Brigade (Brig. Gen. Solomon Meredith), Wadsworth's division".
pub fn formation_title(b: &Battle, c: crate::battle::state::CmdId) -> String {
    let cm = b.commander(c);
    let words = formation_words(b, cm);
    let above = cm
        .superior
        .map(|s| b.commander(s))
        .filter(|s| s.superior.is_some())
        .map(|s| format!(", {}", formation_words(b, s)))
        .unwrap_or_default();
    format!("{words} ({}){above}", cm.name)
}
