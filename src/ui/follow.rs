//! Following the computer (issue 16): when a computer player's action is applied, the unit or
//! commander that acted is ringed on the table with what it did and the computer's reason, and
//! the camera pans to it if it is off the middle of the view (setting `follow_computer`). Every
//! action's results float over the units they struck ("2 hits", "suppressed", "falls back
//! 3 cm", "knocked out") and fade.
//!
//! The logic runs headless (in `play_plugin`): `Highlight` and `Float` entities with their
//! words and place, aged and despawned; the window dresses them as a ring and text
//! ([`draw_plugin`]). Nothing hidden from the player at the table (hidden set-up) is shown.

use crate::app::{ActionApplied, BattleState};
use crate::battle::event::{CommandOutcome, Event};
use crate::battle::state::{CmdId, SideId, UnitId};
use crate::battle::{Action, Battle};
use crate::report::{Caption, capital};
use crate::rules::geometry::V2;
use crate::terminal::words::{cm, relative_move};
use crate::ui::camera::{TableCamera, TableViewport};
use crate::ui::common::Screen;
use crate::ui::session::Seats;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// How long a result floats, and a computer's action stays ringed (seconds).
pub const FLOAT_SECONDS: f32 = 2.5;
pub const HIGHLIGHT_SECONDS: f32 = 3.0;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<ComputerReason>()
        .init_resource::<ComputerPlan>()
        .init_resource::<FollowCamera>()
        .add_systems(PostUpdate, on_applied)
        .add_systems(
            Update,
            (age, pan_camera).in_set(crate::ui::common::TableSystems::Animate),
        );
}

/// The reason the computer player gave for the action it has just asked for (set by
/// `play::agent_turn`, taken when the action is applied).
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct ComputerReason(pub Option<String>);

/// Each computer side's plan as last said to the person at the table (made or changed, with
/// why), shown in the orders panel while it acts. Empty for a new battle.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct ComputerPlan(pub [Option<String>; 2]);

impl ComputerPlan {
    /// What a game going on from `rec` (a loaded save, on `b`) shows: each side a computer
    /// plays its last plan in the record, as the person at the table was told it (whole when
    /// computers play both sides); none of a side a person plays now, nor from an old record
    /// that kept the whole plan only ([`crate::replay::PlanNote::said_to`]).
    pub fn of_record(rec: &crate::replay::Recording, seats: &Seats) -> ComputerPlan {
        let viewer = seats.solo();
        let mut plan = ComputerPlan::default();
        for p in rec.plans.iter().filter(|p| p.side < 2 && !seats.human(p.side)) {
            plan.0[p.side] = p.said_to(viewer).map(str::to_string);
        }
        plan
    }
}

/// Where the camera is panning to (a computer's acting piece), once it was off the middle.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct FollowCamera {
    pub target: Option<Vec2>,
    started: bool,
}

/// A computer's acting unit or commander, ringed: where, how wide, and what it did and why.
/// Gone when the battle screen is left (as `Float`).
#[derive(Component, Clone, Debug, PartialEq)]
#[require(DespawnOnExit<Screen> = DespawnOnExit(Screen::Battle))]
pub struct Highlight {
    pub at: V2,
    pub radius: f32,
    pub text: String,
    pub age: f32,
}

/// Results floating over a unit they struck. Gone when the battle screen is left: what was
/// shown to one player (worked out in their view) never floats on for the next after a
/// hand-over.
#[derive(Component, Clone, Debug, PartialEq)]
#[require(DespawnOnExit<Screen> = DespawnOnExit(Screen::Battle))]
pub struct Float {
    pub unit: UnitId,
    pub text: String,
    pub age: f32,
}

