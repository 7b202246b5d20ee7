//! The player view (issue 63, "one player view per side"): over random states of every bundled
//! scenario with random optional rules, no unit a side may not know of reaches that side,
//! neither through its `PlayerView` nor through the readers that show or act on it: the
//! terminal's `units` and `map`, the window's tooltip, the agents' chosen actions, the
//! owned snapshot a server would send ([`Snapshot`], serialised and read back; every field of
//! it, on the states played and on the same states with every field it filters filled with
//! every unit, [`decorate`]) and the events a side may see ([`events::visible`]).

use super::common::*;
use proptest::prelude::*;
use volley::battle::event::families::*;
use volley::battle::reasons::PassReason;
use volley::battle::state::{Combat, Step, UnitId};
use volley::battle::works::{Bridging, Task};
use volley::battle::{Action, Battle, Event, Purpose};
use volley::rules::geometry::V2;
use volley::rules::switches::{Switch, Switches};
use volley::terminal::view as tview;
use volley::terminal::words::cm;
use volley::view::snapshot::Snapshot;
use volley::view::{PlayerView, Viewer, events};

/// The rule, stated here apart from the view: a side knows its own units; of the enemy, every
/// unit not hidden by hidden set-up (BPT "Scouting Cavalry") and not dug in unseen by all of
/// the side's units (BPT "Dug In").
fn may_know(b: &Battle, side: usize, id: UnitId) -> bool {
    let u = &b.units[id as usize];
    u.side == side || (!u.hidden && (!u.dug_in || b.side_units(side).any(|m| b.sees(m.id, id))))
}

/// The living units `side` may not know of.
fn secrets(b: &Battle, side: usize) -> Vec<UnitId> {
    b.alive_units()
        .map(|u| u.id)
        .filter(|&id| !may_know(b, side, id))
        .collect()
}

/// What of unit `id` a text must not say: its name (unless a name the side may read holds it,
/// "1st Texas" in "11st Texas") and where it stands (unless something known stands there).
fn marks(b: &Battle, side: usize, id: UnitId) -> Vec<String> {
    let u = b.unit(id);
    let mut public: Vec<String> = b
        .units
        .iter()
        .filter(|k| may_know(b, side, k.id))
        .map(|k| k.name.clone())
        .collect();
    public.extend(b.commanders.iter().map(|c| c.name.clone()));
    public.extend(b.objectives.iter().map(|o| o.name.clone()));
    public.extend(b.sides.iter().map(|s| s.name.clone()));
    public.push(b.title.clone());
    let at = |p: volley::rules::geometry::V2| format!("({}, {})", cm(p.x), cm(p.y));
    let mut places: Vec<String> = b
        .alive_units()
        .filter(|k| may_know(b, side, k.id))
        .map(|k| at(k.pose.pos))
        .collect();
    places.extend(b.commanders.iter().map(|c| at(c.pos)));
    places.extend(b.objectives.iter().map(|o| at(o.pos)));
    let mut out = Vec::new();
    if !public.iter().any(|p| p.contains(&u.name)) {
        out.push(u.name.clone());
    }
    if !places.contains(&at(u.pose.pos)) {
        out.push(at(u.pose.pos));
    }
    out
}

/// The view of `side` holds exactly what the rule lets it know.
fn check_view(b: &Battle, side: usize) -> Result<(), TestCaseError> {
    let v = PlayerView::side(b, side);
    for u in &b.units {
        prop_assert_eq!(v.knows(u.id), may_know(b, side, u.id), "unit {} {}", u.id, &u.name);
        prop_assert_eq!(v.unit(u.id).is_some(), may_know(b, side, u.id));
    }
    let shown: Vec<UnitId> = v.units().map(|u| u.id).collect();
    let known: Vec<UnitId> = b
        .alive_units()
        .map(|u| u.id)
        .filter(|&id| may_know(b, side, id))
        .collect();
    prop_assert_eq!(&shown, &known);
    let enemies: Vec<UnitId> = known.iter().copied().filter(|&id| b.unit(id).side != side).collect();
    prop_assert_eq!(v.enemy_ids(), enemies);
    let named: Vec<UnitId> = match v.step() {
        Step::CounterInitiative { eligible, .. } | Step::Reaction { eligible, .. } => eligible,
        Step::Consolidate { unit, queue } => std::iter::once(unit).chain(queue).collect(),
        Step::Open | Step::Support { .. } => Vec::new(),
    };
    prop_assert!(
        named.iter().all(|&id| may_know(b, side, id)),
        "the step names {named:?}"
    );
    // Everyone's view (a spectator, a replay) hides nothing.
    let all = PlayerView::of(b, Viewer::All);
    prop_assert_eq!(all.units().count(), b.alive_units().count());
    Ok(())
}

