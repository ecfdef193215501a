//! One action checked by itself, for replays: `offered(a)` answers whether the actor's
//! legal list (`compute_actions`) holds `a`, generating only what that one action needs
//! (the piece's moves for a destination guess, one drop's end-of-turn search, one move's
//! safety and price), and `named_move` reads a move's text straight into the move. So
//! `apply_text` with a stale cache (a replay) checks a recorded action at about the cost
//! of playing it, never by working out and printing a whole list.
//!
//! Each kind follows its part of `offers.rs` step for step and shares its helpers
//! (`unsafe_free_completes`, `bought_ok`, `reachable_in_check`), so the two cannot
//! drift apart; `direct_check_agrees_with_the_list_in_random_play` holds `offered`
//! against the list for every action of every kind (legal ones and their mutations), and
//! `stale_parse_gives_the_list_answer_error_text_included` holds `parse_action` with a
//! stale cache against the list-based answer (a fresh cache), error messages included.

use super::*;
use crate::bitboard::Bitboard;

impl Clairvoyant {
    /// Whether the actor's legal list holds `a` (as `compute_actions` would list it).
    pub(super) fn offered(&self, a: ClairAction) -> bool {
        // A recorded action is checked exactly whatever the running decision's deadline
        // (crate::deadline cuts only a searching agent's lists).
        crate::deadline::exact(|| self.offered_exactly(a))
    }

    fn offered_exactly(&self, a: ClairAction) -> bool {
        let phase = self.s.phase;
        match a {
            ClairAction::Pass => match phase {
                Phase::Guess | Phase::MoverGuess | Phase::Retract => true,
                Phase::Drops | Phase::Extra => self.can_pass(),
                Phase::Start | Phase::Free | Phase::Over => false,
            },
            ClairAction::RetractGuess => phase == Phase::MoverGuess,
            ClairAction::Retract => {
                phase == Phase::Retract
                    && self
                        .s
                        .retract_cost
                        .is_some_and(|c| self.s.balance[self.guesser().index()] >= c)
            }
            ClairAction::Guess(g) => {
                phase == Phase::Guess
                    && self.s.n_guesses < self.params.max_guesses
                    && self.guess_offered(g)
            }
            ClairAction::Drop(role, sq) => {
                (phase == Phase::Start || (phase == Phase::Drops && self.s.bought == 0))
                    && self.drop_offered(role, sq)
            }
            ClairAction::Move(m) => {
                matches!(phase, Phase::Start | Phase::Free) && self.free_offered(m)
            }
            ClairAction::Buy(m) => {
                matches!(phase, Phase::Drops | Phase::Extra) && self.buy_offered(m)
            }
        }
    }

    /// `guesses`, for one guess.
    fn guess_offered(&self, g: Guess) -> bool {
        let b = &self.board;
        let mover = self.s.mover;
        match g {
            Guess::Piece(sq) => b.by_color(mover).contains(sq),
            Guess::Destination(from, to) => {
                let mut list = MoveList::new();
                mover_moves(b, &mut list);
                list.iter()
                    .any(|&m| m.from() == from && destination(mover, m) == to)
            }
            Guess::BuySquare(role, sq) => self
                .guessed_drop_squares(role, Bitboard::from_square(sq))
                .contains(sq),
            Guess::Buy(role) => self.guessed_drop_squares(role, Bitboard::FULL).any(),
            Guess::Extra => {
                self.blind || self.s.balance[mover.index()] >= self.costs().min_bought_move()
            }
        }
    }

    /// The squares of `within` a drop guess of `role` may name (`guesses`).
    pub(super) fn guessed_drop_squares(&self, role: Role, within: Bitboard) -> Bitboard {
        let b = &self.board;
        let mover = self.s.mover;
        let budget = (!self.blind).then_some(self.s.balance[mover.index()]);
        let squares = reachable_drop_squares(b, role, budget, self.costs()) & within;
        if !self.blind && self.s.start_check {
            let mut sc = scratch(b, mover);
            let mut memo = purchases::EndMemo::default();
            self.reachable_in_check(&mut sc, &mut memo, role, squares)
        } else {
            squares
        }
    }

    /// `drops`, for one drop.
    fn drop_offered(&self, role: Role, sq: Square) -> bool {
        let mover = self.s.mover;
        let balance = self.s.balance[mover.index()];
        let costs = self.costs();
        if balance < costs.drop.min() || self.board.turn() != mover {
            return false;
        }
        let cost = costs.drop.get(role);
        if cost > balance || !drop_squares(&self.board, role).contains(sq) {
            return false;
        }
        if !in_check(&self.board, mover) {
            return true;
        }
        let mut b = scratch(&self.board, mover);
        place(&mut b, role, sq);
        can_end(
            &mut b,
            balance - cost,
            self.params.bought_after_drops,
            self.s.start_check,
            costs,
            &mut purchases::EndMemo::default(),
        )
    }

    /// `free_options`, for one move.
    fn free_offered(&self, m: Move) -> bool {
        let mover = self.s.mover;
        if self.s.retractions > 0 && self.turn_moves().iter().any(|t| t.retracted && t.mv == m) {
            return false;
        }
        let mut l = MoveList::new();
        if royal_king(&self.board, mover).is_none() {
            mover_moves(&self.board, &mut l);
            return l.contains(m);
        }
        if safe_moves(&self.board, mover).contains(m) {
            return true;
        }
        let balance = self.s.balance[mover.index()];
        if self.params.bought_after_move == 0 || balance < self.costs().min_bought_move() {
            return false;
        }
        mover_moves(&self.board, &mut l);
        l.contains(m) && self.unsafe_free_completes(&mut scratch(&self.board, mover), m, balance)
    }

    /// `bought_moves`, for one move.
    fn buy_offered(&self, m: Move) -> bool {
        let Some(offers::BuyContext {
            balance,
            mut moves,
            left,
            mut b,
        }) = self.buy_context()
        else {
            return false;
        };
        let mut l = MoveList::new();
        mover_moves(&b, &mut l);
        l.contains(m) && self.bought_ok(&mut b, &mut moves, m, balance, left)
    }

    /// The moves `text` names in UCI (as `uci` prints it) among the mover's moves, in the
    /// order the legal list would hold them: on the board for a free move (its legal
    /// moves first, as `free_options` lists them), on the scratch board for a bought one
    /// (which never takes en passant). Only the moves with the named squares are printed,
    /// to compare the text exactly.
    pub(super) fn named_moves(&self, text: &str, bought: bool) -> Vec<Move> {
        let mover = self.s.mover;
        let mut out = Vec::new();
        if !(text.len() == 4 || text.len() == 5) || !text.is_ascii() {
            return out;
        }
        let (Some(from), Some(to)) = (Square::parse(&text[0..2]), Square::parse(&text[2..4]))
        else {
            return out;
        };
        let named =
            |m: &Move| m.from() == from && destination(mover, *m) == to && uci(mover, *m) == text;
        let mut l = MoveList::new();
        if bought {
            mover_moves(&scratch(&self.board, mover), &mut l);
        } else {
            if royal_king(&self.board, mover).is_some() {
                out.extend(safe_moves(&self.board, mover).iter().copied().filter(named));
            }
            mover_moves(&self.board, &mut l);
        }
        for m in l.iter().copied().filter(named) {
            if !out.contains(&m) {
                out.push(m);
            }
        }
        out
    }
}

/// Where `m` takes the moving piece (castling: the king's square).
fn destination(mover: Color, m: Move) -> Square {
    if m.is_castle() {
        Board::castle_targets(mover, m.from(), m.to()).0
    } else {
        m.to()
    }
}
