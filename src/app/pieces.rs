//! The pieces on the table as entities: every unit a parent entity at its pose, its stands
//! children with a `Transform` (relative to the unit) and a base shape, every commander an
//! entity with a round base. After an ordinary action only the units its events name are
//! placed again (`ActionApplied`), the whole table when the battle was replaced (a load, an
//! undo, a replay's seek, a new battle) or a phase began; either way only what changed is
//! written (`set_if_neq`), so `Changed<Transform>` and `Changed<UnitStatus>` mean a move or a
//! change of status. The window draws and picks from these entities; the core never reads
//! them.

use super::base::{BattleState, BattleSystems};
use super::messages::ActionApplied;
use crate::battle::state::{Battle, CmdId, SideId, Unit, UnitId};
use crate::data::army::Arm;
use crate::rules::formation::Formation;
use crate::rules::geometry::{Rect, V2};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// A unit: the parent of its stands, placed at the unit's pose.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitPiece {
    pub unit: UnitId,
}

/// What the table shows of a unit besides where its stands are.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct UnitStatus {
    pub arm: Arm,
    pub formation: Formation,
    pub skirmisher: bool,
    pub artillery: bool,
    pub suppressed: bool,
    pub disordered: bool,
    pub hits: u32,
    /// Hidden set-up: the enemy has not found it.
    pub hidden: bool,
    pub prone: bool,
    pub d_markers: u32,
    /// Fighting stands (the rest are the command stand or the limber).
    pub fighting: usize,
    /// BPT "Dug In" (what sight reads besides the places: `sight`).
    pub dug_in: bool,
    pub limbered: bool,
}

impl UnitStatus {
    pub fn of(b: &Battle, u: &Unit) -> Self {
        UnitStatus {
            arm: u.row.arm,
            formation: u.formation,
            skirmisher: u.is_skirmisher(),
            artillery: u.is_artillery(),
            suppressed: u.suppressed(),
            disordered: u.disordered(b.player_turn),
            hits: u.hits,
            hidden: u.hidden,
            prone: b.is_prone(u.id),
            d_markers: u.d_markers,
            fighting: b.geom[u.id as usize].fighting,
            dug_in: u.dug_in,
            limbered: u.limbered,
        }
    }
}

/// One base of a unit: a fighting stand (`index < fighting`) or its command stand / limber.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Stand {
    pub unit: UnitId,
    pub index: usize,
    pub command_stand: bool,
}

/// A commander (CO or HQ).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct CommanderBase {
    pub commander: CmdId,
}

/// Which side an entity belongs to.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideOf(pub SideId);

/// A base's size in cm: a rectangle `width` across its front and `depth` deep, its front
/// towards the entity's local +x; or a round base `width` across.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct BaseShape {
    pub width: f32,
    pub depth: f32,
    pub round: bool,
}

impl BaseShape {
    pub fn rect(r: &Rect) -> Self {
        BaseShape {
            width: r.width as f32,
            depth: r.depth as f32,
            round: false,
        }
    }

    /// Is table point `p` on this base, placed by `at` (its global transform)?
    pub fn contains(&self, at: &GlobalTransform, p: Vec2) -> bool {
        let c = at.translation().truncate();
        if self.round {
            return c.distance(p) <= self.width * 0.5;
        }
        let fwd = (at.rotation() * Vec3::X).truncate();
        let d = p - c;
        d.dot(fwd).abs() <= self.depth * 0.5 && d.perp_dot(fwd).abs() <= self.width * 0.5
    }

    /// The corners (front-left, front-right, rear-right, rear-left) of this base placed by `at`.
    pub fn corners(&self, at: &GlobalTransform) -> [Vec2; 4] {
        let (f, l) = (self.depth * 0.5, self.width * 0.5);
        [(f, l), (f, -l), (-f, -l), (-f, l)].map(|(x, y)| at.transform_point(Vec3::new(x, y, 0.0)).truncate())
    }
}

/// The transform of something at table point `p` facing `facing` (radians, 0 = east).
pub fn table_transform(p: V2, facing: f64) -> Transform {
    Transform::from_xyz(p.x as f32, p.y as f32, 0.0).with_rotation(Quat::from_rotation_z(facing as f32))
}

/// `world` as seen from `parent` (both in table space).
pub fn relative_to(parent: &Transform, world: &Transform) -> Transform {
    let inv = parent.rotation.inverse();
    Transform {
        translation: inv * (world.translation - parent.translation),
        rotation: inv * world.rotation,
        scale: Vec3::ONE,
    }
}

/// Units, their stands and commanders by id, for the systems that look them up.
#[derive(Resource, Default, Debug)]
pub struct PieceIndex {
    units: BTreeMap<UnitId, (Entity, Vec<Entity>)>,
    commanders: BTreeMap<CmdId, Entity>,
}

