//! Helpers shared by the command-line tests: run the `chesslab` binary, expect success or
//! a clean failure, and small path and file helpers. Each test file uses what it needs.
#![allow(dead_code)]

pub mod http;
pub mod skip;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Scheduler variables a test machine may have set; cleared so a run is never sharded by
/// accident (`--shard auto` reads them).
const SCHEDULER_VARS: [&str; 3] = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "HQ_TASK_ID"];

/// Runs `chesslab args` with extra environment variables (and no scheduler variables).
pub fn chesslab_env(args: &[&str], env: &[(&str, String)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_chesslab"));
    c.args(args);
    for v in SCHEDULER_VARS {
        c.env_remove(v);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run chesslab")
}

/// Runs `chesslab args`.
pub fn chesslab(args: &[&str]) -> Output {
    chesslab_env(args, &[])
}

/// Standard output of a command that must succeed.
pub fn ok(args: &[&str]) -> String {
    ok_env(args, &[])
}

/// [`ok`] with extra environment variables.
pub fn ok_env(args: &[&str], env: &[(&str, String)]) -> String {
    let o = chesslab_env(args, env);
    assert!(
        o.status.success(),
        "chesslab {args:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error of a command that must fail cleanly: a non-zero exit, `error:`, no
/// panic.
pub fn fails(args: &[&str]) -> String {
    clean_failure(args, &chesslab(args))
}

/// [`fails`] with exit code 1 (refused or failed, not a command line that does not parse).
pub fn refused(args: &[&str]) -> String {
    let o = chesslab(args);
    assert_eq!(o.status.code(), Some(1), "chesslab {args:?}");
    clean_failure(args, &o)
}

fn clean_failure(args: &[&str], o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success(), "chesslab {args:?} should fail");
    assert!(err.contains("error:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// A path as the `&str` a command line takes.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A file's text, naming the file when it cannot be read.
pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A parameter file with a short ply cap (`cap<N>.toml` in `dir`), so games are quick.
pub fn params(dir: &Path, cap: u32) -> PathBuf {
    let p = dir.join(format!("cap{cap}.toml"));
    std::fs::write(&p, format!("ply_cap = {cap}\n")).unwrap();
    p
}

/// Every file under `dir` with its bytes (to show a refused command wrote nothing).
pub fn snapshot(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}
