//! The battle at a glance (issue 16): the tooltip's words for a unit and a commander, hidden
//! enemies never described, unit names placed clear of each other and of the terrain's labels,
//! the roster by brigade, and the first view fitting the armies.

use volley::battle::{Action, Battle, Phase};
use volley::ui::Selection;
use volley::ui::camera::{FIT_MIN_WIDTH, fit_box};
use volley::ui::panels::roster::{TagKind, centred_translation, roster, unit_tags};
use volley::ui::panels::tooltip::tooltip_lines;
use volley::ui::table::labels::{Box2, name_spots, terrain_label_boxes, unit_box};

fn load(map: &str) -> Battle {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(map);
    volley::load_battle(&path, 1).expect("the map loads").0
}

fn unit_named(b: &Battle, name: &str) -> u32 {
    b.units.iter().find(|u| u.name == name).expect(name).id
}

fn unit(id: u32) -> Selection {
    Selection {
        unit: Some(id),
        commander: None,
    }
}

fn commander(id: u32) -> Selection {
    Selection {
        unit: None,
        commander: Some(id),
    }
}

/// The battle in side 0's command phase.
fn at_command(mut b: Battle) -> Battle {
    while !(b.phase == Phase::Command && b.active == 0) {
        b.apply(&Action::EndPhase).expect("end phase");
    }
    b
}

#[test]
fn a_units_tooltip_names_it_and_says_its_formation_strength_status_orders_and_sight() {
    let b = at_command(load("maps/first_battle.ron"));
    let id = unit_named(&b, "5th New Hampshire");
    let lines = tooltip_lines(&b, unit(id), Some(0));
    let text = lines.join("\n");
    assert_eq!(lines[0], "5th New Hampshire", "{text}");
    assert!(lines[1].starts_with("Union: "), "{text}");
    assert!(text.contains("Formation: line"), "{text}");
    assert!(text.contains("Strength: 4 of 4 stands, 0 hits this turn"), "{text}");
    assert!(text.contains("Status: steady"), "{text}");
    assert!(text.contains("Brigade: Col. Thomas Reed"), "{text}");
    assert!(text.contains("Orders: no order yet this turn"), "{text}");
    // What it sees is the battle's own line of sight.
    let seen = b.visible_enemies(id);
    if seen.is_empty() {
        assert!(text.contains("Sees no enemy unit"), "{text}");
    } else {
        assert!(text.contains(&b.unit(seen[0].0).name), "{text}");
    }
    // The enemy's unit: no orders or brigade told, marked as the enemy.
    let enemy = unit_named(&b, "21st Georgia");
    let lines = tooltip_lines(&b, unit(enemy), Some(0));
    let text = lines.join("\n");
    assert!(lines[1].starts_with("Confederate, enemy: "), "{text}");
    assert!(!text.contains("Orders:") && !text.contains("Brigade:"), "{text}");
    // A gun's loaded ammunition: told of one's own, not of the enemy's.
    let gun = |name: &str| tooltip_lines(&b, unit(unit_named(&b, name)), Some(0)).join("\n");
    assert!(gun("Section, Battery A, 4th US").contains("loaded with shot"));
    let theirs = gun("Section, Purcell Battery");
    assert!(theirs.contains("unlimbered") && !theirs.contains("loaded"), "{theirs}");
    // A lost unit and nothing at all say nothing.
    let mut gone = b.clone();
    gone.arranging().unit_mut(id).knocked_out = true;
    assert!(tooltip_lines(&gone, unit(id), Some(0)).is_empty());
    assert!(tooltip_lines(&b, Selection::default(), Some(0)).is_empty());
}

