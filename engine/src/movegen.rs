//! Fully legal move generation for `Board`: pins, checks, en passant discoveries and
//! Chess960 castling (king and rook may swap or already stand on their targets).
//!
//! One generator feeds a `MoveSink`; a list sink collects moves, a counting sink only
//! adds up set sizes, which makes bulk-counting perft cheap without a second generator,
//! a capture sink keeps the moves that take an enemy piece (quiescence search), and the
//! sink asking whether any move exists stops the generator at the first one.

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

    /// Whether this sink wants pawn moves as whole sets (`pawn_set` /
    /// `pawn_promotion_set`) rather than per pawn (then only pinned pawns come one by
    /// one). Every sink here does: lists then hold pawn moves grouped by kind (pushes,
    /// double pushes, captures) rather than by pawn.
    const SETWISE_PAWNS: bool = false;

    /// Whether the sink has what it wants: the generator then stops between batches
    /// (a sink asking only whether any move exists stops at the first one).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }

    /// Pawn moves to each of `targets`, each from the square `delta` below it
    /// (`from = to - delta`).
    #[inline(always)]
    fn pawn_set(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            self.normal(from, Bitboard::from_square(to));
        }
    }

    /// Promotions to each of `targets`, from `to - delta`, four roles each.
    #[inline(always)]
    fn pawn_promotion_set(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            self.promotions(from, Bitboard::from_square(to));
        }
    }
}

impl MoveSink for MoveList {
    const SETWISE_PAWNS: bool = true;
    #[inline(always)]
    fn pawn_set(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.push(Move::normal(
                Square::new((to.index() as i8 - delta) as u8),
                to,
            ));
        }
    }
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
    const SETWISE_PAWNS: bool = true;
    #[inline(always)]
    fn pawn_set(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawn_promotion_set(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += 4 * targets.count() as u64;
    }
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

/// Passes on only captures of enemy pieces (en passant included) to another sink.
struct Captures<'a, S: MoveSink> {
    inner: &'a mut S,
    theirs: Bitboard,
}

impl<S: MoveSink> MoveSink for Captures<'_, S> {
    const SETWISE_PAWNS: bool = S::SETWISE_PAWNS;
    #[inline(always)]
    fn pawn_set(&mut self, targets: Bitboard, delta: i8) {
        self.inner.pawn_set(targets & self.theirs, delta);
    }
    #[inline(always)]
    fn pawn_promotion_set(&mut self, targets: Bitboard, delta: i8) {
        self.inner.pawn_promotion_set(targets & self.theirs, delta);
    }
    #[inline(always)]
    fn normal(&mut self, from: Square, targets: Bitboard) {
        self.inner.normal(from, targets & self.theirs);
    }
    #[inline(always)]
    fn promotions(&mut self, from: Square, targets: Bitboard) {
        self.inner.promotions(from, targets & self.theirs);
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        if mv.kind() == MoveKind::EnPassant {
            self.inner.special(mv);
        }
    }
}

/// Collects moves into a `Vec` of the caller's type (a variant's actions), each made by
/// `wrap`, in the order a [`MoveList`] gets them, without a list in between.
pub struct VecSink<'a, T, F: Fn(Move) -> T> {
    pub out: &'a mut Vec<T>,
    pub wrap: F,
}

impl<T, F: Fn(Move) -> T> MoveSink for VecSink<'_, T, F> {
    const SETWISE_PAWNS: bool = true;
    #[inline(always)]
    fn pawn_set(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            self.out.push((self.wrap)(Move::normal(from, to)));
        }
    }
    #[inline(always)]
    fn normal(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.out.push((self.wrap)(Move::normal(from, to)));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            for r in Role::PROMOTIONS {
                self.out
                    .push((self.wrap)(Move::new(from, to, MoveKind::Promotion(r))));
            }
        }
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.out.push((self.wrap)(mv));
    }
}

/// Stops at the first move (for "has any legal move").
#[derive(Default)]
struct AnyMove(bool);

