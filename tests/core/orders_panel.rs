//! Issue 16: the orders panel in words. What the panel lists (`ui::panels::orders::entries`)
//! for a selected unit, a selected commander and nothing selected, on the bundled First Battle
//! and Gettysburg: never a coordinate pair, only legal actions concerning the selection, a few
//! named moves for a unit (the rest folded away, none dropped), and with nothing selected a
//! short list of who may act whose counts add up to every legal action.

use super::common::*;
use volley::battle::{Action, Battle, Phase};
use volley::rules::geometry::wrap_angle;
use volley::terminal::words::relative_move;
use volley::ui::Selection;
use volley::ui::panels::orders::{Click, OrderGroup, concerns, entries};

fn load(map: &str) -> Battle {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(map);
    volley::load_battle(&path, 5).expect("the map loads").0
}

fn at_command(map: &str) -> Battle {
    let mut b = load(map);
    end_phases_until(&mut b, |b| b.phase == Phase::Command);
    b
}

/// A number: digits with at most one decimal point, maybe signed.
fn number(s: &str) -> Option<&str> {
    let s = s.trim_start();
    let s = s.strip_prefix('-').unwrap_or(s);
    let end = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let n = &s[..end];
    (n.chars().any(|c| c.is_ascii_digit()) && n.matches('.').count() <= 1).then_some(&s[end..])
}

/// Does `text` hold a coordinate pair, "(" number "," number ")"?
fn has_coordinates(text: &str) -> bool {
    text.match_indices('(').any(|(i, _)| {
        number(&text[i + 1..])
            .and_then(|rest| rest.trim_start().strip_prefix(','))
            .and_then(number)
            .is_some_and(|rest| rest.trim_start().starts_with(')'))
    })
}

#[test]
fn the_coordinate_check_finds_coordinates() {
    assert!(has_coordinates("move: 21st Georgia to (45.0, 60.0) facing 270°"));
    assert!(has_coordinates("ride to (-3, 12.5)"));
    assert!(!has_coordinates("Wheel 22° left (centre 2.9 cm forward, 0.6 cm left)"));
    assert!(!has_coordinates(
        "Order 21st Georgia (need ≤ 6: command 7, -1 25 cm away)"
    ));
    // The battle log's words for a move hold them: the panel must not use those.
    let b = at_command("maps/first_battle.ron");
    let (b, unit) = ordered(b);
    let mv = b
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::Move { unit: u, .. } if *u == unit))
        .expect("the ordered unit may move");
    assert!(has_coordinates(&volley::report::heading(&b, &mv)));
}

/// Every entry in words; every action legal and concerning the selection; every unit or
/// commander to select has a legal action.
fn check(b: &Battle, sel: &Selection, groups: &[OrderGroup], legal: &[Action]) {
    assert!(!groups.is_empty(), "something is listed for {sel:?}");
    for g in groups {
        assert!(!has_coordinates(&g.title), "{}", g.title);
        for e in &g.entries {
            assert!(!has_coordinates(&e.text), "coordinates in {:?}", e.text);
            assert!(!e.text.contains("Some(") && !e.text.contains("::"), "{:?}", e.text);
            assert!(!e.text.contains("-0°") && !e.text.contains(" 1 hits"), "{:?}", e.text);
            match &e.click {
                Click::Act(a) => {
                    assert!(legal.contains(a), "{:?} is not legal", e.text);
                    assert!(concerns(a, sel), "{:?} does not concern {sel:?}", e.text);
                    assert!(!matches!(a, Action::Pass | Action::EndPhase));
                }
                Click::Intent(i) => {
                    // An intent for the selection's own side, in its command phase, naming
                    // only units it may know of.
                    assert_eq!(b.phase, volley::battle::Phase::Command);
                    assert_eq!(i.side, b.actor());
                    assert!(i.units.iter().all(|&u| b.unit(u).side == i.side));
                    assert!(i.intent.enemy().is_none_or(|e| b.known_to(i.side, e)));
                }
                Click::Select(s) => {
                    assert_eq!(*sel, Selection::default(), "selections only when none is made");
                    assert!(
                        legal.iter().any(|a| concerns(a, s)),
                        "{:?} selects one with nothing to do",
                        e.text
                    );
                }
            }
        }
    }
}

