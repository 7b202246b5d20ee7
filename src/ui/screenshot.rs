//! `volley screenshot`: open the battle view, wait until the picture is really drawn, save a
//! PNG and quit. Software renderers (llvmpipe under Xvfb) show black frames while the shader
//! pipelines compile, so the picture is captured repeatedly until it is not blank and two
//! captures in a row are identical, then saved.

use super::common::Screen;
use super::palette::SIDE_RGB;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use std::path::{Path, PathBuf};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (focus.after(super::camera::CameraSystems), drive).run_if(resource_exists::<ShotRequest>),
    );
}

/// Take a screenshot to `out` and quit.
#[derive(Resource, Clone, Debug)]
pub struct ShotRequest {
    pub out: PathBuf,
    /// Show this part of the table: centre x, y and the width shown, in cm (else the whole table).
    pub focus: Option<[f32; 3]>,
    /// Let the agents play this many actions first (then select a unit of the side to act).
    pub after_actions: u64,
    /// Overlays to show (`--overlay`) and the unit or commander to select (`--select`, part of
    /// its name).
    pub overlays: Option<super::measure::Overlays>,
    pub select: Option<String>,
    /// Hold the preview of the selection's first legal action of this group (`move`, `fire`,
    /// `charge`, `deploy`, `order`), as hovering it in the orders panel would.
    pub preview: Option<String>,
}

/// What `volley screenshot` refuses before a window opens, each with what is wrong: an output
/// that is not a `.png` (the picture is only ever written as PNG, and would otherwise be
/// refused after it was drawn); an overlay's point that is not a number (`NaN`, `inf`) or off
/// `battle`'s table; a replay position past the recording's last action (`--at` counts
/// actions: 0 is the deployment, the recording's length its end).
pub fn check_before_window(
    out: &Path,
    overlays: Option<&super::measure::Overlays>,
    battle: &crate::battle::Battle,
    replay: Option<&(crate::replay::timeline::Timeline, usize)>,
) -> Result<(), String> {
    let png = out
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if !png {
        return Err(format!(
            "--out {}: the picture is written as PNG: give a file name ending in .png",
            out.display()
        ));
    }
    if let Some(o) = overlays {
        let (w, h) = (battle.table.width, battle.table.height);
        let mut points: Vec<(&str, crate::rules::geometry::V2)> = Vec::new();
        if let Some((a, b)) = o.tape_line {
            points.extend([("tape", a), ("tape", b)]);
        }
        if let Some((a, _)) = o.los.from {
            points.push(("los", a));
        }
        if let Some(b) = o.los.to {
            points.push(("los", b));
        }
        for (what, p) in points {
            if !p.x.is_finite() || !p.y.is_finite() {
                return Err(format!(
                    "--overlay {what}=: ({}, {}) is not a place: X1:Y1:X2:Y2 are numbers of cm",
                    p.x, p.y
                ));
            }
            if !(0.0..=w).contains(&p.x) || !(0.0..=h).contains(&p.y) {
                return Err(format!(
                    "--overlay {what}=: ({}, {}) is off the table (x 0 to {w}, y 0 to {h} cm)",
                    p.x, p.y
                ));
            }
        }
    }
    if let Some((timeline, at)) = replay
        && *at > timeline.len()
    {
        return Err(format!(
            "--at {at} is past the end of the recording: it has {} actions (--at 0 shows the deployment, --at {} the end)",
            timeline.len(),
            timeline.len()
        ));
    }
    Ok(())
}