#[test]
fn a_suppressed_units_tooltip_and_roster_say_so() {
    let mut b = at_command(load("maps/first_battle.ron"));
    let id = unit_named(&b, "7th Wisconsin");
    b.arranging().unit_mut(id).hits = 2;
    b.arranging().unit_mut(id).suppressed = Some(volley::battle::state::Suppression {
        player_turn: b.player_turn,
        order_seq: 0,
    });
    let text = tooltip_lines(&b, unit(id), Some(0)).join("\n");
    assert!(text.contains("Status: suppressed"), "{text}");
    assert!(text.contains("2 hits this turn"), "{text}");
    let tags = unit_tags(&b, id);
    let words: Vec<&str> = tags.iter().map(|t| t.text.as_str()).collect();
    assert!(words.contains(&"suppressed") && words.contains(&"2 hits"), "{words:?}");
    assert!(!words.contains(&"steady"), "{words:?}");
    assert!(tags.iter().any(|t| t.kind == TagKind::Bad));
    let other = unit_named(&b, "5th New Hampshire");
    assert_eq!(unit_tags(&b, other)[0].text, "steady");
}

#[test]
fn a_commanders_tooltip_gives_rank_value_command_and_reach() {
    let b = at_command(load("maps/first_battle.ron"));
    let c = b
        .commanders
        .iter()
        .find(|c| c.name == "Col. Thomas Reed")
        .expect("Reed");
    let lines = tooltip_lines(&b, commander(c.id), Some(0));
    let text = lines.join("\n");
    assert_eq!(lines[0], "Col. Thomas Reed");
    assert!(text.contains("brigade commander, average"), "{text}");
    assert!(text.contains(&format!("Command value {}", c.command_value)), "{text}");
    for u in b.side_units(0) {
        assert!(text.contains(&u.name), "{} missing from {text}", u.name);
    }
    assert!(text.contains("within 20 cm at no penalty"), "{text}");
}

#[test]
fn hidden_enemies_are_never_described() {
    let b = load("maps/scouting_demo.ron");
    let hidden: Vec<u32> = b
        .units
        .iter()
        .filter(|u| u.side == 1 && u.hidden)
        .map(|u| u.id)
        .collect();
    assert!(!hidden.is_empty(), "the demo hides the Confederates");
    for &h in &hidden {
        assert!(tooltip_lines(&b, unit(h), Some(0)).is_empty(), "{}", b.unit(h).name);
        // Their own player, and a game of agents, see them.
        assert!(!tooltip_lines(&b, unit(h), Some(1)).is_empty());
        assert!(!tooltip_lines(&b, unit(h), None).is_empty());
    }
    // The enemy commander's tooltip lists his scouts, not his hidden regiments.
    let cs = b
        .commanders
        .iter()
        .find(|c| c.side == 1)
        .expect("a Confederate commander");
    let text = tooltip_lines(&b, commander(cs.id), Some(0)).join("\n");
    for &h in &hidden {
        assert!(!text.contains(&b.unit(h).name), "{} revealed: {text}", b.unit(h).name);
    }
    assert!(text.contains("Scouts, 1st Virginia Cavalry"), "{text}");
    // No tooltip of ours names a hidden enemy as seen.
    for u in b.side_units(0) {
        let text = tooltip_lines(&b, unit(u.id), Some(0)).join("\n");
        for &h in &hidden {
            assert!(!text.contains(&b.unit(h).name), "{text}");
        }
    }
    // Nor does the first view give away where they are: it is the view of a table without
    // them (and without the enemy's commanders).
    let mut without = b.clone();
    for &h in &hidden {
        without.arranging().unit_mut(h).knocked_out = true;
    }
    for c in without.arranging().commanders.iter_mut().filter(|c| c.side == 1) {
        c.knocked_out = true;
    }
    assert_eq!(fit_box(&b, Some(0)), fit_box(&without, None));
    assert_ne!(
        fit_box(&b, Some(0)),
        fit_box(&b, None),
        "the hidden units would widen it"
    );
}

