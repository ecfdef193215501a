//! The `Game` implementation: legal actions from the cache, apply/undo, the result,
//! keys, the information sets (`information_key`, `sample_world`), observations and
//! the action notation and its parsing.

use super::*;

impl Game for Clairvoyant {
    type Action = ClairAction;
    type Params = ClairvoyantParams;

    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC
            .with_hidden_information(true)
            .with_eval("clairvoyant")
    }

    fn new(params: &ClairvoyantParams) -> Clairvoyant {
        Clairvoyant::from_board(Board::startpos(), params)
    }

    fn from_opening(params: &ClairvoyantParams, opening: &str) -> Result<Clairvoyant, GameError> {
        let board = Board::from_fen(opening).map_err(|e| GameError::opening_fen(opening, e))?;
        for c in Color::BOTH {
            if board.pieces(c, Role::King).count() != 1 {
                return Err(GameError::opening(opening, "each side needs one king"));
            }
        }
        Ok(Clairvoyant::from_board(board, params))
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.actor() {
            Some(c) => Turn::Seat(c.index()),
            None => Turn::Terminal,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<ClairAction>) {
        out.clear();
        if self.actor().map(Color::index) != Some(seat) {
            return;
        }
        if self.cache.fresh {
            out.extend_from_slice(&self.cache.actions);
        } else {
            self.compute_actions(out, &mut Vec::new());
        }
    }

    fn apply(&mut self, action: ClairAction) {
        self.apply_then(action, true);
    }

    /// Checks only the action `text` names (`offered`, in `check.rs`) and leaves the next
    /// legal list to be worked out on demand: replaying a record costs what its actions
    /// do, not a full list per action (`parse_checks_only_the_kind_named_and_agrees_with_the_list`,
    /// `stale_parse_gives_the_list_answer_error_text_included`; timed by the
    /// `clairvoyant_replay` bench).
    fn apply_text(&mut self, text: &str) -> Result<ClairAction, GameError> {
        let act = self.parse_action(text)?;
        self.apply_then(act, false);
        Ok(act)
    }

    fn undo(&mut self) {
        let rec = self.records.pop().expect("undo without an action");
        for op in rec.ops.iter().rev() {
            match *op {
                BoardOp::None => {}
                BoardOp::Make(_) => {
                    self.board.unmake();
                }
                BoardOp::Null => self.board.unmake_null(),
                BoardOp::Drop(sq) => self.board.set_piece(sq, None),
                BoardOp::Unmake(m) => self.board.make(m),
            }
        }
        if let Some(i) = rec.marked {
            if let Entry::Move { m, .. } = &mut self.log[i as usize] {
                m.retracted = false;
            }
        }
        self.log.truncate(rec.log_len as usize);
        self.s = rec.s;
        self.turn_keys.truncate(self.s.n_turn_keys as usize);
        self.cache.fresh = false;
    }

    fn result(&self) -> Option<GameResult> {
        self.s.result
    }

    fn state_key(&self) -> u64 {
        let s = &self.s;
        let bal = (s.balance[0] as u64) << 32 | s.balance[1] as u64;
        mix(
            mix(mix(mix(s.public, self.board.key()), s.sheet[0]), s.sheet[1]),
            bal,
        )
    }

    fn information_key(&self, seat: Seat) -> u64 {
        let me = seat.min(1);
        let them = 1 - me;
        let s = &self.s;
        let mut k = mix(mix(s.public, self.board.key()), s.sheet[me]);
        k = mix(k, s.revealed[them]);
        k = mix(k, s.balance[me] as u64 | 1 << 40);
        if !self.blind {
            k = mix(k, s.balance[them] as u64 | 1 << 41);
        }
        mix(k, 0x5eed + me as u64)
    }

    fn sample_world(&self, seat: Seat, rng: &mut dyn RngCore) -> Clairvoyant {
        // Exact whatever the running decision's deadline (crate::deadline): a public
        // action left out of a cut list would fail every redraw and keep the true world.
        crate::deadline::exact(|| self.redraw_world(seat, rng))
    }

    fn observation(&self, seat: Seat) -> String {
        let me = Color::from_index(seat.min(1));
        let them = me.other();
        let s = &self.s;
        let mut replay = self.clone();
        while !replay.records.is_empty() {
            replay.undo();
        }
        let mut log = Vec::with_capacity(self.records.len());
        for (i, r) in self.records.iter().enumerate() {
            let visible = match r.secret {
                None => true,
                Some(o) => o == me || i < s.revealed_rec[o.index()] as usize,
            };
            log.push(if visible {
                replay.action_notation(r.action)
            } else {
                format!("?{}", &r.secret.map_or("", |c| c.name())[..1])
            });
            replay.apply(r.action);
        }
        let their_balance = if self.blind {
            "secret".to_string()
        } else {
            s.balance[them.index()].to_string()
        };
        format!(
            "{} | turn {} | {:?} step, {} to act | you are {}: {}Z; {}: {}Z | record: {}",
            self.board.fen(),
            s.turn + 1,
            s.phase,
            self.actor().map_or("nobody", |c| c.name()),
            me.name(),
            s.balance[me.index()],
            them.name(),
            their_balance,
            if log.is_empty() {
                "-".into()
            } else {
                log.join(" ")
            }
        )
    }

    fn action_notation(&self, action: ClairAction) -> String {
        match action {
            ClairAction::Guess(g) => format!("guess:{}", g.notation()),
            ClairAction::RetractGuess => "guess:retract".into(),
            ClairAction::Pass => "pass".into(),
            ClairAction::Drop(r, sq) => format!("{}@{sq}", r.char().to_ascii_uppercase()),
            ClairAction::Move(m) => uci(self.s.mover, m),
            ClairAction::Retract => "retract".into(),
            ClairAction::Buy(m) => format!("buy:{}", uci(self.s.mover, m)),
        }
    }

    fn parse_action(&self, text: &str) -> Result<ClairAction, GameError> {
        let t = text.trim();
        let err = |m: String| GameError::Action {
            action: text.into(),
            message: m,
        };
        if self.s.phase == Phase::Over {
            return Err(err("the game is over".into()));
        }
        if self.actor().is_none() {
            return Err(err("nobody is to act".into()));
        }
        // A fresh cache is the legal list itself; a stale one (a replay) is not worked out
        // again: each action is checked by itself (`check.rs`).
        let fresh = self.cache.fresh;
        let legal: &[ClairAction] = if fresh { &self.cache.actions } else { &[] };
        let wanted = if t == "pass" {
            ClairAction::Pass
        } else if t == "retract" {
            ClairAction::Retract
        } else if t == "guess:retract" {
            ClairAction::RetractGuess
        } else if let Some(g) = t.strip_prefix("guess:") {
            match Guess::parse(g) {
                Some(g) => ClairAction::Guess(g),
                None => {
                    return Err(err(
                        "a guess is guess:e2, guess:e2e4, guess:buy:N, guess:buy:N@e4, \
                         guess:extra or guess:retract"
                            .into(),
                    ))
                }
            }
        } else if let Some((r, sq)) = t.split_once('@') {
            let role = r
                .chars()
                .next()
                .filter(|_| r.len() == 1)
                .and_then(|c| Role::from_char(c.to_ascii_lowercase()));
            match (role, Square::parse(sq)) {
                (Some(role), Some(sq)) => ClairAction::Drop(role, sq),
                _ => return Err(err("a drop is like N@e4".into())),
            }
        } else {
            let (body, bought) = match t.strip_prefix("buy:") {
                Some(b) => (b, true),
                None => (t, false),
            };
            let kind = |m| {
                if bought {
                    ClairAction::Buy(m)
                } else {
                    ClairAction::Move(m)
                }
            };
            let found = if fresh {
                legal.iter().copied().find(|&a| match a {
                    ClairAction::Buy(m) if bought => uci(self.s.mover, m) == body,
                    ClairAction::Move(m) if !bought => uci(self.s.mover, m) == body,
                    _ => false,
                })
            } else {
                self.named_moves(body, bought)
                    .into_iter()
                    .map(kind)
                    .find(|&a| self.offered(a))
            };
            match found {
                Some(a) => return Ok(a),
                None => return Err(err(self.refusal(t, bought))),
            }
        };
        if (fresh && legal.contains(&wanted)) || (!fresh && self.offered(wanted)) {
            Ok(wanted)
        } else {
            Err(err(self.refusal_of(wanted)))
        }
    }

    fn history_len(&self) -> usize {
        self.records.len()
    }

    fn material(&self, seat: Seat) -> f64 {
        material_balance(&self.board, Color::from_index(seat.min(1)))
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// The piece differences, then `zorkmids`: White's balance minus Black's (the true
    /// balances, secret or not: values are learned from whole records), so `chesslab
    /// values` can state Zorkmids per pawn (`features_add_the_zorkmid_balance`).
    fn features(&self) -> Vec<(String, f64)> {
        let mut f = crate::game::material_features(&self.board);
        let zk = self.s.balance[0] as f64 - self.s.balance[1] as f64;
        f.push(("zorkmids".to_string(), zk));
        f
    }

    fn action_move(&self, action: ClairAction) -> Option<Move> {
        match action {
            ClairAction::Move(m) | ClairAction::Buy(m) => Some(m),
            _ => None,
        }
    }

    fn tallies(&self) -> Vec<(String, f64)> {
        tally(self)
    }
}

impl Clairvoyant {
    /// [`Game::sample_world`]'s redraw of the opponent's unrevealed guesses.
    fn redraw_world(&self, seat: Seat, rng: &mut dyn RngCore) -> Clairvoyant {
        let them = Color::from_index(1 - seat.min(1));
        let from = self.s.revealed_rec[them.index()] as usize;
        let first = (from..self.records.len()).find(|&i| self.records[i].secret == Some(them));
        let Some(first) = first else {
            return self.clone();
        };
        let actions: Vec<(ClairAction, bool, Phase, Color)> = self.records[first..]
            .iter()
            .map(|r| (r.action, r.secret == Some(them), r.s.phase, r.s.mover))
            .collect();
        let mut legal = Vec::new();
        'attempt: for _ in 0..8 {
            let mut w = self.clone();
            while w.records.len() > first {
                w.undo();
            }
            for (k, &(a, secret, phase, mover)) in actions.iter().enumerate() {
                // The step sequence is public: a redraw must reproduce it exactly.
                let Turn::Seat(actor) = w.turn() else {
                    continue 'attempt;
                };
                if w.s.phase != phase || w.s.mover != mover {
                    continue 'attempt;
                }
                let pick = if secret {
                    w.legal_actions(actor, &mut legal);
                    let same_kind: Vec<ClairAction> = legal
                        .iter()
                        .copied()
                        .filter(|x| match a {
                            ClairAction::Guess(_) => matches!(x, ClairAction::Guess(_)),
                            _ => true,
                        })
                        .collect();
                    if same_kind.is_empty() {
                        continue 'attempt;
                    }
                    same_kind[rng.gen_range(0..same_kind.len())]
                } else if w.offered(a) {
                    // The one action checked by itself (check.rs, which agrees with the
                    // list): a public action costs what it does, not a whole list.
                    a
                } else {
                    continue 'attempt;
                };
                // Only the world's last state lists its actions (as a replay does).
                w.apply_then(pick, k + 1 == actions.len());
            }
            return w;
        }
        self.clone()
    }
}
