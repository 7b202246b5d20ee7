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
            (hold_quick_keys, hold_quick_clicks)
                .after(InputSystems)
                .before(InputManagerSystem::Unify),
        );
}

/// [`QuickPresses`] for the keyboard (key repeats are not presses).
fn hold_quick_keys(
    mut input: ResMut<ButtonInput<KeyCode>>,
    mut raw: MessageReader<bevy::input::keyboard::KeyboardInput>,
    mut held: Local<QuickPresses<KeyCode>>,
) {
    let events: Vec<(KeyCode, bool)> = raw
        .read()
        .filter(|e| !e.repeat)
        .map(|e| (e.key_code, e.state.is_pressed()))
        .collect();
    held.frame(&mut input, &events);
}

/// [`QuickPresses`] for the mouse buttons.
fn hold_quick_clicks(
    mut input: ResMut<ButtonInput<MouseButton>>,
    mut raw: MessageReader<bevy::input::mouse::MouseButtonInput>,
    mut held: Local<QuickPresses<MouseButton>>,
) {
    let events: Vec<(MouseButton, bool)> = raw.read().map(|e| (e.button, e.state.is_pressed())).collect();
    held.frame(&mut input, &events);
}

/// Presses no binding may lose, however slow the frame. The bindings read what is held down,
/// so a press let go within the same frame (a quick tap or click on a slow frame) would never
/// show: it is held down until the next frame, so the bindings see it pressed once and then
/// released. A new press of a button still held over (Enter, then Enter again to confirm, the
/// second arriving before the first is let go) is put off until the button has been seen let
/// go, so the bindings see two presses, not one long one. Works from the frame's raw press and
/// release messages in order, so a press is seen even when it changed nothing in
/// `ButtonInput` (a button held over is already pressed there).
#[derive(Debug)]
struct QuickPresses<T> {
    /// Buttons physically down after the last messages.
    down: Vec<T>,
    /// Buttons held down for the bindings one frame: let go on the next.
    held: Vec<T>,
    /// Presses put off: (button, frames still to wait).
    again: Vec<(T, u8)>,
}

impl<T> Default for QuickPresses<T> {
    fn default() -> Self {
        QuickPresses {
            down: Vec::new(),
            held: Vec::new(),
            again: Vec::new(),
        }
    }
}

impl<T: Copy + Eq + std::hash::Hash + Send + Sync + 'static> QuickPresses<T> {
    /// One frame: `events` are this frame's (button, pressed) messages in order, which
    /// `input` has already taken in.
    fn frame(&mut self, input: &mut ButtonInput<T>, events: &[(T, bool)]) {
        let mut pressed_now: Vec<T> = events.iter().filter(|e| e.1).map(|e| e.0).collect();
        for &(b, down) in events {
            self.down.retain(|&d| d != b);
            if down {
                self.down.push(b);
            }
        }
        // Buttons held over from the last frame are let go now; one pressed again meanwhile
        // is pressed once the bindings have seen it let go.
        let released = std::mem::take(&mut self.held);
        for &b in &released {
            input.release(b);
            if let Some(i) = pressed_now.iter().position(|&p| p == b) {
                pressed_now.remove(i);
                self.again.push((b, 0));
            }
        }
        // Presses put off whose wait is over (and not let go this very frame): pressed now,
        // and held over one frame unless the button is still down (the player lets it go).
        let mut held = Vec::new();
        let mut waiting = Vec::new();
        for (b, wait) in std::mem::take(&mut self.again) {
            if wait > 0 || held.contains(&b) || released.contains(&b) {
                waiting.push((b, wait.saturating_sub(1)));
                continue;
            }
            input.press(b);
            if !self.down.contains(&b) {
                held.push(b);
            }
        }
        // New taps, pressed and let go within this frame: held; another press of a button
        // already pressed or let go this frame waits its turn.
        for b in pressed_now {
            if held.contains(&b) || released.contains(&b) || waiting.iter().any(|w| w.0 == b) {
                if !self.down.contains(&b) {
                    waiting.push((b, 1));
                }
                continue;
            }
            if self.down.contains(&b) {
                continue; // a press the player still holds: `input` has it
            }
            // Held, not let go: the bindings read a button let go this frame as released.
            input.clear_just_released(b);
            input.press(b);
            held.push(b);
        }
        self.again = waiting;
        self.held = held;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// One frame as Bevy runs it: the input's frame flags cleared, the messages taken in,
    /// then the quick presses; what the bindings would read (pressed, just pressed).
    fn frame(
        input: &mut ButtonInput<KeyCode>,
        q: &mut QuickPresses<KeyCode>,
        events: &[(KeyCode, bool)],
    ) -> (bool, bool) {
        input.clear();
        for &(k, down) in events {
            if down {
                input.press(k);
            } else {
                input.release(k);
            }
        }
        q.frame(input, events);
        (input.pressed(KeyCode::Enter), input.just_pressed(KeyCode::Enter))
    }

    const E: KeyCode = KeyCode::Enter;

    /// The presses the bindings see over `frames` (a press: not pressed, then pressed).
    fn presses(frames: &[&[(KeyCode, bool)]]) -> (usize, bool) {
        let (mut input, mut q) = (ButtonInput::default(), QuickPresses::default());
        let (mut n, mut was) = (0, false);
        for f in frames.iter().copied().chain([&[][..], &[][..], &[][..]]) {
            let (now, _) = frame(&mut input, &mut q, f);
            if now && !was {
                n += 1;
            }
            was = now;
        }
        (n, was)
    }

    #[test]
    fn a_tap_within_one_frame_is_seen_once_and_let_go() {
        assert_eq!(presses(&[&[(E, true), (E, false)]]), (1, false));
    }

    #[test]
    fn two_taps_within_one_frame_are_seen_twice() {
        assert_eq!(presses(&[&[(E, true), (E, false), (E, true), (E, false)]]), (2, false));
    }

    #[test]
    fn a_second_tap_while_the_first_is_held_over_is_a_second_press() {
        // Both halves of the second tap in the next frame.
        assert_eq!(
            presses(&[&[(E, true), (E, false)], &[(E, true), (E, false)]]),
            (2, false)
        );
        // Its press in the next frame, its release in the one after (the lost Enter of CI).
        assert_eq!(
            presses(&[&[(E, true), (E, false)], &[(E, true)], &[(E, false)]]),
            (2, false)
        );
        // Its press in the next frame, held down for a while.
        assert_eq!(
            presses(&[&[(E, true), (E, false)], &[(E, true)], &[], &[], &[(E, false)]]),
            (2, false)
        );
    }

    #[test]
    fn a_press_held_over_frames_is_one_press_let_go_when_the_player_lets_go() {
        let (mut input, mut q) = (ButtonInput::default(), QuickPresses::default());
        assert_eq!(frame(&mut input, &mut q, &[(E, true)]), (true, true));
        assert_eq!(frame(&mut input, &mut q, &[]), (true, false));
        assert_eq!(frame(&mut input, &mut q, &[(E, false)]), (false, false));
        assert_eq!(frame(&mut input, &mut q, &[]), (false, false));
    }

    #[test]
    fn other_keys_are_left_alone() {
        let (mut input, mut q) = (ButtonInput::default(), QuickPresses::default());
        frame(&mut input, &mut q, &[(KeyCode::KeyA, true)]);
        assert!(input.pressed(KeyCode::KeyA) && !input.pressed(E));
        frame(&mut input, &mut q, &[(KeyCode::KeyA, false)]);
        assert!(!input.pressed(KeyCode::KeyA));
    }
}
