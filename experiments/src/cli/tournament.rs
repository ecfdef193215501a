//! `chesslab tournament`: many games between agents, round robin or gauntlet, in
//! parallel ([`crate::run::tournament`], whose settings are the arguments).

use anyhow::Result;

pub use crate::run::tournament::TournamentArgs;

pub fn run(args: &TournamentArgs) -> Result<()> {
    crate::run::tournament::run(args)
}
