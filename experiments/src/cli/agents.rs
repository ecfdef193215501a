//! `chesslab agents`: the agent catalogue (every agent, what it is, its settings with
//! ranges and defaults), from the agent registry. `play`, `tournament` and `balance`
//! `--help` point here instead of repeating it (issue 39: 130 lines in every help).

use anyhow::Result;
use clap::Args;

use crate::util::outln;

#[derive(Args, Debug)]
pub struct AgentsArgs {}

pub fn run(_: &AgentsArgs) -> Result<()> {
    outln!("{}", ::agents::registry::help());
    Ok(())
}
