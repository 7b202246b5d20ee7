//! The game server over the network (loopback): two bot clients play whole games; what each
//! was sent is checked against the authoritative battle re-played from the downloaded
//! recording; refusals; a server killed with SIGKILL and restarted.
//!
//! The database is SQLite in a temporary file, and also PostgreSQL when
//! `VOLLEY_TEST_POSTGRES` names one (`.ci/run` starts a server and sets it).

use std::path::{Path, PathBuf};
use std::time::Duration;
use volley::battle::Battle;
use volley::replay::Recording;
use volley::server::client::{BotLog, Client, play_bot};
use volley::server::process::ServerProcess;
use volley::server::protocol::{NewGame, Opponent, Seat};
use volley::server::{Limits, Store};
use volley::view::PlayerView;
use volley::view::events::visible;
use volley::view::snapshot::Snapshot;

fn temp_db(name: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("volley-server-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("games.db").display());
    (dir, url)
}

/// The databases to test on: SQLite always, PostgreSQL when one is given.
fn databases(name: &str) -> Vec<String> {
    let mut dbs = vec![temp_db(name).1];
    if let Ok(pg) = std::env::var("VOLLEY_TEST_POSTGRES") {
        dbs.push(pg);
    }
    dbs
}

/// A server in this process on a loopback port: its base URL.
async fn start(db: &str, limits: Limits) -> String {
    let store = Store::open(db).await.expect("the database opens");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(volley::server::serve(listener, store, limits));
    base
}

fn new_game(scenario: &str, rules: &[&str]) -> NewGame {
    NewGame {
        scenario: scenario.into(),
        host_side: 0,
        opponent: Opponent::Human,
        rules: rules.iter().map(|s| s.to_string()).collect(),
        max_turns: None,
    }
}

/// Host a game and join it: the two seats.
async fn seats(base: &str, game: &NewGame) -> (Seat, Seat) {
    let c = Client::new(base);
    let host = c.host(game).await.expect("hosted");
    let guest = c.join(host.invite.as_deref().unwrap()).await.expect("joined");
    (host, guest)
}

/// The battle of `rec` after its first `n` actions.
fn replayed(rec: &Recording, n: u64) -> Battle {
    let (mut b, _) = volley::load_battle_with(Path::new(&rec.scenario), rec.seed, &rec.switches).unwrap();
    b.cap_turns(rec.max_turns);
    for a in &rec.actions[..n as usize] {
        b.step(a).unwrap();
    }
    b
}

/// Everything `side`'s client was sent is exactly its side's view of the real battle at that
/// point (states, actions offered, events); how many enemy units it was spared the sight of.
fn check_sent(rec: &Recording, side: usize, log: &BotLog) -> usize {
    let mut hidden = 0;
    let mut b = replayed(rec, 0);
    let mut at = 0u64;
    let mut states: Vec<_> = log.states.iter().collect();
    states.sort_by_key(|s| s.seq);
    for s in states {
        while at < s.seq {
            b.step(&rec.actions[at as usize]).unwrap();
            at += 1;
        }
        let view = PlayerView::side(&b, side);
        assert_eq!(
            s.snapshot,
            Snapshot::of(&view),
            "side {side} at action {}: sent a snapshot not its view",
            s.seq
        );
        let mine = b.actor() == side && !b.is_over();
        assert_eq!(s.your_decision, mine);
        if mine {
            assert_eq!(s.legal, b.legal_actions(), "the actions offered are the battle's");
        } else {
            assert!(
                s.legal.is_empty(),
                "side {side} was offered actions on the other side's decision"
            );
        }
        hidden += b
            .units
            .iter()
            .filter(|u| u.side != side && u.alive() && !view.knows(u.id))
            .count();
    }
    let mut b = replayed(rec, 0);
    for (i, a) in rec.actions.iter().enumerate() {
        let actor = b.actor();
        let events = b.step(a).unwrap().events;
        if let Some(batch) = log.batches.iter().find(|x| x.action == i as u64) {
            assert_eq!(batch.side, actor, "side {side}, action {i}: who took it");
            assert_eq!(
                batch.act.as_ref(),
                (actor == side).then_some(a),
                "side {side}, action {i}: the action is sent to the side that took it only"
            );
            assert_eq!(
                batch.events,
                visible(&PlayerView::side(&b, side), &events),
                "side {side}, action {i}: events"
            );
        }
    }
    hidden
}

/// Two bots play `game` to its end: their logs, and the downloaded recording (verified).
async fn bot_game(base: &str, game: &NewGame, dir: &Path) -> ([BotLog; 2], Recording, String, String) {
    let (host, guest) = seats(base, game).await;
    let c = Client::new(base);
    let (a, b) = (c.seated(&host.token), c.seated(&guest.token));
    let patience = Duration::from_secs(120);
    let (la, lb) = tokio::join!(
        play_bot(&a, &host.game, 11, patience),
        play_bot(&b, &guest.game, 12, patience)
    );
    let text = a.recording(&host.game).await.expect("the recording of a finished game");
    let path = dir.join(format!("{}.ron", host.game));
    std::fs::write(&path, &text).unwrap();
    volley::replay::verify::verify_file(&path).expect("the downloaded recording verifies");
    (
        [
            la.expect("the host's bot finished"),
            lb.expect("the guest's bot finished"),
        ],
        Recording::load(&path).unwrap(),
        host.token,
        host.watch,
    )
}

#[test]
fn two_bot_clients_play_a_whole_first_battle_each_sent_only_its_view_and_the_recording_verifies() {
    let rt = volley::server::runtime().unwrap();
    rt.block_on(async {
        for db in databases("whole") {
            let base = start(&db, Limits::default()).await;
            let dir = temp_db("whole-rec").0;
            for (scenario, rules) in [("first_battle", vec![]), ("scouting_demo", vec!["scouting"])] {
                let ([host, guest], rec, host_token, watch) = bot_game(&base, &new_game(scenario, &rules), &dir).await;
                assert!(
                    rec.actions.len() > 20,
                    "{scenario}: a whole game, {} actions",
                    rec.actions.len()
                );
                let acted: usize = host.accepted.len() + guest.accepted.len();
                assert_eq!(acted, rec.actions.len(), "every action was a bot's, and each was kept");
                for (seq, action) in host.accepted.iter().chain(&guest.accepted) {
                    assert_eq!(
                        &rec.actions[*seq as usize], action,
                        "acknowledged action {seq} kept as sent"
                    );
                }
                let mine = Client::new(&base)
                    .my_games(std::slice::from_ref(&host_token))
                    .await
                    .unwrap();
                assert!(
                    mine.len() == 1 && mine[0].over && !mine[0].your_decision,
                    "my games: {mine:?}"
                );
                let watched = Client::new(&base).watch(&watch).await.unwrap();
                assert!(
                    watched.over && watched.views.len() == 1,
                    "a finished game shows everything"
                );
                assert_eq!(
                    watched.views[0].enemies.len(),
                    0,
                    "everything: every unit is the viewer's own"
                );
                let spared = check_sent(&rec, 0, &host) + check_sent(&rec, 1, &guest);
                if scenario == "scouting_demo" {
                    // Not a check that nothing could fail: there were hidden units to leak.
                    assert!(spared > 0, "hidden set-up hid units from the clients");
                }
            }
        }
    });
}

#[test]
fn refused_with_a_reason_and_nothing_applied_the_server_stays_up() {
    let rt = volley::server::runtime().unwrap();
    rt.block_on(async {
        let db = temp_db("refusals").1;
        let limits = Limits {
            actions_per_second: 2.0,
            burst: 3.0,
            max_games: 2,
            ..Limits::default()
        };
        let base = start(&db, limits).await;
        let c = Client::new(&base);
        let (host, guest) = seats(&base, &new_game("first_battle", &[])).await;
        let (a, b) = (c.seated(&host.token), c.seated(&guest.token));
        let s = a.state(&host.game).await.unwrap();
        let waiting = if s.your_decision { (&a, &b) } else { (&b, &a) };
        let (mover, other) = waiting;
        let st = mover.state(&host.game).await.unwrap();
        let action = st.legal[0].clone();
        // The other side acting on this side's decision, with an action it was never offered.
        assert_eq!(
            code(other.act(&host.game, st.seq, &action).await).as_deref(),
            Some("not_your_decision")
        );
        // A forged token, none, and a token of another game.
        assert_eq!(
            code(c.seated("00000000000000000000000000000000").state(&host.game).await).as_deref(),
            Some("bad_token")
        );
        assert_eq!(code(c.state(&host.game).await).as_deref(), Some("no_token"));
        let (host2, _) = seats(&base, &new_game("skirmish", &[])).await;
        assert_eq!(
            code(c.seated(&host2.token).act(&host.game, 0, &action).await).as_deref(),
            Some("other_game")
        );
        // The server holds its two games: a third is refused.
        assert_eq!(code(c.host(&new_game("skirmish", &[])).await).as_deref(), Some("full"));
        // An invite used twice, an unknown game, a finished game's recording asked too soon.
        assert_eq!(
            code(c.join(host.invite.as_deref().unwrap()).await).as_deref(),
            Some("bad_invite")
        );
        assert_eq!(code(mover.state("NOSUCHGAME").await).as_deref(), Some("other_game"));
        assert_eq!(code(mover.recording(&host.game).await).as_deref(), Some("not_over"));
        // The right action goes through once; sent again (a replayed message) it is stale.
        mover
            .act(&host.game, st.seq, &action)
            .await
            .expect("the action is accepted");
        assert_eq!(
            code(mover.act(&host.game, st.seq, &action).await).as_deref(),
            Some("stale")
        );
        let seq = a.state(&host.game).await.unwrap().seq;
        assert_eq!(seq, st.seq + 1, "one action applied, the refused ones none");
        // Malformed and oversized messages.
        let http = reqwest::Client::new();
        let url = format!("{base}/games/{}/actions", host.game);
        let r = http
            .post(&url)
            .bearer_auth(&host.token)
            .body("{\"seq\": 1, \"action\": \"FlyAway\"}")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 400);
        assert!(r.text().await.unwrap().contains("malformed"));
        let big = format!("{{\"seq\": 1, \"action\": \"{}\"}}", "x".repeat(200_000));
        let r = http.post(&url).bearer_auth(&host.token).body(big).send().await.unwrap();
        assert_eq!(r.status(), 413, "a body over the limit");
        // A flood: past the burst, refused for speed.
        let mut codes = Vec::new();
        for _ in 0..8 {
            codes.push(code(mover.act(&host.game, 0, &action).await));
        }
        assert!(codes.iter().any(|c| c.as_deref() == Some("too_fast")), "{codes:?}");
        assert_eq!(
            a.state(&host.game).await.unwrap().seq,
            seq,
            "nothing applied by any refusal"
        );
        assert_eq!(
            http.get(format!("{base}/health"))
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap(),
            "ok"
        );
    });
}

