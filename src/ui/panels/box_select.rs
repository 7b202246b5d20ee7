//! The box being dragged to order units (`BoxSelect`): its outline over the table and an outline
//! around each unit of the commander's inside it, green when the order would be given, red when
//! the rules refuse it (the reason is at the pointer).

use crate::app::BattleState;
use crate::ui::camera::TableCamera;
use crate::ui::common::{BoxSelect, PanelsSet, PointerOrder, Screen};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw_box
            .after(PanelsSet)
            .run_if(in_state(Screen::Battle).and_then(|b: Res<BoxSelect>| b.from.is_some())),
    );
}

fn draw_box(
    mut contexts: EguiContexts,
    boxed: Res<BoxSelect>,
    order: Res<PointerOrder>,
    battle: Res<BattleState>,
    camera: Option<Single<(&Camera, &GlobalTransform), With<TableCamera>>>,
) -> Result {
    let Some(r) = boxed.rect() else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    // egui's points are the window's pixels over the panels' scale.
    let k = ctx.zoom_factor();
    let pt = |v: Vec2| egui::pos2(v.x / k, v.y / k);
    let colour = if order.refused {
        egui::Color32::from_rgb(230, 90, 80)
    } else {
        egui::Color32::from_rgb(120, 210, 110)
    };
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("box_select")));
    let rect = egui::Rect::from_min_max(pt(r.min), pt(r.max));
    painter.rect(
        rect,
        0.0,
        colour.gamma_multiply(0.12),
        egui::Stroke::new(1.5, colour),
        egui::StrokeKind::Middle,
    );
    if let Some(cam) = camera {
        let (cam, tf) = cam.into_inner();
        let b = &battle.0;
        // Each unit boxed in is outlined: the window's box around its stands' corners.
        for &u in &boxed.units {
            let corners: Vec<Vec2> = b
                .rects(u)
                .iter()
                .flat_map(|r| r.corners())
                .filter_map(|c| cam.world_to_viewport(tf, Vec3::new(c.x as f32, c.y as f32, 0.0)).ok())
                .collect();
            let Some(&first) = corners.first() else { continue };
            let (lo, hi) = corners
                .iter()
                .fold((first, first), |(lo, hi), &c| (lo.min(c), hi.max(c)));
            let around = egui::Rect::from_min_max(pt(lo), pt(hi)).expand(4.0);
            painter.rect_stroke(around, 3.0, egui::Stroke::new(2.0, colour), egui::StrokeKind::Outside);
        }
    }
    Ok(())
}