fn all(groups: &[OrderGroup]) -> Vec<&volley::ui::panels::orders::Entry> {
    groups.iter().flat_map(|g| &g.entries).collect()
}

fn shown(groups: &[OrderGroup]) -> usize {
    groups.iter().filter(|g| g.open).map(|g| g.entries.len()).sum()
}

/// Order a single unit by its own commander (the dice scripted to succeed); the battle and
/// the unit.
fn ordered(mut b: Battle) -> (Battle, u32) {
    let legal = b.legal_actions();
    let (order, unit) = legal
        .iter()
        .find_map(|a| match a {
            Action::Order {
                units, charge: false, ..
            } if units.len() == 1 && b.unit(units[0]).move_rate() > 0.0 => Some((a.clone(), units[0])),
            _ => None,
        })
        .expect("a unit may be ordered");
    script(&mut b, &[2, 1, 2, 1, 2, 1, 2, 1]);
    b.apply(&order).expect("the order is given");
    assert!(b.cmd.orders.contains_key(&unit), "the order passed");
    (b, unit)
}

#[test]
fn with_nothing_selected_the_panel_lists_who_may_act_and_their_counts_add_up() {
    for map in ["maps/first_battle.ron", "maps/gettysburg.ron"] {
        let b = at_command(map);
        let legal = b.legal_actions();
        let sel = Selection::default();
        let groups = entries(&b, &sel, &legal);
        check(&b, &sel, &groups, &legal);
        let listed = all(&groups);
        let actions = legal
            .iter()
            .filter(|a| !matches!(a, Action::Pass | Action::EndPhase))
            .count();
        assert!(
            listed.len() * 2 < actions,
            "{map}: {} lines for {actions} actions is no summary",
            listed.len()
        );
        // "Col. Reed: 4 orders, 2 rides": the counts add up to every legal action.
        let mut total = 0;
        for e in &listed {
            assert!(matches!(e.click, Click::Select(_)), "{:?}", e.text);
            let (_, what) = e.text.rsplit_once(": ").expect("name: what");
            for part in what.split(", ") {
                let n: usize = part
                    .split(' ')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap_or_else(|_| panic!("{part}"));
                total += n;
            }
        }
        assert_eq!(total, actions, "{map}");
        // Each names its unit or commander.
        for e in &listed {
            let Click::Select(s) = e.click else { unreachable!() };
            let name = match (s.unit, s.commander) {
                (Some(u), _) => b.unit(u).name.clone(),
                (None, Some(c)) => b.commander(c).name.clone(),
                _ => panic!("an empty selection"),
            };
            assert!(e.text.starts_with(&format!("{name}: ")), "{:?}", e.text);
        }
    }
}

/// Issue 65: at Gettysburg who may act folds by division (each heading a division, folded,
/// its commanders inside); First Battle's one brigade stays one open list.
#[test]
fn who_may_act_folds_by_division_on_a_big_battle() {
    let b = at_command("maps/gettysburg.ron");
    let legal = b.legal_actions();
    let groups = entries(&b, &Selection::default(), &legal);
    let side = b.actor();
    let titles: Vec<&str> = groups.iter().map(|g| g.title.as_str()).collect();
    let divisions = b
        .commanders
        .iter()
        .filter(|c| c.side == side && c.superior.is_some_and(|s| b.commander(s).superior.is_none()))
        .count();
    assert!(groups.len() >= divisions && divisions > 1, "{titles:?}");
    assert!(groups.iter().all(|g| !g.open), "{titles:?}");
    for g in &groups {
        for e in &g.entries {
            let Click::Select(s) = e.click else {
                panic!("{:?}", e.text)
            };
            let c = s.commander.or(s.unit.map(|u| b.unit(u).hq)).expect("someone");
            let d = b.division_of(c);
            let name = volley::report::intent::formation_words(&b, b.commander(d));
            assert!(g.title.starts_with(&name), "{} under {}", e.text, g.title);
        }
    }
    let small = at_command("maps/first_battle.ron");
    let legal = small.legal_actions();
    let groups = entries(&small, &Selection::default(), &legal);
    assert_eq!(groups.len(), 1);
    assert!(groups[0].open && groups[0].title.starts_with("Who may act"));
}

