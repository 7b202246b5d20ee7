//! The dice an event rolled, as faces to draw (the window's dice panel): each set of dice with
//! what it was rolled for, which dice scored (hits, saves, a passed roll) and the need.
//! Read from the events themselves, never from the log's text; each family says its own
//! throws (`super::facts`).

/// One throw of dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Throw {
    /// What the dice were for: "to hit", "saves", "command", "suppression"...
    pub what: &'static str,
    /// Whose dice, where an event has both sides' (a melee round).
    pub side: Option<crate::battle::state::SideId>,
    /// The need, in words: "3+", "≤ 6", "6s".
    pub need: String,
    /// The faces, as rolled.
    pub faces: Vec<u32>,
    /// Sides of the dice (6, or 12 for a shell's clock).
    pub sides: u32,
    /// Which faces scored (a hit, a save, a passed test); all false for dice that only count
    /// (a distance) or failed.
    pub scored: Vec<bool>,
    /// The throw passed (one roll for the whole throw: a command roll, a test), when it is one.
    pub passed: Option<bool>,
}

impl Throw {
    /// d6s marked by `scored`, with `need` in words and the whole throw's result if it has one.
    pub(crate) fn new(
        what: &'static str,
        need: String,
        faces: &[u32],
        scored: Vec<bool>,
        passed: Option<bool>,
    ) -> Throw {
        Throw {
            what,
            side: None,
            need,
            faces: faces.to_vec(),
            sides: 6,
            scored,
            passed,
        }
    }

    /// Each die at or above `need` scores (a hit, a save, a suppression).
    pub(crate) fn each(what: &'static str, faces: &[u32], need: u32) -> Throw {
        let scored = faces.iter().map(|&f| f >= need).collect();
        Throw::new(what, format!("{need}+"), faces, scored, None)
    }

    /// A throw that passes or fails as a whole: every face marked as the result.
    pub(crate) fn whole(what: &'static str, need: String, faces: &[u32], passed: bool) -> Throw {
        Throw::new(what, need, faces, vec![passed; faces.len()], Some(passed))
    }

    /// Dice that only count (a distance, a clock): nothing scores.
    pub(crate) fn counted(what: &'static str, faces: &[u32], sides: u32) -> Throw {
        Throw {
            sides,
            ..Throw::new(what, String::new(), faces, vec![false; faces.len()], None)
        }
    }

    /// The `n` highest faces marked (the saves of a throw whose need the event does not keep:
    /// every face at or above the need saves, so the saved are the highest).
    pub(crate) fn top(what: &'static str, faces: &[u32], n: u32) -> Throw {
        let mut order: Vec<usize> = (0..faces.len()).collect();
        order.sort_by(|&a, &b| faces[b].cmp(&faces[a]).then(a.cmp(&b)));
        let mut scored = vec![false; faces.len()];
        for &i in order.iter().take(n as usize) {
            scored[i] = true;
        }
        let need = match (faces.is_empty(), n) {
            (true, _) => String::new(),
            (false, 0) => "none saved".into(),
            (false, n) => format!("{n} saved"),
        };
        Throw::new(what, need, faces, scored, None)
    }
}

#[cfg(test)]
mod tests {
    use super::super::throws;
    use crate::battle::event::CombatSide;
    use crate::battle::event::families::*;
    use crate::battle::event::{CommandOutcome, Event, FireCause, FireHow, FireWhy};
    use crate::rules::geometry::Aspect;
    use crate::rules::params::Cover;

    fn fired(to_hit: u32, roll_bonus: u32, rolls: &[u32], hits: u32, save: Option<u32>, save_rolls: &[u32]) -> Event {
        Event::Fire(FireEvent::Fired {
            firers: vec![0],
            target: 1,
            context: FireCause::new(FireWhy::Order, FireHow::Alone),
            base_dice: rolls.len() as i32,
            modifiers: Vec::new(),
            dice: rolls.len() as u32,
            aspect: Aspect::Front,
            cover: Cover::Open,
            to_hit,
            roll_bonus,
            rolls: rolls.to_vec(),
            hits,
            save,
            saved: save_rolls.iter().filter(|&&r| save.is_some_and(|s| r >= s)).count() as u32,
            save_rolls: save_rolls.to_vec(),
        })
    }

