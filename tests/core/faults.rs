//! "Nothing shown false, nothing lost": what the program does when the world around it is
//! not as expected. Save paths that are pipes, devices or links; data files that never end;
//! input lines without end; output that cannot be written; two processes saving one file; a
//! reader that goes away. Every case must end, within a time bound and a memory bound, in a
//! clear answer, with nothing the player had destroyed.
//!
//! The program these tests run is the build's `volley`, or the one `VOLLEY_TEST_BIN` names
//! (to see the tests catch the faults of an older build).

use super::common::Scratch;
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The program under test: `VOLLEY_TEST_BIN`, else this build's `volley`.
pub(super) fn bin() -> String {
    std::env::var("VOLLEY_TEST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_volley").to_string())
}
/// The most address space a `volley` run in these tests may take: a terminal game or a
/// headless game with the scheduler runs in 512 MiB; an allocation without bound (a 4 GiB
/// line) fails at once instead of taking the machine's memory.
pub(super) const MEMORY_LIMIT: u64 = 1 << 30;
/// The longest a case may take (a debug build on a busy 2-core machine).
pub(super) const TIME_LIMIT: Duration = Duration::from_secs(120);

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("faults-{name}"))
}

/// What a bounded run of `volley` ended with.
pub(super) struct Ran {
    pub status: ExitStatus,
    /// The first MiB of what it printed.
    pub stdout: String,
    /// How many bytes it printed in all.
    pub stdout_len: usize,
    pub stderr: String,
}

impl Ran {
    pub fn all(&self) -> String {
        format!(
            "status {}\nstdout:\n{}\nstderr:\n{}",
            self.status, self.stdout, self.stderr
        )
    }
}

/// Run `volley args` in `cwd` with `stdin`, at most [`MEMORY_LIMIT`] of address space: it must
/// end within [`TIME_LIMIT`] (it is killed and the test fails otherwise).
pub(super) fn run_bounded(args: &[&str], cwd: &Path, stdin: Stdio) -> Ran {
    run_bounded_to(args, cwd, stdin, Stdio::piped())
}

fn run_bounded_to(args: &[&str], cwd: &Path, stdin: Stdio, stdout: Stdio) -> Ran {
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .current_dir(cwd)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: MEMORY_LIMIT as libc::rlim_t,
                rlim_max: MEMORY_LIMIT as libc::rlim_t,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
    let mut child = cmd.spawn().expect("runs");
    let out = child.stdout.take().map(|mut s| {
        std::thread::spawn(move || {
            let (mut kept, mut total, mut buf) = (Vec::new(), 0usize, vec![0u8; 65536]);
            loop {
                match s.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        total += n;
                        if kept.len() < 1 << 20 {
                            kept.extend_from_slice(&buf[..n]);
                        }
                    }
                }
            }
            (kept, total)
        })
    });
    let mut err_pipe = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = (&mut err_pipe).take(1 << 20).read_to_end(&mut s);
        String::from_utf8_lossy(&s).into_owned()
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("volley {args:?}: no answer within {TIME_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (kept, stdout_len) = out.map_or((Vec::new(), 0), |t| t.join().unwrap());
    Ran {
        status,
        stdout: String::from_utf8_lossy(&kept).into_owned(),
        stdout_len,
        stderr: err.join().unwrap(),
    }
}

fn no_panic(r: &Ran) {
    assert!(
        !r.stderr.contains("panicked") && !r.stderr.contains("memory allocation"),
        "{}",
        r.all()
    );
}

pub(super) fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(
        unsafe { libc::mkfifo(c.as_ptr(), 0o600) },
        0,
        "mkfifo {}",
        path.display()
    );
}

/// A character device like /dev/null (1, 3) at `path`; false when this user may not make one.
fn mknod_null(path: &Path) -> bool {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 3)) == 0 }
}

fn first_battle() -> String {
    std::fs::read_to_string(format!("{ROOT}/maps/first_battle.ron")).unwrap()
}

fn record_args<'a>(seed: &'a str, to: &'a str) -> Vec<&'a str> {
    vec![
        "simulate",
        "maps/first_battle.ron",
        "--seed",
        seed,
        "--max-turns",
        "1",
        "--record",
        to,
    ]
}

fn verify(rec: &Path) -> Ran {
    run_bounded(&["verify", rec.to_str().unwrap()], Path::new(ROOT), Stdio::null())
}

