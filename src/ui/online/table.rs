//! The online game at the table: the table's actions go to the server instead of through
//! `Battle::step` here (`app::HeldElsewhere` holds the local door shut), and what the server
//! sends back becomes the table's battle: each snapshot mirrored on the scenario
//! (`view::mirror`), each batch of events an `ActionApplied`, so the log, the dice panel, the
//! animation, the pieces and the phase walk take them as they take a hot-seat action.

use super::link::{Link, News};
use crate::app::phase::PhaseQueue;
use crate::app::{ActionApplied, ActionRequest, BattleState};
use crate::battle::Battle;
use crate::server::protocol::Batch;
use crate::ui::session::BattleLog;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::path::PathBuf;

/// The online game as the table keeps it.
#[derive(Resource, Clone)]
pub struct OnlineGame {
    /// The scenario's battle before any action: the ground each snapshot is mirrored on.
    pub start: Battle,
    /// Actions the server has applied (what an action sent now must name).
    pub seq: u64,
    /// The decision is this seat's.
    pub your_decision: bool,
    pub over: bool,
    /// The action sent and not yet answered: its number and how it is said (on the state it
    /// was chosen on).
    pub sent: Option<(u64, String)>,
    /// The server answers.
    pub connected: bool,
    /// The log holds the events that came before the table opened.
    pub caught_up: bool,
    /// Where the finished game's recording was saved.
    pub recording: Option<PathBuf>,
}

impl OnlineGame {
    pub fn new(start: Battle, seq: u64) -> OnlineGame {
        OnlineGame {
            start,
            seq,
            your_decision: false,
            over: false,
            sent: None,
            connected: true,
            caught_up: false,
            recording: None,
        }
    }

    /// Why an action cannot be sent now, if it cannot.
    pub fn why_not(&self) -> Option<&'static str> {
        if self.over {
            Some("the game is over")
        } else if self.sent.is_some() {
            Some("the server has not answered your last action yet")
        } else if !self.your_decision {
            Some("the decision is not yours")
        } else {
            None
        }
    }
}

/// The table's actions to the server, one at a time.
pub(super) fn send_requests(
    mut requests: MessageReader<ActionRequest>,
    link: Res<Link>,
    mut game: ResMut<OnlineGame>,
    battle: Res<BattleState>,
    mut log: ResMut<BattleLog>,
) {
    for ActionRequest(action) in requests.read() {
        if let Some(why) = game.why_not() {
            log.status = Some(format!("not sent: {why}"));
            continue;
        }
        match link.act(game.seq, action.clone()) {
            Ok(()) => {
                let heading = crate::report::heading(&battle.0, action);
                game.sent = Some((game.seq, heading));
                log.status = Some("sent to the server…".into());
            }
            Err(e) => log.status = Some(format!("not sent: {e}")),
        }
    }
}

/// Where the server's news go: the battle, the applied actions, the phase walk and the log.
#[derive(SystemParam)]
pub(super) struct Table<'w> {
    battle: ResMut<'w, BattleState>,
    applied: MessageWriter<'w, ActionApplied>,
    queue: ResMut<'w, PhaseQueue>,
    log: ResMut<'w, BattleLog>,
    record: ResMut<'w, crate::ui::session::GameRecord>,
    /// The server's computer's plan, as this side was told it, for the orders panel.
    plan: Option<ResMut<'w, crate::ui::follow::ComputerPlan>>,
}