/// The code of a refusal (`None` for an answer or no answer).
fn code<T>(r: Result<T, volley::server::client::ClientError>) -> Option<String> {
    r.err().and_then(|e| e.code().map(str::to_string))
}

#[test]
fn two_server_processes_on_one_database_play_one_game_between_them() {
    let rt = volley::server::runtime().unwrap();
    for db in databases("two") {
        let exe = Path::new(env!("CARGO_BIN_EXE_volley"));
        let (sa, sb) = (
            ServerProcess::start(exe, &db, &[]).unwrap(),
            ServerProcess::start(exe, &db, &[]).unwrap(),
        );
        let (a, b) = (sa.url(), sb.url());
        rt.block_on(async {
            // Hosted on one process, joined on the other; each player stays on its own.
            let host = Client::new(&a).host(&new_game("first_battle", &[])).await.unwrap();
            let guest = Client::new(&b).join(host.invite.as_deref().unwrap()).await.unwrap();
            let (ca, cb) = (
                Client::new(&a).seated(&host.token),
                Client::new(&b).seated(&guest.token),
            );
            let patience = Duration::from_secs(120);
            let (la, lb) = tokio::join!(
                play_bot(&ca, &host.game, 31, patience),
                play_bot(&cb, &guest.game, 32, patience)
            );
            let (la, lb) = (la.unwrap(), lb.unwrap());
            let text = cb
                .recording(&guest.game)
                .await
                .expect("the recording, from the other process");
            let path = temp_db("two-rec").0.join("two.ron");
            std::fs::write(&path, &text).unwrap();
            volley::replay::verify::verify_file(&path).expect("the game played across two processes verifies");
            let rec = Recording::load(&path).unwrap();
            assert_eq!(
                la.accepted.len() + lb.accepted.len(),
                rec.actions.len(),
                "{db}: every action kept once"
            );
            for (seq, action) in la.accepted.iter().chain(&lb.accepted) {
                assert_eq!(&rec.actions[*seq as usize], action);
            }
            assert!(
                !la.accepted.is_empty() && !lb.accepted.is_empty(),
                "both processes took actions"
            );
        });
        drop((sa, sb));
    }
}

