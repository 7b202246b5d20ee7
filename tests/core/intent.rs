//! Issue 65, intent orders: a unit or a formation told what to do ("to Hickory farm", "into
//! range of 12th Virginia", "form line facing", "retire behind", "hold") is given the legal
//! moves that best serve it, each through the one action pipeline, and told what it came to.

use volley::battle::intent::{Aim, Intent, IntentRun, Keep, RunStep};
use volley::battle::state::OrderState;
use volley::battle::{Action, Battle, Phase};
use volley::rules::geometry::{Pose, V2};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn load(map: &str, seed: u64) -> Battle {
    let path = std::path::Path::new(ROOT).join("maps").join(map);
    volley::load_battle(&path, seed).expect("loads").0
}

fn unit(b: &Battle, name: &str) -> u32 {
    b.units.iter().find(|u| u.name == name).expect(name).id
}

/// To the command phase of the first side's first turn.
fn command_phase(b: &mut Battle) {
    while b.phase != Phase::Command {
        b.apply(&Action::EndPhase).expect("phase ends");
    }
}

/// Plays `run` to its end: every action through `Battle::apply`, which must take it (an
/// intent proposes only legal actions); the lines it said.
fn play(b: &mut Battle, run: &mut IntentRun) -> Vec<String> {
    let mut said = Vec::new();
    for _ in 0..200 {
        match run.next(b) {
            RunStep::Order(a) => {
                let evs = b.apply(&a).unwrap_or_else(|r| panic!("{a:?} refused: {r}"));
                said.extend(evs.iter().map(|e| volley::report::line(b, e)));
            }
            RunStep::Act(a, m) => {
                said.push(volley::report::intent::intent_line(b, &run.intent, &m));
                b.apply(&a).unwrap_or_else(|r| panic!("{a:?} refused: {r}"));
            }
            RunStep::Unordered(why) => said.push(why),
            RunStep::Stays(m) => said.push(volley::report::intent::intent_line(b, &run.intent, &m)),
            RunStep::Wait => {
                // The other side's opportunity fire: it passes.
                said.push("(the enemy passes its opportunity fire)".into());
                b.apply(&Action::Pass).expect("a window to pass");
            }
            RunStep::Over(why) => {
                said.push(why);
                return said;
            }
        }
    }
    panic!("the run did not end: {said:#?}");
}

/// Plays `a`, then the other side passes any window it opens (its opportunity fire).
fn act(b: &mut Battle, a: &Action) {
    b.apply(a).unwrap_or_else(|r| panic!("{a:?} refused: {r}"));
    while b.actor() != b.active && !b.is_over() {
        b.apply(&Action::Pass).expect("a window to pass");
    }
}

/// First Battle in the Union's command phase, the 5th New Hampshire with an order of `credits`
/// actions in hand, facing north at (40, 20), and the 12th Virginia facing south `gap` cm in
/// front of it (base edge to base edge), the rest out of the way.
fn facing_off(gap: f64, credits: u32) -> (Battle, u32, u32) {
    let mut b = load("first_battle.ron", 7);
    command_phase(&mut b);
    let nh = unit(&b, "5th New Hampshire");
    let va = unit(&b, "12th Virginia");
    let north = std::f64::consts::FRAC_PI_2;
    let place = |b: &mut Battle, y: f64| {
        let mut a = b.arranging();
        a.unit_mut(nh).pose = Pose::new(V2::new(30.0, 20.0), north);
        a.unit_mut(va).pose = Pose::new(V2::new(30.0, y), -north);
    };
    place(&mut b, 20.0 + gap + 10.0);
    // The poses are the units' own points: set the edge-to-edge gap by measuring it.
    let off = b.unit_distance(nh, va) - gap;
    place(&mut b, 20.0 + gap + 10.0 - off);
    assert!((b.unit_distance(nh, va) - gap).abs() < 1e-6);
    {
        let mut a = b.arranging();
        let hq = a.unit(nh).hq;
        a.cmd.orders.insert(
            nh,
            OrderState {
                count: 1,
                credits,
                ..OrderState::new(hq)
            },
        );
    }
    (b, nh, va)
}

