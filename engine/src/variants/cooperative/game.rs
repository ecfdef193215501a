//! The `Game` implementation: the deal and draws as chance outcomes, apply/undo, keys,
//! sampled worlds, observations, notation and parsing, tallies.

use super::*;

impl Cooperative {
    fn hand_text(&self, seat: usize) -> String {
        letters(&self.hands[seat])
    }

    fn stack_text(s: &[Card]) -> String {
        if s.is_empty() {
            "-".into()
        } else {
            s.iter().map(|c| c.letter()).collect()
        }
    }
}

/// The square a pawn of `owner` that double-stepped to `pawn` passed over.
pub(super) fn ep_target(pawn: Square, owner: Color) -> Square {
    match owner {
        Color::White => Square::from_coords(pawn.file(), pawn.rank() - 1),
        Color::Black => Square::from_coords(pawn.file(), pawn.rank() + 1),
    }
}

impl Game for Cooperative {
    type Action = CoopAction;
    type Params = CooperativeParams;

    fn facts(&self) -> GameFacts {
        GameFacts {
            utility: Utility::Identical,
            eval: "cooperative",
            ..GameFacts::TWO_SEAT_CLASSIC
                .with_chance(true)
                .with_hidden_information(true)
        }
    }

    fn new(params: &CooperativeParams) -> Cooperative {
        Cooperative::from_board(params, Board::startpos())
    }

    /// A FEN whose side to move starts; the hands are dealt first.
    fn from_opening(params: &CooperativeParams, opening: &str) -> Result<Cooperative, GameError> {
        let board = Board::from_fen_kings_touching(opening)
            .map_err(|e| GameError::opening_fen(opening, e))?;
        if board.king(Color::White).is_none() || board.king(Color::Black).is_none() {
            return Err(GameError::opening(
                opening,
                "both kings must be on the board",
            ));
        }
        Ok(Cooperative::from_board(params, board))
    }

    fn num_seats(&self) -> usize {
        2
    }

    /// One team: both seats play against the deck.
    fn team(&self, _seat: Seat) -> usize {
        0
    }