#[test]
fn a_server_killed_at_random_moments_and_restarted_keeps_every_acknowledged_action() {
    let (dir, db) = temp_db("sigkill");
    let server = ServerProcess::start(Path::new(env!("CARGO_BIN_EXE_volley")), &db, &[]).unwrap();
    let base = server.url();
    let rt = volley::server::runtime().unwrap();
    rt.block_on(async {
        let (host, guest) = seats(&base, &new_game("first_battle", &[])).await;
        let c = Client::new(&base);
        let (a, b) = (c.seated(&host.token), c.seated(&guest.token));
        // The killer: SIGKILL when the game reaches actions drawn from a fixed seed, then a
        // new server on the same database and port.
        let killer = {
            let (watcher, game) = (c.seated(&host.token), host.game.clone());
            tokio::spawn(async move {
                let mut server = server;
                let mut x = 0x9e37_79b9_u64;
                let mut at = 0;
                let mut kills = Vec::new();
                for _ in 0..3 {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    at += 3 + (x >> 33) % 10;
                    loop {
                        match watcher.state(&game).await {
                            Ok(s) if s.over => return (server, kills),
                            Ok(s) if s.seq >= at => break,
                            _ => tokio::time::sleep(Duration::from_millis(2)).await,
                        }
                    }
                    server.kill();
                    kills.push(at);
                    server.restart().unwrap();
                }
                (server, kills)
            })
        };
        let patience = Duration::from_secs(120);
        let (la, lb) = tokio::join!(
            play_bot(&a, &host.game, 21, patience),
            play_bot(&b, &guest.game, 22, patience)
        );
        let (la, lb) = (
            la.expect("the host's bot finished"),
            lb.expect("the guest's bot finished"),
        );
        let (mut server, kills) = killer.await.unwrap();
        assert!(!kills.is_empty(), "the server was killed during the game");
        assert!(
            la.retries + lb.retries > 0,
            "the bots met the dead server and tried again"
        );
        let text = a.recording(&host.game).await.expect("the recording");
        server.kill();
        let path = dir.join("killed.ron");
        std::fs::write(&path, &text).unwrap();
        volley::replay::verify::verify_file(&path).expect("the game finished after the kills verifies");
        let rec = Recording::load(&path).unwrap();
        for (seq, action) in la.accepted.iter().chain(&lb.accepted) {
            assert_eq!(&rec.actions[*seq as usize], action, "acknowledged action {seq} kept");
        }
        eprintln!("killed at actions {kills:?}; {} actions in all", rec.actions.len());
    });
}

