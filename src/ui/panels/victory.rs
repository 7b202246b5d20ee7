//! The victory state: objectives (held or not), victory points, units lost against each
//! side's breakpoint, and the result once the game is over.

use crate::battle::Battle;
use crate::ui::common::{heading, side_colour};
use bevy_egui::egui;

pub fn show(ui: &mut egui::Ui, b: &Battle) {
    heading(ui, "Victory");
    let vp = b.victory_points();
    egui::Grid::new("victory_grid").striped(true).show(ui, |ui| {
        ui.label("");
        ui.label("VP");
        ui.label("lost / breakpoint");
        ui.label("objective held");
        ui.end_row();
        for (s, side) in b.sides.iter().enumerate() {
            ui.label(egui::RichText::new(&side.name).color(side_colour(s)).strong());
            ui.label(vp[s].to_string());
            let broken = if side.broken { " BROKEN" } else { "" };
            ui.label(format!("{} / {}{broken}", b.units_lost(s), side.breakpoint));
            ui.label(match b.objective_held(s) {
                Some(level) => crate::report::words_of(&format!("{level:?}")),
                None => "—".into(),
            });
            ui.end_row();
        }
    });
    if b.decide_on_points {
        ui.label(crate::terminal::view::ON_POINTS);
    }
    ui.collapsing("Objectives", |ui| {
        for o in &b.objectives {
            ui.label(format!(
                "★ {} — {} ({}, held within {} cm)",
                o.name,
                o.side,
                crate::report::words_of(&format!("{:?}", o.level)),
                o.radius
            ));
        }
    });
    if let Some(o) = &b.outcome {
        let winner = o
            .winner
            .map(|s| b.sides[s].name.clone())
            .unwrap_or_else(|| "nobody".into());
        let text = match o.winner {
            Some(_) => format!(
                "{} for {winner}: {}",
                crate::report::result_word(&o.result),
                crate::report::end_reason_words(o.reason)
            ),
            None => format!("A draw: {}", crate::report::end_reason_words(o.reason)),
        };
        ui.label(egui::RichText::new(text).strong());
    }
}