/// The terminal's `units` (whole and a formation a line) and `map` for `side` say nothing of
/// what it may not know.
fn check_terminal(b: &Battle, side: usize, secret: &[UnitId]) -> Result<(), TestCaseError> {
    let text = [
        tview::units(b, side),
        tview::formations(b, side),
        tview::map(b, side, 100),
    ]
    .concat()
    .join("\n");
    for &id in secret {
        for m in marks(b, side, id) {
            prop_assert!(
                !text.contains(&m),
                "side {side}'s terminal says {m:?} of unit {id}:\n{text}"
            );
        }
    }
    Ok(())
}

/// The window's tooltip over every unit and commander for `side`: nothing for a unit it may
/// not know of, and no word of one in any other.
#[cfg(feature = "gui")]
fn check_tooltip(b: &Battle, side: usize, secret: &[UnitId]) -> Result<(), TestCaseError> {
    use volley::ui::Selection;
    let hovers = b
        .alive_units()
        .map(|u| Selection {
            unit: Some(u.id),
            commander: None,
        })
        .chain(b.commanders.iter().map(|c| Selection {
            unit: None,
            commander: Some(c.id),
        }));
    for hover in hovers {
        let lines = volley::ui::panels::tooltip::tooltip_lines(b, hover, Some(side));
        if hover.unit.is_some_and(|u| secret.contains(&u)) {
            prop_assert!(lines.is_empty(), "side {side} reads a tooltip of {hover:?}: {lines:?}");
        }
        let text = lines.join("\n");
        for &id in secret {
            let name = &b.unit(id).name;
            if marks(b, side, id).contains(name) {
                prop_assert!(!text.contains(name.as_str()), "{hover:?} names {name:?}: {text}");
            }
        }
    }
    Ok(())
}

#[cfg(not(feature = "gui"))]
fn check_tooltip(_: &Battle, _: usize, _: &[UnitId]) -> Result<(), TestCaseError> {
    Ok(())
}

/// The agents' choices name no unit their side may not know of.
fn check_agents(b: &Battle, seed: u64) -> Result<(), TestCaseError> {
    if b.is_over() {
        return Ok(());
    }
    let side = b.actor();
    let legal = b.legal_actions();
    for name in ["random", "greedy", "eager", "scheduler:sims=2,width=2,turns=1"] {
        let mut agent = volley::agents::by_name(name, seed, side).expect("an agent");
        let a: &Action = &legal[agent.choose(b, &legal)];
        let (units, _) = a.references();
        for id in units {
            prop_assert!(may_know(b, side, id), "{name} for side {side} chose {a:?}");
        }
    }
    Ok(())
}

