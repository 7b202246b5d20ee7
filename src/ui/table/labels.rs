//! Unit names on the table: each unit the player may see has its name on a small plate in its
//! side's dark colour beside it, placed where it covers no base, no marker, no terrain or
//! objective label and no other name if it can. The names are drawn at a fixed size on the
//! table, so they show only once the camera is close enough for them to be read (and so
//! far out that they would be a smear they are hidden).

use super::pen::{w, z};
use crate::app::BattleState;
use crate::battle::Battle;
use crate::battle::UnitId;
use crate::ui::animation::AnimHidden;
use crate::ui::camera::TableCamera;
use crate::ui::palette as pal;
use crate::ui::settings::Settings;
use crate::view::{PlayerView, Viewer};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            draw_names.run_if(
                resource_changed::<BattleState>
                    .or_else(resource_changed::<AnimHidden>)
                    .or_else(resource_changed::<Settings>)
                    .or_else(resource_changed::<crate::ui::session::Seats>),
            ),
            show_names_when_readable,
        )
            .chain()
            .in_set(crate::ui::common::TableSystems::Draw),
    );
}

/// Marks the unit names' entities.
#[derive(Component)]
pub struct NameLabel;

/// Marks the formations' names (issue 65, "names on the table at the fitted zoom,
/// decluttered"): a brigade's name over its regiments, shown where the regiments' own names
/// would be too small to read.
#[derive(Component)]
pub struct FormationLabel;

/// The formations' letter height on the table, cm.
pub const FORMATION_HEIGHT: f32 = 3.0;

/// The names' letter height on the table, cm.
pub const NAME_HEIGHT: f32 = 1.2;
/// A name shows while its letters are at least this many pixels tall.
pub const READABLE_PX: f32 = 9.0;
/// The width of a letter of the table's font, in letter heights (a generous guess: the
/// default font is narrower, so a plate is never wider than its box).
const LETTER_WIDTH: f32 = 0.62;
/// The space between a unit's box and its name, cm.
const GAP: f32 = 0.3;

/// An axis-aligned box on the table (cm).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Box2 {
    pub min: Vec2,
    pub max: Vec2,
}

impl Box2 {
    pub fn around(points: impl IntoIterator<Item = Vec2>) -> Option<Box2> {
        let mut it = points.into_iter();
        let first = it.next()?;
        let (mut min, mut max) = (first, first);
        for p in it {
            min = min.min(p);
            max = max.max(p);
        }
        Some(Box2 { min, max })
    }

    pub fn centred(at: Vec2, size: Vec2) -> Box2 {
        Box2 {
            min: at - size * 0.5,
            max: at + size * 0.5,
        }
    }

