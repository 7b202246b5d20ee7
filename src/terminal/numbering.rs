//! Action numbers that hold for a whole phase (issue 65, "the terminal at scale"): an action
//! keeps the number it was first listed under until the phase (or the side deciding) changes,
//! so an order's number read off the list still names that order after other actions were
//! played. A new action (a unit's moves from where it now stands) takes the next number; an
//! action no longer possible leaves its number unused.

use crate::battle::{Action, Battle, Phase, SideId};

/// What a numbering holds for: the turn, the side whose turn it is, the side deciding and the
/// phase.
type Key = (u32, SideId, SideId, Phase);

#[derive(Default)]
pub struct Numbering {
    key: Option<Key>,
    actions: Vec<Action>,
}

impl Numbering {
    /// The number of each of `legal` (in its order), numbering the new ones.
    pub fn of(&mut self, b: &Battle, legal: &[Action]) -> Vec<usize> {
        let key = (b.game_turn, b.active, b.actor(), b.phase);
        if self.key != Some(key) {
            self.key = Some(key);
            self.actions.clear();
        }
        legal
            .iter()
            .map(|a| match self.actions.iter().position(|x| x == a) {
                Some(n) => n,
                None => {
                    self.actions.push(a.clone());
                    self.actions.len() - 1
                }
            })
            .collect()
    }

    /// The action numbered `n` this phase, if any was.
    pub fn action(&self, n: usize) -> Option<&Action> {
        self.actions.get(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_hold_within_a_phase_and_start_again_with_the_next() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/first_battle.ron");
        let mut b = crate::load_battle(&path, 1).expect("loads").0;
        b.apply(&Action::EndPhase).expect("to the command phase");
        let mut n = Numbering::default();
        let legal = b.legal_actions();
        let first = n.of(&b, &legal);
        assert_eq!(first, (0..legal.len()).collect::<Vec<_>>());
        // The same list again: the same numbers; a shorter one keeps the numbers it had.
        assert_eq!(n.of(&b, &legal), first);
        let fewer: Vec<Action> = legal[2..].to_vec();
        assert_eq!(n.of(&b, &fewer), first[2..].to_vec());
        // A new action takes the next number.
        let mut more = legal.clone();
        more.push(Action::Pass);
        assert_eq!(n.of(&b, &more).last(), Some(&legal.len()));
        assert_eq!(n.action(legal.len()), Some(&Action::Pass));
        // The next phase numbers from 0 again.
        while b.phase == Phase::Command {
            b.apply(&Action::EndPhase).expect("the phase ends");
        }
        let next = b.legal_actions();
        assert_eq!(n.of(&b, &next), (0..next.len()).collect::<Vec<_>>());
    }
}
