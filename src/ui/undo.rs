//! Undo: a step taken since the last die roll or hidden reveal can be taken back (a
//! mis-dragged move, the wrong unit picked); once dice are rolled the result stands.
//!
//! The battle is deterministic, so an action that rolled no dice and revealed nothing hidden
//! is taken back by restoring the state before it. The session keeps a stack of those states
//! (with the lengths of the log and the recording) since the last roll, reveal, change of
//! player or computer player's action; the recording drops the undone action, so saves and
//! replays stay valid.
//!
//! Each action is judged from what it did to the real battle, never by applying it again: its
//! events (`report::settles`: a die rolled, the game ended), the dice stream of the battle
//! after it against the state before, and what each side knows of the enemy after it
//! ([`reveals`]). The stack keeps a copy of the state after the last action (the state before
//! the next) with its hash: it is the state before the next action only if the recording stands
//! at that hash, and the battle handed over with an action is the state right after it only if
//! its hash is the action's (several actions applied in one frame: only the last is known).

use super::common::LegalCache;
use crate::app::{ActionApplied, BattleState};
use crate::battle::{Battle, Event};
use crate::replay::Recording;
use crate::ui::common::{Preview, Selection};
use crate::ui::session::{BattleLog, GameRecord, Seats};
use bevy::prelude::*;

/// Why nothing can be undone after a roll.
pub const DICE_ROLLED: &str = "dice were rolled: the result stands";
pub const REVEALED: &str = "a hidden unit was revealed: what was seen stays seen";
pub const OTHER_PLAYER: &str = "the decision passed to the other player";
pub const NOT_YOURS: &str = "the last action was not a player's at this table";
pub const NOTHING_YET: &str = "nothing to undo yet";
pub const TOGETHER: &str = "several actions were applied at once";
pub const ONLINE: &str = "an online game: what the server took stands";

/// Can an action with these events be taken back? Not if any of them settles it (a die was
/// rolled or the game ended: `report::settles`).
pub fn is_undoable(events: &[Event]) -> bool {
    !events.iter().any(crate::report::settles)
}

/// Did going from `before` to `after` reveal a hidden (dug-in) unit to either side?
pub fn reveals(before: &Battle, after: &Battle) -> bool {
    use crate::agents::perception::known_enemies;
    (0..2).any(|side| {
        let was = known_enemies(before, side);
        known_enemies(after, side).iter().any(|u| !was.contains(u))
    })
}

/// The state before an undoable action, and what the session had then.
#[derive(Clone)]
struct Point {
    battle: Battle,
    log: usize,
    actions: usize,
    checkpoints: usize,
    final_hash: u64,
    last: Option<(String, Vec<String>)>,
    heading: String,
}

/// The undo stack of the game in the window.
#[derive(Resource, Clone)]
pub struct UndoStack {
    points: Vec<Point>,
    /// The state after the last action seen (the state before the next one) and its hash, or
    /// why it is not known (a computer player's action, several actions in one frame).
    shadow: Result<(Battle, u64), &'static str>,
    /// Why nothing can be undone, when the stack is empty.
    why_not: &'static str,
}

impl UndoStack {
    pub fn new(battle: &Battle) -> Self {
        UndoStack {
            points: Vec::new(),
            shadow: Ok((battle.clone(), battle.state_hash())),
            why_not: NOTHING_YET,
        }
    }