#[test]
fn into_range_moves_a_unit_until_the_rules_let_it_fire() {
    // The army list's rifled musket reaches 20 cm; the enemy 26 cm off is 6 cm beyond it.
    let (mut b, nh, va) = facing_off(26.0, 1);
    assert_eq!(b.weapon_range(b.unit(nh)), 20.0);
    assert!(b.check_fire(nh, va, volley::battle::fire::FireContext::Order).is_err());
    let m = b
        .intent_move(nh, &Intent::IntoRange(va), &Keep::alone())
        .expect("an intent");
    let Some(Action::Move { to, .. }) = m.action.clone() else {
        panic!("a move: {m:?}")
    };
    assert!(m.met(), "{m:?}");
    let e = m.enemy.clone().expect("the enemy said");
    assert!(e.in_range && e.sees && e.distance <= 20.0, "{e:?}");
    // Not farther than it needs: it stops within 2 cm of its range, no closer.
    assert!(e.distance >= 17.9, "{e:?}");
    b.apply(&Action::Move { unit: nh, to }).expect("a legal move");
    // The order gave one action; with a second the rules' own fire check now passes.
    b.arranging().cmd.orders.get_mut(&nh).expect("its order").credits = 1;
    b.check_fire(nh, va, volley::battle::fire::FireContext::Order)
        .expect("in range now");
    let line = volley::report::intent::intent_line(&b, &Intent::IntoRange(va), &m);
    assert!(line.starts_with("5th New Hampshire: advance "), "{line}");
    assert!(
        line.contains("12th Virginia") && line.contains("in sight, in its fire cone and range (20 cm)"),
        "{line}"
    );
}

#[test]
fn an_enemy_out_of_reach_this_move_is_closed_on_as_far_as_the_move_goes() {
    // 40 cm off: a 10 cm move (the row's line move) leaves it 30 cm off, 10 cm beyond range.
    let (b, nh, va) = facing_off(40.0, 1);
    let m = b
        .intent_move(nh, &Intent::IntoRange(va), &Keep::alone())
        .expect("an intent");
    assert!(!m.met());
    let e = m.enemy.clone().expect("the enemy");
    assert!((e.distance - 30.0).abs() < 0.2, "{e:?}");
    let line = volley::report::intent::intent_line(&b, &Intent::IntoRange(va), &m);
    assert!(line.contains("10 cm beyond its range (20 cm)"), "{line}");
}

#[test]
fn charge_reach_closes_to_the_charge_distance_without_contact_and_the_charge_is_then_legal() {
    // DECISIONS/rules file: charge distance 20 cm. 28 cm off, a move of 10 brings it within.
    let (mut b, nh, va) = facing_off(28.0, 2);
    assert_eq!(b.rules.charge.distance, 20.0);
    let m = b
        .intent_move(nh, &Intent::ChargeReach(va), &Keep::alone())
        .expect("an intent");
    let e = m.enemy.clone().expect("the enemy");
    assert!(m.met() && e.distance <= 20.0 && e.distance > 1.0, "{m:?}");
    let a = m.action.clone().expect("a move");
    b.apply(&a).expect("legal");
    let o = b.cmd.orders.get(&nh).cloned().expect("order");
    b.arranging()
        .cmd
        .orders
        .insert(nh, OrderState { may_charge: true, ..o });
    b.check_charge(nh, va).expect("within charge reach now");
}

#[test]
fn to_a_place_steers_for_it_and_stops_on_it() {
    let (mut b, nh, _) = facing_off(60.0, 3);
    let side = b.active;
    let farm = b.find_places(side, "Hickory farm").pop().expect("the objective");
    assert!(matches!(farm.kind, volley::battle::intent::PlaceKind::Objective(_)));
    // Put the unit 16 cm south-west of the objective's edge (radius 10, from the map).
    let r = 10.0;
    let start = farm.pos + V2::new(-1.0, -1.0).norm() * (r + 16.0);
    b.arranging().unit_mut(nh).pose = Pose::new(start, std::f64::consts::FRAC_PI_4);
    let before = b.off_place(&farm, b.unit(nh).pose.pos);
    assert!((before - 16.0).abs() < 1e-6);
    let m = b
        .intent_move(nh, &Intent::To(farm.clone()), &Keep::alone())
        .expect("an intent");
    let a = m.action.clone().expect("a move");
    act(&mut b, &a);
    let after = b.off_place(&farm, b.unit(nh).pose.pos);
    assert!((after - 6.0).abs() < 0.3, "a full 10 cm move towards it: {after}");
    let m = b
        .intent_move(nh, &Intent::To(farm.clone()), &Keep::alone())
        .expect("again");
    act(&mut b, &m.action.clone().expect("a second move"));
    assert!(m.met() && b.off_place(&farm, b.unit(nh).pose.pos) < 0.5);
    // There: at most turns in place to face the nearest enemy (45° an action, as a line
    // wheels), then nothing more to do.
    for _ in 0..4 {
        b.arranging().cmd.orders.get_mut(&nh).expect("its order").credits = 1;
        let m = b
            .intent_move(nh, &Intent::To(farm.clone()), &Keep::alone())
            .expect("again");
        assert!(m.met(), "{m:?}");
        let Some(a) = m.action.clone() else {
            return;
        };
        let Action::Move { to, .. } = a else { panic!("{a:?}") };
        assert!(to.pos.dist(b.unit(nh).pose.pos) < 1e-9, "a turn in place: {to:?}");
        act(&mut b, &a);
    }
    panic!("still turning after four actions");
}

