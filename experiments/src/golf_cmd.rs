//! `chesslab golf ...`: deal, solve, generate, score and benchmark Chess Golf problems.
//!
//! * `deal --seed S [--cards K]`: a random set-up and a deal, printed in the text format
//!   (`#` lines are comments, so the output is itself a problem file).
//! * `solve FILE [--king-step R] [--max-nodes N] [--count]`: proves par; prints `par N`
//!   (or `impossible`, or `par > N` when a limit stopped the search), one optimal
//!   solution, the number of optimal solutions with `--count`, states searched and time.
//!   FILE holds either the board format or the one-line format (`-` reads stdin).
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
            "unknown fill order {s:?} (expected from-a1 or from-a8)"
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
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Cards to deal (default: the parameters' `cards`, seed 2).
    #[arg(long)]
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
    #[arg(long, default_value_t = 20_000_000)]
    pub max_nodes: u64,
    /// Stop after this many seconds.
    #[arg(long)]
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
    #[arg(long, default_value_t = 9)]
    pub holes: usize,
    /// Cards dealt per hole.
    #[arg(long, default_value_t = 2)]
    pub cards: usize,
    /// Smallest acceptable par (deals with a smaller par are discarded and dealt again).
    #[arg(long, default_value_t = 3)]
    pub min_par: u32,
    /// Largest acceptable par (deals with a larger par, or impossible, are discarded).
    #[arg(long, default_value_t = 8)]
    pub max_par: u32,
    /// Accept only holes with exactly one optimal solution.
    #[arg(long)]
    pub unique: bool,
    /// Play every deal as the seed does: no deal is discarded, whatever its par; an
    /// impossible hole is kept (marked on the solutions page) and the next hole starts
    /// from the same position.
    #[arg(long, conflicts_with_all = ["min_par", "max_par", "unique"])]
    pub as_dealt: bool,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
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
    #[arg(long, default_value_t = 20_000_000)]
    pub max_nodes: u64,
    /// Deals tried per hole before giving up (repeated deals on the same board are not
    /// solved again, so this is cheap).
    #[arg(long, default_value_t = 20000)]
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
    #[arg(long)]
    pub deals: Option<usize>,
    /// Cards per deal (default: both 2 and 3).
    #[arg(long)]
    pub cards: Option<usize>,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Node limit per deal (hitting it counts as `par > N`).
    #[arg(long, default_value_t = 100_000_000)]
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
        GolfCommand::Bench(a) => bench(&a),
    }
}

// ---------------------------------------------------------------------------------------
// deal / solve
// ---------------------------------------------------------------------------------------

fn describe(params: &GolfParams) -> String {
    format!(
        "king steps {}, set-up from {}",
        params.king_step.name(),
        match params.fill_order {
            FillOrder::FromA1 => "a1",
            FillOrder::FromA8 => "a8",
        }
    )
}

fn deal(a: &DealArgs) -> Result<()> {
    let params = a.rules.params()?;
    let cards = a.cards.unwrap_or(params.cards);
    if !(2..=16).contains(&cards) {
        bail!("--cards must be between 2 and 16 (got {cards})");
    }
    let mut rng = Pcg64::seed_from_u64(a.seed);
    let pos = random_problem(&mut rng, &params, cards);
    outln!(
        "# Chess Golf deal: seed {}, {cards} cards, {}",
        a.seed,
        describe(&params)
    );
    outln!("# one-line: {}", pos.to_fen());
    outln!("{}", pos.to_text());
    Ok(())
}

fn read_problem(path: &Path) -> Result<GolfPosition> {
    let text = if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .context("reading the problem from standard input")?;
        s
    } else {
        std::fs::read_to_string(path)
            .with_context(|| format!("reading problem file {}", path.display()))?
    };
    GolfPosition::parse_any(&text).with_context(|| format!("parsing problem {}", path.display()))
}

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{:.1} us", s * 1e6)
    }
}

