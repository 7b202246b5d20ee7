//! The shared words of the report: counts, names, phases, results, the words for a knock-out,
//! a blunder, an aspect, a cover, a facing, and the modifiers of a roll.

use crate::battle::event::{ForcedInto, KnockOut, ModRule, Modifier, MoveKind};
pub use crate::battle::hash::{end_reason_words, pass_reason_words};
use crate::battle::state::{Battle, Phase, ResultKind};
use crate::rules::geometry::Aspect;
use crate::rules::params::{BlunderEffect, Cover};

/// Dice faces as "3 5 6".
pub(crate) fn dice(v: &[u32]) -> String {
    v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(" ")
}

/// "1 hit", "3 hits"; "1 die", "2 dice" (the plural as given when it is not an "s").
pub fn count(n: impl Into<i64>, one: &str) -> String {
    let n = n.into();
    let many = match one {
        "die" => "dice".to_string(),
        "D-marker" => "D-markers".to_string(),
        _ => format!("{one}s"),
    };
    format!("{n} {}", if n == 1 || n == -1 { one } else { &many })
}

/// A program's name as words: `AirBurst` → "air burst", `BuiltUp` → "built up".
pub fn words_of(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push(' ');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The text with its first letter a capital ("initiative" → "Initiative").
pub fn capital(text: &str) -> String {
    let mut c = text.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A phase as the players name it: "initiative", "command", "game over".
pub fn phase_word(p: Phase) -> &'static str {
    match p {
        Phase::Deployment => "deployment",
        Phase::Initiative => "initiative",
        Phase::Command => "command",
        Phase::Charge => "charge",
        Phase::End => "end",
        Phase::GameOver => "game over",
    }
}

/// "decisive victory", "minor victory", "draw".
pub fn result_word(r: &ResultKind) -> &'static str {
    match r {
        ResultKind::Decisive => "decisive victory",
        ResultKind::Minor => "minor victory",
        ResultKind::Draw => "draw",
    }
}

/// What a unit was forced back into.
fn forced_into_words(b: &Battle, what: ForcedInto) -> String {
    match what {
        ForcedInto::OffTable => "off the table".into(),
        ForcedInto::Impassable => "impassable terrain".into(),
        ForcedInto::Enemy(u) => format!("the enemy {}", unit(b, u)),
        ForcedInto::SuppressedFriend => "a suppressed friendly unit".into(),
        ForcedInto::UnlimberedGuns => "retreating unlimbered guns are lost".into(),
        ForcedInto::Fortifications => "units retreating out of their fortifications are lost".into(),
    }
}

/// Why a unit or commander was knocked out, said plainly.
pub fn knock_out_words(b: &Battle, why: &KnockOut) -> String {
    match why {
        KnockOut::Hits => "its hits reached its hits value".into(),
        KnockOut::FellBackTooFar => "it fell back too far in one go".into(),
        KnockOut::ForcedInto(what) => format!("forced back into {}", forced_into_words(b, *what)),
        KnockOut::ChargeLost => "it lost a charge by double the hits".into(),
        KnockOut::CaughtEvading => "caught while evading a charge".into(),
        KnockOut::WithOther => "lost with the commander, limber or unit it went with".into(),
        KnockOut::Overrun => "overrun with no friendly unit within reach".into(),
        KnockOut::Collapsed => "the building it held collapsed".into(),
        KnockOut::Jammed => "its gun jammed".into(),
    }
}

/// A blunder's effect with what it does (BPT "Command Blunder").
pub fn blunder_words(e: &BlunderEffect) -> &'static str {
    match e {
        BlunderEffect::CeaseFiring => {
            "\"Cease firing!\": friendly fire, the commander's unit takes a die's worth of attacks"
        }
        BlunderEffect::CrossFire => {
            "cross-fire: the three units nearest the commander each take 3 attacks in the flank"
        }
        BlunderEffect::Relocate => "relocate: the commander's unit moves half a move away from the nearest enemy",
        BlunderEffect::PullBack => "pull back: the ordered units in the open fall back half a move",
        BlunderEffect::OpenFire => "open fire: the ordered units fire at the nearest enemy in range",
        BlunderEffect::LetsGetEm => {
            "\"Let's get 'em!\": the ordered units in the open advance half a move on the nearest enemy"
        }
    }
}

/// "the front", "the flank", "the rear".
pub fn aspect_word(a: &Aspect) -> &'static str {
    match a {
        Aspect::Front => "front",
        Aspect::Flank => "flank",
        Aspect::Rear => "rear",
    }
}

