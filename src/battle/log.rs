//! Events as sentences for the battle log and the dice panel: every roll with its modifiers
//! and the rule that applied.

use super::Action;
use super::event::{CommandOutcome, Event, KnockOut, MoveKind};
use super::state::{Battle, Phase, ResultKind};
use crate::rules::geometry::Aspect;
use crate::rules::params::{BlunderEffect, Cover};

fn dice(v: &[u32]) -> String {
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

/// Why a unit or commander was knocked out, said plainly.
pub fn knock_out_words(why: &KnockOut) -> String {
    match why {
        KnockOut::Hits => "its hits reached its hits value".into(),
        KnockOut::FellBackTooFar => "it fell back too far in one go".into(),
        KnockOut::ForcedInto(what) => format!("forced back into {what}"),
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

fn move_verb(k: &MoveKind) -> &'static str {
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

/// One d6 against a target with its modifiers: "X rallies: need 3+ -1 …, rolled 4: … (rule)".
fn d6_line(
    what: &str,
    modifiers: &[super::event::Modifier],
    target: i32,
    roll: u32,
    outcome: &str,
    rule: &str,
) -> String {
    let mods: Vec<String> = modifiers.iter().map(|m| format!("{:+} {}", m.amount, m.rule)).collect();
    format!(
        "{what}: need {target}+{}{}, rolled {roll}: {outcome} ({rule})",
        if mods.is_empty() { "" } else { " " },
        mods.join(", ")
    )
}

impl Battle {
    fn uname(&self, id: u32) -> &str {
        self.units.get(id as usize).map(|u| u.name.as_str()).unwrap_or("?")
    }
    fn cname(&self, id: u32) -> &str {
        self.commanders.get(id as usize).map(|c| c.name.as_str()).unwrap_or("?")
    }
    fn building_name(&self, i: u32) -> String {
        match self.terrain.buildings.get(i as usize) {
            Some(b) if !b.name.is_empty() => b.name.clone(),
            _ => format!("building {i}"),
        }
    }

    /// One line per event.
    pub fn describe(&self, e: &Event) -> String {
        match e {
            Event::PhaseStarted {
                phase,
                active,
                game_turn,
                ..
            } => {
                format!(
                    "— Turn {game_turn}, {}: {} phase —",
                    self.sides[*active].name,
                    phase_word(*phase)
                )
            }
            Event::CommandRoll {
                commander,
                units,
                value,
                modifiers,
                target,
                dice: d,
                outcome,
            } => {
                let mods: Vec<String> = modifiers.iter().map(|m| format!("{:+} {}", m.amount, m.rule)).collect();
                let names: Vec<&str> = units.iter().map(|u| self.uname(*u)).collect();
                let res = match outcome {
                    CommandOutcome::Success => "order issued",
                    CommandOutcome::Bonus => "double 1: two actions",
                    CommandOutcome::Failure => "failed",
                    CommandOutcome::Blunder => "double 6: BLUNDER",
                };
                format!(
                    "{} orders {}: command {value}{}{} → need ≤ {target}, rolled {}+{} = {}: {res}",
                    self.cname(*commander),
                    names.join(", "),
                    if mods.is_empty() { "" } else { ", " },
                    mods.join(", "),
                    d[0],
                    d[1],
                    d[0] + d[1]
                )
            }
            Event::SelfOrderRoll {
                unit,
                target,
                dice: d,
                success,
            } => format!(
                "{} orders itself: need ≤ {target}, rolled {}+{}: {}",
                self.uname(*unit),
                d[0],
                d[1],
                if *success { "moves" } else { "stays" }
            ),
            Event::Blunder {
                commander,
                roll,
                effect,
            } => {
                format!(
                    "{} blunders: rolled {roll}: {}",
                    self.cname(*commander),
                    blunder_words(effect)
                )
            }
            Event::OrdersEnded { commander, all } => {
                if *all {
                    format!("{} failed: no more orders this turn", self.cname(*commander))
                } else {
                    format!("{} issues no more orders this turn", self.cname(*commander))
                }
            }
            Event::Moved {
                unit,
                from,
                to,
                kind,
                cost,
            } => {
                let dist = from.pos.dist(to.pos);
                let turned = (to.facing - from.facing).abs() > 1e-6;
                let mut t = format!("{} {}", self.uname(*unit), move_verb(kind));
                if dist >= 0.05 {
                    t.push_str(&format!(" {dist:.1} cm to ({:.1}, {:.1})", to.pos.x, to.pos.y));
                } else if turned {
                    t.push_str(" in place");
                }
                t.push_str(&format!(", facing {}", degrees(to.facing)));
                if (cost - dist).abs() > 0.05 {
                    t.push_str(&format!(" (counts as {cost:.1} cm of its move)"));
                }
                t
            }
            Event::CommanderMoved { commander, to, .. } => {
                format!("{} rides to ({:.1}, {:.1})", self.cname(*commander), to.x, to.y)
            }
            Event::Deployed { unit, what } => format!("{} deploys: {what}", self.uname(*unit)),
            Event::Fired {
                firers,
                target,
                context,
                base_dice,
                modifiers,
                dice: n,
                aspect,
                cover,
                to_hit,
                roll_bonus,
                rolls,
                hits,
                save,
                save_rolls,
                saved,
            } => {
                let who: Vec<&str> = firers.iter().map(|f| self.uname(*f)).collect();
                let mods: Vec<String> = modifiers.iter().map(|m| format!("{:+} {}", m.amount, m.rule)).collect();
                let bonus = if *roll_bonus > 0 && self.initiative_passing() {
                    format!(" (+{roll_bonus} to each die: first fire, or same target as last initiative)")
                } else if *roll_bonus > 0 {
                    format!(" (+{roll_bonus} to each die: first fire)")
                } else {
                    String::new()
                };
                let sv = match save {
                    Some(s) => format!("; saves on {s}+: [{}] → {saved} saved", dice(save_rolls)),
                    None => String::new(),
                };
                let dice_line = if mods.is_empty() {
                    count(*base_dice, "die")
                } else {
                    format!("{base_dice} {} = {}", mods.join(" "), count(*n, "die"))
                };
                format!(
                    "{} ({context}) at {}, {} {}: {dice_line}, hit on {to_hit}+{bonus}: [{}] → {}{sv}",
                    if who.is_empty() {
                        "Cross-fire".to_string()
                    } else {
                        format!("{} fire", who.join(" & "))
                    },
                    self.uname(*target),
                    aspect_word(aspect),
                    cover_words(cover),
                    dice(rolls),
                    count(*hits, "hit")
                )
            }
            Event::RoundShot { firer, trace, attacked } => {
                let mut parts = vec![format!(
                    "{} round shot: accuracy d6 [{}] need {}+",
                    self.uname(*firer),
                    trace.accuracy_roll,
                    trace.accuracy_need
                )];
                match &trace.deviation {
                    None => parts.push("on the aim point".into()),
                    Some((clock, d6s, cm)) => {
                        parts.push(format!("deviates {clock} o'clock by [{}] = {cm:.0} cm", dice(d6s)))
                    }
                }
                for (i, imp) in trace.impacts.iter().enumerate() {
                    let mut t = format!(
                        "impact {} at ({:.1}, {:.1}) with {}",
                        i + 1,
                        imp.point.x,
                        imp.point.y,
                        count(imp.attacks, "die")
                    );
                    if let Some((clock, d4)) = imp.deviation {
                        t.push_str(&format!(" (landing {clock} o'clock, d4 {d4})"));
                    }
                    if let (Some(r), Some(n)) = (imp.bounce_roll, imp.bounce_need) {
                        t.push_str(&format!(", bounce d6 [{r}] need {n}+"));
                    }
                    parts.push(t);
                }
                if let Some((clock, d4)) = trace.exit_landing {
                    parts.push(format!("bounces off the table (landing {clock} o'clock, d4 {d4})"));
                }
                parts.push(format!("the ball stops: {}", trace.end));
                let hit: Vec<String> = attacked
                    .iter()
                    .map(|(u, k)| format!("{} {}", self.uname(*u), count(*k, "die")))
                    .collect();
                parts.push(if hit.is_empty() {
                    "no stand in its path".into()
                } else {
                    format!("strikes {}", hit.join(", "))
                });
                parts.join("; ")
            }
            Event::ShellFired {
                firer,
                high_angle,
                accuracy_roll,
                accuracy_need,
                deviation,
                burst,
                lost,
                attacked,
                air_burst,
                ..
            } => {
                let mut t = format!(
                    "{} shell{}{}: accuracy d6 [{accuracy_roll}] need {accuracy_need}+",
                    self.uname(*firer),
                    if *high_angle { " (high-angle fire)" } else { "" },
                    if *air_burst {
                        " (air burst: every stand within 2 cm, one die fewer, as in the open)"
                    } else {
                        ""
                    }
                );
                match deviation {
                    None => t.push_str(", on the aim point"),
                    Some((clock, d6s, cm)) => {
                        t.push_str(&format!(", deviates {clock} o'clock by [{}] = {cm:.0} cm", dice(d6s)))
                    }
                }
                match lost {
                    Some(why) => t.push_str(&format!("; the shell is lost ({why})")),
                    None => {
                        t.push_str(&format!("; bursts at ({:.1}, {:.1})", burst.x, burst.y));
                        let hit: Vec<String> = attacked
                            .iter()
                            .map(|(u, k)| format!("{} {}", self.uname(*u), count(*k, "die")))
                            .collect();
                        if hit.is_empty() {
                            t.push_str(", no stand within reach");
                        } else {
                            t.push_str(&format!(", strikes {}", hit.join(", ")));
                        }
                    }
                }
                t
            }
            Event::BlastThrough {
                firer,
                next,
                damaged_in_front,
                to_hit,
                ..
            } => match to_hit {
                Some(k) => format!(
                    "{}'s canister blasts through to {} ({damaged_in_front} damaged in front: hit on {k}+)",
                    self.uname(*firer),
                    self.uname(*next)
                ),
                None => format!(
                    "{}'s canister would need more than 6 to hit {}: the blast stops",
                    self.uname(*firer),
                    self.uname(*next)
                ),
            },
            Event::CommanderAttacked {
                commander,
                dice: n,
                rolls,
                hits,
                knocked_out,
            } => format!(
                "{} takes {} (hit on 6): [{}] → {}{}",
                self.cname(*commander),
                count(*n, "attack"),
                dice(rolls),
                count(*hits, "hit"),
                if *knocked_out { ", knocked out" } else { "" }
            ),
            Event::HitsTaken {
                unit,
                hits,
                total,
                value,
            } => {
                format!(
                    "{} takes {} ({total} of {value})",
                    self.uname(*unit),
                    count(*hits, "hit")
                )
            }
            Event::SuppressionTest {
                unit,
                rolls,
                need,
                suppressed,
            } => format!(
                "{} suppression test, any {need}+ suppresses: [{}] → {}",
                self.uname(*unit),
                dice(rolls),
                if *suppressed { "suppressed" } else { "holds" }
            ),
            Event::FellBack {
                unit, rolls, distance, ..
            } => {
                format!("{} falls back [{}] = {distance:.0} cm", self.uname(*unit), dice(rolls))
            }
            Event::Halted { unit, by } => format!("{} halts against {}", self.uname(*unit), self.uname(*by)),
            Event::Suppressed { unit, why } => format!("{} is suppressed ({why})", self.uname(*unit)),
            Event::CommanderSuppressed { commander } => format!("{} is suppressed", self.cname(*commander)),
            Event::KnockedOut { unit, why } => {
                format!("{} is knocked out: {}", self.uname(*unit), knock_out_words(why))
            }
            Event::CommanderKnockedOut { commander, why } => {
                format!("{} is knocked out: {}", self.cname(*commander), knock_out_words(why))
            }
            Event::CommanderJoined { commander, unit } => {
                format!("{} is overrun and joins {}", self.cname(*commander), self.uname(*unit))
            }
            Event::CommanderReplaced {
                commander,
                command_value,
                ..
            } => {
                format!("{} is replaced (command {command_value})", self.cname(*commander))
            }
            Event::StandsRemoved { unit, removed, left } => {
                format!("{} loses {}, {left} left", self.uname(*unit), count(*removed, "stand"))
            }
            Event::ChargeDeclared { unit, target, .. } => {
                format!("{} charges {}!", self.uname(*unit), self.uname(*target))
            }
            Event::ChargeContact { unit, target, aspect } => {
                format!(
                    "{} contacts {} in the {}",
                    self.uname(*unit),
                    self.uname(*target),
                    aspect_word(aspect)
                )
            }
            Event::ChargeFailed { unit, target, why } => {
                let (u, t) = (self.uname(*unit), self.uname(*target));
                let target_gone = self.units.get(*target as usize).is_some_and(|x| !x.alive());
                let charger_gone = self.units.get(*unit as usize).is_some_and(|x| !x.alive());
                if charger_gone {
                    format!("{u}'s charge on {t} ends: {u} is gone")
                } else if target_gone {
                    format!("{u}'s charge on {t} ends: {t} is gone")
                } else {
                    match why.as_str() {
                        "did not close" => format!("{u}'s charge on {t} falls short: it did not reach {t}"),
                        "the target evaded" => format!("{u}'s charge on {t} fails: {t} evaded"),
                        "fell back" => format!("{u}'s charge on {t} fails: {u} fell back"),
                        _ => format!("{u}'s charge on {t} fails: {why}"),
                    }
                }
            }
            Event::Supporting { unit, friend } => format!("{} supports {}", self.uname(*unit), self.uname(*friend)),
            Event::CombatRound { round, target, sides } => {
                let parts: Vec<String> = sides
                    .iter()
                    .map(|s| {
                        let mods: Vec<String> = s
                            .modifiers
                            .iter()
                            .map(|m| format!("{:+} {}", m.amount, m.rule))
                            .collect();
                        format!(
                            "{}: {}{} hit on {}+ [{}] → {}, {} saved, on {}",
                            self.sides[s.side].name,
                            count(s.dice, "die"),
                            if mods.is_empty() {
                                String::new()
                            } else {
                                format!(" ({})", mods.join(", "))
                            },
                            s.to_hit,
                            dice(&s.rolls),
                            count(s.hits, "hit"),
                            s.saved,
                            self.uname(s.struck)
                        )
                    })
                    .collect();
                format!(
                    "Charge on {}, round {round}: {}",
                    self.uname(*target),
                    parts.join(" | ")
                )
            }
            Event::CombatResult {
                target,
                winner,
                by_double,
                hits,
            } => match winner {
                Some(w) => format!(
                    "Charge on {}: {} win{} (hits taken: {} v {})",
                    self.uname(*target),
                    self.sides[*w].name,
                    if *by_double { " by double" } else { "" },
                    hits[*w],
                    hits[1 - *w]
                ),
                None => format!("Charge on {}: drawn, both fall apart", self.uname(*target)),
            },
            Event::Retreated { unit, from, to } => {
                format!("{} retreats {:.1} cm", self.uname(*unit), from.pos.dist(to.pos))
            }
            Event::Consolidated { unit, from, to } => {
                format!("{} consolidates {:.1} cm", self.uname(*unit), from.pos.dist(to.pos))
            }
            Event::Disordered { unit } => format!("{} is disordered", self.uname(*unit)),
            Event::DisorderEnded { unit } => format!("{} is no longer disordered", self.uname(*unit)),
            Event::SuppressionCleared { unit } => format!("{} recovers from suppression", self.uname(*unit)),
            Event::BreakpointRoll {
                side,
                value,
                dice: d,
                broken,
            } => format!(
                "{} at its breakpoint: need ≤ {value}, rolled {}+{}: {}",
                self.sides[*side].name,
                d[0],
                d[1],
                if *broken { "the command breaks" } else { "holds" }
            ),
            Event::EngineerWork {
                unit,
                task,
                what,
                roll,
                built,
                done,
            } => {
                let who = self.uname(*unit);
                match (roll, built) {
                    (Some((r, need)), _) => format!(
                        "{who} try to {} a 5 cm section of {what}: need {need}+, rolled {r}: {} (BPT Engineering)",
                        task.verb(),
                        if *done { "a gap is open" } else { "it stands" }
                    ),
                    (None, Some((b, of))) => format!(
                        "{who} bridge {what}: {b:.0} of {of:.0} cm built{} (BPT Engineering: Bridging)",
                        if *done { ", the pontoon bridge is open" } else { "" }
                    ),
                    _ => format!("{who} work on {what}"),
                }
            }
            Event::WeatherRoll {
                dice: d,
                from,
                to,
                when,
            } => {
                let change = if from == to {
                    format!("the weather stays {}", format!("{to:?}").to_lowercase())
                } else {
                    format!(
                        "the weather turns from {} to {}",
                        format!("{from:?}").to_lowercase(),
                        format!("{to:?}").to_lowercase()
                    )
                };
                format!("Weather, {when}: rolled {}+{}: {change} (BPT Weather)", d[0], d[1])
            }
            Event::ActivationRoll {
                unit,
                modifiers,
                target,
                roll,
                success,
            } => {
                let outcome = if *success { "activated" } else { "fails" };
                let what = format!("{} activation", self.uname(*unit));
                d6_line(&what, modifiers, *target, *roll, outcome, "Glory Days Activation")
            }
            Event::ChargeTest {
                unit,
                enemy,
                modifiers,
                target,
                roll,
                success,
            } => {
                let outcome = if *success {
                    "charges home"
                } else {
                    "stops 2\" short, the initiative passes"
                };
                let what = format!("{} charge test against {}", self.uname(*unit), self.uname(*enemy));
                d6_line(&what, modifiers, *target, *roll, outcome, "Glory Days Melee")
            }
            Event::RallyRoll {
                unit,
                modifiers,
                target,
                roll,
                success,
            } => {
                let outcome = if *success { "a D-marker comes off" } else { "fails" };
                let what = format!("{} rallies", self.uname(*unit));
                d6_line(&what, modifiers, *target, *roll, outcome, "Glory Days Rallying")
            }
            Event::DMarkers {
                unit,
                change,
                total,
                why,
            } => format!(
                "{} {} {} D-marker{} ({why}): {total} now",
                self.uname(*unit),
                if *change >= 0 { "takes" } else { "loses" },
                change.unsigned_abs(),
                if change.unsigned_abs() == 1 { "" } else { "s" }
            ),
            Event::ConstructionHit {
                building,
                rolls,
                need,
                save_rolls,
                hits,
                total,
                value,
            } => format!(
                "{} is struck: [{}] at {need}+{}: {hits} hit{}, {total} of {value} (BPT Constructions)",
                self.building_name(*building),
                dice(rolls),
                if save_rolls.is_empty() {
                    String::new()
                } else {
                    format!(", saves [{}]", dice(save_rolls))
                },
                if *hits == 1 { "" } else { "s" }
            ),
            Event::ConstructionCollapsed {
                building,
                knocked_out,
                suppressed,
            } => {
                let names = |v: &[u32]| v.iter().map(|u| self.uname(*u)).collect::<Vec<_>>().join(", ");
                format!(
                    "{} collapses{}{} (BPT Constructions)",
                    self.building_name(*building),
                    if knocked_out.is_empty() {
                        String::new()
                    } else {
                        format!(": {} knocked out", names(knocked_out))
                    },
                    if suppressed.is_empty() {
                        String::new()
                    } else {
                        format!("; {} suppressed", names(suppressed))
                    }
                )
            }
            Event::Revealed { unit, by, distance } => match by {
                Some(e) => format!(
                    "{} spots {} at {distance:.0} cm: it is hidden no more",
                    self.uname(*e),
                    self.uname(*unit)
                ),
                None => format!("{} gives its position away", self.uname(*unit)),
            },
            Event::ScoutRetired { unit, why } => format!(
                "{} retires out of danger ({why}): off the table, not lost (BPT Scouting Cavalry)",
                self.uname(*unit)
            ),
            Event::ScoutFree { unit } => format!("{} scouts on without orders", self.uname(*unit)),
            Event::SabersDrawn { unit } => format!(
                "{} announces a saber charge: one more attack a stand in its charges this turn, and no firing (BPT Saber Charge)",
                self.uname(*unit)
            ),
            Event::Attached { unit, co, hq } => format!(
                "{} attaches {} to {}'s formation for the rest of the battle (BPT Fixed Formations)",
                self.cname(*co),
                self.uname(*unit),
                self.cname(*hq)
            ),
            Event::ProneSaved { unit, hits, taken } => format!(
                "{} lies prone: {hits} hit{} become {taken} (BPT Prone Movement: one hit fewer per unit firing)",
                self.uname(*unit),
                if *hits == 1 { "" } else { "s" }
            ),
            Event::InitiativePassed { side, reason } => {
                format!("{} lose the initiative: {reason}", self.sides[*side].name)
            }
            Event::OrderDelayed {
                commander,
                units,
                distance,
                delay,
                due_game_turn,
            } => {
                let names: Vec<&str> = units.iter().map(|u| self.uname(*u)).collect();
                format!(
                    "{}'s order to {} is on its way: {distance:.1} cm away, it takes effect {delay} turn{} later, in turn {due_game_turn} (A Perfect Sheet of Flame: order delay)",
                    self.cname(*commander),
                    names.join(", "),
                    if *delay == 1 { "" } else { "s" }
                )
            }
            Event::OrderArrived {
                commander,
                units,
                credits,
                given_game_turn,
                lapsed,
            } => {
                let names: Vec<&str> = units.iter().map(|u| self.uname(*u)).collect();
                let mut line = if units.is_empty() {
                    format!(
                        "{}'s order of turn {given_game_turn} arrives with no unit left to carry it out",
                        self.cname(*commander)
                    )
                } else {
                    format!(
                        "{}'s order of turn {given_game_turn} reaches {}: {credits} action{} each (order delay)",
                        self.cname(*commander),
                        names.join(", "),
                        if *credits == 1 { "" } else { "s" }
                    )
                };
                for (u, why) in lapsed {
                    line.push_str(&format!("; {} lets it lapse: {why}", self.uname(*u)));
                }
                line
            }
            Event::SideBroken { side } => format!("{} withdraws from the field", self.sides[*side].name),
            Event::GameOver {
                winner,
                result,
                victory_points,
                reason,
            } => format!(
                "Game over ({reason}): {}; victory points {} {} / {} {}",
                match winner {
                    Some(w) => format!("{} for {}", result_word(result), self.sides[*w].name),
                    None => "a draw".into(),
                },
                self.sides[0].name,
                victory_points[0],
                self.sides[1].name,
                victory_points[1]
            ),
        }
    }

    /// An action as a menu line.
    pub fn describe_action(&self, a: &Action) -> String {
        // An action naming a unit or commander that does not exist (a bad request, which the
        // pipeline refuses) is described by its name alone.
        let (units, commander) = a.references();
        if units.iter().any(|u| *u as usize >= self.units.len())
            || commander.is_some_and(|c| c as usize >= self.commanders.len())
        {
            return format!("{} (no such unit or commander)", a.name());
        }
        match a {
            Action::InitiativeFire { unit, target } | Action::Fire { unit, target } => {
                let ctx = super::fire::FireContext::Order;
                let plan = self.fire_plan(*unit, *target, ctx);
                let dist = crate::rules::odds::hits_distribution(plan.dice, plan.effective_to_hit(), plan.save);
                let mean = crate::rules::odds::mean(&dist);
                // A gun's ball or shell lands on its aim only on the crew's accuracy roll.
                let (landing, mean) = match self.p_lands_on_aim(*unit, ctx) {
                    Some(p) => (format!(", lands on its aim {:.0}%", p * 100.0), p * mean),
                    None => (String::new(), mean),
                };
                format!(
                    "{}: {} fires at {} ({}, {}+{landing}, expect {:.2} hits)",
                    a.name(),
                    self.uname(*unit),
                    self.uname(*target),
                    count(plan.dice, "die"),
                    plan.effective_to_hit(),
                    mean
                )
            }
            Action::InitiativeCharge { unit, target } | Action::Charge { unit, target } => {
                format!("{}: {} charges {}", a.name(), self.uname(*unit), self.uname(*target))
            }
            Action::InitiativeEvade { unit } | Action::CounterEvade { unit } => {
                format!("{}: {}", a.name(), self.uname(*unit))
            }
            Action::Engineer { unit, linear } => {
                let l = self.terrain.linears.get(*linear as usize);
                let task = l.and_then(|l| super::engineers::Task::for_kind(l.kind));
                format!(
                    "{}: {} {} {}",
                    a.name(),
                    self.uname(*unit),
                    task.map(|t| t.verb()).unwrap_or("work on"),
                    l.map(|l| if l.name.is_empty() {
                        format!("the {}", words_of(&format!("{:?}", l.kind)))
                    } else {
                        l.name.clone()
                    })
                    .unwrap_or_else(|| "?".into())
                )
            }
            Action::InitiativeDeploy { unit, deploy } | Action::Deploy { unit, deploy } => {
                format!("{}: {} {deploy}", a.name(), self.uname(*unit))
            }
            Action::Activate { unit, purpose, into } => {
                let need = self.activation_plan(*unit, *purpose, *into).ok();
                format!(
                    "activate: {}{}{} (need {}+)",
                    self.uname(*unit),
                    match purpose {
                        crate::battle::Purpose::Move => "",
                        crate::battle::Purpose::Formation => " [change formation]",
                        crate::battle::Purpose::Charge => " [may charge]",
                    },
                    if *into > crate::battle::Ground::Open {
                        format!(" [into {into}]")
                    } else {
                        String::new()
                    },
                    need.map(|p| p.target.to_string()).unwrap_or_else(|| "?".into())
                )
            }
            Action::DrawSabers { unit } => format!("saber charge: {} draws sabers", self.uname(*unit)),
            Action::Attach { unit, hq } => {
                let need = self.check_attach(*unit, *hq).ok();
                format!(
                    "attach: {} to {}'s formation (need ≤ {})",
                    self.uname(*unit),
                    self.cname(*hq),
                    need.map(|p| p.target.to_string()).unwrap_or_else(|| "?".into())
                )
            }
            Action::Rally { unit } => {
                let need = self.rally_plan(*unit).ok();
                format!(
                    "rally: {} (need {}+)",
                    self.uname(*unit),
                    need.map(|p| p.target.to_string()).unwrap_or_else(|| "?".into())
                )
            }
            Action::CounterFire { unit } | Action::CounterCharge { unit } | Action::SelfOrder { unit } => {
                format!("{}: {}", a.name(), self.uname(*unit))
            }
            Action::Order {
                commander,
                units,
                charge,
                dense,
                road,
            } => {
                let names: Vec<&str> = units.iter().map(|u| self.uname(*u)).collect();
                let plan = self.check_order_by(*commander, units, *charge, *dense, *road).ok();
                format!(
                    "order: {} → {}{}{}{} (need ≤ {})",
                    self.cname(*commander),
                    names.join(", "),
                    if *charge { " [may charge]" } else { "" },
                    if *dense { " [dense]" } else { "" },
                    if *road { " [along the road]" } else { "" },
                    plan.map(|p| p.target.to_string()).unwrap_or_else(|| "?".into())
                )
            }
            Action::Move { unit, to } => format!(
                "move: {} to ({:.1}, {:.1}) facing {}",
                self.uname(*unit),
                to.pos.x,
                to.pos.y,
                degrees(to.facing)
            ),
            Action::Support { unit, friend } => {
                format!("support: {} supports {}", self.uname(*unit), self.uname(*friend))
            }
            Action::CommanderMove { commander, to } => {
                format!(
                    "commander move: {} to ({:.1}, {:.1})",
                    self.cname(*commander),
                    to.x,
                    to.y
                )
            }
            Action::OpportunityFire { unit, target, with } if with.is_empty() => {
                format!("opportunity fire: {} at {}", self.uname(*unit), self.uname(*target))
            }
            Action::OpportunityFire { unit, target, with } => {
                let names: Vec<&str> = std::iter::once(unit).chain(with).map(|u| self.uname(*u)).collect();
                format!(
                    "opportunity fire: {} at {}, their attacks rolled together",
                    names.join(" and "),
                    self.uname(*target)
                )
            }
            Action::Pass => "pass".into(),
            Action::EndPhase => format!("end the {} phase", phase_word(self.phase)),
        }
    }
}

/// The player turn a phase line of the log opens ("— Turn 2, Union: command phase —" →
/// "Turn 2, Union"), for the dice panel's groups; None for any other line.
pub fn player_turn_of(line: &str) -> Option<&str> {
    let inner = line.strip_prefix("— ")?.strip_suffix(" phase —")?;
    let (turn_side, _phase) = inner.rsplit_once(": ")?;
    turn_side.starts_with("Turn ").then_some(turn_side)
}
