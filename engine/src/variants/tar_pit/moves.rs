//! Attacks and moves with tar (a tarred pawn attacks nothing, another tarred piece
//! only its two pawn-capture squares), castling, legality, and the checkers' moves
//! (returned, arriving, sent back to the back rank).

use super::*;

impl TarPit {
    /// Pieces of `by` (minus `removed`) attacking `target` with occupancy `occ`, tar
    /// included: a tarred pawn attacks nothing, another tarred piece attacks its two
    /// pawn-capture squares.
    pub fn attackers(
        &self,
        target: Square,
        by: Color,
        occ: Bitboard,
        removed: Bitboard,
    ) -> Bitboard {
        let b = &self.board;
        let mine = b.by_color(by) - removed;
        let tar = self.core.checkers[by.other().index()];
        let free = mine - tar;
        let pawnlike = (b.by_role(Role::Pawn) & free) | ((mine & tar) - b.by_role(Role::Pawn));
        let diag = b.by_role(Role::Bishop) | b.by_role(Role::Queen);
        let orth = b.by_role(Role::Rook) | b.by_role(Role::Queen);
        (attacks::pawn_attacks(by.other(), target) & pawnlike)
            | (attacks::knight_attacks(target) & b.by_role(Role::Knight) & free)
            | (attacks::king_attacks(target) & b.by_role(Role::King) & free)
            | (attacks::bishop_attacks(target, occ) & diag & free)
            | (attacks::rook_attacks(target, occ) & orth & free)
    }

    /// Whether `c`'s king is attacked (tar-aware).
    pub fn in_check_color(&self, c: Color) -> bool {
        self.board.king(c).is_some_and(|k| {
            self.attackers(k, c.other(), self.board.occupied(), Bitboard::EMPTY)
                .any()
        })
    }

    /// The en passant target after an enemy pawn's double step, whoever may use it (the
    /// board keeps one only when a pawn could take; a tarred piece may take too).
    fn ep_target(&self) -> Option<Square> {
        if let Some(ep) = self.board.ep_square() {
            return Some(ep);
        }
        let m = self.board.last_move()?;
        let moved = self.board.piece_at(m.to())?;
        (m.kind() == MoveKind::Normal
            && moved.role == Role::Pawn
            && m.from().index() ^ m.to().index() == 16)
            .then(|| Square::new(((m.from().index() + m.to().index()) / 2) as u8))
    }

    fn pseudo(&self, out: &mut MoveList) {
        let b = &self.board;
        let us = b.turn();
        let occ = b.occupied();
        let tar = self.tarred(us);
        pseudo_moves(b, out, !tar, |_| occ, |_, _| true);
        let theirs = b.by_color(us.other());
        for sq in tar - b.by_role(Role::Pawn) {
            let dr = if us == Color::White { 1 } else { -1 };
            if let Some(f) = sq.offset(0, dr) {
                if !occ.contains(f) {
                    out.push(Move::normal(sq, f));
                }
            }
            for to in attacks::pawn_attacks(us, sq) & theirs {
                out.push(Move::normal(sq, to));
            }
            if let Some(ep) = self.ep_target() {
                let victim = Square::from_coords(ep.file(), sq.rank());
                if attacks::pawn_attacks(us, sq).contains(ep)
                    && !occ.contains(ep)
                    && b.pieces(us.other(), Role::Pawn).contains(victim)
                {
                    out.push(Move::new(sq, ep, MoveKind::EnPassant));
                }
            }
        }
        self.castles(out);
    }

    pub(super) fn castles(&self, out: &mut MoveList) {
        let b = &self.board;
        let us = b.turn();
        let Some(king) = b.king(us) else { return };
        let with_checker = self.core.checkers[0] | self.core.checkers[1];
        let back = Bitboard::relative_rank(us, 0);
        if !back.contains(king) || with_checker.contains(king) {
            return;
        }
        let occ = b.occupied();
        for rook in b.castling_rights() & back & b.pieces(us, Role::Rook) {
            if with_checker.contains(rook) {
                continue;
            }
            let (kd, rd) = Board::castle_targets(us, king, rook);
            let must_be_empty = (attacks::between(king, kd).with(kd)
                | attacks::between(rook, rd).with(rd))
            .without(king)
            .without(rook);
            if (must_be_empty & occ).any() {
                continue;
            }
            let path = attacks::between(king, kd).with(kd).with(king);
            if path.any_square(|s| self.attackers(s, us.other(), occ, Bitboard::EMPTY).any()) {
                continue;
            }
            out.push(Move::new(king, rook, MoveKind::Castle));
        }
    }

    fn is_legal_pseudo(&self, m: Move) -> bool {
        let us = self.board.turn();
        let s = MoveSketch::new(&self.board, m);
        let Some(k) = s.king else { return true };
        self.attackers(k, us.other(), s.occupied, s.captured)
            .is_empty()
    }

    /// The mover's legal chess moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo(&mut list);
        let mut out = MoveList::new();
        for &m in list.iter() {
            if self.is_legal_pseudo(m) {
                out.push(m);
            }
        }
        out
    }

    pub(super) fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.pseudo(&mut list);
        list.iter().any(|&m| self.is_legal_pseudo(m))
    }

    /// Takes the checker off `sq` (if any) back in front of its owner.
    pub(super) fn return_checker(&mut self, sq: Square) {
        if let Some(c) = self.checker_at(sq) {
            self.core.checkers[c.index()].clear(sq);
            self.core.front[c.index()] += 1;
            if let Some(p) = self.board.piece_at(sq) {
                if p.color != c {
                    self.core.tally.cleansings[p.color.index()] += 1;
                }
            }
        }
    }

    /// A checker of `owner` (already out of its front or carried) arrives under the
    /// piece on `sq`: cancel, repel, or stay; then the back-rank rule.
    pub(super) fn arrive(&mut self, owner: Color, sq: Square) {
        match self.checker_at(sq) {
            None => self.core.checkers[owner.index()].set(sq),
            Some(c) if c == owner => self.core.front[owner.index()] += 1,
            Some(_) => {
                self.return_checker(sq);
                self.core.front[owner.index()] += 1;
            }
        }
        self.back_rank(sq);
    }

    /// An enemy checker never stays under a piece on that piece's back rank.
    pub(super) fn back_rank(&mut self, sq: Square) {
        if let Some(p) = self.board.piece_at(sq) {
            if Bitboard::relative_rank(p.color, 7).contains(sq)
                && self.checker_at(sq) == Some(p.color.other())
            {
                self.return_checker(sq);
            }
        }
    }
}
