//! Perft: counting leaf nodes of the legal move tree, the standard move-generator test,
//! and ([`suite`]) one harness that checks perft data files for any variant.

pub mod suite;

use crate::board::Board;

/// Leaf count at `depth`, counting the last ply from the move list size (bulk counting).
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_legal_moves(),
        _ => {
            let moves = board.legal_moves();
            let mut n = 0;
            for &m in moves.iter() {
                board.make_inline(m);
                n += perft(board, depth - 1);
                board.unmake_inline();
            }
            n
        }
    }
}

/// Leaf count at `depth`, playing every leaf move with make/unmake (what search does).
pub fn perft_full(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.legal_moves();
    if depth == 1 {
        // The leaves: play and take back each move (inlined, as a search would want).
        // The keys feed a black box so the work cannot be optimised away.
        let mut seen = 0u64;
        for &m in moves.iter() {
            board.make_inline(m);
            seen ^= board.key();
            board.unmake_inline();
        }
        std::hint::black_box(seen);
        return moves.len() as u64;
    }
    let mut n = 0;
    for &m in moves.iter() {
        board.make(m);
        n += perft_full(board, depth - 1);
        board.unmake();
    }
    n
}

/// Leaf counts per root move, in generation order, with the move in UCI.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(String, u64)> {
    let moves = board.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        let name = board.uci(m);
        board.make(m);
        let n = if depth <= 1 {
            1
        } else {
            perft(board, depth - 1)
        };
        board.unmake();
        out.push((name, n));
    }
    out
}
