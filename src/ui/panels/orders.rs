//! Orders with the mouse: the legal actions of the selected commander or unit (from
//! `legal_actions()`), grouped and said in words, as buttons. Hovering one previews it on the
//! table; clicking sends it. A unit's moves are a few named ones (advance a full or half move,
//! wheel left or right, retire, about face), the rest folded away, and dragging it on the table
//! moves it anywhere. With nothing selected, who may act is listed, to select.
//!
//! [`entries`] says what the panel lists (testable without a window); [`show`] draws it.

use crate::battle::fire::FireContext;
use crate::battle::intent::StandingIntent;
use crate::battle::state::{CmdId, Step, UnitId};
use crate::battle::{Action, Battle, Purpose};
use crate::report::{capital, count};
use crate::rules::geometry::{Pose, wrap_angle};
use crate::terminal::words::{cm, compass, place_phrase, relative_bearing, relative_move};
use crate::ui::common::{Asks, heading, plain};
use crate::ui::common::{BoxedGroup, Selection};
use crate::ui::session::Seats;
use bevy_egui::egui;

use super::by_intent::carry_on;
pub use super::by_intent::{formation_of, intents};
pub use super::entry::{Click, Entry, OrderGroup, group};
use super::entry::{and_list, titled};
use super::who::who_may_act;

/// Does `a` concern the selection?
pub fn concerns(a: &Action, sel: &Selection) -> bool {
    match a {
        Action::Order { commander, units, .. } => {
            sel.commander == Some(*commander) || sel.unit.is_some_and(|u| units.contains(&u))
        }
        Action::CommanderMove { commander, .. } => sel.commander == Some(*commander),
        Action::Attach { unit, hq } => sel.commander == Some(*hq) || sel.unit == Some(*unit),
        _ => a.unit().is_some_and(|u| sel.unit == Some(u)),
    }
}

const GROUPS: [&str; 5] = ["Order", "Move", "Fire", "Charge", "Deploy"];

/// What the orders panel lists for the selection, among the `legal` actions: for a unit or a
/// commander, the actions concerning it grouped and in words (a few named moves, the others
/// folded away in "More moves"); with nothing selected, who may act, to select. The phase's
/// own actions (end phase, pass) are the phase bar's.
pub fn entries(b: &Battle, sel: &Selection, legal: &[Action]) -> Vec<OrderGroup> {
    entries_boxed(b, sel, None, legal)
}

/// What the panel lists beside the legal actions: the units the selected commander's last
/// box ordered this turn (his intents are for them), and the side's standing intents.
#[derive(Clone, Copy, Default)]
pub struct Extras<'a> {
    pub boxed: Option<&'a BoxedGroup>,
    pub standing: &'a [StandingIntent],
    /// The acting computer side's plan, as said to the person at the table (on a big battle).
    pub plan: Option<&'a str>,
}

/// [`entries`] with the [`Extras`]: standing intents first ("Carry on: Archer's brigade to
/// McPherson's Ridge"), with nothing selected or for the selected commander's units.
pub fn entries_with(b: &Battle, sel: &Selection, extras: Extras, legal: &[Action]) -> Vec<OrderGroup> {
    let carry = carry_on(b, sel, extras.standing);
    let mut groups: Vec<OrderGroup> = carry.into_iter().collect();
    groups.extend(entries_boxed(b, sel, extras.boxed, legal));
    groups
}

