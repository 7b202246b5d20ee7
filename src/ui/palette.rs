//! Colours of the table and the troops. The two sides use the Okabe–Ito blue and vermillion,
//! which stay apart for the common kinds of colour blindness (no red against green).

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The side colours on the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PaletteChoice {
    /// Okabe–Ito blue and vermillion: apart for the common kinds of colour blindness.
    #[default]
    ColourBlindSafe,
    /// Union blue and Confederate grey (also apart by lightness).
    BlueAndGrey,
}

impl PaletteChoice {
    pub const ALL: [PaletteChoice; 2] = [PaletteChoice::ColourBlindSafe, PaletteChoice::BlueAndGrey];

    pub fn label(self) -> &'static str {
        match self {
            PaletteChoice::ColourBlindSafe => "colour-blind safe (blue and vermillion)",
            PaletteChoice::BlueAndGrey => "blue and grey",
        }
    }
}

pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
    Color::srgb(r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0)
}

/// The room around the table (dark wood).
pub const ROOM: Color = rgb(38, 30, 24);
pub const TABLE_EDGE: Color = rgb(86, 62, 40);
pub const CLOTH: Color = rgb(112, 140, 78);
pub const CLOTH_SPECKLE: Color = rgb(102, 130, 70);
pub const CLOTH_SPECKLE_LIGHT: Color = rgb(124, 150, 86);

pub const HILL: [Color; 4] = [
    rgb(140, 150, 84),
    rgb(162, 160, 96),
    rgb(184, 172, 112),
    rgb(202, 186, 130),
];
pub const HILL_SHADOW: Color = rgb(74, 88, 48);
pub const HILL_EDGE: Color = rgb(96, 92, 56);

pub const FIELD: Color = rgb(200, 176, 96);
pub const FIELD_FURROW: Color = rgb(168, 140, 70);
pub const SCRUB: Color = rgb(128, 134, 76);
pub const SCRUB_BUSH: Color = rgb(88, 104, 56);
pub const WOODS_GROUND: Color = rgb(76, 100, 54);
pub const TREE_SHADOW: Color = rgb(40, 56, 30);
pub const TREE: [Color; 3] = [rgb(54, 92, 46), rgb(66, 108, 52), rgb(82, 124, 60)];
pub const ORCHARD_GROUND: Color = rgb(120, 150, 82);
pub const ORCHARD_TREE: Color = rgb(70, 120, 58);
pub const BUILT_UP: Color = rgb(150, 138, 118);
pub const BUILT_UP_HOUSE: Color = rgb(112, 84, 64);
pub const MARSH: Color = rgb(100, 124, 100);
pub const MARSH_WATER: Color = rgb(92, 128, 140);
pub const MARSH_REED: Color = rgb(62, 84, 52);
pub const MUD: Color = rgb(120, 100, 70);
pub const MUD_DARK: Color = rgb(96, 78, 54);
pub const WATER: Color = rgb(70, 120, 160);
pub const WATER_DEEP: Color = rgb(52, 96, 140);
pub const WATER_LIGHT: Color = rgb(120, 164, 196);
pub const BANK: Color = rgb(88, 96, 60);
pub const ROAD: Color = rgb(186, 164, 124);
pub const ROAD_EDGE: Color = rgb(136, 116, 84);
pub const WALL: Color = rgb(168, 164, 156);
pub const WALL_DARK: Color = rgb(92, 90, 86);
pub const FENCE: Color = rgb(110, 76, 46);
pub const HEDGE: Color = rgb(46, 82, 40);
pub const HEDGE_LIGHT: Color = rgb(70, 110, 52);
pub const ROOF: Color = rgb(118, 106, 100);
pub const ROOF_RIDGE: Color = rgb(70, 62, 58);
pub const WALL_SHADOW: Color = rgb(50, 44, 34);
pub const OBJECTIVE: Color = rgb(250, 236, 180);

/// Side colours: base fill, dark edge, light tint (limbers, skirmishers).
pub const SIDE: [Color; 2] = [rgb(0, 94, 170), rgb(213, 94, 0)];
pub const SIDE_DARK: [Color; 2] = [rgb(0, 48, 96), rgb(120, 48, 0)];
pub const SIDE_LIGHT: [Color; 2] = [rgb(86, 150, 210), rgb(236, 150, 80)];
/// The marks on a base: glyph and front edge.
pub const MARK: Color = rgb(250, 244, 226);
pub const SELECT: Color = rgb(255, 230, 40);
pub const SUPPRESSED: Color = rgb(20, 20, 20);
pub const DISORDERED: Color = rgb(240, 220, 60);
/// Glory Days! D-markers (Okabe–Ito reddish purple).
pub const D_MARKER: Color = rgb(204, 121, 167);
pub const TARGET: Color = rgb(255, 255, 255);

/// The side colours as 8-bit RGB, for checking a screenshot.
pub const SIDE_RGB: [[u8; 3]; 2] = [[0, 94, 170], [213, 94, 0]];

/// The palette the panels' text and legend use. The table's shapes read `Settings`; egui's
/// drawing functions get no resources, so `panels` mirrors the choice here each time it changes.
static TEXT_PALETTE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

pub fn set_text_palette(p: PaletteChoice) {
    let i = PaletteChoice::ALL.iter().position(|x| *x == p).unwrap_or(0);
    TEXT_PALETTE.store(i as u8, std::sync::atomic::Ordering::Relaxed);
}

pub fn text_palette() -> PaletteChoice {
    let i = TEXT_PALETTE.load(std::sync::atomic::Ordering::Relaxed) as usize;
    PaletteChoice::ALL.get(i).copied().unwrap_or_default()
}

/// A palette's side colours as 8-bit RGB (the screenshot check counts them).
pub fn side_rgb(p: PaletteChoice) -> [[u8; 3]; 2] {
    sides(p)[0].map(|c| {
        let c = c.to_srgba();
        [c.red, c.green, c.blue].map(|x| (x * 255.0).round() as u8)
    })
}

/// `a` mixed towards `b` by `t` (0..1), in sRGB.
pub fn mix(a: Color, b: Color, t: f32) -> Color {
    let (a, b) = (a.to_srgba(), b.to_srgba());
    Color::srgb(
        a.red + (b.red - a.red) * t,
        a.green + (b.green - a.green) * t,
        a.blue + (b.blue - a.blue) * t,
    )
}

/// The side colours of a palette: base fill, dark edge, light tint, by side.
pub fn sides(p: PaletteChoice) -> [[Color; 2]; 3] {
    use PaletteChoice::*;
    match p {
        ColourBlindSafe => [SIDE, SIDE_DARK, SIDE_LIGHT],
        BlueAndGrey => [
            [rgb(40, 64, 150), rgb(128, 128, 136)],
            [rgb(16, 28, 76), rgb(64, 64, 70)],
            [rgb(110, 134, 210), rgb(180, 180, 188)],
        ],
    }
}
