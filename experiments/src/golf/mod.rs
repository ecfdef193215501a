//! `chesslab golf ...`: deal, solve, generate, score and benchmark Chess Golf problems.
//!
//! * `deal --seed S [--cards K]`: a random set-up and a deal, printed in the text format
//!   (`#` lines are comments, so the output is itself a problem file).
//! * `solve FILE [--king-step R] [--max-nodes N] [--count]`: proves par; prints `par N`
//!   (or `impossible`, or `par > N` when a limit stopped the search), one optimal
//!   solution, the number of optimal solutions with `--count`, states searched and time.
//!   FILE holds either the board format or the one-line format (`-` reads stdin).
//!   A kind chosen more times than it has pieces on the board is answered `impossible`
//!   before any search (with the reason); a problem must choose 2 to 16 cards, what
//!   `deal` deals. Ctrl-C stops the search at the solver's next check (every 16384
//!   states; `generate` and `bench` too), and a search stopped by `--max-nodes` (default
//!   20 million) or `--max-seconds` says which limit to raise.
//! * `generate --holes 9 --cards 2 [--min-par 3 --max-par 8] [--unique] [--as-dealt] --seed S
//!   --out DIR`: a course of holes. The set-up is laid out once; each hole deals cards from
//!   one 16-card deck (the discard pile is shuffled back in when it runs short, as the seed
//!   says) and starts from the previous hole's final position, reached by the solver's
//!   optimal solution, with the captured pieces put back on empty squares chosen uniformly
//!   at random (the seed: "any empty squares"; the designer's program does the same).
//!   - By default the course is *selected*, not played the seed's way: a deal whose par is
//!     outside `[min-par, max-par]` (impossible deals included), not unique when
//!     `--unique` is given, or not proven within the node limit is discarded and the next
//!     cards are dealt; after 200 discarded deals in a row the previous hole's captured
//!     pieces are put back on other random empty squares (hole 1: a new set-up is laid
//!     out). So a default course has no trivial and no impossible holes.
//!   - `--as-dealt` plays the seed's way: every deal is a hole, whatever its par. An
//!     impossible hole is kept and marked impossible (JSON `"impossible": true`, `par`
//!     null; the solutions page and course.txt say so, the player's page does not); as
//!     in the seed when nobody demonstrates, the pieces stay where they were and the next
//!     hole starts from the same position. A deal not proven within `--max-nodes` is an
//!     error (raise the limit) rather than a discarded deal. Total par counts an
//!     impossible hole as 0, the score of a correct "impossible" claim.
//!
//!   Each hole is graded (par, number of optimal solutions, legal moves at the start) and
//!   written to `DIR/course.txt`, `DIR/holes/hole-NN.txt`, `DIR/course.json`,
//!   `DIR/course.html` (the player's page: printable, SVG diagrams with the pieces drawn
//!   as shapes, chosen pieces circled as in the book, no pars, a score card) and
//!   `DIR/solutions.html` (pars, one optimal solution per hole, the total par). Printed,
//!   a 9-hole course takes two A4 or Letter pages (checked in headless Chromium).
//! * `score FILE`: scores a round from the players' revealed counts (TOML, below).
//! * `pars --deals N --seed S --out DIR`: the par distribution of N independently dealt
//!   holes (deal i is `deal --seed S+i`), impossible deals and deals the node limit left
//!   unknown counted apart, as `deals.csv`, `summary.csv` (counts and shares with 95%
//!   intervals) and `run.json` (`golf/pars.rs`).
//! * `bench [--deals N --cards K]`: median and 99th-percentile time to proven par and
//!   states/s over seeded random deals (by default 1000 deals with 2 cards and 200 with 3),
//!   optionally the published book problems too (`--book FILE`).
//!
//! All randomness comes from `rand_pcg::Pcg64::seed_from_u64(seed)`. Rules default to the
//! seed's (`king_step = no-adjacent-pair`, set-up from a1); `--params FILE` loads a TOML
//! [`GolfParams`] and `--king-step` overrides the king-step rule. The published pars
//! (`engine/tests/data/golf/book-problems.txt`) use `--king-step no-borrowed-move`.
//!
//! # Score sheet (`chesslab golf score FILE`)
//!
//! ```toml
//! players = ["Ann", "Bob", "Cy"]   # seating order, going to the left
//! first_dealer = "Bob"             # optional (default: the first player); the deck
//!                                  # passes one player to the left every hole
//! penalty = 1                      # optional (seed: 1)
//!
//! [[hole]]
//! counts = { Ann = 3, Bob = 4, Cy = 0 }   # revealed counts; 0 = "impossible"
//! failed = ["Ann"]                        # optional: demonstrations that failed
//! par = 4                                 # optional: proven par, to check claims
//! dealer = "Cy"                           # optional: overrides the rotation
//! ```
//!
//! Scoring follows the seed: the lowest non-zero count demonstrates first (ties: start at
//! the dealer and go left). A failed demonstration scores the maximum of the other
//! players' counts plus the penalty, and the next lowest demonstrates. After a successful
//! demonstration every zero ("impossible") scores the maximum count plus the penalty;
//! every other player scores their own count. If nobody demonstrates successfully, the
//! zeros stand (the claim of impossibility was not refuted). The lowest total wins (the
//! seed breaks ties by dress, which is left to the players). `failed` must list players in
//! the order they were called to demonstrate; with `par`, a successful demonstration
//! below par is an error in the sheet.
//!
//! The folder may depend on [`crate::run`] (interruption) and [`crate::util`]; never on
//! `cli`, `studies` or `serve`.

