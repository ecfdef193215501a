//! Texel's method for the piece-square tables themselves (issue 36, "piece-square tables
//! ... tuned"): all 768 bonuses (six roles, 64 squares, middle game and endgame) fitted
//! at once, where [`super::texel`] fits fifteen scalar weights.
//!
//! The evaluation is linear in the bonuses: a piece of role `r` on square `s` (seen from
//! its own side) adds `mg[r][s] * phase / 24 + eg[r][s] * (24 - phase) / 24` for its
//! colour, and everything else (material, mobility, pawn terms) is an offset the fit holds
//! ([`sample`]). Each position becomes a sparse row of at most 64 coefficients; the loss
//! is the mean logistic loss of a target probability given `sigmoid(k * score)`, with a
//! ridge toward the starting bonuses, minimised by Newton's method on the dense 768 x 768
//! Hessian (a Cholesky solve a step). Decisions: the target is whatever the caller gives
//! (`chesslab texel-tables`: a teacher engine's score through the same sigmoid,
//! optionally mixed with the game's result); bonuses no position exercises (pawns on the
//! first and last ranks) stay at their start through the ridge; the written tables carry
//! `pst = 1` and `taper = 1`, so the file's bonuses are the ones played.
//! Tests: `rule_shape_fit_*` below.

use super::tables::{Shapes, PHASE_MAX, SHAPE_LIMIT};
use super::{EvalWeights, Evaluator};
use engine::{Board, Color, Role};

/// Bonuses fitted: middle game then endgame, role-major, 64 squares each.
pub const PARAMS: usize = 2 * 6 * 64;

/// One position: the sparse coefficients of the bonuses in White's score (centipawns per
/// centipawn), the rest of the score, and the target probability that White wins.
#[derive(Clone, Debug)]
pub struct ShapeSample {
    pub coef: Vec<(u16, f32)>,
    pub offset: f64,
    pub y: f64,
}

/// The bonuses `w` plays with (its shapes or the compiled ones, scaled by `pst` and
/// blended by `taper`), as explicit tables.
pub fn effective_shapes(w: &EvalWeights) -> Shapes {
    let mut s = Shapes {
        mg: [[0; 64]; 6],
        eg: [[0; 64]; 6],
    };
    for r in 0..6 {
        for sq in 0..64 {
            (s.mg[r][sq], s.eg[r][sq]) = w.bonuses(r, sq);
        }
    }
    s
}

/// `w` playing the explicit tables `s` (`pst = 1`, `taper = 1`).
pub fn with_shapes(w: &EvalWeights, s: Shapes) -> EvalWeights {
    let mut out = w.clone();
    out.pst = 1.0;
    out.taper = 1.0;
    out.tables = Some(Box::new(s));
    out
}

/// The bonuses as a parameter vector.
pub fn params(s: &Shapes) -> Vec<f64> {
    let mut p = Vec::with_capacity(PARAMS);
    for t in [&s.mg, &s.eg] {
        for row in t.iter() {
            p.extend(row.iter().map(|&v| v as f64));
        }
    }
    p
}

/// A parameter vector as tables (rounded, within [`SHAPE_LIMIT`]).
pub fn shapes(p: &[f64]) -> Shapes {
    let mut s = Shapes {
        mg: [[0; 64]; 6],
        eg: [[0; 64]; 6],
    };
    for (i, &v) in p.iter().enumerate().take(PARAMS) {
        let v = (v.round() as i32).clamp(-SHAPE_LIMIT, SHAPE_LIMIT);
        let (half, r, sq) = (i / 384, (i % 384) / 64, i % 64);
        if half == 0 {
            s.mg[r][sq] = v;
        } else {
            s.eg[r][sq] = v;
        }
    }
    s
}

/// The sample of `board` under `eval` (which must play the tables `start`, e.g. built by
/// [`with_shapes`]), with target `y`.
pub fn sample(eval: &Evaluator, start: &[f64], board: &Board, y: f64) -> ShapeSample {
    let phase = super::phase_of(board).min(PHASE_MAX);
    let wm = phase as f64 / PHASE_MAX as f64;
    let mut dense = std::collections::BTreeMap::<u16, f64>::new();
    for c in [Color::White, Color::Black] {
        let sign = if c == Color::White { 1.0 } else { -1.0 };
        for role in Role::ALL {
            for sq in board.pieces(c, role) {
                let i = role.index() * 64 + sq.relative(c).index();
                *dense.entry(i as u16).or_default() += sign * wm;
                *dense.entry((384 + i) as u16).or_default() += sign * (1.0 - wm);
            }
        }
    }
    let coef: Vec<(u16, f32)> = dense
        .into_iter()
        .filter(|(_, v)| v.abs() > 1e-9)
        .map(|(i, v)| (i, v as f32))
        .collect();
    let linear: f64 = coef
        .iter()
        .map(|&(i, v)| v as f64 * start[i as usize])
        .sum();
    let score = eval.board_score(board, Color::White) as f64;
    ShapeSample {
        coef,
        offset: score - linear,
        y,
    }
}

