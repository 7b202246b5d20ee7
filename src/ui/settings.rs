//! The player's settings, kept between runs: the key of every remappable action, the palette
//! and the animation speed. A RON file in the user's config directory (`VOLLEY_CONFIG_DIR`,
//! else `$XDG_CONFIG_HOME/volley`, else `$HOME/.config/volley`), written atomically. A file
//! that cannot be read is an error with its file, line and column, shown in the menu; the
//! defaults are used and the file is left as it is until the player saves new settings.

use super::input::{Controls, TableAction};
use bevy::input::keyboard::KeyCode;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Settings>()
        .init_resource::<SettingsStore>()
        .add_systems(Update, apply_settings.run_if(resource_changed::<Settings>));
}

/// The settings file's name in the config directory.
pub const FILE: &str = "settings.ron";

/// An action the player can put on another key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Binding {
    PanUp,
    PanDown,
    PanLeft,
    PanRight,
    ZoomIn,
    ZoomOut,
    RotateLeft,
    RotateRight,
    FitTable,
    Deselect,
    EndPhase,
    Order,
    FireAt,
    Undo,
    ToggleArc,
    ToggleCone,
    ToggleCommand,
    LosTool,
    Tape,
}

impl Binding {
    pub const ALL: [Binding; 19] = [
        Binding::PanUp,
        Binding::PanDown,
        Binding::PanLeft,
        Binding::PanRight,
        Binding::ZoomIn,
        Binding::ZoomOut,
        Binding::RotateLeft,
        Binding::RotateRight,
        Binding::FitTable,
        Binding::Deselect,
        Binding::EndPhase,
        Binding::Order,
        Binding::FireAt,
        Binding::Undo,
        Binding::ToggleArc,
        Binding::ToggleCone,
        Binding::ToggleCommand,
        Binding::LosTool,
        Binding::Tape,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Binding::PanUp => "pan up",
            Binding::PanDown => "pan down",
            Binding::PanLeft => "pan left",
            Binding::PanRight => "pan right",
            Binding::ZoomIn => "zoom in",
            Binding::ZoomOut => "zoom out",
            Binding::RotateLeft => "rotate left",
            Binding::RotateRight => "rotate right",
            Binding::FitTable => "fit the view to the pieces",
            Binding::Deselect => "deselect",
            Binding::EndPhase => "end the phase",
            Binding::Order => "order the selection's formation (activate the unit, under initiative passing)",
            Binding::FireAt => "fire at the unit under the pointer",
            Binding::Undo => "undo (Ctrl+Z too)",
            Binding::ToggleArc => "arc of vision",
            Binding::ToggleCone => "fire cone and range",
            Binding::ToggleCommand => "command radius",
            Binding::LosTool => "line-of-sight check",
            Binding::Tape => "measuring tape",
        }
    }

    pub fn default_key(self) -> KeyCode {
        match self {
            Binding::PanUp => KeyCode::KeyW,
            Binding::PanDown => KeyCode::KeyS,
            Binding::PanLeft => KeyCode::KeyA,
            Binding::PanRight => KeyCode::KeyD,
            Binding::ZoomIn => KeyCode::Equal,
            Binding::ZoomOut => KeyCode::Minus,
            Binding::RotateLeft => KeyCode::KeyQ,
            Binding::RotateRight => KeyCode::KeyE,
            Binding::FitTable => KeyCode::KeyF,
            Binding::Deselect => KeyCode::Escape,
            Binding::EndPhase => KeyCode::Enter,
            Binding::Order => KeyCode::KeyO,
            Binding::FireAt => KeyCode::KeyT,
            Binding::Undo => KeyCode::Backspace,
            Binding::ToggleArc => KeyCode::KeyV,
            Binding::ToggleCone => KeyCode::KeyC,
            Binding::ToggleCommand => KeyCode::KeyR,
            Binding::LosTool => KeyCode::KeyL,
            Binding::Tape => KeyCode::KeyM,
        }
    }
}

