//! BPT "Consolidate", the winner's choice: "Each unit may move up to 5cm in the facing
//! direction, but none may move closer than 3cm to a visible enemy unit. Units may change the
//! direction they are facing."

use super::common::*;
use volley::battle::event::families::*;
use volley::battle::event::{Event, KnockOut};
use volley::battle::state::{Phase, Step};
use volley::battle::{Action, Battle};
use volley::rules::geometry::{Pose, V2};
use volley::rules::params::Cover;
use volley::rules::terrain::{Area, AreaKind, Polygon, Terrain};

const RIFLES: &str = "regular_infantry_rifled";

/// The Confederate line (the units of side 0 come first: the Union's two lines are 0 and 1).
const C: u32 = 2;

/// A wood whose southern edge runs 1 cm south of the Confederate line's centre (y = 51.51): the
/// line stands just inside it, its front a quarter centimetre from the open.
fn wood() -> Terrain {
    Terrain {
        areas: vec![Area {
            kind: AreaKind::Woods,
            name: "wood".into(),
            outline: Polygon(vec![
                V2::new(60.0, 50.51),
                V2::new(140.0, 50.51),
                V2::new(140.0, 90.0),
                V2::new(60.0, 90.0),
            ]),
        }],
        ..Default::default()
    }
}

/// The Union line (unit 0, facing north) has charged the Confederate line (unit `C`, facing
/// south, bases touching); the Union's 9 dice all miss and the Confederates' 8 all hit: the
/// Union is beaten by double and knocked out, and the Confederates consolidate.
fn defenders_win(terrain: Terrain) -> Battle {
    // A second Union line far off (unit 1), so the Union is not destroyed by the loss.
    let mut b = in_contact_with(&[u(0, RIFLES, 4, 30.0, 20.0, 90.0)], terrain);
    assert_eq!(b.combats[0].target, C);
    let mut faces = vec![1; 9];
    faces.extend([6; 8]);
    faces.extend([1; 10]);
    script(&mut b, &faces);
    let ev = b.apply(&Action::EndPhase).unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Morale(MoraleEvent::KnockedOut {
            unit: 0,
            why: KnockOut::ChargeLost
        })
    )));
    b
}

fn ahead(b: &Battle, unit: u32, d: f64, turn_deg: f64) -> Pose {
    let p = b.unit(unit).pose;
    Pose::new(p.pos + p.forward() * d, p.facing + turn_deg.to_radians())
}

#[test]
fn a_winner_just_inside_a_wood_may_stay_in_it() {
    let mut b = defenders_win(wood());
    // The choice is the winner's: the charge phase waits for it.
    assert_eq!(b.step, Step::Consolidate { unit: C, queue: vec![] });
    assert_eq!((b.phase, b.actor()), (Phase::Charge, 1));
    let legal = b.legal_actions();
    assert!(legal.contains(&Action::Pass), "staying is offered: {legal:?}");
    assert!(
        legal.iter().any(|a| matches!(a, Action::Consolidate { unit: C, .. })),
        "{legal:?}"
    );
    let from = b.unit(C).pose;
    assert_eq!(b.ground_cover_at(from.pos), Cover::Soft, "in the wood");
    // Straight ahead the way it had to go before: out of the wood.
    let reach = b.consolidation_reach(C);
    assert!(reach > 0.9, "{reach}");
    assert_eq!(b.ground_cover_at(ahead(&b, C, reach, 0.0).pos), Cover::Open);
    let ev = b.apply(&Action::Pass).unwrap();
    assert!(ev.iter().any(
        |e| matches!(e, Event::Melee(MeleeEvent::Consolidated { unit: C, from: f, to }) if *f == from && *to == from)
    ));
    assert_eq!(b.unit(C).pose, from, "it stays");
    assert_eq!(b.ground_cover_at(b.unit(C).pose.pos), Cover::Soft, "still in the wood");
    // The phase went on: the end phase, and the Confederates' turn.
    assert_eq!((b.step.clone(), b.active), (Step::Open, 1));
}

#[test]
fn a_consolidation_may_turn_and_move_straight_ahead_up_to_5_cm() {
    let mut b = defenders_win(Terrain::default());
    let from = b.unit(C).pose;
    assert!((b.consolidation_reach(C) - 5.0).abs() < 1e-9, "5 cm on open ground");
    // 2 cm ahead, then facing 90° left (east, for a line facing south).
    let to = ahead(&b, C, 2.0, 90.0);
    let ev = b.apply(&Action::Consolidate { unit: C, to }).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Melee(MeleeEvent::Consolidated { unit: C, .. })))
    );
    let now = b.unit(C).pose;
    assert!((now.pos.dist(from.pos) - 2.0).abs() < 1e-9);
    assert!((now.pos.y - (from.pos.y - 2.0)).abs() < 1e-9, "south, the way it faced");
    assert!((now.facing - to.facing).abs() < 1e-12, "turned");
    assert_eq!(b.step, Step::Open);
    // A turn in place is a consolidation too.
    let mut c = defenders_win(Terrain::default());
    let about = ahead(&c, C, 0.0, 180.0);
    c.apply(&Action::Consolidate { unit: C, to: about }).unwrap();
    assert_eq!(c.unit(C).pose.pos, from.pos);
    assert!((c.unit(C).pose.facing - about.facing).abs() < 1e-12);
}

