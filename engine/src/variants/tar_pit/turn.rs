//! The turn's flow: dealing, the move, the card step, throws, returns, discards and
//! draws, the draw rules, the actions offered to each seat, applying a move or a card,
//! and the position keys.

use super::*;

impl TarPit {
    pub(super) fn continue_deal(&mut self) {
        let want = |g: &TarPit, c: Color| {
            g.hand_total(c) < g.core.front[c.index()] as u32 && cards::total(&g.core.pile) > 0
        };
        for c in Color::BOTH {
            if want(self, c) {
                self.core.phase = Phase::Deal(c);
                return;
            }
        }
        self.next_turn();
    }

    pub(super) fn next_turn(&mut self) {
        self.core.phase = Phase::Move;
        self.core.mover = self.board.turn();
        let us = self.core.mover;
        if self.tarred(us).any() {
            self.core.tally.tarred_turns[us.index()] += 1;
        }
        self.core.ended = if !self.has_legal_move() {
            let r = no_moves_result(us, self.in_check_color(us));
            Some((
                if r.reason == "checkmate" {
                    Some(us.other())
                } else {
                    None
                },
                r.reason,
            ))
        } else {
            self.draw_reason().map(|r| (None, r))
        };
    }

    pub(super) fn repetition_key(&self) -> u64 {
        let mut h = self.board.key();
        for (i, bb) in self.core.checkers.iter().enumerate() {
            h = mix(h, bb.0 ^ i as u64);
        }
        mix(
            h,
            self.core.front[0] as u64 | (self.core.front[1] as u64) << 8,
        )
    }

