//! `chesslab texel`: evaluation weights tuned from recorded games
//! ([`crate::studies::texel`], whose settings are the arguments).

use anyhow::Result;

pub use crate::studies::texel::TexelArgs;

pub fn run(args: &TexelArgs) -> Result<()> {
    crate::studies::texel::run(args)
}
