//! Overlays on demand and the measuring tools: which are on (each toggled by its own
//! rebindable `TableAction`), the points of the line-of-sight check and of the tape, and the
//! pure geometry they draw, taken from the rules' own functions and parameters.
//!
//! - V: the selected unit's 180° arc of vision (out to the visibility distance).
//! - C: the selected unit's 30° fire cone, as deep as its weapon range.
//! - R: the selected commander's command radius, a ring per distance modifier.
//! - L: the line-of-sight check: click two points (the first may be a unit).
//! - M: the measuring tape: drag from a point; the distance in cm shows in the panel.

use super::input::{Controls, TableAction};
use crate::battle::Battle;
use crate::battle::command::distance_penalty;
use crate::battle::state::UnitId;
use crate::rules::geometry::V2;
use crate::rules::los::LosBlock;
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Overlays>().add_systems(
        Update,
        toggle_overlays.run_if(in_state(crate::ui::common::Screen::Battle)),
    );
}

/// Which overlays and tools are on, and the tools' points (table cm).
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct Overlays {
    pub arc: bool,
    pub cone: bool,
    pub command: bool,
    /// The line-of-sight tool: clicks set its ends instead of selecting.
    pub los_tool: bool,
    /// The measuring tape: a drag measures instead of selecting.
    pub tape: bool,
    pub los: LosProbe,
    /// The tape's start and end.
    pub tape_line: Option<(V2, V2)>,
}

/// The line-of-sight check: from a unit (its own arc, visibility and cover rules) or a point,
/// to a point.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LosProbe {
    pub from: Option<(V2, Option<UnitId>)>,
    pub to: Option<V2>,
}

impl Overlays {
    /// A click on the table takes a tool's point instead of selecting.
    pub fn tool_active(&self) -> bool {
        self.los_tool || self.tape
    }

    /// Flip an overlay or tool; the two tools exclude each other and forget their points.
    pub fn toggle(&mut self, a: TableAction) {
        match a {
            TableAction::ToggleArc => self.arc = !self.arc,
            TableAction::ToggleCone => self.cone = !self.cone,
            TableAction::ToggleCommand => self.command = !self.command,
            TableAction::LosTool => {
                self.los_tool = !self.los_tool;
                self.tape = false;
                self.los = LosProbe::default();
                self.tape_line = None;
            }
            TableAction::Tape => {
                self.tape = !self.tape;
                self.los_tool = false;
                self.los = LosProbe::default();
                self.tape_line = None;
            }
            _ => {}
        }
    }

    /// A click of the LOS tool at `p` (on `unit`, if one is there): the first end, the second,
    /// then a fresh first end.
    pub fn los_click(&mut self, p: V2, unit: Option<UnitId>) {
        match (&self.los.from, &self.los.to) {
            (Some(_), None) => self.los.to = Some(p),
            _ => {
                self.los = LosProbe {
                    from: Some((p, unit)),
                    to: None,
                }
            }
        }
    }
}

/// Overlays from a list (`volley screenshot --overlay`): `arc`, `cone`, `command`,
/// `los=X1:Y1:X2:Y2` (the line-of-sight check between two table points, cm) and
/// `tape=X1:Y1:X2:Y2`, separated by commas.
pub fn parse_overlays(spec: &str) -> Result<Overlays, String> {
    let mut o = Overlays::default();
    let line = |v: &str, what: &str| -> Result<(V2, V2), String> {
        let n: Vec<f64> = v
            .split(':')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("{what}= takes X1:Y1:X2:Y2 in cm, not `{v}`"))?;
        match n[..] {
            [a, b, c, d] => Ok((V2::new(a, b), V2::new(c, d))),
            _ => Err(format!("{what}= takes X1:Y1:X2:Y2 in cm, not `{v}`")),
        }
    };
    for item in spec.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        match item.split_once('=') {
            None if item == "arc" => o.arc = true,
            None if item == "cone" => o.cone = true,
            None if item == "command" => o.command = true,
            Some(("los", v)) => {
                let (a, b) = line(v, "los")?;
                o.los_tool = true;
                o.los = LosProbe {
                    from: Some((a, None)),
                    to: Some(b),
                };
            }
            Some(("tape", v)) => {
                o.tape = true;
                o.tape_line = Some(line(v, "tape")?);
            }
            _ => {
                return Err(format!(
                    "unknown overlay `{item}` (arc, cone, command, los=X1:Y1:X2:Y2, tape=X1:Y1:X2:Y2)"
                ));
            }
        }
    }
    Ok(o)
}

/// The toggles that the overlay keys flip.
pub const TOGGLES: [TableAction; 5] = [
    TableAction::ToggleArc,
    TableAction::ToggleCone,
    TableAction::ToggleCommand,
    TableAction::LosTool,
    TableAction::Tape,
];

fn toggle_overlays(
    controls: Option<Single<&ActionState<TableAction>, With<Controls>>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut overlays: ResMut<Overlays>,
) {
    let Some(controls) = controls else { return };
    if egui.is_some_and(|e| e.wants_any_keyboard_input()) {
        return;
    }
    for a in TOGGLES {
        if controls.just_pressed(&a) {
            overlays.toggle(a);
        }
    }
}

