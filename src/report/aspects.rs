//! What the report says of an event besides its words: its dice, whether it settles the
//! action, its animation clip, its caption, its part in the hand-over summary and the mark it
//! makes in the flow of the game. Each family fills them in; `super::facts` dispatches.

use super::dice::Throw;
use crate::battle::event::CommandOutcome;
use crate::battle::state::{CmdId, Phase, SideId, UnitId};
use crate::rules::artillery::ShotTrace;
use crate::rules::geometry::{Pose, V2};

/// A little piece of motion for the table (the window turns it into frames).
#[derive(Clone, Debug, PartialEq)]
pub enum Clip<'a> {
    /// A unit glides from one place to another.
    Glide { unit: UnitId, from: Pose, to: Pose },
    /// A round shot's flight, its bounces and where it stops.
    Ball { trace: &'a ShotTrace },
    /// A shell from the gun to its burst.
    Shell { gun: V2, burst: V2 },
    /// Fire from the firers at the target (canister: a cone from the gun).
    Volley {
        firers: &'a [UnitId],
        target: UnitId,
        canister: bool,
    },
    /// Canister blasting through to the next unit, along its corridor.
    Corridor { pts: [V2; 4] },
    /// A unit took hits: a flash where it stands.
    Hit { unit: UnitId },
}

/// What an event says over the table (the follow camera's caption, the floating results).
#[derive(Clone, Debug, PartialEq)]
pub enum Caption {
    /// Words floating over a unit the event struck: "2 hits", "suppressed", "knocked out".
    Struck { unit: UnitId, words: String },
    /// A unit was fired at (a volley that struck nothing floats "no hits").
    FiredAt { unit: UnitId },
    /// A unit moved (the acting unit's caption says how, relative to itself).
    Moved { unit: UnitId, from: Pose, to: Pose },
    /// A commander rode from here.
    Rode { from: V2 },
    /// A command roll's outcome.
    Ordered(CommandOutcome),
}

/// What the hot-seat hand-over summary takes from an event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// The unit the event is about: hidden from the incoming player, the event is not told.
    pub about: Option<UnitId>,
    /// What a side did.
    pub deed: Option<Deed>,
    /// The event's line is one of the results listed (hits, falls back, knock-outs, melees).
    pub result: bool,
}

/// A side's deed, for the hand-over summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deed {
    Moved(UnitId),
    Charged(UnitId),
    Evaded(UnitId),
    /// A fire (by its first firer; none: the cross-fire of a blunder).
    Fired(Option<UnitId>),
    /// A command roll that failed or blundered.
    OrderFailed(CmdId),
    /// A self-order roll that failed.
    SelfOrderFailed(UnitId),
    Lost(UnitId),
}

/// An event that marks the flow of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    PhaseStarted {
        phase: Phase,
        active: SideId,
        game_turn: u32,
    },
    GameOver,
    /// A round or the result of a melee.
    Melee,
    /// A winner's consolidation after a melee, chosen in its own window (BPT "Consolidate").
    Consolidated,
}

/// Everything but the log line that an event means (see the module's introduction).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts<'a> {
    pub throws: Vec<Throw>,
    pub settles: bool,
    pub clip: Option<Clip<'a>>,
    pub caption: Option<Caption>,
    pub summary: Summary,
    pub mark: Option<Mark>,
}

impl<'a> Facts<'a> {
    /// Nothing to say but the line.
    pub(crate) fn none() -> Self {
        Facts::default()
    }
    /// Dice were rolled: these, and the action stands.
    pub(crate) fn rolled(throws: Vec<Throw>) -> Self {
        Facts {
            throws,
            settles: true,
            ..Facts::default()
        }
    }
    pub(crate) fn clip(mut self, c: Clip<'a>) -> Self {
        self.clip = Some(c);
        self
    }
    pub(crate) fn caption(mut self, c: Caption) -> Self {
        self.caption = Some(c);
        self
    }
    /// Words floating over a struck unit.
    pub(crate) fn struck(self, unit: UnitId, words: impl Into<String>) -> Self {
        self.caption(Caption::Struck {
            unit,
            words: words.into(),
        })
    }
    pub(crate) fn about(mut self, u: UnitId) -> Self {
        self.summary.about = Some(u);
        self
    }
    pub(crate) fn deed(mut self, d: Deed) -> Self {
        self.summary.deed = Some(d);
        self
    }
    /// One of the hand-over's results.
    pub(crate) fn result(mut self) -> Self {
        self.summary.result = true;
        self
    }
    pub(crate) fn mark(mut self, m: Mark) -> Self {
        self.mark = Some(m);
        self
    }
}
