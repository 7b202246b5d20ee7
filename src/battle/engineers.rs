//! BPT "Engineering" (switch `Engineers`): in the initiative phase an engineer unit in contact
//! with linear terrain clears a 5 cm section of a fence or hedge (one die, 3+), demolishes a
//! 5 cm section of a wall (4+), or builds a pontoon bridge over a river (5 cm a phase, no
//! roll; every bridging unit at one crossing adds its section to the same bridge). Engineers
//! that work may not be ordered (nor attached, nor reached by a delayed order) that turn;
//! suppressed engineers may not work.
//! The table changes: the gap or the bridge is terrain from then on (line of sight, movement).

use super::action::{Refusal, refuse, refuse_with};
use super::event::Event;
use super::state::{Battle, Change, UnitChange, UnitId, WorksChange};
use crate::data::army::{Arm, Trait};
use crate::rules::geometry::V2;
use crate::rules::switches::Switch;
use crate::rules::terrain::{Linear, LinearKind, polyline_cut, polyline_project};
use std::sync::Arc;

pub use super::works::{Bridging, Task, Works};
use crate::battle::event::families::*;

/// Is this unit an engineer unit (BPT "Engineers"; ACW note 17)?
pub fn is_engineer(u: &super::state::Unit) -> bool {
    u.row.arm == Arm::Engineers || u.row.has(Trait::Engineer)
}

impl Battle {
    /// BPT "Engineering": "engineers may not be issued orders during the same turn in which
    /// they carry out a task" (orders, self-orders, attachments and activations alike).
    pub fn check_no_engineer_task(&self, id: UnitId) -> Result<(), Refusal> {
        let u = self.unit(id);
        if u.engineer_turn == Some(self.player_turn) {
            return refuse_with("BPT Engineering", || {
                format!("{} carried out a task this turn and may not be issued orders", u.name)
            });
        }
        Ok(())
    }

    /// May `unit` work on linear terrain `linear` now?
    pub fn check_engineer(&self, unit: UnitId, linear: u32) -> Result<Task, Refusal> {
        const RULE: &str = "BPT Engineering";
        if !self.rules.switches.on(Switch::Engineers) {
            return refuse(RULE, "engineer tasks are an optional rule that is off in this battle");
        }
        self.check_unit_id(unit)?;
        let u = self.unit(unit);
        if !u.alive() || u.side != self.active {
            return refuse(RULE, "only the active player's engineers carry out tasks");
        }
        if !is_engineer(u) {
            return refuse_with(RULE, || format!("{} are not engineers", u.name));
        }
        if u.suppressed() {
            return refuse(RULE, "suppressed engineers may not carry out a task");
        }
        if u.initiative_turn == Some(self.player_turn) {
            return refuse("BPT Initiative Phase", "a unit acts on its initiative once a turn");
        }
        if self.engaged(unit) {
            return refuse("BPT Charge", "a unit in a charge cannot carry out a task");
        }
        let Some(l) = self.terrain.linears.get(linear as usize) else {
            return refuse_with(RULE, || format!("there is no linear terrain number {linear}"));
        };
        let Some(task) = Task::for_kind(l.kind) else {
            return refuse_with(RULE, || format!("engineers cannot work on a {:?}", l.kind));
        };
        if l.points.len() < 2 {
            return refuse(RULE, "nothing of it is left");
        }
        let contact = self.rules.visibility.contact;
        if !self
            .rects(unit)
            .iter()
            .any(|r| self.terrain.linear_touching(r, contact).contains(&(linear as usize)))
        {
            return refuse(RULE, "engineers must begin the phase in contact with the obstacle");
        }
        Ok(task)
    }

    /// Every task open to the active side's engineers (for `legal_actions`).
    pub(crate) fn legal_engineer_tasks(&self) -> Vec<(UnitId, u32)> {
        if !self.rules.switches.on(Switch::Engineers) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for u in self.side_units(self.active).filter(|u| is_engineer(u)) {
            for i in 0..self.terrain.linears.len() as u32 {
                if self.check_engineer(u.id, i).is_ok() {
                    out.push((u.id, i));
                }
            }
        }
        out
    }

