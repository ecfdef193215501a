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
//!
//! Positional terms (issue 36): a second, endgame set of piece-square tables blended by
//! material phase (`taper`), mobility, the bishop pair, doubled, isolated and passed
//! pawns, the king's pawn shield, rooks on open files and the king attack ([`terms`]).
//! An eval file may replace the compiled piece-square shapes by its own `[tables]`
//! ([`tables::Shapes`], checked when read), which is how `chesslab texel-tables` writes
//! the tables it fits ([`shape_fit`]). Their weights default to 0, so
//! [`EvalWeights::default`] is the original evaluator, and every
//! caller that does not ask for more (MCTS cut-offs, expectimax, golf) scores exactly as
//! before. The search's evaluator, [`Evaluator::search`], holds TOML weight files
//! compiled in: [`search_weights`] (`agents/data/eval/chess.toml`, hand-set) for every
//! game with a board, and, per game that has one, the file fitted to that game's own
//! positions ([`fitted`], issue 66), chosen by the game's `GameFacts::eval`:
//! [`orthodox_weights`] (`agents/data/eval/orthodox.toml`, the piece-square tables
//! `chesslab texel-tables` fitted to Stockfish's scores) for orthodox chess and Chess960
//! (`GameFacts::orthodox_positions`), and a variant's `chesslab texel` fit where it beat
//! chess.toml (results/strength/variants/evals). Decision (generation 4, issue 36): the
//! fitted tables are the default only where they were fitted
//! (`the_search_evaluator_uses_the_fitted_tables_only_in_orthodox_games`).
//! `alphabeta` uses it unless the spec gives `eval=FILE` (then the file scores every
//! game), and `eval.*` keys apply on top of either. The terms read the orthodox board,
//! so every variant with one gets them; the variant's own material difference is still
//! added by [`variant_term`].
//! A game's own features (`Game::features` beyond the piece counts: checkers, burials,
//! Zorkmids, tar, ...) are terms too, weighted by an eval file's `[features]` table
//! (pawns per unit, from seat 0's side, negated for seat 1; none by default, so no
//! committed weight set changes): [`features`], issue 66.
//! A variant's threat hint (`Game::eval_hint`: Cassandra's pending prophecies and ladder)
//! is added times `eval.hint`, which is 0 in both the default and the search's weights, so
//! no agent counts it unless its spec asks (`pimc:...,eval.hint=1`, the best secret
//! Cassandra player, results/strength/hidden/README.md); committed runs keep their
//! meaning (`the_hint_weight_adds_the_variant_hint_and_is_off_by_default`).
//! Speed (issue 36): on x86-64 CPUs with `popcnt` (detected at run time), the
//! evaluation runs as a copy of the same code compiled for that instruction (it counts
//! pieces, attacked squares and pawns some thirty times a call, which the baseline
//! target does in a dozen instructions each); the integers are the same
//! (`popcnt_and_portable_evaluations_agree`).
//! Tests: below, and `fitted::tests`, `tables::tests`, `terms::tests`.

pub mod features;
pub mod fitted;
pub mod shape_fit;
pub mod tables;
pub mod terms;
pub mod texel;

