//! What the terminal player looks at besides the log: the units with their state, a
//! character map of the table, the odds of an action, and the result explained. Plain lines:
//! nothing depends on colour, every symbol of the map is in its legend.

use super::words::{cm, compass, facing_text, place_phrase, relative_bearing};
use crate::battle::fire::FireContext;
use crate::battle::state::{ResultKind, SideId, Unit, UnitId};
use crate::battle::{Action, Battle, Phase};
use crate::data::scenario::{Objective, ObjectiveLevel};
use crate::rules::geometry::V2;
use crate::rules::odds;
use crate::rules::terrain::{AreaKind, LinearKind, polyline_distance_to_point};
use crate::view::PlayerView;

/// A unit's short label as side `me`'s player reads it: its side's units in id order, `A`–`Z`
/// for the first side and `a`–`z` for the second, then a letter and a number (`A1`, `a1`…).
/// The units counted are those `me` knows of ([`PlayerView::knows`], dead ones too): all of
/// its own, so its own labels never change; of the enemy only the known ones, so an enemy's
/// letter says nothing of the hidden units before it. An enemy's label changes only when an
/// enemy unit before it in id order is found (hidden set-up) or comes into or out of sight
/// (dug in).
pub fn label(b: &Battle, me: SideId, id: UnitId) -> String {
    let u = b.unit(id);
    let view = PlayerView::side(b, me);
    let i = b
        .units
        .iter()
        .filter(|x| x.side == u.side && x.id < id && view.knows(x.id))
        .count();
    let base = if u.side == 0 { b'A' } else { b'a' };
    if i < 26 {
        ((base + i as u8) as char).to_string()
    } else {
        let c = (base + (i % 26) as u8) as char;
        format!("{c}{}", i / 26)
    }
}

/// The unit's state beyond position: "suppressed, disordered, limbered…", or "steady" (the
/// terminal's `units` and the window's tooltip). `hand`: the viewer may know the unit's side's
/// hand (its own unit, or a spectator): a gun's loaded ammunition is said only then (the
/// player view keeps it from the other side).
pub fn status(b: &Battle, u: &Unit, hand: bool) -> String {
    let pt = b.player_turn;
    let mut s = Vec::new();
    if u.suppressed() {
        s.push("suppressed".to_string());
    }
    if u.disordered(pt) {
        s.push("disordered".into());
    }
    if u.exhausted {
        s.push("exhausted".into());
    }
    if u.is_artillery() {
        s.push(if u.limbered { "limbered" } else { "unlimbered" }.into());
        match u.loaded {
            _ if !hand => {}
            Some(a) => s.push(format!("loaded with {}", format!("{a:?}").to_lowercase())),
            None => s.push("not loaded".into()),
        }
    }
    if u.dug_in {
        s.push("dug in".into());
    }
    if b.is_prone(u.id) {
        s.push("prone".into());
    }
    if u.hidden {
        s.push("hidden".into());
    }
    if u.d_markers > 0 {
        s.push(format!("{} D-markers", u.d_markers));
    }
    if u.refused != (false, false) {
        s.push("flank refused".into());
    }
    if s.is_empty() { "steady".into() } else { s.join(", ") }
}

/// Its orders this turn, in its side's command phase (the terminal's `units` and the
/// window's tooltip).
pub fn orders(b: &Battle, u: &Unit) -> Option<String> {
    if b.phase != Phase::Command || b.active != u.side {
        return None;
    }
    Some(match b.cmd.orders.get(&u.id) {
        None => "no order yet this turn".into(),
        Some(o) if o.finished => "done for this turn".into(),
        Some(o) => format!(
            "{} action{} left ({} order{} this turn)",
            o.credits,
            if o.credits == 1 { "" } else { "s" },
            o.count,
            if o.count == 1 { "" } else { "s" }
        ),
    })
}

/// Stands, hits and the hits a stand takes: "4 of 4 stands, 1 hit (3 lose a stand)" (the
/// terminal's `units` and the window's tooltip).
pub fn strength(b: &Battle, u: &Unit) -> String {
    format!(
        "{} of {} stand{}, {} hit{} this turn ({} lose a stand)",
        u.stands,
        u.start_stands,
        if u.start_stands == 1 { "" } else { "s" },
        u.hits,
        if u.hits == 1 { "" } else { "s" },
        u.stand_hits(&b.rules, b.player_turn)
    )
}

/// Where `p` is from the nearest of `side`'s units: "(12 cm ahead-left of 5th New Hampshire)".
fn from_nearest(b: &Battle, side: SideId, p: V2) -> Option<(f64, String)> {
    b.side_units(side)
        .map(|u| (u, u.pose.pos.dist(p)))
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(u, d)| {
            (
                d,
                format!("{} cm {} {}", cm(d), place_phrase(relative_bearing(&u.pose, p)), u.name),
            )
        })
}

