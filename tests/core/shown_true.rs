//! The window shows the truth (issue "Nothing shown false, nothing lost"): every drawn
//! property of a piece comes from the battle it belongs to, after any other battle, an undo
//! or a change that moves nothing.

use bevy::prelude::*;
use volley::app::{BattleState, CommanderBase, PieceIndex, SideOf, Stand, UnitPiece};
use volley::battle::Battle;
use volley::ui::screens::menu::{Start, start_game_now};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The bundled scenarios, by file name.
fn bundled() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(format!("{ROOT}/maps"))
        .expect("maps/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

/// Every piece on the table agrees with the battle: each unit and its stands carry the
/// unit's side and name, each commander his; no piece of another battle is left.
fn pieces_agree(app: &mut App, what: &str) {
    let world = app.world_mut();
    let b: Battle = world.resource::<BattleState>().0.clone();
    let index_units: Vec<(Entity, UnitPiece, SideOf, Name, Vec<Entity>)> = world
        .query::<(Entity, &UnitPiece, &SideOf, &Name, &Children)>()
        .iter(world)
        .map(|(e, p, s, n, c)| (e, *p, *s, n.clone(), c.iter().collect()))
        .collect();
    let alive: Vec<_> = b.alive_units().map(|u| u.id).collect();
    assert_eq!(index_units.len(), alive.len(), "{what}: one piece a living unit");
    for (e, p, side, name, children) in index_units {
        let u = b.unit(p.unit);
        assert_eq!(
            world.resource::<PieceIndex>().unit(p.unit),
            Some(e),
            "{what}: {} indexed",
            u.name
        );
        assert_eq!(side.0, u.side, "{what}: {} drawn in the other side's colours", u.name);
        assert_eq!(name.as_str(), u.name, "{what}: a piece named for another battle's unit");
        for &c in &children {
            let s = world.get::<SideOf>(c).expect("a stand has a side");
            assert!(world.get::<Stand>(c).is_some());
            assert_eq!(s.0, u.side, "{what}: a stand of {} in the other side's colours", u.name);
        }
    }
    let cmds: Vec<(CommanderBase, SideOf, Name)> = world
        .query::<(&CommanderBase, &SideOf, &Name)>()
        .iter(world)
        .map(|(c, s, n)| (*c, *s, n.clone()))
        .collect();
    assert_eq!(cmds.len(), b.commanders.iter().filter(|c| c.alive()).count(), "{what}");
    for (c, side, name) in cmds {
        let k = b.commander(c.commander);
        assert_eq!(side.0, k.side, "{what}: {} in the other side's colours", k.name);
        assert_eq!(name.as_str(), k.name, "{what}");
    }
}

fn start(app: &mut App, scenario: &std::path::Path) {
    let s = Start::New {
        scenario: scenario.to_path_buf(),
        seed: 1,
        switches: Default::default(),
    };
    start_game_now(app.world_mut(), s, ["human".into(), "human".into()]).expect("the scenario starts");
    for _ in 0..3 {
        app.update();
    }
}

/// Item 1: *First Battle* started from the menu after the skirmish drew every Confederate in
/// Union blue (pieces kept by unit id took the new battle's place but not its side). Every
/// bundled scenario, started the way the menu starts it, after the one before it and after
/// the skirmish (the menu's own battle).
#[test]
fn every_bundled_scenario_started_after_another_draws_each_unit_in_its_own_colours() {
    let maps = bundled();
    assert!(maps.len() >= 10, "the bundled scenarios: {maps:?}");
    let skirmish = std::path::PathBuf::from(format!("{ROOT}/maps/skirmish.ron"));
    let b = volley::load_battle(&skirmish, 1).expect("skirmish").0;
    let mut app = volley::ui::headless_play_app(b, skirmish.clone(), 1, ["human", "human"], true).expect("app");
    pieces_agree(&mut app, "the skirmish");
    // Each after the previous one (in file order, then reversed: every scenario follows two
    // others), and each straight after the skirmish.
    let mut order = maps.clone();
    order.extend(maps.iter().rev().cloned());
    for m in &order {
        start(&mut app, m);
        pieces_agree(&mut app, &m.display().to_string());
    }
    for m in &maps {
        start(&mut app, &skirmish);
        start(&mut app, m);
        pieces_agree(&mut app, &format!("{} after the skirmish", m.display()));
    }
}

/// Every piece of text egui would draw for `show`.
fn panel_text(mut show: impl FnMut(&mut bevy_egui::egui::Ui)) -> String {
    use bevy_egui::egui;
    fn texts(shape: &egui::Shape, out: &mut Vec<String>) {
        match shape {
            egui::Shape::Text(t) => out.push(t.galley.text().to_string()),
            egui::Shape::Vec(v) => v.iter().for_each(|s| texts(s, out)),
            _ => {}
        }
    }
    let ctx = egui::Context::default();
    let raw = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(400.0, 3000.0))),
        ..Default::default()
    };
    let out = ctx.run_ui(raw, |ui| show(ui));
    let mut all = Vec::new();
    for s in &out.shapes {
        texts(&s.shape, &mut all);
    }
    out.drop_without_applying_deltas();
    all.join("\n")
}

