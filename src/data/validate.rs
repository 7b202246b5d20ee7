//! Checking data files: an army list on its own, and a scenario against its army lists and
//! the table. Every error carries `file:line:col` of the offending value (see [`DataError`]).
//!
//! [`unit_rects`] lays out every base of a unit from its scenario entry; the checks use it for
//! "on the table", "not in impassable terrain" and "no two units overlap", and the game uses
//! it to place the stands at the start.

use super::army::{Arm, ArmyList, CommandLevel, Trait, TroopRow};
use super::error::DataError;
use super::load::{RonSpans, Seg, content_hash, parse_ron, read_text};
use super::scenario::{Scenario, UnitSpec};
use crate::rules::formation::Formation;
use crate::rules::geometry::{Pose, Rect, V2};
use crate::rules::layout::{StandShape, artillery_rects, command_stand_rect, stand_rects};
use crate::rules::terrain::Polygon;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Most stands (guns, for artillery) a unit may have.
pub const MAX_STANDS: u32 = 40;
/// Largest table side, cm.
pub const MAX_TABLE: f64 = 10_000.0;
/// The longest game a scenario may set (the bundled ones play 6 to 12 game turns).
pub const MAX_TURN_LIMIT: u32 = 100;
/// Terrain pieces (areas, buildings, lines and hills together) in one scenario.
pub const MAX_TERRAIN_PIECES: usize = 2000;
/// Units (and commanders) on one side.
pub const MAX_UNITS_PER_SIDE: usize = 500;
/// Largest coordinate anywhere in a scenario (terrain may run off the table), cm.
pub const MAX_COORD: f64 = 1.0e6;
/// Most points of one line (road, river, wall, fence …); the bundled maps use at most 6.
pub const MAX_LINE_POINTS: usize = 1000;
/// Most contours of one hill; the bundled hills have at most 3.
pub const MAX_CONTOURS: usize = 20;
/// Most points of all the terrain together (every polygon, line and contour, and the
/// deployment zones); the bundled maps use at most 95. The checks of crossing edges and of
/// units standing in terrain take time with every point.
pub const MAX_TERRAIN_POINTS: usize = 10_000;
/// Most objectives in one scenario; the bundled maps have at most 5.
pub const MAX_OBJECTIVES: usize = 100;
/// Most nations a side's `obeys` lists, and most nations in each of its lists.
pub const MAX_OBEYS: usize = 50;
/// Longest name (a title, side, unit, commander, objective, terrain piece, nation, id, army
/// list or row), in characters; the longest bundled one has 59.
pub const MAX_NAME_CHARS: usize = 80;
/// Longest text (a brief, an army list's note), in characters; the longest bundled brief has
/// 1,731.
pub const MAX_TEXT_CHARS: usize = 5000;
/// The largest facing, degrees either way (ten full turns; the bundled maps use 0 to 315).
pub const MAX_FACING: f64 = 3600.0;
/// Tolerance for "inside the table", cm.
const EDGE_EPS: f64 = 1e-6;

/// Base sizes (cm) and gaps used to lay out units. DECISIONS.md "Scale and the table".
#[derive(Clone, Copy, Debug)]
pub struct Footprints {
    pub infantry: StandShape,
    pub cavalry: StandShape,
    pub gun: StandShape,
    pub limber: StandShape,
    /// The unit command stand.
    pub command_stand: StandShape,
    /// Commanders (CO/HQ) are round.
    pub commander_diameter: f64,
    /// Gap between stands in extended line.
    pub extended_gap: f64,
    /// Gap between sharpshooter (skirmisher) stands in extended line (ACW note 14).
    pub skirmish_gap: f64,
}

impl Default for Footprints {
    fn default() -> Self {
        Footprints {
            infantry: StandShape { width: 2.5, depth: 1.5 },
            cavalry: StandShape { width: 3.5, depth: 2.0 },
            gun: StandShape { width: 2.5, depth: 2.5 },
            limber: StandShape { width: 2.5, depth: 3.5 },
            command_stand: StandShape { width: 1.5, depth: 1.5 },
            commander_diameter: 2.0,
            extended_gap: 1.0,
            skirmish_gap: 2.0,
        }
    }
}

/// The base a stand of this row uses: mounted cavalry the cavalry base, guns the gun base,
/// limbers/transport the limber base, everything on foot (dismounted cavalry included) the
/// infantry base.
pub fn stand_shape(row: &TroopRow, fp: &Footprints) -> StandShape {
    match row.arm {
        Arm::Cavalry if !row.has(Trait::Dismounted) => fp.cavalry,
        Arm::Artillery => fp.gun,
        Arm::Transport => fp.limber,
        _ if row.has(Trait::Mounted) => fp.cavalry,
        _ => fp.infantry,
    }
}

/// The extended-line gap for this row: sharpshooters open wider.
pub fn stand_gap(row: &TroopRow, fp: &Footprints) -> f64 {
    if row.has(Trait::Sharpshooter) {
        fp.skirmish_gap
    } else {
        fp.extended_gap
    }
}

/// Whether a row's guns come with a limber (siege guns and mortars never move: none).
pub fn has_limber(row: &TroopRow) -> bool {
    row.arm == Arm::Artillery && row.movement > 0.0 && !row.has(Trait::Siege) && !row.has(Trait::Mortar)
}

/// Whether the unit counts as troops on foot for terrain (mounted troops, guns and
/// vehicles do not).
pub fn is_foot(row: &TroopRow) -> bool {
    !row.has(Trait::Mounted) && !matches!(row.arm, Arm::Artillery | Arm::Transport | Arm::Cavalry)
}

/// Every base of the unit as the scenario places it: its fighting stands, then its unit
/// command stand (artillery: its guns, then its limber, and no command stand).
/// `spec.facing` is in degrees (counter-clockwise from +x); the rects' facings are radians.
pub fn unit_rects(spec: &UnitSpec, row: &TroopRow, fp: &Footprints) -> Vec<Rect> {
    let pose = Pose::new(spec.pos, spec.facing.to_radians());
    let n = spec.stands as usize;
    match row.arm {
        Arm::Artillery => {
            let (mut rects, limber) = artillery_rects(pose, n, spec.limbered, has_limber(row), fp.gun, fp.limber);
            rects.extend(limber);
            rects
        }
        Arm::Transport => stand_rects(pose, spec.formation, n, fp.limber, fp.extended_gap),
        _ => {
            let shape = stand_shape(row, fp);
            let gap = stand_gap(row, fp);
            let mut rects = stand_rects(pose, spec.formation, n, shape, gap);
            rects.push(command_stand_rect(
                pose,
                spec.formation,
                n,
                shape,
                gap,
                fp.command_stand,
            ));
            rects
        }
    }
}

/// A scenario read from disk, checked, with its sides' army lists.
#[derive(Clone, Debug)]
pub struct LoadedScenario {
    pub path: PathBuf,
    /// The scenario file's text (for placing later errors).
    pub text: String,
    pub scenario: Scenario,
    /// One army list per side, in the order of `scenario.sides`.
    pub armies: Vec<ArmyList>,
    /// FNV-1a of the scenario file's bytes followed by each side's army file's bytes (in side
    /// order, each preceded by a 0 byte): replays pin this, so a changed map or army list is
    /// noticed.
    pub content_hash: u64,
}

/// A name that can only be a file in its own folder: letters, digits, `_` and `-`.
fn is_file_stem(stem: &str) -> bool {
    !stem.is_empty() && stem.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// [`parse_ron`], its errors placed again by [`line_col`](super::error::line_col)'s count of
/// lines (a carriage return alone ends one): `ron` counts line feeds only.
pub fn parse_text<T: serde::de::DeserializeOwned>(text: &str, path: &Path) -> Result<T, DataError> {
    parse_ron(text, path).map_err(|e| super::error::recount_lines(text, e))
}

/// Reads, parses and checks an army list file.
pub fn load_army(path: &Path) -> Result<ArmyList, DataError> {
    let text = read_text(path)?;
    precheck_lists(&text, path)?;
    let mut army: ArmyList = parse_text(&text, path)?;
    validate_army(&text, path, &army)?;
    army.read_napoleonic_notes();
    Ok(army)
}

/// Reads a scenario, loads each side's army list from `{armies_dir}/{army}.ron`, and checks
/// the scenario against them: the checks of a scenario file ([`validate_scenario_file`]).
pub fn load_scenario(path: &Path, armies_dir: &Path, fp: &Footprints) -> Result<LoadedScenario, DataError> {
    let text = read_text(path)?;
    precheck_lists(&text, path)?;
    let scenario: Scenario = parse_text(&text, path)?;
    let c = Ctx::new(path, &text);
    let mut armies = Vec::with_capacity(scenario.sides.len().min(2));
    let mut hash_input = text.as_bytes().to_vec();
    check_scenario_file(&c, &scenario, armies_dir, |army_path| {
        let army_text = read_text(army_path)?;
        precheck_lists(&army_text, army_path)?;
        let mut army: ArmyList = parse_text(&army_text, army_path)?;
        validate_army(&army_text, army_path, &army)?;
        army.read_napoleonic_notes();
        hash_input.push(0);
        hash_input.extend_from_slice(army_text.as_bytes());
        armies.push(army);
        Ok(())
    })?;
    check_scenario(&c, &scenario, &armies, fp)?;
    Ok(LoadedScenario {
        path: path.to_path_buf(),
        content_hash: content_hash(&hash_input),
        text,
        scenario,
        armies,
    })
}

/// Checks a scenario file's text (`text`, the contents of `path`, parsed as `sc`) exactly as
/// [`load_scenario`] (and so `volley check`) does, with its sides' army lists already loaded
/// (`armies[i]` for `sc.sides[i]`, from `armies_dir`): the scenario editor checks what it
/// would save with it. Besides [`validate_scenario`]: two sides, each with units, the `rules`
/// stem naming a file in `assets/rules/` (beside `armies_dir`), each side's `army` a stem
/// naming a file in `armies_dir`.
pub fn validate_scenario_file(
    text: &str,
    path: &Path,
    sc: &Scenario,
    armies: &[ArmyList],
    armies_dir: &Path,
    fp: &Footprints,
) -> Result<(), DataError> {
    let c = Ctx::new(path, text);
    check_scenario_file(&c, sc, armies_dir, |_| Ok(()))?;
    check_scenario(&c, sc, armies, fp)
}

/// The checks of a scenario file that [`validate_scenario`] does not make, in this order:
/// two sides with distinct names, units on each side, the rules stem and file, then each
/// side's army stem and file, `load_army` called on the file of each side in turn once its
/// stem and place are checked (before the next side's).
fn check_scenario_file(
    c: &Ctx,
    scenario: &Scenario,
    armies_dir: &Path,
    mut load_army: impl FnMut(&Path) -> Result<(), DataError>,
) -> Result<(), DataError> {
    check_counts(c, scenario)?;
    check_sides(c, scenario)?;
    // A scenario file must give both sides troops (a test may build a battle with one side
    // empty through `validate_scenario`; a player's file may not).
    for (i, s) in scenario.sides.iter().enumerate() {
        if s.units.is_empty() {
            return Err(c.err(
                &[Seg::Field("sides"), Seg::Index(i), Seg::Field("units")],
                format!("side {} has no units: it would lose before it moves", s.name),
            ));
        }
    }
    if let Some(stem) = scenario.rules.as_deref() {
        // The rules file lives beside the army lists, in `assets/rules/`, and nowhere else.
        let at = [Seg::Field("rules")];
        if !is_file_stem(stem) {
            return Err(c.err(
                &at,
                format!("rules \"{stem}\" must be a file stem in assets/rules/ (letters, digits, _ and -)"),
            ));
        }
        let rules_dir = armies_dir.parent().unwrap_or(Path::new(".")).join("rules");
        let rules_path = rules_dir.join(format!("{stem}.ron"));
        if !rules_path.is_file() {
            return Err(c.err(&at, format!("rules file not found: {}", rules_path.display())));
        }
    }
    for (i, side) in scenario.sides.iter().enumerate() {
        let at = [Seg::Field("sides"), Seg::Index(i), Seg::Field("army")];
        let stem = side.army.as_str();
        if !is_file_stem(stem) {
            return Err(c.err(
                &at,
                format!("army \"{stem}\" must be a file stem (letters, digits, _ and -)"),
            ));
        }
        let army_path = armies_dir.join(format!("{stem}.ron"));
        if !army_path.is_file() {
            return Err(c.err(&at, format!("army list not found: {}", army_path.display())));
        }
        load_army(&army_path)?;
    }
    Ok(())
}

/// The file being checked: its name and text, and the span map of the text, built only when
/// an error needs a place (a file that passes never pays for it).
struct Ctx<'a> {
    file: &'a Path,
    text: &'a str,
    spans: std::cell::OnceCell<RonSpans<'a>>,
}

impl<'a> Ctx<'a> {
    fn new(file: &'a Path, text: &'a str) -> Self {
        Ctx {
            file,
            text,
            spans: std::cell::OnceCell::new(),
        }
    }

    /// An error placed at the value at `path`.
    fn err(&self, path: &[Seg], msg: impl Into<String>) -> DataError {
        self.spans
            .get_or_init(|| RonSpans::new(self.text))
            .error(self.file, path, msg)
    }

    /// An error placed at `needle` inside the value at `path` (a key of a map, which the span
    /// map does not keep), or at the value when the needle is not near.
    fn err_near(&self, path: &[Seg], needle: &str, msg: impl Into<String>) -> DataError {
        let off = self.spans.get_or_init(|| RonSpans::new(self.text)).offset(path);
        let at = self.text[off..]
            .find(needle)
            .filter(|&k| k < 10_000)
            .map_or(off, |k| off + k);
        DataError::at_offset(self.file, self.text, at, msg)
    }

    /// An error placed at the value at `path` without the span map: for a limit's error, when
    /// the text may hold a million values (the map would take hundreds of megabytes).
    fn err_cheap(&self, path: &[Seg], msg: impl Into<String>) -> DataError {
        DataError::at_offset(self.file, self.text, offset_cheap(self.text, path), msg)
    }
}

fn finite(v: V2) -> bool {
    v.x.is_finite() && v.y.is_finite() && v.x.abs() <= MAX_COORD && v.y.abs() <= MAX_COORD
}

fn fmt_v(v: V2) -> String {
    format!("({:.1}, {:.1})", v.x, v.y)
}

fn ids_list<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    ids.collect::<Vec<_>>().join(", ")
}