/// The terminal's online client (`volley play --server … --terminal`) on `seat`, fed `input`:
/// what it printed.
fn terminal_client(base: &str, seat: Seat, saves: &Path, input: String) -> String {
    let (base, saves) = (base.to_string(), saves.to_path_buf());
    std::thread::spawn(move || {
        let mut out = Vec::new();
        volley::terminal::online::run_online(&base, seat, &saves, std::io::Cursor::new(input), &mut out)
            .expect("the client ends well");
        String::from_utf8(out).unwrap()
    })
    .join()
    .unwrap()
}

#[test]
fn the_terminal_client_plays_a_whole_game_against_the_servers_agent_and_keeps_its_recording() {
    let rt = volley::server::runtime().unwrap();
    let (dir, db) = temp_db("terminal");
    let base = rt.block_on(start(&db, Limits::default()));
    let game = NewGame {
        opponent: Opponent::Agent("random".into()),
        ..new_game("first_battle", &[])
    };
    let seat = rt.block_on(Client::new(&base).host(&game)).unwrap();
    let id = seat.game.clone();
    // The first action offered, every time: the game goes on to its end.
    let input = "units\n".to_string() + &"0\n".repeat(5000);
    let out = terminal_client(&base, seat, &dir, input);
    assert!(out.contains("Union to act"), "{out}");
    assert!(out.contains("Confederate units you know of"), "the units command");
    assert!(
        out.contains("Game over"),
        "the game went to its end: {}",
        &out[out.len().saturating_sub(2000)..]
    );
    let rec = dir.join(format!("online-{id}.ron"));
    volley::replay::verify::verify_file(&rec).expect("the recording the client saved verifies");
}

