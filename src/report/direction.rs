//! Directions and moves in a player's words: the compass, a facing, where a place lies from
//! a unit, and a move said relative to the unit ("advance 10 cm", "wheel 45° left"). Shared
//! by the terminal, the window's panels and the report's intent lines.

use crate::rules::geometry::{Pose, V2, wrap_angle};

/// Below this a distance is no move (cm), below `TURN_EPS` degrees no turn.
const MOVE_EPS: f64 = 0.05;
const TURN_EPS: f64 = 0.5;

/// The eight points of the compass for a direction in degrees counter-clockwise from east
/// (the table's convention: 90° is north, towards the top of the map).
pub fn compass(deg: f64) -> &'static str {
    const POINTS: [&str; 8] = [
        "east",
        "north-east",
        "north",
        "north-west",
        "west",
        "south-west",
        "south",
        "south-east",
    ];
    POINTS[((deg.rem_euclid(360.0) / 45.0).round() as usize) % 8]
}

/// A facing in degrees (0 to 359) with its compass point: "90° (north)".
pub fn facing_text(facing_rad: f64) -> String {
    let d = facing_rad.to_degrees().rem_euclid(360.0);
    let shown = d.round() as i64 % 360;
    format!("{shown}° ({})", compass(d))
}

/// A number of cm as the log writes it (the report's words).
pub use crate::report::words::cm;

/// Where `p` lies seen from `from`: "ahead", "ahead-left", "left", "behind-right"…
/// (eight sectors of 45° around the facing).
pub fn relative_bearing(from: &Pose, p: V2) -> &'static str {
    let d = p - from.pos;
    let rel = wrap_angle(d.y.atan2(d.x) - from.facing).to_degrees();
    const SECTORS: [&str; 8] = [
        "ahead",
        "ahead-left",
        "left",
        "behind-left",
        "behind",
        "behind-right",
        "right",
        "ahead-right",
    ];
    SECTORS[((rel.rem_euclid(360.0) / 45.0).round() as usize) % 8]
}

/// A bearing as a place beside something: "in front of", "behind", "left of", "ahead-left of".
pub fn place_phrase(bearing: &str) -> String {
    match bearing {
        "ahead" => "in front of".into(),
        "behind" => "behind".into(),
        other => format!("{other} of"),
    }
}

