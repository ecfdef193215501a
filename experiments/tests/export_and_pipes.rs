//! `chesslab export` verifies every game before writing PGN, and every command meets a
//! closed standard output (`| head`, `| true`) by exiting quietly instead of panicking.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn chesslab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(args)
        .output()
        .expect("run chesslab")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A short two-agent chess tournament (ply cap 40) in `dir/run`; returns games.csv.
fn small_run(dir: &Path) -> PathBuf {
    let cap = dir.join("cap.toml");
    std::fs::write(&cap, "ply_cap = 40\n").unwrap();
    let out = dir.join("run");
    let o = chesslab(&[
        "tournament",
        "--variant",
        "chess",
        "--agents",
        "random,greedy",
        "--games",
        "4",
        "--seed",
        "3",
        "--params",
        s(&cap),
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out.join("games.csv")
}

/// The row with its result and returns changed to another outcome (1-0 ↔ 0-1, a draw
/// becomes 1-0); the moves and the reason stay, so the replay contradicts it.
fn flip_result(line: &str) -> String {
    let mut f: Vec<String> = line.split(',').map(str::to_string).collect();
    assert_eq!(f.len(), 13, "no quoted fields expected: {line}");
    let (result, returns) = match f[8].as_str() {
        "1-0" => ("0-1", "-1 1"),
        _ => ("1-0", "1 -1"),
    };
    f[8] = result.into();
    f[9] = returns.into();
    f.join(",")
}

#[test]
fn export_refuses_rows_the_replay_contradicts_and_names_them() {
    let d = tempfile::tempdir().unwrap();
    let games = small_run(d.path());
    let text = std::fs::read_to_string(&games).unwrap();
    // The honest file exports four games.
    let good = chesslab(&["export", "--pgn", "--games", s(&games)]);
    assert!(good.status.success());
    assert_eq!(
        String::from_utf8_lossy(&good.stdout)
            .matches("[Event ")
            .count(),
        4
    );
    // Rows 2 and 4 edited to another result.
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[2] = flip_result(&lines[2]);
    lines[4] = flip_result(&lines[4]);
    let bad = d.path().join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::copy(games.with_file_name("run.json"), bad.join("run.json")).unwrap();
    let bad_games = bad.join("games.csv");
    std::fs::write(&bad_games, lines.join("\n") + "\n").unwrap();
    let pgn = d.path().join("out.pgn");
    let o = chesslab(&[
        "export",
        "--pgn",
        "--games",
        s(&bad_games),
        "--out",
        s(&pgn),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "export accepted contradicted rows");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("2 of 4 games"), "{err}");
    assert!(err.contains("row 2 (index 1)"), "{err}");
    assert!(err.contains("row 4 (index 3)"), "{err}");
    assert!(!err.contains("row 1 "), "{err}");
    assert!(err.contains("contradicts"), "{err}");
    assert!(!pgn.exists(), "nothing is written when a row fails");
    // `replay` says the same of the edited row.
    let o = chesslab(&["replay", "--games", s(&bad_games), "--row", "2"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not match"));
}

/// Runs chesslab with standard output a pipe whose reading end is already closed, so
/// the first write fails with EPIPE whatever the timing.
fn into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(args)
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("run chesslab")
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let d = tempfile::tempdir().unwrap();
    let games = small_run(d.path());
    let problem = d.path().join("hole.txt");
    let deal = chesslab(&["golf", "deal", "--seed", "7"]);
    assert!(deal.status.success());
    std::fs::write(&problem, &deal.stdout).unwrap();
    let sheet = d.path().join("sheet.toml");
    std::fs::write(
        &sheet,
        "players = [\"Ann\", \"Bob\"]\n[[hole]]\ncounts = { Ann = 3, Bob = 4 }\n",
    )
    .unwrap();
    let cap = d.path().join("cap.toml");
    let t_out = d.path().join("t2");
    let course = d.path().join("course");
    let commands: Vec<Vec<&str>> = vec![
        vec!["perft", "--depth", "2", "--divide"],
        vec!["play", "--variant", "chess", "--agents", "random,random"],
        vec![
            "tournament",
            "--variant",
            "chess",
            "--agents",
            "random,random",
            "--games",
            "2",
            "--params",
            s(&cap),
            "--out",
            s(&t_out),
        ],
        vec!["export", "--pgn", "--games", s(&games)],
        vec!["replay", "--games", s(&games), "--row", "1"],
        vec!["report", "--games", s(&games)],
        vec!["golf", "deal", "--seed", "1"],
        vec!["golf", "solve", s(&problem)],
        vec!["golf", "score", s(&sheet)],
        vec![
            "golf",
            "generate",
            "--holes",
            "1",
            "--seed",
            "2",
            "--out",
            s(&course),
        ],
    ];
    for args in &commands {
        let o = into_closed_pipe(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "chesslab {args:?}: {err}");
        assert_eq!(o.status.code(), Some(0), "chesslab {args:?}: {err}");
    }
    // The files were still written by the commands that write files.
    assert!(t_out.join("standings.md").exists());
    assert!(games.with_file_name("report.md").exists());
}

/// Issue 39: games of a variant with no PGN form are answered with one message saying so
/// and where their record is, not one failure per row; nothing is written.
#[test]
fn export_pgn_of_a_variant_without_pgn_says_so_once() {
    let d = tempfile::tempdir().unwrap();
    let pf = d.path().join("cap.toml");
    std::fs::write(&pf, "ply_cap = 30\n").unwrap();
    let out = d.path().join("run");
    let o = chesslab(&[
        "tournament",
        "--variant",
        "synchronous",
        "--agents",
        "random,random",
        "--games",
        "4",
        "--params",
        s(&pf),
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let target = d.path().join("x.pgn");
    let o = chesslab(&[
        "export",
        "--pgn",
        "--games",
        s(&out.join("games.csv")),
        "--out",
        s(&target),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("synchronous games are not PGN"), "{err}");
    assert!(err.contains("chesslab trace"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!target.exists());
}
