//! The cards of Cooperative Chess: card kinds (colour and piece type), counts of kinds
//! (hands, the draw pile), and the deck's make-up as parameters.
//!
//! Appendix A of the chess-kit seed as RULES.md reads it: black cards (spades, clubs)
//! stand for black pieces, red cards (hearts, diamonds) for white pieces; the 32-card deck
//! holds one card per piece of the starting position (8 pawns, 2 knights, 2 bishops,
//! 2 rooks, 1 queen, 1 king per colour). Cards of the same colour and type are
//! interchangeable in play, so the game keeps counts per kind and draws a kind with
//! probability proportional to its count.

use crate::game::InvalidParams;
use crate::square::{Color, Role};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The number of card kinds (two colours times six piece types).
pub const KINDS: usize = 12;

/// How many cards of each kind a hand, pile or deck holds (index [`Card::index`]).
pub type Counts = [u8; KINDS];

/// A card kind: the colour of the suit (red = `Color::White`) and the piece type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Card {
    pub color: Color,
    pub role: Role,
}

impl Card {
    pub const fn new(color: Color, role: Role) -> Card {
        Card { color, role }
    }

    /// 0..5 red pawn..king, 6..11 black pawn..king.
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.role.index()
    }

    pub const fn from_index(i: usize) -> Card {
        Card::new(Color::from_index(i / 6), Role::from_index(i % 6))
    }

    /// The notation letter: upper case red (`B`), lower case black (`b`), as FEN writes
    /// white and black pieces.
    pub fn letter(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Reads one letter (`P N B R Q K` red, `p n b r q k` black).
    pub fn parse(text: &str) -> Option<Card> {
        let mut chars = text.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Card::new(color, role))
    }

    /// `red bishop`, `black knight`.
    pub fn describe(self) -> String {
        let colour = match self.color {
            Color::White => "red",
            Color::Black => "black",
        };
        let role = match self.role {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        };
        format!("{colour} {role}")
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Total number of cards in `counts`.
pub fn total(counts: &Counts) -> u32 {
    counts.iter().map(|&c| c as u32).sum()
}

/// The cards of `counts` as letters in kind order (`PPNbk`), `-` when empty.
pub fn letters(counts: &Counts) -> String {
    let mut s = String::new();
    for (i, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            s.push(Card::from_index(i).letter());
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// Reads cards written as letters (`PPNbk`; `-` or empty for none) into counts.
pub fn parse_letters(text: &str) -> Result<Counts, String> {
    let mut counts = [0u8; KINDS];
    for c in text.trim().chars().filter(|&c| c != '-') {
        let card = Card::parse(&c.to_string())
            .ok_or_else(|| format!("'{c}' is not a card (P N B R Q K red, p n b r q k black)"))?;
        counts[card.index()] = counts[card.index()].saturating_add(1);
    }
    Ok(counts)
}

/// Counts packed five bits a kind (every count is at most [`MAX_PER_KIND`]), for keys.
pub fn pack(counts: &Counts) -> u64 {
    counts
        .iter()
        .enumerate()
        .fold(0u64, |k, (i, &n)| k | (n as u64 & 31) << (5 * i))
}

/// The most cards of one kind a deck may hold (counts are packed in five bits).
pub const MAX_PER_KIND: u8 = 16;

/// How many cards of each piece type one colour of the deck holds.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct TypeCounts {
    pub pawn: u8,
    pub knight: u8,
    pub bishop: u8,
    pub rook: u8,
    pub queen: u8,
    pub king: u8,
}

impl TypeCounts {
    /// One card per piece of a side in the starting position (the seed's deck).
    pub const STARTING_ARMY: TypeCounts = TypeCounts {
        pawn: 8,
        knight: 2,
        bishop: 2,
        rook: 2,
        queen: 1,
        king: 1,
    };

    /// Counts in role order (pawn..king).
    pub const fn by_role(&self) -> [u8; 6] {
        [
            self.pawn,
            self.knight,
            self.bishop,
            self.rook,
            self.queen,
            self.king,
        ]
    }
}

/// The deck's make-up: red cards (white pieces) and black cards (black pieces).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct DeckParams {
    pub red: TypeCounts,
    pub black: TypeCounts,
}

impl DeckParams {
    /// The seed's 32 cards: one per piece of the starting position.
    pub const SEED: DeckParams = DeckParams {
        red: TypeCounts::STARTING_ARMY,
        black: TypeCounts::STARTING_ARMY,
    };

    /// The deck as counts per kind.
    pub fn counts(&self) -> Counts {
        let mut c = [0u8; KINDS];
        c[..6].copy_from_slice(&self.red.by_role());
        c[6..].copy_from_slice(&self.black.by_role());
        c
    }

    /// Every count at most [`MAX_PER_KIND`].
    pub fn validate(&self) -> Result<(), InvalidParams> {
        for (colour, t) in [("red", self.red), ("black", self.black)] {
            for (role, n) in Role::ALL.iter().zip(t.by_role()) {
                if n > MAX_PER_KIND {
                    let name = Card::new(Color::White, *role).describe();
                    let field = name.split(' ').nth(1).unwrap_or("card").to_string();
                    return Err(InvalidParams::new(
                        format!("deck.{colour}.{field}"),
                        format!("{n} cards of one kind: at most {MAX_PER_KIND}"),
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Default for TypeCounts {
    fn default() -> Self {
        TypeCounts::STARTING_ARMY
    }
}

impl Default for DeckParams {
    fn default() -> Self {
        DeckParams::SEED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_the_seed_deck_has_thirty_two_cards_one_per_starting_piece() {
        let c = DeckParams::SEED.counts();
        assert_eq!(total(&c), 32);
        // The starting position has exactly as many pieces of each colour and type.
        let b = crate::Board::startpos();
        for (i, &n) in c.iter().enumerate() {
            let card = Card::from_index(i);
            assert_eq!(b.pieces(card.color, card.role).count(), n as u32, "{card}");
        }
    }

    #[test]
    fn letters_round_trip_and_colours_follow_fen_case() {
        for i in 0..KINDS {
            let card = Card::from_index(i);
            assert_eq!(Card::parse(&card.to_string()), Some(card));
            assert_eq!(card.index(), i);
        }
        assert_eq!(
            Card::parse("B"),
            Some(Card::new(Color::White, Role::Bishop))
        );
        assert_eq!(
            Card::parse("b"),
            Some(Card::new(Color::Black, Role::Bishop))
        );
        assert_eq!(Card::parse("x"), None);
        assert_eq!(Card::parse("bb"), None);
        let c = parse_letters("NbK").unwrap();
        assert_eq!(letters(&c), "NKb");
        assert!(parse_letters("Nz").is_err());
        assert_eq!(letters(&[0; KINDS]), "-");
    }
}
