//! SPSA (simultaneous perturbation stochastic approximation) with the fishtest/OpenBench
//! schedule, in normalised coordinates (each parameter's bounds mapped to [0, 1]).
//!
//! Iteration k = 1, 2, ... of N: `c_k = c / k^γ`, `a_k = a / (A + k)^α`, with α = 0.602,
//! γ = 0.101, `A = N / 10` by default (fishtest's default) and `c = c_end · N^γ`, so the
//! last perturbation is `c_end` (fishtest's per-parameter `c_end`). The gain `a` is the
//! caller's (`--spsa-a`): fishtest derives it from `r_end · c_end²` for Elo-scaled
//! objectives, which does not carry over to a loss of arbitrary scale. A Rademacher vector Δ (±1 per parameter) perturbs θ to
//! θ ± c_k·Δ; both sides play the same game seeds (common random numbers), and
//! `θ ← θ − a_k · (L⁺ − L⁻) / (2 c_k Δ)` (we minimise a loss), kept inside [0, 1].
//!
//! Integers (decision: stochastic rounding, one of the two rules the issue allows): the
//! perturbed raw values are rounded stochastically with one uniform `u` per parameter
//! shared by both sides (`floor(x + u)`), so the pair differs only by the perturbation
//! and rounding is unbiased on average. Randomness for Δ and `u` comes from a stream
//! seeded by the master seed and k, so a resumed run draws the same numbers.
//! Tests: `tune::spsa::tests::spsa_finds_the_minimum_of_a_noisy_quadratic`,
//! `tune::spsa::tests::spsa_follows_rosenbrock_valley`.

// Vector arithmetic over several arrays at once reads best with indices.
#![allow(clippy::needless_range_loop)]

use serde::{Deserialize, Serialize};

pub const ALPHA: f64 = 0.602;
pub const GAMMA: f64 = 0.101;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Spsa {
    pub theta: Vec<f64>,
    pub a: f64,
    pub c: f64,
    pub big_a: f64,
    /// Iterations done.
    pub k: u64,
}

/// The two points of one iteration (normalised) and the perturbation.
pub struct Probe {
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    pub delta: Vec<f64>,
    pub ck: f64,
}

impl Spsa {
    /// `theta0` normalised; `iterations` N; `c_end` the last perturbation (normalised);
    /// `a0` the first step's gain.
    pub fn new(theta0: Vec<f64>, iterations: u64, c_end: f64, a: f64, big_a: Option<f64>) -> Spsa {
        let n = iterations.max(1) as f64;
        Spsa {
            theta: theta0,
            a,
            c: c_end * n.powf(GAMMA),
            big_a: big_a.unwrap_or(n / 10.0),
            k: 0,
        }
    }

    /// The perturbation of the next iteration; `rademacher` gives ±1 per parameter.
    pub fn probe(&self, mut rademacher: impl FnMut() -> f64) -> Probe {
        let k = (self.k + 1) as f64;
        let ck = self.c / k.powf(GAMMA);
        let delta: Vec<f64> = self.theta.iter().map(|_| rademacher()).collect();
        let plus = self
            .theta
            .iter()
            .zip(&delta)
            .map(|(t, d)| (t + ck * d).clamp(0.0, 1.0))
            .collect();
        let minus = self
            .theta
            .iter()
            .zip(&delta)
            .map(|(t, d)| (t - ck * d).clamp(0.0, 1.0))
            .collect();
        Probe {
            plus,
            minus,
            delta,
            ck,
        }
    }

    /// Takes the losses of both sides; `spread` (per parameter, normalised) is the
    /// distance the two played points actually lay apart (after rounding), used instead
    /// of `2 c_k` where it differs so the slope is measured over the real distance.
    pub fn update(&mut self, probe: &Probe, loss_plus: f64, loss_minus: f64, spread: &[f64]) {
        let k = (self.k + 1) as f64;
        let ak = self.a / (self.big_a + k).powf(ALPHA);
        for i in 0..self.theta.len() {
            let dist = if spread[i].abs() > 1e-12 {
                spread[i]
            } else {
                2.0 * probe.ck * probe.delta[i]
            };
            let g = (loss_plus - loss_minus) / dist;
            self.theta[i] = (self.theta[i] - ak * g).clamp(0.0, 1.0);
        }
        self.k += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    fn run(
        f: impl Fn(&[f64], &mut Pcg64) -> f64,
        x0: Vec<f64>,
        n: u64,
        a: f64,
        c: f64,
    ) -> Vec<f64> {
        let mut s = Spsa::new(x0, n, c, a, None);
        let mut rng = Pcg64::seed_from_u64(7);
        for _ in 0..n {
            let p = s.probe(|| if rng.gen::<bool>() { 1.0 } else { -1.0 });
            let lp = f(&p.plus, &mut rng);
            let lm = f(&p.minus, &mut rng);
            let spread: Vec<f64> = p.plus.iter().zip(&p.minus).map(|(a, b)| a - b).collect();
            s.update(&p, lp, lm, &spread);
        }
        s.theta
    }

    /// Noisy quadratic with its minimum at (0.3, 0.7, 0.55), noise sd 0.05: within 0.03.
    #[test]
    fn spsa_finds_the_minimum_of_a_noisy_quadratic() {
        let opt = [0.3, 0.7, 0.55];
        let f = |x: &[f64], rng: &mut Pcg64| {
            x.iter()
                .zip(&opt)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>()
                * 10.0
                + 0.05 * (rng.gen::<f64>() - 0.5) * 3.46
        };
        let x = run(f, vec![0.9, 0.1, 0.2], 3000, 0.5, 0.02);
        for (a, b) in x.iter().zip(&opt) {
            assert!((a - b).abs() < 0.03, "{x:?}");
        }
    }

    /// Rosenbrock (scaled into the unit square; minimum at (0.75, 0.75)), noiseless:
    /// within 0.01 of the minimum after 20000 iterations.
    #[test]
    fn spsa_follows_rosenbrock_valley() {
        let f = |x: &[f64], _: &mut Pcg64| {
            let (u, v) = (4.0 * x[0] - 2.0, 4.0 * x[1] - 2.0);
            (1.0 - u).powi(2) + 100.0 * (v - u * u).powi(2)
        };
        let x = run(f, vec![0.3, 0.7], 20000, 0.008, 0.005);
        assert!(
            (x[0] - 0.75).abs() < 0.01 && (x[1] - 0.75).abs() < 0.01,
            "{x:?}"
        );
    }
}