/// The keys a binding may take, by the names the settings file uses.
pub const KEYS: &[KeyCode] = {
    use KeyCode::*;
    &[
        KeyA,
        KeyB,
        KeyC,
        KeyD,
        KeyE,
        KeyF,
        KeyG,
        KeyH,
        KeyI,
        KeyJ,
        KeyK,
        KeyL,
        KeyM,
        KeyN,
        KeyO,
        KeyP,
        KeyQ,
        KeyR,
        KeyS,
        KeyT,
        KeyU,
        KeyV,
        KeyW,
        KeyX,
        KeyY,
        KeyZ,
        Digit0,
        Digit1,
        Digit2,
        Digit3,
        Digit4,
        Digit5,
        Digit6,
        Digit7,
        Digit8,
        Digit9,
        F1,
        F2,
        F3,
        F4,
        F5,
        F6,
        F7,
        F8,
        F9,
        F10,
        F11,
        F12,
        ArrowUp,
        ArrowDown,
        ArrowLeft,
        ArrowRight,
        Space,
        Enter,
        Escape,
        Tab,
        Backspace,
        Minus,
        Equal,
        Home,
        End,
        PageUp,
        PageDown,
        Insert,
        Delete,
        BracketLeft,
        BracketRight,
        Comma,
        Period,
        Slash,
        Semicolon,
        Quote,
        Backslash,
        Backquote,
        Numpad0,
        Numpad1,
        Numpad2,
        Numpad3,
        Numpad4,
        Numpad5,
        Numpad6,
        Numpad7,
        Numpad8,
        Numpad9,
        NumpadAdd,
        NumpadSubtract,
        NumpadMultiply,
        NumpadDivide,
        NumpadEnter,
        NumpadDecimal,
    ]
};

/// A key's name in the settings file (`KeyW`, `Enter`, `F5`...).
pub fn key_name(k: KeyCode) -> String {
    format!("{k:?}")
}

/// A key as people say it, for the settings screen and the help: `W`, `5`, `=`, `Enter`,
/// `Up arrow`, `Numpad +` (the file keeps `key_name`).
pub fn key_label(k: KeyCode) -> String {
    let name = key_name(k);
    let sign = match k {
        KeyCode::Minus => "-",
        KeyCode::Equal => "=",
        KeyCode::BracketLeft => "[",
        KeyCode::BracketRight => "]",
        KeyCode::Comma => ",",
        KeyCode::Period => ".",
        KeyCode::Slash => "/",
        KeyCode::Semicolon => ";",
        KeyCode::Quote => "'",
        KeyCode::Backslash => "\\",
        KeyCode::Backquote => "`",
        KeyCode::ArrowUp => "Up arrow",
        KeyCode::ArrowDown => "Down arrow",
        KeyCode::ArrowLeft => "Left arrow",
        KeyCode::ArrowRight => "Right arrow",
        KeyCode::Escape => "Esc",
        KeyCode::PageUp => "Page Up",
        KeyCode::PageDown => "Page Down",
        KeyCode::NumpadAdd => "Numpad +",
        KeyCode::NumpadSubtract => "Numpad -",
        KeyCode::NumpadMultiply => "Numpad *",
        KeyCode::NumpadDivide => "Numpad /",
        KeyCode::NumpadEnter => "Numpad Enter",
        KeyCode::NumpadDecimal => "Numpad .",
        _ => "",
    };
    if !sign.is_empty() {
        return sign.to_string();
    }
    if let Some(rest) = name.strip_prefix("Key").or_else(|| name.strip_prefix("Digit")) {
        return rest.to_string();
    }
    if let Some(rest) = name.strip_prefix("Numpad") {
        return format!("Numpad {rest}");
    }
    name
}

/// The key of a name, if it is one a binding may take.
pub fn parse_key(name: &str) -> Option<KeyCode> {
    KEYS.iter().copied().find(|&k| key_name(k) == name)
}

/// A key, written by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key(pub KeyCode);

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&key_name(self.0))
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        let name = String::deserialize(d)?;
        parse_key(&name).map(Key).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown key \"{name}\" (keys are named like KeyW, Enter, F5, ArrowUp)"
            ))
        })
    }
}