    fn turn(&self) -> Turn {
        if self.end().is_some() {
            return Turn::Terminal;
        }
        match self.phase {
            Phase::Deal | Phase::Draw => Turn::Chance,
            _ => Turn::Seat(self.mover().index()),
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<CoopAction>) {
        out.clear();
        if self.turn() != Turn::Seat(seat) {
            return;
        }
        match self.phase {
            Phase::Quiet => {
                out.push(CoopAction::Pass);
                self.quiet_moves(out);
            }
            Phase::Card => {
                for (i, &n) in self.hands[seat].iter().enumerate() {
                    if n > 0 {
                        out.push(CoopAction::Play(Card::from_index(i)));
                    }
                }
            }
            Phase::Capture => {
                out.push(CoopAction::Pass);
                self.captures(out);
            }
            Phase::Deal | Phase::Draw => {}
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(CoopAction, f64)>) {
        out.clear();
        if self.turn() != Turn::Chance {
            return;
        }
        let n = self.pile_len() as f64;
        for (i, &c) in self.pile.iter().enumerate() {
            if c > 0 {
                out.push((CoopAction::Draw(Card::from_index(i)), c as f64 / n));
            }
        }
    }

    fn apply(&mut self, action: CoopAction) {
        let me = self.mover();
        let mut rec = Record {
            action,
            snap: self.snap(),
            by: me,
            moved: false,
            turn_end: false,
        };
        match (self.phase, action) {
            (Phase::Deal | Phase::Draw, CoopAction::Draw(c)) => {
                let to = if self.phase == Phase::Deal {
                    self.deal_recipient()
                } else {
                    me
                };
                rec.by = to;
                self.pile[c.index()] -= 1;
                self.hands[to.index()][c.index()] += 1;
                self.private[to.index()] = mix(self.private[to.index()], c.index() as u64);
                self.public = mix(self.public, draw_code(to));
                if self.phase == Phase::Draw {
                    self.end_turn(&mut rec);
                } else if total(&self.hands[1]) >= self.hand_size as u32 {
                    self.phase = Phase::Quiet;
                }
            }
            (Phase::Quiet, CoopAction::Pass) => {
                self.phase = Phase::Card;
            }
            (Phase::Quiet, CoopAction::Move(m)) => {
                let double = self.board.piece_at(m.from()).map(|p| p.role) == Some(Role::Pawn)
                    && m.from().index().abs_diff(m.to().index()) == 16;
                self.board_move(m, &mut rec);
                self.quiet_moved = true;
                self.stats.quiet_moves += 1;
                if double {
                    self.ep_next = Some(m.to());
                }
                self.phase = Phase::Card;
            }
            (Phase::Card, CoopAction::Play(c)) => {
                self.hands[me.index()][c.index()] -= 1;
                self.stacks[me.index()].push(c);
                self.phase = Phase::Capture;
                if !self.any_capture() {
                    self.finish_captures(&mut rec);
                }
            }
            (Phase::Capture, CoopAction::Pass) => self.finish_captures(&mut rec),
            (Phase::Capture, CoopAction::Move(m)) => {
                let b = &self.board;
                let capturer = b
                    .piece_at(m.from())
                    .expect("capture from an own piece")
                    .role;
                let victim = b.captured_piece(m).expect("a capture takes a piece").role;
                let verdict = self
                    .capture_match(capturer, victim)
                    .expect("capture from the legal list");
                let card = self.stacks[me.other().index()]
                    .pop()
                    .expect("a victim card");
                self.captured.push(card);
                self.board_move(m, &mut rec);
                self.chain += 1;
                self.next_wild = verdict.double_colour;
                self.stats.captures += 1;
                self.stats.wild_captures += verdict.wild as u16;
                self.stats.double_matches += verdict.double_colour as u16;
                self.stats.longest_chain = self.stats.longest_chain.max(self.chain);
                if victim == Role::King {
                    self.end = Some(End::KingCaptured(self.types_removed() as u8));
                } else if !self.any_capture() {
                    self.finish_captures(&mut rec);
                }
            }
            (phase, a) => panic!("cooperative: {a:?} does not fit the phase {phase:?}"),
        }
        if !matches!(action, CoopAction::Draw(_)) {
            self.plies += 1;
            self.public = mix(self.public, action_code(action));
        }
        self.records.push(rec);
    }

    fn undo(&mut self) {
        let rec = self.records.pop().expect("undo without an action");
        if rec.turn_end {
            self.board.unmake_null();
        }
        if rec.moved {
            self.board.unmake_null();
            self.board.unmake();
        }
        let by = rec.by.index();
        match rec.action {
            CoopAction::Draw(c) => {
                self.hands[by][c.index()] -= 1;
                self.pile[c.index()] += 1;
            }
            CoopAction::Play(c) => {
                self.stacks[by].pop();
                self.hands[by][c.index()] += 1;
            }
            CoopAction::Move(_) if rec.snap.phase == Phase::Capture => {
                let card = self.captured.pop().expect("a captured card");
                self.stacks[1 - by].push(card);
            }
            _ => {}
        }
        self.restore(rec.snap);
    }

    fn result(&self) -> Option<GameResult> {
        let (score, reason) = match self.end()? {
            End::KingCaptured(s) => (s as u32, "king-captured"),
            End::OutOfCards => (0, "out-of-cards"),
            End::Cap => (0, "cap"),
        };
        let v = 2.0 * score as f64 / MAX_SCORE as f64 - 1.0;
        let mut returns = [0.0; MAX_SEATS];
        returns[0] = v;
        returns[1] = v;
        Some(GameResult { returns, reason })
    }

    fn state_key(&self) -> u64 {
        self.full_key()
    }

    fn information_key(&self, seat: Seat) -> u64 {
        let s = seat.min(1);
        mix(mix(self.public, self.private[s]), 0x5345_4154 + s as u64)
    }

    /// Deals the cards `seat` has not seen (the partner's hand and the pile) uniformly,
    /// and rewrites the partner's past draws to fit: the partner drew the cards it has
    /// played in the order it played them, then the cards of its sampled hand.
    fn sample_world(&self, seat: Seat, rng: &mut dyn RngCore) -> Cooperative {
        let me = seat.min(1);
        let partner = 1 - me;
        let mut w = self.clone();
        // The unseen pool, in kind order: the deck less the own hand and every played card.
        let mut pool_counts = self.full;
        for (p, h) in pool_counts.iter_mut().zip(&self.hands[me]) {
            *p -= h;
        }
        for c in self.stacks.iter().flatten().chain(&self.captured) {
            pool_counts[c.index()] -= 1;
        }
        let mut pool: Vec<Card> = Vec::with_capacity(32);
        for (i, &n) in pool_counts.iter().enumerate() {
            for _ in 0..n {
                pool.push(Card::from_index(i));
            }
        }
        let k = total(&self.hands[partner]) as usize;
        for i in 0..k {
            let j = rng.gen_range(i..pool.len());
            pool.swap(i, j);
        }
        let mut hand = [0u8; KINDS];
        for c in &pool[..k] {
            hand[c.index()] += 1;
        }
        let mut pile = [0u8; KINDS];
        for c in &pool[k..] {
            pile[c.index()] += 1;
        }
        w.hands[partner] = hand;
        w.pile = pile;
        // The partner's draws, rewritten: its plays in order, then its hand.
        let partner_colour = Color::from_index(partner);
        let mut drawn = w
            .records
            .iter()
            .filter_map(|r| match r.action {
                CoopAction::Play(c) if r.by == partner_colour => Some(c),
                _ => None,
            })
            .collect::<Vec<_>>();
        for (i, &n) in hand.iter().enumerate() {
            for _ in 0..n {
                drawn.push(Card::from_index(i));
            }
        }
        let mut next = drawn.into_iter();
        let mut h = self
            .records
            .first()
            .map_or(self.private[partner], |r| r.snap.private[partner]);
        for r in w.records.iter_mut() {
            r.snap.private[partner] = h;
            if let CoopAction::Draw(_) = r.action {
                if r.by == partner_colour {
                    // A set-up position's first hand has no draw records: cards left
                    // over keep their place in the hand.
                    if let Some(c) = next.next() {
                        r.action = CoopAction::Draw(c);
                        h = mix(h, c.index() as u64);
                    }
                }
            }
        }
        w.private[partner] = h;
        w
    }

    fn observation(&self, seat: Seat) -> String {
        let me = seat.min(1);
        let log: Vec<String> = self
            .records
            .iter()
            .map(|r| match r.action {
                CoopAction::Draw(c) if r.by.index() == me => format!("draw:{c}"),
                CoopAction::Draw(_) => format!("{}:draw", &r.by.name()[..1]),
                a => self.notation_in(r, a),
            })
            .collect();
        format!(
            "{} | {:?} | you are {}; your hand: {} | partner holds {} | pile {} | stacks: \
             white {} black {} | captured {} | record: {}",
            self.board.fen(),
            self.phase,
            Color::from_index(me).name(),
            self.hand_text(me),
            total(&self.hands[1 - me]),
            self.pile_len(),
            Self::stack_text(&self.stacks[0]),
            Self::stack_text(&self.stacks[1]),
            Self::stack_text(&self.captured),
            log.join(" ")
        )
    }

    fn action_notation(&self, action: CoopAction) -> String {
        match action {
            CoopAction::Move(m) => self.board.uci(m),
            CoopAction::Pass => "pass".into(),
            CoopAction::Play(c) => format!("card:{c}"),
            CoopAction::Draw(c) => format!("draw:{c}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<CoopAction, GameError> {
        let t = text.trim();
        let err = |m: String| GameError::Action {
            action: text.into(),
            message: m,
        };
        if self.end().is_some() {
            return Err(err("the game is over".into()));
        }
        let me = self.mover().index();
        match self.phase {
            Phase::Deal | Phase::Draw => {
                let card = t
                    .strip_prefix("draw:")
                    .and_then(Card::parse)
                    .ok_or_else(|| err("a card is drawn now ('draw:B')".into()))?;
                if self.pile[card.index()] == 0 {
                    return Err(err(format!(
                        "no {} card is left in the pile",
                        card.describe()
                    )));
                }
                Ok(CoopAction::Draw(card))
            }
            Phase::Card => {
                let Some(rest) = t.strip_prefix("card:") else {
                    return Err(err(format!(
                        "a card must be played now ('card:b'); your hand: {}",
                        self.hand_text(me)
                    )));
                };
                let card = Card::parse(rest).ok_or_else(|| {
                    err(format!(
                        "'{rest}' is not a card (P N B R Q K red, p n b r q k black)"
                    ))
                })?;
                if self.hands[me][card.index()] == 0 {
                    return Err(err(format!(
                        "the {} card is not in your hand ({})",
                        card.describe(),
                        self.hand_text(me)
                    )));
                }
                Ok(CoopAction::Play(card))
            }
            Phase::Quiet | Phase::Capture => {
                if t == "pass" {
                    return Ok(CoopAction::Pass);
                }
                if t.starts_with("card:") {
                    return Err(err(if self.phase == Phase::Quiet {
                        "the card comes after the quiet move: play a quiet move or 'pass' first"
                            .into()
                    } else {
                        "one card a turn: capture (UCI) or 'pass'".into()
                    }));
                }
                let mut legal = Vec::new();
                if self.phase == Phase::Quiet {
                    self.quiet_moves(&mut legal);
                } else {
                    self.captures(&mut legal);
                }
                if let Some(a) = legal
                    .iter()
                    .copied()
                    .find(|&a| self.action_notation(a) == t)
                {
                    return Ok(a);
                }
                Err(err(if self.phase == Phase::Quiet {
                    "not a legal non-capturing move here (UCI, or 'pass')".into()
                } else {
                    format!("not a legal capture: {}", self.explain_capture(t))
                }))
            }
        }
    }

    fn history_len(&self) -> usize {
        self.records.len()
    }

    /// The team's progress, the same for both seats: a point per piece type gone from
    /// the board plus a half-point share of the type's pieces removed.
    fn material(&self, _seat: Seat) -> f64 {
        // Pieces of each type (pawn..queen) in the starting position.
        const START: [f64; 5] = [16.0, 4.0, 4.0, 4.0, 2.0];
        let mut v = 0.0;
        for (r, start) in Role::ALL.iter().zip(START) {
            let left = self.board.by_role(*r).count() as f64;
            let all = start.max(left);
            if left == 0.0 {
                v += 1.0;
            }
            v += 0.5 * (1.0 - left / all);
        }
        v
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// Per game: `score` (the raw score, 0 on a loss), `king_captured` (1 or 0),
    /// `types_removed` (at the end, whatever the ending), `turns`, `captures`,
    /// `wild_captures`, `double_colour_matches`, `longest_chain`, `quiet_moves`,
    /// `cards_left` (pile and hands at the end).
    fn tallies(&self) -> Vec<(String, f64)> {
        let score = match self.end() {
            Some(End::KingCaptured(s)) => s as f64,
            _ => 0.0,
        };
        let turns = self
            .records
            .iter()
            .filter(|r| matches!(r.action, CoopAction::Play(_)))
            .count();
        let s = self.stats;
        let left = self.pile_len() + total(&self.hands[0]) + total(&self.hands[1]);
        vec![
            ("score".into(), score),
            (
                "king_captured".into(),
                f64::from(matches!(self.end(), Some(End::KingCaptured(_)))),
            ),
            ("types_removed".into(), self.types_removed() as f64),
            ("turns".into(), turns as f64),
            ("captures".into(), s.captures as f64),
            ("wild_captures".into(), s.wild_captures as f64),
            ("double_colour_matches".into(), s.double_matches as f64),
            ("longest_chain".into(), s.longest_chain as f64),
            ("quiet_moves".into(), s.quiet_moves as f64),
            ("cards_left".into(), left as f64),
        ]
    }
}

impl Cooperative {
    /// Notation of a recorded action in the position it was played in (the board's side
    /// to move is not needed for UCI but castling prints the king's target).
    fn notation_in(&self, rec: &Record, a: CoopAction) -> String {
        match a {
            CoopAction::Move(m) => {
                let to = if m.is_castle() {
                    Board::castle_targets(rec.by, m.from(), m.to()).0
                } else {
                    m.to()
                };
                let mut s = format!("{}{}", m.from(), to);
                if let Some(r) = m.promotion() {
                    s.push(r.char());
                }
                s
            }
            CoopAction::Pass => "pass".into(),
            CoopAction::Play(c) => format!("card:{c}"),
            CoopAction::Draw(c) => format!("draw:{c}"),
        }
    }
}
