//! Which words a viewer may be told: a line of the log, an action's heading, a computer
//! player's reason or the ring on the table round what it did is shown to a side only if it
//! names no unit that side may not know of ([`PlayerView::knows`]).
//!
//! **Decision**: the words are read for the units' names, whole (a name stands between the
//! line's edges or characters that are not letters or digits: the "1st Texas" is not named by
//! "21st Texas"). A reason is written by many hands (the look-ahead's runner-up, the plan, the
//! greedy judge), so its words, not a list kept beside them, are what is checked: a new way of
//! saying things cannot slip a hidden unit past. A name that happens to be inside a longer name
//! ("1st Texas" in "1st Texas Cavalry") only hides more.

use super::PlayerView;
use crate::battle::Battle;
use crate::battle::state::SideId;

/// Does `text` name `name`, whole?
pub fn names(text: &str, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
    text.match_indices(name)
        .any(|(i, _)| edge(text[..i].chars().next_back()) && edge(text[i + name.len()..].chars().next()))
}

impl PlayerView<'_> {
    /// May the viewer read `text`: does it name no unit the viewer may not know of?
    pub fn may_read(&self, text: &str) -> bool {
        // The words first: whether a dug-in unit is known asks for sight lines.
        self.battle()
            .units
            .iter()
            .all(|u| !names(text, &u.name) || self.knows(u.id))
    }

    /// May the viewer be told of event `e`: is every unit it names one it may know of?
    /// (`view::events::visible`'s rule, and the log's.)
    pub fn may_be_told(&self, e: &crate::battle::Event) -> bool {
        crate::report::named_units(e).into_iter().all(|u| self.knows(u))
    }
}

/// Which sides may read `text` on `b` ([`PlayerView::may_read`]), by side.
pub fn readers(b: &Battle, text: &str) -> [bool; 2] {
    let read = |s: SideId| PlayerView::side(b, s).may_read(text);
    [read(0), read(1)]
}

/// Which sides may be told of event `e` on `b` ([`PlayerView::may_be_told`]), by side.
pub fn event_readers(b: &Battle, e: &crate::battle::Event) -> [bool; 2] {
    let read = |s: SideId| PlayerView::side(b, s).may_be_told(e);
    [read(0), read(1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_named_whole_only() {
        assert!(names("1st Texas: moves 6 cm", "1st Texas"));
        assert!(names("against +0.3 for the 1st Texas", "1st Texas"));
        assert!(names("(1st Texas)", "1st Texas"));
        assert!(!names("21st Texas: moves 6 cm", "1st Texas"));
        assert!(!names("1st Texans", "1st Texas"));
        assert!(names("21st Texas and 1st Texas", "1st Texas"), "the second is whole");
        assert!(!names("anything", ""));
        assert!(!names("", "1st Texas"));
    }
}
