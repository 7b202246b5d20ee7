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

/// The troop glyphs as drawn on a base.
#[derive(Clone, Copy)]
enum Glyph {
    Infantry,
    Cavalry,
    Gun,
    Limber,
    CommandStand,
    Skirmisher,
    Commander,
}

fn base(ui: &mut egui::Ui, g: Glyph, text: &str) {
    ui.horizontal(|ui| {
        let (r, _) = ui.allocate_exact_size(egui::vec2(26.0, 16.0), egui::Sense::hover());
        let p = ui.painter();
        let mark = c32(pal::MARK);
        let line = egui::Stroke::new(1.5, mark);
        let [base, dark, light] = pal::sides(pal::text_palette());
        let fill = if matches!(g, Glyph::Skirmisher | Glyph::Limber) {
            light[0]
        } else {
            base[0]
        };
        if matches!(g, Glyph::Commander) {
            p.circle_filled(r.center(), 7.5, c32(pal::MARK));
            p.circle_filled(r.center(), 5.5, c32(dark[0]));
        } else {
            p.rect_filled(r, 1.0, c32(fill));
            p.rect_stroke(r, 1.0, egui::Stroke::new(1.0, c32(dark[0])), egui::StrokeKind::Inside);
            // The front edge is the top.
            p.line_segment(
                [
                    r.left_top() + egui::vec2(2.0, 2.0),
                    r.right_top() + egui::vec2(-2.0, 2.0),
                ],
                line,
            );
        }
        let inner = r.shrink2(egui::vec2(6.0, 4.0));
        match g {
            Glyph::Infantry | Glyph::Skirmisher => {
                p.line_segment([inner.left_top(), inner.right_bottom()], line);
                p.line_segment([inner.left_bottom(), inner.right_top()], line);
            }
            Glyph::Cavalry => {
                p.line_segment([inner.left_bottom(), inner.right_top()], line);
            }
            Glyph::Gun => {
                p.circle_filled(inner.center(), 3.0, mark);
            }
            Glyph::Limber => {
                p.circle_filled(inner.left_center(), 2.0, mark);
                p.circle_filled(inner.right_center(), 2.0, mark);
                p.line_segment([inner.center_top(), inner.center_bottom()], line);
            }
            Glyph::CommandStand => {
                p.line_segment([inner.center_top(), inner.center_bottom()], line);
                p.rect_filled(
                    egui::Rect::from_min_size(inner.center_top(), egui::vec2(5.0, 4.0)),
                    0.0,
                    mark,
                );
            }
            Glyph::Commander => {}
        }
        ui.label(egui::RichText::new(text).small());
    });
}

pub fn show(ui: &mut egui::Ui, b: &crate::battle::Battle) {
    egui::CollapsingHeader::new("Legend: what the table shows")
        .id_salt("legend")
        .default_open(false).show(ui, |ui| {
        let [fill, edge, _] = pal::sides(pal::text_palette());
        let names = match pal::text_palette() {
            crate::ui::settings::PaletteChoice::ColourBlindSafe => ["blue", "vermillion"],
            crate::ui::settings::PaletteChoice::BlueAndGrey => ["blue", "grey"],
        };
        for side in 0..2 {
            swatch(ui, fill[side], edge[side], &side_words(names[side], b, side));
        }
        base(ui, Glyph::Infantry, "infantry (light line = front edge)");
        base(ui, Glyph::Cavalry, "cavalry");
        base(ui, Glyph::Gun, "gun");
        base(ui, Glyph::Limber, "limber");
        base(ui, Glyph::Skirmisher, "skirmishers (lighter base)");
        base(ui, Glyph::CommandStand, "unit command stand");
        base(ui, Glyph::Commander, "commander");
        ui.label(
            egui::RichText::new(
                "Commander rim: gold exceptional, cream average, grey uninspiring; stars = rank; number = command value.",
            )
            .small(),
        );
        ui.label(
            egui::RichText::new("Black dot = suppressed, yellow triangle = disordered, white pips = hits this turn, purple diamonds = D-markers (initiative passing), white P disc = prone, closed eye = hidden from the enemy.")
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

/// A side's swatch in the legend: its colour and its name, and which moves first ("blue: the
/// Union, moves first"; until issue 65 "blue side (the first side)").
pub fn side_words(colour: &str, b: &crate::battle::Battle, side: usize) -> String {
    let first = if b.first_side == side { ", moves first" } else { "" };
    format!("{colour}: the {}{first}", b.sides[side].name)
}
