//! Pure rules maths: no ECS, no I/O. Geometry, dice and odds, line of sight, layouts, the
//! rule parameters.

pub mod artillery;
pub mod dice;
pub mod formation;
pub mod geometry;
pub mod layout;
pub mod los;
pub mod odds;
pub mod params;
pub mod switches;
pub mod terrain;
pub mod way;