#[test]
fn form_line_facing_deploys_a_column_into_line_then_turns_it() {
    let (mut b, nh, va) = facing_off(40.0, 3);
    {
        let mut a = b.arranging();
        a.unit_mut(nh).formation = volley::rules::formation::Formation::MarchColumn;
        a.unit_mut(nh).pose.facing = 0.0;
    }
    let face = Intent::Face(Aim::Unit(va));
    let m = b.intent_move(nh, &face, &Keep::alone()).expect("an intent");
    assert_eq!(
        m.action,
        Some(Action::Deploy {
            unit: nh,
            deploy: volley::battle::Deploy::Formation(volley::rules::formation::Formation::Line)
        })
    );
    b.apply(&m.action.clone().unwrap()).expect("legal");
    let m = b.intent_move(nh, &face, &Keep::alone()).expect("then");
    let Some(Action::Move { to, .. }) = m.action.clone() else {
        panic!("a turn: {m:?}")
    };
    // A turn towards the enemy due north (it faced east), as far as the move allows: a
    // line's wheel is paid for by its frontage, so it may take more than one action.
    assert!(to.pos.dist(b.unit(nh).pose.pos) < 3.0, "{to:?}");
    assert!(to.facing >= std::f64::consts::FRAC_PI_4 - 1e-9, "{to:?}");
    assert!(m.need_after < m.need_before, "{m:?}");
}

#[test]
fn hold_does_nothing_and_an_unknown_or_friendly_target_is_refused() {
    let (mut b, nh, va) = facing_off(40.0, 1);
    let m = b.intent_move(nh, &Intent::Hold, &Keep::alone()).expect("hold");
    assert_eq!(m.action, None);
    let friend = unit(&b, "7th Wisconsin");
    let r = b
        .intent_move(nh, &Intent::IntoRange(friend), &Keep::alone())
        .unwrap_err();
    assert_eq!(r.reason, "7th Wisconsin is not an enemy");
    // An enemy the side may not know of (hidden set-up) is never steered by.
    b.arranging().unit_mut(va).hidden = true;
    let r = b.intent_move(nh, &Intent::IntoRange(va), &Keep::alone()).unwrap_err();
    assert_eq!(r.reason, "no such enemy is known");
}

#[test]
fn a_hidden_enemy_changes_nothing_an_intent_does() {
    // Where an enemy the side may not know of stands changes no intent's move.
    let (b, nh, _) = facing_off(40.0, 1);
    let side = b.active;
    let farm = b.find_places(side, "Hickory farm").pop().expect("the objective");
    let ga = unit(&b, "21st Georgia");
    let mut hidden_a = b.clone();
    let mut hidden_b = b.clone();
    hidden_a.arranging().unit_mut(ga).hidden = true;
    {
        let mut a = hidden_b.arranging();
        a.unit_mut(ga).hidden = true;
        a.unit_mut(ga).pose = Pose::new(V2::new(20.0, 30.0), 0.0);
    }
    for intent in [Intent::To(farm.clone()), Intent::Behind(farm)] {
        let x = hidden_a.intent_move(nh, &intent, &Keep::alone()).expect("a");
        let y = hidden_b.intent_move(nh, &intent, &Keep::alone()).expect("b");
        assert_eq!(x.action, y.action, "{intent:?}");
    }
}

