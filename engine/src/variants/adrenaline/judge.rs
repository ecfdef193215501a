//! Judging candidate actions: the search-state stack, the enemy reaches worked out once
//! per position ([`Reaches`]) and the judge that keeps or refuses each candidate.

use super::*;

/// A stack of search states (`(carriers taken << 6) | square`) kept on the stack frame
/// for the usual few hundred, spilling onto the heap only beyond that: the reach search
/// runs for most judged candidates and a heap queue per call showed in profiles.
pub(super) struct StateStack {
    /// Slots below `len` are written (left unwritten below: zeroing them was a tenth of
    /// the search's time).
    pub(super) inline: [MaybeUninit<u16>; 256],
    pub(super) len: usize,
    pub(super) spill: Vec<u16>,
}

impl Default for StateStack {
    fn default() -> Self {
        StateStack {
            inline: [const { MaybeUninit::uninit() }; 256],
            len: 0,
            spill: Vec::new(),
        }
    }
}

impl StateStack {
    pub(super) fn push(&mut self, slot: u16) {
        if self.len < self.inline.len() {
            self.inline[self.len] = MaybeUninit::new(slot);
            self.len += 1;
        } else {
            self.spill.push(slot);
        }
    }

    pub(super) fn pop(&mut self) -> Option<u16> {
        if let Some(s) = self.spill.pop() {
            return Some(s);
        }
        self.len = self.len.checked_sub(1)?;
        // SAFETY: `push` wrote every slot below the old `len`.
        Some(unsafe { self.inline[self.len].assume_init() })
    }
}

/// The reach of every piece of one side in one position, worked out once so that each
/// candidate move or step of the other side re-examines only the pieces whose reach it
/// can change: those whose reach was read from a square the candidate changes (or that
/// gain or lose an en passant capture). The others reach what they reached before.
#[derive(Clone, Debug)]
pub(super) struct Reaches {
    pub(super) by: Color,
    /// The reach of the piece on each square of `by` (empty elsewhere).
    pub(super) reach: [Bitboard; 64],
    /// The squares each reach was read from ([`Pos::reach_set`]).
    pub(super) read: [Bitboard; 64],
    /// Every square `by` attacks.
    pub(super) all: Bitboard,
}

impl Reaches {
    /// The reaches of `by`'s pieces in `pos`, or `None` when the other side has so many
    /// carriers that a piece's reach could hit the `MAX_PRIZES` cap (then which carriers
    /// it tracks depends on squares it never reads, and candidates are judged afresh).
    pub(super) fn new(pos: &Pos, by: Color) -> Option<Reaches> {
        let carriers = (pos.stacked & pos.by_color[by.other().index()]).count() as usize;
        // A candidate adds at most one carrier (a plain piece taking one).
        if carriers + 1 > MAX_PRIZES {
            return None;
        }
        let mut r = Reaches {
            by,
            reach: [Bitboard::EMPTY; 64],
            read: [Bitboard::EMPTY; 64],
            all: Bitboard::EMPTY,
        };
        for sq in pos.by_color[by.index()] {
            let (reach, read) = pos.reach_set(sq, by);
            r.reach[sq.index()] = reach;
            r.read[sq.index()] = read;
            r.all |= reach;
        }
        Some(r)
    }

    /// Whether `by` attacks `target` in `after`, a position reached from `base` (the
    /// one these reaches belong to) by a move or step of the other side.
    pub(super) fn attack_after(&self, base: &Pos, after: &Pos, target: Square) -> bool {
        let by = self.by;
        let pieces = after.by_color[by.index()];
        let changed = base.changed_squares(after);
        let mut again = Bitboard::EMPTY;
        for p in pieces {
            if (self.read[p.index()] & changed).any() {
                again.set(p);
            }
        }
        if base.ep != after.ep {
            // A pawn that may take en passant in one position and not the other.
            for (e, side) in [base.ep, after.ep].into_iter().flatten() {
                if side == by {
                    again |= attacks::pawn_attacks(by.other(), e)
                        & pieces
                        & after.by_role[Role::Pawn.index()];
                }
            }
        }
        (pieces - again).any_square(|p| self.reach[p.index()].contains(target))
            || again.any_square(|p| after.reaches(p, by, target))
    }
}

/// Tells whether one candidate action of `us` ([`Adrenaline::candidates_into`]) is legal:
/// whether the mover's king is safe on the position the candidate leads to. With
/// `reaches` (the enemy reaches of the current position) a move or step re-examines only
/// the enemy pieces whose reach it can change; without, every enemy piece that might
/// reach the king is worked out afresh. The same test serves listing and drawing one
/// action, so the two agree by construction.
#[derive(Clone, Debug)]
pub(super) struct Judge {
    pub(super) pos: Pos,
    pub(super) us: Color,
    pub(super) phase: Phase,
    pub(super) checkers: u8,
    /// Boxed: the judge is moved around and kept in the status.
    pub(super) reaches: Option<Box<Reaches>>,
    /// For regular moves, once a candidate has been found illegal: the mover's king and
    /// the squares a move other than the king's must change to end a check on it, when
    /// it is in check ([`Judge::check_answers`]).
    pub(super) check: OnceLock<Option<(Square, Bitboard)>>,
}

impl Judge {
    pub(super) fn new(
        pos: Pos,
        us: Color,
        phase: Phase,
        checkers: u8,
        reaches: Option<Box<Reaches>>,
    ) -> Judge {
        Judge {
            pos,
            us,
            phase,
            checkers,
            reaches,
            check: OnceLock::new(),
        }
    }

