//! Snapshots for undo, a board move with its bookkeeping, the end of a capture chain
//! and of a turn, and the full position key.

use super::*;

impl Cooperative {
    pub(super) fn snap(&self) -> Snap {
        Snap {
            phase: self.phase,
            active: self.active,
            quiet_moved: self.quiet_moved,
            chain: self.chain,
            next_wild: self.next_wild,
            ep: self.ep,
            ep_next: self.ep_next,
            end: self.end,
            plies: self.plies,
            public: self.public,
            private: self.private,
            stats: self.stats,
        }
    }

    pub(super) fn restore(&mut self, s: Snap) {
        self.phase = s.phase;
        self.active = s.active;
        self.quiet_moved = s.quiet_moved;
        self.chain = s.chain;
        self.next_wild = s.next_wild;
        self.ep = s.ep;
        self.ep_next = s.ep_next;
        self.end = s.end;
        self.plies = s.plies;
        self.public = s.public;
        self.private = s.private;
        self.stats = s.stats;
    }

    /// Plays `m` for the mover and gives the board back to the mover.
    pub(super) fn board_move(&mut self, m: Move, rec: &mut Record) {
        let dest = if m.is_castle() {
            Board::castle_targets(self.mover(), m.from(), m.to()).0
        } else {
            m.to()
        };
        self.board.make(m);
        self.board.make_null();
        rec.moved = true;
        self.active = Some(dest);
    }

    /// The capture phase is over: draw if the pile has cards, else end the turn.
    pub(super) fn finish_captures(&mut self, rec: &mut Record) {
        if self.pile_len() > 0 {
            self.phase = Phase::Draw;
        } else {
            self.end_turn(rec);
        }
    }

    pub(super) fn end_turn(&mut self, rec: &mut Record) {
        // En passant is owed only to a pawn still on the square it stepped to.
        let ep = self.ep_next.filter(|&sq| self.active == Some(sq));
        self.board.make_null();
        rec.turn_end = true;
        self.ep = ep;
        self.ep_next = None;
        self.active = None;
        self.quiet_moved = false;
        self.chain = 0;
        self.next_wild = false;
        self.phase = Phase::Quiet;
        if total(&self.hands[self.mover().index()]) == 0 {
            self.end = Some(End::OutOfCards);
        }
    }

    pub(super) fn full_key(&self) -> u64 {
        let phase = match self.phase {
            Phase::Deal => 1,
            Phase::Quiet => 2,
            Phase::Card => 3,
            Phase::Capture => 4,
            Phase::Draw => 5,
        };
        let sq = |s: Option<Square>| s.map_or(64, |s| s.index() as u64);
        let end = match self.end {
            None => 0,
            Some(End::KingCaptured(s)) => 1 + s as u64,
            Some(End::OutOfCards) => 100,
            Some(End::Cap) => 101,
        };
        let mut k = mix(self.board.key(), phase);
        k = mix(k, pack(&self.hands[0]));
        k = mix(k, pack(&self.hands[1]));
        k = mix(k, pack(&self.pile));
        k = mix(
            k,
            sq(self.active)
                | sq(self.ep) << 7
                | sq(self.ep_next) << 14
                | (self.quiet_moved as u64) << 21
                | (self.next_wild as u64) << 22
                | (self.chain as u64) << 23
                | end << 32,
        );
        for (i, s) in self.stacks.iter().enumerate() {
            k = mix(k, 0x5354_0000 + i as u64);
            for c in s {
                k = mix(k, c.index() as u64);
            }
        }
        k = mix(k, 0x4341_5054);
        for c in &self.captured {
            k = mix(k, c.index() as u64);
        }
        k
    }
}
