//! The camera over the table: fitted to the table in the space the panels leave free, then
//! panned, zoomed and rotated by the bindings of `input`. What a click or a drag on the table
//! does is the input controller's (`table::input`).

use super::input::{Controls, TableAction};
use crate::app::BattleState;
use crate::ui::common::{Drag, Screen};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResized};
use leafwing_input_manager::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TableViewport>()
        .init_resource::<crate::ui::common::WheelTaken>()
        .init_resource::<crate::ui::common::Typing>()
        .init_resource::<CameraFit>()
        .add_systems(Startup, spawn_camera)
        .add_systems(OnEnter(Screen::Battle), request_fit)
        .add_systems(
            Update,
            (refit_on_change, fit_camera, steer_camera)
                .chain()
                .in_set(CameraSystems)
                .in_set(crate::ui::common::TableSystems::Input),
        );
}

/// The camera's systems (fitting, steering); the input controller runs after them.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CameraSystems;

#[derive(Component)]
pub struct TableCamera;

/// The part of the window the table shows in (logical pixels, origin top-left): the window
/// less the panels. Set by the panels every frame.
#[derive(Resource, Default, Clone, Copy, PartialEq, Debug)]
pub struct TableViewport(pub Option<Rect>);

/// Fit the table on the next frame; `moved` once the player has steered the camera.
#[derive(Resource, Default)]
pub struct CameraFit {
    pub pending: bool,
    pub moved: bool,
    last_viewport: Option<Rect>,
    last_table: Option<(u64, String)>,
}

fn spawn_camera(mut commands: Commands, mut fit: ResMut<CameraFit>) {
    commands.spawn((Camera2d, Msaa::Sample4, TableCamera));
    fit.pending = true;
}

fn request_fit(mut fit: ResMut<CameraFit>) {
    fit.pending = true;
    fit.moved = false;
}

/// Fit again on a new table, a resized window, or panels that changed size (unless the player
/// has moved the camera since).
fn refit_on_change(
    mut fit: ResMut<CameraFit>,
    battle: Res<BattleState>,
    viewport: Res<TableViewport>,
    mut resized: MessageReader<WindowResized>,
) {
    let key = (battle.0.scenario_hash, battle.0.title.clone());
    if fit.last_table.as_ref() != Some(&key) {
        fit.last_table = Some(key);
        fit.pending = true;
        fit.moved = false;
    }
    if resized.read().count() > 0 && !fit.moved {
        fit.pending = true;
    }
    if let Some(v) = viewport.0 {
        let changed = fit
            .last_viewport
            .is_none_or(|l| (l.min - v.min).length() > 2.0 || (l.max - v.max).length() > 2.0);
        if changed {
            fit.last_viewport = Some(v);
            if !fit.moved {
                fit.pending = true;
            }
        }
    }
}

/// The part of the table the first view shows: every unit and commander the viewer may see
/// (`viewer`: none sees all), with `FIT_MARGIN` around them, at least `FIT_MIN_WIDTH` wide,
/// kept on the table; the whole table when there is nothing to show. (min, max) in cm.
pub fn fit_box(b: &crate::battle::Battle, viewer: Option<crate::battle::state::SideId>) -> (Vec2, Vec2) {
    let (tw, th) = (b.table.width as f32, b.table.height as f32);
    let whole = (Vec2::ZERO, Vec2::new(tw, th));
    let r = b.rules.footprints.commander_diameter as f32 * 0.5;
    let view = crate::view::PlayerView::of(b, crate::view::Viewer::of(viewer));
    let units = b
        .alive_units()
        .filter(|u| view.knows(u.id))
        .flat_map(|u| b.rects(u.id).iter().flat_map(|x| x.corners()))
        .map(|p| Vec2::new(p.x as f32, p.y as f32));
    let commanders = b
        .commanders
        .iter()
        .filter(|c| c.alive() && viewer.is_none_or(|s| s == c.side))
        .flat_map(|c| {
            let p = Vec2::new(c.pos.x as f32, c.pos.y as f32);
            [p - Vec2::splat(r), p + Vec2::splat(r)]
        });
    let mut pts = units.chain(commanders);
    let Some(first) = pts.next() else { return whole };
    let (mut min, mut max) = pts.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p)));
    min -= Vec2::splat(FIT_MARGIN);
    max += Vec2::splat(FIT_MARGIN);
    let grow = (FIT_MIN_WIDTH - (max.x - min.x)).max(0.0) * 0.5;
    min.x -= grow;
    max.x += grow;
    // On the table: shifted back onto it, and no larger than it.
    let table = Vec2::new(tw, th);
    let half = ((max - min) * 0.5).min(table * 0.5);
    let centre = on_table((min + max) * 0.5, half, table);
    ((centre - half).max(Vec2::ZERO), (centre + half).min(table))
}