impl MoveSink for AnyMove {
    const SETWISE_PAWNS: bool = true;
    #[inline(always)]
    fn pawn_set(&mut self, targets: Bitboard, _delta: i8) {
        self.0 |= targets.any();
    }
    #[inline(always)]
    fn pawn_promotion_set(&mut self, targets: Bitboard, _delta: i8) {
        self.0 |= targets.any();
    }
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
    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

/// What the generator works out first about the side to move's king
/// ([`Board::king_safety`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingSafety {
    pub king: Square,
    /// Enemy pieces giving check.
    pub checkers: Bitboard,
    /// Our pieces pinned to the king.
    pub pinned: Bitboard,
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

    /// The pieces checking the side to move's king and its pieces pinned to it, in one
    /// pass over the enemy sliders that see the king on an empty board (nothing between
    /// means check, one piece means a pin); `None` for a kingless side.
    #[inline(always)]
    pub fn king_safety(&self) -> Option<KingSafety> {
        let us = self.turn();
        let them = us.other();
        let king = self.king(us)?;
        let occ = self.occupied();
        let theirs = self.by_color(them);
        let queens = self.by_role(Role::Queen);
        let rq = theirs & (self.by_role(Role::Rook) | queens);
        let bq = theirs & (self.by_role(Role::Bishop) | queens);
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & rq)
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & bq);
        let mut checkers = theirs
            & ((attacks::knight_attacks(king) & self.by_role(Role::Knight))
                | (attacks::pawn_attacks(us, king) & self.by_role(Role::Pawn)));
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = between(king, s) & occ;
            if b.is_empty() {
                checkers.set(s);
            } else if !b.more_than_one() {
                pinned |= b;
            }
        }
        Some(KingSafety {
            king,
            checkers,
            pinned: pinned & self.by_color(us),
        })
    }

    /// Generates every legal move into `sink`.
    pub fn generate<S: MoveSink>(&self, sink: &mut S) {
        self.generate_with(self.king_safety(), sink);
    }

    /// [`Board::generate`] with the position's [`Board::king_safety`] already worked
    /// out (a caller that needed it first, as [`Board::has_legal_moves_with`] does,
    /// saves computing it twice). `safety` must be this position's.
    pub fn generate_with<S: MoveSink>(&self, safety: Option<KingSafety>, sink: &mut S) {
        let us = self.turn();
        let them = us.other();
        let Some(KingSafety {
            king,
            checkers,
            pinned,
        }) = safety
        else {
            // Kingless positions (some variants set them up): every pseudo-legal move.
            self.generate_pieces(sink, Bitboard::FULL, Bitboard::EMPTY, None);
            return;
        };
        debug_assert_eq!(Some(king), self.king(us), "king_safety of another position");
        let occ = self.occupied();
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let queens = self.by_role(Role::Queen);
        let rq = theirs & (self.by_role(Role::Rook) | queens);
        let bq = theirs & (self.by_role(Role::Bishop) | queens);

        // King moves: the king must not stand on an attacked square once it has moved,
        // so attacks are judged with the king lifted off the board. Pawn and king
        // attacks go set-wise first; sliders and knights are looked up per target.
        let their_king = match self.king(them) {
            Some(k) => attacks::king_attacks(k),
            None => Bitboard::EMPTY,
        };
        let leaper_danger = self.pawn_attacks_of(them) | their_king;
        let mut king_targets = attacks::king_attacks(king) - ours - leaper_danger;
        if king_targets.any() {
            let occ_no_king = occ.without(king);
            let knights = theirs & self.by_role(Role::Knight);
            for t in king_targets {
                if (attacks::knight_attacks(t) & knights).any()
                    || (attacks::rook_attacks(t, occ_no_king) & rq).any()
                    || (attacks::bishop_attacks(t, occ_no_king) & bq).any()
                {
                    king_targets.clear(t);
                }
            }
        }
        sink.normal(king, king_targets);

        if checkers.more_than_one() || sink.done() {
            return;
        }
        match checkers.first() {
            Some(c) => {
                // In check, a pinned piece can never help (its pin line does not hold
                // the checker), so pinned pieces stay put.
                let check_mask = between(king, c).with(c);
                self.generate_pieces(sink, check_mask, pinned, Some(king));
            }
            None => {
                self.generate_pieces(sink, Bitboard::FULL, pinned, Some(king));
                if (self.castling_rights() & ours).any() {
                    self.generate_castles(sink, us, king, leaper_danger);
                }
            }
        }
    }

    /// Squares attacked by the pawns of `c` (set-wise).
    #[inline(always)]
    fn pawn_attacks_of(&self, c: Color) -> Bitboard {
        let p = self.pieces(c, Role::Pawn).0;
        let (west, east) = (p & !Bitboard::FILE_A.0, p & !Bitboard::FILE_H.0);
        Bitboard(match c {
            Color::White => (west << 7) | (east << 9),
            Color::Black => (west >> 9) | (east >> 7),
        })
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
        if sink.done() {
            return;
        }
        let bq = self.pieces(us, Role::Bishop) | self.pieces(us, Role::Queen);
        for sq in bq {
            sink.normal(
                sq,
                attacks::bishop_attacks(sq, occ) & target_mask & pin_line(sq),
            );
        }
        if sink.done() {
            return;
        }
        let rq = self.pieces(us, Role::Rook) | self.pieces(us, Role::Queen);
        for sq in rq {
            sink.normal(
                sq,
                attacks::rook_attacks(sq, occ) & target_mask & pin_line(sq),
            );
        }
        if sink.done() {
            return;
        }
        if king.is_none() {
            for sq in self.pieces(us, Role::King) {
                sink.normal(sq, attacks::king_attacks(sq) - ours);
            }
        }

        let last_rank = Bitboard::relative_rank(us, 7);
        let third_rank = Bitboard::relative_rank(us, 2);
        let empty = !occ;
        let pawns = self.pieces(us, Role::Pawn);
        if S::SETWISE_PAWNS {
            // Unpinned pawns as whole sets; pinned ones below, one by one.
            let free = (pawns - pinned).0;
            let (west, east) = (free & !Bitboard::FILE_A.0, free & !Bitboard::FILE_H.0);
            let (one, west_caps, east_caps, up, w, e) = match us {
                Color::White => (free << 8, west << 7, east << 9, 8i8, 7i8, 9i8),
                Color::Black => (free >> 8, west >> 9, east >> 7, -8, -9, -7),
            };
            let one = Bitboard(one) & empty;
            let two = (one & third_rank).forward(us) & empty & check_mask;
            let one = one & check_mask;
            let capture_mask = theirs & check_mask;
            let west_caps = Bitboard(west_caps) & capture_mask;
            let east_caps = Bitboard(east_caps) & capture_mask;
            if ((one | west_caps | east_caps) & last_rank).any() {
                sink.pawn_promotion_set(one & last_rank, up);
                sink.pawn_promotion_set(west_caps & last_rank, w);
                sink.pawn_promotion_set(east_caps & last_rank, e);
            }
            sink.pawn_set(one - last_rank, up);
            sink.pawn_set(two, 2 * up);
            sink.pawn_set(west_caps - last_rank, w);
            sink.pawn_set(east_caps - last_rank, e);
        }
        let per_pawn = if S::SETWISE_PAWNS {
            pawns & pinned
        } else {
            pawns
        };
        for sq in per_pawn {
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

    /// Castling moves; `leaper_danger` holds the squares enemy pawns and king attack.
    fn generate_castles<S: MoveSink>(
        &self,
        sink: &mut S,
        us: Color,
        king: Square,
        leaper_danger: Bitboard,
    ) {
        self.legal_castles(us, king, leaper_danger, |m| sink.special(m));
    }

    /// The legal castling moves of `us` (not in check), each passed to `emit`;
    /// `leaper_danger` holds the squares enemy pawns and the enemy king attack. Shared
    /// with the variants that generate their own moves (Time Chess's playouts), so
    /// castling is judged in one place.
    pub(crate) fn legal_castles(
        &self,
        us: Color,
        king: Square,
        leaper_danger: Bitboard,
        mut emit: impl FnMut(Move),
    ) {
        let back_rank = Bitboard::relative_rank(us, 0);
        let rights = self.castling_rights() & back_rank & self.pieces(us, Role::Rook);
        if rights.is_empty() || !back_rank.contains(king) {
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
            // Judged with king and rook lifted: in Chess960 the rook may stand between
            // an attacker on the back rank and a square the king crosses. The king's own
            // square is known safe (castling is only generated when not in check), and
            // with the rook in a corner lifting it uncovers nothing on the king's path.
            let occ2 = occ.without(king).without(rook);
            let corner = rook.file() == 0 || rook.file() == 7;
            let king_path = if corner {
                between(king, kd).with(kd)
            } else {
                between(king, kd).with(kd).with(king)
            };
            if (king_path & leaper_danger).any() {
                continue;
            }
            let knights = self.pieces(them, Role::Knight);
            let queens = self.pieces(them, Role::Queen);
            let rq = self.pieces(them, Role::Rook) | queens;
            let bq = self.pieces(them, Role::Bishop) | queens;
            if king_path.any_square(|s| {
                (attacks::knight_attacks(s) & knights).any()
                    || (attacks::rook_attacks(s, occ2) & rq).any()
                    || (attacks::bishop_attacks(s, occ2) & bq).any()
            }) {
                continue;
            }
            emit(Move::new(king, rook, MoveKind::Castle));
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// The legal moves that capture an enemy piece (en passant included; castling,
    /// which Chess960 writes as the king taking its own rook, is not one); checked
    /// against the list in engine/tests/properties.rs.
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_captures_with(self.king_safety(), &mut list);
        list
    }

    /// Generates [`Board::legal_captures`] into `sink`, given the position's
    /// [`Board::king_safety`].
    pub fn generate_captures_with<S: MoveSink>(&self, safety: Option<KingSafety>, sink: &mut S) {
        let theirs = self.by_color(self.turn().other());
        self.generate_with(
            safety,
            &mut Captures {
                inner: sink,
                theirs,
            },
        );
    }

    /// The number of legal moves (no list is built).
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = MoveCounter(0);
        self.generate(&mut c);
        c.0
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.has_legal_moves_with(self.king_safety())
    }

    /// [`Board::has_legal_moves`] with the position's [`Board::king_safety`]. Out of
    /// check, a single step of a pawn or a knight's, bishop's, rook's or queen's move
    /// that no pin holds back is legal whatever else stands on the board, which settles
    /// most positions before the generator runs (checked against the list at every
    /// position of engine/tests/properties.rs).
    pub fn has_legal_moves_with(&self, safety: Option<KingSafety>) -> bool {
        if let Some(k) = safety.filter(|k| k.checkers.is_empty()) {
            let us = self.turn();
            let ours = self.by_color(us);
            let occ = self.occupied();
            let free = ours - k.pinned;
            let pawns = self.pieces(us, Role::Pawn) & free;
            if (pawns.forward(us) - occ).any() {
                return true;
            }
            let queens = self.pieces(us, Role::Queen);
            if (self.pieces(us, Role::Knight) & free)
                .any_square(|sq| (attacks::knight_attacks(sq) - ours).any())
                || ((self.pieces(us, Role::Rook) | queens) & free)
                    .any_square(|sq| (attacks::rook_attacks(sq, occ) - ours).any())
                || ((self.pieces(us, Role::Bishop) | queens) & free)
                    .any_square(|sq| (attacks::bishop_attacks(sq, occ) - ours).any())
            {
                return true;
            }
        }
        let mut a = AnyMove(false);
        self.generate_with(safety, &mut a);
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
