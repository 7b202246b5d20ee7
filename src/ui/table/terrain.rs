//! The terrain layers: the cloth, hills as stacked contours, area terrain with its trees,
//! furrows and reeds, rivers, roads and obstacles, buildings and objective markers. Built
//! once per battle (a new scenario), never per frame.

use super::pen::{Pen, Scatter, spawn_layer, w, z};
use crate::app::BattleState;
use crate::rules::terrain::{AreaKind, LinearKind, Polygon};
use crate::ui::palette as pal;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DrawnTerrain>()
        .add_systems(Update, draw_terrain.run_if(resource_changed::<BattleState>));
}

/// Marks the terrain's shape entities.
#[derive(Component)]
pub struct TerrainLayer;

/// The battle whose terrain is drawn (scenario hash, title, engineer works done, building
/// hits and collapses).
#[derive(Resource, Default)]
pub struct DrawnTerrain(pub Option<(u64, String, usize, usize)>);

fn draw_terrain(
    mut commands: Commands,
    battle: Res<BattleState>,
    mut drawn: ResMut<DrawnTerrain>,
    old: Query<Entity, With<TerrainLayer>>,
) {
    let b = &battle.0;
    // Engineers' gaps and bridges change the table.
    let c = &b.constructions;
    let damage = c.hits.values().map(|&h| h as usize).sum::<usize>() + 1000 * c.collapsed.len();
    let key = (b.scenario_hash, b.title.clone(), b.works.done.len(), damage);
    if drawn.0.as_ref() == Some(&key) {
        return;
    }
    drawn.0 = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    for layer in terrain_layers(b) {
        spawn_layer(&mut commands, Some(layer), TerrainLayer);
    }
    for (text, at, angle, size) in labels(b) {
        commands.spawn((
            Text2d::new(text),
            TextFont {
                font_size: FontSize::Px(40.0),
                ..default()
            },
            TextColor(Color::srgba(0.1, 0.09, 0.05, 0.6)),
            Transform::from_xyz(at.x, at.y, z::OBJECTIVES + 0.5)
                .with_rotation(Quat::from_rotation_z(angle))
                .with_scale(Vec3::splat(size / 40.0)),
            TerrainLayer,
        ));
    }
}

/// Names on the table: areas and hills at their middle, rivers, streams and roads along
/// their longest stretch, objectives under their star. (text, where, angle, letter height cm)
pub fn labels(b: &crate::battle::Battle) -> Vec<(String, Vec2, f32, f32)> {
    let mut out = Vec::new();
    let centre = |p: &Polygon| p.0.iter().map(|v| w(*v)).sum::<Vec2>() / p.0.len().max(1) as f32;
    for a in b
        .terrain
        .areas
        .iter()
        .filter(|a| !a.name.is_empty() && !a.outline.0.is_empty())
    {
        out.push((a.name.clone(), centre(&a.outline), 0.0, 1.6));
    }
    for h in &b.terrain.hills {
        if let (false, Some(low)) = (h.name.is_empty(), h.contours.first()) {
            // Between the lowest and the next contour, on the south side.
            let c = centre(&low.outline);
            let lo = low.outline.0.iter().map(|v| v.y as f32).fold(f32::MAX, f32::min);
            out.push((h.name.clone(), Vec2::new(c.x, lo + 2.2), 0.0, 1.6));
        }
    }
    for l in b.terrain.linears.iter().filter(|l| !l.name.is_empty()) {
        if !matches!(l.kind, LinearKind::Road | LinearKind::River | LinearKind::Stream) {
            continue;
        }
        let Some(seg) = l
            .points
            .windows(2)
            .max_by(|x, y| w(x[0]).distance(w(x[1])).total_cmp(&w(y[0]).distance(w(y[1]))))
        else {
            continue;
        };
        let (p, q) = (w(seg[0]), w(seg[1]));
        let mut d = q - p;
        if d.x < 0.0 {
            d = -d;
        }
        let angle = d.y.atan2(d.x);
        let off = d.normalize_or_zero().perp() * (l.width as f32 * 0.5 + 1.2);
        out.push((l.name.clone(), (p + q) * 0.5 + off, angle, 1.3));
    }
    let mut seen: Vec<Vec2> = Vec::new();
    for o in &b.objectives {
        let c = w(o.pos);
        if seen.iter().any(|p| p.distance(c) < 0.01) {
            continue;
        }
        seen.push(c);
        // An objective named after the hill or wood it sits on is named once, by the terrain.
        if out.iter().any(|(t, p, _, _)| *t == o.name && p.distance(c) < 15.0) {
            continue;
        }
        out.push((o.name.clone(), c - Vec2::new(0.0, 2.6), 0.0, 1.3));
    }
    // BPT "Constructions": the hits noted against a standing building.
    for (&i, &h) in &b.constructions.hits {
        if h == 0 || b.constructions.collapsed.contains(&i) {
            continue;
        }
        let Some(bld) = b.terrain.buildings.get(i as usize) else {
            continue;
        };
        let (value, _) = b.construction_value(i);
        let top = bld.outline.0.iter().map(|v| v.y as f32).fold(f32::MIN, f32::max);
        out.push((
            format!("{h}/{value} hits"),
            Vec2::new(centre(&bld.outline).x, top + 1.2),
            0.0,
            1.2,
        ));
    }
    out
}

