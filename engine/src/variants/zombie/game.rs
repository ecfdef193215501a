//! The `Game` implementation (apply/undo, keys, information sets and sampled worlds,
//! observations, notation and its parsing) and the public part of the position key.

use super::*;

impl Game for Zombie {
    type Action = ZombieAction;
    type Params = ZombieParams;

    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC
            .with_hidden_information(!self.open_burials)
            .with_eval("zombie")
    }

    fn new(params: &ZombieParams) -> Zombie {
        Zombie::from_board(Board::startpos(), params.ply_cap).with_params(params)
    }

    /// An orthodox FEN (both kings, side not to move not in check).
    fn from_opening(params: &ZombieParams, opening: &str) -> Result<Zombie, GameError> {
        let board = Board::from_fen(opening).map_err(|e| GameError::opening_fen(opening, e))?;
        for c in Color::BOTH {
            if board.pieces(c, Role::King).count() != 1 {
                return Err(GameError::opening(
                    opening,
                    format!("Zombie Chess needs exactly one {} king", c.name()),
                ));
            }
        }
        Ok(Zombie::from_board(board, params.ply_cap).with_params(params))
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.s.outcome.is_some() {
            Turn::Terminal
        } else if let Some(sq) = self.s.promoting.first() {
            let owner = self.board.piece_at(sq).map_or(self.mover(), |p| p.color);
            Turn::Seat(owner.index())
        } else {
            Turn::Seat(self.mover().index())
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<ZombieAction>) {
        out.clear();
        if self.turn() == Turn::Seat(seat) {
            if self.listed_fresh {
                out.extend_from_slice(&self.listed);
            } else {
                self.actions(out);
            }
        }
    }

    fn apply(&mut self, action: ZombieAction) {
        self.listed_fresh = false;
        let mut squares = Vec::new();
        let undo_head = Undo {
            scalars: self.s,
            squares: Vec::new(),
            pending: self.pending.clone(),
            events_len: self.events.len(),
            turn_keys_len: self.turn_keys.len(),
            snapshots_len: self.snapshots.len(),
            board_turn: self.board.turn(),
            board_castling: self.board.castling_rights(),
            board_ep: self.board.ep_square(),
        };
        match action {
            ZombieAction::Move(mv) => {
                self.play_move(mv, &mut squares);
                self.s.public_hash = mix(self.s.public_hash, mv.code() as u64 + 1);
            }
            ZombieAction::End => self.end_turn(&mut squares),
            ZombieAction::Promote(r) => self.promote(r, &mut squares),
            ZombieAction::Bury(sq) => {
                let us = self.mover();
                let piece = self.pending.remove(0);
                self.push_event(Event::Buried {
                    by: us,
                    role: piece.role,
                    candidates: self.board.by_color(us),
                });
                self.s.grids[us.index()] = self.s.grids[us.index()].insert(sq, piece.role);
                self.s.private_hash[us.index()] =
                    mix(self.s.private_hash[us.index()], sq.index() as u64 + 1);
                self.s.public_hash = mix(self.s.public_hash, 0xB0 + piece.role.index() as u64);
                self.s.tallies[us.index()][T_BURIALS] += 1;
                self.advance();
            }
        }
        self.history.push(Undo {
            squares,
            ..undo_head
        });
        if !self.listed_fresh {
            self.refresh_listed();
        }
    }

    fn undo(&mut self) {
        let Some(u) = self.history.pop() else { return };
        self.listed_fresh = false;
        for &(sq, p) in u.squares.iter().rev() {
            self.board.set_piece(sq, p);
        }
        self.s = u.scalars;
        self.pending = u.pending;
        self.events.truncate(u.events_len);
        self.chain.truncate(u.events_len);
        self.turn_keys.truncate(u.turn_keys_len);
        self.snapshots.truncate(u.snapshots_len);
        self.board.set_state(
            u.board_turn,
            u.board_castling,
            u.board_ep,
            u.scalars.quiet_turns.min(u16::MAX as u32) as u16,
            u.scalars.turns.min(u16::MAX as u32) as u16,
        );
    }

    fn result(&self) -> Option<GameResult> {
        self.s.outcome
    }

    fn state_key(&self) -> u64 {
        self.position_key()
    }

    fn information_key(&self, seat: Seat) -> u64 {
        if self.open_burials {
            return self.state_key();
        }
        let me = seat.min(1);
        mix(
            mix(
                mix(self.s.public_hash, self.s.private_hash[me]),
                me as u64 + 7,
            ),
            self.position_public_key(),
        )
    }

    fn sample_world(&self, seat: Seat, rng: &mut dyn RngCore) -> Zombie {
        if self.open_burials {
            return self.clone();
        }
        let mut w = self.clone();
        // The mover's actions depend on its grid: list them again when asked.
        w.listed_fresh = false;
        let them = Color::from_index(seat.min(1)).other();
        let sampler = self.sampler(them);
        if let Some(&total) = sampler.cumulative.last() {
            if total > 0.0 {
                let x = rng.gen::<f64>() * total;
                let i = sampler
                    .cumulative
                    .partition_point(|&c| c <= x)
                    .min(sampler.grids.len() - 1);
                w.s.grids[them.index()] = sampler.grids[i];
                return w;
            }
        }
        // Every particle filter died: search the record for one consistent grid.
        let accept = |g: BurialGrid| self.fits_turn_so_far(them, g);
        if let Some(g) =
            belief::search_grid(&self.events, them, rng.next_u64(), SEARCH_BUDGET, &accept)
        {
            w.s.grids[them.index()] = g;
        }
        w
    }

    fn observation(&self, seat: Seat) -> String {
        let me = Color::from_index(seat.min(1));
        let own: Vec<String> = self.s.grids[me.index()]
            .iter()
            .map(|(sq, r)| format!("{sq}:{}", r.char().to_ascii_uppercase()))
            .collect();
        // The twin shows where the opponent buried, the seed's game only what.
        let theirs: String = if self.open_burials {
            let open: Vec<String> = self.s.grids[me.other().index()]
                .iter()
                .map(|(sq, r)| format!("{sq}:{}", r.char().to_ascii_uppercase()))
                .collect();
            open.join(" ")
        } else {
            self.s.grids[me.other().index()]
                .iter()
                .map(|(_, r)| r.char().to_ascii_uppercase())
                .collect()
        };
        let zombies: Vec<String> = self.s.zombies.map(|s| s.to_string()).collect();
        format!(
            "{} | you are {} | zombies: {} | your burials: {} | your pieces buried by {}: {} | {}",
            self.board.fen(),
            me.name(),
            if zombies.is_empty() {
                "-".into()
            } else {
                zombies.join(" ")
            },
            if own.is_empty() {
                "-".into()
            } else {
                own.join(" ")
            },
            me.other().name(),
            if theirs.is_empty() {
                "-".into()
            } else {
                theirs
            },
            if let (Some(sq), Turn::Seat(owner)) = (self.s.promoting.first(), self.turn()) {
                format!(
                    "{} to choose the risen pawn's piece on {sq}",
                    Color::from_index(owner).name()
                )
            } else if self.is_burying() {
                format!("{} to bury", self.mover().name())
            } else {
                format!("{} to play", self.mover().name())
            }
        )
    }

    fn action_notation(&self, action: ZombieAction) -> String {
        match action {
            ZombieAction::Move(m) => self.board.uci(m),
            ZombieAction::End => "end".into(),
            ZombieAction::Bury(sq) => format!("bury:{sq}"),
            ZombieAction::Promote(r) => format!("promote:{}", r.char()),
        }
    }

    fn parse_action(&self, text: &str) -> Result<ZombieAction, GameError> {
        let err = |m: String| GameError::Action {
            action: text.into(),
            message: m,
        };
        let t = text.trim();
        if self.s.outcome.is_some() {
            return Err(err("the game is over".into()));
        }
        let mut legal = Vec::new();
        self.actions(&mut legal);
        let wanted = if t == "end" {
            ZombieAction::End
        } else if let Some(rest) = t.strip_prefix("bury:") {
            match Square::parse(rest) {
                Some(sq) => ZombieAction::Bury(sq),
                None => return Err(err(format!("'{rest}' is not a square"))),
            }
        } else if let Some(rest) = t.strip_prefix("promote:") {
            match PROMOTION_ROLES
                .iter()
                .find(|r| r.char().to_string() == rest)
            {
                Some(&r) => ZombieAction::Promote(r),
                None => {
                    return Err(err(format!(
                        "'{rest}' is not a piece a risen pawn may become (q, r, b or n)"
                    )))
                }
            }
        } else {
            match legal
                .iter()
                .copied()
                .find(|&a| matches!(a, ZombieAction::Move(_)) && self.action_notation(a) == t)
            {
                Some(a) => a,
                None => {
                    return Err(err(
                        "not a legal move here (UCI move like 'e2e4', 'end', 'bury:c6')".into(),
                    ))
                }
            }
        };
        if legal.contains(&wanted) {
            Ok(wanted)
        } else {
            Err(err(match wanted {
                ZombieAction::End => {
                    "'end' is not allowed now (the regular move is still due, the king is in \
                     check, or a burial is due)"
                        .into()
                }
                ZombieAction::Bury(_) if self.s.phase == Phase::Bury => {
                    "no own piece without a burial of yours on that square".into()
                }
                ZombieAction::Promote(_) => {
                    "no risen pawn is waiting for its owner's choice (promote:q needs the \
                     promotion_choice parameter)"
                        .into()
                }
                _ if self.s.phase == Phase::Promote => {
                    "the owner of a risen pawn must choose its piece first (promote:q, \
                     promote:r, promote:b or promote:n)"
                        .into()
                }
                _ => "not a legal action here".into(),
            }))
        }
    }

    fn history_len(&self) -> usize {
        self.history.len()
    }

    fn material(&self, seat: Seat) -> f64 {
        material_balance(&self.board, Color::from_index(seat.min(1)))
    }

    /// The move a move action plays (agents read it instead of playing the action).
    fn action_move(&self, action: ZombieAction) -> Option<Move> {
        match action {
            ZombieAction::Move(m) => Some(m),
            _ => None,
        }
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// The piece differences, then White minus Black in `zombies` (own zombies on the
    /// board) and `graveyard` (own pieces buried by the opponent, which may rise as own
    /// zombies), for `chesslab values` (`features_count_zombies_and_graveyard`).
    fn features(&self) -> Vec<(String, f64)> {
        let mut f = crate::game::material_features(&self.board);
        let zombies = Color::BOTH.map(|c| (self.board.by_color(c) & self.s.zombies).count() as f64);
        // Grid c holds the pieces c buried: the other side's.
        let buried = Color::BOTH.map(|c| self.s.grids[c.other().index()].len() as f64);
        f.push(("zombies".to_string(), zombies[0] - zombies[1]));
        f.push(("graveyard".to_string(), buried[0] - buried[1]));
        f
    }

    /// Per seat: burials, zombies raised (risen pieces of that seat), zombie moves,
    /// zombie captures, zombies destroyed unmoved, "cannot bury" announcements.
    fn tallies(&self) -> Vec<(String, f64)> {
        let mut out = Vec::new();
        for c in Color::BOTH {
            for (i, name) in TALLY_NAMES.iter().enumerate() {
                out.push((
                    format!("{}_{name}", c.name()),
                    self.s.tallies[c.index()][i] as f64,
                ));
            }
        }
        out
    }
}

impl Zombie {
    pub(super) fn phase_bits(&self) -> u64 {
        self.s.regular_done as u64
            | ((self.s.phase == Phase::Bury) as u64) << 1
            | ((self.s.phase == Phase::Promote) as u64) << 2
            | self.s.promoting.0.rotate_left(3)
    }

    /// The publicly visible part of the position (no grids).
    fn position_public_key(&self) -> u64 {
        let mut k = mix(self.board.key(), self.s.zombies.0);
        k = mix(k, self.s.castling.0);
        k = mix(k, self.s.moved.0);
        k = mix(k, self.s.vacated.0);
        mix(k, self.phase_bits())
    }
}
