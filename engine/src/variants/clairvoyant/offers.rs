//! The legal actions of each step worked out (`compute_actions`): the guess sheet, drops
//! (with the search for a later legal end of the turn), free moves with their safety,
//! bought moves with their prices (`unsafe_free_completes` and `bought_ok` judge one
//! move each, and `check.rs` uses them too).

use super::*;

impl Clairvoyant {
    pub(super) fn guesses(&self, out: &mut Vec<ClairAction>) {
        let b = &self.board;
        let mover = self.s.mover;
        let balance = self.s.balance[mover.index()];
        for sq in b.by_color(mover) {
            out.push(ClairAction::Guess(Guess::Piece(sq)));
        }
        let mut list = MoveList::new();
        mover_moves(b, &mut list);
        let mut seen = [0u64; 64];
        for &m in list.iter() {
            let to = if m.is_castle() {
                Board::castle_targets(mover, m.from(), m.to()).0
            } else {
                m.to()
            };
            let bit = 1u64 << to.index();
            if seen[m.from().index()] & bit == 0 {
                seen[m.from().index()] |= bit;
                out.push(ClairAction::Guess(Guess::Destination(m.from(), to)));
            }
        }
        let costs = self.costs();
        // In check, which sequences can still end the turn depends on the balance too:
        // worked out by search (open mode only; blind mode does not know the balance).
        let mut in_check_search = (!self.blind && self.s.start_check)
            .then(|| (scratch(b, mover), purchases::EndMemo::default()));
        for role in Role::ALL {
            let budget = (!self.blind).then_some(balance);
            let mut squares = reachable_drop_squares(b, role, budget, costs);
            if let Some((sc, memo)) = in_check_search.as_mut() {
                squares = self.reachable_in_check(sc, memo, role, squares);
            }
            for sq in squares {
                out.push(ClairAction::Guess(Guess::BuySquare(role, sq)));
            }
            if squares.any() {
                out.push(ClairAction::Guess(Guess::Buy(role)));
            }
        }
        if self.blind || balance >= costs.min_bought_move() {
            out.push(ClairAction::Guess(Guess::Extra));
        }
    }

