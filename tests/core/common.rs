//! Building small battles in code from the real army lists and rules file.

use volley::battle::Battle;
use volley::battle::state::{Phase, Step};
use volley::data::army::ArmyList;
use volley::data::scenario::{CommanderSpec, Scenario, SideSpec, TableSize, UnitSpec, Weather};
use volley::data::validate::{LoadedScenario, validate_scenario};
use volley::rules::dice::Dice;
use volley::rules::formation::Formation;
use volley::rules::geometry::V2;
use volley::rules::terrain::Terrain;

pub fn army(stem: &str) -> ArmyList {
    let p = volley::assets_dir().join("armies").join(format!("{stem}.ron"));
    volley::data::load_army(&p).expect("army list loads")
}

/// A unit to place: side (0 Union, 1 Confederate), troop row, stands, formation, centre, facing°.
#[derive(Clone)]
pub struct U {
    pub side: usize,
    pub row: &'static str,
    pub stands: u32,
    pub formation: Formation,
    pub x: f64,
    pub y: f64,
    pub facing: f64,
}

pub fn u(side: usize, row: &'static str, stands: u32, x: f64, y: f64, facing: f64) -> U {
    U {
        side,
        row,
        stands,
        formation: Formation::Line,
        x,
        y,
        facing,
    }
}

/// Commander ids in the fixture: CO of side s = 2s, its brigade HQ = 2s + 1.
pub const CO0: u32 = 0;
pub const HQ0: u32 = 1;

/// A battle with a CO and a brigade HQ a side (units belong to the HQ) (Union at the bottom edge, Confederates at the top), the units,
/// the terrain, at the start of side 0's first command phase unless `initiative` is asked.
pub fn battle_with(units: &[U], terrain: Terrain, co: [(f64, f64); 2], hq: [(f64, f64); 2]) -> Battle {
    battle_switched(units, terrain, co, hq, &[])
}

/// [`battle_with`], with optional rules on (issue 8).
pub fn battle_switched(
    units: &[U],
    terrain: Terrain,
    co: [(f64, f64); 2],
    hq: [(f64, f64); 2],
    switches: &[volley::rules::switches::Switch],
) -> Battle {
    let mut sides = Vec::new();
    for s in 0..2 {
        let us: Vec<UnitSpec> = units
            .iter()
            .enumerate()
            .filter(|(_, x)| x.side == s)
            .map(|(i, x)| UnitSpec {
                id: format!("u{i}"),
                name: format!("{} {i}", if s == 0 { "Union" } else { "Reb" }),
                row: x.row.to_string(),
                stands: x.stands,
                formation: x.formation,
                pos: V2::new(x.x, x.y),
                facing: x.facing,
                commander: format!("hq{s}"),
                grade: None,
                morale: None,
                nation: None,
                scout: false,
                limbered: false,
                loaded: None,
                dug_in: false,
            })
            .collect();
        sides.push(SideSpec {
            name: if s == 0 { "Union".into() } else { "Confederate".into() },
            army: if s == 0 {
                "acw_union".into()
            } else {
                "acw_confederate".into()
            },
            deployment: None,
            commanders: vec![
                CommanderSpec {
                    id: format!("co{s}"),
                    name: format!("General {s}"),
                    row: "division_average".into(),
                    superior: None,
                    pos: V2::new(co[s].0, co[s].1),
                    mounted: true,
                    nation: None,
                    formation: None,
                },
                CommanderSpec {
                    id: format!("hq{s}"),
                    name: format!("Colonel {s}"),
                    row: "brigade_average".into(),
                    superior: Some(format!("co{s}")),
                    pos: V2::new(hq[s].0, hq[s].1),
                    mounted: true,
                    nation: None,
                    formation: None,
                },
            ],
            units: us,
            obeys: Default::default(),
        });
    }
    let scenario = Scenario {
        title: "test".into(),
        brief: String::new(),
        table: TableSize::default(),
        weather: Weather::Normal,
        wet_ground: false,
        night: false,
        historical: false,
        switches: switches.iter().copied().collect(),
        turn_limit: 8,
        decide_on_points: false,
        first_side: 0,
        rules: None,
        terrain,
        objectives: vec![],
        sides,
    };
    let armies = vec![army("acw_union"), army("acw_confederate")];
    let mut rules = volley::load_rules(None).expect("rules load");
    rules.switches = scenario.switches.clone();
    let fp = volley::footprints(&rules);
    let path = std::path::PathBuf::from("test.ron");
    validate_scenario("", &path, &scenario, &armies, &fp).expect("test scenario is valid");
    let loaded = LoadedScenario {
        path,
        text: String::new(),
        scenario,
        armies,
        content_hash: 1,
    };
    let (b, _) = Battle::new(&loaded, rules, 7);
    b
}