/// "in the open", "in soft cover", "in hard cover".
pub fn cover_words(c: &Cover) -> &'static str {
    match c {
        Cover::Open => "in the open",
        Cover::Soft => "in soft cover",
        Cover::Hard => "in hard cover",
    }
}

/// A facing in whole degrees from 0 to 359 (never "-0°" nor "360°").
pub fn degrees(rad: f64) -> String {
    format!("{}°", (rad.to_degrees().round() as i64).rem_euclid(360))
}

pub(crate) fn move_verb(k: &MoveKind) -> &'static str {
    match k {
        MoveKind::Order => "moves",
        MoveKind::Evade => "evades",
        MoveKind::Charge => "charges",
        MoveKind::Support => "moves up in support",
        MoveKind::FallBack => "falls back",
        MoveKind::Retreat => "retreats",
        MoveKind::Consolidate => "consolidates",
        MoveKind::Blunder => "moves on a blunder",
        MoveKind::Deploy => "deploys",
    }
}

/// The rule a modifier cites, as the log writes it.
pub fn rule_words(r: ModRule) -> &'static str {
    match r {
        ModRule::ChargeSuppressed => "BPT Charge: suppressed",
        ModRule::Disordered => "BPT Disordered",
        ModRule::ChargeFlankRear => "BPT Charge: fighting to the flank or rear",
        ModRule::CommandPresence => "BPT Command Presence",
        ModRule::AcwLancers => "ACW note 13: lancers",
        ModRule::NapoleonicHeavyCavalry => "Napoleonic note 13: heavy cavalry",
        ModRule::ChargeCharging => "BPT Charge: each unit charging",
        ModRule::ChargeSupporting => "BPT Charge: each unit in support",
        ModRule::WeatherPoor => "BPT Weather: poor",
        ModRule::WeatherExtreme => "BPT Weather: extreme",
        ModRule::WeatherPoorActivation => "BPT Weather: poor (command penalty)",
        ModRule::WeatherExtremeActivation => "BPT Weather: extreme (command penalty)",
        ModRule::SuccessiveOrder => "BPT Command Modifiers note 1: successive order",
        ModRule::OpportunityFireLastTurn => "BPT Opportunity Fire: −1 for the duration of the next turn",
        ModRule::UsedInitiative => "BPT Command Modifiers note 1: used initiative",
        ModRule::CommandDistance => "BPT Command Modifiers note 2: distance to the farthest unit",
        ModRule::DenseTerrain => "BPT Command Modifiers note 3: dense terrain",
        ModRule::ChargingEnemyClose => "BPT Command Modifiers note 4: charging a visible enemy close by",
        ModRule::CoReorder => "BPT Commanding Officer: units an HQ failed to order",
        ModRule::MarchColumnTouch => "BPT March Column: commander touching",
        ModRule::ExtendedLineFirer => "BPT Extended Line: loses one attack die",
        ModRule::ExtendedLineTarget => "BPT Firing Modifiers: target in extended line",
        ModRule::HalfRange => "BPT Firing Modifiers: within half range",
        ModRule::FireFlankRear => "BPT Firing Modifiers: flank or rear",
        ModRule::DisorderedFire => "BPT Disordered: two less dice",
        ModRule::SquareArtillery => "BPT Square: artillery +1 a stand against a square",
        ModRule::SquareInfantry => "BPT Square: infantry +1 a unit against a square",
        ModRule::NapoleonicExtraDie => "Napoleonic note 22: +1 attack die",
        ModRule::AttachDistance => "BPT Fixed Formations: per 10 cm CO to HQ",
        ModRule::AttachDense => "BPT Fixed Formations: dense terrain between CO and HQ",
        ModRule::AttachEnemies => "BPT Fixed Formations: enemy units between CO and HQ",
        ModRule::UsedInitiativeOrOpportunity => "BPT Command Modifiers note 1: used initiative or opportunity fire",
        ModRule::SaberRifledMuskets => "BPT Saber Charge: rifled muskets against sabers",
        ModRule::TroopExperience => "Glory Days Troop experience",
        ModRule::FormationNoEnemy => "Glory Days Changing Formation: no enemy units within 12\"",
        ModRule::ColumnOnRoad => "Glory Days Activation: in column on a road",
        ModRule::ActivationGeneral => "Glory Days Activation: general with unit",
        ModRule::PreviousMoves => "Glory Days Activation: previous moves this initiative",
        ModRule::ActivationAlone => "Glory Days Activation: no friendly unit within 6\"",
        ModRule::FormationGodforsaken => "Glory Days Changing Formation: in godforsaken terrain",
        ModRule::FormationDifficult => "Glory Days Changing Formation: in difficult terrain",
        ModRule::ActivationGodforsaken => "Glory Days Activation: in or into godforsaken terrain",
        ModRule::ActivationDifficult => "Glory Days Activation: in or into difficult terrain",
        ModRule::DMarkers => "Glory Days Core Concepts: D-markers",
        ModRule::ActivationCharge => "Glory Days Melee: activation to charge",
        ModRule::CavalryChargingInfantry => "Glory Days Melee: cavalry charging infantry in the open",
        ModRule::ChargeGeneral => "Glory Days Melee: general with unit",
        ModRule::ChargeGodforsaken => "Glory Days Melee: charging in/into godforsaken terrain",
        ModRule::ChargeDifficult => "Glory Days Melee: charging in/into difficult terrain",
        ModRule::RallyVeteranGeneral => "Glory Days Rallying: veteran general with unit",
        ModRule::RallySeasonedGeneral => "Glory Days Rallying: seasoned general with unit",
        ModRule::RallyRawGeneral => "Glory Days Rallying: raw general with unit",
        ModRule::RallyOutOfReach => "Glory Days Rallying: outside movement range of any enemy",
        ModRule::RallyAlone => "Glory Days Rallying: no friendly unit within 6\"",
    }
}