type Layer = (bevy_prototype_lyon::prelude::Shape, Transform);

/// The layers being built, bottom to top.
#[derive(Default)]
struct Layers(Vec<Layer>);

impl Layers {
    /// Add a layer, if its pen drew anything.
    fn add(&mut self, l: Option<Layer>) {
        if let Some(l) = l {
            self.0.push(l);
        }
    }
}

/// Every terrain layer of the battle's table, bottom to top: the cloth, the hills, the areas,
/// the lines, the buildings, the objectives. The scatter of bushes, trees and houses follows
/// the scenario (`Scatter` seeded by its hash, drawn from in this order).
pub fn terrain_layers(b: &crate::battle::Battle) -> Vec<Layer> {
    let mut out = Layers::default();
    let mut rng = Scatter::new(b.scenario_hash);
    cloth_layers(&mut out, b, &mut rng);
    hill_layers(&mut out, b);
    open_ground_layers(&mut out, b, &mut rng);
    cover_layers(&mut out, b, &mut rng);
    linear_layers(&mut out, b);
    building_layers(&mut out, b);
    objective_layers(&mut out, b);
    out.0
}

/// The cloth: a frame, the felt and a faint mottling.
fn cloth_layers(out: &mut Layers, b: &crate::battle::Battle, rng: &mut Scatter) {
    let (tw, th) = (b.table.width as f32, b.table.height as f32);
    let table = [Vec2::ZERO, Vec2::new(tw, 0.0), Vec2::new(tw, th), Vec2::new(0.0, th)];
    let mut frame = Pen::new();
    frame.poly(&table);
    out.add(frame.stroke(pal::TABLE_EDGE, 3.0, z::CLOTH - 0.2));
    let mut cloth = Pen::new();
    cloth.poly(&table);
    out.add(cloth.fill(pal::CLOTH, z::CLOTH - 0.1));
    let (mut dark, mut light) = (Pen::new(), Pen::new());
    let speckles = (tw * th / 5.0) as usize;
    for i in 0..speckles {
        let p = Vec2::new(rng.range(0.5, tw - 0.5), rng.range(0.5, th - 0.5));
        let r = rng.range(0.25, 0.9);
        if i % 2 == 0 {
            dark.circle(p, r);
        } else {
            light.circle(p, r);
        }
    }
    out.add(dark.fill(pal::CLOTH_SPECKLE, z::CLOTH));
    out.add(light.fill(pal::CLOTH_SPECKLE_LIGHT, z::CLOTH));
}

