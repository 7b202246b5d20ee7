//! The end phase, the start of a player turn, breakpoint and victory (BPT "End Phase",
//! "End of the Battle", "Breakpoint", "Reaching an Objective", "Deciding the Winner",
//! "Replacing a Command Unit").

use super::event::{EndReason, Event};
use super::state::*;
use crate::battle::event::families::*;
use crate::data::scenario::ObjectiveLevel;

impl Battle {
    /// Units of `side` knocked out so far.
    pub fn units_lost(&self, side: SideId) -> u32 {
        self.units
            .iter()
            .filter(|u| u.side == side && u.knocked_out && !u.retired)
            .count() as u32
    }

    /// Formations of `side` (a commander and the units he leads himself) with half their units
    /// or more knocked out: the brigades a battle cost it (issue 66: "loses at least one
    /// brigade a side a game"). The planner calls a formation broken by the same half, of
    /// the units it had when its plan was made.
    pub fn brigades_lost(&self, side: SideId) -> u32 {
        let mut by: std::collections::BTreeMap<CmdId, (u32, u32)> = std::collections::BTreeMap::new();
        for u in self.units.iter().filter(|u| u.side == side && !u.retired) {
            let e = by.entry(u.hq).or_default();
            e.0 += 1;
            e.1 += u32::from(u.knocked_out);
        }
        by.values().filter(|&&(n, lost)| n > 0 && lost * 2 >= n).count() as u32
    }

    /// Start the active player's turn: replacements, breakpoint test, initiative phase.
    pub(crate) fn start_player_turn(&mut self, ev: &mut Vec<Event>) {
        self.change_turn(TurnChange::PhaseOpen(Phase::Initiative));
        self.change_command(CommandChange::Reset);
        ev.push(self.phase_event());
        self.replace_commanders(ev);
        self.breakpoint_test(ev);
    }

    /// BPT "Replacing a Command Unit": once per commander, at the start of its side's next
    /// turn, one command value worse; placed beside the unit of its command nearest its old place.
    fn replace_commanders(&mut self, ev: &mut Vec<Event>) {
        let side = self.active;
        let ids: Vec<CmdId> = self
            .commanders
            .iter()
            .filter(|c| c.side == side && c.knocked_out && !c.replaced)
            .map(|c| c.id)
            .collect();
        for c in ids {
            let old = self.commander(c).pos;
            let spot = self
                .side_units(side)
                .filter(|u| self.in_chain(u.hq, c))
                .chain(self.side_units(side))
                .map(|u| (u.id, u.pose.pos.dist(old)))
                .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
                .map(|(u, _)| self.spot_behind(u));
            let Some(pos) = spot else { continue };
            let pen = self.rules.command.replacement_penalty;
            let pt = self.player_turn;
            let command_value = self.commander(c).command_value + pen;
            for change in [
                CommanderChange::KnockedOut(false),
                CommanderChange::Replaced(true),
                CommanderChange::Pos(pos),
                CommanderChange::CommandValue(command_value),
                CommanderChange::PlacedTurn(Some(pt)),
                CommanderChange::Suppressed(None),
                CommanderChange::Hits(0),
            ] {
                self.change_commander(c, change);
            }
            ev.push(Event::Command(CommandEvent::CommanderReplaced {
                commander: c,
                pos,
                command_value,
            }));
        }
    }

    /// The modified command value of `side`'s breakpoint test (BPT "Breakpoint"), or None
    /// while it is short of its breakpoint or already broken: its CO's command value, −1 per
    /// unit lost beyond the breakpoint, and the weather's command penalty (the test is a
    /// command roll; BPT "Weather": "a -1 command penalty … extreme … -2").
    pub fn breakpoint_value(&self, side: SideId) -> Option<i32> {
        let lost = self.units_lost(side);
        let bp = self.sides[side].breakpoint;
        if self.sides[side].broken || lost < bp {
            return None;
        }
        let value = self.co(side).map(|c| self.commander(c).command_value).unwrap_or(0);
        let weather = self.weather_modifier().map_or(0, |m| m.amount);
        Some(value - (lost - bp) as i32 + weather)
    }

