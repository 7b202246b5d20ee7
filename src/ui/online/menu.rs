//! "Play online", from the main menu: the server's address (remembered in the settings),
//! host a game of the scenario chosen in the menu (the side, a person or the server's
//! scheduler as the opponent, the menu's optional rules), join one by its invite code, or go
//! back to one of "my games" (the seats kept in `saves/online/`, with whose decision each
//! waits on). Talking to the server runs on a thread; the window keeps drawing.

use super::link::Link;
use super::table::OnlineGame;
use crate::app::HeldElsewhere;
use crate::server::client::Client;
use crate::server::kept::{KeptSeat, keep_seat, kept_seats};
use crate::server::protocol::{MyGame, NewGame, Opponent, Seat, State};
use crate::ui::screens::menu::MenuState;
use crate::ui::session::{Agents, REMOTE};
use crate::ui::settings::{Settings, SettingsStore};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use std::path::PathBuf;
use std::thread::JoinHandle;

/// The "Play online" window's state.
#[derive(Resource, Default)]
pub struct OnlineMenu {
    pub open: bool,
    /// The side the host plays.
    pub host_side: usize,
    /// The other side is the server's scheduler (else a person, who joins by code).
    pub against_scheduler: bool,
    /// The invite code typed in.
    pub code: String,
    /// The seats kept here, with what the server last said of each (Refresh).
    pub games: Vec<(KeptSeat, Option<MyGame>)>,
    /// A request to the server under way: what it is, and its thread.
    busy: Option<(String, JoinHandle<Result<Reply, String>>)>,
    pub error: Option<String>,
    /// The window's buttons and fields as last drawn (label, window rect [x0, y0, x1, y1]).
    pub buttons: Vec<(String, [f32; 4])>,
}

impl OnlineMenu {
    /// What is under way, if anything.
    pub fn busy(&self) -> Option<&str> {
        self.busy.as_ref().map(|(what, _)| what.as_str())
    }
}

/// A seat opened on a server, ready for the table: the seat, its state, and the scenario's
/// file and battle at its start.
pub struct Opened {
    pub server: String,
    pub seat: Seat,
    pub state: State,
    pub scenario: PathBuf,
    pub start: crate::battle::Battle,
}

/// What a request to the server brought back.
enum Reply {
    Opened(Box<Opened>),
    Games(Vec<MyGame>),
}

/// What the player asked of the window this frame: a seat, or what the server says of the
/// games kept here.
enum Ask {
    Seat(SeatAsk),
    Refresh,
}

/// A seat to take: a game hosted, an invite taken, or a seat kept here.
enum SeatAsk {
    Host(NewGame),
    Join(String),
    Resume(KeptSeat),
}

/// The window, on the menu screen while it is open.
pub(super) fn online_window(
    mut contexts: EguiContexts,
    mut om: ResMut<OnlineMenu>,
    menu: Res<MenuState>,
    mut settings: ResMut<Settings>,
    store: Res<SettingsStore>,
    mut commands: Commands,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    finish_request(&mut om, &mut commands);
    let mut ask = None;
    let mut shown: Vec<(String, egui::Rect)> = Vec::new();
    let mut server = settings.server.clone();
    let mut open = om.open;
    egui::Window::new("Play online")
        .open(&mut open)
        // Over the menu, even after a click in the menu's list (the scenario to host).
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .default_width(460.0)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label("Server");
                let r = ui.text_edit_singleline(&mut server);
                shown.push(("server field".into(), r.rect));
            });
            ui.separator();
            ask = host_section(ui, &mut om, &menu, &mut shown);
            ui.separator();
            ask = join_section(ui, &mut om, &mut shown).or(ask.take());
            ui.separator();
            ask = games_section(ui, &om, &server, &mut shown).or(ask.take());
            if let Some(what) = om.busy() {
                ui.label(egui::RichText::new(format!("{what}…")).italics());
            }
            if let Some(e) = &om.error {
                ui.colored_label(egui::Color32::from_rgb(255, 170, 60), e);
            }
        });
    om.open = open;
    let k = ctx.zoom_factor();
    let buttons: Vec<(String, [f32; 4])> = shown
        .into_iter()
        .map(|(l, r)| (l, [r.min.x * k, r.min.y * k, r.max.x * k, r.max.y * k]))
        .collect();
    if om.buttons != buttons {
        om.buttons = buttons;
    }
    if server != settings.server {
        settings.server = server.clone();
    }
    if let Some(ask) = ask
        && om.busy.is_none()
    {
        let server = server_url(&server);
        settings.server = server.clone();
        // The address is remembered once it is used.
        if let Some(dir) = &store.dir
            && let Err(e) = settings.save(dir)
        {
            om.error = Some(format!("could not remember the server: {e}"));
        }
        start_request(&mut om, &server, ask);
    }
    Ok(())
}