/// The weather (night said as such) and the optional rules on, for the terminal's opening,
/// its turn headers and `units` (issue 64: it said neither): "night (poor weather all battle);
/// optional rules: weather, initiative-passing".
pub fn conditions(b: &Battle) -> String {
    let weather = format!("{:?}", b.weather).to_lowercase();
    let sky = if b.night {
        format!("night ({weather} weather all battle)")
    } else {
        format!("{weather} weather")
    };
    format!("{sky}; optional rules: {}", b.rules.switches.describe())
}

/// The longest `units` printed whole; a longer one is summed up a formation a line.
pub const UNITS_WHOLE: usize = 60;

/// `units WORD`: `all` (or nothing, when it fits a screen) for every line; nothing, on a big
/// battle, a formation a line; else the lines of the units and commanders WORD names (a
/// unit's label, a word of a unit's or commander's name: a commander names his whole
/// formation).
pub fn units_asked(b: &Battle, me: SideId, word: &str) -> Vec<String> {
    let word = word.trim();
    match word {
        "all" => units(b, me),
        "" => {
            let whole = units(b, me);
            if whole.len() <= UNITS_WHOLE {
                whole
            } else {
                formations(b, me)
            }
        }
        _ => units_named(b, me, word),
    }
}

/// `units`: the player's units and commanders, the enemy units it knows of, the objectives
/// (all as [`PlayerView`] has them for `me`).
pub fn units(b: &Battle, me: SideId) -> Vec<String> {
    let view = PlayerView::side(b, me);
    let mut out = vec![units_header(b, me)];
    for u in b.side_units(me) {
        out.push(unit_line(b, me, &view, u));
    }
    let lost: Vec<&str> = b
        .units
        .iter()
        .filter(|u| u.side == me && !u.alive())
        .map(|u| u.name.as_str())
        .collect();
    if !lost.is_empty() {
        out.push(format!("  lost: {}", lost.join(", ")));
    }
    for c in b.commanders.iter().filter(|c| c.side == me && c.alive()) {
        out.push(commander_line(b, me, c));
    }
    enemy_and_totals(b, me, &view, &mut out, false);
    out
}

fn units_header(b: &Battle, me: SideId) -> String {
    let phase = match b.phase {
        Phase::GameOver => "the battle over".to_string(),
        p => format!("{p:?} phase"),
    };
    format!(
        "{} units (turn {} of {}, {phase}, {}; positions in cm, x east, y north):",
        b.sides[me].name,
        b.game_turn,
        b.turn_limit,
        conditions(b)
    )
}

/// One of `me`'s units: where, facing, formation, strength, status, orders, nearest enemy.
fn unit_line(b: &Battle, me: SideId, view: &PlayerView, u: &Unit) -> String {
    let mut line = format!(
        "  {} {}: at ({}, {}) facing {}, {}, {}, {}",
        label(b, me, u.id),
        u.name,
        cm(u.pose.pos.x),
        cm(u.pose.pos.y),
        facing_text(u.pose.facing),
        u.formation,
        strength(b, u),
        status(b, u, true)
    );
    if let Some(o) = orders(b, u) {
        line.push_str(&format!("; {o}"));
    }
    let nearest = view
        .enemy_ids()
        .into_iter()
        .map(|e| (e, b.unit_distance(u.id, e)))
        .min_by(|x, y| x.1.total_cmp(&y.1));
    if let Some((e, d)) = nearest {
        let eu = b.unit(e);
        let dir = eu.pose.pos - u.pose.pos;
        line.push_str(&format!(
            "; nearest enemy {} {} {} cm {} ({}){}",
            label(b, me, e),
            eu.name,
            cm(d),
            relative_bearing(&u.pose, eu.pose.pos),
            compass(dir.y.atan2(dir.x).to_degrees()),
            if b.sees(u.id, e) {
                ", in sight"
            } else {
                ", out of sight"
            }
        ));
    }
    line
}

fn commander_line(b: &Battle, me: SideId, c: &crate::battle::state::Commander) -> String {
    let done = b.phase == Phase::Command && b.active == me && b.cmd.done.contains(&c.id);
    format!(
        "  @ {}: at ({}, {}), command {}{}{}",
        c.name,
        cm(c.pos.x),
        cm(c.pos.y),
        c.command_value,
        if c.suppressed.is_some() { ", suppressed" } else { "" },
        if done { ", no more orders this turn" } else { "" }
    )
}