    /// BPT "Breakpoint": once a command has lost half its units (rounded up), its CO makes a
    /// command roll at the start of each of its turns, −1 per unit lost beyond; failing breaks
    /// it, and it "will break and withdraw from the battlefield immediately": it does not act
    /// again. "If a Command breaks, but the opposing player still has a turn outstanding to
    /// complete the current game turn, he can choose to continue play until the end of his
    /// turn, after which, the game ends": a side moving first that breaks leaves its turn
    /// unplayed, its opponent plays its own, and that turn's end phase ends the battle; a side
    /// moving second that breaks ends it at once. (Before `bpt-2` a first side that broke
    /// still played its turn; from `bpt-2` until issue 64 the battle ended at once either way.)
    fn breakpoint_test(&mut self, ev: &mut Vec<Event>) {
        let side = self.active;
        let Some(target) = self.breakpoint_value(side) else {
            return;
        };
        let dice = [self.dice_mut().d6(), self.dice_mut().d6()];
        let total = (dice[0] + dice[1]) as i32;
        let broken = dice == [6, 6] || (dice != [1, 1] && total > target) || self.side_units(side).next().is_none();
        ev.push(Event::Morale(MoraleEvent::BreakpointRoll {
            side,
            value: target,
            dice,
            broken,
        }));
        if broken {
            self.change_side(side, SideChange::Broken(true));
            self.change_side(side, SideChange::BrokeTurn(Some(self.player_turn)));
            ev.push(Event::Morale(MoraleEvent::SideBroken { side }));
            if side == self.first_side {
                // The opponent's turn of this game turn is outstanding: it is played.
                self.change_turn(TurnChange::PlayerTurn(self.player_turn + 1));
                self.change_turn(TurnChange::Active(1 - side));
                self.start_player_turn(ev);
            } else {
                self.game_over(EndReason::Breakpoint, ev);
            }
        }
    }

    /// BPT "End Phase": remove stands for the hits taken, clear hits, recover the active
    /// player's units suppressed before this turn; then the next turn or the end.
    pub(crate) fn end_phase(&mut self, ev: &mut Vec<Event>) {
        if self.phase == Phase::GameOver {
            return;
        }
        self.change_turn(TurnChange::PhaseOpen(Phase::End));
        ev.push(self.phase_event());
        let pt = self.player_turn;
        for i in 0..self.units.len() {
            let u = &self.units[i];
            let id = u.id;
            let (hits, before) = (u.hits, u.hits_before_disorder);
            let removed = if u.alive() && hits > 0 {
                u.stands_lost(&self.rules, pt)
            } else {
                0
            };
            let left = u.stands - removed;
            if hits != 0 {
                self.change_unit(id, UnitChange::Hits(0));
            }
            if before != 0 {
                self.change_unit(id, UnitChange::HitsBeforeDisorder(0));
            }
            if removed > 0 {
                self.change_unit(id, UnitChange::Stands(left));
                ev.push(Event::Morale(MoraleEvent::StandsRemoved {
                    unit: id,
                    removed,
                    left,
                }));
                if left == 0 {
                    self.knock_out(id, super::event::KnockOut::Hits, ev);
                } else if self.units[i].refused != (false, false) {
                    // A shorter line swings its refused stands further in: if they would
                    // now stand on another unit (or it is too short to refuse), it dresses.
                    let rects = self.compute_geom(&self.units[i]).rects;
                    if left < 3 || self.overlapping_unit(id, &rects).is_some() {
                        self.change_unit(id, UnitChange::Refused((false, false)));
                    }
                }
            }
        }
        let hit: Vec<CmdId> = self.commanders.iter().filter(|c| c.hits != 0).map(|c| c.id).collect();
        for c in hit {
            self.change_commander(c, CommanderChange::Hits(0));
        }
        let active = self.active;
        let recovered: Vec<UnitId> = self
            .side_units(active)
            .filter(|u| u.suppressed.is_some_and(|s| s.player_turn < pt))
            .map(|u| u.id)
            .collect();
        for unit in recovered {
            self.change_unit(unit, UnitChange::Suppressed(None));
            ev.push(Event::Morale(MoraleEvent::SuppressionCleared { unit }));
        }
        let recovered: Vec<CmdId> = self
            .commanders
            .iter()
            .filter(|c| c.side == active && c.suppressed.is_some_and(|s| s.player_turn < pt))
            .map(|c| c.id)
            .collect();
        for c in recovered {
            self.change_commander(c, CommanderChange::Suppressed(None));
        }
        self.refresh_geometry();
        // The end of the battle.
        let second = self.active != self.first_side;
        if self.sides.iter().any(|s| s.broken) && second {
            self.game_over(EndReason::Breakpoint, ev);
            return;
        }
        for s in 0..2 {
            if self.side_units(s).next().is_none() {
                self.change_side(s, SideChange::Broken(true));
                self.game_over(EndReason::CommandDestroyed, ev);
                return;
            }
        }
        if second {
            if (0..2).any(|s| self.objective_held(s) == Some(ObjectiveLevel::Major)) {
                self.game_over(EndReason::MajorObjective, ev);
                return;
            }
            if self.game_turn >= self.turn_limit {
                self.game_over(EndReason::TurnLimit, ev);
                return;
            }
            self.weather_end_of_game_turn(ev);
            self.change_turn(TurnChange::GameTurn(self.game_turn + 1));
        }
        self.change_turn(TurnChange::PlayerTurn(self.player_turn + 1));
        self.change_turn(TurnChange::Active(1 - self.active));
        self.start_player_turn(ev);
    }

