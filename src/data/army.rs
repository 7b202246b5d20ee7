//! Army lists: BPT troop charts and command charts as data (`assets/armies/*.ron`).

use serde::{Deserialize, Serialize};

/// BPT "Arm of Service".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
    Transport,
    Engineers,
}

/// The notes column of a troop chart, as switches the rules read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Trait {
    /// Rifled weapon (musket, carbine, cannon).
    Rifled,
    /// Smoothbore weapon.
    Smoothbore,
    /// Skirmishers / sharpshooters: may open extended line 2 cm apart; 5+ save (ACW note 14).
    Sharpshooter,
    /// Mounted cavalry (charge attacks, only cavalry support cavalry, exhaustion).
    Mounted,
    /// Mounted cavalry armed with sabres (4 charge attacks per stand instead of 3).
    Sabre,
    /// Dismounted cavalry stand (fights as infantry; a horse holder stand does not fire).
    Dismounted,
    /// A limber / tow vehicle row.
    Limber,
    /// Siege gun: never moves (ACW note 15).
    Siege,
    /// Howitzer: shell only, high-angle fire, no half-range bonus.
    Howitzer,
    /// Mortar: shell only, high-angle fire, never moves, target saves 4+ (ACW note 16).
    Mortar,
    /// Gatling gun: range 10 cm, jams on any double (ACW note 12).
    Gatling,
    /// Lancers: +1 attack die in their first charge round (ACW note 13).
    Lancer,
    /// Engineers (BPT "Engineering").
    Engineer,
    /// Heavy cavalry: +1 attack die in every charge round while mounted (Napoleonic note 13).
    HeavyCavalry,
    /// +1 attack die when firing (Napoleonic note 22: British-trained infantry, Jager, Grenz).
    ExtraAttack,
    /// Irregular cavalry: "may not charge infantry in square" (Napoleonic note 14: Cossacks,
    /// irregulars).
    Irregular,
    /// "Must use attack column march formation in a charge" (Napoleonic note 21: French,
    /// Russian, French-trained infantry): charges only in attack column, never in line.
    ChargesInColumn,
    /// "May not form square and defend against cavalry as in open ground" (Napoleonic note
    /// 24: Spanish infantry).
    NoSquare,
    /// Only in historical scenarios that name it (inferior 1861 cavalry, Gatlings).
    ScenarioOnly,
}

/// One row of a troop chart. BPT "Stat Lines".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TroopRow {
    /// The key scenarios use, e.g. `"regular_infantry_rifled"`.
    pub id: String,
    /// The row's name as the book prints it.
    pub name: String,
    pub arm: Arm,
    /// Move in cm. For artillery, the man-handled rate (the first number of "3/10").
    pub movement: f64,
    /// Artillery: the prolonge rate (second number of "3/10"). Limbers: the horse-artillery rate.
    #[serde(default)]
    pub movement_alt: Option<f64>,
    /// Attack dice per stand (first number of "1/20").
    pub attacks: u32,
    /// Weapon range in cm (second number of "1/20").
    pub range: f64,
    /// Hits per stand.
    pub hits: u32,
    /// Save score (5 means 5+); `None` for no save.
    #[serde(default)]
    pub save: Option<u8>,
    #[serde(default)]
    pub points: Option<u32>,
    /// The chart's min/max limit text, e.g. "4/-".
    #[serde(default)]
    pub limit: Option<String>,
    /// The note numbers as printed.
    #[serde(default)]
    pub notes: Vec<u32>,
    #[serde(default)]
    pub traits: Vec<Trait>,
    /// For mounted cavalry: the row used when this unit dismounts (ACW note 3).
    #[serde(default)]
    pub dismounts_to: Option<String>,
}

impl TroopRow {
    pub fn has(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CommandLevel {
    Brigade,
    Division,
    Corps,
    Army,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Quality {
    Uninspiring,
    Average,
    Exceptional,
}

/// One row of a command chart. BPT "Command Unit".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandRow {
    /// e.g. `"brigade_average"`.
    pub id: String,
    pub level: CommandLevel,
    pub quality: Quality,
    /// Command value (2d6 must roll this or less).
    pub command: u8,
    /// Move on foot / mounted, cm ("10/30").
    pub movement: f64,
    pub movement_mounted: f64,
    /// Command presence: extra attack dice for a touching unit that attacks.
    pub attack_bonus: u32,
    pub hits: u32,
    #[serde(default)]
    pub save: Option<u8>,
    #[serde(default)]
    pub points: Option<u32>,
    #[serde(default)]
    pub limit: Option<String>,
    #[serde(default)]
    pub notes: Vec<u32>,
}

/// A whole army list file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyList {
    /// e.g. "ACW Union Army".
    pub name: String,
    pub troops: Vec<TroopRow>,
    pub commands: Vec<CommandRow>,
    /// Most exceptional-quality HQs allowed per command level (ACW note 11).
    #[serde(default)]
    pub exceptional_per_level: Option<u32>,
    /// The special-rules text by note number, for the unit card.
    #[serde(default)]
    pub notes: Vec<(u32, String)>,
}

impl ArmyList {
    /// The Napoleonic notes the rules read from the printed note numbers (BPT "Napoleonic
    /// Special Rules"): 14 -> [`Trait::Irregular`], 21 -> [`Trait::ChargesInColumn`], 24 ->
    /// [`Trait::NoSquare`], for a list named "Napoleonic ..." (the ACW lists number their notes
    /// otherwise). Given when the list is loaded, so the army files, and with them the content
    /// hash of every scenario and recording that uses them, stay as they were (issue 64).
    pub fn read_napoleonic_notes(&mut self) {
        if !self.name.starts_with("Napoleonic") {
            return;
        }
        for t in &mut self.troops {
            for (note, tr) in [
                (14, Trait::Irregular),
                (21, Trait::ChargesInColumn),
                (24, Trait::NoSquare),
            ] {
                if t.notes.contains(&note) && !t.traits.contains(&tr) {
                    t.traits.push(tr);
                }
            }
        }
    }

    pub fn troop(&self, id: &str) -> Option<&TroopRow> {
        self.troops.iter().find(|t| t.id == id)
    }
    pub fn command(&self, id: &str) -> Option<&CommandRow> {
        self.commands.iter().find(|c| c.id == id)
    }
}