use crate::settings::{Kind, Setting};
use engine::game::{Game, Seat};
use engine::variants::chess::material_balance;
use engine::{Board, Color, Role};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
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
            /// Piece-square shapes replacing the compiled ones ([`tables::Shapes`]), as
            /// `[tables]` in an eval file: the fitted tables of `chesslab texel-tables`.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub tables: Option<Box<tables::Shapes>>,
            /// Pawns per unit of the game's own features (`Game::features` beyond the
            /// piece counts: Adrenaline's `checkers`, Zombie's `graveyard`, Clairvoyant's
            /// `zorkmids`, ...), as `[features]` in an eval file ([`features`]).
            #[serde(skip_serializing_if = "BTreeMap::is_empty")]
            pub features: BTreeMap<String, f64>,
        }

        impl Default for EvalWeights {
            fn default() -> Self {
                EvalWeights { $($field: $default,)* tables: None, features: BTreeMap::new() }
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
    taper = 0.0, "blend toward the endgame piece-square tables as material leaves (0: one table)";
    mobility = 0.0, "per square a knight, bishop, rook or queen attacks, not own nor guarded by an enemy pawn";
    bishop_pair = 0.0, "both bishops";
    doubled = 0.0, "per pawn behind another of its colour on its file";
    isolated = 0.0, "per pawn with no pawn of its colour on the files beside it";
    passed = 0.0, "passed pawn in the middle game, times its rank's scale";
    passed_eg = 0.0, "passed pawn in the endgame, times its rank's scale";
    king_shield = 0.0, "per own pawn in front of the king (middle game)";
    rook_open = 0.0, "rook on a file without pawns (half on a file without own pawns)";
    king_attack = 0.0, "attack on the enemy king's zone (middle game): times the square of the attack units";
    hint = 0.0, "scale of the variant's own threat hint (Cassandra: pending prophecies and the ladder)";
}

impl EvalWeights {
    /// The piece-square bonuses these weights play for role index `r` on square `sq`
    /// (from its own side), middle game and endgame, in centipawns: the file's `[tables]`
    /// or the compiled shapes, scaled by `pst` and blended toward the endgame by `taper`.
    pub fn bonuses(&self, r: usize, sq: usize) -> (i32, i32) {
        let (m, e) = match &self.tables {
            Some(t) => (t.mg[r][sq] as f64, t.eg[r][sq] as f64),
            None => (tables::PST_MG[r][sq] as f64, tables::PST_EG[r][sq] as f64),
        };
        (
            (m * self.pst).round() as i32,
            ((m + self.taper * (e - m)) * self.pst).round() as i32,
        )
    }
}

/// Pawns to centipawns.
fn cp(x: f64) -> i32 {
    (x * 100.0).round() as i32
}

/// The search's weights for games with a board whose positions are not orthodox:
/// `agents/data/eval/chess.toml`, compiled in (also the start of the Texel fits).
pub fn search_weights() -> &'static EvalWeights {
    static W: OnceLock<EvalWeights> = OnceLock::new();
    W.get_or_init(|| {
        toml::from_str(include_str!("../../data/eval/chess.toml"))
            .expect("agents/data/eval/chess.toml holds eval weights")
    })
}

/// The search's weights where every position is orthodox (`GameFacts::orthodox_positions`:
/// orthodox chess, Chess960): `agents/data/eval/orthodox.toml`, compiled in, the
/// piece-square tables fitted to Stockfish's scores (generation 4).
pub fn orthodox_weights() -> &'static EvalWeights {
    fitted::fitted_weights(ORTHODOX).expect("agents/data/eval/orthodox.toml is in fitted::FITTED")
}

/// The `GameFacts::eval` of orthodox chess and Chess960.
pub const ORTHODOX: &str = "orthodox";

