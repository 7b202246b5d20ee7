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
    // Several match: each is answered, under a count.
    let lines = volley::terminal::why_lines(&b, &legal, side, "th");
    assert!(lines[0].contains("of your units match `th`"), "{lines:?}");
    assert!(
        lines[1..].iter().all(|l| l.ends_with("(BPT Initiative Phase).")),
        "{lines:?}"
    );
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