#[test]
fn retire_behind_ends_on_the_far_side_of_the_feature_from_the_enemy() {
    let (mut b, nh, va) = facing_off(30.0, 3);
    let side = b.active;
    let fence = b.find_places(side, "fence").pop().expect("the farm fence");
    assert!(matches!(fence.kind, volley::battle::intent::PlaceKind::Linear(_)));
    // The fence runs east-west at y = 42; the unit just north of it facing the enemy north.
    {
        let mut a = b.arranging();
        a.unit_mut(nh).pose = Pose::new(V2::new(48.0, 47.0), std::f64::consts::FRAC_PI_2);
        a.unit_mut(va).pose = Pose::new(V2::new(48.0, 75.0), -std::f64::consts::FRAC_PI_2);
    }
    let mut run = IntentRun::new(&b, side, &[nh], Intent::Behind(fence)).expect("a run");
    let said = play(&mut b, &mut run);
    let end = b.unit(nh).pose;
    assert!(end.pos.y < 42.0, "south of the fence: {end:?} {said:#?}");
    // Still facing the enemy's way (within 20°: it turns to face the nearest), and said so.
    assert!((end.facing - std::f64::consts::FRAC_PI_2).abs() < 0.35, "{end:?}");
    assert!(said.iter().any(|l| l.contains("; behind Farm fence;")), "{said:#?}");
    let _ = va;
}

#[test]
fn a_brigade_goes_to_a_place_together_ordered_by_its_own_commander() {
    let mut b = load("gettysburg.ron", 11);
    command_phase(&mut b);
    let side = b.active;
    let lane = b.commanders.iter().find(|c| c.name.ends_with("Lane")).expect("Lane").id;
    let units: Vec<u32> = b.side_units(side).filter(|u| u.hq == lane).map(|u| u.id).collect();
    assert_eq!(units.len(), 5);
    let ridge = b.find_places(side, "McPherson").pop().expect("the ridge");
    let spread = |b: &Battle| {
        let xs: Vec<V2> = units.iter().map(|&u| b.unit(u).pose.pos).collect();
        let mid = xs
            .iter()
            .fold(V2::new(0.0, 0.0), |a, p| a + *p * (1.0 / xs.len() as f64));
        (mid, xs.iter().map(|p| p.dist(mid)).fold(0.0, f64::max))
    };
    let (mid0, spread0) = spread(&b);
    let before = b.off_place(&ridge, mid0);
    let mut run = IntentRun::new(&b, side, &units, Intent::To(ridge.clone())).expect("a run");
    let said = play(&mut b, &mut run);
    assert!(said[0].starts_with("Brig. Gen. James Lane orders "), "{said:#?}");
    let (mid1, spread1) = spread(&b);
    if said[0].contains("order issued") {
        // Nearer the ridge, each unit as far as the slowest (within 1 cm), the brigade no
        // wider than it was (within 2 cm).
        assert!(b.off_place(&ridge, mid1) < before - 5.0, "{said:#?}");
        assert!(spread1 <= spread0 + 2.0, "{spread0} → {spread1}");
    } else {
        assert_eq!(mid0, mid1);
    }
    // Every step was an action the rules took (`play` panics otherwise) and the run is the
    // same played again from the same battle and seed.
    let mut again = load("gettysburg.ron", 11);
    command_phase(&mut again);
    let mut run = IntentRun::new(&again, side, &units, Intent::To(ridge)).expect("a run");
    assert_eq!(play(&mut again, &mut run), said);
    assert_eq!(again.state_hash(), b.state_hash());
}

#[test]
fn a_drag_beyond_the_move_or_with_a_wobble_snaps_to_the_nearest_legal_move() {
    use volley::battle::intent::SnapKind;
    // The 5th New Hampshire, an order in hand, faces north; its line moves 10 cm (the list).
    let (b, nh, _) = facing_off(60.0, 1);
    let from = b.unit(nh).pose;
    let north = std::f64::consts::FRAC_PI_2;
    // 6 cm straight ahead: legal as dragged.
    let ahead = Pose::new(from.pos + V2::new(0.0, 6.0), north);
    assert_eq!(b.snap_move(nh, ahead), Some((ahead, SnapKind::AsDragged)));
    // 12 cm ahead: beyond its 10 cm; snapped to the longest legal part of it.
    let far = Pose::new(from.pos + V2::new(0.0, 12.0), north);
    assert!(b.check_ordered_move(nh, far).is_err());
    let (q, kind) = b.snap_move(nh, far).expect("a legal move near");
    b.check_ordered_move(nh, q).expect("the snapped move is legal");
    assert!(
        q.pos.dist(from.pos) <= 10.0 + 1e-9 && q.pos.dist(from.pos) >= 9.5,
        "{q:?} {kind:?}"
    );
    // 8 cm ahead with a 30° turn and a hand's wobble to the side: refused ("wheel and oblique
    // in the same move"); snapped to a legal move near it, said which.
    let wobbly = Pose::new(from.pos + V2::new(-1.5, 8.0), north + 30f64.to_radians());
    assert!(b.check_ordered_move(nh, wobbly).is_err());
    let (q, kind) = b.snap_move(nh, wobbly).expect("a legal move near");
    b.check_ordered_move(nh, q).expect("legal");
    assert_ne!(kind, SnapKind::AsDragged);
    assert!(q.pos.dist(wobbly.pos) < 8.0, "{q:?} {kind:?}");
    // A unit with no order has no legal move to snap to.
    let wi = unit(&b, "7th Wisconsin");
    let p = b.unit(wi).pose;
    assert_eq!(b.snap_move(wi, Pose::new(p.pos + V2::new(0.0, 3.0), p.facing)), None);
}

