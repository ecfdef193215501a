//! End-to-end tests of `chesslab play / tournament / replay / export` through the binary.

use crate::common;
use common::{chesslab, fails, ok, params, read, s};
use std::path::Path;
use std::process::Output;

fn tournament(out: &Path, params: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "tournament",
        "--variant",
        "chess",
        "--agents",
        "random,greedy,random",
        "--games",
        "6",
        "--seed",
        "11",
        "--params",
        s(params),
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    chesslab(&args)
}

#[test]
fn same_seed_same_games_whatever_the_thread_count() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 60);
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    assert!(tournament(&a, &pf, &["--threads", "1"]).status.success());
    assert!(tournament(&b, &pf, &["--threads", "2"]).status.success());
    let ga = read(&a.join("games.csv"));
    assert_eq!(ga, read(&b.join("games.csv")));
    // 3 agents round robin: 3 matchups x 6 games, header + 18 rows.
    assert_eq!(ga.lines().count(), 19);
    assert_eq!(read(&a.join("standings.md")), read(&b.join("standings.md")));
    assert_eq!(
        read(&a.join("standings.csv")),
        read(&b.join("standings.csv"))
    );
    let run: serde_json::Value = serde_json::from_str(&read(&a.join("run.json"))).unwrap();
    assert_eq!(run["seed"], 11);
    assert_eq!(run["variant"], "chess");
    assert!(run["command"].as_array().unwrap().len() > 3);
    assert!(run["chesslab_version"].is_string());
    // The binary's own commit, whatever checkout the run is started in (a saved binary
    // of an older commit records that commit, not the folder's).
    assert_eq!(run["build_commit"], env!("CHESSLAB_GIT_HASH"));
    // Refuses to overwrite without --resume.
    let o = tournament(&a, &pf, &["--threads", "1"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
    assert_eq!(read(&a.join("games.csv")), ga);
}

#[test]
fn resume_after_a_torn_write_equals_an_uninterrupted_run() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 60);
    let whole = d.path().join("whole");
    assert!(tournament(&whole, &pf, &["--threads", "2"])
        .status
        .success());
    let full = read(&whole.join("games.csv"));
    for k in [0usize, 5] {
        // Header + k rows + half of the next one, as a crash mid-write leaves it.
        let cut = d.path().join(format!("cut{k}"));
        std::fs::create_dir_all(&cut).unwrap();
        let lines: Vec<&str> = full.split_inclusive('\n').collect();
        let mut text: String = lines[..=k].concat();
        text.push_str(&lines[k + 1][..lines[k + 1].len() / 2]);
        std::fs::write(cut.join("games.csv"), &text).unwrap();
        // run.json is written before games.csv: a resume needs it (issue 39).
        std::fs::copy(whole.join("run.json"), cut.join("run.json")).unwrap();
        let o = tournament(&cut, &pf, &["--threads", "2", "--resume"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(read(&cut.join("games.csv")), full, "k = {k}");
        assert_eq!(
            read(&cut.join("standings.md")),
            read(&whole.join("standings.md"))
        );
    }
    // Resuming a finished run plays nothing and changes nothing.
    let o = tournament(&whole, &pf, &["--resume"]);
    assert!(o.status.success());
    assert_eq!(read(&whole.join("games.csv")), full);
}

/// A run resumed by another build keeps the earlier build's record beside its own
/// (crate::run::builds): run.json's top-level `build_commit` is the latest start's, its
/// `builds` every start's with the rows recorded before it. The earlier build is played
/// by an older run.json (no `builds` list, another `build_commit`), as a saved binary of
/// an earlier session leaves it.
#[test]
fn a_resume_by_another_build_keeps_every_build() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 40);
    let whole = d.path().join("whole");
    assert!(tournament(&whole, &pf, &["--threads", "1"])
        .status
        .success());
    let full = read(&whole.join("games.csv"));
    let cut = d.path().join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    let lines: Vec<&str> = full.split_inclusive('\n').collect();
    std::fs::write(cut.join("games.csv"), lines[..4].concat()).unwrap();
    let mut old: serde_json::Value = serde_json::from_str(&read(&whole.join("run.json"))).unwrap();
    let obj = old.as_object_mut().unwrap();
    obj.remove("builds");
    obj.insert("build_commit".into(), "0123abc".into());
    std::fs::write(cut.join("run.json"), old.to_string()).unwrap();
    let o = tournament(&cut, &pf, &["--threads", "2", "--resume"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read(&cut.join("games.csv")), full);
    let run: serde_json::Value = serde_json::from_str(&read(&cut.join("run.json"))).unwrap();
    assert_eq!(run["build_commit"], env!("CHESSLAB_GIT_HASH"));
    let builds = run["builds"].as_array().unwrap();
    assert_eq!(builds.len(), 2, "{builds:?}");
    assert_eq!(builds[0]["build_commit"], "0123abc");
    assert_eq!(builds[0]["games_before"], 0);
    assert_eq!(builds[1]["build_commit"], env!("CHESSLAB_GIT_HASH"));
    assert_eq!(builds[1]["games_before"], 3);
    // A second resume (nothing left to play) adds its start and keeps both.
    assert!(tournament(&cut, &pf, &["--resume"]).status.success());
    let run: serde_json::Value = serde_json::from_str(&read(&cut.join("run.json"))).unwrap();
    let builds = run["builds"].as_array().unwrap();
    assert_eq!(builds.len(), 3);
    assert_eq!(builds[0]["build_commit"], "0123abc");
    assert_eq!(builds[2]["games_before"], 18);
    // A hand-broken list stops the resume, naming it, and nothing is rewritten.
    let mut broken = run.clone();
    broken["builds"] = "edited".into();
    let broken = broken.to_string();
    std::fs::write(cut.join("run.json"), &broken).unwrap();
    let o = tournament(&cut, &pf, &["--resume"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cannot resume") && err.contains("`builds` is not a list of build starts"),
        "{err}"
    );
    assert_eq!(read(&cut.join("run.json")), broken);
    assert_eq!(read(&cut.join("games.csv")), full);
}

/// Settings no row records (random opening plies, draw and resign adjudication) must match
/// the interrupted run's on --resume: a change is refused, naming the flag, and nothing
/// is written (issue 18: a resume that silently mixed two kinds of games).
#[test]
fn resume_refuses_changed_play_settings() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 40);
    let out = d.path().join("run");
    assert!(tournament(
        &out,
        &pf,
        &["--threads", "1", "--random-opening-plies", "2"]
    )
    .status
    .success());
    let games = read(&out.join("games.csv"));
    let run = read(&out.join("run.json"));
    for (extra, flag) in [
        (
            vec!["--random-opening-plies", "3"],
            "played with --random-opening-plies 2, this command has --random-opening-plies 3",
        ),
        (
            vec![],
            "played with --random-opening-plies 2, this command has --random-opening-plies 0",
        ),
        (
            vec![
                "--random-opening-plies",
                "2",
                "--draw",
                "movenumber=20,movecount=8,score=10",
            ],
            "played with no --draw, this command has --draw movenumber=20,movecount=8,score=10",
        ),
    ] {
        let mut args = vec!["--resume"];
        args.extend(extra);
        let o = tournament(&out, &pf, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?}");
        assert!(err.contains("cannot resume"), "{err}");
        assert!(err.contains(flag), "{flag}: {err}");
        assert_eq!(read(&out.join("games.csv")), games);
        assert_eq!(read(&out.join("run.json")), run);
    }
    // The same settings resume (nothing left to play).
    let o = tournament(&out, &pf, &["--resume", "--random-opening-plies", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn corrupt_csv_on_resume_is_an_error_and_the_file_is_kept() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 40);
    let out = d.path().join("run");
    assert!(tournament(&out, &pf, &["--threads", "1"]).status.success());
    let full = read(&out.join("games.csv"));
    let mut lines: Vec<String> = full.lines().map(str::to_string).collect();
    lines[3] = "3,not-a-seed,chess".into();
    let corrupt = lines.join("\n") + "\n";
    std::fs::write(out.join("games.csv"), &corrupt).unwrap();
    let o = tournament(&out, &pf, &["--resume"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 4"), "{err}");
    assert_eq!(read(&out.join("games.csv")), corrupt);
    // A row from another run (other seed) is refused too.
    let other = d.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("games.csv"), &full).unwrap();
    let mut args = vec!["--resume", "--seed", "12"];
    args.push("--threads");
    args.push("1");
    let o = chesslab(&[
        "tournament",
        "--variant",
        "chess",
        "--agents",
        "random,greedy,random",
        "--games",
        "6",
        "--seed",
        "12",
        "--params",
        s(&pf),
        "--out",
        s(&other),
        "--resume",
    ]);
    assert!(!o.status.success());
    // No run.json beside the rows: nothing to check the command line against.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cannot resume") && err.contains("run.json"),
        "{err}"
    );
    assert_eq!(read(&other.join("games.csv")), full);
    let _ = args;
}

