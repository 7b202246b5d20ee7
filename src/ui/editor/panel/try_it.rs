//! Trying the scenario: play-tests and a balance run.

use super::shared::*;
use crate::ui::common::heading;
use crate::ui::editor::state::Editor;
use crate::ui::editor::trial::{BalanceJob, TrialAsk};
use bevy::prelude::*;
use bevy_egui::egui;

pub(super) fn try_section(ui: &mut egui::Ui, editor: &mut Editor, job: &mut BalanceJob, asks: &mut PanelAsks) {
    heading(ui, "Try it");
    let valid = editor.problems.is_empty() && editor.unbuilt.is_none();
    ui.horizontal(|ui| {
        if ui
            .add_enabled(valid, egui::Button::new("Play-test hot-seat"))
            .on_disabled_hover_text("put the problems right first")
            .clicked()
        {
            asks.trial = Some(TrialAsk::HotSeat);
        }
        if ui
            .add_enabled(valid, egui::Button::new("Play-test vs scheduler"))
            .on_disabled_hover_text("put the problems right first")
            .clicked()
        {
            asks.trial = Some(TrialAsk::VsScheduler);
        }
    });
    ui.horizontal(|ui| {
        ui.label("Balance:");
        ui.add(egui::DragValue::new(&mut job.games).range(2..=200).suffix(" games"));
        egui::ComboBox::from_id_salt("ed_bal_agent")
            .selected_text(&job.agent)
            .show_ui(ui, |ui| {
                for a in ["greedy", "scheduler-easy", "scheduler", "eager", "random"] {
                    ui.selectable_value(&mut job.agent, a.to_string(), a);
                }
            });
        if ui
            .add_enabled(valid && !job.running(), egui::Button::new("Run"))
            .clicked()
        {
            asks.balance = Some((job.games, [job.agent.clone(), job.agent.clone()]));
        }
    });
    job.show(ui);
}
