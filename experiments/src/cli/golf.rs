//! `chesslab golf ...`: Chess Golf's subcommands ([`crate::golf`], whose settings are
//! the arguments).

use anyhow::Result;

pub use crate::golf::GolfCommand;

pub fn run(cmd: GolfCommand) -> Result<()> {
    crate::golf::run(cmd)
}
