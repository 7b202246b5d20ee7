//! Actions in words: the menu's lines and the log's headings.

use super::words::{commander as cname, count, degrees, phase_word, unit as uname, words_of};
use crate::battle::{Action, Battle};
use crate::rules::geometry::{Pose, wrap_angle};

/// An action as a menu line, and the log's heading for it (read on the state before it is
/// applied: an order's "need ≤ N" is the one it is rolled against).
pub fn heading(b: &Battle, a: &Action) -> String {
    // An action naming a unit or commander that does not exist (a bad request, which the
    // pipeline refuses) is described by its name alone.
    let (units, commander) = a.references();
    if units.iter().any(|u| *u as usize >= b.units.len()) || commander.is_some_and(|c| c as usize >= b.commanders.len())
    {
        return format!("{} (no such unit or commander)", a.name());
    }
    match a {
        Action::InitiativeFire { unit, target } | Action::Fire { unit, target } => fire(b, a, *unit, *target),
        Action::InitiativeCharge { unit, target } | Action::Charge { unit, target } => {
            format!("{}: {} charges {}", a.name(), uname(b, *unit), uname(b, *target))
        }
        Action::InitiativeEvade { unit } | Action::CounterEvade { unit } => {
            format!("{}: {}", a.name(), uname(b, *unit))
        }
        Action::Engineer { unit, linear } => {
            let l = b.terrain.linears.get(*linear as usize);
            let task = l.and_then(|l| crate::battle::engineers::Task::for_kind(l.kind));
            format!(
                "{}: {} {} {}",
                a.name(),
                uname(b, *unit),
                task.map(|t| t.verb()).unwrap_or("work on"),
                l.map(|l| if l.name.is_empty() {
                    format!("the {}", words_of(&format!("{:?}", l.kind)))
                } else {
                    l.name.clone()
                })
                .unwrap_or_else(|| "?".into())
            )
        }
        Action::InitiativeDeploy { unit, deploy }
        | Action::Deploy { unit, deploy }
        | Action::CounterDeploy { unit, deploy } => {
            format!("{}: {} {deploy}", a.name(), uname(b, *unit))
        }
        Action::Activate { unit, purpose, into } => {
            let need = b.activation_plan(*unit, *purpose, *into).ok();
            format!(
                "activate: {}{}{} (need {}+)",
                uname(b, *unit),
                match purpose {
                    crate::battle::Purpose::Move => "",
                    crate::battle::Purpose::Formation => " [change formation]",
                    crate::battle::Purpose::Charge => " [may charge]",
                },
                if *into > crate::battle::Ground::Open {
                    format!(" [into {into}]")
                } else {
                    String::new()
                },
                need.map(|p| p.target.to_string()).unwrap_or_else(|| "?".into())
            )
        }
        Action::DrawSabers { unit } => format!("saber charge: {} draws sabers", uname(b, *unit)),
        Action::Attach { unit, hq } => {
            let need = b.check_attach(*unit, *hq).ok();
            format!(
                "attach: {} to {}'s formation (need ≤ {})",
                uname(b, *unit),
                cname(b, *hq),
                need.map(|p| p.target.to_string()).unwrap_or_else(|| "?".into())
            )
        }
        Action::Rally { unit } => {
            let need = b.rally_plan(*unit).ok();
            format!(
                "rally: {} (need {}+)",
                uname(b, *unit),
                need.map(|p| p.target.to_string()).unwrap_or_else(|| "?".into())
            )
        }
        Action::CounterFire { unit } | Action::CounterCharge { unit } | Action::SelfOrder { unit } => {
            format!("{}: {}", a.name(), uname(b, *unit))
        }
        Action::Order {
            commander,
            units,
            charge,
            dense,
            road,
        } => {
            let names: Vec<&str> = units.iter().map(|u| uname(b, *u)).collect();
            let plan = b.check_order_by(*commander, units, *charge, *dense, *road).ok();
            format!(
                "order: {} → {}{}{}{} (need ≤ {})",
                cname(b, *commander),
                names.join(", "),
                if *charge { " [may charge]" } else { "" },
                if *dense { " [dense]" } else { "" },
                if *road { " [along the road]" } else { "" },
                plan.map(|p| p.target.to_string()).unwrap_or_else(|| "?".into())
            )
        }
        Action::Move { unit, to } => format!(
            "move: {} to ({:.1}, {:.1}) facing {}",
            uname(b, *unit),
            to.pos.x,
            to.pos.y,
            degrees(to.facing)
        ),
        Action::Support { unit, friend } => {
            format!("support: {} supports {}", uname(b, *unit), uname(b, *friend))
        }
        Action::CommanderMove { commander, to } => {
            format!("commander move: {} to ({:.1}, {:.1})", cname(b, *commander), to.x, to.y)
        }
        Action::OpportunityFire { unit, target, with } if with.is_empty() => {
            format!("opportunity fire: {} at {}", uname(b, *unit), uname(b, *target))
        }
        Action::OpportunityFire { unit, target, with } => {
            let names: Vec<&str> = std::iter::once(unit).chain(with).map(|u| uname(b, *u)).collect();
            format!(
                "opportunity fire: {} at {}, their attacks rolled together",
                names.join(" and "),
                uname(b, *target)
            )
        }
        Action::FireTogether { unit, target, with } => {
            let names: Vec<&str> = std::iter::once(unit).chain(with).map(|u| uname(b, *u)).collect();
            format!(
                "fire together: {} at {}, their dice rolled together",
                names.join(" and "),
                uname(b, *target)
            )
        }
        Action::Consolidate { unit, to } => format!(
            "consolidate: {} {}",
            uname(b, *unit),
            consolidation_words(&b.unit(*unit).pose, to, false)
        ),
        Action::Pass => match b.step {
            crate::battle::state::Step::Consolidate { unit, .. } if (unit as usize) < b.units.len() => {
                format!("pass: {} stays where it stands, no consolidation", uname(b, unit))
            }
            _ => "pass".into(),
        },
        Action::EndPhase => format!("end the {} phase", phase_word(b.phase)),
    }
}

