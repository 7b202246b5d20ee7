//! The dice panel: the last actions and everything they caused, newest first, grouped by
//! player turn ("Turn 2, Union"); each roll with its modifiers and the rule that applied (the
//! battle log's text, `battle::log`). Read from the battle log itself, so an undo or a replay's
//! seek takes the dice back with it.

use crate::ui::common::heading;
use crate::ui::session::{BattleLog, LogLine};
use bevy_egui::egui;

/// How many actions the panel keeps.
pub const HISTORY: usize = 60;

/// One action and what it caused.
#[derive(Clone, Debug, PartialEq)]
pub struct DiceEntry {
    pub heading: String,
    pub lines: Vec<String>,
}

/// A player turn's actions, oldest first.
#[derive(Clone, Debug, PartialEq)]
pub struct DiceTurn {
    /// "Turn 2, Union", or "Before the battle".
    pub label: String,
    pub actions: Vec<DiceEntry>,
}

/// The last `HISTORY` actions of the log, grouped by the player turn they were taken in,
/// oldest turn first (the panel shows them the other way round). A computer player's reason
/// (a line in brackets) is no roll and is left out.
pub fn history(lines: &[LogLine]) -> Vec<DiceTurn> {
    let mut turns: Vec<DiceTurn> = Vec::new();
    let mut label = "Before the battle".to_string();
    let mut actions_seen = 0usize;
    // Walk from the start (the phase lines say which turn it is), keep only the tail.
    let total_actions = lines.iter().skip(1).filter(|l| l.action).count();
    let skip = total_actions.saturating_sub(HISTORY);
    let mut open = false;
    for l in lines.iter().skip(1) {
        if l.action {
            actions_seen += 1;
            open = actions_seen > skip;
            if open {
                if turns.last().is_none_or(|t| t.label != label) {
                    turns.push(DiceTurn {
                        label: label.clone(),
                        actions: Vec::new(),
                    });
                }
                turns.last_mut().expect("pushed").actions.push(DiceEntry {
                    heading: l.text.clone(),
                    lines: Vec::new(),
                });
            }
        } else {
            if let Some(t) = crate::battle::log::player_turn_of(&l.text) {
                label = t.to_string();
            }
            if open && !l.text.starts_with('[') {
                let entry = turns.last_mut().and_then(|t| t.actions.last_mut()).expect("open");
                entry.lines.push(l.text.clone());
            }
        }
    }
    turns
}

pub fn show(ui: &mut egui::Ui, log: &BattleLog) {
    heading(ui, "Dice");
    let turns = history(&log.lines);
    if turns.is_empty() {
        ui.label(egui::RichText::new("No action yet.").weak());
        return;
    }
    egui::ScrollArea::vertical()
        .id_salt("dice_scroll")
        .max_height(220.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for (i, turn) in turns.iter().rev().enumerate() {
                egui::CollapsingHeader::new(egui::RichText::new(&turn.label).strong())
                    .id_salt(("dice_turn", turns.len() - i))
                    .default_open(i == 0)
                    .show(ui, |ui| {
                        for (j, a) in turn.actions.iter().rev().enumerate() {
                            let text = egui::RichText::new(crate::ui::common::plain(&a.heading));
                            ui.label(if i == 0 && j == 0 { text.strong() } else { text });
                            for l in &a.lines {
                                ui.label(egui::RichText::new(format!("  {}", crate::ui::common::plain(l))).small());
                            }
                        }
                    });
            }
        });
}
