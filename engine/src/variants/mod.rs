//! One module per variant, each a rule set on top of the engine's primitives, plus the
//! small pieces of move arithmetic several variants share.
//!
//! The rules come from the seed texts (copied in `docs/seeds/`) as closed by the lab's
//! decisions in `docs/RULES.md`; each variant's doc comment names its sections there, and
//! each rule has a `rule_*` test. Variants are listed in one table, `crate::registry`.

pub mod adrenaline;
pub mod cassandra;
pub mod chess;
pub mod clairvoyant;
pub mod cooperative;
pub mod crowded_house;
pub mod expedition;
pub mod golf;
pub mod half_alice;
pub mod masquerade;
pub mod synchronous;
pub mod tar_pit;
pub mod time;
pub mod two_move;
pub mod zombie;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, MoveKind};
use crate::square::Square;

/// The occupancy after a move, worked out without playing it: variants whose check
/// rules differ from orthodox chess judge king safety from this instead of copying the
/// position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveSketch {
    /// Every occupied square after the move.
    pub occupied: Bitboard,
    /// Where the mover's king stands after the move (if it has one).
    pub king: Option<Square>,
    /// Squares whose (enemy) pieces the move removes.
    pub captured: Bitboard,
}

impl MoveSketch {
    pub fn new(board: &Board, mv: Move) -> MoveSketch {
        let us = board.turn();
        let mut king = board.king(us);
        let from = mv.from();
        let to = mv.to();
        let mut occupied = board.occupied().without(from);
        let mut captured = Bitboard::EMPTY;
        match mv.kind() {
            MoveKind::Castle => {
                let (kd, rd) = Board::castle_targets(us, from, to);
                occupied = occupied.without(to).with(kd).with(rd);
                king = Some(kd);
            }
            MoveKind::EnPassant => {
                let cap = Square::from_coords(to.file(), from.rank());
                occupied = occupied.without(cap).with(to);
                captured.set(cap);
            }
            _ => {
                if board.piece_at(to).is_some() {
                    captured.set(to);
                }
                occupied = occupied.with(to);
                if king == Some(from) {
                    king = Some(to);
                }
            }
        }
        MoveSketch {
            occupied,
            king,
            captured,
        }
    }
}

/// Pseudo-legal moves (orthodox geometry, no king-safety test, no castling) for the side
/// to move, for variants that change what blocks or what may be captured.
/// - `movers`: which of the mover's pieces may move;
/// - `view(sq)`: the occupancy the piece on `sq` sees (what blocks it and what it may
///   capture: enemy pieces in its view); destinations must otherwise be empty squares;
/// - `en_passant(pawn, captured)`: whether the pawn may take the pawn on `captured`.
pub(crate) fn pseudo_moves(
    board: &Board,
    out: &mut crate::moves::MoveList,
    movers: Bitboard,
    view: impl Fn(Square) -> Bitboard,
    en_passant: impl Fn(Square, Square) -> bool,
) {
    use crate::attacks;
    use crate::square::Role;
    let us = board.turn();
    let occ = board.occupied();
    let theirs = board.by_color(us.other());
    let last = Bitboard::relative_rank(us, 7);
    for sq in board.by_color(us) & movers {
        let seen = view(sq);
        let role = board.piece_at(sq).expect("own piece").role;
        if role != Role::Pawn {
            for to in attacks::attacks(role, us, sq, seen) & (!occ | (theirs & seen)) {
                out.push(Move::normal(sq, to));
            }
            continue;
        }
        let step = Bitboard::from_square(sq).forward(us);
        let one = step & !occ;
        let two = (step - seen).forward(us) & Bitboard::relative_rank(us, 3) & !occ;
        let caps = attacks::pawn_attacks(us, sq) & theirs & seen;
        for to in one | two | caps {
            if last.contains(to) {
                for r in Role::PROMOTIONS {
                    out.push(Move::new(sq, to, MoveKind::Promotion(r)));
                }
            } else {
                out.push(Move::normal(sq, to));
            }
        }
        if let Some(ep) = board.ep_square() {
            let cap = Square::from_coords(ep.file(), sq.rank());
            if attacks::pawn_attacks(us, sq).contains(ep)
                && !occ.contains(ep)
                && en_passant(sq, cap)
            {
                out.push(Move::new(sq, ep, MoveKind::EnPassant));
            }
        }
    }
}