/// Item 8: a recording's path that is a pipe, a device or a link is refused, and left as it was.
#[test]
fn a_save_never_replaces_a_pipe_a_device_or_a_link() {
    let dir = scratch("special");
    let root = Path::new(ROOT);
    // A pipe.
    let fifo = dir.join("pipe.ron");
    mkfifo(&fifo);
    let r = run_bounded(&record_args("1", fifo.to_str().unwrap()), root, Stdio::null());
    no_panic(&r);
    assert!(!r.status.success(), "--record into a pipe was accepted: {}", r.all());
    assert!(r.stderr.contains("not a regular file"), "{}", r.all());
    assert!(r.stderr.contains("pipe.ron"), "{}", r.all());
    assert!(
        std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(),
        "the pipe was replaced"
    );
    // A link to a recording: the link stays a link and the recording it points to is kept.
    let real = dir.join("real.ron");
    let r = run_bounded(&record_args("1", real.to_str().unwrap()), root, Stdio::null());
    assert!(r.status.success(), "{}", r.all());
    let before = std::fs::read(&real).unwrap();
    let link = dir.join("link.ron");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let r = run_bounded(&record_args("2", link.to_str().unwrap()), root, Stdio::null());
    assert!(!r.status.success(), "--record over a link was accepted: {}", r.all());
    assert!(r.stderr.contains("not a regular file"), "{}", r.all());
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&real).unwrap(), before);
    // A device (as root, as CI runs: --record /dev/null would have replaced the real one).
    let dev = dir.join("null");
    if mknod_null(&dev) {
        let r = run_bounded(&record_args("1", dev.to_str().unwrap()), root, Stdio::null());
        assert!(!r.status.success(), "--record over a device was accepted: {}", r.all());
        assert!(r.stderr.contains("not a regular file"), "{}", r.all());
        assert!(std::fs::symlink_metadata(&dev).unwrap().file_type().is_char_device());
    } else {
        eprintln!("(not root: the device case is skipped)");
    }
    // A folder named like a save: refused too, before anything is written.
    let folder = dir.join("folder.ron");
    std::fs::create_dir(&folder).unwrap();
    let r = run_bounded(&record_args("1", folder.to_str().unwrap()), root, Stdio::null());
    assert!(!r.status.success(), "{}", r.all());
    assert!(folder.is_dir());
    // No temporary file is left by any of it.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Item 9: data files that are not regular files (a pipe with no writer, /dev/zero,
