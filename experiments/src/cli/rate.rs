//! `chesslab rate PATH...`: every agent of the games under the given games.csv files or
//! folders on one scale, per variant, by a joint Bradley-Terry fit anchored in orthodox
//! chess at a Stockfish level and in a variant at an agent's orthodox rating
//! ([`crate::stats::rating`], where the decisions are written down). Prints one Markdown
//! table per variant; `--out FILE` also writes it. Tests: `experiments/tests/rate.rs`.

use crate::record;
use crate::run::verify::games_files;
use crate::stats::rating::{tables, Options};
use crate::util::outln;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct RateArgs {
    /// games.csv files or folders holding them (searched recursively), e.g.
    /// results/strength.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Rate only this variant's games (default: every variant found, orthodox chess first).
    #[arg(long)]
    pub variant: Option<String>,
    /// Fix SPEC at ELO in every variant whose games hold it (repeatable; the first that
    /// applies wins), instead of the Stockfish level or orthodox rating.
    #[arg(long, value_name = "SPEC=ELO", value_parser = anchor)]
    pub anchor: Vec<(String, f64)>,
    /// Bootstrap resamples of the games for the 95% intervals.
    #[arg(long, default_value_t = 200, value_parser = crate::util::positive_usize)]
    pub bootstrap: usize,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1, value_parser = crate::util::any_u64)]
    pub seed: u64,
    /// Also write the tables to this file (an existing file is replaced only with
    /// --force).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace an existing --out file.
    #[arg(long)]
    pub force: bool,
}

/// `SPEC=ELO`, split at the last `=` (specs hold `=` themselves).
fn anchor(text: &str) -> Result<(String, f64), String> {
    let (spec, elo) = text
        .rsplit_once('=')
        .ok_or_else(|| format!("'{text}' is not SPEC=ELO"))?;
    let elo: f64 = elo
        .trim()
        .parse()
        .ok()
        .filter(|e: &f64| e.is_finite())
        .ok_or_else(|| format!("'{elo}' in '{text}' is not a finite number (SPEC=ELO)"))?;
    if spec.trim().is_empty() {
        return Err(format!("'{text}' names no spec (SPEC=ELO)"));
    }
    Ok((spec.trim().to_string(), elo))
}

pub fn run(args: &RateArgs) -> Result<()> {
    if let Some(out) = &args.out {
        let inputs: Vec<&std::path::Path> = args.paths.iter().map(PathBuf::as_path).collect();
        crate::util::check_output(out, &inputs, args.force, "--out")?;
    }
    let mut rows = Vec::new();
    for p in &args.paths {
        for f in games_files(p)? {
            let loaded = record::load(&f)?;
            rows.extend(
                loaded
                    .rows
                    .into_iter()
                    .filter(|r| args.variant.as_ref().is_none_or(|v| &r.variant == v)),
            );
        }
    }
    let what = match &args.variant {
        Some(v) => format!(" of variant {v} in the given files"),
        None => " in the given files".into(),
    };
    if rows.is_empty() {
        bail!("no games{what}");
    }
    let opts = Options {
        anchors: args.anchor.clone(),
        bootstrap: args.bootstrap,
        seed: args.seed,
    };
    let tables = tables(&rows, &opts, &what)?;
    let text: String = tables
        .iter()
        .map(|t| t.markdown(args.bootstrap, args.seed))
        .collect::<Vec<_>>()
        .join("\n");
    outln!("{text}");
    if let Some(out) = &args.out {
        record::write_atomic(out, text.as_bytes())
            .with_context(|| format!("writing {}", out.display()))?;
    }
    Ok(())
}
