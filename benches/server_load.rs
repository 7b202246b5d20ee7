//! A load test of the game server, on loopback only, bounded and stopping by itself: 200
//! games of *First Battle* played at once by bot clients (two a game) against one `volley
//! serve` process on SQLite; then, given a PostgreSQL URL in `VOLLEY_TEST_POSTGRES`, the same
//! against two server processes sharing it (each game's seats on different processes). It
//! prints actions a second, the median and 95th-percentile latency of an action (sent to
//! answered, stored first), and each server process's peak memory.
//!
//! `cargo bench --bench server_load` (release). Not criterion: one figure is a whole run.

use std::time::{Duration, Instant};
use volley::server::client::{Client, play_bot};
use volley::server::process::ServerProcess;
use volley::server::protocol::{NewGame, Opponent};

const GAMES: usize = 200;

/// A process's peak resident memory in MiB (Linux `VmHWM`).
fn peak_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// `games` games at once, hosted on `hosts[i % n]` and joined on `guests[i % n]`.
fn load(label: &str, games: usize, hosts: &[String], guests: &[String], pids: &[u32]) {
    let rt = volley::server::runtime().unwrap();
    let started = Instant::now();
    let results = rt.block_on(async {
        let mut tasks = Vec::new();
        for i in 0..games {
            let (h, g) = (hosts[i % hosts.len()].clone(), guests[i % guests.len()].clone());
            tasks.push(tokio::spawn(async move {
                let game = NewGame {
                    scenario: "first_battle".into(),
                    host_side: i % 2,
                    opponent: Opponent::Human,
                    rules: Vec::new(),
                    max_turns: None,
                };
                let host = Client::new(&h).host(&game).await.expect("hosted");
                let guest = Client::new(&g)
                    .join(host.invite.as_deref().unwrap())
                    .await
                    .expect("joined");
                let (a, b) = (
                    Client::new(&h).seated(&host.token),
                    Client::new(&g).seated(&guest.token),
                );
                let patience = Duration::from_secs(600);
                let (la, lb) = tokio::join!(
                    play_bot(&a, &host.game, 2 * i as u64, patience),
                    play_bot(&b, &guest.game, 2 * i as u64 + 1, patience)
                );
                let mut lat = la.expect("host bot").latencies;
                lat.extend(lb.expect("guest bot").latencies);
                lat
            }));
        }
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.expect("a game"));
        }
        all
    });
    let took = started.elapsed().as_secs_f64();
    let mut lat = results;
    lat.sort();
    let pick = |q: f64| lat[((lat.len() - 1) as f64 * q) as usize].as_secs_f64() * 1000.0;
    let mem: Vec<String> = pids.iter().map(|&p| format!("{:.0} MiB", peak_mib(p))).collect();
    println!(
        "{label}: {games} games, {} actions in {took:.1} s: {:.0} actions a second; latency median {:.1} ms, 95th percentile {:.1} ms; server peak memory {}",
        lat.len(),
        lat.len() as f64 / took,
        pick(0.5),
        pick(0.95),
        mem.join(" + ")
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter that is not ours skips the run.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    if filter.is_some_and(|f| !"server_load".contains(&f)) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("volley-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("games.db").display());
    let exe = std::path::Path::new(env!("CARGO_BIN_EXE_volley"));
    let big = ["--max-games", "100000"];
    let server = ServerProcess::start(exe, &db, &big).expect("a server");
    let base = server.url();
    let one = std::slice::from_ref(&base);
    load("one game alone, SQLite", 1, one, one, &[server.pid().unwrap()]);
    load(
        "one process, SQLite",
        GAMES,
        std::slice::from_ref(&base),
        std::slice::from_ref(&base),
        &[server.pid().unwrap()],
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    if let Ok(pg) = std::env::var("VOLLEY_TEST_POSTGRES") {
        let a = ServerProcess::start(exe, &pg, &big).expect("a server");
        let b = ServerProcess::start(exe, &pg, &big).expect("a server");
        let (ua, ub) = (a.url(), b.url());
        load(
            "two processes, PostgreSQL",
            GAMES,
            &[ua.clone(), ub.clone()],
            &[ub, ua],
            &[a.pid().unwrap(), b.pid().unwrap()],
        );
    } else {
        println!("(no VOLLEY_TEST_POSTGRES: the PostgreSQL run skipped; `.ci/setup-postgres` prints one)");
    }
}