/// Where `p` is in the table's words: on the nearest named place, or how far from it and
/// which way ("in Herbst Woods", "12 cm west of Herr Ridge").
pub fn where_words(b: &Battle, side: SideId, p: V2) -> String {
    let nearest = b
        .places(side)
        .into_iter()
        .map(|pl| (b.off_place(&pl, p), pl))
        .min_by(|x, y| x.0.total_cmp(&y.0));
    match nearest {
        Some((off, pl)) if off <= 0.5 => format!("{} {}", pl.kind.there(), pl.name),
        Some((off, pl)) => {
            let d = p - b.place_point(&pl, p);
            format!("{} cm {} of {}", cm(off), compass(d.y.atan2(d.x).to_degrees()), pl.name)
        }
        None => format!("at ({}, {})", cm(p.x), cm(p.y)),
    }
}

fn middle<'a>(units: impl Iterator<Item = &'a Unit>) -> Option<V2> {
    let ps: Vec<V2> = units.map(|u| u.pose.pos).collect();
    (!ps.is_empty()).then(|| {
        ps.iter()
            .fold(V2::new(0.0, 0.0), |a, &p| a + p * (1.0 / ps.len() as f64))
    })
}

/// A big battle's `units`, a formation a line: each of `me`'s commanders with what he leads,
/// each enemy formation with what `me` knows of it; then losses and objectives.
pub fn formations(b: &Battle, me: SideId) -> Vec<String> {
    let view = PlayerView::side(b, me);
    let mut out = vec![
        units_header(b, me),
        "  (a formation a line: `units WORD` for a formation's or unit's own lines, `units all` for everything)".into(),
    ];
    for c in b.commanders.iter().filter(|c| c.side == me && c.alive()) {
        let own: Vec<&Unit> = b.commanded_units(c.id).filter(|u| u.alive()).collect();
        let mut line = format!(
            "  {}: command {}",
            crate::report::intent::formation_title(b, c.id),
            c.command_value
        );
        if own.is_empty() {
            let juniors: Vec<String> = b
                .commanders
                .iter()
                .filter(|j| j.superior == Some(c.id) && j.alive())
                .map(|j| crate::report::intent::formation_words(b, j))
                .collect();
            if !juniors.is_empty() {
                line.push_str(&format!("; leads {}", juniors.join(", ")));
            }
        } else {
            let stands: u32 = own.iter().map(|u| u.stands).sum();
            let start: u32 = own.iter().map(|u| u.start_stands).sum();
            line.push_str(&format!(
                "; {}, {stands} of {start} stand{}",
                crate::report::count(own.len() as i64, "unit"),
                if start == 1 { "" } else { "s" }
            ));
            let suppressed = own.iter().filter(|u| u.suppressed.is_some()).count();
            if suppressed > 0 {
                line.push_str(&format!(", {suppressed} suppressed"));
            }
            if let Some(m) = middle(own.iter().copied()) {
                line.push_str(&format!("; {}", where_words(b, me, m)));
            }
            let nearest = view
                .enemy_ids()
                .into_iter()
                .flat_map(|e| own.iter().map(move |u| (e, b.unit_distance(u.id, e))))
                .min_by(|x, y| x.1.total_cmp(&y.1));
            if let Some((e, d)) = nearest {
                line.push_str(&format!("; nearest enemy {} {} cm away", b.unit(e).name, cm(d)));
            }
        }
        if b.phase == Phase::Command && b.active == me && b.cmd.done.contains(&c.id) {
            line.push_str("; no more orders this turn");
        }
        out.push(line);
    }
    let lost = b.units.iter().filter(|u| u.side == me && !u.alive()).count();
    if lost > 0 {
        out.push(format!("  lost: {}", crate::report::count(lost as i64, "unit")));
    }
    enemy_and_totals(b, me, &view, &mut out, true);
    out
}

/// `units WORD`: the lines of the units WORD names, or of a named commander's formation.
fn units_named(b: &Battle, me: SideId, word: &str) -> Vec<String> {
    use crate::battle::intent::name_matches;
    let view = PlayerView::side(b, me);
    // One commander named: his formation; several: each of them alone.
    let formation = b.formation_named(me, word);
    let several: Vec<u32> = match formation {
        Some(_) => Vec::new(),
        None => b.commanders_named(me, word),
    };
    let under = |hq: Option<u32>| hq.zip(formation).is_some_and(|(h, c)| b.in_chain(h, c));
    let mut out = Vec::new();
    for c in b
        .commanders
        .iter()
        .filter(|c| c.side == me && c.alive() && under(Some(c.id)))
    {
        out.push(format!("-- {} --", crate::report::intent::formation_title(b, c.id)));
        out.push(commander_line(b, me, c));
        for u in b.side_units(me).filter(|u| u.hq == c.id) {
            out.push(unit_line(b, me, &view, u));
        }
    }
    for c in several.into_iter().map(|c| b.commander(c)).filter(|c| c.alive()) {
        out.push(commander_line(b, me, c));
    }
    for u in b
        .side_units(me)
        .filter(|u| !under(Some(u.hq)) && (label(b, me, u.id) == word || name_matches(&u.name, word)))
    {
        out.push(unit_line(b, me, &view, u));
    }
    if out.is_empty() {
        out.push(format!(
            "  None of your units or commanders is named `{}`; `units` lists them.",
            super::words::echo(word)
        ));
    }
    out
}

