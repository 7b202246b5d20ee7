//! The editor's table input: clicks place pieces or points, drags move pieces and points,
//! the wheel turns what is being dragged, and keys finish, cancel, delete, turn, undo and redo.
//!
//! | input | what it does |
//! |---|---|
//! | click (a drawing tool) | adds a point; a click on the first point, Enter or a right click closes the outline |
//! | click (a placing tool) | places a building, objective, unit or commander |
//! | click / drag (select) | selects the piece under the pointer and moves it; on a point of the selected piece, moves the point |
//! | Ctrl+click on an edge | adds a point to the selected piece's outline there |
//! | right click on a point | deletes the point |
//! | wheel while dragging, R / Shift+R | turns the unit, commander's unit or building 15° |
//! | Delete | deletes the selected piece |
//! | Backspace / Esc | takes back the last point drawn / stops drawing, then deselects |
//! | Ctrl+Z, Ctrl+Y (Ctrl+Shift+Z) | undo, redo |
//! | Ctrl+S | save |

use super::state::{Editor, Gesture, Tool};
use crate::data::scenario::{CommanderSpec, Objective, UnitSpec};
use crate::editor::piece::{self, Piece, rect_polygon};
use crate::rules::geometry::V2;
use crate::rules::terrain::{Area, Building, Contour, Hill, Linear, LinearKind, Polygon};
use crate::ui::camera::{TableCamera, TableViewport, cursor_on_table};
use crate::ui::common::Screen;
use crate::ui::table::pen::t;
use bevy::ecs::system::SystemParam;
use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<crate::ui::common::Typing>().add_systems(
        Update,
        (pointer, keys)
            .chain()
            .in_set(crate::ui::common::TableSystems::Input)
            .after(crate::ui::camera::CameraSystems)
            .run_if(in_state(Screen::Editor)),
    );
}

/// Degrees a key press or wheel notch turns a piece.
pub const TURN_STEP: f64 = 15.0;

/// How near (window pixels) the pointer must be to a point or line to take it.
pub const HANDLE_PX: f32 = 7.0;

/// The editor's buttons: the mouse's, the keys (Ctrl) and the wheel.
#[derive(SystemParam)]
struct EditorButtons<'w, 's> {
    buttons: Res<'w, ButtonInput<MouseButton>>,
    keys: Res<'w, ButtonInput<KeyCode>>,
    wheel: MessageReader<'w, 's, MouseWheel>,
}

#[allow(clippy::type_complexity)]
fn pointer(
    input: EditorButtons,
    camera: Option<Single<(&Camera, &GlobalTransform, &Projection), With<TableCamera>>>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    viewport: Res<TableViewport>,
    over_window: Option<Res<crate::ui::common::OverWindow>>,
    mut editor: ResMut<Editor>,
    mut wheel_taken: ResMut<crate::ui::common::WheelTaken>,
) {
    let EditorButtons {
        buttons,
        keys,
        mut wheel,
    } = input;
    let taken = matches!(editor.gesture, Some(Gesture::Move { .. }));
    if wheel_taken.0 != taken {
        wheel_taken.0 = taken;
    }
    let notches: f32 = wheel
        .read()
        .map(|w| match w.unit {
            MouseScrollUnit::Line => w.y,
            MouseScrollUnit::Pixel => w.y / 40.0,
        })
        .sum();
    let (Some(camera), Some(window)) = (camera, window) else {
        return;
    };
    let (cam, cam_tf, proj) = camera.into_inner();
    let over_panel = over_window.is_some_and(|o| o.0);
    let p = cursor_on_table(&window, &viewport, cam, cam_tf)
        .filter(|_| !over_panel)
        .map(t);
    editor.pointer = p;
    let cm_per_px = match proj {
        Projection::Orthographic(o) => o.scale as f64,
        _ => 0.2,
    };
    let tol = HANDLE_PX as f64 * cm_per_px;
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    if editor.doc.is_none() {
        return;
    }
    // A press, then the drag, then the let-go (all three in one frame for a quick click).
    if buttons.just_pressed(MouseButton::Left)
        && let Some(p) = p
    {
        press(&mut editor, p, tol, ctrl);
    }
    if let (Some(p), Some(g)) = (p, editor.gesture)
        && buttons.pressed(MouseButton::Left)
    {
        drag(&mut editor, g, p);
    }
    if notches != 0.0
        && let Some(Gesture::Move { piece, .. }) = editor.gesture
    {
        let doc = editor.doc.as_mut().expect("checked");
        doc.live(|sc| turn(sc, piece, TURN_STEP * notches as f64));
    }
    if buttons.just_released(MouseButton::Left)
        && let Some(_) = editor.gesture.take()
    {
        editor.doc.as_mut().expect("checked").end_gesture();
        editor.after_change();
    }
    if buttons.just_pressed(MouseButton::Right)
        && let Some(p) = p
    {
        right_click(&mut editor, p, tol);
    }
}

