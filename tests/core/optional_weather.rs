//! BPT "Weather (Optional Rule)" and "Night (Optional Rule)" (switch `weather`): numbers from
//! the book (seeds/003, "WEATHER", "NIGHT"); the framework of switches (rules file, scenario,
//! command line, recordings).

use super::common::*;
use std::path::Path;
use volley::agents;
use volley::battle::event::families::*;
use volley::battle::{Action, Event};
use volley::data::scenario::Weather;
use volley::replay::Recording;
use volley::replay::verify::verify;
use volley::rules::switches::{Switch, Switches};

fn rules() -> volley::rules::params::Rules {
    volley::load_rules(None).expect("rules")
}

#[test]
fn before_the_game_twelve_is_extreme_ten_or_eleven_poor_else_normal() {
    let w = rules().weather;
    use volley::battle::weather::initial;
    assert_eq!(initial(&w, 12), Weather::Extreme);
    assert_eq!(initial(&w, 11), Weather::Poor);
    assert_eq!(initial(&w, 10), Weather::Poor);
    assert_eq!(initial(&w, 9), Weather::Normal);
    assert_eq!(initial(&w, 2), Weather::Normal);
    // The book's odds: extreme 1/36, poor 5/36 (10: 3 ways, 11: 2 ways).
    let mut count = [0; 3];
    for a in 1..=6 {
        for b in 1..=6 {
            count[initial(&w, a + b) as usize] += 1;
        }
    }
    assert_eq!(count, [30, 5, 1]);
}

#[test]
fn double_six_worsens_double_one_improves_anything_else_keeps_the_weather() {
    let w = rules().weather;
    use volley::battle::weather::change;
    assert_eq!(change(&w, Weather::Normal, [6, 6]), Weather::Poor);
    assert_eq!(change(&w, Weather::Poor, [6, 6]), Weather::Extreme);
    assert_eq!(change(&w, Weather::Extreme, [6, 6]), Weather::Extreme);
    assert_eq!(change(&w, Weather::Extreme, [1, 1]), Weather::Poor);
    assert_eq!(change(&w, Weather::Poor, [1, 1]), Weather::Normal);
    assert_eq!(change(&w, Weather::Normal, [1, 1]), Weather::Normal);
    assert_eq!(change(&w, Weather::Poor, [3, 3]), Weather::Poor);
    assert_eq!(change(&w, Weather::Poor, [6, 5]), Weather::Poor);
    assert_eq!(change(&w, Weather::Poor, [1, 2]), Weather::Poor);
}

#[test]
fn visibility_is_100_cm_40_in_poor_weather_or_at_night_10_in_extreme() {
    let v = rules().visibility;
    use volley::battle::weather::visibility;
    assert_eq!(visibility(&v, Weather::Normal, false), 100.0);
    assert_eq!(visibility(&v, Weather::Poor, false), 40.0);
    assert_eq!(visibility(&v, Weather::Normal, true), 40.0);
    assert_eq!(visibility(&v, Weather::Extreme, true), 10.0);
}

fn line() -> Vec<U> {
    vec![
        u(0, "regular_infantry_rifled", 4, 100.0, 60.0, 90.0),
        u(1, "regular_infantry_rifled", 4, 100.0, 120.0, 270.0),
    ]
}

fn weather_battle() -> volley::battle::Battle {
    battle_switched(
        &line(),
        Default::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
        &[Switch::Weather],
    )
}

#[test]
fn with_the_switch_the_weather_is_rolled_before_the_battle_and_sets_visibility() {
    let b = weather_battle();
    let rolls = b.dice.draws();
    assert_eq!(rolls, 2, "two dice before the battle");
    let v = b.los.params().visibility;
    let expect = volley::battle::weather::visibility(&b.rules.visibility, b.weather, false);
    assert_eq!(v, expect);
    // Without the switch no die is rolled and the weather is the scenario's.
    let plain = battle(&line());
    assert_eq!(plain.dice.draws(), 0);
    assert_eq!(plain.weather, Weather::Normal);
    assert_ne!(b.state_hash(), plain.state_hash());
}

