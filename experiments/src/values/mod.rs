//! `chesslab values`: piece values learned from play (issue 24, first delivery).
//!
//! Positions are sampled from the games of a finished run ([`sample`]), described by
//! the variant's [`Game::features`](engine::game::Game::features) (by default seat 0
//! minus seat 1 in pawns, knights, bishops, rooks and queens), and labelled with seat
//! 0's score. An L2-regularised logistic regression ([`fit`]) maps features to the
//! chance of winning; dividing each coefficient by the pawn's gives values in pawn
//! units. 95% intervals come from a bootstrap over games (whole games are resampled,
//! since positions of one game share its outcome). Five-fold cross-validation by game
//! compares the log loss of the learned model with a material-free model (intercept
//! only) and with orthodox 1/3/3/5/9 (one fitted scale plus intercept).
//!
//! Decisions where the issue is silent: at least [`MIN_GAMES`] games are required
//! (fewer give intervals too wide to read); the penalty `--l2` defaults to 1e-3 per
//! position; features beyond the five pieces have no orthodox value and count 0 in the
//! orthodox model. Tests: `values::fit::tests::rule_fit_recovers_known_weights`,
//! `rule_fit_rejects_constant_features_without_penalty`, and in `tests/values.rs` the
//! bad-input and end-to-end tests.

pub mod fit;
pub mod report;
pub mod sample;

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use rand::{Rng, SeedableRng};

use crate::record;
pub use sample::{Samples, Sampling};

/// Fewest games `values` accepts.
pub const MIN_GAMES: usize = 100;

#[derive(Args, Debug)]
pub struct ValuesArgs {
    /// Variant the games were played in.
    #[arg(long)]
    pub variant: String,
    /// Parameter file (TOML) the games were played with.
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// The games.csv of a finished run.
    #[arg(long)]
    pub from: PathBuf,
    /// Output folder (default results/values/VARIANT).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seed of the bootstrap and of the cross-validation folds.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Bootstrap replicates for the intervals.
    #[arg(long, default_value_t = 200)]
    pub bootstrap: usize,
    /// Positions are sampled from this ply on.
    #[arg(long, default_value_t = 10)]
    pub min_ply: usize,
    /// At most this many positions per game.
    #[arg(long, default_value_t = 8)]
    pub per_game: usize,
    /// L2 penalty per position on the weights (not the intercept).
    #[arg(long, default_value_t = 1e-3)]
    pub l2: f64,
}

/// Everything the report shows.
#[derive(Debug)]
pub struct Learned {
    pub variant: String,
    pub games: usize,
    pub positions: usize,
    pub names: Vec<String>,
    pub model: fit::Model,
    /// Per feature: value in pawns, 2.5% and 97.5% bootstrap quantiles.
    pub values: Vec<(f64, f64, f64)>,
    /// Cross-validated log loss: learned, material-free, orthodox.
    pub cv: (f64, f64, f64),
    pub bootstrap: usize,
}

/// Orthodox value of a feature name (0 for anything but the five pieces).
pub fn orthodox(name: &str) -> f64 {
    match name {
        "pawn" => 1.0,
        "knight" | "bishop" => 3.0,
        "rook" => 5.0,
        "queen" => 9.0,
        _ => 0.0,
    }
}

fn select(s: &Samples, games: &[usize]) -> (Vec<Vec<f64>>, Vec<f64>) {
    let mut by_game: Vec<Vec<usize>> = vec![Vec::new(); s.game.iter().max().map_or(0, |m| m + 1)];
    for (i, &g) in s.game.iter().enumerate() {
        by_game[g].push(i);
    }
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for &g in games {
        for &i in by_game.get(g).map(|v| v.as_slice()).unwrap_or(&[]) {
            xs.push(s.xs[i].clone());
            ys.push(s.ys[i]);
        }
    }
    (xs, ys)
}