/// The server's news into the table.
pub(super) fn receive(link: Res<Link>, mut game: ResMut<OnlineGame>, mut table: Table) {
    for news in link.news() {
        match news {
            News::Update { state, batches } => {
                let next = match mirror(&game.start, &state) {
                    Ok(b) => b,
                    Err(e) => {
                        table.log.status = Some(format!("the server's state cannot be shown: {e}"));
                        continue;
                    }
                };
                let first = !game.caught_up;
                game.caught_up = true;
                take_batches(&mut game, &mut table, &next, batches, first);
                if game.sent.as_ref().is_some_and(|(n, _)| *n < state.seq) {
                    game.sent = None;
                }
                game.seq = state.seq;
                game.your_decision = state.your_decision;
                game.over = state.over;
                table.battle.0 = next;
                table.log.status = waiting(&table.battle.0, &game);
            }
            News::Refused(why) => {
                game.sent = None;
                table.log.status = Some(format!("the server did not take it: {why}"));
            }
            News::Connection(lost) => {
                game.connected = lost.is_none();
                table.log.status = Some(match lost {
                    Some(why) => format!("no answer from the server ({why}); trying again…"),
                    None => "the server answers again; the table has caught up".into(),
                });
            }
            News::Recording(Ok(text)) => {
                let saved = crate::server::kept::save_recording(std::path::Path::new("saves"), &link.seat.game, &text);
                table.log.status = Some(match saved {
                    Ok(path) => {
                        // The game's record is now the server's whole recording: the result
                        // screen's chart and replay read it.
                        if let Ok(rec) = crate::replay::Recording::parse(&text, &path) {
                            table.record.recording = rec;
                        }
                        let said = format!("the game's recording is saved to {}", path.display());
                        game.recording = Some(path);
                        said
                    }
                    Err(e) => format!("could not save the recording: {e}"),
                });
            }
            News::Recording(Err(e)) => table.log.status = Some(format!("no recording from the server: {e}")),
            News::Failed(why) => {
                game.connected = false;
                table.log.status = Some(format!("the server refused this seat: {why}"));
            }
        }
    }
}

/// The batches of one update: each an applied action (the table's own with the action and
/// the words it was sent with; the other side's with what this side may see of it, and the
/// server's computer's plan as this side was told it), or, for the actions played before the
/// table opened, lines of the log only.
fn take_batches(game: &mut OnlineGame, table: &mut Table, next: &Battle, batches: Vec<Batch>, earlier: bool) {
    let turn = table.battle.0.game_turn;
    for batch in batches {
        // The server's computer's plan, made or changed with this action: said before it.
        if let Some(said) = &batch.plan {
            let side = batch.side.min(1);
            let line = crate::report::computer_says(&next.sides[side].name, &said.agent, &said.text);
            table
                .log
                .lines
                .push(crate::ui::session::LogLine::told(next, turn, false, line));
            if let Some(plan) = table.plan.as_mut() {
                plan.0[side] = Some(said.text.clone());
            }
        }
        let heading = match (&batch.act, &game.sent) {
            (Some(_), Some((n, said))) if *n == batch.action => said.clone(),
            (Some(a), _) => crate::report::heading(&table.battle.0, a),
            (None, _) => their_heading(&next.sides[batch.side.min(1)].name, &batch.events),
        };
        if earlier {
            table.log.push_action(next, turn, heading, &batch.events);
            continue;
        }
        table.queue.passed(&batch.events);
        table.applied.write(ActionApplied {
            action: batch.act,
            heading,
            game_turn: turn,
            events: batch.events,
            state_hash: next.state_hash(),
            continues: false,
        });
    }
}

/// The battle a state describes, mirrored on the scenario at its start, with the number of
/// actions the server has applied.
pub fn mirror(start: &Battle, state: &crate::server::protocol::State) -> Result<Battle, String> {
    let mut b = crate::view::mirror::mirror(start, &state.snapshot).map_err(|e| e.to_string())?;
    b.arrange_lazily(|s| s.actions = state.seq);
    Ok(b)
}

/// The log's heading of an action of the other side, which this table is not told: its
/// side, and, when the server let none of its events through, that this side saw nothing
/// of it (so an empty heading does not look like a fault).
pub fn their_heading(side: &str, events: &[crate::battle::Event]) -> String {
    if events.is_empty() {
        format!("{side}: {}", crate::ui::session::UNSEEN_ACTION)
    } else {
        format!("{side}:")
    }
}

/// The status line while the other side decides (or the game is over).
fn waiting(b: &Battle, game: &OnlineGame) -> Option<String> {
    if game.over {
        return Some("the game is over".into());
    }
    (!game.your_decision).then(|| format!("{} to decide: waiting for them on the server", b.sides[b.actor()].name))
}

#[cfg(test)]
mod tests {
    use super::their_heading;
    use crate::battle::Event;
    use crate::battle::event::PhaseEvent;
    use crate::battle::state::Phase;

    #[test]
    fn an_unseen_action_of_the_other_side_is_said_unseen() {
        assert_eq!(
            their_heading("Confederate", &[]),
            "Confederate: an action your side did not see"
        );
        let seen = [Event::Phase(PhaseEvent::PhaseStarted {
            phase: Phase::Command,
            active: 1,
            game_turn: 1,
            player_turn: 2,
        })];
        assert_eq!(their_heading("Confederate", &seen), "Confederate:");
    }
}