pub fn battle(units: &[U]) -> Battle {
    battle_with(
        units,
        Terrain::default(),
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
    )
}

/// Jump to the active player's command phase (no rolls spent).
pub fn to_command(b: &mut Battle) {
    b.arranging().phase = Phase::Command;
    b.arranging().step = Step::Open;
    b.arranging().cmd = Default::default();
}

/// `scheduler-easy` (seed 1) plays the first side's command phase from here: its choices,
/// at most `max`, applied as it goes.
pub fn easy_command_phase(b: &mut Battle, max: usize) -> Vec<volley::battle::Action> {
    let mut a = volley::agents::by_name("scheduler-easy", 1, 0).expect("a level");
    let mut picks = Vec::new();
    while b.phase == Phase::Command && b.active == 0 && picks.len() < max {
        let legal = b.legal_actions();
        let i = a.choose(b, &legal);
        picks.push(legal[i].clone());
        if b.apply(&legal[i]).is_err() {
            break;
        }
    }
    picks
}

/// The y of `unit`'s southernmost base corner.
pub fn south_edge(b: &Battle, unit: u32) -> f64 {
    b.rects(unit)
        .iter()
        .flat_map(|r| r.corners())
        .map(|c| c.y)
        .fold(f64::INFINITY, f64::min)
}

/// A wall 0.3 cm in front of `unit`'s south edge, from `x0` to `x1` (the unit behind it, in
/// cover, to anything from the south).
pub fn wall_south_of(b: &Battle, unit: u32, x0: f64, x1: f64) -> Terrain {
    let near_y = south_edge(b, unit);
    Terrain {
        linears: vec![volley::rules::terrain::Linear {
            kind: volley::rules::terrain::LinearKind::Wall,
            name: "wall".into(),
            points: vec![V2::new(x0, near_y - 0.3), V2::new(x1, near_y - 0.3)],
            width: 0.5,
        }],
        ..Terrain::default()
    }
}

/// Script the dice from now on.
pub fn script(b: &mut Battle, faces: &[u32]) {
    b.set_dice(Dice::scripted(faces.to_vec()));
}

/// The skirmish scenario, started with `seed`.
pub fn skirmish(seed: u64) -> Battle {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/skirmish.ron");
    volley::load_battle(&path, seed).expect("skirmish loads").0
}

/// Close quarters: four units a side 12–18 cm apart across open ground, so initiative fire,
/// charges, fall-backs and knock-outs happen from the first turn.
pub fn close_quarters() -> Battle {
    close_quarters_switched(&[])
}

/// [`close_quarters`] with optional rules on.
pub fn close_quarters_switched(switches: &[volley::rules::switches::Switch]) -> Battle {
    let mut units = Vec::new();
    let rows = [
        "regular_infantry_rifled",
        "regular_infantry_smoothbore",
        "skirmishing_infantry_rifled",
    ];
    for i in 0..4 {
        let x = 60.0 + 30.0 * i as f64;
        units.push(u(0, rows[i % 3], 4, x, 80.0, 90.0));
        units.push(u(1, rows[(i + 1) % 3], 4, x + 4.0, 96.0 + 2.0 * (i % 2) as f64, 270.0));
    }
    units.push(u(0, "us_cavalry_1862", 3, 200.0, 70.0, 90.0));
    units.push(u(1, "cs_cavalry", 4, 30.0, 110.0, 270.0));
    units.push(u(0, "rifled_cannon", 1, 100.0, 60.0, 90.0));
    units.push(u(1, "smoothbore_cannon", 1, 140.0, 120.0, 270.0));
    battle_switched(
        &units,
        Terrain::default(),
        [(100.0, 40.0), (100.0, 140.0)],
        [(80.0, 72.0), (120.0, 104.0)],
        switches,
    )
}

/// End phases (or pass windows) until `done`; every event on the way.
pub fn end_phases_until(b: &mut Battle, done: impl Fn(&Battle) -> bool) -> Vec<volley::battle::Event> {
    let mut all = Vec::new();
    while !done(b) {
        let a = if b.legal_actions().contains(&volley::battle::Action::EndPhase) {
            volley::battle::Action::EndPhase
        } else {
            volley::battle::Action::Pass
        };
        all.extend(b.apply(&a).expect("end phase"));
    }
    all
}

/// The look-ahead (`scheduler`) at a quarter of its level's budget: 24 play-outs over 4
/// options, play-outs of two player turns (the level until 2026-12-02). The tests that play
/// whole look-ahead games in the debug build (a rule exercised, a recording verified) use it,
/// so the suite keeps within CI's time, and so do the tests of the search's workings in
/// `scheduler.rs` (as [`QUICK`]). The level itself is measured in release with `volley match`
/// (README, "How strong it is"); `scheduler.rs` plays its whole games on *First Battle*.
pub const SCHEDULER: &str = "scheduler:sims=24,width=4,turns=2";