use crate::util::{out, outln};
use agents::golf::{solve, Outcome, SolveLimits, SolveReport};
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use engine::variants::golf::{
    random_problem, CardDeck, FillOrder, GolfMove, GolfParams, GolfPosition, KindCounts, KingStep,
};
use engine::{Color, Piece, Role, Square};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

mod bench;
mod course;
mod pars;
mod render;
mod score;
mod solve;
#[cfg(test)]
mod tests;

use bench::*;
use course::*;
pub use pars::ParsArgs;
use pars::*;
use render::*;
use score::*;
use solve::*;

#[derive(Subcommand, Debug)]
pub enum GolfCommand {
    /// Lay out a random set-up and deal cards; prints the problem in the text format.
    Deal(DealArgs),
    /// Prove par for a problem file (board or one-line format).
    Solve(SolveArgs),
    /// Generate a graded course of holes (text, JSON, printable HTML). By default deals
    /// with par outside --min-par..--max-par are discarded; --as-dealt keeps every deal.
    Generate(GenerateArgs),
    /// Score a round from the players' revealed counts (TOML score sheet).
    ///
    /// Sheet: `players = ["Ann", "Bob"]` (seating order, going left), optional
    /// `first_dealer = "Bob"` and `penalty = 1`, then one `[[hole]]` table a hole with
    /// `counts = { Ann = 3, Bob = 0 }` (0 = "impossible"), optional `failed = ["Ann"]`
    /// (failed demonstrations, in the order they were called), `par = 3`, `dealer = "Ann"`.
    Score(ScoreArgs),
    /// The par distribution of independently dealt holes: pars, impossible deals and
    /// deals the node limit left unknown, with counts, shares and 95% intervals.
    Pars(ParsArgs),
    /// Time the solver on seeded random deals (and optionally the book problems).
    Bench(BenchArgs),
}

/// Rule options shared by the subcommands.
#[derive(Args, Debug, Clone)]
pub struct RuleArgs {
    /// TOML file with Golf parameters (missing fields keep the seed's values).
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// King-step rule: no-adjacent-pair (seed) or no-borrowed-move (designer's program).
    #[arg(long, value_name = "RULE")]
    pub king_step: Option<KingStep>,
    /// Set-up order: from-a1 (seed) or from-a8 (designer's program).
    #[arg(long, value_name = "ORDER", value_parser = parse_fill_order)]
    pub fill_order: Option<FillOrder>,
}

fn parse_fill_order(s: &str) -> std::result::Result<FillOrder, String> {
    match s {
        "from-a1" => Ok(FillOrder::FromA1),
        "from-a8" => Ok(FillOrder::FromA8),
        _ => Err(format!(
            "unknown fill order {s:?}{} (expected from-a1 or from-a8)",
            engine::suggest::did_you_mean(s, ["from-a1", "from-a8"])
        )),
    }
}

impl RuleArgs {
    fn params(&self) -> Result<GolfParams> {
        let mut p = match &self.params {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading parameters {}", path.display()))?;
                GolfParams::from_toml_str(&text)
                    .with_context(|| format!("parsing parameters {}", path.display()))?
            }
            None => GolfParams::default(),
        };
        if let Some(k) = self.king_step {
            p.king_step = k;
        }
        if let Some(f) = self.fill_order {
            p.fill_order = f;
        }
        engine::game::VariantParams::validate(&p).map_err(|e| match &self.params {
            Some(path) => {
                anyhow::Error::new(e).context(format!("parameters {} out of range", path.display()))
            }
            None => anyhow::Error::new(e).context("parameters out of range"),
        })?;
        Ok(p)
    }
}