/// Issue 65: the units a box ordered are what their commander's intents are for, this turn:
/// the panel's "By intent" names them and asks for them only.
#[test]
fn a_box_ordered_group_is_what_the_commanders_intents_are_for() {
    use volley::ui::common::BoxedGroup;
    use volley::ui::panels::orders::entries_boxed;
    let b = at_command("maps/first_battle.ron");
    let legal = b.legal_actions();
    let reed = b
        .commanders
        .iter()
        .find(|c| c.side == b.actor())
        .expect("the colonel")
        .id;
    let mine: Vec<u32> = b.commanded_units(reed).map(|u| u.id).collect();
    assert!(mine.len() >= 3);
    let sel = Selection {
        unit: None,
        commander: Some(reed),
    };
    let asked = |groups: &[OrderGroup]| -> Vec<(String, Vec<u32>)> {
        groups
            .iter()
            .flat_map(|g| g.entries.iter())
            .filter_map(|e| match &e.click {
                Click::Intent(i) => Some((i.who.clone(), i.units.clone())),
                _ => None,
            })
            .collect()
    };
    // No box: his whole formation.
    let whole = asked(&entries(&b, &sel, &legal));
    assert!(!whole.is_empty() && whole.iter().all(|(_, u)| *u == mine), "{whole:?}");
    // A box of two: those two, by name.
    let boxed = BoxedGroup {
        commander: Some(reed),
        units: mine[..2].to_vec(),
        turn: b.player_turn,
    };
    let two = asked(&entries_boxed(&b, &sel, Some(&boxed), &legal));
    let names = format!("{} and {}", b.unit(mine[0]).name, b.unit(mine[1]).name);
    assert!(
        !two.is_empty() && two.iter().all(|(w, u)| *u == mine[..2] && *w == names),
        "{two:?}"
    );
    // Last turn's box, or another commander's, is not.
    let stale = BoxedGroup {
        turn: b.player_turn + 1,
        ..boxed.clone()
    };
    assert_eq!(asked(&entries_boxed(&b, &sel, Some(&stale), &legal)), whole);
}

#[test]
fn a_selected_commander_lists_his_orders_with_their_need_in_words() {
    for map in ["maps/first_battle.ron", "maps/gettysburg.ron"] {
        let b = at_command(map);
        let legal = b.legal_actions();
        let c = legal
            .iter()
            .find_map(|a| match a {
                Action::Order { commander, .. } => Some(*commander),
                _ => None,
            })
            .expect("a commander may order");
        let sel = Selection {
            unit: None,
            commander: Some(c),
        };
        let groups = entries(&b, &sel, &legal);
        check(&b, &sel, &groups, &legal);
        let mine = legal.iter().filter(|a| concerns(a, &sel)).count();
        let acts = all(&groups)
            .into_iter()
            .filter(|e| matches!(e.click, Click::Act(_)))
            .count();
        assert_eq!(acts, mine, "{map}: every action of his is listed once");
        let orders: Vec<_> = all(&groups)
            .into_iter()
            .filter(|e| matches!(&e.click, Click::Act(Action::Order { .. })))
            .collect();
        assert!(!orders.is_empty());
        // His order to the whole formation first, then those to one unit.
        let many = |e: &&volley::ui::panels::orders::Entry| matches!(&e.click, Click::Act(Action::Order { units, .. }) if units.len() > 1);
        if orders.iter().any(many) {
            assert!(many(&orders[0]), "{:?}", orders[0].text);
            let first_single = orders.iter().position(|e| !many(e)).unwrap_or(orders.len());
            assert!(orders[first_single..].iter().all(|e| !many(e)), "{map}");
        }
        for e in orders {
            let Click::Act(Action::Order { units, .. }) = &e.click else {
                unreachable!()
            };
            assert!(e.text.starts_with("Order "), "{:?}", e.text);
            assert!(e.text.contains("need ≤ "), "{:?}", e.text);
            for u in units {
                assert!(
                    e.text.contains(&b.unit(*u).name),
                    "{:?} names {}",
                    e.text,
                    b.unit(*u).name
                );
            }
        }
    }
}