/// [`SCHEDULER`]'s budget, for the tests that build the look-ahead themselves.
pub const QUICK: volley::agents::scheduler::lookahead::Budget = volley::agents::scheduler::lookahead::Budget {
    sims: 24,
    width: 4,
    turns: 2,
    ..volley::agents::scheduler::lookahead::NORMAL
};

/// The scheduler ([`SCHEDULER`]) plays both sides of the bundled scenario `map` (a file under
/// `maps/`) with `switches` added, from `seed` to the end; `watch` sees every action and what
/// it caused. The game's recording must parse, name the switches and replay to the same final
/// state.
pub fn scheduler_game(
    map: &str,
    seed: u64,
    switches: &volley::rules::switches::Switches,
    watch: impl FnMut(&Battle, &volley::battle::Action, &[volley::battle::Event]),
) -> Battle {
    agent_game(SCHEDULER, map, seed, switches, watch)
}

/// [`scheduler_game`] with the agent `agent` on both sides.
pub fn agent_game(
    agent: &str,
    map: &str,
    seed: u64,
    switches: &volley::rules::switches::Switches,
    mut watch: impl FnMut(&Battle, &volley::battle::Action, &[volley::battle::Event]),
) -> Battle {
    use volley::replay::Recording;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps").join(map);
    let (b, _) = volley::load_battle_with(&path, seed, switches).unwrap_or_else(|e| panic!("{map}: {e:?}"));
    let mut rec = Recording::start(&b, &path.display().to_string(), seed, None);
    let mut agents = [
        volley::agents::by_name(agent, seed, 0).unwrap(),
        volley::agents::by_name(agent, seed, 1).unwrap(),
    ];
    let done = volley::sim::play(b, &mut agents, 200_000, |b, act, ev| {
        watch(b, act, ev);
        rec.push(b, act, ev)
    })
    .unwrap_or_else(|e| panic!("{map} seed {seed}: {e}"));
    assert!(done.is_over(), "{map} seed {seed}: the game ends");
    let back = Recording::parse(&rec.to_ron(), &path).expect("the recording parses");
    assert!(
        switches.0.iter().all(|s| back.switches.on(*s)),
        "the recording names {switches:?}"
    );
    let (_, h) = volley::replay::verify::verify(&back, &path).unwrap_or_else(|e| panic!("{map} seed {seed}: {e:?}"));
    assert_eq!(
        h,
        done.state_hash(),
        "{map} seed {seed}: the replay ends in the same state"
    );
    done
}

/// A rectangle of area terrain.
pub fn area(kind: volley::rules::terrain::AreaKind, x0: f64, y0: f64, x1: f64, y1: f64) -> Terrain {
    use volley::rules::terrain::{Area, Polygon};
    Terrain {
        areas: vec![Area {
            kind,
            name: format!("{kind:?}"),
            outline: Polygon(vec![V2::new(x0, y0), V2::new(x1, y0), V2::new(x1, y1), V2::new(x0, y1)]),
        }],
        ..Terrain::default()
    }
}

/// What the scheduler's one-step judge (`scheduler-easy`) playing side 0 picks first here, and why.
pub fn scheduler_first_pick(b: &Battle) -> (volley::battle::Action, Option<String>) {
    let legal = b.legal_actions();
    let mut s = volley::agents::by_name("scheduler-easy", 1, 0).unwrap();
    let pick = legal[s.choose(b, &legal)].clone();
    (pick, s.reason())
}

/// A 3 cm road along `points`.
pub fn road_along(points: &[(f64, f64)]) -> Terrain {
    Terrain {
        linears: vec![volley::rules::terrain::Linear {
            kind: volley::rules::terrain::LinearKind::Road,
            name: "pike".into(),
            points: points.iter().map(|&(x, y)| V2::new(x, y)).collect(),
            width: 3.0,
        }],
        ..Default::default()
    }
}

/// The bundled scenarios, `maps/*.ron`, sorted.
pub fn maps() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps");
    let mut v: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("maps/ is readable")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

/// The window pixel of table point `p` through the table camera (a headless app's).
#[cfg(feature = "gui")]
pub fn screen_of(app: &mut bevy::prelude::App, p: V2) -> bevy::prelude::Vec2 {
    use bevy::prelude::*;
    use volley::ui::camera::TableCamera;
    let mut q = app
        .world_mut()
        .query_filtered::<(&Camera, &GlobalTransform), With<TableCamera>>();
    let (cam, tf) = q.single(app.world()).expect("the table camera");
    cam.world_to_viewport(tf, Vec3::new(p.x as f32, p.y as f32, 0.0))
        .expect("on screen")
}

