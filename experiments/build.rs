//! Puts the commit the binary is built from into `chesslab --version` (issue 39) as
//! `CHESSLAB_GIT_HASH`: the short hash of HEAD, or `unknown` outside a git checkout (a
//! source tarball). Reruns when HEAD or the branch it points to moves. No `-dirty` mark:
//! the script does not rerun on every edit, so such a mark could be stale. run.json
//! records both: `build_commit` (this hash) and `git_describe --dirty` of the checkout
//! the run was started in.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let o = Command::new("git").args(args).output().ok()?;
    if !o.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn main() {
    let text = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=CHESSLAB_GIT_HASH={text}");
    // Worktrees keep HEAD in their own folder: ask git where it is.
    if let Some(path) = git(&["rev-parse", "--git-path", "HEAD"]) {
        println!("cargo:rerun-if-changed={path}");
    }
    if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"]) {
        if let Some(path) = git(&["rev-parse", "--git-path", &r]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
