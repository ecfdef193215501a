//! The game's end at a turn start and applying actions: moves played with the squares
//! they change recorded, burials, promotion, the turn's end and the next turn's start.

use super::*;

impl Zombie {
    /// The outcome at a turn start; `no_moves`: the mover has no move (regular or
    /// zombie).
    fn compute_outcome(&self, no_moves: bool) -> Option<GameResult> {
        if self.s.turns >= self.ply_cap {
            return Some(GameResult {
                returns: two_seat_returns(None),
                reason: "cap",
            });
        }
        if no_moves {
            return Some(no_moves_result(self.mover(), self.in_check_now()));
        }
        let draw = |reason| {
            Some(GameResult {
                returns: two_seat_returns(None),
                reason,
            })
        };
        let graveyard_empty = self.s.grids.iter().all(|g| g.is_empty());
        if graveyard_empty && self.board.is_bare_material() {
            return draw("insufficient-material");
        }
        if self.s.quiet_turns >= 100 {
            return draw("fifty-moves");
        }
        let key = *self.turn_keys.last().expect("turn start key");
        let window = (self.s.quiet_turns as usize + 1).min(self.turn_keys.len());
        let repeats = self.turn_keys[self.turn_keys.len() - window..]
            .iter()
            .filter(|&&k| k == key)
            .count();
        if repeats >= 3 {
            return draw("repetition");
        }
        None
    }

    pub(super) fn set(
        &mut self,
        squares: &mut Vec<(Square, Option<Piece>)>,
        sq: Square,
        p: Option<Piece>,
    ) {
        squares.push((sq, self.board.piece_at(sq)));
        self.board.set_piece(sq, p);
    }

    pub(super) fn play_move(&mut self, mv: Move, squares: &mut Vec<(Square, Option<Piece>)>) {
        let us = self.mover();
        let from = mv.from();
        let piece = self.board.piece_at(from).expect("a piece to move");
        let is_zombie = self.s.zombies.contains(from);
        let cap_sq = match mv.kind() {
            MoveKind::EnPassant => Some(Square::from_coords(mv.to().file(), from.rank())),
            MoveKind::Castle => None,
            _ => self.board.piece_at(mv.to()).map(|_| mv.to()),
        };
        if let Some(c) = cap_sq {
            let captured = self.board.piece_at(c).expect("captured piece");
            if self.s.zombies.contains(c) {
                self.s.zombies.clear(c);
            } else {
                self.pending.push(captured);
            }
            if is_zombie {
                self.s.tallies[us.index()][T_ZCAPS] += 1;
            }
            self.s.irreversible = true;
        }
        let (landed, vac) = apply_to_board(&mut self.board, mv, squares);
        self.s.vacated |= vac;
        self.s.moved |= landed;
        if is_zombie {
            self.s.zombies.clear(from);
            self.s.zombies |= landed;
            self.s.tallies[us.index()][T_ZMOVES] += 1;
        } else {
            self.s.regular_done = true;
        }
        if piece.role == Role::Pawn {
            self.s.irreversible = true;
            if from.index() ^ mv.to().index() == 16 {
                self.s.double_step =
                    Some(Square::new(((from.index() + mv.to().index()) / 2) as u8));
            }
        }
        let mut lost =
            self.s.castling & (Bitboard::from_square(from) | Bitboard::from_square(mv.to()));
        if let Some(c) = cap_sq {
            lost |= self.s.castling & Bitboard::from_square(c);
        }
        if piece.role == Role::King {
            lost |= self.s.castling & Bitboard::relative_rank(us, 0);
        }
        self.s.castling -= lost;
        // An en passant chance that no pawn can take any more (its taker moved, or took
        // it) is dropped now, as `Board::set_state` would drop it on `undo`.
        let b = &self.board;
        let (c, ep, hm, fm) = (
            b.castling_rights(),
            b.ep_square(),
            b.halfmoves(),
            b.fullmoves(),
        );
        if ep.is_some() {
            self.board.set_state(us, c, ep, hm, fm);
        }
        self.snapshots.push(Snapshot {
            board: self.board.clone(),
            vacated: self.s.vacated,
            turn: self.s.turns,
        });
    }

    pub(super) fn end_turn(&mut self, squares: &mut Vec<(Square, Option<Piece>)>) {
        let us = self.mover();
        let them = us.other();
        let unmoved = self.board.by_color(us) & self.s.zombies & !self.s.moved;
        for sq in unmoved {
            self.set(squares, sq, None);
            self.s.zombies.clear(sq);
            self.s.tallies[us.index()][T_DESTROYED] += 1;
        }
        let mut h = mix(self.s.public_hash, 0xE4D);
        h = mix(h, unmoved.0);
        for sq in self.s.vacated {
            if self.board.piece_at(sq).is_some() {
                // A piece landed on the square after it was vacated: nothing returns
                // onto it, the burials there stay under that piece, and the square is
                // still announced (`rule_landing_on_vacated_square`).
                h = mix(h, 0xC0E + sq.index() as u64);
                self.push_event(Event::Covered { by: us, sq });
                continue;
            }
            let mine = self.s.grids[us.index()].get(sq);
            let theirs = self.s.grids[them.index()].get(sq);
            let rose = if let Some(r) = mine {
                self.s.grids[us.index()] = self.s.grids[us.index()].remove(sq);
                Some((us, r))
            } else if let Some(r) = theirs {
                self.s.grids[them.index()] = self.s.grids[them.index()].remove(sq);
                Some((them, r))
            } else {
                None
            };
            if let Some((burier, role)) = rose {
                let owner = burier.other();
                if self.promotion_choice && rises_promoted(owner, role, sq) {
                    // Stands as a queen until its owner chooses (`Phase::Promote`).
                    self.s.promoting.set(sq);
                }
                self.set(squares, sq, Some(risen_piece(owner, role, sq, Role::Queen)));
                self.s.zombies.set(sq);
                self.s.tallies[owner.index()][T_RAISED] += 1;
            }
            h = mix(
                h,
                sq.index() as u64 * 64
                    + rose.map_or(0, |(b, r)| 1 + b.index() as u64 * 8 + r.index() as u64),
            );
            self.push_event(Event::Vacated { by: us, sq, rose });
        }
        self.s.public_hash = h;
        if self.s.promoting.any() {
            self.s.phase = Phase::Promote;
            return;
        }
        self.advance();
    }