/// `side`'s snapshot, serialised as RON, says nothing of a unit it may not know of (its key,
/// name or place; its id: no unit, enemy, order or step of the snapshot names it; its count:
/// the snapshot's enemies are the known ones), and reads back equal.
fn check_snapshot(b: &Battle, side: usize, secret: &[UnitId]) -> Result<(), TestCaseError> {
    let snap = Snapshot::of(&PlayerView::side(b, side));
    let text = ron::to_string(&snap).expect("a snapshot serialises");
    let back: Snapshot = ron::from_str(&text).expect("a snapshot reads back");
    prop_assert_eq!(&back, &snap, "side {}'s snapshot read back differs", side);
    let leaks = leaks(b, side, &snap);
    prop_assert!(leaks.is_empty(), "side {side}'s snapshot: {leaks:#?}");
    let named: Vec<UnitId> = snap
        .units
        .iter()
        .map(|u| u.id)
        .chain(snap.enemies.iter().map(|u| u.id))
        .chain(snap.unit_ids())
        .collect();
    for id in named {
        prop_assert!(may_know(b, side, id), "side {side}'s snapshot names unit {id}");
    }
    let known_enemies = b
        .units
        .iter()
        .filter(|u| u.side != side && may_know(b, side, u.id))
        .count();
    prop_assert_eq!(snap.enemies.len(), known_enemies);
    prop_assert!(snap.units.iter().all(|u| u.side == side));
    // The strings and places of what the side may know: a secret unit's equal is no leak.
    let quoted = |s: &str| ron::to_string(s).expect("a string");
    let mut public: Vec<String> = b
        .units
        .iter()
        .filter(|k| may_know(b, side, k.id))
        .flat_map(|k| [quoted(&k.key), quoted(&k.name)])
        .collect();
    public.extend(b.commanders.iter().flat_map(|c| [quoted(&c.key), quoted(&c.name)]));
    public.extend(b.objectives.iter().map(|o| quoted(&o.name)));
    public.extend(b.sides.iter().flat_map(|s| [quoted(&s.name), quoted(&s.army)]));
    public.push(quoted(&b.title));
    let place = |p: volley::rules::geometry::V2| ron::to_string(&p).expect("a place");
    let mut places: Vec<String> = b
        .units
        .iter()
        .filter(|k| may_know(b, side, k.id))
        .map(|k| place(k.pose.pos))
        .collect();
    places.extend(b.commanders.iter().map(|c| place(c.pos)));
    places.extend(b.objectives.iter().map(|o| place(o.pos)));
    for &id in secret {
        let u = b.unit(id);
        for m in [quoted(&u.key), quoted(&u.name)] {
            if !public.contains(&m) {
                prop_assert!(!text.contains(&m), "side {side}'s snapshot says {m} of unit {id}");
            }
        }
        let at = place(u.pose.pos);
        if !places.contains(&at) {
            prop_assert!(!text.contains(&at), "side {side}'s snapshot has unit {id}'s place {at}");
        }
    }
    Ok(())
}

/// Does a base of unit `id` lie within the distance at which units are at one work (the rules'
/// `engineers.same_crossing`) of `at`?
fn stands_at(b: &Battle, id: UnitId, at: V2) -> bool {
    let reach = b.rules.engineers.same_crossing;
    b.rects(id)
        .iter()
        .any(|r| volley::rules::geometry::rect_segment_distance(r, at, at) <= reach)
}

/// What the snapshot's fields beyond its units and commanders tell `side` of a living unit it
/// may not know of, field by field: the unit's id, or its place (a work done or a bridge begun
/// where it stands). All of them, so that a fault shows every field it reaches.
fn leaks(b: &Battle, side: usize, snap: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    let mut name = |field: &str, ids: Vec<UnitId>| {
        for id in ids.into_iter().filter(|&id| !may_know(b, side, id)) {
            out.push(format!("{field} names unit {id}"));
        }
    };
    let c = &snap.command;
    name("command.hq_failed", c.hq_failed.iter().copied().collect());
    name("command.arrived", c.arrived.iter().copied().collect());
    name("command.held", c.held.keys().copied().collect());
    let p = &snap.passing;
    name("passing.activated", p.activated.into_iter().collect());
    name("passing.moved", p.moved.iter().copied().collect());
    name("passing.fired", p.fired.iter().copied().collect());
    name("passing.reason", p.reason.iter().flat_map(PassReason::units).collect());
    for cb in &snap.combats {
        name("combats.chargers", cb.chargers.clone());
        name("combats.target", vec![cb.target]);
        name("combats.supports", cb.supports.concat());
    }
    name("counter_charging", snap.counter_charging.into_iter().collect());
    name("prone", snap.prone.iter().copied().collect());
    name("sabers", snap.sabers.keys().copied().collect());
    name("works.bridging", snap.works.bridging.iter().map(|w| w.unit).collect());
    if p.activated.is_none() && (p.purpose.is_some() || p.ground.is_some()) {
        out.push("passing: an activation's purpose without its unit".into());
    }
    for (field, at) in snap
        .works
        .done
        .iter()
        .map(|w| ("works.done", w.2))
        .chain(snap.works.bridging.iter().map(|w| ("works.bridging", w.at)))
    {
        for u in b
            .alive_units()
            .filter(|u| !may_know(b, side, u.id) && stands_at(b, u.id, at))
        {
            out.push(format!("{field} has a place {at:?} where unit {} stands", u.id));
        }
    }
    out
}

