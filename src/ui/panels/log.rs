//! The battle log: every action and what it caused, newest at the bottom.

use crate::ui::common::heading;
use crate::ui::session::Session;
use bevy_egui::egui;

pub fn show(ui: &mut egui::Ui, session: &Session) {
    heading(ui, "Battle log");
    egui::ScrollArea::vertical()
        .id_salt("log_scroll")
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let start = session.log.len().saturating_sub(400);
            for l in &session.log[start..] {
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
