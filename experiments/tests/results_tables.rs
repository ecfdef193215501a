//! The figure tables of `results/**/README.md` between `<!-- generated: ... -->` markers
//! match the CSVs beside them (issue 37): quoted figures cannot drift from the data.
//! After a rerun, `chesslab tables results` rewrites them; commit the result.

use std::path::Path;
use std::process::Command;

#[test]
fn committed_results_tables_match_their_data() {
    check_committed("tables", "tables (run `chesslab tables results`)");
}

/// Runs `chesslab COMMAND --check results` on the repository's results/ and asserts it
/// found nothing stale (`stale` says what and how to fix it) and checked at least two
/// files (the check must have something to check). Shared with `verdicts_page.rs`.
pub(crate) fn check_committed(command: &str, stale: &str) {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
    let o = Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args([command, "--check"])
        .arg(&results)
        .output()
        .expect("run chesslab");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "stale {stale}:\n{stdout}\n{stderr}");
    let n: usize = stdout
        .split_whitespace()
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or(0);
    assert!(n >= 2, "{stdout}");
}