/// `b` with every field the snapshot filters filled with every living unit: each began a
/// bridge and finished a work where it stands, charges the next unit (supported by the two
/// after it), moved and fired on this initiative, lies prone, drew sabers, was failed by its HQ,
/// acts on an order that arrived, holds one; a unit `side` may not know of (if any) was
/// activated last, counter-charges and failed a charge test that passed the initiative. Not a
/// state of the game: only the snapshot is made of it, and what it leaves out of it must be
/// what hides the secrets.
fn decorate(b: &Battle, side: usize) -> Battle {
    let mut d = b.clone();
    let ids: Vec<UnitId> = d.alive_units().map(|u| u.id).collect();
    let n = ids.len();
    for (i, &u) in ids.iter().enumerate() {
        let at = d.unit(u).pose.pos;
        d.arranging().works.done.push((Task::Clear, 0, at));
        d.arranging().works.bridging.push(Bridging {
            unit: u,
            linear: 0,
            at,
            built: 5.0,
        });
        d.arranging().combats.push(Combat {
            chargers: vec![u],
            target: ids[(i + 1) % n],
            supports: [vec![ids[(i + 2) % n]], vec![ids[(i + 3) % n]]],
            counter_charge: false,
        });
        d.arranging().cmd.passing.moved.insert(u);
        d.arranging().cmd.passing.fired.insert(u);
        d.arranging().cmd.hq_failed.insert(u);
        d.arranging().cmd.arrived.insert(u);
        d.arranging().cmd.held.insert(u, 1);
        d.arranging().optional.prone.set(u, true);
        let pt = d.player_turn;
        d.arranging().optional.sabers.set(u, Some(pt));
    }
    let secret = ids
        .iter()
        .copied()
        .find(|&u| !may_know(b, side, u))
        .or(ids.last().copied());
    d.arranging().cmd.passing.activated = secret;
    d.arranging().cmd.passing.purpose = Some(Purpose::Charge);
    d.arranging().counter_charging = secret;
    if let (Some(unit), Some(&target)) = (secret, ids.first()) {
        d.arranging().cmd.passing.passed = Some(PassReason::ChargeTestFailed { unit, target });
    }
    d
}

/// The events each side may see of those of a step (on the battle after it) name no unit it
/// may not know of, and their lines in the log name none either.
fn check_events(b: &Battle, events: &[Event]) -> Result<(), TestCaseError> {
    for side in 0..2 {
        let seen = events::visible(&PlayerView::side(b, side), events);
        let secret = secrets(b, side);
        for e in &seen {
            for id in events::named_units(e) {
                prop_assert!(may_know(b, side, id), "side {side} sees {e:?}");
            }
            let line = volley::report::line(b, e);
            for &id in &secret {
                let name = &b.unit(id).name;
                if marks(b, side, id).contains(name) {
                    prop_assert!(!line.contains(name.as_str()), "side {side} reads {line:?} of {e:?}");
                }
            }
        }
        prop_assert!(seen.iter().all(|e| events.contains(e)));
    }
    Ok(())
}

/// A client's mirror of the battle made from `side`'s snapshot (on `start`, the scenario at
/// its set-up with another seed) gives the same snapshot back, and knows no unit the side may
/// not know of.
fn check_mirror(b: &Battle, start: &Battle, side: usize) -> Result<(), TestCaseError> {
    let snap = Snapshot::of(&PlayerView::side(b, side));
    let m = volley::view::mirror::mirror(start, &snap).expect("a snapshot of the scenario mirrors");
    let again = Snapshot::of(&PlayerView::side(&m, side));
    prop_assert_eq!(&again, &snap, "side {}: the mirror's snapshot", side);
    for u in &m.units {
        if !may_know(b, side, u.id) {
            prop_assert!(
                u.hidden && u.pose.pos.x < -1000.0,
                "side {side}: the mirror shows unit {}",
                u.id
            );
        }
    }
    Ok(())
}