#[test]
fn a_formation_with_two_actions_a_unit_counts_its_first_move_on_the_second() {
    // Two regiments, each with two actions of an order, 40 cm from the Hickory farm's edge:
    // each round brings each 10 cm (the line's move) nearer, and the second round says so
    // (each keeps its place in the formation as the run began).
    let (mut b, nh, _) = facing_off(80.0, 2);
    let side = b.active;
    let wi = unit(&b, "7th Wisconsin");
    let farm = b.find_places(side, "Hickory farm").pop().expect("the objective");
    let north = std::f64::consts::FRAC_PI_2;
    {
        let mut a = b.arranging();
        a.unit_mut(nh).pose = Pose::new(farm.pos + V2::new(-8.0, -50.0), north);
        a.unit_mut(wi).pose = Pose::new(farm.pos + V2::new(8.0, -50.0), north);
        let o = a.cmd.orders.get(&nh).cloned().expect("its order");
        a.cmd.orders.insert(wi, o);
    }
    let mut run = IntentRun::new(&b, side, &[nh, wi], Intent::To(farm)).expect("a run");
    let mut short: Vec<(u32, f64)> = Vec::new();
    for _ in 0..20 {
        match run.next(&b) {
            RunStep::Act(a, m) => {
                short.push((m.unit, m.place.clone().expect("the farm").1));
                act(&mut b, &a);
            }
            RunStep::Over(_) => break,
            RunStep::Wait => b.apply(&Action::Pass).map(|_| ()).expect("a window to pass"),
            _ => {}
        }
    }
    for u in [nh, wi] {
        let said: Vec<f64> = short.iter().filter(|(x, _)| *x == u).map(|(_, d)| *d).collect();
        assert_eq!(said.len(), 2, "two moves: {short:?}");
        assert!(
            (said[0] - said[1] - 10.0).abs() < 1.0,
            "each move 10 cm nearer: {said:?}"
        );
    }
}

