//! Squares, files, ranks, colours and piece kinds: the vocabulary every other module uses.
//!
//! Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file mapping),
//! which is what the attack tables and FEN code assume.

use std::fmt;

/// One of the 64 squares, a1 = 0 .. h8 = 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const E8: Square = Square(60);
    pub const H8: Square = Square(63);

    /// The square with index `i`; `i` must be below 64.
    #[inline(always)]
    pub const fn new(i: u8) -> Square {
        debug_assert!(i < 64);
        Square(i)
    }

    /// The square with index `i`, or `None` when `i >= 64`.
    #[inline(always)]
    pub const fn try_new(i: u8) -> Option<Square> {
        if i < 64 {
            Some(Square(i))
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The same square seen from the other side of the board (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square relative to `color`: unchanged for white, rank-mirrored for black.
    #[inline(always)]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_rank(),
        }
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square::from_coords(f as u8, r as u8))
        } else {
            None
        }
    }

    /// King-step (Chebyshev) distance.
    pub fn distance(self, other: Square) -> u8 {
        let df = (self.file() as i8 - other.file() as i8).unsigned_abs();
        let dr = (self.rank() as i8 - other.rank() as i8).unsigned_abs();
        df.max(dr)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Parses a square name such as `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'1');
        (f < 8 && r < 8).then(|| Square::from_coords(f, r))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// A side: white or black.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    pub const fn from_index(i: usize) -> Color {
        if i == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.other()
    }
}

/// A kind of piece, without colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Knight, Role::Rook, Role::Bishop];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }

    /// Lower-case letter (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// Role from a letter of either case.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            _ => return None,
        })
    }
}

/// A coloured piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: upper case for white.
    pub fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// Dense index 0..12 (colour-major), used by Zobrist tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.role.index()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("e4"), Some(Square::from_coords(4, 3)));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }

    #[test]
    fn piece_letters_round_trip() {
        for c in "PNBRQKpnbrqk".chars() {
            assert_eq!(Piece::from_char(c).unwrap().char(), c);
        }
        assert!(Piece::from_char('x').is_none());
    }
}
