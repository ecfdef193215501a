//! A test that cannot run because an outside program is missing says so where the run's
//! end can show it: one line on standard error (seen with `--nocapture`) and one file
//! under `target/tmp/skipped/` that the test command's summary prints (README,
//! Development). `require` names the environment variable that turns the skip into a
//! failure (CI sets them all).

use std::path::PathBuf;

/// The folder the skip notes go to (cleared by the test command before a run).
pub fn notes_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("skipped")
}

/// Records that `test` did not run because `what` is missing, installed by `install`.
/// Panics instead when the environment variable `require` is `1`.
pub fn missing(test: &str, what: &str, install: &str, require: &str) {
    if std::env::var(require).as_deref() == Ok("1") {
        panic!("{test}: {what} is missing and {require}=1 ({install})");
    }
    let line = format!("skipped {test}: {what} is missing; install with: {install}");
    eprintln!("{line}");
    let dir = notes_dir();
    if std::fs::create_dir_all(&dir).is_ok() {
        let _ = std::fs::write(dir.join(format!("{test}.txt")), format!("{line}\n"));
    }
}
