//! The lab's opening screen (issue 67): `chesslab openings --screen BOOK` against an
//! outside check (the forced mates Stockfish found in results/openings/chess-2000.txt,
//! results/openings/screen/chess-2000.flagged.txt), books built with the screen on, bad
//! input, and `chesslab report --exclude-openings`.

use crate::common::{chesslab, ok, params, read, s, snapshot};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// A flagged list's lines by opening text: the score (last word).
fn flagged(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .map(str::trim)
        .filter(|t| !t.is_empty() && !t.starts_with('#') && !t.starts_with("flagged "))
        .map(|t| {
            let w: Vec<&str> = t.split_whitespace().collect();
            (w[1..w.len() - 1].join(" "), w[w.len() - 1].to_string())
        })
        .collect()
}

fn book(dir: &Path, name: &str, lines: &[String]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("# test book\n{}\n", lines.join("\n"))).unwrap();
    p
}

#[test]
fn lab_screen_flags_every_stockfish_mate_and_passes_unflagged_lines() {
    let sf = flagged(&read(&repo(
        "results/openings/screen/chess-2000.flagged.txt",
    )));
    let mates: Vec<String> = sf
        .iter()
        .filter(|(_, score)| score.starts_with('#'))
        .map(|(line, _)| line.clone())
        .collect();
    assert_eq!(mates.len(), 10, "the Stockfish list holds ten mates");
    // Ten lines of the same book that Stockfish did not flag.
    let quiet: Vec<String> = read(&repo("results/openings/chess-2000.txt"))
        .lines()
        .filter(|l| l.starts_with("actions:") && !sf.contains_key(*l))
        .take(10)
        .map(str::to_string)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let mut lines = mates.clone();
    lines.extend(quiet.iter().cloned());
    let b = book(dir.path(), "book.txt", &lines);
    let out = dir.path().join("flagged.txt");
    let said = ok(&[
        "openings",
        "--screen",
        s(&b),
        "--variant",
        "chess",
        "--out",
        s(&out),
    ]);
    assert!(said.contains("10 of 20 openings flagged"), "{said}");
    let lab = flagged(&read(&out));
    for m in &mates {
        let score = lab.get(m).unwrap_or_else(|| panic!("not flagged: {m}"));
        assert!(score.starts_with("#+"), "{m}: {score}");
    }
    for q in &quiet {
        assert!(!lab.contains_key(q), "flagged a line Stockfish passed: {q}");
    }
    // Numbered in the book, closed by the count, as the Stockfish lists are.
    let text = read(&out);
    assert!(text.trim_end().ends_with("flagged 10"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("1 actions: ")), "{text}");
}

#[test]
fn a_book_built_with_the_screen_on_has_no_line_it_flags() {
    let dir = tempfile::tempdir().unwrap();
    let screen = ["--screen-depth", "3", "--screen-margin", "0.5"];
    let build = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "openings",
            "--variant",
            "chess",
            "--plies",
            "8",
            "--count",
            "40",
            "--seed",
            "3",
            "--out",
            s(out),
        ];
        args.extend_from_slice(extra);
        ok(&args)
    };
    let screened = dir.path().join("screened.txt");
    let said = build(&screened, &screen);
    assert!(said.contains("dropped by the screen"), "{said}");
    let header = read(&screened);
    assert!(
        header.lines().next().unwrap().contains("--screen-depth 3"),
        "{header}"
    );
    let check = |b: &Path, out: &Path| {
        let mut args = vec![
            "openings",
            "--screen",
            s(b),
            "--variant",
            "chess",
            "--out",
            s(out),
        ];
        args.extend_from_slice(&screen);
        ok(&args);
        flagged(&read(out))
    };
    assert!(check(&screened, &dir.path().join("f1.txt")).is_empty());
    // The same seed without the screen keeps lines the screen flags: the check is not
    // empty by construction.
    let plain = dir.path().join("plain.txt");
    build(&plain, &["--screen-depth", "0"]);
    assert!(!check(&plain, &dir.path().join("f2.txt")).is_empty());
}

#[test]
fn bad_input_to_the_screen_is_a_clear_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let good = book(dir.path(), "good.txt", &["actions: e2e4 e7e5".to_string()]);
    let bad = book(
        dir.path(),
        "bad.txt",
        &[
            "actions: e2e4 e7e5".to_string(),
            "actions: e2e4 e7e5 e1e3".to_string(),
        ],
    );
    let out = dir.path().join("flagged.txt");
    let cases: [(Vec<&str>, &[&str]); 3] = [
        (
            vec!["--screen", "missing.txt", "--variant", "chess"],
            &["missing.txt"],
        ),
        (
            vec!["--screen", s(&bad), "--variant", "chess"],
            &["line 3", "do not replay"],
        ),
        (
            vec!["--screen", s(&good), "--variant", "chesss"],
            &["--variant", "chesss"],
        ),
    ];
    for (args, expect) in cases {
        let before = snapshot(dir.path());
        let mut all = vec!["openings"];
        all.extend(args.iter().copied());
        all.extend(["--out", s(&out)]);
        let o = chesslab(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{all:?}");
        assert!(err.contains("error:") && !err.contains("panicked"), "{err}");
        for e in expect {
            assert!(err.contains(e), "'{e}' not in: {err}");
        }
        assert!(!out.exists(), "{all:?} wrote {}", out.display());
        assert_eq!(before, snapshot(dir.path()), "{all:?}");
    }
}

#[test]
fn report_excludes_the_games_of_flagged_openings() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = [
        "actions: e2e4 e7e5",
        "actions: d2d4 d7d5",
        "actions: c2c4 c7c5",
    ]
    .iter()
    .map(|l| l.to_string())
    .collect();
    let b = book(dir.path(), "book.txt", &lines);
    let cap = params(dir.path(), 20);
    let run = dir.path().join("run");
    ok(&[
        "tournament",
        "--variant",
        "chess",
        "--agents",
        "random,random",
        "--games",
        "6",
        "--openings",
        s(&b),
        "--params",
        s(&cap),
        "--seed",
        "5",
        "--threads",
        "1",
        "--out",
        s(&run),
    ]);
    // The second opening is listed with two extra spaces (matched by its words).
    let list = dir.path().join("flagged.txt");
    std::fs::write(&list, "# a list\n2 actions: d2d4  d7d5 #+2\nflagged 1\n").unwrap();
    let games = run.join("games.csv");
    let out = dir.path().join("report.md");
    let said = ok(&[
        "report",
        "--games",
        s(&games),
        "--params",
        s(&cap),
        "--exclude-openings",
        s(&list),
        "--out",
        s(&out),
    ]);
    assert!(said.contains("Excluded: 2 games"), "{said}");
    let md = read(&out);
    assert!(
        md.contains("Excluded: 2 games") && md.contains("the 4 other games"),
        "{md}"
    );
    let tallies = read(&dir.path().join("tallies.csv"));
    assert_eq!(tallies.lines().count(), 1 + 4, "{tallies}");
    // A list that is not one is an error naming the line, and writes no report.
    std::fs::write(&list, "actions: e2e4 e7e5\n").unwrap();
    let out2 = dir.path().join("second").join("report.md");
    let o = chesslab(&[
        "report",
        "--games",
        s(&games),
        "--params",
        s(&cap),
        "--exclude-openings",
        s(&list),
        "--out",
        s(&out2),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("line 1"), "{err}");
    assert!(!out2.exists());
}
