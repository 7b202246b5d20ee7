//! The table's input controller: what a left click, a drag and the wheel on the table do on
//! the battle screen (the bindings are `ui::input`'s; the camera's pan, zoom and turn are
//! `ui::camera`'s). A click selects the piece under the pointer, or sends the order
//! `PointerOrder` has for it; pressing on the selected piece and dragging moves it (the
//! wheel turns it); with a commander selected, a drag from empty table draws a box that
//! orders the units of his command inside it.
//!
//! It runs after the camera has been steered (the pointer's table point is this frame's) and
//! after `table::orders` has worked out the order at the pointer.

use crate::app::{ActionRequest, BattleState};
use crate::battle::Action;
use crate::rules::geometry::Pose;
use crate::ui::camera::{CameraSystems, TablePointer};
use crate::ui::common::{BoxSelect, BoxedGroup, OverWindow, PointerOrder, Screen, Selection, TableHover, TableSystems};
use crate::ui::input::{Controls, TableAction};
use crate::ui::session::{BattleLog, Seats, Turn};
use crate::ui::table::pen::t;
use bevy::ecs::system::SystemParam;
use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Drag>().add_systems(
        Update,
        pick.in_set(PickSystems)
            .in_set(TableSystems::Input)
            .after(CameraSystems),
    );
}

/// The table's input controller (`pick`): after the camera's systems, in the table's input.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PickSystems;

use crate::ui::common::Drag;

/// Degrees a dragged unit turns for one step of the mouse wheel.
pub const WHEEL_TURN_DEG: f32 = 15.0;

/// The pointer as the controller reads it: the bindings, the window and the table's camera
/// and part of it, the keys (Shift), the wheel, what the pointer is over (a floating window,
/// a piece).
#[derive(SystemParam)]
struct PointerInput<'w, 's> {
    controls: Option<Single<'w, 's, &'static ActionState<TableAction>, With<Controls>>>,
    pointer: TablePointer<'w, 's>,
    keys: Option<Res<'w, ButtonInput<KeyCode>>>,
    wheel: MessageReader<'w, 's, MouseWheel>,
    over_window: Option<Res<'w, OverWindow>>,
    hover: Res<'w, TableHover>,
}

/// The game the controller acts on: the battle, whose turn it is and who sits where, the
/// screen, the tools that take the clicks instead, and the order at the pointer.
#[derive(SystemParam)]
struct PickGame<'w> {
    battle: Res<'w, BattleState>,
    turn: Res<'w, State<Turn>>,
    seats: Res<'w, Seats>,
    screen: Res<'w, State<Screen>>,
    overlays: Option<Res<'w, crate::ui::measure::Overlays>>,
    pointer: Res<'w, PointerOrder>,
    pause: Option<Res<'w, crate::ui::screens::handover::ResultPause>>,
}

/// What the controller changes: the selection, the drag, the box, the log's status line (why
/// an order was refused), and the requests it sends.
#[derive(SystemParam)]
struct Picked<'w> {
    selection: ResMut<'w, Selection>,
    drag: ResMut<'w, Drag>,
    boxed: ResMut<'w, BoxSelect>,
    group: ResMut<'w, BoxedGroup>,
    log: ResMut<'w, BattleLog>,
    requests: MessageWriter<'w, ActionRequest>,
}