#[test]
fn a_consolidation_longer_than_5_cm_or_not_straight_ahead_is_refused() {
    let mut b = defenders_win(Terrain::default());
    let before = b.clone();
    let far = ahead(&b, C, 5.5, 0.0);
    let r = b.apply(&Action::Consolidate { unit: C, to: far }).unwrap_err();
    assert_eq!(r.rule, "BPT Consolidate");
    assert!(r.reason.contains("up to 5 cm"), "{r}");
    // Sideways is not "in the facing direction".
    let p = b.unit(C).pose;
    let side = Pose::new(p.pos + V2::new(2.0, 0.0), p.facing);
    let r = b.apply(&Action::Consolidate { unit: C, to: side }).unwrap_err();
    assert_eq!(r.rule, "BPT Consolidate");
    // Another side's unit, or another action, is not this window's.
    assert_eq!(
        b.apply(&Action::Consolidate { unit: 0, to: far }).unwrap_err().rule,
        "BPT Consolidate"
    );
    assert_eq!(b.apply(&Action::EndPhase).unwrap_err().rule, "BPT Consolidate");
    assert_eq!(b.state_hash(), before.state_hash(), "a refusal changes nothing");
    // 5 cm exactly is the book's distance.
    let full = ahead(&b, C, 5.0, 0.0);
    b.apply(&Action::Consolidate { unit: C, to: full }).unwrap();
}

#[test]
fn a_consolidation_stops_3_cm_from_an_enemy() {
    // Another Union line 5 cm south of the Confederates' front: the way ahead ends 3 cm from it.
    let mut b = defenders_win(Terrain::default());
    let front = b.unit(C).pose.pos.y - 0.75;
    b.arranging().unit_mut(0).knocked_out = false;
    b.arranging().unit_mut(0).pose = Pose::new(V2::new(100.0, front - 5.0 - 0.75), 90.0f64.to_radians());
    b.refresh_geometry();
    assert!((b.unit_distance(0, C) - 5.0).abs() < 1e-6, "{}", b.unit_distance(0, C));
    let reach = b.consolidation_reach(C);
    assert!((1.75..=2.0).contains(&reach), "{reach}");
    let r = b
        .validate(&Action::Consolidate {
            unit: C,
            to: ahead(&b, C, 2.5, 0.0),
        })
        .unwrap_err();
    assert_eq!(r.rule, "BPT Consolidate");
    assert!(r.reason.contains("3 cm from the enemy"), "{r}");
}

/// "Units may change the direction they are facing": the scheduler's winner turns about to
/// face an enemy at its rear within charge distance (in Gettysburg's games such a winner, left
/// facing the way it fought, was charged in the rear at once and lost by double), and still
/// goes the whole way ahead; turned half-way (90°), the enemy would be at its flank.
#[test]
fn the_scheduler_turns_its_winner_to_face_an_enemy_at_its_rear() {
    for level in ["scheduler-easy", "scheduler"] {
        let mut b = defenders_win(Terrain::default());
        // The Union's second line 15 cm behind the Confederates (north of them), facing them.
        b.arranging().unit_mut(1).pose = Pose::new(V2::new(100.0, 66.5), 270.0f64.to_radians());
        b.refresh_geometry();
        let enemies = [1];
        let straight = ahead(&b, C, 5.0, 0.0);
        assert_eq!(b.flank_threats_at(C, straight, &enemies), 1, "at its rear");
        assert_eq!(
            b.flank_threats_at(C, ahead(&b, C, 5.0, 90.0), &enemies),
            1,
            "at its flank"
        );
        let about = ahead(&b, C, 5.0, 180.0);
        assert_eq!(b.flank_threats_at(C, about, &enemies), 0, "in its front");
        let legal = b.legal_actions();
        let mut agent = volley::agents::by_name(level, 1, 1).unwrap();
        let i = agent.choose(&b, &legal);
        let Action::Consolidate { unit: C, to } = legal[i] else {
            panic!("{level}: {:?}", legal[i]);
        };
        assert!(to.pos.dist(about.pos) < 1e-9, "{level}: the whole way ahead, {to:?}");
        let turned = volley::rules::geometry::wrap_angle(to.facing - about.facing);
        assert!(turned.abs() < 1e-9, "{level}: about, {to:?}");
        let why = agent.reason().unwrap_or_default();
        assert!(why.contains("flank or rear"), "{level}: {why}");
    }
}

#[test]
fn the_scheduler_stays_in_its_wood_and_consolidates_ahead_in_the_open() {
    for level in ["scheduler-easy", "scheduler"] {
        let b = defenders_win(wood());
        let legal = b.legal_actions();
        let mut agent = volley::agents::by_name(level, 1, 1).unwrap();
        let i = agent.choose(&b, &legal);
        assert_eq!(legal[i], Action::Pass, "{level}: stays in soft cover");
        let b = defenders_win(Terrain::default());
        let legal = b.legal_actions();
        let i = agent.choose(&b, &legal);
        assert_eq!(
            legal[i],
            Action::Consolidate {
                unit: C,
                to: ahead(&b, C, 5.0, 0.0)
            },
            "{level}: the whole way straight ahead"
        );
    }
    // The random players answer it too.
    for level in ["random", "eager", "greedy"] {
        let mut b = defenders_win(Terrain::default());
        let mut agent = volley::agents::by_name(level, 3, 1).unwrap();
        let legal = b.legal_actions();
        let i = agent.choose(&b, &legal);
        b.apply(&legal[i]).unwrap();
        assert_eq!(b.step, Step::Open, "{level}");
    }
}
