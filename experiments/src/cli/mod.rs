//! The `chesslab` command: argument parsing and dispatch over the library, one small file
//! per subcommand (its arguments, help, the library call, the printing). `main.rs` only
//! calls [`main`].
//!
//! The top of the crate: may depend on every other module; nothing depends on it.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

pub mod agents;
pub mod balance;
pub mod ext_bot;
pub mod golf;
pub mod merge;
pub mod openings;
pub mod params;
pub mod perft;
pub mod play;
pub mod rate;
pub mod replay;
pub mod report;
pub mod rules;
pub mod serve;
pub mod starts;
pub mod tables;
pub mod texel;
pub mod texel_tables;
pub mod tournament;
pub mod trace;
pub mod tune;
pub mod uci;
pub mod values;
pub mod verdicts;
pub mod verify;

/// `chesslab --version`: the package version and the commit it was built from
/// (`build.rs`; "unknown" outside a git checkout).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (git ",
    env!("CHESSLAB_GIT_HASH"),
    ")"
);

#[derive(Parser, Debug)]
#[command(
    name = "chesslab",
    version = VERSION,
    about = "A laboratory where bots play chess variants",
    after_help = help_tail()
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count move-generator leaf nodes (perft), optionally per root move.
    Perft(perft::PerftArgs),
    /// Chess Golf: deal, solve, generate and score problem sets.
    #[command(subcommand)]
    Golf(golf::GolfCommand),
    /// Play one game between agents and print its record.
    Play(play::PlayArgs),
    /// Play many games between agents (round robin or gauntlet), in parallel.
    Tournament(tournament::TournamentArgs),
    /// Replay a recorded game from a games.csv and verify its result.
    Replay(replay::ReplayArgs),
    /// Export recorded games (PGN).
    Export(replay::ExportArgs),
    /// Replay every recorded game under the given games.csv files or folders (e.g.
    /// results/) and check each against its record; exit 1 if any does not replay.
    Verify(verify::VerifyArgs),
    /// A balance report of a finished run: first-seat score, draws, length, endings and
    /// the variant's own figures, from replaying every recorded game.
    Report(report::ReportArgs),
    /// A tournament followed by its balance report, in one folder.
    Balance(balance::BalanceArgs),
    /// Games node by node as JSON lines (legal actions, chance outcomes, results), for
    /// outside tools that check the rules.
    Trace(trace::TraceArgs),
    /// Put the shards of one run (`--shard`, played anywhere) back together into one folder.
    Merge(merge::MergeArgs),
    /// Tune numeric parameters of a variant toward designer targets (SPSA or CMA-ES),
    /// ending with the tuned table, a confirmation run and a report.
    Tune(tune::TuneArgs),
    /// Build a per-variant opening suite: random plies from the start, kept when a short
    /// material search judges them level, written as action lists for --openings.
    Openings(openings::OpeningsArgs),
    /// Speak UCI on standard input and output as a chess engine played by --agent
    /// (orthodox chess and Chess960), for GUIs, cutechess, fastchess, python-chess.
    Uci(uci::UciArgs),
    /// Serve --agent as an outside bot of the ext protocol (JSON lines on standard input
    /// and output) in any variant, for `ext:cmd=chesslab ext-bot ...` (docs/ext-protocol.md).
    ExtBot(ext_bot::ExtBotArgs),
    /// The playtest board: any variant in the browser against any agent, and its JSON API.
    Serve(serve::ServeArgs),
    /// Every agent of recorded games on one Elo scale per variant: a joint Bradley-Terry
    /// fit anchored at a Stockfish level in orthodox chess and at an agent's orthodox
    /// rating in a variant, with bootstrap intervals.
    Rate(rate::RateArgs),
    /// Piece values learned from recorded games (logistic fit of outcome on material).
    Values(values::ValuesArgs),
    /// The search's evaluation weights tuned by Texel's method from recorded games
    /// (written as TOML for `alphabeta:eval=FILE`).
    Texel(texel::TexelArgs),
    /// The search's piece-square tables (all 768 bonuses) fitted by Texel's method to a
    /// teacher engine's scores of quiet positions (scripts/label-positions.py), written as
    /// TOML for `alphabeta:eval=FILE`.
    TexelTables(texel_tables::TexelTablesArgs),
    /// Chess960: White's score per start position of a run that played the starts as
    /// openings, and whether it varies across starts more than chance gives.
    Starts(starts::StartsArgs),
    /// Rewrite (or --check) the README figure tables under results/ from their CSVs.
    Tables(tables::TablesArgs),
    /// Write (or --check) results/VERDICTS.md, the designer's page: one answer a design
    /// question from results/verdicts.toml and the runs it names, with a plot each.
    Verdicts(verdicts::VerdictsArgs),
    /// The agent catalogue: every agent, what it is, its settings, ranges and defaults.
    Agents(agents::AgentsArgs),
    /// A variant's default parameters as a commented TOML file for --params (what each
    /// number is, its range, the seed's value).
    Params(params::ParamsArgs),
    /// A variant's rules as the lab implements them (docs/RULES.md: the common rules and
    /// the variant's section).
    Rules(rules::RulesArgs),
}