/// Issue 65, formations by name at scale: a formation history named is found by its name
/// ("Iron Brigade": the scenario's `formation`), a brigade of guns is "artillery", and on
/// Gettysburg the terminal's `units` is a formation a line (a screenful), `units iron` the
/// brigade's regiments, `l heth` Heth's division brigade by brigade with each commander's
/// formation order first.
#[test]
fn formations_are_named_found_and_folded_at_gettysburg() {
    use volley::report::intent::formation_words;
    use volley::terminal::view::units_asked;
    let mut b = load("gettysburg.ron", 1);
    let cmd = |b: &Battle, key: &str| b.commanders.iter().find(|c| c.key == key).expect(key).id;
    let words = |b: &Battle, key: &str| formation_words(b, b.commander(cmd(b, key)));
    assert_eq!(words(&b, "us_meredith"), "Iron Brigade");
    assert_eq!(words(&b, "cs_pegram"), "Pegram's artillery");
    assert_eq!(words(&b, "us_buford"), "Buford's division");
    assert_eq!(words(&b, "cs_archer"), "Archer's brigade");
    // Typed by its name, the Iron Brigade is Meredith's five regiments.
    let typed = volley::terminal::intent::parse(&b, 0, "iron: hold").expect("the Iron Brigade is named");
    assert_eq!(typed.who, "Iron Brigade");
    let iron = [
        "19th Indiana",
        "24th Michigan",
        "7th Wisconsin",
        "2nd Wisconsin",
        "6th Wisconsin",
    ];
    let mut named: Vec<u32> = iron.iter().map(|n| unit(&b, n)).collect();
    let mut got = typed.units.clone();
    named.sort();
    got.sort();
    assert_eq!(got, named);
    // `units`: a formation a line, no longer than a screen; the whole list is longer.
    let folded = units_asked(&b, 0, "");
    assert!(folded.len() <= 60, "{}", folded.join("\n"));
    assert!(units_asked(&b, 0, "all").len() > 60);
    let line = folded
        .iter()
        .find(|l| {
            l.contains(
                "Iron Brigade (Brig. Gen. Solomon Meredith), Wadsworth's division: command 7; 5 units, 24 of 24 stands",
            )
        })
        .unwrap_or_else(|| panic!("{}", folded.join("\n")));
    assert!(!line.contains("at ("), "{line}");
    assert!(
        folded
            .iter()
            .any(|l| l.contains("Pegram's artillery: 5 units you know of")),
        "{}",
        folded.join("\n")
    );
    let brigade = units_asked(&b, 0, "iron").join("\n");
    for n in iron {
        assert!(brigade.contains(n), "{brigade}");
    }
    assert!(!brigade.contains("56th Pennsylvania"), "{brigade}");
    // A division: each brigade under its heading, each regiment once.
    let division = units_asked(&b, 0, "wadsworth").join("\n");
    assert_eq!(division.matches("19th Indiana").count(), 1, "{division}");
    assert!(division.contains("-- Cutler's brigade (Brig. Gen. Lysander Cutler), Wadsworth's division --"));
    // A word naming several commanders stands for none's formation.
    let several = units_asked(&b, 0, "brig").join("\n");
    assert!(
        !several.contains("19th Indiana") && several.contains("@ Brig. Gen. Solomon Meredith"),
        "{several}"
    );
    // `l heth`: the Confederates' command phase, Heth's division brigade by brigade.
    command_phase(&mut b);
    assert_eq!(b.actor(), 1);
    let legal = b.legal_actions();
    let listed = volley::terminal::list_lines(&b, &legal, Some("heth"), true);
    let text = listed.join("\n");
    assert!(
        text.contains("`heth` names Heth's division (Maj. Gen. Henry Heth)"),
        "{text}"
    );
    for h in [
        "-- Heth's division (Maj. Gen. Henry Heth) --",
        "-- Archer's brigade (Brig. Gen. James Archer), Heth's division --",
        "-- Pegram's artillery (Maj. William Pegram), Heth's division --",
    ] {
        assert!(text.contains(h), "{h}: {text}");
    }
    assert!(!text.contains("Pender"), "{text}");
    // Under Archer, his order to the whole brigade before his orders to one regiment.
    let archer: Vec<&String> = listed
        .iter()
        .skip_while(|l| !l.starts_with("-- Archer's"))
        .filter(|l| l.contains("order: Brig. Gen. James Archer"))
        .collect();
    assert!(archer.len() > 2, "{text}");
    assert!(archer[0].matches(", ").count() >= 3, "{}", archer[0]);
    assert!(archer[1..].iter().all(|l| !l.contains("Alabama, ")), "{text}");
}

/// Plays the command phase the battle is in with `agent` for its active side (the other side
/// passing any window): every action the agent chose, as it chose them.
fn agent_command_phase(b: &mut Battle, agent: &mut dyn volley::agents::Agent) -> Vec<Action> {
    let side = b.active;
    let mut chosen = Vec::new();
    for _ in 0..400 {
        if b.phase != Phase::Command || b.active != side {
            break;
        }
        let legal = b.legal_actions();
        if b.actor() != side {
            b.apply(&Action::Pass).expect("the other side passes its window");
            continue;
        }
        let a = agent.choose_action(b, &legal);
        b.apply(&a).unwrap_or_else(|r| panic!("{a:?} refused: {r}"));
        chosen.push(a);
    }
    chosen
}