fn moves_text(moves: &[GolfMove]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn solve_cmd(a: &SolveArgs) -> Result<()> {
    let params = a.rules.params()?;
    let pos = read_problem(&a.file)?;
    if pos.chosen().is_empty() {
        eprintln!("note: nothing is chosen; the problem is solved as it stands");
    }
    if a.max_nodes == 0 {
        bail!("--max-nodes must be at least 1");
    }
    let limits = SolveLimits {
        max_nodes: Some(a.max_nodes),
        max_time: match a.max_seconds {
            Some(s) if s.is_finite() && s >= 0.0 => Some(Duration::from_secs_f64(s)),
            Some(s) => bail!("--max-seconds must be a non-negative number (got {s})"),
            None => None,
        },
        count_solutions: a.count,
        ..SolveLimits::default()
    };
    let r = solve(&pos, &params, &limits);
    outln!("{}", r.outcome);
    if let Outcome::Par(_) = r.outcome {
        outln!("solution: {}", moves_text(&r.moves));
        // The solution is replayed by the rules before it is shown.
        pos.verify_solution(&r.moves, &params)
            .map_err(|e| anyhow!("internal error: the solution does not replay: {e}"))?;
    }
    if a.count {
        match r.optimal_solutions {
            Some(c) => outln!("optimal solutions: {c}"),
            None => outln!("optimal solutions: not counted (limit reached)"),
        }
    }
    outln!("rules: {}", describe(&params));
    outln!("states searched: {}", r.states);
    outln!("time: {}", fmt_duration(r.elapsed));
    Ok(())
}

// ---------------------------------------------------------------------------------------
// generate
// ---------------------------------------------------------------------------------------

#[derive(Serialize, Debug, Clone)]
struct HoleRecord {
    hole: usize,
    /// The problem, one-line format.
    problem: String,
    /// The problem, board format.
    board: String,
    chosen: String,
    /// The proven par; `None` when the hole is impossible (only with `--as-dealt`).
    par: Option<u32>,
    /// No sequence of moves solves the hole (only with `--as-dealt`).
    impossible: bool,
    optimal_solutions: u64,
    /// Legal moves in the start position.
    branching: usize,
    states_searched: u64,
    /// Deals discarded before this one.
    discarded_deals: usize,
    /// Times the captured pieces were put back elsewhere (or, hole 1, the set-up laid out
    /// again) because no deal on the board was acceptable.
    reseats: usize,
    solution: Vec<String>,
    /// The position after the solution (one-line format).
    final_position: String,
}

#[derive(Serialize, Debug)]
struct CourseRecord {
    seed: u64,
    cards: usize,
    min_par: u32,
    max_par: u32,
    unique: bool,
    /// Every deal kept as dealt (`--as-dealt`); otherwise deals outside the par range were
    /// discarded.
    as_dealt: bool,
    king_step: String,
    fill_order: String,
    return_rule: String,
    /// Sum of the proven pars (an impossible hole counts 0, the score of a correct
    /// "impossible" claim).
    total_par: u32,
    holes: Vec<HoleRecord>,
}

/// Consecutive unacceptable deals after which the board is re-seated.
const RESEAT_AFTER: usize = 200;

const RETURN_RULE: &str = "each hole starts from the previous hole's final position (after the solver's optimal solution); captured pieces return to empty squares chosen uniformly at random";

fn generate(a: &GenerateArgs) -> Result<()> {
    let params = a.rules.params()?;
    if !(2..=16).contains(&a.cards) {
        bail!("--cards must be between 2 and 16 (got {})", a.cards);
    }
    if a.min_par > a.max_par {
        bail!("--min-par {} is above --max-par {}", a.min_par, a.max_par);
    }
    if a.holes == 0 {
        bail!("--holes must be at least 1");
    }
    if a.max_nodes == 0 {
        bail!("--max-nodes must be at least 1 (no deal can be solved with 0 nodes)");
    }
    if a.max_deals == 0 {
        bail!("--max-deals must be at least 1");
    }
    prepare_course_dir(&a.out, a.force)?;
    let mut rng = Pcg64::seed_from_u64(a.seed);
    let mut pos = GolfPosition::random_setup(&mut rng, &params);
    let mut deck = CardDeck::shuffled(&mut rng);
    let limits = SolveLimits {
        max_nodes: Some(a.max_nodes),
        count_solutions: true,
        ..SolveLimits::default()
    };
    let mut holes = Vec::new();
    let mut prev_end: Option<GolfPosition> = None;
    for hole in 1..=a.holes {
        if a.as_dealt {
            let chosen = KindCounts::from_pieces(&deck.deal(a.cards, &mut rng));
            let problem = pos.with_chosen(chosen);
            let (record, end) = as_dealt_hole(hole, &problem, &params, &limits)?;
            holes.push(record);
            pos = match end {
                Some(end) => end.next_hole(&mut rng),
                // Nobody can demonstrate: the pieces are reset and stay where they were.
                None => problem.board_only(),
            };
            continue;
        }
        let mut discarded = 0;
        let mut reseats = 0;
        let mut tried: std::collections::HashSet<KindCounts> = Default::default();
        let (problem, r): (GolfPosition, SolveReport) = loop {
            if discarded >= a.max_deals {
                bail!(
                    "hole {hole}: no deal with par in [{}, {}]{} among {} deals; widen the range or raise --max-deals",
                    a.min_par,
                    a.max_par,
                    if a.unique { " and a unique solution" } else { "" },
                    a.max_deals
                );
            }
            if discarded > 0 && discarded % RESEAT_AFTER == 0 {
                // This board offers no acceptable deal: put the previous hole's captured
                // pieces on other empty squares (hole 1: lay out a new set-up).
                pos = match &prev_end {
                    Some(end) => end.next_hole(&mut rng),
                    None => GolfPosition::random_setup(&mut rng, &params),
                };
                tried.clear();
                reseats += 1;
            }
            let chosen = KindCounts::from_pieces(&deck.deal(a.cards, &mut rng));
            if !tried.insert(chosen) {
                discarded += 1; // already graded on this board
                continue;
            }
            let problem = pos.with_chosen(chosen);
            let r = solve(&problem, &params, &limits);
            let ok = match (r.outcome, r.optimal_solutions) {
                (Outcome::Par(p), Some(c)) => {
                    (a.min_par..=a.max_par).contains(&p) && (!a.unique || c == 1)
                }
                _ => false,
            };
            if ok {
                break (problem, r);
            }
            discarded += 1;
        };
        let Outcome::Par(par) = r.outcome else {
            unreachable!("accepted holes have a proven par")
        };
        let end = problem.verify_solution(&r.moves, &params).map_err(|e| {
            anyhow!("hole {hole}: internal error: the solution does not replay: {e}")
        })?;
        eprintln!(
            "hole {hole}: chosen {} par {par}, {} optimal solution(s), {} states, {} ({} deals discarded)",
            problem.chosen(),
            r.optimal_solutions.unwrap_or(0),
            r.states,
            fmt_duration(r.elapsed),
            discarded
        );
        holes.push(hole_record(
            hole,
            &problem,
            &r,
            Some(par),
            discarded,
            reseats,
            &end,
        ));
        pos = end.next_hole(&mut rng);
        prev_end = Some(end);
    }
    let course = CourseRecord {
        seed: a.seed,
        cards: a.cards,
        min_par: a.min_par,
        max_par: a.max_par,
        unique: a.unique,
        as_dealt: a.as_dealt,
        king_step: params.king_step.name().to_string(),
        fill_order: match params.fill_order {
            FillOrder::FromA1 => "from-a1".to_string(),
            FillOrder::FromA8 => "from-a8".to_string(),
        },
        return_rule: RETURN_RULE.to_string(),
        total_par: holes.iter().filter_map(|h| h.par).sum(),
        holes,
    };
    write_course(&a.out, &course, &params)
}

/// One hole of an `--as-dealt` course: `problem` is kept whatever its par. Returns the
/// record and the final position after the solver's solution (`None`: impossible).
fn as_dealt_hole(
    hole: usize,
    problem: &GolfPosition,
    params: &GolfParams,
    limits: &SolveLimits,
) -> Result<(HoleRecord, Option<GolfPosition>)> {
    let r = solve(problem, params, limits);
    let (par, end) = match r.outcome {
        Outcome::Par(par) => {
            let end = problem.verify_solution(&r.moves, params).map_err(|e| {
                anyhow!("hole {hole}: internal error: the solution does not replay: {e}")
            })?;
            (Some(par), Some(end))
        }
        Outcome::Impossible => (None, None),
        Outcome::ParAbove(n) => bail!(
            "hole {hole} (chosen {}): par not proven within {n} states; raise --max-nodes",
            problem.chosen()
        ),
    };
    eprintln!(
        "hole {hole}: chosen {} {}, {} states, {}",
        problem.chosen(),
        par.map_or("impossible".to_string(), |p| format!(
            "par {p}, {} optimal solution(s)",
            r.optimal_solutions.unwrap_or(0)
        )),
        r.states,
        fmt_duration(r.elapsed)
    );
    let record = hole_record(
        hole,
        problem,
        &r,
        par,
        0,
        0,
        end.as_ref().unwrap_or(problem),
    );
    Ok((record, end))
}

fn hole_record(
    hole: usize,
    problem: &GolfPosition,
    r: &SolveReport,
    par: Option<u32>,
    discarded_deals: usize,
    reseats: usize,
    end: &GolfPosition,
) -> HoleRecord {
    HoleRecord {
        hole,
        problem: problem.to_fen(),
        board: problem.to_text(),
        chosen: problem.chosen().to_string(),
        par,
        impossible: par.is_none(),
        optimal_solutions: if par.is_some() {
            r.optimal_solutions.unwrap_or(0)
        } else {
            0
        },
        branching: r.root_moves,
        states_searched: r.states,
        discarded_deals,
        reseats,
        solution: r.moves.iter().map(|m| m.to_string()).collect(),
        final_position: end.to_fen(),
    }
}

/// How the holes were chosen, in words.
fn selection(course: &CourseRecord) -> String {
    if course.as_dealt {
        "every deal kept as dealt (impossible holes included)".to_string()
    } else {
        format!(
            "deals re-dealt until par is in [{}, {}]{}",
            course.min_par,
            course.max_par,
            if course.unique {
                " with a unique optimal solution"
            } else {
                ""
            }
        )
    }
}

fn write_file(path: &Path, contents: &str) -> Result<()> {
    std::fs::write(path, contents).with_context(|| format!("writing {}", path.display()))
}

/// The files a course owns in its folder (besides `holes/hole-NN.txt`).
const COURSE_FILES: [&str; 4] = ["course.txt", "course.json", "course.html", "solutions.html"];

/// Refuses an --out that is a file, or a folder holding anything, unless `force`; with
/// `force`, removes an earlier course's files so no stale hole survives beside the new
/// course (decision: other files are the user's and stay).
fn prepare_course_dir(dir: &Path, force: bool) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        bail!("--out {} is a file, not a folder", dir.display());
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    if entries.count() == 0 {
        return Ok(());
    }
    if !force {
        bail!(
            "--out {} is not empty (an earlier course?); add --force to replace the course there, or choose an empty folder",
            dir.display()
        );
    }
    let remove = |p: &Path| -> Result<()> {
        match std::fs::remove_file(p) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(e).with_context(|| format!("removing {}", p.display()))
            }
            _ => Ok(()),
        }
    };
    for f in COURSE_FILES {
        remove(&dir.join(f))?;
    }
    let holes = dir.join("holes");
    if let Ok(entries) = std::fs::read_dir(&holes) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("hole-") && name.ends_with(".txt") {
                remove(&e.path())?;
            }
        }
        let _ = std::fs::remove_dir(&holes);
    }
    Ok(())
}