    /// When the mover's king is in check: its square and squares of which a regular
    /// move of another piece must change one, or the check stands and the move is
    /// illegal. One checking piece is enough: if it is an orthodox attacker, a move
    /// answers it only by taking it or landing between it and the king (no move opens
    /// a line that was open already, and every reach includes the orthodox attacks);
    /// otherwise its reach stays as it was unless the move changes a square the reach
    /// was read from ([`Pos::reach_set`]; en passant can only be gained by the checker's
    /// side, which adds to a reach). Past the `MAX_PRIZES` cap the read squares are not
    /// the whole story ([`Reaches::new`]), so no squares are given there.
    pub(super) fn check_answers(&self) -> Option<(Square, Bitboard)> {
        let pos = &self.pos;
        let (us, them) = (self.us, self.us.other());
        let king = pos.king(us)?;
        let checker = pos.attacker(king, them)?;
        if pos
            .orthodox_attackers(king, them, pos.occupied())
            .contains(checker)
        {
            return Some((king, between(checker, king).with(checker)));
        }
        let carriers = (pos.stacked & pos.by_color[us.index()]).count() as usize;
        if carriers + 1 > MAX_PRIZES {
            return None;
        }
        Some((king, pos.reach_set(checker, them).1))
    }

    /// Whether the regular move `mv` leaves a known check standing (see
    /// [`Judge::check_answers`]): then it is illegal without working out any reach.
    /// Most candidates of a side in check are refused here.
    pub(super) fn leaves_the_check(&self, mv: Move) -> bool {
        let Some(Some((king, answers))) = self.check.get() else {
            return false;
        };
        if mv.from() == *king {
            return false;
        }
        let taken = if mv.kind() == MoveKind::EnPassant {
            Square::from_coords(mv.to().file(), mv.from().rank())
        } else {
            mv.to()
        };
        let changed = Bitboard::from_square(mv.from()).with(mv.to()).with(taken);
        (changed & *answers).is_empty()
    }

    /// Whether the opponent attacks `sq` now (for castling).
    pub(super) fn attacked_now(&self, sq: Square) -> bool {
        match &self.reaches {
            Some(r) => r.all.contains(sq),
            None => self.pos.attacked(sq, self.us.other()),
        }
    }

    /// Whether the mover's king is safe in `after`, a position one move or step away.
    /// Whether the mover's king is safe after the regular move `mv` (not a castling) in
    /// a position without a checker anywhere: then every reach is an orthodox attack and
    /// none can appear (only a capturing turn places checkers), so the attacks on the
    /// king are looked up on the board the move leaves, without making the position.
    pub(super) fn king_safe_after_plain_move(&self, mv: Move) -> bool {
        let p = &self.pos;
        let (us, them) = (self.us, self.us.other());
        let Some(king) = p.king(us) else {
            return true;
        };
        let (from, to) = (mv.from(), mv.to());
        let cap = if mv.kind() == MoveKind::EnPassant {
            Square::from_coords(to.file(), from.rank())
        } else {
            to
        };
        let king = if from == king { to } else { king };
        let occ = (p.occupied().without(from).without(cap)).with(to);
        // The piece taken attacks nothing any more.
        p.orthodox_attackers(king, them, occ)
            .without(cap)
            .is_empty()
    }

    pub(super) fn king_safe_after(&self, after: &Pos) -> bool {
        let them = self.us.other();
        !after.king(self.us).is_some_and(|k| match &self.reaches {
            Some(r) => r.attack_after(&self.pos, after, k),
            None => after.attacked(k, them),
        })
    }

    pub(super) fn is_legal(&self, action: AdrenalineAction) -> bool {
        let us = self.us;
        match (self.phase, action) {
            // The king may not start, cross or land on an attacked square: judged here
            // rather than when the candidates are made, so a draw that does not pick the
            // castling pays nothing for it.
            (Phase::Regular, AdrenalineAction::Move(mv)) if mv.is_castle() => {
                let (kd, _) = Board::castle_targets(us, mv.from(), mv.to());
                let path = between(mv.from(), kd).with(kd).with(mv.from());
                !path.any_square(|s| self.attacked_now(s))
                    && self.king_safe_after(&self.pos.after_move(mv, us))
            }
            (Phase::Regular, AdrenalineAction::Move(mv)) => {
                if self.leaves_the_check(mv) {
                    return false;
                }
                let legal = if self.pos.stacked.is_empty() {
                    self.king_safe_after_plain_move(mv)
                } else {
                    self.king_safe_after(&self.pos.after_move(mv, us))
                };
                // An illegal move hints at a check: look for one, once.
                if !legal && self.check.get().is_none() {
                    let _ = self.check.set(self.check_answers());
                }
                legal
            }
            (Phase::Steps(_), AdrenalineAction::Stop) => true,
            // The promoted piece only blocks and can be taken: its role does not change
            // what attacks the king, so one test covers all four.
            (Phase::Steps(from), AdrenalineAction::Step(to, _)) => {
                self.king_safe_after(&self.pos.after_step(from, to, us, None))
            }
            // Placement candidates already exclude an attacked king; the new checker
            // changes only the reach of the piece under it.
            (Phase::Place, AdrenalineAction::Place(sq)) => !self.pos.king(us).is_some_and(|k| {
                self.pos
                    .with_checkers(sq, self.checkers)
                    .reaches(sq, us.other(), k)
            }),
            _ => false,
        }
    }
}
