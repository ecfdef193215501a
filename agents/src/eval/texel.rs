//! Texel's method for the evaluation weights: positions from games labelled with the
//! game's result (1, 0.5, 0 for White), and the weights that minimise the logistic loss
//! of the result given the evaluation, `sigmoid(k * eval)`.
//!
//! The evaluation is linear in its weights once the piece-square scale is split from
//! its endgame blend, so each position becomes a feature vector ([`features`]: the
//! board's score, from White's side in pawns, with one weight at 1 and the rest at 0)
//! and the fit is a logistic regression without intercept, solved by Newton's method
//! ([`fit`]). Decisions: `k` is first fitted with the starting weights and then held,
//! which keeps the weights in pawns (Texel's own choice); a small ridge toward the
//! starting weights keeps rarely seen terms near their start; `taper` is the endgame
//! coefficient divided by the piece-square one. Run by `chesslab texel` on recorded games
//! (experiments/src/studies/texel.rs).
//! Tests: `rule_texel_*` below.

use super::{EvalWeights, Evaluator};
use engine::{Board, Color};

/// The weights in the order of the feature vector; `taper` stands for the endgame
/// table's difference at piece-square scale 1.
pub const FIELDS: [&str; 15] = [
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "pst",
    "taper",
    "mobility",
    "bishop_pair",
    "doubled",
    "isolated",
    "passed",
    "passed_eg",
    "king_shield",
    "rook_open",
];
pub const N: usize = FIELDS.len();

/// The unit evaluators, one per field.
pub fn unit_evaluators() -> Vec<Evaluator> {
    FIELDS
        .iter()
        .map(|f| {
            let mut w = zero_weights();
            match *f {
                "taper" => {
                    w.pst = 1.0;
                    w.taper = 1.0;
                }
                _ => {
                    w.set(f, 1.0);
                }
            }
            Evaluator::new(w)
        })
        .collect()
}

fn zero_weights() -> EvalWeights {
    let mut w = EvalWeights::default();
    for f in FIELDS {
        w.set(f, 0.0);
    }
    w
}

/// The feature vector of `board` (pawns, White's side).
pub fn features(units: &[Evaluator], board: &Board) -> [f64; N] {
    let mut x = [0.0; N];
    let pst_only = &units[5];
    for (i, e) in units.iter().enumerate() {
        x[i] = e.board_score(board, Color::White) as f64 / 100.0;
    }
    // The taper unit scores the tapered tables; its feature is the difference from the
    // middle-game ones.
    x[6] -= pst_only.board_score(board, Color::White) as f64 / 100.0;
    x
}

/// The coefficient vector of `w`.
pub fn coefficients(w: &EvalWeights) -> [f64; N] {
    let mut c = [0.0; N];
    for (i, f) in FIELDS.iter().enumerate() {
        c[i] = match *f {
            "taper" => w.pst * w.taper,
            _ => w.get(f).expect("a field"),
        };
    }
    c
}

