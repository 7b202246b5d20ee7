//! Issue 65, "a missing action can be asked about": `Battle::why_idle` names the rule that
//! stops a unit with no action now, from the same checks the actions are listed by; the
//! terminal's `why WORD` says it for the player's units.

use volley::battle::state::{OrderState, Suppression};
use volley::battle::{Action, Battle, Phase};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn first_battle() -> Battle {
    let path = std::path::Path::new(ROOT).join("maps/first_battle.ron");
    volley::load_battle(&path, 1).expect("First Battle loads").0
}

fn unit(b: &Battle, name: &str) -> u32 {
    b.units.iter().find(|u| u.name == name).expect(name).id
}

#[test]
fn in_the_initiative_phase_a_unit_far_from_the_enemy_or_suppressed_is_told_why() {
    let mut b = first_battle();
    assert_eq!(b.phase, Phase::Initiative);
    let mine = b.side_units(b.active).next().expect("a unit").id;
    let legal = b.legal_actions();
    let why = b.why_idle(mine, &legal).expect("no initiative action at the start");
    assert_eq!(why.rule, "BPT Initiative Phase");
    assert!(why.reason.contains("sees no enemy within 20 cm"), "{why:?}");
    // Suppressed: the first rule that stops it is its suppression.
    b.arranging().unit_mut(mine).suppressed = Some(Suppression {
        player_turn: b.player_turn,
        order_seq: 0,
    });
    let why = b.why_idle(mine, &b.legal_actions()).expect("still none");
    assert_eq!(why.reason, "suppressed units may not act on their initiative");
    // The other side's unit acts in its own turn.
    let theirs = b.side_units(1 - b.active).next().expect("an enemy").id;
    let why = b.why_idle(theirs, &b.legal_actions()).expect("not its turn");
    assert_eq!(why.rule, "BPT Sequence of Play");
    assert!(why.reason.contains("acts in its own side's turn"), "{why:?}");
}

#[test]
fn in_the_command_phase_a_unit_with_an_order_has_actions_and_one_whose_order_is_used_is_told_so() {
    let mut b = first_battle();
    b.apply(&Action::EndPhase).expect("to the command phase");
    assert_eq!(b.phase, Phase::Command);
    let legal = b.legal_actions();
    // Every unit of the side may be ordered: an order naming it is its action (so is a
    // further order to a unit whose actions are spent but whose orders are not finished).
    for u in b.side_units(b.active) {
        assert_eq!(b.why_idle(u.id, &legal), None, "{} may be ordered", u.name);
    }
    let mine = b.side_units(b.active).next().expect("a unit").id;
    let hq = b.unit(mine).hq;
    b.arranging().cmd.orders.insert(
        mine,
        OrderState {
            count: 1,
            credits: 0,
            finished: true,
            ..OrderState::new(hq)
        },
    );
    let why = b.why_idle(mine, &b.legal_actions()).expect("its order is used");
    assert_eq!(why.rule, "BPT Actions");
    assert!(
        why.reason.ends_with("has used the actions of its order this turn"),
        "{why:?}"
    );
    // The army's commander failed: nobody orders any more, and it says so.
    let other = b.side_units(b.active).nth(1).expect("a second unit").id;
    b.arranging().cmd.all_stopped = true;
    let why = b.why_idle(other, &b.legal_actions()).expect("no orders any more");
    assert_eq!(why.rule, "BPT Command Phase", "{why:?}");
    assert_eq!(
        why.reason,
        "the army HQ failed a command roll: no more orders this turn"
    );
}

#[test]
fn a_knocked_out_unit_is_said_to_be_knocked_out() {
    let mut b = first_battle();
    let id = unit(&b, "7th Wisconsin");
    b.arranging().unit_mut(id).knocked_out = true;
    let why = b.why_idle(id, &b.legal_actions()).expect("knocked out");
    assert_eq!(why.reason, "7th Wisconsin has been knocked out");
}

