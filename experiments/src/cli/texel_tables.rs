//! `chesslab texel-tables`: the search's piece-square tables fitted to a teacher's scores
//! ([`crate::studies::texel_tables`], whose settings are the arguments).

use anyhow::Result;

pub use crate::studies::texel_tables::TexelTablesArgs;

pub fn run(args: &TexelTablesArgs) -> Result<()> {
    crate::studies::texel_tables::run(args)
}
