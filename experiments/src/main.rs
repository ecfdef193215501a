//! The `chesslab` command: a thin layer over the experiment drivers.

use clap::{Parser, Subcommand};

mod gameplay;
mod golf_cmd;
mod perft_cmd;
mod play_cmd;
mod record;
mod replay_cmd;
mod report_cmd;
mod standings;
mod stats;
mod tournament;
mod util;

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
    /// Play one game between agents and print its record.
    Play(play_cmd::PlayArgs),
    /// Play many games between agents (round robin or gauntlet), in parallel.
    Tournament(tournament::TournamentArgs),
    /// Replay a recorded game from a games.csv and verify its result.
    Replay(replay_cmd::ReplayArgs),
    /// Export recorded games (PGN).
    Export(replay_cmd::ExportArgs),
    /// A balance report of a finished run: first-seat score, draws, length, endings and
    /// the variant's own figures, from replaying every recorded game.
    Report(report_cmd::ReportArgs),
    /// A tournament followed by its balance report, in one folder.
    Balance(report_cmd::BalanceArgs),
}

fn main() {
    let cli = Cli::parse();
    let outcome = run(cli);
    // Output still buffered meets the closed-pipe rule too (util::write_stdout).
    util::flush_stdout();
    if let Err(e) = outcome {
        // One line with the whole context chain; no backtrace for user errors.
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Golf(cmd) => golf_cmd::run(cmd),
        Command::Perft(args) => perft_cmd::run(&args),
        Command::Play(args) => play_cmd::run(&args),
        Command::Tournament(args) => tournament::run(&args),
        Command::Replay(args) => replay_cmd::run_replay(&args),
        Command::Export(args) => replay_cmd::run_export(&args),
        Command::Report(args) => report_cmd::run_report(&args),
        Command::Balance(args) => report_cmd::run_balance(&args),
    }
}