/// Where the view's centre goes to show `target` without showing past the table's edge: the
/// view (half extents `half`, cm) kept on a table of size `table` where it fits, centred on
/// the table along a side it does not fit.
pub fn on_table(target: Vec2, half: Vec2, table: Vec2) -> Vec2 {
    let along = |t: f32, h: f32, edge: f32| {
        if 2.0 * h >= edge {
            edge * 0.5
        } else {
            t.clamp(h, edge - h)
        }
    };
    Vec2::new(along(target.x, half.x, table.x), along(target.y, half.y, table.y))
}

/// The margin around the pieces in the first view, cm.
pub const FIT_MARGIN: f32 = 8.0;
/// The first view is at least this wide, cm (or the whole table, if narrower).
pub const FIT_MIN_WIDTH: f32 = 60.0;

/// Place the camera so every piece the player may see shows in the free part of the window
/// (`fit_box`).
fn fit_camera(
    mut fit: ResMut<CameraFit>,
    battle: Res<BattleState>,
    seats: Option<Res<crate::ui::session::Seats>>,
    viewport: Res<TableViewport>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    camera: Option<Single<(&mut Transform, &mut Projection), With<TableCamera>>>,
    screen: Option<Res<State<Screen>>>,
) {
    if !fit.pending {
        return;
    }
    // The editor shows the whole table.
    let whole = screen.is_some_and(|s| *s.get() == Screen::Editor);
    let (Some(window), Some(camera)) = (window, camera) else {
        return;
    };
    let (mut tf, mut proj) = camera.into_inner();
    let size = Vec2::new(window.width(), window.height());
    if size.x < 2.0 || size.y < 2.0 {
        return;
    }
    let view = viewport.0.unwrap_or(Rect::from_corners(Vec2::ZERO, size));
    let viewer = seats.as_deref().and_then(crate::ui::session::Seats::fog_viewer);
    let (lo, hi) = if whole {
        (
            Vec2::ZERO,
            Vec2::new(battle.0.table.width as f32, battle.0.table.height as f32),
        )
    } else {
        fit_box(&battle.0, viewer)
    };
    let (tw, th) = (hi.x - lo.x, hi.y - lo.y);
    let centre = (lo + hi) * 0.5;
    let margin = 1.06;
    let scale = (tw / view.width().max(1.0)).max(th / view.height().max(1.0)) * margin;
    // Offset of the free area's centre from the window's centre, in pixels (y down).
    let off = view.center() - size * 0.5;
    tf.translation = Vec3::new(centre.x - off.x * scale, centre.y + off.y * scale, 100.0);
    tf.rotation = Quat::IDENTITY;
    if let Projection::Orthographic(o) = proj.as_mut() {
        o.scale = scale;
    }
    fit.pending = false;
}

/// What steers the camera: the bindings, the pointer over the window and the table's part
/// of it, and who else has the wheel or the keys (a dragged piece, the editor's drag, a text
/// field being typed in).
#[derive(SystemParam)]
struct SteerInput<'w, 's> {
    controls: Option<Single<'w, 's, &'static ActionState<TableAction>, With<Controls>>>,
    window: Option<Single<'w, 's, &'static Window, With<PrimaryWindow>>>,
    viewport: Res<'w, TableViewport>,
    dragging: Res<'w, Drag>,
    wheel_taken: Option<Res<'w, crate::ui::common::WheelTaken>>,
    typing: Option<Res<'w, crate::ui::common::Typing>>,
}

