//! Writing a scenario as RON in the style of the bundled maps, keeping the comments of the
//! file it came from where the format allows.
//!
//! The text is driven by serde: the scenario is serialised by `ron` (so every field, present
//! and future, is written), then laid out: top-level fields one a line, each terrain piece,
//! objective, commander and unit on its own line (or a few, when it is long: a polygon's points
//! on the lines after it, a unit's fields wrapped), polygons written `Polygon([...])`, whole
//! numbers without `.0`, and fields at their defaults left out (`grade: None`, `scout: false`,
//! …). What is written reads back with [`crate::data::parse_ron`] to a scenario `==` to the
//! one written: that is checked on every write, and should the tidy form ever fail it, the
//! plain serialisation (every field written, `ron`'s own numbers) is written instead.
//!
//! Comments of the original text (`//` lines) are kept:
//! - the file's leading block (everything before the opening `(`, less `#![enable(...)]`
//!   attributes: the text written needs no extension);
//! - the comment lines right above a field of the scenario, of its `terrain`, or of a side
//!   (`// A historical battle …` above `historical: true`, a comment above `linears: [`, above
//!   a side's `deployment:`), and above a side's `(`;
//! - the comment lines right above a terrain piece, objective, commander or unit that is in
//!   the original too, matched by identity: units and commanders by `id`; areas and linears by
//!   kind and name, hills and buildings by name, objectives by side and name, when the name is
//!   not empty and the match is one to one (in the original and in the scenario written).
//!
//! Lost: comments above pieces that cannot be matched (deleted, renamed, unnamed, or sharing
//! their name), comments inside a piece (between its fields or points), comments after the
//! last element of a list, comments at the end of a line, and block comments (`/* */`) but in
//! the leading block.

use super::Piece;
use crate::data::load::{RonSpans, Seg};
use crate::data::scenario::Scenario;
use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::path::Path;

/// The widest line the layout aims for (a long name or string may still run past it).
const WIDTH: usize = 120;
/// One level of indentation.
const STEP: usize = 4;
/// A list whose items are all at most this long and unnested (a polygon's points) is filled
/// several items to a line.
const SMALL_ITEM: usize = 40;

/// A scenario as text.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    pub text: String,
    /// For each piece, its 1-based line range in `text` (without the comments above it; a
    /// deployment zone: its `deployment:` field).
    pub spans: Vec<(Piece, RangeInclusive<usize>)>,
}

/// Writes `sc` as RON, with the comments of `original` (the text it was read from) where they
/// can be placed (see the module's doc).
pub fn write_scenario(sc: &Scenario, original: Option<&str>) -> Written {
    let orig = original.map(Original::new);
    let w = Writer::run(sc, orig.as_ref(), true);
    if reads_back(&w.text, sc) {
        return w;
    }
    Writer::run(sc, orig.as_ref(), false)
}

/// The piece written at `line` (1-based) of `w`, if any.
pub fn piece_at_line(w: &Written, line: usize) -> Option<Piece> {
    w.spans.iter().find(|(_, r)| r.contains(&line)).map(|(p, _)| *p)
}

fn reads_back(text: &str, sc: &Scenario) -> bool {
    crate::data::parse_ron::<Scenario>(text, Path::new("")).is_ok_and(|r| r == *sc)
}

/// `ron`'s serialisation on one line: `(kind: Woods, name: "W", outline: ([(x: 1.0, y: 2.0)]))`.
/// Strings come out escaped (no raw line breaks), newtypes unnamed.
fn compact<T: serde::Serialize>(v: &T) -> String {
    let cfg = ron::ser::PrettyConfig::new()
        .new_line(" ")
        .indentor("")
        .compact_arrays(true)
        .compact_structs(true)
        .compact_maps(true);
    ron::ser::to_string_pretty(v, cfg).expect("a scenario serialises")
}

