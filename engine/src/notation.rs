//! Move notation: UCI (long algebraic) and SAN, both ways.
//!
//! UCI castling is written king-to-destination (`e1g1`) in standard mode and
//! king-takes-rook (`e1h1`) in Chess960 mode; both forms are accepted on input when they
//! are unambiguous.

use crate::board::Board;
use crate::moves::{Move, MoveKind};
use crate::square::{Role, Square};
use thiserror::Error;

/// A move string that cannot be played in the position.
#[derive(Debug, Error, PartialEq, Eq, Clone)]
pub enum MoveParseError {
    #[error("move '{0}': not valid notation")]
    Syntax(String),
    #[error("move '{0}': not legal in this position")]
    Illegal(String),
    #[error("move '{0}': ambiguous, more than one legal move matches")]
    Ambiguous(String),
}

impl Board {
    /// UCI notation of `mv` (e.g. `e2e4`, `e7e8q`, `e1g1`).
    pub fn uci(&self, mv: Move) -> String {
        let to = if mv.is_castle() && !self.is_chess960() {
            Board::castle_targets(self.turn(), mv.from(), mv.to()).0
        } else {
            mv.to()
        };
        // Built by hand: records write one of these per ply, and `format!` costs several
        // times the move generation of the position.
        let mut s = String::with_capacity(5);
        for sq in [mv.from(), to] {
            s.push((b'a' + sq.file()) as char);
            s.push((b'1' + sq.rank()) as char);
        }
        if let Some(r) = mv.promotion() {
            s.push(r.char());
        }
        s
    }

    /// Parses a UCI move and checks it is legal here.
    pub fn parse_uci(&self, s: &str) -> Result<Move, MoveParseError> {
        let err = || MoveParseError::Syntax(s.to_string());
        if !(4..=5).contains(&s.len()) || !s.is_ascii() {
            return Err(err());
        }
        let from = Square::parse(&s[0..2]).ok_or_else(err)?;
        let to = Square::parse(&s[2..4]).ok_or_else(err)?;
        let promo = match s.get(4..5) {
            None => None,
            Some(c) => match Role::from_char(c.chars().next().unwrap()) {
                Some(r) if r != Role::Pawn && r != Role::King => Some(r),
                _ => return Err(err()),
            },
        };
        let moves = self.legal_moves();
        let find = |pred: &dyn Fn(&Move) -> bool| moves.iter().copied().find(|m| pred(m));
        find(&|m| !m.is_castle() && m.from() == from && m.to() == to && m.promotion() == promo)
            .or_else(|| find(&|m| m.is_castle() && m.from() == from && m.to() == to))
            .or_else(|| {
                find(&|m| {
                    m.is_castle()
                        && m.from() == from
                        && Board::castle_targets(self.turn(), m.from(), m.to()).0 == to
                })
            })
            .filter(|_| promo.is_none() || moves.iter().any(|m| m.promotion() == promo))
            .ok_or_else(|| MoveParseError::Illegal(s.to_string()))
    }

