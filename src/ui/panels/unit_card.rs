//! The unit card: the selected unit's stat line, formation, stands, hits and status, or the
//! selected commander's rank, quality and command value.

use crate::battle::Battle;
use crate::report::capital;
use crate::ui::common::Selection;
use crate::ui::common::{heading, side_colour};
use crate::view::PlayerView;
use bevy_egui::egui;

/// The card of the selection as `view`'s side may know it: a unit it may not know of (hidden,
/// or dug in and unseen since it was selected) shows as nothing selected.
pub fn show(ui: &mut egui::Ui, b: &Battle, view: &PlayerView, sel: &Selection) {
    if let Some(id) = sel.unit.filter(|&u| view.unit(u).is_some()) {
        unit_card(ui, b, id, view.sees_hand_of(b.unit(id).side));
    } else if let Some(id) = sel.commander.filter(|c| (*c as usize) < b.commanders.len()) {
        commander_card(ui, b, id);
    } else {
        heading(ui, "Nothing selected");
        ui.label(egui::RichText::new("Click a stand or a commander on the table.").weak());
    }
}

/// The selected unit's card; `hand`: the viewer may know its side's hand (a gun's loaded
/// ammunition is shown only then).
fn unit_card(ui: &mut egui::Ui, b: &Battle, id: crate::battle::UnitId, hand: bool) {
    let u = b.unit(id);
    heading(ui, &u.name);
    ui.label(egui::RichText::new(&b.sides[u.side].name).color(side_colour(u.side)));
    let r = &u.row;
    ui.label(format!(
        "{} ({}, {})",
        r.name,
        crate::report::words_of(&format!("{:?}", r.arm)),
        crate::report::words_of(&format!("{:?}", u.grade))
    ));
    egui::Grid::new("stat_line").striped(true).show(ui, |ui| {
        for h in ["Move", "Attacks", "Range", "Hits", "Save"] {
            ui.label(egui::RichText::new(h).small().strong());
        }
        ui.end_row();
        ui.label(format!("{} cm", u.move_rate()));
        ui.label(r.attacks.to_string());
        ui.label(format!("{} cm", r.range));
        ui.label(r.hits.to_string());
        ui.label(r.save.map(|s| format!("{s}+")).unwrap_or_else(|| "—".into()));
        ui.end_row();
    });
    ui.label(format!("Formation: {}", u.formation));
    ui.label(format!("Stands: {} of {}", u.stands, u.start_stands));
    ui.label(format!(
        "Hits this turn: {} (stand takes {}, unit {})",
        u.hits,
        u.stand_hits(&b.rules, b.player_turn),
        u.hits_value(&b.rules, b.player_turn)
    ));
    let status = unit_status(b, u, hand);
    ui.label(format!(
        "Status: {}",
        if status.is_empty() {
            "steady".to_string()
        } else {
            status.join(", ")
        }
    ));
    if b.rules.switches.on(crate::rules::switches::Switch::InitiativePassing) {
        ui.label(format!(
            "D-markers: {} of {} (each +1 to its activation, rally and to-hit scores)",
            u.d_markers, b.rules.initiative_passing.max_d_markers
        ));
        if let Ok(plan) = b.activation_plan(u.id, crate::battle::Purpose::Move, crate::battle::Ground::Open) {
            ui.label(format!("Activation: {:.0}% to pass", plan.chance() * 100.0));
        }
    }
    if let Some(g) = b.morale_grade(u.id) {
        ui.label(format!(
            "Morale: {} (suppressed on {}+, knocked out falling back over {:.0} cm, hit on {}+ in a charge)",
            crate::report::words_of(&format!("{:?}", u.morale.unwrap_or_default())),
            g.suppressed_on,
            g.fall_back_ko,
            g.charge_to_hit
        ));
    }
    if let Some(p) = b.pending_order_of(u.id).filter(|_| hand) {
        ui.label(format!(
            "Order on its way from {}: takes effect in turn {} ({:.0} cm away)",
            b.commander(p.commander).name,
            p.due_game_turn,
            p.distance
        ));
    }
    // Its brigade is its side's hand (the player view withholds an enemy unit's commander,
    // which an attachment may change).
    if hand {
        ui.label(format!("Brigade: {}", b.commander(u.hq).name));
    }
    if let Some(n) = &u.nation {
        ui.label(format!("Nation: {n} (orders only from the army HQ or {n} HQs)"));
    }
    if let Some(o) = b.cmd.orders.get(&u.id).filter(|_| hand) {
        ui.label(format!(
            "Orders: {} this turn {}, {} left{}",
            o.count,
            order_source(b, o),
            crate::report::count(o.credits, "action"),
            if o.finished { ", finished" } else { "" }
        ));
    }
    for line in note_lines(b, u) {
        ui.label(egui::RichText::new(line).small());
    }
}

