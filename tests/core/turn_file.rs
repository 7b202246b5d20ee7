//! Play by file (`volley play --turn-file FILE --terminal`): two players pass a signed file
//! back and forth, each playing while the battle waits for their side.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use volley::replay::Recording;

/// `volley play` in folder `dir` with `args`, `input` typed, the key from the environment.
fn play(dir: &Path, args: &[&str], key: &str, input: &str) -> (bool, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_volley"))
        .arg("play")
        .args(args)
        .current_dir(dir)
        .env("VOLLEY_TURN_KEY", key)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    // The game may end (and close its input) before all of it is read.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

fn actions(path: &Path) -> usize {
    volley::replay::turn_file::read(path, "oak").unwrap().actions.len()
}

#[test]
fn two_players_pass_a_signed_turn_file_to_the_end_and_a_changed_one_is_refused() {
    let dir = std::env::temp_dir().join(format!("volley-turn-file-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.turn");
    let map: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/first_battle.ron");
    // The numbers of the phase's actions typed in turn (each keeps its number through the
    // phase: one no longer possible is answered and the next typed).
    let zeros: String = (0..60).map(|n| format!("{n}\n")).collect::<String>().repeat(20);
    // The Union's player starts the game, plays to the Confederates' first decision.
    let (ok, out) = play(
        &dir,
        &[
            map.to_str().unwrap(),
            "--turn-file",
            "game.turn",
            "--as",
            "0",
            "--terminal",
        ],
        "oak",
        &zeros,
    );
    assert!(ok && out.contains("Confederate is to decide"), "{out}");
    let first = actions(&file);
    assert!(first > 0);
    // Signed with another key, or changed on the way: refused, the file untouched.
    let before = std::fs::read(&file).unwrap();
    let (ok, out) = play(&dir, &["--turn-file", "game.turn", "--terminal"], "elm", &zeros);
    assert!(!ok && out.contains("the signature does not match"), "{out}");
    let changed = String::from_utf8(before.clone())
        .unwrap()
        .replacen("EndPhase", "EndPhase,\n        EndPhase", 1);
    let forged = dir.join("forged.turn");
    std::fs::write(&forged, changed).unwrap();
    let (ok, out) = play(&dir, &["--turn-file", "forged.turn", "--terminal"], "oak", &zeros);
    assert!(!ok && out.contains("the signature does not match"), "{out}");
    assert_eq!(std::fs::read(&file).unwrap(), before, "a refused file is not written");
    // A new game into an existing file is refused, not written over.
    let (ok, out) = play(
        &dir,
        &[map.to_str().unwrap(), "--turn-file", "game.turn", "--terminal"],
        "oak",
        &zeros,
    );
    assert!(!ok && out.contains("exists"), "{out}");
    // The players take turns until the game is over; each plays the side to decide.
    let mut turns = 1;
    loop {
        let n = actions(&file);
        let (ok, out) = play(&dir, &["--turn-file", "game.turn", "--terminal"], "oak", &zeros);
        assert!(ok, "{out}");
        assert!(actions(&file) > n, "the file grew: {out}");
        turns += 1;
        if out.contains("The game is over") {
            break;
        }
        assert!(turns < 300, "the game ends");
    }
    let rec = Recording::parse(&std::fs::read_to_string(&file).unwrap(), &file).unwrap();
    let (b, _) = volley::replay::verify::verify(&rec, &file).expect("the file verifies");
    assert!(b.is_over());
    assert!(turns > 10, "the file went back and forth ({turns} times)");
    let _ = std::fs::remove_dir_all(&dir);
}
