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
//! Integers, two rules (`--rounding`, [`Rounding`]):
//! - `stochastic` (the default): the perturbed raw values are rounded stochastically
//!   with one uniform `u` per parameter shared by both sides (`floor(x + u)`), so the
//!   pair differs only by the perturbation and rounding is unbiased on average; the
//!   slope is taken over the distance the rounded points actually lie apart.
//! - `fishtest`: fishtest's rule: both sides are rounded to the nearest integer and θ
//!   (kept real) moves by `r_k · c_k · (L⁻ − L⁺)/2 · Δ` with the learning rate
//!   `r_k = a_k / c_k²` ([`Spsa::rk`]), i.e. over the nominal distance `2 c_k`
//!   whatever the rounding did. Perturbations shorter than half a unit then play the
//!   same integers on both sides and teach nothing: keep `c_end` at a unit or more of
//!   an integer parameter (fishtest's advice). Tests
//!   `tune::spsa::tests::fishtest_rule_steps_by_r_k`,
//!   `tune::spsa::tests::fishtest_rounding_finds_an_integer_minimum`.
//!
//! Randomness for Δ and `u` comes from a stream seeded by the master seed and k, so a
//! resumed run draws the same numbers.
//! Tests: `tune::spsa::tests::spsa_finds_the_minimum_of_a_noisy_quadratic`,
//! `tune::spsa::tests::spsa_follows_rosenbrock_valley`.

// Vector arithmetic over several arrays at once reads best with indices.
#![allow(clippy::needless_range_loop)]

use serde::{Deserialize, Serialize};

/// How integer parameters are rounded (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
pub enum Rounding {
    #[default]
    Stochastic,
    Fishtest,
}

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

    /// The gain `a_k` of the next update.
    pub fn ak(&self) -> f64 {
        self.a / (self.big_a + (self.k + 1) as f64).powf(ALPHA)
    }

    /// fishtest's learning rate `r_k = a_k / c_k²` of the next update.
    pub fn rk(&self, probe: &Probe) -> f64 {
        self.ak() / (probe.ck * probe.ck)
    }

    /// fishtest's update: `θ += r_k · c_k · (L⁻ − L⁺)/2 · Δ` (we minimise a loss), over
    /// the nominal perturbation whatever the rounding of the played points.
    pub fn update_fishtest(&mut self, probe: &Probe, loss_plus: f64, loss_minus: f64) {
        let step = self.rk(probe) * probe.ck * (loss_minus - loss_plus) / 2.0;
        for i in 0..self.theta.len() {
            self.theta[i] = (self.theta[i] + step * probe.delta[i]).clamp(0.0, 1.0);
        }
        self.k += 1;
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

    /// The fishtest step `r_k · c_k · (L⁻ − L⁺)/2 · Δ` is the a_k step over the nominal
    /// distance: both updates agree when the played points lie `2 c_k` apart.
    #[test]
    fn fishtest_rule_steps_by_r_k() {
        let mut a = Spsa::new(vec![0.5, 0.5], 100, 0.1, 0.3, None);
        let mut b = a.clone();
        let mut signs = [1.0, -1.0].into_iter();
        let p = a.probe(|| signs.next().unwrap_or(1.0));
        let rk = a.rk(&p);
        assert!((rk - a.ak() / (p.ck * p.ck)).abs() < 1e-12);
        let spread: Vec<f64> = p.delta.iter().map(|d| 2.0 * p.ck * d).collect();
        a.update_fishtest(&p, 2.0, 1.0);
        b.update(&p, 2.0, 1.0, &spread);
        for (x, y) in a.theta.iter().zip(&b.theta) {
            assert!((x - y).abs() < 1e-12, "{:?} vs {:?}", a.theta, b.theta);
        }
        // The loss rose on the + side: θ moves against Δ = (+1, −1).
        let step = rk * p.ck * 0.5;
        assert!((a.theta[0] - (0.5 - step)).abs() < 1e-12);
        assert!((a.theta[1] - (0.5 + step)).abs() < 1e-12);
    }

    /// An integer parameter in 0..=20 with its minimum at 13, rounded to nearest on both
    /// sides (fishtest's rule), noisy loss: θ ends within half a unit of 13.
    #[test]
    fn fishtest_rounding_finds_an_integer_minimum() {
        let (lo, hi) = (0.0, 20.0);
        let raw = |u: f64| (lo + u * (hi - lo)).round();
        // c_end 1.5 units of 20, a_1 · curvature below 1.
        let mut s = Spsa::new(vec![0.1], 400, 1.5 / 20.0, 0.02, None);
        let mut rng = Pcg64::seed_from_u64(11);
        for _ in 0..400 {
            let p = s.probe(|| if rng.gen::<bool>() { 1.0 } else { -1.0 });
            let f = |x: f64, rng: &mut Pcg64| (x - 13.0).powi(2) / 10.0 + rng.gen::<f64>() - 0.5;
            let lp = f(raw(p.plus[0]), &mut rng);
            let lm = f(raw(p.minus[0]), &mut rng);
            s.update_fishtest(&p, lp, lm);
        }
        let x = lo + s.theta[0] * (hi - lo);
        assert!((x - 13.0).abs() <= 0.5, "θ = {x}");
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