/// The left button goes down at table point `p`.
pub fn press(editor: &mut Editor, p: V2, tol: f64, ctrl: bool) {
    let tool = editor.tool;
    if tool.draws() {
        let closes = editor.drawing.len() >= tool.min_points() && editor.drawing[0].dist(p) <= tol;
        if closes {
            finish_drawing(editor);
        } else {
            editor.drawing.push(p);
        }
        return;
    }
    match tool {
        Tool::Select => select_press(editor, p, tol, ctrl),
        _ => place(editor, p),
    }
}

fn select_press(editor: &mut Editor, p: V2, tol: f64, ctrl: bool) {
    let doc = editor.doc.as_mut().expect("an open document");
    if let Some(sel) = editor.selected {
        if ctrl && let Some((after, at)) = piece::edge_at(&doc.scenario, sel, p, tol) {
            doc.begin_gesture();
            doc.live(|sc| {
                piece::insert_vertex(sc, after, at);
            });
            let v = crate::editor::Vertex {
                i: after.i + 1,
                ..after
            };
            editor.gesture = Some(Gesture::Vertex(v));
            return;
        }
        if let Some(v) = piece::vertex_at(&doc.scenario, sel, p, tol) {
            doc.begin_gesture();
            editor.gesture = Some(Gesture::Vertex(v));
            return;
        }
    }
    let hit = piece::piece_at(&doc.scenario, &doc.armies, &doc.footprints, p, tol);
    editor.selected = hit;
    if let Some(piece) = hit {
        doc.begin_gesture();
        editor.gesture = Some(Gesture::Move { piece, last: p });
        editor.status = Some(piece.label(&doc.scenario));
    } else {
        editor.status = None;
    }
}

fn drag(editor: &mut Editor, g: Gesture, p: V2) {
    let doc = editor.doc.as_mut().expect("an open document");
    match g {
        Gesture::Vertex(v) => doc.live(|sc| piece::move_vertex(sc, v, p)),
        Gesture::Move { piece, last } => {
            if p.dist(last) > 1e-9 {
                doc.live(|sc| piece.translate(sc, p - last));
                editor.gesture = Some(Gesture::Move { piece, last: p });
            }
        }
    }
}

/// Turns a unit (its facing), a commander (nothing: a commander has no facing) or a building
/// (its outline about its middle) by `deg` anticlockwise.
pub fn turn(sc: &mut crate::data::scenario::Scenario, piece: Piece, deg: f64) {
    match piece {
        Piece::Unit { side, i } => {
            let u = &mut sc.sides[side].units[i];
            u.facing = (u.facing + deg).rem_euclid(360.0);
        }
        Piece::Building(_) => {
            let Some(c) = piece.anchor(sc) else { return };
            if let Some(r) = piece.ring_mut(sc, 0) {
                let a = deg.to_radians();
                for q in r.iter_mut() {
                    *q = c + (*q - c).rotate(a);
                }
            }
        }
        _ => {}
    }
}

fn right_click(editor: &mut Editor, p: V2, tol: f64) {
    if editor.tool.draws() && !editor.drawing.is_empty() {
        if editor.drawing.len() >= editor.tool.min_points() {
            finish_drawing(editor);
        } else {
            editor.drawing.clear();
            editor.status = Some("outline dropped: too few points".into());
        }
        return;
    }
    let Some(sel) = editor.selected else { return };
    let doc = editor.doc.as_ref().expect("an open document");
    if let Some(v) = piece::vertex_at(&doc.scenario, sel, p, tol)
        && let Some(Err(e)) = editor.edit(|sc| piece::delete_vertex(sc, v))
    {
        editor.status = Some(e);
    }
}

