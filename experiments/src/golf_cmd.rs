//! `chesslab golf ...` (placeholder, being written).

use clap::Subcommand;

#[derive(Subcommand, Debug)]
pub enum GolfCommand {}

pub fn run(cmd: GolfCommand) -> anyhow::Result<()> {
    match cmd {}
}
