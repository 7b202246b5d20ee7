//! The 64-bit state hash: everything that matters to the rules, in a canonical order.

use super::state::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Serialize)]
struct HashView<'a> {
    units: Units<'a>,
    commanders: &'a [Commander],
    sides: &'a [Side; 2],
    phase: Phase,
    step: &'a Step,
    active: SideId,
    game_turn: u32,
    player_turn: u32,
    draws: u64,
    seed: u64,
    cmd: HashCmd<'a>,
    order_seq: u32,
    combats: &'a [Combat],
    outcome: Option<HashOutcome>,
    scenario: u64,
    rules: &'a str,
    /// Only with optional rules on, so the hashes of games without them stay as they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    optional: Option<Optional<'a>>,
}

/// What the optional rules add to the state.
#[derive(Serialize)]
struct Optional<'a> {
    switches: &'a crate::rules::switches::Switches,
    weather: crate::data::scenario::Weather,
    works: &'a super::engineers::Works,
    /// Orders on their way (order delay); absent when none, so other switches' hashes stay.
    #[serde(skip_serializing_if = "<[PendingOrder]>::is_empty")]
    pending: &'a [PendingOrder],
    /// Building hits (constructions); absent when none.
    #[serde(skip_serializing_if = "super::constructions::Constructions::is_empty")]
    constructions: &'a super::constructions::Constructions,
}

/// The command phase's book-keeping as the hash has always seen it: field by field as
/// `CommandState` serialises, but the passed initiative's reason (now typed) in the words it
/// was once kept in, so hashes, and the recordings that carry them, stay as they were.
#[derive(Serialize)]
struct HashCmd<'a> {
    orders: &'a BTreeMap<UnitId, OrderState>,
    done: &'a BTreeSet<CmdId>,
    hq_failed: &'a BTreeSet<UnitId>,
    all_stopped: bool,
    current: Option<CmdId>,
    moved: &'a BTreeSet<CmdId>,
    #[serde(skip_serializing_if = "HashPassing::is_idle")]
    passing: HashPassing<'a>,
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    arrived: &'a BTreeSet<UnitId>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    held: &'a BTreeMap<UnitId, u32>,
}

impl<'a> HashCmd<'a> {
    fn of(b: &'a Battle) -> Self {
        let c = &b.cmd;
        HashCmd {
            orders: &c.orders,
            done: &c.done,
            hq_failed: &c.hq_failed,
            all_stopped: c.all_stopped,
            current: c.current,
            moved: &c.moved,
            passing: HashPassing {
                activated: c.passing.activated,
                moved: &c.passing.moved,
                fired: &c.passing.fired,
                landed: c.passing.landed,
                passed: c.passing.passed.as_ref().map(|r| pass_reason_words(b, r)),
                purpose: &c.passing.purpose,
                ground: c.passing.ground,
                idle: c.passing.is_idle(),
            },
            arrived: &c.arrived,
            held: &c.held,
        }
    }
}

/// `Passing` field by field, its reason in words.
#[derive(Serialize)]
struct HashPassing<'a> {
    activated: Option<UnitId>,
    moved: &'a BTreeSet<UnitId>,
    fired: &'a BTreeSet<UnitId>,
    landed: u32,
    passed: Option<String>,
    purpose: &'a Option<crate::battle::action::Purpose>,
    ground: crate::battle::action::Ground,
    #[serde(skip)]
    idle: bool,
}

impl HashPassing<'_> {
    fn is_idle(&self) -> bool {
        self.idle
    }
}

/// The result as the hash has always seen it: its reason in the words it was once kept in.
#[derive(Serialize)]
struct HashOutcome {
    winner: Option<SideId>,
    result: ResultKind,
    victory_points: [u32; 2],
    units_lost: [u32; 2],
    objectives: [Option<crate::data::scenario::ObjectiveLevel>; 2],
    reason: &'static str,
}

impl HashOutcome {
    fn of(o: &Outcome) -> Self {
        HashOutcome {
            winner: o.winner,
            result: o.result,
            victory_points: o.victory_points,
            units_lost: o.units_lost,
            objectives: o.objectives,
            reason: end_reason_words(o.reason),
        }
    }
}

// The words of a passed initiative's and a result's reason: kept here (the core) because the
// state hash and a refusal read them; the report re-exports them for its lines.

fn name(b: &Battle, id: UnitId) -> &str {
    b.units.get(id as usize).map(|u| u.name.as_str()).unwrap_or("?")
}

/// Why the initiative passed (*Glory Days!*), with the units' names.
pub fn pass_reason_words(b: &Battle, r: &crate::battle::event::PassReason) -> String {
    match *r {
        crate::battle::event::PassReason::ActivationFailed { unit: u } => {
            format!("{} failed its activation roll", name(b, u))
        }
        crate::battle::event::PassReason::ChargeTestFailed { unit: u, target } => format!(
            "{} failed its charge test and stops short of {}",
            name(b, u),
            name(b, target)
        ),
        crate::battle::event::PassReason::RallyFailed { unit: u } => format!("{} failed to rally", name(b, u)),
        crate::battle::event::PassReason::FireLanded { unit: u, hits } => format!(
            "{}'s fire landed {hits} hit{}",
            name(b, u),
            if hits == 1 { "" } else { "s" }
        ),
        crate::battle::event::PassReason::ReactionStopped { unit: u, hits } => {
            format!("reaction fire landed {hits} hits on {}: its move stops", name(b, u))
        }
    }
}

