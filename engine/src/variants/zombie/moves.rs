//! Move generation: a move's king safety (with the mover's burials that could return,
//! [`king_exposed`]), regular and zombie moves, castling and the action list.

use super::*;

/// Whether `us`'s king on `board` (the position right after a move) breaks either of
/// the two king-safety rules of RULES.md: it is attacked right after the move, before
/// any return ("own king must not be in check after every move of the turn"), or it is
/// attacked once `us`'s own burials (`grid`) on `vacated` squares that are empty have
/// returned as the opponent's pieces (the reveal test). The two are separate tests: a
/// return that would block a check does not make the move legal
/// (`rule_check_right_after_each_move`), and a return that would give one makes it
/// illegal (`rule_reveal_into_check_refused`). With `choice` (the opponent picks a risen pawn's
/// piece) a pawn rising on its last rank counts as attacking if a queen or a knight
/// there would (the queen covers the rook and the bishop).
pub(super) fn king_exposed(
    board: &Board,
    us: Color,
    grid: BurialGrid,
    vacated: Bitboard,
    choice: bool,
) -> bool {
    let Some(king) = board.king(us) else {
        return false;
    };
    if board.is_attacked(king, us.other()) {
        return true;
    }
    let risen = vacated & grid.occupied() & !board.occupied();
    if risen.is_empty() {
        return false;
    }
    let promoted: &[Role] = if choice {
        &[Role::Queen, Role::Knight]
    } else {
        &[Role::Queen]
    };
    let mut b = board.clone();
    let mut any_promoted = false;
    for &p in promoted {
        for sq in risen {
            let role = grid.get(sq).expect("occupied");
            any_promoted |= rises_promoted(us.other(), role, sq);
            b.set_piece(sq, Some(risen_piece(us.other(), role, sq, p)));
        }
        if b.is_attacked(king, us.other()) {
            return true;
        }
        if !any_promoted {
            break;
        }
    }
    false
}

impl Zombie {
    /// Whether `mv` leaves the mover's king safe: unattacked right after it, and still
    /// unattacked once the mover's burials on every square vacated so far (this move's
    /// included) and empty after it have returned ([`king_exposed`]).
    fn is_safe(&self, mv: Move) -> bool {
        let us = self.mover();
        let grid = self.s.grids[us.index()].occupied();
        if !mv.is_castle() && ((self.s.vacated.with(mv.from())) & grid).is_empty() {
            // No burial of the mover can return (none lies under a square vacated so
            // far, this move's origin included): an orthodox king-safety test on
            // bitboards, without playing the move.
            return self.safe_without_returns(mv);
        }
        let mut b = self.board.clone();
        let (_, vac) = apply_to_board(&mut b, mv, &mut Vec::new());
        !king_exposed(
            &b,
            us,
            self.s.grids[us.index()],
            self.s.vacated | vac,
            self.promotion_choice,
        )
    }

    /// Whether `mv` (not castling) leaves the mover's king unattacked, when no burial
    /// returns.
    fn safe_without_returns(&self, mv: Move) -> bool {
        let b = &self.board;
        let us = b.turn();
        let Some(king) = b.king(us) else {
            return true;
        };
        let (from, to) = (mv.from(), mv.to());
        let mut gone = Bitboard::from_square(to);
        if mv.kind() == MoveKind::EnPassant {
            gone.set(Square::from_coords(to.file(), from.rank()));
        }
        let occ = (b.occupied().without(from) - gone).with(to);
        let k = if from == king { to } else { king };
        (b.attackers_to(k, us.other(), occ) - gone).is_empty()
    }

    /// Whether the mover's king is in check now: attacked on the board, or by the
    /// mover's pending returns (at a turn start nothing is pending; after a move of
    /// the turn neither can hold, since the move was legal). `end` is refused and mate
    /// is judged by it.
    pub(super) fn in_check_now(&self) -> bool {
        let us = self.mover();
        king_exposed(
            &self.board,
            us,
            self.s.grids[us.index()],
            self.s.vacated,
            self.promotion_choice,
        )
    }

