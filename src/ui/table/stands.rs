//! The troops: every base in its side's colour with a NATO-style glyph (infantry a cross,
//! cavalry a diagonal, artillery a dot, limbers wheels, skirmishers a lighter base, the unit
//! command stand a flag) and a light front edge; markers for suppressed and disordered units
//! and pips for hits. Rebuilt from the pieces' entities whenever one of them changed (moved,
//! turned, changed status or side, came or went), whatever changed the battle and whenever in
//! the frame it did (an undo, a replay's seek, a new game).

use super::pen::{Pen, in_rect, rect_corners, spawn_layer, w, z};
use crate::app::{BaseShape, BattleState, SideOf, Stand, UnitPiece, UnitStatus};
use crate::battle::{Battle, SideId, UnitId};
use crate::data::army::Arm;
use crate::rules::geometry::{Rect, V2};
use crate::ui::animation::AnimHidden;
use crate::ui::palette as pal;
use crate::ui::settings::Settings;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_stands.in_set(crate::ui::common::TableSystems::Draw).run_if(
            pieces_changed
                .or_else(resource_changed::<BattleState>)
                .or_else(resource_changed::<AnimHidden>)
                .or_else(resource_changed::<Settings>)
                .or_else(resource_changed::<crate::ui::session::Seats>),
        ),
    );
}

/// What the troops are drawn from changed: a piece moved or turned (its transform), changed
/// its status, side, shape or visibility (the fog), was spawned or despawned. The drawing
/// follows the entities, not the battle: a change of the battle applied between the pieces'
/// sync and the drawing (an undo queued mid-frame) reaches the pieces a frame later, and is
/// drawn then.
#[allow(clippy::type_complexity)]
fn pieces_changed(
    changed: Query<
        (),
        (
            Or<(With<UnitPiece>, With<Stand>)>,
            Or<(
                Changed<Transform>,
                Changed<UnitStatus>,
                Changed<SideOf>,
                Changed<BaseShape>,
                Changed<Visibility>,
            )>,
        ),
    >,
    mut gone: RemovedComponents<UnitPiece>,
) -> bool {
    gone.read().count() > 0 || !changed.is_empty()
}

/// Marks the troops' shape entities.
#[derive(Component)]
pub struct StandLayer;

/// What the table draws of a unit: its side, status, where it stands and its bases.
#[derive(Clone, Debug)]
pub struct PieceLook {
    pub unit: UnitId,
    pub side: SideId,
    pub status: UnitStatus,
    pub pos: V2,
    pub rects: Vec<Rect>,
}

/// The troops as the battle's entities place them (`app::pieces`): the units the
/// player at the table may see (hidden set-up hides the rest by `Visibility`), less those
/// the animation is gliding.
fn draw_stands(
    mut commands: Commands,
    hidden: Res<AnimHidden>,
    settings: Res<Settings>,
    units: Query<(&UnitPiece, &SideOf, &UnitStatus, &Transform, &Visibility, &Children)>,
    stands: Query<(&Stand, &BaseShape, &Transform)>,
    old: Query<Entity, With<StandLayer>>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let mut looks: Vec<PieceLook> = units
        .iter()
        .filter(|(p, _, _, _, v, _)| **v != Visibility::Hidden && !hidden.0.contains(&p.unit))
        .map(|(p, side, status, at, _, children)| {
            let mut bases: Vec<(usize, Rect)> = children
                .iter()
                .filter_map(|c| stands.get(c).ok())
                .map(|(s, shape, local)| (s.index, rect_of(&(*at * *local), shape)))
                .collect();
            bases.sort_by_key(|(i, _)| *i);
            PieceLook {
                unit: p.unit,
                side: side.0,
                status: status.clone(),
                pos: V2::new(at.translation.x as f64, at.translation.y as f64),
                rects: bases.into_iter().map(|(_, r)| r).collect(),
            }
        })
        .collect();
    looks.sort_by_key(|l| l.unit);
    let colours = pal::sides(settings.palette);
    for layer in stand_layers_of(&looks, &colours) {
        spawn_layer(&mut commands, Some(layer), StandLayer);
    }
}

/// A base as the rules' rectangle, from where its entity stands.
fn rect_of(at: &Transform, shape: &BaseShape) -> Rect {
    let f = at.rotation * Vec3::X;
    Rect::new(
        V2::new(at.translation.x as f64, at.translation.y as f64),
        (f.y as f64).atan2(f.x as f64),
        shape.width as f64,
        shape.depth as f64,
    )
}