#[test]
fn the_roster_groups_a_sides_units_by_their_brigade() {
    let b = load("maps/gettysburg.ron");
    for side in 0..2 {
        let groups = roster(&b, side);
        let listed: Vec<u32> = groups.iter().flat_map(|g| g.units.iter().map(|u| u.unit)).collect();
        let mut alive: Vec<u32> = b.side_units(side).map(|u| u.id).collect();
        let mut sorted = listed.clone();
        sorted.sort();
        alive.sort();
        assert_eq!(sorted, alive, "every unit once");
        for g in &groups {
            assert!(!g.units.is_empty());
            assert_eq!(b.commander(g.commander).side, side);
            for u in &g.units {
                assert_eq!(b.unit(u.unit).hq, g.commander, "{} under {}", u.name, g.title);
            }
        }
        assert!(groups.len() > 1, "gettysburg has several brigades a side");
    }
    // A lost unit leaves the roster.
    let mut b = b;
    let id = b.side_units(0).next().expect("a unit").id;
    b.arranging().unit_mut(id).knocked_out = true;
    assert!(roster(&b, 0).iter().all(|g| g.units.iter().all(|u| u.unit != id)));
}

#[test]
fn names_on_the_table_cover_no_unit_no_other_name_and_no_terrain_label() {
    for map in ["maps/first_battle.ron", "maps/skirmish.ron"] {
        let b = load(map);
        let ids: Vec<u32> = b.alive_units().map(|u| u.id).collect();
        let spots = name_spots(&b, &ids);
        assert_eq!(spots.len(), ids.len(), "{map}: a name for every unit");
        let units: Vec<Box2> = ids.iter().filter_map(|&id| unit_box(&b, id)).collect();
        let labels = terrain_label_boxes(&b);
        for (i, s) in spots.iter().enumerate() {
            assert_eq!(s.text, b.unit(s.unit).name);
            let p = s.plate();
            for (j, o) in spots.iter().enumerate() {
                assert!(
                    i == j || p.overlap(&o.plate()) <= 0.0,
                    "{map}: {} on {}",
                    s.text,
                    o.text
                );
            }
            for u in &units {
                assert!(p.overlap(u) <= 0.0, "{map}: {} covers a unit", s.text);
            }
            for l in &labels {
                assert!(p.overlap(l) <= 0.0, "{map}: {} covers a terrain label", s.text);
            }
            // Beside its own unit.
            let own = unit_box(&b, s.unit).expect("a box");
            assert!(
                s.at.distance(own.centre()) < 30.0,
                "{map}: {} far from its unit",
                s.text
            );
        }
    }
}

#[test]
fn the_first_view_fits_every_unit_and_commander_but_not_the_empty_table() {
    for map in ["maps/first_battle.ron", "maps/gettysburg.ron", "maps/skirmish.ron"] {
        let b = load(map);
        let (lo, hi) = fit_box(&b, None);
        assert!(hi.x - lo.x >= FIT_MIN_WIDTH.min(b.table.width as f32) - 0.01, "{map}");
        assert!(lo.x >= 0.0 && lo.y >= 0.0, "{map}: on the table");
        assert!(
            hi.x <= b.table.width as f32 + 0.01 && hi.y <= b.table.height as f32 + 0.01,
            "{map}"
        );
        for u in b.alive_units() {
            for r in b.rects(u.id) {
                for c in r.corners() {
                    let inside = c.x as f32 >= lo.x - 0.01
                        && c.x as f32 <= hi.x + 0.01
                        && c.y as f32 >= lo.y - 0.01
                        && c.y as f32 <= hi.y + 0.01;
                    assert!(inside, "{map}: {} outside the first view", u.name);
                }
            }
        }
        for c in b.commanders.iter().filter(|c| c.alive()) {
            assert!(c.pos.x as f32 >= lo.x && (c.pos.x as f32) <= hi.x, "{map}: {}", c.name);
            assert!(c.pos.y as f32 >= lo.y && (c.pos.y as f32) <= hi.y, "{map}: {}", c.name);
        }
    }
    // The same armies on a table three times as long and wide: the view stays on them (the
    // armies keep their places, near the table's south-west corner), not on the empty table.
    let mut b = load("maps/gettysburg.ron");
    let before = fit_box(&b, None);
    b.arranging().table.width *= 3.0;
    b.arranging().table.height *= 3.0;
    let (lo, hi) = fit_box(&b, None);
    let fitted = ((hi.x - lo.x) * (hi.y - lo.y)) as f64;
    assert!(fitted < b.table.width * b.table.height / 4.0, "{lo} {hi}");
    assert!(
        lo.x >= before.0.x - 0.01 && lo.y >= before.0.y - 0.01,
        "{lo} {hi} / {before:?}"
    );
}