pub use super::palette::PaletteChoice;

#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// 0: no animation; 1: normal; up to 4.
    pub animation_speed: f32,
    pub palette: PaletteChoice,
    /// The key of each remappable action (an action not listed keeps its default key).
    pub keys: BTreeMap<Binding, Key>,
    /// Ask before ending the command phase while units still hold orders.
    pub confirm_end_phase: bool,
    /// Pan the camera to each piece a computer player acts with (`ui::follow`).
    pub follow_computer: bool,
    /// The size of the panels' text and buttons: 0 follows the window's size (`ui_scale`),
    /// else a fixed factor (0.5 to 2).
    pub ui_scale: f32,
    /// The game server "Play online" connects to (`volley serve`'s address).
    pub server: String,
}

/// The server "Play online" offers first: `volley serve` on this machine.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:7878";

/// The panels' scale for a window of `width` × `height` logical pixels: 1 at 1600 × 1000, in
/// proportion to the smaller of the two ratios, kept between 0.75 (1280 × 720 still shows the
/// table beside the panels) and 1.75; `setting` (0: automatic, else 0.5 to 2) overrides it.
pub fn ui_scale(setting: f32, width: f32, height: f32) -> f32 {
    if setting > 0.0 {
        return setting.clamp(0.5, 2.0);
    }
    (width / 1600.0).min(height / 1000.0).clamp(0.75, 1.75)
}

/// The smallest text the panels use, in egui points: 12 pixels at 1600 × 960 (scale 0.96).
pub const MIN_TEXT_PT: f32 = 12.5;

/// Raises every text style of `style` below [`MIN_TEXT_PT`] to it (egui's small text is 9
/// points: 8.6 pixels at 1600 × 960, too small to read a long orders list by).
pub fn readable(style: &mut bevy_egui::egui::Style) {
    for font in style.text_styles.values_mut() {
        if font.size < MIN_TEXT_PT {
            font.size = MIN_TEXT_PT;
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            animation_speed: 1.0,
            palette: PaletteChoice::default(),
            keys: Binding::ALL.iter().map(|&b| (b, Key(b.default_key()))).collect(),
            confirm_end_phase: true,
            follow_computer: true,
            ui_scale: 0.0,
            server: DEFAULT_SERVER.into(),
        }
    }
}

/// Where the settings live and what went wrong reading or writing them.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct SettingsStore {
    /// None: nowhere (tests, no home directory); nothing is saved.
    pub dir: Option<PathBuf>,
    /// The last load or save error, for the menu.
    pub error: Option<String>,
    /// The settings screen is open.
    pub open: bool,
}

impl Settings {
    pub fn key(&self, b: Binding) -> KeyCode {
        self.keys.get(&b).map_or(b.default_key(), |k| k.0)
    }

    /// The settings in `dir`: the defaults when there is no file; the defaults and the error
    /// (file, line, column) when it cannot be read.
    pub fn load(dir: &Path) -> (Settings, Option<String>) {
        let path = dir.join(FILE);
        if !path.exists() {
            return (Settings::default(), None);
        }
        match crate::data::load_ron::<Settings>(&path) {
            Ok(mut s) => {
                s.animation_speed = s.animation_speed.clamp(0.0, 4.0);
                (s, None)
            }
            Err(e) => (
                Settings::default(),
                Some(format!(
                    "{e} (the default settings are used; the file is left as it is)"
                )),
            ),
        }
    }