fn write_course(dir: &Path, course: &CourseRecord, params: &GolfParams) -> Result<()> {
    let holes_dir = dir.join("holes");
    std::fs::create_dir_all(&holes_dir)
        .with_context(|| format!("creating output directory {}", holes_dir.display()))?;
    let header = format!(
        "# Chess Golf course: {} holes, {} cards, seed {}, {}\n# {}; total par {}\n# {}\n",
        course.holes.len(),
        course.cards,
        course.seed,
        describe(params),
        selection(course),
        course.total_par,
        RETURN_RULE
    );
    let mut txt = header.clone();
    for h in &course.holes {
        let block = match h.par {
            Some(par) => format!(
                "# hole {}: par {par}, {} optimal solution{}, {} legal moves at the start\n# one-line: {}\n# solution: {}\n{}\n",
                h.hole,
                h.optimal_solutions,
                if h.optimal_solutions == 1 { "" } else { "s" },
                h.branching,
                h.problem,
                h.solution.join(" "),
                h.board
            ),
            None => format!(
                "# hole {}: impossible, {} legal moves at the start\n# one-line: {}\n{}\n",
                h.hole, h.branching, h.problem, h.board
            ),
        };
        write_file(&holes_dir.join(format!("hole-{:02}.txt", h.hole)), &block)?;
        txt.push('\n');
        txt.push_str(&block);
    }
    write_file(&dir.join("course.txt"), &txt)?;
    let json = serde_json::to_string_pretty(course).context("serialising the course")?;
    write_file(&dir.join("course.json"), &(json + "\n"))?;
    write_file(
        &dir.join("course.html"),
        &course_html(course, params, false)?,
    )?;
    write_file(
        &dir.join("solutions.html"),
        &course_html(course, params, true)?,
    )?;
    eprintln!(
        "wrote {}/course.txt, course.json, course.html, solutions.html and holes/",
        dir.display()
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------
// HTML / SVG
// ---------------------------------------------------------------------------------------

/// The outline of a piece in a 100 × 100 box: filled shapes (drawn in the piece's colour
/// with a black outline) and detail strokes (drawn in the contrasting colour). Simple
/// silhouettes drawn for this page, so the diagrams need no chess font: a page printed
/// or shown where no font has the chess symbols still shows every piece, and black pieces
/// are black whatever the renderer does with glyph outlines.
fn piece_shapes(role: Role) -> (&'static [&'static str], &'static [&'static str]) {
    const BASE: &str = r#"<rect x="24" y="78" width="52" height="10" rx="2"/>"#;
    match role {
        Role::King => (
            &[
                r#"<path d="M46,6 H54 V14 H62 V22 H54 V32 H46 V22 H38 V14 H46 Z"/>"#,
                r#"<path d="M28,78 C18,58 26,36 50,36 C74,36 82,58 72,78 Z"/>"#,
                BASE,
            ],
            &[r#"<path d="M34,64 H66"/>"#],
        ),
        Role::Queen => (
            &[
                r#"<path d="M26,78 L16,32 L30,54 L33,24 L43,50 L50,20 L57,50 L67,24 L70,54 L84,32 L74,78 Z"/>"#,
                r#"<circle cx="16" cy="30" r="5"/>"#,
                r#"<circle cx="33" cy="22" r="5"/>"#,
                r#"<circle cx="50" cy="17" r="5"/>"#,
                r#"<circle cx="67" cy="22" r="5"/>"#,
                r#"<circle cx="84" cy="30" r="5"/>"#,
                BASE,
            ],
            &[r#"<path d="M32,68 H68"/>"#],
        ),
        Role::Rook => (
            &[
                r#"<path d="M30,78 L34,40 H66 L70,78 Z"/>"#,
                r#"<path d="M28,40 V16 H38 V24 H46 V16 H54 V24 H62 V16 H72 V40 Z"/>"#,
                BASE,
            ],
            &[r#"<path d="M36,48 H64"/>"#],
        ),
        Role::Bishop => (
            &[
                r#"<circle cx="50" cy="13" r="6"/>"#,
                r#"<path d="M50,20 C66,32 68,50 60,64 H40 C32,50 34,32 50,20 Z"/>"#,
                r#"<rect x="36" y="64" width="28" height="9"/>"#,
                BASE,
            ],
            &[r#"<path d="M44,46 L56,34"/>"#],
        ),
        Role::Knight => (
            &[
                r#"<path d="M28,88 L76,88 C76,64 72,40 62,24 L58,8 L50,18 C40,20 28,34 18,48 L21,57 C26,61 32,59 36,56 L47,50 C45,62 32,72 28,88 Z"/>"#,
            ],
            &[r#"<circle cx="45" cy="31" r="2.5"/>"#],
        ),
        Role::Pawn => (
            &[
                r#"<circle cx="50" cy="30" r="13"/>"#,
                r#"<path d="M36,78 C38,60 44,50 44,43 H56 C56,50 62,60 64,78 Z"/>"#,
                BASE,
            ],
            &[],
        ),
    }
}

/// Fill of a piece's body and of its detail strokes.
fn piece_colours(color: Color) -> (&'static str, &'static str) {
    match color {
        Color::White => ("#ffffff", "#000000"),
        Color::Black => ("#000000", "#ffffff"),
    }
}

/// One piece drawn as SVG shapes in the `size`-pixel square at (`x`, `y`).
fn piece_svg(p: Piece, x: u32, y: u32, size: u32) -> String {
    let (fill, detail) = piece_colours(p.color);
    let (shapes, details) = piece_shapes(p.role);
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<g class="piece {}" transform="translate({x} {y}) scale({})"><title>{}</title><g fill="{fill}" stroke="#000000" stroke-width="3.5" stroke-linejoin="round">"##,
        piece_name(p),
        size as f64 / 100.0,
        piece_name(p)
    );
    for shape in shapes {
        s.push_str(shape);
    }
    let _ = write!(
        s,
        r#"</g><g fill="{detail}" stroke="{detail}" stroke-width="3.5" stroke-linecap="round">"#
    );
    for d in details {
        s.push_str(d);
    }
    s.push_str("</g></g>");
    s
}

fn piece_name(p: Piece) -> String {
    let role = match p.role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    };
    format!("{} {role}", p.color.name())
}

fn chosen_words(chosen: &KindCounts) -> String {
    chosen
        .pieces()
        .into_iter()
        .map(piece_name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// An SVG diagram of `pos`; pieces of chosen kinds are circled. `marks` are squares to
/// outline (the moved pieces' squares on the solutions page).
fn board_svg(pos: &GolfPosition, circle_chosen: bool, marks: &[Square]) -> String {
    const S: u32 = 40;
    const M: u32 = 18;
    let size = 8 * S + M;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" role="img">"#
    );
    for rank in 0..8u32 {
        for file in 0..8u32 {
            let x = M + file * S;
            let y = (7 - rank) * S;
            let dark = (rank + file) % 2 == 0;
            let fill = if dark { "#b58863" } else { "#f0d9b5" };
            let _ = write!(
                s,
                r#"<rect x="{x}" y="{y}" width="{S}" height="{S}" fill="{fill}"/>"#
            );
        }
    }
    for sq in marks {
        let x = M + sq.file() as u32 * S;
        let y = (7 - sq.rank() as u32) * S;
        let _ = write!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#2a6fdb" stroke-width="3"/>"##,
            x + 2,
            y + 2,
            S - 4,
            S - 4
        );
    }
    for i in 0..8u32 {
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-size="11" text-anchor="middle" font-family="sans-serif">{}</text>"#,
            M + i * S + S / 2,
            8 * S + 13,
            (b'a' + i as u8) as char
        );
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-size="11" text-anchor="middle" font-family="sans-serif">{}</text>"#,
            M / 2,
            (7 - i) * S + S / 2 + 4,
            i + 1
        );
    }
    let chosen = pos.chosen();
    for (sq, p) in pos.pieces() {
        let x = M + sq.file() as u32 * S;
        let y = (7 - sq.rank() as u32) * S;
        let (cx, cy) = (x + S / 2, y + S / 2);
        s.push_str(&piece_svg(p, x + 1, y + 1, S - 2));
        if circle_chosen && chosen.get(p) > 0 {
            let _ = write!(
                s,
                r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#d00000" stroke-width="2.5"/>"##,
                S / 2 - 2
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// The start squares of the pieces that move in `solution` (UCI moves).
fn moved_pieces_start_squares(solution: &[String]) -> Vec<Square> {
    // origin[sq] = the start square of the piece now on sq.
    let mut origin: [Option<Square>; 64] = [None; 64];
    for sq in Square::all() {
        origin[sq.index()] = Some(sq);
    }
    let mut out: Vec<Square> = Vec::new();
    for m in solution {
        let Some(mv) = GolfMove::parse(m) else {
            continue;
        };
        let start = origin[mv.from.index()];
        if let Some(start) = start {
            if !out.contains(&start) {
                out.push(start);
            }
        }
        origin[mv.to.index()] = start;
        origin[mv.from.index()] = None;
    }
    out
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The player's page (`solutions = false`) or the solutions page of a course.
///
/// The player's page shows no par and does not say which holes are impossible (that is
/// what the players are to find out); it ends with a score card whose rows take the
/// players' names. The solutions page gives each hole's par (or "impossible"), one optimal
/// solution, the total par and a par row. Printing: a stylesheet for print lays the holes
/// out three to a row, so a 9-hole course takes two A4 or Letter pages.
fn course_html(course: &CourseRecord, params: &GolfParams, solutions: bool) -> Result<String> {
    let title = if solutions {
        format!("Chess Golf course (seed {}): solutions", course.seed)
    } else {
        format!("Chess Golf course (seed {})", course.seed)
    };
    let mut h = String::new();
    let _ = write!(
        h,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; color: #000; background: #fff; }}
h1 {{ font-size: 1.5em; margin: 0 0 0.3em 0; }}
p.intro {{ max-width: 60em; margin: 0.3em 0; }}
.holes {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 340px)); gap: 1em 1.5em; margin-top: 1em; }}
.hole {{ break-inside: avoid; page-break-inside: avoid; }}
.hole h2 {{ font-size: 1.05em; margin: 0 0 0.2em 0; }}
.hole svg {{ display: block; width: 100%; height: auto; }}
.hole p {{ margin: 0.2em 0; font-size: 0.9em; }}
table.card {{ border-collapse: collapse; margin-top: 1.5em; break-inside: avoid; page-break-inside: avoid; }}
table.card td, table.card th {{ border: 1px solid #444; padding: 0.25em 0.6em; text-align: center; min-width: 1.6em; }}
table.card .name {{ min-width: 10em; text-align: left; }}
table.card td {{ height: 1.8em; }}
table.card caption {{ text-align: left; font-weight: bold; margin-bottom: 0.3em; }}
@page {{ margin: 12mm; }}
@media print {{
  body {{ margin: 0; font-size: 9.5pt; }}
  h1 {{ font-size: 15pt; }}
  .noprint {{ display: none; }}
  .holes {{ grid-template-columns: repeat(3, 1fr); gap: 3mm 6mm; margin-top: 3mm; }}
  table.card {{ margin-top: 5mm; }}
}}
</style></head><body>
<h1>{title}</h1>
"#
    );
    let rules = match params.king_step {
        KingStep::NoAdjacentPair => "a colour with no two adjacent pieces may make king steps",
        KingStep::NoBorrowedMove => "a colour with no borrowed move may make king steps",
    };
    let _ = writeln!(
        h,
        "<p class=\"intro\">{} holes, {} cards a hole, {}.{}</p>",
        course.holes.len(),
        course.cards,
        html_escape(&describe(params)),
        if solutions {
            format!(" Total par {}.", course.total_par)
        } else {
            String::new()
        }
    );
    if solutions {
        let _ = writeln!(
            h,
            "<p class=\"intro\">Holes: {}. Each solution is one optimal line found by the solver; outlined squares are the start squares of the pieces that move.</p>",
            html_escape(&selection(course))
        );
    } else {
        let _ = writeln!(
            h,
            "<p class=\"intro\">Make one circled piece capture the others in as few moves as possible. A piece moves only by borrowing the move of a same-colour neighbour; {rules}. Each hole starts where the previous one ended, captured pieces returned to the board. <span class=\"noprint\">Solutions: <a href=\"solutions.html\">solutions.html</a>.</span></p>"
        );
    }
    h.push_str("<div class=\"holes\">\n");
    for hole in &course.holes {
        let pos = GolfPosition::parse_fen(&hole.problem)
            .with_context(|| format!("re-reading hole {}", hole.hole))?;
        let marks: Vec<Square> = if solutions {
            moved_pieces_start_squares(&hole.solution)
        } else {
            Vec::new()
        };
        let heading = match (solutions, hole.par) {
            (false, _) => format!("Hole {}", hole.hole),
            (true, Some(par)) => format!("Hole {} &mdash; par {par}", hole.hole),
            (true, None) => format!("Hole {} &mdash; impossible", hole.hole),
        };
        let _ = write!(
            h,
            "<div class=\"hole\"><h2>{heading}</h2>\n{}\n<p>Chosen: {} (<code>{}</code>).</p>\n",
            board_svg(&pos, true, &marks),
            html_escape(&chosen_words(&pos.chosen())),
            html_escape(&hole.chosen)
        );
        if solutions {
            if hole.par.is_some() {
                let _ = writeln!(
                    h,
                    "<p>Solution ({} moves): <code>{}</code></p><p>{} optimal solution{}; {} legal moves at the start.</p>",
                    hole.solution.len(),
                    html_escape(&hole.solution.join(" ")),
                    hole.optimal_solutions,
                    if hole.optimal_solutions == 1 { "" } else { "s" },
                    hole.branching
                );
            } else {
                let _ = writeln!(
                    h,
                    "<p>No sequence of moves makes the capture; the next hole starts from this position.</p>"
                );
            }
        }
        h.push_str("</div>\n");
    }
    h.push_str("</div>\n");
    let numbers = |h: &mut String| {
        for hole in &course.holes {
            let _ = write!(h, "<th>{}</th>", hole.hole);
        }
    };
    if solutions {
        h.push_str("<table class=\"card\"><tr><th class=\"name\">Hole</th>");
        numbers(&mut h);
        h.push_str("<th>Total</th></tr><tr><th class=\"name\">Par</th>");
        for hole in &course.holes {
            match hole.par {
                Some(p) => {
                    let _ = write!(h, "<td>{p}</td>");
                }
                None => h.push_str("<td>&ndash;</td>"),
            }
        }
        let _ = writeln!(h, "<td>{}</td></tr></table>", course.total_par);
    } else {
        h.push_str("<table class=\"card\"><caption>Score card</caption><tr><th class=\"name\">Player (name)</th>");
        numbers(&mut h);
        h.push_str("<th>Total</th></tr>");
        for _ in 0..SCORE_CARD_ROWS {
            h.push_str("<tr><td class=\"name\"></td>");
            for _ in 0..=course.holes.len() {
                h.push_str("<td></td>");
            }
            h.push_str("</tr>");
        }
        h.push_str("</table>\n");
    }
    h.push_str("</body></html>\n");
    Ok(h)
}

/// Player rows on the printed score card.
const SCORE_CARD_ROWS: usize = 5;

// ---------------------------------------------------------------------------------------
// score
// ---------------------------------------------------------------------------------------

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct ScoreSheet {
    players: Vec<String>,
    #[serde(default)]
    first_dealer: Option<String>,
    #[serde(default)]
    penalty: Option<u32>,
    #[serde(default)]
    hole: Vec<HoleSheet>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct HoleSheet {
    counts: BTreeMap<String, u32>,
    #[serde(default)]
    failed: Vec<String>,
    #[serde(default)]
    par: Option<u32>,
    #[serde(default)]
    dealer: Option<String>,
}

/// Scores of one hole, in seating order.
fn score_hole(
    players: &[String],
    dealer: usize,
    counts: &[u32],
    failed: &[usize],
    penalty: u32,
    par: Option<u32>,
) -> std::result::Result<Vec<u32>, String> {
    let n = players.len();
    let mut order: Vec<usize> = (0..n).filter(|&i| counts[i] > 0).collect();
    order.sort_by_key(|&i| (counts[i], (i + n - dealer) % n));
    let max_all = counts.iter().copied().max().unwrap_or(0);
    let mut scores = counts.to_vec();
    let mut failed_iter = failed.iter().peekable();
    let mut success = None;
    for &i in &order {
        if failed_iter.peek() == Some(&&i) {
            failed_iter.next();
            let max_others = (0..n)
                .filter(|&j| j != i)
                .map(|j| counts[j])
                .max()
                .unwrap_or(0);
            scores[i] = max_others + penalty;
        } else {
            success = Some(i);
            break;
        }
    }
    if let Some(&i) = failed_iter.next() {
        return Err(if counts[i] == 0 {
            format!(
                "{} claimed impossible and never demonstrates, so cannot fail",
                players[i]
            )
        } else {
            format!(
                "{} is listed as failed out of turn (demonstrations go from the lowest count, ties from the dealer leftwards; list failures in that order)",
                players[i]
            )
        });
    }
    if let Some(i) = success {
        if let (Some(par), true) = (par, counts[i] > 0) {
            if counts[i] < par {
                return Err(format!(
                    "{} demonstrated {} moves, below the proven par {par}: mark the demonstration failed",
                    players[i], counts[i]
                ));
            }
        }
        for j in 0..n {
            if counts[j] == 0 {
                scores[j] = max_all + penalty;
            }
        }
    }
    Ok(scores)
}

fn score(a: &ScoreArgs) -> Result<()> {
    let text = std::fs::read_to_string(&a.file)
        .with_context(|| format!("reading score sheet {}", a.file.display()))?;
    let sheet: ScoreSheet = toml::from_str(&text)
        .with_context(|| format!("parsing score sheet {}", a.file.display()))?;
    let players = &sheet.players;
    if players.is_empty() {
        bail!("{}: no players", a.file.display());
    }
    let index = |name: &str, what: &str| -> Result<usize> {
        players
            .iter()
            .position(|p| p == name)
            .ok_or_else(|| anyhow!("{}: {what}: unknown player {name:?}", a.file.display()))
    };
    for (i, p) in players.iter().enumerate() {
        if players[..i].contains(p) {
            bail!("{}: player {p:?} listed twice", a.file.display());
        }
    }
    let penalty = sheet.penalty.unwrap_or(GolfParams::default().penalty);
    let first = match &sheet.first_dealer {
        Some(d) => index(d, "first_dealer")?,
        None => 0,
    };
    let mut table: Vec<Vec<u32>> = Vec::new();
    for (h, hole) in sheet.hole.iter().enumerate() {
        let what = format!("hole {}", h + 1);
        let mut counts = vec![None; players.len()];
        for (name, &c) in &hole.counts {
            counts[index(name, &what)?] = Some(c);
        }
        let counts: Vec<u32> = counts
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.ok_or_else(|| {
                    anyhow!("{}: {what}: no count for {}", a.file.display(), players[i])
                })
            })
            .collect::<Result<_>>()?;
        let dealer = match &hole.dealer {
            Some(d) => index(d, &what)?,
            None => (first + h) % players.len(),
        };
        let failed = hole
            .failed
            .iter()
            .map(|f| index(f, &what))
            .collect::<Result<Vec<_>>>()?;
        let scores = score_hole(players, dealer, &counts, &failed, penalty, hole.par)
            .map_err(|e| anyhow!("{}: {what}: {e}", a.file.display()))?;
        table.push(scores);
    }
    // Print the card.
    let width = players.iter().map(|p| p.len()).max().unwrap_or(4).max(5);
    out!("{:<6}", "hole");
    for p in players {
        out!(" {p:>width$}");
    }
    outln!();
    for (h, row) in table.iter().enumerate() {
        out!("{:<6}", h + 1);
        for s in row {
            out!(" {s:>width$}");
        }
        outln!();
    }
    let totals: Vec<u32> = (0..players.len())
        .map(|i| table.iter().map(|r| r[i]).sum())
        .collect();
    out!("{:<6}", "total");
    for t in &totals {
        out!(" {t:>width$}");
    }
    outln!();
    if let Some(&best) = totals.iter().min() {
        let winners: Vec<&str> = (0..players.len())
            .filter(|&i| totals[i] == best)
            .map(|i| players[i].as_str())
            .collect();
        if winners.len() == 1 {
            outln!("winner: {} ({best})", winners[0]);
        } else {
            outln!(
                "tie at {best}: {} (the seed: a tie goes to the best dressed player)",
                winners.join(", ")
            );
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// bench
// ---------------------------------------------------------------------------------------

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Problems of a book-problems.txt file: (name, position, published optimal).
fn read_book(path: &Path) -> Result<Vec<(String, GolfPosition, Option<u32>)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading problem file {}", path.display()))?;
    let mut out = Vec::new();
    for (b, block) in text.split("\n\n").enumerate() {
        let mut name = format!("block {}", b + 1);
        let mut board = Vec::new();
        let mut chosen = None;
        let mut optimal = None;
        let mut lines = block.lines();
        while let Some(line) = lines.next() {
            if let Some(n) = line.strip_prefix("# name:") {
                name = n.trim().to_string();
            } else if line.starts_with("board:") {
                for _ in 0..8 {
                    board.push(lines.next().ok_or_else(|| {
                        anyhow!("{}: {name}: fewer than 8 board rows", path.display())
                    })?);
                }
            } else if let Some(c) = line.strip_prefix("chosen:") {
                chosen = Some(c.trim().to_string());
            } else if let Some(o) = line.strip_prefix("optimal:") {
                optimal = Some(
                    o.trim()
                        .parse()
                        .with_context(|| format!("{}: {name}: optimal", path.display()))?,
                );
            }
        }
        if board.is_empty() {
            continue;
        }
        let text = format!(
            "{}\nchosen: {}",
            board.join("\n"),
            chosen.unwrap_or_default()
        );
        let pos = GolfPosition::parse_text(&text)
            .with_context(|| format!("{}: {name}", path.display()))?;
        out.push((name, pos, optimal));
    }
    Ok(out)
}

fn bench(a: &BenchArgs) -> Result<()> {
    let params = a.rules.params()?;
    outln!("rules: {}", describe(&params));
    if let Some(book) = &a.book {
        for (name, pos, optimal) in read_book(book)? {
            let r = solve(&pos, &params, &SolveLimits::default());
            outln!(
                "{name}: {} (published {}), {} states, {}, {:.1} M states/s, table {} states",
                r.outcome,
                optimal.map_or("-".to_string(), |o| o.to_string()),
                r.states,
                fmt_duration(r.elapsed),
                r.states as f64 / r.elapsed.as_secs_f64().max(1e-9) / 1e6,
                r.table_states
            );
        }
    }
    let configs: Vec<(usize, usize)> = match (a.cards, a.deals) {
        (None, None) => vec![(2, 1000), (3, 200)],
        (None, Some(d)) => vec![(2, d), (3, d)],
        (Some(c), d) => vec![(c, d.unwrap_or(if c <= 2 { 1000 } else { 200 }))],
    };
    for (cards, deals) in configs {
        if !(2..=16).contains(&cards) {
            bail!("--cards must be between 2 and 16 (got {cards})");
        }
        let mut rng = Pcg64::seed_from_u64(a.seed.wrapping_add(cards as u64 * 0x9E37_79B9));
        let limits = SolveLimits {
            max_nodes: Some(a.max_nodes),
            ..SolveLimits::default()
        };
        // Grows with the deals solved, never sized up front by the user's number.
        let mut times = Vec::new();
        let mut states = 0u64;
        let mut total = Duration::ZERO;
        let mut pars: BTreeMap<String, usize> = BTreeMap::new();
        let mut worst = (Duration::ZERO, String::new());
        for _ in 0..deals {
            let pos = random_problem(&mut rng, &params, cards);
            let r = solve(&pos, &params, &limits);
            times.push(r.elapsed);
            total += r.elapsed;
            states += r.states;
            let key = match r.outcome {
                Outcome::Par(p) => format!("{p}"),
                Outcome::Impossible => "impossible".to_string(),
                Outcome::ParAbove(_) => "limit".to_string(),
            };
            *pars.entry(key).or_default() += 1;
            if r.elapsed > worst.0 {
                worst = (r.elapsed, pos.to_fen());
            }
        }
        times.sort();
        outln!(
            "{deals} deals, {cards} cards: median {}, p99 {}, max {}, mean {}; {states} states, {:.2} M states/s",
            fmt_duration(percentile(&times, 0.5)),
            fmt_duration(percentile(&times, 0.99)),
            fmt_duration(times.last().copied().unwrap_or_default()),
            fmt_duration(total / deals.max(1) as u32),
            states as f64 / total.as_secs_f64().max(1e-9) / 1e6
        );
        let hist: Vec<String> = pars.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        outln!("  par histogram {}", hist.join(" "));
        outln!("  slowest: {} ({})", worst.1, fmt_duration(worst.0));
    }
    if let Some(mb) = peak_rss_mb() {
        outln!("peak memory: {mb:.0} MB");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["A", "B", "C"].iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn lowest_demonstrates_and_keeps_the_count() {
        let s = score_hole(&names(), 0, &[3, 4, 5], &[], 1, None).unwrap();
        assert_eq!(s, vec![3, 4, 5]);
    }

    #[test]
    fn failed_demonstration_scores_max_of_others_plus_penalty() {
        let s = score_hole(&names(), 0, &[3, 4, 6], &[0], 1, None).unwrap();
        assert_eq!(s, vec![7, 4, 6]);
    }

    #[test]
    fn impossible_claims_are_penalised_after_a_success() {
        let s = score_hole(&names(), 0, &[0, 4, 6], &[], 1, None).unwrap();
        assert_eq!(s, vec![7, 4, 6]);
        // Nobody succeeds: the zero stands.
        let s = score_hole(&names(), 0, &[0, 4, 6], &[1, 2], 1, None).unwrap();
        assert_eq!(s, vec![0, 7, 5]);
    }

    #[test]
    fn ties_start_at_the_dealer_going_left() {
        // Dealer C (2): order C, A, B; A and B tie at 3, A is first to the left of C.
        let s = score_hole(&names(), 2, &[3, 3, 5], &[0], 1, None).unwrap();
        assert_eq!(s, vec![6, 3, 5]);
        // Failing out of order is an error.
        assert!(score_hole(&names(), 2, &[3, 3, 5], &[1], 1, None).is_err());
        // Below par cannot succeed.
        assert!(score_hole(&names(), 0, &[2, 3, 5], &[], 1, Some(3)).is_err());
    }

    #[test]
    fn svg_circles_chosen_pieces() {
        let pos = GolfPosition::parse_fen("8/8/8/8/8/8/8/BR6 chosen=B").unwrap();
        let svg = board_svg(&pos, true, &[]);
        // The marker circles are the only ones with the red stroke.
        assert_eq!(svg.matches("stroke=\"#d00000\"").count(), 1);
        let svg = board_svg(&pos, false, &[]);
        assert_eq!(svg.matches("stroke=\"#d00000\"").count(), 0);
    }

    /// The body fill of every `<g class="piece ...">` group, with its class.
    fn piece_fills(svg: &str) -> Vec<(String, String)> {
        svg.split("<g class=\"piece ")
            .skip(1)
            .map(|rest| {
                let class = rest[..rest.find('"').unwrap()].to_string();
                let body = &rest[rest.find("<g fill=\"").unwrap() + 9..];
                (class, body[..body.find('"').unwrap()].to_string())
            })
            .collect()
    }

    #[test]
    fn both_colours_are_drawn_as_shapes_with_distinct_fills() {
        // Every kind in both colours (pawns never appear in Golf but are drawable).
        let pos = GolfPosition::parse_fen("8/8/8/8/8/8/kqrbn3/KQRBN3 chosen=Kk").unwrap();
        let svg = board_svg(&pos, true, &[]);
        let fills = piece_fills(&svg);
        assert_eq!(fills.len(), 10, "{fills:?}");
        for (class, fill) in &fills {
            let want = if class.starts_with("white ") {
                "#ffffff"
            } else {
                assert!(class.starts_with("black "), "{class}");
                "#000000"
            };
            assert_eq!(fill, want, "{class}");
        }
        // No glyph, so no font is needed: no text but the coordinates, and no chess
        // symbol characters anywhere.
        assert!(!svg.chars().any(|c| ('\u{2654}'..='\u{265F}').contains(&c)));
        assert_eq!(svg.matches("<text").count(), 16);
        // Each kind has its own outline.
        let mut shapes: Vec<_> = [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
        ]
        .iter()
        .map(|&r| piece_shapes(r).0.join(""))
        .collect();
        shapes.sort();
        shapes.dedup();
        assert_eq!(shapes.len(), 5);
    }

    #[test]
    fn an_impossible_hole_is_kept_and_marked_when_dealt_as_is() {
        // No black king on the board: Kk cannot be solved.
        let problem = GolfPosition::parse_fen("8/8/8/8/8/8/8/K1B5 chosen=Kk").unwrap();
        let limits = SolveLimits {
            max_nodes: Some(1_000_000),
            count_solutions: true,
            ..SolveLimits::default()
        };
        let params = GolfParams::default();
        let (rec, end) = as_dealt_hole(4, &problem, &params, &limits).unwrap();
        assert!(end.is_none());
        assert!(rec.impossible);
        assert_eq!(rec.par, None);
        assert!(rec.solution.is_empty());
        assert_eq!(rec.final_position, problem.to_fen());
        // A solvable one keeps its par, even one outside the default range [3, 8].
        let easy = GolfPosition::parse_fen("8/8/8/8/8/8/8/NN5k chosen=Nk").unwrap();
        let (rec, end) = as_dealt_hole(1, &easy, &params, &limits).unwrap();
        assert_eq!(rec.par, Some(5));
        assert!(!rec.impossible);
        assert_eq!(rec.final_position, end.unwrap().to_fen());
        // The node limit is an error, never a silently discarded deal.
        let tight = SolveLimits {
            max_nodes: Some(1),
            ..limits
        };
        assert!(as_dealt_hole(1, &easy, &params, &tight).is_err());
    }

    fn sample_course(as_dealt: bool) -> CourseRecord {
        let hole = |n: usize, fen: &str, par: Option<u32>| HoleRecord {
            hole: n,
            problem: fen.to_string(),
            board: String::new(),
            chosen: fen.split("chosen=").nth(1).unwrap().to_string(),
            par,
            impossible: par.is_none(),
            optimal_solutions: if par.is_some() { 3 } else { 0 },
            branching: 7,
            states_searched: 100,
            discarded_deals: 0,
            reseats: 0,
            solution: if par.is_some() {
                vec!["a1b2".into()]
            } else {
                vec![]
            },
            final_position: fen.to_string(),
        };
        CourseRecord {
            seed: 5,
            cards: 2,
            min_par: 3,
            max_par: 8,
            unique: false,
            as_dealt,
            king_step: "no-adjacent-pair".into(),
            fill_order: "from-a1".into(),
            return_rule: RETURN_RULE.into(),
            total_par: 11,
            holes: vec![
                hole(1, "8/8/8/8/8/8/kq6/KQ6 chosen=Kq", Some(4)),
                hole(2, "8/8/8/8/8/8/kr6/KR6 chosen=Rr", Some(7)),
                hole(3, "8/8/8/8/8/8/kb6/KB6 chosen=Bb", None),
            ],
        }
    }

    /// Whether `html` has the word "par" (any case) outside tags.
    fn says_par(html: &str) -> bool {
        let mut text = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => {
                    in_tag = false;
                    text.push(' ');
                }
                _ if !in_tag => text.push(c),
                _ => {}
            }
        }
        text.split(|c: char| !c.is_alphanumeric())
            .any(|w| w.eq_ignore_ascii_case("par"))
    }

    #[test]
    fn the_players_page_keeps_pars_and_impossibility_to_the_solutions_page() {
        let course = sample_course(true);
        let params = GolfParams::default();
        let player = course_html(&course, &params, false).unwrap();
        let sol = course_html(&course, &params, true).unwrap();
        assert!(!says_par(&player), "{player}");
        assert!(!player.to_lowercase().contains("impossible"));
        assert!(!player.contains("Total par") && !player.contains(">11<"));
        assert!(sol.contains("Hole 1 &mdash; par 4"));
        assert!(sol.contains("Hole 2 &mdash; par 7"));
        assert!(sol.contains("Hole 3 &mdash; impossible"));
        assert!(sol.contains("Total par 11"));
        // The score card: labelled rows for the players' names, no par row.
        assert!(player.contains("Player (name)"));
        assert_eq!(
            player.matches("<td class=\"name\"></td>").count(),
            SCORE_CARD_ROWS
        );
        // Both pages have a print layout: three boards to a row.
        for page in [&player, &sol] {
            assert!(page.contains("@media print"));
            assert!(page.contains("grid-template-columns: repeat(3, 1fr)"));
        }
    }
}
