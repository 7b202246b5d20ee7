//! Orders on the table: what a click on the piece under the pointer would do, worked out from
//! the selection and the legal actions of the moment, and shown at the pointer before the
//! click (`PointerOrder`, drawn with the hovered piece's tooltip).
//!
//! - A unit of the side to act selected, an enemy unit under the pointer: fire at it (ordered,
//!   initiative or opportunity fire, as the step allows) with its dice, score, expected hits and
//!   chance to suppress; or, when the unit holds a charge order, charge it, with the chance to
//!   win by double and to lose. When neither is legal, the rule that forbids the fire.
//! - A commander selected, a unit of his side under the pointer: order that unit alone, with
//!   the roll needed and every modifier.
//! - A commander selected, a box dragged from an empty spot (`BoxSelect`): order the units of
//!   his command inside it as one formation (Shift: the order may charge), with the roll
//!   needed, or the rule that refuses it.
//!
//! The click itself is taken by the input controller, `table::input` (it sends
//! `PointerOrder::action`).

use crate::battle::UnitId;
use crate::battle::fire::FireContext;
use crate::battle::{Action, Battle, Phase};
use crate::ui::common::{BoxSelect, LegalCache, PointerOrder, Screen, Selection, TableHover};
use crate::ui::session::{Seats, Turn};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<LegalCache>().add_systems(
        Update,
        point_order
            .in_set(crate::ui::common::TableSystems::Input)
            .before(crate::ui::camera::CameraSystems)
            .run_if(in_state(Screen::Battle)),
    );
}

type PointKey = (u64, Selection, Selection, bool, Option<(Rect, bool)>);

/// What the order at the pointer is worked out from: the battle, the selection, the piece
/// under the pointer, and whether the table is the player's (who sits where, whose turn).
#[derive(SystemParam)]
struct PointedAt<'w> {
    battle: Res<'w, crate::app::BattleState>,
    selection: Res<'w, Selection>,
    hover: Res<'w, TableHover>,
    seats: Res<'w, Seats>,
    turn: Res<'w, State<Turn>>,
    pause: Option<Res<'w, crate::ui::screens::handover::ResultPause>>,
}

/// Keeps `PointerOrder` for the piece under the pointer, or for the box being dragged (only
/// when something changed).
fn point_order(
    at: PointedAt,
    mut legal: ResMut<LegalCache>,
    mut order: ResMut<PointerOrder>,
    mut boxed: ResMut<BoxSelect>,
    camera: Option<Single<(&Camera, &GlobalTransform), With<crate::ui::camera::TableCamera>>>,
    mut last: Local<Option<PointKey>>,
) {
    let PointedAt {
        battle,
        selection,
        hover,
        seats,
        turn,
        pause,
    } = at;
    let b = &battle.0;
    let mine = crate::ui::session::at_table(turn.get(), &seats, crate::ui::screens::handover::held(&pause));
    let rect = boxed.rect();
    let key = (b.actions, *selection, hover.0, mine, rect.map(|r| (r, boxed.charge)));
    if *last == Some(key) {
        return;
    }
    *last = Some(key);
    if let (Some(r), Some(c), true) = (rect, selection.commander, mine) {
        let units = match camera {
            Some(cam) => {
                let (cam, tf) = cam.into_inner();
                units_in_box(b, c, r, |p| {
                    cam.world_to_viewport(tf, Vec3::new(p.x as f32, p.y as f32, 0.0)).ok()
                })
            }
            None => Vec::new(),
        };
        let next = box_order(b, c, &units, boxed.charge);
        if boxed.units != units {
            boxed.units = units;
        }
        if *order != next {
            *order = next;
        }
        return;
    }
    if !boxed.units.is_empty() {
        boxed.units.clear();
    }
    let next = if mine {
        legal.refresh(b);
        order_at(b, &selection, &hover.0, &legal.actions)
    } else {
        PointerOrder::default()
    };
    if *order != next {
        *order = next;
    }
}

fn pct(p: f64) -> String {
    format!("{:.0}%", p * 100.0)
}

