//! Changes to a unit: one variant a field the rules change in play.

use super::super::*;
use crate::data::army::TroopRow;
use crate::data::scenario::Ammo;

macro_rules! unit_changes {
    ($($(#[$doc:meta])* $variant:ident($field:ident: $ty:ty)),* $(,)?) => {
        /// A change to one unit.
        #[derive(Clone, Debug, PartialEq)]
        pub enum UnitChange {
            $($(#[$doc])* $variant($ty),)*
            /// The row in force (mounting or dismounting; boxed: a row is large).
            Row(Box<TroopRow>),
            /// The mounted row of dismounted cavalry.
            MountedRow(Option<Box<TroopRow>>),
            /// BPT "Disordered": disordered in this player turn, until the end of the next
            /// initiative phase ([`Unit::disorder`]).
            Disordered(u32),
        }

        impl UnitChange {
            pub(super) fn apply(&self, u: &mut Unit) {
                match self {
                    $(UnitChange::$variant(v) => u.$field = v.clone(),)*
                    UnitChange::Row(r) => u.row = (**r).clone(),
                    UnitChange::MountedRow(r) => u.mounted_row = r.as_deref().cloned(),
                    UnitChange::Disordered(pt) => u.disorder(*pt),
                }
            }

            /// The changes that make unit `was` into `now`, field by field (a deploy works its
            /// new formation out on a copy of the unit).
            pub fn between(was: &Unit, now: &Unit) -> Vec<UnitChange> {
                let mut out = Vec::new();
                if was.row != now.row {
                    out.push(UnitChange::Row(Box::new(now.row.clone())));
                }
                if was.mounted_row != now.mounted_row {
                    out.push(UnitChange::MountedRow(now.mounted_row.clone().map(Box::new)));
                }
                $(if was.$field != now.$field {
                    out.push(UnitChange::$variant(now.$field.clone()));
                })*
                out
            }
        }
    };
}

unit_changes! {
    Hq(hq: CmdId),
    Pose(pose: Pose),
    Formation(formation: Formation),
    Stands(stands: u32),
    Hits(hits: u32),
    Suppressed(suppressed: Option<Suppression>),
    DisorderedUntil(disordered_until: Option<u32>),
    HitsBeforeDisorder(hits_before_disorder: u32),
    Exhausted(exhausted: bool),
    HasFired(has_fired: bool),
    InitiativeTurn(initiative_turn: Option<u32>),
    OpportunityTurn(opportunity_turn: Option<u32>),
    SelfOrderTurn(self_order_turn: Option<u32>),
    EngineerTurn(engineer_turn: Option<u32>),
    Limbered(limbered: bool),
    HasLimber(has_limber: bool),
    Loaded(loaded: Option<Ammo>),
    DugIn(dug_in: bool),
    KnockedOut(knocked_out: bool),
    Refused(refused: (bool, bool)),
    DMarkers(d_markers: u32),
    GdFiredAt(gd_fired_at: Option<(UnitId, u32)>),
    ScoutFree(scout_free: bool),
    Hidden(hidden: bool),
    Retired(retired: bool),
}
