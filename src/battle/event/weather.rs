//! Optional rule "Weather".

use super::parts::*;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum WeatherEvent {
    /// BPT "Weather (Optional Rule)": the roll before the game or at the end of a game turn.
    WeatherRoll {
        dice: [u32; 2],
        from: crate::data::scenario::Weather,
        to: crate::data::scenario::Weather,
        /// The game turn at whose end it was rolled (`None`: before the battle).
        when: Option<u32>,
    },
}
