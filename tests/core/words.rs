//! Plain words in the battle log (issue 16): whole games on several scenarios, every event and
//! every action described as the window's log and dice panel describe them, and no text may
//! carry a program's internal name (`CaughtEvading`, `OpenFire`, `Some(..)`), a minus zero
//! angle, or a bad plural (`1 units`).

use volley::agents;
use volley::battle::Battle;

/// What is wrong with one line of the log, the battle's proper names (units, commanders,
/// sides, terrain, objectives, the title) taken out first: they are the scenario's own.
pub fn word_problems(b: &Battle, line: &str) -> Vec<String> {
    let mut names: Vec<&str> = Vec::new();
    names.extend(b.units.iter().map(|u| u.name.as_str()));
    names.extend(b.commanders.iter().map(|c| c.name.as_str()));
    // A formation's name (a commander's surname: "McIntosh's artillery").
    let formations: Vec<String> = b
        .commanders
        .iter()
        .map(|c| volley::report::intent::formation_words(b, c))
        .collect();
    names.extend(formations.iter().map(|f| f.as_str()));
    names.extend(b.sides.iter().map(|s| s.name.as_str()));
    names.extend(b.sides.iter().map(|s| s.army.as_str()));
    names.extend(b.terrain.areas.iter().map(|a| a.name.as_str()));
    names.extend(b.terrain.linears.iter().map(|a| a.name.as_str()));
    names.extend(b.terrain.hills.iter().map(|a| a.name.as_str()));
    names.extend(b.terrain.buildings.iter().map(|a| a.name.as_str()));
    names.extend(b.objectives.iter().map(|o| o.name.as_str()));
    names.push(b.title.as_str());
    names.retain(|n| !n.is_empty());
    // The longest first, so a name inside another goes with it.
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    let mut text = line.to_string();
    for n in names {
        text = text.replace(n, " ");
    }
    text_problems(&text)
}

/// The same checks on a text with no proper names in it.
pub fn text_problems(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        let chars: Vec<char> = word.chars().collect();
        // An inner capital after a small letter: `CaughtEvading`, `KeyW`, `BuiltUp`.
        if chars.windows(2).any(|w| w[0].is_lowercase() && w[1].is_uppercase()) {
            out.push(format!("internal name `{word}`"));
        }
    }
    // A program's words for its workings (issue 65): an agent's name in brackets, the
    // look-ahead's "play-outs", a move that "counts as" more than it went unexplained.
    if text.trim_start().starts_with('[') && text.contains("] ") {
        out.push("a bracketed name".into());
    }
    for bad in ["Some(", "None", "-0°", "-0 °", "{", "}", "play-outs", "counts as"] {
        if text.contains(bad) {
            out.push(format!("`{bad}`"));
        }
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    for w in words.windows(2) {
        let noun = w[1].trim_end_matches(|c: char| !c.is_alphanumeric());
        let plural = [
            "units", "stands", "hits", "dice", "actions", "attacks", "turns", "orders", "cms", "points",
        ];
        let one = w[0].trim_start_matches(['(', '[']);
        if one == "1" && plural.contains(&noun) {
            out.push(format!("bad plural `{} {}`", w[0], w[1]));
        }
    }
    out
}

/// Play a game to the end (or `max` actions), describing everything; the problems found.
fn play_and_read(scenario: &str, seed: u64, agents_: [&str; 2], max: u64) -> (usize, Vec<String>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("maps")
        .join(scenario);
    let (b, events) = volley::load_battle(&path, seed).expect("the scenario loads");
    let mut problems = Vec::new();
    let mut lines = 0;
    let mut check = |b: &Battle, line: String| {
        lines += 1;
        for p in word_problems(b, &line) {
            if problems.len() < 40 {
                problems.push(format!("{scenario} seed {seed}: {p} in: {line}"));
            }
        }
    };
    for e in &events {
        check(&b, volley::report::line(&b, e));
    }
    let mut a = [
        agents::by_name(agents_[0], seed, 0).unwrap(),
        agents::by_name(agents_[1], seed, 1).unwrap(),
    ];
    let mut before = b.clone();
    let mut last_phase = None;
    let _ = volley::sim::play_with_reasons(b, &mut a, max, |b, act, ev, why| {
        // At each new phase, what each side reads of the battle: the terminal's `units`
        // (whole, and a formation a line) and the window's list of who may act and roster.
        let phase = (b.game_turn, b.phase, b.active);
        if last_phase != Some(phase) {
            last_phase = Some(phase);
            for side in 0..2 {
                for l in volley::terminal::view::units(b, side)
                    .into_iter()
                    .chain(volley::terminal::view::formations(b, side))
                {
                    check(b, l);
                }
                #[cfg(feature = "gui")]
                for g in volley::ui::panels::roster::roster(b, side) {
                    check(b, g.title);
                }
            }
            #[cfg(feature = "gui")]
            for g in volley::ui::panels::orders::entries(b, &volley::ui::Selection::default(), &b.legal_actions()) {
                check(b, g.title.clone());
                for e in g.entries {
                    check(b, e.text);
                }
            }
        }
        // The action as the menu shows it before it is taken, the computer's reason for it
        // (the log and the ring on the table show it), its events after.
        check(&before, volley::report::heading(&before, act));
        if let Some(why) = why {
            let side = &before.sides[before.actor()].name;
            check(&before, volley::report::computer_says(side, "scheduler", why));
        }
        for e in ev {
            check(b, volley::report::line(b, e));
        }
        before = b.clone();
    });
    (lines, problems)
}

