//! Orders with the mouse: the legal actions of the selected commander or unit (from
//! `legal_actions()`), grouped, as buttons. Hovering one previews it on the table; clicking
//! sends it. With nothing selected, every legal action is listed.

use crate::battle::{Action, Battle};
use crate::ui::common::Selection;
use crate::ui::common::{Asks, heading, plain};
use crate::ui::session::Seats;
use bevy_egui::egui;

/// The group an action is listed under.
pub fn group(a: &Action) -> &'static str {
    match a {
        Action::Order { .. }
        | Action::SelfOrder { .. }
        | Action::Activate { .. }
        | Action::Rally { .. }
        | Action::Attach { .. } => "Order",
        Action::Move { .. }
        | Action::CommanderMove { .. }
        | Action::InitiativeEvade { .. }
        | Action::CounterEvade { .. } => "Move",
        Action::Fire { .. }
        | Action::InitiativeFire { .. }
        | Action::CounterFire { .. }
        | Action::OpportunityFire { .. } => "Fire",
        Action::Charge { .. }
        | Action::InitiativeCharge { .. }
        | Action::CounterCharge { .. }
        | Action::DrawSabers { .. }
        | Action::Support { .. } => "Charge",
        Action::Deploy { .. } | Action::InitiativeDeploy { .. } | Action::Engineer { .. } => "Deploy",
        Action::Pass | Action::EndPhase => "Phase",
    }
}

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

const GROUPS: [&str; 6] = ["Order", "Move", "Fire", "Charge", "Deploy", "Phase"];

pub fn show(
    ui: &mut egui::Ui,
    b: &Battle,
    seats: &Seats,
    sel: &Selection,
    legal: &[Action],
    may_act: bool,
    asks: &mut Asks,
) {
    let actor = b.actor();
    if b.is_over() {
        heading(ui, "The battle is over");
        return;
    }
    if !seats.human(actor) {
        heading(ui, "Orders");
        ui.label(format!(
            "{} is played by the {} agent.",
            b.sides[actor].name, seats.sides[actor]
        ));
        return;
    }
    let anything = *sel != Selection::default();
    let list: Vec<&Action> = if anything {
        legal.iter().filter(|a| concerns(a, sel)).collect()
    } else {
        legal
            .iter()
            .filter(|a| !matches!(a, Action::Pass | Action::EndPhase))
            .collect()
    };
    heading(
        ui,
        if anything {
            "Orders for the selection"
        } else {
            "Every legal action"
        },
    );
    if list.is_empty() {
        ui.label(
            egui::RichText::new(if anything {
                "Nothing this one can do now. Select another, or end the phase."
            } else {
                "No actions but ending the phase."
            })
            .weak(),
        );
    }
    for g in GROUPS {
        let items: Vec<&&Action> = list.iter().filter(|a| group(a) == g).collect();
        if items.is_empty() {
            continue;
        }
        egui::CollapsingHeader::new(format!("{g} ({})", items.len()))
            .id_salt(("orders", g))
            .default_open(true)
            .show(ui, |ui| {
                for a in items.into_iter().take(60) {
                    let text = plain(&b.describe_action(a));
                    let r = ui.add_enabled(may_act, egui::Button::new(egui::RichText::new(text).small()).wrap());
                    if r.hovered() {
                        asks.hover = Some((*a).clone());
                    }
                    if r.clicked() {
                        asks.request = Some((*a).clone());
                    }
                }
            });
    }
}
