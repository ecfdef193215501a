//! Fully legal move generation for `Board`: pins, checks, en passant discoveries and
//! Chess960 castling (king and rook may swap or already stand on their targets).
//!
//! One generator feeds a `MoveSink`; a list sink collects moves, a counting sink only
//! adds up set sizes, which makes bulk-counting perft cheap without a second generator.

use crate::attacks::{self, between, line};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, MoveKind, MoveList};
use crate::square::{Color, Role, Square};

/// Receives generated moves in batches.
pub trait MoveSink {
    /// Normal moves (quiet or capture) from `from` to each target.
    fn normal(&mut self, from: Square, targets: Bitboard);
    /// Promotions from `from` to each target, four roles each.
    fn promotions(&mut self, from: Square, targets: Bitboard);
    /// One special move (en passant, castling).
    fn special(&mut self, mv: Move);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn normal(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            for r in Role::PROMOTIONS {
                self.push(Move::new(from, to, MoveKind::Promotion(r)));
            }
        }
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without listing them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn normal(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn promotions(&mut self, _from: Square, targets: Bitboard) {
        self.0 += 4 * targets.count() as u64;
    }
    #[inline(always)]
    fn special(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

/// Stops at the first move (for "has any legal move").
#[derive(Default)]
struct AnyMove(bool);

impl MoveSink for AnyMove {
    #[inline(always)]
    fn normal(&mut self, _from: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline(always)]
    fn promotions(&mut self, _from: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline(always)]
    fn special(&mut self, _mv: Move) {
        self.0 = true;
    }
}

impl Board {
    /// Our pieces pinned to our king, given its square.
    #[inline(always)]
    pub fn pinned(&self, us: Color, king: Square) -> Bitboard {
        let them = us.other();
        let occ = self.occupied();
        let rq = self.pieces(them, Role::Rook) | self.pieces(them, Role::Queen);
        let bq = self.pieces(them, Role::Bishop) | self.pieces(them, Role::Queen);
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & rq)
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & bq);
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = between(king, s) & occ;
            if !b.more_than_one() {
                pinned |= b;
            }
        }
        pinned & self.by_color(us)
    }

    /// Generates every legal move into `sink`.
    pub fn generate<S: MoveSink>(&self, sink: &mut S) {
        let us = self.turn();
        let them = us.other();
        let Some(king) = self.king(us) else {
            // Kingless positions (some variants set them up): every pseudo-legal move.
            self.generate_pieces(sink, Bitboard::FULL, Bitboard::EMPTY, None);
            return;
        };
        let occ = self.occupied();
        let ours = self.by_color(us);
        let checkers = self.attackers_to(king, them, occ);

        // King moves: the king must not stand on an attacked square once it has moved,
        // so attacks are judged with the king lifted off the board.
        let occ_no_king = occ.without(king);
        let mut king_targets = attacks::king_attacks(king) - ours;
        for t in king_targets {
            if self.attackers_to(t, them, occ_no_king).any() {
                king_targets.clear(t);
            }
        }
        sink.normal(king, king_targets);

        if checkers.more_than_one() {
            return;
        }
        let check_mask = match checkers.first() {
            Some(c) => between(king, c).with(c),
            None => Bitboard::FULL,
        };
        let pinned = self.pinned(us, king);
        self.generate_pieces(sink, check_mask, pinned, Some(king));

        if checkers.is_empty() {
            self.generate_castles(sink, us, king);
        }
    }