#[test]
fn why_in_the_terminal_answers_for_the_players_units_by_name_or_label() {
    let b = first_battle();
    let legal = b.legal_actions();
    let side = b.active;
    let lines = volley::terminal::why_lines(&b, &legal, side, "new hamp");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].ends_with(" 5th New Hampshire sees no enemy within 20 cm (BPT Initiative Phase)."),
        "{lines:?}"
    );
    // Several match: each is answered, under a count (the Iron Brigade's Wisconsin regiments).
    let path = std::path::Path::new(ROOT).join("maps/gettysburg.ron");
    let g = volley::load_battle(&path, 1).expect("Gettysburg loads").0;
    let wisconsin = g.unit(unit(&g, "2nd Wisconsin")).side;
    let lines = volley::terminal::why_lines(&g, &g.legal_actions(), wisconsin, "wiscon");
    assert!(lines[0].ends_with("of your units match `wiscon`:"), "{lines:?}");
    for regiment in ["2nd Wisconsin", "6th Wisconsin", "7th Wisconsin"] {
        assert!(lines[1..].iter().any(|l| l.contains(regiment)), "{regiment}: {lines:?}");
    }
    // A knocked-out unit is said to be, not listed as acting.
    let mut gone = b.clone();
    let id = gone.side_units(side).next().unwrap().id;
    gone.arranging().unit_mut(id).knocked_out = true;
    let name = gone.unit(id).name.clone();
    let lines = volley::terminal::why_lines(&gone, &gone.legal_actions(), side, &name);
    assert!(
        lines[0].ends_with(&format!("{name} has been knocked out (BPT Knock-Out).")),
        "{lines:?}"
    );
    // None: said, and nothing of the enemy.
    let enemy = b.side_units(1 - side).next().unwrap().name.clone();
    let lines = volley::terminal::why_lines(&b, &legal, side, &enemy);
    assert_eq!(lines, vec![format!("  None of your units is named `{enemy}`.")]);
    let lines = volley::terminal::why_lines(&b, &legal, side, "");
    assert!(lines[0].contains("`why WORD`"), "{lines:?}");
}

#[cfg(feature = "gui")]
#[test]
fn the_orders_panel_says_why_the_selected_unit_has_no_action() {
    use volley::ui::common::Selection;
    use volley::ui::panels::orders::nothing_to_do;
    let mut b = first_battle();
    let mine = b.side_units(b.active).next().expect("a unit").id;
    let sel = Selection {
        unit: Some(mine),
        ..Default::default()
    };
    let text = nothing_to_do(&b, &sel, &b.legal_actions(), true);
    assert!(
        text.starts_with("No action now: ") && text.contains("sees no enemy within 20 cm (BPT Initiative Phase)"),
        "{text}"
    );
    b.arranging().unit_mut(mine).suppressed = Some(Suppression {
        player_turn: b.player_turn,
        order_seq: 0,
    });
    let text = nothing_to_do(&b, &sel, &b.legal_actions(), true);
    assert!(
        text.contains("suppressed units may not act on their initiative"),
        "{text}"
    );
    // Nothing selected: as before.
    let none = nothing_to_do(&b, &Selection::default(), &b.legal_actions(), false);
    assert_eq!(none, "No actions but ending the phase.");
}

#[test]
fn a_word_names_a_unit_by_its_label_or_the_start_of_a_word_of_its_name() {
    use volley::terminal::name_matches;
    assert!(name_matches("5th New Hampshire", "hamp"));
    assert!(name_matches("5th New Hampshire", "5th"));
    assert!(name_matches("5th New Hampshire", "New Hamp"));
    assert!(name_matches("Col. Thomas Reed", "reed"));
    // Not any name holding the letters: `l h` was every name with an h in it.
    assert!(!name_matches("5th New Hampshire", "ew"));
    assert!(!name_matches("7th Wisconsin", "h"));
    assert!(!name_matches("7th Wisconsin", ""));
    // In the list: a label names its unit alone; a word names every unit it begins a word of,
    // under a count.
    let mut b = first_battle();
    b.apply(&Action::EndPhase).expect("to the command phase");
    let legal = b.legal_actions();
    // In the command phase a unit's actions are its commander's orders, listed under him: `why`
    // by its label says whom to list.
    let label = volley::terminal::view::label(&b, b.active, unit(&b, "7th Wisconsin"));
    let why = volley::terminal::why_lines(&b, &legal, b.active, &label);
    assert_eq!(
        why,
        vec![format!(
            "  {label} 7th Wisconsin may be ordered by Col. Thomas Reed: type `l Reed`."
        )]
    );
    let lines = volley::terminal::list_lines(&b, &legal, Some("Reed"), true);
    assert!(lines.iter().any(|l| l.contains("Col. Thomas Reed")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("7th Wisconsin")), "{lines:?}");
    // Several groups match: said first (Gettysburg's brigadiers, not its colonels).
    let path = std::path::Path::new(ROOT).join("maps/gettysburg.ron");
    let mut g = volley::load_battle(&path, 1).expect("Gettysburg loads").0;
    while g.phase != Phase::Command || g.unit(unit(&g, "2nd Wisconsin")).side != g.active {
        g.apply(&Action::EndPhase).expect("on to the Union's command phase");
    }
    let lines = volley::terminal::list_lines(&g, &g.legal_actions(), Some("brig"), true);
    assert!(lines[0].starts_with("  `brig` matches "), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("Brig. Gen. Solomon Meredith")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("@ Col. ")), "{lines:?}");
}