fn check_all(b: &Battle, seed: u64) -> Result<(), TestCaseError> {
    for side in 0..2 {
        let decorated = decorate(b, side);
        let secret = secrets(b, side);
        check_view(b, side)?;
        check_terminal(b, side, &secret)?;
        check_tooltip(b, side, &secret)?;
        check_snapshot(b, side, &secret)?;
        check_snapshot(&decorated, side, &secrets(&decorated, side))?;
    }
    check_agents(b, seed)
}

/// `seed`'s random agents play `steps` actions of `b`; the events each side may see of every
/// step are checked.
fn play(mut b: Battle, seed: u64, steps: usize) -> Result<Battle, TestCaseError> {
    let mut agents = [0, 1].map(|s| volley::agents::by_name("random", seed, s).expect("random"));
    for _ in 0..steps {
        if b.is_over() {
            break;
        }
        let legal = b.legal_actions();
        let pick = agents[b.actor()].choose(&b, &legal);
        let applied = b.step(&legal[pick]).expect("a legal action");
        check_events(&b, &applied.events)?;
    }
    Ok(b)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..Default::default() })]

    #[test]
    fn no_side_learns_of_a_unit_it_may_not_know(
        seed in any::<u64>(),
        rules in 0u16..(1 << Switch::ALL.len()),
        scouting in proptest::bool::weighted(0.75),
        steps in 0usize..60,
        dig in any::<u64>(),
    ) {
        let mut switches = Switches::default();
        for (i, s) in Switch::ALL.into_iter().enumerate() {
            switches.set(s, rules & (1 << i) != 0);
        }
        switches.set(Switch::Scouting, scouting);
        for map in maps() {
            // A combination the game refuses is no state of the game.
            let Ok((b, set_up)) = volley::load_battle_with(&map, seed, &switches) else { continue };
            // What a client sets its mirror on: the scenario with the game's rules, another seed.
            let start = volley::load_battle_with(&map, 0, &switches).expect("it loaded with another seed").0;
            // At the set-up (everything hidden under hidden set-up) and after some play.
            check_events(&b, &set_up)?;
            check_all(&b, seed)?;
            let mut b = play(b, seed, steps)?;
            // Some units dug in (BPT "Dug In"), a few of them where no enemy sees them.
            for u in &mut b.arranging().units {
                if (dig >> (u.id % 64)) & 7 == 0 {
                    u.dug_in = true;
                }
            }
            check_all(&b, seed)?;
            for side in 0..2 {
                check_mirror(&b, &start, side)?;
            }
        }
    }
}

/// The scouting demo at its hidden set-up (seed 7).
fn scouting_demo_hidden() -> Battle {
    let mut switches = Switches::default();
    switches.set(Switch::Scouting, true);
    let map = maps()
        .into_iter()
        .find(|m| m.ends_with("scouting_demo.ron"))
        .expect("the scouting demo");
    volley::load_battle_with(&map, 7, &switches).expect("it loads").0
}

#[test]
fn hidden_set_up_hides_the_enemy_from_each_side_and_the_checks_see_it() {
    // The checks above are not empty: at the set-up of a scouting game each side has secrets,
    // its view and terminal keep them, and everyone's view has them all.
    let b = scouting_demo_hidden();
    for side in 0..2 {
        let secret = secrets(&b, side);
        assert!(
            !secret.is_empty(),
            "side {side} knows every enemy unit at a hidden set-up"
        );
        assert!(secret.iter().all(|&id| b.unit(id).side != side));
        let v = PlayerView::side(&b, side);
        assert!(secret.iter().all(|&id| !v.knows(id) && v.unit(id).is_none()));
        assert_eq!(
            v.side_units(side).count(),
            b.side_units(side).count(),
            "its own units in full"
        );
        assert!(PlayerView::of(&b, Viewer::All).knows(secret[0]));
        assert!(!marks(&b, side, secret[0]).is_empty());
        check_all(&b, 7).expect("nothing leaks");
        // The snapshot leaves the secrets out, the events naming one are left out.
        let snap = Snapshot::of(&v);
        assert_eq!(
            snap.enemies.len(),
            b.units.iter().filter(|u| u.side != side).count() - secret.len()
        );
        let mine = b.side_units(side).next().expect("a unit").id;
        let told = [
            Event::Morale(MoraleEvent::Disordered { unit: secret[0] }),
            Event::Morale(MoraleEvent::Disordered { unit: mine }),
            Event::Movement(MovementEvent::Halted {
                unit: mine,
                by: secret[0],
            }),
            // A reason for passing the initiative names its units too.
            Event::Passing(PassingEvent::InitiativePassed {
                side,
                reason: PassReason::ChargeTestFailed {
                    unit: mine,
                    target: secret[0],
                },
            }),
        ];
        assert_eq!(events::visible(&v, &told), vec![told[1].clone()]);
        assert_eq!(events::visible(&PlayerView::of(&b, Viewer::All), &told).len(), 4);
    }
}

