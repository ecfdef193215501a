//! `chesslab tables`: the README figure tables under `results/` rewritten from the CSVs
//! beside them, or checked with `--check` ([`crate::studies::tables`]).

use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;

use crate::util::outln;

#[derive(Args, Debug)]
pub struct TablesArgs {
    /// Folders (or README.md files) to scan for generated blocks.
    #[arg(default_value = "results")]
    pub paths: Vec<PathBuf>,
    /// Only compare: list the blocks that differ from their data and exit 1 if any.
    #[arg(long)]
    pub check: bool,
}

pub fn run(args: &TablesArgs) -> Result<()> {
    let (stale, blocks) = crate::studies::tables::run(&args.paths, args.check)?;
    if args.check {
        for s in &stale {
            outln!(
                "stale: {}:{} `{}` differs from its data",
                s.readme.display(),
                s.line,
                s.spec
            );
        }
        if !stale.is_empty() {
            bail!(
                "{} of {blocks} generated tables differ from their data; run `chesslab tables` and commit",
                stale.len()
            );
        }
        outln!("{blocks} generated tables match their data");
    } else {
        outln!("{blocks} generated tables, {} rewritten", stale.len());
    }
    Ok(())
}
