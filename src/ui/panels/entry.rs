//! The orders panel's buttons as data: what a button does ([`Click`]), one button
//! ([`Entry`]), a folding group of them ([`OrderGroup`]), the group an action is listed under,
//! and the small words they share. The panel's parts (`orders`, `who`, `by_intent`) build on
//! these.

use crate::battle::Action;
use crate::ui::common::Selection;

/// The group an action is listed under.
pub fn group(a: &Action) -> &'static str {
    match a {
        Action::Order { .. }
        | Action::SelfOrder { .. }
        | Action::Activate { .. }
        | Action::Rally { .. }
        | Action::Attach { .. } => "Order",
        Action::Move { .. }
        | Action::CommanderMove { .. }
        | Action::InitiativeEvade { .. }
        | Action::CounterEvade { .. }
        | Action::Consolidate { .. } => "Move",
        Action::Fire { .. }
        | Action::InitiativeFire { .. }
        | Action::CounterFire { .. }
        | Action::FireTogether { .. }
        | Action::OpportunityFire { .. } => "Fire",
        Action::Charge { .. }
        | Action::InitiativeCharge { .. }
        | Action::CounterCharge { .. }
        | Action::DrawSabers { .. }
        | Action::Support { .. } => "Charge",
        Action::Deploy { .. }
        | Action::InitiativeDeploy { .. }
        | Action::CounterDeploy { .. }
        | Action::Engineer { .. } => "Deploy",
        Action::Pass | Action::EndPhase => "Phase",
    }
}

/// What a button of the panel does.
#[derive(Clone, Debug, PartialEq)]
pub enum Click {
    /// Send this action (hovering previews it).
    Act(Action),
    /// Select this unit or commander (the list of who may act).
    Select(Selection),
    /// Put an intent in hand for the selection's unit or formation (`ui::intent`).
    Intent(crate::ui::common::IntentAsk),
}

/// One button: its words and what it does.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub text: String,
    pub click: Click,
}

/// A group of buttons under a heading that folds; `open` is how it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderGroup {
    /// The heading, with the number of buttons when there are several: "Fire (2)".
    pub title: String,
    /// A line in words above the buttons (how to drag a unit, for instance).
    pub note: Option<String>,
    pub entries: Vec<Entry>,
    pub open: bool,
}

/// A heading with its count when there are several: "Fire (2)".
pub(super) fn titled(name: &str, n: usize) -> String {
    if n > 1 {
        format!("{name} ({n})")
    } else {
        name.to_string()
    }
}

/// "A", "A and B", "A, B and C".
pub(super) fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
