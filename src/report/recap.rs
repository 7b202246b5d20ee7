//! A stretch of the battle in a few lines: what each side did, what came of it, what it lost.
//! The hot-seat hand-over says it of the log since the last hand-over; the terminal says it of
//! a computer player's long turn.

use super::words::count;
use crate::battle::{Battle, Event};

/// Most result lines the summary lists (the rest are in the battle log).
pub const SUMMARY_RESULTS: usize = 8;

/// What each side did in a stretch of the log, counted from its events.
#[derive(Default)]
struct Deeds<'b> {
    moved: std::collections::BTreeSet<&'b str>,
    charged: std::collections::BTreeSet<&'b str>,
    evaded: std::collections::BTreeSet<&'b str>,
    fired: u32,
    failed_orders: u32,
    lost: u32,
}

impl Deeds<'_> {
    fn told(&self) -> Vec<String> {
        let named = |what: &str, set: &std::collections::BTreeSet<&str>| {
            let names: Vec<&str> = set.iter().copied().collect();
            format!("{what} {} ({})", count(names.len() as i64, "unit"), names.join(", "))
        };
        let mut parts = Vec::new();
        if !self.moved.is_empty() {
            parts.push(named("moved", &self.moved));
        }
        if !self.charged.is_empty() {
            parts.push(named("charged with", &self.charged));
        }
        if !self.evaded.is_empty() {
            parts.push(named("evaded with", &self.evaded));
        }
        if self.fired > 0 {
            parts.push(format!("fired {}", count(self.fired, "time")));
        }
        if self.failed_orders > 0 {
            parts.push(format!("failed {}", count(self.failed_orders, "order")));
        }
        parts
    }
}

/// What happened in a stretch of the log (each line's event, if any, and its words), in a few
/// lines, read from the events (the words only for the results it quotes): for each side the
/// units that moved, charged or evaded, the fire it opened and the orders that failed; then
/// what came of it (hits, falls back, knock-outs, melees); then the units each side lost.
/// `viewer` is the side to be told: nothing is said of a unit hidden from it.
pub fn recap<'a>(
    b: &Battle,
    lines: impl IntoIterator<Item = (Option<&'a Event>, &'a str)>,
    viewer: Option<crate::battle::SideId>,
) -> Vec<String> {
    use crate::report::Deed;
    let unit_side = |u: crate::battle::UnitId| b.units.get(u as usize).map(|x| x.side).filter(|&s| s < 2);
    let mut deeds: [Deeds; 2] = Default::default();
    let mut results: Vec<&str> = Vec::new();
    for (event, text) in lines {
        let Some(e) = event else { continue };
        if !may_tell(b, e, viewer) {
            continue;
        }
        let told = crate::report::facts(e).summary;
        match told.deed {
            Some(Deed::Moved(u)) => {
                if let Some(side) = unit_side(u) {
                    deeds[side].moved.insert(b.unit(u).name.as_str());
                }
            }
            Some(Deed::Charged(u)) => {
                if let Some(side) = unit_side(u) {
                    deeds[side].charged.insert(b.unit(u).name.as_str());
                }
            }
            Some(Deed::Evaded(u)) => {
                if let Some(side) = unit_side(u) {
                    deeds[side].evaded.insert(b.unit(u).name.as_str());
                }
            }
            Some(Deed::Fired(firer)) => {
                if let Some(side) = firer.and_then(unit_side) {
                    deeds[side].fired += 1;
                }
            }
            Some(Deed::OrderFailed(c)) => {
                let side = b.commander(c).side;
                if side < 2 {
                    deeds[side].failed_orders += 1;
                }
            }
            Some(Deed::SelfOrderFailed(u)) => {
                if let Some(side) = unit_side(u) {
                    deeds[side].failed_orders += 1;
                }
            }
            Some(Deed::Lost(u)) => {
                if let Some(side) = unit_side(u) {
                    deeds[side].lost += 1;
                }
            }
            None => {}
        }
        if told.result {
            results.push(text);
        }
    }
    let mut out = Vec::new();
    for (s, d) in deeds.iter().enumerate().take(b.sides.len()) {
        let parts = d.told();
        if !parts.is_empty() {
            out.push(format!("{} {}.", b.sides[s].name, parts.join(", ")));
        }
    }
    let more = results.len().saturating_sub(SUMMARY_RESULTS);
    out.extend(results.iter().take(SUMMARY_RESULTS).map(|r| r.to_string()));
    if more > 0 {
        out.push(format!("… and {more} more in the battle log."));
    }
    let losses: Vec<String> = (0..b.sides.len().min(2))
        .filter(|&s| deeds[s].lost > 0)
        .map(|s| format!("{} lost {}", b.sides[s].name, count(deeds[s].lost, "unit")))
        .collect();
    if !losses.is_empty() {
        out.push(format!("{}.", losses.join("; ")));
    }
    if out.is_empty() {
        out.push(if b.actions > 0 {
            "Nothing moved, fired or was lost.".into()
        } else {
            "The battle begins: nothing has been played yet.".into()
        });
    }
    out
}

/// Whether `viewer`'s side may be told of event `e`: it is about no unit, or about one the
/// side knows of (`view::PlayerView::knows`, from the core's own rule); `None` is told all.
pub fn may_tell(b: &Battle, e: &Event, viewer: Option<crate::battle::SideId>) -> bool {
    crate::report::facts(e)
        .summary
        .about
        .is_none_or(|u| (u as usize) < b.units.len() && viewer.is_none_or(|s| b.known_to(s, u)))
}
