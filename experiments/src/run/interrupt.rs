//! Interruption: the first Ctrl-C raises [`INTERRUPTED`], which every loop of games and
//! the Golf solver poll; a second ends the program at once, removing the temporary files
//! registered here. Depends on nothing else in the crate.

use std::sync::atomic::AtomicBool;

/// Raised by the first Ctrl-C: no new games start; games in flight finish and are kept.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ctrl-C for long runs: the first raises [`INTERRUPTED`] (every loop of
/// games and the Golf solver poll it) and prints `first`; a second ends the program at
/// once with status 130 after printing `second`. What was written stays: records are
/// appended and flushed as they finish, and nothing is half-written by an exit here.
pub fn stop_on_ctrl_c(first: &'static str, second: &'static str) {
    use std::sync::atomic::Ordering;
    let _ = ctrlc::set_handler(move || {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            eprintln!("\n{second}");
            // An exit skips destructors: temporary files are removed here instead.
            for path in TEMP_FILES
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .drain(..)
            {
                let _ = std::fs::remove_file(path);
            }
            std::process::exit(130);
        }
        eprintln!("\n{first}");
    });
}

/// Temporary files that a second Ctrl-C must not leave behind (see [`stop_on_ctrl_c`]).
static TEMP_FILES: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Registers a temporary file for removal if the program is stopped at once.
pub fn remove_on_exit(path: &std::path::Path) {
    TEMP_FILES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(path.to_path_buf());
}

/// Takes a file off that list (it was renamed or removed).
pub fn keep_on_exit(path: &std::path::Path) {
    TEMP_FILES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .retain(|p| p != path);
}