/// The scouting demo's hidden set-up: the side to act first sees only the enemy's scouts.
/// The battle, and the names of the enemy units that side does not know and does.
fn scouting_start() -> (Battle, Vec<String>, Vec<String>) {
    let map = PathBuf::from("maps/scouting_demo.ron");
    let (b, _) = volley::load_battle_with(&map, 1, &Default::default()).unwrap();
    let me = b.actor();
    let names = |known: bool| -> Vec<String> {
        b.units
            .iter()
            .filter(|u| u.side != me && b.known_to(me, u.id) == known)
            .map(|u| u.name.clone())
            .collect()
    };
    let (hidden, known) = (names(false), names(true));
    (b, hidden, known)
}

#[test]
fn the_terminal_client_names_no_unit_its_side_may_not_know() {
    let rt = volley::server::runtime().unwrap();
    let (dir, db) = temp_db("terminal-hidden");
    let base = rt.block_on(start(&db, Limits::default()));
    let (b, hidden, known) = scouting_start();
    let me = b.actor();
    assert!(!hidden.is_empty() && !known.is_empty(), "hidden regiments, scouts seen");
    let game = NewGame {
        host_side: me,
        ..new_game("scouting_demo", &[])
    };
    let seat = rt.block_on(Client::new(&base).host(&game)).unwrap();
    let out = terminal_client(&base, seat, &dir, "units\nmap\nl\nhelp\nq\n".into());
    assert!(out.contains("come back to it with"), "{out}");
    for name in &known {
        assert!(out.contains(name.as_str()), "the seen scout {name} is listed: {out}");
    }
    for name in &hidden {
        assert!(
            !out.contains(name.as_str()),
            "the client named the hidden {name}: {out}"
        );
    }
}

#[test]
fn two_connections_on_one_seat_sending_the_same_action_at_once_apply_it_once() {
    let rt = volley::server::runtime().unwrap();
    rt.block_on(async {
        let base = start(&temp_db("twins").1, Limits::default()).await;
        let (host, guest) = seats(&base, &new_game("first_battle", &[])).await;
        for _ in 0..10 {
            let c = Client::new(&base);
            let (a, b) = (c.seated(&host.token), c.seated(&guest.token));
            let st = a.state(&host.game).await.unwrap();
            let token = if st.your_decision { &host.token } else { &guest.token };
            let (one, two) = (c.seated(token), Client::new(&base).seated(token));
            let st = one.state(&host.game).await.unwrap();
            let act = st.legal[st.legal.len() - 1].clone();
            let (r1, r2) = tokio::join!(one.act(&host.game, st.seq, &act), two.act(&host.game, st.seq, &act));
            let codes = [code(r1.clone()), code(r2.clone())];
            assert!(r1.is_ok() != r2.is_ok(), "one applied, the other refused: {codes:?}");
            assert!(codes.contains(&Some("stale".to_string())), "{codes:?}");
            assert_eq!(b.state(&guest.game).await.unwrap().seq, st.seq + 1, "applied once");
        }
    });
}

