//! `chesslab openings`: arguments, the suite file's header and writing it; the suite
//! itself is [`crate::run::opening_suite`]. With `--screen BOOK` it screens a book
//! instead ([`crate::run::opening_screen`]) and writes the flagged lines.

use crate::run::opening_screen::{Screen, ScreenProgress, Screener, DEFAULT_DEPTH};
use crate::run::opening_suite::{suite, Suite};
use crate::run::variant_args::VariantArgs;
use anyhow::{bail, Context, Result};
use clap::Args;
use engine::game::Game;
use engine::registry::VariantVisitor;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct OpeningsArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Random decisions from the start in each opening.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=200),
          required_unless_present = "screen")]
    pub plies: Option<u32>,
    /// Openings to keep.
    #[arg(long, value_parser = crate::util::positive_usize, required_unless_present = "screen")]
    pub count: Option<usize>,
    /// The book to write (e.g. results/openings/<variant>.txt); with --screen, the list
    /// of flagged lines.
    #[arg(long)]
    pub out: PathBuf,
    /// Screen this book instead of building one: search the position after each of its
    /// openings and write the lines with a forced win for either side, or scored at
    /// least --screen-margin pawns, to --out (number, line, score from the first seat's
    /// side).
    #[arg(long, value_name = "BOOK",
          conflicts_with_all = ["plies", "count", "seed", "depth", "margin"])]
    pub screen: Option<PathBuf>,
    /// Plies of the screen's alphabeta search; when building a book, candidates the
    /// screen flags are dropped, and 0 switches the screen off.
    #[arg(long, default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(0..=12))]
    pub screen_depth: u32,
    /// Pawns for either side at which the screen flags a line.
    #[arg(long, default_value_t = crate::run::opening_screen::DEFAULT_MARGIN,
          value_parser = crate::util::pawns)]
    pub screen_margin: f64,
    /// Nodes of one screen search at most (a search stopped there scores by its last
    /// finished iteration).
    #[arg(long, default_value_t = crate::run::opening_screen::DEFAULT_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub screen_nodes: u64,
    /// Seed of the random plies.
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 1)]
    pub seed: u64,
    /// Plies of the material search that judges each candidate.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=4))]
    pub depth: u32,
    /// Largest material value (pawns, either side) a kept opening may have.
    #[arg(long, default_value_t = 1.0, value_parser = crate::util::pawns)]
    pub margin: f64,
    /// Replace an existing --out file.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &OpeningsArgs) -> Result<()> {
    if let Some(book) = &args.screen {
        return run_screen(args, book);
    }
    if !(args.margin.is_finite() && args.margin >= 0.0) {
        bail!(
            "--margin must be a number of pawns >= 0 (got {})",
            args.margin
        );
    }
    let inputs: Vec<&std::path::Path> = args.variant.params.as_deref().into_iter().collect();
    crate::util::check_output(&args.out, &inputs, args.force, "--out")?;
    let screen = screen_of(args)?;
    let Suite {
        lines,
        screened_out,
    } = args.variant.visit(Visitor(args.clone(), screen))??;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# chesslab openings --variant {} --plies {} --count {} --seed {} --depth {} --margin {} --screen-depth {}{}{}",
        args.variant.variant,
        args.plies.unwrap_or_default(),
        args.count.unwrap_or_default(),
        args.seed,
        args.depth,
        args.margin,
        args.screen_depth,
        screen
            .map(|s| format!(" --screen-margin {} --screen-nodes {}", s.margin, s.nodes))
            .unwrap_or_default(),
        args.variant
            .params
            .as_ref()
            .map(|p| format!(" --params {}", p.display()))
            .unwrap_or_default()
    );
    let _ = writeln!(
        text,
        "# {} random openings judged level within {} pawns by a {}-ply material search; one per line, played from the start",
        lines.len(),
        args.margin,
        args.depth
    );
    if let Some(s) = screen {
        let _ = writeln!(
            text,
            "# screened: {screened_out} more level candidates dropped, flagged by a {}-ply alphabeta search (a forced win for either side, or {} pawns or more)",
            s.depth, s.margin
        );
    }
    for l in &lines {
        let _ = writeln!(text, "{l}");
    }
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the folder {}", dir.display()))?;
    }
    crate::record::write_atomic(&args.out, text.as_bytes())
        .with_context(|| format!("cannot write --out {}", args.out.display()))?;
    crate::util::outln!("{} openings written to {}", lines.len(), args.out.display());
    if screen.is_some() {
        crate::util::outln!("{screened_out} level candidates dropped by the screen");
    }
    Ok(())
}