/// What a click on `hover` would order, `sel` being selected and `legal` the legal actions.
pub fn order_at(b: &Battle, sel: &Selection, hover: &Selection, legal: &[Action]) -> PointerOrder {
    if b.is_over() || hover.commander.is_some() {
        return PointerOrder::default();
    }
    let Some(target) = hover.unit else {
        return PointerOrder::default();
    };
    let actor = b.actor();
    if let Some(unit) = sel.unit {
        let me = b.unit(unit);
        let them = b.unit(target);
        if me.side != actor || them.side == me.side || !me.alive() || !them.alive() {
            return PointerOrder::default();
        }
        return attack_order(b, unit, target, legal);
    }
    if let Some(c) = sel.commander {
        let cmd = b.commander(c);
        let u = b.unit(target);
        if cmd.side != actor || u.side != cmd.side || b.phase != Phase::Command {
            return PointerOrder::default();
        }
        return unit_order(b, c, target, legal);
    }
    PointerOrder::default()
}

/// The fire or charge of `unit` at `target`.
fn attack_order(b: &Battle, unit: u32, target: u32, legal: &[Action]) -> PointerOrder {
    let charge = legal.iter().find(|a| {
        matches!(a, Action::Charge { unit: u, target: t } | Action::InitiativeCharge { unit: u, target: t }
            if *u == unit && *t == target)
    });
    let fire = legal.iter().find(|a| match a {
        Action::Fire { unit: u, target: t } | Action::InitiativeFire { unit: u, target: t } => {
            *u == unit && *t == target
        }
        Action::OpportunityFire {
            unit: u,
            target: t,
            with,
        } => *u == unit && *t == target && with.is_empty(),
        Action::CounterFire { unit: u } => {
            *u == unit && matches!(b.step, crate::battle::Step::CounterInitiative { charger, .. } if charger == target)
        }
        _ => false,
    });
    let (me, them) = (&b.unit(unit).name, &b.unit(target).name);
    if let Some(a) = charge {
        // One check of the charge for the first round's dice and the whole charge's odds.
        let fight = b.charge_fight(unit, target);
        let [mine, theirs] = fight.first;
        let o = crate::rules::odds::charge_whole(fight, b.rules.charge.max_rounds);
        let side = |f: crate::rules::odds::Fighter| {
            let had = if f.had > 0 {
                format!(", {} taken", crate::report::count(f.had as i64, "hit"))
            } else {
                String::new()
            };
            format!("{} at {}+{had}", crate::report::count(f.dice as i64, "die"), f.to_hit)
        };
        let mut lines = vec![
            format!("Click: {me} charges {them}"),
            format!(
                "all its rounds: wins by double {}, wins {}, loses {} (by double {}), no result {}",
                pct(o.a_double),
                pct(o.a_wins),
                pct(o.b_wins + o.b_double),
                pct(o.b_double),
                pct(o.draw)
            ),
            format!("first round: {me} {}; {them} {}", side(mine), side(theirs)),
        ];
        if fire.is_some() {
            lines.push("(to fire instead, press the fire key or use the orders panel)".into());
        }
        return PointerOrder {
            action: Some(a.clone()),
            lines,
            refused: false,
        };
    }
    if let Some(a) = fire {
        let mut lines = vec![format!("Click: {me} fires at {them}")];
        let ctx = match a {
            Action::InitiativeFire { .. } => FireContext::Initiative,
            Action::OpportunityFire { .. } => FireContext::Opportunity,
            _ => FireContext::Order,
        };
        lines.extend(fire_odds(b, unit, target, ctx));
        return PointerOrder {
            action: Some(a.clone()),
            lines,
            refused: false,
        };
    }
    // Neither is legal: say why the fire is not, by the rule that forbids it.
    let why = match crate::ui::screens::battle::fire_for(b, Some(unit), Some(target)) {
        Ok(a) => match b.validate(&a) {
            Err(r) => format!("{}: {}", r.rule, r.reason),
            Ok(()) => "not now".into(),
        },
        Err(why) => why,
    };
    PointerOrder {
        action: None,
        lines: vec![format!("{me} cannot fire at {them}"), why],
        refused: true,
    }
}