#[test]
fn a_game_let_go_from_memory_is_set_up_again_from_the_database() {
    let rt = volley::server::runtime().unwrap();
    rt.block_on(async {
        let limits = Limits {
            in_memory: 1,
            ..Limits::default()
        };
        let base = start(&temp_db("memory").1, limits).await;
        let c = Client::new(&base);
        let games = [
            seats(&base, &new_game("first_battle", &[])).await,
            seats(&base, &new_game("skirmish", &[])).await,
        ];
        // Each game in turn, three rounds: each request sets the other game aside.
        for _ in 0..3 {
            for (host, guest) in &games {
                let st = c.seated(&host.token).state(&host.game).await.unwrap();
                let me = if st.your_decision { &host.token } else { &guest.token };
                let st = c.seated(me).state(&host.game).await.unwrap();
                let act = st.legal[0].clone();
                c.seated(me).act(&host.game, st.seq, &act).await.expect("accepted");
                let again = c.seated(&guest.token).state(&guest.game).await.unwrap();
                assert_eq!(again.seq, st.seq + 1);
            }
        }
        for (host, _) in &games {
            assert!(c.seated(&host.token).state(&host.game).await.unwrap().seq >= 3);
        }
    });
}

/// Issue 67's observers: `volley watch` (the terminal's spectator) on the scouting demo's
/// hidden set-up shows each side's view through its own fog (the regiments hidden from the
/// side to act are not named in its part), and once a game is over, the whole battle and
/// its result.
#[test]
fn a_spectator_sees_each_side_through_its_own_fog_and_everything_once_over() {
    let rt = volley::server::runtime().unwrap();
    let (dir, db) = temp_db("watch");
    let base = rt.block_on(start(&db, Limits::default()));
    let (b, hidden, _) = scouting_start();
    let me = b.actor();
    assert!(!hidden.is_empty(), "hidden regiments to hide");
    let seat = rt
        .block_on(Client::new(&base).host(&new_game("scouting_demo", &[])))
        .unwrap();
    let mut out = Vec::new();
    volley::terminal::watch::run_watch(&base, &seat.watch, true, &mut out).expect("the spectator");
    let out = String::from_utf8(out).unwrap();
    let parts: Vec<&str> = out.split("— as ").collect();
    assert_eq!(parts.len(), 3, "a part for each side's view: {out}");
    let mine = parts[1 + me];
    assert!(mine.starts_with(b.sides[me].name.as_str()), "{mine}");
    for name in &hidden {
        assert!(
            !mine.contains(name.as_str()),
            "the {} view names the hidden {name}: {mine}",
            b.sides[me].name
        );
        assert!(parts[2 - me].contains(name.as_str()), "its own side lists {name}");
    }
    // A short game played out by two bots: the spectator sees it whole, and its result.
    let game = NewGame {
        max_turns: Some(1),
        ..new_game("first_battle", &[])
    };
    let (_, rec, _, watch) = rt.block_on(bot_game(&base, &game, &dir));
    let mut out = Vec::new();
    volley::terminal::watch::run_watch(&base, &watch, false, &mut out).expect("the spectator of a finished game");
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains(&format!("The battle is over after {} actions", rec.actions.len())),
        "{out}"
    );
    let (fb, _) = volley::load_battle_with(Path::new("maps/first_battle.ron"), 1, &Default::default()).unwrap();
    for u in &fb.units {
        assert!(
            out.contains(u.name.as_str()),
            "the whole battle names {}: {out}",
            u.name
        );
    }
}

