//! The piece-value fit of `chesslab values` (issue 24) over 200,000 synthetic positions
//! with five features (goal: under one second), beside the same fit by a well-kept crate,
//! `linfa-logistic` (L-BFGS from `argmin` on `ndarray`), on the same data and the same
//! L2 penalty: the issue asks for a crate unless the hand-written solver wins.
//!
//! linfa-logistic is a classifier: targets are two classes, so the synthetic outcomes
//! here are wins and losses only. (Real games have draws, label 0.5; linfa would need
//! each position twice, once won and once lost, to fit them, doubling its work.) Its loss
//! is the summed cross-entropy plus `alpha / 2 |w|^2`, which is ours (mean cross-entropy
//! plus `l2 / 2 |w|^2 / n`) times `n`, so `alpha = l2` gives the same optimum.

use criterion::{criterion_group, criterion_main, Criterion};
use linfa::traits::Fit;
use linfa::Dataset;
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};

const L2: f64 = 1e-3;

fn data() -> (Vec<Vec<f64>>, Vec<f64>) {
    let truth = [0.1, 0.3, 0.32, 0.5, 0.9];
    let mut rng = rand_pcg::Pcg64::seed_from_u64(24);
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for _ in 0..200_000 {
        let x: Vec<f64> = (0..5).map(|_| rng.gen_range(-3i32..=3) as f64).collect();
        let z: f64 = x.iter().zip(truth).map(|(a, b)| a * b).sum();
        let p = 1.0 / (1.0 + (-z).exp());
        xs.push(x);
        ys.push(if rng.gen::<f64>() < p { 1.0 } else { 0.0 });
    }
    (xs, ys)
}

fn linfa_fit(ds: &Dataset<f64, bool, ndarray::Ix1>) -> Vec<f64> {
    let m = linfa_logistic::LogisticRegression::default()
        .alpha(L2)
        .gradient_tolerance(1e-6)
        .max_iterations(200)
        .fit(ds)
        .expect("linfa fit");
    // linfa models the chance of its first class (false, a loss here): its weights are
    // ours negated.
    m.params().iter().map(|w| -w).collect()
}

fn fit_200k(c: &mut Criterion) {
    let (xs, ys) = data();
    let records = Array2::from_shape_fn((xs.len(), 5), |(i, j)| xs[i][j]);
    let targets: Array1<bool> = ys.iter().map(|&y| y > 0.5).collect();
    let ds = Dataset::new(records, targets);
    // Both solve the same problem: check they agree before timing them.
    let ours = experiments::studies::values::fit::fit(&xs, &ys, L2)
        .unwrap()
        .weights;
    let theirs = linfa_fit(&ds);
    for (a, b) in ours.iter().zip(&theirs) {
        assert!(
            (a - b).abs() < 1e-3,
            "hand-written {ours:?} vs linfa {theirs:?}"
        );
    }
    let mut g = c.benchmark_group("values");
    g.sample_size(10);
    g.bench_function("fit_200k_positions", |b| {
        b.iter(|| experiments::studies::values::fit::fit(&xs, &ys, L2).unwrap())
    });
    g.bench_function("fit_200k_positions_linfa_logistic", |b| {
        b.iter(|| linfa_fit(&ds))
    });
    g.finish();
}

criterion_group!(benches, fit_200k);
criterion_main!(benches);