/// Issue 65, the computer commands by intent: the `general` agent plays a Gettysburg command
/// phase brigade by brigade through the same intent engine (its orders are to whole brigades,
/// its moves exact poses the action list does not hold, each taken by the rules), says its
/// plan, and plays the same for the same battle.
#[test]
fn the_general_commands_its_brigades_by_intent() {
    let mut b = load("gettysburg.ron", 7);
    command_phase(&mut b);
    let side = b.active;
    let start = b.clone();
    let mut general = volley::agents::by_name("general", 7, side).expect("the general");
    let mut moves_off_list = 0;
    let mut orders = 0;
    let mut probe = start.clone();
    let chosen = agent_command_phase(&mut b, general.as_mut());
    assert!(chosen.last() == Some(&Action::EndPhase), "{chosen:?}");
    // Each of its choices again, on the state it chose it in: a brigade's order names all
    // the brigadier's own units; a move is often a pose of its own.
    for a in &chosen {
        while probe.actor() != side {
            probe.apply(&Action::Pass).expect("pass");
        }
        let legal = probe.legal_actions();
        match a {
            Action::Order { commander, units, .. } => {
                orders += 1;
                let own = probe.units.iter().filter(|u| u.hq == *commander && u.alive()).count();
                assert_eq!(units.len(), own, "{a:?}");
            }
            Action::Move { .. } if !legal.contains(a) => moves_off_list += 1,
            _ => {}
        }
        probe.apply(a).expect("taken");
    }
    assert!(orders >= 5, "{orders} brigade orders: {chosen:?}");
    assert!(moves_off_list > 0, "no intent move: {chosen:?}");
    let why = general.reason().unwrap_or_default();
    assert!(!why.is_empty());
    // The same battle, the same choices.
    let mut again = start.clone();
    let mut other = volley::agents::by_name("general", 7, side).expect("the general");
    assert_eq!(agent_command_phase(&mut again, other.as_mut()), chosen);
    assert_eq!(again.state_hash(), b.state_hash());
}

/// The general's plan and moves use only what its side may know: an enemy unit hidden from
/// it (BPT "Scouting Cavalry"'s hidden set-up) moved elsewhere changes none of its choices.
#[test]
fn the_general_never_steers_by_a_hidden_enemy() {
    let mut b = load("gettysburg.ron", 3);
    command_phase(&mut b);
    let side = b.active;
    let enemy: Vec<u32> = b.side_units(1 - side).map(|u| u.id).collect();
    let (seen, hidden) = enemy.split_at(enemy.len() / 2);
    let mut a = b.clone();
    let mut c = b.clone();
    for &h in hidden {
        a.arranging().unit_mut(h).hidden = true;
        let mut w = c.arranging();
        let u = w.unit_mut(h);
        u.hidden = true;
        // Right in front of the general's lines, where it would otherwise go for it.
        u.pose = Pose::new(V2::new(120.0, 20.0 + h as f64 % 140.0), 0.0);
    }
    assert!(!seen.is_empty());
    let mut g1 = volley::agents::by_name("general", 3, side).expect("general");
    let mut g2 = volley::agents::by_name("general", 3, side).expect("general");
    let first = |b: &Battle, g: &mut Box<dyn volley::agents::Agent>| {
        let mut b = b.clone();
        let mut out = Vec::new();
        for _ in 0..25 {
            if b.actor() != side || b.phase != Phase::Command {
                break;
            }
            let legal = b.legal_actions();
            let a = g.choose_action(&b, &legal);
            out.push((a.clone(), g.reason()));
            if b.apply(&a).is_err() {
                break;
            }
        }
        out
    };
    assert_eq!(first(&a, &mut g1), first(&c, &mut g2));
}

/// Gettysburg (seed 11) at the Confederates' first command phase: the side, Lane, his
/// brigade and the Lutheran Seminary, far off.
fn lane_and_the_seminary() -> (Battle, usize, u32, Vec<u32>, volley::battle::intent::Place) {
    let mut b = load("gettysburg.ron", 11);
    command_phase(&mut b);
    let side = b.active;
    let lane = b.commanders.iter().find(|c| c.name.ends_with("Lane")).expect("Lane").id;
    let units: Vec<u32> = b.side_units(side).filter(|u| u.hq == lane).map(|u| u.id).collect();
    let seminary = b.find_places(side, "Seminary").pop().expect("the Seminary");
    (b, side, lane, units, seminary)
}