#[test]
fn a_selected_unit_lists_a_few_named_moves_and_folds_the_rest() {
    for map in ["maps/first_battle.ron", "maps/gettysburg.ron"] {
        // Before its order: the orders its commanders may give it.
        let b = at_command(map);
        let (_, unit) = ordered(b.clone());
        let legal = b.legal_actions();
        let sel = Selection {
            unit: Some(unit),
            commander: None,
        };
        let groups = entries(&b, &sel, &legal);
        check(&b, &sel, &groups, &legal);
        assert!(
            all(&groups)
                .iter()
                .any(|e| e.text.contains(" orders ") && e.text.contains(&b.unit(unit).name)),
            "{map}: the orders it may be given"
        );

        // With its order in hand.
        let (b, unit) = ordered(b);
        let legal = b.legal_actions();
        let groups = entries(&b, &sel, &legal);
        check(&b, &sel, &groups, &legal);
        let mine = legal.iter().filter(|a| concerns(a, &sel)).count();
        let moves = legal
            .iter()
            .filter(|a| matches!(a, Action::Move { unit: u, .. } if *u == unit))
            .count();
        assert!(moves > 8, "{map}: the rules offer many moves ({moves})");
        // None dropped: every legal action of it is listed, but for moves said in the same
        // words as one listed.
        let listed: Vec<&Action> = all(&groups)
            .into_iter()
            .filter_map(|e| match &e.click {
                Click::Act(a) => Some(a),
                Click::Select(_) | Click::Intent(_) => None,
            })
            .collect();
        let said = |a: &Action| match a {
            Action::Move { to, .. } => relative_move(&b.unit(unit).pose, to),
            _ => String::new(),
        };
        for a in legal.iter().filter(|a| concerns(a, &sel)) {
            if listed.contains(&a) {
                continue;
            }
            assert!(
                matches!(a, Action::Move { .. }) && listed.iter().any(|l| said(l) == said(a)),
                "{map}: {a:?} is not listed"
            );
        }
        for (i, a) in listed.iter().enumerate() {
            assert!(!listed[..i].contains(a), "{map}: {a:?} listed twice");
        }
        assert!(listed.len() <= mine);
        assert!(shown(&groups) <= 15, "{map}: {} buttons shown", shown(&groups));
        let more = groups
            .iter()
            .find(|g| g.title.starts_with("More moves"))
            .expect("the other moves folded away");
        assert!(!more.open);
        let mv = groups
            .iter()
            .find(|g| g.title.starts_with("Move"))
            .expect("a Move group");
        assert!(mv.note.as_deref().is_some_and(|n| n.contains("Drag")));
        assert!(mv.entries.len() <= 8, "{map}: a few named moves");
        let u = b.unit(unit).pose;
        let fwd = |a: &Action| match a {
            Action::Move { to, .. } => {
                let d = to.pos - u.pos;
                d.x * u.facing.cos() + d.y * u.facing.sin()
            }
            _ => f64::NAN,
        };
        let turn = |a: &Action| match a {
            Action::Move { to, .. } => wrap_angle(to.facing - u.facing).to_degrees(),
            _ => f64::NAN,
        };
        // The first is the longest straight advance among the legal moves.
        let first = &mv.entries[0];
        assert!(first.text.starts_with("Advance"), "{map}: {:?}", first.text);
        let Click::Act(a) = &first.click else { panic!() };
        assert!(turn(a).abs() < 0.5);
        let longest = legal
            .iter()
            .filter(|x| matches!(x, Action::Move { unit: v, to } if *v == unit && (to.facing - u.facing).abs() < 1e-9))
            .map(fwd)
            .fold(f64::MIN, f64::max);
        assert!((fwd(a) - longest).abs() < 1e-6, "{map}: {} of {longest}", fwd(a));
        // Wheels turn the way they say.
        for e in &mv.entries {
            let Click::Act(a) = &e.click else { panic!() };
            if e.text.starts_with("Wheel") || e.text.starts_with("Turn") {
                let left = e.text.contains(" left");
                assert!(if left { turn(a) > 0.0 } else { turn(a) < 0.0 }, "{map}: {:?}", e.text);
            }
            if e.text == "About face" {
                assert!(turn(a).abs() > 179.0);
            }
        }
    }
}