#[test]
fn centring_puts_the_piece_in_the_middle_of_the_free_part_of_the_window() {
    use bevy::math::{Quat, Rect, Vec2};
    let window = Vec2::new(1600.0, 1000.0);
    // The table shows right of a 300 px column and left of a 330 px one, under a 40 px bar.
    let view = Rect::new(300.0, 40.0, 1270.0, 1000.0);
    let target = Vec2::new(50.0, 30.0);
    for turn in [0.0, 0.7, 3.0] {
        let rot = Quat::from_rotation_z(turn);
        let scale = 0.1;
        let cam = centred_translation(target, rot, scale, view, window);
        // The world point at the view's centre, from the camera.
        let off = view.center() - window * 0.5;
        let at = cam + (rot * bevy::math::Vec3::new(off.x * scale, -off.y * scale, 0.0)).truncate();
        assert!(at.distance(target) < 1e-3, "{at} at rotation {turn}");
    }
}

/// Issue 65, "names on the table at the fitted zoom (decluttered: brigade names when regiments
/// would overlap)": at Gettysburg each of the viewer's brigades is named over its regiments
/// ("Archer's brigade"), no plate on another, none of the enemy's; a spectator sees both.
#[test]
fn each_of_the_viewers_brigades_is_named_over_its_regiments_clear_of_the_others() {
    use volley::ui::table::labels::formation_spots;
    use volley::view::{PlayerView, Viewer};
    let b = load("maps/gettysburg.ron");
    let view = PlayerView::side(&b, 1);
    let spots = formation_spots(&b, &view);
    let brigades = b
        .commanders
        .iter()
        .filter(|c| c.side == 1 && b.side_units(1).any(|u| u.hq == c.id))
        .count();
    assert_eq!(spots.len(), brigades, "one name a formation with units of its own");
    assert!(spots.iter().all(|(_, _, _, side)| *side == 1), "none of the enemy's");
    assert!(spots.iter().any(|(t, _, _, _)| t == "Archer's brigade"), "{spots:?}");
    for (i, (t, at, size, _)) in spots.iter().enumerate() {
        let p = Box2::centred(*at, *size);
        for (j, (o, at2, size2, _)) in spots.iter().enumerate() {
            assert!(i == j || p.overlap(&Box2::centred(*at2, *size2)) <= 0.0, "{t} on {o}");
        }
    }
    // Over its own regiments: above the box around them.
    let archer = b
        .commanders
        .iter()
        .find(|c| c.name.ends_with("Archer"))
        .expect("Archer")
        .id;
    let own: Vec<Box2> = b
        .side_units(1)
        .filter(|u| u.hq == archer)
        .filter_map(|u| unit_box(&b, u.id))
        .collect();
    let top = own.iter().map(|bx| bx.max.y).fold(f32::MIN, f32::max);
    let (_, at, _, _) = spots
        .iter()
        .find(|(t, _, _, _)| t == "Archer's brigade")
        .expect("named");
    assert!(
        at.y > top && own.iter().any(|bx| (bx.centre().x - at.x).abs() < 30.0),
        "{at:?}"
    );
    let all = formation_spots(&b, &PlayerView::of(&b, Viewer::All));
    assert!(all.iter().any(|(_, _, _, s)| *s == 0) && all.iter().any(|(_, _, _, s)| *s == 1));
}