#[test]
fn the_snapshot_keeps_what_a_side_may_know_of_works_combats_and_passing() {
    // The other side of the filters: what a side may know reaches its snapshot. At the hidden
    // set-up of the scouting demo, with every filtered field filled with every unit
    // (`decorate`): each side's snapshot has its own units' markers and works, everyone's
    // has all, and a work done where no unit the side does not know of stands is public.
    let b = scouting_demo_hidden();
    let d = decorate(&b, 0);
    let all = Snapshot::of(&PlayerView::of(&d, Viewer::All));
    let alive = d.alive_units().count();
    assert_eq!(all.works.done.len(), alive);
    assert_eq!(all.works.bridging.len(), alive);
    assert_eq!(all.combats.len(), alive);
    assert_eq!(all.prone.len(), alive);
    assert!(all.passing.passed && all.passing.reason.is_some() && all.counter_charging.is_some());
    for side in 0..2 {
        let d = decorate(&b, side);
        let snap = Snapshot::of(&PlayerView::side(&d, side));
        let secret = secrets(&d, side);
        assert!(!secret.is_empty());
        let mine: Vec<UnitId> = d.side_units(side).map(|u| u.id).collect();
        assert!(
            mine.iter()
                .all(|u| snap.prone.contains(u) && snap.sabers.contains_key(u))
        );
        assert!(snap.passing.passed, "that the initiative passed is public");
        let hand = snap.active == side;
        assert_eq!(!snap.command.hq_failed.is_empty(), hand, "the hand's book-keeping");
        // Works: those where no secret stands are there, the rest are not.
        let open: Vec<V2> = d
            .works
            .done
            .iter()
            .map(|w| w.2)
            .filter(|&at| !secret.iter().any(|&u| stands_at(&d, u, at)))
            .collect();
        assert!(!open.is_empty() && open.len() < alive);
        assert_eq!(snap.works.done.iter().map(|w| w.2).collect::<Vec<_>>(), open);
        assert!(
            snap.works
                .bridging
                .iter()
                .all(|w| mine.contains(&w.unit) || !secret.contains(&w.unit))
        );
        assert!(!snap.combats.is_empty() && snap.combats.len() < alive);
        assert!(leaks(&d, side, &snap).is_empty());
    }
}

/// The engineers (side 0) 40 cm of `kind` before their front, the enemy infantry 90 cm off.
fn engineers_at(kind: volley::rules::terrain::LinearKind, width: f64) -> Battle {
    use volley::rules::terrain::{Linear, Terrain};
    let units = [
        u(0, "us_engineers", 2, 100.0, 60.0, 90.0),
        u(1, "regular_infantry_rifled", 4, 100.0, 150.0, 270.0),
    ];
    let front = battle(&units)
        .rects(0)
        .iter()
        .map(|r| r.front_edge().0.y)
        .fold(f64::MIN, f64::max);
    let y = front + width * 0.5 + 0.2;
    let terrain = Terrain {
        linears: vec![Linear {
            kind,
            name: "the obstacle".into(),
            points: vec![V2::new(80.0, y), V2::new(120.0, y)],
            width,
        }],
        ..Default::default()
    };
    battle_switched(
        &units,
        terrain,
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::Engineers],
    )
}

