//! Shared evaluation: material and piece-square tables for boards with an orthodox
//! `Board` underneath, and the variant's own `material` hook otherwise.
//!
//! Scores are from the point of view of `seat`, in pawns.

use engine::game::{Game, Seat};
use engine::{Board, Color, Role, Square};

/// Material values, pawn = 100 centipawns.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Piece-square bonuses (centipawns) from white's side, a1 first; mirrored for black.
/// Simple, well-known shapes: pawns advance, knights and bishops centralise, the king
/// stays home in the middlegame.
const PST: [[i8; 64]; 6] = {
    const P: [i8; 64] = [
        0, 0, 0, 0, 0, 0, 0, 0, 5, 10, 10, -20, -20, 10, 10, 5, 5, -5, -10, 0, 0, -10, -5, 5, 0, 0,
        0, 20, 20, 0, 0, 0, 5, 5, 10, 25, 25, 10, 5, 5, 10, 10, 20, 30, 30, 20, 10, 10, 50, 50, 50,
        50, 50, 50, 50, 50, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    const N: [i8; 64] = [
        -50, -40, -30, -30, -30, -30, -40, -50, -40, -20, 0, 5, 5, 0, -20, -40, -30, 5, 10, 15, 15,
        10, 5, -30, -30, 0, 15, 20, 20, 15, 0, -30, -30, 5, 15, 20, 20, 15, 5, -30, -30, 0, 10, 15,
        15, 10, 0, -30, -40, -20, 0, 0, 0, 0, -20, -40, -50, -40, -30, -30, -30, -30, -40, -50,
    ];
    const B: [i8; 64] = [
        -20, -10, -10, -10, -10, -10, -10, -20, -10, 5, 0, 0, 0, 0, 5, -10, -10, 10, 10, 10, 10,
        10, 10, -10, -10, 0, 10, 10, 10, 10, 0, -10, -10, 5, 5, 10, 10, 5, 5, -10, -10, 0, 5, 10,
        10, 5, 0, -10, -10, 0, 0, 0, 0, 0, 0, -10, -20, -10, -10, -10, -10, -10, -10, -20,
    ];
    const R: [i8; 64] = [
        0, 0, 0, 5, 5, 0, 0, 0, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0,
        0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5, 5, 10, 10, 10, 10, 10, 10, 5,
        0, 0, 0, 0, 0, 0, 0, 0,
    ];
    const Q: [i8; 64] = [
        -20, -10, -10, -5, -5, -10, -10, -20, -10, 0, 5, 0, 0, 0, 0, -10, -10, 5, 5, 5, 5, 5, 0,
        -10, 0, 0, 5, 5, 5, 5, 0, -5, -5, 0, 5, 5, 5, 5, 0, -5, -10, 0, 5, 5, 5, 5, 0, -10, -10, 0,
        0, 0, 0, 0, 0, -10, -20, -10, -10, -5, -5, -10, -10, -20,
    ];
    const K: [i8; 64] = [
        20, 30, 10, 0, 0, 10, 30, 20, 20, 20, 0, 0, 0, 0, 20, 20, -10, -20, -20, -20, -20, -20,
        -20, -10, -20, -30, -30, -40, -40, -30, -30, -20, -30, -40, -40, -50, -50, -40, -40, -30,
        -30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30, -30, -40,
        -40, -50, -50, -40, -40, -30,
    ];
    [P, N, B, R, Q, K]
};

/// Material plus piece-square score of `board` for `color`, in centipawns.
pub fn board_score(board: &Board, color: Color) -> i32 {
    let mut score = 0i32;
    for sq in board.occupied() {
        let p = board.piece_at(sq).expect("occupied square");
        let rel: Square = sq.relative(p.color);
        let v = PIECE_VALUES[p.role.index()] + PST[p.role.index()][rel.index()] as i32;
        if p.color == color {
            score += v;
        } else {
            score -= v;
        }
    }
    score
}

/// Evaluation of `game` for `seat` in pawns: board material and placement where the
/// variant has an orthodox board, else the variant's `material` hook.
pub fn evaluate<G: Game>(game: &G, seat: Seat) -> f64 {
    match game.board() {
        Some(b) if seat < 2 => board_score(b, Color::from_index(seat)) as f64 / 100.0,
        _ => game.material(seat),
    }
}

/// Value of a role in centipawns.
pub fn role_value(role: Role) -> i32 {
    PIECE_VALUES[role.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_and_extra_queen_counts() {
        let b = Board::startpos();
        assert_eq!(board_score(&b, Color::White), 0);
        let b =
            Board::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(board_score(&b, Color::White) > 800);
        assert!(board_score(&b, Color::Black) < -800);
    }
}
