//! The seed's notation for Expedition moves: `Qe4(e5,e8)` = attempted e8, the dice
//! allowed e5, the mover chose e4; SAN-style prefixes disambiguate as in orthodox SAN.

use super::*;

impl Expedition {
    /// The piece letter and SAN disambiguation of a move (empty for pawns and castling).
    fn san_prefix(&self, mv: Move, legal: &[ExpeditionAction]) -> String {
        let b = &self.board;
        let Some(piece) = b.piece_at(mv.from()) else {
            return String::new();
        };
        if piece.role == Role::Pawn || mv.is_castle() {
            return String::new();
        }
        let mut s = piece.role.char().to_ascii_uppercase().to_string();
        let others: Vec<Move> = legal
            .iter()
            .filter_map(|a| match *a {
                ExpeditionAction::Move(m) | ExpeditionAction::Attempt(m) => Some(m),
                _ => None,
            })
            .filter(|m| {
                *m != mv
                    && !m.is_castle()
                    && m.to() == mv.to()
                    && b.piece_at(m.from()).map(|p| p.role) == Some(piece.role)
            })
            .collect();
        if !others.is_empty() {
            if !others.iter().any(|m| m.from().file() == mv.from().file()) {
                s.push((b'a' + mv.from().file()) as char);
            } else if !others.iter().any(|m| m.from().rank() == mv.from().rank()) {
                s.push((b'1' + mv.from().rank()) as char);
            } else {
                s.push_str(&mv.from().to_string());
            }
        }
        s
    }

    /// SAN of a certain move or a fully successful attempt, without check marks (the
    /// orthodox `+` means little when checks may be ignored).
    fn san(&self, mv: Move, legal: &[ExpeditionAction]) -> String {
        if mv.is_castle() {
            return if mv.to().file() > mv.from().file() {
                "O-O".into()
            } else {
                "O-O-O".into()
            };
        }
        let b = &self.board;
        let mut s = self.san_prefix(mv, legal);
        if b.captured_piece(mv).is_some() {
            if s.is_empty() {
                s.push((b'a' + mv.from().file()) as char);
            }
            s.push('x');
        }
        s.push_str(&mv.to().to_string());
        if let Some(r) = mv.promotion() {
            s.push('=');
            s.push(r.char().to_ascii_uppercase());
        }
        s
    }

    /// The seed's notation of an attempt cut short: `Qe4(e5,e8)`.
    fn shortened(&self, attempt: Move, max: u8, d: u8, legal: &[ExpeditionAction]) -> String {
        format!(
            "{}{}({},{})",
            self.san_prefix(attempt, legal),
            along(attempt, d),
            along(attempt, max),
            attempt.to()
        )
    }

    /// Every seed-notation move of this turn's start with the actions it stands for.
    fn seed_candidates(&self) -> Vec<(String, Vec<ExpeditionAction>)> {
        let legal = self.actions_vec();
        let mut out = Vec::new();
        for &a in &legal {
            match a {
                ExpeditionAction::Move(m) => out.push((self.san(m, &legal), vec![a])),
                ExpeditionAction::Attempt(m) => {
                    let n = length(m);
                    for (max, _) in self.roll_odds(n) {
                        let roll = ExpeditionAction::Roll(max);
                        if max >= n {
                            out.push((self.san(m, &legal), vec![a, roll]));
                        } else if max == 1 {
                            out.push((self.shortened(m, 1, 1, &legal), vec![a, roll]));
                        } else {
                            let offered = self.offered_distances(m, max);
                            for d in (1..=max).filter(|d| offered & 1 << d != 0) {
                                out.push((
                                    self.shortened(m, max, d, &legal),
                                    vec![a, roll, ExpeditionAction::Distance(d)],
                                ));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Reads one move in the seed's notation (`Nf3`, `O-O`, `Qe8` for a full success,
    /// `Qe4(e5,e8)` for an attempt on e8 cut to e5 that stopped on e4) as the actions
    /// it stands for, from this state (a turn's start).
    pub fn parse_seed_move(&self, text: &str) -> Result<Vec<ExpeditionAction>, GameError> {
        let err = |m: &str| GameError::Action {
            action: text.into(),
            message: m.into(),
        };
        if self.phase != Phase::Start || self.result().is_some() {
            return Err(err("a seed-notation move starts a turn of a running game"));
        }
        let cleaned: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .trim_end_matches(['+', '#', '!', '?'])
            .replace('0', "O");
        self.seed_candidates()
            .into_iter()
            .find(|(s, _)| *s == cleaned)
            .map(|(_, actions)| actions)
            .ok_or_else(|| {
                err("no legal move or possible expedition outcome is written this way here")
            })
    }

    /// The game so far in the seed's notation, one entry per completed move.
    pub fn seed_moves(&self) -> Vec<String> {
        let actions: Vec<ExpeditionAction> = self.history.iter().map(|r| r.action).collect();
        let mut g = self.clone();
        while !g.history.is_empty() {
            g.undo();
        }
        let mut out = Vec::new();
        let mut i = 0;
        while i < actions.len() {
            let legal = g.actions_vec();
            match actions[i] {
                ExpeditionAction::Move(m) => {
                    out.push(g.san(m, &legal));
                    g.apply(actions[i]);
                    i += 1;
                }
                ExpeditionAction::Attempt(m) => {
                    let n = length(m);
                    let full = g.san(m, &legal);
                    let Some(&ExpeditionAction::Roll(max)) = actions.get(i + 1) else {
                        break;
                    };
                    let text = if max >= n {
                        full
                    } else if max == 1 {
                        g.shortened(m, 1, 1, &legal)
                    } else {
                        let Some(&ExpeditionAction::Distance(d)) = actions.get(i + 2) else {
                            break;
                        };
                        g.shortened(m, max, d, &legal)
                    };
                    let used = if max >= n || max == 1 { 2 } else { 3 };
                    for &a in &actions[i..i + used] {
                        g.apply(a);
                    }
                    out.push(text);
                    i += used;
                }
                _ => break,
            }
        }
        out
    }

    /// The game so far as numbered movetext in the seed's notation
    /// (`1. e4 e5 2. Qe4(e5,e8) ...`).
    pub fn seed_movetext(&self) -> String {
        let mut g = self.clone();
        while !g.history.is_empty() {
            g.undo();
        }
        let mut number = g.board.fullmoves();
        let mut white = g.board.turn() == Color::White;
        let mut parts = Vec::new();
        for (i, m) in self.seed_moves().into_iter().enumerate() {
            if white {
                parts.push(format!("{number}. {m}"));
            } else if i == 0 {
                parts.push(format!("{number}... {m}"));
            } else {
                parts.push(m);
            }
            if !white {
                number += 1;
            }
            white = !white;
        }
        parts.join(" ")
    }
}