    /// How many steps can be taken back.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Why the last action cannot be undone (when nothing can).
    pub fn why_not(&self) -> Option<&'static str> {
        self.points.is_empty().then_some(self.why_not)
    }

    /// What the next undo takes back.
    pub fn next_heading(&self) -> Option<&str> {
        self.points.last().map(|p| p.heading.as_str())
    }

    fn block(&mut self, why: &'static str) {
        self.points.clear();
        self.why_not = why;
    }

    /// Nothing can be undone, for `why` (the battle's next state comes from elsewhere).
    pub(crate) fn refuse(&mut self, why: &'static str) {
        self.shadow = Err(why);
        self.block(why);
    }

    /// Forget everything (a new battle state from elsewhere: a replay, taking command).
    pub fn reset(&mut self, battle: &Battle) {
        *self = UndoStack::new(battle);
    }

    /// An action was applied: `applied` tells what it did, `after` is the battle after it.
    /// `human` tells whether a side is played at this table; the session's lengths are taken
    /// before the action is logged and recorded.
    fn after_action(
        &mut self,
        applied: &ActionApplied,
        after: &Battle,
        human: impl Fn(usize) -> bool,
        session: (usize, &Recording, &Option<(String, Vec<String>)>),
        heading: String,
    ) {
        let (before, before_hash) = match std::mem::replace(&mut self.shadow, Err(NOT_YOURS)) {
            Ok(b) => b,
            Err(why) => return self.block(why),
        };
        if !human(before.actor()) {
            return self.block(NOT_YOURS);
        }
        let (log, rec, last) = session;
        // The copy is the state before this action only if the recording stands at it (else
        // the battle came from elsewhere), and `after` is the state right after the action
        // only if its hash is the action's (else more actions followed in the same frame).
        if before_hash != rec.final_hash {
            self.shadow = Err(NOTHING_YET);
            return self.block(NOTHING_YET);
        }
        if after.state_hash() != applied.state_hash {
            self.shadow = Err(TOGETHER);
            return self.block(TOGETHER);
        }
        // The events say whether dice were rolled; the dice stream is the safety net.
        let why = if !is_undoable(&applied.events) || after.dice.draws() != before.dice.draws() {
            Some(DICE_ROLLED)
        } else if reveals(&before, after) {
            Some(REVEALED)
        } else if after.actor() != before.actor() {
            Some(OTHER_PLAYER)
        } else {
            None
        };
        match why {
            Some(w) => self.block(w),
            None => self.points.push(Point {
                battle: before,
                log,
                actions: rec.actions.len(),
                checkpoints: rec.checkpoints.len(),
                final_hash: rec.final_hash,
                last: last.clone(),
                heading,
            }),
        }
        self.shadow = Ok((after.clone(), applied.state_hash));
    }
}

pub(crate) fn plugin(app: &mut App) {
    // With the table's input, before the battle's systems: the state it restores is synced to
    // the pieces and drawn in the same frame.
    app.add_systems(
        Update,
        undo_key
            .in_set(crate::ui::common::TableSystems::Input)
            .run_if(in_state(crate::ui::common::Screen::Battle)),
    );
}

/// Ctrl+Z / Backspace (`TableAction::Undo`): take back the last undoable step.
fn undo_key(
    controls: Option<
        Single<&leafwing_input_manager::prelude::ActionState<super::input::TableAction>, With<super::input::Controls>>,
    >,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut commands: Commands,
) {
    let Some(controls) = controls else { return };
    if !controls.just_pressed(&super::input::TableAction::Undo) {
        return;
    }
    // A text field takes Backspace itself.
    if egui.is_some_and(|e| e.wants_any_keyboard_input()) {
        return;
    }
    commands.queue(|world: &mut World| {
        undo_world(world);
    });
}

/// The phase bar's Undo button: greyed, saying why, when nothing can be undone.
pub fn button(ui: &mut bevy_egui::egui::Ui, stack: &UndoStack, asks: &mut crate::ui::common::Asks) {
    let label = match stack.len() {
        0 | 1 => "Undo (Ctrl+Z)".to_string(),
        n => format!("Undo ({n}) (Ctrl+Z)"),
    };
    let r = ui.add_enabled(!stack.is_empty(), bevy_egui::egui::Button::new(label));
    let r = match (stack.why_not(), stack.next_heading()) {
        (Some(why), _) => r.on_disabled_hover_text(format!("Nothing to undo: {why}")),
        (None, Some(h)) => r.on_hover_text(format!("Take back: {}", crate::ui::common::plain(h))),
        _ => r,
    };
    if r.clicked() {
        asks.undo = true;
    }
}