/// A move from `from` to `to` as a player says it, relative to the unit: "advance 10 cm",
/// "retire 5 cm", "wheel 45° left", "turn 90° right in place", "about face", "advance 7.1 cm
/// obliquely 45° left"…; no destination (see [`move_text`]).
pub fn relative_move(from: &Pose, to: &Pose) -> String {
    let turn = wrap_angle(to.facing - from.facing).to_degrees();
    let about = turn.abs() > 180.0 - TURN_EPS;
    // An about face's move is said in the new facing (the way the unit now walks).
    let frame = if about { to.facing } else { from.facing };
    let d = to.pos - from.pos;
    let fwd = d.x * frame.cos() + d.y * frame.sin();
    let left = -d.x * frame.sin() + d.y * frame.cos();
    let dist = d.len();
    let side = |x: f64| if x > 0.0 { "left" } else { "right" };
    let walk = if dist < MOVE_EPS {
        None
    } else {
        let b = left.atan2(fwd).to_degrees();
        Some(if b.abs() < TURN_EPS {
            format!("advance {} cm", cm(dist))
        } else if b.abs() > 180.0 - TURN_EPS {
            format!("retire {} cm", cm(dist))
        } else if (b.abs() - 90.0).abs() < TURN_EPS {
            format!("sidestep {} cm {}", cm(dist), side(left))
        } else if b.abs() < 90.0 {
            format!("advance {} cm obliquely {:.0}° {}", cm(dist), b.abs(), side(left))
        } else {
            format!(
                "retire {} cm obliquely {:.0}° {}",
                cm(dist),
                180.0 - b.abs(),
                side(left)
            )
        })
    };
    match (turn.abs() < TURN_EPS, about, walk) {
        (true, _, None) => "stay in place".into(),
        (true, _, Some(w)) => w,
        (false, true, None) => "about face".into(),
        (false, true, Some(w)) => format!("about face and {w}"),
        (false, false, None) => format!("turn {:.0}° {} in place", turn.abs(), side(turn)),
        (false, false, Some(_)) => format!(
            "wheel {:.0}° {} (centre {} cm {}, {} cm {})",
            turn.abs(),
            side(turn),
            cm(fwd.abs()),
            if fwd >= 0.0 { "forward" } else { "back" },
            cm(left.abs()),
            side(left)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(x: f64, y: f64, deg: f64) -> Pose {
        Pose::new(V2::new(x, y), deg.to_radians())
    }

    #[test]
    fn straight_moves_are_advances_and_retirements() {
        let from = pose(45.0, 16.0, 90.0);
        assert_eq!(relative_move(&from, &pose(45.0, 26.0, 90.0)), "advance 10 cm");
        assert_eq!(relative_move(&from, &pose(45.0, 13.5, 90.0)), "retire 2.5 cm");
        assert_eq!(relative_move(&from, &pose(45.0, 16.0, 90.0)), "stay in place");
        // Facing east, north is to the left.
        assert_eq!(
            relative_move(&pose(0.0, 0.0, 0.0), &pose(0.0, 3.0, 0.0)),
            "sidestep 3 cm left"
        );
        assert_eq!(
            relative_move(&pose(0.0, 0.0, 0.0), &pose(0.0, -3.0, 0.0)),
            "sidestep 3 cm right"
        );
    }

    #[test]
    fn obliques_say_their_angle_and_side() {
        let from = pose(45.0, 16.0, 90.0);
        // (37.9, 23.1) is 7.1 cm north and 7.1 cm west: 45° to the left of north.
        assert_eq!(
            relative_move(&from, &pose(37.93, 23.07, 90.0)),
            "advance 10 cm obliquely 45° left"
        );
        assert_eq!(
            relative_move(&from, &pose(52.07, 23.07, 90.0)),
            "advance 10 cm obliquely 45° right"
        );
        assert_eq!(
            relative_move(&from, &pose(48.0, 12.0, 90.0)),
            "retire 5 cm obliquely 37° right"
        );
    }

    #[test]
    fn turns_wheels_and_about_faces() {
        let from = pose(45.0, 16.0, 90.0);
        assert_eq!(relative_move(&from, &pose(45.0, 16.0, 135.0)), "turn 45° left in place");
        assert_eq!(relative_move(&from, &pose(45.0, 16.0, 45.0)), "turn 45° right in place");
        assert_eq!(relative_move(&from, &pose(45.0, 16.0, -90.0)), "about face");
        assert_eq!(
            relative_move(&from, &pose(45.0, 11.0, 270.0)),
            "about face and advance 5 cm"
        );
        // A wheel 22° left on the left flank: the centre ends 2.9 cm forward and 0.6 cm left.
        assert_eq!(
            relative_move(&from, &pose(44.4, 18.9, 112.0)),
            "wheel 22° left (centre 2.9 cm forward, 0.6 cm left)"
        );
        assert_eq!(
            relative_move(&from, &pose(45.6, 18.9, 68.0)),
            "wheel 22° right (centre 2.9 cm forward, 0.6 cm right)"
        );
    }

    #[test]
    fn facings_and_bearings_in_words() {
        assert_eq!(facing_text(90f64.to_radians()), "90° (north)");
        assert_eq!(facing_text((-90f64).to_radians()), "270° (south)");
        assert_eq!(facing_text(73f64.to_radians()), "73° (north)");
        assert_eq!(compass(22.0), "east");
        assert_eq!(compass(23.0), "north-east");
        let p = pose(0.0, 0.0, 90.0);
        assert_eq!(relative_bearing(&p, V2::new(0.0, 10.0)), "ahead");
        assert_eq!(relative_bearing(&p, V2::new(-10.0, 10.0)), "ahead-left");
        assert_eq!(relative_bearing(&p, V2::new(10.0, 0.0)), "right");
        assert_eq!(relative_bearing(&p, V2::new(0.0, -10.0)), "behind");
        assert_eq!(cm(10.0), "10");
        assert_eq!(cm(7.07), "7.1");
    }
}
