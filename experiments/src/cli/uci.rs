//! `chesslab uci --agent SPEC`: the UCI engine of [`crate::serve::uci`] on standard
//! input and output.

use anyhow::Result;
use clap::Args;

#[derive(Args, Debug)]
pub struct UciArgs {
    /// The agent to play (`alphabeta:depth=8`, `mcts:iters=2000`, ...).
    #[arg(long, long_help = agents::registry::help())]
    pub agent: String,
}

pub fn run(args: &UciArgs) -> Result<()> {
    crate::serve::uci::run(&args.agent)
}