/// What each unit suffered in `events`, in words, in the order first struck: "2 hits,
/// suppressed, falls back 3 cm", "no hits", "knocked out".
pub fn results(events: &[Event]) -> Vec<(UnitId, String)> {
    let mut out: Vec<(UnitId, Vec<String>)> = Vec::new();
    fn put(out: &mut Vec<(UnitId, Vec<String>)>, u: UnitId, s: String) {
        match out.iter_mut().find(|(x, _)| *x == u) {
            Some((_, v)) => {
                if !v.contains(&s) {
                    v.push(s);
                }
            }
            None => out.push((u, vec![s])),
        }
    }
    let mut add = |u: UnitId, s: String| put(&mut out, u, s);
    let mut fired_at: Vec<UnitId> = Vec::new();
    for e in events {
        match crate::report::facts(e).caption {
            Some(Caption::FiredAt { unit }) => fired_at.push(unit),
            Some(Caption::Struck { unit, words }) => add(unit, words),
            Some(Caption::Moved { .. } | Caption::Rode { .. } | Caption::Ordered(_)) | None => {}
        }
    }
    // A volley that struck nothing.
    for t in fired_at {
        if !out.iter().any(|(u, _)| *u == t) {
            put(&mut out, t, "no hits".into());
        }
    }
    out.into_iter().map(|(u, v)| (u, v.join(", "))).collect()
}

/// The events' captions, in order.
fn captions(events: &[Event]) -> impl Iterator<Item = Caption> + '_ {
    events.iter().filter_map(|e| crate::report::facts(e).caption)
}

/// The piece that acted: its side, and the unit or the commander.
fn actor(b: &Battle, a: &Action) -> Option<(SideId, Option<UnitId>, Option<CmdId>)> {
    match a {
        Action::Order { commander, .. } | Action::CommanderMove { commander, .. } => {
            let c = b.commanders.get(*commander as usize)?;
            Some((c.side, None, Some(*commander)))
        }
        Action::Pass | Action::EndPhase => None,
        _ => {
            let u = a.unit()?;
            Some((b.units.get(u as usize)?.side, Some(u), None))
        }
    }
}

/// What the piece did, in words: "Advance 10 cm", "Fires at 5th New Hampshire", "Orders 7th
/// Wisconsin: the order passes".
pub fn did(b: &Battle, a: &Action, events: &[Event]) -> String {
    let name = |u: &UnitId| b.units.get(*u as usize).map_or("?", |u| u.name.as_str());
    match a {
        Action::Move { unit, .. } => captions(events)
            .find_map(|c| match c {
                Caption::Moved { unit: u, from, to } if u == *unit => Some(capital(&relative_move(&from, &to))),
                _ => None,
            })
            .unwrap_or_else(|| "Moves".into()),
        Action::Fire { target, .. } | Action::InitiativeFire { target, .. } => format!("Fires at {}", name(target)),
        Action::OpportunityFire { target, .. } => format!("Fires at {} as it moves", name(target)),
        Action::FireTogether { target, .. } => format!("Fire together at {}", name(target)),
        Action::CounterFire { .. } => "Fires at the charger".into(),
        Action::Charge { target, .. } | Action::InitiativeCharge { target, .. } => format!("Charges {}", name(target)),
        Action::CounterCharge { .. } => "Counter-charges".into(),
        Action::Support { friend, .. } => format!("Supports {}", name(friend)),
        Action::InitiativeEvade { .. } | Action::CounterEvade { .. } => "Evades".into(),
        Action::Deploy { deploy, .. }
        | Action::InitiativeDeploy { deploy, .. }
        | Action::CounterDeploy { deploy, .. } => capital(&deploy.to_string()),
        Action::Order { units, .. } => {
            let names: Vec<&str> = units.iter().map(name).collect();
            let outcome = captions(events).find_map(|c| match c {
                Caption::Ordered(outcome) => Some(outcome),
                _ => None,
            });
            let names = match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => names.join(""),
            };
            format!(
                "Orders {names}{}",
                match outcome {
                    Some(CommandOutcome::Success) => ": the order passes",
                    Some(CommandOutcome::Bonus) => ": the order passes, two actions",
                    Some(CommandOutcome::Failure) => ": the order fails",
                    Some(CommandOutcome::Blunder) => ": a blunder",
                    None => "",
                }
            )
        }
        Action::CommanderMove { commander, to } => match b.commanders.get(*commander as usize) {
            Some(_) => captions(events)
                .find_map(|c| match c {
                    Caption::Rode { from } => Some(format!("Rides {} cm", cm(from.dist(*to)))),
                    _ => None,
                })
                .unwrap_or_else(|| "Rides".into()),
            None => "Rides".into(),
        },
        Action::SelfOrder { .. } => "Orders itself towards its commander".into(),
        other => capital(other.name()),
    }
}

