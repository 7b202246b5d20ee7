//! The legend: what each drawing on the table means.

use crate::ui::palette as pal;
use bevy::prelude::Color;
use bevy_egui::egui;

fn c32(c: Color) -> egui::Color32 {
    let s = c.to_srgba();
    egui::Color32::from_rgb((s.red * 255.0) as u8, (s.green * 255.0) as u8, (s.blue * 255.0) as u8)
}

fn swatch(ui: &mut egui::Ui, fill: Color, edge: Color, text: &str) {
    ui.horizontal(|ui| {
        let (r, _) = ui.allocate_exact_size(egui::vec2(22.0, 12.0), egui::Sense::hover());
        ui.painter().rect_filled(r, 2.0, c32(fill));
        ui.painter()
            .rect_stroke(r, 2.0, egui::Stroke::new(2.0, c32(edge)), egui::StrokeKind::Inside);
        ui.label(egui::RichText::new(text).small());
    });
}

pub fn show(ui: &mut egui::Ui) {
    ui.collapsing("Legend", |ui| {
        swatch(ui, pal::SIDE[0], pal::SIDE_DARK[0], "blue side (the first side)");
        swatch(ui, pal::SIDE[1], pal::SIDE_DARK[1], "vermillion side (the second side)");
        ui.label(
            egui::RichText::new(
                "Bases: light line = front edge; ✕ infantry, ╱ cavalry, ● gun, two wheels = limber, \
                 flag = unit command stand, lighter base = skirmishers. Round bases = commanders \
                 (rim: gold exceptional, cream average, grey uninspiring; stars = rank; number = command value). \
                 Black dot = suppressed, yellow triangle = disordered, white pips = hits this turn.",
            )
            .small(),
        );
        swatch(ui, pal::HILL[0], pal::HILL_EDGE, "hill, one colour per contour step");
        swatch(ui, pal::FIELD, pal::FIELD_FURROW, "field (low area)");
        swatch(ui, pal::SCRUB, pal::SCRUB_BUSH, "scrub (low area)");
        swatch(ui, pal::TREE[1], pal::TREE_SHADOW, "woods (high area)");
        swatch(ui, pal::ORCHARD_GROUND, pal::ORCHARD_TREE, "orchard (high area)");
        swatch(ui, pal::BUILT_UP, pal::BUILT_UP_HOUSE, "built-up area (hard cover)");
        swatch(ui, pal::MARSH, pal::MARSH_WATER, "marsh (wet, dense)");
        swatch(ui, pal::MUD, pal::MUD_DARK, "mud (dense)");
        swatch(ui, pal::WATER, pal::BANK, "lake (impassable)");
        swatch(ui, pal::WATER_DEEP, pal::BANK, "river (deep) / stream (shallow)");
        swatch(ui, pal::ROAD, pal::ROAD_EDGE, "road");
        swatch(ui, pal::WALL, pal::WALL_DARK, "stone wall");
        swatch(ui, pal::FENCE, pal::FENCE, "rail fence (zig-zag)");
        swatch(ui, pal::HEDGE, pal::HEDGE_LIGHT, "hedge");
        swatch(ui, pal::ROOF, pal::ROOF_RIDGE, "building");
        swatch(
            ui,
            pal::OBJECTIVE,
            pal::OBJECTIVE,
            "objective (★, dashed ring = holding radius)",
        );
    });
}