/// /dev/urandom, /dev/stdin on a pipe) are refused at once with one clear message: nothing
/// blocks, nothing reads without end.
#[test]
fn data_files_that_are_not_regular_files_are_refused_without_blocking() {
    let dir = scratch("read");
    let root = Path::new(ROOT);
    let fifo = dir.join("map.ron");
    mkfifo(&fifo);
    let f = fifo.to_str().unwrap();
    for args in [
        vec!["check", f],
        vec!["simulate", f, "--seed", "1"],
        vec!["verify", f],
        vec!["check", "/dev/zero"],
        vec!["check", "/dev/urandom"],
        vec!["simulate", "/dev/zero", "--seed", "1"],
        vec!["play", "--terminal", "--load", "/dev/zero"],
    ] {
        let r = run_bounded(&args, root, Stdio::null());
        no_panic(&r);
        assert!(!r.status.success(), "{args:?} was accepted: {}", r.all());
        assert!(r.stderr.contains("not a regular file"), "{args:?}: {}", r.all());
    }
    // A scenario on standard input (a pipe): one message that says why, not an error about
    // its content from a second reading of a pipe already drained.
    let mut child = Command::new(bin())
        .args(["simulate", "/dev/stdin", "--seed", "1"])
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        let _ = input.write_all(first_battle().as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("/dev/stdin") && err.contains("not a regular file"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");

    // A recording whose scenario has become a pipe: verify refuses it, it does not hang.
    let map = dir.join("scenario.ron");
    std::fs::write(&map, first_battle()).unwrap();
    let rec = dir.join("game.ron");
    let r = run_bounded(
        &record_args("1", rec.to_str().unwrap())
            .iter()
            .map(|a| {
                if *a == "maps/first_battle.ron" {
                    map.to_str().unwrap()
                } else {
                    a
                }
            })
            .collect::<Vec<_>>(),
        root,
        Stdio::null(),
    );
    assert!(r.status.success(), "{}", r.all());
    std::fs::remove_file(&map).unwrap();
    mkfifo(&map);
    let r = verify(&rec);
    no_panic(&r);
    assert!(!r.status.success(), "{}", r.all());
    assert!(r.stderr.contains("not a regular file"), "{}", r.all());
}

/// The reader every data file goes through stops one byte past the limit, whatever the file
/// says its size is.
#[test]
fn the_bounded_reader_stops_past_the_limit() {
    let endless = std::io::repeat(b' ');
    let e = volley::data::load::read_bounded(endless, 1000).unwrap_err();
    assert!(e.to_string().contains("more than 1000 bytes"), "{e}");
    let text = volley::data::load::read_bounded(&b"(a: 1)"[..], 1000).unwrap();
    assert_eq!(text, b"(a: 1)");
}

/// Item 9: the terminal game reads its input in bounded lines. An input of endless zero bytes
/// (no new line ever) is refused and treated as the end of the input (the game is saved); a
/// 50 MB line is refused, not echoed, and the game goes on; a long wrong command is echoed
/// cut short.
#[test]
fn the_terminal_game_bounds_its_input_lines() {
    let dir = scratch("lines");
    let map = format!("{ROOT}/maps/first_battle.ron");
    let r = run_bounded(
        &["play", &map, "--terminal"],
        &dir,
        Stdio::from(std::fs::File::open("/dev/zero").unwrap()),
    );
    no_panic(&r);
    assert!(r.status.success(), "{}", r.all());
    assert!(r.stdout.contains("too long"), "{}", r.all());
    assert!(r.stdout.contains("saves/autosave-first_battle.ron"), "{}", r.all());
    assert!(dir.join("saves/autosave-first_battle.ron").is_file());

    let input = dir.join("input.txt");
    let mut text = Vec::new();
    text.extend(std::iter::repeat_n(b'x', 50 << 20));
    text.extend_from_slice(b"\n");
    text.extend(std::iter::repeat_n(b'y', 3000));
    text.extend_from_slice(b"\n0\n");
    std::fs::write(&input, &text).unwrap();
    drop(text);
    let r = run_bounded(
        &["play", &map, "--terminal"],
        &dir,
        Stdio::from(std::fs::File::open(&input).unwrap()),
    );
    no_panic(&r);
    assert!(r.status.success(), "{}", r.all());
    assert!(r.stdout_len < 1 << 20, "{} bytes printed", r.stdout_len);
    assert!(r.stdout.contains("too long"), "{}", r.all());
    assert!(!r.stdout.contains(&"x".repeat(200)), "the long line was echoed");
    assert!(r.stdout.contains("is not a command"), "{}", r.all());
    assert!(
        !r.stdout.contains(&"y".repeat(200)),
        "the long command was echoed whole"
    );
    // The game went on after both: the next line was played.
    assert!(
        r.stdout.contains("Union chose 0: end the initiative phase"),
        "{}",
        r.all()
    );
}

/// Item 11: output that cannot be written (a full disk) ends with a message and a failure,
/// not a panic.
#[test]
fn output_that_cannot_be_written_is_a_clean_failure() {
    let dir = scratch("full");
    let rec = dir.join("game.ron");
    let r = run_bounded(&record_args("1", rec.to_str().unwrap()), Path::new(ROOT), Stdio::null());
    assert!(r.status.success(), "{}", r.all());
    let rec2 = dir.join("second.ron");
    for args in [
        vec!["check", "maps/first_battle.ron"],
        vec!["check", "maps/first_battle.ron", "--json"],
        vec![
            "simulate",
            "maps/first_battle.ron",
            "--seed",
            "1",
            "--max-turns",
            "1",
            "--json",
        ],
        vec![
            "simulate",
            "maps/first_battle.ron",
            "--seed",
            "1",
            "--max-turns",
            "1",
            "--log",
        ],
        vec!["verify", rec.to_str().unwrap()],
        vec!["odds", "--dice", "10", "--to-hit", "4"],
        vec!["odds", "--ammo", "shot", "--dice", "2", "--to-hit", "4"],
        record_args("1", rec2.to_str().unwrap()),
    ] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let r = run_bounded_to(&args, Path::new(ROOT), Stdio::null(), Stdio::from(full));
        no_panic(&r);
        assert!(!r.status.success(), "{args:?}: {}", r.all());
        assert!(
            r.stderr.contains("cannot write the output: No space left on device"),
            "{args:?}: {}",
            r.all()
        );
    }
    // The recording was written all the same, and says so.
    let r = verify(&rec2);
    assert!(r.status.success(), "{}", r.all());
    // The terminal game whose output fails saves and ends, without waiting for input (its
    // input stays open).
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let map = format!("{ROOT}/maps/first_battle.ron");
    let r = run_bounded_to(&["play", &map, "--terminal"], &dir, Stdio::piped(), Stdio::from(full));
    no_panic(&r);
    assert!(!r.status.success(), "{}", r.all());
    assert!(
        r.stderr.contains("cannot write the output: No space left on device")
            && r.stderr.contains("saved to saves/autosave-first_battle.ron"),
        "{}",
        r.all()
    );
    assert!(dir.join("saves/autosave-first_battle.ron").is_file());
}

/// Item 13: twenty processes recording to one file at once all succeed; the file is one whole
/// recording and no temporary file is left.
#[test]
fn twenty_recordings_to_one_file_at_once_all_succeed() {
    let dir = scratch("race");
    let same = dir.join("same.ron");
    let children: Vec<_> = (0..20)
        .map(|k| {
            Command::new(bin())
                .args(record_args(&(k + 1).to_string(), same.to_str().unwrap()))
                .current_dir(ROOT)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let failed: Vec<String> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .filter(|o| !o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
        .collect();
    assert!(failed.is_empty(), "{} of 20 failed: {failed:?}", failed.len());
    let r = verify(&same);
    assert!(r.status.success(), "{}", r.all());
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "same.ron")
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A temporary file of a save that is under way in another living Volley process is not
/// removed; one left by a process that is gone is.
#[test]
fn only_the_temporary_files_of_dead_saves_are_cleared() {
    let dir = scratch("tmp");
    let game = dir.join("game.ron");
    // A Volley process that lives (a terminal game waiting for its input) holds a save's
    // temporary file.
    let mut alive = Command::new(bin())
        .args(["play", &format!("{ROOT}/maps/first_battle.ron"), "--terminal"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let live = dir.join(format!(".game.ron.{}.7.tmp", alive.id()));
    std::fs::write(&live, "half a save").unwrap();
    // Process ids above the kernel's limit (4194304) never live.
    let dead = dir.join(".game.ron.4194999.tmp");
    let dead2 = dir.join(".game.ron.4194998.3.tmp");
    std::fs::write(&dead, "half a save").unwrap();
    std::fs::write(&dead2, "half a save").unwrap();
    let r = run_bounded(
        &record_args("1", game.to_str().unwrap()),
        Path::new(ROOT),
        Stdio::null(),
    );
    drop(alive.stdin.take());
    assert!(alive.wait().unwrap().success());
    assert!(r.status.success(), "{}", r.all());
    assert!(live.exists(), "the live save's temporary file was removed");
    assert!(!dead.exists() && !dead2.exists(), "stale temporary files were left");
}

/// Item 14: the guard against writing over a file that is not a recording decides by the
/// file's first token, however much white space or comment comes before it.
#[test]
fn a_scenario_after_5000_spaces_is_still_not_written_over() {
    let dir = scratch("guard");
    let map = dir.join("map.ron");
    let text = format!("{}{}", " ".repeat(5000), first_battle());
    std::fs::write(&map, &text).unwrap();
    let m = map.to_str().unwrap();
    let r = run_bounded(&record_args("1", m), Path::new(ROOT), Stdio::null());
    assert!(!r.status.success(), "the scenario was written over: {}", r.all());
    assert!(r.stderr.contains("not a Volley recording"), "{}", r.all());
    assert_eq!(std::fs::read_to_string(&map).unwrap(), text);
    // The same after comments.
    let commented = format!("// my map\n/* a long\n note */\n{}", " ".repeat(5000)) + &first_battle();
    std::fs::write(&map, &commented).unwrap();
    let r = run_bounded(&record_args("1", m), Path::new(ROOT), Stdio::null());
    assert!(!r.status.success(), "{}", r.all());
    assert_eq!(std::fs::read_to_string(&map).unwrap(), commented);
    // A recording after as many spaces and a comment is still a recording: written over.
    let rec = dir.join("rec.ron");
    let r = run_bounded(&record_args("1", rec.to_str().unwrap()), Path::new(ROOT), Stdio::null());
    assert!(r.status.success(), "{}", r.all());
    let old = std::fs::read_to_string(&rec).unwrap();
    std::fs::write(&rec, format!("{}// kept\n{old}", " ".repeat(5000))).unwrap();
    let r = run_bounded(&record_args("2", rec.to_str().unwrap()), Path::new(ROOT), Stdio::null());
    assert!(r.status.success(), "{}", r.all());
}

/// Item 15: `simulate --log --record F | head -1`: the reader goes away, the game is still
/// played to its end and recorded, and standard error says the output stopped.
#[test]
fn a_recording_is_written_when_the_output_closes() {
    let dir = scratch("pipe");
    let rec: PathBuf = dir.join("game.ron");
    let mut child = Command::new(bin())
        .args(["simulate", "maps/skirmish.ron", "--seed", "1", "--log", "--record"])
        .arg(&rec)
        .current_dir(ROOT)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(rec.is_file(), "no recording was written; stderr: {err}");
    assert!(err.contains("the output stopped") && err.contains("game.ron"), "{err}");
    let r = verify(&rec);
    assert!(r.status.success(), "{}", r.all());
}

/// `--json` is one JSON object: the battle log and the timing lines do not go into it.
#[test]
fn simulate_json_is_not_mixed_with_the_log() {
    for extra in ["--log", "--timing"] {
        let r = run_bounded(
            &["simulate", "maps/first_battle.ron", "--max-turns", "1", "--json", extra],
            Path::new(ROOT),
            Stdio::null(),
        );
        assert!(!r.status.success(), "{extra}: {}", r.all());
        assert!(r.stderr.contains("--json") && r.stderr.contains(extra), "{}", r.all());
    }
}