/// The variant and agent lists under `chesslab --help`, generated from the variant table
/// (`engine::registry`) and the agent registry, so they never drift from the code.
fn help_tail() -> String {
    format!(
        "Variants (--variant; `chesslab rules --variant V`, `chesslab params --variant V`):\n{}\nAgents (--agents NAME:key=value,...; `chesslab agents`): {}",
        engine::registry::help_table(),
        ::agents::registry::names().join(", ")
    )
}

/// Every (sub)command takes negative numbers as values (`--depth -1`), so the value's
/// own check names the range instead of clap calling `-1` an unknown flag.
fn negative_numbers_are_values(cmd: clap::Command) -> clap::Command {
    cmd.allow_negative_numbers(true)
        .mut_subcommands(negative_numbers_are_values)
}

/// The whole command tree as `chesslab` parses it (tests walk it: every argument has a
/// help text, every numeric flag refuses overflow, infinity and NaN, in
/// `experiments/tests/numeric_flags.rs`).
pub fn command() -> clap::Command {
    let cmd = Cli::command().mut_subcommand("balance", balance::balance_command);
    negative_numbers_are_values(cmd)
}

/// The whole `chesslab` program: parse the command line, run the subcommand, report an
/// error in one line with exit status 1.
pub fn main() {
    let matches = command()
        .try_get_matches()
        .unwrap_or_else(|e| exit_on_parse_error(e));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| exit_on_parse_error(e));
    let outcome = run(cli);
    // Output still buffered meets the closed-pipe rule too (util::write_stdout).
    crate::util::flush_stdout();
    if let Err(e) = outcome {
        // One line with the whole context chain; no backtrace for user errors.
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// A command line that does not parse: help and version are printed as clap prints them;
/// anything else is [`one_line`] on standard error with clap's exit status (2).
fn exit_on_parse_error(e: clap::Error) -> ! {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit();
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    eprintln!("{}", one_line(&e.render().to_string(), &help_path(&args)));
    std::process::exit(e.exit_code());
}

/// `chesslab golf generate`: the (sub)commands named at the start of `args`, for the
/// pointer to the right `--help`.
fn help_path(args: &[String]) -> String {
    let mut cmd = command();
    let mut path = vec!["chesslab".to_string()];
    for a in args {
        let Some(sub) = cmd.find_subcommand(a).cloned() else {
            break;
        };
        path.push(a.clone());
        cmd = sub;
    }
    path.join(" ")
}

/// clap's error text (a message, an indented list, `tip:` paragraphs, the usage and a
/// pointer to `--help`, over several lines) as the one line `error: ...` every other
/// refusal is (issue 68: the README promises one line): the message with its list, clap's
/// suggestion of the near flag, value or subcommand, and which `--help` to read. Test:
/// `flag_typos_are_one_line_with_the_near_flag` in `experiments/tests/front_door.rs`.
pub fn one_line(rendered: &str, command: &str) -> String {
    let mut message = Vec::new();
    let mut tips = Vec::new();
    let help = format!("{command} --help");
    for paragraph in rendered.split("\n\n") {
        let lines: Vec<&str> = paragraph
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let Some(first) = lines.first() else { continue };
        if first.starts_with("Usage:") || first.starts_with("For more information") {
            continue;
        }
        if first.starts_with("tip:") || first.starts_with("note:") {
            tips.push(lines.join(" "));
        } else if message.is_empty() {
            message.push(lines.join(" "));
        } else {
            tips.push(lines.join(" "));
        }
    }
    let mut text = message.join(" ");
    if !text.starts_with("error:") {
        text = format!("error: {text}");
    }
    for tip in tips {
        text = format!("{text}; {tip}");
    }
    format!("{text} (see {help})")
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Golf(cmd) => golf::run(cmd),
        Command::Perft(args) => perft::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Tournament(args) => tournament::run(&args),
        Command::Replay(args) => replay::run_replay(&args),
        Command::Export(args) => replay::run_export(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Balance(args) => balance::run(&args),
        Command::Trace(args) => trace::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Uci(args) => uci::run(&args),
        Command::ExtBot(args) => ext_bot::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Openings(args) => openings::run(&args),
        Command::Rate(args) => rate::run(&args),
        Command::Values(args) => values::run(&args),
        Command::Tables(args) => tables::run(&args),
        Command::Verdicts(args) => verdicts::run(&args),
        Command::Texel(args) => texel::run(&args),
        Command::TexelTables(args) => texel_tables::run(&args),
        Command::Starts(args) => starts::run(&args),
        Command::Agents(args) => agents::run(&args),
        Command::Params(args) => params::run(&args),
        Command::Rules(args) => rules::run(&args),
    }
}