/// Why the game ended, as the result says it ("Game over (breakpoint)").
pub fn end_reason_words(r: crate::battle::event::EndReason) -> &'static str {
    match r {
        crate::battle::event::EndReason::Breakpoint => "breakpoint",
        crate::battle::event::EndReason::CommandDestroyed => "a command was destroyed",
        crate::battle::event::EndReason::MajorObjective => "a major objective was reached",
        crate::battle::event::EndReason::TurnLimit => "the turn limit",
        crate::battle::event::EndReason::Unfinished => "unfinished",
    }
}

/// FNV-1a, 64 bit.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Battle {
    /// A hash of the whole rules state (positions to the bit, hits, markers, phase, dice drawn).
    pub fn state_hash(&self) -> u64 {
        let view = HashView {
            units: Units(self),
            commanders: &self.commanders,
            sides: &self.sides,
            phase: self.phase,
            step: &self.step,
            active: self.active,
            game_turn: self.game_turn,
            player_turn: self.player_turn,
            draws: self.dice.draws(),
            seed: self.dice.seed(),
            cmd: HashCmd::of(self),
            order_seq: self.order_seq,
            combats: &self.combats,
            outcome: self.outcome.as_ref().map(HashOutcome::of),
            scenario: self.scenario_hash,
            rules: &self.rules.version,
            optional: (!self.rules.switches.is_empty()).then_some(Optional {
                switches: &self.rules.switches,
                weather: self.weather,
                works: &self.works,
                pending: &self.pending,
                constructions: &self.constructions,
            }),
        };
        let bytes = serde_json::to_vec(&view).expect("the state serialises");
        fnv1a(&bytes)
    }
}

/// The units as the hash has always seen them: each unit's fields in their order, with the
/// optional rules' per-unit state (prone, sabers drawn) where it stood when it was a field of
/// the unit, so hashes, and the recordings that carry them, stay as they were.
struct Units<'a>(&'a Battle);

impl Serialize for Units<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let b = self.0;
        let mut seq = s.serialize_seq(Some(b.units.len()))?;
        for u in &b.units {
            seq.serialize_element(&HashUnit {
                u,
                prone: b.is_prone(u.id),
                sabers_drawn: b.optional.sabers.drawn_in(u.id),
            })?;
        }
        seq.end()
    }
}

struct HashUnit<'a> {
    u: &'a Unit,
    prone: bool,
    sabers_drawn: Option<u32>,
}

