//! End-to-end tests of issue 19 through the binary: `chesslab openings`, `balance --ladder`,
//! `balance --compare`, `report --ladder/--compare`, and their bad input.

use crate::common::{fails, ok, read, s};

#[test]
fn rule_ladder_plays_each_rung_and_reads_the_trend() {
    let d = tempfile::tempdir().unwrap();
    let pf = d.path().join("cap.toml");
    std::fs::write(&pf, "ply_cap = 40\n").unwrap();
    let book = d.path().join("book.txt");
    ok(&[
        "openings",
        "--variant",
        "half-alice",
        "--params",
        s(&pf),
        "--plies",
        "4",
        "--count",
        "3",
        "--depth",
        "1",
        "--out",
        s(&book),
    ]);
    assert_eq!(
        read(&book)
            .lines()
            .filter(|l| l.starts_with("actions: "))
            .count(),
        3
    );
    let out = d.path().join("ladder");
    let stdout = ok(&[
        "balance",
        "--variant",
        "half-alice",
        "--params",
        s(&pf),
        "--ladder",
        "random greedy",
        "--games",
        "4",
        "--openings",
        s(&book),
        "--out",
        s(&out),
    ]);
    assert!(stdout.contains("ladder of 2 rungs"), "{stdout}");
    for k in ["rung-1", "rung-2"] {
        let md = read(&out.join(k).join("report.md"));
        for section in [
            "## Metrics (95% intervals)",
            "## Opening diversity",
            "report-length.svg",
        ] {
            assert!(md.contains(section), "{k} misses {section}:\n{md}");
        }
        assert!(out.join(k).join("report-length.svg").exists());
        // The openings are recorded as action lists and the games replay from them.
        assert!(read(&out.join(k).join("games.csv")).contains("actions: "));
    }
    let md = read(&out.join("report.md"));
    assert!(md.contains("# Strength ladder — half-alice"), "{md}");
    assert!(md.contains("`random`") && md.contains("`greedy`"), "{md}");
    assert!(md.contains("edge (|score − ½|) moves by"), "{md}");
    assert!(read(&out.join("report-ladder.svg")).contains("<svg"));
    // The same ladder report from the folders.
    let again = d.path().join("again.md");
    ok(&[
        "report",
        "--ladder",
        s(&out.join("rung-1")),
        s(&out.join("rung-2")),
        "--out",
        s(&again),
    ]);
    assert_eq!(read(&again).lines().nth(4), md.lines().nth(4));
}

#[test]
fn rule_ladder_bad_input_is_refused_before_play() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("x");
    let base = [
        "balance",
        "--variant",
        "chess",
        "--games",
        "2",
        "--out",
        s(&out),
    ];
    fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        [base, extra].concat()
    }
    let err = fails(&with(&base, &["--ladder", "alphabeta:depth=1"]));
    assert!(err.contains("at least two rungs"), "{err}");
    let err = fails(&with(
        &base,
        &["--ladder", "alphabeta:depth=1 wizard:depth=2"],
    ));
    assert!(err.contains("rung 2 'wizard:depth=2'"), "{err}");
    let err = fails(&with(
        &base,
        &["--ladder", "random greedy", "--agents", "random,random"],
    ));
    assert!(err.contains("leave out --agents"), "{err}");
    assert!(!out.exists(), "nothing may be played or written");
}

#[test]
fn rule_compare_two_rule_sets_and_refuse_another_variants_file() {
    let d = tempfile::tempdir().unwrap();
    let a = d.path().join("a.toml");
    let b = d.path().join("b.toml");
    std::fs::write(&a, "ply_cap = 30\n").unwrap();
    std::fs::write(&b, "ply_cap = 60\n").unwrap();
    let out = d.path().join("cmp");
    let stdout = ok(&[
        "balance",
        "--variant",
        "chess",
        "--agents",
        "random,random",
        "--games",
        "4",
        "--compare",
        s(&a),
        s(&b),
        "--out",
        s(&out),
    ]);
    assert!(stdout.contains("B − A"), "{stdout}");
    let md = read(&out.join("report.md"));
    assert!(md.contains("| figure | A | B | B − A |"), "{md}");
    assert!(md.contains("duration (actions per game)"), "{md}");
    // A file of another variant's parameters is refused before anything runs.
    let other = d.path().join("cassandra.toml");
    std::fs::write(&other, "ply_cap = 30\nhorizon = 2\n").unwrap();
    let out2 = d.path().join("cmp2");
    let err = fails(&[
        "balance",
        "--variant",
        "chess",
        "--agents",
        "random,random",
        "--games",
        "2",
        "--compare",
        s(&a),
        s(&other),
        "--out",
        s(&out2),
    ]);
    assert!(err.contains("not a parameter file of chess"), "{err}");
    assert!(!out2.exists());
    // Two run folders of different variants.
    let cas = d.path().join("cas");
    ok(&[
        "balance",
        "--variant",
        "cassandra",
        "--agents",
        "random,random",
        "--games",
        "2",
        "--params",
        s(&other),
        "--out",
        s(&cas),
    ]);
    let err = fails(&[
        "report",
        "--compare",
        s(&out.join("a")),
        s(&cas),
        "--out",
        s(&d.path().join("c.md")),
    ]);
    assert!(err.contains("needs one variant"), "{err}");
}

/// Every run a comparison or ladder report links resolves from wherever the report is
/// written (the links were the run folders' names, right only beside the runs).
#[test]
fn rule_compare_links_its_runs_from_anywhere() {
    let d = tempfile::tempdir().unwrap();
    let a = d.path().join("a.toml");
    let b = d.path().join("b.toml");
    std::fs::write(&a, "ply_cap = 20\n").unwrap();
    std::fs::write(&b, "ply_cap = 40\n").unwrap();
    let runs = d.path().join("runs");
    ok(&[
        "balance",
        "--variant",
        "chess",
        "--agents",
        "random,random",
        "--games",
        "2",
        "--compare",
        s(&a),
        s(&b),
        "--out",
        s(&runs),
    ]);
    let elsewhere = d.path().join("notes").join("deeper");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let (ra, rb) = (runs.join("a"), runs.join("b"));
    let reports = [
        (
            elsewhere.join("compare.md"),
            vec!["report", "--compare", s(&ra), s(&rb)],
        ),
        (
            elsewhere.join("ladder.md"),
            vec!["report", "--ladder", s(&ra), s(&rb)],
        ),
        (
            runs.join("here.md"),
            vec!["report", "--compare", s(&ra), s(&rb)],
        ),
    ];
    for (out, args) in reports {
        let mut args = args.clone();
        args.extend(["--out", s(&out)]);
        ok(&args);
        let md = read(&out);
        let links: Vec<&str> = md
            .split("](")
            .skip(1)
            .filter_map(|t| t.split(')').next())
            .filter(|l| l.ends_with("report.md"))
            .collect();
        assert_eq!(links.len(), 2, "{md}");
        for l in links {
            assert!(!l.starts_with('/'), "links are relative: {l}");
            let target = out.parent().unwrap().join(l);
            assert!(
                target.is_file(),
                "{} links {l}, which is not there",
                out.display()
            );
        }
    }
}
