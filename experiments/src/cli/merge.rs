//! `chesslab merge`: the shards of one run put back together ([`crate::run::merge`]),
//! then, when the shards were balance runs, the merged report
//! ([`crate::studies::report`]).

use crate::studies::report::{run_report, ReportArgs, ReportOptions};
use anyhow::Result;

pub use crate::run::merge::MergeArgs;

pub fn run(args: &MergeArgs) -> Result<()> {
    if crate::run::merge::run(args)? {
        run_report(&ReportArgs::of_run(
            args.out.join("games.csv"),
            None,
            ReportOptions::default(),
        ))?;
    }
    Ok(())
}