/// The enemy units `me` knows of (a line each, or with `folded` a formation a line), the
/// losses and the objectives.
fn enemy_and_totals(b: &Battle, me: SideId, view: &PlayerView, out: &mut Vec<String>, folded: bool) {
    let known = view.enemy_ids();
    let enemy = 1 - me;
    out.push(format!("{} units you know of:", b.sides[enemy].name));
    if known.is_empty() {
        out.push("  none".into());
    }
    if folded {
        for c in b.commanders.iter().filter(|c| c.side == enemy) {
            let seen: Vec<&Unit> = b
                .commanded_units(c.id)
                .filter(|u| u.alive() && known.contains(&u.id))
                .collect();
            let Some(m) = middle(seen.iter().copied()) else {
                continue;
            };
            let stands: u32 = seen.iter().map(|u| u.stands).sum();
            let sight = seen.iter().filter(|u| view.in_sight(u.id)).count();
            out.push(format!(
                "  {}: {} you know of, {}, {} in sight; {}",
                crate::report::intent::formation_named(c, seen.iter().all(|u| u.is_artillery())),
                crate::report::count(seen.len() as i64, "unit"),
                crate::report::count(stands as i64, "stand"),
                sight,
                where_words(b, me, m)
            ));
        }
    }
    for &e in known.iter().filter(|_| !folded) {
        let u = b.unit(e);
        let seen = view.in_sight(e);
        out.push(format!(
            "  {} {}: at ({}, {}) facing {}, {}, {} of {} stand{}, {}{}{}",
            label(b, me, e),
            u.name,
            cm(u.pose.pos.x),
            cm(u.pose.pos.y),
            facing_text(u.pose.facing),
            u.formation,
            u.stands,
            u.start_stands,
            if u.start_stands == 1 { "" } else { "s" },
            status(b, u, false),
            from_nearest(b, me, u.pose.pos)
                .map(|(_, t)| format!("; {t}"))
                .unwrap_or_default(),
            if seen { ", in sight" } else { ", out of sight" }
        ));
    }
    // Of the units `me` knows of: the enemy's hidden units are not counted.
    let count = |s: SideId| b.units.iter().filter(|u| u.side == s && view.knows(u.id)).count();
    let lost = |s: SideId| {
        b.units
            .iter()
            .filter(|u| u.side == s && u.knocked_out && !u.retired && view.knows(u.id))
            .count()
    };
    out.push(format!(
        "Losses: {} {} of {} units (breakpoint {}), {} {} of {} (breakpoint {})",
        b.sides[0].name,
        lost(0),
        count(0),
        b.sides[0].breakpoint,
        b.sides[1].name,
        lost(1),
        count(1),
        b.sides[1].breakpoint
    ));
    out.push("Objectives:".into());
    for o in &b.objectives {
        out.push(format!("  {}", objective_line(view, b, o)));
    }
}

/// One objective and who holds it now: "North ridge (Union's major objective) at (60, 81),
/// radius 8 cm: not held (no Union unit within 8 cm; nearest 5th New Hampshire 52 cm)", as
/// far as `view` knows (an enemy unit it does not know of neither holds nor contests).
pub fn objective_line(view: &PlayerView, b: &Battle, o: &Objective) -> String {
    let side = (0..2).find(|&s| b.sides[s].name == o.side).unwrap_or(0);
    let within = |s: SideId, need_ok: bool| -> Vec<&str> {
        view.side_units(s)
            .filter(|u| {
                (!need_ok || !u.suppressed()) && b.rects(u.id).iter().any(|r| r.distance_to_point(o.pos) <= o.radius)
            })
            .map(|u| u.name.as_str())
            .collect()
    };
    let mine = within(side, true);
    let theirs = within(1 - side, false);
    let state = if !mine.is_empty() && theirs.is_empty() {
        format!("HELD by {} ({} within)", b.sides[side].name, mine.join(", "))
    } else if !mine.is_empty() {
        format!(
            "not held: contested by {} ({} within)",
            b.sides[1 - side].name,
            theirs.join(", ")
        )
    } else {
        let near = view
            .side_units(side)
            .map(|u| {
                (
                    u,
                    b.rects(u.id)
                        .iter()
                        .map(|r| r.distance_to_point(o.pos))
                        .fold(f64::MAX, f64::min),
                )
            })
            .min_by(|x, y| x.1.total_cmp(&y.1));
        match near {
            Some((u, d)) => format!(
                "not held: no steady {} unit within {} cm (nearest {} at {} cm)",
                b.sides[side].name,
                cm(o.radius),
                u.name,
                cm(d)
            ),
            None => format!("not held: no {} unit left", b.sides[side].name),
        }
    };
    format!(
        "{} ({}'s {} objective) at ({}, {}), radius {} cm: {state}",
        o.name,
        o.side,
        match o.level {
            ObjectiveLevel::Major => "major",
            ObjectiveLevel::Minor => "minor",
        },
        cm(o.pos.x),
        cm(o.pos.y),
        cm(o.radius)
    )
}