#[test]
fn a_work_is_public_unless_a_unit_the_side_may_not_know_of_stands_at_it() {
    // docs/rules.md "Player view" (works): the gap the engineers cut in a hedge is ground on
    // the table, sent to both sides, with no unit named; while the engineers are a unit the
    // enemy may not know of (here hidden, as at a hidden set-up; a dug-in unit unseen is the
    // same), it is held back from the enemy, whose snapshot would else tell where they stand.
    // A bridge begun is sent only with its builders known.
    use volley::rules::terrain::LinearKind;
    let mut b = engineers_at(LinearKind::Hedge, 0.5);
    script(&mut b, &[3]);
    b.apply(&Action::Engineer { unit: 0, linear: 0 }).expect("clears");
    assert_eq!(b.works.done.len(), 1);
    let seen = |b: &Battle, side| Snapshot::of(&PlayerView::side(b, side)).works;
    for side in 0..2 {
        assert_eq!(seen(&b, side).done, b.works.done, "side {side}");
    }
    b.arranging().unit_mut(0).hidden = true;
    assert!(!may_know(&b, 1, 0));
    assert_eq!(seen(&b, 0).done, b.works.done, "its own side knows");
    assert!(seen(&b, 1).done.is_empty(), "held back from the enemy");
    let all = Snapshot::of(&PlayerView::of(&b, Viewer::All)).works;
    assert_eq!(all.done, b.works.done);
    b.arranging().unit_mut(0).hidden = false;
    assert_eq!(seen(&b, 1).done, b.works.done, "found: the work is sent");

    // 8 cm of river: the first 5 cm are a bridge under construction, the builders' own.
    let mut b = engineers_at(LinearKind::River, 8.0);
    b.apply(&Action::Engineer { unit: 0, linear: 0 }).expect("bridges");
    assert_eq!(b.works.bridging.len(), 1);
    assert_eq!(seen(&b, 1).bridging, b.works.bridging);
    b.arranging().unit_mut(0).hidden = true;
    assert_eq!(seen(&b, 0).bridging, b.works.bridging);
    assert!(seen(&b, 1).bridging.is_empty());
}

#[test]
fn a_side_sees_its_own_hand_and_not_the_other() {
    let b = skirmish(1);
    for side in 0..2 {
        let v = PlayerView::side(&b, side);
        assert!(v.sees_hand_of(side));
        assert!(!v.sees_hand_of(1 - side));
    }
    assert!(PlayerView::of(&b, Viewer::All).sees_hand_of(0));
}

#[test]
fn enemy_labels_count_only_the_units_a_side_knows() {
    // The terminal's labels of enemy units count the enemy units the side knows of: an enemy's
    // letter does not tell how many hidden units come before it. Here the enemy's first unit
    // is hidden: its other units are `a`, `b`, … to side 0, in `units` and the map's legend.
    let mut b = skirmish(1);
    let enemy: Vec<UnitId> = b.side_units(1).map(|u| u.id).collect();
    assert!(enemy.len() >= 3);
    b.arranging().unit_mut(enemy[0]).hidden = true;
    let units = tview::units(&b, 0).join("\n");
    let map = tview::map(&b, 0, 100).join("\n");
    for (i, &id) in enemy[1..].iter().enumerate() {
        let l = (b'a' + i as u8) as char;
        let name = &b.unit(id).name;
        assert!(
            units.contains(&format!("  {l} {name}: at")),
            "{name} is not {l}:\n{units}"
        );
        assert!(
            map.contains(&format!("  {l} {name} (")),
            "{name} is not {l} on the map:\n{map}"
        );
    }
    // Its own side knows all its units: their labels count every one, the hidden one first.
    let own = tview::units(&b, 1).join("\n");
    for (i, &id) in enemy.iter().enumerate() {
        let l = (b'a' + i as u8) as char;
        assert!(own.contains(&format!("  {l} {}: at", b.unit(id).name)), "{own}");
    }
}