/// Hills: each contour level a step, with a shadow to the south-east and a dark edge.
fn hill_layers(out: &mut Layers, b: &crate::battle::Battle) {
    let max_level = b
        .terrain
        .hills
        .iter()
        .flat_map(|h| h.contours.iter().map(|c| c.height))
        .max()
        .unwrap_or(0);
    for level in 1..=max_level {
        let (mut shadow, mut fill, mut edge, mut lit) = (Pen::new(), Pen::new(), Pen::new(), Pen::new());
        for hill in &b.terrain.hills {
            for c in hill.contours.iter().filter(|c| c.height == level) {
                let pts = rounded(&c.outline, 3.0);
                let off: Vec<Vec2> = pts.iter().map(|p| *p + Vec2::new(0.8, -0.8)).collect();
                shadow.poly(&off);
                fill.poly(&pts);
                edge.poly(&pts);
                // Light from the north-west catches the upper slope's edge.
                let n = pts.len();
                for i in 0..n {
                    let (a, c2) = (pts[i], pts[(i + 1) % n]);
                    let outward = (c2 - a).perp() * -1.0;
                    if outward.normalize_or_zero().dot(Vec2::new(-0.7, 0.7)) > 0.3 {
                        let inset = outward.normalize_or_zero() * -0.45;
                        lit.line(&[a + inset, c2 + inset]);
                    }
                }
            }
        }
        let zl = z::HILLS + level as f32 * 0.3;
        let colour = pal::HILL[(level as usize - 1).min(pal::HILL.len() - 1)];
        out.add(shadow.fill(pal::mix(pal::HILL_SHADOW, pal::CLOTH, 0.2), zl));
        out.add(fill.fill(colour, zl + 0.1));
        out.add(lit.stroke(pal::mix(colour, Color::WHITE, 0.25), 0.5, zl + 0.15));
        out.add(edge.stroke(pal::HILL_EDGE, 0.3, zl + 0.2));
    }
}

/// The open ground's areas: fields, scrub, mud and marsh.
fn open_ground_layers(out: &mut Layers, b: &crate::battle::Battle, rng: &mut Scatter) {
    let areas = &b.terrain.areas;
    let of = |k: AreaKind| areas.iter().filter(move |a| a.kind == k);
    let za = z::AREAS;
    // Fields: crop colour with furrows along the longest side.
    let (mut ground, mut furrows) = (Pen::new(), Pen::new());
    for a in of(AreaKind::Field) {
        ground.poly(&corners(&a.outline));
        let (dir, _) = longest_edge(&a.outline);
        for (p, q) in hatch(&a.outline, dir, 1.3) {
            furrows.line(&[p, q]);
        }
    }
    out.add(ground.fill(pal::FIELD, za));
    out.add(furrows.stroke(pal::FIELD_FURROW, 0.35, za + 0.05));

    // Scrub: olive ground and bushes.
    let (mut ground, mut bushes) = (Pen::new(), Pen::new());
    for a in of(AreaKind::Scrub) {
        ground.poly(&rounded(&a.outline, 2.0));
        for p in scatter(&a.outline, 2.4, 0.8, rng) {
            bushes.circle(p, rng.range(0.4, 0.9));
        }
    }
    out.add(ground.fill(pal::SCRUB, za));
    out.add(bushes.fill(pal::SCRUB_BUSH, za + 0.05));

    // Mud: brown ground with darker wet patches.
    let (mut ground, mut patches) = (Pen::new(), Pen::new());
    for a in of(AreaKind::Mud) {
        ground.poly(&rounded(&a.outline, 2.0));
        for p in scatter(&a.outline, 3.0, 1.0, rng) {
            patches.circle(p, rng.range(0.5, 1.3));
        }
    }
    out.add(ground.fill(pal::MUD, za));
    out.add(patches.fill(pal::MUD_DARK, za + 0.05));

    // Marsh: green-grey ground, pools and reeds.
    let (mut ground, mut pools, mut reeds) = (Pen::new(), Pen::new(), Pen::new());
    for a in of(AreaKind::Marsh) {
        ground.poly(&rounded(&a.outline, 2.0));
        for (i, p) in scatter(&a.outline, 2.2, 0.8, rng).into_iter().enumerate() {
            if i % 3 == 0 {
                pools.circle(p, rng.range(0.6, 1.2));
            } else {
                for k in -1..=1 {
                    let x = p.x + k as f32 * 0.3;
                    reeds.line(&[Vec2::new(x, p.y - 0.4), Vec2::new(x + k as f32 * 0.15, p.y + 0.4)]);
                }
            }
        }
    }
    out.add(ground.fill(pal::MARSH, za));
    out.add(pools.fill(pal::MARSH_WATER, za + 0.05));
    out.add(reeds.stroke(pal::MARSH_REED, 0.15, za + 0.1));
}

