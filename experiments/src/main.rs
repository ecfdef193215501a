//! The `chesslab` command: a thin layer over the experiment drivers.

use clap::{Parser, Subcommand};

mod golf_cmd;
mod perft_cmd;

#[derive(Parser, Debug)]
#[command(
    name = "chesslab",
    version,
    about = "A laboratory where bots play chess variants"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count move-generator leaf nodes (perft), optionally per root move.
    Perft(perft_cmd::PerftArgs),
    /// Chess Golf: deal, solve, generate and score problem sets.
    #[command(subcommand)]
    Golf(golf_cmd::GolfCommand),
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        // One line with the whole context chain; no backtrace for user errors.
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Golf(cmd) => golf_cmd::run(cmd),
        Command::Perft(args) => perft_cmd::run(&args),
    }
}