fn snake_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Checks an army list: unique snake_case ids, sane numbers, `dismounts_to` naming a
/// dismounted row, and (when the list has note texts) a text for every note a row cites.
pub fn validate_army(text: &str, path: &Path, army: &ArmyList) -> Result<(), DataError> {
    let c = Ctx::new(path, text);
    if let Some(msg) = text_problem(&army.name, "army list name", TextKind::Name) {
        return Err(c.err(&[Seg::Field("name")], msg));
    }
    for (i, t) in army.troops.iter().enumerate() {
        let at = |f: &'static str| [Seg::Field("troops"), Seg::Index(i), Seg::Field(f)];
        if let Some(msg) = text_problem(&t.name, &format!("troop row {i}'s name"), TextKind::Name) {
            return Err(c.err(&at("name"), msg));
        }
        if let Some(msg) = t
            .limit
            .as_deref()
            .and_then(|l| text_problem(l, &format!("troop row {i}'s limit"), TextKind::OptionalName))
        {
            return Err(c.err(&at("limit"), msg));
        }
    }
    for (i, r) in army.commands.iter().enumerate() {
        if let Some(msg) = r
            .limit
            .as_deref()
            .and_then(|l| text_problem(l, &format!("command row {i}'s limit"), TextKind::OptionalName))
        {
            return Err(c.err(&[Seg::Field("commands"), Seg::Index(i), Seg::Field("limit")], msg));
        }
    }
    for (i, (n, note)) in army.notes.iter().enumerate() {
        if let Some(msg) = text_problem(note, &format!("note {n}"), TextKind::Text) {
            return Err(c.err(&[Seg::Field("notes"), Seg::Index(i), Seg::Index(1)], msg));
        }
    }
    if army.troops.is_empty() {
        return Err(c.err(&[Seg::Field("troops")], "army list has no troop rows"));
    }
    if army.commands.is_empty() {
        return Err(c.err(
            &[Seg::Field("commands")],
            "army list has no command rows: no commander could lead its troops",
        ));
    }
    let note_nums: Vec<u32> = army.notes.iter().map(|(n, _)| *n).collect();
    for (i, (n, _)) in army.notes.iter().enumerate() {
        if note_nums[..i].contains(n) {
            return Err(c.err(&[Seg::Field("notes"), Seg::Index(i)], format!("note {n} given twice")));
        }
    }
    let cites = |notes: &[u32], at: &[Seg]| -> Result<(), DataError> {
        if army.notes.is_empty() {
            return Ok(());
        }
        match notes.iter().find(|n| !note_nums.contains(n)) {
            Some(n) => Err(c.err(at, format!("note {n} has no text in the list's `notes`"))),
            None => Ok(()),
        }
    };
    for (i, t) in army.troops.iter().enumerate() {
        let at = |f: &'static str| [Seg::Field("troops"), Seg::Index(i), Seg::Field(f)];
        if !snake_id(&t.id) {
            return Err(c.err(&at("id"), format!("troop id \"{}\" must be snake_case", t.id)));
        }
        if army.troops[..i].iter().any(|o| o.id == t.id) {
            return Err(c.err(&at("id"), format!("duplicate troop id \"{}\"", t.id)));
        }
        let id = &t.id;
        let sane = |v: f64| v.is_finite() && (0.0..=1000.0).contains(&v);
        if !sane(t.movement) {
            return Err(c.err(&at("movement"), format!("{id}: movement must be 0..=1000 cm")));
        }
        if t.movement_alt.is_some_and(|v| !sane(v)) {
            return Err(c.err(&at("movement_alt"), format!("{id}: movement_alt must be 0..=1000 cm")));
        }
        if !sane(t.range) {
            return Err(c.err(&at("range"), format!("{id}: range must be 0..=1000 cm")));
        }
        if t.attacks > 100 {
            return Err(c.err(&at("attacks"), format!("{id}: at most 100 attacks")));
        }
        if !(1..=100).contains(&t.hits) {
            return Err(c.err(&at("hits"), format!("{id}: hits must be 1..=100")));
        }
        if t.save.is_some_and(|s| !(1..=6).contains(&s)) {
            return Err(c.err(&at("save"), format!("{id}: a save is 1..=6 (5 means 5+) or None")));
        }
        cites(&t.notes, &at("notes"))?;
        if let Some(d) = &t.dismounts_to {
            match army.troop(d) {
                None => {
                    return Err(c.err(
                        &at("dismounts_to"),
                        format!("{id}: dismounts_to names unknown row \"{d}\""),
                    ));
                }
                Some(r) if !r.has(Trait::Dismounted) => {
                    return Err(c.err(
                        &at("dismounts_to"),
                        format!("{id}: dismounts_to row \"{d}\" lacks the Dismounted trait"),
                    ));
                }
                Some(_) if !t.has(Trait::Mounted) => {
                    return Err(c.err(&at("dismounts_to"), format!("{id}: only Mounted rows dismount")));
                }
                Some(_) => {}
            }
        }
    }
    for (i, r) in army.commands.iter().enumerate() {
        let at = |f: &'static str| [Seg::Field("commands"), Seg::Index(i), Seg::Field(f)];
        let id = &r.id;
        if !snake_id(id) {
            return Err(c.err(&at("id"), format!("command id \"{id}\" must be snake_case")));
        }
        if army.commands[..i].iter().any(|o| o.id == *id) || army.troop(id).is_some() {
            return Err(c.err(&at("id"), format!("duplicate id \"{id}\"")));
        }
        if !(2..=12).contains(&r.command) {
            return Err(c.err(&at("command"), format!("{id}: command value must be 2..=12")));
        }
        for (f, v) in [("movement", r.movement), ("movement_mounted", r.movement_mounted)] {
            if !v.is_finite() || !(0.0..=1000.0).contains(&v) {
                return Err(c.err(&at(f), format!("{id}: {f} must be 0..=1000 cm")));
            }
        }
        if r.attack_bonus > 100 {
            return Err(c.err(&at("attack_bonus"), format!("{id}: at most 100 bonus attacks")));
        }
        if !(1..=100).contains(&r.hits) {
            return Err(c.err(&at("hits"), format!("{id}: hits must be 1..=100")));
        }
        if r.save.is_some_and(|s| !(1..=6).contains(&s)) {
            return Err(c.err(&at("save"), format!("{id}: a save is 1..=6 (5 means 5+) or None")));
        }
        cites(&r.notes, &at("notes"))?;
    }
    Ok(())
}

/// Exactly two sides, with distinct non-empty names.
fn check_sides(c: &Ctx, sc: &Scenario) -> Result<(), DataError> {
    if sc.sides.len() != 2 {
        return Err(c.err(
            &[Seg::Field("sides")],
            format!("a scenario has exactly 2 sides, found {}", sc.sides.len()),
        ));
    }
    for (i, s) in sc.sides.iter().enumerate() {
        let at = [Seg::Field("sides"), Seg::Index(i), Seg::Field("name")];
        if s.name.trim().is_empty() {
            return Err(c.err(&at, "side name is empty"));
        }
        if sc.sides[..i].iter().any(|o| o.name == s.name) {
            return Err(c.err(&at, format!("two sides are named \"{}\"", s.name)));
        }
    }
    Ok(())
}

/// How a text of a file is checked ([`text_problem`]).
#[derive(Clone, Copy, PartialEq)]
enum TextKind {
    /// One line of 1 to [`MAX_NAME_CHARS`] characters, not all blank.
    Name,
    /// A name that may be left empty (terrain names).
    OptionalName,
    /// Lines and tabs allowed, up to [`MAX_TEXT_CHARS`] characters (a brief).
    Text,
}

/// What is wrong with `text` as a name or text of kind `kind` (`what` names it in the
/// message): too long, empty, or holding a character that would act on the terminal or
/// reorder or hide what is printed. A long text is quoted by its start only.
fn text_problem(text: &str, what: &str, kind: TextKind) -> Option<String> {
    use super::text::{describe_refused, first_control, quoted_start};
    let (max, word) = match kind {
        TextKind::Text => (MAX_TEXT_CHARS, "text"),
        _ => (MAX_NAME_CHARS, "name"),
    };
    if text.len() > max && text.chars().nth(max).is_some() {
        return Some(format!(
            "{what} \"{}\" is {} characters; a {word} has at most {max}",
            quoted_start(text, 40),
            text.chars().count()
        ));
    }
    if kind == TextKind::Name && text.trim().is_empty() {
        return Some(format!("{what} is empty"));
    }
    let (k, ch) = first_control(text, kind == TextKind::Text)?;
    Some(format!(
        "{what} \"{}\": character {k} is {}, which may not stand in a {word}",
        quoted_start(text, 60),
        describe_refused(ch)
    ))
}

/// Refuses, in every name and text of a scenario: control characters (a terminal's escape
/// codes) and bidi or format characters (a right-to-left override prints the rest reversed),
/// which would act on the player's terminal or reorder what it shows; empty names; names
/// over [`MAX_NAME_CHARS`] characters and a brief over [`MAX_TEXT_CHARS`].
fn check_texts(c: &Ctx, sc: &Scenario) -> Result<(), DataError> {
    let check = |at: Vec<Seg>, text: &str, what: &str, kind: TextKind| match text_problem(text, what, kind) {
        None => Ok(()),
        Some(msg) => Err(c.err(&at, msg)),
    };
    use Seg::{Field as F, Index as I};
    use TextKind::{Name, OptionalName, Text};
    // An empty title is refused below, with why it matters.
    check(vec![F("title")], &sc.title, "the title", OptionalName)?;
    check(vec![F("brief")], &sc.brief, "the brief", Text)?;
    for (i, s) in sc.sides.iter().enumerate() {
        check(vec![F("sides"), I(i), F("name")], &s.name, "side name", Name)?;
        for (k, cm) in s.commanders.iter().enumerate() {
            let at = |f| vec![F("sides"), I(i), F("commanders"), I(k), F(f)];
            check(at("id"), &cm.id, &format!("commander {k}'s id"), Name)?;
            check(at("name"), &cm.name, &format!("commander {}'s name", cm.id), Name)?;
            if let Some(n) = &cm.nation {
                check(at("nation"), n, &format!("commander {}'s nation", cm.id), Name)?;
            }
        }
        for (k, u) in s.units.iter().enumerate() {
            let at = |f| vec![F("sides"), I(i), F("units"), I(k), F(f)];
            check(at("id"), &u.id, &format!("unit {k}'s id"), Name)?;
            check(at("name"), &u.name, &format!("unit {}'s name", u.id), Name)?;
            if let Some(n) = &u.nation {
                check(at("nation"), n, &format!("unit {}'s nation", u.id), Name)?;
            }
        }
        for (nation, obeyed) in &s.obeys {
            for n in std::iter::once(nation).chain(obeyed) {
                check(vec![F("sides"), I(i), F("obeys")], n, "a nation in `obeys`", Name)?;
            }
        }
    }
    for (i, o) in sc.objectives.iter().enumerate() {
        check(vec![F("objectives"), I(i), F("name")], &o.name, "objective name", Name)?;
    }
    let t = &sc.terrain;
    let named = t
        .areas
        .iter()
        .map(|a| ("areas", &a.name))
        .enumerate()
        .chain(t.linears.iter().map(|l| ("linears", &l.name)).enumerate())
        .chain(t.hills.iter().map(|h| ("hills", &h.name)).enumerate())
        .chain(t.buildings.iter().map(|b| ("buildings", &b.name)).enumerate());
    for (i, (list, name)) in named {
        check(
            vec![F("terrain"), F(list), I(i), F("name")],
            name,
            "terrain name",
            OptionalName,
        )?;
    }
    Ok(())
}

/// Most items of one list (`[…]` or `{…}`) of a scenario or army list, counted before the
/// file is parsed: the longest list a valid scenario can have is its terrain's 2,000 pieces
/// of one kind.
pub const MAX_LIST_ITEMS: usize = 2000;
/// Most items of all the lists of a scenario or army list together, counted before the file
/// is parsed (a valid scenario has fewer than 25,000: 10,000 points, 2,000 pieces, 1,000 units
/// and commanders a side, …).
pub const MAX_LIST_ITEMS_IN_ALL: usize = 50_000;