/// The areas that give cover or bar the way: built-up areas, orchards, woods and lakes.
fn cover_layers(out: &mut Layers, b: &crate::battle::Battle, rng: &mut Scatter) {
    let areas = &b.terrain.areas;
    let of = |k: AreaKind| areas.iter().filter(move |a| a.kind == k);
    let za = z::AREAS;
    // Built-up areas: paved ground and blocks of houses.
    let (mut ground, mut houses, mut shadows) = (Pen::new(), Pen::new(), Pen::new());
    for a in of(AreaKind::BuiltUp) {
        ground.poly(&corners(&a.outline));
        for p in scatter(&a.outline, 4.0, 0.6, rng) {
            let (hw, hd) = (rng.range(0.9, 1.5), rng.range(0.6, 1.0));
            let r = [
                p + Vec2::new(-hw, -hd),
                p + Vec2::new(hw, -hd),
                p + Vec2::new(hw, hd),
                p + Vec2::new(-hw, hd),
            ];
            shadows.poly(&r.map(|q| q + Vec2::new(0.4, -0.4)));
            houses.poly(&r);
        }
    }
    out.add(ground.fill(pal::BUILT_UP, za));
    out.add(shadows.fill(pal::WALL_SHADOW, za + 0.05));
    out.add(houses.fill(pal::BUILT_UP_HOUSE, za + 0.1));

    // Orchards: trees in rows.
    let (mut ground, mut shadows, mut trees) = (Pen::new(), Pen::new(), Pen::new());
    for a in of(AreaKind::Orchard) {
        ground.poly(&rounded(&a.outline, 1.5));
        for p in scatter(&a.outline, 3.0, 0.0, rng) {
            shadows.circle(p + Vec2::new(0.3, -0.3), 1.0);
            trees.circle(p, 1.0);
        }
    }
    out.add(ground.fill(pal::ORCHARD_GROUND, za));
    out.add(shadows.fill(pal::TREE_SHADOW, za + 0.05));
    out.add(trees.fill(pal::ORCHARD_TREE, za + 0.1));

    // Woods: dark ground and clumps of trees in three greens.
    let (mut ground, mut edge, mut shadows) = (Pen::new(), Pen::new(), Pen::new());
    let mut crowns = [Pen::new(), Pen::new(), Pen::new()];
    for a in of(AreaKind::Woods) {
        let pts = rounded(&a.outline, 3.0);
        ground.poly(&pts);
        edge.poly(&pts);
        for p in scatter(&a.outline, 2.4, 1.0, rng) {
            let r = rng.range(1.1, 1.7);
            shadows.circle(p + Vec2::new(0.45, -0.45), r);
            let k = (rng.unit() * 3.0) as usize;
            crowns[k.min(2)].circle(p, r);
        }
    }
    out.add(ground.fill(pal::WOODS_GROUND, za));
    out.add(edge.stroke(pal::TREE_SHADOW, 0.5, za + 0.02));
    out.add(shadows.fill(pal::TREE_SHADOW, za + 0.05));
    for (i, c) in crowns.into_iter().enumerate() {
        out.add(c.fill(pal::TREE[i], za + 0.1 + i as f32 * 0.02));
    }

    // Lakes: a bank, deep water, ripples.
    let (mut bank, mut water, mut ripples) = (Pen::new(), Pen::new(), Pen::new());
    for a in of(AreaKind::Lake) {
        let pts = rounded(&a.outline, 3.0);
        bank.poly(&pts);
        water.poly(&pts);
        for p in scatter(&a.outline, 4.0, 1.0, rng) {
            ripples.line(&[p - Vec2::new(0.8, 0.0), p + Vec2::new(0.8, 0.0)]);
        }
    }
    out.add(bank.stroke(pal::BANK, 1.0, za));
    out.add(water.fill(pal::WATER, za + 0.05));
    out.add(ripples.stroke(pal::WATER_LIGHT, 0.2, za + 0.1));
}

