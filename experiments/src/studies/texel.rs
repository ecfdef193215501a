//! `chesslab texel`: the search's evaluation weights tuned by Texel's method from
//! recorded games (issue 36, "a better evaluation ... tuned from self-play positions").
//!
//! Every game of the given `games.csv` files is replayed; a position is kept when it is
//! a seat's turn, at least `--min-ply` plies in, the side to move is not in check and the
//! move played from it neither captures nor promotes (the piece counts of the variant's
//! features do not change): a quiet position, where a static evaluation means something
//! (Texel's own sampling runs a quiescence search instead; the recorded next move is
//! the cheaper test). Each position becomes the feature vector of
//! [`agents::eval::texel::features`] and is labelled with White's score in its game.
//! The fit is [`agents::eval::texel`]'s: the logistic scale `k` fitted with the starting
//! weights and then held, Newton's method with a ridge toward the starting weights.
//!
//! Decisions where the issue is silent: every fifth game (by its place in the files
//! given, in order) is held out, and the loss on those positions before and after the
//! fit is reported, so overfitting shows; the weights are written even when the held-out
//! loss rises, with a warning (a run on purpose is the user's call); the starting weights
//! are the compiled-in search weights or `--start FILE`; the variant's own evaluation
//! term (`variant_term`) is not a feature, so only the board terms are tuned; games of
//! another variant than `--variant` are refused rather than skipped, as in `values`.
//! Tests: `experiments/tests/texel.rs` (the fit on recorded games lowers the loss and
//! writes weights `alphabeta:eval=FILE` plays with; bad input is refused naming it).

use std::path::PathBuf;

use agents::eval::texel::{self, N};
use agents::eval::{search_weights, EvalWeights, EVAL_SETTINGS};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use engine::game::{Game, Turn};
use engine::registry::{self, VariantVisitor};
use rayon::prelude::*;

use crate::record::{self, Row};

/// Fewest games `texel` accepts (fewer overfit 15 weights: results/strength/search).
pub const MIN_GAMES: usize = 100;

#[derive(Args, Debug, Clone)]
pub struct TexelArgs {
    /// The games.csv files of finished runs (one or more).
    #[arg(long, required = true, num_args = 1..)]
    pub from: Vec<PathBuf>,
    /// Variant of the games (its board is what the evaluation scores).
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// Starting weights (TOML, as `alphabeta:eval=FILE` reads); default the search's own.
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Where to write the tuned weights (TOML; an existing file is replaced only with
    /// --force).
    #[arg(long)]
    pub out: PathBuf,
    /// Replace an existing --out file.
    #[arg(long)]
    pub force: bool,
    /// Positions are kept from this ply on.
    #[arg(long, default_value_t = 8)]
    pub min_ply: usize,
    /// Ridge penalty per position toward the starting weights.
    #[arg(long, value_parser = crate::util::gain, default_value_t = 1e-4)]
    pub lambda: f64,
}

/// What the fit found.
#[derive(Debug)]
pub struct Tuned {
    pub games: usize,
    pub train: usize,
    pub held_out: usize,
    pub k: f64,
    /// Loss on the training positions, before and after.
    pub train_loss: (f64, f64),
    /// Loss on the held-out positions, before and after.
    pub held_out_loss: (f64, f64),
    pub start: EvalWeights,
    pub weights: EvalWeights,
}

type Sample = ([f64; N], f64);

struct Sampler<'a> {
    rows: &'a [Row],
    min_ply: usize,
}

impl Sampler<'_> {
    fn positions<G: Game>(&self, params: &G::Params, row: &Row) -> Result<Vec<Sample>> {
        let units = texel::unit_evaluators();
        let y = match row.returns.first() {
            Some(r) => ((r + 1.0) / 2.0).clamp(0.0, 1.0),
            None => bail!("game {} has no returns", row.index),
        };
        let material = |g: &G| -> Vec<f64> {
            g.features()
                .into_iter()
                .filter(|(n, _)| engine::game::MATERIAL_FEATURES.contains(&n.as_str()))
                .map(|(_, v)| v)
                .collect()
        };
        let mut game = crate::run::openings::row_start::<G>(params, row)?;
        let mut out = Vec::new();
        for (ply, a) in row.actions.split_whitespace().enumerate() {
            let candidate = ply >= self.min_ply
                && matches!(game.turn(), Turn::Seat(_))
                && game.board().is_some_and(|b| !b.in_check());
            // Features and piece counts only where a position may be kept.
            let x = candidate.then(|| {
                (
                    texel::features(&units, game.board().expect("a board")),
                    material(&game),
                )
            });
            game = engine::game::replay(game, std::slice::from_ref(&a))
                .with_context(|| format!("replaying game {} at ply {}", row.index, ply + 1))?;
            if let Some((x, before)) = x {
                if material(&game) == before {
                    out.push((x, y));
                }
            }
        }
        Ok(out)
    }
}

impl VariantVisitor for Sampler<'_> {
    type Output = Result<Vec<Vec<Sample>>>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Self::Output {
        let start = G::new(&params);
        if start.board().is_none() || start.num_seats() != 2 {
            bail!("{name} has no single board between two seats, so there is no board evaluation to tune");
        }
        self.rows
            .par_iter()
            .map(|row| self.positions::<G>(&params, row))
            .collect()
    }
}