/// The weights of a coefficient vector (fields outside [`FIELDS`] from `base`).
pub fn weights(c: &[f64; N], base: &EvalWeights) -> EvalWeights {
    let mut w = base.clone();
    for (i, f) in FIELDS.iter().enumerate() {
        if *f != "taper" {
            w.set(f, c[i]);
        }
    }
    w.taper = if c[5].abs() > 1e-9 { c[6] / c[5] } else { 0.0 };
    w
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn dot(a: &[f64; N], b: &[f64; N]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Mean logistic loss of `results` given scores `k * (c . x)`.
pub fn loss(samples: &[([f64; N], f64)], c: &[f64; N], k: f64) -> f64 {
    let mut total = 0.0;
    for (x, y) in samples {
        let p = sigmoid(k * dot(c, x)).clamp(1e-12, 1.0 - 1e-12);
        total -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    total / samples.len().max(1) as f64
}

/// The scale `k` that best fits `c` (golden-section search over (0.01, 10) per pawn).
pub fn fit_k(samples: &[([f64; N], f64)], c: &[f64; N]) -> f64 {
    let (mut a, mut b) = (0.01f64.ln(), 10f64.ln());
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let m1 = b - r * (b - a);
        let m2 = a + r * (b - a);
        if loss(samples, c, m1.exp()) < loss(samples, c, m2.exp()) {
            b = m2;
        } else {
            a = m1;
        }
    }
    ((a + b) / 2.0).exp()
}

#[allow(clippy::needless_range_loop)]
/// Newton's method on the logistic loss at fixed `k`, with ridge `lambda` (per sample)
/// toward `start`. Returns the coefficients.
pub fn fit(samples: &[([f64; N], f64)], start: &[f64; N], k: f64, lambda: f64) -> [f64; N] {
    let n = samples.len().max(1) as f64;
    let mut c = *start;
    for _ in 0..30 {
        let mut g = [0.0; N];
        let mut h = [[0.0; N]; N];
        for (x, y) in samples {
            let p = sigmoid(k * dot(&c, x));
            let w = p * (1.0 - p) * k * k;
            for i in 0..N {
                g[i] += (p - y) * k * x[i];
                for j in 0..N {
                    h[i][j] += w * x[i] * x[j];
                }
            }
        }
        for i in 0..N {
            g[i] = g[i] / n + lambda * (c[i] - start[i]);
            for j in 0..N {
                h[i][j] /= n;
            }
            h[i][i] += lambda + 1e-9;
        }
        let step = solve(h, g);
        let mut moved = 0.0f64;
        for i in 0..N {
            c[i] -= step[i];
            moved = moved.max(step[i].abs());
        }
        if moved < 1e-7 {
            break;
        }
    }
    c
}

#[allow(clippy::needless_range_loop)]
/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: [[f64; N]; N], mut b: [f64; N]) -> [f64; N] {
    for col in 0..N {
        let piv = (col..N)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .expect("rows");
        a.swap(col, piv);
        b.swap(col, piv);
        let d = a[col][col];
        if d.abs() < 1e-15 {
            continue;
        }
        for r in 0..N {
            if r != col {
                let f = a[r][col] / d;
                if f != 0.0 {
                    for k in col..N {
                        a[r][k] -= f * a[col][k];
                    }
                    b[r] -= f * b[col];
                }
            }
        }
    }
    let mut x = [0.0; N];
    for i in 0..N {
        x[i] = if a[i][i].abs() < 1e-15 {
            0.0
        } else {
            b[i] / a[i][i]
        };
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    #[test]
    fn rule_texel_features_reproduce_the_evaluation() {
        let w = crate::eval::search_weights().clone();
        let e = Evaluator::new(w.clone());
        let units = unit_evaluators();
        let c = coefficients(&w);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let b = Board::from_fen(fen).unwrap();
            let direct = e.board_score(&b, Color::White) as f64 / 100.0;
            let linear = dot(&c, &features(&units, &b));
            // Rounding to centipawns per table entry and per term.
            assert!(
                (direct - linear).abs() < 0.15,
                "{fen}: {direct} vs {linear}"
            );
        }
        let back = weights(&c, &w);
        assert!((back.taper - w.taper).abs() < 1e-9 && back.knight == w.knight);
    }

    #[test]
    fn rule_texel_fit_recovers_known_weights() {
        // Results drawn from a known logistic model: the fit finds its coefficients.
        let mut rng = Pcg64::seed_from_u64(7);
        let mut truth = [0.0; N];
        truth[0] = 1.0;
        truth[3] = 5.0;
        truth[7] = 0.05;
        let k = 1.2;
        let samples: Vec<([f64; N], f64)> = (0..20_000)
            .map(|_| {
                let mut x = [0.0; N];
                x[0] = rng.gen_range(-3..=3) as f64;
                x[3] = rng.gen_range(-1..=1) as f64;
                x[7] = rng.gen_range(-20..=20) as f64;
                let p = sigmoid(k * dot(&truth, &x));
                (x, if rng.gen::<f64>() < p { 1.0 } else { 0.0 })
            })
            .collect();
        let c = fit(&samples, &[0.0; N], k, 1e-6);
        assert!((c[0] - 1.0).abs() < 0.1, "{c:?}");
        assert!((c[3] - 5.0).abs() < 0.4, "{c:?}");
        assert!((c[7] - 0.05).abs() < 0.01, "{c:?}");
        assert!(loss(&samples, &c, k) <= loss(&samples, &truth, k) + 1e-9);
        assert!((fit_k(&samples, &truth) - k).abs() < 0.1);
    }
}