    /// SAN of `mv` with check (`+`) and mate (`#`) suffixes.
    pub fn san(&self, mv: Move) -> String {
        let mut s = self.san_without_suffix(mv);
        let mut after = self.clone();
        after.make(mv);
        if after.in_check() {
            s.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        s
    }

    fn san_without_suffix(&self, mv: Move) -> String {
        if mv.is_castle() {
            return if mv.to().file() > mv.from().file() {
                "O-O".into()
            } else {
                "O-O-O".into()
            };
        }
        let piece = self
            .piece_at(mv.from())
            .expect("san: no piece on from-square");
        let capture = self.captured_piece(mv).is_some();
        let mut s = String::new();
        if piece.role == Role::Pawn {
            if capture {
                s.push((b'a' + mv.from().file()) as char);
            }
        } else {
            s.push(piece.role.char().to_ascii_uppercase());
            let others: Vec<Move> = self
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| {
                    *m != mv
                        && !m.is_castle()
                        && m.to() == mv.to()
                        && self.piece_at(m.from()).map(|p| p.role) == Some(piece.role)
                })
                .collect();
            if !others.is_empty() {
                let same_file = others.iter().any(|m| m.from().file() == mv.from().file());
                let same_rank = others.iter().any(|m| m.from().rank() == mv.from().rank());
                if !same_file {
                    s.push((b'a' + mv.from().file()) as char);
                } else if !same_rank {
                    s.push((b'1' + mv.from().rank()) as char);
                } else {
                    s.push_str(&mv.from().to_string());
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&mv.to().to_string());
        if let MoveKind::Promotion(r) = mv.kind() {
            s.push('=');
            s.push(r.char().to_ascii_uppercase());
        }
        s
    }

    /// Parses SAN (lenient: accepts `0-0`, missing or extra disambiguation, missing `=`,
    /// trailing `+ # ! ?`).
    pub fn parse_san(&self, s: &str) -> Result<Move, MoveParseError> {
        let syntax = || MoveParseError::Syntax(s.to_string());
        let t = s.trim_end_matches(['+', '#', '!', '?']);
        if !t.is_ascii() || t.is_empty() {
            return Err(syntax());
        }
        let moves = self.legal_moves();
        let pick = |cands: Vec<Move>| match cands.len() {
            0 => Err(MoveParseError::Illegal(s.to_string())),
            1 => Ok(cands[0]),
            _ => Err(MoveParseError::Ambiguous(s.to_string())),
        };
        let castle = match t {
            "O-O" | "0-0" => Some(true),
            "O-O-O" | "0-0-0" => Some(false),
            _ => None,
        };
        if let Some(kingside) = castle {
            return pick(
                moves
                    .iter()
                    .copied()
                    .filter(|m| m.is_castle() && (m.to().file() > m.from().file()) == kingside)
                    .collect(),
            );
        }
        let mut b = t.as_bytes();
        let role = match b[0] {
            b'N' | b'B' | b'R' | b'Q' | b'K' => {
                let r = Role::from_char(b[0] as char).unwrap();
                b = &b[1..];
                r
            }
            _ => Role::Pawn,
        };
        let mut promo = None;
        if let Some(&last) = b.last() {
            if matches!(last, b'N' | b'B' | b'R' | b'Q' | b'n' | b'b' | b'r' | b'q')
                && b.len() >= 3
                && (b[b.len() - 2] == b'=' || b[b.len() - 2].is_ascii_digit())
            {
                promo = Role::from_char(last as char);
                b = &b[..b.len() - 1];
                if b.last() == Some(&b'=') {
                    b = &b[..b.len() - 1];
                }
            }
        }
        if b.len() < 2 {
            return Err(syntax());
        }
        let to =
            Square::parse(std::str::from_utf8(&b[b.len() - 2..]).unwrap()).ok_or_else(syntax)?;
        let mut file_hint = None;
        let mut rank_hint = None;
        for &c in &b[..b.len() - 2] {
            match c {
                b'a'..=b'h' => file_hint = Some(c - b'a'),
                b'1'..=b'8' => rank_hint = Some(c - b'1'),
                b'x' | b':' | b'-' => {}
                _ => return Err(syntax()),
            }
        }
        pick(
            moves
                .iter()
                .copied()
                .filter(|m| {
                    !m.is_castle()
                        && m.to() == to
                        && m.promotion() == promo
                        && self.piece_at(m.from()).map(|p| p.role) == Some(role)
                        && file_hint.is_none_or(|f| m.from().file() == f)
                        && rank_hint.is_none_or(|r| m.from().rank() == r)
                })
                .collect(),
        )
    }

    /// Parses either UCI or SAN.
    pub fn parse_move(&self, s: &str) -> Result<Move, MoveParseError> {
        match self.parse_uci(s) {
            Ok(m) => Ok(m),
            Err(MoveParseError::Syntax(_)) => self.parse_san(s),
            Err(e) => self.parse_san(s).map_err(|_| e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_and_san_round_trip_from_kiwipete() {
        let b =
            Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap();
        for &m in b.legal_moves().iter() {
            assert_eq!(b.parse_uci(&b.uci(m)), Ok(m));
            assert_eq!(b.parse_san(&b.san(m)), Ok(m), "{}", b.san(m));
        }
        assert_eq!(b.uci(b.parse_san("O-O").unwrap()), "e1g1");
    }

    #[test]
    fn san_disambiguation_and_mate() {
        let b = Board::from_fen("3k4/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
        let m = b.parse_uci("a1d1").unwrap();
        assert_eq!(b.san(m), "Rad1+");
        let mate = Board::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        assert_eq!(mate.san(mate.parse_uci("a1a8").unwrap()), "Ra8#");
    }

    #[test]
    fn bad_moves_are_typed_errors() {
        let b = Board::startpos();
        assert!(matches!(
            b.parse_uci("e2e5"),
            Err(MoveParseError::Illegal(_))
        ));
        assert!(matches!(b.parse_uci("zz"), Err(MoveParseError::Syntax(_))));
        assert!(matches!(
            b.parse_san("Qxh7"),
            Err(MoveParseError::Illegal(_))
        ));
        assert!(matches!(
            b.parse_move("hello"),
            Err(MoveParseError::Syntax(_))
        ));
        assert_eq!(b.parse_move("Nf3"), b.parse_uci("g1f3"));
    }
}
