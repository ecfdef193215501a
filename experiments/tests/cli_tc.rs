//! `--tc` of `tournament` and `balance` through the binary: the clock reaches every
//! agent that keeps one and is named in the standings; agents that would not play by
//! time and bad clocks are refused before a game is played.

use crate::common;
use common::{fails, ok, params, read, s};

#[test]
fn tournament_tc_reaches_clock_keeping_agents() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path(), 40);
    let out = d.path().join("run");
    ok(&[
        "tournament",
        "--variant",
        "chess",
        "--agents",
        "alphabeta,random",
        "--games",
        "2",
        "--tc",
        "2+0.02",
        "--threads",
        "1",
        "--params",
        s(&pf),
        "--out",
        s(&out),
    ]);
    let standings = read(&out.join("standings.md"));
    assert!(standings.contains("alphabeta:tc=2+0.02"), "{standings}");
    // random keeps no clock and takes no time: it is left as it was.
    assert!(!standings.contains("random:tc"), "{standings}");
    assert_eq!(read(&out.join("games.csv")).lines().count(), 3);
}

#[test]
fn tournament_tc_refuses_iteration_agents_and_bad_clocks() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("run");
    let base = |agents: &'static str, tc: &'static str| {
        vec![
            "tournament".to_string(),
            "--variant".into(),
            "chess".into(),
            "--agents".into(),
            agents.into(),
            "--games".into(),
            "2".into(),
            "--tc".into(),
            tc.into(),
            "--out".into(),
            s(&out).into(),
        ]
    };
    let args = base("alphabeta,mcts", "10+0.1");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let e = fails(&args);
    assert!(e.contains("'mcts'") && e.contains("time_ms"), "{e}");
    let args = base("alphabeta,random", "soon");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let e = fails(&args);
    assert!(e.contains("--tc") && e.contains("'soon'"), "{e}");
    assert!(
        !out.join("games.csv").exists(),
        "nothing written on refusal"
    );
}