/// The server's address as typed, made a URL: `host:7878` is `http://host:7878`; spaces and
/// a last `/` go.
pub fn server_url(typed: &str) -> String {
    let s = typed.trim().trim_end_matches('/');
    if s.contains("://") {
        s.to_string()
    } else {
        format!("http://{s}")
    }
}

/// "Host a game": the menu's chosen scenario, the host's side, the opponent.
fn host_section(
    ui: &mut egui::Ui,
    om: &mut OnlineMenu,
    menu: &MenuState,
    shown: &mut Vec<(String, egui::Rect)>,
) -> Option<Ask> {
    let entry = menu.scenarios.get(menu.chosen)?;
    ui.label(egui::RichText::new(format!("Host a game of {}", entry.title)).strong());
    ui.horizontal(|ui| {
        ui.label("You play");
        for (s, name) in entry.sides.iter().enumerate().take(2) {
            ui.radio_value(&mut om.host_side, s, name.as_str());
        }
    });
    ui.horizontal(|ui| {
        ui.label("against");
        ui.radio_value(&mut om.against_scheduler, false, "a person (they join with a code)");
        ui.radio_value(&mut om.against_scheduler, true, "the scheduler, on the server");
    });
    let r = ui.button("Host the game");
    shown.push(("Host the game".into(), r.rect));
    r.clicked().then(|| {
        Ask::Seat(SeatAsk::Host(NewGame {
            scenario: entry
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default(),
            host_side: om.host_side,
            opponent: if om.against_scheduler {
                Opponent::Agent("scheduler".into())
            } else {
                Opponent::Human
            },
            rules: menu.switches.iter().map(|s| s.key().to_string()).collect(),
            max_turns: None,
        }))
    })
}

/// "Join a game": the invite code.
fn join_section(ui: &mut egui::Ui, om: &mut OnlineMenu, shown: &mut Vec<(String, egui::Rect)>) -> Option<Ask> {
    ui.label(egui::RichText::new("Join a game").strong());
    let mut ask = None;
    ui.horizontal(|ui| {
        ui.label("Invite code");
        let r = ui.text_edit_singleline(&mut om.code);
        shown.push(("code field".into(), r.rect));
        let r = ui.add_enabled(!om.code.trim().is_empty(), egui::Button::new("Join"));
        shown.push(("Join".into(), r.rect));
        if r.clicked() {
            ask = Some(Ask::Seat(SeatAsk::Join(om.code.trim().to_string())));
        }
    });
    ask
}

/// "My games": the seats kept here for `server`, with whose decision each waits on once
/// refreshed; Play goes back to one.
fn games_section(
    ui: &mut egui::Ui,
    om: &OnlineMenu,
    server: &str,
    shown: &mut Vec<(String, egui::Rect)>,
) -> Option<Ask> {
    let mut ask = None;
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("My games").strong());
        let r = ui.button("Refresh");
        shown.push(("Refresh".into(), r.rect));
        if r.clicked() {
            ask = Some(Ask::Refresh);
        }
    });
    let server = server_url(server);
    let mine: Vec<&(KeptSeat, Option<MyGame>)> = om.games.iter().filter(|(k, _)| k.server == server).collect();
    if mine.is_empty() {
        ui.label(egui::RichText::new("No games on this server kept here yet.").weak());
    }
    egui::Grid::new("my_games").striped(true).show(ui, |ui| {
        for (kept, known) in mine {
            ui.label(format!("{} ({})", kept.seat.game, kept.seat.side_name));
            ui.label(match known {
                Some(g) if g.over => format!("{}: over", g.title),
                Some(g) if g.your_decision => format!("{}: your decision", g.title),
                Some(g) => format!("{}: their decision", g.title),
                None => "(Refresh to ask the server)".into(),
            });
            let label = format!("Play {}", kept.seat.game);
            let r = ui.button("Play");
            shown.push((label, r.rect));
            if r.clicked() {
                ask = Some(Ask::Seat(SeatAsk::Resume(kept.clone())));
            }
            ui.end_row();
        }
    });
    ask
}

/// Send what the player asked to the server, on a thread.
fn start_request(om: &mut OnlineMenu, server: &str, ask: Ask) {
    om.error = None;
    let server = server.to_string();
    let (what, job): (String, Box<dyn FnOnce() -> Result<Reply, String> + Send>) = match ask {
        Ask::Refresh => {
            om.games = kept_games();
            let tokens: Vec<String> = om
                .games
                .iter()
                .filter(|(k, _)| k.server == server)
                .map(|(k, _)| k.seat.token.clone())
                .collect();
            (
                "asking the server".into(),
                Box::new(move || {
                    let rt = crate::server::runtime()?;
                    rt.block_on(Client::new(&server).my_games(&tokens))
                        .map(Reply::Games)
                        .map_err(|e| e.to_string())
                }),
            )
        }
        Ask::Seat(seat) => (
            match &seat {
                SeatAsk::Host(_) => "hosting the game".to_string(),
                SeatAsk::Join(_) => "joining the game".to_string(),
                SeatAsk::Resume(k) => format!("opening game {}", k.seat.game),
            },
            Box::new(move || {
                let rt = crate::server::runtime()?;
                let (server, seat) = take_seat(&rt, server, seat)?;
                open_seat(&rt, server, seat).map(|o| Reply::Opened(Box::new(o)))
            }),
        ),
    };
    om.busy = Some((what, std::thread::spawn(job)));
}

