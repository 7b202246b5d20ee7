//! The ground floor of the battle: the ids every other part names (units, commanders, sides).

pub type UnitId = u32;
pub type CmdId = u32;
pub type SideId = usize;