/// Refuses, in one pass over the text before it is parsed and without building anything, a
/// list of more than [`MAX_LIST_ITEMS`] items or more than [`MAX_LIST_ITEMS_IN_ALL`] items in
/// all: a file of a million points is refused in milliseconds, not after a second of parsing
/// (the exact limits, lower, are checked once it is parsed).
pub fn precheck_lists(text: &str, path: &Path) -> Result<(), DataError> {
    struct Open {
        /// Where the list begins.
        at: usize,
        /// Items ended by a comma.
        items: usize,
        /// An item has begun since the last comma.
        begun: bool,
        /// `[…]` and `{…}` count; `(…)` (a struct, a tuple) does not.
        counts: bool,
        /// The field the list is the value of.
        name: (usize, usize),
    }
    let b = text.as_bytes();
    let mut stack: Vec<Open> = Vec::new();
    let mut in_all = 0usize;
    let mut name = (0, 0);
    let mut i = 0;
    while i < b.len() {
        let ch = b[i];
        // Whatever is not white space, a comma, a comment or a closing bracket begins an item.
        let begins = !(ch.is_ascii_whitespace()
            || matches!(ch, b',' | b')' | b']' | b'}')
            || (ch == b'/' && matches!(b.get(i + 1), Some(b'/') | Some(b'*'))));
        if begins && let Some(o) = stack.last_mut().filter(|o| !o.begun) {
            o.begun = true;
            if o.counts {
                if o.items >= MAX_LIST_ITEMS {
                    let field = &text[o.name.0..o.name.1];
                    let (noun, limit) = match field {
                        "points" => ("points", format!("a line has at most {MAX_LINE_POINTS}")),
                        "outline" | "deployment" => ("points", format!("a polygon has at most {MAX_POLYGON_POINTS}")),
                        "contours" => ("contours", format!("a hill has at most {MAX_CONTOURS}")),
                        "units" | "commanders" => (field, format!("a side has at most {MAX_UNITS_PER_SIDE}")),
                        "areas" | "linears" | "hills" | "buildings" => (
                            "pieces",
                            format!("a scenario has at most {MAX_TERRAIN_PIECES} pieces of terrain"),
                        ),
                        "objectives" => ("objectives", format!("a scenario has at most {MAX_OBJECTIVES}")),
                        _ => (
                            "items",
                            format!("no list of a Volley file holds more than {MAX_LIST_ITEMS}"),
                        ),
                    };
                    return Err(DataError::at_offset(
                        path,
                        text,
                        o.at,
                        format!("`{field}`: more than {MAX_LIST_ITEMS} {noun} in one list; {limit}"),
                    ));
                }
                in_all += 1;
                if in_all > MAX_LIST_ITEMS_IN_ALL {
                    return Err(DataError::at_offset(
                        path,
                        text,
                        i,
                        format!(
                            "more than {MAX_LIST_ITEMS_IN_ALL} items in the file's lists: no Volley file needs so many (a scenario has at most {MAX_TERRAIN_POINTS} points of terrain)"
                        ),
                    ));
                }
            }
        }
        match ch {
            b'/' if b.get(i + 1) == Some(&b'/') => i = super::load::line_comment_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = super::load::block_comment_end(b, i);
                continue;
            }
            b'"' | b'\'' => i = super::load::quoted_end(b, i),
            b'r' if matches!(b.get(i + 1), Some(b'"') | Some(b'#')) => {
                match super::load::raw_string_end(b, i) {
                    Some(end) => i = end,
                    None => return Ok(()),
                }
                continue;
            }
            b'(' | b'[' | b'{' => stack.push(Open {
                at: i,
                items: 0,
                begun: false,
                counts: ch != b'(',
                name,
            }),
            b')' | b']' | b'}' => {
                stack.pop();
            }
            b',' => {
                if let Some(o) = stack.last_mut().filter(|o| o.begun) {
                    o.items += 1;
                    o.begun = false;
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let mut j = i;
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                if b.get(j) == Some(&b':') && b.get(j + 1) != Some(&b':') {
                    name = (start, i);
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// The counts a scenario may not exceed, checked before anything else and placed without the
/// span map: a file of a million points is refused in the time it takes to read it.
fn check_counts(c: &Ctx, sc: &Scenario) -> Result<(), DataError> {
    use Seg::{Field as F, Index as I, Newtype as N};
    let t = &sc.terrain;
    let pieces = t.areas.len() + t.buildings.len() + t.linears.len() + t.hills.len();
    if pieces > MAX_TERRAIN_PIECES {
        return Err(c.err_cheap(
            &[F("terrain")],
            format!("{pieces} pieces of terrain; a scenario has at most {MAX_TERRAIN_PIECES}"),
        ));
    }
    let polygon = |at: Vec<Seg>, p: &Polygon, what: String| {
        if p.0.len() > MAX_POLYGON_POINTS {
            let mut at = at;
            at.push(N);
            return Err(c.err_cheap(
                &at,
                format!(
                    "{what}: {} points; a polygon has at most {MAX_POLYGON_POINTS}",
                    p.0.len()
                ),
            ));
        }
        Ok(p.0.len())
    };
    let mut points = 0;
    for (i, a) in t.areas.iter().enumerate() {
        let at = vec![F("terrain"), F("areas"), I(i), F("outline")];
        points += polygon(at, &a.outline, area_words(a.kind, i))?;
    }
    for (i, b) in t.buildings.iter().enumerate() {
        let at = vec![F("terrain"), F("buildings"), I(i), F("outline")];
        points += polygon(at, &b.outline, format!("building {i}"))?;
    }
    for (i, l) in t.linears.iter().enumerate() {
        if l.points.len() > MAX_LINE_POINTS {
            return Err(c.err_cheap(
                &[F("terrain"), F("linears"), I(i), F("points")],
                format!(
                    "{:?} {i}: {} points; a line has at most {MAX_LINE_POINTS}",
                    l.kind,
                    l.points.len()
                ),
            ));
        }
        points += l.points.len();
    }
    for (i, h) in t.hills.iter().enumerate() {
        let name = if h.name.is_empty() {
            format!("hill {i}")
        } else {
            super::text::quoted_start(&h.name, 40)
        };
        if h.contours.len() > MAX_CONTOURS {
            return Err(c.err_cheap(
                &[F("terrain"), F("hills"), I(i), F("contours")],
                format!(
                    "{name}: {} contours; a hill has at most {MAX_CONTOURS}",
                    h.contours.len()
                ),
            ));
        }
        for (k, ct) in h.contours.iter().enumerate() {
            let at = vec![F("terrain"), F("hills"), I(i), F("contours"), I(k), F("outline")];
            points += polygon(at, &ct.outline, format!("{name} contour {k}"))?;
        }
    }
    for (i, s) in sc.sides.iter().enumerate() {
        if let Some(d) = &s.deployment {
            let at = vec![F("sides"), I(i), F("deployment")];
            points += polygon(at, d, format!("side {i}'s deployment zone"))?;
        }
    }
    if points > MAX_TERRAIN_POINTS {
        return Err(c.err_cheap(
            &[F("terrain")],
            format!("the terrain and deployment zones have {points} points in all; a scenario has at most {MAX_TERRAIN_POINTS}"),
        ));
    }
    for (i, s) in sc.sides.iter().enumerate() {
        if s.units.len() > MAX_UNITS_PER_SIDE || s.commanders.len() > MAX_UNITS_PER_SIDE {
            return Err(c.err_cheap(
                &[F("sides"), I(i), F("units")],
                format!(
                    "side {i}: {} units and {} commanders; a side has at most {MAX_UNITS_PER_SIDE} units and as many commanders",
                    s.units.len(),
                    s.commanders.len()
                ),
            ));
        }
        if s.obeys.len() > MAX_OBEYS || s.obeys.values().any(|l| l.len() > MAX_OBEYS) {
            return Err(c.err_cheap(
                &[F("sides"), I(i), F("obeys")],
                format!("side {i}: `obeys` lists at most {MAX_OBEYS} nations, each obeying at most {MAX_OBEYS}"),
            ));
        }
    }
    if sc.objectives.len() > MAX_OBJECTIVES {
        return Err(c.err_cheap(
            &[F("objectives")],
            format!(
                "{} objectives; a scenario has at most {MAX_OBJECTIVES}",
                sc.objectives.len()
            ),
        ));
    }
    Ok(())
}

/// BPT "Multi-National Armies": every nation a side names must be one it can use. A unit's
/// nation must be the side's own, a commander's, or a key of `obeys` (else only the CO could
/// ever order it: a misspelling); a commander's nation must be a unit's or one `obeys` names
/// (else he could order nobody but the CO's units); each key of `obeys` must be a unit's
/// nation and each nation it obeys a commander's. Checked whether or not the switch is on: a
/// scenario does not know which switches a player will add.
fn check_nations(c: &Ctx, sc: &Scenario) -> Result<(), DataError> {
    use Seg::{Field as F, Index as I};
    let list = |v: &mut Vec<&str>| {
        v.sort_unstable();
        v.dedup();
        v.join(", ")
    };
    for (si, s) in sc.sides.iter().enumerate() {
        let own = s.name.as_str();
        fn nation_of<'a>(u: &'a UnitSpec, own: &'a str) -> &'a str {
            u.nation.as_deref().unwrap_or(own)
        }
        let mut units: Vec<&str> = s.units.iter().map(|u| nation_of(u, own)).collect();
        let mut commanders: Vec<&str> = s
            .commanders
            .iter()
            .map(|cm| cm.nation.as_deref().unwrap_or(own))
            .collect();
        let obeys_at = [F("sides"), I(si), F("obeys")];
        for (nation, obeyed) in &s.obeys {
            if !units.contains(&nation.as_str()) {
                return Err(c.err_near(
                    &obeys_at,
                    &format!("\"{nation}\""),
                    format!(
                        "side {own}: `obeys` names the nation \"{}\", which no unit of the side has (units' nations: {})",
                        super::text::quoted_start(nation, 40),
                        list(&mut units.clone())
                    ),
                ));
            }
            if let Some(o) = obeyed.iter().find(|o| !commanders.contains(&o.as_str())) {
                return Err(c.err_near(
                    &obeys_at,
                    &format!("\"{o}\""),
                    format!(
                        "side {own}: `obeys` lets {nation} units obey the nation \"{}\", which no commander of the side has (commanders' nations: {})",
                        super::text::quoted_start(o, 40),
                        list(&mut commanders.clone())
                    ),
                ));
            }
        }
        for (k, u) in s.units.iter().enumerate() {
            let n = nation_of(u, own);
            if !commanders.contains(&n) && !s.obeys.contains_key(n) {
                return Err(c.err(
                    &[F("sides"), I(si), F("units"), I(k), F("nation")],
                    format!(
                        "unit {}: nation \"{}\" is no commander's on side {own} and no key of its `obeys`: with the multi-national switch only the CO could order it (commanders' nations: {})",
                        u.id,
                        super::text::quoted_start(n, 40),
                        list(&mut commanders)
                    ),
                ));
            }
        }
        for (k, cm) in s.commanders.iter().enumerate() {
            let Some(n) = cm.nation.as_deref() else { continue };
            let obeyed = s.obeys.values().flatten().any(|o| o == n);
            if n != own && !units.contains(&n) && !obeyed {
                return Err(c.err(
                    &[F("sides"), I(si), F("commanders"), I(k), F("nation")],
                    format!(
                        "commander {}: nation \"{}\" is no unit's on side {own} and no nation `obeys` lets units obey: with the multi-national switch he could order none of them (units' nations: {})",
                        cm.id,
                        super::text::quoted_start(n, 40),
                        list(&mut units)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// What is wrong with a point: not finite, or farther out than [`MAX_COORD`].
fn coord_problem(p: V2) -> Option<String> {
    if !(p.x.is_finite() && p.y.is_finite()) {
        Some("is not a finite coordinate".into())
    } else if !finite(p) {
        Some(format!(
            "{} lies beyond ±{MAX_COORD} cm, the farthest any point may be",
            fmt_v(p)
        ))
    } else {
        None
    }
}

/// The first point of `pts` that repeats an earlier one: (earlier, later).
fn repeated_point(pts: &[V2]) -> Option<(usize, usize)> {
    (1..pts.len()).find_map(|j| {
        (0..j)
            .find(|&i| pts[i].x == pts[j].x && pts[i].y == pts[j].y)
            .map(|i| (i, j))
    })
}

/// Checks a polygon: 3 to [`MAX_POLYGON_POINTS`] points, finite coordinates within
/// [`MAX_COORD`], no point given twice, an area (not all on one line), and edges that do not
/// cross each other.
fn check_polygon(c: &Ctx, at: &[Seg], poly: &Polygon, what: &str) -> Result<(), DataError> {
    let mut path = at.to_vec();
    path.push(Seg::Newtype);
    if poly.0.len() < 3 {
        return Err(c.err(&path, format!("{what}: a polygon needs at least 3 points")));
    }
    if poly.0.len() > MAX_POLYGON_POINTS {
        return Err(c.err(
            &path,
            format!(
                "{what}: {} points; a polygon has at most {MAX_POLYGON_POINTS}",
                poly.0.len()
            ),
        ));
    }
    if let Some((k, msg)) = poly
        .0
        .iter()
        .enumerate()
        .find_map(|(k, p)| Some((k, coord_problem(*p)?)))
    {
        path.push(Seg::Index(k));
        return Err(c.err(&path, format!("{what}: point {k} {msg}")));
    }
    if let Some((i, j)) = repeated_point(&poly.0) {
        path.push(Seg::Index(j));
        return Err(c.err(
            &path,
            format!(
                "{what}: point {j} repeats point {i} {}: a polygon lists each corner once (the last joins the first by itself)",
                fmt_v(poly.0[j])
            ),
        ));
    }
    let crossing = crossing_edges(&poly.0);
    if polygon_area(&poly.0) < MIN_POLYGON_AREA && crossing.is_none() {
        return Err(c.err(
            &path,
            format!("{what}: the polygon has no area (its points lie on one line)"),
        ));
    }
    if let Some((i, j)) = crossing {
        path.push(Seg::Index(j));
        return Err(c.err(
            &path,
            format!(
                "{what}: the polygon's edges cross (edge from point {i} and edge from point {j}); list its points in order around it"
            ),
        ));
    }
    Ok(())
}

/// The most points a polygon may have (the bundled maps use at most a few dozen; the check
/// for crossing edges compares every pair of edges).
pub const MAX_POLYGON_POINTS: usize = 500;
/// A polygon smaller than this (cm²) is degenerate.
const MIN_POLYGON_AREA: f64 = 1e-3;

/// The area enclosed by a polygon (shoelace formula), whichever way round it is listed.
pub fn polygon_area(pts: &[V2]) -> f64 {
    let n = pts.len();
    let twice: f64 = (0..n)
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            a.x * b.y - b.x * a.y
        })
        .sum();
    twice.abs() / 2.0
}

/// The first pair of edges (by their first points) of a closed polygon that cross or touch,
/// other than neighbours sharing a corner: `None` for a simple polygon.
pub fn crossing_edges(pts: &[V2]) -> Option<(usize, usize)> {
    let n = pts.len();
    let cross = |o: V2, a: V2, b: V2| (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    let on =
        |p: V2, a: V2, b: V2| p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y);
    let meet = |p1: V2, p2: V2, q1: V2, q2: V2| {
        let (d1, d2) = (cross(q1, q2, p1), cross(q1, q2, p2));
        let (d3, d4) = (cross(p1, p2, q1), cross(p1, p2, q2));
        if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0)) {
            return true;
        }
        (d1 == 0.0 && on(p1, q1, q2))
            || (d2 == 0.0 && on(p2, q1, q2))
            || (d3 == 0.0 && on(q1, p1, p2))
            || (d4 == 0.0 && on(q2, p1, p2))
    };
    for i in 0..n {
        for j in i + 1..n {
            let neighbours = j == i + 1 || (i == 0 && j == n - 1);
            if neighbours {
                continue;
            }
            if meet(pts[i], pts[(i + 1) % n], pts[j], pts[(j + 1) % n]) {
                return Some((i, j));
            }
        }
    }
    None
}

/// Checks a scenario (already parsed from `text`, the contents of `path`) against its sides'
/// army lists (`armies[i]` for `sc.sides[i]`) and the table. The first problem found is
/// returned, placed at the offending value.
pub fn validate_scenario(
    text: &str,
    path: &Path,
    sc: &Scenario,
    armies: &[ArmyList],
    fp: &Footprints,
) -> Result<(), DataError> {
    let c = Ctx::new(path, text);
    check_scenario(&c, sc, armies, fp)
}

/// [`validate_scenario`] on the span map of the text, in the order the problems are reported:
/// the counts, the sides, the texts and nations, the table and header, the terrain and
/// deployment zones, the objectives, the ids, the commanders, the units and their overlaps.
fn check_scenario(c: &Ctx, sc: &Scenario, armies: &[ArmyList], fp: &Footprints) -> Result<(), DataError> {
    check_counts(c, sc)?;
    check_sides(c, sc)?;
    check_texts(c, sc)?;
    check_nations(c, sc)?;
    check_header(c, sc, armies)?;
    check_terrain(c, &sc.terrain)?;
    check_deployments(c, sc)?;
    check_objectives(c, sc)?;
    check_ids(c, sc)?;
    // Commanders: rows, places, and one chain of command per side.
    for (si, army) in armies.iter().enumerate().take(sc.sides.len()) {
        check_commander_rows(c, sc, si, army, fp)?;
        check_chain_of_command(c, sc, si)?;
    }
    // Units: rows, commanders, sizes, formations.
    let mut placed: Vec<(usize, usize, Vec<Rect>)> = Vec::new();
    for (si, (s, army)) in sc.sides.iter().zip(armies).enumerate() {
        for k in 0..s.units.len() {
            let rects = check_unit(c, sc, (si, k), army, fp)?;
            placed.push((si, k, rects));
        }
    }
    check_overlaps(c, sc, &placed)
}

/// `p` is on the table of `sc`, at least `margin` from its edges (give or take `EDGE_EPS`).
fn on_table(sc: &Scenario, p: V2, margin: f64) -> bool {
    let (w, h) = (sc.table.width, sc.table.height);
    p.x >= margin - EDGE_EPS && p.y >= margin - EDGE_EPS && p.x <= w - margin + EDGE_EPS && p.y <= h - margin + EDGE_EPS
}

/// One army list a side, the table's size, the title, the turn limit and the first side.
fn check_header(c: &Ctx, sc: &Scenario, armies: &[ArmyList]) -> Result<(), DataError> {
    if armies.len() != sc.sides.len() {
        return Err(c.err(
            &[Seg::Field("sides")],
            format!("{} army lists given for {} sides", armies.len(), sc.sides.len()),
        ));
    }
    let (w, h) = (sc.table.width, sc.table.height);
    let table_ok = |v: f64| v.is_finite() && v > 0.0 && v <= MAX_TABLE;
    if !table_ok(w) || !table_ok(h) {
        return Err(c.err(
            &[Seg::Field("table")],
            format!("table width and height must be in (0, {MAX_TABLE}] cm"),
        ));
    }
    if sc.title.trim().is_empty() {
        return Err(c.err(
            &[Seg::Field("title")],
            "the title is empty: players pick a battle by it",
        ));
    }
    if !(1..=MAX_TURN_LIMIT).contains(&sc.turn_limit) {
        return Err(c.err(
            &[Seg::Field("turn_limit")],
            format!(
                "turn_limit must be 1 to {MAX_TURN_LIMIT} game turns, not {}",
                sc.turn_limit
            ),
        ));
    }
    if sc.first_side >= sc.sides.len() {
        return Err(c.err(
            &[Seg::Field("first_side")],
            format!("first_side {} is not a side index (0 or 1)", sc.first_side),
        ));
    }
    Ok(())
}

/// The terrain's areas, buildings, lines and hills.
fn check_terrain(c: &Ctx, t: &crate::rules::terrain::Terrain) -> Result<(), DataError> {
    for (i, a) in t.areas.iter().enumerate() {
        let at = [
            Seg::Field("terrain"),
            Seg::Field("areas"),
            Seg::Index(i),
            Seg::Field("outline"),
        ];
        check_polygon(c, &at, &a.outline, &area_words(a.kind, i))?;
    }
    for (i, b) in t.buildings.iter().enumerate() {
        let at = [
            Seg::Field("terrain"),
            Seg::Field("buildings"),
            Seg::Index(i),
            Seg::Field("outline"),
        ];
        check_polygon(c, &at, &b.outline, &format!("building {i}"))?;
    }
    for (i, l) in t.linears.iter().enumerate() {
        check_linear(c, i, l)?;
    }
    for (i, hill) in t.hills.iter().enumerate() {
        check_hill(c, i, hill)?;
    }
    Ok(())
}

/// Line `i` of the terrain: at least two points, each a coordinate, no stretch of no length,
/// a width in range.
fn check_linear(c: &Ctx, i: usize, l: &crate::rules::terrain::Linear) -> Result<(), DataError> {
    let at = |f: &'static str| {
        [
            Seg::Field("terrain"),
            Seg::Field("linears"),
            Seg::Index(i),
            Seg::Field(f),
        ]
    };
    if l.points.len() < 2 {
        return Err(c.err(
            &at("points"),
            format!("{:?} {i}: a line needs at least 2 points", l.kind),
        ));
    }
    if let Some((k, msg)) = l
        .points
        .iter()
        .enumerate()
        .find_map(|(k, p)| Some((k, coord_problem(*p)?)))
    {
        let mut p = at("points").to_vec();
        p.push(Seg::Index(k));
        return Err(c.err(&p, format!("{:?} {i}: point {k} {msg}", l.kind)));
    }
    // A stretch of no length has no direction: a line of one point given twice.
    if let Some(k) =
        (1..l.points.len()).find(|&k| l.points[k].x == l.points[k - 1].x && l.points[k].y == l.points[k - 1].y)
    {
        let mut p = at("points").to_vec();
        p.push(Seg::Index(k));
        return Err(c.err(
            &p,
            format!(
                "{:?} {i}: point {k} repeats point {} {}: each stretch of a line needs a length",
                l.kind,
                k - 1,
                fmt_v(l.points[k])
            ),
        ));
    }
    if !l.width.is_finite() || l.width < 0.0 || l.width > 100.0 {
        return Err(c.err(&at("width"), format!("{:?} {i}: width must be 0..=100 cm", l.kind)));
    }
    Ok(())
}

/// Hill `i`: at least one contour, each a polygon, each higher than and inside the one below.
fn check_hill(c: &Ctx, i: usize, hill: &crate::rules::terrain::Hill) -> Result<(), DataError> {
    let hill_at = [Seg::Field("terrain"), Seg::Field("hills"), Seg::Index(i)];
    let name = if hill.name.is_empty() {
        format!("hill {i}")
    } else {
        hill.name.clone()
    };
    if hill.contours.is_empty() {
        let mut p = hill_at.to_vec();
        p.push(Seg::Field("contours"));
        return Err(c.err(&p, format!("{name}: a hill needs at least one contour")));
    }
    for (k, ct) in hill.contours.iter().enumerate() {
        let at = |f: &'static str| {
            let mut p = hill_at.to_vec();
            p.extend([Seg::Field("contours"), Seg::Index(k), Seg::Field(f)]);
            p
        };
        check_polygon(c, &at("outline"), &ct.outline, &format!("{name} contour {k}"))?;
        if k == 0 {
            continue;
        }
        let prev = &hill.contours[k - 1];
        if ct.height <= prev.height {
            return Err(c.err(
                &at("height"),
                format!(
                    "{name}: contour {k} height {} must be above the contour below it ({})",
                    ct.height, prev.height
                ),
            ));
        }
        if let Some(j) = ct.outline.0.iter().position(|p| !prev.outline.contains(*p)) {
            let mut p = at("outline");
            p.extend([Seg::Newtype, Seg::Index(j)]);
            return Err(c.err(
                &p,
                format!(
                    "{name}: contour {k} point {j} {} lies outside contour {}",
                    fmt_v(ct.outline.0[j]),
                    k - 1
                ),
            ));
        }
    }
    Ok(())
}

/// Each side's deployment zone, if it has one: a polygon holding the side's units.
fn check_deployments(c: &Ctx, sc: &Scenario) -> Result<(), DataError> {
    for (i, s) in sc.sides.iter().enumerate() {
        if let Some(d) = &s.deployment {
            let at = [Seg::Field("sides"), Seg::Index(i), Seg::Field("deployment")];
            check_polygon(c, &at, d, &format!("{} deployment zone", s.name))?;
            if let Some(k) = s.units.iter().position(|u| finite(u.pos) && !d.contains(u.pos)) {
                let u = &s.units[k];
                return Err(c.err(
                    &[
                        Seg::Field("sides"),
                        Seg::Index(i),
                        Seg::Field("units"),
                        Seg::Index(k),
                        Seg::Field("pos"),
                    ],
                    format!(
                        "unit {} at {} is outside {}'s deployment zone",
                        u.id,
                        fmt_v(u.pos),
                        s.name
                    ),
                ));
            }
        }
    }

    Ok(())
}

/// Each objective: a side that exists, a place on the table, a radius in range.
fn check_objectives(c: &Ctx, sc: &Scenario) -> Result<(), DataError> {
    for (i, o) in sc.objectives.iter().enumerate() {
        let at = |f: &'static str| [Seg::Field("objectives"), Seg::Index(i), Seg::Field(f)];
        if !sc.sides.iter().any(|s| s.name == o.side) {
            return Err(c.err(
                &at("side"),
                format!(
                    "objective \"{}\": no side is named \"{}\" (sides: {})",
                    o.name,
                    o.side,
                    ids_list(sc.sides.iter().map(|s| s.name.as_str()))
                ),
            ));
        }
        if !finite(o.pos) || !on_table(sc, o.pos, 0.0) {
            return Err(c.err(
                &at("pos"),
                format!("objective \"{}\" at {} is off the table", o.name, fmt_v(o.pos)),
            ));
        }
        if !o.radius.is_finite() || o.radius <= 0.0 || o.radius > MAX_TABLE {
            return Err(c.err(
                &at("radius"),
                format!("objective \"{}\": radius must be a positive distance", o.name),
            ));
        }
    }

    Ok(())
}

/// Ids, shared by units and commanders across the whole scenario: none empty, none twice.
fn check_ids(c: &Ctx, sc: &Scenario) -> Result<(), DataError> {
    let mut seen: HashSet<&str> = HashSet::new();
    for (si, s) in sc.sides.iter().enumerate() {
        let cmd_ids = s.commanders.iter().enumerate().map(|(k, cm)| ("commanders", k, &cm.id));
        let unit_ids = s.units.iter().enumerate().map(|(k, u)| ("units", k, &u.id));
        for (list, k, id) in cmd_ids.chain(unit_ids) {
            let at = [
                Seg::Field("sides"),
                Seg::Index(si),
                Seg::Field(list),
                Seg::Index(k),
                Seg::Field("id"),
            ];
            if id.trim().is_empty() {
                return Err(c.err(&at, "empty id"));
            }
            if !seen.insert(id.as_str()) {
                return Err(c.err(
                    &at,
                    format!("duplicate id \"{id}\": unit and commander ids are unique across the scenario"),
                ));
            }
        }
    }

    Ok(())
}

/// The path of field `f` of side `si`'s commander `k` (`sides[si].commanders[k].f`).
fn commander_field(si: usize, k: usize, f: &'static str) -> [Seg<'static>; 5] {
    [
        Seg::Field("sides"),
        Seg::Index(si),
        Seg::Field("commanders"),
        Seg::Index(k),
        Seg::Field(f),
    ]
}

/// Side `si`'s commanders: rows of its army list, one Army HQ at most, each on the table.
fn check_commander_rows(c: &Ctx, sc: &Scenario, si: usize, army: &ArmyList, fp: &Footprints) -> Result<(), DataError> {
    let s = &sc.sides[si];
    let cat = |k: usize, f: &'static str| commander_field(si, k, f);
    let mut army_hqs = 0;
    for (k, cm) in s.commanders.iter().enumerate() {
        let Some(row) = army.command(&cm.row) else {
            return Err(c.err(
                &cat(k, "row"),
                format!(
                    "commander {}: unknown command row \"{}\" in {} (rows: {})",
                    cm.id,
                    cm.row,
                    army.name,
                    ids_list(army.commands.iter().map(|r| r.id.as_str()))
                ),
            ));
        };
        if row.level == CommandLevel::Army {
            army_hqs += 1;
            if army_hqs > 1 {
                return Err(c.err(
                    &cat(k, "row"),
                    format!("commander {}: a side has only one Army HQ (ACW note 10)", cm.id),
                ));
            }
        }
        let r = fp.commander_diameter / 2.0;
        if !finite(cm.pos) || !on_table(sc, cm.pos, r) {
            return Err(c.err(
                &cat(k, "pos"),
                format!("commander {} at {} is off the table", cm.id, fmt_v(cm.pos)),
            ));
        }
    }
    Ok(())
}

/// Side `si`'s chain of command: one CO, every superior a commander of the side, no loop.
fn check_chain_of_command(c: &Ctx, sc: &Scenario, si: usize) -> Result<(), DataError> {
    let s = &sc.sides[si];
    let cat = |k: usize, f: &'static str| commander_field(si, k, f);
    let cos: Vec<usize> = (0..s.commanders.len())
        .filter(|&k| s.commanders[k].superior.is_none())
        .collect();
    match cos.as_slice() {
        [] => {
            return Err(c.err(
                &[Seg::Field("sides"), Seg::Index(si), Seg::Field("commanders")],
                format!("side {} has no CO (a commander with no superior)", s.name),
            ));
        }
        [_] => {}
        [a, b, ..] => {
            return Err(c.err(
                &cat(*b, "id"),
                format!(
                    "side {} has more than one CO (commanders with no superior): {} and {}",
                    s.name, s.commanders[*a].id, s.commanders[*b].id
                ),
            ));
        }
    }
    for (k, cm) in s.commanders.iter().enumerate() {
        let Some(sup) = &cm.superior else { continue };
        if !s.commanders.iter().any(|o| o.id == *sup) {
            let msg = match sc.sides.iter().find(|o| o.commanders.iter().any(|x| x.id == *sup)) {
                Some(other) => format!(
                    "commander {}: superior \"{sup}\" is a commander of side {}, not {}",
                    cm.id, other.name, s.name
                ),
                None => format!("commander {}: unknown superior \"{sup}\"", cm.id),
            };
            return Err(c.err(&cat(k, "superior"), msg));
        }
        // Follow the chain up: it must reach the CO within as many steps as there are
        // commanders.
        let mut cur = cm;
        let mut steps = 0;
        while let Some(up) = &cur.superior {
            steps += 1;
            match s.commanders.iter().find(|o| o.id == *up) {
                Some(next) if steps <= s.commanders.len() => cur = next,
                _ => {
                    return Err(c.err(
                        &cat(k, "superior"),
                        format!("commander {}: the chain of command loops", cm.id),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Unit `k` of side `si`: its row, commander, size, formation, state, place and facing; its
/// bases, each on the table and out of impassable terrain, are returned.
fn check_unit(
    c: &Ctx,
    sc: &Scenario,
    (si, k): (usize, usize),
    army: &ArmyList,
    fp: &Footprints,
) -> Result<Vec<Rect>, DataError> {
    let s = &sc.sides[si];
    let u = &s.units[k];
    let acw = |army: &ArmyList| army.name.starts_with("ACW");
    let at = |f: &'static str| {
        [
            Seg::Field("sides"),
            Seg::Index(si),
            Seg::Field("units"),
            Seg::Index(k),
            Seg::Field(f),
        ]
    };
    let id = &u.id;
    let Some(row) = army.troop(&u.row) else {
        return Err(c.err(
            &at("row"),
            format!(
                "unit {id}: unknown troop row \"{}\" in {} (rows: {})",
                u.row,
                army.name,
                ids_list(army.troops.iter().map(|r| r.id.as_str()))
            ),
        ));
    };
    if row.arm == Arm::Transport || row.has(Trait::Limber) {
        return Err(c.err(
            &at("row"),
            format!(
                "unit {id}: \"{}\" is a limber row; give the gun row with `limbered: true`",
                u.row
            ),
        ));
    }
    if !s.commanders.iter().any(|cm| cm.id == u.commander) {
        let msg = match sc
            .sides
            .iter()
            .find(|o| o.commanders.iter().any(|x| x.id == u.commander))
        {
            Some(other) => format!(
                "unit {id}: commander \"{}\" belongs to side {}, not {}",
                u.commander, other.name, s.name
            ),
            None => format!("unit {id}: unknown commander \"{}\"", u.commander),
        };
        return Err(c.err(&at("commander"), msg));
    }
    let what = if row.arm == Arm::Artillery { "guns" } else { "stands" };
    if u.stands < 1 || u.stands > MAX_STANDS {
        return Err(c.err(
            &at("stands"),
            format!("unit {id}: {} {what}; a unit has 1..={MAX_STANDS} {what}", u.stands),
        ));
    }
    if u.formation == Formation::Disordered {
        return Err(c.err(
            &at("formation"),
            format!("unit {id}: Disordered is not a starting formation"),
        ));
    }
    if u.formation == Formation::Square && acw(army) {
        return Err(c.err(
            &at("formation"),
            format!("unit {id}: square is not used in the American Civil War (BPT)"),
        ));
    }
    if row.arm != Arm::Artillery && u.limbered {
        return Err(c.err(&at("limbered"), format!("unit {id}: only artillery limbers")));
    }
    // BPT "Scouting Cavalry": "deployed as individual stands".
    if u.scout && (row.arm != Arm::Cavalry || row.dismounts_to.is_none() || u.stands != 1) {
        return Err(c.err(
            &at("scout"),
            format!("unit {id}: scouting cavalry is one stand of mounted cavalry"),
        ));
    }
    if row.arm != Arm::Artillery && u.loaded.is_some() {
        return Err(c.err(&at("loaded"), format!("unit {id}: only artillery is loaded")));
    }
    if u.limbered && !has_limber(row) {
        return Err(c.err(
            &at("limbered"),
            format!("unit {id}: {} has no limber (it never moves)", row.name),
        ));
    }
    if let Some(msg) = coord_problem(u.pos) {
        return Err(c.err(&at("pos"), format!("unit {id}: position {msg}")));
    }
    if !u.facing.is_finite() {
        return Err(c.err(&at("facing"), format!("unit {id}: facing is not a finite number")));
    }
    if u.facing.abs() > MAX_FACING {
        return Err(c.err(
            &at("facing"),
            format!(
                "unit {id}: facing {} is beyond ±{MAX_FACING} degrees (0 to 360 says every way a unit can face)",
                u.facing
            ),
        ));
    }

    // Every base on the table and out of impassable terrain.
    let rects = unit_rects(u, row, fp);
    for r in &rects {
        if let Some(p) = r.corners().into_iter().find(|p| !on_table(sc, *p, 0.0)) {
            return Err(c.err(
                &at("pos"),
                format!("unit {id}: a base lies off the table (corner at {})", fmt_v(p)),
            ));
        }
        if sc.terrain.rect_in_impassable(r, is_foot(row)) {
            return Err(c.err(
                &at("pos"),
                format!("unit {id}: a base at {} is in impassable terrain", fmt_v(r.center)),
            ));
        }
    }
    Ok(rects)
}

/// No two units' bases overlap (bases of one unit may touch).
fn check_overlaps(c: &Ctx, sc: &Scenario, placed: &[(usize, usize, Vec<Rect>)]) -> Result<(), DataError> {
    let bbox = |rs: &[Rect]| {
        rs.iter().fold(
            (
                V2::new(f64::INFINITY, f64::INFINITY),
                V2::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
            ),
            |(lo, hi), r| {
                let (a, b) = r.aabb();
                (
                    V2::new(lo.x.min(a.x), lo.y.min(a.y)),
                    V2::new(hi.x.max(b.x), hi.y.max(b.y)),
                )
            },
        )
    };
    let boxes: Vec<(V2, V2)> = placed.iter().map(|(_, _, rs)| bbox(rs)).collect();
    for j in 0..placed.len() {
        for i in 0..j {
            let ((al, ah), (bl, bh)) = (boxes[i], boxes[j]);
            if al.x > bh.x || bl.x > ah.x || al.y > bh.y || bl.y > ah.y {
                continue;
            }
            let (ra, rb) = (&placed[i].2, &placed[j].2);
            if ra.iter().any(|a| rb.iter().any(|b| a.overlaps(b))) {
                let (si, ui) = (placed[i].0, placed[i].1);
                let (sj, uj) = (placed[j].0, placed[j].1);
                return Err(c.err(
                    &[
                        Seg::Field("sides"),
                        Seg::Index(sj),
                        Seg::Field("units"),
                        Seg::Index(uj),
                        Seg::Field("pos"),
                    ],
                    format!(
                        "overlapping stands: {} and {}",
                        sc.sides[si].units[ui].id, sc.sides[sj].units[uj].id
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Byte offset of the value at `path` in the RON `text`, as [`RonSpans::offset`] finds it (the
/// deepest ancestor that exists when the text has less than the path; `Some(x)` is `x`), but
/// in one pass that builds nothing: a limit's error is placed so even in a file of a million
/// points.
fn offset_cheap(text: &str, path: &[Seg]) -> usize {
    let mut r = Cursor {
        s: text.as_bytes(),
        i: 0,
    };
    r.land();
    let mut at = r.i;
    for seg in path {
        match r.step(*seg) {
            Some(next) => at = next,
            None => break,
        }
    }
    at
}

/// A place in a RON text, read forward without building anything.
struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn at(&self, k: usize) -> Option<u8> {
        self.s.get(self.i + k).copied()
    }

    /// Skips whitespace, comments (line, nested block) and `#![...]` attributes.
    fn ws(&mut self) {
        self.i = super::load::skip_ws(self.s, self.i);
    }

    fn ident_len(&self) -> usize {
        let ok = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        match self.peek() {
            Some(b) if b.is_ascii_alphabetic() || b == b'_' => self.s[self.i..].iter().take_while(|&&b| ok(b)).count(),
            _ => 0,
        }
    }

    /// Skips whitespace, then any `Some(` around the value (as the span map does).
    fn land(&mut self) {
        self.ws();
        while self.ident_len() == 4 && &self.s[self.i..self.i + 4] == b"Some" {
            let save = self.i;
            self.i += 4;
            self.ws();
            if self.peek() != Some(b'(') {
                self.i = save;
                return;
            }
            self.i += 1;
            self.ws();
        }
    }

    /// Skips a quoted string or character starting at its quote.
    fn quoted(&mut self) {
        let q = self.s[self.i];
        self.i += 1;
        while let Some(b) = self.peek() {
            self.i += if b == b'\\' { 2 } else { 1 };
            if b == q {
                return;
            }
        }
    }

    /// Skips one value starting here; `false` at the end of the text or a closing bracket.
    fn skip_value(&mut self) -> bool {
        let Some(b) = self.peek() else { return false };
        match b {
            b'(' | b'[' | b'{' => {
                let mut depth = 0usize;
                while let Some(c) = self.peek() {
                    match c {
                        b'(' | b'[' | b'{' => {
                            depth += 1;
                            self.i += 1;
                        }
                        b')' | b']' | b'}' => {
                            depth -= 1;
                            self.i += 1;
                            if depth == 0 {
                                return true;
                            }
                        }
                        b'"' | b'\'' => self.quoted(),
                        b'/' if matches!(self.at(1), Some(b'/') | Some(b'*')) => self.ws(),
                        b'r' if matches!(self.at(1), Some(b'"') | Some(b'#')) => self.raw(),
                        _ => self.i += 1,
                    }
                }
                false
            }
            b'"' | b'\'' => {
                self.quoted();
                true
            }
            b'r' if matches!(self.at(1), Some(b'"') | Some(b'#')) => {
                self.raw();
                true
            }
            b'b' if matches!(self.at(1), Some(b'"') | Some(b'\'')) => {
                self.i += 1;
                self.quoted();
                true
            }
            b')' | b']' | b'}' | b',' => false,
            _ if self.ident_len() > 0 => {
                self.i += self.ident_len();
                let after = self.i;
                self.ws();
                if self.peek() == Some(b'(') {
                    return self.skip_value();
                }
                self.i = after;
                true
            }
            _ => {
                while let Some(c) = self.peek() {
                    if c.is_ascii_whitespace() || matches!(c, b',' | b')' | b']' | b'}' | b':' | b'/') {
                        break;
                    }
                    self.i += 1;
                }
                true
            }
        }
    }

    /// Skips a raw string `r#"…"#` starting at the `r` (or a raw identifier `r#name`).
    fn raw(&mut self) {
        self.i += 1;
        let mut hashes = 0;
        while self.peek() == Some(b'#') {
            hashes += 1;
            self.i += 1;
        }
        if self.peek() != Some(b'"') {
            self.i += self.ident_len();
            return;
        }
        self.i += 1;
        while self.i < self.s.len() {
            if self.s[self.i] == b'"'
                && self.s[self.i + 1..].iter().take(hashes).filter(|&&b| b == b'#').count() == hashes
            {
                self.i += 1 + hashes;
                return;
            }
            self.i += 1;
        }
    }

    /// After an item of a group: past its `,`; `false` at the group's end (or the text's).
    fn next_item(&mut self) -> bool {
        self.ws();
        if self.peek() == Some(b',') {
            self.i += 1;
            self.ws();
            !matches!(self.peek(), None | Some(b')') | Some(b']') | Some(b'}'))
        } else {
            false
        }
    }

    /// Enters the value here, a group with or without a name in front; returns its bracket.
    fn enter(&mut self) -> Option<u8> {
        let len = self.ident_len();
        if len > 0 {
            self.i += len;
            self.ws();
        }
        let b = self.peek().filter(|b| matches!(b, b'(' | b'[' | b'{'))?;
        self.i += 1;
        self.ws();
        (!matches!(self.peek(), None | Some(b')') | Some(b']') | Some(b'}'))).then_some(b)
    }

    /// If a field name and `:` start here, the name (and the cursor on the value after it).
    fn field_name(&mut self) -> Option<&[u8]> {
        let mut len = self.ident_len();
        let mut start = self.i;
        if len == 1 && self.peek() == Some(b'r') && self.at(1) == Some(b'#') {
            start += 2;
            len = self.s[start..]
                .iter()
                .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
                .count();
        }
        if len == 0 {
            return None;
        }
        let save = self.i;
        self.i = start + len;
        self.ws();
        if self.peek() == Some(b':') && self.at(1) != Some(b':') {
            self.i += 1;
            Some(&self.s[start..start + len])
        } else {
            self.i = save;
            None
        }
    }

    /// Moves from the value here to the one `seg` names inside it: its offset, or `None` (the
    /// cursor then somewhere inside) when it has none.
    fn step(&mut self, seg: Seg) -> Option<usize> {
        let here = self.i;
        match seg {
            Seg::Field(name) => {
                if self.enter()? != b'(' {
                    return None;
                }
                loop {
                    if let Some(f) = self.field_name() {
                        let found = f == name.as_bytes();
                        self.ws();
                        if found {
                            self.land();
                            return Some(self.i);
                        }
                    }
                    if !self.skip_value() || !self.next_item() {
                        return None;
                    }
                }
            }
            Seg::Index(k) => {
                let map = self.enter()? == b'{';
                for n in 0.. {
                    if map {
                        // `key: value`: the span map keeps the values.
                        if !self.skip_value() {
                            return None;
                        }
                        self.ws();
                        if self.peek() != Some(b':') {
                            return None;
                        }
                        self.i += 1;
                        self.ws();
                    } else if self.field_name().is_some() {
                        // A struct's fields are not a list.
                        return None;
                    }
                    self.ws();
                    if n == k {
                        self.land();
                        return Some(self.i);
                    }
                    if !self.skip_value() || !self.next_item() {
                        return None;
                    }
                }
                None
            }
            Seg::Newtype => {
                // `Polygon([...])` or `([...])`: the list inside when it is the one item.
                if self.enter() == Some(b'(') && self.peek() == Some(b'[') {
                    let inner = self.i;
                    let single = self.skip_value() && {
                        self.ws();
                        if self.peek() == Some(b',') {
                            self.i += 1;
                            self.ws();
                        }
                        self.peek() == Some(b')')
                    };
                    if single {
                        self.i = inner;
                        return Some(inner);
                    }
                }
                self.i = here;
                Some(here)
            }
        }
    }
}

/// An area as a problem names it: "Orchard area 3", "Built-up area 2" (its kind in a
/// player's words, and its place in the scenario's list).
fn area_words(kind: crate::rules::terrain::AreaKind, i: usize) -> String {
    let name = kind.name();
    let mut chars = name.chars();
    let capital: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    if name.ends_with("area") {
        format!("{capital} {i}")
    } else {
        format!("{capital} area {i}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::army::Trait;
    use crate::data::load::line_col;
    use crate::data::scenario::Ammo;
    use crate::rules::terrain::{AreaKind, LinearKind};
    use proptest::prelude::*;

    const UNION: &str = include_str!("../../assets/armies/acw_union.ron");
    const CONFED: &str = include_str!("../../assets/armies/acw_confederate.ron");
    const SKIRMISH: &str = include_str!("../../maps/skirmish.ron");

    const BASE: &str = r#"(
    title: "Test",
    turn_limit: 4,
    sides: [
        (
            name: "Union",
            army: "acw_union",
            commanders: [
                (id: "u_co", name: "Gen. A", row: "division_average", pos: (x: 120, y: 10)),
                (id: "u_bde", name: "Col. B", row: "brigade_average", superior: Some("u_co"), pos: (x: 100, y: 10)),
            ],
            units: [
                (id: "u_inf", name: "1st", row: "regular_infantry_rifled", stands: 4, formation: Line, pos: (x: 100, y: 30), facing: 90, commander: "u_bde"),
                (id: "u_gun", name: "Bty", row: "rifled_cannon", stands: 1, formation: Line, pos: (x: 140, y: 30), facing: 90, commander: "u_co", loaded: Some(Shot)),
            ],
        ),
        (
            name: "Confederate",
            army: "acw_confederate",
            commanders: [
                (id: "c_co", name: "Gen. C", row: "brigade_average", pos: (x: 120, y: 170)),
            ],
            units: [
                (id: "c_inf", name: "2nd", row: "regular_infantry_smoothbore", stands: 4, formation: Line, pos: (x: 100, y: 150), facing: 270, commander: "c_co"),
            ],
        ),
    ],
)"#;

    /// Where a test puts the offending value: right after this marker comment.
    const MARK: &str = "/*@*/";

    fn army(text: &str, name: &str) -> ArmyList {
        let p = Path::new(name);
        let a: ArmyList = parse_ron(text, p).unwrap_or_else(|e| panic!("{e}"));
        validate_army(text, p, &a).unwrap_or_else(|e| panic!("{e}"));
        a
    }

    fn armies() -> Vec<ArmyList> {
        vec![army(UNION, "acw_union.ron"), army(CONFED, "acw_confederate.ron")]
    }

    fn check(src: &str) -> Result<(), DataError> {
        let p = Path::new("t.ron");
        let sc: Scenario = parse_ron(src, p)?;
        validate_scenario(src, p, &sc, &armies(), &Footprints::default())
    }

    /// `BASE` with `from` (which must occur exactly once) replaced by `to`.
    fn with(from: &str, to: &str) -> String {
        assert_eq!(BASE.matches(from).count(), 1, "{from:?} must occur once in BASE");
        BASE.replace(from, to)
    }

    /// The scenario fails with a message containing `msg`, placed right after the marker.
    fn expect(src: &str, msg: &str) -> DataError {
        let e = check(src).expect_err("the scenario should be refused");
        assert!(e.msg.contains(msg), "message {:?} lacks {msg:?}", e.msg);
        let i = src.find(MARK).expect("test source has a marker");
        assert_eq!((e.line, e.col), line_col(src, i + MARK.len()), "{e}");
        assert!(e.to_string().starts_with(&format!("t.ron:{}:{}: ", e.line, e.col)));
        e
    }

    #[test]
    fn base_scenario_is_valid() {
        check(BASE).unwrap();
    }

    #[test]
    fn sides_count_and_names() {
        expect("(title: \"t\", turn_limit: 1, sides: /*@*/[])", "exactly 2 sides");
        expect(
            &with("name: \"Confederate\"", "name: /*@*/\"Union\""),
            "two sides are named \"Union\"",
        );
    }

    #[test]
    fn duplicate_ids() {
        let e = expect(&with("(id: \"c_inf\"", "(id: /*@*/\"u_inf\""), "duplicate id \"u_inf\"");
        assert!(e.msg.contains("unique across the scenario"));
        expect(&with("(id: \"c_co\"", "(id: /*@*/\"u_gun\""), "duplicate id \"u_gun\"");
    }

    #[test]
    fn unknown_rows() {
        let e = expect(
            &with("\"regular_infantry_smoothbore\"", "/*@*/\"the_bad_id\""),
            "unknown troop row \"the_bad_id\" in ACW Confederate Army",
        );
        assert!(e.msg.contains("regular_infantry_rifled"), "lists the known rows: {e}");
        expect(
            &with(
                "row: \"brigade_average\", pos: (x: 120, y: 170)",
                "row: /*@*/\"bde_bad\", pos: (x: 120, y: 170)",
            ),
            "unknown command row \"bde_bad\"",
        );
        expect(
            &with("row: \"rifled_cannon\"", "row: /*@*/\"limbered_artillery\""),
            "is a limber row",
        );
    }

    #[test]
    fn unit_commanders() {
        expect(
            &with("commander: \"c_co\"", "commander: /*@*/\"u_co\""),
            "unit c_inf: commander \"u_co\" belongs to side Union, not Confederate",
        );
        expect(
            &with("commander: \"c_co\"", "commander: /*@*/\"nobody\""),
            "unknown commander \"nobody\"",
        );
    }

    #[test]
    fn chain_of_command() {
        // No CO at all.
        expect(
            &with(
                "commanders: [\n                (id: \"u_co\", name: \"Gen. A\", row: \"division_average\",",
                "commanders: /*@*/[\n                (id: \"u_co\", name: \"Gen. A\", row: \"division_average\", superior: Some(\"u_bde\"),",
            ),
            "side Union has no CO",
        );
        // Two COs.
        expect(
            &with(
                "(id: \"u_bde\", name: \"Col. B\", row: \"brigade_average\", superior: Some(\"u_co\"),",
                "(id: /*@*/\"u_bde\", name: \"Col. B\", row: \"brigade_average\",",
            ),
            "more than one CO",
        );
        expect(
            &with("superior: Some(\"u_co\")", "superior: Some(/*@*/\"zzz\")"),
            "unknown superior \"zzz\"",
        );
        expect(
            &with("superior: Some(\"u_co\")", "superior: Some(/*@*/\"c_co\")"),
            "superior \"c_co\" is a commander of side Confederate",
        );
        // A loop below the CO.
        let looped = with(
            "superior: Some(\"u_co\"), pos: (x: 100, y: 10)),",
            "superior: Some(/*@*/\"u_x\"), pos: (x: 100, y: 10)),\n                (id: \"u_x\", name: \"Col. X\", row: \"brigade_average\", superior: Some(\"u_bde\"), pos: (x: 90, y: 10)),",
        );
        expect(&looped, "chain of command loops");
        // Only one Army HQ a side.
        let two_army = with(
            "row: \"division_average\", pos: (x: 120, y: 10)),\n                (id: \"u_bde\", name: \"Col. B\", row: \"brigade_average\"",
            "row: \"army_average\", pos: (x: 120, y: 10)),\n                (id: \"u_bde\", name: \"Col. B\", row: /*@*/\"army_uninspiring\"",
        );
        expect(&two_army, "only one Army HQ");
    }

    #[test]
    fn stands_turns_first_side() {
        expect(
            &with(
                "stands: 4, formation: Line, pos: (x: 100, y: 30)",
                "stands: /*@*/0, formation: Line, pos: (x: 100, y: 30)",
            ),
            "0 stands",
        );
        expect(
            &with(
                "stands: 4, formation: Line, pos: (x: 100, y: 30)",
                "stands: /*@*/41, formation: Line, pos: (x: 100, y: 30)",
            ),
            "1..=40 stands",
        );
        expect(
            &with(
                "stands: 1, formation: Line, pos: (x: 140, y: 30)",
                "stands: /*@*/0, formation: Line, pos: (x: 140, y: 30)",
            ),
            "0 guns",
        );
        expect(
            &with("turn_limit: 4,", "turn_limit: /*@*/0,"),
            "turn_limit must be 1 to 100",
        );
        expect(
            &with("turn_limit: 4,", "turn_limit: 4, first_side: /*@*/2,"),
            "first_side 2",
        );
    }

    #[test]
    fn formations() {
        expect(
            &with(
                "stands: 4, formation: Line, pos: (x: 100, y: 30)",
                "stands: 4, formation: /*@*/Square, pos: (x: 100, y: 30)",
            ),
            "square is not used in the American Civil War",
        );
        expect(
            &with(
                "stands: 4, formation: Line, pos: (x: 100, y: 30)",
                "stands: 4, formation: /*@*/Disordered, pos: (x: 100, y: 30)",
            ),
            "Disordered is not a starting formation",
        );
        expect(
            &with(
                "commander: \"c_co\")",
                "commander: \"c_co\", loaded: Some(/*@*/Canister))",
            ),
            "only artillery is loaded",
        );
    }

    #[test]
    fn placement() {
        expect(
            &with("pos: (x: 100, y: 30)", "pos: /*@*/(x: 3, y: 30)"),
            "off the table",
        );
        expect(
            &with("pos: (x: 100, y: 150)", "pos: /*@*/(x: 100, y: 179.5)"),
            "off the table",
        );
        expect(
            &with("pos: (x: 100, y: 30)", "pos: /*@*/(x: NaN, y: 30)"),
            "not a finite coordinate",
        );
        expect(
            &with("pos: (x: 120, y: 170)", "pos: /*@*/(x: 120, y: 180)"),
            "commander c_co at (120.0, 180.0) is off the table",
        );
        expect(
            &with("pos: (x: 100, y: 150)", "pos: /*@*/(x: 101, y: 31)"),
            "overlapping stands: u_inf and c_inf",
        );
        // Touching is not overlapping: two lines of 4 (10 cm wide) side by side.
        check(&with(
            "pos: (x: 100, y: 150), facing: 270",
            "pos: (x: 110, y: 30), facing: 90",
        ))
        .unwrap();
        // A unit in a lake.
        let lake = with(
            "turn_limit: 4,",
            "turn_limit: 4, terrain: (areas: [(kind: Lake, outline: Polygon([(x: 90, y: 25), (x: 110, y: 25), (x: 110, y: 32), (x: 90, y: 32)]))]),",
        )
        .replace("pos: (x: 100, y: 30)", "pos: /*@*/(x: 100, y: 30)");
        expect(&lake, "impassable terrain");
        // Marsh stops guns and horses but not infantry.
        let marsh = |pos: &str| {
            with(
                "turn_limit: 4,",
                "turn_limit: 4, terrain: (areas: [(kind: Marsh, outline: Polygon([(x: 90, y: 25), (x: 150, y: 25), (x: 150, y: 35), (x: 90, y: 35)]))]),",
            )
            .replace(pos, &format!("{MARK}{pos}"))
        };
        let e = check(&marsh("(x: 100, y: 30)")).unwrap_err();
        assert!(e.msg.contains("u_gun"), "infantry may stand in marsh: {e}");
        expect(&marsh("(x: 140, y: 30)"), "unit u_gun: a base at");
    }

    #[test]
    fn objectives() {
        let obj = |side: &str, pos: &str| {
            with(
                "turn_limit: 4,",
                &format!("turn_limit: 4, objectives: [(name: \"Hill\", side: {side}, level: Major, pos: {pos})],"),
            )
        };
        check(&obj("\"Union\"", "(x: 10, y: 10)")).unwrap();
        expect(
            &obj("/*@*/\"Yankees\"", "(x: 10, y: 10)"),
            "no side is named \"Yankees\"",
        );
        expect(&obj("\"Union\"", "/*@*/(x: 241, y: 10)"), "off the table");
    }

    #[test]
    fn polygons_and_hills() {
        let ter = |t: &str| with("turn_limit: 4,", &format!("turn_limit: 4, terrain: ({t}),"));
        expect(
            &ter("buildings: [(outline: Polygon(/*@*/[(x: 0, y: 0), (x: 1, y: 1)]))]"),
            "at least 3 points",
        );
        expect(
            &ter("areas: [(kind: Woods, outline: Polygon([(x: 0, y: 0), /*@*/(x: inf, y: 1), (x: 2, y: 0)]))]"),
            "point 1 is not a finite coordinate",
        );
        let hill = |c2: &str, h2: u32| {
            ter(&format!(
                "hills: [(name: \"Round Top\", contours: [\
                 (height: 1, outline: Polygon([(x: 0, y: 0), (x: 20, y: 0), (x: 20, y: 20), (x: 0, y: 20)])), \
                 (height: {h2}, outline: Polygon([{c2}]))])]"
            ))
        };
        check(&hill("(x: 5, y: 5), (x: 15, y: 5), (x: 15, y: 15)", 2)).unwrap();
        let e = check(&hill("(x: 5, y: 5), (x: 15, y: 5), (x: 15, y: 15)", 1)).unwrap_err();
        assert!(e.msg.contains("must be above the contour below"), "{e}");
        expect(
            &hill("(x: 5, y: 5), /*@*/(x: 25, y: 5), (x: 15, y: 15)", 2),
            "Round Top: contour 1 point 1 (25.0, 5.0) lies outside contour 0",
        );
        expect(
            &ter("linears: [(kind: Road, points: /*@*/[(x: 0, y: 0)])]"),
            "at least 2 points",
        );
    }

    #[test]
    fn table_size() {
        expect(
            &with("turn_limit: 4,", "turn_limit: 4, table: /*@*/(width: NaN, height: 10),"),
            "table width",
        );
        expect(
            &with("turn_limit: 4,", "turn_limit: 4, table: /*@*/(width: 0, height: 10),"),
            "table width",
        );
    }

    #[test]
    fn syntax_errors_have_places() {
        let e = check(&with(
            "stands: 4, formation: Line, pos: (x: 100, y: 30)",
            "stands: 4, formation: Lime, pos: (x: 100, y: 30)",
        ))
        .unwrap_err();
        assert_eq!(e.line, 13, "{e}");
        assert!(e.col > 1, "{e}");
        let e = check(&with("turn_limit: 4,", "turn_limit: 99999999999999999999,")).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = check("").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1), "{e}");
    }

    #[test]
    fn army_files_are_complete_and_exact() {
        let [u, c]: [ArmyList; 2] = armies().try_into().unwrap();
        assert_eq!(u.name, "ACW Union Army");
        assert_eq!(c.name, "ACW Confederate Army");
        assert_eq!((u.troops.len(), u.commands.len()), (20, 12));
        assert_eq!((c.troops.len(), c.commands.len()), (16, 12));
        assert_eq!((u.exceptional_per_level, c.exceptional_per_level), (Some(1), Some(2)));
        let t = u.troop("regular_infantry_rifled").unwrap();
        assert_eq!(
            (t.movement, t.attacks, t.range, t.hits, t.save),
            (10.0, 1, 20.0, 3, None)
        );
        assert_eq!(
            (t.points, t.limit.as_deref(), t.notes.as_slice()),
            (Some(60), Some("4/-"), &[1, 14][..])
        );
        let t = u.troop("skirmishing_infantry_rifled").unwrap();
        assert_eq!((t.movement, t.save), (12.0, Some(5)));
        assert!(t.has(Trait::Sharpshooter) && t.has(Trait::Rifled));
        let t = u.troop("us_cavalry_1862").unwrap();
        assert!(t.has(Trait::Mounted) && t.has(Trait::Sabre));
        assert_eq!(t.dismounts_to.as_deref(), Some("us_cavalry_1862_dismounted"));
        let t = u.troop("us_cavalry_1861").unwrap();
        assert!(t.has(Trait::ScenarioOnly) && !t.has(Trait::Sabre) && t.hits == 1);
        let t = c.troop("cs_cavalry").unwrap();
        assert!(t.has(Trait::Mounted) && !t.has(Trait::Sabre));
        assert!(
            c.troop(t.dismounts_to.as_deref().unwrap())
                .unwrap()
                .has(Trait::Dismounted)
        );
        for a in [&u, &c] {
            let l = a.troop("limbered_artillery").unwrap();
            assert_eq!(
                (l.arm, l.movement, l.movement_alt, l.attacks, l.range),
                (Arm::Transport, 15.0, Some(30.0), 0, 0.0)
            );
            assert!(l.has(Trait::Limber));
            let r = a.troop("rifled_cannon").unwrap();
            assert_eq!((r.movement, r.movement_alt, r.range), (3.0, Some(10.0), 75.0));
            assert!(a.troop("howitzers").unwrap().has(Trait::Howitzer));
            assert!(a.troop("mortar").unwrap().has(Trait::Mortar));
            assert!(a.troop("rifled_siege_cannon").unwrap().has(Trait::Siege));
            assert!(a.troops.iter().all(|t| !t.has(Trait::Lancer)));
            for lvl in ["brigade", "division", "corps", "army"] {
                for q in ["uninspiring", "average", "exceptional"] {
                    let r = a.command(&format!("{lvl}_{q}")).unwrap();
                    assert_eq!((r.movement, r.movement_mounted, r.hits), (10.0, 30.0, 6));
                }
            }
            let ax = a.command("army_exceptional").unwrap();
            assert_eq!(
                (ax.command, ax.attack_bonus, ax.save, ax.points),
                (11, 3, Some(5), Some(170))
            );
            let b = a.command("brigade_uninspiring").unwrap();
            assert_eq!((b.command, b.attack_bonus, b.save, b.points), (6, 0, Some(6), Some(30)));
            assert_eq!(a.notes.len(), 18);
        }
        assert_eq!(c.troop("rifled_cannon").unwrap().attacks, 1);
        assert_eq!(u.troop("rifled_cannon").unwrap().attacks, 2);
        assert_eq!(
            u.command("brigade_average").unwrap().limit.as_deref(),
            Some("1 per 3 Inf")
        );
        assert_eq!(
            c.command("corps_average").unwrap().limit.as_deref(),
            Some("1 per 36 Inf")
        );
        assert!(u.troop("gatling_gun").unwrap().has(Trait::ScenarioOnly));
    }

    #[test]
    fn army_errors_have_places() {
        let p = Path::new("a.ron");
        let bad = UNION.replacen("id: \"us_engineers\"", "id: \"regular_infantry_rifled\"", 1);
        let a: ArmyList = parse_ron(&bad, p).unwrap();
        let e = validate_army(&bad, p, &a).unwrap_err();
        assert!(e.msg.contains("duplicate troop id"), "{e}");
        let i = bad
            .find("\"regular_infantry_rifled\",\n            name: \"US Engineers\"")
            .unwrap();
        assert_eq!((e.line, e.col), line_col(&bad, i));
        let bad = UNION.replacen("Some(\"us_cavalry_1862_dismounted\")", "Some(\"nope\")", 1);
        let a: ArmyList = parse_ron(&bad, p).unwrap();
        let e = validate_army(&bad, p, &a).unwrap_err();
        assert!(e.msg.contains("unknown row \"nope\""), "{e}");
        assert_eq!((e.line, e.col), line_col(&bad, bad.find("\"nope\"").unwrap()));
    }

    #[test]
    fn unit_rects_cover_every_base() {
        let a = armies();
        let fp = Footprints::default();
        let sc: Scenario = parse_ron(BASE, Path::new("t.ron")).unwrap();
        let inf = &sc.sides[0].units[0];
        let rects = unit_rects(inf, a[0].troop(&inf.row).unwrap(), &fp);
        assert_eq!(rects.len(), 5); // 4 stands + command stand
        assert!(
            rects
                .iter()
                .all(|r| (r.facing - std::f64::consts::FRAC_PI_2).abs() < 1e-12)
        );
        let gun = &sc.sides[0].units[1];
        assert_eq!(gun.loaded, Some(Ammo::Shot));
        let rects = unit_rects(gun, a[0].troop(&gun.row).unwrap(), &fp);
        assert_eq!(rects.len(), 2); // gun + limber
        assert_eq!((rects[1].width, rects[1].depth), (2.5, 3.5));
        let siege = a[0].troop("rifled_siege_cannon").unwrap();
        assert_eq!(unit_rects(gun, siege, &fp).len(), 1); // no limber
        let mut cav = inf.clone();
        cav.stands = 3;
        let rects = unit_rects(&cav, a[0].troop("us_cavalry_1862").unwrap(), &fp);
        assert_eq!((rects[0].width, rects[0].depth), (3.5, 2.0));
        let dis = unit_rects(&cav, a[0].troop("us_cavalry_1862_dismounted").unwrap(), &fp);
        assert_eq!((dis[0].width, dis[0].depth), (2.5, 1.5));
    }

    #[test]
    fn skirmish_is_valid_and_complete() {
        check(SKIRMISH).unwrap_or_else(|e| panic!("{e}"));
        let sc: Scenario = parse_ron(SKIRMISH, Path::new("skirmish.ron")).unwrap();
        assert_eq!((sc.turn_limit, sc.table.width, sc.table.height), (12, 240.0, 180.0));
        let a = armies();
        for (s, army) in sc.sides.iter().zip(&a) {
            // Fighting stands (guns included), and every base (command stands and limbers too).
            let fighting: u32 = s.units.iter().map(|u| u.stands).sum();
            let bases: usize = s
                .units
                .iter()
                .map(|u| unit_rects(u, army.troop(&u.row).unwrap(), &Footprints::default()).len())
                .sum();
            assert!((35..=45).contains(&fighting), "{}: {fighting} stands", s.name);
            assert!(bases <= 50, "{}: {bases} bases", s.name);
            assert!(s.units.iter().any(|u| army.troop(&u.row).unwrap().has(Trait::Mounted)));
            assert!(
                s.units
                    .iter()
                    .any(|u| army.troop(&u.row).unwrap().has(Trait::Sharpshooter))
            );
            assert!(
                s.units
                    .iter()
                    .any(|u| army.troop(&u.row).unwrap().arm == Arm::Artillery)
            );
        }
        // Grades are shown (the 83rd Pennsylvania is elite; the 47th North Carolina was poor
        // until the revision of issue 66, which made the skirmish fairer).
        assert!(sc.sides.iter().flat_map(|s| &s.units).any(|u| u.grade.is_some()));
        let t = &sc.terrain;
        for k in [
            AreaKind::Field,
            AreaKind::Scrub,
            AreaKind::Woods,
            AreaKind::Orchard,
            AreaKind::BuiltUp,
            AreaKind::Marsh,
            AreaKind::Mud,
            AreaKind::Lake,
        ] {
            assert!(t.areas.iter().any(|a| a.kind == k), "{k:?}");
        }
        for k in [
            LinearKind::Wall,
            LinearKind::Fence,
            LinearKind::Hedge,
            LinearKind::Road,
            LinearKind::Stream,
            LinearKind::River,
        ] {
            assert!(t.linears.iter().any(|l| l.kind == k), "{k:?}");
        }
        // The roads cross the river (a bridge) and the stream (a ford).
        let crosses = |a: LinearKind, b: LinearKind| {
            t.linears.iter().filter(|l| l.kind == a).any(|l| {
                t.linears.iter().filter(|m| m.kind == b).any(|m| {
                    l.points.windows(2).any(|p| {
                        m.points
                            .windows(2)
                            .any(|q| crate::rules::geometry::segments_intersect(p[0], p[1], q[0], q[1]))
                    })
                })
            })
        };
        assert!(crosses(LinearKind::Road, LinearKind::River));
        assert!(crosses(LinearKind::Road, LinearKind::Stream));
        assert!(t.hills.len() >= 2 && t.hills.iter().any(|h| h.contours.len() >= 2));
        assert!(t.buildings.len() >= 2);
        for s in ["Union", "Confederate"] {
            use crate::data::scenario::ObjectiveLevel::{Major, Minor};
            for lvl in [Major, Minor] {
                assert!(sc.objectives.iter().any(|o| o.side == s && o.level == lvl));
            }
        }
    }

    /// Paths into a scenario's text: every kind of place an error can name, some that run past
    /// what the text has.
    fn scenario_paths(sc: &Scenario) -> Vec<Vec<Seg<'static>>> {
        use Seg::{Field as F, Index as I, Newtype as N};
        let mut v: Vec<Vec<Seg>> = vec![
            vec![],
            vec![F("title")],
            vec![F("brief")],
            vec![F("terrain")],
            vec![F("objectives")],
            vec![F("nope")],
            vec![F("sides"), I(9)],
            vec![F("title"), I(0)],
        ];
        let t = &sc.terrain;
        for (i, a) in t.areas.iter().enumerate() {
            for k in 0..=a.outline.0.len() {
                v.push(vec![F("terrain"), F("areas"), I(i), F("outline"), N, I(k)]);
            }
            v.push(vec![F("terrain"), F("areas"), I(i), F("outline")]);
            v.push(vec![F("terrain"), F("areas"), I(i), F("name")]);
        }
        for (i, l) in t.linears.iter().enumerate() {
            for k in 0..=l.points.len() {
                v.push(vec![F("terrain"), F("linears"), I(i), F("points"), I(k)]);
            }
            v.push(vec![F("terrain"), F("linears"), I(i), F("width")]);
        }
        for (i, h) in t.hills.iter().enumerate() {
            for (k, ct) in h.contours.iter().enumerate() {
                v.push(vec![F("terrain"), F("hills"), I(i), F("contours"), I(k), F("height")]);
                for j in 0..ct.outline.0.len() {
                    v.push(vec![
                        F("terrain"),
                        F("hills"),
                        I(i),
                        F("contours"),
                        I(k),
                        F("outline"),
                        N,
                        I(j),
                    ]);
                }
            }
        }
        for i in 0..t.buildings.len() {
            v.push(vec![F("terrain"), F("buildings"), I(i), F("outline"), N]);
        }
        for i in 0..sc.objectives.len() {
            v.push(vec![F("objectives"), I(i), F("radius")]);
            v.push(vec![F("objectives"), I(i), F("pos"), F("y")]);
        }
        for (i, s) in sc.sides.iter().enumerate() {
            v.push(vec![F("sides"), I(i), F("deployment"), N, I(2)]);
            v.push(vec![F("sides"), I(i), F("obeys")]);
            v.push(vec![F("sides"), I(i), F("obeys"), I(0)]);
            v.push(vec![F("sides"), I(i), F("obeys"), I(0), I(0)]);
            for k in 0..s.commanders.len() {
                v.push(vec![F("sides"), I(i), F("commanders"), I(k), F("superior")]);
                v.push(vec![F("sides"), I(i), F("commanders"), I(k), F("pos")]);
            }
            for k in 0..s.units.len() {
                for f in ["id", "name", "pos", "facing", "nation", "loaded", "grade", "stands"] {
                    v.push(vec![F("sides"), I(i), F("units"), I(k), F(f)]);
                }
            }
        }
        v
    }

    #[test]
    fn the_cheap_locator_finds_what_the_span_map_finds() {
        let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps");
        let mut texts: Vec<String> = vec![BASE.to_string()];
        for f in std::fs::read_dir(&maps).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "ron") {
                texts.push(std::fs::read_to_string(f).unwrap());
            }
        }
        let mut n = 0;
        for text in &texts {
            let sc: Scenario = parse_ron(text, Path::new("t.ron")).unwrap_or_else(|e| panic!("{e}"));
            let spans = RonSpans::new(text);
            for p in scenario_paths(&sc) {
                assert_eq!(offset_cheap(text, &p), spans.offset(&p), "{p:?} in {}", &text[..60]);
                n += 1;
            }
        }
        assert!(n > 1000, "{n} paths");
        for army in [UNION, CONFED] {
            let spans = RonSpans::new(army);
            use Seg::{Field as F, Index as I};
            for p in [
                vec![F("troops"), I(3), F("id")],
                vec![F("troops"), I(3), F("save")],
                vec![F("troops"), I(3), F("notes"), I(1)],
                vec![F("commands"), I(5), F("limit")],
                vec![F("notes"), I(2), I(1)],
                vec![F("notes"), I(200)],
            ] {
                assert_eq!(offset_cheap(army, &p), spans.offset(&p), "{p:?}");
            }
        }
        // Comments, strings holding brackets and quotes, raw strings, maps, named structs.
        let t = "// c (x: 9)\n#![enable(implicit_some)]\nDoc(\n  name: \"a ( [ \\\" \", // (x: 9)\n  pts: [\n    (x: 1, y: 2),\n    Pt(x: 3, /* ) */ y: 4),\n  ],\n  opt: Some(7),\n  poly: Polygon([(x: 0, y: 0), (x: 1, y: 1)]),\n  s: r#\"a\"b)\"#, c: ')', t: (1, \"two\"), m: {\"k\": [1, 2], \"j\": 3},\n)";
        let spans = RonSpans::new(t);
        use Seg::{Field as F, Index as I, Newtype as N};
        for p in [
            vec![],
            vec![F("name")],
            vec![F("pts"), I(1)],
            vec![F("pts"), I(1), F("y")],
            vec![F("opt")],
            vec![F("poly"), N, I(1)],
            vec![F("poly"), N],
            vec![F("s")],
            vec![F("c")],
            vec![F("t"), I(1)],
            vec![F("m"), I(1)],
            vec![F("m"), I(0), I(1)],
            vec![F("pts"), I(9)],
            vec![F("nope")],
        ] {
            assert_eq!(offset_cheap(t, &p), spans.offset(&p), "{p:?}");
        }
        // Broken or hostile text: an answer, no panic.
        for bad in [
            "",
            "(",
            "(a: [",
            "(a: \"",
            "(a: r#\"",
            "([[[[",
            "/*",
            "(a: 1, b: (c: ",
            "Some(Some(",
        ] {
            let _ = offset_cheap(bad, &[F("a"), I(3), F("c")]);
        }
    }

    #[test]
    fn limits_are_refused_at_their_place_before_anything_else() {
        let line = |n: usize| {
            let pts: Vec<String> = (0..n).map(|i| format!("(x: {i}, y: 1)")).collect();
            with(
                "turn_limit: 4,",
                &format!(
                    "turn_limit: 4, terrain: (linears: [(kind: Hedge, points: /*@*/[{}])]),",
                    pts.join(", ")
                ),
            )
        };
        check(&line(MAX_LINE_POINTS)).unwrap();
        expect(&line(MAX_LINE_POINTS + 1), "1001 points; a line has at most 1000");
        // Counted before the sides are looked at.
        let e = check(&line(MAX_LINE_POINTS + 1).replace("name: \"Confederate\"", "name: \"Union\""));
        assert!(e.unwrap_err().msg.contains("a line has at most"));
        let contours: Vec<String> = (0..=MAX_CONTOURS)
            .map(|k| {
                format!(
                    "(height: {}, outline: Polygon([(x: 0, y: 0), (x: 1, y: 0), (x: 1, y: 1)]))",
                    k + 1
                )
            })
            .collect();
        expect(
            &with(
                "turn_limit: 4,",
                &format!(
                    "turn_limit: 4, terrain: (hills: [(contours: /*@*/[{}])]),",
                    contours.join(", ")
                ),
            ),
            "hill 0: 21 contours; a hill has at most 20",
        );
        let poly = |n: usize| {
            let pts: Vec<String> = (0..n)
                .map(|i| {
                    let a = i as f64 / n as f64 * std::f64::consts::TAU;
                    format!("(x: {}, y: {})", 50.0 + 20.0 * a.cos(), 90.0 + 20.0 * a.sin())
                })
                .collect();
            format!("(kind: Field, outline: Polygon(/*@*/[{}]))", pts.join(", "))
        };
        let ter = |areas: &str| {
            with(
                "turn_limit: 4,",
                &format!("turn_limit: 4, terrain: (areas: [{areas}]),"),
            )
        };
        expect(
            &ter(&poly(MAX_POLYGON_POINTS + 1)),
            "501 points; a polygon has at most 500",
        );
        let many = vec![poly(MAX_POLYGON_POINTS).replace(MARK, ""); MAX_TERRAIN_POINTS / MAX_POLYGON_POINTS + 1];
        let e = check(&ter(&many.join(", "))).unwrap_err();
        assert!(
            e.msg.contains("10500 points in all; a scenario has at most 10000"),
            "{e}"
        );
        let objectives: Vec<String> = (0..=MAX_OBJECTIVES)
            .map(|_| "(name: \"Hill\", side: \"Union\", level: Major, pos: (x: 10, y: 10))".to_string())
            .collect();
        expect(
            &with(
                "turn_limit: 4,",
                &format!("turn_limit: 4, objectives: /*@*/[{}],", objectives.join(", ")),
            ),
            "101 objectives",
        );
    }

    #[test]
    fn lists_too_long_are_refused_before_parsing() {
        let p = Path::new("t.ron");
        let list = |n: usize| {
            (0..n)
                .map(|i| format!("(x: {i}, y: \"a, [b]\")"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        precheck_lists(&format!("(points: [{}])", list(MAX_LIST_ITEMS)), p).unwrap();
        precheck_lists(&format!("(points: [{},])", list(MAX_LIST_ITEMS)), p).unwrap();
        let t = format!("(a: 1, // [x, y]\n /* [ */ points: [{}])", list(MAX_LIST_ITEMS + 1));
        let e = precheck_lists(&t, p).unwrap_err();
        assert_eq!(
            e.msg,
            "`points`: more than 2000 points in one list; a line has at most 1000"
        );
        assert_eq!((e.line, e.col), (2, 18), "{e}");
        let e = precheck_lists(
            &format!(
                "(obeys: {{{}}})",
                (0..=MAX_LIST_ITEMS)
                    .map(|i| format!("\"{i}\": []"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            p,
        )
        .unwrap_err();
        assert!(e.msg.starts_with("`obeys`: more than 2000 items"), "{e}");
        // Many lists, each short enough, but too many items in all.
        let many = format!("(a: [{}])", vec![format!("[{}]", list(1000)); 51].join(", "));
        let e = precheck_lists(&many, p).unwrap_err();
        assert!(e.msg.starts_with("more than 50000 items"), "{e}");
        // A struct's fields are not a list; strings and comments hold no items.
        precheck_lists(
            &format!(
                "({})",
                (0..5000).map(|i| format!("f{i}: 1")).collect::<Vec<_>>().join(", ")
            ),
            p,
        )
        .unwrap();
        precheck_lists(
            &format!("(s: \"{}\", r: r#\"[{}]\"#)", "[1],".repeat(5000), ",".repeat(5000)),
            p,
        )
        .unwrap();
        for bad in ["", "[", "]]]", "(a: \"", "(a: r#\"", "/*", "[,,,,]"] {
            let _ = precheck_lists(bad, p);
        }
        // Every bundled file passes.
        for dir in ["maps", "assets/armies"] {
            for f in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "ron") {
                    precheck_lists(&std::fs::read_to_string(&f).unwrap(), &f).unwrap();
                }
            }
        }
    }

    #[test]
    fn names_texts_lines_and_facings() {
        expect(&with("name: \"1st\"", "name: /*@*/\"\""), "unit u_inf's name is empty");
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        let e = expect(
            &with("name: \"1st\"", &format!("name: /*@*/\"{long}\"")),
            "81 characters; a name has at most 80",
        );
        assert!(e.msg.len() < 200, "{e}");
        check(&with(
            "name: \"1st\"",
            &format!("name: \"{}\"", "x".repeat(MAX_NAME_CHARS)),
        ))
        .unwrap();
        expect(
            &with("name: \"1st\"", "name: /*@*/\"1st\u{202e}\""),
            "bidi or invisible format character \\u{202e}",
        );
        expect(&with("title: \"Test\"", "title: /*@*/\"Te\u{2066}st\""), "\\u{2066}");
        expect(
            &with("title: \"Test\",", "title: \"Test\", brief: /*@*/\"a\\u{202e}b\","),
            "\\u{202e}",
        );
        let brief = "y".repeat(MAX_TEXT_CHARS + 1);
        expect(
            &with(
                "title: \"Test\",",
                &format!("title: \"Test\", brief: /*@*/\"{brief}\","),
            ),
            "a text has at most 5000",
        );
        let ter = |t: &str| with("turn_limit: 4,", &format!("turn_limit: 4, terrain: ({t}),"));
        expect(
            &ter("linears: [(kind: Fence, points: [(x: 1, y: 1), /*@*/(x: 1, y: 1)])]"),
            "Fence 0: point 1 repeats point 0 (1.0, 1.0)",
        );
        check(&ter(
            "linears: [(kind: Fence, points: [(x: 1, y: 1), (x: 2, y: 1), (x: 1, y: 1)])]",
        ))
        .unwrap();
        expect(
            &ter("linears: [(kind: Road, points: [(x: 1, y: 1), /*@*/(x: 1e7, y: 1)])]"),
            "(10000000.0, 1.0) lies beyond ±1000000 cm",
        );
        expect(
            &ter("buildings: [(outline: Polygon([(x: 0, y: 0), (x: 4, y: 0), (x: 4, y: 4), /*@*/(x: 0, y: 0)]))]"),
            "point 3 repeats point 0 (0.0, 0.0)",
        );
        expect(
            &ter("buildings: [(outline: Polygon([(x: 0, y: 0), (x: 4, y: 0), /*@*/(x: 4, y: 0), (x: 4, y: 4)]))]"),
            "point 2 repeats point 1",
        );
        expect(
            &with(
                "facing: 90, commander: \"u_bde\"",
                "facing: /*@*/7200.5, commander: \"u_bde\"",
            ),
            "facing 7200.5 is beyond ±3600 degrees",
        );
        expect(
            &with(
                "facing: 90, commander: \"u_bde\"",
                "facing: /*@*/inf, commander: \"u_bde\"",
            ),
            "facing is not a finite number",
        );
        expect(
            &with("pos: (x: 100, y: 30)", "pos: /*@*/(x: -2e6, y: 30)"),
            "unit u_inf: position (-2000000.0, 30.0) lies beyond ±1000000 cm",
        );
    }

    #[test]
    fn nations_name_what_the_side_has() {
        let nat = |unit: &str, cmd: &str, obeys: &str| {
            with("name: \"Union\",", &format!("name: \"Union\", obeys: {obeys},"))
                .replace("commander: \"u_bde\")", &format!("commander: \"u_bde\"{unit})"))
                .replace(
                    "superior: Some(\"u_co\"), pos: (x: 100, y: 10))",
                    &format!("superior: Some(\"u_co\"), pos: (x: 100, y: 10){cmd})"),
                )
        };
        check(&nat(", nation: Some(\"Irish\")", "", "{\"Irish\": [\"Union\"]}")).unwrap();
        check(&nat(", nation: Some(\"Irish\")", ", nation: Some(\"Irish\")", "{}")).unwrap();
        expect(
            &nat(", nation: Some(/*@*/\"Irish\")", "", "{}"),
            "unit u_inf: nation \"Irish\" is no commander's on side Union",
        );
        expect(
            &nat("", ", nation: Some(/*@*/\"Irish\")", "{}"),
            "commander u_bde: nation \"Irish\" is no unit's on side Union",
        );
        expect(
            &nat(", nation: Some(\"Irish\")", "", "{/*@*/\"Irsh\": [\"Union\"]}"),
            "`obeys` names the nation \"Irsh\"",
        );
        expect(
            &nat(", nation: Some(\"Irish\")", "", "{\"Irish\": [/*@*/\"Unon\"]}"),
            "obey the nation \"Unon\"",
        );
        expect(
            &nat(", nation: Some(/*@*/\"\")", "", "{}"),
            "unit u_inf's nation is empty",
        );
    }

    #[test]
    fn docs_example_is_valid() {
        let doc = include_str!("../../docs/scenario-format.md");
        let start = doc.rfind("```ron\n").expect("the guide ends with an example") + 7;
        let len = doc[start..].find("```").unwrap();
        check(&doc[start..start + len]).unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn load_scenario_from_disk() {
        let dir = std::env::temp_dir().join(format!("volley-data-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("acw_union.ron"), UNION).unwrap();
        std::fs::write(dir.join("acw_confederate.ron"), CONFED).unwrap();
        let map = dir.join("skirmish.ron");
        std::fs::write(&map, SKIRMISH).unwrap();
        let fp = Footprints::default();
        let l = load_scenario(&map, &dir, &fp).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(l.armies[1].name, "ACW Confederate Army");
        assert_eq!(l.text, SKIRMISH);
        assert_eq!(l.content_hash, load_scenario(&map, &dir, &fp).unwrap().content_hash);
        assert_ne!(
            l.content_hash,
            content_hash(SKIRMISH.as_bytes()),
            "armies are pinned too"
        );
        // A missing army list is reported at the `army:` value.
        let src = with("army: \"acw_confederate\"", "army: /*@*/\"acw_nowhere\"");
        let bad = dir.join("bad.ron");
        std::fs::write(&bad, &src).unwrap();
        let e = load_scenario(&bad, &dir, &fp).unwrap_err();
        assert!(e.msg.starts_with("army list not found: "), "{e}");
        let i = src.find(MARK).unwrap();
        assert_eq!((e.line, e.col), line_col(&src, i + MARK.len()));
        let src = with("army: \"acw_confederate\"", "army: \"../acw_union\"");
        std::fs::write(&bad, &src).unwrap();
        assert!(load_scenario(&bad, &dir, &fp).unwrap_err().msg.contains("file stem"));
        // A missing scenario has no place.
        let e = load_scenario(&dir.join("none.ron"), &dir, &fp).unwrap_err();
        assert_eq!((e.line, e.col), (0, 0));
        let e = load_army(&dir.join("none.ron")).unwrap_err();
        assert!(e.msg.starts_with("cannot read"));
        // Not UTF-8.
        std::fs::write(&bad, b"(title: \"a\xff\"").unwrap();
        let e = load_scenario(&bad, &dir, &fp).unwrap_err();
        assert_eq!((e.line, e.col, e.msg.as_str()), (1, 11, "file is not valid UTF-8 text"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn validate_scenario_file_refuses_what_load_scenario_refuses() {
        let dir = std::env::temp_dir().join(format!("volley-data-file-test-{}", std::process::id()));
        let armies_dir = dir.join("armies");
        std::fs::create_dir_all(&armies_dir).unwrap();
        std::fs::create_dir_all(dir.join("rules")).unwrap();
        std::fs::write(armies_dir.join("acw_union.ron"), UNION).unwrap();
        std::fs::write(armies_dir.join("acw_confederate.ron"), CONFED).unwrap();
        std::fs::write(dir.join("rules").join("house.ron"), "()").unwrap();
        let fp = Footprints::default();
        let map = dir.join("t.ron");
        let both = |src: &str| {
            std::fs::write(&map, src).unwrap();
            let loaded = load_scenario(&map, &armies_dir, &fp).map(|_| ());
            let sc: Scenario = parse_ron(src, &map).unwrap();
            let checked = validate_scenario_file(src, &map, &sc, &armies(), &armies_dir, &fp);
            assert_eq!(loaded, checked, "{src}");
            checked
        };
        both(BASE).unwrap();
        both(SKIRMISH).unwrap();
        // The checks validate_scenario does not make: a side with no units, the rules stem and
        // file, the army stem and file; and one it does (a unit overlapping another).
        let cases = [
            with("title: \"Test\",", "title: \"Test\", rules: Some(\"house\"),"),
            with("title: \"Test\",", "title: \"Test\", rules: Some(\"../house\"),"),
            with("title: \"Test\",", "title: \"Test\", rules: Some(\"nowhere\"),"),
            with("army: \"acw_union\"", "army: \"acw union\""),
            with("army: \"acw_confederate\"", "army: \"acw_nowhere\""),
            BASE.replace(
                "(id: \"c_inf\", name: \"2nd\", row: \"regular_infantry_smoothbore\", stands: 4, formation: Line, pos: (x: 100, y: 150), facing: 270, commander: \"c_co\"),",
                "",
            ),
            with("pos: (x: 100, y: 150)", "pos: (x: 100, y: 31)"),
        ];
        let msgs: Vec<String> = cases
            .iter()
            .map(|src| both(src).map_or_else(|e| e.msg, |_| "ok".into()))
            .collect();
        assert_eq!(msgs[0], "ok");
        assert!(msgs[1].contains("must be a file stem in assets/rules/"), "{msgs:?}");
        assert!(msgs[2].starts_with("rules file not found"), "{msgs:?}");
        assert!(msgs[3].contains("must be a file stem"), "{msgs:?}");
        assert!(msgs[4].starts_with("army list not found"), "{msgs:?}");
        assert!(msgs[5].contains("has no units"), "{msgs:?}");
        assert!(msgs[6].starts_with("overlapping stands"), "{msgs:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn random_text_never_panics(s in "\\PC*") {
            let _ = check(&s);
        }

        #[test]
        fn ron_like_text_never_panics(s in "[()\\[\\]{}:,\"a-z0-9_ .\\-/*#!\n]{0,200}") {
            let _ = check(&s);
        }

        #[test]
        fn truncated_skirmish_never_panics(cut in 0usize..SKIRMISH.len()) {
            let mut end = cut;
            while !SKIRMISH.is_char_boundary(end) {
                end -= 1;
            }
            let r = check(&SKIRMISH[..end]);
            if end < SKIRMISH.len() - 2 {
                prop_assert!(r.is_err());
            }
        }

        #[test]
        fn mutated_skirmish_never_panics(at in 0usize..SKIRMISH.len(), with in "[0-9a-z()\\[\\],:.\"-]{1,3}") {
            let mut end = at;
            while !SKIRMISH.is_char_boundary(end) {
                end -= 1;
            }
            let s = format!("{}{}{}", &SKIRMISH[..end], with, &SKIRMISH[end..]);
            if let Err(e) = check(&s) {
                prop_assert!(e.line >= 1 && e.col >= 1, "{}", e);
            }
        }
    }

    #[test]
    fn an_area_is_named_in_a_players_words() {
        use crate::rules::terrain::AreaKind;
        assert_eq!(area_words(AreaKind::Orchard, 3), "Orchard area 3");
        assert_eq!(area_words(AreaKind::BuiltUp, 2), "Built-up area 2");
    }
}