    /// BPT "Shooting": 4+ hits in the open; the first fire adds 1 to each die (a 3 hits);
    /// each save die at or above the save (5+ here) saves.
    #[test]
    fn fire_marks_the_hits_at_the_score_with_the_first_fire_bonus_and_the_saves() {
        let t = throws(&fired(4, 0, &[1, 4, 6, 3], 2, Some(5), &[5, 2]));
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].what, t[0].need.as_str()), ("to hit", "4+"));
        assert_eq!(t[0].scored, [false, true, true, false]);
        assert_eq!((t[1].what, t[1].need.as_str()), ("saves", "5+"));
        assert_eq!(t[1].scored, [true, false]);
        let t = throws(&fired(4, 1, &[1, 4, 6, 3], 3, None, &[]));
        assert_eq!(t.len(), 1, "no save, no save dice");
        assert_eq!(t[0].need, "3+");
        assert_eq!(t[0].scored, [false, true, true, true]);
    }

    /// ACW note 12: a jammed Gatling's dice score nothing (hits 0 though faces reach the need).
    #[test]
    fn a_jammed_gatlings_dice_score_nothing() {
        let t = throws(&fired(4, 0, &[5, 5, 2], 0, None, &[]));
        assert_eq!(t[0].scored, [false, false, false]);
    }

    /// BPT "Command Rolls": 2d6 ≤ the need issues the order; the whole roll passes or fails.
    #[test]
    fn a_command_roll_passes_or_fails_as_a_whole() {
        let roll = |dice, outcome| {
            Event::Command(CommandEvent::CommandRoll {
                commander: 0,
                units: vec![0],
                value: 7,
                modifiers: Vec::new(),
                target: 6,
                dice,
                outcome,
            })
        };
        let t = throws(&roll([4, 2], CommandOutcome::Success));
        assert_eq!(
            (t[0].need.as_str(), t[0].passed, &t[0].scored[..]),
            ("≤ 6", Some(true), &[true, true][..])
        );
        let t = throws(&roll([5, 3], CommandOutcome::Failure));
        assert_eq!((t[0].passed, &t[0].scored[..]), (Some(false), &[false, false][..]));
        let t = throws(&roll([6, 6], CommandOutcome::Blunder));
        assert_eq!(t[0].passed, Some(false));
    }

    /// A combat round's saves: the event keeps how many were saved, and every die at or above
    /// the save saved, so the highest dice are the saved ones.
    #[test]
    fn melee_marks_hits_at_the_score_and_the_highest_dice_as_saves() {
        let e = Event::Melee(MeleeEvent::CombatRound {
            round: 1,
            target: 1,
            sides: vec![CombatSide {
                side: 0,
                dice: 5,
                modifiers: Vec::new(),
                to_hit: 4,
                rolls: vec![1, 4, 6, 6, 3],
                hits: 3,
                save_rolls: vec![2, 6, 5],
                saved: 2,
                struck: 1,
            }],
        });
        let t = throws(&e);
        assert_eq!(t[0].scored, [false, true, true, true, false]);
        assert_eq!(
            (t[1].need.as_str(), &t[1].scored[..]),
            ("2 saved", &[false, true, true][..])
        );
    }

    /// Dice that only count (a fall-back's distance) score nothing; events without dice have
    /// no throws.
    #[test]
    fn counted_dice_score_nothing_and_events_without_dice_have_no_throws() {
        let e = Event::Morale(MoraleEvent::FellBack {
            unit: 0,
            rolls: vec![3, 5],
            distance: 8.0,
            from: crate::rules::geometry::Pose::new(crate::rules::geometry::V2::new(0.0, 0.0), 0.0),
            to: crate::rules::geometry::Pose::new(crate::rules::geometry::V2::new(0.0, 8.0), 0.0),
        });
        let t = throws(&e);
        assert_eq!((t[0].scored.clone(), t[0].passed), (vec![false, false], None));
        assert!(throws(&Event::Morale(MoraleEvent::Disordered { unit: 0 })).is_empty());
    }
}
