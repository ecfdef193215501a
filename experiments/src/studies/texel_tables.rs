//! `chesslab texel-tables`: the search's piece-square tables fitted, all 768 bonuses, to a
//! teacher engine's scores of quiet orthodox positions (issue 36, "piece-square tables
//! ... tuned"; the fit is [`agents::eval::shape_fit`]).
//!
//! Input: a CSV of `fen,teacher_cp,result,game` rows (`scripts/label-positions.py` writes
//! one from recorded games, scored by Stockfish at a fixed depth through python-chess).
//! Each position's target is `(1 - mix) * sigmoid(k * teacher_cp) + mix * result`, with
//! `k = ln(10) / 400` per centipawn: the teacher's score read as an expected score on the
//! Elo scale, so a fitted evaluation means the same by a centipawn as the teacher's; the
//! game's result (Texel's own label) can be mixed in. Material and the positional terms
//! are held at the starting weights'; only the tables move.
//!
//! Decisions where the issue is silent: a fifth of the games (by a hash of the `game`
//! column, so a game's positions stay together) is held out and the loss there reported
//! before and after, as `texel` does; the written file is the starting weights with
//! `pst = 1`, `taper = 1` and the fitted `[tables]`, so `alphabeta:eval=FILE` plays
//! exactly the fitted bonuses; a row that does not parse is refused naming its line
//! (nothing is written). Tests: `experiments/tests/texel.rs` (`texel_tables_*`).

use std::path::PathBuf;

use agents::eval::shape_fit::{self, ShapeSample};
use agents::eval::{EvalWeights, Evaluator};
use anyhow::{bail, Context, Result};
use clap::Args;
use engine::Board;

/// Fewest positions the fit accepts (768 bonuses need many more than that).
pub const MIN_POSITIONS: usize = 1000;

/// The teacher's scores the RMS distance reads: beyond, a mate or a won game, where
/// centipawns no longer measure anything the evaluation could match.
pub const RMS_RANGE: f64 = 1000.0;

/// The logistic scale of the targets and the fit: ln(10)/400 per centipawn.
pub const K: f64 = std::f64::consts::LN_10 / 400.0;

#[derive(Args, Debug, Clone)]
pub struct TexelTablesArgs {
    /// The scored positions (CSV: fen,teacher_cp,result,game; scripts/label-positions.py).
    #[arg(long)]
    pub positions: PathBuf,
    /// Starting weights (TOML, as `alphabeta:eval=FILE` reads); default the search's own.
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Where to write the fitted weights (TOML with `[tables]`; an existing file is
    /// replaced only with --force).
    #[arg(long)]
    pub out: PathBuf,
    /// Replace an existing --out file.
    #[arg(long)]
    pub force: bool,
    /// Weight of the game's result in each target (0: the teacher's score alone).
    #[arg(long, value_parser = |t: &str| crate::util::finite_in(t, 0.0, 1.0), default_value_t = 0.0)]
    pub mix: f64,
    /// Ridge penalty toward the starting bonuses (per pawn squared).
    #[arg(long, value_parser = crate::util::gain, default_value_t = 1e-4)]
    pub lambda: f64,
    /// Newton steps.
    #[arg(long, value_parser = crate::util::positive_usize, default_value_t = 6)]
    pub steps: usize,
}

/// What the fit found.
pub struct FittedTables {
    pub train: usize,
    pub held_out: usize,
    pub train_loss: (f64, f64),
    pub held_out_loss: (f64, f64),
    /// Root mean square of (evaluation - teacher) on the held-out positions the teacher
    /// scores within [`RMS_RANGE`], before and after (centipawns).
    pub held_out_rms: (f64, f64),
    pub weights: EvalWeights,
}

struct Row {
    board: Board,
    teacher: f64,
    result: f64,
    held_out: bool,
}

fn read_rows(path: &PathBuf) -> Result<Vec<Row>> {
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    let headers = reader
        .headers()
        .with_context(|| format!("{}: no header", path.display()))?
        .clone();
    let want = ["fen", "teacher_cp", "result", "game"];
    if headers.iter().take(4).collect::<Vec<_>>() != want {
        bail!(
            "{}: the header is {:?}; expected fen,teacher_cp,result,game (scripts/label-positions.py)",
            path.display(),
            headers.iter().collect::<Vec<_>>()
        );
    }
    let mut rows = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let line = i + 2;
        let rec = rec.with_context(|| format!("{}: line {line}", path.display()))?;
        let field = |n: usize| rec.get(n).unwrap_or("");
        let board = Board::from_fen(field(0))
            .map_err(|e| anyhow::anyhow!("{}: line {line}: bad FEN: {e}", path.display()))?;
        let number = |n: usize, what: &str| -> Result<f64> {
            field(n)
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .with_context(|| {
                    format!(
                        "{}: line {line}: {what} '{}' is not a number",
                        path.display(),
                        field(n)
                    )
                })
        };
        let teacher = number(1, "teacher_cp")?;
        let result = number(2, "result")?;
        if !(0.0..=1.0).contains(&result) {
            bail!(
                "{}: line {line}: result {result} is not White's score (0 to 1)",
                path.display()
            );
        }
        let held_out = crate::util::fnv1a64(field(3).as_bytes()) % 5 == 4;
        rows.push(Row {
            board,
            teacher,
            result,
            held_out,
        });
    }
    Ok(rows)
}

