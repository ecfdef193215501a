//! `chesslab rate` (issue 36): the joint anchored fit against `results/strength/fit.py`'s
//! output on the committed strength gauntlets, the anchor in a variant, and bad input
//! with clear errors and a non-zero exit.
//! - `rate_matches_fit_py_on_the_strength_gauntlets`
//! - `a_variant_is_anchored_at_an_agents_orthodox_rating`
//! - `rate_refuses_a_missing_file_no_games_and_agents_cut_off_from_the_anchor`

use experiments::record::{header_line, Row};
use experiments::stats::rating::{tables, AnchorKind, Options};
use std::path::{Path, PathBuf};
use std::process::Command;

fn strength() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/strength")
}

fn opts(bootstrap: usize) -> Options {
    Options {
        anchors: Vec::new(),
        bootstrap,
        seed: 1,
    }
}

#[test]
fn rate_matches_fit_py_on_the_strength_gauntlets() {
    let mut rows = Vec::new();
    for g in 1..=6 {
        let f = strength().join(format!("gauntlet-{g}/games.csv"));
        rows.extend(experiments::record::load(&f).unwrap().rows);
    }
    assert_eq!(rows.len(), 934, "fit.py's games");
    let t = tables(&rows, &opts(200), "").unwrap();
    assert_eq!(t.len(), 1);
    let t = &t[0];
    assert_eq!(t.kind, AnchorKind::Stockfish);
    assert_eq!(t.anchor_elo, 1350.0);
    // results/strength/fit.txt: the point estimates, rounded there to whole Elo, and the
    // bootstrap intervals (another random stream, so only close).
    let expected = [
        ("SF1800", 1783.0, Some((1731.0, 1852.0))),
        ("alphabeta:depth=3", 1562.0, Some((1517.0, 1601.0))),
        ("alphabeta:depth=2", 1360.0, Some((1313.0, 1403.0))),
        ("SF1350", 1350.0, Some((1350.0, 1350.0))),
        ("mcts:iters=20000,cutoff=16,rollout=heavy", 863.0, None),
        ("mcts:iters=2000,cutoff=16,rollout=heavy", 656.0, None),
    ];
    for (name, elo, interval) in expected {
        let i = t
            .specs
            .iter()
            .position(|s| experiments::stats::rating::short(s) == name)
            .unwrap_or_else(|| panic!("{name} not rated"));
        let r = &t.rated[i];
        assert!(
            (r.elo - elo).abs() <= 1.0,
            "{name}: {} here, {elo} by fit.py",
            r.elo
        );
        if let Some((low, high)) = interval {
            assert!(
                (r.low - low).abs() <= 30.0 && (r.high - high).abs() <= 30.0,
                "{name}: [{}, {}] here, [{low}, {high}] by fit.py",
                r.low,
                r.high
            );
        }
    }
    let md = t.markdown(200, 1);
    assert!(md.contains("Anchor: SF1350 fixed at 1350"), "{md}");
    assert!(md.contains("nominal 1800"), "{md}");
}

fn row(index: u64, variant: &str, a: &str, b: &str, first_return: f64) -> Row {
    Row {
        index,
        seed: index,
        variant: variant.into(),
        params_digest: "0".into(),
        pair: index / 2,
        opening: String::new(),
        players: vec![0, 1],
        agents: vec![a.into(), b.into()],
        result: "*".into(),
        returns: vec![first_return, -first_return],
        reason: "test".into(),
        plies: 0,
        actions: String::new(),
    }
}

fn write_games(dir: &Path, rows: &[Row]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let mut bytes = header_line();
    for r in rows {
        bytes.extend(r.to_line());
    }
    let f = dir.join("games.csv");
    std::fs::write(&f, bytes).unwrap();
    f
}

fn rate(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .arg("rate")
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_variant_is_anchored_at_an_agents_orthodox_rating() {
    // alphabeta:depth=3 is in the measured table (today's generation); random wins 1 of 10.
    let (d3, _) = experiments::stats::strength::lookup("alphabeta:depth=3").unwrap();
    let rows: Vec<Row> = (0..10)
        .map(|i| {
            let r = if i == 0 { -1.0 } else { 1.0 };
            row(i, "masquerade", "alphabeta:depth=3", "random", r)
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let f = write_games(dir.path(), &rows);
    let (ok, out, err) = rate(&[f.to_str().unwrap(), "--bootstrap", "20"]);
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!(
            "Anchor: alphabeta:depth=3 fixed at {:.0}, its orthodox-chess rating",
            d3.elo
        )),
        "{out}"
    );
    assert!(
        out.contains("An agent family keeps its orthodox rating as the anchor point"),
        "{out}"
    );
    // 9 of 10 for the anchor: random about 382 below it.
    let t = tables(&rows, &opts(10), "").unwrap();
    let random = t[0].specs.iter().position(|s| s == "random").unwrap();
    let e = t[0].rated[random].elo;
    assert!((e - (d3.elo - 381.7)).abs() < 1.0, "random at {e}");
    // --anchor overrides.
    let (ok, out, err) = rate(&[
        f.to_str().unwrap(),
        "--bootstrap",
        "5",
        "--anchor",
        "random=500",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("Anchor: random fixed at 500 (--anchor)"),
        "{out}"
    );
}

#[test]
fn rate_refuses_a_missing_file_no_games_and_agents_cut_off_from_the_anchor() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope/games.csv");
    let (ok, _, err) = rate(&[missing.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("nope/games.csv"), "{err}");

    let empty = write_games(&dir.path().join("empty"), &[]);
    let (ok, _, err) = rate(&[empty.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("no games"), "{err}");

    // Self-play only: no games between two different agents.
    let selfplay = write_games(
        &dir.path().join("self"),
        &[row(0, "chess", "greedy", "greedy", 1.0)],
    );
    let (ok, _, err) = rate(&[selfplay.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("no games between two different agents"),
        "{err}"
    );

    let sf = "uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true,option.UCI_Elo=1350";
    let cut = write_games(
        &dir.path().join("cut"),
        &[
            row(0, "chess", sf, "alphabeta:depth=2", 1.0),
            row(1, "chess", "alphabeta:depth=2", sf, 1.0),
            row(2, "chess", "random", "greedy", -1.0),
        ],
    );
    let (ok, _, err) = rate(&[cut.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("agents never connected by games to the anchor")
            && err.contains("random")
            && err.contains("greedy"),
        "{err}"
    );

    // Orthodox chess without a Stockfish level or a rated agent: no anchor. (`greedy`
    // is rated since generation 3, so two unrated specs play here.)
    let none = write_games(
        &dir.path().join("none"),
        &[row(0, "chess", "random", "mcts:iters=3", -1.0)],
    );
    let (ok, _, err) = rate(&[none.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("no anchor"), "{err}");

    let (ok, _, err) = rate(&[none.to_str().unwrap(), "--anchor", "random"]);
    assert!(!ok);
    assert!(err.contains("SPEC=ELO"), "{err}");
}
