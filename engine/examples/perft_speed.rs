//! Quick perft timing: `cargo run --release -p engine --example perft_speed`.
use engine::{perft, Board};
use std::time::Instant;

fn main() {
    {
        let mut b =
            Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap();
        let ms = b.legal_moves();
        let t = Instant::now();
        let mut k = 0u64;
        for _ in 0..200_000 {
            for &m in ms.iter() {
                b.make(m);
                k ^= b.key();
                b.unmake();
            }
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "make+unmake: {:.1} ns each ({k})",
            s * 1e9 / (200_000.0 * ms.len() as f64)
        );
        let t = Instant::now();
        let mut n = 0;
        for _ in 0..200_000 {
            n += b.legal_moves().len();
        }
        let s = t.elapsed().as_secs_f64();
        println!("movegen: {:.1} ns per call ({n})", s * 1e9 / 200_000.0);
    }
    for (name, fen, d) in [
        (
            "start",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            6,
        ),
        (
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            5,
        ),
    ] {
        let mut b = Board::from_fen(fen).unwrap();
        let t = Instant::now();
        let n = perft::perft(&mut b, d);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{name} d{d} bulk: {n} nodes {s:.2}s {:.1} Mnps",
            n as f64 / s / 1e6
        );
        let t = Instant::now();
        let n = perft::perft_full(&mut b, d - 1);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{name} d{} full: {n} nodes {s:.2}s {:.1} Mnps",
            d - 1,
            n as f64 / s / 1e6
        );
    }
}

#[allow(dead_code)]
fn micro() {}
