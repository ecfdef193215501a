//! Criterion benchmarks of the engine core: perft (bulk counting and every leaf played),
//! move generation alone, and make/unmake alone.
//!
//! `cargo bench -p benches --bench engine` (a few minutes; sample sizes are kept small).

use criterion::{
    black_box, criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use engine::perft::{perft, perft_full};
use engine::{chess960, Board};
use std::time::Duration;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// The first position of the Chess960 perft suite (castling rights on both wings).
const C960: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

/// Positions for the micro benches: opening, middlegame, endgame, in check, Chess960.
fn micro_positions() -> Vec<(&'static str, Board)> {
    vec![
        ("start", Board::startpos()),
        ("kiwipete", Board::from_fen(KIWIPETE).unwrap()),
        (
            "pos3-endgame",
            Board::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").unwrap(),
        ),
        (
            "pos4-check",
            Board::from_fen("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1")
                .unwrap(),
        ),
        ("chess960", Board::from_fen_960(C960).unwrap()),
    ]
}

fn bench_perft(c: &mut Criterion) {
    let cases: [(&str, Board, u32, u64); 3] = [
        ("start", Board::startpos(), 5, 4_865_609),
        ("kiwipete", Board::from_fen(KIWIPETE).unwrap(), 4, 4_085_603),
        ("chess960", Board::from_fen_960(C960).unwrap(), 4, 326_672),
    ];
    let mut g = c.benchmark_group("perft");
    // Flat sampling: ten runs of each perft rather than criterion's 1+2+..+10.
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for (name, board, depth, nodes) in cases {
        g.throughput(Throughput::Elements(nodes));
        let id = format!("{name}-d{depth}");
        g.bench_with_input(BenchmarkId::new("bulk", &id), &board, |b, board| {
            let mut board = board.clone();
            b.iter(|| assert_eq!(perft(&mut board, black_box(depth)), nodes));
        });
        g.bench_with_input(BenchmarkId::new("full", &id), &board, |b, board| {
            let mut board = board.clone();
            b.iter(|| assert_eq!(perft_full(&mut board, black_box(depth)), nodes));
        });
    }
    g.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let mut g = c.benchmark_group("movegen");
    g.sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, board) in micro_positions() {
        g.bench_with_input(BenchmarkId::new("legal_moves", name), &board, |b, board| {
            b.iter(|| black_box(board).legal_moves().len());
        });
        g.bench_with_input(BenchmarkId::new("count", name), &board, |b, board| {
            b.iter(|| black_box(board).count_legal_moves());
        });
    }
    g.finish();
}

fn bench_make_unmake(c: &mut Criterion) {
    let mut g = c.benchmark_group("make_unmake");
    g.sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, board) in micro_positions() {
        let moves = board.legal_moves();
        g.throughput(Throughput::Elements(moves.len() as u64));
        g.bench_with_input(BenchmarkId::new("all_moves", name), &board, |b, board| {
            let mut board = board.clone();
            b.iter(|| {
                let mut k = 0u64;
                for &m in moves.iter() {
                    board.make(black_box(m));
                    k ^= board.key();
                    board.unmake();
                }
                k
            });
        });
    }
    g.finish();
}

fn bench_chess960_starts(c: &mut Criterion) {
    // Scharnagl 0 (BBQNNRKR): bulk perft from a Chess960 start.
    let board = chess960::start_position(0);
    let mut g = c.benchmark_group("perft960");
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("scharnagl0-bulk-d4", |b| {
        let mut board = board.clone();
        b.iter(|| perft(&mut board, black_box(4)));
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_perft,
    bench_movegen,
    bench_make_unmake,
    bench_chess960_starts
);
criterion_main!(benches);