/// Linear terrain: rivers and streams, roads, hedges, walls and fences.
fn linear_layers(out: &mut Layers, b: &crate::battle::Battle) {
    let zl = z::LINEARS;
    let lin = |k: LinearKind| b.terrain.linears.iter().filter(move |l| l.kind == k);
    // Rivers and streams: banks, water, a lighter current.
    for (kind, dz) in [(LinearKind::River, 0.0), (LinearKind::Stream, 0.4)] {
        for l in lin(kind) {
            let pts: Vec<Vec2> = l.points.iter().map(|p| w(*p)).collect();
            let wd = l.width as f32;
            let (mut a, mut bb, mut c) = (Pen::new(), Pen::new(), Pen::new());
            a.line(&pts);
            bb.line(&pts);
            c.line(&pts);
            out.add(a.stroke(pal::BANK, wd + 1.0, zl + dz));
            let deep = if kind == LinearKind::River {
                pal::WATER_DEEP
            } else {
                pal::WATER
            };
            out.add(bb.stroke(deep, wd, zl + dz + 0.1));
            out.add(c.stroke(pal::WATER_LIGHT, (wd * 0.25).max(0.2), zl + dz + 0.2));
        }
    }
    // Roads on top of the water (bridges and fords).
    for l in lin(LinearKind::Road) {
        let pts: Vec<Vec2> = l.points.iter().map(|p| w(*p)).collect();
        let wd = l.width as f32;
        let (mut a, mut bb) = (Pen::new(), Pen::new());
        a.line(&pts);
        bb.line(&pts);
        out.add(a.stroke(pal::ROAD_EDGE, wd + 0.6, zl + 0.8));
        out.add(bb.stroke(pal::ROAD, wd, zl + 0.9));
    }
    // Hedges: bumpy lines of bushes.
    let (mut dark, mut lighter) = (Pen::new(), Pen::new());
    for l in lin(LinearKind::Hedge) {
        for (i, p) in along(&l.points, 0.6).into_iter().enumerate() {
            let r = 0.55 + 0.2 * ((i * 7 % 5) as f32 / 5.0);
            dark.circle(p, r);
            lighter.circle(p + Vec2::new(-0.15, 0.15), r * 0.6);
        }
    }
    out.add(dark.fill(pal::HEDGE, zl + 1.0));
    out.add(lighter.fill(pal::HEDGE_LIGHT, zl + 1.05));
    // Stone walls: a grey band with joints and a shadow.
    let (mut shadow, mut band, mut face, mut joints) = (Pen::new(), Pen::new(), Pen::new(), Pen::new());
    for l in lin(LinearKind::Wall) {
        let pts: Vec<Vec2> = l.points.iter().map(|p| w(*p)).collect();
        let off: Vec<Vec2> = pts.iter().map(|p| *p + Vec2::new(0.25, -0.25)).collect();
        shadow.line(&off);
        band.line(&pts);
        face.line(&pts);
        for (p, d) in along_with_dir(&l.points, 0.9) {
            let n = d.perp() * 0.3;
            joints.line(&[p - n, p + n]);
        }
    }
    out.add(shadow.stroke(pal::WALL_SHADOW, 0.9, zl + 1.1));
    out.add(band.stroke(pal::WALL_DARK, 0.85, zl + 1.15));
    out.add(face.stroke(pal::WALL, 0.6, zl + 1.2));
    out.add(joints.stroke(pal::WALL_DARK, 0.1, zl + 1.25));
    // Rail (worm) fences: a zig-zag of rails.
    let mut rails = Pen::new();
    for l in lin(LinearKind::Fence) {
        let mut zig = Vec::new();
        for (i, (p, d)) in along_with_dir(&l.points, 0.7).into_iter().enumerate() {
            let s = if i % 2 == 0 { 0.35 } else { -0.35 };
            zig.push(p + d.perp() * s);
        }
        rails.line(&zig);
    }
    out.add(rails.stroke(pal::FENCE, 0.22, zl + 1.1));
}

