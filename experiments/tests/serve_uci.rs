//! `chesslab uci` when its input or its engine ends (issue 65): a `go` followed by the end
//! of standard input still answers `bestmove` before the program exits 0, and a search
//! whose outside engine dies says so (`info string error`, exit status 1), never an exit
//! 0 without a move.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `chesslab uci --agent SPEC` with `input` then the end of input; (status, stdout).
fn uci(spec: &str, input: &str) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(["uci", "--agent", spec])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("chesslab uci --agent {spec} did not end after its input did");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = child.wait_with_output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

#[test]
fn rule_uci_answers_before_the_end_of_input() {
    for (spec, go) in [
        ("random", "go movetime 50"),
        ("alphabeta:depth=3", "go depth 3"),
        ("greedy", "go infinite"),
    ] {
        let (code, out) = uci(spec, &format!("uci\nisready\nposition startpos\n{go}\n"));
        assert_eq!(code, Some(0), "{spec}: {out}");
        assert!(
            out.lines().any(|l| l.starts_with("bestmove ")),
            "{spec} {go}: no bestmove: {out}"
        );
    }
}

#[cfg(unix)]
#[test]
fn rule_uci_outside_engine_dying_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    // Answers the handshake, then exits at the first `go` (and, the second script, at
    // the second `isready`).
    let scripts = [
        (
            "dies-at-go.sh",
            "    isready) echo readyok;;\n    go*) exit 0;;\n",
        ),
        (
            "dies-after-isready.sh",
            "    isready) n=$((n+1)); echo readyok; [ $n -ge 1 ] && exit 0;;\n",
        ),
    ];
    for (name, cases) in scripts {
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            format!("#!/bin/sh\nn=0\nwhile read line; do\n  case \"$line\" in\n    uci) echo 'id name dying'; echo uciok;;\n{cases}  esac\ndone\n"),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let spec = format!("uci:cmd={}", path.display());
        // The input ends right after `go` (a `quit` would end the session at once, as
        // the protocol asks).
        {
            let tail = "";
            let (code, out) = uci(
                &spec,
                &format!("uci\nisready\nposition startpos\ngo movetime 100\n{tail}"),
            );
            assert_ne!(code, Some(0), "{name} {tail:?}: exit 0: {out}");
            assert!(out.contains("info string error"), "{name} {tail:?}: {out}");
            assert!(!out.contains("bestmove"), "{name}: a move invented: {out}");
        }
    }
}