/// Put the mouse pointer over table point `p` and let a frame see it.
#[cfg(feature = "gui")]
pub fn point_at(app: &mut bevy::prelude::App, p: V2) {
    use bevy::prelude::*;
    let s = screen_of(app, p);
    let mut q = app
        .world_mut()
        .query_filtered::<(Entity, &mut Window), With<bevy::window::PrimaryWindow>>();
    let (window, mut w) = q.single_mut(app.world_mut()).expect("the window");
    w.set_cursor_position(Some(s));
    // What winit sends when the mouse moves (Bevy's picking reads it).
    app.world_mut()
        .write_message(bevy::window::WindowEvent::CursorMoved(bevy::window::CursorMoved {
            window,
            position: s,
            delta: None,
        }));
    app.update();
}

/// Press the left button at `from`, move the pointer to `to` in steps, let go.
#[cfg(feature = "gui")]
pub fn drag(app: &mut bevy::prelude::App, from: V2, to: V2) {
    use bevy::prelude::*;
    use leafwing_input_manager::prelude::Buttonlike;
    point_at(app, from);
    MouseButton::Left.press(app.world_mut());
    app.update();
    for k in 1..=4 {
        point_at(app, from + (to - from) * (k as f64 / 4.0));
    }
    MouseButton::Left.release(app.world_mut());
    app.update();
    app.update();
    app.update();
}

/// A scratch folder under the system's temporary folder, `volley-<what>-<process id>`, made
/// empty; removed when the test is done with it, kept when the test fails (to look at).
pub struct Scratch(std::path::PathBuf);

impl Scratch {
    pub fn new(what: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("volley-{what}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Union line (id 0) already in contact with a Confederate line, front to front; the extra
/// units given. Ids: the Union units in order, then the Confederates (the line first).
pub fn in_contact_with(extra: &[U], terrain: Terrain) -> Battle {
    // Front edges: Union 50.75, Confederate 51.51 − 0.75 = 50.76 (until rules `bpt-7` the
    // Confederates stood at 52, 0.5 cm off, which counted as contact then).
    let mut units = vec![
        u(0, "regular_infantry_rifled", 4, 100.0, 50.0, 90.0),
        u(1, "regular_infantry_rifled", 4, 100.0, 51.51, 270.0),
    ];
    units.extend_from_slice(extra);
    let target = units.iter().filter(|x| x.side == 0).count() as u32;
    let mut b = battle_with(
        &units,
        terrain,
        [(20.0, 5.0), (220.0, 175.0)],
        [(40.0, 5.0), (200.0, 175.0)],
    );
    to_command(&mut b);
    assert!(b.unit_distance(0, target) < 0.6);
    b.arranging().combats.push(volley::battle::state::Combat {
        chargers: vec![0],
        target,
        supports: [vec![], vec![]],
        counter_charge: false,
    });
    b
}

/// A fixed generator for property tests: the same "random" choices every run (xorshift64).
pub struct Gen(pub u64);

impl Gen {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A game of *Gettysburg* capped at one turn, the Confederates played by the scheduler (which
/// makes a plan at its first choice) and the Union by `random`, recorded by `volley simulate
/// --record` to `file`.
pub fn planned_gettysburg_recording(file: &std::path::Path) {
    planned_gettysburg_recording_with(file, &[]);
}

/// [`planned_gettysburg_recording`] with more words for `volley simulate` (`--rule scouting`).
pub fn planned_gettysburg_recording_with(file: &std::path::Path, more: &[&str]) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_volley"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["simulate", "maps/gettysburg.ron", "--side", "Confederate=scheduler"])
        .args(["--side", "Union=random", "--max-turns", "1", "--seed", "5", "--record"])
        .arg(file)
        .args(more)
        .output()
        .expect("volley runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A save of a *Gettysburg* game (the scouting switch's hidden set-up) of a person's Union
/// against the scheduler's Confederates, made at the Union's first decision, in `dir`: the
/// computer's plan is in it, whole and as the Union was told it. The file and its recording.
pub fn planned_save_for_the_union(dir: &std::path::Path) -> (std::path::PathBuf, volley::replay::Recording) {
    let whole = dir.join("gettysburg-whole.ron");
    planned_gettysburg_recording_with(&whole, &["--rule", "scouting"]);
    let rec = volley::replay::Recording::load(&whole).expect("it reads");
    let mut b = volley::replay::verify::start_battle(&rec, &whole).expect("it starts");
    let first_union = rec
        .actions
        .iter()
        .position(|a| {
            let union = b.actor() == 0;
            b.apply(a).expect("it re-plays");
            union
        })
        .expect("the Union acts in turn 1");
    let tl = volley::replay::timeline::Timeline::build(rec, &whole).expect("it verifies");
    let (_, mut save) = tl.take_command(first_union);
    save.players = Some(["human".into(), "scheduler".into()]);
    save.scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/maps/gettysburg.ron").into();
    let file = dir.join("gettysburg.ron");
    save.save(&file).expect("it saves");
    (file, save)
}