/// Left click: select the commander or stand under the pointer (by Bevy's picking:
/// `TableHover`; commanders first, being on top), or clear the selection on empty table.
/// Pressing on what is already selected and dragging moves it: the move is previewed, and
/// sent when the button is let go (the rules refuse it, with the reason, if it is not legal);
/// the wheel turns it while it is dragged. A click on a piece for which `PointerOrder` has an
/// order (an enemy to fire at or charge, a unit for the selected commander to order) sends
/// that order instead of selecting; a refused fire keeps the selection and says why. With a
/// commander selected, a drag from an empty spot draws a box (`BoxSelect`): letting go orders
/// the units of his command inside it (Shift held: an order that may charge); a drag too
/// short for a box is a click.
fn pick(mut input: PointerInput, game: PickGame, mut out: Picked) {
    let Some(controls) = input.controls.as_ref().map(|c| **c) else {
        return;
    };
    if *game.screen.get() != Screen::Battle {
        return;
    }
    // The line-of-sight check and the tape take the clicks (`table::measure`).
    if game.overlays.as_ref().is_some_and(|o| o.tool_active()) {
        return;
    }
    // Escape clears the selection. A click that reached the same frame (a slow frame) is
    // still the player's: it selects afresh, but gives no order at the pointer, which was
    // worked out for the selection Escape cleared.
    let deselected = controls.just_pressed(&TableAction::Deselect);
    if deselected {
        *out.selection = Selection::default();
        *out.drag = Drag::default();
        *out.boxed = Default::default();
        *out.group = Default::default();
    }
    let pixel = input.pointer.pixel();
    let cursor = input.pointer.on_table();
    if out.boxed.from.is_some() {
        let shift = input
            .keys
            .as_ref()
            .is_some_and(|k| k.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]));
        box_drag(
            controls,
            pixel,
            shift,
            (&game.pointer, game.battle.0.player_turn),
            &mut out,
        );
        return;
    }
    if controls.just_pressed(&TableAction::Select) {
        let Some(p) = cursor else { return };
        // A click on a floating window over the table is the window's.
        if input.over_window.is_some_and(|o| o.0) {
            return;
        }
        press(&game, input.hover.0, (p, pixel), deselected, &mut out);
        return;
    }
    piece_drag(controls, &game.battle.0, cursor, &mut input.wheel, &mut out);
}

/// A box being drawn: follow the pointer (and Shift) while the button is held; let go, a box
/// orders its units (`table::orders::box_order`, never a click's order at the pointer) and a
/// click on empty table clears the selection.
fn box_drag(
    controls: &ActionState<TableAction>,
    pixel: Option<Vec2>,
    charge: bool,
    (pointer, turn): (&PointerOrder, u32),
    out: &mut Picked,
) {
    let to = pixel.unwrap_or(out.boxed.to);
    if controls.pressed(&TableAction::Select) {
        if out.boxed.to != to || out.boxed.charge != charge {
            out.boxed.to = to;
            out.boxed.charge = charge;
        }
        return;
    }
    let was_box = out.boxed.rect().is_some();
    *out.boxed = Default::default();
    if !was_box {
        *out.selection = Selection::default();
    } else if let Some(a @ Action::Order { commander, units, .. }) = &pointer.action {
        out.log.status = None;
        *out.group = BoxedGroup {
            commander: Some(*commander),
            units: units.clone(),
            turn,
        };
        out.requests.write(ActionRequest(a.clone()));
    } else {
        out.log.status = Some(pointer.lines.join(": "));
    }
}

/// The button pressed over the table at `p` (`pixel` in the window) with `picked` under the
/// pointer: the order at the pointer (or why it is refused), a box begun, a drag begun on the
/// selected piece, or a new selection. Orders, boxes and drags only when the table is the
/// player's (whose turn it is).
fn press(game: &PickGame, picked: Selection, (p, pixel): (Vec2, Option<Vec2>), deselected: bool, out: &mut Picked) {
    let mine = crate::ui::session::at_table(
        game.turn.get(),
        &game.seats,
        crate::ui::screens::handover::held(&game.pause),
    );
    let selection = *out.selection;
    if mine && !deselected && picked.unit.is_some() && picked != selection {
        if let Some(a) = &game.pointer.action {
            out.log.status = None;
            out.requests.write(ActionRequest(a.clone()));
            return;
        }
        if game.pointer.refused && selection.unit.is_some() {
            out.log.status = Some(game.pointer.lines.join(": "));
            return;
        }
    }
    // A commander selected, a press on empty table in the command phase: a box begins.
    if mine
        && picked == Selection::default()
        && selection.commander.is_some()
        && game.battle.0.phase == crate::battle::Phase::Command
    {
        if let Some(px) = pixel {
            *out.boxed = BoxSelect {
                from: Some(px),
                to: px,
                charge: false,
                units: Vec::new(),
            };
        }
        return;
    }
    if picked == selection && picked != Selection::default() && mine {
        *out.drag = Drag {
            grab: Some((picked, p)),
            ..Drag::default()
        };
    } else if selection != picked {
        *out.selection = picked;
        *out.group = Default::default();
    }
}

