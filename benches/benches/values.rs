//! The piece-value fit of `chesslab values` (issue 24) over 200,000 synthetic positions
//! with five features (goal: under one second).

use criterion::{criterion_group, criterion_main, Criterion};
use rand::{Rng, SeedableRng};

fn fit_200k(c: &mut Criterion) {
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
    let mut g = c.benchmark_group("values");
    g.sample_size(10);
    g.bench_function("fit_200k_positions", |b| {
        b.iter(|| experiments::values::fit::fit(&xs, &ys, 1e-3).unwrap())
    });
    g.finish();
}

criterion_group!(benches, fit_200k);
criterion_main!(benches);
