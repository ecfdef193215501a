//! The `chesslab` command: argument parsing and dispatch over the `experiments` library.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use experiments::{
    golf_cmd, merge_cmd, openings_cmd, perft_cmd, play_cmd, replay_cmd, report_cmd, serve,
    tournament, trace_cmd, tune, uci_cmd, values, verify_cmd,
};

#[derive(Parser, Debug)]
#[command(
    name = "chesslab",
    version,
    about = "A laboratory where bots play chess variants",
    after_help = help_tail()
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
    /// Replay every recorded game under the given games.csv files or folders (e.g.
    /// results/) and check each against its record; exit 1 if any does not replay.
    Verify(verify_cmd::VerifyArgs),
    /// A balance report of a finished run: first-seat score, draws, length, endings and
    /// the variant's own figures, from replaying every recorded game.
    Report(report_cmd::ReportArgs),
    /// A tournament followed by its balance report, in one folder.
    Balance(report_cmd::BalanceArgs),
    /// Games node by node as JSON lines (legal actions, chance outcomes, results), for
    /// outside tools that check the rules.
    Trace(trace_cmd::TraceArgs),
    /// Put the shards of one run (`--shard`, played anywhere) back together into one folder.
    Merge(merge_cmd::MergeArgs),
    /// Tune numeric parameters of a variant toward designer targets (SPSA or CMA-ES),
    /// ending with the tuned table, a confirmation run and a report.
    Tune(tune::TuneArgs),
    /// Build a per-variant opening suite: random plies from the start, kept when a short
    /// material search judges them level, written as action lists for --openings.
    Openings(openings_cmd::OpeningsArgs),
    /// Speak UCI on standard input and output as a chess engine played by --agent
    /// (orthodox chess and Chess960), for GUIs, cutechess, fastchess, python-chess.
    Uci(uci_cmd::UciArgs),
    /// The playtest board: any variant in the browser against any agent, and its JSON API.
    Serve(serve::ServeArgs),
    /// Piece values learned from recorded games (logistic fit of outcome on material).
    Values(values::ValuesArgs),
}

/// The variant and agent lists under `chesslab --help`, generated from the variant table
/// (`engine::registry`) and the agent registry, so they never drift from the code.
fn help_tail() -> String {
    format!(
        "Variants (--variant; rules in docs/RULES.md):\n{}\nAgents (--agents NAME:key=value,...): {}",
        engine::registry::help_table(),
        agents::registry::names().join(", ")
    )
}

/// Every (sub)command takes negative numbers as values (`--depth -1`), so the value's
/// own check names the range instead of clap calling `-1` an unknown flag.
fn negative_numbers_are_values(cmd: clap::Command) -> clap::Command {
    cmd.allow_negative_numbers(true)
        .mut_subcommands(negative_numbers_are_values)
}

fn main() {
    let cmd = Cli::command().mut_subcommand("balance", report_cmd::balance_command);
    let matches = negative_numbers_are_values(cmd).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let outcome = run(cli);
    // Output still buffered meets the closed-pipe rule too (util::write_stdout).
    experiments::util::flush_stdout();
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
        Command::Verify(args) => verify_cmd::run(&args),
        Command::Report(args) => report_cmd::run_report(&args),
        Command::Balance(args) => report_cmd::run_balance(&args),
        Command::Trace(args) => trace_cmd::run(&args),
        Command::Merge(args) => merge_cmd::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Uci(args) => uci_cmd::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Openings(args) => openings_cmd::run(&args),
        Command::Values(args) => values::run(&args),
    }
}