    fn draw_reason(&self) -> Option<&'static str> {
        let key = self.repetition_key();
        common_draw(
            &self.board,
            self.board.ply(),
            self.params.ply_cap,
            false,
            key,
            self.records.iter().filter_map(|r| r.rep_key),
        )
    }

    fn after_move(&mut self, at: Option<Square>) {
        let me = self.core.mover;
        if let Some(at) = at {
            let neighbours = attacks::king_attacks(at) & self.board.occupied();
            if self.core.checkers[me.index()].contains(at) && neighbours.any() {
                self.core.phase = Phase::Throw { at };
                return;
            }
        }
        self.enter_card();
    }

    pub(super) fn enter_card(&mut self) {
        if self.hand_total(self.core.mover) > 0 {
            self.core.phase = Phase::Card;
        } else {
            self.enter_draw();
        }
    }

    pub(super) fn enter_draw(&mut self) {
        let me = self.core.mover;
        let short = self.hand_total(me) < self.core.front[me.index()] as u32;
        let cards_left = cards::total(&self.core.pile) + cards::total(&self.core.discard) > 0;
        if short && cards_left {
            self.core.phase = Phase::Draw;
        } else {
            self.next_turn();
        }
    }

    fn return_options(&self, out: &mut Vec<TarPitAction>) {
        let them = self.core.mover.other();
        if self.core.front[them.index()] > 0 {
            out.push(TarPitAction::ReturnFront);
        }
        for sq in self.core.checkers[them.index()] {
            out.push(TarPitAction::ReturnAt(sq));
        }
    }

    fn enter_return(&mut self) {
        let mut opts = Vec::new();
        self.return_options(&mut opts);
        match opts.len() {
            0 => self.enter_discard(),
            1 => {
                self.do_return(opts[0]);
                self.enter_discard();
            }
            _ => self.core.phase = Phase::Return,
        }
    }

    pub(super) fn do_return(&mut self, a: TarPitAction) {
        let them = self.core.mover.other();
        match a {
            TarPitAction::ReturnFront => self.core.front[them.index()] -= 1,
            TarPitAction::ReturnAt(sq) => {
                self.return_checker(sq);
                // Back to the box, not in front.
                self.core.front[them.index()] -= 1;
            }
            _ => unreachable!("not a return"),
        }
    }

    pub(super) fn enter_discard(&mut self) {
        let them = self.core.mover.other();
        if self.hand_total(them) <= self.core.front[them.index()] as u32 {
            return self.enter_draw();
        }
        let hand = self.core.hands[them.index()];
        let kinds: Vec<usize> = (0..KINDS).filter(|&k| hand[k] > 0).collect();
        if kinds.len() == 1 {
            self.core.hands[them.index()][kinds[0]] -= 1;
            self.core.discard[kinds[0]] += 1;
            self.enter_discard();
        } else {
            self.core.phase = Phase::Discard;
        }
    }

    /// Squares a piece card may add a checker to.
    fn card_targets(&self, card: Card) -> Bitboard {
        let Some(role) = card.role() else {
            return Bitboard::EMPTY;
        };
        let matching = self.board.pieces(card.color(), role);
        if matching.any() {
            matching
        } else {
            self.board.by_color(self.core.mover)
        }
    }

    pub(super) fn actor(&self) -> Option<Color> {
        match self.core.phase {
            Phase::Deal(_) | Phase::Draw => None,
            Phase::Return | Phase::Discard => Some(self.core.mover.other()),
            _ => Some(self.core.mover),
        }
    }

    pub(super) fn seat_actions(&self, out: &mut Vec<TarPitAction>) {
        let me = self.core.mover;
        match self.core.phase {
            Phase::Move => {
                for &m in self.legal_moves().iter() {
                    out.push(TarPitAction::Move(m));
                }
            }
            Phase::Throw { at } => {
                for sq in attacks::king_attacks(at) & self.board.occupied() {
                    out.push(TarPitAction::Throw(sq));
                }
                out.push(TarPitAction::Pass);
            }
            Phase::Card => {
                let hand = self.core.hands[me.index()];
                for card in Card::all().filter(|c| hand[c.index()] > 0) {
                    if card.is_checker() {
                        out.push(TarPitAction::Card(card, None));
                    } else if self.core.front[me.index()] > 0 {
                        for sq in self.card_targets(card) {
                            out.push(TarPitAction::Card(card, Some(sq)));
                        }
                    }
                }
                out.push(TarPitAction::Pass);
            }
            Phase::Return => self.return_options(out),
            Phase::Discard => {
                let hand = self.core.hands[me.other().index()];
                for card in Card::all().filter(|c| hand[c.index()] > 0) {
                    out.push(TarPitAction::Discard(card));
                }
            }
            Phase::Deal(_) | Phase::Draw => {}
        }
    }

    pub(super) fn apply_move(&mut self, m: Move) {
        let me = self.core.mover;
        let from = m.from();
        let to = m.to();
        let victim_sq = if m.kind() == MoveKind::EnPassant {
            Some(Square::from_coords(to.file(), from.rank()))
        } else if m.kind() != MoveKind::Castle && self.board.piece_at(to).is_some() {
            Some(to)
        } else {
            None
        };
        let mover_checker = self.checker_at(from);
        let was_tarred = mover_checker == Some(me.other());
        let victim_checker = victim_sq.and_then(|s| self.checker_at(s));
        if let Some(c) = mover_checker {
            self.core.checkers[c.index()].clear(from);
        }
        if let (Some(s), Some(c)) = (victim_sq, victim_checker) {
            self.core.checkers[c.index()].clear(s);
        }
        self.board.make(m);
        if m.kind() == MoveKind::Castle {
            // Neither king nor rook carries a checker.
            return self.after_move(None);
        }
        match (mover_checker, victim_checker) {
            (None, None) => {}
            (Some(c), None) | (None, Some(c)) => self.core.checkers[c.index()].set(to),
            (Some(a), Some(b)) if a == b => {
                self.core.checkers[a.index()].set(to);
                self.core.front[a.index()] += 1;
            }
            (Some(_), Some(_)) => {
                self.core.front[0] += 1;
                self.core.front[1] += 1;
                if was_tarred {
                    self.core.tally.cleansings[me.index()] += 1;
                }
            }
        }
        self.back_rank(to);
        self.after_move(Some(to));
    }

    pub(super) fn apply_card(&mut self, card: Card, target: Option<Square>) {
        let me = self.core.mover;
        self.core.hands[me.index()][card.index()] -= 1;
        self.core.discard[card.index()] += 1;
        let played = &mut self.core.tally.played[me.index()];
        match (card.role(), target) {
            (Some(role), Some(sq)) => {
                played[role.index()] += 1;
                self.core.front[me.index()] -= 1;
                self.arrive(me, sq);
                self.enter_draw();
            }
            _ if card.color() == me => {
                played[6] += 1;
                if self.extra(me) > 0 {
                    self.core.front[me.index()] += 1;
                }
                self.enter_draw();
            }
            _ => {
                played[7] += 1;
                self.enter_return();
            }
        }
    }

    pub(super) fn push_view(&mut self, action: TarPitAction, actor: Color) {
        next_view(&mut self.core.view, action, actor);
    }

    /// Every action applied so far, oldest first (chance outcomes included).
    pub fn actions(&self) -> impl Iterator<Item = TarPitAction> + '_ {
        self.records.iter().map(|r| r.action)
    }

    /// The seat receiving the card at a chance node.
    pub(super) fn drawer(&self) -> Color {
        match self.core.phase {
            Phase::Deal(c) => c,
            _ => self.core.mover,
        }
    }

    pub(super) fn key_with(&self, view: Option<Color>) -> u64 {
        let c = &self.core;
        let mut h = mix(self.board.key(), c.checkers[0].0);
        h = mix(h, c.checkers[1].0);
        h = mix(h, c.front[0] as u64 | (c.front[1] as u64) << 8);
        let phase = match c.phase {
            Phase::Deal(col) => 1 + col.index() as u64,
            Phase::Move => 3,
            Phase::Throw { at } => 4 | (at.index() as u64) << 8,
            Phase::Card => 5,
            Phase::Return => 6,
            Phase::Discard => 7,
            Phase::Draw => 8,
        };
        h = mix(h, phase | (c.mover.index() as u64) << 16);
        h = mix(h, counts_hash(&c.discard));
        match view {
            None => {
                h = mix(h, counts_hash(&c.hands[0]));
                h = mix(h, counts_hash(&c.hands[1]));
                h = mix(h, counts_hash(&c.pile));
                mix(mix(h, c.view[0]), c.view[1])
            }
            Some(s) => mix(
                mix(h, counts_hash(&c.hands[s.index()])),
                c.view[s.index()] ^ (s.index() as u64 + 11),
            ),
        }
    }
}
