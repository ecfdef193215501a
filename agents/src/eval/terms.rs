//! Positional terms of the evaluation on an orthodox board, per colour, as middle-game
//! and endgame centipawns: mobility, the bishop pair, doubled, isolated and passed
//! pawns, the king's pawn shield, rooks on open files and the attack on the enemy king.
//!
//! Decisions: mobility counts the squares a knight, bishop, rook or queen attacks that
//! hold no piece of its own and no enemy pawn guards (sliders see through nothing); a
//! doubled pawn is each pawn beyond the first on a file; the shield counts own pawns on
//! the two ranks in front of the king on its file and the files beside it, and weighs
//! in the middle game only; a rook on a file with no own pawn scores half of
//! `rook_open`, with no pawn at all the whole; the king attack (`king_attack`, off in
//! the search's weights: measured in results/strength/texel/README.md) counts, for each
//! knight, bishop, rook and queen, the squares of the enemy king's zone (its square and
//! the eight around it) it attacks, times 2, 2, 3 and 5 units, and scores the square of
//! the total (capped at 40 units) in the middle game, only with at least two attackers
//! and a queen of the attacking side on the board. Tests: `rule_terms_*` below.

use super::tables::{king_shield, passed_span, PASSED_RANK};
use super::{cp, EvalWeights};
use engine::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use engine::{Bitboard, Board, Color, Role};

/// The term weights in centipawns (passed pawns in centipawns per unit of
/// [`PASSED_RANK`], as hundredths).
#[derive(Clone, Debug, PartialEq)]
pub struct TermWeights {
    pub any: bool,
    mobility: i32,
    bishop_pair: i32,
    doubled: i32,
    isolated: i32,
    passed: i32,
    passed_eg: i32,
    king_shield: i32,
    rook_open: i32,
    /// Hundredths of a centipawn per squared attack unit.
    king_attack: i32,
}

