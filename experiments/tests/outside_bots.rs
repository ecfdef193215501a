//! Outside bots through the binary (issue 18): UCI engines as agents (real Stockfish and
//! a fake engine that crashes, hangs, answers an illegal move or loses on time), bad
//! engines refused before the run, adjudication, `chesslab uci`, and the `ext` protocol.
//!
//! Tests that need an outside program (`stockfish`, `python3`) skip with a note when it
//! is missing, and fail naming what to install when `CHESSLAB_REQUIRE_ENGINES=1` (CI).

use crate::common;
use common::{chesslab, ok, refused as fails, s};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The path of program `name` (in PATH or /usr/games), or `None` after a skip note for
/// `test` (printed at the end of the test command's run); with
/// `CHESSLAB_REQUIRE_ENGINES=1` a missing program fails the test naming the package.
fn need(test: &str, name: &str, package: &str) -> Option<PathBuf> {
    if let Ok(p) = agents::process::locate(name) {
        return Some(p);
    }
    common::skip::missing(
        test,
        &format!("'{name}'"),
        &format!("sudo apt-get install -y {package} (or scripts/install-test-tools)"),
        "CHESSLAB_REQUIRE_ENGINES",
    );
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
    let Some(sf) = need(
        "rule_uci_stockfish_match_at_low_nodes_replays",
        "stockfish",
        "stockfish",
    ) else {
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
    let Some(sf) = need("rule_uci_chess960_with_stockfish", "stockfish", "stockfish") else {
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
    let Some(sf) = need(
        "rule_uci_adjudicated_draw_is_recorded_and_replays",
        "stockfish",
        "stockfish",
    ) else {
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
    if need(
        "rule_uci_failures_are_recorded_forfeits",
        "python3",
        "python3",
    )
    .is_none()
    {
        return;
    }
    let fake = data("fake_uci.py");
    // The hang's timeout also bounds the handshake, so it leaves python room to start
    // on a busy machine; two games are enough to show the restart there.
    for (mode, limit, reason, games) in [
        ("crash", "nodes=10", "forfeit-crash", 4),
        ("hang", "nodes=10,timeout_ms=5000", "forfeit-hang", 2),
        ("illegal", "nodes=10", "forfeit-illegal", 4),
        ("slow", "tc=1+0,margin_ms=100", "forfeit-time", 4),
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
            &games.to_string(),
            "--threads",
            "1",
            "--out",
            s(&out),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{mode}: {err}");
        assert!(err.contains("forfeits"), "{mode}: {err}");
        let r = rows(&out);
        assert_eq!(r.len(), games, "{mode}");
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
            // before the run and one for all the games.
            assert_eq!(starts, 2, "{mode}");
        } else {
            // Killed after each game, started again for the next one.
            assert_eq!(starts, games + 1, "{mode}");
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
    if need(
        "rule_uci_bad_engines_are_refused_before_the_run",
        "python3",
        "python3",
    )
    .is_some()
    {
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

/// Whether python3 with the `chess` package (python-chess) is there.
fn need_python_chess(test: &str) -> bool {
    if need(test, "python3", "python3").is_none() {
        return false;
    }
    let ok = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        common::skip::missing(
            test,
            "python-chess",
            "python3 -m pip install chess (or scripts/install-test-tools)",
            "CHESSLAB_REQUIRE_ENGINES",
        );
    }
    ok
}

#[test]
fn rule_uci_cmd_python_chess_client_plays_every_limit() {
    if !need_python_chess("rule_uci_cmd_python_chess_client_plays_every_limit") {
        return;
    }
    for spec in ["alphabeta:depth=3", "mcts:iters=200"] {
        let o = Command::new("python3")
            .args([&data("uci_client.py"), env!("CARGO_BIN_EXE_chesslab"), spec])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success() && text.trim_end().ends_with("ok"),
            "{spec}: {text}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// Issue 39: `chesslab uci` playing an outside engine that crashes when asked to move
/// ends with a clear error and a non-zero exit, not a panic and silence with status 0.
#[test]
fn rule_uci_cmd_crashing_outside_engine_is_an_error() {
    use std::io::Write;
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    if need(
        "rule_uci_cmd_crashing_outside_engine_is_an_error",
        "python3",
        "python3",
    )
    .is_none()
    {
        return;
    }
    let spec = format!("uci:cmd=python3 {} crash,depth=1", data("fake_uci.py"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(["uci", "--agent", &spec])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "uci\nisready\nposition startpos\ngo depth 1").unwrap();
    stdin.flush().unwrap();
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "chesslab uci never ended"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(err.contains("error: the search failed"), "{err}");
    assert!(
        err.contains("forfeit-crash") || err.contains("crash"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.contains("info string error"), "{out}");
    assert!(!out.contains("bestmove"), "{out}");
}

#[test]
fn rule_uci_cmd_isready_and_stop_while_searching() {
    use agents::process::Child;
    use std::time::{Duration, Instant};
    let exe = env!("CARGO_BIN_EXE_chesslab").to_string();
    let mut c = Child::spawn(
        &exe,
        &["uci".into(), "--agent".into(), "alphabeta:depth=40".into()],
    )
    .unwrap();
    let t = Instant::now();
    let next = |c: &mut Child| c.recv(Instant::now() + Duration::from_secs(30), t).unwrap();
    c.send("uci").unwrap();
    while next(&mut c) != "uciok" {}
    c.send("position startpos moves e2e4").unwrap();
    c.send("go infinite").unwrap();
    c.send("isready").unwrap();
    // readyok comes while the search goes on (no bestmove before it).
    loop {
        let l = next(&mut c);
        assert!(!l.starts_with("bestmove"), "{l}");
        if l == "readyok" {
            break;
        }
    }
    c.send("stop").unwrap();
    let best = loop {
        let l = next(&mut c);
        if let Some(m) = l.strip_prefix("bestmove ") {
            break m.to_string();
        }
        assert!(l.starts_with("info depth"), "{l}");
    };
    let mut b = engine::Board::startpos();
    let e4 = b.parse_uci("e2e4").unwrap();
    b.make(e4);
    assert!(b.parse_uci(&best).is_ok(), "{best}");
    c.send("quit").unwrap();
}

/// Issue 39: `chesslab uci` reports alphabeta's score, depth and nodes in `info` before
/// `bestmove` (centipawns in a quiet position, a mate in moves where one is forced), and
/// an agent with no score gets `info` without one.
#[test]
fn rule_uci_cmd_info_reports_the_score() {
    use agents::process::Child;
    use std::time::{Duration, Instant};
    let exe = env!("CARGO_BIN_EXE_chesslab").to_string();
    // Lines up to and including `bestmove` after `go`.
    fn search(c: &mut Child, position: &str, go: &str) -> Vec<String> {
        let t = Instant::now();
        c.send(position).unwrap();
        c.send(go).unwrap();
        let mut lines = Vec::new();
        loop {
            let l = c.recv(Instant::now() + Duration::from_secs(60), t).unwrap();
            let done = l.starts_with("bestmove");
            lines.push(l);
            if done {
                return lines;
            }
        }
    }
    // The value after `key` in an info line.
    fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
        let w: Vec<&str> = line.split_whitespace().collect();
        w.iter()
            .position(|x| *x == key)
            .and_then(|i| w.get(i + 1).copied())
    }
    let mut c = Child::spawn(
        &exe,
        &["uci".into(), "--agent".into(), "alphabeta:depth=3".into()],
    )
    .unwrap();
    c.send("uci").unwrap();
    let t = Instant::now();
    while c.recv(Instant::now() + Duration::from_secs(30), t).unwrap() != "uciok" {}

    let lines = search(&mut c, "position startpos moves e2e4", "go depth 3");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "one info per depth: {lines:?}");
    for (i, l) in infos.iter().enumerate() {
        assert_eq!(field(l, "depth"), Some((i + 1).to_string().as_str()), "{l}");
        let cp: i32 = field(l, "cp")
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no score cp: {l}"));
        assert!(cp.abs() < 500, "the opening is roughly level: {l}");
        let nodes: u64 = field(l, "nodes")
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no nodes: {l}"));
        assert!(nodes > 0, "{l}");
        assert!(
            l.contains(" score cp ") && l.contains(" time ") && l.contains(" pv "),
            "{l}"
        );
    }
    // Deeper iterations have visited more nodes (the count is the decision's so far).
    let n = |l: &str| field(l, "nodes").unwrap().parse::<u64>().unwrap();
    assert!(n(infos[2]) > n(infos[0]), "{infos:?}");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");

    // A back-rank mate in one: `score mate 1`, and the mate is played.
    let lines = search(
        &mut c,
        "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "go depth 3",
    );
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.contains(" score mate 1 "), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bestmove a1a8", "{lines:?}");
    // Being mated (Kb8 is forced, then Rh8#): the side to move sees `mate -1`.
    let lines = search(
        &mut c,
        "position fen k7/8/1K6/8/8/8/8/7R b - - 0 1",
        "go depth 3",
    );
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.contains(" score mate -1 "), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bestmove a8b8", "{lines:?}");
    c.send("quit").unwrap();

    // An agent that reports no score: info without score or nodes, then bestmove.
    let mut c = Child::spawn(&exe, &["uci".into(), "--agent".into(), "greedy".into()]).unwrap();
    c.send("uci").unwrap();
    let t = Instant::now();
    while c.recv(Instant::now() + Duration::from_secs(30), t).unwrap() != "uciok" {}
    let lines = search(&mut c, "position startpos", "go movetime 100");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    assert!(!info.contains("score") && !info.contains("nodes"), "{info}");
    assert!(info.contains(" pv "), "{info}");
    c.send("quit").unwrap();
}

/// `chesslab uci` runs the built-in search once per `go`, keeping the agent (and its
/// table) between moves: the first search of a position visits exactly the nodes the
/// built-in agent does and plays its move; the same position again costs fewer nodes (the
/// table remembers it); `ucinewgame` forgets, and the count is the first's again.
#[test]
fn rule_uci_cmd_searches_once_and_keeps_its_table() {
    use agents::process::Child;
    use engine::game::{Game, Turn};
    use rand::SeedableRng;
    use std::time::{Duration, Instant};
    let exe = env!("CARGO_BIN_EXE_chesslab").to_string();
    let spec = "alphabeta:depth=6";
    let mut c = Child::spawn(&exe, &["uci".into(), "--agent".into(), spec.into()]).unwrap();
    let t = Instant::now();
    let next = |c: &mut Child| c.recv(Instant::now() + Duration::from_secs(60), t).unwrap();
    c.send("uci").unwrap();
    while next(&mut c) != "uciok" {}
    // (nodes of the last info line, bestmove) of one `go depth 6`.
    let go = |c: &mut Child| {
        c.send("position startpos moves e2e4 c7c5").unwrap();
        c.send("go depth 6").unwrap();
        let mut nodes = 0u64;
        loop {
            let l = next(c);
            if let Some(m) = l.strip_prefix("bestmove ") {
                return (nodes, m.to_string());
            }
            let w: Vec<&str> = l.split_whitespace().collect();
            if let Some(i) = w.iter().position(|x| *x == "nodes") {
                nodes = w[i + 1].parse().unwrap();
            }
        }
    };
    let first = go(&mut c);
    let again = go(&mut c);
    c.send("ucinewgame").unwrap();
    let fresh = go(&mut c);
    c.send("quit").unwrap();

    let mut game = engine::variants::chess::Chess::new(&Default::default());
    for m in ["e2e4", "c7c5"] {
        let a = game.parse_action(m).unwrap();
        game.apply(a);
    }
    let mut agent = agents::registry::build::<engine::variants::chess::Chess>(spec).unwrap();
    let Turn::Seat(seat) = game.turn() else {
        unreachable!()
    };
    let a = agent.act(&game, seat, &mut rand_pcg::Pcg64::seed_from_u64(1));
    let built_in = (agent.search_stats().unwrap().nodes, game.action_notation(a));
    assert_eq!(first, built_in, "one search, as the built-in agent's");
    assert!(again.0 < first.0 * 3 / 4, "{again:?} vs {first:?}");
    assert_eq!(fresh, first, "ucinewgame clears the table");
}

#[test]
fn rule_uci_cmd_plays_stockfish_in_chesslabs_runner() {
    let Some(sf) = need(
        "rule_uci_cmd_plays_stockfish_in_chesslabs_runner",
        "stockfish",
        "stockfish",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let p = params(dir.path(), "ply_cap = 60\n");
    let me = format!(
        "uci:cmd={} uci --agent alphabeta,movetime=100",
        env!("CARGO_BIN_EXE_chesslab")
    );
    let them = format!("uci:cmd={},nodes=100", sf.display());
    ok(&[
        "tournament",
        "--variant",
        "chess960",
        "--agents",
        &format!("{me},{them}"),
        "--games",
        "2",
        "--params",
        s(&p),
        "--out",
        s(&out),
    ]);
    for (_, _, reason, _) in rows(&out) {
        assert!(!reason.starts_with("forfeit"), "{reason}");
    }
    all_replay(&out);
}

/// The example bot plays every variant through the ext protocol, and its games replay.
#[test]
fn rule_ext_example_bot_plays_every_variant() {
    if need(
        "rule_ext_example_bot_plays_every_variant",
        "python3",
        "python3",
    )
    .is_none()
    {
        return;
    }
    let bot = format!("{}/../examples/ext_bot.py", env!("CARGO_MANIFEST_DIR"));
    for variant in engine::registry::VARIANTS {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("run");
        let p = params(dir.path(), "ply_cap = 60\n");
        let o = chesslab(&[
            "tournament",
            "--variant",
            variant,
            "--agents",
            &format!("ext:cmd=python3 {bot},random"),
            "--games",
            "2",
            "--params",
            s(&p),
            "--out",
            s(&out),
        ]);
        assert!(
            o.status.success(),
            "{variant}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let r = rows(&out);
        assert!(!r.is_empty(), "{variant}");
        for (agents, _, reason, plies) in &r {
            assert!(agents.contains("ext:cmd="), "{variant}");
            assert!(!reason.starts_with("forfeit"), "{variant}: {reason}");
            assert!(*plies > 0, "{variant}");
        }
        ok(&[
            "report",
            "--games",
            s(&out.join("games.csv")),
            "--out",
            s(&dir.path().join("r.md")),
        ]);
    }
}

#[test]
fn rule_ext_failures_and_bad_bots() {
    if need("rule_ext_failures_and_bad_bots", "python3", "python3").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // A bot that answers with nothing legal forfeits; one that never says ready is
    // refused before the run.
    let liar = dir.path().join("liar.py");
    std::fs::write(
        &liar,
        "import sys, json\nfor l in sys.stdin:\n    m = json.loads(l)\n    if m['type'] == 'hello': print(json.dumps({'type': 'ready'}), flush=True)\n    if m['type'] == 'act': print(json.dumps({'action': 'nonsense'}), flush=True)\n",
    )
    .unwrap();
    let out = dir.path().join("run");
    ok(&[
        "tournament",
        "--variant",
        "masquerade",
        "--agents",
        &format!("ext:cmd=python3 {},random", s(&liar)),
        "--games",
        "2",
        "--out",
        s(&out),
    ]);
    for (_, _, reason, _) in rows(&out) {
        assert_eq!(reason, "forfeit-illegal");
    }
    all_replay_report(&out);
    let e = fails(&[
        "tournament",
        "--variant",
        "chess",
        "--agents",
        "ext:cmd=python3 -c pass,timeout_ms=2000,random",
        "--games",
        "2",
        "--out",
        s(&dir.path().join("run2")),
    ]);
    assert!(e.contains("did not answer 'hello'"), "{e}");
}

fn all_replay_report(out: &Path) {
    ok(&[
        "report",
        "--games",
        s(&out.join("games.csv")),
        "--out",
        s(&out.join("r.md")),
    ]);
}

/// Rows as (pair, opening, actions).
fn openings_of(out: &Path) -> Vec<(u64, String, String)> {
    let mut r = csv::Reader::from_path(out.join("games.csv")).unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (
                rec[4].parse().unwrap(),
                rec[5].to_string(),
                rec[12].to_string(),
            )
        })
        .collect()
}

const PGN_BOOK: &str = "[Event \"1\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"2\"]\n\n1. d4 {queen's pawn} d5 (1... Nf6) 2. c4 *\n\n[Event \"3\"]\n\n1. c4 c5 2. Nc3 *\n";

#[test]
fn rule_openings_pgn_book_one_opening_per_pair() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.pgn");
    std::fs::write(&book, PGN_BOOK).unwrap();
    let p = params(dir.path(), "ply_cap = 30\n");
    let mut seen = Vec::new();
    for order in ["sequential", "random"] {
        let out = dir.path().join(order);
        ok(&[
            "tournament",
            "--variant",
            "chess",
            "--agents",
            "greedy,random",
            "--games",
            "6",
            "--openings",
            s(&book),
            "--opening-plies",
            "2",
            "--opening-order",
            order,
            "--params",
            s(&p),
            "--out",
            s(&out),
            "--seed",
            "4",
        ]);
        let rows = openings_of(&out);
        assert_eq!(rows.len(), 6);
        for pair in rows.chunks(2) {
            assert_eq!(pair[0].0, pair[1].0);
            assert_eq!(
                pair[0].1, pair[1].1,
                "both games of a pair share the opening"
            );
        }
        let firsts: Vec<String> = rows.iter().step_by(2).map(|r| r.1.clone()).collect();
        let mut distinct = firsts.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            3,
            "{order}: every book game once: {firsts:?}"
        );
        // Two plies of the first game: 1. e4 e5.
        let mut b = engine::Board::startpos();
        for m in ["e2e4", "e7e5"] {
            let mv = b.parse_uci(m).unwrap();
            b.make(mv);
        }
        assert!(firsts.contains(&b.fen()), "{firsts:?}");
        seen.push(firsts);
        let games = out.join("games.csv");
        ok(&["export", "--pgn", "--games", s(&games)]);
    }
    assert_ne!(seen[0], seen[1], "seed 4 shuffles the book");
}

#[test]
fn rule_openings_bad_book_is_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let run = |book: &Path, extra: &[&str]| {
        let mut args = vec![
            "tournament",
            "--variant",
            "chess",
            "--agents",
            "greedy,random",
            "--games",
            "2",
            "--openings",
            s(book),
            "--out",
            s(&out),
        ];
        args.extend_from_slice(extra);
        fails(&args)
    };
    let pgn = dir.path().join("bad.pgn");
    std::fs::write(
        &pgn,
        "[Event \"1\"]\n\n1. e4 e5 *\n\n[Event \"2\"]\n\n1. e4 e5 2. Ke3 *\n",
    )
    .unwrap();
    let e = run(&pgn, &[]);
    assert!(e.contains("game 2") && e.contains("Ke3"), "{e}");
    let epd = dir.path().join("bad.epd");
    std::fs::write(&epd, "8/8/8/8/8/8/8/8 w - -\n").unwrap();
    let e = run(&epd, &[]);
    assert!(e.contains("line 1"), "{e}");
    std::fs::write(&epd, "8/8/8/8/8/8/8/K6k w - -\n").unwrap();
    let e = run(&epd, &["--opening-plies", "3"]);
    assert!(e.contains("--opening-plies applies to PGN"), "{e}");
    assert!(!out.join("games.csv").exists());
}

/// The README quickstart's point: deterministic agents with a random opening per pair
/// play different games, and both games of a pair share the opening plies.
#[test]
fn rule_random_opening_is_shared_by_the_pair() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let p = params(dir.path(), "ply_cap = 40\n");
    ok(&[
        "tournament",
        "--variant",
        "chess",
        "--agents",
        "alphabeta:depth=1,greedy",
        "--games",
        "20",
        "--random-opening-plies",
        "4",
        "--params",
        s(&p),
        "--out",
        s(&out),
    ]);
    let rows = openings_of(&out);
    assert_eq!(rows.len(), 20);
    let mut all: Vec<&str> = rows.iter().map(|r| r.2.as_str()).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 20, "20 different games");
    for pair in rows.chunks(2) {
        let a: Vec<&str> = pair[0].2.split(' ').take(4).collect();
        let b: Vec<&str> = pair[1].2.split(' ').take(4).collect();
        assert_eq!(a, b, "the pair shares its random plies");
    }
    // The random plies are part of the record: every game replays.
    ok(&["export", "--pgn", "--games", s(&out.join("games.csv"))]);
}