/// Byte index just past the string literal starting at `b[i] == b'"'`.
fn skip_string(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// The tidy form of `ron`'s text: `([` (the only newtype of a scenario holding a list is
/// [`crate::rules::terrain::Polygon`]) as `Polygon([`, and `162.0` as `162`.
fn tidy(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            // `ron` escapes `'` in strings (`Miller\'s`): a `"` string needs no escape for it.
            let j = skip_string(b, i);
            let mut k = i;
            while k < j {
                if b[k] == b'\\' && k + 1 < j {
                    if b[k + 1] != b'\'' {
                        out.push('\\');
                    }
                    let ch = s[k + 1..].chars().next().expect("in bounds");
                    out.push(ch);
                    k += 1 + ch.len_utf8();
                } else {
                    let ch = s[k..].chars().next().expect("in bounds");
                    out.push(ch);
                    k += ch.len_utf8();
                }
            }
            i = j;
        } else if c == b'('
            && b.get(i + 1) == Some(&b'[')
            && !out
                .as_bytes()
                .last()
                .is_some_and(|p| p.is_ascii_alphanumeric() || *p == b'_')
        {
            out.push_str("Polygon(");
            i += 1;
        } else if (c.is_ascii_digit() || c == b'-')
            && !out
                .as_bytes()
                .last()
                .is_some_and(|p| p.is_ascii_alphanumeric() || *p == b'_')
        {
            let mut j = i + 1;
            while j < b.len() && matches!(b[j], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                j += 1;
            }
            let num = &s[i..j];
            let whole = num
                .strip_suffix(".0")
                .filter(|n| {
                    let digits = n.strip_prefix('-').unwrap_or(n);
                    !digits.is_empty() && digits.bytes().all(|d| d.is_ascii_digit()) && num != "-0.0"
                })
                .unwrap_or(num);
            out.push_str(whole);
            i = j;
        } else {
            let ch = s[i..].chars().next().expect("in bounds");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Index of the bracket closing the one opened at `open` (string-aware).
fn closing(s: &str, open: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = skip_string(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The items of the bracketed group `s` (`(…)`, `[…]`, `{…}`), split at its own commas.
fn items(s: &str) -> Vec<&str> {
    let s = s.trim();
    if s.len() < 2 || closing(s, 0) != Some(s.len() - 1) {
        return Vec::new();
    }
    let inner = &s[1..s.len() - 1];
    let b = inner.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, 0, 0);
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = skip_string(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                out.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(inner[start..].trim());
    out.retain(|p| !p.is_empty());
    out
}

/// The fields `name: value` of the struct `s`; `None` when it is not one.
fn fields(s: &str) -> Option<Vec<(&str, &str)>> {
    if !s.trim_start().starts_with('(') {
        return None;
    }
    items(s)
        .into_iter()
        .map(|p| {
            let (name, value) = p.split_once(':')?;
            let name = name.trim();
            is_ident(name).then_some((name, value.trim()))
        })
        .collect()
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_alphabetic() || f == '_') && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// `s` without the fields whose value is their default (`defaults`: name and tidy value).
fn omit_defaults(s: &str, defaults: &[(&str, &str)]) -> String {
    match fields(s) {
        Some(fs) => {
            let kept: Vec<String> = fs
                .into_iter()
                .filter(|(n, v)| !defaults.contains(&(n, v)))
                .map(|(n, v)| format!("{n}: {v}"))
                .collect();
            format!("({})", kept.join(", "))
        }
        None => s.to_string(),
    }
}

/// Lays out `e` at `ind` spaces, `suffix` after it: on one line if it fits; else broken at
/// its first non-empty list (its items filled, or one a line laid out the same way); else, a
/// struct, its fields wrapped (continued one space in, as the bundled maps do).
fn lay(e: &str, ind: usize, suffix: &str, out: &mut Vec<String>) {
    let pad = " ".repeat(ind);
    if ind + e.len() + suffix.len() <= WIDTH {
        out.push(format!("{pad}{e}{suffix}"));
        return;
    }
    let b = e.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = skip_string(b, i);
                continue;
            }
            b'[' => {
                if let Some(j) = closing(e, i) {
                    let list = items(&e[i..=j]);
                    if !list.is_empty() {
                        out.push(format!("{pad}{}", &e[..=i]));
                        let inner = ind + STEP;
                        if list.iter().all(|x| x.len() <= SMALL_ITEM && !x.contains('[')) {
                            fill(&list, inner, out);
                        } else {
                            for x in list {
                                lay(x, inner, ",", out);
                            }
                        }
                        out.push(format!("{pad}{}{suffix}", &e[j..]));
                        return;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    match fields(e) {
        Some(fs) if fs.len() > 1 => {
            let mut line = format!("{pad}(");
            for (k, (n, v)) in fs.iter().enumerate() {
                let part = format!("{n}: {v}");
                let last = k + 1 == fs.len();
                let tail = if last { 1 + suffix.len() } else { 1 };
                if k > 0 && line.len() + 1 + part.len() + tail > WIDTH {
                    out.push(format!("{line},"));
                    line = format!("{pad} {part}");
                } else {
                    if k > 0 {
                        line.push_str(", ");
                    }
                    line.push_str(&part);
                }
            }
            out.push(format!("{line}){suffix}"));
        }
        _ => out.push(format!("{pad}{e}{suffix}")),
    }
}

/// Short items several to a line, each line ending in a comma.
fn fill(list: &[&str], ind: usize, out: &mut Vec<String>) {
    let pad = " ".repeat(ind);
    let mut line = String::new();
    for x in list {
        if !line.is_empty() && ind + line.len() + 1 + x.len() + 1 > WIDTH {
            out.push(format!("{pad}{line}"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(x);
        line.push(',');
    }
    if !line.is_empty() {
        out.push(format!("{pad}{line}"));
    }
}

/// The fields of each kind of element left out at their defaults (tidy values).
const AREA_DEFAULTS: &[(&str, &str)] = &[("name", "\"\"")];
const LINEAR_DEFAULTS: &[(&str, &str)] = &[("name", "\"\""), ("width", "0.5")];
const HILL_DEFAULTS: &[(&str, &str)] = &[("name", "\"\""), ("mountain", "false")];
const BUILDING_DEFAULTS: &[(&str, &str)] = &[("name", "\"\""), ("material", "Brick")];
const OBJECTIVE_DEFAULTS: &[(&str, &str)] = &[("radius", "5")];
const COMMANDER_DEFAULTS: &[(&str, &str)] = &[
    ("superior", "None"),
    ("mounted", "true"),
    ("nation", "None"),
    ("formation", "None"),
];
const UNIT_DEFAULTS: &[(&str, &str)] = &[
    ("grade", "None"),
    ("morale", "None"),
    ("nation", "None"),
    ("scout", "false"),
    ("limbered", "false"),
    ("loaded", "None"),
    ("dug_in", "false"),
];
/// Top-level and side fields left out at their defaults, unless the original wrote them.
const FIELD_DEFAULTS: &[(&str, &str)] = &[
    ("brief", "\"\""),
    ("table", "(width: 240, height: 180)"),
    ("weather", "Normal"),
    ("wet_ground", "false"),
    ("night", "false"),
    ("historical", "false"),
    ("switches", "[]"),
    ("decide_on_points", "false"),
    ("first_side", "0"),
    ("rules", "None"),
    ("objectives", "[]"),
    ("deployment", "None"),
    ("obeys", "{}"),
    ("areas", "[]"),
    ("linears", "[]"),
    ("hills", "[]"),
    ("buildings", "[]"),
];

/// What [`write_scenario`] needs of the original text: its span map, its scenario, and which
/// of its pieces each identity names.
struct Original<'a> {
    text: &'a str,
    spans: RonSpans<'a>,
    /// Identity → the original's pieces with it.
    by_key: HashMap<String, Vec<Piece>>,
}

impl<'a> Original<'a> {
    fn new(text: &'a str) -> Self {
        let by_key = match crate::data::parse_ron::<Scenario>(text, Path::new("")) {
            Ok(sc) => {
                let mut m: HashMap<String, Vec<Piece>> = HashMap::new();
                for p in pieces(&sc) {
                    if let Some(k) = key(&sc, p) {
                        m.entry(k).or_default().push(p);
                    }
                }
                m
            }
            Err(_) => HashMap::new(),
        };
        Original {
            text,
            spans: RonSpans::new(text),
            by_key,
        }
    }

    /// The text before the opening bracket (comments), less `#![...]` attributes.
    fn header(&self) -> String {
        let root = self.spans.offset(&[]);
        let mut h = String::new();
        for line in self.text[..root].lines() {
            if !line.trim_start().starts_with("#!") {
                h.push_str(line.trim_end());
                h.push('\n');
            }
        }
        let keep = h.trim_end().len();
        h.truncate(keep);
        let h = h.trim_start_matches('\n');
        if h.is_empty() { String::new() } else { format!("{h}\n") }
    }

    /// Whether the value at `path` is in the text.
    fn exists(&self, path: &[Seg]) -> bool {
        !path.is_empty() && self.spans.offset(path) != self.spans.offset(&path[..path.len() - 1])
    }

    /// The `//` lines right above the value at `path` (which begins its line, after its
    /// field's name if it is a field).
    fn comments(&self, path: &[Seg]) -> Vec<&'a str> {
        if !self.exists(path) {
            return Vec::new();
        }
        let t = self.text;
        let off = self.spans.offset(path);
        let start = t[..off].rfind('\n').map_or(0, |k| k + 1);
        if !begins_line(&t[start..off]) {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut end = start;
        while end > 0 {
            let prev = t[..end - 1].rfind('\n').map_or(0, |k| k + 1);
            let line = t[prev..end - 1].trim();
            if !line.starts_with("//") {
                break;
            }
            out.push(line);
            end = prev;
        }
        out.reverse();
        out
    }

    /// The comments above the original of `p`, a piece of `sc` (`counts`: how many pieces of
    /// `sc` have each identity).
    fn piece_comments(&self, sc: &Scenario, p: Piece, counts: &HashMap<String, usize>) -> Vec<&'a str> {
        let Some(k) = key(sc, p) else { return Vec::new() };
        match self.by_key.get(&k).map(Vec::as_slice) {
            Some([o]) if counts.get(&k) == Some(&1) => self.comments(&path_of(*o)),
            _ => Vec::new(),
        }
    }
}

/// Whether the text before a value on its line leaves it at the start of the line: nothing,
/// or its field's name (`units: `, `deployment: Some(`).
fn begins_line(before: &str) -> bool {
    let mut p = before.trim();
    if let Some(q) = p.strip_suffix('(') {
        match q.trim_end().strip_suffix("Some") {
            Some(r) => p = r.trim_end(),
            None => return false,
        }
    }
    p.is_empty() || p.strip_suffix(':').is_some_and(|n| is_ident(n.trim_end()))
}

/// Every piece of `sc` but the deployment zones (those are fields of a side).
fn pieces(sc: &Scenario) -> Vec<Piece> {
    let t = &sc.terrain;
    let mut v: Vec<Piece> = (0..t.areas.len()).map(Piece::Area).collect();
    v.extend((0..t.linears.len()).map(Piece::Linear));
    v.extend((0..t.hills.len()).map(Piece::Hill));
    v.extend((0..t.buildings.len()).map(Piece::Building));
    v.extend((0..sc.objectives.len()).map(Piece::Objective));
    for (side, s) in sc.sides.iter().enumerate() {
        v.extend((0..s.commanders.len()).map(|i| Piece::Commander { side, i }));
        v.extend((0..s.units.len()).map(|i| Piece::Unit { side, i }));
    }
    v
}

/// What a piece is across edits: `None` for an unnamed terrain piece or objective.
fn key(sc: &Scenario, p: Piece) -> Option<String> {
    let t = &sc.terrain;
    let named = |tag: String, name: &str| (!name.is_empty()).then(|| format!("{tag}\u{0}{name}"));
    match p {
        Piece::Area(i) => named(format!("area {:?}", t.areas[i].kind), &t.areas[i].name),
        Piece::Linear(i) => named(format!("linear {:?}", t.linears[i].kind), &t.linears[i].name),
        Piece::Hill(i) => named("hill".into(), &t.hills[i].name),
        Piece::Building(i) => named("building".into(), &t.buildings[i].name),
        Piece::Objective(i) => {
            let o = &sc.objectives[i];
            named(format!("objective {}", o.side), &o.name)
        }
        Piece::Unit { side, i } => Some(format!("unit\u{0}{}", sc.sides[side].units[i].id)),
        Piece::Commander { side, i } => Some(format!("commander\u{0}{}", sc.sides[side].commanders[i].id)),
        Piece::Deployment(side) => Some(format!("deployment {side}")),
    }
}

/// Where a piece is in a scenario's text.
fn path_of(p: Piece) -> Vec<Seg<'static>> {
    use Seg::{Field as F, Index as I};
    match p {
        Piece::Area(i) => vec![F("terrain"), F("areas"), I(i)],
        Piece::Linear(i) => vec![F("terrain"), F("linears"), I(i)],
        Piece::Hill(i) => vec![F("terrain"), F("hills"), I(i)],
        Piece::Building(i) => vec![F("terrain"), F("buildings"), I(i)],
        Piece::Objective(i) => vec![F("objectives"), I(i)],
        Piece::Unit { side, i } => vec![F("sides"), I(side), F("units"), I(i)],
        Piece::Commander { side, i } => vec![F("sides"), I(side), F("commanders"), I(i)],
        Piece::Deployment(side) => vec![F("sides"), I(side), F("deployment")],
    }
}

struct Writer<'s, 'o> {
    sc: &'s Scenario,
    orig: Option<&'o Original<'o>>,
    tidy: bool,
    /// How many pieces of `sc` have each identity.
    counts: HashMap<String, usize>,
    /// Lines of the leading comments, written before `lines`.
    base: usize,
    lines: Vec<String>,
    spans: Vec<(Piece, RangeInclusive<usize>)>,
}

impl<'s, 'o> Writer<'s, 'o> {
    fn run(sc: &'s Scenario, orig: Option<&'o Original<'o>>, tidy_form: bool) -> Written {
        let mut counts = HashMap::new();
        for p in pieces(sc) {
            if let Some(k) = key(sc, p) {
                *counts.entry(k).or_insert(0) += 1;
            }
        }
        let header = orig.map(Original::header).unwrap_or_default();
        let mut w = Writer {
            sc,
            orig,
            tidy: tidy_form,
            counts,
            base: header.lines().count(),
            lines: Vec::new(),
            spans: Vec::new(),
        };
        let text = if tidy_form { tidy(&compact(sc)) } else { compact(sc) };
        w.scenario(&text);
        let mut out = header;
        for l in &w.lines {
            out.push_str(l);
            out.push('\n');
        }
        Written {
            text: out,
            spans: w.spans,
        }
    }

    fn line(&mut self, ind: usize, s: &str) {
        self.lines.push(format!("{}{s}", " ".repeat(ind)));
    }

    fn comments(&mut self, ind: usize, c: Vec<&str>) {
        for l in c {
            self.line(ind, l);
        }
    }

    fn field_comments(&mut self, ind: usize, path: &[Seg]) {
        let c = self.orig.map(|o| o.comments(path)).unwrap_or_default();
        self.comments(ind, c);
    }

    /// The fields of a struct at `at` in the order the original wrote them; a field the
    /// original lacks follows the one `ron` writes before it.
    fn in_original_order<'f>(&self, at: &[Seg], fs: Vec<(&'f str, &'f str)>) -> Vec<(&'f str, &'f str)> {
        let Some(o) = self.orig else { return fs };
        let mut key = 0;
        let mut keyed: Vec<(usize, (&str, &str))> = fs
            .into_iter()
            .map(|f| {
                let mut path = at.to_vec();
                path.push(Seg::Field(f.0));
                if o.exists(&path) {
                    key = o.spans.offset(&path);
                }
                (key, f)
            })
            .collect();
        keyed.sort_by_key(|(k, _)| *k);
        keyed.into_iter().map(|(_, f)| f).collect()
    }

    /// Whether a field at its default is left out: when the tidy form is written and the
    /// original did not write it.
    fn leave_out(&self, name: &str, value: &str, path: &[Seg]) -> bool {
        self.tidy && FIELD_DEFAULTS.contains(&(name, value)) && !self.orig.is_some_and(|o| o.exists(path))
    }

    /// Lays out `e` and returns the 1-based lines it took.
    fn lay(&mut self, e: &str, ind: usize) -> RangeInclusive<usize> {
        let first = self.base + self.lines.len() + 1;
        lay(e, ind, ",", &mut self.lines);
        first..=self.base + self.lines.len()
    }

    /// A plain field `name: value`.
    fn field(&mut self, ind: usize, name: &str, value: &str, path: &[Seg]) {
        if self.leave_out(name, value, path) {
            return;
        }
        self.field_comments(ind, path);
        self.lay(&format!("{name}: {value}"), ind);
    }

    fn scenario(&mut self, text: &str) {
        self.line(0, "(");
        let Some(fs) = fields(text) else {
            // Never: a scenario serialises as a struct. Written whole all the same.
            self.line(STEP, text);
            self.line(0, ")");
            return;
        };
        for (name, value) in self.in_original_order(&[], fs) {
            let path = [Seg::Field(name)];
            match name {
                "terrain" => self.terrain(value),
                "objectives" => {
                    if !self.leave_out(name, value, &path) {
                        self.list(STEP, name, value, &path, &|i| Piece::Objective(i), OBJECTIVE_DEFAULTS);
                    }
                }
                "sides" => self.sides(value),
                _ => self.field(STEP, name, value, &path),
            }
        }
        self.line(0, ")");
    }

    fn terrain(&mut self, value: &str) {
        let at = [Seg::Field("terrain")];
        let Some(fs) = fields(value) else {
            self.field(STEP, "terrain", value, &at);
            return;
        };
        let shown = |w: &Self, n: &str, v: &str| !w.leave_out(n, v, &[Seg::Field("terrain"), Seg::Field(n)]);
        if !fs.iter().any(|(n, v)| shown(self, n, v)) {
            // No terrain: left out, unless the original wrote `terrain:`.
            if self.tidy && !self.orig.is_some_and(|o| o.exists(&at)) {
                return;
            }
            self.field_comments(STEP, &at);
            self.line(STEP, "terrain: (),");
            return;
        }
        self.field_comments(STEP, &at);
        self.line(STEP, "terrain: (");
        let ind = 2 * STEP;
        for (name, v) in self.in_original_order(&at, fs) {
            let path = [Seg::Field("terrain"), Seg::Field(name)];
            if !shown(self, name, v) {
                continue;
            }
            match name {
                "areas" => self.list(ind, name, v, &path, &Piece::Area, AREA_DEFAULTS),
                "linears" => self.list(ind, name, v, &path, &Piece::Linear, LINEAR_DEFAULTS),
                "hills" => self.list(ind, name, v, &path, &Piece::Hill, HILL_DEFAULTS),
                "buildings" => self.list(ind, name, v, &path, &Piece::Building, BUILDING_DEFAULTS),
                _ => self.field(ind, name, v, &path),
            }
        }
        self.line(STEP, "),");
    }

    fn sides(&mut self, value: &str) {
        let at = [Seg::Field("sides")];
        self.field_comments(STEP, &at);
        let list = items(value);
        if list.is_empty() {
            self.line(STEP, "sides: [],");
            return;
        }
        self.line(STEP, "sides: [");
        let ind = 3 * STEP;
        for (side, s) in list.into_iter().enumerate() {
            self.field_comments(2 * STEP, &[Seg::Field("sides"), Seg::Index(side)]);
            let Some(fs) = fields(s) else {
                self.lay(s, 2 * STEP);
                continue;
            };
            self.line(2 * STEP, "(");
            for (name, v) in self.in_original_order(&[Seg::Field("sides"), Seg::Index(side)], fs) {
                let path = [Seg::Field("sides"), Seg::Index(side), Seg::Field(name)];
                match name {
                    "commanders" => self.list(
                        ind,
                        name,
                        v,
                        &path,
                        &|i| Piece::Commander { side, i },
                        COMMANDER_DEFAULTS,
                    ),
                    "units" => self.list(ind, name, v, &path, &|i| Piece::Unit { side, i }, UNIT_DEFAULTS),
                    "deployment" => {
                        if self.leave_out(name, v, &path) {
                            continue;
                        }
                        self.field_comments(ind, &path);
                        let lines = self.lay(&format!("{name}: {v}"), ind);
                        if v != "None" {
                            self.spans.push((Piece::Deployment(side), lines));
                        }
                    }
                    _ => self.field(ind, name, v, &path),
                }
            }
            self.line(2 * STEP, "),");
        }
        self.line(STEP, "],");
    }

    /// A list of pieces, `name: [ … ]`, each with its comments and its span.
    fn list(
        &mut self,
        ind: usize,
        name: &str,
        value: &str,
        path: &[Seg],
        piece: &dyn Fn(usize) -> Piece,
        defaults: &[(&str, &str)],
    ) {
        self.field_comments(ind, path);
        let list = items(value);
        if list.is_empty() {
            self.line(ind, &format!("{name}: {value},"));
            return;
        }
        self.line(ind, &format!("{name}: ["));
        for (i, e) in list.into_iter().enumerate() {
            let p = piece(i);
            if let Some(o) = self.orig {
                let c = o.piece_comments(self.sc, p, &self.counts);
                self.comments(ind + STEP, c);
            }
            let e = if self.tidy {
                omit_defaults(e, defaults)
            } else {
                e.to_string()
            };
            let lines = self.lay(&e, ind + STEP);
            self.spans.push((p, lines));
        }
        self.line(ind, "],");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::parse_ron;

    fn read(path: &str) -> (String, Scenario) {
        let text = std::fs::read_to_string(path).unwrap();
        let sc = parse_ron(&text, Path::new(path)).unwrap_or_else(|e| panic!("{e}"));
        (text, sc)
    }

    fn comment_lines(text: &str) -> Vec<&str> {
        text.lines().map(str::trim).filter(|l| l.starts_with("//")).collect()
    }

    /// The line right after the comment `c` (which must be in `text` once).
    fn line_after<'a>(text: &'a str, c: &str) -> &'a str {
        let lines: Vec<&str> = text.lines().collect();
        let k = lines
            .iter()
            .position(|l| l.trim() == c)
            .unwrap_or_else(|| panic!("{c:?} missing"));
        lines[k + 1].trim()
    }

    #[test]
    fn every_bundled_map_reads_back_the_same_with_all_its_comments() {
        let mut maps: Vec<_> = std::fs::read_dir("maps")
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        maps.sort();
        assert!(maps.len() >= 5);
        for p in maps {
            let (text, sc) = read(p.to_str().unwrap());
            let name = p.display();
            let w = write_scenario(&sc, Some(&text));
            // The tidy form, not the plain one it falls back on.
            assert_eq!(w, Writer::run(&sc, Some(&Original::new(&text)), true), "{name}");
            assert!(reads_back(&w.text, &sc), "{name}");
            // Every comment of the bundled maps is above a piece or a field.
            assert_eq!(comment_lines(&w.text), comment_lines(&text), "{name}");
            // Written again from what was written: the same text.
            let again: Scenario = parse_ron(&w.text, &p).unwrap();
            assert_eq!(write_scenario(&again, Some(&w.text)).text, w.text, "{name}");
            // Each piece has one span, the spans do not overlap, and each starts where the
            // piece does.
            let mut all = pieces(&sc);
            all.extend(
                (0..2)
                    .filter(|&s| sc.sides[s].deployment.is_some())
                    .map(Piece::Deployment),
            );
            assert_eq!(w.spans.len(), all.len(), "{name}");
            let mut sorted: Vec<_> = w.spans.iter().map(|(_, r)| r.clone()).collect();
            sorted.sort_by_key(|r| *r.start());
            assert!(sorted.windows(2).all(|x| x[0].end() < x[1].start()), "{name}");
            let lines: Vec<&str> = w.text.lines().collect();
            for p in &all {
                let r = w.spans.iter().find(|(q, _)| q == p).map(|(_, r)| r.clone()).unwrap();
                for l in r.clone() {
                    assert_eq!(piece_at_line(&w, l), Some(*p), "{name}");
                }
                let first = lines[r.start() - 1].trim();
                let id = match *p {
                    Piece::Unit { side, i } => format!("(id: \"{}\"", sc.sides[side].units[i].id),
                    Piece::Commander { side, i } => format!("(id: \"{}\"", sc.sides[side].commanders[i].id),
                    Piece::Deployment(_) => "deployment: Some(Polygon(".into(),
                    _ => "(".into(),
                };
                assert!(first.starts_with(&id), "{name} {p:?}: {first}");
            }
            let title = lines.iter().position(|l| l.trim_start().starts_with("title:")).unwrap();
            assert_eq!(piece_at_line(&w, title + 1), None);
        }
    }

    #[test]
    fn tricky_strings_and_numbers_read_back_exactly() {
        let (_, mut sc) = read("maps/skirmish.ron");
        sc.title = "He said \"hold\" \\ at Miller's ([x]) // not a comment /* nor this */".into();
        sc.brief = "Line one\nline two\ttabbed, Gàrdë 日本 \u{200b} \u{7} \r end \\\" '".into();
        sc.rules = Some("bpt".into());
        sc.switches.set(crate::rules::switches::Switch::Weather, true);
        sc.terrain.areas[0].name = "([".into();
        sc.terrain.areas[1].name = String::new();
        sc.terrain.linears[0].width = 9_007_199_254_740_993.0;
        sc.terrain.hills[0].mountain = true;
        sc.objectives[0].radius = 1e21;
        sc.objectives[1].radius = 5.0;
        let s0 = &mut sc.sides[0];
        s0.obeys.insert("Port\"ugal".into(), vec!["Brit, ain".into()]);
        s0.commanders[1].mounted = false;
        s0.commanders[1].nation = Some("a: b)".into());
        let u = &mut s0.units[0];
        u.name = "The 20th, \"Maine\": (1st) ]".into();
        u.pos = crate::rules::geometry::V2::new(0.1 + 0.2, 45.0 + 1e-7);
        u.facing = -0.0;
        u.dug_in = true;
        u.scout = true;
        u.morale = Some(crate::data::scenario::Morale::Motivated);
        let floats = [123456.789, 5e-324, -1e300, 1e16, 9_999_999_999_999_998.0, -3.0, 2.5e-8];
        for (k, f) in floats.into_iter().enumerate() {
            s0.units[k + 1].facing = f;
        }
        let w = Writer::run(&sc, None, true);
        let back: Scenario = parse_ron(&w.text, Path::new("t")).unwrap_or_else(|e| panic!("{e}\n{}", w.text));
        assert_eq!(back, sc, "{}", w.text);
        assert_eq!(back.sides[0].units[0].facing.to_bits(), (-0.0f64).to_bits());
        assert_eq!(write_scenario(&sc, None), w);
        // Nothing in a string was taken for a comment, a polygon or a number.
        assert!(
            w.text
                .contains("title: \"He said \\\"hold\\\" \\\\ at Miller's ([x]) // not a comment /* nor this */\",")
        );
        assert!(w.text.contains("name: \"([\""));
        assert!(
            w.text.contains("(kind: Scrub, outline: Polygon(["),
            "an empty name is left out"
        );
        assert!(w.text.contains("radius: 10),") && w.text.contains("radius: 1e21),"));
        assert!(!w.text.contains("radius: 5"), "a default radius is left out");
        assert!(w.text.contains("switches: [Weather],") && w.text.contains("rules: Some(\"bpt\"),"));
    }

    #[test]
    fn comments_follow_their_pieces_and_go_with_them() {
        let (text, sc) = read("maps/skirmish.ron");
        let first_brigade = "// 1st Brigade, on the left (west) of the Plank Road.";
        let second_brigade = "// 2nd Brigade, on the right (east).";
        let road = "// fords Willow Creek south of the farm.";
        let mut sc2 = sc.clone();
        // The 20th Maine deleted: its comment goes with it.
        crate::editor::piece::remove(&mut sc2, Piece::Unit { side: 0, i: 0 }).unwrap();
        // The 12th New Jersey renamed and moved: its comment stays with it (by id).
        sc2.sides[0].units[2].name = "12th NJ".into();
        sc2.sides[0].units[2].pos.x += 1.0;
        // The Plank Road last: its comment follows it.
        let plank = sc2.terrain.linears.remove(0);
        sc2.terrain.linears.push(plank);
        let w = write_scenario(&sc2, Some(&text));
        assert_eq!(parse_ron::<Scenario>(&w.text, Path::new("t")).unwrap(), sc2);
        assert!(
            w.text
                .starts_with("// The bundled default scenario: a brigade-sized ACW action")
        );
        assert!(!w.text.contains(first_brigade));
        assert!(line_after(&w.text, second_brigade).starts_with("(id: \"us_12nj\", name: \"12th NJ\""));
        assert!(line_after(&w.text, road).starts_with("(kind: Road, name: \"Plank Road\""));
        let objectives = "// Confederates won 61% of the decided games; now 51%).";
        assert!(line_after(&w.text, objectives).starts_with("(name: \"Seminary Ridge\", side: \"Union\""));
        // Renamed, or two of a name: no comment (which of the two would it be?).
        let mut sc3 = sc.clone();
        sc3.terrain.linears[0].name = "Plank Rd".into();
        assert!(!write_scenario(&sc3, Some(&text)).text.contains(road));
        let mut sc4 = sc.clone();
        sc4.terrain.linears.push(sc.terrain.linears[0].clone());
        assert!(!write_scenario(&sc4, Some(&text)).text.contains(road));
        // Without an original: no comments at all.
        let bare = write_scenario(&sc, None);
        assert!(bare.text.starts_with("(\n    title:") && comment_lines(&bare.text).is_empty());
    }

    #[test]
    fn field_comments_and_fields_the_original_wrote_are_kept() {
        let text = "// Head.\n#![enable(implicit_some)]\n// More head.\n(\n    title: \"T\",\n    // Dry.\n    wet_ground: false,\n    turn_limit: 4,\n    // No terrain yet.\n    terrain: (),\n    sides: [\n        // The first side.\n        (name: \"A\", army: \"acw_union\",\n            // Where A sets up.\n            deployment: Some(Polygon([(x: 0, y: 0), (x: 9, y: 0), (x: 9, y: 9)])),\n            commanders: [], units: []),\n    ],\n)\n";
        let sc: Scenario = parse_ron(text, Path::new("t")).unwrap();
        let w = write_scenario(&sc, Some(text));
        assert_eq!(parse_ron::<Scenario>(&w.text, Path::new("t")).unwrap(), sc);
        assert!(w.text.starts_with("// Head.\n// More head.\n(\n"), "{}", w.text);
        assert_eq!(line_after(&w.text, "// Dry."), "wet_ground: false,");
        assert_eq!(line_after(&w.text, "// No terrain yet."), "terrain: (),");
        assert_eq!(line_after(&w.text, "// The first side."), "(");
        assert_eq!(
            line_after(&w.text, "// Where A sets up."),
            "deployment: Some(Polygon([(x: 0, y: 0), (x: 9, y: 0), (x: 9, y: 9)])),"
        );
        let k = w
            .text
            .lines()
            .position(|l| l.trim().starts_with("deployment:"))
            .unwrap();
        assert_eq!(piece_at_line(&w, k + 1), Some(Piece::Deployment(0)));
        // Without the original, defaults are left out.
        let bare = write_scenario(&sc, None).text;
        assert!(!bare.contains("wet_ground") && !bare.contains("terrain"), "{bare}");
    }
}
