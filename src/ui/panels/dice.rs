//! The dice panel: the last action and everything it caused, each roll with its modifiers
//! and the rule that applied (the battle log's text, `battle::log`).

use crate::ui::common::heading;
use crate::ui::session::BattleLog;
use bevy_egui::egui;

pub fn show(ui: &mut egui::Ui, log: &BattleLog) {
    heading(ui, "Dice");
    match &log.last {
        None => {
            ui.label(egui::RichText::new("No action yet.").weak());
        }
        Some((action, lines)) => {
            ui.label(egui::RichText::new(crate::ui::common::plain(action)).strong());
            egui::ScrollArea::vertical()
                .id_salt("dice_scroll")
                .max_height(140.0)
                .show(ui, |ui| {
                    for l in lines {
                        ui.label(egui::RichText::new(crate::ui::common::plain(l)).small());
                    }
                });
        }
    }
}
