//! CMA-ES (Hansen's (μ/μ_w, λ) evolution strategy with cumulative step-size adaptation,
//! rank-one and rank-μ covariance updates; "The CMA Evolution Strategy: A Tutorial",
//! default constants), in normalised coordinates.
//!
//! Why not the `cmaes` crate: its state cannot be saved and restored (a tune run's
//! `--resume` must continue the same trajectory) and it pulls in nalgebra; the few
//! dozen lines of linear algebra needed here (a symmetric eigendecomposition by Jacobi
//! rotations) are written out instead. The state is plain vectors (serde), and the
//! samples of generation g come from a stream seeded by the master seed and g.
//! Points outside [0, 1] are clamped when played; the unclamped sample drives the
//! update (the usual "resampling-free" boundary handling).
//! Tests: `tune::cmaes::tests::cmaes_finds_the_minimum_of_a_noisy_quadratic`,
//! `tune::cmaes::tests::cmaes_solves_rosenbrock`.

// Vector arithmetic over several arrays at once reads best with indices.
#![allow(clippy::needless_range_loop)]

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Cmaes {
    pub mean: Vec<f64>,
    pub sigma: f64,
    /// Covariance, row-major n×n.
    pub cov: Vec<f64>,
    pub pc: Vec<f64>,
    pub ps: Vec<f64>,
    pub lambda: usize,
    pub generation: u64,
}

struct Consts {
    mu: usize,
    weights: Vec<f64>,
    mueff: f64,
    cc: f64,
    cs: f64,
    c1: f64,
    cmu: f64,
    damps: f64,
    chin: f64,
}

impl Cmaes {
    pub fn new(mean: Vec<f64>, sigma: f64, lambda: Option<usize>) -> Cmaes {
        let n = mean.len();
        let lambda = lambda.unwrap_or(4 + (3.0 * (n as f64).ln()).floor() as usize);
        let mut cov = vec![0.0; n * n];
        for i in 0..n {
            cov[i * n + i] = 1.0;
        }
        Cmaes {
            mean,
            sigma,
            cov,
            pc: vec![0.0; n],
            ps: vec![0.0; n],
            lambda: lambda.max(2),
            generation: 0,
        }
    }

    fn consts(&self) -> Consts {
        let n = self.mean.len() as f64;
        let mu = self.lambda / 2;
        let raw: Vec<f64> = (0..mu)
            .map(|i| ((self.lambda as f64 + 1.0) / 2.0).ln() - ((i + 1) as f64).ln())
            .collect();
        let sum: f64 = raw.iter().sum();
        let weights: Vec<f64> = raw.iter().map(|w| w / sum).collect();
        let mueff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let cc = (4.0 + mueff / n) / (n + 4.0 + 2.0 * mueff / n);
        let cs = (mueff + 2.0) / (n + mueff + 5.0);
        let c1 = 2.0 / ((n + 1.3).powi(2) + mueff);
        let cmu = (1.0 - c1).min(2.0 * (mueff - 2.0 + 1.0 / mueff) / ((n + 2.0).powi(2) + mueff));
        let damps = 1.0 + 2.0 * (((mueff - 1.0) / (n + 1.0)).sqrt() - 1.0).max(0.0) + cs;
        let chin = n.sqrt() * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n));
        Consts {
            mu,
            weights,
            mueff,
            cc,
            cs,
            c1,
            cmu,
            damps,
            chin,
        }
    }

    /// λ samples of the next generation; `normal` draws standard normal numbers.
    pub fn ask(&self, mut normal: impl FnMut() -> f64) -> Vec<Vec<f64>> {
        let n = self.mean.len();
        let (b, d) = eigen(&self.cov, n);
        (0..self.lambda)
            .map(|_| {
                let z: Vec<f64> = (0..n).map(|_| normal()).collect();
                (0..n)
                    .map(|i| {
                        self.mean[i]
                            + self.sigma
                                * (0..n)
                                    .map(|j| b[i * n + j] * d[j].sqrt() * z[j])
                                    .sum::<f64>()
                    })
                    .collect()
            })
            .collect()
    }

    /// Takes the samples of [`ask`](Self::ask) with their losses.
    pub fn tell(&mut self, samples: &[Vec<f64>], losses: &[f64]) {
        let n = self.mean.len();
        let k = self.consts();
        let mut order: Vec<usize> = (0..samples.len()).collect();
        order.sort_by(|&a, &b| losses[a].total_cmp(&losses[b]));
        let old = self.mean.clone();
        let mut mean = vec![0.0; n];
        for (w, &i) in k.weights.iter().zip(&order[..k.mu]) {
            for j in 0..n {
                mean[j] += w * samples[i][j];
            }
        }
        let (b, d) = eigen(&self.cov, n);
        // C^(-1/2) (m' - m) / σ
        let y: Vec<f64> = (0..n).map(|j| (mean[j] - old[j]) / self.sigma).collect();
        let bty: Vec<f64> = (0..n)
            .map(|j| (0..n).map(|i| b[i * n + j] * y[i]).sum::<f64>() / d[j].sqrt())
            .collect();
        let cinv_y: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| b[i * n + j] * bty[j]).sum())
            .collect();
        for j in 0..n {
            self.ps[j] =
                (1.0 - k.cs) * self.ps[j] + (k.cs * (2.0 - k.cs) * k.mueff).sqrt() * cinv_y[j];
        }
        let gen = (self.generation + 1) as f64;
        let ps_norm = self.ps.iter().map(|v| v * v).sum::<f64>().sqrt();
        let hsig = ps_norm / (1.0 - (1.0 - k.cs).powf(2.0 * gen)).sqrt() / k.chin
            < 1.4 + 2.0 / (n as f64 + 1.0);
        let hs = if hsig { 1.0 } else { 0.0 };
        for j in 0..n {
            self.pc[j] =
                (1.0 - k.cc) * self.pc[j] + hs * (k.cc * (2.0 - k.cc) * k.mueff).sqrt() * y[j];
        }
        let delta_h = (1.0 - hs) * k.cc * (2.0 - k.cc);
        for r in 0..n {
            for c in 0..n {
                let mut rank_mu = 0.0;
                for (w, &i) in k.weights.iter().zip(&order[..k.mu]) {
                    let yr = (samples[i][r] - old[r]) / self.sigma;
                    let yc = (samples[i][c] - old[c]) / self.sigma;
                    rank_mu += w * yr * yc;
                }
                self.cov[r * n + c] = (1.0 - k.c1 - k.cmu) * self.cov[r * n + c]
                    + k.c1 * (self.pc[r] * self.pc[c] + delta_h * self.cov[r * n + c])
                    + k.cmu * rank_mu;
            }
        }
        self.sigma *= ((k.cs / k.damps) * (ps_norm / k.chin - 1.0)).exp();
        self.mean = mean;
        self.generation += 1;
    }
}