/// Closes the outline being drawn into a piece of the drawing tool's kind, and selects it.
pub fn finish_drawing(editor: &mut Editor) {
    let pts = std::mem::take(&mut editor.drawing);
    let tool = editor.tool;
    if pts.len() < tool.min_points() {
        editor.status = Some(format!("an outline needs at least {} points", tool.min_points()));
        return;
    }
    let d = editor.drafts.clone();
    let selected_hill = match editor.selected {
        Some(Piece::Hill(i)) if tool == Tool::Hill => Some(i),
        _ => None,
    };
    let made = editor.edit(|sc| {
        let t = &mut sc.terrain;
        match tool {
            Tool::Area(kind) => {
                t.areas.push(Area {
                    kind,
                    name: d.name.clone(),
                    outline: Polygon(pts),
                });
                Some(Piece::Area(t.areas.len() - 1))
            }
            Tool::Linear(kind) => {
                let wide = matches!(kind, LinearKind::Road | LinearKind::Stream | LinearKind::River);
                t.linears.push(Linear {
                    kind,
                    name: d.name.clone(),
                    points: pts,
                    width: if wide { d.linear_width } else { 0.5 },
                });
                Some(Piece::Linear(t.linears.len() - 1))
            }
            Tool::Hill => match selected_hill {
                Some(i) => {
                    let h = &mut t.hills[i];
                    let height = h.contours.last().map_or(d.hill_height, |c| c.height + 1);
                    h.contours.push(Contour {
                        height,
                        outline: Polygon(pts),
                    });
                    Some(Piece::Hill(i))
                }
                None => {
                    t.hills.push(Hill {
                        name: d.name.clone(),
                        contours: vec![Contour {
                            height: d.hill_height,
                            outline: Polygon(pts),
                        }],
                        mountain: false,
                    });
                    Some(Piece::Hill(t.hills.len() - 1))
                }
            },
            Tool::Deployment => {
                let s = d.side.min(sc.sides.len().saturating_sub(1));
                sc.sides.get_mut(s)?.deployment = Some(Polygon(pts));
                Some(Piece::Deployment(s))
            }
            _ => None,
        }
    });
    if let Some(Some(p)) = made {
        editor.selected = Some(p);
        if let Some(doc) = &editor.doc {
            editor.status = Some(format!("drew {}", p.label(&doc.scenario)));
        }
    }
}

/// Places a building, objective, unit or commander at `p`, as the drafts say, and selects it.
pub fn place(editor: &mut Editor, p: V2) {
    let d = editor.drafts.clone();
    let Some(doc) = editor.doc.as_ref() else { return };
    let s = d.side.min(doc.scenario.sides.len().saturating_sub(1));
    let side_name = doc.scenario.sides[s].name.clone();
    let army = &doc.armies[s];
    let made: Result<Piece, String> = match editor.tool {
        Tool::Building => editor
            .edit(|sc| {
                let (w, h, material) = d.building;
                sc.terrain.buildings.push(Building {
                    name: d.name.clone(),
                    outline: rect_polygon(p, w, h, 0.0),
                    material,
                });
                Piece::Building(sc.terrain.buildings.len() - 1)
            })
            .ok_or_default(),
        Tool::Objective => {
            let n = doc.scenario.objectives.len() + 1;
            editor
                .edit(|sc| {
                    let name = if d.name.is_empty() {
                        format!("Objective {n}")
                    } else {
                        d.name.clone()
                    };
                    sc.objectives.push(Objective {
                        name,
                        side: side_name,
                        level: d.objective_level,
                        pos: p,
                        radius: d.objective_radius,
                    });
                    Piece::Objective(sc.objectives.len() - 1)
                })
                .ok_or_default()
        }
        Tool::Unit => match army.troop(&d.troop_row) {
            None => Err("pick a troop row first".into()),
            Some(_) if d.commander.is_empty() => Err(format!("{side_name} has no commander: place one first")),
            Some(row) => {
                let id = doc.fresh_id(&format!("s{s}_{}", short(&row.id)));
                let name = if d.name.is_empty() {
                    row.name.clone()
                } else {
                    d.name.clone()
                };
                let is_art = row.arm == crate::data::army::Arm::Artillery;
                let spec = UnitSpec {
                    id,
                    name,
                    row: row.id.clone(),
                    stands: d.stands.max(1),
                    formation: d.formation,
                    pos: p,
                    facing: if s == 0 { 90.0 } else { 270.0 },
                    commander: d.commander.clone(),
                    grade: (d.grade != crate::data::scenario::Grade::Regular).then_some(d.grade),
                    morale: None,
                    nation: None,
                    scout: false,
                    limbered: is_art && d.limbered,
                    loaded: if is_art { d.loaded } else { None },
                    dug_in: false,
                };
                editor
                    .edit(|sc| {
                        sc.sides[s].units.push(spec);
                        Piece::Unit {
                            side: s,
                            i: sc.sides[s].units.len() - 1,
                        }
                    })
                    .ok_or_default()
            }
        },
        Tool::Commander => match army.command(&d.command_row) {
            None => Err("pick a command row first".into()),
            Some(row) => {
                let id = doc.fresh_id(&format!("s{s}_{}", short(&row.id)));
                let side = &doc.scenario.sides[s];
                // A side's first commander is its CO; later ones answer to the one the drafts
                // name, else to the CO.
                let superior = if !d.superior.is_empty() {
                    Some(d.superior.clone())
                } else {
                    side.commanders
                        .iter()
                        .find(|c| c.superior.is_none())
                        .map(|c| c.id.clone())
                };
                let name = if d.name.is_empty() {
                    format!("{side_name} {:?} commander", row.level)
                } else {
                    d.name.clone()
                };
                let spec = CommanderSpec {
                    id,
                    name,
                    row: row.id.clone(),
                    superior,
                    pos: p,
                    mounted: true,
                    nation: None,
                    formation: None,
                };
                editor
                    .edit(|sc| {
                        sc.sides[s].commanders.push(spec);
                        Piece::Commander {
                            side: s,
                            i: sc.sides[s].commanders.len() - 1,
                        }
                    })
                    .ok_or_default()
            }
        },
        _ => return,
    };
    match made {
        Ok(piece) => {
            editor.selected = Some(piece);
            editor.fill_drafts();
            if let Some(doc) = &editor.doc {
                editor.status = Some(format!("placed {}", piece.label(&doc.scenario)));
            }
        }
        Err(e) if !e.is_empty() => editor.status = Some(e),
        Err(_) => {}
    }
}