    /// The owner's choice for the lowest risen pawn waiting for one.
    pub(super) fn promote(&mut self, role: Role, squares: &mut Vec<(Square, Option<Piece>)>) {
        let Some(sq) = self.s.promoting.first() else {
            return;
        };
        let owner = self.board.piece_at(sq).expect("risen pawn").color;
        self.set(squares, sq, Some(Piece::new(owner, role)));
        self.s.promoting.clear(sq);
        self.s.public_hash = mix(self.s.public_hash, 0x9A0 + role.index() as u64);
        if self.s.promoting.is_empty() {
            self.advance();
        }
    }

    /// Handles burials that need no decision, then either waits for a burial choice or
    /// starts the opponent's turn.
    pub(super) fn advance(&mut self) {
        let us = self.mover();
        while !self.pending.is_empty() {
            let free = self.board.by_color(us) & !self.s.grids[us.index()].occupied();
            if free.any() {
                self.s.phase = Phase::Bury;
                return;
            }
            self.push_event(Event::CannotBury {
                by: us,
                candidates: self.board.by_color(us),
            });
            self.s.tallies[us.index()][T_CANNOT] += 1;
            self.s.public_hash = mix(self.s.public_hash, 0xCA7);
            self.pending.remove(0);
        }
        self.start_turn();
    }

    fn start_turn(&mut self) {
        let next = self.mover().other();
        self.s.quiet_turns = if self.s.irreversible {
            0
        } else {
            self.s.quiet_turns + 1
        };
        self.s.turns += 1;
        self.board.set_state(
            next,
            self.s.castling,
            self.s.double_step,
            self.s.quiet_turns.min(u16::MAX as u32) as u16,
            self.s.turns.min(u16::MAX as u32) as u16,
        );
        self.s.ep = self.board.ep_square();
        self.s.moved = Bitboard::EMPTY;
        self.s.vacated = Bitboard::EMPTY;
        self.s.regular_done = false;
        self.s.double_step = None;
        self.s.irreversible = false;
        self.s.phase = Phase::Play;
        self.turn_keys.push(self.position_key());
        self.judge_turn_start();
    }

    /// Lists the actions at a turn start into the cache and judges the outcome with
    /// the same list (mate and stalemate need to know whether a move exists).
    pub(super) fn judge_turn_start(&mut self) {
        self.s.outcome = None;
        let mut list = std::mem::take(&mut self.listed);
        self.actions(&mut list);
        let no_moves = !list.iter().any(|a| matches!(a, ZombieAction::Move(_)));
        self.s.outcome = self.compute_outcome(no_moves);
        if self.s.outcome.is_some() {
            list.clear();
        }
        self.listed = list;
        self.listed_fresh = true;
    }

    /// Lists the actions at the current state into the cache.
    pub(super) fn refresh_listed(&mut self) {
        let mut list = std::mem::take(&mut self.listed);
        self.actions(&mut list);
        self.listed = list;
        self.listed_fresh = true;
    }
}

/// Plays `mv` on `b` with piece edits only (no side change); returns the squares pieces
/// landed on and the squares vacated, recording old contents in `squares`.
pub(super) fn apply_to_board(
    b: &mut Board,
    mv: Move,
    squares: &mut Vec<(Square, Option<Piece>)>,
) -> (Bitboard, Bitboard) {
    let us = b.turn();
    let from = mv.from();
    let to = mv.to();
    let piece = b.piece_at(from).expect("a piece to move");
    let mut set = |b: &mut Board, sq: Square, p: Option<Piece>| {
        squares.push((sq, b.piece_at(sq)));
        b.set_piece(sq, p);
    };
    match mv.kind() {
        MoveKind::Castle => {
            let (kd, rd) = Board::castle_targets(us, from, to);
            let rook = b.piece_at(to);
            set(b, from, None);
            set(b, to, None);
            set(b, kd, Some(piece));
            set(b, rd, rook);
            let landed = Bitboard::from_square(kd).with(rd);
            let vac = Bitboard::from_square(from).with(to) & !landed;
            (landed, vac)
        }
        MoveKind::EnPassant => {
            let cap = Square::from_coords(to.file(), from.rank());
            set(b, cap, None);
            set(b, from, None);
            set(b, to, Some(piece));
            (Bitboard::from_square(to), Bitboard::from_square(from))
        }
        MoveKind::Promotion(r) => {
            set(b, from, None);
            set(b, to, Some(Piece::new(us, r)));
            (Bitboard::from_square(to), Bitboard::from_square(from))
        }
        MoveKind::Normal => {
            set(b, from, None);
            set(b, to, Some(piece));
            (Bitboard::from_square(to), Bitboard::from_square(from))
        }
    }
}
