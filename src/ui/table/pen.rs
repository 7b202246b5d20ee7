//! The table's drawing kit, the ground floor of `ui::table`: table and world points, the
//! layers' depths, the `Pen` that collects one layer's outlines, and a scatter stream for
//! trees and stones. Table coordinates are centimetres with x to the east and y to the north;
//! one world unit is one centimetre.

use crate::rules::geometry::{Rect, V2};
use bevy::prelude::*;
use bevy_prototype_lyon::prelude::*;

/// Drawing order (world z) of the layers.
pub mod z {
    pub const CLOTH: f32 = 0.0;
    pub const HILLS: f32 = 1.0;
    pub const AREAS: f32 = 3.0;
    pub const LINEARS: f32 = 5.0;
    pub const BUILDINGS: f32 = 7.0;
    pub const OBJECTIVES: f32 = 8.0;
    pub const OVERLAY_UNDER: f32 = 9.0;
    pub const UNITS: f32 = 10.0;
    pub const COMMANDERS: f32 = 14.0;
    pub const OVERLAY: f32 = 18.0;
}

/// A table point as a world point.
pub fn w(p: V2) -> Vec2 {
    Vec2::new(p.x as f32, p.y as f32)
}

/// A world point as a table point.
pub fn t(p: Vec2) -> V2 {
    V2::new(p.x as f64, p.y as f64)
}

/// Collects the outlines of one layer: any number of closed polygons, polylines and circles,
/// filled or stroked in one colour.
#[derive(Default, Clone)]
pub struct Pen {
    path: Option<ShapePath>,
}

impl Pen {
    pub fn new() -> Self {
        Pen::default()
    }

    fn take(&mut self) -> ShapePath {
        self.path.take().unwrap_or_default()
    }

    pub fn is_empty(&self) -> bool {
        self.path.is_none()
    }

    /// A closed polygon.
    pub fn poly(&mut self, pts: &[Vec2]) {
        if pts.len() < 3 {
            return;
        }
        let mut p = self.take().move_to(pts[0]);
        for q in &pts[1..] {
            p = p.line_to(*q);
        }
        self.path = Some(p.close());
    }

    /// An open polyline.
    pub fn line(&mut self, pts: &[Vec2]) {
        if pts.len() < 2 {
            return;
        }
        let mut p = self.take().move_to(pts[0]);
        for q in &pts[1..] {
            p = p.line_to(*q);
        }
        self.path = Some(p);
    }

    /// A circle as a polygon (counter-clockwise, so overlapping circles merge under non-zero fill).
    pub fn circle(&mut self, c: Vec2, r: f32) {
        let n = if r < 0.8 { 10 } else { 18 };
        let pts: Vec<Vec2> = (0..n)
            .map(|i| {
                let a = i as f32 / n as f32 * std::f32::consts::TAU;
                c + Vec2::new(a.cos(), a.sin()) * r
            })
            .collect();
        self.poly(&pts);
    }

    /// A base rectangle shrunk by `inset` on every side.
    pub fn rect(&mut self, r: &Rect, inset: f32) {
        self.poly(&rect_corners(r, inset));
    }

    /// The layer as a filled shape at depth `z`.
    pub fn fill(self, color: Color, z: f32) -> Option<(Shape, Transform)> {
        let path = self.path?;
        let fill = Fill {
            options: FillOptions::tolerance(0.01).with_fill_rule(FillRule::NonZero),
            color,
        };
        Some((
            ShapeBuilder::with(&path).fill(fill).build(),
            Transform::from_xyz(0.0, 0.0, z),
        ))
    }

    /// The layer as lines of `width` cm at depth `z`.
    pub fn stroke(self, color: Color, width: f32, z: f32) -> Option<(Shape, Transform)> {
        let path = self.path?;
        let stroke = Stroke {
            options: StrokeOptions::tolerance(0.01)
                .with_line_width(width)
                .with_line_join(LineJoin::Round)
                .with_line_cap(LineCap::Round),
            color,
        };
        Some((
            ShapeBuilder::with(&path).stroke(stroke).build(),
            Transform::from_xyz(0.0, 0.0, z),
        ))
    }
}

/// The four corners of a base (front-left, front-right, rear-right, rear-left), shrunk by `inset`.
pub fn rect_corners(r: &Rect, inset: f32) -> [Vec2; 4] {
    let shrunk = Rect::new(
        r.center,
        r.facing,
        (r.width - 2.0 * inset as f64).max(0.05),
        (r.depth - 2.0 * inset as f64).max(0.05),
    );
    shrunk.corners().map(w)
}

/// A point in a base's own frame: `fwd` towards the front, `left` to its left, both as
/// fractions of half the depth / half the width.
pub fn in_rect(r: &Rect, fwd: f32, left: f32) -> Vec2 {
    let f = w(r.forward());
    let l = w(r.left());
    w(r.center) + f * (fwd * r.depth as f32 * 0.5) + l * (left * r.width as f32 * 0.5)
}

/// Spawn one layer (if not empty) tagged with `tag`.
pub fn spawn_layer(commands: &mut Commands, layer: Option<(Shape, Transform)>, tag: impl Bundle) {
    if let Some(l) = layer {
        commands.spawn((l, tag));
    }
}

/// A small deterministic random stream for scattering trees and stones (not the game's dice).
pub struct Scatter(u64);

impl Scatter {
    pub fn new(seed: u64) -> Self {
        Scatter(seed ^ 0x5851_f42d_4c95_7f2d)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f32 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 40) as f32 / (1u64 << 24) as f32
    }
    /// Uniform in [a, b).
    pub fn range(&mut self, a: f32, b: f32) -> f32 {
        a + (b - a) * self.unit()
    }
}
