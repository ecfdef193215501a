//! `chesslab verdicts`: the designer's page `results/VERDICTS.md` and its plots written
//! from `results/verdicts.toml` and the runs it names, or checked with `--check`
//! ([`crate::studies::verdicts`]).

use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;

use crate::util::outln;

#[derive(Args, Debug)]
pub struct VerdictsArgs {
    /// The results folder: holds verdicts.toml and the run folders it names; the page is
    /// written as VERDICTS.md and verdicts/<id>.svg in it.
    #[arg(default_value = "results")]
    pub results: PathBuf,
    /// Only compare: name the files that differ from what the data gives, exit 1 if any,
    /// write nothing.
    #[arg(long)]
    pub check: bool,
}

pub fn run(args: &VerdictsArgs) -> Result<()> {
    let o = crate::studies::verdicts::run(&args.results, args.check)?;
    if args.check {
        for c in &o.changed {
            outln!("stale: {c}");
        }
        if !o.changed.is_empty() {
            bail!(
                "{} of {} verdict files differ from their data; run `chesslab verdicts {}` and commit",
                o.changed.len(),
                o.files,
                args.results.display()
            );
        }
        outln!(
            "{} verdict files ({} questions, {} comparisons) match their data",
            o.files,
            o.questions,
            o.comparisons
        );
    } else {
        outln!(
            "{} verdict files ({} questions, {} comparisons), {} rewritten",
            o.files,
            o.questions,
            o.comparisons,
            o.changed.len()
        );
    }
    Ok(())
}