/// A piece being dragged: while the button is held the wheel turns it and the move follows
/// the pointer; let go, the move is sent.
fn piece_drag(
    controls: &ActionState<TableAction>,
    b: &crate::battle::Battle,
    cursor: Option<Vec2>,
    wheel: &mut MessageReader<MouseWheel>,
    out: &mut Picked,
) {
    let Some((what, grab)) = out.drag.grab else { return };
    if controls.pressed(&TableAction::Select) {
        // One notch of the wheel, one step (a touchpad's pixels: 50 to the step).
        let wheel: f32 = wheel
            .read()
            .map(|w| match w.unit {
                MouseScrollUnit::Line => w.y.signum(),
                MouseScrollUnit::Pixel => w.y / 50.0,
            })
            .sum();
        if wheel != 0.0 && what.unit.is_some() {
            out.drag.turn += wheel.clamp(-3.0, 3.0) * WHEEL_TURN_DEG;
        }
        if let Some(p) = cursor {
            let (a, snapped) = snapped(b, drag_action(b, &what, grab, p, out.drag.turn));
            if out.drag.action != a {
                out.drag.action = a;
            }
            if out.drag.snapped != snapped {
                out.drag.snapped = snapped;
            }
        }
    } else {
        if let Some(a) = out.drag.action.take() {
            out.requests.write(ActionRequest(a));
        }
        *out.drag = Drag::default();
    }
}

/// A dragged move the rules refuse, snapped to the nearest legal one
/// ([`crate::battle::Battle::snap_move`]), with what it became ("as a wheel"); any other
/// action as it is. With no legal move near, the drag stays as dragged (drawn red, and why).
pub fn snapped(b: &crate::battle::Battle, a: Option<Action>) -> (Option<Action>, Option<&'static str>) {
    match a {
        Some(Action::Move { unit, to }) => match b.snap_move(unit, to) {
            Some((_, crate::battle::intent::SnapKind::AsDragged)) | None => (Some(Action::Move { unit, to }), None),
            Some((q, kind)) => (Some(Action::Move { unit, to: q }), Some(kind.words())),
        },
        other => (other, None),
    }
}

/// The move that dragging `what` from `grab` to `p` asks for, turned `turn_deg` degrees
/// anticlockwise (the wheel; a commander has no facing), if it moved or turned at all.
pub fn drag_action(b: &crate::battle::Battle, what: &Selection, grab: Vec2, p: Vec2, turn_deg: f32) -> Option<Action> {
    let d = p - grab;
    let turned = what.unit.is_some() && turn_deg.abs() > 0.01;
    let d = if d.length() < 0.5 {
        if !turned {
            return None;
        }
        Vec2::ZERO
    } else {
        d
    };
    if let Some(u) = what.unit {
        let u = b.units.get(u as usize)?;
        let facing = crate::rules::geometry::wrap_angle(u.pose.facing + f64::from(turn_deg).to_radians());
        // BPT "Consolidate": the unit whose consolidation it is goes straight ahead only; the
        // drag is taken along its facing.
        if matches!(b.step, crate::battle::state::Step::Consolidate { unit, .. } if unit == u.id) {
            let ahead = t(d).dot(u.pose.forward()).max(0.0);
            let to = Pose::new(u.pose.pos + u.pose.forward() * ahead, facing);
            return Some(Action::Consolidate { unit: u.id, to });
        }
        let to = Pose::new(u.pose.pos + t(d), facing);
        return Some(Action::Move { unit: u.id, to });
    }
    let c = b.commanders.get(what.commander? as usize)?;
    Some(Action::CommanderMove {
        commander: c.id,
        to: c.pos + t(d),
    })
}