/// A brigade whose actions are spent short of the place is given a successive order (at its
/// -1) for the units not there, as a player would, until a roll fails (BPT "Successive
/// Orders": a failed order ends the commander's orders for the turn).
#[test]
fn a_short_brigade_is_given_successive_orders_until_a_roll_fails() {
    let (mut b, side, lane, units, seminary) = lane_and_the_seminary();
    let before = b.off_place(&seminary, b.unit(units[0]).pose.pos);
    // Two rolls that pass (3 and 4), then one that fails (11).
    super::common::script(&mut b, &[2, 1, 2, 2, 6, 5]);
    let mut run = IntentRun::new(&b, side, &units, Intent::To(seminary.clone())).expect("a run");
    let said = play(&mut b, &mut run);
    let orders: Vec<&String> = said
        .iter()
        .filter(|l| l.starts_with("Brig. Gen. James Lane orders "))
        .collect();
    assert_eq!(orders.len(), 3, "{said:#?}");
    assert!(
        orders[0].contains("order issued") && !orders[0].contains("successive"),
        "{}",
        orders[0]
    );
    assert!(
        orders[1].contains("-1 for successive order") && orders[1].contains("order issued"),
        "{}",
        orders[1]
    );
    assert!(orders[2].contains("failed"), "{}", orders[2]);
    assert!(b.cmd.done.contains(&lane));
    // More ground than one order's move (10 cm).
    assert!(
        b.off_place(&seminary, b.unit(units[0]).pose.pos) < before - 15.0,
        "{said:#?}"
    );
}

/// To `side`'s next command phase (every phase ended, every window passed).
fn next_command_phase(b: &mut Battle, side: usize) {
    let turn = b.player_turn;
    for _ in 0..400 {
        if b.phase == Phase::Command && b.active == side && b.player_turn != turn && b.actor() == side {
            return;
        }
        let legal = b.legal_actions();
        let a = if legal.contains(&Action::Pass) {
            Action::Pass
        } else {
            Action::EndPhase
        };
        b.apply(&a).unwrap_or_else(|r| panic!("{a:?}: {r}"));
    }
    panic!("no next command phase");
}

/// An intent left short stands: offered again in its side's next command phase (not the
/// other side's, not in the turn it was played), carried on by a new run with a new roll, and
/// dropped once met or replaced; a hold never stands.
#[test]
fn an_intent_left_short_stands_until_the_next_command_phase() {
    use volley::battle::intent::{Standing, Tally};
    let (mut b, side, _, units, seminary) = lane_and_the_seminary();
    // One order passes, the successive one fails: far short of the Seminary.
    super::common::script(&mut b, &[2, 1, 6, 5]);
    let mut run = IntentRun::new(&b, side, &units, Intent::To(seminary.clone())).expect("a run");
    let mut tally = Tally::new(&units);
    let said = play(&mut b, &mut run);
    for &u in &units {
        tally.step(u, true, false);
    }
    let mut standing = Standing::default();
    standing.ended(&b, &run, "Lane's brigade", &tally);
    assert_eq!(standing.0.len(), 1, "{said:#?}");
    assert!(standing.offered(&b, side).is_empty(), "not again in the same turn");
    assert_eq!(
        tally.closing("Lane's brigade", &run.intent, ""),
        "Lane's brigade: 5 of 5 moved, 0 of 5 there."
    );
    next_command_phase(&mut b, side);
    assert!(standing.offered(&b, 1 - side).is_empty(), "the other side's");
    let offered = standing.offered(&b, side);
    assert_eq!(offered.len(), 1);
    assert_eq!(Standing::words(&b, &offered[0]), "Lane's brigade to Lutheran Seminary");
    assert_eq!(offered[0].units, units);
    // Carried on: a new order (a new roll) and moves for the same units.
    let before = b.off_place(&seminary, b.unit(units[0]).pose.pos);
    super::common::script(&mut b, &[2, 1, 6, 5]);
    let mut again = IntentRun::new(&b, side, &offered[0].units, offered[0].intent.clone()).expect("a run");
    let said = play(&mut b, &mut again);
    assert!(
        said[0].starts_with("Brig. Gen. James Lane orders ") && said[0].contains("order issued"),
        "{said:#?}"
    );
    assert!(b.off_place(&seminary, b.unit(units[0]).pose.pos) < before - 5.0);
    // Met, it is dropped; a hold for the same units replaces it and does not stand.
    let mut met = Tally::new(&units);
    for &u in &units {
        met.step(u, true, true);
    }
    standing.ended(&b, &again, "Lane's brigade", &met);
    assert!(standing.0.is_empty());
    standing.ended(&b, &run, "Lane's brigade", &tally);
    let hold = IntentRun::new(&b, side, &units, Intent::Hold).expect("hold");
    standing.ended(&b, &hold, "Lane's brigade", &Tally::new(&units));
    assert!(standing.0.is_empty());
}