#[derive(Args, Debug)]
pub struct DealArgs {
    /// Random seed (default 1, as every chesslab command).
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 1)]
    pub seed: u64,
    /// Cards to deal (default: the parameters' `cards`, seed 2).
    #[arg(long, value_parser = crate::util::any_usize)]
    pub cards: Option<usize>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Problem file (board format or one-line format); `-` reads standard input.
    pub file: PathBuf,
    /// Stop after this many states (then report `par > N`): a hole that cannot be solved
    /// is otherwise searched without end. The default is generate's.
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 20_000_000)]
    pub max_nodes: u64,
    /// Stop after this many seconds (0 to a year).
    #[arg(long, value_parser = crate::util::seconds)]
    pub max_seconds: Option<f64>,
    /// Also count every optimal solution.
    #[arg(long)]
    pub count: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Number of holes.
    #[arg(long, value_parser = crate::util::any_usize, default_value_t = 9)]
    pub holes: usize,
    /// Cards dealt per hole.
    #[arg(long, value_parser = crate::util::any_usize, default_value_t = 2)]
    pub cards: usize,
    /// Smallest acceptable par (deals with a smaller par are discarded and dealt again).
    #[arg(long, value_parser = crate::util::any_u32, default_value_t = 3)]
    pub min_par: u32,
    /// Largest acceptable par (deals with a larger par, or impossible, are discarded).
    #[arg(long, value_parser = crate::util::any_u32, default_value_t = 8)]
    pub max_par: u32,
    /// Accept only holes with exactly one optimal solution.
    #[arg(long)]
    pub unique: bool,
    /// Play every deal as the seed does: no deal is discarded, whatever its par; an
    /// impossible hole is kept (marked on the solutions page) and the next hole starts
    /// from the same position.
    #[arg(long, conflicts_with_all = ["min_par", "max_par", "unique"])]
    pub as_dealt: bool,
    /// Random seed (default 1, as every chesslab command).
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 1)]
    pub seed: u64,
    /// Output directory (created if needed). A folder that already holds files is
    /// refused unless --force, which first removes the files an earlier course wrote
    /// there (course.*, solutions.html, holes/hole-*.txt) and leaves anything else.
    #[arg(long)]
    pub out: PathBuf,
    /// Write into a non-empty --out folder, replacing the course found there.
    #[arg(long)]
    pub force: bool,
    /// Node limit per solve; a deal not proven within it is discarded.
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 20_000_000)]
    pub max_nodes: u64,
    /// Deals tried per hole before giving up (repeated deals on the same board are not
    /// solved again, so this is cheap).
    #[arg(long, value_parser = crate::util::any_usize, default_value_t = 20000)]
    pub max_deals: usize,
    #[command(flatten)]
    pub rules: RuleArgs,
}

#[derive(Args, Debug)]
pub struct ScoreArgs {
    /// Score sheet (TOML; see `chesslab golf score --help`).
    pub file: PathBuf,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Number of deals (default: 1000 with 2 cards and 200 with 3).
    #[arg(long, value_parser = crate::util::any_usize)]
    pub deals: Option<usize>,
    /// Cards per deal (default: both 2 and 3).
    #[arg(long, value_parser = crate::util::any_usize)]
    pub cards: Option<usize>,
    /// Random seed.
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 1)]
    pub seed: u64,
    /// Node limit per deal (hitting it counts as `par > N`).
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 100_000_000)]
    pub max_nodes: u64,
    /// Also solve the problems of this file (book-problems.txt format).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

pub fn run(cmd: GolfCommand) -> Result<()> {
    match cmd {
        GolfCommand::Deal(a) => deal(&a),
        GolfCommand::Solve(a) => solve_cmd(&a),
        GolfCommand::Generate(a) => generate(&a),
        GolfCommand::Score(a) => score(&a),
        GolfCommand::Pars(a) => pars(&a),
        GolfCommand::Bench(a) => bench(&a),
    }
}

// ---------------------------------------------------------------------------------------
// deal / solve
// ---------------------------------------------------------------------------------------