/// The terminal's width in columns: the terminal's own, else `COLUMNS`, else 80.
pub fn terminal_width() -> usize {
    #[cfg(unix)]
    {
        // SAFETY: TIOCGWINSZ writes a winsize into the struct we pass; stdout may be no terminal,
        // then it fails and we fall back.
        let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
        let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut ws) } == 0;
        if ok && ws.ws_col >= 20 {
            return ws.ws_col as usize;
        }
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c >= 20)
        .unwrap_or(80)
}

fn area_symbol(k: AreaKind) -> (char, &'static str) {
    let c = match k {
        AreaKind::Field => ',',
        AreaKind::Scrub => ';',
        AreaKind::Woods => '!',
        AreaKind::Orchard => '%',
        AreaKind::BuiltUp => '{',
        AreaKind::Marsh => '_',
        AreaKind::Mud => ':',
        AreaKind::Lake => '~',
    };
    (c, k.name())
}

fn linear_symbol(k: LinearKind) -> (char, &'static str) {
    let c = match k {
        LinearKind::Road => '=',
        LinearKind::Wall => '#',
        LinearKind::Fence | LinearKind::Hedge => '+',
        LinearKind::Stream | LinearKind::River => '~',
    };
    (c, k.name())
}

/// `map`: the table in characters, `width` columns wide, north at the top, with a legend.
/// The player's side `me` sees only the enemy units it knows of ([`PlayerView`]).
pub fn map(b: &Battle, me: SideId, width: usize) -> Vec<String> {
    let view = PlayerView::side(b, me);
    let margin = 5;
    let cols = width.clamp(30, 240) - margin;
    let cw = b.table.width / cols as f64;
    // A character is about twice as tall as it is wide.
    let rows = (b.table.height / (cw * 2.0)).round().max(1.0) as usize;
    let chh = b.table.height / rows as f64;
    // Linear features are found in a space squeezed north-south by the cells' shape, so a
    // line is one character wide whichever way it runs.
    let squeeze = cw / chh;
    let sq = |p: V2| V2::new(p.x, p.y * squeeze);
    let shown: Vec<&Unit> = view.units().collect();
    let mut used = std::collections::BTreeSet::new();
    let mut grid = vec![vec!['.'; cols]; rows];
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            let p = V2::new((c as f64 + 0.5) * cw, b.table.height - (r as f64 + 0.5) * chh);
            let mut ch = '.';
            if b.terrain.elevation_at(p) > 0 {
                ch = '^';
            }
            for a in &b.terrain.areas {
                if a.outline.contains(p) {
                    ch = area_symbol(a.kind).0;
                }
            }
            for l in &b.terrain.linears {
                let pts: Vec<V2> = l.points.iter().map(|&q| sq(q)).collect();
                if polyline_distance_to_point(&pts, sq(p)) <= (l.width / 2.0 * squeeze).max(cw * 0.5) {
                    ch = linear_symbol(l.kind).0;
                }
            }
            for bd in &b.terrain.buildings {
                if bd.outline.contains(p) {
                    ch = '[';
                }
            }
            *cell = ch;
            used.insert(ch);
        }
    }
    let cell_of = |p: V2| -> Option<(usize, usize)> {
        let c = (p.x / cw).floor();
        let r = ((b.table.height - p.y) / chh).floor();
        (c >= 0.0 && r >= 0.0 && (c as usize) < cols && (r as usize) < rows).then_some((r as usize, c as usize))
    };
    for o in &b.objectives {
        if let Some((r, c)) = cell_of(o.pos) {
            grid[r][c] = '*';
        }
    }
    for cmd in b.commanders.iter().filter(|c| c.alive() && c.side == me) {
        if let Some((r, c)) = cell_of(cmd.pos) {
            grid[r][c] = '@';
        }
    }
    let mut far_labels = false;
    for u in &shown {
        let l = label(b, me, u.id);
        let ch = if l.len() == 1 {
            l.chars().next().unwrap_or('?')
        } else {
            far_labels = true;
            '?'
        };
        // Every cell a stand lies on: points across each base, half a cell apart.
        for rect in b.rects(u.id) {
            let k = rect.corners();
            let n = ((rect.width.max(rect.depth) / (cw / 2.0)).ceil() as usize).max(1);
            for i in 0..=n {
                for j in 0..=n {
                    let (s, t) = (i as f64 / n as f64, j as f64 / n as f64);
                    let p = k[0].lerp(k[1], s).lerp(k[3].lerp(k[2], s), t);
                    if let Some((r, c)) = cell_of(p) {
                        grid[r][c] = ch;
                    }
                }
            }
        }
        if let Some((r, c)) = cell_of(u.pose.pos) {
            grid[r][c] = ch;
        }
    }
    let mut out = vec![format!(
        "Map of {} ({} × {} cm): north at the top, one character {} cm across and {} cm down.",
        b.title,
        cm(b.table.width),
        cm(b.table.height),
        cm((cw * 10.0).round() / 10.0),
        cm((chh * 10.0).round() / 10.0)
    )];
    out.push(format!("{:>4} {}", "y\\x", map_ruler(b, cols, cw)));
    for (r, row) in grid.iter().enumerate() {
        let y = b.table.height - (r as f64 + 0.5) * chh;
        out.push(format!("{:>4} {}", y.round() as i64, row.iter().collect::<String>()));
    }
    out.extend(map_legend(b, me, &shown, far_labels, &used));
    out
}