/// Fits, bootstraps and cross-validates on `samples` drawn from `games` games.
pub fn learn(variant: &str, samples: &Samples, games: usize, args: &ValuesArgs) -> Result<Learned> {
    if games < MIN_GAMES {
        bail!("{games} games is too few: piece values need at least {MIN_GAMES} games");
    }
    let pawn = samples
        .names
        .iter()
        .position(|n| n == "pawn")
        .context("the features have no `pawn` to express values in")?;
    let model = fit::fit(&samples.xs, &samples.ys, args.l2).context("fitting all positions")?;
    let mut rng = rand_pcg::Pcg64::seed_from_u64(args.seed);
    let d = samples.names.len();
    let mut reps: Vec<Vec<f64>> = vec![Vec::new(); d];
    for _ in 0..args.bootstrap {
        let pick: Vec<usize> = (0..games).map(|_| rng.gen_range(0..games)).collect();
        let (xs, ys) = select(samples, &pick);
        if let Ok(m) = fit::fit(&xs, &ys, args.l2) {
            for (j, r) in reps.iter_mut().enumerate() {
                r.push(m.weights[j] / m.weights[pawn]);
            }
        }
    }
    let values = (0..d)
        .map(|j| {
            let v = model.weights[j] / model.weights[pawn];
            let r = &mut reps[j];
            r.sort_by(f64::total_cmp);
            let q = |p: f64| {
                r.get(((r.len() as f64 - 1.0) * p).round() as usize)
                    .copied()
                    .unwrap_or(f64::NAN)
            };
            (v, q(0.025), q(0.975))
        })
        .collect();
    // Five folds by game.
    let mut order: Vec<usize> = (0..games).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.gen_range(0..=i));
    }
    let ortho: Vec<f64> = samples.names.iter().map(|n| orthodox(n)).collect();
    let (mut l, mut f, mut o, mut n) = (0.0, 0.0, 0.0, 0usize);
    for k in 0..5 {
        let test: Vec<usize> = order.iter().copied().skip(k).step_by(5).collect();
        let train: Vec<usize> = order
            .iter()
            .copied()
            .enumerate()
            .filter(|(i, _)| i % 5 != k)
            .map(|(_, g)| g)
            .collect();
        let (trx, try_) = select(samples, &train);
        let (tex, tey) = select(samples, &test);
        if tex.is_empty() {
            continue;
        }
        let learned = fit::fit(&trx, &try_, args.l2)?;
        let free = fit::fit(&vec![Vec::new(); trx.len()], &try_, 0.0)?;
        let to_o = |xs: &[Vec<f64>]| -> Vec<Vec<f64>> {
            xs.iter()
                .map(|x| vec![x.iter().zip(&ortho).map(|(a, b)| a * b).sum()])
                .collect()
        };
        let om = fit::fit(&to_o(&trx), &try_, args.l2)?;
        let w = tex.len();
        l += fit::log_loss(&learned, &tex, &tey) * w as f64;
        f += fit::log_loss(&free, &vec![Vec::new(); w], &tey) * w as f64;
        o += fit::log_loss(&om, &to_o(&tex), &tey) * w as f64;
        n += w;
    }
    let n = n.max(1) as f64;
    Ok(Learned {
        variant: variant.to_string(),
        games,
        positions: samples.xs.len(),
        names: samples.names.clone(),
        model,
        values,
        cv: (l / n, f / n, o / n),
        bootstrap: args.bootstrap,
    })
}

pub fn run(args: &ValuesArgs) -> Result<()> {
    let params = match &args.params {
        Some(p) => {
            Some(std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?)
        }
        None => None,
    };
    let loaded = record::load(&args.from)?;
    let rows = loaded.rows;
    if rows.len() < MIN_GAMES {
        bail!(
            "{} has {} games: piece values need at least {MIN_GAMES} games",
            args.from.display(),
            rows.len()
        );
    }
    let sampling = Sampling {
        min_ply: args.min_ply,
        per_game: args.per_game,
    };
    let samples = sample::sample(&args.variant, params.as_deref(), &rows, sampling)?;
    if samples.xs.is_empty() {
        bail!(
            "no position qualified (ply >= {}, quiet, a seat to move)",
            args.min_ply
        );
    }
    let learned = learn(&args.variant, &samples, rows.len(), args)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results/values").join(&args.variant));
    report::write(&out, &learned, &args.from)?;
    print!("{}", report::markdown(&learned, &args.from));
    Ok(())
}
