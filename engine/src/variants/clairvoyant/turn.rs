//! The steps of a turn (its start, the end checks, the end with the guesses scored,
//! spending) and applying one action (`apply_then`: the free move, a bought move, each
//! step's bookkeeping into the undo `Record`).

use super::*;

impl Clairvoyant {
    pub(super) fn begin_turn(&mut self, rec_index: usize) {
        let mover = self.board.turn();
        let s = &mut self.s;
        s.mover = mover;
        s.turn_start_rec = rec_index as u32;
        s.log_start = self.log.len() as u32;
        s.sheet_at_start = s.sheet;
        s.n_guesses = 0;
        s.bought = 0;
        s.bought_limit = 0;
        s.retractions = 0;
        s.retract_guess = false;
        s.retract_cost = None;
        s.start_check = in_check(&self.board, mover);
        let key = mix(
            self.board.key(),
            (s.balance[0] as u64) << 32 | s.balance[1] as u64,
        );
        self.turn_keys.truncate(s.n_turn_keys as usize);
        self.turn_keys.push(key);
        s.n_turn_keys = self.turn_keys.len() as u32;
        let result = self.end_reason(key);
        self.s.result = result;
        if result.is_some() {
            self.s.phase = Phase::Over;
            return;
        }
        self.s.flat = self.s.start_check && safe_moves(&self.board, self.s.mover).len() == 1;
        self.s.phase = if self.s.flat || self.params.max_guesses == 0 {
            self.after_sheet()
        } else {
            Phase::Guess
        };
    }

    fn end_reason(&self, key: u64) -> Option<GameResult> {
        let draw = |reason| {
            Some(GameResult {
                returns: two_seat_returns(None),
                reason,
            })
        };
        if self.s.turn >= self.params.ply_cap {
            return draw("cap");
        }
        if !self.has_turn() {
            let mover = self.s.mover;
            return Some(if self.s.start_check {
                GameResult {
                    returns: two_seat_returns(Some(mover.other().index())),
                    reason: "checkmate",
                }
            } else {
                GameResult {
                    returns: two_seat_returns(None),
                    reason: "stalemate",
                }
            });
        }
        if self.board.is_bare_material() {
            return draw("insufficient-material");
        }
        if self.s.quiet_turns >= 100 {
            return draw("fifty-moves");
        }
        let n = self.turn_keys.len();
        let window = (self.s.quiet_turns as usize).min(n.saturating_sub(1));
        let seen = self.turn_keys[n - 1 - window..n - 1]
            .iter()
            .filter(|&&k| k == key)
            .count();
        if seen >= 2 {
            return draw("repetition");
        }
        None
    }

    /// Whether the mover has any way to play a legal turn.
    fn has_turn(&self) -> bool {
        if royal_king(&self.board, self.s.mover).is_some() {
            if has_safe_move(&self.board, self.s.mover) {
                return true;
            }
        } else {
            let mut l = MoveList::new();
            mover_moves(&self.board, &mut l);
            if !l.is_empty() {
                return true;
            }
        }
        self.any_free_move() || self.any_drop()
    }

    fn after_sheet(&self) -> Phase {
        if self.blind || self.s.balance[self.guesser().index()] >= self.costs().min_retraction() {
            Phase::MoverGuess
        } else {
            Phase::Start
        }
    }

    /// Whether the mover gets a bought-move step now.
    fn extra_step(&self) -> bool {
        if in_check(&self.board, self.s.mover) {
            return true;
        }
        self.s.bought < self.s.bought_limit
            && (self.blind
                || self.s.balance[self.s.mover.index()] >= self.costs().min_bought_move())
    }

