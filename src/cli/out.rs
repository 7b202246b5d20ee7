//! What the program does with its output: a report line that cannot be written is an error,
//! not a panic; a closed pipe ends it quietly, or (for a command with something to keep) is an
//! error the command handles.

use std::io::Write;

/// Writing into a closed pipe (`volley check maps/*.ron | head -1`) ends the program quietly,
/// as it does for other command-line tools, instead of panicking in `println!`.
pub fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// For a command that has something to keep when its reader goes away (`simulate --record`,
/// the terminal game): writing into a closed pipe is an error it handles, not the end.
pub(super) fn keep_going_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: ignoring SIGPIPE; called from the main thread before the command's work starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// Output that cannot be written where `println!` is still used (`check`'s report, a line
/// printed by the library): a message and a failure, not a panic. An error writing to standard
/// error itself, or into a closed pipe, ends the program without a word.
pub fn clean_exit_on_output_errors() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info.payload_as_str().unwrap_or("");
        if let Some(reason) = msg.strip_prefix("failed printing to stdout: ") {
            if !reason.contains("Broken pipe") {
                let reason = reason.find(" (os error ").map_or(reason, |i| &reason[..i]);
                let _ = writeln!(std::io::stderr(), "volley: cannot write the output: {reason}");
            }
            std::process::exit(1);
        }
        if msg.starts_with("failed printing to stderr: ") {
            std::process::exit(1);
        }
        default(info)
    }));
}

/// The error of a command whose report cannot be written.
pub(super) fn output_failed(e: std::io::Error) -> String {
    format!("cannot write the output: {}", crate::terminal::io_reason(&e))
}

/// Standard output, for a report written with `out!`.
pub(super) fn stdout() -> std::io::StdoutLock<'static> {
    std::io::stdout().lock()
}

/// The end of a report: what is still buffered is written, or the command fails.
pub(super) fn done(mut w: impl Write) -> Result<(), String> {
    w.flush().map_err(output_failed)
}

/// A report of one line (`verify`'s, `check-screenshot`'s).
pub(super) fn one_line(line: std::fmt::Arguments<'_>) -> Result<(), String> {
    let mut w = stdout();
    writeln!(w, "{line}").map_err(output_failed)?;
    done(w)
}

/// A progress bar on standard error while games run, when it is a terminal: one tick a game.
pub(super) fn progress_bar(games: u64) -> impl Fn() + Sync {
    use std::io::IsTerminal;
    use std::sync::atomic::{AtomicU64, Ordering};
    let done = AtomicU64::new(0);
    let bar = std::io::stderr().is_terminal();
    move || {
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if bar {
            let w = 30 * n / games.max(1);
            eprint!(
                "\r[{}{}] {n}/{games}",
                "#".repeat(w as usize),
                ".".repeat((30 - w) as usize)
            );
            if n == games {
                eprintln!();
            }
        }
    }
}