/// A standard normal number (Box–Muller), so the lab needs no distribution crate.
pub fn normal(rng: &mut impl rand::Rng) -> f64 {
    let u: f64 = rng.gen::<f64>().max(1e-300);
    let v: f64 = rng.gen();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// Eigenvectors (columns of a row-major n×n matrix) and eigenvalues (floored at a tiny
/// positive number) of a symmetric matrix, by cyclic Jacobi rotations.
fn eigen(a: &[f64], n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut m = a.to_vec();
    // Symmetrise against rounding drift.
    for r in 0..n {
        for c in 0..r {
            let v = 0.5 * (m[r * n + c] + m[c * n + r]);
            m[r * n + c] = v;
            m[c * n + r] = v;
        }
    }
    let mut v = vec![0.0; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    for _sweep in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|r| (0..n).filter(move |&c| c != r).map(move |c| (r, c)))
            .map(|(r, c)| m[r * n + c].powi(2))
            .sum();
        if off < 1e-30 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = m[p * n + q];
                if apq.abs() < 1e-300 {
                    continue;
                }
                let theta = (m[q * n + q] - m[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let mkp = m[k * n + p];
                    let mkq = m[k * n + q];
                    m[k * n + p] = c * mkp - s * mkq;
                    m[k * n + q] = s * mkp + c * mkq;
                }
                for k in 0..n {
                    let mpk = m[p * n + k];
                    let mqk = m[q * n + k];
                    m[p * n + k] = c * mpk - s * mqk;
                    m[q * n + k] = s * mpk + c * mqk;
                }
                for k in 0..n {
                    let vkp = v[k * n + p];
                    let vkq = v[k * n + q];
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    let d = (0..n).map(|i| m[i * n + i].max(1e-20)).collect();
    (v, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    fn minimise(f: impl Fn(&[f64], &mut Pcg64) -> f64, x0: Vec<f64>, gens: usize) -> Vec<f64> {
        let mut es = Cmaes::new(x0, 0.3, None);
        let mut rng = Pcg64::seed_from_u64(3);
        for _ in 0..gens {
            let xs = es.ask(|| normal(&mut rng));
            let ls: Vec<f64> = xs.iter().map(|x| f(x, &mut rng)).collect();
            es.tell(&xs, &ls);
        }
        es.mean
    }

    #[test]
    fn eigen_recovers_a_known_decomposition() {
        let a = [2.0, 1.0, 1.0, 2.0];
        let (_, mut d) = eigen(&a, 2);
        d.sort_by(f64::total_cmp);
        assert!(
            (d[0] - 1.0).abs() < 1e-12 && (d[1] - 3.0).abs() < 1e-12,
            "{d:?}"
        );
    }

    /// Noisy quadratic (noise sd 0.001), minimum at (0.3, 0.7, 0.55, 0.2): within 0.03.
    #[test]
    fn cmaes_finds_the_minimum_of_a_noisy_quadratic() {
        let opt = [0.3, 0.7, 0.55, 0.2];
        let f = |x: &[f64], rng: &mut Pcg64| {
            x.iter()
                .zip(&opt)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>()
                + 0.001 * normal(rng)
        };
        let m = minimise(f, vec![0.9, 0.1, 0.2, 0.8], 300);
        for (a, b) in m.iter().zip(&opt) {
            assert!((a - b).abs() < 0.03, "{m:?}");
        }
    }

    /// Rosenbrock in 4 dimensions, minimum at (1, 1, 1, 1): within 1e-3.
    #[test]
    fn cmaes_solves_rosenbrock() {
        let f = |x: &[f64], _: &mut Pcg64| {
            x.windows(2)
                .map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2))
                .sum::<f64>()
        };
        let m = minimise(f, vec![0.0; 4], 1500);
        for v in &m {
            assert!((v - 1.0).abs() < 1e-3, "{m:?}");
        }
    }
}
