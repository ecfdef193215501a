//! Shared evaluation: material and piece-square tables for boards with an orthodox
//! `Board` underneath, plus whatever the variant's `material` hook adds beyond plain
//! material (Adrenaline's stacks, Half Alice's mirror sides); the `material` hook alone
//! for games without a board.
//!
//! Scores are from the point of view of `seat`, in pawns. The weights are a serde struct,
//! [`EvalWeights`], reachable from agent specs as `eval.*` keys (`alphabeta:eval.knight=3.2`)
//! so a tuner can vary them like variant parameters; [`EVAL_SETTINGS`] is generated from
//! the same field list, so the struct and the spec keys cannot drift. Move ordering
//! (MVV-LVA, [`role_value`]) keeps the fixed [`PIECE_VALUES`]: it orders, it does not score.

use crate::settings::{Kind, Setting};
use engine::game::{Game, Seat};
use engine::variants::chess::material_balance;
use engine::{Board, Color, Role, Square};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Material values, pawn = 100 centipawns (the defaults of [`EvalWeights`]).
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Declares the weights once: the struct, its defaults, the `eval.*` settings and the
/// setter by field name all come from this list.
macro_rules! eval_weights {
    ($($field:ident = $default:literal, $help:literal;)*) => {
        /// Evaluation weights, in pawns (`pst` scales the piece-square bonuses).
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct EvalWeights {
            $(#[doc = $help] pub $field: f64,)*
        }

        impl Default for EvalWeights {
            fn default() -> Self {
                EvalWeights { $($field: $default,)* }
            }
        }

        impl EvalWeights {
            /// Sets the weight called `field`; false when there is none.
            pub fn set(&mut self, field: &str, value: f64) -> bool {
                match field {
                    $(stringify!($field) => self.$field = value,)*
                    _ => return false,
                }
                true
            }

            /// The weight called `field`, if there is one.
            pub fn get(&self, field: &str) -> Option<f64> {
                match field {
                    $(stringify!($field) => Some(self.$field),)*
                    _ => None,
                }
            }
        }

        /// One tunable `eval.<field>` setting per weight.
        pub const EVAL_SETTINGS: &[Setting] = &[$(Setting {
            key: concat!("eval.", stringify!($field)),
            kind: Kind::Real { min: -100.0, max: 100.0 },
            default: stringify!($default),
            tunable: true,
            help: $help,
        },)*];
    };
}

eval_weights! {
    pawn = 1.0, "pawn value (pawns)";
    knight = 3.2, "knight value (pawns)";
    bishop = 3.3, "bishop value (pawns)";
    rook = 5.0, "rook value (pawns)";
    queen = 9.0, "queen value (pawns)";
    pst = 1.0, "scale of the piece-square bonuses";
}

/// The weights turned into one centipawn table per role and square (value plus scaled
/// bonus, rounded), so scoring a board costs one lookup per piece.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluator {
    weights: EvalWeights,
    table: [[i32; 64]; 6],
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(EvalWeights::default())
    }
}

impl Evaluator {
    pub fn new(weights: EvalWeights) -> Self {
        let w = &weights;
        let values = [w.pawn, w.knight, w.bishop, w.rook, w.queen, 0.0];
        let mut table = [[0i32; 64]; 6];
        for (r, row) in table.iter_mut().enumerate() {
            let v = (values[r] * 100.0).round() as i32;
            for (sq, cell) in row.iter_mut().enumerate() {
                *cell = v + (PST[r][sq] as f64 * w.pst).round() as i32;
            }
        }
        Evaluator { weights, table }
    }

    pub fn weights(&self) -> &EvalWeights {
        &self.weights
    }

    /// Material plus piece-square score of `board` for `color`, in centipawns.
    pub fn board_score(&self, board: &Board, color: Color) -> i32 {
        let mut score = 0i32;
        for sq in board.occupied() {
            let p = board.piece_at(sq).expect("occupied square");
            let rel: Square = sq.relative(p.color);
            let v = self.table[p.role.index()][rel.index()];
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
    pub fn evaluate<G: Game>(&self, game: &G, seat: Seat) -> f64 {
        // A cooperative game scores the team's progress, which the board's zero-sum
        // material and piece squares do not measure: the variant's own hook does.
        if game.facts().utility == engine::game::Utility::Identical {
            return game.material(seat);
        }
        match game.board() {
            Some(b) if seat < 2 => {
                self.board_score(b, Color::from_index(seat)) as f64 / 100.0
                    + variant_term(game, b, seat)
            }
            _ => game.material(seat),
        }
    }
}

/// The evaluator with the default weights.
pub fn default_evaluator() -> &'static Evaluator {
    static DEFAULT: OnceLock<Evaluator> = OnceLock::new();
    DEFAULT.get_or_init(Evaluator::default)
}

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

/// Material plus piece-square score of `board` for `color`, in centipawns, with the
/// default weights.
pub fn board_score(board: &Board, color: Color) -> i32 {
    default_evaluator().board_score(board, color)
}

/// Evaluation of `game` for `seat` in pawns with the default weights (see
/// [`Evaluator::evaluate`]).
pub fn evaluate<G: Game>(game: &G, seat: Seat) -> f64 {
    default_evaluator().evaluate(game, seat)
}

/// What the variant's `material` hook adds to plain material (pawns): the piece-square
/// score already counts the pieces, so only the difference is added. Exactly zero for
/// variants whose hook is plain material (orthodox chess).
#[inline]
pub fn variant_term<G: Game>(game: &G, board: &Board, seat: Seat) -> f64 {
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
    fn default_weights_are_the_piece_values() {
        let e = Evaluator::default();
        for (r, &v) in PIECE_VALUES.iter().enumerate() {
            for (sq, &bonus) in PST[r].iter().enumerate() {
                assert_eq!(e.table[r][sq], v + bonus as i32, "role {r} square {sq}");
            }
        }
    }

    #[test]
    fn weights_change_the_score() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1").unwrap();
        let base = Evaluator::default().board_score(&b, Color::White);
        let w = EvalWeights {
            knight: 4.2,
            ..Default::default()
        };
        assert_eq!(Evaluator::new(w).board_score(&b, Color::White), base + 100);
        let flat = Evaluator::new(EvalWeights {
            pst: 0.0,
            ..Default::default()
        });
        assert_eq!(flat.board_score(&b, Color::White), 320);
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
