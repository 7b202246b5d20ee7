//! The ground floor of the agents: what every program that plays a side is.

use crate::battle::{Action, Battle};

/// Something that chooses actions for a side. `Send`, so the window can let it think on
/// another thread while it keeps drawing.
pub trait Agent: Send {
    /// Pick one of `legal` (never empty) for the current state.
    fn choose(&mut self, battle: &Battle, legal: &[Action]) -> usize;
    /// The action to play now: one of `legal` ([`Agent::choose`]), or one the rules take that
    /// the list does not name (an intent's move to an exact pose, as a player's drag or
    /// intent gives). What plays a side plays this; it goes through the same validated
    /// pipeline as any action.
    fn choose_action(&mut self, battle: &Battle, legal: &[Action]) -> Action {
        legal[self.choose(battle, legal).min(legal.len() - 1)].clone()
    }
    fn name(&self) -> &'static str;
    /// Why it made its last choice, one line for the battle log (the scheduler and greedy).
    fn reason(&self) -> Option<String> {
        None
    }
    /// Its plan, when it made or changed one since this was last asked (the scheduler on a big
    /// battle): why, and the plan in a line, said to `viewer` (a side: only of the formations
    /// that side can see; None: all of them). Asked once a choice, before the choice's reason.
    fn plan_news(&mut self, _b: &Battle, _viewer: Option<crate::battle::state::SideId>) -> Option<String> {
        None
    }
    /// The plan last told by [`Agent::plan_news`], with why, said to `viewer` (None: all of
    /// it, as a recording keeps it for a replay). None before any plan was told.
    fn plan_told(&self, _b: &Battle, _viewer: Option<crate::battle::state::SideId>) -> Option<String> {
        None
    }
    /// The plan last told, as a recording keeps it ([`crate::replay::PlanNote`]): whole, and
    /// as the other side of `side` (the one this agent plays) may read it on `b`.
    fn plan_kept(&self, b: &Battle, side: crate::battle::state::SideId) -> Option<(String, Option<String>)> {
        let whole = self.plan_told(b, None)?;
        Some((whole, self.plan_told(b, Some(1 - side.min(1)))))
    }
}