/// Point the camera at the requested part of the table.
fn focus(
    req: Res<ShotRequest>,
    viewport: Res<super::camera::TableViewport>,
    mut fit: ResMut<super::camera::CameraFit>,
    camera: Option<Single<(&mut Transform, &mut Projection), With<super::camera::TableCamera>>>,
    window: Option<Single<&Window, With<bevy::window::PrimaryWindow>>>,
) {
    let (Some([x, y, width]), Some(camera), Some(window)) = (req.focus, camera, window) else {
        return;
    };
    let (mut tf, mut proj) = camera.into_inner();
    let size = Vec2::new(window.width(), window.height());
    let view = viewport.0.unwrap_or(Rect::from_corners(Vec2::ZERO, size));
    let scale = width / view.width().max(1.0);
    let off = view.center() - size * 0.5;
    tf.translation = Vec3::new(x - off.x * scale, y + off.y * scale, 100.0);
    if let Projection::Orthographic(o) = proj.as_mut() {
        o.scale = scale;
    }
    fit.pending = false;
    fit.moved = true;
}

/// What a picture shows, enough to tell a drawn table from a blank window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShotStats {
    pub width: u32,
    pub height: u32,
    /// Distinct RGB colours.
    pub colours: usize,
    /// Pixels close to each side's colour.
    pub side_pixels: [usize; 2],
}

impl ShotStats {
    /// Fewer colours than this is a blank or half-drawn window.
    pub const MIN_COLOURS: usize = 64;
    /// Each side's colour must cover at least this many pixels (its troops are on the table).
    pub const MIN_SIDE_PIXELS: usize = 20;

    /// Measure an RGB picture. Side colours are counted only in the central half of its width,
    /// where the table shows, so the panels' swatches and labels cannot stand in for troops.
    pub fn of_rgb(rgb: &[u8], width: u32, height: u32) -> ShotStats {
        Self::of_rgb_with(rgb, width, height, SIDE_RGB)
    }

    /// [`of_rgb`](Self::of_rgb) for another palette's side colours.
    pub fn of_rgb_with(rgb: &[u8], width: u32, height: u32, sides: [[u8; 3]; 2]) -> ShotStats {
        let mut seen = std::collections::HashSet::new();
        let mut side_pixels = [0usize; 2];
        let w = width.max(1) as usize;
        let (x0, x1) = (w / 4, w - w / 4);
        for (i, px) in rgb.chunks_exact(3).enumerate() {
            let c = [px[0], px[1], px[2]];
            seen.insert(c);
            let x = i % w;
            if x < x0 || x >= x1 {
                continue;
            }
            for (s, target) in sides.iter().enumerate() {
                let d: i32 = (0..3).map(|i| (c[i] as i32 - target[i] as i32).abs()).sum();
                if d <= 24 {
                    side_pixels[s] += 1;
                }
            }
        }
        ShotStats {
            width,
            height,
            colours: seen.len(),
            side_pixels,
        }
    }

    /// Why the picture does not look like a drawn battle, if it does not.
    pub fn problem(&self) -> Option<String> {
        if self.colours < Self::MIN_COLOURS {
            return Some(format!(
                "blank picture: {} colours (want at least {})",
                self.colours,
                Self::MIN_COLOURS
            ));
        }
        for s in 0..2 {
            if self.side_pixels[s] < Self::MIN_SIDE_PIXELS {
                return Some(format!(
                    "side {s}'s colour covers {} pixels (want at least {}): no troops drawn",
                    self.side_pixels[s],
                    Self::MIN_SIDE_PIXELS
                ));
            }
        }
        None
    }
}

impl std::fmt::Display for ShotStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}x{}, {} colours, side colours {} / {} pixels",
            self.width, self.height, self.colours, self.side_pixels[0], self.side_pixels[1]
        )
    }
}

/// Read a PNG and measure it.
pub fn check_png(path: &Path) -> Result<ShotStats, String> {
    check_png_with(path, SIDE_RGB)
}

/// [`check_png`] for another palette's side colours.
pub fn check_png_with(path: &Path, sides: [[u8; 3]; 2]) -> Result<ShotStats, String> {
    let (rgb, width, height) = read_png_rgb(path)?;
    Ok(ShotStats::of_rgb_with(&rgb, width, height, sides))
}