/// The dice of a fire, in a few lines (the terminal's `odds`).
fn fire_odds(b: &Battle, unit: u32, target: u32, ctx: FireContext) -> Vec<String> {
    let a = match ctx {
        FireContext::Initiative => Action::InitiativeFire { unit, target },
        FireContext::Opportunity => Action::OpportunityFire {
            unit,
            target,
            with: Vec::new(),
        },
        _ => Action::Fire { unit, target },
    };
    crate::terminal::view::odds_lines(b, &a)
        .into_iter()
        .map(|l| l.trim().to_string())
        .collect()
}

/// `commander` orders `unit` alone; a unit still holding actions of an order is selected
/// instead (to use them), and a second order is given from the orders panel or the order key.
fn unit_order(b: &Battle, commander: u32, unit: u32, legal: &[Action]) -> PointerOrder {
    if let Some(o) = b.cmd.orders.get(&unit).filter(|o| o.credits > 0 && !o.finished) {
        return PointerOrder {
            action: None,
            lines: vec![format!(
                "Click: select {} ({} of its order left)",
                b.unit(unit).name,
                crate::report::count(i64::from(o.credits), "action")
            )],
            refused: false,
        };
    }
    let alone = legal.iter().find(
        |a| matches!(a, Action::Order { commander: c, units, charge: false, .. } if *c == commander && units[..] == [unit]),
    );
    let name = &b.unit(unit).name;
    match alone {
        Some(a) => {
            let mut lines = vec![format!("Click: {}", crate::terminal::words::action_text(b, a))];
            lines.extend(crate::terminal::view::odds_lines(b, a));
            PointerOrder {
                action: Some(a.clone()),
                lines,
                refused: false,
            }
        }
        None => {
            let a = Action::Order {
                commander,
                units: vec![unit],
                charge: false,
                dense: false,
                road: false,
            };
            let why = match b.validate(&a) {
                Err(r) => format!("{}: {}", r.rule, r.reason),
                Ok(()) => "not as a single unit (see the orders panel)".into(),
            };
            PointerOrder {
                action: None,
                lines: vec![format!("{} cannot order {name} now", b.commander(commander).name), why],
                refused: true,
            }
        }
    }
}

/// The units of `commander`'s command (alive, in his chain) whose middle is inside `area`, a
/// box in window pixels; `px` puts a table point in the window. By id.
pub fn units_in_box(
    b: &Battle,
    commander: u32,
    area: Rect,
    px: impl Fn(crate::rules::geometry::V2) -> Option<Vec2>,
) -> Vec<UnitId> {
    let cm = b.commander(commander);
    b.alive_units()
        .filter(|u| u.side == cm.side && b.in_chain(u.hq, commander))
        .filter(|u| px(u.pose.pos).is_some_and(|p| area.contains(p)))
        .map(|u| u.id)
        .collect()
}

/// What letting go of the box would order: `commander` orders `units` as one formation (with
/// `charge`, an order that may charge), with the need and every modifier; or the rule that
/// refuses it.
pub fn box_order(b: &Battle, commander: u32, units: &[UnitId], charge: bool) -> PointerOrder {
    let who = &b.commander(commander).name;
    if units.is_empty() {
        return PointerOrder {
            action: None,
            lines: vec![format!("Box the units for {who} to order (Shift: may charge)")],
            refused: true,
        };
    }
    let a = Action::Order {
        commander,
        units: units.to_vec(),
        charge,
        dense: false,
        road: false,
    };
    match b.validate(&a) {
        Ok(()) => {
            let mut lines = vec![format!("Let go: {}", crate::terminal::words::action_text(b, &a))];
            lines.extend(crate::terminal::view::odds_lines(b, &a));
            if !charge {
                lines.push("(hold Shift to order a charge)".into());
            }
            PointerOrder {
                action: Some(a),
                lines,
                refused: false,
            }
        }
        Err(r) => PointerOrder {
            action: None,
            lines: vec![
                format!("{who} cannot order these units"),
                format!("{}: {}", r.rule, r.reason),
            ],
            refused: true,
        },
    }
}
