//! `chesslab openings`: arguments, the suite file's header and writing it; the suite
//! itself is [`crate::run::opening_suite`].

use crate::run::opening_suite::suite;
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
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub plies: u32,
    /// Openings to keep.
    #[arg(long, value_parser = crate::util::positive_usize)]
    pub count: usize,
    /// The book to write (e.g. results/openings/<variant>.txt).
    #[arg(long)]
    pub out: PathBuf,
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
    if !(args.margin.is_finite() && args.margin >= 0.0) {
        bail!(
            "--margin must be a number of pawns >= 0 (got {})",
            args.margin
        );
    }
    let inputs: Vec<&std::path::Path> = args.variant.params.as_deref().into_iter().collect();
    crate::util::check_output(&args.out, &inputs, args.force, "--out")?;
    let lines = args.variant.visit(Visitor(args.clone()))??;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# chesslab openings --variant {} --plies {} --count {} --seed {} --depth {} --margin {}{}",
        args.variant.variant,
        args.plies,
        args.count,
        args.seed,
        args.depth,
        args.margin,
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
    Ok(())
}

struct Visitor(OpeningsArgs);

impl VariantVisitor for Visitor {
    type Output = Result<Vec<String>>;
    fn visit<G: Game>(self, _name: &'static str, params: G::Params) -> Result<Vec<String>> {
        let a = &self.0;
        suite::<G>(&params, a.plies, a.count, a.seed, a.depth, a.margin)
    }
}
