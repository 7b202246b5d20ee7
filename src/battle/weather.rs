//! BPT "Weather (Optional Rule)" and "Night (Optional Rule)" (switch `Weather`): the weather is
//! rolled before the battle and may change at the end of every game turn; it sets how far
//! troops see and the command penalty (`command.rs`). Night is poor weather that never changes.

use super::event::Event;
use super::state::{Battle, TurnChange};
use crate::battle::event::families::*;
use crate::data::scenario::Weather;
use crate::rules::params::{Visibility, WeatherRules};
use crate::rules::switches::Switch;

/// How far troops see (BPT "Line of Sight", "Weather", "Night"): the worse of weather and night.
pub fn visibility(vis: &Visibility, weather: Weather, night: bool) -> f64 {
    match (weather, night) {
        (Weather::Extreme, _) => vis.extreme,
        (Weather::Poor, _) | (_, true) => vis.poor,
        _ => vis.normal,
    }
}

/// The weather a 2d6 total gives before the battle (12 extreme, 10–11 poor).
pub fn initial(rules: &WeatherRules, total: u32) -> Weather {
    if total >= rules.extreme_from {
        Weather::Extreme
    } else if total >= rules.poor_from {
        Weather::Poor
    } else {
        Weather::Normal
    }
}

/// The weather after the end-of-turn test: double six a step worse, double one a step better.
pub fn change(rules: &WeatherRules, now: Weather, dice: [u32; 2]) -> Weather {
    if dice[0] != dice[1] {
        return now;
    }
    if dice[0] == rules.worsen_double {
        match now {
            Weather::Normal => Weather::Poor,
            _ => Weather::Extreme,
        }
    } else if dice[0] == rules.improve_double {
        match now {
            Weather::Extreme => Weather::Poor,
            _ => Weather::Normal,
        }
    } else {
        now
    }
}

impl Battle {
    fn set_weather(&mut self, w: Weather) {
        let v = visibility(&self.rules.visibility, w, self.night);
        self.change_turn(TurnChange::Weather(w, v));
    }

    /// Before the first turn: roll the weather, unless it is night or the scenario is a
    /// `historical` one ("In historical scenarios use the historical weather"; the rules
    /// file's `keep_scenario_weather` treats every scenario so).
    pub(crate) fn weather_before_battle(&mut self, historical: bool, ev: &mut Vec<Event>) {
        let keep = historical || self.rules.weather.keep_scenario_weather;
        if !self.rules.switches.on(Switch::Weather) || self.night || keep {
            return;
        }
        let dice = [self.dice_mut().d6(), self.dice_mut().d6()];
        let from = self.weather;
        let to = initial(&self.rules.weather, dice[0] + dice[1]);
        self.set_weather(to);
        ev.push(Event::Weather(WeatherEvent::WeatherRoll {
            dice,
            from,
            to,
            when: None,
        }));
    }

    /// At the end of each game turn: test for a change (never at night).
    pub(crate) fn weather_end_of_game_turn(&mut self, ev: &mut Vec<Event>) {
        if !self.rules.switches.on(Switch::Weather) || self.night {
            return;
        }
        let dice = [self.dice_mut().d6(), self.dice_mut().d6()];
        let from = self.weather;
        let to = change(&self.rules.weather, from, dice);
        self.set_weather(to);
        ev.push(Event::Weather(WeatherEvent::WeatherRoll {
            dice,
            from,
            to,
            when: Some(self.game_turn),
        }));
    }
}