    /// Non-king moves (and king moves when kingless), restricted to `check_mask`, with
    /// pinned pieces kept on their pin lines.
    #[inline(always)]
    fn generate_pieces<S: MoveSink>(
        &self,
        sink: &mut S,
        check_mask: Bitboard,
        pinned: Bitboard,
        king: Option<Square>,
    ) {
        let us = self.turn();
        let them = us.other();
        let occ = self.occupied();
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let target_mask = check_mask - ours;
        let pin_line = |sq: Square| -> Bitboard {
            match king {
                Some(k) if pinned.contains(sq) => line(k, sq),
                _ => Bitboard::FULL,
            }
        };

        for sq in self.pieces(us, Role::Knight) - pinned {
            sink.normal(sq, attacks::knight_attacks(sq) & target_mask);
        }
        let bq = self.pieces(us, Role::Bishop) | self.pieces(us, Role::Queen);
        for sq in bq {
            sink.normal(
                sq,
                attacks::bishop_attacks(sq, occ) & target_mask & pin_line(sq),
            );
        }
        let rq = self.pieces(us, Role::Rook) | self.pieces(us, Role::Queen);
        for sq in rq {
            sink.normal(
                sq,
                attacks::rook_attacks(sq, occ) & target_mask & pin_line(sq),
            );
        }
        if king.is_none() {
            for sq in self.pieces(us, Role::King) {
                sink.normal(sq, attacks::king_attacks(sq) - ours);
            }
        }

        let last_rank = Bitboard::relative_rank(us, 7);
        let third_rank = Bitboard::relative_rank(us, 2);
        let empty = !occ;
        for sq in self.pieces(us, Role::Pawn) {
            let b = Bitboard::from_square(sq);
            let one = b.forward(us) & empty;
            let two = (one & third_rank).forward(us) & empty;
            let caps = attacks::pawn_attacks(us, sq) & theirs;
            let targets = (one | two | caps) & check_mask & pin_line(sq);
            if (targets & last_rank).any() {
                sink.promotions(sq, targets & last_rank);
                sink.normal(sq, targets - last_rank);
            } else {
                sink.normal(sq, targets);
            }
        }

        if let Some(ep) = self.ep_square() {
            let cap_sq = Square::from_coords(ep.file(), if us == Color::White { 4 } else { 3 });
            for sq in attacks::pawn_attacks(them, ep) & self.pieces(us, Role::Pawn) {
                // Judge en passant by the position after it: it can uncover an attack on
                // the king along the rank (both pawns leave) or fail to answer a check.
                let legal = match king {
                    None => true,
                    Some(k) => {
                        let occ2 = (occ.without(sq).without(cap_sq)).with(ep);
                        (self.attackers_to(k, them, occ2).without(cap_sq)).is_empty()
                    }
                };
                if legal {
                    sink.special(Move::new(sq, ep, MoveKind::EnPassant));
                }
            }
        }
    }

    fn generate_castles<S: MoveSink>(&self, sink: &mut S, us: Color, king: Square) {
        let rights =
            self.castling_rights() & Bitboard::relative_rank(us, 0) & self.pieces(us, Role::Rook);
        if rights.is_empty() || king.rank() != if us == Color::White { 0 } else { 7 } {
            return;
        }
        let them = us.other();
        let occ = self.occupied();
        for rook in rights {
            let (kd, rd) = Board::castle_targets(us, king, rook);
            let must_be_empty = (between(king, kd).with(kd) | between(rook, rd).with(rd))
                .without(king)
                .without(rook);
            if (must_be_empty & occ).any() {
                continue;
            }
            // Judged with king and rook lifted: the rook may shield the king's
            // destination from a rook or queen on the back rank (Chess960).
            let occ2 = occ.without(king).without(rook);
            let king_path = between(king, kd).with(kd).with(king);
            if king_path.any_square(|s| self.attackers_to(s, them, occ2).any()) {
                continue;
            }
            sink.special(Move::new(king, rook, MoveKind::Castle));
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// The number of legal moves (no list is built).
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = MoveCounter(0);
        self.generate(&mut c);
        c.0
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_moves(&self) -> bool {
        let mut a = AnyMove(false);
        self.generate(&mut a);
        a.0
    }

    /// Whether `mv` is legal here (checked against the generator).
    pub fn is_legal(&self, mv: Move) -> bool {
        self.piece_at(mv.from())
            .is_some_and(|p| p.color == self.turn())
            && self.legal_moves().contains(mv)
    }
}

impl Bitboard {
    /// True when `f` holds for some square of the set.
    #[inline(always)]
    pub fn any_square(self, mut f: impl FnMut(Square) -> bool) -> bool {
        for s in self {
            if f(s) {
                return true;
            }
        }
        false
    }
}