    pub fn centre(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// The area two boxes share (0 when apart).
    pub fn overlap(&self, o: &Box2) -> f32 {
        let lo = self.min.max(o.min);
        let hi = self.max.min(o.max);
        let d = (hi - lo).max(Vec2::ZERO);
        d.x * d.y
    }
}

/// A unit's name as the table shows it: its plate's centre and size.
#[derive(Clone, Debug, PartialEq)]
pub struct NameSpot {
    pub unit: UnitId,
    pub text: String,
    pub at: Vec2,
    pub size: Vec2,
}

impl NameSpot {
    pub fn plate(&self) -> Box2 {
        Box2::centred(self.at, self.size)
    }
}

/// The size of a name's plate.
pub fn plate_size(text: &str) -> Vec2 {
    Vec2::new(
        (text.chars().count() as f32 + 1.0) * LETTER_WIDTH * NAME_HEIGHT,
        NAME_HEIGHT * 1.25,
    )
}

/// What a unit covers on the table: its bases and, behind it, its markers (suppressed,
/// disordered, hits: `stands`).
pub fn unit_box(b: &Battle, id: UnitId) -> Option<Box2> {
    let u = b.unit(id);
    let rects = &b.geom[id as usize].rects;
    let first = rects.first()?;
    let fwd = w(first.forward());
    let left = w(first.left());
    let back = w(u.pose.pos) - fwd * (first.depth as f32 * 0.5 + 2.3);
    let markers = [back + left * 1.5, back - left * 1.5];
    Box2::around(rects.iter().flat_map(|r| r.corners()).map(w).chain(markers))
}

/// The boxes of the terrain's and objectives' names (`terrain::labels`), turned or not.
pub fn terrain_label_boxes(b: &Battle) -> Vec<Box2> {
    super::terrain::labels(b)
        .into_iter()
        .filter_map(|(text, at, angle, size)| {
            let half = Vec2::new(text.chars().count() as f32 * LETTER_WIDTH * size, size * 1.2) * 0.5;
            let rot = Vec2::from_angle(angle);
            let corners = [
                Vec2::new(-half.x, -half.y),
                Vec2::new(half.x, -half.y),
                Vec2::new(half.x, half.y),
                Vec2::new(-half.x, half.y),
            ];
            Box2::around(corners.map(|c| at + rot.rotate(c)))
        })
        .collect()
}

/// Where the names of `units` go: beside each unit (below, above, right, left, then a step
/// further out), at the first place that covers no unit, commander, label or earlier name,
/// else where it covers least. Units in the order given (the first placed get the best
/// places).
pub fn name_spots(b: &Battle, units: &[UnitId]) -> Vec<NameSpot> {
    let boxes: Vec<(UnitId, Box2)> = units
        .iter()
        .filter_map(|&id| unit_box(b, id).map(|bx| (id, bx)))
        .collect();
    let r = b.rules.footprints.commander_diameter as f32 * 0.5;
    let mut taken: Vec<Box2> = terrain_label_boxes(b);
    taken.extend(boxes.iter().map(|(_, bx)| *bx));
    taken.extend(b.commanders.iter().filter(|c| c.alive()).map(|c| {
        // The base, its flag above and its value to the lower right.
        Box2 {
            min: w(c.pos) - Vec2::new(r, r + 0.6),
            max: w(c.pos) + Vec2::new(r + 1.6, r + 1.4),
        }
    }));
    let mut out = Vec::new();
    for (id, bx) in boxes {
        let text = b.unit(id).name.clone();
        let size = plate_size(&text);
        let c = bx.centre();
        let (dx, dy) = (size.x * 0.5 + GAP, size.y * 0.5 + GAP);
        let mut candidates = Vec::new();
        for step in 0..3 {
            let far = step as f32 * (size.y + GAP);
            candidates.push(Vec2::new(c.x, bx.min.y - dy - far));
            candidates.push(Vec2::new(c.x, bx.max.y + dy + far));
            candidates.push(Vec2::new(bx.max.x + dx + far, c.y));
            candidates.push(Vec2::new(bx.min.x - dx - far, c.y));
        }
        let cost = |at: Vec2| -> f32 {
            let plate = Box2::centred(at, size);
            taken.iter().map(|t| plate.overlap(t)).sum::<f32>()
        };
        let at = candidates
            .iter()
            .copied()
            .find(|&p| cost(p) <= 0.0)
            .or_else(|| candidates.iter().copied().min_by(|p, q| cost(*p).total_cmp(&cost(*q))))
            .unwrap_or(c);
        taken.push(Box2::centred(at, size));
        out.push(NameSpot {
            unit: id,
            text,
            at,
            size,
        });
    }
    out
}

/// The units whose names the table shows: alive, known to the viewer, not gliding.
fn named_units(b: &Battle, view: &PlayerView, hidden: &[UnitId]) -> Vec<UnitId> {
    let mut ids: Vec<UnitId> = view.units().filter(|u| !hidden.contains(&u.id)).map(|u| u.id).collect();
    // The viewer's own units first: they get the best places.
    let viewer = view.viewer().side();
    ids.sort_by_key(|&id| (viewer.is_some_and(|s| b.unit(id).side != s), id));
    ids
}

/// A name on its plate: `text` at `at`, letters `height` cm tall, on `colour`, hidden until
/// `show_names_when_readable` finds it readable.
fn plate(text: &str, at: Vec2, height: f32, colour: Color, depth: f32) -> impl Bundle {
    (
        Text2d::new(format!(" {text} ")),
        TextFont {
            font_size: FontSize::Px(40.0),
            ..default()
        },
        TextColor(pal::MARK),
        TextBackgroundColor(colour),
        Transform::from_xyz(at.x, at.y, depth).with_scale(Vec3::splat(height / 40.0)),
        Visibility::Hidden,
    )
}

/// A unit's name or a formation's.
type AnyName = Or<(With<NameLabel>, With<FormationLabel>)>;

/// The units' names and the formations', as the viewer may see them.
fn draw_names(
    mut commands: Commands,
    battle: Res<BattleState>,
    hidden: Res<AnimHidden>,
    settings: Res<Settings>,
    seats: Option<Res<crate::ui::session::Seats>>,
    old: Query<Entity, AnyName>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let b = &battle.0;
    let view = match seats.as_deref() {
        Some(s) => s.view(b),
        None => PlayerView::of(b, Viewer::All),
    };
    let colours = pal::sides(settings.palette);
    for spot in name_spots(b, &named_units(b, &view, &hidden.0)) {
        let colour = colours[1][b.unit(spot.unit).side].with_alpha(0.8);
        commands.spawn((
            plate(&spot.text, spot.at, NAME_HEIGHT, colour, z::COMMANDERS + 0.8),
            NameLabel,
        ));
    }
    for (text, at, _, side) in formation_spots(b, &view) {
        let colour = colours[1][side].with_alpha(0.6);
        commands.spawn((
            plate(&text, at, FORMATION_HEIGHT, colour, z::COMMANDERS + 0.7),
            FormationLabel,
        ));
    }
}

/// A formation's name over its units: the commander's formation in words ("Archer's
/// brigade") and its plate, above the box around its living units the viewer sees (the
/// viewer's own formations; every side's for a spectator), moved up a step at a time past an
/// earlier plate it would cover.
pub fn formation_spots(b: &Battle, view: &PlayerView) -> Vec<(String, Vec2, Vec2, usize)> {
    let mine = view.viewer().side();
    let mut out: Vec<(String, Vec2, Vec2, usize)> = Vec::new();
    let mut taken: Vec<Box2> = Vec::new();
    for c in b
        .commanders
        .iter()
        .filter(|c| c.alive() && mine.is_none_or(|s| s == c.side))
    {
        let boxes: Vec<Box2> = view
            .units()
            .filter(|u| u.hq == c.id && u.alive())
            .filter_map(|u| unit_box(b, u.id))
            .collect();
        let Some(all) = Box2::around(boxes.iter().flat_map(|bx| [bx.min, bx.max])) else {
            continue;
        };
        let text = crate::report::intent::formation_words(b, c);
        let size = Vec2::new(
            (text.chars().count() as f32 + 1.0) * LETTER_WIDTH * FORMATION_HEIGHT,
            FORMATION_HEIGHT * 1.25,
        );
        let mut at = Vec2::new(all.centre().x, all.max.y + size.y * 0.5 + GAP);
        for _ in 0..6 {
            if !taken.iter().any(|t| Box2::centred(at, size).overlap(t) > 0.0) {
                break;
            }
            at.y += size.y + GAP;
        }
        taken.push(Box2::centred(at, size));
        out.push((text, at, size, c.side));
    }
    out
}

/// The names' visibility and turn, never the camera's.
type Names<'w, 's> =
    Query<'w, 's, (&'static mut Visibility, &'static mut Transform), (With<NameLabel>, Without<TableCamera>)>;

/// The formations' names, turned with the camera.
type FormationNames<'w, 's> = Query<
    'w,
    's,
    (&'static mut Visibility, &'static mut Transform),
    (With<FormationLabel>, Without<NameLabel>, Without<TableCamera>),
>;

/// Names show only while they can be read: their letters at least `READABLE_PX` tall; the
/// formations' names instead, while the units' are too small and theirs can be read. They
/// turn with the camera, so they stay upright on the screen when the table is rotated.
fn show_names_when_readable(
    camera: Option<Single<(&Projection, &Transform), With<TableCamera>>>,
    mut names: Names,
    mut formations: FormationNames,
) {
    let Some(camera) = camera else { return };
    let (proj, cam_tf) = camera.into_inner();
    let Projection::Orthographic(o) = proj else { return };
    let px = 1.0 / o.scale.max(1e-6);
    let units = NAME_HEIGHT * px >= READABLE_PX;
    let shown = |yes: bool| if yes { Visibility::Inherited } else { Visibility::Hidden };
    for (mut v, mut tf) in &mut names {
        v.set_if_neq(shown(units));
        if tf.rotation != cam_tf.rotation {
            tf.rotation = cam_tf.rotation;
        }
    }
    let brigades = !units && FORMATION_HEIGHT * px >= READABLE_PX;
    for (mut v, mut tf) in &mut formations {
        v.set_if_neq(shown(brigades));
        if tf.rotation != cam_tf.rotation {
            tf.rotation = cam_tf.rotation;
        }
    }
}