/// Seeds/003 "Weather": "Determine the weather before the start of the game by rolling two
/// dice … In historical scenarios use the historical weather": a scenario marked
/// `historical: true` keeps its weather; the weather switch rolls no die before the battle.
#[test]
fn a_historical_scenario_keeps_its_weather_and_rolls_none_before_the_battle() {
    let on: Switches = [Switch::Weather].into_iter().collect();
    let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps");
    let before = |ev: &[Event]| {
        ev.iter()
            .filter(|e| matches!(e, Event::Weather(WeatherEvent::WeatherRoll { when: None, .. })))
            .count()
    };
    for map in ["gettysburg.ron", "peninsula.ron"] {
        let path = maps.join(map);
        let sc = volley::data::load_scenario(
            &path,
            &volley::assets_dir().join("armies"),
            &volley::footprints(&rules()),
        )
        .unwrap()
        .scenario;
        assert!(sc.historical, "{map} is historical");
        for seed in 1..=12 {
            let (b, ev) = volley::load_battle_with(&path, seed, &on).unwrap();
            assert_eq!(before(&ev), 0, "{map} seed {seed}: {ev:?}");
            assert_eq!(b.weather, sc.weather, "{map} seed {seed}");
        }
    }
    // A scenario that is not historical rolls its weather with the switch.
    let (_, ev) = volley::load_battle_with(&maps.join("skirmish.ron"), 1, &on).unwrap();
    assert_eq!(before(&ev), 1, "{ev:?}");
}

/// End phases until the game turn changes; the events of that step.
fn to_next_game_turn(b: &mut volley::battle::Battle) -> Vec<Event> {
    let turn = b.game_turn;
    end_phases_until(b, |b| b.game_turn != turn)
}

#[test]
fn a_double_six_at_the_end_of_the_game_turn_turns_normal_weather_poor_and_costs_a_command_point() {
    let mut b = weather_battle();
    b.arranging().weather = Weather::Normal;
    // Ending every phase of both player turns rolls no die but the weather test's.
    let mut faces = vec![6, 6];
    faces.extend(std::iter::repeat_n(3, 40));
    script(&mut b, &faces);
    let ev = to_next_game_turn(&mut b);
    let rolls: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::Weather(WeatherEvent::WeatherRoll { .. })))
        .collect();
    assert_eq!(rolls.len(), 1, "{ev:?}");
    match rolls[0] {
        Event::Weather(WeatherEvent::WeatherRoll { dice, from, to, when }) => {
            assert_eq!((*dice, *from, *to), ([6, 6], Weather::Normal, Weather::Poor));
            assert_eq!(*when, Some(1));
        }
        _ => unreachable!(),
    }
    assert_eq!(b.weather, Weather::Poor);
    assert_eq!(b.los.params().visibility, 40.0);
    let text: Vec<String> = ev.iter().map(|e| volley::report::line(&b, e)).collect();
    assert!(
        text.iter()
            .any(|t| t.contains("rolled 6+6: the weather turns from normal to poor")),
        "{text:?}"
    );
    // The command penalty of poor weather (BPT: −1) now applies to an order.
    to_command(&mut b);
    let ev = b
        .apply(&Action::Order {
            commander: HQ0,
            units: vec![0],
            charge: false,
            dense: false,
            road: false,
        })
        .expect("an order");
    let weather = ev.iter().find_map(|e| match e {
        Event::Command(CommandEvent::CommandRoll { modifiers, .. }) => modifiers
            .iter()
            .find(|m| volley::report::words::rule_words(m.rule).contains("Weather"))
            .cloned(),
        _ => None,
    });
    assert_eq!(weather.map(|m| m.amount), Some(-1));
}

#[test]
fn night_never_changes() {
    let mut b = weather_battle();
    b.arranging().night = true;
    b.arranging().weather = Weather::Poor;
    script(&mut b, &[6; 40]);
    let ev = to_next_game_turn(&mut b);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Weather(WeatherEvent::WeatherRoll { .. })))
    );
    assert_eq!(b.weather, Weather::Poor);
}

#[test]
fn a_recording_names_its_switches_and_replays_only_with_them() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
    let on: Switches = [Switch::Weather].into_iter().collect();
    let (b, _) = volley::load_battle_with(&path, 5, &on).expect("skirmish with weather");
    assert!(b.rules.switches.on(Switch::Weather));
    let mut rec = Recording::start(&b, &path.display().to_string(), 5, Some(3));
    let mut b = b;
    b.cap_turns(Some(3));
    let mut a = [
        agents::by_name("eager", 5, 0).unwrap(),
        agents::by_name("eager", 5, 1).unwrap(),
    ];
    let mut weather_rolls = 0;
    let done = volley::sim::play(b, &mut a, 100_000, |b, act, ev| {
        weather_rolls += ev
            .iter()
            .filter(|e| matches!(e, Event::Weather(WeatherEvent::WeatherRoll { .. })))
            .count();
        rec.push(b, act, ev)
    })
    .expect("plays");
    assert!(weather_rolls >= 1, "a test at the end of each finished game turn");
    assert!(
        rec.to_ron().contains("switches: [\n        Weather,\n    ]"),
        "{}",
        rec.to_ron()
    );
    let back = Recording::parse(&rec.to_ron(), &path).expect("parses");
    assert_eq!(back.switches, on);
    let (_, h) = verify(&back, &path).expect("verifies with the switch");
    assert_eq!(h, done.state_hash());
    // The same actions without the switch are another game.
    let mut off = back.clone();
    off.switches = Switches::default();
    assert!(verify(&off, &path).is_err());
}

