//! What checker stacks are worth to the evaluation (material hook, features).

use super::*;

/// Pawns a stack of k checkers adds to a piece, by role (pawn, knight, bishop, rook,
/// queen, king) and k = 0..4 (see [`Adrenaline::stack_value`]). Each checker is one
/// extra king step, spent when taken, and widens the piece's reach (its attacks, so
/// its checks) by a step while it lasts. A first step is worth about a tempo (a third
/// of a pawn) and more to pieces a king step complements: a pawn gains sideways,
/// backward and straight captures, a knight covers the adjacent squares it never
/// reaches, a bishop changes square colour. A queen already reaches most squares and a
/// king only walks further, so theirs count less. Later checkers add less: a burst of
/// many steps mostly revisits squares the regular move already reached.
pub const STACK_VALUE: [[f64; 5]; 6] = [
    [0.0, 0.5, 0.9, 1.2, 1.4],
    [0.0, 0.45, 0.8, 1.05, 1.25],
    [0.0, 0.45, 0.8, 1.05, 1.25],
    [0.0, 0.35, 0.65, 0.9, 1.1],
    [0.0, 0.3, 0.55, 0.75, 0.9],
    [0.0, 0.15, 0.25, 0.3, 0.35],
];

/// Pawns per checker beyond the fourth under one piece.
pub const STACK_TAIL: f64 = 0.1;

/// Pawns added when a pawn's checkers let it reach its last rank next turn (push one
/// rank, then step the rest) where a plain push would not: a queen in one move unless
/// the opponent deals with it now.
pub const PROMOTION_REACH: f64 = 1.5;

impl Adrenaline {
    /// Value in pawns of the checkers under the piece on `sq`, from the owner's point
    /// of view: [`STACK_VALUE`] by role and stack height ([`STACK_TAIL`] per checker
    /// past four), plus [`PROMOTION_REACH`] for a pawn the stack carries to promotion.
    pub fn stack_value(&self, sq: Square) -> f64 {
        let k = self.stacks[sq.index()] as usize;
        let Some(p) = self.board.piece_at(sq) else {
            return 0.0;
        };
        if k == 0 {
            return 0.0;
        }
        let mut v = STACK_VALUE[p.role.index()][k.min(4)] + k.saturating_sub(4) as f64 * STACK_TAIL;
        if p.role == Role::Pawn {
            let to_go = 7 - sq.relative(p.color).rank() as usize;
            if to_go >= 2 && 1 + k >= to_go {
                v += PROMOTION_REACH;
            }
        }
        v
    }
}
