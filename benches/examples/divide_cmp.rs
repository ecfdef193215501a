//! Compares our perft divide with shakmaty's for one FEN: `cargo run -p benches --example divide_cmp -- "<fen>" <depth>`.
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

fn sperft(p: &Chess, d: u32) -> u64 {
    if d == 0 {
        return 1;
    }
    p.legal_moves()
        .iter()
        .map(|m| {
            let mut q = p.clone();
            q.play_unchecked(*m);
            sperft(&q, d - 1)
        })
        .sum()
}

// shakmaty's position error is large; this is a debugging tool, not a hot path.
#[allow(clippy::result_large_err)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let fen = &args[1];
    let depth: u32 = args[2].parse().unwrap();
    let mode = if args.len() > 3 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let pos: Chess = match fen.parse::<Fen>().unwrap().into_position(mode) {
        Ok(p) => p,
        Err(e) => e
            .ignore_invalid_castling_rights()
            .or_else(|e| e.ignore_impossible_check())
            .unwrap_or_else(|_| panic!("shakmaty rejects")),
    };
    let mut ours = if args.len() > 3 {
        engine::Board::from_fen_960(fen).unwrap()
    } else {
        engine::Board::from_fen(fen).unwrap()
    };
    let our = engine::perft::divide(&mut ours, depth);
    for m in pos.legal_moves() {
        let uci = m.to_uci(mode).to_string();
        let mut q = pos.clone();
        q.play_unchecked(m);
        let theirs = sperft(&q, depth - 1);
        let mine = our.iter().find(|(u, _)| *u == uci).map(|x| x.1);
        if mine != Some(theirs) {
            println!("{uci}: ours {mine:?} theirs {theirs}");
        }
    }
    println!(
        "ours total {} theirs total {}",
        our.iter().map(|x| x.1).sum::<u64>(),
        sperft(&pos, depth)
    );
    for (u, n) in &our {
        if !pos
            .legal_moves()
            .iter()
            .any(|m| m.to_uci(mode).to_string() == *u)
        {
            println!("extra {u} {n}");
        }
    }
}