    /// Of `squares` (where `role` could be dropped after at most one blocking drop, by
    /// price and placement), those some sequence of drops that can end the turn legally
    /// reaches, for a mover in check at the start of the turn (`sc`: the start position,
    /// the mover to move). A drop allowed now is reachable if the turn can end after it
    /// (drops commute, and it may come first); else it needs one of the blockers allowed
    /// now first (see [`purchases::reachable_drop_squares`]), and the turn must be able to
    /// end after both (further drops included).
    pub(super) fn reachable_in_check(
        &self,
        sc: &mut Board,
        memo: &mut purchases::EndMemo,
        role: Role,
        squares: crate::bitboard::Bitboard,
    ) -> crate::bitboard::Bitboard {
        let balance = self.s.balance[self.s.mover.index()];
        let costs = self.costs();
        let cost = costs.drop.get(role);
        let (left, start_check) = (self.params.bought_after_drops, self.s.start_check);
        let enemy_king = royal_king(sc, self.s.mover.other());
        let mut out = crate::bitboard::Bitboard::EMPTY;
        for sq in squares {
            let ok = if drop_allowed(sc, role, sq) {
                place(sc, role, sq);
                let ok = can_end(sc, balance - cost, left, start_check, costs, memo);
                sc.set_piece(sq, None);
                ok
            } else {
                let between = enemy_king.map_or(crate::bitboard::Bitboard::EMPTY, |k| {
                    crate::attacks::between(sq, k)
                });
                let mut ok = false;
                'blockers: for t in between {
                    for r in Role::ALL {
                        let c = costs.drop.get(r);
                        if c + cost > balance || !drop_allowed(sc, r, t) {
                            continue;
                        }
                        place(sc, r, t);
                        if drop_allowed(sc, role, sq) {
                            place(sc, role, sq);
                            ok = can_end(sc, balance - cost - c, left, start_check, costs, memo);
                            sc.set_piece(sq, None);
                        }
                        sc.set_piece(t, None);
                        if ok {
                            break 'blockers;
                        }
                    }
                }
                ok
            };
            if ok {
                out |= crate::bitboard::Bitboard::from_square(sq);
            }
        }
        out
    }

    /// Drops the mover may make now: affordable, allowed, and the turn can still end
    /// legally after it, by further drops and bought moves ([`can_end`]).
    pub(super) fn drops(&self, out: &mut Vec<ClairAction>) {
        self.drops_upto(out, usize::MAX);
    }

    /// Whether the mover may make any drop now (the search stops at the first: deciding
    /// checkmate needs one way out, not the list, and each drop in check costs an
    /// end-of-turn search).
    pub(super) fn any_drop(&self) -> bool {
        let mut out = Vec::new();
        // Exact whatever the deadline: it decides whether the game is over.
        crate::deadline::exact(|| self.drops_upto(&mut out, 1));
        !out.is_empty()
    }

    /// [`Self::drops`], stopping once `limit` drops are found.
    fn drops_upto(&self, out: &mut Vec<ClairAction>, limit: usize) {
        let start = out.len();
        let mover = self.s.mover;
        let balance = self.s.balance[mover.index()];
        let costs = self.costs();
        if balance < costs.drop.min() || self.board.turn() != mover {
            return;
        }
        let checked = in_check(&self.board, mover);
        let mut sc = if checked {
            Some(scratch(&self.board, mover))
        } else {
            None
        };
        let mut memo = purchases::EndMemo::default();
        for role in Role::ALL {
            let cost = costs.drop.get(role);
            if cost > balance {
                continue;
            }
            for sq in drop_squares(&self.board, role) {
                let ok = match sc.as_mut() {
                    None => true,
                    Some(b) => {
                        place(b, role, sq);
                        let ok = can_end(
                            b,
                            balance - cost,
                            self.params.bought_after_drops,
                            self.s.start_check,
                            costs,
                            &mut memo,
                        );
                        b.set_piece(sq, None);
                        ok
                    }
                };
                if ok {
                    out.push(ClairAction::Drop(role, sq));
                    if out.len() - start >= limit {
                        return;
                    }
                }
            }
        }
    }

    /// Free moves (with whether each is legal by itself), excluding retracted ones.
    pub(super) fn free_options(&self, out: &mut Vec<(Move, bool)>) {
        self.free_options_upto(out, true, usize::MAX);
    }

    /// Whether the mover has any free move, legal by itself or repaired by bought moves
    /// (stops at the first, as [`Self::any_drop`]).
    pub(super) fn any_free_move(&self) -> bool {
        let mut out = Vec::new();
        self.free_options_upto(&mut out, true, 1);
        !out.is_empty()
    }

    /// The first part of [`Self::free_options`]: the free moves legal by themselves
    /// (every one is, without a royal king).
    pub(super) fn safe_free_options(&self, out: &mut Vec<(Move, bool)>) {
        self.free_options_upto(out, false, usize::MAX);
    }

    /// The free moves, the repaired ones only `with_unsafe`; the search for repaired ones
    /// stops once `limit` moves are listed.
    fn free_options_upto(&self, out: &mut Vec<(Move, bool)>, with_unsafe: bool, limit: usize) {
        let start = out.len();
        let mover = self.s.mover;
        let retracted: Vec<Move> = if self.s.retractions == 0 {
            Vec::new()
        } else {
            self.turn_moves()
                .iter()
                .filter(|m| m.retracted)
                .map(|m| m.mv)
                .collect()
        };
        if royal_king(&self.board, mover).is_none() {
            let mut l = MoveList::new();
            mover_moves(&self.board, &mut l);
            out.extend(
                l.iter()
                    .filter(|m| !retracted.contains(m))
                    .map(|&m| (m, true)),
            );
            return;
        }
        let legal = safe_moves(&self.board, mover);
        out.extend(
            legal
                .iter()
                .filter(|m| !retracted.contains(m))
                .map(|&m| (m, true)),
        );
        if !with_unsafe || out.len() - start >= limit {
            return;
        }
        let balance = self.s.balance[mover.index()];
        let costs = self.costs();
        if self.params.bought_after_move == 0 || balance < costs.min_bought_move() {
            return;
        }
        let mut b = scratch(&self.board, mover);
        // The board keeps the en passant square for the free move.
        let mut l = MoveList::new();
        mover_moves(&self.board, &mut l);
        for &m in l.iter() {
            if legal.contains(m) || retracted.contains(&m) {
                continue;
            }
            if out.len() - start >= limit {
                return;
            }
            if self.unsafe_free_completes(&mut b, m, balance) {
                out.push((m, false));
            }
        }
    }

    pub(super) fn free_moves(&self, out: &mut Vec<ClairAction>, free: &mut Vec<(Move, bool)>) {
        free.clear();
        self.free_options(free);
        out.extend(free.iter().map(|&(m, _)| ClairAction::Move(m)));
    }

    /// Works out the actor's legal actions again after the state changed.
    pub(super) fn refresh(&mut self) {
        let mut actions = std::mem::take(&mut self.cache.actions);
        let mut free = std::mem::take(&mut self.cache.free);
        actions.clear();
        free.clear();
        self.compute_actions(&mut actions, &mut free);
        self.cache = Cache {
            fresh: true,
            actions,
            free,
        };
    }

    /// Bought moves the mover may make now.
    fn bought_moves(&self, out: &mut Vec<ClairAction>) {
        let Some(BuyContext {
            balance,
            mut moves,
            left,
            mut b,
        }) = self.buy_context()
        else {
            return;
        };
        let mut l = MoveList::new();
        mover_moves(&b, &mut l);
        for &m in l.iter() {
            if self.bought_ok(&mut b, &mut moves, m, balance, left) {
                out.push(ClairAction::Buy(m));
            }
        }
    }

    /// Whether the free move `m`, which leaves the mover's king attacked by itself, lets
    /// the turn end legally through bought moves (`b`: the scratch board with the mover to
    /// move; an en passant capture is judged on the full board, which keeps the en passant
    /// square).
    pub(super) fn unsafe_free_completes(&self, b: &mut Board, m: Move, balance: u32) -> bool {
        let mover = self.s.mover;
        let costs = self.costs();
        if m.kind() == crate::moves::MoveKind::EnPassant {
            let mut full = self.board.clone();
            let mut tm = describe(&full, m, &[], false, 0);
            full.make(m);
            finish_turn_move(&full, mover, &mut tm);
            full.make_null();
            completes(
                &mut full,
                &mut vec![tm],
                balance,
                self.params.bought_after_move,
                self.s.start_check,
                costs,
            )
        } else {
            let mut tm = describe(b, m, &[], false, 0);
            b.make(m);
            finish_turn_move(b, mover, &mut tm);
            b.make_null();
            let ok = completes(
                b,
                &mut vec![tm],
                balance,
                self.params.bought_after_move,
                self.s.start_check,
                costs,
            );
            b.unmake_null();
            b.unmake();
            ok
        }
    }

    /// What judging a bought move needs, or `None` when no move may be bought now (the
    /// turn's limit reached, or the cheapest move unaffordable).
    pub(super) fn buy_context(&self) -> Option<BuyContext> {
        if self.s.bought >= self.s.bought_limit {
            return None;
        }
        let mover = self.s.mover;
        let balance = self.s.balance[mover.index()];
        if balance < self.costs().min_bought_move() {
            return None;
        }
        let mut moves = self.turn_moves();
        moves.retain(|m| !m.retracted);
        Some(BuyContext {
            balance,
            moves,
            left: self.s.bought_limit - self.s.bought,
            // Never en passant: a bought move follows the free move or drops, and drops
            // replace the move that would have answered the double step (RULES.md;
            // `rule_bought_move_after_drops_never_takes_en_passant`).
            b: scratch(&self.board, mover),
        })
    }

    /// Whether `m` (a move of the mover on `b`, the scratch board) may be bought now:
    /// allowed after this turn's moves (`moves`), affordable, and leaving the king safe or
    /// repaired by a further bought move (`left` still allowed).
    pub(super) fn bought_ok(
        &self,
        b: &mut Board,
        moves: &mut Vec<TurnMove>,
        m: Move,
        balance: u32,
        left: u32,
    ) -> bool {
        let mover = self.s.mover;
        let costs = self.costs();
        if forbidden_after_check(moves, m) {
            return false;
        }
        let cost = bought_cost(b, m, moves, self.s.start_check, costs);
        if cost > balance {
            return false;
        }
        b.make(m);
        let into_check = in_check(b, mover);
        b.unmake();
        // The move's record is needed only to price a repair after it.
        !into_check
            || (left > 1 && {
                let mut tm = describe(b, m, moves, true, cost);
                b.make(m);
                finish_turn_move(b, mover, &mut tm);
                b.make_null();
                moves.push(tm);
                let r = completes(
                    b,
                    moves,
                    balance - cost,
                    left - 1,
                    self.s.start_check,
                    costs,
                );
                moves.pop();
                b.unmake_null();
                b.unmake();
                r
            })
    }

    /// The price of a bought move now (before it is made).
    pub(super) fn price_of(&self, m: Move) -> (u32, TurnMove) {
        let mut moves = self.turn_moves();
        moves.retain(|m| !m.retracted);
        let b = if self.board.turn() == self.s.mover {
            std::borrow::Cow::Borrowed(&self.board)
        } else {
            std::borrow::Cow::Owned(scratch(&self.board, self.s.mover))
        };
        let cost = bought_cost(&b, m, &moves, self.s.start_check, self.costs());
        (cost, describe(&b, m, &moves, true, cost))
    }

    /// The actor's legal actions worked out afresh (`out` is empty on entry); in the
    /// Start and Free steps `free` receives the free moves with their safety. Past the
    /// running decision's deadline ([`crate::deadline`]) drops whose end-of-turn search
    /// did not finish are left out; a list that would then be empty gets the first drop
    /// found exactly (the search stops there), or else is worked out again whole and
    /// exactly (a seat to move always has an action).
    pub(super) fn compute_actions(&self, out: &mut Vec<ClairAction>, free: &mut Vec<(Move, bool)>) {
        self.compute_actions_once(out, free);
        if out.is_empty() && self.s.phase != Phase::Over && crate::deadline::passed() {
            free.clear();
            let drops_here = matches!(self.s.phase, Phase::Start)
                || (self.s.phase == Phase::Drops && self.s.bought == 0);
            if drops_here {
                crate::deadline::exact(|| self.drops_upto(out, 1));
            }
            if out.is_empty() {
                crate::deadline::exact(|| self.compute_actions_once(out, free));
            }
        }
    }

    fn compute_actions_once(&self, out: &mut Vec<ClairAction>, free: &mut Vec<(Move, bool)>) {
        match self.s.phase {
            Phase::Guess => {
                if self.s.n_guesses < self.params.max_guesses {
                    self.guesses(out);
                }
                out.push(ClairAction::Pass);
            }
            Phase::MoverGuess => {
                out.push(ClairAction::RetractGuess);
                out.push(ClairAction::Pass);
            }
            Phase::Start => {
                self.drops(out);
                self.free_moves(out, free);
            }
            Phase::Drops => {
                if self.s.bought == 0 {
                    self.drops(out);
                }
                self.bought_moves(out);
                if self.can_pass() {
                    out.push(ClairAction::Pass);
                }
            }
            Phase::Free => self.free_moves(out, free),
            Phase::Retract => {
                if self
                    .s
                    .retract_cost
                    .is_some_and(|c| self.s.balance[self.guesser().index()] >= c)
                {
                    out.push(ClairAction::Retract);
                }
                out.push(ClairAction::Pass);
            }
            Phase::Extra => {
                self.bought_moves(out);
                if self.can_pass() {
                    out.push(ClairAction::Pass);
                }
            }
            Phase::Over => {}
        }
    }

    pub(super) fn can_pass(&self) -> bool {
        !in_check(&self.board, self.s.mover)
    }
}

/// The state bought moves are judged in ([`Clairvoyant::buy_context`]).
pub(super) struct BuyContext {
    /// The mover's balance.
    pub(super) balance: u32,
    /// This turn's moves, retracted ones left out.
    pub(super) moves: Vec<TurnMove>,
    /// The bought moves still allowed this turn.
    pub(super) left: u32,
    /// The scratch board, the mover to move, no en passant square.
    pub(super) b: Board,
}
