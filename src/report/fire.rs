//! The fire family: a volley's dice, score, saves and hits (ordinary fire, opportunity fire
//! rolled together, a gun's canister, the attack dice of a ball, a shell or a blast, the
//! cross-fire of a blunder).

use super::aspects::{Caption, Clip, Deed, Facts};
use super::dice::Throw;
use super::words::{aspect_word, count, cover_words, dice as faces, modifier_words, unit};
use crate::battle::event::FireEvent;
use crate::battle::event::{FireCause, FireHow, FireWhy, Modifier};
use crate::battle::state::{Battle, UnitId};
use crate::rules::geometry::Aspect;
use crate::rules::params::Cover;

/// A fire's fields, as its event keeps them.
pub(crate) struct Fire<'a> {
    pub firers: &'a [UnitId],
    pub target: UnitId,
    pub context: FireCause,
    pub base_dice: i32,
    pub modifiers: &'a [Modifier],
    pub dice: u32,
    pub aspect: Aspect,
    pub cover: Cover,
    pub to_hit: u32,
    pub roll_bonus: u32,
    pub rolls: &'a [u32],
    pub hits: u32,
    pub save: Option<u32>,
    pub save_rolls: &'a [u32],
    pub saved: u32,
}

/// Why and how a fire was rolled, as the log says it: "order", "opportunity fire: rolled
/// together", "initiative: canister", "blunder: cross-fire".
pub fn cause_words(c: FireCause) -> String {
    let why = match c.why {
        FireWhy::Initiative => "initiative",
        FireWhy::Order => "order",
        FireWhy::Opportunity => "opportunity fire",
        FireWhy::Counter => "counter-initiative",
        FireWhy::OpenFire => "blunder: open fire",
        FireWhy::CrossFire => "blunder: cross-fire",
    };
    let how = match c.how {
        FireHow::Alone => "",
        FireHow::Together => ": rolled together",
        FireHow::Canister => ": canister",
        FireHow::RoundShot => ": round shot",
        FireHow::Shell => ": shell",
        FireHow::BlastThrough => ": canister blast-through",
    };
    format!("{why}{how}")
}

/// "5th NH fire (order) at 4th AL, front in the open: 4 dice, hit on 4+: [1 4 6 3] → 2 hits;
/// saves on 5+: [5 2] → 1 saved".
pub(crate) fn fired(b: &Battle, f: &Fire) -> String {
    let who: Vec<&str> = f.firers.iter().map(|u| unit(b, *u)).collect();
    let mods = modifier_words(f.modifiers);
    let bonus = if f.roll_bonus > 0 && b.initiative_passing() {
        format!(
            " (+{} to each die: first fire, or same target as last initiative)",
            f.roll_bonus
        )
    } else if f.roll_bonus > 0 {
        format!(" (+{} to each die: first fire)", f.roll_bonus)
    } else {
        String::new()
    };
    let sv = match f.save {
        Some(s) => format!("; saves on {s}+: [{}] → {} saved", faces(f.save_rolls), f.saved),
        None => String::new(),
    };
    let dice_line = if mods.is_empty() {
        count(f.base_dice, "die")
    } else {
        format!("{} {} = {}", f.base_dice, mods.join(" "), count(f.dice, "die"))
    };
    let penalty = f.firers.first().map_or(String::new(), |&id| penalty_words(b, id));
    format!(
        "{} ({}) at {}, {} {}: {dice_line}, hit on {}+{penalty}{bonus}: [{}] → {}{sv}",
        if who.is_empty() {
            "Cross-fire".to_string()
        } else {
            format!("{} fire", who.join(" & "))
        },
        cause_words(f.context),
        unit(b, f.target),
        aspect_word(&f.aspect),
        cover_words(&f.cover),
        f.to_hit,
        faces(f.rolls),
        count(f.hits, "hit")
    )
}

/// Why a fire's score to hit is worse under initiative passing (*Glory Days!*: D-markers,
/// "if firer moved on this initiative"), read on the battle as the line is written, which is
/// after the fire: its firer's markers are as they were (issue 64: "hit on 6+" with no reason).
/// A move is named only while its command phase lasts.
fn penalty_words(b: &Battle, id: UnitId) -> String {
    if !b.initiative_passing() || id as usize >= b.units.len() {
        return String::new();
    }
    let p = &b.rules.initiative_passing;
    let u = b.unit(id);
    let mut why = Vec::new();
    if u.d_markers > 0 && p.per_d_marker_to_hit > 0 {
        why.push(format!(
            "+{} for {}",
            p.per_d_marker_to_hit * u.d_markers,
            count(u.d_markers, "D-marker")
        ));
    }
    let moved = u.side == b.active && b.phase == crate::battle::Phase::Command && b.cmd.passing.moved.contains(&id);
    if moved && p.moved_to_hit > 0 {
        why.push(format!("+{} moved this initiative", p.moved_to_hit));
    }
    if why.is_empty() {
        String::new()
    } else {
        format!(" (Glory Days: {}; a 6 always hits)", why.join(", "))
    }
}

/// The hits at the score (less the first-fire bonus) and the saves; a jammed Gatling's dice
/// score nothing. The volley flies from the firers (a cone for canister); the target floats
/// "no hits" if nothing else struck it.
pub(crate) fn fired_facts<'a>(
    firers: &'a [UnitId],
    target: UnitId,
    context: FireCause,
    (to_hit, roll_bonus, rolls, hits): (u32, u32, &[u32], u32),
    (save, save_rolls): (Option<u32>, &[u32]),
) -> Facts<'a> {
    let need = to_hit.saturating_sub(roll_bonus).max(1);
    let mut hit = Throw::each("to hit", rolls, need);
    if hit.scored.iter().filter(|&&s| s).count() as u32 != hits {
        // A jammed Gatling: its dice scored nothing.
        hit.scored = vec![false; rolls.len()];
    }
    let mut throws = vec![hit];
    if let Some(s) = save
        && !save_rolls.is_empty()
    {
        throws.push(Throw::each("saves", save_rolls, s));
    }
    let f = Facts::rolled(throws)
        .caption(Caption::FiredAt { unit: target })
        .about(target)
        .deed(Deed::Fired(firers.first().copied()));
    if firers.is_empty() {
        return f;
    }
    f.clip(Clip::Volley {
        firers,
        target,
        canister: context.how == FireHow::Canister,
    })
}

/// What a fire event means, but its words (`report::facts`).
pub(super) fn facts_of(e: &FireEvent) -> Facts<'_> {
    use FireEvent as E;
    match e {
        E::Fired {
            firers,
            target,
            context,
            to_hit,
            roll_bonus,
            rolls,
            hits,
            save,
            save_rolls,
            ..
        } => fired_facts(
            firers,
            *target,
            *context,
            (*to_hit, *roll_bonus, rolls, *hits),
            (*save, save_rolls),
        ),
    }
}

/// A fire event's line in the log (`report::line`).
#[rustfmt::skip]
pub(super) fn line_of(b: &Battle, e: &FireEvent) -> String {
    use FireEvent as E;
    match e {
        E::Fired { firers, target, context, base_dice, modifiers, dice, aspect, cover, to_hit, roll_bonus, rolls, hits, save, save_rolls, saved } => {
            fired(b, &Fire { firers, target: *target, context: *context, base_dice: *base_dice, modifiers, dice: *dice, aspect: *aspect, cover: *cover, to_hit: *to_hit, roll_bonus: *roll_bonus, rolls, hits: *hits, save: *save, save_rolls, saved: *saved })
        }
    }
}