/// Castling moves for the side to move without any attack test (variants with royal
/// capture: Masquerade, Two Move): the rights, the king on its back rank and the squares
/// both pieces cross or land on empty but for the two are all it needs.
pub(crate) fn castles_without_attack_test(board: &Board, mut push: impl FnMut(Move)) {
    use crate::attacks::between;
    let us = board.turn();
    let Some(king) = board.king(us) else { return };
    let back = Bitboard::relative_rank(us, 0);
    if !back.contains(king) {
        return;
    }
    let occ = board.occupied();
    for rook in board.castling_rights() & back & board.pieces(us, crate::square::Role::Rook) {
        let (kd, rd) = Board::castle_targets(us, king, rook);
        let must_be_empty = (between(king, kd).with(kd) | between(rook, rd).with(rd))
            .without(king)
            .without(rook);
        if (must_be_empty & occ).is_empty() {
            push(Move::new(king, rook, MoveKind::Castle));
        }
    }
}

/// The common draws of RULES.md for variants that keep their own history of state keys,
/// in order: the ply cap (`plies` against `ply_cap`), insufficient material (unless the
/// variant says more material is in play), the 50-move rule, threefold repetition.
/// `earlier_keys` are the state keys before each action, oldest first.
pub(crate) fn common_draw(
    board: &Board,
    plies: usize,
    ply_cap: u32,
    extra_mating_power: bool,
    key: u64,
    earlier_keys: impl DoubleEndedIterator<Item = u64>,
) -> Option<&'static str> {
    if plies as u64 >= ply_cap as u64 {
        Some("cap")
    } else if board.is_bare_material() && !extra_mating_power {
        Some("insufficient-material")
    } else if board.halfmoves() >= 100 {
        Some("fifty-moves")
    } else if earlier_keys
        .rev()
        .take(board.halfmoves() as usize)
        .filter(|&k| k == key)
        .count()
        >= 2
    {
        Some("repetition")
    } else {
        None
    }
}

/// The result when the side to move has no legal move: checkmate if `in_check`, else
/// stalemate (two seats).
pub(crate) fn no_moves_result(
    mover: crate::square::Color,
    in_check: bool,
) -> crate::game::GameResult {
    use crate::game::{two_seat_returns, GameResult};
    if in_check {
        GameResult {
            returns: two_seat_returns(Some(mover.other().index())),
            reason: "checkmate",
        }
    } else {
        GameResult {
            returns: two_seat_returns(None),
            reason: "stalemate",
        }
    }
}

/// An orthodox board outcome as a two-seat game result.
pub(crate) fn outcome_result(o: crate::board::Outcome) -> crate::game::GameResult {
    crate::game::GameResult {
        returns: crate::game::two_seat_returns(o.winner.map(crate::square::Color::index)),
        reason: o.termination.name(),
    }
}

/// Test support shared by the variants that cache their status between moves.
#[cfg(test)]
pub(crate) mod testing {
    use crate::game::{Game, Turn};
    use rand::{Rng, SeedableRng};

    /// The status `apply` caches (and `undo` marks stale) answers `turn`, `result`,
    /// `legal_actions` and `state_key` exactly as working them out afresh (`refresh`) and
    /// as a copy whose cache was marked stale (`make_stale`) do, after applies and after
    /// undos, in six seeded random games.
    pub(crate) fn check_cached_status<G: Game + Clone>(
        new: impl Fn() -> G,
        refresh: impl Fn(&mut G),
        make_stale: impl Fn(&mut G),
    ) {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(19);
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        let mut undos = 0;
        for _ in 0..6 {
            let mut g = new();
            loop {
                let mut fresh = g.clone();
                refresh(&mut fresh);
                let mut stale = g.clone();
                make_stale(&mut stale);
                assert_eq!(g.turn(), fresh.turn());
                assert_eq!(g.turn(), stale.turn());
                assert_eq!(g.result(), fresh.result());
                assert_eq!(g.result(), stale.result());
                assert_eq!(g.state_key(), fresh.state_key());
                assert_eq!(g.state_key(), stale.state_key());
                for seat in 0..g.num_seats() {
                    g.legal_actions(seat, &mut a);
                    fresh.legal_actions(seat, &mut b);
                    stale.legal_actions(seat, &mut c);
                    assert_eq!(a, b);
                    assert_eq!(a, c);
                }
                let Turn::Seat(seat) = g.turn() else { break };
                g.legal_actions(seat, &mut a);
                g.apply(a[rng.gen_range(0..a.len())]);
                if rng.gen_range(0..4) == 0 {
                    g.undo();
                    undos += 1;
                }
            }
        }
        assert!(undos > 0);
    }
}