    /// The best objective `side` holds now: one of its unsuppressed units within the radius
    /// and no enemy unit within it (decision, docs/rules.md).
    pub fn objective_held(&self, side: SideId) -> Option<ObjectiveLevel> {
        let mut best = None;
        for o in self.objectives.iter().filter(|o| o.side == self.sides[side].name) {
            let near = |s: SideId, need_ok: bool| {
                self.side_units(s).any(|u| {
                    (!need_ok || !u.suppressed())
                        && self.rects(u.id).iter().any(|r| r.distance_to_point(o.pos) <= o.radius)
                })
            };
            if near(side, true) && !near(1 - side, false) {
                if o.level == ObjectiveLevel::Major {
                    return Some(ObjectiveLevel::Major);
                }
                best = Some(ObjectiveLevel::Minor);
            }
        }
        best
    }

    /// Victory points: the points of every enemy unit and commander knocked out.
    pub fn victory_points(&self) -> [u32; 2] {
        let per = self.rules.fire.default_stand_points;
        let mut vp = [0u32; 2];
        for u in self.units.iter().filter(|u| u.knocked_out && !u.retired) {
            let points = u.row.points.unwrap_or(per) * u.start_stands;
            // BPT "Morale Grades": "the points cost of units should be adjusted" (−25 % / +25 %),
            // rounded to the nearest point.
            let points = match self.morale_grade(u.id) {
                Some(g) => ((points as i64 * (100 + g.points_percent as i64) + 50) / 100).max(0) as u32,
                None => points,
            };
            vp[1 - u.side] += points;
        }
        for c in self.commanders.iter().filter(|c| c.knocked_out || c.replaced) {
            vp[1 - c.side] += c.row.points.unwrap_or(0);
        }
        for s in 0..2 {
            if self.sides[s].broken {
                vp[s] = vp[s].min(vp[1 - s]);
            }
        }
        vp
    }

    /// BPT "Reaching an Objective" and "Deciding the Winner".
    pub fn compute_outcome(&self, reason: EndReason) -> Outcome {
        let obj = [self.objective_held(0), self.objective_held(1)];
        let rank = |o: Option<ObjectiveLevel>| match o {
            None => 0,
            Some(ObjectiveLevel::Minor) => 1,
            Some(ObjectiveLevel::Major) => 2,
        };
        let (r0, r1) = (rank(obj[0]), rank(obj[1]));
        // A broken side reaches no objectives.
        let r = [
            if self.sides[0].broken { 0 } else { r0 },
            if self.sides[1].broken { 0 } else { r1 },
        ];
        let (mut winner, mut result) = if r[0] == r[1] {
            (None, ResultKind::Draw)
        } else {
            let w = if r[0] > r[1] { 0 } else { 1 };
            let kind = if r[w] == 2 && r[1 - w] == 0 {
                ResultKind::Decisive
            } else {
                ResultKind::Minor
            };
            (Some(w), kind)
        };
        // A broken side cannot win; its opponent wins at least a minor victory.
        for s in 0..2 {
            if self.sides[s].broken && !self.sides[1 - s].broken && winner != Some(1 - s) {
                winner = Some(1 - s);
                result = ResultKind::Minor;
            }
        }
        let vp = self.victory_points();
        let ratio = self.rules.victory.vp_ratio;
        // BPT "improves his result by one category": one step up the ladder decisive defeat,
        // minor defeat, draw, minor victory, decisive victory, from the side's own result
        // (**Decision**, issue 64: a side that lost on objectives is improved too).
        for s in 0..2 {
            if vp[s] > 0 && vp[s] >= ratio * vp[1 - s] && vp[s] > vp[1 - s] {
                (winner, result) = improved(winner, result, s);
            }
        }
        // The scenario rule: a draw goes to the side with more victory points.
        if winner.is_none() && self.decide_on_points && vp[0] != vp[1] {
            winner = Some(if vp[0] > vp[1] { 0 } else { 1 });
            result = ResultKind::Minor;
        }
        Outcome {
            winner,
            result,
            victory_points: vp,
            units_lost: [self.units_lost(0), self.units_lost(1)],
            objectives: obj,
            reason,
        }
    }

    pub(crate) fn game_over(&mut self, reason: EndReason, ev: &mut Vec<Event>) {
        let o = self.compute_outcome(reason);
        ev.push(Event::Phase(PhaseEvent::GameOver {
            winner: o.winner,
            result: o.result,
            victory_points: o.victory_points,
            reason,
        }));
        self.change_turn(TurnChange::Over(Box::new(o)));
    }
}

/// The result one category better for side `s` (BPT "Victory Points"): a defeat one step
/// less bad, a draw a minor victory, a minor victory decisive; a decisive victory stays so.
fn improved(winner: Option<usize>, result: ResultKind, s: usize) -> (Option<usize>, ResultKind) {
    match (winner, result) {
        (None, _) => (Some(s), ResultKind::Minor),
        (Some(w), ResultKind::Minor) if w == s => (Some(s), ResultKind::Decisive),
        (Some(w), _) if w == s => (Some(s), result),
        (Some(w), ResultKind::Decisive) => (Some(w), ResultKind::Minor),
        (Some(_), _) => (None, ResultKind::Draw),
    }
}
