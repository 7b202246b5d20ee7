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
//!   a box dragged around the units with Shift held, `table::input`).
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

/// [`QuickPresses`] for the keyboard (key repeats are not presses). A key pressed while a
/// text field has the keyboard (a menu's address or code, the log's filter) is the field's:
/// no binding is shown it, and it does not wait its turn to reach the table once the field
/// is gone (forty Backspaces typed into the menu came out as Undo on the battle screen).
fn hold_quick_keys(
    mut input: ResMut<ButtonInput<KeyCode>>,
    mut raw: MessageReader<bevy::input::keyboard::KeyboardInput>,
    mut held: Local<QuickPresses<KeyCode>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    let typing = egui.is_some_and(|e| e.wants_any_keyboard_input());
    let mut events: Vec<(KeyCode, bool)> = Vec::new();
    for e in raw.read().filter(|e| !e.repeat) {
        if typing && e.state.is_pressed() {
            input.reset(e.key_code);
        } else {
            events.push((e.key_code, e.state.is_pressed()));
        }
    }
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

/// Presses no binding may lose, however slow the frame. The bindings read what is held down
/// once a frame, so they see a press only as a change from let go to pressed between two
/// frames. A tap pressed and let go within one frame, or a second press whose first was let
/// go in the same frame (Enter, then Enter again at once to confirm), would never show. So
/// every press is shown pressed for at least one frame, and a button shown pressed is shown
/// let go for at least one frame before its next press shows: the presses wait their turn.
/// A press the player holds stays pressed until let go, and a button held when another is
/// pressed is shown held in that press's frame even if let go later in the same frame (Ctrl
/// down in one frame; S down, S up and Ctrl up in the next: still Ctrl+S). Works from the
/// frame's raw press and release messages in order, so a press is seen even when it changed
/// nothing in `ButtonInput` (a release and a new press in the same frame).
#[derive(Debug)]
struct QuickPresses<T> {
    /// Buttons physically down after the last messages.
    down: Vec<T>,
    /// Buttons the bindings were shown pressed in the last frame.
    shown: Vec<T>,
    /// Presses not shown yet, oldest first (a button may wait more than once).
    waiting: Vec<T>,
}

impl<T> Default for QuickPresses<T> {
    fn default() -> Self {
        QuickPresses {
            down: Vec::new(),
            shown: Vec::new(),
            waiting: Vec::new(),
        }
    }
}

impl<T: Copy + Eq + std::hash::Hash + Send + Sync + 'static> QuickPresses<T> {
    /// One frame: `events` are this frame's (button, pressed) messages in order, which
    /// `input` has already taken in; `input` is left showing this frame's state.
    fn frame(&mut self, input: &mut ButtonInput<T>, events: &[(T, bool)]) {
        let mut buttons = self.shown.clone();
        // Buttons let go this frame after another button's press in it: held with that press.
        let mut chord = Vec::new();
        let mut pressed_here = Vec::new();
        for &(b, down) in events {
            if !down && self.down.contains(&b) && pressed_here.iter().any(|&p| p != b) {
                chord.push(b);
            }
            self.down.retain(|&d| d != b);
            if down {
                self.down.push(b);
                self.waiting.push(b);
                pressed_here.push(b);
            }
            if !buttons.contains(&b) {
                buttons.push(b);
            }
        }
        for &b in &self.waiting {
            if !buttons.contains(&b) {
                buttons.push(b);
            }
        }
        let mut shown = Vec::new();
        for b in buttons {
            let was = self.shown.contains(&b);
            let next = self.waiting.iter().position(|&w| w == b);
            let now = match (was, next) {
                // Shown pressed: it stays so while held (or held with a press of this frame)
                // with no new press of its own; let go first otherwise.
                (true, next) => next.is_none() && (self.down.contains(&b) || chord.contains(&b)),
                // Shown let go: the next waiting press shows now.
                (false, Some(i)) => {
                    self.waiting.remove(i);
                    true
                }
                (false, None) => false,
            };
            show(input, b, was, now);
            if now {
                shown.push(b);
            }
        }
        self.shown = shown;
    }
}

/// Sets `b` in `input` to pressed (`now`) or let go, its "just" flags from the change since
/// the last frame (`was`).
fn show<T: Copy + Eq + std::hash::Hash + Send + Sync + 'static>(
    input: &mut ButtonInput<T>,
    b: T,
    was: bool,
    now: bool,
) {
    input.reset(b);
    if was {
        input.press(b);
        input.clear_just_pressed(b);
    }
    if now {
        input.press(b);
    } else if was {
        input.release(b);
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
    fn a_second_press_whose_first_was_let_go_in_the_same_frame_is_a_second_press() {
        // The first press alone in a frame; its release and the second press in the next
        // (Enter to ask, Enter again at once to confirm, on a slow frame: the lost Enter of
        // the CI run of 2026-11-25). The bindings must see it let go in between.
        assert_eq!(
            presses(&[&[(E, true)], &[(E, false), (E, true)], &[(E, false)]]),
            (2, false)
        );
        assert_eq!(
            presses(&[&[(E, true)], &[(E, false), (E, true), (E, false)]]),
            (2, false)
        );
        // Three taps over two frames: three presses, each let go before the next.
        assert_eq!(
            presses(&[
                &[(E, true)],
                &[(E, false), (E, true), (E, false), (E, true), (E, false)],
                &[]
            ]),
            (3, false)
        );
    }

    /// Ctrl+S as `xdotool key ctrl+s` sends it, its four messages split over up to three frames
    /// every way: in the frame S shows pressed, Ctrl shows held (the lost save of the CI run of
    /// 2026-11-27: Ctrl down in one frame, the rest in the next).
    #[test]
    fn a_modifier_let_go_in_the_frame_of_its_chord_still_holds_for_it() {
        const C: KeyCode = KeyCode::ControlLeft;
        const S: KeyCode = KeyCode::KeyS;
        let msgs = [(C, true), (S, true), (S, false), (C, false)];
        for a in 0..=msgs.len() {
            for b in a..=msgs.len() {
                let (mut input, mut q) = (ButtonInput::default(), QuickPresses::default());
                let mut seen = 0;
                for f in [&msgs[..a], &msgs[a..b], &msgs[b..], &[], &[]] {
                    frame(&mut input, &mut q, f);
                    if input.just_pressed(S) {
                        assert!(input.pressed(C), "Ctrl let go when S showed, split {a} {b}");
                        seen += 1;
                    }
                }
                assert_eq!(seen, 1, "split {a} {b}");
                assert!(
                    !input.pressed(C) && !input.pressed(S),
                    "both let go after, split {a} {b}"
                );
            }
        }
        // Ctrl let go before S is pressed is no chord.
        let (mut input, mut q) = (ButtonInput::default(), QuickPresses::default());
        frame(&mut input, &mut q, &[(C, true)]);
        frame(&mut input, &mut q, &[(C, false), (S, true), (S, false)]);
        assert!(input.just_pressed(S) && !input.pressed(C));
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
