//! `chesslab report`: the balance report of a finished run, or a ladder or comparison
//! of finished run folders ([`crate::studies::report`]).

use anyhow::Result;

pub use crate::studies::report::ReportArgs;

pub fn run(args: &ReportArgs) -> Result<()> {
    crate::studies::report::run_report(args)
}