    fn end_turn(&mut self, rec: &mut Record) {
        let mover = self.s.mover;
        let guesser = mover.other();
        if self.board.turn() == mover {
            self.board.make_null();
            push_op(rec, BoardOp::Null);
        }
        // One pass over this turn's log (the hot path of self-play).
        let mut moves = Vec::with_capacity(4);
        let mut drops = Vec::new();
        let mut sheet = [Guess::Extra; 8];
        let mut n_sheet = 0;
        for e in &self.log[self.s.log_start as usize..] {
            match *e {
                Entry::Move { m, .. } => moves.push(m),
                Entry::Drop { role, sq, .. } => drops.push((role, sq)),
                Entry::Guess { guess, .. } if n_sheet < sheet.len() => {
                    sheet[n_sheet] = guess;
                    n_sheet += 1;
                }
                _ => {}
            }
        }
        let bought = moves.iter().any(|m| m.bought);
        let values = &self.params.values;
        let mut scores = Vec::new();
        if self.s.flat {
            scores.push((guesser, ScoreKind::Flat, values.flat));
        } else {
            for g in &sheet[..n_sheet] {
                let v = g.score(values, &moves, &drops, bought);
                if v > 0 {
                    scores.push((guesser, g.kind(), v));
                }
            }
        }
        if self.s.retract_guess && self.s.retractions > 0 {
            scores.push((mover, ScoreKind::Retraction, values.retraction));
        }
        for (to, kind, amount) in scores {
            let b = &mut self.s.balance[to.index()];
            *b = b.saturating_add(amount);
            self.log.push(Entry::Score { to, kind, amount });
        }
        let irreversible =
            !drops.is_empty() || moves.iter().any(|m| !m.retracted && (m.captured || m.pawn));
        self.s.quiet_turns = if irreversible {
            0
        } else {
            self.s.quiet_turns + 1
        };
        if !self.blind {
            self.s.revealed = self.s.sheet;
            let n = self.records.len() as u32 + 1;
            self.s.revealed_rec = [n; 2];
        }
        self.log.push(Entry::TurnEnd { mover });
        self.s.turn += 1;
        self.begin_turn(self.records.len() + 1);
    }

    /// In blind mode, a spender's record up to the last completed turn is revealed.
    fn spend(&mut self, c: Color, amount: u32) {
        let b = &mut self.s.balance[c.index()];
        *b -= amount;
        if self.blind {
            self.s.revealed[c.index()] = self.s.sheet_at_start[c.index()];
            self.s.revealed_rec[c.index()] = self.s.turn_start_rec;
        }
    }

    fn do_free(&mut self, m: Move, rec: &mut Record) {
        let mover = self.s.mover;
        let guesser = mover.other();
        let may_pay =
            self.blind || self.s.balance[guesser.index()] >= self.costs().min_retraction();
        let (mut alternative, mut other_escape) = (false, false);
        if may_pay {
            let fresh;
            let opts = if self.cache.fresh {
                &self.cache.free
            } else {
                // Without the cache (a replay), the safe free moves come first: another
                // one answers both questions, and the unsafe ones are judged only if
                // there is none.
                let mut v = Vec::new();
                self.safe_free_options(&mut v);
                if !v.iter().any(|&(x, _)| x != m) {
                    v.clear();
                    self.free_options(&mut v);
                }
                fresh = v;
                &fresh
            };
            for &(x, safe) in opts {
                if x != m {
                    alternative = true;
                    other_escape |= safe;
                }
            }
        }
        let mut tm = describe(&self.board, m, &[], false, 0);
        self.board.make(m);
        push_op(rec, BoardOp::Make(m));
        finish_turn_move(&self.board, mover, &mut tm);
        self.log.push(Entry::Move { by: mover, m: tm });
        self.s.retract_cost = if may_pay {
            retraction::retraction_cost(
                self.costs(),
                self.s.start_check,
                &tm,
                alternative,
                other_escape,
            )
        } else {
            None
        };
        // The step is asked whenever the guesser might pay, so a refused retraction
        // (the only escape, no other move) is answered with its reason.
        if may_pay {
            self.s.phase = Phase::Retract;
        } else {
            self.free_accepted(rec);
        }
    }

    fn free_accepted(&mut self, rec: &mut Record) {
        self.s.bought_limit = self.params.bought_after_move;
        if self.extra_step() {
            self.s.phase = Phase::Extra;
        } else {
            self.end_turn(rec);
        }
    }

    fn do_bought(&mut self, m: Move, rec: &mut Record) {
        let mover = self.s.mover;
        let (cost, mut tm) = self.price_of(m);
        if self.board.turn() != mover {
            self.board.make_null();
            push_op(rec, BoardOp::Null);
        }
        self.board.make(m);
        push_op(rec, BoardOp::Make(m));
        finish_turn_move(&self.board, mover, &mut tm);
        self.log.push(Entry::Move { by: mover, m: tm });
        self.spend(mover, cost);
        self.s.bought += 1;
        if self.extra_step() {
            self.s.phase = Phase::Extra;
        } else {
            self.end_turn(rec);
        }
    }