impl TermWeights {
    pub fn new(w: &EvalWeights) -> TermWeights {
        let mut t = TermWeights {
            any: false,
            mobility: cp(w.mobility),
            bishop_pair: cp(w.bishop_pair),
            doubled: cp(w.doubled),
            isolated: cp(w.isolated),
            passed: cp(w.passed),
            passed_eg: cp(w.passed_eg),
            king_shield: cp(w.king_shield),
            rook_open: cp(w.rook_open),
            king_attack: (w.king_attack * 10_000.0).round() as i32,
        };
        t.any = [
            t.mobility,
            t.bishop_pair,
            t.doubled,
            t.isolated,
            t.passed,
            t.passed_eg,
            t.king_shield,
            t.rook_open,
            t.king_attack,
        ]
        .iter()
        .any(|&x| x != 0);
        t
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Attack units per zone square a knight, bishop, rook or queen attacks (by role index).
const KING_ATTACK_UNIT: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// Attack units beyond this count no more (a cap on the square).
const KING_ATTACK_CAP: i32 = 40;

/// Squares pawns of `color` attack.
#[inline(always)]
fn pawn_attacks(pawns: Bitboard, color: Color) -> Bitboard {
    let p = pawns.0;
    let not_a = !FILE_A;
    let not_h = !(FILE_A << 7);
    Bitboard(match color {
        Color::White => ((p & not_a) << 7) | ((p & not_h) << 9),
        Color::Black => ((p & not_a) >> 9) | ((p & not_h) >> 7),
    })
}

/// White's terms minus Black's, middle game and endgame: [`score`] for both colours,
/// with the pawn structure read by whole-board shifts instead of square by square (the
/// same counts: `rule_terms_both_colours_match_the_per_colour_score`). The evaluation
/// calls this at every node (inlined, so that `board_score`'s `popcnt` build reaches it).
#[inline(always)]
pub fn score_both(board: &Board, w: &TermWeights) -> (i32, i32) {
    let occ = board.occupied();
    let wp = board.pieces(Color::White, Role::Pawn).0;
    let bp = board.pieces(Color::Black, Role::Pawn).0;
    let mut mg = 0;
    let mut eg = 0;
    for (color, sign) in [(Color::White, 1), (Color::Black, -1)] {
        let them = color.other();
        let (pawns, their_pawns) = if color == Color::White {
            (wp, bp)
        } else {
            (bp, wp)
        };
        let (m, e) = colour_terms(board, color, occ, pawns, their_pawns, w);
        // Pawns that no enemy pawn ahead on their file or the files beside it stops.
        if w.passed != 0 || w.passed_eg != 0 {
            let blocked = front_fill(them, spread(their_pawns));
            for sq in Bitboard(pawns & !blocked) {
                let r = PASSED_RANK[sq.relative(color).rank() as usize];
                mg += sign * (w.passed * r / 100);
                eg += sign * (w.passed_eg * r / 100);
            }
        }
        mg += sign * m;
        eg += sign * e;
    }
    (mg, eg)
}

/// `b` with the files beside each square added.
#[inline(always)]
fn spread(b: u64) -> u64 {
    b | ((b << 1) & !FILE_A) | ((b >> 1) & !(FILE_A << 7))
}

/// The squares strictly ahead of `b` for pawns of `mover` (below for Black, above for
/// White): filled from the enemy pawns' spread, the squares where a pawn is not passed.
#[inline(always)]
fn front_fill(mover: Color, b: u64) -> u64 {
    match mover {
        Color::Black => {
            let mut x = b >> 8;
            x |= x >> 8;
            x |= x >> 16;
            x |= x >> 32;
            x
        }
        Color::White => {
            let mut x = b << 8;
            x |= x << 8;
            x |= x << 16;
            x |= x << 32;
            x
        }
    }
}

/// The files (bit f for file f) holding a square of `b`.
#[inline(always)]
fn file_set(b: u64) -> u8 {
    let mut x = b;
    x |= x >> 32;
    x |= x >> 16;
    x |= x >> 8;
    x as u8
}

/// Every term of `color` but the passed pawns, middle game and endgame.
#[inline(always)]
fn colour_terms(
    board: &Board,
    color: Color,
    occ: Bitboard,
    pawns: u64,
    their_pawns: u64,
    w: &TermWeights,
) -> (i32, i32) {
    let them = color.other();
    let mut mg = 0;
    let mut eg = 0;
    if w.mobility != 0 {
        let free = !(board.by_color(color) | pawn_attacks(Bitboard(their_pawns), them));
        let mut n = 0;
        for sq in board.pieces(color, Role::Knight) {
            n += (knight_attacks(sq) & free).count() as i32;
        }
        for sq in board.pieces(color, Role::Bishop) {
            n += (bishop_attacks(sq, occ) & free).count() as i32;
        }
        for sq in board.pieces(color, Role::Rook) {
            n += (rook_attacks(sq, occ) & free).count() as i32;
        }
        for sq in board.pieces(color, Role::Queen) {
            n += (queen_attacks(sq, occ) & free).count() as i32;
        }
        mg += n * w.mobility;
        eg += n * w.mobility;
    }
    // Its own pass over the pieces (not folded into mobility's), so the search's
    // weights, which leave it off, pay nothing for it.
    if w.king_attack != 0 && !board.pieces(color, Role::Queen).is_empty() {
        if let Some(k) = board.king(them) {
            let zone = king_attacks(k) | Bitboard(1 << k.index());
            let (mut units, mut attackers) = (0, 0);
            let mut tally = |attacks: Bitboard, unit: i32| {
                let hits = (attacks & zone).count() as i32;
                if hits > 0 {
                    units += unit * hits;
                    attackers += 1;
                }
            };
            for sq in board.pieces(color, Role::Knight) {
                tally(knight_attacks(sq), KING_ATTACK_UNIT[1]);
            }
            for sq in board.pieces(color, Role::Bishop) {
                tally(bishop_attacks(sq, occ), KING_ATTACK_UNIT[2]);
            }
            for sq in board.pieces(color, Role::Rook) {
                tally(rook_attacks(sq, occ), KING_ATTACK_UNIT[3]);
            }
            for sq in board.pieces(color, Role::Queen) {
                tally(queen_attacks(sq, occ), KING_ATTACK_UNIT[4]);
            }
            // One piece near the king is no attack; the square makes a gang worth more
            // than its members, as an attack on a king is.
            if attackers >= 2 {
                let u = units.min(KING_ATTACK_CAP);
                mg += u * u * w.king_attack / 100;
            }
        }
    }
    if w.bishop_pair != 0 && board.pieces(color, Role::Bishop).more_than_one() {
        mg += w.bishop_pair;
        eg += w.bishop_pair;
    }
    if w.doubled != 0 || w.isolated != 0 {
        let files = file_set(pawns);
        let doubled = (pawns.count_ones() - files.count_ones()) as i32;
        let isolated_files = files & !((files << 1) | (files >> 1));
        // A byte times the A-file copies it to every rank: the isolated files' squares.
        let isolated = (pawns & (isolated_files as u64).wrapping_mul(FILE_A)).count_ones() as i32;
        mg += doubled * w.doubled + isolated * w.isolated;
        eg += doubled * w.doubled + isolated * w.isolated;
    }
    if w.king_shield != 0 {
        if let Some(k) = board.king(color) {
            mg += (king_shield(color, k) & Bitboard(pawns)).count() as i32 * w.king_shield;
        }
    }
    if w.rook_open != 0 {
        for sq in board.pieces(color, Role::Rook) {
            let file = FILE_A << sq.file();
            if file & pawns == 0 {
                let v = if file & their_pawns == 0 {
                    w.rook_open
                } else {
                    w.rook_open / 2
                };
                mg += v;
                eg += v;
            }
        }
    }
    (mg, eg)
}

/// Middle-game and endgame centipawns of `color`'s terms (square by square; the
/// evaluation uses [`score_both`]).
pub fn score(board: &Board, color: Color, w: &TermWeights) -> (i32, i32) {
    let them = color.other();
    let own = board.by_color(color);
    let occ = board.occupied();
    let pawns = board.pieces(color, Role::Pawn);
    let their_pawns = board.pieces(them, Role::Pawn);
    let mut mg = 0;
    let mut eg = 0;

    if w.mobility != 0 {
        let free = !(own | pawn_attacks(their_pawns, them));
        let mut n = 0;
        for sq in board.pieces(color, Role::Knight) {
            n += (knight_attacks(sq) & free).count() as i32;
        }
        for sq in board.pieces(color, Role::Bishop) {
            n += (bishop_attacks(sq, occ) & free).count() as i32;
        }
        for sq in board.pieces(color, Role::Rook) {
            n += (rook_attacks(sq, occ) & free).count() as i32;
        }
        for sq in board.pieces(color, Role::Queen) {
            n += (queen_attacks(sq, occ) & free).count() as i32;
        }
        mg += n * w.mobility;
        eg += n * w.mobility;
    }
    if w.king_attack != 0 && !board.pieces(color, Role::Queen).is_empty() {
        if let Some(k) = board.king(them) {
            // Zone square by zone square: which pieces attack it.
            let (mut units, mut attackers) = (0, Bitboard(0));
            for z in king_attacks(k) | Bitboard(1 << k.index()) {
                for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                    for sq in board.pieces(color, role) {
                        let a = match role {
                            Role::Knight => knight_attacks(sq),
                            Role::Bishop => bishop_attacks(sq, occ),
                            Role::Rook => rook_attacks(sq, occ),
                            _ => queen_attacks(sq, occ),
                        };
                        if a.contains(z) {
                            units += KING_ATTACK_UNIT[role.index()];
                            attackers |= Bitboard(1 << sq.index());
                        }
                    }
                }
            }
            if attackers.count() >= 2 {
                let u = units.min(KING_ATTACK_CAP);
                mg += u * u * w.king_attack / 100;
            }
        }
    }
    if w.bishop_pair != 0 && board.pieces(color, Role::Bishop).more_than_one() {
        mg += w.bishop_pair;
        eg += w.bishop_pair;
    }
    if w.doubled != 0 || w.isolated != 0 || w.passed != 0 || w.passed_eg != 0 {
        let mut files = 0u8;
        let mut doubled = 0;
        for f in 0..8 {
            let n = (pawns.0 & (FILE_A << f)).count_ones() as i32;
            if n > 0 {
                files |= 1 << f;
                doubled += n - 1;
            }
        }
        let isolated_files = files & !((files << 1) | (files >> 1));
        let mut isolated = 0;
        for f in 0..8 {
            if isolated_files & (1 << f) != 0 {
                isolated += (pawns.0 & (FILE_A << f)).count_ones() as i32;
            }
        }
        mg += doubled * w.doubled + isolated * w.isolated;
        eg += doubled * w.doubled + isolated * w.isolated;
        if w.passed != 0 || w.passed_eg != 0 {
            for sq in pawns {
                if (passed_span(color, sq) & their_pawns).is_empty() {
                    let r = PASSED_RANK[sq.relative(color).rank() as usize];
                    mg += w.passed * r / 100;
                    eg += w.passed_eg * r / 100;
                }
            }
        }
    }
    if w.king_shield != 0 {
        if let Some(k) = board.king(color) {
            mg += (king_shield(color, k) & pawns).count() as i32 * w.king_shield;
        }
    }
    if w.rook_open != 0 {
        for sq in board.pieces(color, Role::Rook) {
            let file = Bitboard(FILE_A << sq.file());
            if (file & pawns).is_empty() {
                let v = if (file & their_pawns).is_empty() {
                    w.rook_open
                } else {
                    w.rook_open / 2
                };
                mg += v;
                eg += v;
            }
        }
    }
    (mg, eg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weights(f: impl FnOnce(&mut EvalWeights)) -> TermWeights {
        let mut w = EvalWeights::default();
        f(&mut w);
        TermWeights::new(&w)
    }

    /// The whole-board form of every term equals White's minus Black's square-by-square
    /// score, on positions with doubled, isolated and passed pawns on both sides.
    #[test]
    fn rule_terms_both_colours_match_the_per_colour_score() {
        let all = TermWeights::new(crate::eval::search_weights());
        let odd = weights(|w| {
            w.mobility = 0.03;
            w.bishop_pair = 0.3;
            w.doubled = -0.17;
            w.isolated = -0.13;
            w.passed = 0.37;
            w.passed_eg = 1.1;
            w.king_shield = 0.09;
            w.rook_open = 0.21;
            w.king_attack = 0.004;
        });
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/2p3p1/7P/8/2P5/2P5/P7/4K3 w - - 0 1",
            "4k3/pp1p2pp/8/P1P5/1p6/1P4pP/6P1/R3K2R b - - 0 1",
            "4k3/P6p/8/8/8/8/p6P/4K3 w - - 0 1",
        ] {
            let b = Board::from_fen(fen).unwrap();
            for w in [&all, &odd] {
                let (wm, we) = score(&b, Color::White, w);
                let (bm, be) = score(&b, Color::Black, w);
                assert_eq!(score_both(&b, w), (wm - bm, we - be), "{fen}");
            }
        }
    }

    /// The king attack: units per attacked zone square (knight and bishop 2, rook 3,
    /// queen 5), squared, only with two attackers or more and a queen on the board.
    #[test]
    fn rule_terms_king_attack() {
        let w = weights(|w| w.king_attack = 0.01); // 1 centipawn per squared unit
                                                   // The zone of a king on g8: f8 g8 h8 f7 g7 h7. A queen on h5 attacks h7 and h8
                                                   // up its file and f7 on its diagonal: 3 squares, 15 units; a knight on g5 attacks
                                                   // f7 and h7: 4 units; 19 units from two attackers.
        let b = Board::from_fen("6k1/8/8/6NQ/8/8/8/6K1 w - - 0 1").unwrap();
        assert_eq!(score(&b, Color::White, &w).0, 19 * 19);
        assert_eq!(score_both(&b, &w).0, 19 * 19);
        // The queen alone is one attacker: nothing.
        let q = Board::from_fen("6k1/8/8/7Q/8/8/8/6K1 w - - 0 1").unwrap();
        assert_eq!(score(&q, Color::White, &w).0, 0);
        // Without a queen two attackers are no attack either.
        let n = Board::from_fen("6k1/8/8/6NR/8/8/8/6K1 w - - 0 1").unwrap();
        assert_eq!(score(&n, Color::White, &w).0, 0);
        assert_eq!(score(&b, Color::White, &w).1, 0, "middle game only");
    }

    #[test]
    fn rule_terms_default_weights_are_off() {
        assert!(!TermWeights::new(&EvalWeights::default()).any);
    }

    #[test]
    fn rule_terms_pawn_structure() {
        // White: doubled c-pawns (one doubled), isolated a-pawn, passed h-pawn on h6.
        let b = Board::from_fen("4k3/8/7P/8/2P5/2P5/P7/4K3 w - - 0 1").unwrap();
        let d = weights(|w| w.doubled = -0.1);
        assert_eq!(score(&b, Color::White, &d), (-10, -10));
        // a2 and h6 are isolated; the c-pawns have no neighbours either.
        let i = weights(|w| w.isolated = -0.1);
        assert_eq!(score(&b, Color::White, &i), (-40, -40));
        // Every white pawn is passed (no black pawns): ranks 2, 3, 4, 6.
        let p = weights(|w| w.passed_eg = 1.0);
        let want = PASSED_RANK[1] + PASSED_RANK[2] + PASSED_RANK[3] + PASSED_RANK[5];
        assert_eq!(score(&b, Color::White, &p), (0, want));
        // A black pawn on g7 stops h6; c7 stops the c-pawns (same file).
        let b = Board::from_fen("4k3/2p3p1/7P/8/2P5/2P5/P7/4K3 w - - 0 1").unwrap();
        assert_eq!(score(&b, Color::White, &p), (0, PASSED_RANK[1]));
    }

    #[test]
    fn rule_terms_mobility_shield_rook_and_pair() {
        // A knight on a1 attacks b3 and c2; a black pawn on c4 guards b3.
        let b = Board::from_fen("4k3/8/8/8/2p5/8/8/N3K3 w - - 0 1").unwrap();
        let m = weights(|w| w.mobility = 0.01);
        assert_eq!(score(&b, Color::White, &m), (1, 1));
        let castled = Board::from_fen("4k3/8/8/8/8/7P/5PP1/6K1 w - - 0 1").unwrap();
        let s = weights(|w| w.king_shield = 0.1);
        assert_eq!(score(&castled, Color::White, &s), (30, 0));
        let rooks = Board::from_fen("4k3/p7/8/8/8/8/1P6/R1R1K3 w - - 0 1").unwrap();
        let r = weights(|w| w.rook_open = 0.2);
        // a1: no white pawn, a black one (half); c1: open file (whole).
        assert_eq!(score(&rooks, Color::White, &r), (30, 30));
        let pair = Board::from_fen("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1").unwrap();
        let bp = weights(|w| w.bishop_pair = 0.3);
        assert_eq!(score(&pair, Color::White, &bp), (30, 30));
        assert_eq!(score(&pair, Color::Black, &bp), (0, 0));
    }
}