/// [`entries`], the last box's units (`boxed`) being what the selected commander's intents
/// are for, if he ordered them by a box this turn.
pub fn entries_boxed(b: &Battle, sel: &Selection, boxed: Option<&BoxedGroup>, legal: &[Action]) -> Vec<OrderGroup> {
    if *sel == Selection::default() {
        return who_may_act(b, legal);
    }
    let mine: Vec<&Action> = legal
        .iter()
        .filter(|a| concerns(a, sel) && group(a) != "Phase")
        .collect();
    let mut out: Vec<OrderGroup> = intents(b, sel, boxed).into_iter().collect();
    for g in GROUPS {
        let mut items: Vec<&Action> = mine.iter().copied().filter(|a| group(a) == g).collect();
        if items.is_empty() {
            continue;
        }
        // A commander's order to his whole formation (or several units) before his orders to
        // one regiment (BPT "Formation Orders").
        items.sort_by_key(|a| !matches!(a, Action::Order { units, .. } if units.len() > 1));
        if g == "Move" {
            moves(b, sel, &items, &mut out);
            continue;
        }
        let entries: Vec<Entry> = items
            .iter()
            .map(|a| Entry {
                text: say(b, sel, a),
                click: Click::Act((*a).clone()),
            })
            .collect();
        let name = match g {
            "Order" => "Orders",
            "Deploy" => "Formation and drill",
            other => other,
        };
        out.push(OrderGroup {
            title: titled(name, entries.len()),
            note: None,
            entries,
            open: true,
        });
    }
    out
}

/// A legal move of a unit, measured from where it stands.
struct Walk<'a> {
    a: &'a Action,
    to: Pose,
    /// Degrees, left positive.
    turn: f64,
    fwd: f64,
    left: f64,
}

const EPS_CM: f64 = 0.05;
const EPS_DEG: f64 = 0.5;

impl Walk<'_> {
    fn straight(&self) -> bool {
        self.turn.abs() < EPS_DEG && self.left.abs() < EPS_CM
    }
    fn about(&self) -> bool {
        self.turn.abs() > 180.0 - EPS_DEG
    }
    fn dist(&self) -> f64 {
        self.fwd.hypot(self.left)
    }
}

/// The Move group: for a unit, how to drag it and a few named moves among the legal ones
/// (advance a full and half move, the widest wheel each way, retire, about face), the others
/// folded under "More moves"; a commander's rides; evasions.
fn moves(b: &Battle, sel: &Selection, items: &[&Action], out: &mut Vec<OrderGroup>) {
    let mut named: Vec<Entry> = Vec::new();
    let mut walks: Vec<Walk> = Vec::new();
    let mut unit_moves = 0;
    for a in items {
        match a {
            Action::Move { unit, to } if (*unit as usize) < b.units.len() => {
                unit_moves += 1;
                let from = b.unit(*unit).pose;
                let d = to.pos - from.pos;
                walks.push(Walk {
                    a,
                    to: *to,
                    turn: wrap_angle(to.facing - from.facing).to_degrees(),
                    fwd: d.x * from.facing.cos() + d.y * from.facing.sin(),
                    left: -d.x * from.facing.sin() + d.y * from.facing.cos(),
                });
            }
            _ => named.push(Entry {
                text: say(b, sel, a),
                click: Click::Act((*a).clone()),
            }),
        }
    }
    let mut picked: Vec<usize> = Vec::new();
    if let Some(&u) = sel.unit.as_ref().filter(|u| (**u as usize) < b.units.len()) {
        let rate = b.unit(u).move_rate();
        let from = b.unit(u).pose;
        let best = |keep: &dyn Fn(&Walk) -> bool, key: &dyn Fn(&Walk) -> f64, picked: &[usize]| {
            walks
                .iter()
                .enumerate()
                .filter(|(i, w)| !picked.contains(i) && keep(w))
                .max_by(|x, y| key(x.1).total_cmp(&key(y.1)).then(y.0.cmp(&x.0)))
                .map(|(i, _)| i)
        };
        // Advance: the longest straight advance, and the one nearest half of it.
        let full = best(&|w| w.straight() && w.fwd > EPS_CM, &|w| w.fwd, &picked);
        if let Some(i) = full {
            picked.push(i);
            let longest = walks[i].fwd;
            if let Some(j) = best(
                &|w| w.straight() && w.fwd > EPS_CM && w.fwd < longest * 0.75,
                &|w| -(w.fwd - longest / 2.0).abs(),
                &picked,
            ) {
                picked.push(j);
            }
        }
        // The widest wheel (or turn) each way; of equal ones, the one that moves.
        for side in [1.0, -1.0] {
            if let Some(i) = best(
                &|w| !w.about() && w.turn * side > EPS_DEG,
                &|w| w.turn.abs() * 1000.0 + w.dist(),
                &picked,
            ) {
                picked.push(i);
            }
        }
        // Retire: the longest straight step back; about face: the one that moves least.
        if let Some(i) = best(&|w| w.straight() && w.fwd < -EPS_CM, &|w| -w.fwd, &picked) {
            picked.push(i);
        }
        if let Some(i) = best(&|w| w.about(), &|w| -w.dist(), &picked) {
            picked.push(i);
        }
        let said: Vec<Entry> = picked
            .iter()
            .map(|&i| Entry {
                text: move_name(&from, &walks[i], rate),
                click: Click::Act(walks[i].a.clone()),
            })
            .collect();
        named.splice(0..0, said);
    }
    let note = (unit_moves > 0).then(|| {
        "Drag the unit on the table to move it anywhere it may go; turn the mouse wheel while \
         dragging to turn it (15° a notch). Or click a move below."
            .to_string()
    });
    let title = if sel.unit.is_none() && sel.commander.is_some() {
        "Ride"
    } else {
        "Move"
    };
    if !named.is_empty() || note.is_some() {
        out.push(OrderGroup {
            title: titled(title, named.len()),
            note,
            entries: named,
            open: true,
        });
    }
    // The others in words; a move said the same as one already listed is left out (the
    // generated destinations include near twins: a full advance and one towards an enemy
    // straight ahead).
    let words = |w: &Walk| {
        let from = match w.a {
            Action::Move { unit, .. } => b.unit(*unit).pose,
            _ => w.to,
        };
        capital(&relative_move(&from, &w.to))
    };
    let mut said: Vec<String> = picked.iter().map(|&i| words(&walks[i])).collect();
    let mut rest: Vec<Entry> = Vec::new();
    for (i, w) in walks.iter().enumerate() {
        let text = words(w);
        if picked.contains(&i) || said.contains(&text) {
            continue;
        }
        said.push(text.clone());
        rest.push(Entry {
            text,
            click: Click::Act(w.a.clone()),
        });
    }
    if !rest.is_empty() {
        let open = picked.is_empty();
        out.push(OrderGroup {
            title: format!("More moves ({})", rest.len()),
            note: None,
            entries: rest,
            open,
        });
    }
}