/// The side whose player sits at the table, if any person plays (the fog of a hidden set-up
/// is theirs).
fn viewer(seats: &Seats) -> Option<SideId> {
    seats.viewer.filter(|_| seats.sides.iter().any(|s| s == "human"))
}

fn seen(b: &Battle, seats: &Seats, u: UnitId) -> bool {
    crate::view::PlayerView::of(b, crate::view::Viewer::of(viewer(seats))).knows(u)
}

/// An applied action: its results float over the units struck; a computer's acting piece is
/// ringed with what it did and why, and the camera is sent to it.
/// What following the computer keeps on the table: its reason, where the camera goes, the
/// results floating and the ring round the piece it acted with.
#[derive(bevy::ecs::system::SystemParam)]
struct FollowMarks<'w, 's> {
    reason: ResMut<'w, ComputerReason>,
    follow: ResMut<'w, FollowCamera>,
    floats: Query<'w, 's, &'static Float>,
    rings: Query<'w, 's, Entity, With<Highlight>>,
}

fn on_applied(
    mut commands: Commands,
    mut applied: MessageReader<ActionApplied>,
    battle: Res<BattleState>,
    seats: Res<Seats>,
    settings: Option<Res<crate::ui::settings::Settings>>,
    marks: FollowMarks,
) {
    let FollowMarks {
        mut reason,
        mut follow,
        floats,
        rings,
    } = marks;
    let b = &battle.0;
    let mut old_rings: Vec<Entity> = rings.iter().collect();
    for ev in applied.read() {
        let mut stacked: Vec<UnitId> = floats.iter().map(|f| f.unit).collect();
        for (u, text) in results(&ev.events) {
            let Some(unit) = b.units.get(u as usize) else { continue };
            if !seen(b, &seats, u) {
                continue;
            }
            // Over the unit, above any result still floating there.
            let above = stacked.iter().filter(|x| **x == u).count() as f32;
            stacked.push(u);
            let p = unit.pose.pos;
            commands.spawn((
                Float {
                    unit: u,
                    text,
                    age: 0.0,
                },
                Transform::from_xyz(p.x as f32, p.y as f32 + 3.0 + 2.5 * above, FLOAT_Z),
                Visibility::default(),
            ));
        }
        let Some(action) = ev.action.as_ref() else { continue };
        let Some((side, unit, commander)) = actor(b, action) else {
            continue;
        };
        if seats.human(side) {
            continue;
        }
        let why = reason.0.take();
        let (at, radius, name) = match (unit, commander) {
            (Some(u), _) => {
                if !seen(b, &seats, u) {
                    continue;
                }
                let x = b.unit(u);
                let r = b
                    .rects(u)
                    .iter()
                    .flat_map(|r| r.corners())
                    .map(|c| c.dist(x.pose.pos))
                    .fold(1.0, f64::max);
                (x.pose.pos, r as f32 + 1.0, x.name.clone())
            }
            (None, Some(c)) => {
                let x = b.commander(c);
                (
                    x.pos,
                    b.rules.footprints.commander_diameter as f32 * 0.5 + 1.0,
                    x.name.clone(),
                )
            }
            _ => continue,
        };
        // Said to the side at the table only as far as it may read it (`view::told`): an
        // order to units hidden from it is "gives an order", a reason naming one is left out.
        let view = crate::view::PlayerView::of(b, crate::view::Viewer::of(viewer(&seats)));
        let mut text = format!("{name}: {}", did(b, action, &ev.events));
        if !view.may_read(&text) {
            text = format!("{name}: {}", UNREAD_DEED);
        }
        if let Some(why) = why.filter(|w| view.may_read(w)) {
            text.push('\n');
            text.push_str(&why);
        }
        // One ring at a time: the newest action's (the computer acts faster than a ring fades).
        for e in old_rings.drain(..) {
            commands.entity(e).try_despawn();
        }
        let ring = commands.spawn((
            Highlight {
                at,
                radius,
                text,
                age: 0.0,
            },
            Transform::from_xyz(at.x as f32, at.y as f32, FLOAT_Z - 0.5),
            Visibility::default(),
        ));
        old_rings.push(ring.id());
        if settings.as_ref().is_none_or(|s| s.follow_computer) {
            *follow = FollowCamera {
                target: Some(Vec2::new(at.x as f32, at.y as f32)),
                started: false,
            };
        }
    }
}

