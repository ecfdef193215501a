//! Shards played as a scheduler would play them (`--shard auto/N` with the task index in
//! the environment), merged with `chesslab merge`, equal the one-machine run; bad merges
//! are refused without writing anything. The HyperQueue test submits a real job array to
//! a local HyperQueue cluster (`pip install hyperqueue`); it skips with a note when the
//! package is missing, unless `CHESSLAB_REQUIRE_HYPERQUEUE=1` (set by `.ci/run`).

use crate::common;
use common::{fails, ok_env, read, s};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The run every test splits: three agents, 6 games per matchup, short games.
fn run_args<'a>(command: &'a str, params: &'a Path, out: &'a Path, seed: &'a str) -> Vec<&'a str> {
    vec![
        command,
        "--variant",
        "chess",
        "--agents",
        "random,greedy,random",
        "--games",
        "6",
        "--seed",
        seed,
        "--params",
        s(params),
        "--out",
        s(out),
        "--threads",
        "1",
    ]
}

fn params(dir: &Path) -> PathBuf {
    let p = dir.join("cap.toml");
    std::fs::write(&p, "ply_cap = 40\n").unwrap();
    p
}

/// Plays shard `i` of `n` as task `i` of a Slurm array would.
fn play_auto_shard(command: &str, params: &Path, base: &Path, seed: &str, i: u64, n: u64) {
    let spec = format!("auto/{n}");
    let mut a = run_args(command, params, base, seed);
    a.extend(["--shard", &spec]);
    ok_env(&a, &[("SLURM_ARRAY_TASK_ID", i.to_string())]);
}

const SAME_FILES: &[&str] = &["games.csv", "standings.md", "standings.csv", "pairings.csv"];

#[test]
fn merged_shards_equal_the_one_machine_run() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path());
    let whole = d.path().join("whole");
    ok_env(&run_args("balance", &pf, &whole, "5"), &[]);
    let base = d.path().join("cluster");
    for i in 0..3 {
        play_auto_shard("balance", &pf, &base, "5", i, 3);
    }
    let dirs: Vec<PathBuf> = (0..3)
        .map(|i| base.join(format!("shard-{i}-of-3")))
        .collect();
    let merged = d.path().join("merged");
    let mut a = vec!["merge", "--out", s(&merged)];
    a.extend(dirs.iter().map(|p| s(p)));
    ok_env(&a, &[]);
    for f in SAME_FILES.iter().chain(&["report.md"]) {
        assert_eq!(
            read(&merged.join(f)),
            read(&whole.join(f)),
            "{f} differs from the one-machine run"
        );
    }
    let info: serde_json::Value = serde_json::from_str(&read(&merged.join("run.json"))).unwrap();
    assert!(info["shard"].is_null());
    assert_eq!(info["merged_from"].as_array().unwrap().len(), 3);
    // Every shard's build is kept, in shard order (crate::run::builds).
    let builds = info["builds"].as_array().unwrap();
    assert_eq!(builds.len(), 3);
    for b in builds {
        assert_eq!(b["build_commit"], env!("CHESSLAB_GIT_HASH"));
        assert_eq!(b["games_before"], 0);
    }
    let shards: Vec<&str> = builds
        .iter()
        .map(|b| b["shard"].as_str().unwrap())
        .collect();
    assert!(shards[0] < shards[1] && shards[1] < shards[2], "{shards:?}");

    // A task run again by the scheduler resumes its own folder and changes nothing.
    let before = read(&dirs[1].join("games.csv"));
    play_auto_shard("balance", &pf, &base, "5", 1, 3);
    assert_eq!(read(&dirs[1].join("games.csv")), before);
}

#[test]
fn merge_refuses_shards_that_do_not_make_one_run() {
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path());
    let base = d.path().join("a");
    for i in 0..2 {
        play_auto_shard("tournament", &pf, &base, "5", i, 2);
    }
    let other = d.path().join("b");
    play_auto_shard("tournament", &pf, &other, "6", 1, 2);
    let s0 = base.join("shard-0-of-2");
    let s1 = base.join("shard-1-of-2");
    let o1 = other.join("shard-1-of-2");
    let out = d.path().join("merged");
    let merge = |dirs: &[&Path]| {
        let mut a = vec!["merge", "--out", s(&out)];
        a.extend(dirs.iter().map(|p| s(p)));
        fails(&a)
    };
    assert!(merge(&[&s0, &o1]).contains("`seed`"));
    assert!(merge(&[&s0, &s0]).contains("both shard 0/2"));
    let e = merge(&[&s0]);
    assert!(e.contains("missing") && e.contains("1/2"), "{e}");
    assert!(!out.exists(), "a refused merge wrote {}", out.display());

    // A torn last line in a shard: named, and the shard left as it was.
    let games = s1.join("games.csv");
    let good = read(&games);
    std::fs::write(&games, format!("{good}17,123,che")).unwrap();
    let e = merge(&[&s0, &s1]);
    assert!(e.contains("shard-1-of-2") && e.contains("torn"), "{e}");
    assert_eq!(read(&games), format!("{good}17,123,che"));
    std::fs::write(&games, &good).unwrap();

    // An output that is a shard, or not empty, is refused.
    let mut a = vec!["merge", "--out", s(&s1)];
    a.extend([s(&s0), s(&s1)]);
    assert!(fails(&a).contains("one of the shards"));
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("keep.txt"), "mine").unwrap();
    assert!(merge(&[&s0, &s1]).contains("not empty"));
    assert_eq!(read(&out.join("keep.txt")), "mine");
    assert_eq!(read(&games), good);

    // A shard index the scheduler did not set is refused before anything is played.
    let mut a = run_args("tournament", &pf, &base, "5");
    a.extend(["--shard", "auto/2"]);
    assert!(fails(&a).contains("HQ_TASK_ID"));
}

#[test]
fn hyperqueue_array_merges_to_the_one_machine_run() {
    let probe = Command::new("python3")
        .args(["-c", "import hyperqueue"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        common::skip::missing(
            "hyperqueue_array_merges_to_the_one_machine_run",
            "HyperQueue (python3 cannot import hyperqueue)",
            "python3 -m pip install hyperqueue (or scripts/install-test-tools)",
            "CHESSLAB_REQUIRE_HYPERQUEUE",
        );
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let pf = params(d.path());
    let whole = d.path().join("whole");
    ok_env(&run_args("tournament", &pf, &whole, "9"), &[]);
    let base = d.path().join("hq");
    let mut cmd = vec![env!("CARGO_BIN_EXE_chesslab")];
    cmd.extend(run_args("tournament", &pf, &base, "9"));
    cmd.extend(["--shard", "auto/4"]);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hq_array.py");
    let o = Command::new("python3")
        .arg(&script)
        .arg(d.path().join("hq-server"))
        .arg("4")
        .args(&cmd)
        .output()
        .expect("run python3");
    assert!(
        o.status.success(),
        "the HyperQueue job failed:\n{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let merged = d.path().join("merged");
    let dirs: Vec<PathBuf> = (0..4)
        .map(|i| base.join(format!("shard-{i}-of-4")))
        .collect();
    let mut a = vec!["merge", "--out", s(&merged)];
    a.extend(dirs.iter().map(|p| s(p)));
    ok_env(&a, &[]);
    for f in SAME_FILES {
        assert_eq!(read(&merged.join(f)), read(&whole.join(f)), "{f}");
    }
}