    /// Carry out the task (the one door's initiative branch).
    pub(crate) fn engineer_work(&mut self, unit: UnitId, linear: u32, task: Task, ev: &mut Vec<Event>) {
        let er = self.rules.engineers.clone();
        let turn = self.player_turn;
        self.change_unit(unit, UnitChange::InitiativeTurn(Some(turn)));
        self.change_unit(unit, UnitChange::EngineerTurn(Some(turn)));
        let centre = self.unit(unit).pose.pos;
        let l = self.terrain.linears[linear as usize].clone();
        let Some((s, at, dir)) = polyline_project(&l.points, centre) else {
            return;
        };
        match task {
            Task::Clear | Task::Demolish => {
                let need = if task == Task::Clear {
                    er.clear_score
                } else {
                    er.demolish_score
                };
                let roll = self.dice_mut().d6();
                let success = roll >= need;
                if success {
                    self.lay_work(task, linear, (s, at, dir));
                }
                ev.push(Event::Works(WorksEvent::EngineerWork {
                    unit,
                    task,
                    linear,
                    roll: Some((roll, need)),
                    built: None,
                    done: success,
                }));
            }
            Task::Bridge => {
                // "A 5cm section will be constructed per bridging unit": units at one crossing
                // build one bridge together (**Decision**: the same river, the points of it
                // nearest the units within `same_crossing`).
                let mut bridging = self.works.bridging.clone();
                let slot = bridging
                    .iter()
                    .position(|b| b.linear == linear && b.at.dist(at) <= er.same_crossing + 1e-9);
                let i = slot.unwrap_or_else(|| {
                    bridging.push(Bridging {
                        unit,
                        linear,
                        at,
                        built: 0.0,
                    });
                    bridging.len() - 1
                });
                bridging[i].built += er.bridge_section;
                let (built, at) = (bridging[i].built, bridging[i].at);
                let done = built + 1e-9 >= l.width;
                if done {
                    bridging.remove(i);
                }
                self.apply_change(Change::Works(WorksChange::Bridging(bridging)));
                if done {
                    self.lay_work(task, linear, (s, at, dir));
                }
                ev.push(Event::Works(WorksEvent::EngineerWork {
                    unit,
                    task,
                    linear,
                    roll: None,
                    built: Some((built.min(l.width), l.width)),
                    done,
                }));
            }
        }
    }

    /// A finished work changes the table: a gap `gap` wide cut in linear `linear` (clear,
    /// demolish), or a pontoon bridge across it (a road), at `at`, `s` along it, where it runs
    /// along `dir`. Noted in the works done; the line of sight follows. Also how a client's
    /// mirror of the battle lays the works its snapshot lists (`view::mirror`).
    pub fn lay_work(&mut self, task: Task, linear: u32, (s, at, dir): (f64, V2, V2)) {
        let er = self.rules.engineers.clone();
        let l = self.terrain.linears[linear as usize].clone();
        let mut terrain = self.terrain.clone();
        match task {
            Task::Clear | Task::Demolish => {
                let (before, after) = polyline_cut(&l.points, s - er.gap * 0.5, s + er.gap * 0.5);
                Arc::make_mut(&mut terrain).linears[linear as usize].points = before;
                if !after.is_empty() {
                    Arc::make_mut(&mut terrain).linears.push(Linear { points: after, ..l });
                }
            }
            Task::Bridge => {
                let across = dir.perp();
                let half = l.width * 0.5 + 1.0;
                Arc::make_mut(&mut terrain).linears.push(Linear {
                    kind: LinearKind::Road,
                    name: "pontoon bridge".into(),
                    points: vec![at - across * half, at + across * half],
                    width: er.bridge_width,
                });
            }
        }
        self.apply_change(Change::Works(WorksChange::Laid(task, linear, at, terrain)));
    }
}
