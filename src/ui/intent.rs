//! Intent orders in the window (issue 65): the orders panel's "By intent" buttons put an
//! intent in hand ([`IntentInHand`]); [`drive`] plays it out a step a frame, as a computer
//! player's choice is played: each order and move goes in as an `ActionRequest` (so it is
//! checked, recorded, animated and undone as a click's would be), the next only once the last
//! is applied and its animation has played, each said in the battle log. It waits while the
//! other side decides a window its moves opened (opportunity fire), and ends when the run is
//! over, the phase ends, or the battle is replaced.

use crate::app::{ActionRefused, ActionRequest, BattleState};
use crate::battle::Battle;
use crate::battle::intent::{IntentRun, RunStep, Standing, Tally};
use crate::ui::common::{IntentAsk, Screen, TableSystems};
use crate::ui::session::{BattleLog, LogLine};
use bevy::prelude::*;

/// The intent being played out, if any.
#[derive(Resource, Default)]
pub struct IntentInHand(pub Option<Hand>);

/// The intents left short, offered again in their side's next command phases
/// ([`crate::battle::intent::standing`]).
#[derive(Resource, Default)]
pub struct StandingIntents(pub Standing);

/// An intent in play: the run, who acts in words, the action count at the last request (it
/// is applied once the count moves on), and the tally for the closing line.
pub struct Hand {
    pub run: IntentRun,
    pub who: String,
    waiting: Option<u64>,
    tally: Tally,
}

impl Hand {
    /// The intent asked, ready to play; or why it cannot be.
    pub fn new(b: &Battle, ask: IntentAsk) -> Result<Hand, String> {
        let run = IntentRun::new(b, ask.side, &ask.units, ask.intent)?;
        Ok(Hand {
            run,
            who: ask.who,
            waiting: None,
            tally: Tally::new(&ask.units),
        })
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<IntentInHand>()
        .init_resource::<StandingIntents>()
        .add_systems(
            Update,
            drive.in_set(TableSystems::Request).run_if(in_state(Screen::Battle)),
        );
}

/// A step of the intent in hand, once the last has been applied and has played out.
fn drive(
    mut hand: ResMut<IntentInHand>,
    mut standing: ResMut<StandingIntents>,
    battle: Res<BattleState>,
    mut refused: MessageReader<ActionRefused>,
    mut requests: MessageWriter<ActionRequest>,
    mut log: ResMut<BattleLog>,
    effects: Query<(), With<crate::ui::animation::Effect>>,
) {
    let was_refused = refused.read().count() > 0;
    let Some(h) = hand.0.as_mut() else {
        return;
    };
    let b = &battle.0;
    if was_refused && h.waiting.take().is_some() {
        h.run.refused();
    }
    if let Some(at) = h.waiting {
        if b.actions == at {
            return;
        }
        h.waiting = None;
    }
    if !effects.is_empty() {
        return;
    }
    let turn = b.game_turn;
    // Said lines that need no action run on in the same frame; an action waits for the next.
    for _ in 0..64 {
        match h.run.next(b) {
            RunStep::Order(a) => {
                requests.write(ActionRequest(a));
                h.waiting = Some(b.actions);
                return;
            }
            RunStep::Act(a, m) => {
                let line = crate::report::intent::intent_line(b, &h.run.intent, &m);
                log.lines.push(LogLine::told(b, turn, true, line));
                h.tally.step(m.unit, true, m.met());
                requests.write(ActionRequest(a));
                h.waiting = Some(b.actions);
                return;
            }
            RunStep::Stays(m) => {
                h.tally.step(m.unit, false, m.met());
                let line = crate::report::intent::intent_line(b, &h.run.intent, &m);
                log.lines.push(LogLine::told(b, turn, false, line));
            }
            RunStep::Unordered(why) => log.lines.push(LogLine::told(b, turn, false, format!("{why}."))),
            RunStep::Wait => return,
            RunStep::Over(why) => {
                let line = h.tally.closing(&h.who, &h.run.intent, &why);
                log.lines.push(LogLine::told(b, turn, false, line));
                standing.0.ended(b, &h.run, &h.who, &h.tally);
                log.status = Some(format!("{}: {}: done", h.who, h.run.intent.words(b)));
                hand.0 = None;
                return;
            }
        }
    }
}
