//! The phase bar: game turn, the active player, the phase, whose decision it is, the
//! "End phase" (or "Pass") button, save and menu, and the last refusal.

use crate::battle::{Action, Battle, Step};
use crate::report::capital;
use crate::ui::common::{Asks, side_colour};
use crate::ui::session::{BattleLog, Seats};
use crate::ui::undo::UndoStack;
use bevy_egui::egui;

/// The game's seats, log and undo stack, for the bar.
pub struct BarGame<'a> {
    pub seats: &'a Seats,
    pub log: &'a BattleLog,
    pub undo: &'a UndoStack,
    /// A computer player is choosing (its search runs off the frame).
    pub thinking: bool,
    /// The end-phase key as people say it ("Enter", or what the settings put on it).
    pub end_key: String,
    /// What the open decision window asks of the player at the table (`ui::prompt`).
    pub prompt: Option<&'a str>,
}

pub fn show(ui: &mut egui::Ui, b: &Battle, game: BarGame, legal: &[Action], may_act: bool, asks: &mut Asks) {
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(&b.title).strong());
        ui.separator();
        ui.label(format!("Turn {} of {}", b.game_turn, b.turn_limit));
        ui.separator();
        if let Some(w) = conditions(b) {
            ui.label(w).on_hover_text(format!(
                "Seeing {:.0} cm. Optional rules: {}",
                b.los.params().visibility,
                b.rules.switches.describe()
            ));
            ui.separator();
        }
        let active = b.active;
        if b.is_over() {
            ui.label(egui::RichText::new("The battle is over").strong());
        } else {
            ui.label(
                egui::RichText::new(&b.sides[active].name)
                    .color(side_colour(active))
                    .strong(),
            );
            ui.label(format!("{} phase", capital(crate::report::phase_word(b.phase))));
        }
        let step = match &b.step {
            Step::Open => String::new(),
            Step::CounterInitiative { .. } => "counter-initiative".into(),
            Step::Reaction { .. } => "opportunity fire".into(),
            Step::Support { .. } => "support".into(),
            Step::Consolidate { unit, .. } => format!("{} consolidates", b.unit(*unit).name),
        };
        if !step.is_empty() {
            ui.label(format!("· {step}"));
        }
        ui.separator();
        let actor = b.actor();
        let who = if game.seats.human(actor) {
            "to act".to_string()
        } else {
            format!("to act ({})", game.seats.sides[actor])
        };
        if !b.is_over() {
            ui.label(egui::RichText::new(format!("{} {who}", b.sides[actor].name)).color(side_colour(actor)));
            // (A choice still being made for a state left behind, say by an undo, is not shown.)
            if game.thinking && !game.seats.human(actor) {
                ui.spinner();
                ui.label(egui::RichText::new("thinking…").italics());
            }
        }
        // BPT "Consolidate": the winner's choice, stay (the pass) or the whole way ahead; any
        // other is the unit's orders, or a drag of it.
        let consolidating = matches!(b.step, Step::Consolidate { .. });
        if consolidating && let Some(advance) = consolidation_advance(b, legal) {
            let r = ui.add_enabled(may_act, egui::Button::new(advance.1));
            if r.clicked() {
                asks.request = Some(advance.0);
            }
        }
        let pass = if consolidating { "Stay" } else { "Pass" };
        for (a, label) in [(Action::EndPhase, "End phase"), (Action::Pass, pass)] {
            if legal.contains(&a) {
                let label = format!("{label} ({})", game.end_key);
                let r = ui.add_enabled(may_act, egui::Button::new(label));
                if r.clicked() {
                    asks.request = Some(a.clone());
                }
            }
        }
        crate::ui::undo::button(ui, game.undo, asks);
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui.button("Menu").clicked() {
                asks.menu = true;
            }
            let save = ui
                .button("Save")
                .on_hover_text("save the game in saves/, under the scenario's name");
            if save.clicked() {
                asks.save = true;
            }
            let k = ui.ctx().zoom_factor();
            let r = save.rect;
            asks.shown
                .push(("Save".into(), [r.min.x * k, r.min.y * k, r.max.x * k, r.max.y * k]));
            if let Some(s) = &game.log.status {
                ui.label(egui::RichText::new(s).weak());
            }
        });
    });
    if let Some(p) = game.prompt.filter(|_| may_act && !b.is_over()) {
        ui.label(
            egui::RichText::new(crate::ui::common::plain(p))
                .color(side_colour(b.actor()))
                .strong(),
        );
    }
    if let Some((action, refusal)) = &game.log.refusal {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                egui::RichText::new("Refused:")
                    .color(egui::Color32::from_rgb(255, 170, 60))
                    .strong(),
            );
            ui.label(crate::ui::common::plain(&format!(
                "{action} — {} ({})",
                refusal.reason, refusal.rule
            )));
        });
    }
}

/// Weather, night and the optional rules in a few words, when any is out of the ordinary.
pub fn conditions(b: &Battle) -> Option<String> {
    use crate::data::scenario::Weather;
    let mut parts = Vec::new();
    if b.night {
        parts.push("Night".to_string());
    } else if b.weather != Weather::Normal || b.rules.switches.on(crate::rules::switches::Switch::Weather) {
        parts.push(capital(&format!(
            "{} weather",
            crate::report::words_of(&format!("{:?}", b.weather))
        )));
    }
    let variants: Vec<&str> = b
        .rules
        .switches
        .iter()
        .filter(|s| s.is_variant())
        .map(|s| s.title())
        .collect();
    parts.extend(variants.iter().map(|v| v.split(" (").next().unwrap_or(v).to_string()));
    let others: Vec<&str> = b
        .rules
        .switches
        .iter()
        .filter(|s| !s.is_variant() && *s != crate::rules::switches::Switch::Weather)
        .map(|s| s.title())
        .collect();
    match others.len() {
        0 => {}
        1 | 2 => parts.push(others.join(" · ")),
        n => parts.push(format!("{n} optional rules")),
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// In the consolidation window, the move straight ahead as far as it may go, with its words
/// ("Consolidate: advance 5.0 cm"), if it may move at all.
pub fn consolidation_advance(b: &crate::battle::Battle, legal: &[Action]) -> Option<(Action, String)> {
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Consolidate { unit, to } => {
                let from = b.unit(*unit).pose;
                let turn = crate::rules::geometry::wrap_angle(to.facing - from.facing);
                (turn.abs() < 1e-9).then(|| (a, from.pos.dist(to.pos)))
            }
            _ => None,
        })
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(a, d)| (a.clone(), format!("Consolidate: advance {d:.1} cm")))
}