/// The weights turned into centipawn tables per role and square (value plus scaled
/// bonus, middle game and endgame) and centipawn term weights, so scoring a board costs
/// two lookups per piece plus the terms that are switched on.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluator {
    weights: EvalWeights,
    mg: [[i32; 64]; 6],
    eg: [[i32; 64]; 6],
    /// The endgame tables differ from the middle-game ones.
    tapered: bool,
    terms: terms::TermWeights,
    /// The weights of the game's own features, non-zero ones only ([`features`]).
    features: Vec<(String, f64)>,
    /// The evaluator for games whose positions are orthodox (`GameFacts::orthodox_positions`),
    /// where it differs: the search's ([`Evaluator::search`]) has one, others none.
    orthodox: Option<Box<Evaluator>>,
    /// The other games' fitted evaluators by `GameFacts::eval` ([`fitted::FITTED`]), where
    /// they differ from this one: the search's has them, others none.
    fitted: Vec<(&'static str, Evaluator)>,
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
        let mut mg = [[0i32; 64]; 6];
        let mut eg = [[0i32; 64]; 6];
        for r in 0..6 {
            let v = cp(values[r]);
            for sq in 0..64 {
                let (m, e) = w.bonuses(r, sq);
                mg[r][sq] = v + m;
                eg[r][sq] = v + e;
            }
        }
        Evaluator {
            tapered: mg != eg,
            terms: terms::TermWeights::new(w),
            features: features::active(w),
            weights,
            mg,
            eg,
            orthodox: None,
            fitted: Vec::new(),
        }
    }

    /// The search's evaluator: [`search_weights`] for boards in general and one
    /// evaluator per fitted file ([`fitted::FITTED`]: [`orthodox_weights`] where the
    /// game's positions are orthodox, a variant's own fit where it has one), each passed
    /// through `adjust` (a spec's `eval.*` keys), so one setting moves all alike. A fitted
    /// evaluator equal to the general one is dropped, so with `eval=FILE` (the same
    /// weights whatever `adjust` is given) the file scores every game.
    pub fn search(adjust: impl Fn(EvalWeights) -> EvalWeights) -> Self {
        let mut e = Evaluator::new(adjust(search_weights().clone()));
        let mut fitted = Vec::new();
        for &(name, _) in fitted::FITTED {
            let w = fitted::fitted_weights(name).expect("an entry's weights");
            let own = Evaluator::new(adjust(w.clone()));
            if own != e {
                fitted.push((name, own));
            }
        }
        if let Some(i) = fitted.iter().position(|(n, _)| *n == ORTHODOX) {
            e.orthodox = Some(Box::new(fitted.remove(i).1));
        }
        e.fitted = fitted;
        e
    }

    /// The evaluator that scores `game`: the orthodox one where the game's positions are
    /// orthodox and there is one (one flag: orthodox play looks no name up), else the
    /// one fitted to the game's `GameFacts::eval` where there is one, else this one.
    #[inline(always)]
    fn for_game<G: Game>(&self, game: &G) -> &Evaluator {
        if self.orthodox.is_none() && self.fitted.is_empty() {
            return self;
        }
        let facts = game.facts();
        match &self.orthodox {
            Some(o) if facts.orthodox_positions => o,
            _ => self.fitted_named(facts.eval),
        }
    }

    #[inline(always)]
    fn fitted_named(&self, eval: &str) -> &Evaluator {
        self.fitted
            .iter()
            .find(|(n, _)| *n == eval)
            .map_or(self, |(_, e)| e)
    }

    pub fn weights(&self) -> &EvalWeights {
        &self.weights
    }

    /// Material, placement and positional terms of `board` for `color`, in centipawns.
    ///
    /// Hot: one call per node of `alphabeta` (every quiescence stand-pat). The pieces
    /// are read per colour and role from the bitboards (no mailbox walk), the phase by
    /// population counts, and both colours' terms in one pass ([`terms::score_both`]);
    /// the sums are the same integers in another order, so the score is unchanged
    /// (`board_score_matches_the_square_by_square_sum`).
    pub fn board_score(&self, board: &Board, color: Color) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the one feature the function is compiled for.
            return unsafe { self.board_score_popcnt(board, color) };
        }
        self.board_score_portable(board, color)
    }

    /// [`Evaluator::board_score`] compiled with the `popcnt` instruction: the score
    /// counts pieces, attacked squares and pawns by population counts (some thirty a
    /// call), which the baseline x86-64 target computes in a dozen instructions each.
    /// The same code, so the same integers: only the instruction differs.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn board_score_popcnt(&self, board: &Board, color: Color) -> i32 {
        self.board_score_portable(board, color)
    }

    #[inline(always)]
    fn board_score_portable(&self, board: &Board, color: Color) -> i32 {
        let mut mg = 0i32;
        let mut eg = 0i32;
        for c in [Color::White, Color::Black] {
            let sign = if c == color { 1 } else { -1 };
            let (mut m, mut e) = (0, 0);
            for role in Role::ALL {
                let r = role.index();
                for sq in board.pieces(c, role) {
                    let i = sq.relative(c).index();
                    m += self.mg[r][i];
                    if self.tapered {
                        e += self.eg[r][i];
                    }
                }
            }
            mg += sign * m;
            eg += sign * e;
        }
        let (tmg, teg) = if self.terms.any {
            let (m, e) = terms::score_both(board, &self.terms);
            let s = if color == Color::White { 1 } else { -1 };
            (s * m, s * e)
        } else {
            (0, 0)
        };
        if !self.tapered {
            // One table: the phase only weighs the terms that differ between phases.
            if tmg == teg {
                return mg + tmg;
            }
            eg = mg;
        }
        let phase = phase_of(board).min(tables::PHASE_MAX);
        ((mg + tmg) * phase + (eg + teg) * (tables::PHASE_MAX - phase)) / tables::PHASE_MAX
    }

    /// Evaluation of `game` for `seat` in pawns: board material and placement plus the
    /// variant's term where the variant has an orthodox board, else the variant's
    /// `material` hook.
    pub fn evaluate<G: Game>(&self, game: &G, seat: Seat) -> f64 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the one feature the function is compiled for.
            return unsafe { self.evaluate_popcnt(game, seat) };
        }
        self.evaluate_portable(game, seat)
    }

    /// [`Evaluator::evaluate`] compiled with `popcnt` (see
    /// [`Evaluator::board_score_popcnt`]; the variant's `material` hook counts pieces too).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn evaluate_popcnt<G: Game>(&self, game: &G, seat: Seat) -> f64 {
        self.evaluate_portable(game, seat)
    }

    #[inline(always)]
    fn evaluate_portable<G: Game>(&self, game: &G, seat: Seat) -> f64 {
        self.for_game(game).score_portable(game, seat)
    }

    #[inline(always)]
    fn score_portable<G: Game>(&self, game: &G, seat: Seat) -> f64 {
        // A cooperative game scores the team's progress, which the board's zero-sum
        // material and piece squares do not measure: the variant's own hook does.
        if game.facts().utility == engine::game::Utility::Identical {
            return game.material(seat);
        }
        match game.board() {
            Some(b) if seat < 2 => {
                let hint = if self.weights.hint != 0.0 {
                    self.weights.hint * game.eval_hint(seat)
                } else {
                    0.0
                };
                let own = if self.features.is_empty() {
                    0.0
                } else {
                    features::term(&self.features, game, seat)
                };
                self.board_score_portable(b, Color::from_index(seat)) as f64 / 100.0
                    + variant_term(game, b, seat)
                    + hint
                    + own
            }
            _ => game.material(seat),
        }
    }
}

