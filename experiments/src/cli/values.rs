//! `chesslab values`: piece values learned from recorded games
//! ([`crate::studies::values`], whose settings are the arguments).

use anyhow::Result;

pub use crate::studies::values::ValuesArgs;

pub fn run(args: &ValuesArgs) -> Result<()> {
    crate::studies::values::run(args)
}