/// A named move: "Advance a full move (30 cm)", "Wheel 45° left", "Turn 45° right in place",
/// "Retire 7.5 cm", "About face".
fn move_name(from: &Pose, w: &Walk, rate: f64) -> String {
    if w.straight() && w.fwd > 0.0 {
        let f = if rate > 0.0 { w.fwd / rate } else { 0.0 };
        let d = cm(w.fwd);
        return if (f - 1.0).abs() < 0.02 {
            format!("Advance a full move ({d} cm)")
        } else if (f - 0.5).abs() < 0.02 {
            format!("Advance half a move ({d} cm)")
        } else if (f - 0.25).abs() < 0.02 {
            format!("Advance a quarter move ({d} cm)")
        } else {
            format!("Advance {d} cm")
        };
    }
    // The wheel's centre in brackets is for the long list; a named wheel is its angle.
    let text = relative_move(from, &w.to);
    let text = text.split(" (centre").next().unwrap_or(&text);
    capital(text)
}

/// A need with its modifiers in words: "need ≤ 6: command 7, -1 for 25 cm away".
fn need(target: i32, value: Option<i32>, mods: &[crate::battle::event::Modifier], distance: f64) -> String {
    let mut parts: Vec<String> = value.map(|v| format!("command {v}")).into_iter().collect();
    parts.extend(mods.iter().map(|m| {
        format!(
            "{:+} for {}",
            m.amount,
            modifier_words(crate::report::words::rule_words(m.rule), distance)
        )
    }));
    if parts.is_empty() {
        format!("need ≤ {target}")
    } else {
        format!("need ≤ {target}: {}", parts.join(", "))
    }
}

/// A modifier's rule as a reason: "BPT Command Modifiers note 2: distance to the farthest
/// unit" → "25 cm away" (said after "-1 for").
fn modifier_words(rule: &str, distance: f64) -> String {
    if rule.contains("distance to the farthest") {
        return format!("{} cm away", cm(distance));
    }
    if rule.contains("Opportunity Fire") {
        return "opportunity fire last turn".into();
    }
    if let Some(w) = rule.strip_prefix("BPT Weather: ") {
        return format!("{w} weather");
    }
    rule.rsplit(": ").next().unwrap_or(rule).to_string()
}

