//! `chesslab balance`: a tournament followed by its balance report in one folder, or a
//! strength ladder or a comparison of two parameter files ([`crate::studies::report`]).

use anyhow::Result;

pub use crate::studies::report::{balance_command, BalanceArgs};

pub fn run(args: &BalanceArgs) -> Result<()> {
    crate::studies::report::run_balance(args)
}