/// Reads the rows of every file, refusing rows of another variant.
pub fn load_rows(files: &[PathBuf], variant: &str) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for f in files {
        // The same games twice would weigh them twice; other runs may repeat a game
        // (deterministic agents from one opening), so only the same file is refused.
        let canonical = std::fs::canonicalize(f).unwrap_or_else(|_| f.clone());
        if !seen.insert(canonical) {
            bail!("{} is given twice", f.display());
        }
        let loaded = record::load(f)?;
        if let Some(other) = loaded.rows.iter().find(|r| r.variant != variant) {
            bail!(
                "{}: game {} is {}, not {variant}: give games of the variant asked for",
                f.display(),
                other.index,
                other.variant
            );
        }
        rows.extend(loaded.rows);
    }
    Ok(rows)
}

/// The starting weights: the file's, or the search's hand-set ones (agents/data/eval/chess.toml,
/// the start every committed fit was made from) when none is given.
pub fn start_weights(path: Option<&PathBuf>) -> Result<EvalWeights> {
    match path {
        None => Ok(search_weights().clone()),
        Some(p) => {
            let text =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            crate::util::from_toml(&text)
                .with_context(|| format!("{}: not eval weights", p.display()))
        }
    }
}

/// Samples the games and fits the weights (nothing written).
pub fn tune(args: &TexelArgs) -> Result<Tuned> {
    let start_w = start_weights(args.start.as_ref())?;
    let rows = load_rows(&args.from, &args.variant)?;
    if rows.len() < MIN_GAMES {
        bail!(
            "{} games is too few: Texel tuning needs at least {MIN_GAMES} games",
            rows.len()
        );
    }
    let per_game = registry::visit(
        &args.variant,
        None,
        Sampler {
            rows: &rows,
            min_ply: args.min_ply,
        },
    )
    .map_err(|e| anyhow!(e))
    .with_context(|| format!("variant {}", args.variant))??;
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, xs) in per_game.into_iter().enumerate() {
        if i % 5 == 4 { &mut test } else { &mut train }.extend(xs);
    }
    if train.is_empty() || test.is_empty() {
        bail!(
            "the games hold no quiet positions past ply {}",
            args.min_ply
        );
    }
    let start = texel::coefficients(&start_w);
    let k = texel::fit_k(&train, &start);
    let c = texel::fit(&train, &start, k, args.lambda);
    Ok(Tuned {
        games: rows.len(),
        train: train.len(),
        held_out: test.len(),
        k,
        train_loss: (texel::loss(&train, &start, k), texel::loss(&train, &c, k)),
        held_out_loss: (texel::loss(&test, &start, k), texel::loss(&test, &c, k)),
        weights: texel::weights(&c, &start_w),
        start: start_w,
    })
}

/// The weight names in the order the settings table gives them (`eval.knight` -> `knight`).
fn weight_fields() -> impl Iterator<Item = &'static str> {
    EVAL_SETTINGS
        .iter()
        .map(|f| f.key.strip_prefix("eval.").unwrap_or(f.key))
}

/// The tuned weights as the TOML `alphabeta:eval=FILE` reads, with how they were made.
pub fn toml_text(t: &Tuned, args: &TexelArgs) -> String {
    let files: Vec<String> = args.from.iter().map(|p| p.display().to_string()).collect();
    let mut text = format!(
        "# Evaluation weights (pawns) tuned by Texel's method (`chesslab texel`):\n\
         #   chesslab texel --variant {} --min-ply {} --lambda {} --out {} --from {}\n\
         # {} games, {} training and {} held-out quiet positions, k = {:.4} per pawn;\n\
         # held-out loss {:.5} -> {:.5}. Fields: those `alphabeta:eval=FILE` reads (docs/guide/agents.md).\n",
        args.variant,
        args.min_ply,
        args.lambda,
        args.out.display(),
        files.join(" "),
        t.games,
        t.train,
        t.held_out,
        t.k,
        t.held_out_loss.0,
        t.held_out_loss.1
    );
    for field in weight_fields() {
        let v = t.weights.get(field).expect("a field");
        text.push_str(&format!("{field} = {v:.4}\n"));
    }
    text
}

/// The whole command: fit, print, write.
pub fn run(args: &TexelArgs) -> Result<()> {
    let mut inputs: Vec<&std::path::Path> = args.from.iter().map(PathBuf::as_path).collect();
    inputs.extend(args.start.as_deref());
    crate::util::check_output(&args.out, &inputs, args.force, "--out")?;
    let t = tune(args)?;
    let mut out = format!(
        "{} games: {} training and {} held-out quiet positions; k = {:.4} per pawn\n\
         loss: training {:.5} -> {:.5}, held out {:.5} -> {:.5}\n",
        t.games,
        t.train,
        t.held_out,
        t.k,
        t.train_loss.0,
        t.train_loss.1,
        t.held_out_loss.0,
        t.held_out_loss.1
    );
    for field in weight_fields() {
        out.push_str(&format!(
            "{field:12} {:>8.4} -> {:>8.4}\n",
            t.start.get(field).expect("a field"),
            t.weights.get(field).expect("a field")
        ));
    }
    crate::util::write_stdout(format_args!("{out}"));
    if t.held_out_loss.1 > t.held_out_loss.0 {
        eprintln!(
            "warning: the held-out loss rose ({:.5} -> {:.5}): the fit overfits these games",
            t.held_out_loss.0, t.held_out_loss.1
        );
    }
    record::write_atomic(&args.out, toml_text(&t, args).as_bytes())
        .with_context(|| format!("writing {}", args.out.display()))?;
    crate::util::write_stdout(format_args!("wrote {}\n", args.out.display()));
    Ok(())
}