    /// Write the settings to `dir` atomically (temporary file and rename).
    pub fn save(&self, dir: &Path) -> Result<(), String> {
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).map_err(|e| e.to_string())?;
        let path = dir.join(FILE);
        crate::replay::save_atomically(&path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The bindings as leafwing's input map: the remappable keys, plus the fixed ones (arrow
    /// keys, the numeric keypad, Home, the mouse).
    pub fn input_map(&self) -> InputMap<TableAction> {
        use Binding as B;
        use TableAction::*;
        let k = |b| self.key(b);
        InputMap::default()
            .with_dual_axis(
                Pan,
                VirtualDPad::new(k(B::PanUp), k(B::PanDown), k(B::PanLeft), k(B::PanRight)),
            )
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
            .with_axis(ZoomKeys, VirtualAxis::new(k(B::ZoomOut), k(B::ZoomIn)))
            .with_axis(ZoomKeys, VirtualAxis::new(KeyCode::NumpadSubtract, KeyCode::NumpadAdd))
            .with_axis(Rotate, VirtualAxis::new(k(B::RotateRight), k(B::RotateLeft)))
            .with(FitTable, k(B::FitTable))
            .with(FitTable, KeyCode::Home)
            .with(Select, MouseButton::Left)
            .with(Deselect, k(B::Deselect))
            .with(EndPhase, k(B::EndPhase))
            .with(EndPhase, KeyCode::NumpadEnter)
            .with(Order, k(B::Order))
            .with(FireAt, k(B::FireAt))
            .with(Undo, ButtonlikeChord::modified(ModifierKey::Control, KeyCode::KeyZ))
            .with(Undo, k(B::Undo))
            .with(ToggleArc, k(B::ToggleArc))
            .with(ToggleCone, k(B::ToggleCone))
            .with(ToggleCommand, k(B::ToggleCommand))
            .with(LosTool, k(B::LosTool))
            .with(Tape, k(B::Tape))
    }
}

/// The config directory from the environment: `VOLLEY_CONFIG_DIR`, else
/// `$XDG_CONFIG_HOME/volley`, else `$HOME/.config/volley` (empty values do not count).
pub fn config_dir(var: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let get = |k: &str| var(k).filter(|v| !v.is_empty());
    if let Some(d) = get("VOLLEY_CONFIG_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = get("XDG_CONFIG_HOME") {
        return Some(PathBuf::from(d).join("volley"));
    }
    get("HOME").map(|h| PathBuf::from(h).join(".config").join("volley"))
}

/// The player's settings and where they live, read from the environment's config directory.
pub fn load_from_env() -> (Settings, SettingsStore) {
    let dir = config_dir(|k| std::env::var(k).ok());
    let (settings, error) = match &dir {
        Some(d) => Settings::load(d),
        None => (Settings::default(), None),
    };
    (
        settings,
        SettingsStore {
            dir,
            error,
            open: false,
        },
    )
}

/// New settings take effect: the bindings on the controls, the animation speed.
fn apply_settings(
    settings: Res<Settings>,
    mut controls: Query<&mut InputMap<TableAction>, With<Controls>>,
    anim: Option<ResMut<super::animation::Anim>>,
) {
    let map = settings.input_map();
    for mut m in &mut controls {
        if *m != map {
            *m = map.clone();
        }
    }
    if let Some(mut a) = anim {
        a.speed = settings.animation_speed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("volley-settings-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn the_defaults_are_the_documented_bindings() {
        assert_eq!(Settings::default().input_map(), super::super::input::input_map());
    }

    #[test]
    fn the_panels_scale_follows_the_window_unless_set() {
        assert_eq!(ui_scale(0.0, 1600.0, 1000.0), 1.0);
        assert_eq!(ui_scale(0.0, 1280.0, 720.0), 0.75);
        assert!((ui_scale(0.0, 2560.0, 1440.0) - 1.44).abs() < 1e-6);
        assert_eq!(ui_scale(0.0, 3840.0, 2160.0), 1.75);
        assert_eq!(ui_scale(1.25, 1280.0, 720.0), 1.25);
        assert_eq!(ui_scale(9.0, 1600.0, 1000.0), 2.0);
    }

    #[test]
    fn no_text_is_smaller_than_12_pixels_at_1600_by_960() {
        let mut style = bevy_egui::egui::Style::default();
        assert!(
            style.text_styles.values().any(|f| f.size < 12.0),
            "egui's own small text"
        );
        readable(&mut style);
        let k = ui_scale(0.0, 1600.0, 960.0);
        for (name, f) in &style.text_styles {
            assert!(f.size * k >= 12.0 - 1e-4, "{name:?}: {} px", f.size * k);
        }
    }

    #[test]
    fn settings_round_trip_through_the_file_and_are_written_atomically() {
        let dir = scratch("round");
        assert_eq!(
            Settings::load(&dir),
            (Settings::default(), None),
            "no file: the defaults"
        );
        let mut s = Settings {
            animation_speed: 2.5,
            palette: PaletteChoice::BlueAndGrey,
            ..Settings::default()
        };
        s.keys.insert(Binding::EndPhase, Key(KeyCode::Space));
        s.save(&dir).expect("saved");
        assert_eq!(Settings::load(&dir), (s.clone(), None));
        // Saved again over the old file: only the file itself is left (no temporary).
        s.animation_speed = 0.0;
        s.save(&dir).expect("saved again");
        assert_eq!(Settings::load(&dir).0.animation_speed, 0.0);
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec![FILE.to_string()]);
        let text = std::fs::read_to_string(dir.join(FILE)).unwrap();
        assert!(text.contains("EndPhase: \"Space\""), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_bad_file_is_an_error_with_its_place_and_is_not_overwritten() {
        let dir = scratch("bad");
        std::fs::create_dir_all(&dir).unwrap();
        let bad = "(\n    animation_speed: 1.0,\n    keys: { EndPhase: \"Kye\" },\n)\n";
        std::fs::write(dir.join(FILE), bad).unwrap();
        let (s, err) = Settings::load(&dir);
        assert_eq!(s, Settings::default());
        let err = err.expect("an error");
        let file = dir.join(FILE).display().to_string();
        assert!(err.starts_with(&format!("{file}:3:")), "{err}");
        assert!(err.contains("unknown key \"Kye\""), "{err}");
        assert_eq!(std::fs::read_to_string(dir.join(FILE)).unwrap(), bad, "left as it is");
        // A field that does not exist is an error too, at its line.
        std::fs::write(dir.join(FILE), "(\n  speed: 2.0,\n)\n").unwrap();
        let err = Settings::load(&dir).1.expect("an error");
        assert!(err.starts_with(&format!("{file}:2:")), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_config_dir_follows_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|p| p.0 == k).map(|p| p.1.to_string())
        };
        let all = env(&[("VOLLEY_CONFIG_DIR", "/v"), ("XDG_CONFIG_HOME", "/x"), ("HOME", "/h")]);
        assert_eq!(config_dir(all), Some(PathBuf::from("/v")));
        let xdg = env(&[("VOLLEY_CONFIG_DIR", ""), ("XDG_CONFIG_HOME", "/x"), ("HOME", "/h")]);
        assert_eq!(config_dir(xdg), Some(PathBuf::from("/x/volley")));
        assert_eq!(
            config_dir(env(&[("HOME", "/h")])),
            Some(PathBuf::from("/h/.config/volley"))
        );
        assert_eq!(config_dir(env(&[])), None);
    }

    #[test]
    fn every_key_name_parses_back() {
        for &k in KEYS {
            assert_eq!(parse_key(&key_name(k)), Some(k));
        }
        assert_eq!(parse_key("Kye"), None);
    }

    #[test]
    fn keys_are_shown_as_people_say_them() {
        assert_eq!(key_label(KeyCode::KeyW), "W");
        assert_eq!(key_label(KeyCode::Equal), "=");
        assert_eq!(key_label(KeyCode::Enter), "Enter");
        assert_eq!(key_label(KeyCode::Digit5), "5");
        assert_eq!(key_label(KeyCode::Numpad5), "Numpad 5");
        assert_eq!(key_label(KeyCode::ArrowUp), "Up arrow");
        // Every key a binding may take: no program name (`KeyW`, `BracketLeft`) left.
        for &k in KEYS {
            let l = key_label(k);
            let camel = l
                .chars()
                .collect::<Vec<_>>()
                .windows(2)
                .any(|w| w[0].is_lowercase() && w[1].is_uppercase());
            assert!(!camel && !l.is_empty(), "{k:?} shows as {l}");
        }
    }
}
