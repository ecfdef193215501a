//! The designer's page `results/VERDICTS.md` and its plots `results/verdicts/*.svg` match
//! what `results/verdicts.toml` and the runs it names give (issue 67), as
//! `results_tables.rs` checks the README tables: after a rerun or an edit of the
//! questions, `chesslab verdicts results` rewrites them; commit the result.

use std::path::Path;
use std::process::Command;

fn results() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../results")
}

fn check(results: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(["verdicts", "--check"])
        .arg(results)
        .output()
        .expect("run chesslab")
}

#[test]
fn committed_verdicts_page_matches_its_data() {
    crate::results_tables::check_committed(
        "verdicts",
        "verdicts page (run `chesslab verdicts results`)",
    );
}

/// Every run folder `verdicts.toml` names (a `run` or `baseline`, one or a list).
fn run_folders(config: &str) -> Vec<String> {
    let v: toml::Value = toml::from_str(config).unwrap();
    let mut out = Vec::new();
    for q in v["questions"].as_array().unwrap() {
        for p in q["players"].as_array().unwrap() {
            for key in ["run", "baseline"] {
                match p.get(key) {
                    Some(toml::Value::String(s)) => out.push(s.clone()),
                    Some(toml::Value::Array(a)) => {
                        out.extend(a.iter().map(|x| x.as_str().unwrap().to_string()))
                    }
                    _ => {}
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// A copy of the page, its questions and the games they read passes the check; with one
/// run's games.csv cut to its first half, the check fails and names the stale files.
#[test]
fn a_changed_games_csv_makes_the_check_fail() {
    let src = results();
    let d = tempfile::tempdir().unwrap();
    let dst = d.path();
    let config = std::fs::read_to_string(src.join("verdicts.toml")).unwrap();
    std::fs::copy(src.join("verdicts.toml"), dst.join("verdicts.toml")).unwrap();
    std::fs::copy(src.join("VERDICTS.md"), dst.join("VERDICTS.md")).unwrap();
    std::fs::create_dir(dst.join("verdicts")).unwrap();
    for e in std::fs::read_dir(src.join("verdicts")).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dst.join("verdicts").join(p.file_name().unwrap())).unwrap();
    }
    let runs = run_folders(&config);
    assert!(runs.len() > 10, "{runs:?}");
    // The page reads each run's games, its run.json (the book it was played from) and
    // the screen's list of flagged openings in that book.
    for r in &runs {
        std::fs::create_dir_all(dst.join(r)).unwrap();
        std::fs::copy(src.join(r).join("games.csv"), dst.join(r).join("games.csv"))
            .unwrap_or_else(|e| panic!("{r}: {e}"));
        if src.join(r).join("run.json").is_file() {
            std::fs::copy(src.join(r).join("run.json"), dst.join(r).join("run.json")).unwrap();
        }
    }
    let screen = dst.join("openings/screen");
    std::fs::create_dir_all(&screen).unwrap();
    for e in std::fs::read_dir(src.join("openings/screen")).unwrap() {
        let p = e.unwrap().path();
        if p.to_string_lossy().ends_with(".lab.flagged.txt") {
            std::fs::copy(&p, screen.join(p.file_name().unwrap())).unwrap();
        }
    }
    let o = check(dst);
    assert!(
        o.status.success(),
        "the copy should match:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    // The pooled depth-3 orthodox run: the first question reads it.
    let changed = dst.join("chess/depths/ab-d3-book/games.csv");
    let text = std::fs::read_to_string(&changed).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let half: String = lines[..lines.len() / 2]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&changed, half).unwrap();
    let before = std::fs::read(dst.join("VERDICTS.md")).unwrap();
    let o = check(dst);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("VERDICTS.md differs from its data"),
        "{stdout}"
    );
    assert!(
        stdout.contains("chess-edge.svg differs from its data"),
        "{stdout}"
    );
    assert!(stderr.contains("run `chesslab verdicts"), "{stderr}");
    // --check wrote nothing.
    assert_eq!(std::fs::read(dst.join("VERDICTS.md")).unwrap(), before);
}
