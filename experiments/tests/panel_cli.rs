//! End-to-end tests of issue 37's panels through the binary: `balance --panel` with the
//! orthodox-chess runs beside the variant, and its bad input refused before any game.

use crate::common::{fails, ok, read, s};
use std::path::Path;

const PANEL: &str = r#"
name = "two weak players"
[[member]]
label = "greedy"
agent = "greedy"
[[member]]
label = "ab1"
agent = "alphabeta:depth=1,noise=10"
"#;

#[test]
fn rule_panel_balance_reports_each_member_beside_chess() {
    let d = tempfile::tempdir().unwrap();
    let panel = d.path().join("panel.toml");
    std::fs::write(&panel, PANEL).unwrap();
    let pf = d.path().join("cap.toml");
    std::fs::write(&pf, "ply_cap = 30\n").unwrap();
    let out = d.path().join("run");
    let stdout = ok(&[
        "balance",
        "--variant",
        "half-alice",
        "--params",
        s(&pf),
        "--panel",
        s(&panel),
        "--games",
        "4",
        "--random-opening-plies",
        "2",
        "--seed",
        "3",
        "--threads",
        "1",
        "--out",
        s(&out),
    ]);
    for m in ["greedy", "ab1"] {
        assert!(out.join(m).join("games.csv").exists(), "{m}");
        assert!(out.join("chess").join(m).join("report.md").exists(), "{m}");
        // The member's own report counts its distinct games.
        assert!(read(&out.join(m).join("report.md")).contains("Distinct games: "));
    }
    let report = read(&out.join("report.md"));
    assert!(report.contains("panel 'two weak players'"), "{report}");
    // Two members: the report says the issue asks for three.
    assert!(report.contains("at least three players"), "{report}");
    // Depth 1 and greedy are in the strength table (today's generation; depth 1 measured
    // without noise).
    let (d1, _) = experiments::stats::strength::lookup("alphabeta:depth=1").unwrap();
    let row = format!(
        "| ab1 | `alphabeta:depth=1,noise=10` | {:.0} [{:.0}, {:.0}]* |",
        d1.elo, d1.low, d1.high
    );
    assert!(report.contains(&row), "{row} not in {report}");
    let greedy = format!(
        "| [greedy](greedy/report.md) | {} | 4 (",
        experiments::stats::strength::cell("greedy")
    );
    assert!(!greedy.contains("unrated"), "{greedy}");
    assert!(report.contains(&greedy), "{greedy} not in {report}");
    assert!(report.contains("greedy: White scores "), "{report}");
    assert!(report.contains(" in orthodox chess and "), "{report}");
    assert!(
        report.contains("scores above ½ in half-alice: "),
        "{report}"
    );
    assert!(stdout.contains("report: "), "{stdout}");
    // The orthodox runs are chess games, not Half Alice games.
    let chess_games = read(&out.join("chess").join("ab1").join("games.csv"));
    assert!(
        chess_games.lines().nth(1).unwrap().contains(",chess,"),
        "{chess_games}"
    );
}

#[test]
fn rule_panel_bad_input_is_refused_before_play() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("run");
    let bad = d.path().join("bad.toml");
    std::fs::write(
        &bad,
        "name = \"x\"\n[[member]]\nlabel = \"a\"\nagent = \"nosuchagent\"\n",
    )
    .unwrap();
    let err = fails(&[
        "balance",
        "--variant",
        "half-alice",
        "--panel",
        s(&bad),
        "--games",
        "2",
        "--out",
        s(&out),
    ]);
    assert!(err.contains("member 'a'"), "{err}");
    let empty = d.path().join("empty.toml");
    std::fs::write(&empty, "name = \"x\"\n").unwrap();
    let err = fails(&[
        "balance",
        "--variant",
        "half-alice",
        "--panel",
        s(&empty),
        "--games",
        "2",
        "--out",
        s(&out),
    ]);
    assert!(err.contains("no members"), "{err}");
    let good = d.path().join("good.toml");
    std::fs::write(&good, PANEL).unwrap();
    let err = fails(&[
        "balance",
        "--variant",
        "half-alice",
        "--panel",
        s(&good),
        "--agents",
        "random,random",
        "--games",
        "2",
        "--out",
        s(&out),
    ]);
    assert!(err.contains("leave out --agents"), "{err}");
    // A variant suite is no chess suite: the orthodox runs need their own.
    let book = d.path().join("book.txt");
    std::fs::write(&book, "actions: a2a3\n").unwrap();
    let err = fails(&[
        "balance",
        "--variant",
        "half-alice",
        "--panel",
        s(&good),
        "--games",
        "2",
        "--openings",
        s(&book),
        "--out",
        s(&out),
    ]);
    assert!(err.contains("--chess-openings"), "{err}");
    assert!(!out.exists(), "nothing is played before the checks");
}