/// A modifier as a player reads it: what it is for, then its rule: "-1 for successive order
/// (BPT Command Modifiers note 1)"; a rule that says no more, "+1 BPT Command Presence".
pub fn modifier_phrase(m: &Modifier) -> String {
    let rule = rule_words(m.rule);
    match rule.split_once(": ") {
        Some((book, why)) => format!("{:+} for {why} ({book})", m.amount),
        None => format!("{:+} {rule}", m.amount),
    }
}

/// Modifiers as [`modifier_phrase`] says them, each.
pub(crate) fn modifier_words(modifiers: &[Modifier]) -> Vec<String> {
    modifiers.iter().map(modifier_phrase).collect()
}

/// One d6 against a target with its modifiers: "X rallies: need 3+ -1 …, rolled 4: … (rule)".
pub(crate) fn d6_line(what: &str, modifiers: &[Modifier], target: i32, roll: u32, outcome: &str, rule: &str) -> String {
    let mods = modifier_words(modifiers);
    format!(
        "{what}: need {target}+{}{}, rolled {roll}: {outcome} ({rule})",
        if mods.is_empty() { "" } else { " " },
        mods.join(", ")
    )
}

/// The "s" after a noun counted `n` times ("" for one).
pub(crate) fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A unit's name ("?" for none).
pub(crate) fn unit(b: &Battle, id: u32) -> &str {
    b.units.get(id as usize).map(|u| u.name.as_str()).unwrap_or("?")
}

/// A number of cm as the log writes it: one decimal, no trailing ".0".
pub fn cm(d: f64) -> String {
    let s = format!("{d:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// Units' names joined by ", ".
pub(crate) fn units(b: &Battle, ids: &[u32]) -> String {
    ids.iter().map(|u| unit(b, *u)).collect::<Vec<_>>().join(", ")
}

/// A commander's name ("?" for none).
pub(crate) fn commander(b: &Battle, id: u32) -> &str {
    b.commanders.get(id as usize).map(|c| c.name.as_str()).unwrap_or("?")
}

/// A side's name.
pub(crate) fn side(b: &Battle, s: usize) -> &str {
    &b.sides[s].name
}

/// A building's name, or "building N".
pub(crate) fn building(b: &Battle, i: u32) -> String {
    match b.terrain.buildings.get(i as usize) {
        Some(x) if !x.name.is_empty() => x.name.clone(),
        _ => format!("building {i}"),
    }
}

/// A computer player's reason with its plan's news before it, if it made or changed a plan.
pub fn with_plan(news: Option<String>, why: Option<String>) -> Option<String> {
    match (news, why) {
        (Some(n), Some(w)) => Some(format!("{n}. {w}")),
        (n, w) => n.or(w),
    }
}

/// The computer player's reason for its choice, as the log gives it: "Confederate, played by
/// the computer (scheduler): 7th Wisconsin: move 3 cm towards its objective …" (until issue
/// 65, "[scheduler] …").
pub fn computer_says(side: &str, agent: &str, why: &str) -> String {
    format!("{side}, played by the computer ({agent}): {why}")
}