/// Buildings: a shadow, a hipped roof; a collapsed one a heap of rubble.
fn building_layers(out: &mut Layers, b: &crate::battle::Battle) {
    let (mut shadow, mut roof, mut ridge) = (Pen::new(), Pen::new(), Pen::new());
    let (mut rubble, mut stones) = (Pen::new(), Pen::new());
    for (i, bld) in b.terrain.buildings.iter().enumerate() {
        let pts = corners(&bld.outline);
        if b.constructions.collapsed.contains(&(i as u32)) {
            // BPT "Constructions": a collapsed building is a heap of rubble.
            rubble.poly(&pts);
            let c = pts.iter().copied().sum::<Vec2>() / pts.len().max(1) as f32;
            for (k, p) in pts.iter().enumerate() {
                for t in [0.3f32, 0.6] {
                    let q = c + (*p - c) * t + Vec2::new((k as f32 * 1.7).sin(), (k as f32 * 2.3).cos()) * 0.4;
                    stones.poly(&[
                        q,
                        q + Vec2::new(0.7, 0.1),
                        q + Vec2::new(0.5, 0.6),
                        q + Vec2::new(-0.1, 0.5),
                    ]);
                }
            }
            continue;
        }
        shadow.poly(&pts.iter().map(|p| *p + Vec2::new(0.6, -0.6)).collect::<Vec<_>>());
        roof.poly(&pts);
        ridge.poly(&pts);
        if pts.len() == 4 {
            let (dir, len) = longest_edge(&bld.outline);
            let short = pts[0].distance(pts[1]).min(pts[1].distance(pts[2]));
            let c = pts.iter().copied().sum::<Vec2>() / 4.0;
            let half = ((len - short) * 0.5).max(0.0);
            let (r0, r1) = (c - dir * half, c + dir * half);
            ridge.line(&[r0, r1]);
            for p in &pts {
                let end = if p.distance(r0) < p.distance(r1) { r0 } else { r1 };
                ridge.line(&[*p, end]);
            }
        }
    }
    out.add(shadow.fill(pal::WALL_SHADOW, z::BUILDINGS));
    out.add(roof.fill(pal::ROOF, z::BUILDINGS + 0.1));
    out.add(ridge.stroke(pal::ROOF_RIDGE, 0.18, z::BUILDINGS + 0.2));
    out.add(rubble.fill(pal::BUILT_UP, z::BUILDINGS));
    out.add(stones.fill(pal::ROOF_RIDGE, z::BUILDINGS + 0.1));
}

/// Objectives: a ring of the holding radius and a star.
fn objective_layers(out: &mut Layers, b: &crate::battle::Battle) {
    let (mut ring, mut star) = (Pen::new(), Pen::new());
    let mut seen: Vec<(Vec2, f32)> = Vec::new();
    for o in &b.objectives {
        let c = w(o.pos);
        let r = o.radius as f32;
        if seen.iter().any(|(p, q)| p.distance(c) < 0.01 && (q - r).abs() < 0.01) {
            continue;
        }
        seen.push((c, r));
        // A dashed ring.
        let n = 48;
        for i in (0..n).step_by(2) {
            let a0 = i as f32 / n as f32 * std::f32::consts::TAU;
            let a1 = (i + 1) as f32 / n as f32 * std::f32::consts::TAU;
            ring.line(&[c + Vec2::from_angle(a0) * r, c + Vec2::from_angle(a1) * r]);
        }
        star.poly(&star_points(c, 1.6, 0.65));
    }
    out.add(ring.stroke(pal::OBJECTIVE, 0.35, z::OBJECTIVES));
    out.add(star.fill(pal::OBJECTIVE, z::OBJECTIVES + 0.1));
}

/// A five-pointed star.
pub fn star_points(c: Vec2, outer: f32, inner: f32) -> Vec<Vec2> {
    (0..10)
        .map(|i| {
            let a = std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::PI / 5.0;
            c + Vec2::from_angle(a) * if i % 2 == 0 { outer } else { inner }
        })
        .collect()
}

/// The outline's vertices as world points.
fn corners(p: &Polygon) -> Vec<Vec2> {
    p.0.iter().map(|v| w(*v)).collect()
}

/// The outline with its corners rounded off (by at most `radius` cm and a third of each side),
/// counter-clockwise.
fn rounded(p: &Polygon, radius: f32) -> Vec<Vec2> {
    let mut v = corners(p);
    let n = v.len();
    if n < 3 {
        return v;
    }
    // Counter-clockwise, so shapes merge under the non-zero rule.
    let area: f32 = (0..n).map(|i| v[i].perp_dot(v[(i + 1) % n])).sum();
    if area < 0.0 {
        v.reverse();
    }
    let mut out = Vec::with_capacity(n * 5);
    for i in 0..n {
        let (prev, cur, next) = (v[(i + n - 1) % n], v[i], v[(i + 1) % n]);
        let r_in = radius.min(cur.distance(prev) / 3.0);
        let r_out = radius.min(cur.distance(next) / 3.0);
        let a = cur + (prev - cur).normalize_or_zero() * r_in;
        let c = cur + (next - cur).normalize_or_zero() * r_out;
        for k in 0..=4 {
            let t = k as f32 / 4.0;
            // Quadratic Bézier a → cur → c.
            out.push(a * (1.0 - t) * (1.0 - t) + cur * 2.0 * t * (1.0 - t) + c * t * t);
        }
    }
    out
}