/// Issue 66, online: a game against the server's planning computer (*Gettysburg*, the scouting
/// switch's hidden set-up, one turn). Its plan comes to the person's side before the action
/// it came with, as that side may read it ("nothing of it you can see": no formation it
/// cannot see is named); the database keeps it (a second server on the same database sends
/// it again); the terminal client says it; and the finished game's recording keeps it whole
/// and as the person was told it, and verifies.
#[test]
fn the_servers_computer_tells_its_plan_as_the_person_may_read_it_and_the_record_keeps_it() {
    let rt = volley::server::runtime().unwrap();
    for db in databases("plans") {
        let game = NewGame {
            opponent: Opponent::Agent("scheduler".into()),
            max_turns: Some(1),
            ..new_game("gettysburg", &["scouting"])
        };
        let (base, seat, told) = rt.block_on(async {
            let base = start(&db, Limits::default()).await;
            let seat = Client::new(&base).host(&game).await.expect("hosted");
            assert_eq!(seat.side, 0, "the person plays the Union");
            let me = Client::new(&base).seated(&seat.token);
            let news = me.events(&seat.game, 0, 0).await.unwrap();
            let plans: Vec<_> = news.batches.iter().filter_map(|b| b.plan.clone()).collect();
            assert_eq!(plans.len(), 1, "{plans:?}");
            assert_eq!(
                news.batches[0].plan.as_ref(),
                Some(&plans[0]),
                "before the first action"
            );
            assert_eq!(plans[0].agent, "scheduler");
            assert_eq!(
                plans[0].text,
                "plan made (turn 1, the battle begins): nothing of it you can see"
            );
            // Another server on the same database sends it again.
            let other = start(&db, Limits::default()).await;
            let again = Client::new(&other)
                .seated(&seat.token)
                .events(&seat.game, 0, 0)
                .await
                .unwrap();
            let plans_again: Vec<_> = again.batches.iter().filter_map(|b| b.plan.clone()).collect();
            assert_eq!(plans_again, plans);
            (base, seat, plans[0].text.clone())
        });
        // The terminal client says it, and plays the first action offered to the end.
        let dir = temp_db("plans-terminal").0;
        let id = seat.game.clone();
        let out = terminal_client(&base, seat, &dir, "0\n".repeat(5000));
        assert!(
            out.contains(&format!("Confederate, played by the computer (scheduler): {told}")),
            "{out}"
        );
        assert!(out.contains("Game over"), "{}", &out[out.len().saturating_sub(2000)..]);
        let file = dir.join(format!("online-{id}.ron"));
        volley::replay::verify::verify_file(&file).expect("the recording verifies");
        let rec = Recording::load(&file).unwrap();
        let note = rec.plans.first().expect("the recording keeps the plan");
        assert_eq!((note.action, note.side, note.agent.as_str()), (0, 1, "scheduler"));
        assert!(note.text.contains("Heth's division: attack"), "whole: {note:?}");
        assert_eq!(note.to_other.as_deref(), Some(told.as_str()));
    }
}

/// Issue 66, online, at the window's table: the server's computer's plan comes into the battle
/// log and the orders panel's caption (`ComputerPlan`) as the person's side was told it, never
/// whole (the window's online table, headless, on a server in this process).
#[test]
fn the_online_table_says_the_servers_computers_plan_as_the_person_was_told_it() {
    use volley::ui::follow::ComputerPlan;
    let rt = volley::server::runtime().unwrap();
    let (_, db) = temp_db("plans-window");
    let base = rt.block_on(start(&db, Limits::default()));
    let game = NewGame {
        opponent: Opponent::Agent("scheduler".into()),
        max_turns: Some(1),
        ..new_game("gettysburg", &["scouting"])
    };
    let seat = rt.block_on(Client::new(&base).host(&game)).expect("hosted");
    let state = rt
        .block_on(Client::new(&base).seated(&seat.token).state(&seat.game))
        .unwrap();
    let (scenario, start_battle) = volley::server::client::scenario_for(&state.snapshot).unwrap();
    let mut app =
        volley::ui::headless_play_app(start_battle.clone(), scenario.clone(), 1, ["human", "human"], false).unwrap();
    app.add_plugins(volley::ui::online::table_plugin);
    let opened = volley::ui::online::menu::Opened {
        server: base.clone(),
        seat,
        state,
        scenario,
        start: start_battle,
    };
    volley::ui::online::menu::enter_online(app.world_mut(), opened).expect("at the table");
    let told = "plan made (turn 1, the battle begins): nothing of it you can see";
    let began = std::time::Instant::now();
    while app.world().resource::<ComputerPlan>().0[1].is_none() && began.elapsed() < Duration::from_secs(60) {
        app.update();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(app.world().resource::<ComputerPlan>().0, [None, Some(told.to_string())]);
    let lines: Vec<String> = app
        .world()
        .resource::<volley::ui::BattleLog>()
        .lines
        .iter()
        .filter_map(|l| l.shown_to(Some(0)).map(str::to_string))
        .filter(|t| t.contains("played by the computer"))
        .collect();
    assert_eq!(
        lines,
        vec![format!("Confederate, played by the computer (scheduler): {told}")]
    );
}
