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

/// What is wrong with a text of the scenario editor about `doc`: an id of the file (a unit's,
/// a commander's, an army row's, an army list's file stem) as a word, or any word joined with
/// `_` as ids are; and, the scenario's proper names and its file's path taken out, what
/// [`text_problems`] finds (a program's internal names, `Some(..)`, bad plurals).
#[cfg(feature = "gui")]
fn editor_text_problems(doc: &volley::editor::Doc, text: &str) -> Vec<String> {
    let sc = &doc.scenario;
    let mut ids: Vec<&str> = Vec::new();
    for s in &sc.sides {
        ids.extend(s.units.iter().map(|u| u.id.as_str()));
        ids.extend(s.commanders.iter().map(|c| c.id.as_str()));
        ids.push(s.army.as_str());
    }
    for a in &doc.armies {
        ids.extend(a.troops.iter().map(|t| t.id.as_str()));
        ids.extend(a.commands.iter().map(|c| c.id.as_str()));
    }
    // The file's path is the file's (the status line, Save as).
    let path = doc.path.display().to_string();
    let text = &text.replace(&path, " ");
    let mut out = Vec::new();
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if ids.contains(&word) {
            out.push(format!("the id `{word}`"));
        } else if word.contains('_') {
            out.push(format!("an id-like word `{word}`"));
        }
    }
    let mut names: Vec<&str> = vec![sc.title.as_str()];
    for s in &sc.sides {
        names.push(s.name.as_str());
        names.extend(s.units.iter().map(|u| u.name.as_str()));
        names.extend(s.commanders.iter().map(|c| c.name.as_str()));
    }
    let t = &sc.terrain;
    names.extend(t.areas.iter().map(|a| a.name.as_str()));
    names.extend(t.linears.iter().map(|a| a.name.as_str()));
    names.extend(t.hills.iter().map(|a| a.name.as_str()));
    names.extend(t.buildings.iter().map(|a| a.name.as_str()));
    names.extend(sc.objectives.iter().map(|o| o.name.as_str()));
    for a in &doc.armies {
        names.push(a.name.as_str());
        names.extend(a.troops.iter().map(|t| t.name.as_str()));
    }
    names.retain(|n| !n.is_empty());
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    let mut rest = text.to_string();
    for n in names {
        rest = rest.replace(n, " ");
    }
    out.extend(text_problems(&rest));
    out
}

/// Every piece of text egui draws of the editor's panel and status line for `editor`.
#[cfg(feature = "gui")]
fn editor_panel_text(editor: &mut volley::ui::editor::Editor, battle: &Battle) -> Vec<String> {
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
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1600.0, 3000.0))),
        ..Default::default()
    };
    let out = ctx.run_ui(raw, |ui| {
        let ctx = ui.ctx().clone();
        volley::ui::editor::panel::draw(&ctx, editor, battle);
    });
    let mut all = Vec::new();
    for s in &out.shapes {
        texts(&s.shape, &mut all);
    }
    out.drop_without_applying_deltas();
    all
}