#[test]
fn unknown_rule_names_are_refused_with_the_list() {
    let e = Switches::parse_list(&["weather,sabre"]).unwrap_err();
    assert!(e.contains("saber-charge"), "{e}");
}

#[test]
fn a_rule_the_game_does_not_play_yet_is_refused_by_name_never_ignored() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
    for s in Switch::ALL.into_iter().filter(|s| !s.implemented()) {
        let one: Switches = [s].into_iter().collect();
        let e = volley::load_battle_with(&path, 1, &one)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.contains(s.key()) && e.contains("not played"), "{e}");
    }
    for s in Switch::ALL.into_iter().filter(|s| s.implemented()) {
        let one: Switches = [s].into_iter().collect();
        let (b, _) = volley::load_battle_with(&path, 1, &one).expect("a played rule loads");
        assert!(b.rules.switches.on(s));
    }
}

/// Seeds/003 "Breakpoint": "the player should make a command roll … using the command value of
/// the CO … Deduct one from the command value for each unit knocked-out beyond the breakpoint";
/// "Weather": "poor weather will result in a -1 command penalty". CO value 8, one unit beyond
/// the breakpoint, poor weather: 6, so a 7 breaks the side (in normal weather 7 holds).
#[test]
fn poor_weather_costs_the_breakpoint_roll_a_point_so_a_seven_breaks_at_six() {
    let run = |weather: Weather| {
        let mut b = battle_switched(
            &[
                u(0, "regular_infantry_rifled", 4, 100.0, 50.0, 90.0),
                u(1, "regular_infantry_rifled", 4, 100.0, 150.0, 270.0),
                u(1, "regular_infantry_rifled", 4, 130.0, 150.0, 270.0),
                u(1, "regular_infantry_rifled", 4, 160.0, 150.0, 270.0),
                u(1, "regular_infantry_rifled", 4, 190.0, 150.0, 270.0),
            ],
            Default::default(),
            [(20.0, 5.0), (220.0, 175.0)],
            [(40.0, 5.0), (200.0, 175.0)],
            &[Switch::Weather],
        );
        b.arranging().weather = weather;
        to_command(&mut b);
        // Four units, breakpoint 2; three lost: one beyond it.
        assert_eq!(b.sides[1].breakpoint, 2);
        for id in [1, 2, 3] {
            b.arranging().unit_mut(id).knocked_out = true;
        }
        assert_eq!(b.commander(2).command_value, 8);
        script(&mut b, &[3, 4]);
        let ev = b.apply(&Action::EndPhase).unwrap();
        let roll = ev
            .iter()
            .find_map(|e| match e {
                Event::Morale(MoraleEvent::BreakpointRoll {
                    side: 1,
                    value,
                    dice,
                    broken,
                }) => Some((*value, *dice, *broken)),
                _ => None,
            })
            .expect("a breakpoint roll");
        (roll, b.sides[1].broken)
    };
    assert_eq!(run(Weather::Poor), ((6, [3, 4], true), true));
    assert_eq!(run(Weather::Normal), ((7, [3, 4], false), false));
    assert_eq!(run(Weather::Extreme).0.0, 5, "extreme weather: -2");
}

/// A self-order is "a single command" (seeds/003 "Command Phase"), so the weather's command
/// penalty applies to it too: against 7 (DECISIONS), 6 in poor weather, 5 in extreme.
#[test]
fn poor_weather_costs_a_self_order_a_point() {
    let target = |weather: Weather, faces: &[u32]| {
        let mut b = battle_switched(
            &[
                u(0, "regular_infantry_rifled", 4, 100.0, 100.0, 270.0),
                u(1, "regular_infantry_rifled", 4, 200.0, 170.0, 270.0),
            ],
            Default::default(),
            [(20.0, 5.0), (220.0, 175.0)],
            [(40.0, 5.0), (200.0, 175.0)],
            &[Switch::Weather],
        );
        b.arranging().weather = weather;
        to_command(&mut b);
        script(&mut b, faces);
        let ev = b.apply(&Action::SelfOrder { unit: 0 }).unwrap();
        ev.iter()
            .find_map(|e| match e {
                Event::Command(CommandEvent::SelfOrderRoll { target, success, .. }) => Some((*target, *success)),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(target(Weather::Normal, &[3, 4]), (7, true));
    assert_eq!(target(Weather::Poor, &[3, 4]), (6, false));
    assert_eq!(target(Weather::Extreme, &[2, 3]), (5, true));
}