/// The looks of the battle's units that `keep` picks, straight from the battle (the frame
/// bench, and the animation's gliding unit, which is drawn where it is not yet).
pub fn looks_of(b: &Battle, keep: impl Fn(UnitId) -> bool) -> Vec<PieceLook> {
    b.alive_units()
        .filter(|u| keep(u.id))
        .map(|u| PieceLook {
            unit: u.id,
            side: u.side,
            status: UnitStatus::of(b, u),
            pos: u.pose.pos,
            rects: b.geom[u.id as usize].rects.clone(),
        })
        .collect()
}

type Layer = (bevy_prototype_lyon::prelude::Shape, Transform);

/// The troop layers, bottom to top.
pub fn stand_layers(b: &Battle) -> Vec<Layer> {
    stand_layers_of(&looks_of(b, |_| true), &pal::sides(Default::default()))
}

/// The layers of `looks`, bottom to top, in `colours` (base, dark, light by side:
/// `palette::sides`).
pub fn stand_layers_of(looks: &[PieceLook], colours: &[[Color; 2]; 3]) -> Vec<Layer> {
    let mut p = TroopPens::default();
    for u in looks {
        p.stands(u);
        p.markers_of(u);
    }
    p.layers(colours)
}

/// A pen for each troop layer: the stands' shadows, edges, bases (plain and light, by side),
/// front strips and glyphs; the markers behind them.
#[derive(Default)]
struct TroopPens {
    shadow: Pen,
    edge: [Pen; 2],
    base: [Pen; 2],
    light: [Pen; 2],
    front: Pen,
    glyph: Pen,
    dots: Pen,
    suppressed: Pen,
    disordered: Pen,
    pips: Pen,
    markers: Pen,
    prone_disc: Pen,
    prone_p: Pen,
    hidden_disc: Pen,
    hidden_slit: Pen,
}

impl TroopPens {
    /// The stands of `u`: base, front edge, and the arm's glyph (a flag or a limber on the
    /// command stand).
    fn stands(&mut self, u: &PieceLook) {
        let pen = self;
        let s = u.side;
        let st = &u.status;
        for (i, r) in u.rects.iter().enumerate() {
            let command = i >= st.fighting;
            pen.shadow
                .poly(&rect_corners(r, 0.0).map(|p| p + Vec2::new(0.25, -0.25)));
            pen.edge[s].rect(r, 0.0);
            if st.skirmisher || (command && st.artillery) {
                pen.light[s].rect(r, 0.12);
            } else {
                pen.base[s].rect(r, 0.12);
            }
            // The pen.front pen.edge, a pen.light strip.
            let (fl, fr) = (in_rect(r, 0.92, 0.86), in_rect(r, 0.92, -0.86));
            pen.front.line(&[fl, fr]);
            if command && st.artillery {
                // The limber: two wheels and the pole.
                pen.glyph.line(&[in_rect(r, 0.75, 0.0), in_rect(r, -0.5, 0.0)]);
                pen.dots.circle(in_rect(r, -0.2, 0.45), 0.28);
                pen.dots.circle(in_rect(r, -0.2, -0.45), 0.28);
            } else if command {
                // The unit command stand: a flag.
                let pole = [in_rect(r, -0.6, -0.2), in_rect(r, 0.6, -0.2)];
                pen.glyph.line(&pole);
                pen.dots.poly(&[
                    in_rect(r, 0.6, -0.2),
                    in_rect(r, 0.6, 0.55),
                    in_rect(r, 0.05, 0.55),
                    in_rect(r, 0.05, -0.2),
                ]);
            } else {
                match st.arm {
                    Arm::Artillery => pen.dots.circle(w(r.center) - w(r.forward()) * 0.15, 0.42),
                    Arm::Cavalry => pen.glyph.line(&[in_rect(r, -0.55, 0.7), in_rect(r, 0.65, -0.7)]),
                    Arm::Transport => {
                        pen.dots.circle(in_rect(r, -0.1, 0.4), 0.25);
                        pen.dots.circle(in_rect(r, -0.1, -0.4), 0.25);
                    }
                    Arm::Engineers => {
                        pen.glyph.line(&[in_rect(r, -0.45, 0.6), in_rect(r, -0.45, -0.6)]);
                        pen.glyph.line(&[in_rect(r, -0.45, 0.0), in_rect(r, 0.4, 0.0)]);
                        pen.glyph.line(&[in_rect(r, -0.45, 0.6), in_rect(r, 0.4, 0.6)]);
                        pen.glyph.line(&[in_rect(r, -0.45, -0.6), in_rect(r, 0.4, -0.6)]);
                    }
                    Arm::Infantry => {
                        pen.glyph.line(&[in_rect(r, -0.55, 0.7), in_rect(r, 0.65, -0.7)]);
                        pen.glyph.line(&[in_rect(r, -0.55, -0.7), in_rect(r, 0.65, 0.7)]);
                    }
                }
            }
        }
    }