/// The army list's special rules for the unit's row, in words ("Note 1: Regular infantry may
/// be graded Elite …"); a note the list does not word is given by its number.
pub fn note_lines(b: &Battle, u: &crate::battle::state::Unit) -> Vec<String> {
    let worded = b.notes.get(u.side);
    u.row
        .notes
        .iter()
        .map(|n| match worded.and_then(|w| w.iter().find(|(k, _)| k == n)) {
            Some((_, text)) => format!("Note {n}: {text}"),
            None => format!("Note {n} of the army list"),
        })
        .collect()
}

/// What the unit's state is, in words ("suppressed", "limbered", "prone (…)"); none is steady.
fn unit_status(b: &Battle, u: &crate::battle::state::Unit, hand: bool) -> Vec<String> {
    let mut status = Vec::new();
    if !u.alive() {
        status.push("lost".to_string());
    }
    if u.suppressed() {
        status.push("suppressed".into());
    }
    if u.disordered(b.player_turn) {
        status.push("disordered".into());
    }
    if u.exhausted {
        status.push("exhausted".into());
    }
    if u.is_artillery() {
        status.push(if u.limbered {
            "limbered".into()
        } else {
            "unlimbered".into()
        });
        if let Some(ammo) = u.loaded.filter(|_| hand) {
            status.push(format!("loaded: {}", crate::report::words_of(&format!("{ammo:?}"))));
        }
    }
    if u.dug_in {
        status.push("dug in".into());
    }
    if b.is_prone(u.id) {
        status.push("prone (one hit fewer per fire; may not move)".into());
    }
    if u.hidden {
        status.push("hidden from the enemy".into());
    }
    if u.scout {
        status.push(if u.scout_free {
            "scouting (moves without orders)".into()
        } else {
            "scouting (needs one order first)".into()
        });
    }
    if u.is_cavalry() && !u.mounted() {
        status.push("dismounted".into());
    }
    status
}

/// The selected commander's card.
fn commander_card(ui: &mut egui::Ui, b: &Battle, id: crate::battle::state::CmdId) {
    let c = b.commander(id);
    heading(ui, &c.name);
    ui.label(egui::RichText::new(&b.sides[c.side].name).color(side_colour(c.side)));
    ui.label(format!(
        "{} commander, {}",
        capital(&crate::report::words_of(&format!("{:?}", c.row.level))),
        crate::report::words_of(&format!("{:?}", c.row.quality))
    ));
    ui.label(format!("Command value: {}", c.command_value));
    if let Some(n) = &c.nation {
        ui.label(format!("Nation: {n}"));
    }
    ui.label(format!(
        "Move: {} cm ({})",
        c.move_rate(),
        if c.mounted { "mounted" } else { "on foot" }
    ));
    if let Some(s) = c.superior {
        ui.label(format!("Superior: {}", b.commander(s).name));
    }
    let units: Vec<&str> = b
        .alive_units()
        .filter(|u| u.hq == id)
        .map(|u| u.name.as_str())
        .collect();
    if !units.is_empty() {
        ui.label(egui::RichText::new(format!("Commands: {}", units.join(", "))).small());
    }
    let mut status = Vec::new();
    if !c.alive() {
        status.push("lost");
    }
    if c.suppressed.is_some() {
        status.push("suppressed");
    }
    if c.replaced {
        status.push("a replacement");
    }
    if b.cmd.done.contains(&id) {
        status.push("done ordering this turn");
    }
    if b.cmd.moved.contains(&id) {
        status.push("has moved");
    }
    if !status.is_empty() {
        ui.label(format!("Status: {}", status.join(", ")));
    }
}

/// Where a unit's actions this turn came from: its commander's order, or (no commander) its
/// own self-order, an activation (initiative passing) or a scout's free action.
fn order_source(b: &Battle, o: &crate::battle::state::OrderState) -> String {
    match b.commanders.get(o.by as usize) {
        Some(c) => format!("from {}", c.name),
        None if o.self_order => "by its own self-order".into(),
        None if b.initiative_passing() => "by activation".into(),
        None => "as a free action".into(),
    }
}
