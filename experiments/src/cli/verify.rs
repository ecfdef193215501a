//! `chesslab verify PATH...`: every recorded game under the given paths replays with the
//! current build (the checking is [`crate::run::verify`]); one line per file, a summary,
//! and exit status 1 if any game fails.

use crate::run::verify::{games_files, verify_file};
use crate::util::outln;
use anyhow::{bail, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// games.csv files or folders holding them (searched recursively), e.g. `results/`.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Failing games named per file (the count of all failures is always given).
    #[arg(long, default_value_t = 3, value_parser = crate::util::any_usize)]
    pub show: usize,
}

pub fn run(args: &VerifyArgs) -> Result<()> {
    let mut files = Vec::new();
    for p in &args.paths {
        files.extend(games_files(p)?);
    }
    let bar = if std::io::stderr().is_terminal() {
        let b =
            ProgressBar::with_draw_target(Some(files.len() as u64), ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} files {msg}")
                .expect("a valid template"),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let (mut games, mut failed_games, mut failed_files) = (0usize, 0usize, 0usize);
    for f in &files {
        bar.set_message(f.display().to_string());
        let v = verify_file(f);
        games += v.games;
        let line = if v.failures.is_empty() {
            format!("ok    {} ({} games)", v.path.display(), v.games)
        } else {
            failed_files += 1;
            failed_games += v.failures.iter().filter(|(i, _)| i.is_some()).count();
            let mut s = format!(
                "FAIL  {} ({} of {} games do not replay)",
                v.path.display(),
                v.failures.iter().filter(|(i, _)| i.is_some()).count(),
                v.games
            );
            for (i, why) in v.failures.iter().take(args.show) {
                match i {
                    Some(i) => s.push_str(&format!("\n      game {i}: {why}")),
                    None => s.push_str(&format!("\n      {why}")),
                }
            }
            s
        };
        bar.suspend(|| outln!("{line}"));
        bar.inc(1);
    }
    bar.finish_and_clear();
    if failed_files > 0 {
        bail!(
            "{failed_files} of {} files fail: {failed_games} of {games} games do not replay with this build",
            files.len()
        );
    }
    outln!(
        "verified: all {games} games in {} files replay to their records",
        files.len()
    );
    Ok(())
}