/// The last word of a row id, for a new unit's id: `regular_infantry_rifled` → `rifled`.
fn short(row: &str) -> &str {
    row.rsplit('_').next().unwrap_or(row)
}

trait OkOrDefault<T> {
    fn ok_or_default(self) -> Result<T, String>;
}

impl<T> OkOrDefault<T> for Option<T> {
    /// `None` (the edit was refused, its reason already on the status line) as an empty error.
    fn ok_or_default(self) -> Result<T, String> {
        self.ok_or_else(String::new)
    }
}

fn keys(keys: Res<ButtonInput<KeyCode>>, typing: Res<crate::ui::common::Typing>, mut editor: ResMut<Editor>) {
    if typing.0 || editor.doc.is_none() {
        return;
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        if shift {
            editor.redo()
        } else {
            editor.undo()
        }
        return;
    }
    if ctrl && keys.just_pressed(KeyCode::KeyY) {
        editor.redo();
        return;
    }
    if ctrl && keys.just_pressed(KeyCode::KeyS) {
        if let Some(path) = editor.doc.as_ref().map(|d| d.path.clone()) {
            editor.save(&path);
        }
        return;
    }
    if keys.just_pressed(KeyCode::Enter) && editor.tool.draws() {
        finish_drawing(&mut editor);
    }
    if keys.just_pressed(KeyCode::Backspace) && editor.drawing.pop().is_some() {
        return;
    }
    if keys.just_pressed(KeyCode::Escape) {
        if !editor.drawing.is_empty() {
            editor.drawing.clear();
        } else if editor.tool != Tool::Select {
            editor.tool = Tool::Select;
        } else {
            editor.selected = None;
        }
    }
    if keys.just_pressed(KeyCode::Delete)
        && editor.gesture.is_none()
        && let Some(p) = editor.selected
    {
        if let Some(Err(e)) = editor.edit(|sc| piece::remove(sc, p)) {
            editor.status = Some(e);
        } else {
            editor.selected = None;
        }
    }
    if !ctrl
        && keys.just_pressed(KeyCode::KeyR)
        && editor.gesture.is_none()
        && let Some(p) = editor.selected
    {
        let deg = if shift { -TURN_STEP } else { TURN_STEP };
        editor.edit(|sc| turn(sc, p, deg));
    }
}
