//! Outside bots through the binary (issue 18): UCI engines as agents (real Stockfish and
//! a fake engine that crashes, hangs, answers an illegal move or loses on time), bad
//! engines refused before the run, adjudication, `chesslab uci`, and the `ext` protocol.
//!
//! Tests that need an outside program (`stockfish`, `python3`) skip with a note when it
//! is missing, and fail naming what to install when `CHESSLAB_REQUIRE_ENGINES=1` (CI).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn chesslab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(args)
        .output()
        .expect("run chesslab")
}

fn ok(args: &[&str]) -> String {
    let o = chesslab(args);
    assert!(
        o.status.success(),
        "chesslab {args:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn fails(args: &[&str]) -> String {
    let o = chesslab(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success(), "chesslab {args:?} should fail");
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("error:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The path of program `name` (in PATH or /usr/games), or `None` after a note; with
/// `CHESSLAB_REQUIRE_ENGINES=1` a missing program fails the test naming the package.
fn need(name: &str, package: &str) -> Option<PathBuf> {
    if let Ok(p) = agents::process::locate(name) {
        return Some(p);
    }
    if std::env::var("CHESSLAB_REQUIRE_ENGINES").as_deref() == Ok("1") {
        panic!(
            "'{name}' is not installed: apt-get install -y {package} (CHESSLAB_REQUIRE_ENGINES=1)"
        );
    }
    eprintln!("note: '{name}' not found, test skipped (apt-get install -y {package})");
    None
}

fn data(file: &str) -> String {
    format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"))
}

fn params(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("params.toml");
    std::fs::write(&p, text).unwrap();
    p
}

/// Rows of a games.csv as (agents, result, reason, plies).
fn rows(out: &Path) -> Vec<(String, String, String, usize)> {
    let mut r = csv::Reader::from_path(out.join("games.csv")).unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (
                rec[7].to_string(),
                rec[8].to_string(),
                rec[10].to_string(),
                rec[11].parse().unwrap(),
            )
        })
        .collect()
}

/// Every game of a run replays and matches its record (what `export --pgn` checks).
fn all_replay(out: &Path) {
    let games = out.join("games.csv");
    let pgn = ok(&["export", "--pgn", "--games", s(&games)]);
    assert!(pgn.contains("[Event"), "{pgn}");
    let report = ok(&[
        "report",
        "--games",
        s(&games),
        "--out",
        s(&out.join("report.md")),
    ]);
    let _ = report;
}

#[test]
fn rule_uci_stockfish_match_at_low_nodes_replays() {
    let Some(sf) = need("stockfish", "stockfish") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let p = params(dir.path(), "ply_cap = 120\n");
    let spec = format!("uci:cmd={},nodes=200,option.Hash=4", sf.display());
    ok(&[
        "tournament",
        "--variant",
        "chess",
        "--agents",
        &format!("{spec},random"),
        "--games",
        "4",
        "--threads",
        "2",
        "--params",
        s(&p),
        "--out",
        s(&out),
    ]);
    let r = rows(&out);
    assert_eq!(r.len(), 4);
    for (agents, _, reason, _) in &r {
        assert!(agents.contains("uci:cmd="), "{agents}");
        assert!(!reason.starts_with("forfeit"), "{reason}");
    }
    // Stockfish at 200 nodes mates a random mover.
    let sf_wins = r
        .iter()
        .filter(|(a, res, ..)| {
            (a.starts_with("uci") && res == "1-0") || (!a.starts_with("uci") && res == "0-1")
        })
        .count();
    assert!(sf_wins >= 3, "{r:?}");
    all_replay(&out);
}

#[test]
fn rule_uci_chess960_with_stockfish() {
    let Some(sf) = need("stockfish", "stockfish") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let p = params(dir.path(), "ply_cap = 30\n");
    let spec = format!("uci:cmd={},nodes=100", sf.display());
    ok(&[
        "tournament",
        "--variant",
        "chess960",
        "--agents",
        &format!("{spec},random"),
        "--games",
        "4",
        "--params",
        s(&p),
        "--out",
        s(&out),
        "--seed",
        "3",
    ]);
    for (_, _, reason, plies) in rows(&out) {
        assert!(!reason.starts_with("forfeit"), "{reason}");
        assert!(plies > 2);
    }
    all_replay(&out);
}

#[test]
fn rule_uci_adjudicated_draw_is_recorded_and_replays() {
    let Some(sf) = need("stockfish", "stockfish") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let spec = format!("uci:cmd={},nodes=300", sf.display());
    ok(&[
        "tournament",
        "--variant",
        "chess",
        "--agents",
        &format!("{spec},{spec}"),
        "--games",
        "2",
        "--out",
        s(&out),
        "--draw",
        "movenumber=1,movecount=2,score=300",
    ]);
    for (_, result, reason, plies) in rows(&out) {
        assert_eq!(
            (result.as_str(), reason.as_str()),
            ("1/2-1/2", "adjudication-draw")
        );
        assert_eq!(plies, 4);
    }
    all_replay(&out);
}

/// A fake engine's failures end its games as recorded forfeits; the run goes on, and a
/// crashed engine is started again for the next game.
#[test]
fn rule_uci_failures_are_recorded_forfeits() {
    if need("python3", "python3").is_none() {
        return;
    }
    let fake = data("fake_uci.py");
    for (mode, limit, reason) in [
        ("crash", "nodes=10", "forfeit-crash"),
        ("hang", "nodes=10,timeout_ms=1000", "forfeit-hang"),
        ("illegal", "nodes=10", "forfeit-illegal"),
        ("slow", "tc=1+0,margin_ms=100", "forfeit-time"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("run");
        let counter = dir.path().join("starts.txt");
        let spec = format!("uci:cmd={fake} {mode} {},{limit}", s(&counter));
        let o = chesslab(&[
            "tournament",
            "--variant",
            "chess",
            "--agents",
            &format!("{spec},random"),
            "--games",
            "4",
            "--threads",
            "1",
            "--out",
            s(&out),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{mode}: {err}");
        assert!(err.contains("forfeits"), "{mode}: {err}");
        let r = rows(&out);
        assert_eq!(r.len(), 4, "{mode}");
        for (agents, result, got, plies) in &r {
            assert_eq!(got, reason, "{mode}");
            // The fake engine loses whatever its colour: White at ply 0, Black at ply 1.
            let fake_white = agents.starts_with("uci");
            assert_eq!(*plies, if fake_white { 0 } else { 1 }, "{mode}");
            assert_eq!(result, if fake_white { "0-1" } else { "1-0" }, "{mode}");
        }
        all_replay(&out);
        let starts = std::fs::read_to_string(&counter).unwrap().lines().count();
        if mode == "illegal" {
            // An illegal answer leaves the engine in step: one process for the check
            // before the run and one for all four games.
            assert_eq!(starts, 2, "{mode}");
        } else {
            // Killed after each game, started again for the next one.
            assert_eq!(starts, 5, "{mode}");
        }
    }
}

#[test]
fn rule_uci_bad_engines_are_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let run = |spec: &str| {
        fails(&[
            "tournament",
            "--variant",
            "chess",
            "--agents",
            &format!("{spec},random"),
            "--games",
            "2",
            "--out",
            s(&out),
        ])
    };
    let e = run("uci:cmd=/no/such/engine");
    assert!(
        e.contains("not found") && e.contains("/no/such/engine"),
        "{e}"
    );
    assert!(!out.join("games.csv").exists());
    if need("python3", "python3").is_some() {
        let fake = data("fake_uci.py");
        let e = run(&format!("uci:cmd={fake} nouciok,timeout_ms=500"));
        assert!(e.contains("did not answer 'uci' with 'uciok'"), "{e}");
        let e = run(&format!("uci:cmd={fake} illegal,option.Threads=2"));
        assert!(
            e.contains("has no option 'Threads'") && e.contains("Hash"),
            "{e}"
        );
        assert!(!out.join("games.csv").exists());
    }
    let e = fails(&[
        "tournament",
        "--variant",
        "masquerade",
        "--agents",
        "uci:cmd=stockfish,random",
        "--games",
        "2",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("cannot play") && e.contains("ext:cmd="), "{e}");
}