/// What the ring says a commander did when what it did names a unit hidden from the table.
pub const UNREAD_DEED: &str = "gives an order";

/// Above the table's overlays.
const FLOAT_Z: f32 = 30.0;

/// Floats rise and go; rings go.
fn age(
    mut commands: Commands,
    time: Res<Time>,
    mut floats: Query<(Entity, &mut Float, &mut Transform)>,
    mut rings: Query<(Entity, &mut Highlight), Without<Float>>,
) {
    let dt = time.delta_secs();
    for (e, mut f, mut tf) in &mut floats {
        f.age += dt;
        tf.translation.y += dt * 1.5;
        if f.age > FLOAT_SECONDS {
            commands.entity(e).despawn();
        }
    }
    for (e, mut h) in &mut rings {
        h.age += dt;
        if h.age > HIGHLIGHT_SECONDS {
            commands.entity(e).despawn();
        }
    }
}

/// Pan the camera to the followed piece, if it was outside the middle of the view.
fn pan_camera(
    mut follow: ResMut<FollowCamera>,
    battle: Res<BattleState>,
    viewport: Res<TableViewport>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    camera: Option<Single<(&mut Transform, &Projection), With<TableCamera>>>,
    time: Res<Time>,
) {
    let Some(target) = follow.target else { return };
    let (Some(window), Some(camera)) = (window, camera) else {
        return;
    };
    let (mut tf, proj) = camera.into_inner();
    let Projection::Orthographic(o) = proj else {
        follow.target = None;
        return;
    };
    let size = Vec2::new(window.width(), window.height());
    if size.x < 2.0 || size.y < 2.0 {
        return;
    }
    let view = viewport.0.unwrap_or(Rect::from_corners(Vec2::ZERO, size));
    // The free area's centre from the window's centre, in pixels (y down), as the fit has it.
    let off = view.center() - size * 0.5;
    let shift = (tf.rotation * Vec3::new(-off.x * o.scale, off.y * o.scale, 0.0)).truncate();
    // The free area's half extents on the table (cm), turned as the camera is.
    let half = view.size() * 0.5 * o.scale;
    let (sin, cos) = tf.rotation.to_euler(EulerRot::ZYX).0.sin_cos();
    let half = Vec2::new(
        cos.abs() * half.x + sin.abs() * half.y,
        sin.abs() * half.x + cos.abs() * half.y,
    );
    let table = Vec2::new(battle.0.table.width as f32, battle.0.table.height as f32);
    let want = crate::ui::camera::on_table(target, half, table) + shift;
    let now = tf.translation.truncate();
    if !follow.started {
        // Where the piece shows in the view, in pixels from its centre.
        let rel = (tf.rotation.inverse() * (target - (now - shift)).extend(0.0)).truncate() / o.scale.max(1e-6);
        if rel.x.abs() < view.width() * 0.3 && rel.y.abs() < view.height() * 0.3 {
            follow.target = None;
            return;
        }
        follow.started = true;
    }
    let k = 1.0 - (-6.0 * time.delta_secs()).exp();
    let next = now + (want - now) * k;
    tf.translation.x = next.x;
    tf.translation.y = next.y;
    if next.distance(want) < 0.3 {
        follow.target = None;
    }
}

