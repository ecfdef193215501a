//! The Tar Pit deck: piece cards and checker cards as 14 kinds (7 per colour), hands and
//! piles as counts per kind (cards of one kind are interchangeable in play, so a pile is
//! a multiset and drawing from a shuffled pile is drawing uniformly from the multiset).
//!
//! RULES.md, Appendix A: red cards are white pieces, black cards black pieces; pawn =
//! 2..5 (8 per colour), knight 8, bishop 9, rook 10 (2 each), queen and king (1 each);
//! the two sixes of each colour are the checker cards. The seed's counts are
//! [`DeckParams::SEED`]; a parameter file may override any of them.

use crate::game::InvalidParams;
use crate::square::{Color, Piece, Role};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Number of card kinds: for each colour the six piece roles and the checker card.
pub const KINDS: usize = 14;

/// Cards per kind (a hand, the draw pile, the discard pile, the whole deck).
pub type Counts = [u8; KINDS];

/// One kind of card: colour (red = white) and a piece role or the checker card.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    pub const fn piece(color: Color, role: Role) -> Card {
        Card(color.index() as u8 * 7 + role as u8)
    }

    pub const fn checker(color: Color) -> Card {
        Card(color.index() as u8 * 7 + 6)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub fn from_index(i: usize) -> Option<Card> {
        (i < KINDS).then_some(Card(i as u8))
    }

    pub fn all() -> impl Iterator<Item = Card> {
        (0..KINDS as u8).map(Card)
    }

    /// The card's colour (red cards are white).
    pub const fn color(self) -> Color {
        if self.0 < 7 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The piece role a piece card stands for; `None` for a checker card.
    pub fn role(self) -> Option<Role> {
        let r = self.0 % 7;
        (r < 6).then(|| Role::from_index(r as usize))
    }

    pub fn is_checker(self) -> bool {
        self.0 % 7 == 6
    }

    /// The card's letter: the FEN letter of its piece, `C`/`c` for checker cards (upper
    /// case red).
    pub fn letter(self) -> char {
        match self.role() {
            Some(r) => Piece::new(self.color(), r).char(),
            None if self.color() == Color::White => 'C',
            None => 'c',
        }
    }

    pub fn from_letter(c: char) -> Option<Card> {
        match c {
            'C' => Some(Card::checker(Color::White)),
            'c' => Some(Card::checker(Color::Black)),
            _ => Piece::from_char(c).map(|p| Card::piece(p.color, p.role)),
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Cards per colour in the deck (the same for both colours).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct DeckParams {
    pub pawns: u8,
    pub knights: u8,
    pub bishops: u8,
    pub rooks: u8,
    pub queens: u8,
    pub kings: u8,
    /// Checker cards (the sixes); the seed suggests fewer for a more predictable game.
    pub checkers: u8,
}

impl DeckParams {
    /// The seed's deck: 16 piece cards and 2 checker cards per colour, 36 in all.
    pub const SEED: DeckParams = DeckParams {
        pawns: 8,
        knights: 2,
        bishops: 2,
        rooks: 2,
        queens: 1,
        kings: 1,
        checkers: 2,
    };

    fn per_kind(&self) -> [u8; 7] {
        [
            self.pawns,
            self.knights,
            self.bishops,
            self.rooks,
            self.queens,
            self.kings,
            self.checkers,
        ]
    }

    /// The whole deck as counts per kind.
    pub fn counts(&self) -> Counts {
        let mut c = [0; KINDS];
        for (i, n) in self.per_kind().into_iter().enumerate() {
            c[i] = n;
            c[7 + i] = n;
        }
        c
    }

    pub fn total(&self) -> u32 {
        2 * self.per_kind().iter().map(|&n| n as u32).sum::<u32>()
    }

    pub fn validate(&self) -> Result<(), InvalidParams> {
        let names = [
            "pawns", "knights", "bishops", "rooks", "queens", "kings", "checkers",
        ];
        for (n, name) in self.per_kind().into_iter().zip(names) {
            if n > 16 {
                return Err(InvalidParams::new(
                    format!("deck.{name}"),
                    format!("{n} cards per colour: at most 16"),
                ));
            }
        }
        Ok(())
    }
}

impl Default for DeckParams {
    fn default() -> Self {
        DeckParams::SEED
    }
}

/// Number of cards in `c`.
pub fn total(c: &Counts) -> u32 {
    c.iter().map(|&n| n as u32).sum()
}

/// `c` as letters, kind by kind (`PPNc`), `-` when empty.
pub fn describe(c: &Counts) -> String {
    let s: String = Card::all()
        .flat_map(|k| std::iter::repeat_n(k.letter(), c[k.index()] as usize))
        .collect();
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}