#[test]
fn shards_together_are_the_whole_run() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 60);
    let whole = d.path().join("whole");
    assert!(tournament(&whole, &pf, &["--threads", "2"])
        .status
        .success());
    let mut rows: Vec<String> = Vec::new();
    for i in 0..3 {
        let out = d.path().join(format!("shard{i}"));
        let shard = format!("{i}/3");
        let o = tournament(&out, &pf, &["--threads", "1", "--shard", &shard]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        rows.extend(
            read(&out.join("games.csv"))
                .lines()
                .skip(1)
                .map(str::to_string),
        );
    }
    rows.sort_by_key(|r| r.split(',').next().unwrap().parse::<u64>().unwrap());
    let full = read(&whole.join("games.csv"));
    let expect: Vec<&str> = full.lines().skip(1).collect();
    assert_eq!(rows, expect);
}

#[test]
fn sprt_stops_early_and_deterministically() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 60);
    let mut outs = Vec::new();
    for t in ["1", "2"] {
        let out = d.path().join(format!("sprt{t}"));
        let o = chesslab(&[
            "tournament",
            "--variant",
            "chess",
            "--agents",
            "greedy,random",
            "--games",
            "400",
            "--seed",
            "3",
            "--params",
            s(&pf),
            "--sprt",
            "0,100,0.05,0.05",
            "--threads",
            t,
            "--out",
            s(&out),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(stdout.contains("H1 accepted"), "{stdout}");
        outs.push(read(&out.join("games.csv")));
    }
    assert_eq!(outs[0], outs[1]);
    let n = outs[0].lines().count() - 1;
    assert!(n < 400 && n % 2 == 0, "{n} games");
}

#[test]
fn chess960_pairs_share_the_start_and_replay_and_pgn_work() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 50);
    let out = d.path().join("c960");
    let o = chesslab(&[
        "tournament",
        "--variant",
        "chess960",
        "--agents",
        "greedy,random",
        "--games",
        "4",
        "--params",
        s(&pf),
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = read(&out.join("games.csv"));
    let starts: Vec<String> = games
        .lines()
        .skip(1)
        .map(|l| {
            let actions = l.rsplit(',').next().unwrap();
            actions.split(' ').next().unwrap().to_string()
        })
        .collect();
    assert!(starts.iter().all(|s| s.starts_with("start")), "{starts:?}");
    assert_eq!(starts[0], starts[1]);
    assert_eq!(starts[2], starts[3]);
    let gp = out.join("games.csv");
    let r = ok(&["replay", "--games", s(&gp), "--index", "1"]);
    assert!(r.contains("verified"), "{r}");
    assert!(r.contains("final position:"), "{r}");
    let r = ok(&["replay", "--games", s(&gp), "--row", "2"]);
    assert!(r.contains("game 1 "), "{r}");
    let pgn_path = d.path().join("out.pgn");
    ok(&["export", "--pgn", "--games", s(&gp), "--out", s(&pgn_path)]);
    let pgn = read(&pgn_path);
    assert_eq!(pgn.matches("[Event ").count(), 4);
    assert_eq!(pgn.matches("[Variant \"Chess960\"]").count(), 4);
    assert_eq!(pgn.matches("[SetUp \"1\"]").count(), 4);
    assert!(pgn.contains("[FEN \""));
    assert!(pgn.contains("1. "));
    // A replay that does not match its record is reported.
    let mut lines: Vec<String> = games.lines().map(str::to_string).collect();
    lines[1] = lines[1]
        .replace(",1-0,", ",0-1,")
        .replace(",1/2-1/2,", ",1-0,");
    lines[1] = lines[1].replace(",0-1,1 -1,", ",0-1,-1 1,");
    let bad = d.path().join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::copy(out.join("run.json"), bad.join("run.json")).unwrap();
    std::fs::write(bad.join("games.csv"), lines.join("\n") + "\n").unwrap();
    let bg = bad.join("games.csv");
    let o = chesslab(&["replay", "--games", s(&bg), "--index", "0"]);
    assert!(!o.status.success());
}

#[test]
fn orthodox_pgn_has_no_setup_and_openings_file_is_used() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 40);
    let openings = d.path().join("openings.epd");
    std::fs::write(
        &openings,
        "# two openings\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nrnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"open game\";\n",
    )
    .unwrap();
    let out = d.path().join("o");
    let o = chesslab(&[
        "tournament",
        "--variant",
        "chess",
        "--agents",
        "random,greedy",
        "--games",
        "4",
        "--params",
        s(&pf),
        "--openings",
        s(&openings),
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = read(&out.join("games.csv"));
    let rows: Vec<&str> = games.lines().skip(1).collect();
    assert!(rows[0].contains("4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
    assert!(rows[1].contains("4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
    assert!(rows[2].contains("4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -"));
    let gp = out.join("games.csv");
    let pgn = ok(&["export", "--pgn", "--games", s(&gp)]);
    assert_eq!(pgn.matches("[Event ").count(), 4);
    assert!(!pgn.contains("Chess960"));
    assert!(pgn.contains("[SetUp \"1\"]"));
    assert!(pgn.contains("1... "), "black moves first in opening 1");
    // Without openings the orthodox start needs no FEN tag.
    let plain = d.path().join("plain");
    let o = chesslab(&[
        "tournament",
        "--variant",
        "chess",
        "--agents",
        "random,greedy",
        "--games",
        "2",
        "--params",
        s(&pf),
        "--out",
        s(&plain),
    ]);
    assert!(o.status.success());
    let pgn = ok(&["export", "--pgn", "--games", s(&plain.join("games.csv"))]);
    assert!(!pgn.contains("[FEN"), "{pgn}");
    assert!(pgn.contains("[White \"random\"]"));
}

#[test]
fn bad_inputs_are_clear_errors() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 40);
    let out = d.path().join("x");
    let base = |agents: &'static str| {
        vec![
            "tournament".to_string(),
            "--variant".into(),
            "chess".into(),
            "--agents".into(),
            agents.into(),
            "--games".into(),
            "2".into(),
            "--params".into(),
            s(&pf).into(),
            "--out".into(),
            s(&out).into(),
        ]
    };
    let run = |v: Vec<String>| {
        let args: Vec<&str> = v.iter().map(String::as_str).collect();
        fails(&args)
    };
    assert!(run(base("random,nosuch")).contains("unknown agent 'nosuch'"));
    assert!(
        run(base("random:depth=3,greedy")).contains("agent 'random' has no settings (got 'depth')")
    );
    let mut v = base("random,greedy");
    v[2] = "nochess".into();
    assert!(run(v).contains("unknown variant 'nochess'"));
    let mut v = base("random,greedy");
    v.extend(["--shard".into(), "3/3".into()]);
    assert!(run(v).contains("--shard '3/3'"));
    let mut v = base("random,greedy");
    v.extend(["--sprt".into(), "0,5,0.05".into()]);
    assert!(run(v).contains("--sprt"));
    let mut v = base("random,greedy,greedy");
    v.extend(["--sprt".into(), "0,5,0.05,0.05".into()]);
    assert!(run(v).contains("exactly two agents"));
    let bad_open = d.path().join("bad.epd");
    std::fs::write(
        &bad_open,
        "# header\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nrnbqkbnr/pppppppp/8/8 w KQkq - 0 1\n",
    )
    .unwrap();
    let mut v = base("random,greedy");
    v.extend(["--openings".into(), s(&bad_open).into()]);
    let e = run(v);
    assert!(e.contains("line 3"), "{e}");
    let bad_params = d.path().join("bad.toml");
    std::fs::write(&bad_params, "ply_cap = \"many\"\n").unwrap();
    let mut v = base("random,greedy");
    v[8] = s(&bad_params).into();
    assert!(run(v).contains("bad parameters"));
    // Unwritable output: a folder under a plain file.
    let file = d.path().join("plainfile");
    std::fs::write(&file, "x").unwrap();
    let mut v = base("random,greedy");
    v[10] = s(&file.join("sub")).into();
    assert!(run(v).contains("cannot create output folder"));
    // Nothing was written for the failed runs.
    assert!(!out.join("games.csv").exists());
    // play and replay.
    assert!(fails(&["play", "--variant", "chess", "--agents", "random"]).contains("2 seat"));
    assert!(fails(&[
        "play",
        "--variant",
        "chess",
        "--agents",
        "random,random",
        "--opening",
        "not a fen"
    ])
    .contains("--opening"));
    let missing = d.path().join("missing.csv");
    assert!(fails(&["replay", "--games", s(&missing), "--index", "0"]).contains("missing.csv"));
}

#[test]
fn play_prints_a_numbered_record() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 60);
    let out = ok(&[
        "play",
        "--variant",
        "chess",
        "--agents",
        "greedy,random",
        "--seed",
        "7",
        "--params",
        s(&pf),
    ]);
    assert!(out.contains("1. "), "{out}");
    assert!(out.contains("result "), "{out}");
    assert_eq!(
        out,
        ok(&[
            "play",
            "--variant",
            "chess",
            "--agents",
            "greedy,random",
            "--seed",
            "7",
            "--params",
            s(&pf),
        ])
    );
    let c960 = ok(&[
        "play",
        "--variant",
        "chess960",
        "--agents",
        "random,random",
        "--seed",
        "2",
        "--params",
        s(&pf),
    ]);
    assert!(c960.contains("start: "), "{c960}");
}

