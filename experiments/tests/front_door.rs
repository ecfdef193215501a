//! Issue 68, "the front door", items 4 and 5, fixed by class and tested by table:
//!
//! - `every_out_folder_that_holds_files_is_refused` and
//!   `every_out_file_that_exists_needs_force`: every command that writes an output folder
//!   or file refuses one that already holds something unless `--resume`/`--force`, before
//!   any work and without touching it.
//! - `kept_results_are_refused_without_a_force_hint`: the same commands inside a git
//!   checkout, pointed at files git tracks (kept results): refused, and `--force` is not
//!   suggested.
//! - `default_outputs_go_where_git_ignores_them`: a tournament without `--out` writes under
//!   `runs/`, which the workspace's `.gitignore` ignores.
//! - `flag_typos_are_one_line_with_the_near_flag`: clap's refusals are one line naming the
//!   flag, value or subcommand and the near one.
//! - `near_misses_are_suggested_for_every_name_lookup`: variants, agents, agent keys,
//!   parameter keys, golf rules, rules sections: "did you mean".
//! - `params_and_variant_errors_name_the_flag_and_file`: `--params FILE` errors name the
//!   flag, the file, the key and the range in words.
//! - `a_resume_with_another_seed_names_the_flag`: `--seed 5` as typed, not derived seeds.
//! - `reports_hold_no_source_paths_or_code_names`: a balance report.

use std::path::Path;
use std::process::{Command, Output};

fn chesslab_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run chesslab")
}

fn ok_in(dir: &Path, args: &[&str]) -> Output {
    let o = chesslab_in(dir, args);
    assert!(
        o.status.success(),
        "chesslab {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

use crate::common::snapshot;

/// Runs a command that must be refused with exit `code` and one line on standard error
/// holding each of `expect` and none of `absent`; no file under `dir` may change.
fn refused(dir: &Path, args: &[&str], code: i32, expect: &[&str], absent: &[&str]) -> String {
    let before = snapshot(dir);
    let o = chesslab_in(dir, args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(code), "chesslab {args:?}: {err}");
    assert!(err.starts_with("error: "), "chesslab {args:?}: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "not one line: {args:?}: {err}"
    );
    for e in expect {
        assert!(err.contains(e), "chesslab {args:?}: '{e}' not in: {err}");
    }
    for a in absent {
        assert!(!err.contains(a), "chesslab {args:?}: '{a}' in: {err}");
    }
    assert!(before == snapshot(dir), "chesslab {args:?} changed a file");
    err
}

fn split(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

/// A finished two-agent chess run (ply cap 30, 4 games, seed 5) in `dir/run`, and the
/// input files the commands below read.
fn setup(dir: &Path) {
    std::fs::write(dir.join("cap.toml"), "ply_cap = 30\n").unwrap();
    ok_in(
        dir,
        &split(
            "tournament --variant chess --agents random,greedy --games 4 --seed 5 \
             --params cap.toml --out run",
        )
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>(),
    );
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    for f in ["space.toml", "targets.toml"] {
        std::fs::copy(format!("{examples}/{f}"), dir.join(f)).unwrap();
    }
    std::fs::write(
        dir.join("positions.csv"),
        "fen,teacher_cp,result,game\n\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1,20,0.5,g1\n",
    )
    .unwrap();
}

/// Every command that writes an output folder, with `OUT` for the folder.
const FOLDER_COMMANDS: &[&str] = &[
    "tournament --variant chess --agents random,greedy --games 2 --out OUT",
    "balance --variant chess --agents random,greedy --games 2 --out OUT",
    "tune --variant expedition --space space.toml --targets targets.toml --agents random \
     --games 2 --iterations 1 --out OUT",
    "golf generate --holes 1 --cards 2 --out OUT",
    "golf pars --deals 1 --out OUT",
    "merge run --out OUT",
    "values --variant chess --agents random --games 200 --out OUT",
];

/// Every command that writes an output file, with `OUT` for the file.
const FILE_COMMANDS: &[&str] = &[
    "export --pgn --games run/games.csv --out OUT",
    "trace --variant chess --agents random,random --out OUT",
    "rate run --out OUT",
    "texel --from run/games.csv --out OUT",
    "texel-tables --positions positions.csv --out OUT",
    "openings --variant chess --plies 2 --count 1 --out OUT",
    "report --games run/games.csv --out OUT",
    "report --compare run run --out OUT",
];

fn with_out(line: &str, out: &str) -> Vec<String> {
    split(&line.replace("OUT", out))
}

#[test]
fn every_out_folder_that_holds_files_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    setup(dir);
    std::fs::create_dir(dir.join("full")).unwrap();
    std::fs::write(dir.join("full/mine.txt"), "mine\n").unwrap();
    for line in FOLDER_COMMANDS {
        let args = with_out(line, "full");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = refused(
            dir,
            &args,
            1,
            &["--out full is not empty", "choose another folder"],
            &[],
        );
        let reuse = if line.starts_with("tournament")
            || line.starts_with("balance")
            || line.starts_with("tune")
        {
            "add --resume"
        } else {
            "add --force"
        };
        assert!(err.contains(reuse), "{line}: {err}");
    }
    // A file where a folder belongs.
    for line in FOLDER_COMMANDS {
        let args = with_out(line, "cap.toml");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(dir, &args, 1, &["--out cap.toml is a file"], &[]);
    }
}

#[test]
fn every_out_file_that_exists_needs_force() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    setup(dir);
    std::fs::write(dir.join("taken.txt"), "mine\n").unwrap();
    for line in FILE_COMMANDS {
        let args = with_out(line, "taken.txt");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(
            dir,
            &args,
            1,
            &["taken.txt", "already exists", "--force"],
            &[],
        );
    }
    // `starts` writes three files beside the games (or into --out): each is kept.
    std::fs::create_dir(dir.join("st")).unwrap();
    std::fs::write(dir.join("st/spread.csv"), "mine\n").unwrap();
    refused(
        dir,
        &["starts", "run/games.csv", "--out", "st"],
        1,
        &["spread.csv", "already exists", "--force"],
        &[],
    );
    // `values --from` fits given games and writes four files into --out: each is kept.
    std::fs::create_dir(dir.join("vf")).unwrap();
    std::fs::write(dir.join("vf/report.md"), "mine\n").unwrap();
    refused(
        dir,
        &[
            "values",
            "--variant",
            "chess",
            "--from",
            "run/games.csv",
            "--out",
            "vf",
        ],
        1,
        &["report.md", "already exists", "--force"],
        &[],
    );
}

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn kept_results_are_refused_without_a_force_hint() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    setup(dir);
    std::fs::create_dir_all(dir.join("results/kept")).unwrap();
    std::fs::write(dir.join("results/kept/notes.md"), "kept\n").unwrap();
    std::fs::write(dir.join("results/taken.txt"), "kept\n").unwrap();
    git(dir, &["init", "-q"]);
    git(dir, &["add", "results"]);
    for line in FOLDER_COMMANDS {
        let args = with_out(line, "results/kept");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(
            dir,
            &args,
            1,
            &["--out results/kept holds kept results", "(e.g. runs/kept)"],
            &["--force", "--resume"],
        );
    }
    for line in FILE_COMMANDS {
        let args = with_out(line, "results/taken.txt");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(
            dir,
            &args,
            1,
            &[
                "results/taken.txt is a kept result",
                "(e.g. runs/taken.txt)",
            ],
            &["--force"],
        );
    }
}

