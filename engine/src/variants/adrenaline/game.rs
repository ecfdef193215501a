//! Adrenaline under the game API ([`Game`]).

use super::*;

impl Game for Adrenaline {
    type Action = AdrenalineAction;
    type Params = AdrenalineParams;

    fn facts(&self) -> GameFacts {
        // A turn may be a move, extra king steps and a checker placement: a seat
        // decision is not one move of the board's side.
        // Its check counts the checkers' extra steps (`Adrenaline::in_check`).
        GameFacts::TWO_SEAT_CLASSIC
            .with_board_check(false)
            .with_game_check(true)
            .with_eval("adrenaline")
    }

    fn in_check(&self) -> bool {
        Adrenaline::in_check(self)
    }

    fn new(params: &AdrenalineParams) -> Adrenaline {
        Adrenaline::from_board(Board::startpos(), params.clone())
    }

    /// An opening is a FEN, optionally followed by `|` and stacks as `square=count`
    /// (`... w - - 0 1 | c1=3 h5=1`).
    fn from_opening(params: &AdrenalineParams, opening: &str) -> Result<Adrenaline, GameError> {
        let (fen, stacks) = opening.split_once('|').unwrap_or((opening, ""));
        let board = Board::from_fen(fen.trim()).map_err(|e| GameError::opening_fen(opening, e))?;
        let mut g = Adrenaline::from_board(board, params.clone());
        for item in stacks.split_whitespace() {
            let bad = || {
                GameError::opening(
                    opening,
                    format!("stack '{item}': expected square=count on an occupied square"),
                )
            };
            let (s, n) = item.split_once('=').ok_or_else(bad)?;
            let sq = Square::parse(s).ok_or_else(bad)?;
            let n: u8 = n.parse().map_err(|_| bad())?;
            if g.board.piece_at(sq).is_none() {
                return Err(bad());
            }
            // A square named twice would silently keep only its last count.
            if g.stacks[sq.index()] != 0 {
                return Err(GameError::opening(
                    opening,
                    format!("stack '{item}': {s} is named twice"),
                ));
            }
            g.stacks[sq.index()] = n;
        }
        g.refresh();
        if g.checkers_on_board() > params.checkers_total {
            return Err(GameError::opening(
                opening,
                format!(
                    "the stacks hold {} checkers, more than the {} in the box",
                    g.checkers_on_board(),
                    params.checkers_total
                ),
            ));
        }
        Ok(g)
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.phase == Phase::Regular && !self.has_actions() {
            Turn::Terminal
        } else {
            Turn::Seat(self.actor().index())
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<AdrenalineAction>) {
        out.clear();
        if seat != self.actor().index() {
            return;
        }
        self.with_actions(|actions| out.extend_from_slice(actions));
    }

    /// Draws without listing when the list is not made yet: candidates are drawn
    /// uniformly without replacement and the first legal one is kept, which is uniform
    /// over the legal actions (it is the first legal action of a uniformly random
    /// order), and most draws judge one or two candidates instead of all of them.
    fn sample_legal_action(
        &self,
        seat: Seat,
        rng: &mut dyn RngCore,
        scratch: &mut Vec<AdrenalineAction>,
    ) -> Option<AdrenalineAction> {
        scratch.clear();
        if seat != self.actor().index() {
            return None;
        }
        if let Some(list) = self.status.actions.get().filter(|_| self.status.fresh) {
            return (!list.is_empty()).then(|| list[rng.gen_range(0..list.len())]);
        }
        if self.draw_now().is_some() {
            return None;
        }
        // What `has_actions` learnt judging the candidates in order: those before the
        // first legal one are illegal (dropping them keeps the draw uniform over the
        // legal actions) and that one needs no second test.
        let first = self
            .status
            .first_legal
            .get()
            .filter(|_| self.status.fresh)
            .copied();
        self.with_candidates(|candidates, judge| {
            let (start, known) = match first {
                Some(None) => return None,
                Some(Some(i)) => (i, true),
                None => (0, false),
            };
            // The first draw reads one candidate from the groups: it is usually legal,
            // and writing them all out for the draws without replacement showed in
            // profiles. Past it, the same draws go on over the candidates written out
            // without the drawn one, so the actions drawn and the rng consumed are those
            // of drawing from the list from the start.
            let n = candidates.len() - start;
            if n == 0 {
                return None;
            }
            let i = rng.gen_range(0..n);
            let drawn = candidates.get(start + i);
            // The judged first legal candidate is the first one after `start`.
            if (known && i == 0) || judge.is_legal(drawn) {
                return Some(drawn);
            }
            let known = known.then(|| candidates.get(start));
            candidates.write_from(start, scratch);
            scratch.swap_remove(i);
            while !scratch.is_empty() {
                let i = rng.gen_range(0..scratch.len());
                if Some(scratch[i]) == known || judge.is_legal(scratch[i]) {
                    return Some(scratch[i]);
                }
                scratch.swap_remove(i);
            }
            None
        })
    }

    fn apply(&mut self, action: AdrenalineAction) {
        let actor = self.actor().index();
        let saved = Saved {
            stacks: self.stacks,
            phase: self.phase,
            captured_this_turn: self.captured_this_turn,
            counts: self.counts,
        };
        let mut passed = Passed {
            key: if self.status.fresh {
                self.status.key
            } else {
                self.key_of()
            },
            regular: self.phase == Phase::Regular,
            board_plies: 0,
        };
        match action {
            AdrenalineAction::Move(mv) => {
                self.captured_this_turn = false;
                let captured_sq = match mv.kind() {
                    MoveKind::EnPassant => {
                        Some(Square::from_coords(mv.to().file(), mv.from().rank()))
                    }
                    MoveKind::Castle => None,
                    _ => self.board.piece_at(mv.to()).map(|_| mv.to()),
                };
                let moving = self.stacks[mv.from().index()];
                let won = captured_sq.map_or(0, |s| self.stacks[s.index()]);
                self.counts.taken_over[actor] += won as u32;
                if let Some(s) = captured_sq {
                    self.stacks[s.index()] = 0;
                    self.captured_this_turn = true;
                }
                self.stacks[mv.from().index()] = 0;
                let arrive = if mv.is_castle() { mv.from() } else { mv.to() };
                self.board.make(mv);
                passed.board_plies = 1;
                if !mv.is_castle() {
                    self.stacks[arrive.index()] = moving + won;
                    self.after_piece_arrives(arrive);
                } else {
                    self.phase = self.turn_end_phase();
                }
            }
            AdrenalineAction::Step(to, promotion) => {
                let Phase::Steps(from) = self.phase else {
                    panic!("step outside the step phase")
                };
                let left = self.stacks[from.index()] - 1;
                let won = if self.board.piece_at(to).is_some() {
                    self.captured_this_turn = true;
                    self.stacks[to.index()]
                } else {
                    0
                };
                self.counts.steps[actor] += 1;
                self.counts.taken_over[actor] += won as u32;
                self.stacks[from.index()] = 0;
                let us = self.board.turn().other();
                let pawn_to_last = self.board.piece_at(from).map(|p| p.role) == Some(Role::Pawn)
                    && Bitboard::relative_rank(us, 7).contains(to);
                let step = if pawn_to_last {
                    let role = promotion.unwrap_or(Role::Queen);
                    Move::new(from, to, MoveKind::Promotion(role))
                } else {
                    Move::normal(from, to)
                };
                self.board.make_null();
                self.board.make(step);
                passed.board_plies = 2;
                self.stacks[to.index()] = left + won;
                self.after_piece_arrives(to);
            }
            AdrenalineAction::Stop => {
                self.phase = self.turn_end_phase();
            }
            AdrenalineAction::Place(sq) => {
                let n = self.params.checkers_per_capture;
                self.stacks[sq.index()] = self.stacks[sq.index()].saturating_add(n);
                self.counts.placed[actor] += n as u32;
                self.phase = Phase::Regular;
            }
        }
        if self.phase == Phase::Regular {
            self.captured_this_turn = false;
        }
        self.undo.push(saved);
        self.passed.push(passed);
        self.refresh();
    }

    fn undo(&mut self) {
        self.status.fresh = false;
        let saved = self.undo.pop().expect("undo without an action");
        let passed = self.passed.pop().expect("undo without an action");
        if passed.board_plies == 2 {
            self.board.unmake();
            self.board.unmake_null();
        } else if passed.board_plies == 1 {
            self.board.unmake();
        }
        self.stacks = saved.stacks;
        self.phase = saved.phase;
        self.captured_this_turn = saved.captured_this_turn;
        self.counts = saved.counts;
    }

    fn result(&self) -> Option<GameResult> {
        if let Some(reason) = self.draw_now() {
            return Some(GameResult {
                returns: two_seat_returns(None),
                reason,
            });
        }
        if self.phase == Phase::Regular && !self.has_actions() {
            let us = self.board.turn();
            return Some(no_moves_result(us, self.king_attacked(us)));
        }
        None
    }

    fn state_key(&self) -> u64 {
        if self.status.fresh {
            self.status.key
        } else {
            self.key_of()
        }
    }

    fn observation(&self, _seat: Seat) -> String {
        let stacks: Vec<String> = self
            .board
            .occupied()
            .filter(|s| self.stacks[s.index()] > 0)
            .map(|s| format!("{s}={}", self.stacks[s.index()]))
            .collect();
        format!("{} | {}", self.board.fen(), stacks.join(" "))
    }

    fn action_notation(&self, action: AdrenalineAction) -> String {
        match action {
            AdrenalineAction::Move(m) => self.board.uci(m),
            AdrenalineAction::Step(s, None) => format!("~{s}"),
            AdrenalineAction::Step(s, Some(r)) => format!("~{s}{}", r.char()),
            AdrenalineAction::Stop => "stop".into(),
            AdrenalineAction::Place(s) => format!("+{s}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<AdrenalineAction, GameError> {
        let mut actions = Vec::new();
        self.legal_actions(self.actor().index(), &mut actions);
        actions
            .into_iter()
            .find(|&a| self.action_notation(a) == text)
            .ok_or_else(|| GameError::Action {
                action: text.into(),
                message: match self.phase {
                    Phase::Regular => "not a legal regular move (UCI)",
                    Phase::Steps(_) => "expected an extra step '~e5' or 'stop'",
                    Phase::Place => "expected a checker placement '+e7' under an enemy piece",
                }
                .into(),
            })
    }

    fn history_len(&self) -> usize {
        self.undo.len()
    }

    /// Material plus the value of every stack ([`Adrenaline::stack_value`]), own stacks
    /// minus the opponent's.
    fn material(&self, seat: Seat) -> f64 {
        let us = Color::from_index(seat);
        let mut m = material_balance(&self.board, us);
        for sq in self.board.occupied() {
            if self.stacks[sq.index()] == 0 {
                continue;
            }
            let v = self.stack_value(sq);
            if self.board.by_color(us).contains(sq) {
                m += v;
            } else {
                m -= v;
            }
        }
        m
    }

    /// The move a move action plays (agents read it instead of playing the action).
    fn action_move(&self, action: AdrenalineAction) -> Option<Move> {
        match action {
            AdrenalineAction::Move(m) => Some(m),
            _ => None,
        }
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// The material differences (White less Black, as the default), then `checkers`:
    /// checkers under White's pieces less those under Black's, and `carriers`: White's
    /// pieces with checkers less Black's (one tall stack and many short ones differ in
    /// what they threaten). A checker under a piece is that piece's owner's asset: it
    /// buys the owner's extra steps.
    fn features(&self) -> Vec<(String, f64)> {
        let mut f = material_features(&self.board);
        let (mut checkers, mut carriers) = ([0.0f64; 2], [0.0f64; 2]);
        for c in [Color::White, Color::Black] {
            for sq in self.board.by_color(c) {
                let n = self.stacks[sq.index()];
                if n > 0 {
                    checkers[c.index()] += n as f64;
                    carriers[c.index()] += 1.0;
                }
            }
        }
        f.push(("checkers".to_string(), checkers[0] - checkers[1]));
        f.push(("carriers".to_string(), carriers[0] - carriers[1]));
        f
    }

    /// Checkers placed after captures during the game (`checkers_placed`,
    /// `white_checkers_placed`, `black_checkers_placed`; stacks set up by an opening
    /// are not counted), extra king steps taken (`steps`, `white_steps`, `black_steps`)
    /// and checkers won by capturing a carrier (`checkers_taken_over`). Saved with every
    /// action, so `undo` restores them.
    fn tallies(&self) -> Vec<(String, f64)> {
        let c = &self.counts;
        let mut t = Vec::with_capacity(7);
        for (name, per_side) in [("checkers_placed", c.placed), ("steps", c.steps)] {
            t.push((name.to_string(), (per_side[0] + per_side[1]) as f64));
            t.push((format!("white_{name}"), per_side[0] as f64));
            t.push((format!("black_{name}"), per_side[1] as f64));
        }
        t.push((
            "checkers_taken_over".to_string(),
            (c.taken_over[0] + c.taken_over[1]) as f64,
        ));
        t
    }
}