/// The distance bands of the command modifier: (outer distance from the commander's base
/// edge, modifier within), from 0 out to `max`, by the rules' own `distance_penalty`.
pub fn command_bands(free: f64, step: f64, per: i32, max: f64) -> Vec<(f64, i32)> {
    let mut out = Vec::new();
    let mut inner = 0.0;
    let mut outer = free;
    while inner < max && step > 0.0 {
        let m = distance_penalty((inner + outer) * 0.5, free, step, per);
        match out.last_mut() {
            Some((r, last)) if *last == m => *r = outer,
            _ => out.push((outer, m)),
        }
        inner = outer;
        outer += step;
    }
    out
}

/// The command bands about a commander, as rings about its centre (radius, modifier).
pub fn commander_rings(b: &Battle, max: f64) -> Vec<(f64, i32)> {
    let r = &b.rules.command;
    let base = b.rules.footprints.commander_diameter * 0.5;
    command_bands(r.free_distance, r.distance_step, r.per_distance, max)
        .into_iter()
        .map(|(d, m)| (d + base, m))
        .collect()
}

/// The tape's length in cm.
pub fn tape_length(a: V2, b: V2) -> f64 {
    a.dist(b)
}

/// The line-of-sight check's answer: `Ok` when nothing blocks, else what does. From a unit the
/// unit's own rules apply (arc, visibility distance, what it looks through); from a point only
/// terrain and stands between the two points count.
pub fn los_check(b: &Battle, probe: &LosProbe) -> Option<Result<(), LosBlock>> {
    let (from, unit) = probe.from?;
    let to = probe.to?;
    Some(match unit {
        Some(u) if b.units.get(u as usize).is_some_and(|u| u.alive()) => b.los.sees_point(&b.sighting(u), to),
        _ => b.los.line_clear(from, to, &[]),
    })
}

/// What blocks a line of sight, in words, with the rule.
pub fn describe_block(b: &Battle, block: &LosBlock) -> String {
    let rule = "BPT Line of Sight";
    match block {
        LosBlock::OutOfArc => format!("behind the unit's front: outside its 180° arc ({rule})"),
        LosBlock::TooFar => format!(
            "farther than the visibility distance of {} cm ({rule})",
            b.los.params().visibility
        ),
        LosBlock::Area(n) => format!("area terrain: {n} ({rule})"),
        LosBlock::Hill(n) => format!("a hill or crest: {n} ({rule})"),
        LosBlock::Obstacle(n) => format!("a wall, fence or hedge: {n} ({rule})"),
        LosBlock::Unit(u) => match b.units.get(*u as usize) {
            Some(u) => format!("a stand of {} ({rule})", u.name),
            None => format!("a unit's stand ({rule})"),
        },
        LosBlock::Hidden => "dug in and not yet revealed (BPT Dug In)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_bands_follow_the_distance_penalty() {
        // BPT note 2's example: 0–20 cm none, 21–40 cm −1, 41–60 cm −2.
        let bands = command_bands(20.0, 20.0, -1, 60.0);
        assert_eq!(bands, vec![(20.0, 0), (40.0, -1), (60.0, -2)]);
        // Each band's modifier is the rules' own at its inside.
        for w in bands.windows(2) {
            let inside = (w[0].0 + w[1].0) * 0.5;
            assert_eq!(distance_penalty(inside, 20.0, 20.0, -1), w[1].1);
            assert_eq!(distance_penalty(w[0].0 - 0.01, 20.0, 20.0, -1), w[0].1);
        }
    }

    #[test]
    fn overlay_lists_parse_and_bad_ones_say_why() {
        let o = parse_overlays("arc, cone,tape=1:2:4:6").unwrap();
        assert!(o.arc && o.cone && !o.command && o.tape);
        assert_eq!(o.tape_line, Some((V2::new(1.0, 2.0), V2::new(4.0, 6.0))));
        let o = parse_overlays("command,los=0:0:10:5").unwrap();
        assert!(o.command && o.los_tool);
        assert_eq!(o.los.to, Some(V2::new(10.0, 5.0)));
        assert!(parse_overlays("fog").unwrap_err().contains("unknown overlay `fog`"));
        assert!(parse_overlays("los=1:2:3").unwrap_err().contains("X1:Y1:X2:Y2"));
    }

    #[test]
    fn the_tape_measures_straight_lines_in_cm() {
        assert_eq!(tape_length(V2::new(0.0, 0.0), V2::new(3.0, 4.0)), 5.0);
        assert_eq!(tape_length(V2::new(1.0, 1.0), V2::new(1.0, 1.0)), 0.0);
    }

    #[test]
    fn the_tools_exclude_each_other_and_los_clicks_cycle() {
        let mut o = Overlays::default();
        o.toggle(TableAction::LosTool);
        assert!(o.los_tool && o.tool_active());
        o.los_click(V2::new(1.0, 1.0), Some(4));
        assert_eq!(o.los.from, Some((V2::new(1.0, 1.0), Some(4))));
        o.los_click(V2::new(5.0, 1.0), None);
        assert_eq!(o.los.to, Some(V2::new(5.0, 1.0)));
        // A third click starts again.
        o.los_click(V2::new(2.0, 2.0), None);
        assert_eq!(o.los.to, None);
        o.toggle(TableAction::Tape);
        assert!(o.tape && !o.los_tool && o.los == LosProbe::default());
        o.toggle(TableAction::Tape);
        assert!(!o.tool_active());
    }
}