/// The map's legend: the units shown, the side's commanders, the objectives, the terrain.
fn map_legend(
    b: &Battle,
    me: SideId,
    shown: &[&Unit],
    far_labels: bool,
    used: &std::collections::BTreeSet<char>,
) -> Vec<String> {
    let mut out = vec!["Legend:".to_string()];
    let mut legend_terrain: Vec<String> = Vec::new();
    for u in shown {
        let side = &b.sides[u.side].name;
        out.push(format!(
            "  {} {} ({side}{}), at ({}, {}) facing {}, {}",
            label(b, me, u.id),
            u.name,
            if u.side == me { "" } else { ", enemy" },
            cm(u.pose.pos.x),
            cm(u.pose.pos.y),
            facing_text(u.pose.facing),
            u.formation
        ));
    }
    if far_labels {
        out.push("  ? a unit past the 26th of its side (see `units` for its label)".into());
    }
    for c in b.commanders.iter().filter(|c| c.alive() && c.side == me) {
        out.push(format!(
            "  @ {} (commander), at ({}, {})",
            c.name,
            cm(c.pos.x),
            cm(c.pos.y)
        ));
    }
    for o in &b.objectives {
        out.push(format!(
            "  * {} ({}'s {} objective), at ({}, {})",
            o.name,
            o.side,
            if o.level == ObjectiveLevel::Major {
                "major"
            } else {
                "minor"
            },
            cm(o.pos.x),
            cm(o.pos.y)
        ));
    }
    for a in &b.terrain.areas {
        let (ch, kind) = area_symbol(a.kind);
        legend_terrain.push(format!("  {ch} {}{kind}", named(&a.name)));
    }
    for l in &b.terrain.linears {
        let (ch, kind) = linear_symbol(l.kind);
        legend_terrain.push(format!("  {ch} {}{kind}", named(&l.name)));
    }
    for bd in &b.terrain.buildings {
        legend_terrain.push(format!("  [ {}building", named(&bd.name)));
    }
    for h in &b.terrain.hills {
        legend_terrain.push(format!("  ^ {}hill", named(&h.name)));
    }
    legend_terrain.dedup();
    out.extend(legend_terrain);
    if used.contains(&'.') {
        out.push("  . open ground".into());
    }
    out
}

/// The ruler over the map: x every 10 cm (20 on a table over 2 m wide).
fn map_ruler(b: &Battle, cols: usize, cw: f64) -> String {
    let mut ruler = vec![' '; cols];
    let mut x = 0.0;
    while x < b.table.width {
        let c = (x / cw).floor() as usize;
        let t = cm(x);
        for (i, ch) in t.chars().enumerate() {
            if c + i < cols {
                ruler[c + i] = ch;
            }
        }
        x += if b.table.width > 200.0 { 20.0 } else { 10.0 };
    }
    ruler.iter().collect()
}

fn named(name: &str) -> String {
    if name.is_empty() {
        String::new()
    } else {
        format!("{name}: ")
    }
}