    /// The markers behind the unit's centre: suppressed, disordered, hits, hidden, prone and
    /// D-markers.
    fn markers_of(&mut self, u: &PieceLook) {
        let pen = self;
        let st = &u.status;
        // Markers behind the unit's centre.
        let Some(first) = u.rects.first() else { return };
        let back = w(u.pos) - w(first.forward()) * (first.depth as f32 * 0.5 + 1.0);
        let side = w(first.left());
        if st.suppressed {
            pen.suppressed.circle(back + side * 0.9, 0.6);
        }
        if st.disordered {
            let c = back - side * 0.9;
            pen.disordered.poly(&[
                c + Vec2::new(0.0, 0.7),
                c + Vec2::new(-0.65, -0.45),
                c + Vec2::new(0.65, -0.45),
            ]);
        }
        for k in 0..st.hits.min(12) {
            let p = back - w(first.forward()) * 1.1 + side * ((k as f32 - (st.hits.min(12) as f32 - 1.0) * 0.5) * 0.7);
            pen.pips.circle(p, 0.25);
        }
        // Hidden set-up: a closed eye behind a unit the enemy has not found.
        if st.hidden {
            let c = back + side * 2.2;
            pen.hidden_disc.circle(c, 0.75);
            pen.hidden_slit.line(&[
                c + Vec2::new(-0.45, 0.05),
                c + Vec2::new(0.0, -0.2),
                c + Vec2::new(0.45, 0.05),
            ]);
        }
        // BPT "Prone Movement": a "P" counter behind the unit.
        if st.prone {
            let c = back - side * 2.2;
            pen.prone_disc.circle(c, 0.75);
            let at = |x: f32, y: f32| c + Vec2::new(x, y);
            pen.prone_p.line(&[
                at(-0.22, -0.5),
                at(-0.22, 0.5),
                at(0.12, 0.5),
                at(0.3, 0.35),
                at(0.3, 0.15),
                at(0.12, 0.0),
                at(-0.22, 0.0),
            ]);
        }
        // Glory Days! D-pen.markers (initiative passing): diamonds a row further back.
        let dm = st.d_markers.min(3) as f32;
        for k in 0..st.d_markers.min(3) {
            let c = back - w(first.forward()) * 1.9 + side * ((k as f32 - (dm - 1.0) * 0.5) * 0.9);
            pen.markers.poly(&[
                c + Vec2::new(0.0, 0.4),
                c + Vec2::new(0.4, 0.0),
                c + Vec2::new(0.0, -0.4),
                c + Vec2::new(-0.4, 0.0),
            ]);
        }
    }

    /// The layers, bottom to top, in `colours`.
    fn layers(self, colours: &[[Color; 2]; 3]) -> Vec<Layer> {
        let pen = self;
        let mut out = Vec::new();
        let zu = z::UNITS;
        let mut push = |l: Option<Layer>| {
            if let Some(l) = l {
                out.push(l);
            }
        };
        push(pen.shadow.fill(Color::srgba(0.0, 0.0, 0.0, 0.35), zu));
        let by_side = pen.edge.into_iter().zip(pen.base).zip(pen.light);
        for (s, ((e, bs), l)) in by_side.enumerate() {
            push(e.fill(colours[1][s], zu + 0.1));
            push(bs.fill(colours[0][s], zu + 0.2));
            push(l.fill(colours[2][s], zu + 0.2));
        }
        push(pen.front.stroke(pal::MARK, 0.22, zu + 0.3));
        push(pen.glyph.stroke(pal::MARK, 0.16, zu + 0.35));
        push(pen.dots.fill(pal::MARK, zu + 0.35));
        push(pen.suppressed.fill(pal::SUPPRESSED, zu + 0.4));
        push(pen.disordered.fill(pal::DISORDERED, zu + 0.4));
        push(pen.pips.fill(pal::MARK, zu + 0.4));
        push(pen.markers.fill(pal::D_MARKER, zu + 0.4));
        push(pen.prone_disc.fill(pal::MARK, zu + 0.4));
        push(pen.prone_p.stroke(pal::SUPPRESSED, 0.16, zu + 0.45));
        push(pen.hidden_disc.fill(pal::SUPPRESSED, zu + 0.4));
        push(pen.hidden_slit.stroke(pal::MARK, 0.16, zu + 0.45));
        out
    }
}
