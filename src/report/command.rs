//! The command family: command and self-order rolls, blunders, the end of orders, and what
//! befalls commanders (they ride, are attacked, suppressed, knocked out, join a unit, are
//! replaced).

use super::aspects::{Caption, Deed, Facts};
use super::dice::Throw;
use super::words::{blunder_words, commander, count, dice as faces, knock_out_words, modifier_words, unit, units};
use crate::battle::event::CommandEvent;
use crate::battle::event::{CommandOutcome, KnockOut, Modifier};
use crate::battle::state::{Battle, CmdId, UnitId};
use crate::rules::geometry::V2;
use crate::rules::params::BlunderEffect;

/// "Hooker orders 5th NH, 7th WI: command 8, -1 distance → need ≤ 7, rolled 3+2 = 5: order issued".
pub(crate) fn roll(
    b: &Battle,
    (cmd, ordered): (CmdId, &[UnitId]),
    (value, modifiers, target): (i32, &[Modifier], i32),
    d: &[u32; 2],
    outcome: CommandOutcome,
) -> String {
    let mods = modifier_words(modifiers);
    let res = match outcome {
        CommandOutcome::Success => "order issued",
        CommandOutcome::Bonus => "double 1: two actions",
        CommandOutcome::Failure => "failed",
        CommandOutcome::Blunder => "double 6: BLUNDER",
    };
    format!(
        "{} orders {}: command {value}{}{} → need ≤ {target}, rolled {}+{} = {}: {res}",
        commander(b, cmd),
        units(b, ordered),
        if mods.is_empty() { "" } else { ", " },
        mods.join(", "),
        d[0],
        d[1],
        d[0] + d[1]
    )
}

pub(crate) fn roll_facts<'a>(cmd: CmdId, target: i32, d: &[u32; 2], outcome: CommandOutcome) -> Facts<'a> {
    let passed = matches!(outcome, CommandOutcome::Success | CommandOutcome::Bonus);
    let f = Facts::rolled(vec![Throw::whole("command", format!("≤ {target}"), d, passed)])
        .caption(Caption::Ordered(outcome));
    if passed { f } else { f.deed(Deed::OrderFailed(cmd)) }
}

pub(crate) fn self_order(b: &Battle, u: UnitId, target: i32, d: &[u32; 2], success: bool) -> String {
    format!(
        "{} orders itself: need ≤ {target}, rolled {}+{}: {}",
        unit(b, u),
        d[0],
        d[1],
        if success { "moves" } else { "stays" }
    )
}

pub(crate) fn self_order_facts<'a>(u: UnitId, target: i32, d: &[u32; 2], success: bool) -> Facts<'a> {
    let f = Facts::rolled(vec![Throw::whole("self-order", format!("≤ {target}"), d, success)]);
    if success { f } else { f.deed(Deed::SelfOrderFailed(u)) }
}

pub(crate) fn blunder(b: &Battle, c: CmdId, roll: u32, effect: &BlunderEffect) -> String {
    format!("{} blunders: rolled {roll}: {}", commander(b, c), blunder_words(effect))
}

pub(crate) fn blunder_facts<'a>(roll: u32) -> Facts<'a> {
    Facts::rolled(vec![Throw::counted("blunder", &[roll], 6)])
}

pub(crate) fn orders_ended(b: &Battle, c: CmdId, all: bool) -> String {
    if all {
        format!("{} failed: no more orders this turn", commander(b, c))
    } else {
        format!("{} issues no more orders this turn", commander(b, c))
    }
}

pub(crate) fn rode(b: &Battle, c: CmdId, to: V2) -> String {
    format!("{} rides to ({:.1}, {:.1})", commander(b, c), to.x, to.y)
}

pub(crate) fn rode_facts<'a>(from: V2) -> Facts<'a> {
    Facts::none().caption(Caption::Rode { from })
}

pub(crate) fn attacked(b: &Battle, c: CmdId, n: u32, rolls: &[u32], (hits, knocked_out): (u32, bool)) -> String {
    format!(
        "{} takes {} (hit on 6): [{}] → {}{}",
        commander(b, c),
        count(n, "attack"),
        faces(rolls),
        count(hits, "hit"),
        if knocked_out { ", knocked out" } else { "" }
    )
}

pub(crate) fn attacked_facts(rolls: &[u32]) -> Facts<'_> {
    Facts::rolled(vec![Throw::each("at the commander", rolls, 6)])
}

pub(crate) fn suppressed(b: &Battle, c: CmdId) -> String {
    format!("{} is suppressed", commander(b, c))
}

pub(crate) fn knocked_out(b: &Battle, c: CmdId, why: &KnockOut) -> String {
    format!("{} is knocked out: {}", commander(b, c), knock_out_words(b, why))
}

pub(crate) fn joined(b: &Battle, c: CmdId, u: UnitId) -> String {
    format!("{} is overrun and joins {}", commander(b, c), unit(b, u))
}

pub(crate) fn replaced(b: &Battle, c: CmdId, command_value: i32) -> String {
    format!("{} is replaced (command {command_value})", commander(b, c))
}

/// What a command event means, but its words (`report::facts`).
pub(super) fn facts_of(e: &CommandEvent) -> Facts<'_> {
    use CommandEvent as E;
    match e {
        E::CommandRoll {
            commander,
            target,
            dice,
            outcome,
            ..
        } => roll_facts(*commander, *target, dice, *outcome),
        E::SelfOrderRoll {
            unit,
            target,
            dice,
            success,
        } => self_order_facts(*unit, *target, dice, *success),
        E::Blunder { roll, .. } => blunder_facts(*roll),
        E::CommanderMoved { from, .. } => rode_facts(*from),
        E::CommanderAttacked { rolls, .. } => attacked_facts(rolls),
        E::OrdersEnded { .. }
        | E::CommanderSuppressed { .. }
        | E::CommanderKnockedOut { .. }
        | E::CommanderJoined { .. }
        | E::CommanderReplaced { .. } => Facts::none(),
    }
}

/// A command event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn line_of(b: &Battle, e: &CommandEvent) -> String {
    use CommandEvent as E;
    match e {
        E::CommandRoll { commander, units, value, modifiers, target, dice, outcome } => {
            roll(b, (*commander, units), (*value, modifiers, *target), dice, *outcome)
        }
        E::SelfOrderRoll { unit, target, dice, success } => self_order(b, *unit, *target, dice, *success),
        E::Blunder { commander, roll, effect } => blunder(b, *commander, *roll, effect),
        E::OrdersEnded { commander, all } => orders_ended(b, *commander, *all),
        E::CommanderMoved { commander, to, .. } => rode(b, *commander, *to),
        E::CommanderAttacked { commander, dice, rolls, hits, knocked_out } => {
            attacked(b, *commander, *dice, rolls, (*hits, *knocked_out))
        }
        E::CommanderSuppressed { commander } => suppressed(b, *commander),
        E::CommanderKnockedOut { commander, why } => knocked_out(b, *commander, why),
        E::CommanderJoined { commander, unit } => joined(b, *commander, *unit),
        E::CommanderReplaced { commander, command_value, .. } => replaced(b, *commander, *command_value),
    }
}
