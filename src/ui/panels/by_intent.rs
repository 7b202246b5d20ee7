//! The orders panel's intents: "By intent" for the selection (a commander's formation, the
//! units his last box ordered, a unit alone) and the side's standing intents ("Carry on").
//! Each button puts an intent in hand (`ui::intent`).

use super::entry::{Click, Entry, OrderGroup, and_list, titled};
use crate::battle::Battle;
use crate::battle::intent::StandingIntent;
use crate::battle::state::{SideId, UnitId};
use crate::report::count;
use crate::terminal::words::cm;
use crate::ui::common::{BoxedGroup, Selection};

/// The standing intents as buttons: all of them with nothing selected, else those sharing a
/// unit with the selection's formation.
pub(super) fn carry_on(b: &Battle, sel: &Selection, standing: &[StandingIntent]) -> Option<OrderGroup> {
    let mine: Option<Vec<UnitId>> = match (sel.unit, sel.commander) {
        (None, None) => None,
        (Some(u), _) => Some(vec![u]),
        (None, Some(c)) if (c as usize) < b.commanders.len() => Some(b.commanded_units(c).map(|u| u.id).collect()),
        _ => Some(Vec::new()),
    };
    let entries: Vec<Entry> = standing
        .iter()
        .filter(|s| mine.as_ref().is_none_or(|m| s.units.iter().any(|u| m.contains(u))))
        .map(|s| Entry {
            text: format!("Carry on: {}", crate::battle::intent::Standing::words(b, s)),
            click: Click::Intent(crate::ui::common::IntentAsk {
                side: s.side,
                units: s.units.clone(),
                who: s.who.clone(),
                intent: s.intent.clone(),
            }),
        })
        .collect();
    (!entries.is_empty()).then(|| OrderGroup {
        title: titled("Standing intents", entries.len()),
        note: Some("Intents left short in an earlier turn: carry one on (its order is rolled again).".into()),
        entries,
        open: true,
    })
}

/// The units a selection orders by intent, with who they are in words: the units the selected
/// commander's box ordered this turn ("13th Alabama, 1st Tennessee and 7th Tennessee", "4
/// units of Archer's brigade"), a commander's whole formation ("Heth's division"), or a unit
/// alone.
pub fn formation_of(b: &Battle, sel: &Selection, boxed: Option<&BoxedGroup>) -> Option<(SideId, Vec<UnitId>, String)> {
    if let (None, Some(c), Some(g)) = (sel.unit, sel.commander, boxed)
        && g.commander == Some(c)
        && g.turn == b.player_turn
        && (c as usize) < b.commanders.len()
    {
        let units: Vec<UnitId> = g
            .units
            .iter()
            .copied()
            .filter(|&u| (u as usize) < b.units.len() && b.unit(u).alive())
            .collect();
        if !units.is_empty() {
            let cm = b.commander(c);
            let who = if units.len() <= 3 {
                let names: Vec<&str> = units.iter().map(|&u| b.unit(u).name.as_str()).collect();
                and_list(&names)
            } else {
                format!(
                    "{} units of {}",
                    units.len(),
                    crate::report::intent::formation_words(b, cm)
                )
            };
            return Some((cm.side, units, who));
        }
    }
    match (sel.unit, sel.commander) {
        (Some(u), _) if (u as usize) < b.units.len() && b.unit(u).alive() => {
            Some((b.unit(u).side, vec![u], b.unit(u).name.clone()))
        }
        (None, Some(c)) if (c as usize) < b.commanders.len() && b.commander(c).alive() => {
            let cm = b.commander(c);
            let units: Vec<UnitId> = b.commanded_units(c).map(|u| u.id).collect();
            (!units.is_empty()).then(|| (cm.side, units, crate::report::intent::formation_words(b, cm)))
        }
        _ => None,
    }
}

/// How many of the enemy units nearest a formation its intents offer by name.
const INTENT_ENEMIES: usize = 3;

/// "By intent", in the command phase of the selection's side: to each of its objectives,
/// into range of (and to charge reach of) the nearest enemies it knows of, form line facing
/// the nearest, hold. Each puts the intent in hand: the order is rolled, then each unit makes
/// its best legal move for it, said in the log.
pub fn intents(b: &Battle, sel: &Selection, boxed: Option<&BoxedGroup>) -> Option<OrderGroup> {
    let (side, units, who) = formation_of(b, sel, boxed)?;
    if b.phase != crate::battle::Phase::Command || b.active != side || b.actor() != side || b.is_over() {
        return None;
    }
    use crate::battle::intent::{Aim, Intent};
    let ask = |intent: Intent| {
        Click::Intent(crate::ui::common::IntentAsk {
            side,
            units: units.clone(),
            who: who.clone(),
            intent,
        })
    };
    let mut entries = Vec::new();
    for p in b
        .places(side)
        .into_iter()
        .filter(|p| matches!(p.kind, crate::battle::intent::PlaceKind::Objective(_)))
    {
        entries.push(Entry {
            text: format!("To {}", p.name),
            click: ask(Intent::To(p)),
        });
    }
    let n = units.len() as f64;
    let middle = units.iter().fold(crate::rules::geometry::V2::new(0.0, 0.0), |a, &u| {
        a + b.unit(u).pose.pos * (1.0 / n)
    });
    let mut enemies: Vec<(f64, UnitId)> = b
        .side_units(1 - side)
        .filter(|e| e.alive() && b.known_to(side, e.id))
        .map(|e| (e.pose.pos.dist(middle), e.id))
        .collect();
    enemies.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    for &(d, e) in enemies.iter().take(INTENT_ENEMIES) {
        entries.push(Entry {
            text: format!("Into range of {} ({} cm off)", b.unit(e).name, cm(d)),
            click: ask(Intent::IntoRange(e)),
        });
    }
    if let Some(&(_, e)) = enemies.first() {
        let name = &b.unit(e).name;
        entries.push(Entry {
            text: format!("To charge reach of {name}"),
            click: ask(Intent::ChargeReach(e)),
        });
        entries.push(Entry {
            text: format!("Form line facing {name}"),
            click: ask(Intent::Face(Aim::Unit(e))),
        });
    }
    entries.push(Entry {
        text: "Hold: no order, no move".into(),
        click: ask(Intent::Hold),
    });
    // Open for a commander's formation; a unit's own orders come first, its intents folded.
    Some(OrderGroup {
        open: sel.unit.is_none(),
        title: format!("By intent: {who}"),
        note: Some(format!(
            "{}: the order is rolled, then each unit makes its best legal move for it, said in the log.",
            count(units.len() as i64, "unit")
        )),
        entries,
    })
}