/// The material phase of `board` (both colours; see [`tables::PHASE`]), uncapped.
#[inline(always)]
pub(crate) fn phase_of(board: &Board) -> i32 {
    Role::ALL
        .iter()
        .map(|&r| tables::PHASE[r.index()] * board.by_role(r).count() as i32)
        .sum()
}

/// The evaluator with the default weights.
pub fn default_evaluator() -> &'static Evaluator {
    static DEFAULT: OnceLock<Evaluator> = OnceLock::new();
    DEFAULT.get_or_init(Evaluator::default)
}

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

    /// The bitboard walk of `board_score` gives the square-by-square sum of the tables,
    /// the phase and the per-colour terms, for the default and the search's weights.
    #[test]
    fn board_score_matches_the_square_by_square_sum() {
        fn reference(e: &Evaluator, board: &Board, color: Color) -> i32 {
            let (mut mg, mut eg, mut phase) = (0, 0, 0);
            for sq in board.occupied() {
                let p = board.piece_at(sq).unwrap();
                let (r, i) = (p.role.index(), sq.relative(p.color).index());
                let sign = if p.color == color { 1 } else { -1 };
                mg += sign * e.mg[r][i];
                eg += sign * e.eg[r][i];
                phase += tables::PHASE[r];
            }
            let (wm, we) = terms::score(board, Color::White, &e.terms);
            let (bm, be) = terms::score(board, Color::Black, &e.terms);
            let s = if color == Color::White { 1 } else { -1 };
            let (tmg, teg) = (s * (wm - bm), s * (we - be));
            if !e.tapered && tmg == teg {
                return mg + tmg;
            }
            let phase = phase.min(tables::PHASE_MAX);
            ((mg + tmg) * phase + (eg + teg) * (tables::PHASE_MAX - phase)) / tables::PHASE_MAX
        }
        let evaluators = [
            Evaluator::default(),
            Evaluator::new(search_weights().clone()),
        ];
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/P6p/8/8/8/8/p6P/4K3 w - - 0 1",
        ] {
            let b = Board::from_fen(fen).unwrap();
            for e in &evaluators {
                for c in [Color::White, Color::Black] {
                    assert_eq!(e.board_score(&b, c), reference(e, &b, c), "{fen} {c:?}");
                }
            }
        }
    }

    /// The `popcnt` build of the evaluation (taken where the CPU has the instruction)
    /// gives the portable build's scores, over the positions of random games.
    #[test]
    fn popcnt_and_portable_evaluations_agree() {
        use engine::variants::chess::{Chess, ChessParams};
        use rand::{Rng, SeedableRng};
        let evaluators = [
            Evaluator::default(),
            Evaluator::new(search_weights().clone()),
        ];
        let mut rng = rand_pcg::Pcg64::seed_from_u64(36);
        let mut positions = 0;
        for _ in 0..30 {
            let mut g = Chess::new(&ChessParams::default());
            let mut moves = Vec::new();
            for _ in 0..rng.gen_range(0..120) {
                let b = g.board().expect("chess has a board");
                g.legal_actions(b.turn().index(), &mut moves);
                if moves.is_empty() {
                    break;
                }
                g.apply(moves[rng.gen_range(0..moves.len())]);
                let b = g.board().expect("chess has a board");
                for e in &evaluators {
                    for c in [Color::White, Color::Black] {
                        let s = e.board_score(b, c);
                        assert_eq!(s, e.board_score_portable(b, c), "{}", b.fen());
                        let seat = c.index();
                        assert_eq!(e.evaluate(&g, seat), e.evaluate_portable(&g, seat));
                    }
                }
                positions += 1;
            }
        }
        assert!(positions > 1000, "{positions}");
    }

    #[test]
    fn default_weights_are_the_piece_values() {
        let e = Evaluator::default();
        for (r, &v) in PIECE_VALUES.iter().enumerate() {
            for (sq, &bonus) in tables::PST_MG[r].iter().enumerate() {
                assert_eq!(e.mg[r][sq], v + bonus as i32, "role {r} square {sq}");
                assert_eq!(e.eg[r][sq], e.mg[r][sq], "one table by default");
            }
        }
        assert!(!e.terms.any);
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
    fn the_hint_weight_adds_the_variant_hint_and_is_off_by_default() {
        use engine::variants::cassandra::{Cassandra, CassandraParams};
        // Black's pawn prophecy aimed at White's e4 pawn.
        let g = replay(
            <Cassandra as Game>::new(&CassandraParams::default()),
            &["e2e4", "e7e5", "@e4"],
        )
        .unwrap();
        assert!(g.eval_hint(1) > 0.0);
        let plain = Evaluator::default().evaluate(&g, 1);
        let searched = search_weights();
        assert_eq!(
            searched.hint, 0.0,
            "the search's weights leave the hint out"
        );
        let hinted = Evaluator::new(EvalWeights {
            hint: 2.0,
            ..Default::default()
        });
        let got = hinted.evaluate(&g, 1);
        assert!(
            (got - plain - 2.0 * g.eval_hint(1)).abs() < 1e-9,
            "{got} {plain}"
        );
        assert!((hinted.evaluate(&g, 0) + got).abs() < 1e-9, "zero-sum");
    }

    /// Generation 4's decision: the fitted tables score orthodox chess and Chess960, the
    /// hand-set ones every variant without a fit of its own (issue 66), `eval.*` keys move
    /// both, and an `eval=FILE` (one weight set for both) scores every game alike.
    #[test]
    fn the_search_evaluator_uses_the_fitted_tables_only_in_orthodox_games() {
        use engine::variants::adrenaline::{Adrenaline, AdrenalineParams};
        use engine::variants::chess::{Chess, ChessParams};
        let moves = ["e2e4", "e7e5", "g1f3", "b8c6"];
        let chess = replay(Chess::new(&ChessParams::default()), &moves).unwrap();
        let c960 = <Chess as Game>::new(&ChessParams {
            position: Some(518),
            ..ChessParams::default()
        });
        let variant = replay(
            <Adrenaline as Game>::new(&AdrenalineParams::default()),
            &moves,
        )
        .unwrap();
        assert!(chess.facts().orthodox_positions && c960.facts().orthodox_positions);
        assert!(!variant.facts().orthodox_positions);
        let search = Evaluator::search(|w| w);
        let fitted = Evaluator::new(orthodox_weights().clone());
        let hand = Evaluator::new(search_weights().clone());
        // The variant's own fit where it has one (issue 66, `fitted`), else chess.toml.
        let own = Evaluator::new(fitted::weights_for(variant.facts().eval).clone());
        for seat in 0..2 {
            assert_eq!(search.evaluate(&chess, seat), fitted.evaluate(&chess, seat));
            assert_ne!(search.evaluate(&chess, seat), hand.evaluate(&chess, seat));
            assert_eq!(search.evaluate(&c960, seat), fitted.evaluate(&c960, seat));
            assert_eq!(
                search.evaluate(&variant, seat),
                own.evaluate(&variant, seat)
            );
        }
        // The same weights but the tables: the fitted file is chess.toml refitted.
        let mut w = orthodox_weights().clone();
        w.tables = None;
        assert_eq!(&w, search_weights());
        // An `eval.*` key reaches both sets.
        let knight = Evaluator::search(|mut w| {
            w.knight = 4.0;
            w
        });
        assert_eq!(knight.weights().knight, 4.0);
        assert_eq!(knight.for_game(&chess).weights().knight, 4.0);
        // White has given a knight for a pawn (the knights of `chess` cancel out).
        let uneven = replay(
            Chess::new(&ChessParams::default()),
            &["b1c3", "d7d5", "c3d5", "d8d5"],
        )
        .unwrap();
        assert!(knight.evaluate(&uneven, 0) < search.evaluate(&uneven, 0));
        // One file for both: no orthodox set, the file scores chess too.
        let file = Evaluator::search(|_| EvalWeights::default());
        assert!(file.orthodox.is_none() && file.fitted.is_empty());
        assert_eq!(
            file.evaluate(&chess, 0),
            Evaluator::default().evaluate(&chess, 0)
        );
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