/// A roll of one die: "need 4+" with its modifiers.
fn die_need(plan: Option<&crate::battle::passing::RollPlan>) -> String {
    match plan {
        Some(p) if p.modifiers.is_empty() => format!("need {}+", p.target),
        Some(p) => format!(
            "need {}+: {}",
            p.target,
            p.modifiers
                .iter()
                .map(|m| format!(
                    "{:+} for {}",
                    m.amount,
                    modifier_words(crate::report::words::rule_words(m.rule), 0.0)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => "need ?".into(),
    }
}

fn fire_text(b: &Battle, unit: UnitId, target: UnitId, ctx: FireContext, lead: &str) -> String {
    // As the fire will be rolled: after a square it forces (BPT "Square").
    let fired_on = b.as_fired_on(target);
    let b = &*fired_on;
    let plan = b.fire_plan(unit, target, ctx);
    let to_hit = plan.effective_to_hit();
    // A shell's burst attacks every stand in it (`Battle::fire_expected_hits`).
    let mean = b.fire_expected_hits(unit, target, ctx);
    let mut aim = String::new();
    if let Some(p) = b.p_lands_on_aim(unit, ctx) {
        aim = format!(", lands on its aim {:.0}%", p * 100.0);
    }
    format!(
        "{lead} {} ({}, hit on {to_hit}+{aim}, about {mean:.1} hits)",
        b.unit(target).name,
        count(plan.dice as i64, "die")
    )
}

fn charge_text(b: &Battle, unit: UnitId, target: UnitId, lead: &str) -> String {
    let o = b.charge_estimate(unit, target);
    format!(
        "{lead} {} (wins {:.0}%, loses {:.0}%)",
        b.unit(target).name,
        (o.a_double + o.a_wins) * 100.0,
        (o.b_double + o.b_wins) * 100.0
    )
}

fn order_text(b: &Battle, sel: &Selection, c: CmdId, units: &[UnitId], flags: [bool; 3]) -> String {
    let [charge, dense, road] = flags;
    let names: Vec<&str> = units.iter().map(|u| b.unit(*u).name.as_str()).collect();
    let lead = if sel.commander == Some(c) {
        format!("Order {}", and_list(&names))
    } else {
        format!("{} orders {}", b.commander(c).name, and_list(&names))
    };
    let mut how = Vec::new();
    if charge {
        how.push("may charge");
    }
    if dense {
        how.push("into dense terrain");
    }
    if road {
        how.push("along the road");
    }
    let need = match b.check_order_by(c, units, charge, dense, road) {
        Ok(p) => need(p.target, Some(p.value), &p.modifiers, p.distance),
        Err(_) => "need ?".into(),
    };
    format!(
        "{lead}{}{} ({need})",
        if how.is_empty() { "" } else { ", " },
        how.join(", ")
    )
}

/// An action in the panel's words, seen from the selection (so the selected unit's own name is
/// left out where it acts).
pub fn say(b: &Battle, sel: &Selection, a: &Action) -> String {
    if !crate::terminal::words::names_known_pieces(b, a) {
        return capital(&plain(&crate::report::heading(b, a)));
    }
    let text = match a {
        Action::Order {
            commander,
            units,
            charge,
            dense,
            road,
        } => order_text(b, sel, *commander, units, [*charge, *dense, *road]),
        Action::SelfOrder { .. } => "Order itself to move towards its nearest commander".into(),
        Action::Activate { unit, purpose, into } => format!(
            "Activate {}{} ({})",
            match purpose {
                Purpose::Move => "to move",
                Purpose::Formation => "to change formation",
                Purpose::Charge => "to move or charge",
            },
            if *into > crate::battle::Ground::Open {
                format!(" into {into}")
            } else {
                String::new()
            },
            die_need(b.activation_plan(*unit, *purpose, *into).ok().as_ref())
        ),
        Action::Rally { unit } => format!(
            "Rally: remove a D-marker ({})",
            die_need(b.rally_plan(*unit).ok().as_ref())
        ),
        Action::Attach { unit, hq } => {
            let need = match b.check_attach(*unit, *hq) {
                Ok(p) => need(p.target, Some(p.value), &p.modifiers, 0.0),
                Err(_) => "need ?".into(),
            };
            if sel.unit == Some(*unit) {
                format!("Attach to {}'s formation ({need})", b.commander(*hq).name)
            } else {
                format!("Attach {} to this formation ({need})", b.unit(*unit).name)
            }
        }
        Action::Move { unit, to } => capital(&relative_move(&b.unit(*unit).pose, to)),
        Action::CommanderMove { commander, to } => {
            let c = b.commander(*commander);
            let dir = *to - c.pos;
            let near = b
                .side_units(c.side)
                .map(|u| (u, u.pose.pos.dist(*to)))
                .min_by(|x, y| x.1.total_cmp(&y.1));
            format!(
                "Ride {} cm {}{}",
                cm(c.pos.dist(*to)),
                compass(dir.y.atan2(dir.x).to_degrees()),
                near.map(|(u, d)| format!(
                    ", to {} cm {} {}",
                    cm(d),
                    place_phrase(relative_bearing(&u.pose, *to)),
                    u.name
                ))
                .unwrap_or_default()
            )
        }
        Action::InitiativeEvade { .. } | Action::CounterEvade { .. } => "Evade: a full move away from the enemy".into(),
        Action::Fire { unit, target } => fire_text(b, *unit, *target, FireContext::Order, "Fire at"),
        Action::InitiativeFire { unit, target } => fire_text(b, *unit, *target, FireContext::Initiative, "Fire at"),
        Action::OpportunityFire { unit, target, with } => {
            let t = fire_text(b, *unit, *target, FireContext::Opportunity, "Fire at");
            if with.is_empty() {
                t
            } else {
                let names: Vec<&str> = with.iter().map(|u| b.unit(*u).name.as_str()).collect();
                format!("{t}, together with {}, one roll", and_list(&names))
            }
        }
        Action::FireTogether { unit, target, with } => {
            let t = fire_text(b, *unit, *target, FireContext::Order, "Fire at");
            let names: Vec<&str> = with.iter().map(|u| b.unit(*u).name.as_str()).collect();
            format!("{t}, together with {}, one roll", and_list(&names))
        }
        Action::CounterFire { unit } => match &b.step {
            Step::CounterInitiative { charger, .. } => {
                fire_text(b, *unit, *charger, FireContext::Counter, "Fire at the charging")
            }
            _ => "Fire at the chargers".into(),
        },
        Action::Charge { unit, target } | Action::InitiativeCharge { unit, target } => {
            charge_text(b, *unit, *target, "Charge")
        }
        Action::CounterCharge { .. } => "Counter-charge: meet the charge".into(),
        Action::Support { friend, .. } => format!("Move in support of {}", b.unit(*friend).name),
        Action::DrawSabers { .. } => "Draw sabers: +1 attack a stand in its charges this turn, no firing".into(),
        Action::Deploy { deploy, .. }
        | Action::InitiativeDeploy { deploy, .. }
        | Action::CounterDeploy { deploy, .. } => capital(&deploy.to_string()),
        Action::Engineer { unit, .. } => {
            let d = crate::report::heading(b, a);
            let lead = format!("engineer task: {} ", b.unit(*unit).name);
            capital(d.strip_prefix(&lead).unwrap_or(&d))
        }
        Action::Consolidate { unit, to } => capital(&format!(
            "consolidate: {}",
            crate::report::action::consolidation_words(&b.unit(*unit).pose, to, false)
        )),
        Action::Pass if matches!(b.step, Step::Consolidate { .. }) => "Consolidate: stay where it stands".into(),
        Action::Pass => "Pass".into(),
        Action::EndPhase => "End the phase".into(),
    };
    // The unit acting is said when it is not the one selected (a commander's view).
    let text = match a.unit() {
        Some(u) if sel.unit != Some(u) && !matches!(a, Action::Attach { .. } | Action::Order { .. }) => {
            format!("{}: {text}", b.unit(u).name)
        }
        _ => text,
    };
    plain(&text)
}

/// What the panel says when the selection has no action: for a unit of the side to act, the
/// rule that stops it (issue 65: an action never vanishes without a reason).
pub fn nothing_to_do(b: &Battle, sel: &Selection, legal: &[Action], anything: bool) -> String {
    let why = sel
        .unit
        .filter(|&u| (u as usize) < b.units.len() && b.unit(u).side == b.actor())
        .and_then(|u| b.why_idle(u, legal));
    match why {
        Some(r) => format!(
            "No action now: {} ({}). Select another, or end the phase.",
            r.reason, r.rule
        ),
        None if anything => "Nothing this one can do now. Select another, or end the phase.".into(),
        None => "No actions but ending the phase.".into(),
    }
}

pub fn show(
    ui: &mut egui::Ui,
    b: &Battle,
    seats: &Seats,
    (sel, extras): (&Selection, Extras),
    legal: &[Action],
    may_act: bool,
    asks: &mut Asks,
) {
    let actor = b.actor();
    if b.is_over() {
        heading(ui, "The battle is over");
        return;
    }
    if seats.hides_hand_of(actor) {
        heading(ui, "Orders");
        ui.label(format!(
            "{} acts next: their orders are shown to them after the hand-over.",
            b.sides[actor].name
        ));
        return;
    }
    if !seats.human(actor) {
        heading(ui, "Orders");
        ui.label(format!(
            "{} is played by the {} agent.",
            b.sides[actor].name, seats.sides[actor]
        ));
        if let Some(plan) = extras.plan {
            let text = crate::report::capital(plan);
            let r = ui.label(egui::RichText::new(&text).small());
            // The probe's `orders` holds the plan as drawn, for the window's tests.
            asks.shown.push((text, window_rect(ui, r.rect)));
        }
        return;
    }
    let anything = *sel != Selection::default();
    let title = match (sel.unit, sel.commander) {
        (Some(u), _) if (u as usize) < b.units.len() => format!("Orders for {}", b.unit(u).name),
        (None, Some(c)) if (c as usize) < b.commanders.len() => format!("Orders for {}", b.commander(c).name),
        _ => "Orders".into(),
    };
    heading(ui, &title);
    let groups = entries_with(b, sel, extras, legal);
    if groups.is_empty() {
        ui.label(egui::RichText::new(nothing_to_do(b, sel, legal, anything)).weak());
    }
    for (k, g) in groups.iter().enumerate() {
        // The salt is the group's name without its count, so a group keeps its folding.
        let key = g.title.split(" (").next().unwrap_or(&g.title).to_string();
        let folding = egui::CollapsingHeader::new(&g.title)
            .id_salt(("orders", key, k))
            .default_open(g.open)
            .show(ui, |ui| {
                if let Some(note) = &g.note {
                    ui.label(egui::RichText::new(note).weak().small());
                }
                for e in &g.entries {
                    let r = ui.add_enabled(
                        may_act || matches!(e.click, Click::Select(_)),
                        egui::Button::new(egui::RichText::new(&e.text).small()).wrap(),
                    );
                    match &e.click {
                        Click::Act(a) => {
                            if r.hovered() {
                                asks.hover = Some(a.clone());
                            }
                            if r.clicked() {
                                asks.request = Some(a.clone());
                            }
                        }
                        Click::Select(s) => {
                            if r.clicked() {
                                asks.select = Some(*s);
                            }
                        }
                        Click::Intent(i) => {
                            if r.clicked() {
                                asks.intent = Some(i.clone());
                            }
                        }
                    }
                    asks.shown.push((e.text.clone(), window_rect(ui, r.rect)));
                }
            });
        // A heading is a button too (it folds and unfolds its group).
        let head = window_rect(ui, folding.header_response.rect);
        asks.shown.push((g.title.clone(), head));
    }
}

/// An egui rectangle in the window's pixels (the probe's).
fn window_rect(ui: &egui::Ui, r: egui::Rect) -> [f32; 4] {
    let k = ui.ctx().zoom_factor();
    [r.min.x * k, r.min.y * k, r.max.x * k, r.max.y * k]
}