#[test]
fn whole_games_are_told_in_plain_words() {
    let mut games: Vec<(&str, u64, [&str; 2], u64)> = Vec::new();
    for scenario in [
        "skirmish.ron",
        "first_battle.ron",
        "river_crossing.ron",
        "morale_demo.ron",
        "initiative_demo.ron",
        "constructions_demo.ron",
        "scouting_demo.ron",
        "delay_demo.ron",
        "engineers.ron",
        "peninsula.ron",
        "gettysburg.ron",
    ] {
        for (seed, agents_) in [
            (3, ["random", "random"]),
            (8, ["eager", "eager"]),
            (5, ["eager", "random"]),
        ] {
            games.push((scenario, seed, agents_, 100_000));
        }
    }
    // The scheduler's choices too, for a while (it thinks slowly in a debug build).
    games.push(("first_battle.ron", 11, ["scheduler-easy", "eager"], 250));
    let mut all = Vec::new();
    let mut total = 0;
    for (scenario, seed, agents_, max) in games {
        let (n, p) = play_and_read(scenario, seed, agents_, max);
        total += n;
        all.extend(p);
    }
    assert!(total > 2000, "the games said too little to judge: {total} lines");
    assert!(all.is_empty(), "{} problems:\n{}", all.len(), all.join("\n"));
}

#[test]
fn the_check_catches_the_old_texts() {
    // What the log used to say (issue 16): each must be caught.
    for old in [
        "12th Virginia is knocked out: CaughtEvading",
        "Colonel Hays is knocked out: WithOther",
        "Colonel Hays blunders: rolled 5: OpenFire",
        "Colonel Hays blunders: rolled 6: LetsGetEm",
        "fire (order) at the farm (Front, BuiltUp cover)",
        "moves 4 cm to (1, 2) facing -0°",
        "Game over (time): Union — Minor; 1 units lost",
        "loses 1 stands, 2 left",
        "[3 4] → 1 hits",
        "[scheduler] 7th Wisconsin: hold; looked ahead 96 games: +0.1 stands",
        "against +0.2 for a move (within the play-outs' luck)",
        "7th Wisconsin moves 10.0 cm to (4.0, 5.0), facing 90° (counts as 12.0 cm of its move)",
    ] {
        assert!(!text_problems(old).is_empty(), "not caught: {old}");
    }
    for fine in [
        "12th Virginia is knocked out: caught evading",
        "takes 1 hit (1 of 3)",
        "loses 1 stand, 2 left",
        "rolled 1+4 = 5: order issued",
        "Turn 2, Union: command phase",
        "Confederate, played by the computer (scheduler): 7th Wisconsin: hold",
        "against +0.2 for a move (closer than the luck of so few games can tell apart)",
        "moves 10.0 cm to (4.0, 5.0), facing 90° (12.0 cm of its move used, its wheel, turn and ground counted)",
    ] {
        assert!(text_problems(fine).is_empty(), "{fine}: {:?}", text_problems(fine));
    }
}

#[cfg(feature = "gui")]
#[test]
fn the_unit_card_words_its_army_list_notes() {
    // Issue 65's plain words: the card said "Notes: 1, 14"; it now gives each note's rule.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/first_battle.ron");
    let (b, _) = volley::load_battle(&path, 1).expect("First Battle loads");
    let u = b
        .units
        .iter()
        .find(|u| u.name == "5th New Hampshire")
        .expect("the regiment");
    assert_eq!(u.row.notes, vec![1, 14]);
    let lines = volley::ui::panels::unit_card::note_lines(&b, u);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("Note 1: Regular infantry may be graded Elite"),
        "{lines:?}"
    );
    assert!(lines[1].starts_with("Note 14: ") && lines[1].len() > 20, "{lines:?}");
    for l in &lines {
        assert!(word_problems(&b, l).is_empty(), "{l}: {:?}", word_problems(&b, l));
    }
}

#[cfg(feature = "gui")]
#[test]
fn the_legend_names_the_sides_by_their_colours() {
    // Issue 65's plain words: the legend said "blue side (the first side)".
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/first_battle.ron");
    let (b, _) = volley::load_battle(&path, 1).expect("First Battle loads");
    let first = b.first_side;
    let words = volley::ui::panels::legend::side_words("blue", &b, first);
    assert_eq!(words, format!("blue: the {}, moves first", b.sides[first].name));
    let other = volley::ui::panels::legend::side_words("grey", &b, 1 - first);
    assert_eq!(other, format!("grey: the {}", b.sides[1 - first].name));
}
