//! The dice panel: the last actions and everything they caused, newest first, grouped by
//! player turn ("Turn 2, Union"); each roll with its modifiers and the rule that applied (the
//! battle log's text, `report::line`), and its dice drawn as faces (`report::Throw`): hits,
//! saves and passed rolls marked green, failed whole rolls red. Read from the battle log
//! itself, so an undo or a replay's seek takes the dice back with it.

use crate::report::Throw;
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
    /// The dice of each line (same order as `lines`; empty for a line without dice).
    pub throws: Vec<Vec<Throw>>,
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
/// (a line with no event) is no roll and is left out; the player turns are read from the
/// phase events (`report::flow::player_turn_of`). Shown as `viewer` (a side; none: everyone)
/// may read them (`LogLine::shown_to`): an action it may not read is "an action your side
/// did not see", with only what it caused that it may read.
pub fn history(lines: &[LogLine], b: &crate::battle::Battle, viewer: Option<crate::battle::SideId>) -> Vec<DiceTurn> {
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
                    heading: l.shown_to(viewer).unwrap_or_default().to_string(),
                    lines: Vec::new(),
                    throws: Vec::new(),
                });
            }
        } else {
            if let Some(t) = l.event.as_ref().and_then(|e| crate::report::flow::player_turn_of(b, e)) {
                label = t;
            }
            if open && l.event.is_some() {
                let Some(text) = l.shown_to(viewer) else { continue };
                let entry = turns.last_mut().and_then(|t| t.actions.last_mut()).expect("open");
                entry.lines.push(text.to_string());
                entry.throws.push(l.throws.clone());
            }
        }
    }
    turns
}

pub fn show(ui: &mut egui::Ui, log: &BattleLog, b: &crate::battle::Battle, viewer: Option<crate::battle::SideId>) {
    heading(ui, "Dice");
    let turns = history(&log.lines, b, viewer);
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
                            for (l, throws) in a.lines.iter().zip(&a.throws) {
                                ui.label(egui::RichText::new(format!("  {}", crate::ui::common::plain(l))).small());
                                for t in throws {
                                    throw_row(ui, t, b);
                                }
                            }
                        }
                    });
            }
        });
}

/// A throw as a row of dice faces: whose (when the event rolled both sides') and what it was
/// for, its need, then the dice.
pub(crate) fn throw_row(ui: &mut egui::Ui, t: &Throw, b: &crate::battle::Battle) {
    if t.faces.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        ui.add_space(10.0);
        let whose = match t.side.and_then(|s| b.sides.get(s)) {
            Some(side) => format!("{} {}", side.name, t.what),
            None => t.what.to_string(),
        };
        let label = if t.need.is_empty() {
            format!("{whose}:")
        } else {
            format!("{whose} {}:", t.need)
        };
        ui.label(egui::RichText::new(label).small().weak());
        for i in 0..t.faces.len() {
            die(ui, t, i);
        }
    });
}

/// Where the pips of a d6 face sit, on a 3 × 3 grid (-1, 0, 1).
pub fn pips(face: u32) -> &'static [(i8, i8)] {
    match face {
        1 => &[(0, 0)],
        2 => &[(-1, -1), (1, 1)],
        3 => &[(-1, -1), (0, 0), (1, 1)],
        4 => &[(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5 => &[(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6 => &[(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
        _ => &[],
    }
}

/// One die: a d6 with its pips, any other die with its number. Green when it scored (a hit, a
/// save, a passed roll), red when the whole roll failed, ivory otherwise.
fn die(ui: &mut egui::Ui, t: &Throw, i: usize) {
    let (face, sides, scored, passed) = (t.faces[i], t.sides, t.scored[i], t.passed);
    let size = 18.0;
    let (rect, response) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    let (fill, ink) = if scored {
        (
            egui::Color32::from_rgb(120, 190, 110),
            egui::Color32::from_rgb(20, 50, 20),
        )
    } else if passed == Some(false) {
        (
            egui::Color32::from_rgb(210, 120, 110),
            egui::Color32::from_rgb(60, 15, 10),
        )
    } else {
        (
            egui::Color32::from_rgb(232, 226, 210),
            egui::Color32::from_rgb(40, 35, 30),
        )
    };
    let p = ui.painter();
    p.rect(
        rect.shrink(0.5),
        3.0,
        fill,
        egui::Stroke::new(1.0, ink),
        egui::StrokeKind::Inside,
    );
    if sides == 6 && (1..=6).contains(&face) {
        let step = size * 0.27;
        for &(x, y) in pips(face) {
            let at = rect.center() + egui::vec2(f32::from(x) * step, f32::from(y) * step);
            p.circle_filled(at, 1.8, ink);
        }
    } else {
        p.text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            face.to_string(),
            egui::FontId::proportional(crate::ui::settings::MIN_TEXT_PT),
            ink,
        );
    }
    let what = match (scored, passed) {
        (true, _) => "scores",
        (false, Some(false)) => "fails",
        (false, _) if t.need.is_empty() => "counts",
        (false, _) => "misses",
    };
    response.on_hover_text(format!("{face}: {what}"));
}
