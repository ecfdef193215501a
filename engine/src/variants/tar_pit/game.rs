//! The `Game` implementation: chance outcomes (the draws), apply/undo, keys, sampled
//! worlds, notation and parsing, features and tallies.

use super::*;

impl Game for TarPit {
    type Action = TarPitAction;
    type Params = TarPitParams;

    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC
            .with_chance(true)
            .with_hidden_information(!self.params.open_hands)
            .with_eval("tar-pit")
    }

    fn new(params: &TarPitParams) -> TarPit {
        TarPit::from_board(Board::startpos(), params.clone())
    }

    fn from_opening(params: &TarPitParams, opening: &str) -> Result<TarPit, GameError> {
        let board = Board::from_fen(opening).map_err(|e| GameError::opening_fen(opening, e))?;
        Ok(TarPit::from_board(board, params.clone()))
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.core.ended.is_some() {
            return Turn::Terminal;
        }
        match self.actor() {
            Some(c) => Turn::Seat(c.index()),
            None => Turn::Chance,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<TarPitAction>) {
        out.clear();
        if self.turn() != Turn::Seat(seat) {
            return;
        }
        self.seat_actions(out);
    }

    fn chance_outcomes(&self, out: &mut Vec<(TarPitAction, f64)>) {
        out.clear();
        if self.turn() != Turn::Chance {
            return;
        }
        let n = cards::total(&self.core.pile);
        if n == 0 {
            out.push((TarPitAction::Shuffle, 1.0));
            return;
        }
        for c in Card::all() {
            let k = self.core.pile[c.index()];
            if k > 0 {
                out.push((TarPitAction::Draw(c), k as f64 / n as f64));
            }
        }
    }

    fn apply(&mut self, action: TarPitAction) {
        let actor = match self.actor() {
            Some(c) => c,
            None => self.drawer(),
        };
        let mut rec = Record {
            action,
            actor,
            before: self.core,
            board_moved: false,
            rep_key: None,
        };
        match (self.core.phase, action) {
            (Phase::Deal(c), TarPitAction::Draw(card)) => {
                self.core.pile[card.index()] -= 1;
                self.core.hands[c.index()][card.index()] += 1;
                self.continue_deal();
            }
            (Phase::Move, TarPitAction::Move(m)) => {
                rec.rep_key = Some(self.repetition_key());
                rec.board_moved = true;
                self.apply_move(m);
            }
            (Phase::Throw { at }, TarPitAction::Throw(sq)) => {
                let me = self.core.mover;
                self.core.checkers[me.index()].clear(at);
                self.core.tally.thrown[me.index()] += 1;
                self.arrive(me, sq);
                self.enter_card();
            }
            (Phase::Throw { .. }, TarPitAction::Pass) => self.enter_card(),
            (Phase::Card, TarPitAction::Card(card, target)) => self.apply_card(card, target),
            (Phase::Card, TarPitAction::Pass) => self.enter_draw(),
            (Phase::Return, a @ (TarPitAction::ReturnFront | TarPitAction::ReturnAt(_))) => {
                self.do_return(a);
                self.enter_discard();
            }
            (Phase::Discard, TarPitAction::Discard(card)) => {
                let them = self.core.mover.other();
                self.core.hands[them.index()][card.index()] -= 1;
                self.core.discard[card.index()] += 1;
                self.enter_discard();
            }
            (Phase::Draw, TarPitAction::Draw(card)) => {
                let me = self.core.mover;
                self.core.pile[card.index()] -= 1;
                self.core.hands[me.index()][card.index()] += 1;
                self.enter_draw();
            }
            (Phase::Draw, TarPitAction::Shuffle) => {
                self.core.pile = self.core.discard;
                self.core.discard = [0; KINDS];
                self.enter_draw();
            }
            (phase, a) => panic!("tar pit: {a:?} does not fit the phase {phase:?}"),
        }
        self.push_view(action, actor);
        self.records.push(rec);
    }

    fn undo(&mut self) {
        let rec = self.records.pop().expect("undo without an action");
        if rec.board_moved {
            self.board.unmake();
        }
        self.core = rec.before;
    }

    fn result(&self) -> Option<GameResult> {
        self.core.ended.map(|(winner, reason)| GameResult {
            returns: two_seat_returns(winner.map(Color::index)),
            reason,
        })
    }

    fn state_key(&self) -> u64 {
        self.key_with(None)
    }

    fn information_key(&self, seat: Seat) -> u64 {
        if self.params.open_hands {
            return self.state_key();
        }
        self.key_with(Some(Color::from_index(seat.min(1))))
    }

    fn sample_world(&self, seat: Seat, rng: &mut dyn RngCore) -> TarPit {
        if self.params.open_hands {
            return self.clone();
        }
        info::sample_world(self, Color::from_index(seat.min(1)), rng)
    }

    fn observation(&self, seat: Seat) -> String {
        info::observation(self, Color::from_index(seat.min(1)))
    }

    fn action_notation(&self, action: TarPitAction) -> String {
        match action {
            TarPitAction::Move(m) => self.board.uci(m),
            TarPitAction::Throw(s) => format!("throw:{s}"),
            TarPitAction::Card(c, Some(s)) => format!("card:{c}@{s}"),
            TarPitAction::Card(c, None) => format!("card:{c}"),
            TarPitAction::ReturnFront => "return:front".into(),
            TarPitAction::ReturnAt(s) => format!("return:{s}"),
            TarPitAction::Discard(c) => format!("discard:{c}"),
            TarPitAction::Draw(c) => format!("draw:{c}"),
            TarPitAction::Shuffle => "shuffle".into(),
            TarPitAction::Pass => "pass".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<TarPitAction, GameError> {
        if self.core.ended.is_some() {
            return Err(Self::parse_err(text, "the game is over"));
        }
        let a = self.read_action(text)?;
        let legal = match self.turn() {
            Turn::Chance => {
                let mut out = Vec::new();
                self.chance_outcomes(&mut out);
                out.iter().any(|&(o, _)| o == a)
            }
            Turn::Seat(s) => {
                let mut out = Vec::new();
                self.legal_actions(s, &mut out);
                out.contains(&a)
            }
            _ => false,
        };
        if legal {
            Ok(a)
        } else {
            Err(Self::parse_err(text, self.why_illegal(a)))
        }
    }

    fn history_len(&self) -> usize {
        self.records.len()
    }

    /// Orthodox material, with tar: a tarred piece is worth less to its owner (a tarred
    /// pawn is frozen, a tarred piece crawls like a pawn), a checker carried is a weapon.
    fn material(&self, seat: Seat) -> f64 {
        let us = Color::from_index(seat.min(1));
        let tar_cost = |c: Color| {
            let t = self.tarred(c);
            t.count() as f64 * 0.3
                + (t & self.board.by_role(Role::Queen)).count() as f64 * 2.0
                + (t & self.board.by_role(Role::Rook)).count() as f64 * 1.0
        };
        material_balance(&self.board, us) + tar_cost(us.other()) - tar_cost(us)
            + 0.1 * (self.carrying(us).count() as f64 - self.carrying(us.other()).count() as f64)
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// The piece differences, then White minus Black in `tarred` (own pieces under an
    /// enemy checker) and `checkers_in_front` (hand size and throwing stock), for
    /// `chesslab values` (`features_count_tar_and_fronts`).
    fn features(&self) -> Vec<(String, f64)> {
        let mut f = crate::game::material_features(&self.board);
        let diff = |x: [f64; 2]| x[0] - x[1];
        let tarred = Color::BOTH.map(|c| self.tarred(c).count() as f64);
        let front = Color::BOTH.map(|c| self.front(c) as f64);
        f.push(("tarred".to_string(), diff(tarred)));
        f.push(("checkers_in_front".to_string(), diff(front)));
        f
    }

    fn action_move(&self, action: TarPitAction) -> Option<Move> {
        match action {
            TarPitAction::Move(m) => Some(m),
            _ => None,
        }
    }

    /// Per game and side: `{side}_thrown` (checkers thrown), `{side}_tarred_turns`
    /// (turns begun with at least one own piece tarred), `{side}_cleansings` (own pieces
    /// freed of tar, any of the four ways or an enemy return), and cards played by kind
    /// `{side}_cards_{pawn,knight,bishop,rook,queen,king,own_checker,enemy_checker}`.
    fn tallies(&self) -> Vec<(String, f64)> {
        let t = &self.core.tally;
        let kinds = [
            "pawn",
            "knight",
            "bishop",
            "rook",
            "queen",
            "king",
            "own_checker",
            "enemy_checker",
        ];
        let mut out = Vec::new();
        for (i, side) in ["white", "black"].iter().enumerate() {
            out.push((format!("{side}_thrown"), t.thrown[i] as f64));
            out.push((format!("{side}_tarred_turns"), t.tarred_turns[i] as f64));
            out.push((format!("{side}_cleansings"), t.cleansings[i] as f64));
            for (k, name) in kinds.iter().enumerate() {
                out.push((format!("{side}_cards_{name}"), t.played[i][k] as f64));
            }
        }
        out
    }
}
