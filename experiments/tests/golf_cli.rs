//! `chesslab golf generate`: the default course (deals re-dealt until par is in range)
//! against `--as-dealt` (every deal kept, as the seed plays it), and the pages written;
//! `chesslab golf pars`: the files it writes and the bad input it refuses.

use std::path::Path;
use std::process::{Command, Output};

fn chesslab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(args)
        .output()
        .expect("run chesslab")
}

fn generate(out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "golf",
        "generate",
        "--holes",
        "9",
        "--cards",
        "2",
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = chesslab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&std::fs::read_to_string(out.join("course.json")).unwrap()).unwrap()
}

fn pars(course: &serde_json::Value) -> Vec<Option<u64>> {
    course["holes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["par"].as_u64())
        .collect()
}

#[test]
fn as_dealt_keeps_every_deal_and_the_default_selects() {
    let d = tempfile::tempdir().unwrap();
    let sel = generate(&d.path().join("selected"), &[]);
    let dealt = generate(&d.path().join("dealt"), &["--as-dealt"]);
    assert_eq!(sel["as_dealt"], false);
    assert_eq!(dealt["as_dealt"], true);
    // Default: every par proven and within [3, 8].
    for p in pars(&sel) {
        let p = p.expect("a default course has no impossible hole");
        assert!((3..=8).contains(&p), "{p}");
    }
    // As dealt: nothing discarded or re-seated; this seed deals pars below 3, which the
    // default discards.
    let holes = dealt["holes"].as_array().unwrap();
    assert_eq!(holes.len(), 9);
    for h in holes {
        assert_eq!(h["discarded_deals"], 0);
        assert_eq!(h["reseats"], 0);
        assert_eq!(h["impossible"], h["par"].is_null());
    }
    let dealt_pars = pars(&dealt);
    assert!(
        dealt_pars.iter().any(|p| matches!(p, Some(1 | 2))),
        "{dealt_pars:?}"
    );
    let total: u64 = dealt_pars.iter().flatten().sum();
    assert_eq!(dealt["total_par"], total);
    // Same seed, same course.
    let again = generate(&d.path().join("again"), &["--as-dealt"]);
    assert_eq!(again, dealt);
    // The text says how the holes were chosen.
    let txt = std::fs::read_to_string(d.path().join("dealt/course.txt")).unwrap();
    assert!(txt.contains("every deal kept as dealt"), "{txt}");
    let txt = std::fs::read_to_string(d.path().join("selected/course.txt")).unwrap();
    assert!(txt.contains("re-dealt until par is in [3, 8]"), "{txt}");
    // The player's page has no pars, the solutions page has them.
    let player = std::fs::read_to_string(d.path().join("dealt/course.html")).unwrap();
    let sol = std::fs::read_to_string(d.path().join("dealt/solutions.html")).unwrap();
    assert!(!player.contains("par "), "pars on the player's page");
    assert!(sol.contains("Hole 1 &mdash; par "));
    assert!(sol.contains(&format!("Total par {total}")));
}

#[test]
fn as_dealt_refuses_the_selection_flags() {
    let d = tempfile::tempdir().unwrap();
    let flags: [&[&str]; 3] = [&["--min-par", "2"], &["--max-par", "5"], &["--unique"]];
    for flag in flags {
        let mut args = vec![
            "golf",
            "generate",
            "--as-dealt",
            "--out",
            d.path().to_str().unwrap(),
        ];
        args.extend_from_slice(flag);
        let o = chesslab(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?}");
        assert!(err.contains("cannot be used with"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// `golf pars` writes deals.csv, summary.csv and run.json whose counts agree; the same
/// seed writes the same files; bad numbers and an earlier run in --out are refused with a
/// message naming the problem, and nothing is replaced.
#[test]
fn golf_pars_writes_and_refuses_bad_input() {
    let d = tempfile::tempdir().unwrap();
    let run = |out: &Path, extra: &[&str]| {
        let mut args = vec!["golf", "pars", "--deals", "40", "--seed", "7"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        chesslab(&args)
    };
    let a = d.path().join("a");
    let o = run(&a, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let deals = std::fs::read_to_string(a.join("deals.csv")).unwrap();
    let summary = std::fs::read_to_string(a.join("summary.csv")).unwrap();
    assert_eq!(deals.lines().count(), 41);
    assert!(deals.lines().nth(1).unwrap().starts_with("0,7,"), "{deals}");
    let counted: usize = summary
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(counted, 40, "{summary}");
    assert!(summary.contains("\nimpossible,") && summary.contains("\nunknown,"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("run.json")).unwrap()).unwrap();
    assert_eq!(json["deals"], 40);
    assert_eq!(json["seed"], 7);
    // The same seed, the same figures.
    let b = d.path().join("b");
    assert!(run(&b, &[]).status.success());
    assert_eq!(deals, std::fs::read_to_string(b.join("deals.csv")).unwrap());
    // An earlier run is kept unless --force.
    let o = run(&a, &["--max-nodes", "5"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--force"));
    assert_eq!(deals, std::fs::read_to_string(a.join("deals.csv")).unwrap());
    for (extra, says) in [
        (&["--deals", "0"][..], "--deals"),
        (&["--max-nodes", "0"][..], "--max-nodes"),
        (&["--cards", "1"][..], "--cards"),
        (&["--cards", "x"][..], "--cards"),
    ] {
        let mut args = vec!["golf", "pars"];
        args.extend_from_slice(extra);
        let out = d.path().join("bad");
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        let o = chesslab(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && err.contains(says),
            "{extra:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        assert!(!out.join("deals.csv").exists());
    }
}