    /// `apply`, then the next legal list worked out and cached (`refresh`), or only
    /// marked stale (for replays, which check each recorded action by its kind alone).
    pub(super) fn apply_then(&mut self, action: ClairAction, refresh: bool) {
        let mut rec = Record {
            action,
            s: self.s,
            log_len: self.log.len() as u32,
            ops: [BoardOp::None; 3],
            secret: None,
            marked: None,
        };
        let mover = self.s.mover;
        let guesser = mover.other();
        let was_guess = self.s.phase == Phase::Guess;
        match (self.s.phase, action) {
            (Phase::Guess, ClairAction::Guess(g)) => {
                rec.secret = Some(guesser);
                self.log.push(Entry::Guess {
                    by: guesser,
                    guess: g,
                });
                self.s.n_guesses += 1;
                if self.s.n_guesses >= self.params.max_guesses {
                    self.s.phase = self.after_sheet();
                }
            }
            (Phase::Guess, ClairAction::Pass) => self.s.phase = self.after_sheet(),
            (Phase::MoverGuess, ClairAction::RetractGuess | ClairAction::Pass) => {
                rec.secret = Some(mover);
                if action == ClairAction::RetractGuess {
                    self.s.retract_guess = true;
                    self.log.push(Entry::RetractGuess { by: mover });
                }
                self.s.phase = Phase::Start;
            }
            (Phase::Start | Phase::Drops, ClairAction::Drop(role, sq)) => {
                let cost = self.costs().drop.get(role);
                place(&mut self.board, role, sq);
                push_op(&mut rec, BoardOp::Drop(sq));
                self.log.push(Entry::Drop {
                    by: mover,
                    role,
                    sq,
                    cost,
                });
                self.spend(mover, cost);
                self.s.bought_limit = self.params.bought_after_drops;
                self.s.phase = Phase::Drops;
            }
            (Phase::Drops, ClairAction::Buy(m)) | (Phase::Extra, ClairAction::Buy(m)) => {
                self.do_bought(m, &mut rec);
            }
            (Phase::Drops | Phase::Extra, ClairAction::Pass) => self.end_turn(&mut rec),
            (Phase::Start | Phase::Free, ClairAction::Move(m)) => self.do_free(m, &mut rec),
            (Phase::Retract, ClairAction::Retract) => {
                let cost = self
                    .s
                    .retract_cost
                    .expect("retraction offered with a price");
                let idx = self
                    .log
                    .iter()
                    .rposition(|e| matches!(e, Entry::Move { .. }));
                let idx = idx.expect("a free move to retract");
                if let Entry::Move { m, .. } = &mut self.log[idx] {
                    m.retracted = true;
                    let mv = m.mv;
                    self.board.unmake();
                    push_op(&mut rec, BoardOp::Unmake(mv));
                }
                rec.marked = Some(idx as u32);
                self.log.push(Entry::Retraction { by: guesser, cost });
                self.spend(guesser, cost);
                self.s.retractions += 1;
                self.s.retract_cost = None;
                self.s.phase = Phase::Free;
            }
            (Phase::Retract, ClairAction::Pass) => {
                self.s.retract_cost = None;
                self.free_accepted(&mut rec);
            }
            (phase, a) => panic!("clairvoyant: {a:?} does not fit the step {phase:?}"),
        }
        let code = match rec.secret {
            Some(owner) => {
                let i = owner.index();
                self.s.sheet[i] = mix(self.s.sheet[i], action_code(action));
                secret_code(owner)
            }
            None => action_code(action),
        };
        self.s.public = mix(self.s.public, code);
        // A turn that ended inside this action already took its sheet snapshot with the
        // old value; secret actions never end a turn, so nothing to fix there.
        self.records.push(rec);
        // A guess leaves the board and the balances alone: while the sheet stays open,
        // the offers are the same.
        if !(was_guess && self.s.phase == Phase::Guess && self.cache.fresh) {
            if refresh {
                self.refresh();
            } else {
                self.cache.fresh = false;
            }
        }
    }
}

fn push_op(rec: &mut Record, op: BoardOp) {
    if let Some(slot) = rec.ops.iter_mut().find(|o| **o == BoardOp::None) {
        *slot = op;
    } else {
        unreachable!("an action makes at most three board operations");
    }
}