#[test]
fn default_outputs_go_where_git_ignores_them() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    std::fs::write(dir.join("cap.toml"), "ply_cap = 20\n").unwrap();
    ok_in(
        dir,
        &[
            "tournament",
            "--variant",
            "chess",
            "--agents",
            "random,random",
            "--games",
            "2",
            "--params",
            "cap.toml",
        ],
    );
    assert!(dir.join("runs/tournaments/chess-1/games.csv").exists());
    assert!(
        !dir.join("results").exists(),
        "nothing written under results/"
    );
    // The workspace's .gitignore ignores runs/ and not results/.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let ignored = |p: &str| {
        Command::new("git")
            .args(["-C", root, "check-ignore", "-q", "--no-index", p])
            .status()
            .expect("git runs")
            .success()
    };
    assert!(ignored("runs/tournaments/chess-1/games.csv"));
    assert!(ignored("runs/values/chess/report.md"));
    assert!(!ignored("results/chess/new/games.csv"));
    // A second run with the same default folder is refused, as any --out.
    refused(
        dir,
        &[
            "tournament",
            "--variant",
            "chess",
            "--agents",
            "random,random",
            "--games",
            "2",
            "--params",
            "cap.toml",
        ],
        1,
        &["runs/tournaments/chess-1 is not empty", "add --resume"],
        &[],
    );
}

#[test]
fn flag_typos_are_one_line_with_the_near_flag() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    for (line, expect) in [
        (
            "tournament --variant chess --agents random,greedy --games 2 --sed 5",
            &["'--sed'", "'--seed'", "chesslab tournament --help"][..],
        ),
        (
            "tournamnet --variant chess",
            &["'tournamnet'", "'tournament'"][..],
        ),
        (
            "play --variant chess --agents random,random --seeed 3",
            &["'--seeed'", "'--seed'"][..],
        ),
        (
            "tournament --variant chess --agents random,greedy --games 2 --opening-order randm",
            &["'randm'", "random", "--opening-order"][..],
        ),
        ("golf genrate --holes 1", &["'genrate'", "'generate'"][..]),
        (
            "tournament --variant chess --games 2",
            &["--agents", "required"][..],
        ),
        (
            "tournament --variant chess --agents random,greedy --games -2",
            &["--games", "-2 is negative"][..],
        ),
    ] {
        let args = split(line);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(dir, &args, 2, expect, &["Usage:", "For more information"]);
    }
    // Help is still the whole help, on standard output.
    let o = ok_in(dir, &["tournament", "--help"]);
    assert!(String::from_utf8_lossy(&o.stdout).lines().count() > 20);
}