/// Keep the undo stack with an applied action (before it is logged and recorded): `after` is
/// the battle as it stands after it.
pub(crate) fn track(
    undo: &mut UndoStack,
    seats: &Seats,
    log: &BattleLog,
    record: &GameRecord,
    applied: &ActionApplied,
    after: &Battle,
    heading: &str,
) {
    undo.after_action(
        applied,
        after,
        |s| seats.human(s),
        (log.lines.len(), &record.recording, &log.last),
        heading.to_string(),
    );
}

impl UndoStack {
    /// At the end of a frame with actions: the copy is the battle as it now stands, if the
    /// actions did not leave one.
    pub(crate) fn settle(&mut self, battle: &Battle) {
        if self.shadow.is_err() {
            self.shadow = Ok((battle.clone(), battle.state_hash()));
        }
    }
}

/// Take back the last undoable step: the battle, the log, the dice panel and the recording as
/// they were before it. Says why not in the status line when nothing can be undone.
pub fn undo_world(world: &mut World) -> bool {
    let mut undo = world.resource_mut::<UndoStack>();
    let Some(p) = undo.points.pop() else {
        let why = undo.why_not;
        world.resource_mut::<BattleLog>().status = Some(format!("cannot undo: {why}"));
        return false;
    };
    undo.shadow = Ok((p.battle.clone(), p.final_hash));
    if undo.points.is_empty() {
        undo.why_not = NOTHING_YET;
    }
    let mut record = world.resource_mut::<GameRecord>();
    record.recording.actions.truncate(p.actions);
    record.recording.checkpoints.truncate(p.checkpoints);
    record.recording.final_hash = p.final_hash;
    let mut log = world.resource_mut::<BattleLog>();
    log.lines.truncate(p.log);
    log.last = p.last;
    log.refusal = None;
    log.status = Some(format!("undone: {}", crate::ui::common::plain(&p.heading)));
    world.resource_mut::<BattleState>().0 = p.battle;
    if let Some(mut legal) = world.get_resource_mut::<LegalCache>() {
        *legal = LegalCache::default();
    }
    if let Some(mut preview) = world.get_resource_mut::<Preview>() {
        preview.0 = None;
    }
    if let Some(mut drag) = world.get_resource_mut::<crate::ui::common::Drag>() {
        *drag = Default::default();
    }
    let b = &world.resource::<BattleState>().0;
    let sel = *world.resource::<Selection>();
    let gone = sel.unit.is_some_and(|u| !b.unit(u).alive()) || sel.commander.is_some_and(|c| !b.commander(c).alive());
    if gone {
        *world.resource_mut::<Selection>() = Selection::default();
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::event::families::*;
    use crate::battle::event::{CommandOutcome, MoveKind};
    use crate::rules::geometry::{Pose, V2};

    fn moved() -> Event {
        let p = Pose::new(V2::new(1.0, 2.0), 0.0);
        Event::Movement(MovementEvent::Moved {
            unit: 0,
            from: p,
            to: p,
            kind: MoveKind::Order,
            cost: 3.0,
        })
    }

    #[test]
    fn a_move_or_a_new_phase_is_undoable_a_roll_is_not() {
        assert!(is_undoable(&[]));
        assert!(is_undoable(&[moved()]));
        assert!(is_undoable(&[Event::Phase(PhaseEvent::PhaseStarted {
            phase: crate::battle::Phase::Command,
            active: 0,
            game_turn: 1,
            player_turn: 1,
        })]));
        let roll = Event::Command(CommandEvent::CommandRoll {
            commander: 0,
            units: vec![1],
            value: 8,
            modifiers: vec![],
            target: 8,
            dice: [3, 4],
            outcome: CommandOutcome::Success,
        });
        assert!(!is_undoable(std::slice::from_ref(&roll)));
        // One roll among moves is enough.
        assert!(!is_undoable(&[moved(), roll, moved()]));
        assert!(!is_undoable(&[Event::Morale(MoraleEvent::SuppressionTest {
            unit: 2,
            rolls: vec![5],
            need: 4,
            suppressed: false,
        })]));
        assert!(!is_undoable(&[Event::Morale(MoraleEvent::BreakpointRoll {
            side: 0,
            value: 6,
            dice: [1, 2],
            broken: false,
        })]));
    }
}
