//! Issue 65, intent orders: a unit or a formation told what to do ("to Hickory farm", "into
//! range of 12th Virginia", "form line facing", "retire behind", "hold") is given the legal
//! moves that best serve it, each through the one action pipeline, and told what it came to.

use volley::battle::intent::{Aim, Intent, IntentRun, RunStep};
use volley::battle::{Action, Battle, Phase};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn load(map: &str, seed: u64) -> Battle {
    let path = std::path::Path::new(ROOT).join("maps").join(map);
    volley::load_battle(&path, seed).expect("loads").0
}

fn unit(b: &Battle, name: &str) -> u32 {
    b.units.iter().find(|u| u.name == name).expect(name).id
}

/// To the command phase of the first side's first turn.
fn command_phase(b: &mut Battle) {
    while b.phase != Phase::Command {
        b.apply(&Action::EndPhase).expect("phase ends");
    }
}

/// Plays `run` to its end: every action through `Battle::apply`; the lines it said.
fn play(b: &mut Battle, run: &mut IntentRun) -> Vec<String> {
    let mut said = Vec::new();
    for _ in 0..200 {
        match run.next(b) {
            RunStep::Order(a) => match b.apply(&a) {
                Ok(evs) => said.extend(evs.iter().map(|e| volley::report::line(b, e))),
                Err(r) => {
                    said.push(format!("refused: {r}"));
                    run.refused();
                }
            },
            RunStep::Act(a, m) => {
                said.push(volley::report::intent::intent_line(b, &run.intent, &m));
                if let Err(r) = b.apply(&a) {
                    said.push(format!("refused: {r}"));
                    run.refused();
                }
            }
            RunStep::Unordered(why) => said.push(why),
            RunStep::Stays(m) => said.push(volley::report::intent::intent_line(b, &run.intent, &m)),
            RunStep::Over(why) => {
                said.push(why);
                return said;
            }
        }
    }
    panic!("the run did not end: {said:#?}");
}

#[test]
fn explore() {
    for seed in 1..6 {
        println!("seed {seed}");
        let mut b = load("first_battle.ron", seed);
        command_phase(&mut b);
        let side = b.active;
        let wi = unit(&b, "7th Wisconsin");
        let farm = b.find_places(side, "Hickory farm");
        println!("{:?}", farm);
        let mut run = IntentRun::new(&b, side, &[wi], Intent::To(farm[0].clone())).unwrap();
        for l in play(&mut b, &mut run) {
            println!("{l}");
        }
        let nh = unit(&b, "5th New Hampshire");
        let va = unit(&b, "12th Virginia");
        let mut run = IntentRun::new(&b, side, &[nh], Intent::IntoRange(va)).unwrap();
        for l in play(&mut b, &mut run) {
            println!("{l}");
        }
        let _ = Aim::Unit(va);
    }
}
