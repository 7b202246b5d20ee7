//! BPT "Movement Formations": the five formations and disordered.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Formation {
    Line,
    ExtendedLine,
    MarchColumn,
    AttackColumn,
    Square,
    Disordered,
}

impl Formation {
    pub const ALL: [Formation; 6] = [
        Formation::Line,
        Formation::ExtendedLine,
        Formation::MarchColumn,
        Formation::AttackColumn,
        Formation::Square,
        Formation::Disordered,
    ];
}

impl std::fmt::Display for Formation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Formation::Line => "line",
            Formation::ExtendedLine => "extended line",
            Formation::MarchColumn => "march column",
            Formation::AttackColumn => "attack column",
            Formation::Square => "square",
            Formation::Disordered => "disordered",
        })
    }
}
