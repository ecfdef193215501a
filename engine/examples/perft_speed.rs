//! Quick perft timing: `cargo run --release -p engine --example perft_speed`.
use engine::{perft, Board};
use std::time::Instant;

fn main() {
    for (name, fen, d) in [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
        ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ] {
        let mut b = Board::from_fen(fen).unwrap();
        let t = Instant::now();
        let n = perft::perft(&mut b, d);
        let s = t.elapsed().as_secs_f64();
        println!("{name} d{d} bulk: {n} nodes {s:.2}s {:.1} Mnps", n as f64 / s / 1e6);
        let t = Instant::now();
        let n = perft::perft_full(&mut b, d - 1);
        let s = t.elapsed().as_secs_f64();
        println!("{name} d{} full: {n} nodes {s:.2}s {:.1} Mnps", d - 1, n as f64 / s / 1e6);
    }
}