#[test]
fn volley_view_prints_a_sides_snapshot_of_a_recorded_game() {
    // `volley view` prints the snapshot the library makes of the recorded game's state after
    // the actions asked for: side 1's here, as JSON; `--ron` reads back equal.
    let path = "tests/data/recorded_sabers_bpt8.ron";
    let rec = volley::replay::Recording::load(std::path::Path::new(path)).expect("a recording");
    let timeline = volley::replay::timeline::Timeline::build(rec, std::path::Path::new(path)).expect("it verifies");
    let b = timeline.state_at(12);
    let snap = Snapshot::of(&PlayerView::side(&b, 1));
    let out = super::cli::volley(&["view", path, "--side", "1", "--at", "12"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let want = serde_json::to_string_pretty(&snap).expect("json") + "\n";
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
    for field in [
        "\"works\"",
        "\"passing\"",
        "\"combats\"",
        "\"command\"",
        "\"prone\"",
        "\"sabers\"",
    ] {
        assert!(want.contains(field), "volley view prints {field}");
    }
    let out = super::cli::volley(&["view", path, "--side", "1", "--at", "12", "--ron"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let back: Snapshot = ron::from_str(&String::from_utf8_lossy(&out.stdout)).expect("RON");
    assert_eq!(back, snap);
    assert!(!super::cli::volley(&["view", path, "--side", "2"]).status.success());
}

/// The core's listing for a side steers by what the side may know: the candidate moves
/// "towards the nearest enemy" (and a gun's pivot to face it) never turn towards a hidden
/// enemy, so an agent's or a client's list of choices cannot give one away.
#[test]
fn the_candidate_moves_never_steer_by_an_enemy_the_side_may_not_know() {
    let mut b = close_quarters_switched(&[Switch::Scouting]);
    let me = b.side_units(0).map(|u| u.id).next().unwrap();
    let hidden = b.side_units(1).map(|u| u.id).last().unwrap();
    b.arranging().units[hidden as usize].hidden = true;
    let at = b.unit(me).pose.pos;
    let mut lists = Vec::new();
    // The hidden unit the nearest enemy by far, at two different places.
    for dx in [-12.0, 12.0] {
        let mut c = b.clone();
        c.arranging().units[hidden as usize].pose.pos = V2::new(at.x + dx, at.y + 9.0);
        c.refresh_geometry();
        assert!(!c.known_to(0, hidden) && c.known_to(1, hidden));
        assert_ne!(c.nearest_known_enemy(me).map(|(e, _)| e), Some(hidden));
        lists.push((c.candidate_moves(me), c.candidate_deploys(me)));
    }
    assert_eq!(
        lists[0], lists[1],
        "the moves offered follow a unit the side may not know"
    );
    // Known, it is the nearest enemy and the moves follow it.
    let mut c = b.clone();
    c.arranging().units[hidden as usize].hidden = false;
    c.arranging().units[hidden as usize].pose.pos = V2::new(at.x + 12.0, at.y + 9.0);
    c.refresh_geometry();
    assert_eq!(c.nearest_known_enemy(me).map(|(e, _)| e), Some(hidden));
    assert_ne!(c.candidate_moves(me), lists[1].0);
}

/// At every step of a `random` game on every bundled scenario (the scouting demo with its
/// hidden set-up), each side's mirror gives its snapshot back.
#[test]
fn a_clients_mirror_gives_its_snapshot_back_at_every_step_of_a_game() {
    let mut checked = 0;
    for map in maps() {
        let (mut b, _) = volley::load_battle_with(&map, 3, &Switches::default()).expect("it loads");
        let start = volley::load_battle_with(&map, 0, &Switches::default())
            .expect("it loads")
            .0;
        let mut agents = [0, 1].map(|s| volley::agents::by_name("random", 3, s).expect("random"));
        for _ in 0..150 {
            if b.is_over() {
                break;
            }
            for side in 0..2 {
                check_mirror(&b, &start, side).unwrap();
                checked += 1;
            }
            let legal = b.legal_actions();
            let pick = agents[b.actor()].choose(&b, &legal);
            b.step(&legal[pick]).expect("a legal action");
        }
    }
    assert!(checked > 1000, "{checked} views mirrored");
}

/// The terminal's `units` says a gun's loaded ammunition for the side's own guns only (the
/// player view withholds the enemy's).
#[test]
fn the_units_list_says_the_loaded_ammunition_of_ones_own_guns_only() {
    let map = maps().into_iter().find(|m| m.ends_with("first_battle.ron")).unwrap();
    let (b, _) = volley::load_battle_with(&map, 1, &Switches::default()).unwrap();
    let lines = volley::terminal::view::units(&b, 0);
    let gun = |name: &str| lines.iter().find(|l| l.contains(name)).cloned().unwrap();
    let own = gun("Battery A, 4th US");
    let enemy = gun("Purcell Battery");
    assert!(own.contains("loaded with shot"), "{own}");
    assert!(enemy.contains("unlimbered") && !enemy.contains("loaded"), "{enemy}");
}