/// The seat asked for, with its server.
fn take_seat(rt: &tokio::runtime::Runtime, server: String, ask: SeatAsk) -> Result<(String, Seat), String> {
    let client = Client::new(&server);
    let seat = match ask {
        SeatAsk::Host(game) => rt.block_on(client.host(&game)),
        SeatAsk::Join(code) => rt.block_on(client.join(&code)),
        SeatAsk::Resume(kept) => return Ok((kept.server, kept.seat)),
    };
    Ok((server, seat.map_err(|e| e.to_string())?))
}

/// A seat taken (hosted, joined or kept): kept in `saves/online/`, its state read, and the
/// scenario it is of set up.
fn open_seat(rt: &tokio::runtime::Runtime, server: String, seat: Seat) -> Result<Opened, String> {
    keep_seat(&server, &seat)?;
    let client = Client::new(&server).seated(&seat.token);
    let state = rt.block_on(client.state(&seat.game)).map_err(|e| e.to_string())?;
    let (scenario, start) = crate::server::client::scenario_for(&state.snapshot)?;
    Ok(Opened {
        server,
        seat,
        state,
        scenario,
        start,
    })
}

/// A request that has finished: a seat opened goes to the table; a list of games is shown.
fn finish_request(om: &mut OnlineMenu, commands: &mut Commands) {
    if !om.busy.as_ref().is_some_and(|(_, h)| h.is_finished()) {
        return;
    }
    let Some((_, handle)) = om.busy.take() else { return };
    match handle.join() {
        Ok(Ok(Reply::Opened(o))) => {
            om.open = false;
            commands.queue(move |world: &mut World| {
                if let Err(e) = enter_online(world, *o) {
                    world.resource_mut::<OnlineMenu>().error = Some(e);
                }
            });
        }
        Ok(Ok(Reply::Games(list))) => {
            for (kept, known) in &mut om.games {
                *known = list.iter().find(|g| g.game == kept.seat.game).cloned();
            }
        }
        Ok(Err(e)) => om.error = Some(e),
        Err(_) => om.error = Some("the request to the server failed".into()),
    }
}

/// The online game into the world: the battle mirrored from the seat's state, the game's
/// resources with the other side [`REMOTE`], the link to the server, and the local door
/// shut (`HeldElsewhere`); then the battle screen.
pub fn enter_online(world: &mut World, o: Opened) -> Result<(), String> {
    let battle = super::table::mirror(&o.start, &o.state)?;
    let mut sides = [REMOTE.to_string(), REMOTE.to_string()];
    sides[o.seat.side.min(1)] = "human".into();
    let agents = Agents::new(&sides, 0)?;
    // The game, the seat and the invite code are in the table's online corner (`online_panel`).
    let game = crate::ui::play::NewGame::new(&battle, &[], o.scenario, 0, sides, None, false);
    let link = Link::open(&o.server, o.seat)?;
    world.insert_resource(link);
    world.insert_resource(OnlineGame::new(o.start, o.state.seq));
    world.insert_resource(HeldElsewhere);
    crate::ui::screens::menu::enter_game(world, (battle, game, agents));
    Ok(())
}

/// Leaving the table for the menu closes the link (the game waits on the server).
pub(super) fn close(mut commands: Commands) {
    commands.queue(leave);
}

/// The online game leaves the world: the link closed, the local door open again (a
/// finished game watched as a replay, the menu).
pub fn leave(world: &mut World) {
    world.remove_resource::<Link>();
    world.remove_resource::<OnlineGame>();
    world.remove_resource::<HeldElsewhere>();
}

/// "Play online" clicked in the menu: the window opens.
pub(super) fn open_when_asked(mut menu: ResMut<MenuState>, mut om: ResMut<OnlineMenu>) {
    if menu.online_asked {
        menu.online_asked = false;
        om.open = true;
    }
}

/// The menu opens: the kept seats listed (what the server says of them comes with Refresh).
pub(super) fn list_kept(mut om: ResMut<OnlineMenu>) {
    om.games = kept_games();
}

/// The seats kept here, nothing yet known of their games.
fn kept_games() -> Vec<(KeptSeat, Option<MyGame>)> {
    kept_seats().into_iter().map(|k| (k, None)).collect()
}

#[cfg(test)]
mod tests {
    use super::server_url;

    #[test]
    fn a_typed_address_is_made_a_url() {
        assert_eq!(server_url(" 127.0.0.1:7878/ "), "http://127.0.0.1:7878");
        assert_eq!(server_url("https://volley.example.org/"), "https://volley.example.org");
        assert_eq!(server_url("http://host:1"), "http://host:1");
    }
}
