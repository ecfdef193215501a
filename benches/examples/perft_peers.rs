//! Side-by-side perft: chesslab's engine against cozy-chess and shakmaty, same positions,
//! same build flags, one run. Prints nodes/s and the ratio ours/theirs.
//!
//! `cargo run --release -p benches --example perft-peers [-- --quick]` (an example, so
//! the peers stay dev-dependencies of `benches` only)
//!
//! Two modes, as the engines themselves offer them:
//! - bulk: the last ply is counted from the size of the move list;
//! - full: every leaf move is played (make/unmake for us, copy-make for the peers),
//!   which is what a search does.

use std::time::Instant;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn ours(fen: &str, depth: u32, bulk: bool) -> u64 {
    let mut b = engine::Board::from_fen(fen).unwrap();
    if bulk {
        engine::perft::perft(&mut b, depth)
    } else {
        engine::perft::perft_full(&mut b, depth)
    }
}

fn cozy_perft(b: &cozy_chess::Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    if bulk && depth == 1 {
        b.generate_moves(|ms| {
            n += ms.len() as u64;
            false
        });
        return n;
    }
    b.generate_moves(|ms| {
        for m in ms {
            let mut c = b.clone();
            c.play_unchecked(m);
            n += cozy_perft(&c, depth - 1, bulk);
        }
        false
    });
    n
}

fn cozy(fen: &str, depth: u32, bulk: bool) -> u64 {
    let b: cozy_chess::Board = fen.parse().unwrap();
    cozy_perft(&b, depth, bulk)
}

fn shak_perft(p: &shakmaty::Chess, depth: u32, bulk: bool) -> u64 {
    use shakmaty::Position;
    if depth == 0 {
        return 1;
    }
    let moves = p.legal_moves();
    if bulk && depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut c = p.clone();
            c.play_unchecked(*m);
            shak_perft(&c, depth - 1, bulk)
        })
        .sum()
}

fn shak(fen: &str, depth: u32, bulk: bool) -> u64 {
    use shakmaty::{fen::Fen, CastlingMode, Chess};
    let p: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    shak_perft(&p, depth, bulk)
}

fn time(f: impl Fn() -> u64) -> (u64, f64) {
    // Best of three: the least disturbed run on a shared machine.
    let mut best = f64::MAX;
    let mut n = 0;
    for _ in 0..3 {
        let t = Instant::now();
        n = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (n, n as f64 / best / 1e6)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let cases: Vec<(&str, &str, u32, bool)> = if quick {
        vec![
            ("start", START, 5, true),
            ("kiwipete", KIWIPETE, 4, true),
            ("start", START, 4, false),
            ("kiwipete", KIWIPETE, 3, false),
        ]
    } else {
        vec![
            ("start", START, 6, true),
            ("kiwipete", KIWIPETE, 5, true),
            ("start", START, 5, false),
            ("kiwipete", KIWIPETE, 4, false),
        ]
    };
    println!("| position | depth | mode | chesslab Mnps | cozy-chess Mnps | shakmaty Mnps | ours/cozy | ours/shakmaty |");
    println!("|---|---|---|---|---|---|---|---|");
    for (name, fen, depth, bulk) in cases {
        let (n0, a) = time(|| ours(fen, depth, bulk));
        let (n1, b) = time(|| cozy(fen, depth, bulk));
        let (n2, c) = time(|| shak(fen, depth, bulk));
        assert!(n0 == n1 && n1 == n2, "node counts differ: {n0} {n1} {n2}");
        println!(
            "| {name} | {depth} | {} | {a:.1} | {b:.1} | {c:.1} | {:.2} | {:.2} |",
            if bulk { "bulk" } else { "full" },
            a / b,
            a / c
        );
    }
}