impl PieceIndex {
    pub fn unit(&self, id: UnitId) -> Option<Entity> {
        self.units.get(&id).map(|u| u.0)
    }
    pub fn commander(&self, id: CmdId) -> Option<Entity> {
        self.commanders.get(&id).copied()
    }
}

/// How often the pieces were brought up to the battle: wholly (the battle replaced: a load,
/// an undo, a replay's seek, a new battle; and as a phase begins, when statuses turn over
/// across the table) or by the events of the actions applied (only the units they name).
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceSyncs {
    pub whole: u64,
    pub by_events: u64,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PieceIndex>()
        .init_resource::<PieceSyncs>()
        .add_systems(
            Update,
            sync_pieces
                .run_if(resource_changed::<BattleState>)
                .in_set(BattleSystems::Sync),
        );
}

type UnitQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static mut Transform,
        &'static mut UnitStatus,
        &'static mut SideOf,
        &'static mut Name,
    ),
    (With<UnitPiece>, Without<Stand>, Without<CommanderBase>),
>;
type StandQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static mut Transform,
        &'static mut BaseShape,
        &'static mut Stand,
        &'static mut SideOf,
    ),
    (Without<UnitPiece>, Without<CommanderBase>),
>;
type CommanderQuery<'w, 's> = Query<
    'w,
    's,
    (&'static mut Transform, &'static mut SideOf, &'static mut Name),
    (With<CommanderBase>, Without<UnitPiece>, Without<Stand>),
>;

/// A name component kept to `name`, written only when it differs (a piece reused by id in
/// another battle: the menu's background battle, then the chosen one).
fn keep_name(n: &mut Mut<Name>, name: &str) {
    if n.as_str() != name {
        **n = Name::new(name.to_owned());
    }
}

/// The pieces on the table, their index and the commands that spawn and despawn them.
#[derive(SystemParam)]
struct Pieces<'w, 's> {
    commands: Commands<'w, 's>,
    index: ResMut<'w, PieceIndex>,
    units: UnitQuery<'w, 's>,
    stands: StandQuery<'w, 's>,
    commanders: CommanderQuery<'w, 's>,
}

/// Bring the pieces up to the battle. After ordinary actions applied to the state the pieces
/// show, only the units their events (and the actions) name are placed again; otherwise (the
/// battle replaced, or a phase begun) every piece is.
fn sync_pieces(
    battle: Res<BattleState>,
    mut applied: MessageReader<ActionApplied>,
    mut pieces: Pieces,
    mut syncs: ResMut<PieceSyncs>,
) {
    let b = &battle.0;
    let (mut any, mut whole) = (false, false);
    let mut named = BTreeSet::new();
    for a in applied.read() {
        any = true;
        whole |= !a.continues || !crate::report::flow::started_phases(&a.events).is_empty();
        named.extend(a.action.as_ref().and_then(crate::battle::Action::unit));
        named.extend(a.events.iter().flat_map(crate::report::named_units));
    }
    if whole || !any {
        pieces.all_units(b);
        syncs.whole += 1;
    } else {
        for u in named {
            pieces.unit(b, u);
        }
        syncs.by_events += 1;
    }
    pieces.commanders(b);
}

impl Pieces<'_, '_> {
    /// Every unit: spawn what is new, move what moved, despawn what is gone. A piece kept by id
    /// takes every property from the battle it now belongs to (its side and name too: unit
    /// ids repeat from one scenario to the next).
    fn all_units(&mut self, b: &Battle) {
        let mut keep = BTreeMap::new();
        for u in b.alive_units() {
            let found = self.index.units.remove(&u.id);
            keep.insert(u.id, self.place(b, u, found));
        }
        for (_, (e, _)) in std::mem::take(&mut self.index.units) {
            self.commands.entity(e).despawn();
        }
        self.index.units = keep;
    }

    /// Unit `id` alone: placed, or gone if it is.
    fn unit(&mut self, b: &Battle, id: UnitId) {
        let found = self.index.units.remove(&id);
        match b.units.get(id as usize).filter(|u| u.alive()) {
            Some(u) => {
                let placed = self.place(b, u, found);
                self.index.units.insert(id, placed);
            }
            None => {
                if let Some((e, _)) = found {
                    self.commands.entity(e).despawn();
                }
            }
        }
    }

    /// Unit `u`'s piece (`found`, or a new one) and its stands, as the battle has them.
    fn place(&mut self, b: &Battle, u: &Unit, found: Option<(Entity, Vec<Entity>)>) -> (Entity, Vec<Entity>) {
        let g = &b.geom[u.id as usize];
        let tf = table_transform(u.pose.pos, u.pose.facing);
        let status = UnitStatus::of(b, u);
        let (parent, mut children) = match found {
            Some((e, children)) => {
                if let Ok((mut t, mut s, mut side, mut name)) = self.units.get_mut(e) {
                    t.set_if_neq(tf);
                    s.set_if_neq(status);
                    side.set_if_neq(SideOf(u.side));
                    keep_name(&mut name, &u.name);
                }
                (e, children)
            }
            None => {
                let e = self
                    .commands
                    .spawn((
                        UnitPiece { unit: u.id },
                        SideOf(u.side),
                        Name::new(u.name.clone()),
                        tf,
                        status,
                    ))
                    .id();
                (e, Vec::new())
            }
        };
        for (i, r) in g.rects.iter().enumerate() {
            let local = relative_to(&tf, &table_transform(r.center, r.facing));
            let stand = Stand {
                unit: u.id,
                index: i,
                command_stand: i >= g.fighting,
            };
            match children.get(i).and_then(|&e| self.stands.get_mut(e).ok()) {
                Some((mut t, mut shape, mut s, mut side)) => {
                    t.set_if_neq(local);
                    shape.set_if_neq(BaseShape::rect(r));
                    s.set_if_neq(stand);
                    side.set_if_neq(SideOf(u.side));
                }
                None => {
                    let e = self
                        .commands
                        .spawn((stand, SideOf(u.side), BaseShape::rect(r), local, ChildOf(parent)))
                        .id();
                    children.push(e);
                }
            }
        }
        for e in children.drain(g.rects.len()..) {
            self.commands.entity(e).despawn();
        }
        (parent, children)
    }

    /// Every commander (a handful: placed again after every action).
    fn commanders(&mut self, b: &Battle) {
        let d = b.rules.footprints.commander_diameter as f32;
        let mut kept = BTreeMap::new();
        for c in b.commanders.iter().filter(|c| c.alive()) {
            let tf = table_transform(c.pos, 0.0);
            let e = match self.index.commanders.remove(&c.id) {
                Some(e) => {
                    if let Ok((mut t, mut side, mut name)) = self.commanders.get_mut(e) {
                        t.set_if_neq(tf);
                        side.set_if_neq(SideOf(c.side));
                        keep_name(&mut name, &c.name);
                    }
                    e
                }
                None => {
                    let shape = BaseShape {
                        width: d,
                        depth: d,
                        round: true,
                    };
                    self.commands
                        .spawn((
                            CommanderBase { commander: c.id },
                            SideOf(c.side),
                            Name::new(c.name.clone()),
                            shape,
                            tf,
                        ))
                        .id()
                }
            };
            kept.insert(c.id, e);
        }
        // Commanders lost, and those of another battle (the one before had more).
        for (_, e) in std::mem::replace(&mut self.index.commanders, kept) {
            self.commands.entity(e).despawn();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_contains_the_points_inside_its_rectangle_only() {
        // A base 4 cm across its front and 2 cm deep at (10, 5), facing north (+y).
        let r = Rect::new(V2::new(10.0, 5.0), std::f64::consts::FRAC_PI_2, 4.0, 2.0);
        let at = GlobalTransform::from(table_transform(r.center, r.facing));
        let s = BaseShape::rect(&r);
        assert!(s.contains(&at, Vec2::new(11.9, 5.9)));
        assert!(
            !s.contains(&at, Vec2::new(12.1, 5.0)),
            "past the right end of the front"
        );
        assert!(!s.contains(&at, Vec2::new(10.0, 6.1)), "ahead of the front edge");
        // The corners are the rules' corners.
        for (a, b) in s.corners(&at).iter().zip(r.corners()) {
            assert!(a.distance(Vec2::new(b.x as f32, b.y as f32)) < 1e-4, "{a} vs {b:?}");
        }
    }

    #[test]
    fn a_stand_relative_to_its_unit_comes_back_to_where_it_stands() {
        let unit = table_transform(V2::new(30.0, -4.0), 2.0);
        let stand = table_transform(V2::new(27.5, -1.0), 2.3);
        let local = relative_to(&unit, &stand);
        let back = unit * local;
        assert!(back.translation.distance(stand.translation) < 1e-4);
        assert!(back.rotation.angle_between(stand.rotation) < 1e-4);
    }

    #[test]
    fn a_round_base_contains_points_within_its_radius() {
        let at = GlobalTransform::from(table_transform(V2::new(0.0, 0.0), 1.0));
        let s = BaseShape {
            width: 3.0,
            depth: 3.0,
            round: true,
        };
        assert!(s.contains(&at, Vec2::new(1.0, 1.0)));
        assert!(!s.contains(&at, Vec2::new(1.2, 1.1)));
    }
}