fn pct(p: f64) -> String {
    format!("{:.0}%", p * 100.0)
}

/// `odds N`: the dice of one listed action.
pub fn odds_lines(b: &Battle, a: &Action) -> Vec<String> {
    let fire = |unit: UnitId, target: UnitId, ctx: FireContext| {
        // As the fire will be rolled: after a square it forces (BPT "Square").
        let fired_on = b.as_fired_on(target);
        let b = &*fired_on;
        let plan = b.fire_plan(unit, target, ctx);
        let to_hit = plan.effective_to_hit();
        let dist = odds::hits_distribution(plan.dice, to_hit, plan.save);
        let mut out = vec![format!(
            "{} fires at {}: {} ({} base{}{}), hit on {}+{}{}",
            b.unit(unit).name,
            b.unit(target).name,
            crate::report::count(plan.dice, "die"),
            plan.base_dice,
            if plan.modifiers.is_empty() { "" } else { ", " },
            super::words::modifiers_text(&plan.modifiers),
            to_hit,
            if plan.roll_bonus > 0 {
                " (first fire bonus counted)"
            } else {
                ""
            },
            plan.save
                .map(|s| format!(", the target saves on {s}+"))
                .unwrap_or_default()
        )];
        if matches!(fired_on, std::borrow::Cow::Owned(_)) {
            out.push(format!(
                "  {} forms square first: enemy cavalry within {} cm (BPT Square)",
                b.unit(target).name,
                b.rules.fire.square_cavalry_threat
            ));
        }
        // A shell attacks every stand within its burst, wherever it lands: its dice are rolled
        // for each, so the distribution of the order's dice is not its own (issue 64).
        if let Some(e) = b.shell_expected_hits(unit, target, ctx) {
            let zone = if plan.air_burst {
                b.rules.artillery.air_burst_radius
            } else {
                b.rules.artillery.shell_radius
            };
            out.push(format!(
                "  a shell: every stand within {zone} cm of its burst takes the gun's dice{}; expected hits on {} {e:.2}",
                if plan.air_burst { " (one fewer, in the open)" } else { "" },
                b.unit(target).name
            ));
        } else {
            let mut hits = Vec::new();
            for (k, p) in dist.iter().enumerate() {
                if *p >= 0.005 {
                    hits.push(format!("{k} hit{}: {}", if k == 1 { "" } else { "s" }, pct(*p)));
                }
            }
            out.push(format!("  {}", hits.join(", ")));
            out.push(format!(
                "  expected hits {:.2}; chance of a suppression test that suppresses about {}",
                odds::mean(&dist),
                pct(odds::p_suppress(&dist, to_hit.max(1)))
            ));
        }
        if let Some(p) = b.p_lands_on_aim(unit, ctx) {
            out.push(format!("  a gun's shot lands on its aim {} of the time", pct(p)));
        }
        out
    };
    let command = |target: i32, what: &str| {
        let o = odds::command_roll_odds(target);
        vec![format!(
            "{what}: 2d6 need ≤ {target}: passes {} (double 1, two actions: {}), fails {} (double 6 blunders: {})",
            pct(o.success),
            pct(o.bonus),
            pct(o.failure()),
            pct(o.blunder)
        )]
    };
    match a {
        Action::Fire { unit, target } => fire(*unit, *target, FireContext::Order),
        Action::InitiativeFire { unit, target } => fire(*unit, *target, FireContext::Initiative),
        Action::OpportunityFire { unit, target, .. } => fire(*unit, *target, FireContext::Opportunity),
        Action::Order {
            commander,
            units,
            charge,
            dense,
            road,
        } => match b.check_order_by(*commander, units, *charge, *dense, *road) {
            Ok(p) => command(p.target, "the order"),
            Err(r) => vec![format!("refused: {r}")],
        },
        Action::Attach { unit, hq } => match b.check_attach(*unit, *hq) {
            Ok(p) => command(p.target, "the attachment"),
            Err(r) => vec![format!("refused: {r}")],
        },
        Action::Activate { unit, purpose, into } => match b.activation_plan(*unit, *purpose, *into) {
            Ok(p) => vec![format!("one d6 needs {}+: {}", p.target, pct(p.chance()))],
            Err(r) => vec![format!("refused: {r}")],
        },
        Action::Rally { unit } => match b.rally_plan(*unit) {
            Ok(p) => vec![format!("one d6 needs {}+: {}", p.target, pct(p.chance()))],
            Err(r) => vec![format!("refused: {r}")],
        },
        Action::Charge { .. } | Action::InitiativeCharge { .. } => vec![
            "a charge's dice depend on who reaches contact and who supports: the log shows every round as it is fought"
                .into(),
        ],
        _ => vec!["no dice are rolled for this action itself (the enemy may answer it with opportunity fire)".into()],
    }
}