/// The screen of a build (`None` with `--screen-depth 0`).
fn screen_of(args: &OpeningsArgs) -> Result<Option<Screen>> {
    if args.screen_depth == 0 {
        return Ok(None);
    }
    if !(args.screen_margin.is_finite() && args.screen_margin > 0.0) {
        bail!(
            "--screen-margin must be a number of pawns above 0 (got {})",
            args.screen_margin
        );
    }
    Ok(Some(Screen {
        depth: args.screen_depth,
        margin: args.screen_margin,
        nodes: args.screen_nodes,
    }))
}

struct Visitor(OpeningsArgs, Option<Screen>);

impl VariantVisitor for Visitor {
    type Output = Result<Suite>;
    fn visit<G: Game>(self, _name: &'static str, params: G::Params) -> Result<Suite> {
        let a = &self.0;
        suite::<G>(
            &params,
            a.plies.unwrap_or_default(),
            a.count.unwrap_or_default(),
            a.seed,
            a.depth,
            a.margin,
            self.1,
        )
    }
}

/// `chesslab openings --screen BOOK`: the flagged lines of a book.
fn run_screen(args: &OpeningsArgs, book: &std::path::Path) -> Result<()> {
    if args.screen_depth == 0 {
        bail!("--screen needs a search: --screen-depth must be at least 1");
    }
    let screen = screen_of(args)?.expect("depth checked");
    let mut inputs: Vec<&std::path::Path> = vec![book];
    inputs.extend(args.variant.params.as_deref());
    crate::util::check_output(&args.out, &inputs, args.force, "--out")?;
    let openings = crate::run::openings::read_book(book, None)
        .with_context(|| format!("--screen {}", book.display()))?;
    let (flagged, capped) = args.variant.visit(ScreenVisitor {
        book: book.to_path_buf(),
        openings: openings.clone(),
        screen,
    })??;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# chesslab openings --screen {} --variant {}{} --screen-depth {} --screen-margin {} --screen-nodes {}",
        book.display(),
        args.variant.variant,
        args.variant
            .params
            .as_ref()
            .map(|p| format!(" --params {}", p.display()))
            .unwrap_or_default(),
        screen.depth,
        screen.margin,
        screen.nodes
    );
    let _ = writeln!(
        text,
        "# {} of {} openings flagged by a {}-ply alphabeta search: a forced win for either side (#+n: the first seat's, in n moves) or {} pawns or more (centipawns, the first seat's side); number in the book, line, score",
        flagged.len(),
        openings.len(),
        screen.depth,
        screen.margin
    );
    let _ = writeln!(
        text,
        "# {capped} openings had a search stopped at the {}-node cap before its depth",
        screen.nodes
    );
    for (n, line, flag) in &flagged {
        let _ = writeln!(text, "{n} {line} {}", flag.text());
    }
    let _ = writeln!(text, "flagged {}", flagged.len());
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the folder {}", dir.display()))?;
    }
    crate::record::write_atomic(&args.out, text.as_bytes())
        .with_context(|| format!("cannot write --out {}", args.out.display()))?;
    let wins = flagged.iter().filter(|f| f.2.is_win()).count();
    crate::util::outln!(
        "{} of {} openings flagged ({wins} forced wins; {capped} openings at the node cap), written to {}",
        flagged.len(),
        openings.len(),
        args.out.display()
    );
    Ok(())
}

struct ScreenVisitor {
    book: PathBuf,
    openings: Vec<(usize, String)>,
    screen: Screen,
}

impl VariantVisitor for ScreenVisitor {
    type Output = Result<(
        Vec<(usize, String, crate::run::opening_screen::Flag)>,
        usize,
    )>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Self::Output {
        // Every line is replayed before any is searched: a bad book fails at once.
        let starts = self
            .openings
            .iter()
            .map(|(line_no, text)| {
                crate::run::openings::start_of::<G>(&params, text).with_context(|| {
                    format!("--screen {} line {line_no} ({name})", self.book.display())
                })
            })
            .collect::<Result<Vec<G>>>()?;
        let mut screener = Screener::<G>::new(self.screen)?;
        let mut progress = ScreenProgress::for_stderr(starts.len());
        let mut flagged = Vec::new();
        let mut capped = 0;
        for (k, (game, (_, text))) in starts.iter().zip(&self.openings).enumerate() {
            let flag = screener.flag(game);
            capped += usize::from(screener.capped());
            progress.step(flag.is_some(), screener.capped());
            if let Some(f) = flag {
                flagged.push((k + 1, text.clone(), f));
            }
        }
        progress.finish();
        Ok((flagged, capped))
    }
}