/// Pan, zoom and rotate from the bindings.
fn steer_camera(
    input: SteerInput,
    camera: Option<Single<(&mut Transform, &mut Projection), With<TableCamera>>>,
    mut fit: ResMut<CameraFit>,
    time: Res<Time>,
    screen: Res<State<Screen>>,
) {
    let SteerInput {
        controls,
        window,
        viewport,
        dragging,
        wheel_taken,
        typing,
    } = input;
    let (Some(controls), Some(camera)) = (controls, camera) else {
        return;
    };
    if !matches!(screen.get(), Screen::Battle | Screen::Editor) {
        return;
    }
    // The editor's drag of a piece takes the wheel (it turns the piece).
    let editor_drag = wheel_taken.is_some_and(|w| w.0);
    let a = controls.into_inner();
    // Letters typed into a field of the panels are not the camera's.
    let keys_free = typing.is_none_or(|t| !t.0);
    let (mut tf, mut proj) = camera.into_inner();
    let Projection::Orthographic(o) = proj.as_mut() else {
        return;
    };
    let dt = time.delta_secs();
    if keys_free && a.just_pressed(&TableAction::FitTable) {
        fit.pending = true;
        fit.moved = false;
        return;
    }
    // The pointer's offset from the window's centre in pixels (y up), when over the table.
    let pointer = window.and_then(|w| {
        let c = w.cursor_position()?;
        viewport.0.is_none_or(|v| v.contains(c)).then(|| {
            let d = c - Vec2::new(w.width(), w.height()) * 0.5;
            Vec2::new(d.x, -d.y)
        })
    });
    let over_table = pointer.is_some();
    let mut moved = false;
    let rot = tf.rotation;
    let keys = if keys_free {
        a.clamped_axis_pair(&TableAction::Pan)
    } else {
        Vec2::ZERO
    };
    if keys != Vec2::ZERO {
        let d = rot * (keys.extend(0.0) * 600.0 * o.scale * dt);
        tf.translation += d;
        moved = true;
    }
    let drag = a.axis_pair(&TableAction::DragPan);
    if drag != Vec2::ZERO {
        let d = rot * (Vec3::new(-drag.x, drag.y, 0.0) * o.scale);
        tf.translation += d;
        moved = true;
    }
    // While a piece is dragged the wheel turns it (`table::input`), not the camera.
    let wheel = if over_table && dragging.grab.is_none() && !editor_drag {
        a.value(&TableAction::ZoomWheel)
    } else {
        0.0
    };
    let keys_zoom = if keys_free {
        a.value(&TableAction::ZoomKeys)
    } else {
        0.0
    };
    if wheel != 0.0 || keys_zoom != 0.0 {
        let factor = (1.0 - 0.12 * wheel.clamp(-3.0, 3.0)) * (1.0 - 1.5 * keys_zoom * dt);
        let old = o.scale;
        o.scale = (o.scale * factor).clamp(0.005, 2.0);
        // The wheel zooms about the pointer: the table point under it stays put.
        if let (Some(p), true) = (pointer, wheel != 0.0) {
            let shift = tf.rotation * (p * (old - o.scale)).extend(0.0);
            tf.translation += shift;
        }
        moved = true;
    }
    let turn = if keys_free { a.value(&TableAction::Rotate) } else { 0.0 };
    if turn != 0.0 {
        tf.rotate_z(turn * 1.2 * dt);
        moved = true;
    }
    if moved {
        fit.moved = true;
    }
}

/// The pointer over the table: the window, the table's camera and the part of the window
/// the table shows in.
#[derive(SystemParam)]
pub struct TablePointer<'w, 's> {
    pub window: Option<Single<'w, 's, &'static Window, With<PrimaryWindow>>>,
    pub camera: Option<Single<'w, 's, (&'static Camera, &'static GlobalTransform), With<TableCamera>>>,
    pub viewport: Res<'w, TableViewport>,
}

impl TablePointer<'_, '_> {
    /// Both the window and the table's camera are there.
    pub fn ready(&self) -> bool {
        self.window.is_some() && self.camera.is_some()
    }

    /// The pointer's place in the window (logical pixels, origin top-left), if it is in it.
    pub fn pixel(&self) -> Option<Vec2> {
        self.window.as_ref().and_then(|w| w.cursor_position())
    }

    /// The table point under the pointer (`cursor_on_table`).
    pub fn on_table(&self) -> Option<Vec2> {
        let (window, camera) = (self.window.as_ref()?, self.camera.as_ref()?);
        let (cam, cam_tf) = **camera;
        cursor_on_table(window, &self.viewport, cam, cam_tf)
    }
}

/// The table point under the pointer, if the pointer is over the table's part of the window.
pub fn cursor_on_table(
    window: &Window,
    viewport: &TableViewport,
    camera: &Camera,
    cam_tf: &GlobalTransform,
) -> Option<Vec2> {
    let c = window.cursor_position()?;
    if viewport.0.is_some_and(|v| !v.contains(c)) {
        return None;
    }
    camera.viewport_to_world_2d(cam_tf, c).ok()
}
