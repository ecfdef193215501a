//! Criterion benchmarks of the Chess Golf solver: the three published book problems
//! (proven par, designer's king-step rule) and a batch of seeded random 2-card deals.
//!
//! `cargo bench -p benches --bench golf`

use agents::golf::{solve, Outcome, SolveLimits};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use engine::variants::golf::{random_problem, GolfParams, GolfPosition, KingStep};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::time::Duration;

const BOOK: &str = include_str!("../../engine/tests/data/golf/book-problems.txt");

/// (name, problem, published par) for every block of the book file.
fn book() -> Vec<(String, GolfPosition, u32)> {
    let mut out = Vec::new();
    for block in BOOK.split("\n\n") {
        let mut name = String::new();
        let mut board = Vec::new();
        let mut chosen = "";
        let mut optimal = 0;
        let mut lines = block.lines();
        while let Some(line) = lines.next() {
            if let Some(n) = line.strip_prefix("# name:") {
                name = n.trim().to_string();
            } else if line.starts_with("board:") {
                board.extend(lines.by_ref().take(8));
            } else if let Some(c) = line.strip_prefix("chosen:") {
                chosen = c.trim();
            } else if let Some(o) = line.strip_prefix("optimal:") {
                optimal = o.trim().parse().expect("optimal");
            }
        }
        if board.len() == 8 {
            let pos = GolfPosition::parse_text(&format!("{}\nchosen: {chosen}", board.join("\n")))
                .expect("book problem parses");
            out.push((name, pos, optimal));
        }
    }
    out
}

fn designer() -> GolfParams {
    GolfParams {
        king_step: KingStep::NoBorrowedMove,
        ..GolfParams::default()
    }
}

fn bench_book(c: &mut Criterion) {
    let params = designer();
    let mut g = c.benchmark_group("golf-book");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for (name, pos, par) in book()
        .into_iter()
        .filter(|(n, _, _)| n.starts_with("book problem"))
    {
        g.bench_function(name.replace(' ', "-"), |b| {
            b.iter(|| {
                let r = solve(black_box(&pos), &params, &SolveLimits::default());
                assert_eq!(r.outcome, Outcome::Par(par));
                r.states
            })
        });
    }
    g.finish();
}

fn bench_random_deals(c: &mut Criterion) {
    let params = designer();
    let mut rng = Pcg64::seed_from_u64(2024);
    let deals: Vec<GolfPosition> = (0..100)
        .map(|_| random_problem(&mut rng, &params, 2))
        .collect();
    let mut g = c.benchmark_group("golf-deals");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    g.bench_function("100-random-2-card-deals", |b| {
        b.iter(|| {
            let mut states = 0;
            for pos in &deals {
                let r = solve(black_box(pos), &params, &SolveLimits::default());
                states += r.states;
            }
            states
        })
    });
    g.finish();
}

criterion_group!(benches, bench_book, bench_random_deals);
criterion_main!(benches);