/// The last screen: who won and why, objectives held, victory points, losses against
/// breakpoints.
pub fn result(b: &Battle) -> Vec<String> {
    let Some(o) = &b.outcome else {
        return vec!["The battle is not over.".into()];
    };
    let name = |s: SideId| b.sides[s].name.as_str();
    let mut out = vec![format!(
        "=== {}: the battle is over ({}) ===",
        b.title,
        crate::report::end_reason_words(o.reason)
    )];
    out.push(match (o.winner, o.result) {
        (None, _) | (_, ResultKind::Draw) => "Result: a draw.".to_string(),
        (Some(w), ResultKind::Minor) => format!("Result: {} win a minor victory.", name(w)),
        (Some(w), ResultKind::Decisive) => format!("Result: {} win a decisive victory.", name(w)),
    });
    out.push("Objectives at the end (a unit within the radius, not suppressed, and no enemy unit within):".into());
    // The battle is over: nothing is hidden any more.
    let all = PlayerView::of(b, crate::view::Viewer::All);
    for obj in &b.objectives {
        out.push(format!("  {}", objective_line(&all, b, obj)));
    }
    for s in 0..2 {
        let best = match o.objectives[s] {
            Some(ObjectiveLevel::Major) => "a major objective",
            Some(ObjectiveLevel::Minor) => "a minor objective",
            None => "no objective",
        };
        let broken = if b.sides[s].broken {
            " — but it broke, and a broken side reaches no objective and cannot win"
        } else {
            ""
        };
        out.push(format!("  {} hold {best}{broken}.", name(s)));
    }
    out.push(format!(
        "Victory points (the points of enemy units and commanders knocked out): {} {}, {} {}.",
        name(0),
        o.victory_points[0],
        name(1),
        o.victory_points[1]
    ));
    for s in 0..2 {
        let total = b.units.iter().filter(|u| u.side == s).count();
        out.push(format!(
            "Losses: {} lost {} of {} units (breakpoint {}){}.",
            name(s),
            o.units_lost[s],
            total,
            b.sides[s].breakpoint,
            if b.sides[s].broken {
                ", and broke"
            } else if o.units_lost[s] >= b.sides[s].breakpoint {
                ", at its breakpoint but held"
            } else {
                ", short of its breakpoint"
            }
        ));
    }
    out.push(decided_by(b, o));
    out.push(format!(
        "How it is decided: the side holding the better objective wins (major over minor over none; a major \
         held over nothing is decisive); a broken side cannot win; victory points at least {} times the enemy's \
         turn a draw into a minor victory, or a minor into a decisive one.{}",
        b.rules.victory.vp_ratio,
        if b.decide_on_points {
            format!(" {ON_POINTS}")
        } else {
            String::new()
        }
    ));
    out
}

/// The scenario rule `decide_on_points`, as the result and the victory panel say it.
pub const ON_POINTS: &str =
    "Decided on points: with the objectives level, the side with more victory points wins a minor victory.";

/// The one sentence saying what decided this result.
pub fn decided_by(b: &Battle, o: &crate::battle::state::Outcome) -> String {
    let name = |s: SideId| b.sides[s].name.as_str();
    let rank = |s: SideId| {
        if b.sides[s].broken {
            0
        } else {
            match o.objectives[s] {
                None => 0,
                Some(ObjectiveLevel::Minor) => 1,
                Some(ObjectiveLevel::Major) => 2,
            }
        }
    };
    let vp = o.victory_points;
    let vp_decides = |s: SideId| vp[s] > 0 && vp[s] > vp[1 - s] && vp[s] >= b.rules.victory.vp_ratio * vp[1 - s];
    match o.winner {
        None => "Decided by: neither side holds a better objective, and neither has enough more victory points.".into(),
        Some(w) if b.sides[1 - w].broken && !b.sides[w].broken => {
            format!("Decided by: {} broke, so {} win.", name(1 - w), name(w))
        }
        Some(w) if rank(w) > rank(1 - w) && o.result == ResultKind::Decisive && vp_decides(w) && rank(w) == 1 => {
            format!(
                "Decided by: {} hold the better objective, and their victory points ({} to {}) make it decisive.",
                name(w),
                vp[w],
                vp[1 - w]
            )
        }
        Some(w) if rank(w) > rank(1 - w) => format!("Decided by: {} hold the better objective.", name(w)),
        Some(w) => format!(
            "Decided by: victory points, {} to {}, with no better objective on either side.",
            vp[w],
            vp[1 - w]
        ),
    }
}