/// Item 5: in hot-seat, while the player who charged still sits at the table (the melee shown
/// before the hand-over), the orders panel shows nothing of the other side's hand: not its
/// commanders, not its units to act, not their orders. Seated, that side sees them.
#[test]
fn the_orders_panel_never_shows_the_other_players_hand() {
    use volley::battle::Phase;
    use volley::ui::Selection;
    use volley::ui::common::Asks;
    use volley::ui::session::Seats;
    let path = std::path::PathBuf::from(format!("{ROOT}/maps/skirmish.ron"));
    let mut b = volley::load_battle(&path, 3).expect("skirmish").0;
    while !(b.actor() == 1 && b.phase == Phase::Command) {
        b.apply(&volley::battle::Action::EndPhase).expect("end the phase");
    }
    let legal = b.legal_actions();
    let hand: Vec<String> = b
        .commanders
        .iter()
        .filter(|c| c.side == 1)
        .map(|c| c.name.clone())
        .chain(b.units.iter().filter(|u| u.side == 1).map(|u| u.name.clone()))
        .collect();
    let shown = |viewer: usize| {
        let seats = Seats {
            sides: ["human".into(), "human".into()],
            viewer: Some(viewer),
            no_handover: false,
        };
        panel_text(|ui| {
            volley::ui::panels::orders::show(
                ui,
                &b,
                &seats,
                (&Selection::default(), Default::default()),
                &legal,
                false,
                &mut Asks::default(),
            )
        })
    };
    let charger = shown(0);
    for name in &hand {
        assert!(
            !charger.contains(name.as_str()),
            "the Union player is shown {name}: {charger}"
        );
    }
    assert!(charger.contains("after the hand-over"), "{charger}");
    let seated = shown(1);
    assert!(
        hand.iter().any(|n| seated.contains(n.as_str())),
        "seated, the Confederate player sees their hand: {seated}"
    );
}

/// Issue 63: the unit card reads the side's view. A unit selected that the side may not know
/// (an enemy still hidden at a scouting set-up) shows as nothing selected, never its name,
/// place or state; its own side sees its card.
#[test]
fn the_unit_card_never_shows_a_unit_the_side_may_not_know() {
    use volley::ui::Selection;
    use volley::view::PlayerView;
    let path = std::path::PathBuf::from(format!("{ROOT}/maps/scouting_demo.ron"));
    let b = volley::load_battle(&path, 1).expect("the scouting demo").0;
    let hidden = b
        .units
        .iter()
        .find(|u| u.side == 1 && u.hidden)
        .expect("a hidden Confederate unit at the start");
    let sel = Selection {
        unit: Some(hidden.id),
        commander: None,
    };
    let card = |side| panel_text(|ui| volley::ui::panels::unit_card::show(ui, &b, &PlayerView::side(&b, side), &sel));
    let enemy = card(0);
    assert!(!enemy.contains(hidden.name.as_str()), "{enemy}");
    assert!(enemy.contains("Nothing selected"), "{enemy}");
    let own = card(1);
    assert!(own.contains(hidden.name.as_str()), "{own}");
}
