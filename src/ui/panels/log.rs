//! The battle log: every action and what it caused, newest at the bottom.

use crate::ui::common::heading;
use crate::ui::session::BattleLog;
use bevy_egui::egui;

pub fn show(ui: &mut egui::Ui, log: &BattleLog) {
    heading(ui, "Battle log");
    egui::ScrollArea::vertical()
        .id_salt("log_scroll")
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let start = log.lines.len().saturating_sub(400);
            for l in &log.lines[start..] {
                if l.action {
                    ui.label(
                        egui::RichText::new(format!("T{} {}", l.game_turn, crate::ui::common::plain(&l.text)))
                            .strong()
                            .small(),
                    );
                } else {
                    ui.label(egui::RichText::new(format!("    {}", crate::ui::common::plain(&l.text))).small());
                }
            }
        });
}