/// `--chess-from`: one orthodox panel serves every variant. The variant's panel report
/// links the orthodox runs where they are and plays no chess of its own; runs that are not
/// comparable (other game count, other kind of openings, another member, missing) are
/// refused before anything is played. Every run records the agents' generation.
#[test]
fn rule_panel_reuses_the_orthodox_runs_of_chess_from() {
    let d = tempfile::tempdir().unwrap();
    let panel = d.path().join("panel.toml");
    std::fs::write(&panel, PANEL).unwrap();
    let chess = d.path().join("chess-panel");
    let base = |variant: &str, games: &str, out: &Path| -> Vec<String> {
        [
            "balance",
            "--variant",
            variant,
            "--panel",
            s(&panel),
            "--games",
            games,
            "--random-opening-plies",
            "2",
            "--seed",
            "5",
            "--threads",
            "1",
            "--out",
            s(out),
        ]
        .map(String::from)
        .to_vec()
    };
    let args = base("chess", "2", &chess);
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let run_json = read(&chess.join("ab1").join("run.json"));
    assert!(
        run_json.contains(&format!("\"agents_epoch\": {}", agents::EPOCH)),
        "{run_json}"
    );
    let out = d.path().join("ha");
    let mut args = base("half-alice", "2", &out);
    args.extend(["--chess-from".to_string(), s(&chess).to_string()]);
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!out.join("chess").exists(), "no orthodox games of its own");
    let report = read(&out.join("report.md"));
    assert!(
        report.contains("](../chess-panel/ab1/report.md)"),
        "{report}"
    );
    assert!(report.contains("greedy: White scores "), "{report}");

    // Not comparable: another game count, a suite instead of random plies, a missing run.
    let out2 = d.path().join("ha2");
    let mut args = base("half-alice", "4", &out2);
    args.extend(["--chess-from".to_string(), s(&chess).to_string()]);
    let err = fails(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        err.contains("member 'greedy'") && err.contains("2 games"),
        "{err}"
    );
    let book = d.path().join("book.txt");
    std::fs::write(&book, "actions: a2a3\n").unwrap();
    let mut args = base("half-alice", "2", &out2);
    args.extend([
        "--chess-from".to_string(),
        s(&chess).to_string(),
        "--openings".to_string(),
        s(&book).to_string(),
    ]);
    let err = fails(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(err.contains("same kind of opening"), "{err}");
    let mut args = base("half-alice", "2", &out2);
    args.extend([
        "--chess-from".to_string(),
        s(&d.path().join("nothing")).to_string(),
    ]);
    let err = fails(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(err.contains("cannot be read"), "{err}");
    assert!(!out2.exists(), "nothing is played before the checks");
}

/// The example panels, and the Clairvoyant kit's space file (with its shape
/// constraints), stay valid: every member's agent is one the registry knows, and the
/// space file reads against Clairvoyant's parameters.
#[test]
fn example_panels_and_the_clairvoyant_space_file_are_valid() {
    use experiments::studies::panel::Panel;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/panels");
    let mut panels = 0;
    for entry in std::fs::read_dir(&root)
        .unwrap()
        .chain(std::fs::read_dir(root.join("clairvoyant")).unwrap())
    {
        let p = entry.unwrap().path();
        if p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with(".toml"))
            && !["space.toml", "targets.toml"].contains(&p.file_name().unwrap().to_str().unwrap())
        {
            let panel = Panel::load(&p).unwrap_or_else(|e| panic!("{}: {e:#}", p.display()));
            for m in &panel.members {
                agents::spec::Spec::parse(&m.agent)
                    .unwrap_or_else(|e| panic!("{}: {}: {e}", p.display(), m.agent));
            }
            panels += 1;
        }
    }
    assert!(panels >= 4, "{panels}");
    let table: toml::Table = toml::from_str(
        &toml::to_string(&engine::variants::clairvoyant::ClairvoyantParams::default()).unwrap(),
    )
    .unwrap();
    let text = std::fs::read_to_string(root.join("clairvoyant/space.toml")).unwrap();
    let space = experiments::studies::tune::space::Space::parse(&text, &table).unwrap();
    assert!(space.constraints.len() >= 10);
    // The tuned-b0 level (values × 0.11 or so) keeps the seed's shape once enforced.
    let t = space.write(&table, &[0.05, 1.0, 0.0]).unwrap();
    assert!(space.broken(&t).is_empty());
}