/// A consolidation from `from` to `to` in words (BPT "Consolidate": straight ahead, then
/// facing as it likes): "stay where it stands", "advance 5.0 cm", "advance 2.5 cm and face
/// 90° left", "stay and face about"; `told`: as the log tells it ("advances 5.0 cm").
pub fn consolidation_words(from: &Pose, to: &Pose, told: bool) -> String {
    let s = if told { "s" } else { "" };
    let d = from.pos.dist(to.pos);
    let turn = wrap_angle(to.facing - from.facing).to_degrees();
    let face = if turn.abs() < 0.5 {
        None
    } else if turn.abs() > 179.5 {
        Some(format!("face{s} about"))
    } else {
        let side = if turn > 0.0 { "left" } else { "right" };
        Some(format!("face{s} {:.0}° {side}", turn.abs()))
    };
    match (d < 0.05, face) {
        (true, None) => format!("stay{s} where it stands"),
        (false, None) => format!("advance{s} {d:.1} cm"),
        (true, Some(f)) => format!("stay{s} and {f}"),
        (false, Some(f)) => format!("advance{s} {d:.1} cm and {f}"),
    }
}

/// "fire: 5th NH fires at 4th AL (4 dice, 4+, expect 1.33 hits)", with the chance a gun's
/// ball or shell lands on its aim.
fn fire(b: &Battle, a: &Action, unit: u32, target: u32) -> String {
    let ctx = crate::battle::fire::FireContext::Order;
    // As the fire will be rolled: after a square it forces (BPT "Square").
    let fired_on = b.as_fired_on(target);
    let b = &*fired_on;
    let plan = b.fire_plan(unit, target, ctx);
    // A gun's ball or shell lands on its aim only on the crew's accuracy roll; a shell
    // attacks every stand in its burst (`Battle::fire_expected_hits` counts both).
    let mean = b.fire_expected_hits(unit, target, ctx);
    let burst = if b.shell_expected_hits(unit, target, ctx).is_some() {
        ", every stand in the burst attacked"
    } else {
        ""
    };
    let landing = match b.p_lands_on_aim(unit, ctx) {
        Some(p) => format!(", lands on its aim {:.0}%{burst}", p * 100.0),
        None => String::new(),
    };
    format!(
        "{}: {} fires at {} ({}, {}+{landing}, expect {:.2} hits)",
        a.name(),
        uname(b, unit),
        uname(b, target),
        count(plan.dice, "die"),
        plan.effective_to_hit(),
        mean
    )
}