#[test]
fn near_misses_are_suggested_for_every_name_lookup() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    std::fs::write(dir.join("typo.toml"), "plycap = 30\n").unwrap();
    std::fs::write(dir.join("golf.toml"), "[setup_gap]\nknight = 1\n").unwrap();
    for (line, meant) in [
        ("play --variant zombi --agents random,random", "zombie"),
        ("play --variant Chess --agents random,random", "chess"),
        ("perft --variant half_alice --depth 1", "half-alice"),
        ("play --variant chess --agents alphabet,random", "alphabeta"),
        ("play --variant chess --agents random,gredy", "greedy"),
        ("play --variant chess --agents alphabeta:dept=2,random", "depth"),
        ("play --variant chess --agents mcts:iter=5,random", "iters"),
        ("play --variant chess --agents random,random --params typo.toml", "ply_cap"),
        ("tournament --variant chess --agents random,random --games 2 --params typo.toml --out t", "ply_cap"),
        ("rules --variant zombi", "zombie"),
        ("params --variant zombi", "zombie"),
        ("golf deal --fill-order from-a9", "from-a1"),
        ("golf deal --king-step no-adjacent-par", "no-adjacent-pair"),
    ] {
        let args = split(line);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = chesslab_in(dir, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{line}");
        assert!(
            err.contains(&format!("did you mean '{meant}'")) || err.contains(&format!("'{meant}'")),
            "{line}: {err}"
        );
        assert!(err.contains(meant), "{line}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{line}: {err}");
    }
}

#[test]
fn params_and_variant_errors_name_the_flag_and_file() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    std::fs::write(dir.join("big.toml"), "ply_cap = 4294967296\n").unwrap();
    std::fs::write(dir.join("text.toml"), "ply_cap = \"long\"\n").unwrap();
    std::fs::write(dir.join("broken.toml"), "ply_cap = 3\nply_cap\n").unwrap();
    let play = |params: &str| {
        vec![
            "play".to_string(),
            "--variant".into(),
            "chess".into(),
            "--agents".into(),
            "random,random".into(),
            "--params".into(),
            params.into(),
        ]
    };
    let tour = |params: &str| {
        split(&format!(
            "tournament --variant chess --agents random,random --games 2 --out t --params {params}"
        ))
    };
    for args in [play("big.toml"), tour("big.toml")] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(
            dir,
            &args,
            1,
            &[
                "--params big.toml",
                "ply_cap = 4294967296",
                "a whole number from 0 to 4294967295",
            ],
            &["u32"],
        );
    }
    for args in [play("text.toml"), tour("text.toml")] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(
            dir,
            &args,
            1,
            &["--params text.toml", "ply_cap", "a whole number"],
            &["u32"],
        );
    }
    for args in [play("broken.toml"), tour("broken.toml")] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(dir, &args, 1, &["--params broken.toml", "line 2"], &[]);
    }
    for args in [play("nosuch.toml"), tour("nosuch.toml")] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(dir, &args, 1, &["--params nosuch.toml", "cannot read"], &[]);
    }
    refused(
        dir,
        &["play", "--variant", "nosuch", "--agents", "random,random"],
        1,
        &["--variant", "unknown variant 'nosuch'", "known: chess"],
        &["did you mean"],
    );
}

#[test]
fn a_resume_with_another_seed_names_the_flag() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    setup(dir);
    let resume = |seed: &str| {
        split(&format!(
            "tournament --variant chess --agents random,greedy --games 4 --seed {seed} \
             --params cap.toml --out run --resume"
        ))
    };
    let args = resume("6");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = refused(
        dir,
        &args,
        1,
        &[
            "cannot resume",
            "played with --seed 5, this command has --seed 6",
        ],
        &[],
    );
    // No derived game seed (twenty-digit numbers) in the message.
    assert!(
        !err.split(|c: char| !c.is_ascii_digit())
            .any(|w| w.len() > 12),
        "{err}"
    );
}

#[test]
fn reports_hold_no_source_paths_or_code_names() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    setup(dir);
    ok_in(dir, &["report", "--games", "run/games.csv"]);
    let md = std::fs::read_to_string(dir.join("run/report.md")).unwrap();
    for code in ["src/", ".rs`", ".rs)", "::", "[`"] {
        assert!(!md.contains(code), "'{code}' in report.md:\n{md}");
    }
    assert!(md.contains("docs/guide/balance.md"), "{md}");
}
