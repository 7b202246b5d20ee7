//! `volley odds`: the exact distribution of hits of a fire, or an artillery round's expected
//! hits (the fire preview's maths).

use super::out::{done, output_failed, stdout};
use super::refusal::Refusal;
use crate::rules::artillery as art;
use crate::rules::odds;
use std::io::Write;

#[derive(clap::Args)]
pub(super) struct Odds {
    #[arg(long)]
    dice: u32,
    #[arg(long = "to-hit")]
    to_hit: u32,
    #[arg(long)]
    save: Option<u32>,
    /// Artillery: `shot` (with --accuracy: the crew's accuracy score) or `canister` (with
    /// --behind: the to-hit scores of the units behind the target in the corridor).
    #[arg(long)]
    ammo: Option<String>,
    #[arg(long, default_value_t = 4)]
    accuracy: u32,
    #[arg(long, value_delimiter = ',', requires = "ammo")]
    behind: Vec<u32>,
    /// Artillery: the first time the unit fires, +1 to every hit roll (BPT's first-fire
    /// bonus), through the whole canister chain too.
    #[arg(long = "first-fire", requires = "ammo")]
    first_fire: bool,
    #[arg(long)]
    json: bool,
}

/// Why `--behind` and `--first-fire` need `--ammo`.
pub(super) const REFUSALS: &[Refusal] = &[
    Refusal::needs("behind", "ammo", "--behind is for canister (--ammo canister)"),
    Refusal::needs(
        "first_fire",
        "ammo",
        "--first-fire is for artillery (--ammo); for other fire give the score it needs",
    ),
];

/// The most dice `odds` works out: far beyond any fire on the table, and the binomial's
/// floating point stays exact enough (at 1,100 dice and more it underflows to NaN).
const ODDS_MAX_DICE: u32 = 1000;

impl Odds {
    pub fn run(self) -> Result<(), String> {
        self.check()?;
        let Some(ammo) = &self.ammo else {
            let report = odds::odds_report(self.dice, self.to_hit, self.save);
            let mut w = stdout();
            if self.json {
                out!(w, "{}", serde_json::to_string(&report).expect("serialises"));
            } else {
                write!(w, "{report}").map_err(output_failed)?;
            }
            return done(w);
        };
        match ammo.as_str() {
            "shot" => self.shot(),
            "canister" => self.canister(),
            other => Err(format!("--ammo wants shot or canister, not '{other}'")),
        }
    }

    /// The numbers within what the dice allow: dice 1 to [`ODDS_MAX_DICE`], scores 2+ to 6+.
    fn check(&self) -> Result<(), String> {
        let dice = self.dice;
        if !(1..=ODDS_MAX_DICE).contains(&dice) {
            return Err(format!("--dice must be 1 to {ODDS_MAX_DICE}, not {dice}"));
        }
        let score = |what: &str, v: u32| {
            if (2..=6).contains(&v) {
                Ok(())
            } else {
                Err(format!("{what} is the score a d6 must reach, 2 to 6, not {v}"))
            }
        };
        score("--to-hit", self.to_hit)?;
        if let Some(s) = self.save {
            score("--save", s)?;
        }
        if self.ammo.is_some() {
            score("--accuracy", self.accuracy)?;
        }
        for &b in &self.behind {
            score("--behind", b)?;
        }
        Ok(())
    }

    /// Taken off every score to hit (the first-fire +1), as the game does after the score.
    fn roll_bonus(&self) -> u32 {
        u32::from(self.first_fire)
    }

    fn bonus_note(&self) -> String {
        match self.roll_bonus() {
            0 => String::new(),
            b => format!(", +{b} to hit (first fire)"),
        }
    }

    /// `--ammo shot`: the expected hits of a round shot on its target, and its bounces.
    fn shot(&self) -> Result<(), String> {
        let Odds {
            dice,
            to_hit,
            save,
            accuracy,
            ..
        } = *self;
        let roll_bonus = self.roll_bonus();
        let on_target = art::p_on_target(accuracy);
        let need = to_hit.saturating_sub(roll_bonus).max(1);
        let given = art::expected_shot_hits(dice, need, save);
        let bounces = art::bounce_chain_odds(&art::ArtilleryParams::default(), dice);
        let mut w = stdout();
        if self.json {
            let value = serde_json::json!({
                "ammo": "shot", "dice": dice, "to_hit": to_hit, "save": save, "accuracy": accuracy,
                "roll_bonus": roll_bonus,
                "p_on_target": on_target, "hits_if_on_target": given, "expected_hits": on_target * given,
                "p_bounces": bounces,
            });
            out!(w, "{value}");
            return done(w);
        }
        out!(
            w,
            "round shot: {} at {to_hit}+, accuracy {accuracy}+{}",
            crate::report::count(dice, "die"),
            self.bonus_note()
        );
        out!(w, "  lands on the aim point: {:.1}%", on_target * 100.0);
        out!(w, "  expected hits on the first stand if it does: {given:.3}");
        out!(w, "  expected hits from landing on target: {:.3}", on_target * given);
        out!(
            w,
            "  bounces on open ground: 1st {:.1}%, 2nd {:.1}%, 3rd {:.1}% (each bounce strikes with one die fewer)",
            bounces[0] * 100.0,
            bounces[1] * 100.0,
            bounces[2] * 100.0
        );
        done(w)
    }

    /// `--ammo canister`: the expected hits of a blast on the target and each unit behind it.
    fn canister(&self) -> Result<(), String> {
        let (dice, to_hit, save, behind) = (self.dice, self.to_hit, self.save, &self.behind);
        let roll_bonus = self.roll_bonus();
        let mut to_hits = vec![to_hit];
        to_hits.extend_from_slice(behind);
        let saves: Vec<Option<u32>> = std::iter::once(save).chain(behind.iter().map(|_| None)).collect();
        let e = art::canister_expected_hits(dice, &to_hits, &saves, roll_bonus);
        let mut w = stdout();
        if self.json {
            let value = serde_json::json!({
                "ammo": "canister", "dice": dice, "to_hits": to_hits, "save": save, "roll_bonus": roll_bonus,
                "expected_hits": e,
            });
            out!(w, "{value}");
            return done(w);
        }
        out!(
            w,
            "canister: {}; target at {to_hit}+, then {} behind{}",
            crate::report::count(dice, "die"),
            crate::report::count(behind.len() as i64, "unit"),
            self.bonus_note()
        );
        for (k, h) in e.iter().enumerate() {
            let who = if k == 0 {
                "target".to_string()
            } else {
                format!("behind {k}")
            };
            out!(w, "  {who:>9}: expected hits {h:.3}");
        }
        done(w)
    }
}