/// A PNG's pixels, RGB row by row, with its width and height.
pub fn read_png_rgb(path: &Path) -> Result<(Vec<u8>, u32, u32), String> {
    use bevy::asset::RenderAssetUsages;
    use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let image = Image::from_buffer(
        &bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::default(),
    )
    .map_err(|e| format!("{}: not a PNG: {e}", path.display()))?;
    let rgb = image
        .try_into_dynamic()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .to_rgb8();
    let (width, height) = (rgb.width(), rgb.height());
    Ok((rgb.into_raw(), width, height))
}

/// The capture loop's state.
#[derive(Resource, Default)]
struct ShotState {
    frame: u32,
    in_flight: bool,
    attempts: u32,
    last_hash: Option<u64>,
    /// Captures in a row the same as the one before.
    same: u32,
    last_good: Option<(Vec<u8>, u32, u32)>,
    result: Option<Result<(), String>>,
}

/// Frames to wait before the first capture, between captures, and captures to try at most.
const FIRST: u32 = 30;
const EVERY: u32 = 20;
const MAX_ATTEMPTS: u32 = 60;

/// Captures in a row that must agree before a picture of the whole table that lacks a side's
/// colour is taken. Both sides showing, two are enough; one missing may be its troops not
/// drawn yet, so the picture must stay still longer, but no longer than this: at the end of
/// a game a side may have nothing in view, and waiting for it took the capture loop to its
/// last attempt (six minutes under a software renderer) and the end was never pictured. The
/// check after the capture says what the picture lacks.
const STILL_WITHOUT_A_SIDE: u32 = 4;

/// Whether the capture loop takes a picture: it is not blank (a software renderer's frames
/// are black while shaders compile), and it has been the same for `same + 1` captures in a
/// row, two if it shows what it must (`complete`), else [`STILL_WITHOUT_A_SIDE`].
fn take_picture(stats: &ShotStats, complete: bool, same: u32) -> bool {
    let needed = if complete { 2 } else { STILL_WITHOUT_A_SIDE };
    stats.colours >= ShotStats::MIN_COLOURS && same + 1 >= needed
}

fn drive(
    mut commands: Commands,
    req: Res<ShotRequest>,
    state: Option<ResMut<ShotState>>,
    mut exit: MessageWriter<AppExit>,
    battle: Res<crate::app::BattleState>,
    mut selection: ResMut<crate::ui::common::Selection>,
    (screen, mut next): (Res<State<Screen>>, ResMut<NextState<Screen>>),
) {
    let Some(mut state) = state else {
        commands.init_resource::<ShotState>();
        return;
    };
    let b = &battle.0;
    // A finished game (a replay at its end, `--play` past the end) is pictured on the table,
    // its outcome in the phase bar and the victory panel: the result window would cover the
    // middle of the table, where the picture is checked for both sides' troops.
    if *screen.get() == Screen::Result {
        next.set(Screen::Battle);
    }
    if state.frame == 0 {
        if let Some(o) = &req.overlays {
            commands.insert_resource(o.clone());
        }
        if let Some(name) = &req.select {
            let name = name.to_lowercase();
            if let Some(c) = b
                .commanders
                .iter()
                .find(|c| c.alive() && c.name.to_lowercase().contains(&name))
            {
                *selection = crate::ui::common::Selection {
                    unit: None,
                    commander: Some(c.id),
                };
            } else if let Some(u) = b.alive_units().find(|u| u.name.to_lowercase().contains(&name)) {
                *selection = crate::ui::common::Selection {
                    unit: Some(u.id),
                    commander: None,
                };
            }
        }
    }
    if req.after_actions > 0 {
        if b.actions < req.after_actions && !b.is_over() {
            return;
        }
        if *selection == crate::ui::common::Selection::default()
            && let Some(u) = b.side_units(b.actor()).next()
        {
            selection.unit = Some(u.id);
        }
    }
    if let Some(group) = &req.preview
        && state.frame == 1
    {
        let found = b.legal_actions().into_iter().find(|a| {
            super::panels::orders::group(a).eq_ignore_ascii_case(group)
                && (*selection == crate::ui::common::Selection::default()
                    || super::panels::orders::concerns(a, &selection))
        });
        match found {
            Some(a) => commands.insert_resource(crate::ui::common::PinnedPreview(Some(a))),
            None => eprintln!("volley: no legal {group} action to preview"),
        }
    }
    state.frame += 1;
    if let Some(result) = state.result.take() {
        match result {
            Ok(()) => {
                exit.write(AppExit::Success);
            }
            Err(e) => {
                eprintln!("volley: {e}");
                exit.write(AppExit::error());
            }
        }
        return;
    }
    if state.in_flight || state.frame < FIRST || !(state.frame - FIRST).is_multiple_of(EVERY) {
        return;
    }
    if state.attempts >= MAX_ATTEMPTS {
        // Never stable: save the last picture that was not blank, if any.
        state.result = Some(match state.last_good.take() {
            Some((rgb, wd, ht)) => save(&req.out, rgb, wd, ht),
            None => Err(format!("{}: the window stayed blank", req.out.display())),
        });
        return;
    }
    state.in_flight = true;
    state.attempts += 1;
    commands.spawn(Screenshot::primary_window()).observe(captured);
}

