//! The `chesslab` command: a thin layer over the experiment drivers.

use clap::{Parser, Subcommand};

mod golf_cmd;

#[derive(Parser, Debug)]
#[command(name = "chesslab", version, about = "A laboratory where bots play chess variants")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Chess Golf: deal, solve, generate and score problem sets.
    #[command(subcommand)]
    Golf(golf_cmd::GolfCommand),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Golf(cmd) => golf_cmd::run(cmd),
    }
}
