//! `volley screenshot`: open the battle view, wait until the picture is really drawn, save a
//! PNG and quit. Software renderers (llvmpipe under Xvfb) show black frames while the shader
//! pipelines compile, so the picture is captured repeatedly until it is not blank and two
//! captures in a row are identical, then saved.

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
    Ok(ShotStats::of_rgb_with(rgb.as_raw(), rgb.width(), rgb.height(), sides))
}

/// The capture loop's state.
#[derive(Resource, Default)]
struct ShotState {
    frame: u32,
    in_flight: bool,
    attempts: u32,
    last_hash: Option<u64>,
    last_good: Option<(Vec<u8>, u32, u32)>,
    result: Option<Result<(), String>>,
}

/// Frames to wait before the first capture, between captures, and captures to try at most.
const FIRST: u32 = 30;
const EVERY: u32 = 20;
const MAX_ATTEMPTS: u32 = 60;

fn drive(
    mut commands: Commands,
    req: Res<ShotRequest>,
    state: Option<ResMut<ShotState>>,
    mut exit: MessageWriter<AppExit>,
    battle: Res<crate::battle::ecs::BattleState>,
    mut selection: ResMut<crate::ui::common::Selection>,
) {
    let Some(mut state) = state else {
        commands.init_resource::<ShotState>();
        return;
    };
    let b = &battle.0;
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
    // A close-up need not show both sides; the whole table must.
    let blank = if req.focus.is_some() {
        stats.colours < ShotStats::MIN_COLOURS
    } else {
        stats.problem().is_some()
    };
    if blank {
        return;
    }
    let hash = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        raw.hash(&mut h);
        h.finish()
    };
    let stable = state.last_hash == Some(hash);
    state.last_hash = Some(hash);
    if stable {
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