fn captured(ev: On<ScreenshotCaptured>, mut state: ResMut<ShotState>, req: Res<ShotRequest>) {
    state.in_flight = false;
    let rgb = match ev.image.clone().try_into_dynamic() {
        Ok(d) => d.to_rgb8(),
        Err(e) => {
            state.result = Some(Err(format!("cannot read the captured picture: {e}")));
            return;
        }
    };
    let (wd, ht) = (rgb.width(), rgb.height());
    let raw = rgb.into_raw();
    let palette = super::palette::text_palette();
    let stats = ShotStats::of_rgb_with(&raw, wd, ht, super::palette::side_rgb(palette));
    if stats.colours < ShotStats::MIN_COLOURS {
        // Blank: still compiling shaders.
        return;
    }
    // A close-up need not show both sides; the whole table should.
    let complete = req.focus.is_some() || stats.problem().is_none();
    let hash = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        raw.hash(&mut h);
        h.finish()
    };
    state.same = if state.last_hash == Some(hash) {
        state.same + 1
    } else {
        0
    };
    state.last_hash = Some(hash);
    if take_picture(&stats, complete, state.same) {
        state.result = Some(save(&req.out, raw, wd, ht).map(|()| println!("{}: {stats}", req.out.display())));
    } else {
        state.last_good = Some((raw, wd, ht));
    }
}

fn save(path: &Path, rgb: Vec<u8>, wd: u32, ht: u32) -> Result<(), String> {
    let image = Image::new(
        bevy::render::render_resource::Extent3d {
            width: wd,
            height: ht,
            depth_or_array_layers: 1,
        },
        bevy::render::render_resource::TextureDimension::D2,
        rgb.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb,
        bevy::asset::RenderAssetUsages::default(),
    );
    let dynamic = image.try_into_dynamic().map_err(|e| e.to_string())?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    dynamic
        .to_rgb8()
        .save(path)
        .map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(colours: usize, sides: [usize; 2]) -> ShotStats {
        ShotStats {
            width: 1600,
            height: 1000,
            colours,
            side_pixels: sides,
        }
    }

    /// Two captures alike take a picture that shows both sides; one that lacks a side (the
    /// end of a game, its last unit under nothing in view) is taken once it has stayed the
    /// same over four, not waited on to the last attempt; a blank one never.
    #[test]
    fn a_still_picture_is_taken_even_when_a_side_is_out_of_view() {
        let both = stats(3000, [900, 800]);
        let one = stats(3000, [900, 0]);
        let blank = stats(3, [0, 0]);
        assert!(!take_picture(&both, true, 0));
        assert!(take_picture(&both, true, 1));
        assert!(!take_picture(&one, false, 1));
        assert!(!take_picture(&one, false, 2));
        assert!(take_picture(&one, false, 3));
        assert!(!take_picture(&blank, false, 100));
        assert!(!take_picture(&blank, true, 100));
    }
}
