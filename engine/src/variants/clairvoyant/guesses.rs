//! Guesses: their kinds, notation (`guess:e2`, `guess:e2e4`, `guess:buy:N`,
//! `guess:buy:N@e4`, `guess:extra`; the mover's `guess:retract` is an action of its own)
//! and their scoring after the turn (RULES.md "Clairvoyant Chess": every guess is scored
//! on its own, duplicates too; a piece guess scores if the piece named by its square at
//! the start of the turn made any non-retracted move; a destination guess if one of its
//! non-retracted moves ends there; castling is a king move whose destination earns only
//! the plain king value; values are those of the piece's type at the start of the turn).

use super::tables::GuessValues;
use super::TurnMove;
use crate::square::{Role, Square};

/// One line of a guess sheet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Guess {
    /// The piece on this square moves.
    Piece(Square),
    /// The piece on the first square moves to the second.
    Destination(Square, Square),
    /// A piece of this type is bought and dropped.
    Buy(Role),
    /// A piece of this type is dropped on this square.
    BuySquare(Role, Square),
    /// An extra move is bought.
    Extra,
}

/// The kinds of score, for tallies.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ScoreKind {
    Piece,
    Destination,
    Buy,
    BuySquare,
    Extra,
    Retraction,
    Flat,
}

impl ScoreKind {
    pub const ALL: [ScoreKind; 7] = [
        ScoreKind::Piece,
        ScoreKind::Destination,
        ScoreKind::Buy,
        ScoreKind::BuySquare,
        ScoreKind::Extra,
        ScoreKind::Retraction,
        ScoreKind::Flat,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ScoreKind::Piece => "piece",
            ScoreKind::Destination => "destination",
            ScoreKind::Buy => "buy",
            ScoreKind::BuySquare => "buy_square",
            ScoreKind::Extra => "extra",
            ScoreKind::Retraction => "retraction",
            ScoreKind::Flat => "flat",
        }
    }
}

impl Guess {
    pub fn kind(self) -> ScoreKind {
        match self {
            Guess::Piece(_) => ScoreKind::Piece,
            Guess::Destination(..) => ScoreKind::Destination,
            Guess::Buy(_) => ScoreKind::Buy,
            Guess::BuySquare(..) => ScoreKind::BuySquare,
            Guess::Extra => ScoreKind::Extra,
        }
    }

    /// The notation after `guess:`.
    pub fn notation(self) -> String {
        match self {
            Guess::Piece(s) => s.to_string(),
            Guess::Destination(a, b) => format!("{a}{b}"),
            Guess::Buy(r) => format!("buy:{}", r.char().to_ascii_uppercase()),
            Guess::BuySquare(r, s) => format!("buy:{}@{s}", r.char().to_ascii_uppercase()),
            Guess::Extra => "extra".into(),
        }
    }

    /// Reads the text after `guess:` (not `retract`, which is the mover's own action).
    pub fn parse(text: &str) -> Option<Guess> {
        if text == "extra" {
            return Some(Guess::Extra);
        }
        if let Some(rest) = text.strip_prefix("buy:") {
            let mut chars = rest.chars();
            let role = Role::from_char(chars.next()?.to_ascii_lowercase())?;
            let tail = chars.as_str();
            if tail.is_empty() {
                return Some(Guess::Buy(role));
            }
            let sq = Square::parse(tail.strip_prefix('@')?)?;
            return Some(Guess::BuySquare(role, sq));
        }
        match text.len() {
            2 => Square::parse(text).map(Guess::Piece),
            4 => Some(Guess::Destination(
                Square::parse(&text[..2])?,
                Square::parse(&text[2..])?,
            )),
            _ => None,
        }
    }

    /// What this guess earns for a turn with these (non-retracted) moves, drops and
    /// bought moves.
    pub fn score(
        self,
        values: &GuessValues,
        moves: &[TurnMove],
        drops: &[(Role, Square)],
        bought: bool,
    ) -> u32 {
        let live = || moves.iter().filter(|m| !m.retracted);
        match self {
            Guess::Piece(sq) => live()
                .find(|m| m.origin == sq)
                .map_or(0, |m| values.moves.get(m.role)),
            Guess::Destination(sq, to) => {
                let hit = live().find(|m| m.origin == sq && m.to == to);
                match hit {
                    // The seed's footnote: castling is a king move, but its destination
                    // earns nothing extra.
                    Some(m) if m.castle => values.moves.get(Role::King),
                    Some(m) => values.move_destination.get(m.role),
                    None => 0,
                }
            }
            Guess::Buy(r) => {
                if drops.iter().any(|&(dr, _)| dr == r) {
                    values.buy.get(r)
                } else {
                    0
                }
            }
            Guess::BuySquare(r, s) => {
                if drops.contains(&(r, s)) {
                    values.buy_square.get(r)
                } else {
                    0
                }
            }
            Guess::Extra => {
                if bought {
                    values.extra_move
                } else {
                    0
                }
            }
        }
    }
}