#[test]
fn balance_writes_a_report_from_replayed_games_and_rejects_bad_input() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("bal");
    let pf = params(d.path(), 80);
    let stdout = ok(&[
        "balance",
        "--variant",
        "cassandra",
        "--agents",
        "greedy,random",
        "--games",
        "8",
        "--seed",
        "4",
        "--params",
        s(&pf),
        "--out",
        s(&out),
        "--split",
        "white_made@0+black_made@1",
    ]);
    assert!(stdout.contains("white scores"), "{stdout}");
    let md = read(&out.join("report.md"));
    for section in [
        "## First seat (white)",
        "## Agents",
        // Measured chess strength per agent, from the strength table ("—" if unrated).
        "| strength (Elo, 95%) |",
        "Stockfish 15.1 `UCI_Elo`",
        "## Game length",
        "## How games end",
        "`made_pawn`",
        "## Pooled: white's score by `white_made`, black's score by `black_made`",
    ] {
        assert!(md.contains(section), "missing {section}:\n{md}");
    }
    let greedy = md
        .lines()
        .find(|l| l.starts_with("| `greedy` |"))
        .expect("greedy's row");
    // Greedy is rated since generation 3 (results/strength/epoch-3): the report quotes
    // the table's cell, whatever it is.
    let rated = experiments::stats::strength::cell("greedy");
    assert_ne!(rated, "—");
    assert!(greedy.ends_with(&format!("| {rated} |")), "{greedy}");
    let csv = read(&out.join("tallies.csv"));
    assert_eq!(csv.lines().count(), 9, "header + 8 games");
    assert!(csv.lines().next().unwrap().contains("made_pawn"));
    // The report is a function of games.csv: running it again gives the same file.
    ok(&[
        "report",
        "--games",
        s(&out.join("games.csv")),
        "--split",
        "white_made@0+black_made@1",
    ]);
    assert_eq!(read(&out.join("report.md")), md);

    // Bad splits are named.
    let games = out.join("games.csv");
    let err = fails(&["report", "--games", s(&games), "--split", "made_pawn"]);
    assert!(err.contains("NAME@SEAT"), "{err}");
    let err = fails(&["report", "--games", s(&games), "--split", "made_pawn@7"]);
    assert!(err.contains("seats"), "{err}");

    // A record whose ending was altered no longer replays to it: an error naming the
    // game, and no report is written.
    let text = read(&games);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut fields: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(
        fields.len(),
        13,
        "no quoted fields in this row: {}",
        lines[1]
    );
    fields[10] = "resigned";
    lines[1] = fields.join(",");
    let tampered = d.path().join("tampered");
    std::fs::create_dir_all(&tampered).unwrap();
    std::fs::write(tampered.join("games.csv"), lines.join("\n") + "\n").unwrap();
    std::fs::copy(out.join("run.json"), tampered.join("run.json")).unwrap();
    let err = fails(&["report", "--games", s(&tampered.join("games.csv"))]);
    assert!(err.contains("game 0"), "{err}");
    assert!(!tampered.join("report.md").exists());

    // An empty or missing file is a clear error too.
    let err = fails(&["report", "--games", s(&d.path().join("nope.csv"))]);
    assert!(err.contains("nope.csv"), "{err}");
}