/// The scenario editor names units and commanders, army rows and lists in words, never by the
/// ids the file links them with (`us_20me`, `s0_co`, `brigade_average`, `acw_union`): for every
/// bundled scenario, each piece's name (the selected piece's heading, "placed …"), each roster
/// line, and the panel as drawn with each unit and each commander selected (its commander, row
/// and superior) and with the Unit and Commander tools in hand; then, of the skirmish with
/// faults, the problems listed, what the table cannot show and a refused delete.
#[cfg(feature = "gui")]
#[test]
fn the_editor_says_names_not_ids() {
    use volley::editor::{Doc, Piece, preview, problems};
    use volley::ui::editor::panel::roster::{commander_line, unit_line};
    use volley::ui::editor::{Editor, Tool};
    let maps = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps");
    let mut files: Vec<_> = std::fs::read_dir(&maps)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut found = Vec::new();
    let mut told = 0;
    let mut check = |doc: &Doc, what: &str, text: &str| {
        told += 1;
        for p in editor_text_problems(doc, text) {
            if found.len() < 40 {
                found.push(format!("{}: {what}: {p} in: {text}", doc.path.display()));
            }
        }
    };
    for file in &files {
        let doc = Doc::open(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let sc = &doc.scenario;
        let battle = preview::preview(&doc, 1).expect("a bundled scenario builds").0;
        let mut pieces = Vec::new();
        for (s, side) in sc.sides.iter().enumerate() {
            pieces.extend((0..side.units.len()).map(|i| Piece::Unit { side: s, i }));
            pieces.extend((0..side.commanders.len()).map(|i| Piece::Commander { side: s, i }));
            for i in 0..side.commanders.len() {
                check(&doc, "roster", &commander_line(&doc, s, i));
            }
            for i in 0..side.units.len() {
                check(&doc, "roster", &unit_line(&doc, s, i));
            }
        }
        for p in &pieces {
            check(&doc, "name", &p.label(sc));
        }
        for (s, a) in doc.armies.iter().enumerate() {
            for r in &a.commands {
                check(&doc, "command row", &volley::editor::names::command_row_words(r));
            }
            check(
                &doc,
                "army",
                &volley::editor::names::row_words(a, &sc.sides[s].units[0].row).unwrap(),
            );
        }
        let mut editor = Editor {
            doc: Some(doc.clone()),
            ..Default::default()
        };
        editor.fill_drafts();
        for tool in [Tool::Unit, Tool::Commander] {
            editor.tool = tool;
            for side in 0..2 {
                editor.drafts.side = side;
                editor.fill_drafts();
                for t in editor_panel_text(&mut editor, &battle) {
                    check(&doc, &format!("the panel, {tool:?} tool"), &t);
                }
            }
        }
        editor.tool = Tool::Select;
        for p in pieces.iter().filter(|p| p.exists(sc)) {
            editor.selected = Some(*p);
            for t in editor_panel_text(&mut editor, &battle) {
                check(&doc, "the panel", &t);
            }
        }
        assert!(
            !editor.doc.as_ref().unwrap().dirty(),
            "drawing the panel changed nothing"
        );
    }
    // The skirmish with faults: the problems, what the table cannot show, a refused delete.
    let mut doc = Doc::open(&maps.join("skirmish.ron")).unwrap();
    doc.edit(|s| {
        s.sides[0].units[1].pos = s.sides[0].units[0].pos;
        s.sides[0].units[2].row = "no_such_row".into();
        s.sides[1].units[0].commander = s.sides[0].commanders[0].id.clone();
        s.sides[1].commanders[1].row = "brigade_average".into();
    })
    .unwrap();
    let ps = problems::problems(&doc, 12);
    assert!(ps.len() >= 2, "{ps:?}");
    for p in &ps {
        // The file's own typing error is quoted as the file has it: it names nothing.
        check(&doc, "a problem", &p.msg.replace("\"no_such_row\"", "\"a row\""));
    }
    let why = preview::unbuildable(&doc).expect("not buildable");
    check(
        &doc,
        "the table cannot show it",
        &why.replace("\"no_such_row\"", "\"a row\""),
    );
    let mut lone = Doc::open(&maps.join("skirmish.ron")).unwrap();
    let refused = lone
        .edit(|s| volley::editor::piece::remove(s, Piece::Commander { side: 0, i: 0 }))
        .unwrap()
        .unwrap_err();
    check(&lone, "a refused delete", &refused);
    let mut editor = Editor {
        problems: ps,
        unbuilt: Some(why),
        doc: Some(doc.clone()),
        ..Default::default()
    };
    editor.fill_drafts();
    let battle = preview::preview(&Doc::open(&maps.join("skirmish.ron")).unwrap(), 1)
        .unwrap()
        .0;
    for t in editor_panel_text(&mut editor, &battle) {
        check(&doc, "the problems panel", &t.replace("\"no_such_row\"", "\"a row\""));
    }
    assert!(told > 2000, "too little said to judge: {told} texts");
    assert!(found.is_empty(), "{} problems:\n{}", found.len(), found.join("\n"));
}