/// `report --again`: a panel's member reports (the variant's with the recorded title,
/// the orthodox ones without), and the panel report, written again from the recorded
/// runs exactly as the run wrote them; a tournament run is skipped; a run whose recorded
/// command no longer parses is an error naming its run.json, and no report is written.
#[test]
fn rule_report_again_rewrites_a_panels_reports() {
    let d = tempfile::tempdir().unwrap();
    let panel = d.path().join("panel.toml");
    std::fs::write(&panel, PANEL).unwrap();
    let out = d.path().join("run");
    ok(&[
        "balance",
        "--variant",
        "half-alice",
        "--panel",
        s(&panel),
        "--games",
        "2",
        "--random-opening-plies",
        "2",
        "--seed",
        "5",
        "--threads",
        "1",
        "--title",
        "Half Alice, stale reports",
        "--out",
        s(&out),
    ]);
    let reports = [
        out.join("report.md"),
        out.join("greedy").join("report.md"),
        out.join("ab1").join("report.md"),
        out.join("chess").join("greedy").join("report.md"),
        out.join("chess").join("ab1").join("report.md"),
        out.join("ab1").join("tallies.csv"),
    ];
    let before: Vec<String> = reports.iter().map(|p| read(p)).collect();
    assert!(
        before[1].contains("Half Alice, stale reports"),
        "{}",
        before[1]
    );
    assert!(
        !before[3].contains("Half Alice, stale reports"),
        "{}",
        before[3]
    );
    for p in &reports {
        std::fs::write(p, "written by an older build\n").unwrap();
    }
    let stdout = ok(&["report", "--again", s(&out)]);
    for (p, b) in reports.iter().zip(&before) {
        assert_eq!(
            &read(p),
            b,
            "{} not written again as the run wrote it",
            p.display()
        );
    }
    assert!(stdout.contains("5 reports written again"), "{stdout}");

    // A tournament's folder is skipped, not an error.
    let t = d.path().join("t");
    ok(&[
        "tournament",
        "--variant",
        "chess",
        "--agents",
        "random,greedy",
        "--games",
        "2",
        "--seed",
        "1",
        "--threads",
        "1",
        "--out",
        s(&t),
    ]);
    let stdout = ok(&["report", "--again", s(&t)]);
    assert!(
        stdout.contains("a `tournament` run, not a balance report"),
        "{stdout}"
    );

    // A recorded command that does not parse: the error names the file; no report is
    // touched.
    let json = out.join("greedy").join("run.json");
    let text = read(&json).replace("\"--games\"", "\"--no-such-flag\"");
    std::fs::write(&json, text).unwrap();
    for p in &reports {
        std::fs::write(p, "kept\n").unwrap();
    }
    let err = fails(&["report", "--again", s(&out)]);
    assert!(err.contains("greedy/run.json"), "{err}");
    assert!(err.contains("no longer parses"), "{err}");
    for p in &reports {
        assert_eq!(read(p), "kept\n", "{} was written", p.display());
    }
}