/// The logistic function.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// White's score of a sample under the bonuses `p` (centipawns).
pub fn score(s: &ShapeSample, p: &[f64]) -> f64 {
    s.offset
        + s.coef
            .iter()
            .map(|&(i, v)| v as f64 * p[i as usize])
            .sum::<f64>()
}

/// Mean logistic loss of the targets given `sigmoid(k * score)` (`k` per centipawn).
pub fn loss(samples: &[ShapeSample], p: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let q = sigmoid(k * score(s, p)).clamp(1e-12, 1.0 - 1e-12);
            -(s.y * q.ln() + (1.0 - s.y) * (1.0 - q).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Newton's method on [`loss`] plus `lambda * |p - start|^2` (bonuses in pawns), for
/// `steps` steps (each a full Hessian and a Cholesky solve).
pub fn fit(samples: &[ShapeSample], start: &[f64], k: f64, lambda: f64, steps: usize) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    let mut p = start.to_vec();
    for _ in 0..steps {
        // Gradient and Hessian in pawns (centipawns / 100) for a well-scaled system.
        let kp = k * 100.0;
        let mut g = vec![0.0; PARAMS];
        let mut h = vec![0.0; PARAMS * PARAMS];
        for s in samples {
            let q = sigmoid(k * score(s, &p));
            let d = (q - s.y) * kp;
            let c = q * (1.0 - q) * kp * kp;
            for &(i, vi) in &s.coef {
                let (i, vi) = (i as usize, vi as f64);
                g[i] += d * vi;
                let row = &mut h[i * PARAMS..(i + 1) * PARAMS];
                for &(j, vj) in &s.coef {
                    row[j as usize] += c * vi * vj as f64;
                }
            }
        }
        for i in 0..PARAMS {
            g[i] = g[i] / n + 2.0 * lambda * (p[i] - start[i]) / 100.0;
            for j in 0..PARAMS {
                h[i * PARAMS + j] /= n;
            }
            h[i * PARAMS + i] += 2.0 * lambda;
        }
        let step = cholesky_solve(&mut h, &g, PARAMS);
        for i in 0..PARAMS {
            p[i] -= 100.0 * step[i];
        }
    }
    p
}

/// Solves `a x = b` for a symmetric positive definite `a` (overwritten by its factor).
fn cholesky_solve(a: &mut [f64], b: &[f64], n: usize) -> Vec<f64> {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        let d = d.max(1e-12).sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * n + k] * y[k];
        }
        y[i] = s / a[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let mut s = y[i];
        for k in i + 1..n {
            s -= a[k * n + i] * x[k];
        }
        x[i] = s / a[i * n + i];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::search_weights;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    #[test]
    fn rule_shape_fit_explicit_tables_play_as_the_compiled_ones() {
        let w = search_weights();
        let explicit = Evaluator::new(with_shapes(w, effective_shapes(w)));
        let compiled = Evaluator::new(w.clone());
        for fen in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
        ] {
            let b = board(fen);
            for c in [Color::White, Color::Black] {
                assert!((explicit.board_score(&b, c) - compiled.board_score(&b, c)).abs() <= 1);
            }
        }
    }

    #[test]
    fn rule_shape_fit_sample_reproduces_the_score_and_the_fit_learns_a_square() {
        let w = with_shapes(search_weights(), effective_shapes(search_weights()));
        let eval = Evaluator::new(w.clone());
        let start = params(w.tables.as_ref().unwrap());
        // Positions where only a white knight's square differs; a teacher that likes the
        // knight on e5 by 150 centipawns more than the start does.
        let e5 = 64 + 36; // knight role, e5 from White's side
        let mut samples = Vec::new();
        for (fen, knight_on_e5) in [
            ("4k3/8/8/4N3/8/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", false),
            ("4k3/pp6/8/4N3/8/8/PP6/4K3 b - - 0 1", true),
            ("4k3/pp6/8/8/8/8/PP6/N3K3 b - - 0 1", false),
        ] {
            let b = board(fen);
            let s = sample(&eval, &start, &b, 0.5);
            assert!((score(&s, &start) - eval.board_score(&b, Color::White) as f64).abs() < 1e-6);
            let k = 0.005;
            let target = score(&s, &start) + if knight_on_e5 { 150.0 } else { 0.0 };
            samples.push(ShapeSample {
                y: sigmoid(k * target),
                ..s
            });
        }
        let p = fit(&samples, &start, 0.005, 1e-9, 8);
        let gained = (p[e5] - start[e5]) + (p[384 + e5] - start[384 + e5]);
        assert!(gained > 100.0, "e5 bonuses moved by {gained}");
        assert!(loss(&samples, &p, 0.005) < loss(&samples, &start, 0.005));
        // A square no position shows keeps its start.
        assert!((p[64 + 7] - start[64 + 7]).abs() < 1e-6);
    }
}
