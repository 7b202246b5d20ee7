//! The bindings: every key and button the table answers to is a leafwing action, so they can
//! be rebound and a test can press them.
//!
//! - Pan: WASD / arrow keys, or drag with the middle (or right) mouse button.
//! - Zoom: mouse wheel, `+` / `-`. Rotate: `Q` / `E`. Fit the view to the pieces again: `F` / Home.
//! - Select: left click on a stand or a commander. Deselect: Escape.
//! - End the phase (or pass a reaction window): Enter.
//! - Order: `O` — the selected commander orders its formation (the legal order naming the most
//!   of its units, no charge declared); with a unit selected, its brigade commander orders that
//!   unit alone. The rules roll it or refuse it with the reason (charge orders: the panel, or
//!   a box dragged around the units with Shift held, `camera::pick`).
//! - Fire: `T` — the selected unit fires at the enemy unit under the pointer (in the command,
//!   initiative or opportunity-fire step, whichever is open), or the rules say why not.
//! - Undo the last step (if no dice were rolled since): Ctrl+Z or Backspace.
//! - Overlays: V arc of vision, C fire cone, R command radius; tools: L line-of-sight check,
//!   M measuring tape (see `measure`).

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    use bevy::input::InputSystems;
    use leafwing_input_manager::plugin::InputManagerSystem;
    app.add_plugins(InputManagerPlugin::<TableAction>::default())
        .add_systems(First, spawn_controls.run_if(not(any_with_component::<Controls>)))
        .add_systems(
            PreUpdate,
            (hold_quick_presses::<MouseButton>, hold_quick_presses::<KeyCode>)
                .after(InputSystems)
                .before(InputManagerSystem::Unify),
        );
}

/// A press let go within the same frame (a quick click or key tap on a slow frame) is held
/// down until the next frame, so the bindings, which read what is held, see it pressed once
/// and then released: no click is lost however slow the frame. A second tap arriving while
/// the first is still held over is let go this frame and pressed on the next, so the bindings
/// see two presses (Enter, then Enter again to confirm), not one long one.
fn hold_quick_presses<T: Copy + Eq + std::hash::Hash + Send + Sync + 'static>(
    mut input: ResMut<ButtonInput<T>>,
    mut held: Local<Vec<T>>,
    mut again: Local<Vec<(T, bool)>>,
) {
    // Presses put off from the last frame: pressed now; a tap (let go already) is held over
    // one frame, a press still held is the player's to let go.
    for (b, tap) in std::mem::take(&mut *again) {
        input.press(b);
        if tap {
            held.push(b);
        }
    }
    let mut put_off = Vec::new();
    for b in std::mem::take(&mut *held) {
        // A new tap on a button held over shows as its release alone (its press found it
        // pressed already): let go now, pressed again next frame.
        if input.just_pressed(b) || input.just_released(b) {
            put_off.push((b, !input.pressed(b)));
        }
        input.release(b);
    }
    let quick: Vec<T> = input
        .get_just_pressed()
        .filter(|b| !input.pressed(**b) && !put_off.iter().any(|(p, _)| p == *b))
        .copied()
        .collect();
    *again = put_off;
    for b in quick {
        // Held, not let go: the bindings read a button let go this frame as released.
        input.clear_just_released(b);
        input.press(b);
        held.push(b);
    }
}

#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
pub enum TableAction {
    /// Keyboard pan, screen directions.
    #[actionlike(DualAxis)]
    Pan,
    /// Mouse drag pan, in pixels.
    #[actionlike(DualAxis)]
    DragPan,
    /// Wheel zoom, in wheel steps.
    #[actionlike(Axis)]
    ZoomWheel,
    /// Keyboard zoom, held.
    #[actionlike(Axis)]
    ZoomKeys,
    /// Keyboard rotation, held.
    #[actionlike(Axis)]
    Rotate,
    FitTable,
    Select,
    Deselect,
    EndPhase,
    /// Order the selection (`screens::battle`).
    Order,
    /// Fire the selected unit at the enemy unit under the pointer (`screens::battle`).
    FireAt,
    Undo,
    ToggleArc,
    ToggleCone,
    ToggleCommand,
    LosTool,
    Tape,
}

/// The entity that carries the bindings and their state.
#[derive(Component)]
pub struct Controls;

/// The default bindings.
pub fn input_map() -> InputMap<TableAction> {
    use TableAction::*;
    InputMap::default()
        .with_dual_axis(Pan, VirtualDPad::wasd())
        .with_dual_axis(Pan, VirtualDPad::arrow_keys())
        .with_dual_axis(
            DragPan,
            DualAxislikeChord::new(MouseButton::Middle, MouseMove::default()),
        )
        .with_dual_axis(
            DragPan,
            DualAxislikeChord::new(MouseButton::Right, MouseMove::default()),
        )
        .with_axis(ZoomWheel, MouseScrollAxis::Y)
        .with_axis(ZoomKeys, VirtualAxis::new(KeyCode::Minus, KeyCode::Equal))
        .with_axis(ZoomKeys, VirtualAxis::new(KeyCode::NumpadSubtract, KeyCode::NumpadAdd))
        .with_axis(Rotate, VirtualAxis::new(KeyCode::KeyE, KeyCode::KeyQ))
        .with(FitTable, KeyCode::KeyF)
        .with(FitTable, KeyCode::Home)
        .with(Select, MouseButton::Left)
        .with(Deselect, KeyCode::Escape)
        .with(EndPhase, KeyCode::Enter)
        .with(EndPhase, KeyCode::NumpadEnter)
        .with(Order, KeyCode::KeyO)
        .with(FireAt, KeyCode::KeyT)
        .with(Undo, ButtonlikeChord::modified(ModifierKey::Control, KeyCode::KeyZ))
        .with(Undo, KeyCode::Backspace)
        .with(ToggleArc, KeyCode::KeyV)
        .with(ToggleCone, KeyCode::KeyC)
        .with(ToggleCommand, KeyCode::KeyR)
        .with(LosTool, KeyCode::KeyL)
        .with(Tape, KeyCode::KeyM)
}

fn spawn_controls(mut commands: Commands) {
    commands.spawn((Controls, input_map(), ActionState::<TableAction>::default()));
}