/// Reads, fits and returns the fitted weights (nothing written).
pub fn fit(args: &TexelTablesArgs) -> Result<FittedTables> {
    let base = super::texel::start_weights(args.start.as_ref())?;
    let start_w = shape_fit::with_shapes(&base, shape_fit::effective_shapes(&base));
    let start = shape_fit::params(start_w.tables.as_ref().expect("shapes set"));
    let eval = Evaluator::new(start_w.clone());
    let rows = read_rows(&args.positions)?;
    if rows.len() < MIN_POSITIONS {
        bail!(
            "{}: {} positions is too few: fitting 768 bonuses needs at least {MIN_POSITIONS}",
            args.positions.display(),
            rows.len()
        );
    }
    // Each sample with its teacher's score (for the RMS distance).
    type Scored = Vec<(ShapeSample, f64)>;
    let (mut train, mut test): (Scored, Scored) = (Vec::new(), Vec::new());
    for r in &rows {
        let y = (1.0 - args.mix) * shape_fit::sigmoid(K * r.teacher) + args.mix * r.result;
        let s = shape_fit::sample(&eval, &start, &r.board, y);
        if r.held_out { &mut test } else { &mut train }.push((s, r.teacher));
    }
    if train.is_empty() || test.is_empty() {
        bail!(
            "{}: every position falls on one side of the held-out split",
            args.positions.display()
        );
    }
    let train_s: Vec<ShapeSample> = train.iter().map(|(s, _)| s.clone()).collect();
    let test_s: Vec<ShapeSample> = test.iter().map(|(s, _)| s.clone()).collect();
    let p = shape_fit::fit(&train_s, &start, K, args.lambda, args.steps);
    let fitted = shape_fit::shapes(&p);
    let rounded = shape_fit::params(&fitted);
    let rms = |q: &[f64]| -> f64 {
        let near: Vec<&(ShapeSample, f64)> =
            test.iter().filter(|(_, t)| t.abs() <= RMS_RANGE).collect();
        let sq: f64 = near
            .iter()
            .map(|(s, t)| {
                let e = shape_fit::score(s, q);
                (e - t) * (e - t)
            })
            .sum();
        (sq / near.len().max(1) as f64).sqrt()
    };
    Ok(FittedTables {
        train: train_s.len(),
        held_out: test_s.len(),
        train_loss: (
            shape_fit::loss(&train_s, &start, K),
            shape_fit::loss(&train_s, &rounded, K),
        ),
        held_out_loss: (
            shape_fit::loss(&test_s, &start, K),
            shape_fit::loss(&test_s, &rounded, K),
        ),
        held_out_rms: (rms(&start), rms(&rounded)),
        weights: shape_fit::with_shapes(&base, fitted),
    })
}

/// The fitted weights as the TOML `alphabeta:eval=FILE` reads, with how they were made.
pub fn toml_text(f: &FittedTables, args: &TexelTablesArgs) -> String {
    let mut text = format!(
        "# Evaluation weights with piece-square tables fitted to a teacher's scores\n\
         # (`chesslab texel-tables`):\n\
         #   chesslab texel-tables --positions {} --mix {} --lambda {} --steps {} --out {}\n\
         # {} training and {} held-out positions; held-out loss {:.5} -> {:.5}, held-out\n\
         # RMS distance to the teacher (within +/-1000) {:.0} -> {:.0} centipawns. Fields: those `alphabeta:eval=FILE` reads (docs/guide/agents.md);\n\
         # tables: six rows (pawn, knight, bishop, rook, queen, king) of 64 bonuses, a1 first.\n",
        args.positions.display(),
        args.mix,
        args.lambda,
        args.steps,
        args.out.display(),
        f.train,
        f.held_out,
        f.held_out_loss.0,
        f.held_out_loss.1,
        f.held_out_rms.0,
        f.held_out_rms.1,
    );
    for s in agents::eval::EVAL_SETTINGS {
        let field = s.key.strip_prefix("eval.").unwrap_or(s.key);
        let v = f.weights.get(field).expect("a field");
        text.push_str(&format!("{field} = {v:.4}\n"));
    }
    let t = f.weights.tables.as_ref().expect("fitted tables");
    text.push_str("\n[tables]\n");
    for (name, table) in [("mg", &t.mg), ("eg", &t.eg)] {
        text.push_str(&format!("{name} = [\n"));
        for (row, role) in table
            .iter()
            .zip(["pawn", "knight", "bishop", "rook", "queen", "king"])
        {
            let cells: Vec<String> = row.iter().map(|v| v.to_string()).collect();
            text.push_str(&format!("  [{}], # {role}\n", cells.join(", ")));
        }
        text.push_str("]\n");
    }
    text
}

/// The whole command: fit, print, write.
pub fn run(args: &TexelTablesArgs) -> Result<()> {
    let mut inputs = vec![args.positions.as_path()];
    inputs.extend(args.start.as_deref());
    crate::util::check_output(&args.out, &inputs, args.force, "--out")?;
    let f = fit(args)?;
    crate::util::write_stdout(format_args!(
        "{} training and {} held-out positions\n\
         loss: training {:.5} -> {:.5}, held out {:.5} -> {:.5}\n\
         held-out RMS distance to the teacher (positions it scores within +/-{RMS_RANGE}): {:.1} -> {:.1} centipawns\n",
        f.train,
        f.held_out,
        f.train_loss.0,
        f.train_loss.1,
        f.held_out_loss.0,
        f.held_out_loss.1,
        f.held_out_rms.0,
        f.held_out_rms.1
    ));
    if f.held_out_loss.1 > f.held_out_loss.0 {
        eprintln!(
            "warning: the held-out loss rose ({:.5} -> {:.5}): the fit overfits these positions",
            f.held_out_loss.0, f.held_out_loss.1
        );
    }
    crate::record::write_atomic(&args.out, toml_text(&f, args).as_bytes())
        .with_context(|| format!("writing {}", args.out.display()))?;
    crate::util::write_stdout(format_args!("wrote {}\n", args.out.display()));
    Ok(())
}
