//! `chesslab starts`: are some Chess960 starts unfair? White's score per start and a test
//! of whether it varies across starts more than chance ([`crate::studies::starts`]).

use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;

use crate::util::outln;

#[derive(Args, Debug)]
pub struct StartsArgs {
    /// The games.csv of a run that played Chess960 starts as openings (`balance
    /// --openings results/chess960/starts.txt`).
    pub games: PathBuf,
    /// Folder for starts.csv, spread.csv and extremes.csv (default: the games' folder);
    /// existing ones are replaced only with --force.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace starts.csv, spread.csv and extremes.csv where they exist.
    #[arg(long)]
    pub force: bool,
    /// Shuffles of the permutation test.
    #[arg(long, value_parser = crate::util::any_usize, default_value_t = 10_000)]
    pub permutations: usize,
    /// Seed of the permutations.
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 1)]
    pub seed: u64,
    /// How many of the lowest and of the highest starts extremes.csv names.
    #[arg(long, value_parser = crate::util::any_usize, default_value_t = 5)]
    pub extremes: usize,
}

pub fn run(a: &StartsArgs) -> Result<()> {
    if a.permutations == 0 {
        bail!("--permutations must be at least 1");
    }
    let out = match &a.out {
        Some(o) => o.clone(),
        None => a
            .games
            .parent()
            .map(|p| p.to_path_buf())
            .unwrap_or_else(|| PathBuf::from(".")),
    };
    // Each file the study writes follows the file rule (kept ones get no --force hint).
    for name in crate::studies::starts::FILES {
        crate::util::check_output(&out.join(name), &[a.games.as_path()], a.force, "--out")?;
    }
    let (starts, s) =
        crate::studies::starts::run(&a.games, &out, a.permutations, a.seed, a.extremes)?;
    outln!(
        "{} starts, {} pairs, {} games: White {:.3}",
        s.starts,
        s.pairs,
        s.games,
        s.white
    );
    outln!(
        "per-start White score: spread {:.3} observed, {:.3} from chance alone; true spread estimated {:.3}",
        s.observed_sd,
        s.chance_sd,
        s.true_sd
    );
    outln!(
        "F = {:.2}, permutation p = {:.4} ({} shuffles)",
        s.f,
        s.p,
        s.permutations
    );
    let widest = starts.iter().map(|x| x.half).fold(0.0, f64::max);
    outln!(
        "per-start intervals: up to ±{widest:.3}; wrote {}",
        out.display()
    );
    Ok(())
}
