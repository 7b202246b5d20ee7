//! The overlay toolbar: a small window in the table's bottom-right corner (never over the
//! replay bar or the panels) listing the overlays and tools with their keys, and
//! what they measure: the selected unit's weapon range, the command bands, the tape's length
//! and what blocks the line of sight (the rules' own reasons).

use crate::app::BattleState;
use crate::ui::common::PanelsSet;
use crate::ui::common::{Screen, Selection};
use crate::ui::measure::{self as m, Overlays};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        toolbar.after(PanelsSet).run_if(in_state(Screen::Battle)),
    );
}

fn toolbar(
    mut contexts: EguiContexts,
    battle: Res<BattleState>,
    selection: Res<Selection>,
    mut overlays: ResMut<Overlays>,
    viewport: Res<crate::ui::camera::TableViewport>,
    settings: Option<Res<crate::ui::settings::Settings>>,
) -> Result {
    use crate::ui::settings::Binding;
    let key = |b: Binding| crate::ui::settings::key_label(settings.as_ref().map_or(b.default_key(), |s| s.key(b)));
    let ctx = contexts.ctx_mut()?;
    let b = &battle.0;
    let mut o = overlays.clone();
    // In the bottom-right corner of the table itself: above the replay bar, left of the
    // right column, whatever the panels' sizes.
    let corner = viewport
        .0
        // The viewport is in window pixels, egui's points are those over the panels' scale.
        .map(|r| egui::pos2(r.max.x / ctx.zoom_factor() - 10.0, r.max.y / ctx.zoom_factor() - 10.0))
        .unwrap_or_else(|| ctx.viewport_rect().right_bottom() - egui::vec2(340.0, 10.0));
    egui::Window::new("Overlays")
        .pivot(egui::Align2::RIGHT_BOTTOM)
        .fixed_pos(corner)
        .resizable(false)
        .collapsible(true)
        // Folded at first, so it hides no corner of the table until asked for (the keys work
        // folded or not).
        .default_open(false)
        .default_width(250.0)
        .show(ctx, |ui| {
            ui.checkbox(&mut o.arc, format!("Arc of vision ({})", key(Binding::ToggleArc)));
            ui.checkbox(
                &mut o.cone,
                format!("Fire cone and range ({})", key(Binding::ToggleCone)),
            );
            ui.checkbox(
                &mut o.command,
                format!("Command radius ({})", key(Binding::ToggleCommand)),
            );
            let (los, tape) = (o.los_tool, o.tape);
            if ui
                .checkbox(
                    &mut o.los_tool,
                    format!("Line-of-sight check ({})", key(Binding::LosTool)),
                )
                .changed()
            {
                o.los_tool = los;
                o.toggle(crate::ui::input::TableAction::LosTool);
            }
            if ui
                .checkbox(&mut o.tape, format!("Measuring tape ({})", key(Binding::Tape)))
                .changed()
            {
                o.tape = tape;
                o.toggle(crate::ui::input::TableAction::Tape);
            }
            ui.separator();
            let unit = selection
                .unit
                .filter(|u| b.units.get(*u as usize).is_some_and(|u| u.alive()));
            if (o.arc || o.cone) && unit.is_none() {
                ui.label(egui::RichText::new("Select a unit for its arc and cone.").weak());
            }
            if let (true, Some(u)) = (o.cone, unit) {
                let unit = b.unit(u);
                ui.label(format!(
                    "{}: range {} cm, cone {}° (BPT Shooting)",
                    unit.name,
                    b.weapon_range(unit),
                    2.0 * b.rules.visibility.fire_cone_half_deg
                ));
            }
            let commander = selection
                .commander
                .filter(|c| b.commanders.get(*c as usize).is_some_and(|c| c.alive()));
            if o.command {
                match commander {
                    None => {
                        ui.label(egui::RichText::new("Select a commander for its command radius.").weak());
                    }
                    Some(_) => {
                        let base = b.rules.footprints.commander_diameter * 0.5;
                        let mut inner = 0.0;
                        for (r, md) in m::commander_rings(b, crate::ui::table::measure::RINGS_OUT_TO) {
                            ui.label(format!(
                                "{:.0}–{:.0} cm: {md:+} (BPT Command Modifiers)",
                                inner,
                                r - base
                            ));
                            inner = r - base;
                        }
                    }
                }
            }
            if o.los_tool {
                match (&o.los.from, m::los_check(b, &o.los)) {
                    (None, _) => {
                        ui.label("Click the first point (or a unit).");
                    }
                    (Some(_), None) => {
                        ui.label("Click the second point.");
                    }
                    (Some((from, _)), Some(r)) => {
                        let d = o.los.to.map(|t| from.dist(t)).unwrap_or(0.0);
                        match r {
                            Ok(()) => {
                                ui.colored_label(egui::Color32::from_rgb(90, 230, 100), format!("Clear, {d:.1} cm"))
                            }
                            Err(why) => ui.colored_label(
                                egui::Color32::from_rgb(255, 110, 90),
                                format!("Blocked ({d:.1} cm): {}", m::describe_block(b, &why)),
                            ),
                        };
                    }
                }
            }
            if o.tape {
                match o.tape_line {
                    Some((a, c)) => ui.label(format!("Tape: {:.1} cm", m::tape_length(a, c))),
                    None => ui.label("Drag on the table to measure."),
                };
            }
        });
    if *overlays != o {
        *overlays = o;
    }
    Ok(())
}
