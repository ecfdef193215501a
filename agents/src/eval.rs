//! Shared evaluation: material and piece-square tables for boards with an orthodox
//! `Board` underneath, plus whatever the variant's `material` hook adds beyond plain
//! material (Adrenaline's stacks, Half Alice's mirror sides); the `material` hook alone
//! for games without a board.
//!
//! Scores are from the point of view of `seat`, in pawns.

use engine::game::{Game, Seat};
use engine::variants::chess::{material_balance, Chess};
use engine::{Board, Color, Role, Square};
use std::any::TypeId;

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

/// Evaluation of `game` for `seat` in pawns: board material and placement plus the
/// variant's term where the variant has an orthodox board, else the variant's
/// `material` hook.
pub fn evaluate<G: Game>(game: &G, seat: Seat) -> f64 {
    match game.board() {
        Some(b) if seat < 2 => {
            board_score(b, Color::from_index(seat)) as f64 / 100.0 + variant_term(game, b, seat)
        }
        _ => game.material(seat),
    }
}

/// What the variant's `material` hook adds to plain material (pawns): the piece-square
/// score already counts the pieces, so only the difference is added. Zero for variants
/// that do not override the hook beyond material; orthodox chess skips the call (the
/// type test is resolved at compile time), so its search pays nothing for it.
#[inline]
pub fn variant_term<G: Game>(game: &G, board: &Board, seat: Seat) -> f64 {
    if TypeId::of::<G>() == TypeId::of::<Chess>() {
        return 0.0;
    }
    game.material(seat) - material_balance(board, Color::from_index(seat))
}

/// Value of a role in centipawns.
pub fn role_value(role: Role) -> i32 {
    PIECE_VALUES[role.index()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphabeta::{AlphaBeta, AlphaBetaConfig};
    use engine::game::replay;
    use engine::variants::adrenaline::{Adrenaline, AdrenalineParams};
    use engine::variants::half_alice::{HalfAlice, HalfAliceParams, MIRROR_PRESSURE};

    #[test]
    fn half_alice_evaluation_counts_the_mirror_side() {
        // Same pieces on the same squares: the queen beside the black king (plain side)
        // scores higher than the queen beyond the mirror, by the hook's figure.
        let p = HalfAliceParams::default();
        let near = HalfAlice::from_opening(&p, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let far = HalfAlice::from_opening(&p, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | d1").unwrap();
        let d = evaluate(&near, 0) - evaluate(&far, 0);
        assert!((d - MIRROR_PRESSURE[4]).abs() < 1e-9, "{d}");
        assert!(evaluate(&near, 1) < evaluate(&far, 1));
    }

    #[test]
    fn adrenaline_evaluation_counts_stacks() {
        // Black is a pawn up, but white's e5 pawn with two checkers promotes next turn.
        let p = AdrenalineParams::default();
        let fen = "4k3/pp6/8/4P3/8/8/8/4K3 w - - 0 1";
        let plain = Adrenaline::from_opening(&p, fen).unwrap();
        let pumped = Adrenaline::from_opening(&p, &format!("{fen} | e5=2")).unwrap();
        assert!(evaluate(&plain, 0) < 0.0);
        assert!(evaluate(&pumped, 0) > 0.0, "{}", evaluate(&pumped, 0));
    }

    #[test]
    fn alphabeta_uses_the_adrenaline_hook_to_place_checkers() {
        // After 1.e4 d5 2.exd5 white must pump one black piece. Counting stacks, the
        // checker does least for black under its king: alphabeta puts it there.
        let g = replay(
            Adrenaline::new(&AdrenalineParams::default()),
            &["e2e4", "d7d5", "e4d5"],
        )
        .unwrap();
        let mut ab = AlphaBeta::<Adrenaline>::new(AlphaBetaConfig {
            depth: 1,
            ..Default::default()
        });
        let a = ab.search(&g).expect("a placement");
        assert_eq!(g.action_notation(a), "+e8");
    }

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
