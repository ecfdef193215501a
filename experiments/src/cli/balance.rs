//! `chesslab balance`: a tournament followed by its balance report in one folder, or a
//! strength ladder or a comparison of two parameter files ([`crate::studies::report`]).

use anyhow::Result;

pub use crate::studies::report::BalanceArgs;

/// clap settings of `balance` that the flattened tournament arguments cannot say
/// themselves: with --ladder or --panel, --agents is not needed.
pub fn balance_command(cmd: clap::Command) -> clap::Command {
    cmd.mut_arg("agents", |a| {
        a.required(false)
            .default_value("")
            .hide_default_value(true)
            .required_unless_present_any(["ladder", "panel"])
    })
}

pub fn run(args: &BalanceArgs) -> Result<()> {
    crate::studies::report::run_balance(args)
}
