//! The table seen from above: terrain, stands, commanders and overlays, drawn as vector
//! shapes (bevy_prototype_lyon). Table coordinates are centimetres with x to the east and y
//! to the north; one world unit is one centimetre.
//!
//! Shapes are grouped into layers of one colour each and rebuilt only when what they show
//! changes: the terrain when a new battle is loaded, the troops when the battle state changes
//! (after an applied action), the overlays when the selection changes.

pub mod aim;
pub mod animate;
pub mod commanders;
pub mod envelope;
pub mod input;
pub mod labels;
pub mod measure;
pub mod orders;
pub mod overlays;
pub mod pen;
pub mod picking;
pub mod stands;
pub mod terrain;

use bevy::prelude::*;
use bevy_prototype_lyon::prelude::ShapePlugin;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(ShapePlugin);
    app.add_plugins((
        terrain::plugin,
        stands::plugin,
        commanders::plugin,
        overlays::plugin,
        envelope::plugin,
        measure::plugin,
        picking::plugin,
        input::plugin,
        aim::plugin,
        orders::plugin,
        labels::plugin,
    ));
    app.add_plugins(animate::plugin);
}
