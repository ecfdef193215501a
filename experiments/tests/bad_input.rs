//! Bad input, tried as a new user would (issue 23): every refusal is checked for its exit
//! code, its message (no `panicked`), and that no file in the working folder changed.
//! The sweep over `tests/data/bad_inputs.txt` runs every subcommand with a list of bad
//! inputs kept as data.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn chesslab_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run chesslab")
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// Runs a command in `dir` that must be refused: exit 1 (not clap's 2 for these, not 101),
/// a message containing each of `expect`, and no file under `dir` created, removed or
/// changed. Returns standard error.
fn refused(dir: &Path, args: &[&str], expect: &[&str]) -> String {
    let before = snapshot(dir);
    let o = chesslab_in(dir, args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "chesslab {args:?}: {err}");
    assert!(err.starts_with("error:"), "chesslab {args:?}: {err}");
    assert!(!err.contains("panicked"), "chesslab {args:?}: {err}");
    for e in expect {
        assert!(err.contains(e), "chesslab {args:?}: '{e}' not in: {err}");
    }
    let after = snapshot(dir);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>(),
        "chesslab {args:?} created or removed files"
    );
    assert!(before == after, "chesslab {args:?} changed a file");
    err
}

fn ok_in(dir: &Path, args: &[&str]) -> Output {
    let o = chesslab_in(dir, args);
    assert!(
        o.status.success(),
        "chesslab {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// A finished two-agent chess run (ply cap 30, 4 games) in `dir/run`.
fn small_run(dir: &Path) -> PathBuf {
    std::fs::write(dir.join("cap.toml"), "ply_cap = 30\n").unwrap();
    ok_in(
        dir,
        &[
            "tournament",
            "--variant",
            "chess",
            "--agents",
            "random,greedy",
            "--games",
            "4",
            "--seed",
            "5",
            "--params",
            "cap.toml",
            "--out",
            "run",
        ],
    );
    dir.join("run")
}

#[test]
fn no_output_overwrites_an_input_and_existing_files_need_force() {
    let d = tempfile::tempdir().unwrap();
    let run = small_run(d.path());
    let dir = d.path();
    // The games file itself, spelled two ways, and the other inputs.
    for out in [
        "run/games.csv",
        "run/../run/games.csv",
        "run/run.json",
        "cap.toml",
    ] {
        refused(
            dir,
            &[
                "export",
                "--pgn",
                "--games",
                "run/games.csv",
                "--params",
                "cap.toml",
                "--out",
                out,
                "--force",
            ],
            &["is also an input", "--out"],
        );
        refused(
            dir,
            &[
                "report",
                "--games",
                "run/games.csv",
                "--params",
                "cap.toml",
                "--out",
                out,
                "--force",
            ],
            &["is also an input"],
        );
    }
    // A report named tallies.csv would be replaced by its own tallies.
    refused(
        dir,
        &[
            "report",
            "--games",
            "run/games.csv",
            "--out",
            "run/tallies.csv",
            "--force",
        ],
        &["tallies.csv"],
    );
    // An existing file is replaced only with --force.
    std::fs::write(dir.join("mine.pgn"), "keep me\n").unwrap();
    std::fs::write(dir.join("mine.md"), "keep me\n").unwrap();
    refused(
        dir,
        &[
            "export",
            "--pgn",
            "--games",
            "run/games.csv",
            "--out",
            "mine.pgn",
        ],
        &["already exists", "--force"],
    );
    refused(
        dir,
        &["report", "--games", "run/games.csv", "--out", "mine.md"],
        &["already exists", "--force"],
    );
    // A folder as --out: refused, and no stray temporary is left.
    refused(
        dir,
        &[
            "export",
            "--pgn",
            "--games",
            "run/games.csv",
            "--out",
            "run",
            "--force",
        ],
        &["is a folder"],
    );
    ok_in(
        dir,
        &[
            "export",
            "--pgn",
            "--games",
            "run/games.csv",
            "--out",
            "mine.pgn",
            "--force",
        ],
    );
    assert!(std::fs::read_to_string(dir.join("mine.pgn"))
        .unwrap()
        .contains("[Result"));
    // The report's default outputs belong to the run: a second report replaces them.
    ok_in(dir, &["report", "--games", "run/games.csv"]);
    ok_in(dir, &["report", "--games", "run/games.csv"]);
    assert!(run.join("report.md").exists());
}

#[test]
fn an_unwritable_out_names_the_users_path_and_leaves_no_temporary() {
    let d = tempfile::tempdir().unwrap();
    small_run(d.path());
    let err = refused(
        d.path(),
        &["report", "--games", "run/games.csv", "--out", "nosuch/x.md"],
        &["nosuch/"],
    );
    assert!(!err.contains(".tmp"), "{err}");
}

#[test]
fn golf_generate_refuses_a_course_folder_and_force_replaces_the_whole_course() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let gen = |holes: &str, extra: &[&str]| {
        let mut a = vec![
            "golf",
            "generate",
            "--holes",
            holes,
            "--cards",
            "2",
            "--seed",
            "1",
            "--as-dealt",
            "--out",
            "course",
        ];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let args = gen("3", &[]);
    ok_in(dir, &args.iter().map(String::as_str).collect::<Vec<_>>());
    std::fs::write(dir.join("course/notes.txt"), "mine\n").unwrap();
    let again = gen("2", &[]);
    refused(
        dir,
        &again.iter().map(String::as_str).collect::<Vec<_>>(),
        &["not empty", "--force"],
    );
    let forced = gen("2", &["--force"]);
    ok_in(dir, &forced.iter().map(String::as_str).collect::<Vec<_>>());
    let mut holes: Vec<String> = std::fs::read_dir(dir.join("course/holes"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    holes.sort();
    assert_eq!(
        holes,
        ["hole-01.txt", "hole-02.txt"],
        "the old hole 3 survived"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("course/notes.txt")).unwrap(),
        "mine\n"
    );
    // A file as the course folder.
    std::fs::write(dir.join("afile"), "x").unwrap();
    refused(
        dir,
        &[
            "golf",
            "generate",
            "--as-dealt",
            "--out",
            "afile",
            "--force",
        ],
        &["is a file"],
    );
    refused(
        dir,
        &["golf", "generate", "--max-nodes", "0", "--out", "new"],
        &["--max-nodes"],
    );
}

#[test]
fn sizes_that_cannot_be_allocated_are_refused_and_threads_capped() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    for games in ["1000000000000", "18446744073709551615"] {
        for cmd in ["tournament", "balance"] {
            refused(
                dir,
                &[
                    cmd,
                    "--variant",
                    "chess",
                    "--agents",
                    "random,greedy",
                    "--games",
                    games,
                    "--out",
                    "big",
                ],
                &["games one run may schedule"],
            );
        }
    }
    std::fs::write(dir.join("cap.toml"), "ply_cap = 4\n").unwrap();
    let o = ok_in(
        dir,
        &[
            "tournament",
            "--variant",
            "chess",
            "--agents",
            "random,greedy",
            "--games",
            "2",
            "--threads",
            "100000",
            "--params",
            "cap.toml",
            "--out",
            "t",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--threads 100000 capped at"), "{err}");
}

#[test]
fn perft_flags_are_supported_or_refused_and_messages_name_the_problem() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    for flag in [
        &["--divide"][..],
        &["--full"],
        &["--chess960", "5"],
        &["--frc"],
    ] {
        let mut a = vec!["perft", "--variant", "half-alice", "--depth", "1"];
        a.extend_from_slice(flag);
        refused(dir, &a, &[flag[0], "only with chess"]);
    }
    // Too many FEN fields: the message says how many are allowed.
    refused(
        dir,
        &[
            "perft",
            "--depth",
            "1",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
        ],
        &["4 to 6 fields", "found 7"],
    );
    // A negative number is a value out of range, not an unknown flag (clap's exit 2).
    let o = chesslab_in(dir, &["perft", "--depth", "-1"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("invalid value '-1' for '--depth"), "{err}");
    assert!(!err.contains("unexpected argument"), "{err}");
}

/// A games.csv line with its result and returns flipped (moves and reason kept).
fn flip_result(line: &str) -> String {
    let mut f: Vec<String> = line.split(',').map(str::to_string).collect();
    let (result, returns) = match f[8].as_str() {
        "1-0" => ("0-1", "-1 1"),
        _ => ("1-0", "1 -1"),
    };
    f[8] = result.into();
    f[9] = returns.into();
    f.join(",")
}

#[test]
fn resume_compares_the_full_agent_specs_and_verifies_every_row() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    small_run(dir);
    let resume = |agents: &str| -> Vec<String> {
        [
            "tournament",
            "--variant",
            "chess",
            "--agents",
            agents,
            "--games",
            "4",
            "--seed",
            "5",
            "--params",
            "cap.toml",
            "--out",
            "run",
            "--resume",
        ]
        .into_iter()
        .map(String::from)
        .collect()
    };
    let other = resume("alphabeta:depth=2,mcts:iters=50");
    refused(
        dir,
        &other.iter().map(String::as_str).collect::<Vec<_>>(),
        &["cannot resume", "agents random vs greedy"],
    );
    // A hand-edited result is caught before anything is written.
    let games = dir.join("run/games.csv");
    let text = std::fs::read_to_string(&games).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[2] = flip_result(&lines[2]);
    std::fs::write(&games, lines.join("\n") + "\n").unwrap();
    let same = resume("random,greedy");
    refused(
        dir,
        &same.iter().map(String::as_str).collect::<Vec<_>>(),
        &["fail verification", "game 1"],
    );
}

/// The sweep: each line of `tests/data/bad_inputs.txt` is a command (arguments split on
/// whitespace, `_` standing for a space inside one argument, `RUN` for a finished run's
/// folder) that must exit non-zero with a
/// message, no `panicked`, and no file changed.
#[test]
fn every_bad_input_in_the_list_is_refused_cleanly() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    small_run(dir);
    std::fs::write(dir.join("zero.toml"), "ply_cap = 0\n").unwrap();
    std::fs::write(dir.join("golf-bad.toml"), "[setup_gaps]\nknight = 255\n").unwrap();
    std::fs::write(dir.join("alice13.toml"), "checkers_per_side = 13\n").unwrap();
    std::fs::write(dir.join("alice0.toml"), "checkers_per_side = 0\n").unwrap();
    std::fs::write(dir.join("c960.toml"), "position = 960\n").unwrap();
    let list = include_str!("data/bad_inputs.txt");
    let mut n = 0;
    for line in list.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let args: Vec<String> = line
            .split_whitespace()
            .map(|a| a.replace("RUN", "run").replace('_', " "))
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let before = snapshot(dir);
        let o = chesslab_in(dir, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            matches!(o.status.code(), Some(1) | Some(2)),
            "{line}: exit {:?}: {err}",
            o.status.code()
        );
        assert!(err.contains("error"), "{line}: no message: {err}");
        assert!(!err.contains("panicked"), "{line}: {err}");
        assert!(before == snapshot(dir), "{line}: changed a file");
        n += 1;
    }
    assert!(n >= 40, "the list shrank to {n} commands");
}

/// Ctrl-C (SIGINT) during a long search: the first says what happens and the second stops
/// at once, keeping the header and every finished row. No clock: the test waits for
/// files and messages, not for durations.
#[cfg(unix)]
#[test]
fn ctrl_c_says_what_happens_and_a_second_stops_at_once() {
    use std::process::Stdio;
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let err_path = dir.join("stderr.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args([
            "tournament",
            "--variant",
            "chess",
            "--agents",
            "mcts:iters=100000000,mcts:iters=100000000",
            "--games",
            "2",
            "--threads",
            "1",
            "--out",
            "run",
        ])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    let sigint = || {
        let ok = Command::new("kill").args(["-INT", &pid]).status().unwrap();
        assert!(ok.success());
    };
    let stderr = || std::fs::read_to_string(&err_path).unwrap_or_default();
    let wait_for = |child: &mut std::process::Child, what: &dyn Fn() -> bool| {
        while !what() {
            let ended = child.try_wait().unwrap();
            assert!(ended.is_none(), "chesslab ended early: {}", stderr());
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    };
    // run.json is written after the handler is installed.
    wait_for(&mut child, &|| dir.join("run/run.json").exists());
    sigint();
    wait_for(&mut child, &|| {
        stderr().contains("Ctrl-C again to stop now")
    });
    assert!(stderr().contains("stopping after the games in progress"));
    sigint();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{}", stderr());
    assert!(!stderr().contains("panicked"));
    let games = std::fs::read_to_string(dir.join("run/games.csv")).unwrap();
    assert!(games.starts_with("index,"), "{games}");
    assert!(games.ends_with('\n'));
}

#[test]
fn reports_say_what_was_skipped_and_refuse_phantom_players() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    small_run(dir);
    let games = dir.join("run/games.csv");
    let full = std::fs::read_to_string(&games).unwrap();
    // Cut mid-row: the report names the skipped line and counts only complete games.
    let cut = &full[..full.len() - 10];
    std::fs::write(&games, cut).unwrap();
    let o = ok_in(dir, &["report", "--games", "run/games.csv"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("Skipped: the last line"), "{err}");
    let md = std::fs::read_to_string(dir.join("run/report.md")).unwrap();
    assert!(md.contains("Skipped:"), "{md}");
    assert!(md.contains("3 complete games"), "{md}");
    // Players that are not the run's agents.
    let mut lines: Vec<String> = full.lines().map(str::to_string).collect();
    let mut f: Vec<String> = lines[1].split(',').map(str::to_string).collect();
    f[6] = "5 9".into();
    lines[1] = f.join(",");
    std::fs::write(&games, lines.join("\n") + "\n").unwrap();
    refused(
        dir,
        &["report", "--games", "run/games.csv", "--out", "r.md"],
        &["player 5", "2 agents"],
    );
    // An empty games.csv (header only) exports nothing: an error, not exit 0.
    std::fs::write(&games, full.lines().next().unwrap().to_string() + "\n").unwrap();
    refused(
        dir,
        &["export", "--pgn", "--games", "run/games.csv"],
        &["no finished games"],
    );
    refused(
        dir,
        &["report", "--games", "run/games.csv", "--split", "nosuch@0"],
        &["no finished games"],
    );
}

#[test]
fn openings_with_rights_or_stacks_the_position_cannot_have_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w";
    let cases: [(String, &[&str]); 5] = [
        (
            "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1".into(),
            &["castling", "no white rook"],
        ),
        (
            format!("{start} BCbc - 0 1"),
            &["'B'", "no white rook on b1"],
        ),
        (format!("{start} KQKQ - 0 1"), &["named twice"]),
        (format!("{start} KQkqA - 0 1"), &["'A'", "named twice"]),
        (
            format!("{start} KQkq e6 0 1"),
            &["en passant", "no black pawn on e5"],
        ),
    ];
    for (fen, expect) in &cases {
        refused(dir, &["perft", "--depth", "1", "--fen", fen], expect);
    }
    let adrenaline = |stacks: &str| format!("{start} KQkq - 0 1 | {stacks}");
    refused(
        dir,
        &[
            "perft",
            "--variant",
            "adrenaline",
            "--depth",
            "1",
            "--fen",
            &adrenaline("e1=255 d1=255 a1=255"),
        ],
        &["765 checkers", "24 in the box"],
    );
    refused(
        dir,
        &[
            "perft",
            "--variant",
            "adrenaline",
            "--depth",
            "1",
            "--fen",
            &adrenaline("e1=2 e1=3"),
        ],
        &["e1 is named twice"],
    );
    // The rights the position has are still read.
    ok_in(
        dir,
        &[
            "perft",
            "--depth",
            "1",
            "--fen",
            &format!("{start} KQkq - 0 1"),
        ],
    );
}

#[test]
fn replay_without_a_game_names_both_selectors() {
    let d = tempfile::tempdir().unwrap();
    small_run(d.path());
    refused(
        d.path(),
        &["replay", "--games", "run/games.csv"],
        &["--index", "--row"],
    );
}