    /// Legal moves of the mover in the play phase; the flag says whether a regular move
    /// is among them.
    fn play_moves(&self, out: &mut Vec<ZombieAction>) -> bool {
        let b = &self.board;
        let us = b.turn();
        let own = b.by_color(us);
        let mut movers = own & self.s.zombies & !self.s.moved;
        if !self.s.regular_done {
            movers |= own & !self.s.zombies;
        }
        let their_king = b.king(us.other());
        let mut list = MoveList::new();
        let occ = b.occupied();
        pseudo_moves(
            b,
            &mut list,
            movers,
            |_| occ,
            |_, cap| b.piece_at(cap) == Some(Piece::new(us.other(), Role::Pawn)),
        );
        let mut regular = false;
        // Moves that need no test at all: with the king unattacked and no burial of the
        // mover able to return, only a pinned piece, the king or an en passant capture
        // can expose the king.
        let grid = self.s.grids[us.index()].occupied();
        let exposed = match b.king(us) {
            Some(k) if (self.s.vacated & grid).is_empty() && !b.is_attacked(k, us.other()) => {
                b.pinned(us, k).with(k)
            }
            _ => Bitboard::FULL,
        };
        // A move may land on a square vacated earlier in the turn (RULES.md): nothing
        // returns onto it at the end of the turn.
        for &mv in list.iter() {
            if Some(mv.to()) == their_king {
                continue;
            }
            let free = !exposed.contains(mv.from())
                && !grid.contains(mv.from())
                && mv.kind() != MoveKind::EnPassant
                && !mv.is_castle();
            if free || self.is_safe(mv) {
                regular |= !self.s.zombies.contains(mv.from());
                out.push(ZombieAction::Move(mv));
            }
        }
        if !self.s.regular_done {
            let before = out.len();
            self.castles(out);
            regular |= out.len() > before;
        }
        regular
    }

    fn castles(&self, out: &mut Vec<ZombieAction>) {
        let b = &self.board;
        let us = b.turn();
        let Some(king) = b.king(us) else { return };
        if self.s.zombies.contains(king) || !Bitboard::relative_rank(us, 0).contains(king) {
            return;
        }
        // Castling is judged on the board as it stands (no castling out of check, none
        // through an attacked square); only the finished move meets the reveal test
        // ("Castling: finish the move, then reveal"), in `is_safe`. A pending return
        // neither blocks nor gives an attack on the squares the king starts on or
        // crosses (`rule_castling_judged_before_returns`).
        if b.is_attacked(king, us.other()) {
            return;
        }
        let occ = b.occupied();
        for rook in self.s.castling & b.pieces(us, Role::Rook) & !self.s.zombies {
            if rook.rank() != king.rank() {
                continue;
            }
            let (kd, rd) = Board::castle_targets(us, king, rook);
            let must_be_empty = (between(king, kd).with(kd) | between(rook, rd).with(rd))
                .without(king)
                .without(rook);
            if (must_be_empty & occ).any() {
                continue;
            }
            // The king may not pass through a square attacked now (seen with the king
            // lifted from its square).
            let lifted = occ.without(king);
            if Iterator::any(&mut between(king, kd), |sq| {
                b.attackers_to(sq, us.other(), lifted).any()
            }) {
                continue;
            }
            let mv = Move::new(king, rook, MoveKind::Castle);
            if self.is_safe(mv) {
                out.push(ZombieAction::Move(mv));
            }
        }
    }

    pub(super) fn actions(&self, out: &mut Vec<ZombieAction>) {
        out.clear();
        if self.s.outcome.is_some() {
            return;
        }
        match self.s.phase {
            Phase::Promote => {
                out.extend(PROMOTION_ROLES.iter().map(|&r| ZombieAction::Promote(r)));
            }
            Phase::Bury => {
                let us = self.mover();
                for sq in self.board.by_color(us) & !self.s.grids[us.index()].occupied() {
                    out.push(ZombieAction::Bury(sq));
                }
            }
            Phase::Play => {
                let regular = self.play_moves(out);
                if (self.s.regular_done || !regular) && !self.in_check_now() {
                    out.push(ZombieAction::End);
                }
            }
        }
    }
}