impl Serialize for HashUnit<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let u = self.u;
        let mut st = s.serialize_struct("Unit", 40)?;
        st.serialize_field("id", &u.id)?;
        st.serialize_field("key", &u.key)?;
        st.serialize_field("name", &u.name)?;
        st.serialize_field("side", &u.side)?;
        st.serialize_field("row", &u.row)?;
        st.serialize_field("mounted_row", &u.mounted_row)?;
        st.serialize_field("grade", &u.grade)?;
        st.serialize_field("hq", &u.hq)?;
        st.serialize_field("pose", &u.pose)?;
        st.serialize_field("formation", &u.formation)?;
        st.serialize_field("stands", &u.stands)?;
        st.serialize_field("start_stands", &u.start_stands)?;
        st.serialize_field("hits", &u.hits)?;
        st.serialize_field("suppressed", &u.suppressed)?;
        st.serialize_field("disordered_until", &u.disordered_until)?;
        st.serialize_field("hits_before_disorder", &u.hits_before_disorder)?;
        st.serialize_field("exhausted", &u.exhausted)?;
        st.serialize_field("has_fired", &u.has_fired)?;
        st.serialize_field("initiative_turn", &u.initiative_turn)?;
        st.serialize_field("opportunity_turn", &u.opportunity_turn)?;
        st.serialize_field("self_order_turn", &u.self_order_turn)?;
        if u.engineer_turn.is_some() {
            st.serialize_field("engineer_turn", &u.engineer_turn)?;
        }
        st.serialize_field("limbered", &u.limbered)?;
        st.serialize_field("has_limber", &u.has_limber)?;
        st.serialize_field("horse_artillery", &u.horse_artillery)?;
        st.serialize_field("loaded", &u.loaded)?;
        st.serialize_field("dug_in", &u.dug_in)?;
        st.serialize_field("knocked_out", &u.knocked_out)?;
        st.serialize_field("refused", &u.refused)?;
        if u.d_markers != 0 {
            st.serialize_field("d_markers", &u.d_markers)?;
        }
        if u.gd_fired_at.is_some() {
            st.serialize_field("gd_fired_at", &u.gd_fired_at)?;
        }
        if u.morale.is_some() {
            st.serialize_field("morale", &u.morale)?;
        }
        if self.prone {
            st.serialize_field("prone", &true)?;
        }
        if u.nation.is_some() {
            st.serialize_field("nation", &u.nation)?;
        }
        if self.sabers_drawn.is_some() {
            st.serialize_field("sabers_drawn", &self.sabers_drawn)?;
        }
        for (name, on) in [
            ("scout", u.scout),
            ("scout_free", u.scout_free),
            ("hidden", u.hidden),
            ("retired", u.retired),
        ] {
            if on {
                st.serialize_field(name, &true)?;
            }
        }
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units() -> Vec<Unit> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut out = Vec::new();
        for map in [
            "maps/peninsula.ron",
            "maps/scouting_demo.ron",
            "maps/initiative_demo.ron",
        ] {
            let (b, _) = crate::load_battle(&root.join(map), 1).expect("a bundled scenario");
            out.extend(b.units.iter().cloned());
        }
        out
    }

    /// With no optional state, a unit hashes exactly as its own serialisation: a field added
    /// to `Unit` but not to `HashUnit` fails here (and would leave the hash blind to it).
    #[test]
    fn a_unit_hashes_as_it_serialises() {
        for (i, mut u) in units().into_iter().enumerate() {
            if i % 2 == 1 {
                u.d_markers = 2;
                u.engineer_turn = Some(3);
                u.gd_fired_at = Some((1, 2));
                u.morale = Some(crate::rules::params::Morale::Motivated);
                u.hidden = true;
                u.retired = true;
            }
            let plain = serde_json::to_string(&u).unwrap();
            let hashed = serde_json::to_string(&HashUnit {
                u: &u,
                prone: false,
                sabers_drawn: None,
            })
            .unwrap();
            assert_eq!(hashed, plain);
        }
    }

    /// With the initiative not passed, the command state hashes exactly as its own
    /// serialisation (a field added to `CommandState` or `Passing` but not to `HashCmd` fails
    /// here); a passed initiative's reason hashes as the words it was kept in before it was
    /// typed, so the hashes of games with initiative passing stay as they were.
    #[test]
    fn the_command_state_hashes_as_it_serialises_with_the_old_words() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let (mut b, _) = crate::load_battle(&root.join("maps/initiative_demo.ron"), 1).expect("a bundled scenario");
        b.arranging().cmd.passing.landed = 3;
        b.arranging().cmd.passing.moved.insert(2);
        b.arranging().cmd.passing.activated = Some(2);
        b.arranging().cmd.held.insert(1, 2);
        let plain = serde_json::to_string(&b.cmd).unwrap();
        assert_eq!(serde_json::to_string(&HashCmd::of(&b)).unwrap(), plain);
        b.arranging().cmd.passing = Passing::default();
        let plain = serde_json::to_string(&b.cmd).unwrap();
        assert!(!plain.contains("passing"), "{plain}");
        assert_eq!(serde_json::to_string(&HashCmd::of(&b)).unwrap(), plain);
        let name = b.units[2].name.clone();
        for (reason, words) in [
            (
                crate::battle::event::PassReason::ActivationFailed { unit: 2 },
                format!("{name} failed its activation roll"),
            ),
            (
                crate::battle::event::PassReason::FireLanded { unit: 2, hits: 1 },
                format!("{name}'s fire landed 1 hit"),
            ),
        ] {
            b.arranging().cmd.passing.passed = Some(reason);
            let hashed = serde_json::to_string(&HashCmd::of(&b)).unwrap();
            assert!(hashed.contains(&format!(r#""passed":"{words}""#)), "{hashed}");
        }
    }

    /// The result hashes as it serialised when its reason was words.
    #[test]
    fn the_result_hashes_with_the_old_words() {
        use crate::battle::event::EndReason;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let (b, _) = crate::load_battle(&root.join("maps/first_battle.ron"), 1).expect("a bundled scenario");
        for (reason, words) in [
            (EndReason::Breakpoint, "breakpoint"),
            (EndReason::CommandDestroyed, "a command was destroyed"),
            (EndReason::MajorObjective, "a major objective was reached"),
            (EndReason::TurnLimit, "the turn limit"),
        ] {
            let o = b.compute_outcome(reason);
            let plain = serde_json::to_string(&o)
                .unwrap()
                .replace(&format!(r#""reason":"{reason:?}""#), &format!(r#""reason":"{words}""#));
            assert_eq!(serde_json::to_string(&HashOutcome::of(&o)).unwrap(), plain);
        }
    }

    /// Prone and sabers drawn stand where they stood as fields of the unit: after `morale`,
    /// either side of `nation`.
    #[test]
    fn the_optional_tables_hash_where_the_fields_were() {
        let mut u = units().remove(0);
        u.nation = Some("Portugal".into());
        u.scout = true;
        let hashed = serde_json::to_string(&HashUnit {
            u: &u,
            prone: true,
            sabers_drawn: Some(4),
        })
        .unwrap();
        assert!(
            hashed.ends_with(r#""prone":true,"nation":"Portugal","sabers_drawn":4,"scout":true}"#),
            "{hashed}"
        );
    }
}
