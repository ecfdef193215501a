//! `chesslab tune`: numeric parameters of a variant moved toward designer targets
//! ([`crate::studies::tune`], whose settings are the arguments).

use anyhow::Result;

pub use crate::studies::tune::TuneArgs;

pub fn run(args: &TuneArgs) -> Result<()> {
    crate::studies::tune::run(args)
}