/// Issue 39: off a terminal (standard error is a pipe here) a tournament prints one line
/// per finished game, with the count, the players, the result and the matchup's score.
#[test]
fn tournament_off_a_terminal_prints_a_line_per_game() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 40);
    let out = d.path().join("run");
    let o = tournament(&out, &pf, &["--threads", "2"]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), 18, "{err}");
    for k in 1..=18 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("game {k}/18 (#"))),
            "no line for game {k}:\n{err}"
        );
    }
    // Every line names two players, a result and the running score of its matchup.
    for l in &lines {
        assert!(l.contains(" vs "), "{l}");
        assert!(l.contains(" plies | "), "{l}");
        assert!(l.ends_with("%)"), "{l}");
    }
    // Resumed, only the games still to play are printed, counted from those kept.
    let full = read(&out.join("games.csv"));
    let keep: String = full.split_inclusive('\n').take(13).collect();
    std::fs::write(out.join("games.csv"), keep).unwrap();
    let o = tournament(&out, &pf, &["--threads", "1", "--resume"]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), 6, "{err}");
    assert!(lines[0].starts_with("game 13/18 "), "{err}");
    assert_eq!(read(&out.join("games.csv")), full);
}

/// Issue 39: `--version` names the commit the binary was built from.
#[test]
fn version_names_the_commit() {
    let v = ok(&["--version"]);
    let rest = v
        .trim()
        .strip_prefix(&format!("chesslab {} (git ", env!("CARGO_PKG_VERSION")))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{v}"));
    if rest == "unknown" {
        return; // built outside a git checkout
    }
    assert!(
        rest.len() == 12 && rest.chars().all(|c| c.is_ascii_hexdigit()),
        "{v}"
    );
    // A commit of this repository (not necessarily HEAD: the binary may predate the last
    // commit when a test binary is run without cargo rebuilding it).
    let known = std::process::Command::new("git")
        .args(["cat-file", "-e", &format!("{rest}^{{commit}}")])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .map(|o| o.status.success());
    assert!(!matches!(known, Ok(false)), "{v}: not a commit here");
}
