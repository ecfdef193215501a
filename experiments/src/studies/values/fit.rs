//! L2-regularised logistic regression by Newton's method (IRLS) with an intercept.
//!
//! Outcomes are soft labels in [0, 1] (a draw is 0.5), so the loss is the cross-entropy
//! `-(y ln p + (1 - y) ln(1 - p))`. The dimension is small (a handful of features), so
//! each Newton step solves its linear system by Gaussian elimination with partial
//! pivoting; no crate is needed for that. The intercept is not penalised.
//!
//! Why not a crate (issue 24 asks for one unless a benchmark shows the hand-written
//! solver wins): `benches/benches/values.rs` fits the same 200,000 positions with this
//! solver and with `linfa-logistic` 0.8 (L-BFGS from `argmin` on `ndarray`), checks that
//! both reach the same weights, and times both (`cargo bench -p benches --bench values`).
//! Besides speed, linfa-logistic is a two-class classifier: it cannot take a draw's label
//! of 0.5, so with draws each position would have to be fed twice (once won, once lost),
//! doubling its work; Newton's method here needs a handful of passes over the data
//! because the system is only as large as the features (six or seven).

use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum FitError {
    #[error("no positions to fit")]
    Empty,
    #[error("rows have {found} features, expected {expected}")]
    Ragged { expected: usize, found: usize },
    #[error("the Newton system is singular (a feature is constant or duplicated; raise --l2)")]
    Singular,
    #[error("Newton's method did not converge in {0} steps")]
    NoConvergence(usize),
}

/// A fitted model: `p = sigmoid(intercept + weights · x)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub intercept: f64,
    pub weights: Vec<f64>,
}

impl Model {
    pub fn prob(&self, x: &[f64]) -> f64 {
        sigmoid(self.intercept + dot(&self.weights, x))
    }
}

pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Mean cross-entropy of `model` on the rows, with probabilities clamped away from 0
/// and 1 so one confident miss stays finite.
pub fn log_loss(model: &Model, xs: &[Vec<f64>], ys: &[f64]) -> f64 {
    let eps = 1e-12;
    let total: f64 = xs
        .iter()
        .zip(ys)
        .map(|(x, &y)| {
            let p = model.prob(x).clamp(eps, 1.0 - eps);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    total / xs.len().max(1) as f64
}

/// Fits weights and intercept minimising mean cross-entropy plus `l2 / 2 * |w|^2 / n`
/// (the penalty is per position so its strength does not change with the sample size).
pub fn fit(xs: &[Vec<f64>], ys: &[f64], l2: f64) -> Result<Model, FitError> {
    let n = xs.len();
    if n == 0 || ys.len() != n {
        return Err(FitError::Empty);
    }
    let d = xs[0].len();
    if let Some(bad) = xs.iter().find(|x| x.len() != d) {
        return Err(FitError::Ragged {
            expected: d,
            found: bad.len(),
        });
    }
    // Parameter vector: [intercept, w_1..w_d].
    let k = d + 1;
    let mut beta = vec![0.0; k];
    const MAX_STEPS: usize = 50;
    for _ in 0..MAX_STEPS {
        let mut grad = vec![0.0; k];
        let mut hess = vec![vec![0.0; k]; k];
        for (x, &y) in xs.iter().zip(ys) {
            let p = sigmoid(beta[0] + dot(&beta[1..], x));
            let r = p - y;
            let w = (p * (1.0 - p)).max(1e-12);
            for i in 0..k {
                let xi = if i == 0 { 1.0 } else { x[i - 1] };
                grad[i] += r * xi;
                for j in i..k {
                    let xj = if j == 0 { 1.0 } else { x[j - 1] };
                    hess[i][j] += w * xi * xj;
                }
            }
        }
        // Mirror the upper triangle into the lower one.
        for i in 1..k {
            let (upper, lower) = hess.split_at_mut(i);
            for (j, row) in upper.iter().enumerate() {
                lower[0][j] = row[i];
            }
        }
        for i in 1..k {
            grad[i] += l2 * beta[i];
            hess[i][i] += l2;
        }
        let step = solve(hess, grad).ok_or(FitError::Singular)?;
        let mut biggest: f64 = 0.0;
        for (b, s) in beta.iter_mut().zip(&step) {
            *b -= s;
            biggest = biggest.max(s.abs());
        }
        if biggest < 1e-10 {
            return Ok(Model {
                intercept: beta[0],
                weights: beta[1..].to_vec(),
            });
        }
    }
    Err(FitError::NoConvergence(MAX_STEPS))
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` if singular.
// Matrix code reads best with row and column indices.
#[allow(clippy::needless_range_loop)]
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[piv][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, piv);
        b.swap(col, piv);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            for c in col..n {
                a[row][c] -= f * a[col][c];
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Positions with random features and outcomes drawn from known weights: the fit
    /// recovers the weights within a few standard errors.
    #[test]
    fn rule_fit_recovers_known_weights() {
        let truth = [0.8, 2.4, -1.5];
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for _ in 0..40_000 {
            let x: Vec<f64> = (0..3).map(|_| rng.gen_range(-2i32..=2) as f64).collect();
            let p = sigmoid(0.3 + dot(&truth, &x));
            xs.push(x);
            ys.push(if rng.gen::<f64>() < p { 1.0 } else { 0.0 });
        }
        let m = fit(&xs, &ys, 1e-6).unwrap();
        for (w, t) in m.weights.iter().zip(truth) {
            assert!((w - t).abs() < 0.08, "{w} vs {t}");
        }
        assert!((m.intercept - 0.3).abs() < 0.08);
        // The fitted model beats the intercept-only model on its own data.
        let null = Model {
            intercept: m.intercept,
            weights: vec![0.0; 3],
        };
        assert!(log_loss(&m, &xs, &ys) < log_loss(&null, &xs, &ys));
    }

    #[test]
    fn rule_fit_rejects_constant_features_without_penalty() {
        let xs = vec![vec![1.0]; 10];
        let ys: Vec<f64> = (0..10).map(|i| (i % 2) as f64).collect();
        assert_eq!(fit(&xs, &ys, 0.0), Err(FitError::Singular));
        assert!(fit(&xs, &ys, 1.0).is_ok());
        assert_eq!(fit(&[], &[], 1.0), Err(FitError::Empty));
    }
}