/// The direction and length of the outline's longest side.
fn longest_edge(p: &Polygon) -> (Vec2, f32) {
    p.edges()
        .map(|(a, b)| (w(b) - w(a), w(a).distance(w(b))))
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(d, l)| (d.normalize_or_zero(), l))
        .unwrap_or((Vec2::X, 0.0))
}

/// Parallel lines `spacing` apart along `dir`, clipped to the polygon.
fn hatch(p: &Polygon, dir: Vec2, spacing: f32) -> Vec<(Vec2, Vec2)> {
    let pts = corners(p);
    if pts.len() < 3 || dir == Vec2::ZERO {
        return Vec::new();
    }
    let n = dir.perp();
    let (lo, hi) = pts
        .iter()
        .map(|q| q.dot(n))
        .fold((f32::MAX, f32::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let mut out = Vec::new();
    let mut s = lo + spacing * 0.5;
    while s < hi {
        // The line {x : x·n = s}, as origin + t·dir.
        let origin = n * s;
        let mut ts: Vec<f32> = Vec::new();
        for i in 0..pts.len() {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            let (da, db) = (a.dot(n) - s, b.dot(n) - s);
            if (da > 0.0) != (db > 0.0) {
                let q = a + (b - a) * (da / (da - db));
                ts.push((q - origin).dot(dir));
            }
        }
        ts.sort_by(f32::total_cmp);
        for pair in ts.chunks_exact(2) {
            out.push((origin + dir * (pair[0] + 0.3), origin + dir * (pair[1] - 0.3)));
        }
        s += spacing;
    }
    out
}

/// Points on a jittered grid inside the polygon (at least half a step from the bounding box).
fn scatter(p: &Polygon, step: f32, jitter: f32, rng: &mut Scatter) -> Vec<Vec2> {
    let pts = corners(p);
    if pts.len() < 3 {
        return Vec::new();
    }
    let lo = pts.iter().copied().fold(Vec2::MAX, Vec2::min);
    let hi = pts.iter().copied().fold(Vec2::MIN, Vec2::max);
    let mut out = Vec::new();
    let mut y = lo.y + step * 0.5;
    let mut row = 0;
    while y < hi.y {
        let mut x = lo.x + step * if row % 2 == 0 { 0.5 } else { 1.0 };
        while x < hi.x {
            let q = Vec2::new(x + rng.range(-jitter, jitter), y + rng.range(-jitter, jitter));
            if p.contains(super::pen::t(q)) {
                out.push(q);
            }
            x += step;
        }
        y += step * 0.87;
        row += 1;
    }
    out
}

/// Points every `step` cm along a polyline.
fn along(points: &[crate::rules::geometry::V2], step: f32) -> Vec<Vec2> {
    along_with_dir(points, step).into_iter().map(|(p, _)| p).collect()
}

/// Points every `step` cm along a polyline, with the direction of travel there.
fn along_with_dir(points: &[crate::rules::geometry::V2], step: f32) -> Vec<(Vec2, Vec2)> {
    let mut out = Vec::new();
    let mut carry = 0.0;
    for seg in points.windows(2) {
        let (a, b) = (w(seg[0]), w(seg[1]));
        let len = a.distance(b);
        if len <= 0.0 {
            continue;
        }
        let d = (b - a) / len;
        let mut s = carry;
        while s <= len {
            out.push((a + d * s, d));
            s += step;
        }
        carry = s - len;
    }
    if let (Some(last), Some(prev)) = (points.last(), points.len().checked_sub(2).map(|i| points[i])) {
        let d = (w(*last) - w(prev)).normalize_or_zero();
        out.push((w(*last), d));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::labels;

    #[test]
    fn an_objective_named_after_its_hill_is_labelled_once_and_others_keep_their_label() {
        let (b, _) = crate::load_battle(std::path::Path::new("maps/first_battle.ron"), 1).expect("first battle");
        let ls = labels(&b);
        let count = |name: &str| ls.iter().filter(|(t, ..)| t == name).count();
        // "North ridge" is both a hill and an objective on it; "Hickory farm" only an objective.
        assert_eq!(count("North ridge"), 1);
        assert_eq!(count("South ridge"), 1);
        assert_eq!(count("Hickory farm"), 1);
        assert_eq!(count("Hickory orchard"), 1);
    }
}