/// The window's part: rings and text for the headless entities, text kept upright and faded;
/// the ring's words in a caption below it, on a backing so they read over any terrain.
pub fn draw_plugin(app: &mut App) {
    app.add_systems(
        Update,
        (dress, fade).chain().in_set(crate::ui::common::TableSystems::Draw),
    )
    .add_systems(
        bevy_egui::EguiPrimaryContextPass,
        caption
            .after(crate::ui::common::PanelsSet)
            .run_if(in_state(crate::ui::common::Screen::Battle)),
    );
}

/// The ringed piece's words (what the computer did and why) below the ring, in the window's
/// pixels, kept inside the window, fading with the ring.
fn caption(
    mut contexts: bevy_egui::EguiContexts,
    rings: Query<&Highlight>,
    camera: Option<Single<(&Camera, &GlobalTransform), With<TableCamera>>>,
) -> Result {
    use bevy_egui::egui;
    let (Some(h), Some(camera)) = (rings.iter().next(), camera) else {
        return Ok(());
    };
    let (cam, tf) = camera.into_inner();
    let Ok(below) = cam.world_to_viewport(tf, Vec3::new(h.at.x as f32, h.at.y as f32 - h.radius, 0.0)) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let k = ctx.zoom_factor();
    let left = 1.0 - (h.age / HIGHLIGHT_SECONDS).clamp(0.0, 1.0);
    let [r, g, b, _] = RING_COLOUR.to_srgba().to_u8_array();
    egui::Area::new(egui::Id::new("computer_caption"))
        .order(egui::Order::Middle)
        .fixed_pos(egui::pos2(below.x / k, below.y / k + 6.0))
        .pivot(egui::Align2::CENTER_TOP)
        .constrain(true)
        .interactable(false)
        .show(ctx, |ui| {
            ui.set_opacity(left.sqrt().max(0.2));
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(360.0);
                let mut lines = h.text.lines();
                if let Some(first) = lines.next() {
                    ui.label(
                        egui::RichText::new(first)
                            .strong()
                            .color(egui::Color32::from_rgb(r, g, b)),
                    );
                }
                for l in lines {
                    ui.label(egui::RichText::new(l).italics());
                }
            });
        });
    Ok(())
}

/// Letter height on the table, cm.
const LETTERS: f32 = 1.8;

fn dress(
    mut commands: Commands,
    floats: Query<(Entity, &Float), Added<Float>>,
    rings: Query<(Entity, &Highlight), Added<Highlight>>,
) {
    use crate::ui::table::pen::Pen;
    for (e, f) in &floats {
        commands.entity(e).insert((
            Text2d::new(f.text.clone()),
            TextFont {
                font_size: FontSize::Px(40.0),
                ..default()
            },
            TextColor(FLOAT_COLOUR),
        ));
    }
    for (e, h) in &rings {
        let mut pen = Pen::new();
        pen.circle(Vec2::ZERO, h.radius);
        if let Some((shape, _)) = pen.stroke(RING_COLOUR, 0.35, 0.0) {
            commands.entity(e).insert(shape);
        }
    }
}

const FLOAT_COLOUR: Color = Color::srgb(1.0, 0.93, 0.55);
const RING_COLOUR: Color = Color::srgb(1.0, 0.55, 0.2);

/// The table camera, apart from the floats and rings.
type CameraOnly = (With<TableCamera>, Without<Float>, Without<Highlight>);

/// Text reads upright whatever the camera's turn, and fades out.
fn fade(
    camera: Option<Single<&Transform, CameraOnly>>,
    mut floats: Query<(&Float, &mut Transform, &mut TextColor), Without<Highlight>>,
    mut rings: Query<(&Highlight, &mut Transform), Without<Float>>,
) {
    let turn = camera.map(|c| c.rotation).unwrap_or_default();
    for (f, mut tf, mut colour) in &mut floats {
        tf.rotation = turn;
        tf.scale = Vec3::splat(LETTERS / 40.0);
        let left = 1.0 - (f.age / FLOAT_SECONDS).clamp(0.0, 1.0);
        colour.0 = FLOAT_COLOUR.with_alpha(left.sqrt());
    }
    for (_, mut tf) in &mut rings {
        tf.rotation = turn;
    }
}
