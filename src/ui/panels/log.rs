//! The battle log: every action and what it caused, newest at the bottom.

use crate::ui::common::heading;
use crate::ui::session::BattleLog;
use bevy_egui::egui;

/// The log as `viewer` (a side; none: everyone) may read it (`LogLine::shown_to`).
pub fn show(ui: &mut egui::Ui, log: &BattleLog, viewer: Option<crate::battle::SideId>) {
    heading(ui, "Battle log");
    egui::ScrollArea::vertical()
        .id_salt("log_scroll")
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let start = log.lines.len().saturating_sub(400);
            for l in &log.lines[start..] {
                let Some(text) = l.shown_to(viewer) else { continue };
                if l.action {
                    ui.label(
                        egui::RichText::new(format!("T{} {}", l.game_turn, crate::ui::common::plain(text)))
                            .strong()
                            .small(),
                    );
                } else {
                    ui.label(egui::RichText::new(format!("    {}", crate::ui::common::plain(text))).small());
                }
            }
        });
}

/// The battle log of a recorded game, re-told from its start (`start` and what its set-up
/// did, `events`): each action stepped on its state and described as the window describes it
/// when played ("Union: " before a side's decision). A computer player's reasons are not in a
/// recording, so they are not in this log; its plans are, each before the action it came with,
/// as `viewer` (the person playing against it; none: everyone) was told it
/// ([`crate::replay::PlanNote::said_to`]). Stops at the first action that does not apply.
pub fn log_of_recording(
    start: crate::battle::Battle,
    events: &[crate::battle::Event],
    rec: &crate::replay::Recording,
    viewer: Option<crate::battle::SideId>,
) -> BattleLog {
    let mut b = start;
    let mut log = BattleLog::new(&b, events);
    for (i, a) in rec.actions.iter().enumerate() {
        for p in rec.plans_before(i) {
            if let Some(text) = p.said_to(viewer) {
                let says = crate::report::computer_says(&b.sides[p.side.min(1)].name, &p.agent, text);
                log.lines
                    .push(crate::ui::session::LogLine::told(&b, b.game_turn, false, says));
            }
        }
        let heading = format!("{}{}", actor_prefix(&b, a), crate::report::heading(&b, a));
        let Ok(applied) = b.step(a) else { break };
        log.push_action(&b, applied.game_turn, heading, &applied.events);
    }
    log
}

/// "Union: " for a decision of the side that made it (as the window's log heads it).
pub fn actor_prefix(b: &crate::battle::Battle, a: &crate::battle::Action) -> String {
    use crate::battle::Action;
    let side = match a {
        Action::Order { commander, .. } | Action::CommanderMove { commander, .. } => {
            b.commanders.get(*commander as usize).map(|c| c.side)
        }
        _ => a.unit().and_then(|u| b.units.get(u as usize)).map(|u| u.side),
    };
    side.map(|s| format!("{}: ", b.sides[s].name)).unwrap_or_default()
}
