//! `Bitboard`: a set of squares as one 64-bit word. The only place besides `attacks`
//! where bit tricks live.

use crate::square::{Color, Square};
use std::fmt;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

/// A set of squares; bit `i` is square `i` (a1 = 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    pub const RANK_1: Bitboard = Bitboard(0xff);
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    #[inline(always)]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(Self::FILE_A.0 << file)
    }

    #[inline(always)]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xff << (8 * rank))
    }

    /// The rank `rank` counted from `color`'s side (0 = its back rank).
    #[inline(always)]
    pub const fn relative_rank(color: Color, rank: u8) -> Bitboard {
        match color {
            Color::White => Self::rank(rank),
            Color::Black => Self::rank(7 - rank),
        }
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when more than one square is set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The lowest square; the set must not be empty.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square::new(self.0.trailing_zeros() as u8)
    }

    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq.index();
    }

    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// Every square shifted one rank towards the opponent of `color`.
    /// The `k`-th square of the set in ascending order (`k < set.count()`), without a branch:
    /// byte-wise popcounts summed into running totals find the byte holding it, and a table
    /// gives the bit within that byte (a loop clearing `k` bits mispredicts its exit).
    #[inline]
    pub fn nth(self, k: u32) -> Square {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let x = self.0;
        let mut c = x - ((x >> 1) & 0x5555_5555_5555_5555);
        c = (c & 0x3333_3333_3333_3333) + ((c >> 2) & 0x3333_3333_3333_3333);
        c = (c + (c >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
        // Byte b: squares set in bytes 0..=b (at most 64, so no byte overflows).
        let running = c.wrapping_mul(ONES);
        // High bit of byte b set where running > k (running and k + 1 are below 128).
        let above = ((running | HIGH) - (k as u64 + 1) * ONES) & HIGH;
        let byte = above.trailing_zeros() / 8;
        let before = ((running << 8) >> (8 * byte)) & 0xff;
        let within = (x >> (8 * byte)) & 0xff;
        let bit = SELECT_IN_BYTE[within as usize * 8 + (k as u64 - before) as usize];
        Square::new((8 * byte) as u8 + bit)
    }

    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }
}

/// `SELECT_IN_BYTE[b * 8 + j]`: the position of the `j`-th set bit of byte `b`.
static SELECT_IN_BYTE: [u8; 256 * 8] = {
    let mut t = [0u8; 256 * 8];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b * 8 + j] = bit as u8;
                j += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::new(self.0.trailing_zeros() as u8);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut bb = Bitboard::EMPTY;
        for sq in iter {
            bb.set(sq);
        }
        bb
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $op:tt, $atr:ident, $af:ident) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bitop!(BitOr, bitor, |, BitOrAssign, bitor_assign);
bitop!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl SubAssign for Bitboard {
    /// Removes the squares of `rhs`.
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Bitboard) {
        self.0 &= !rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = if self.contains(Square::from_coords(file, rank)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn iteration_yields_squares_in_order() {
        let bb = Bitboard(0b1010_0001);
        let v: Vec<usize> = bb.map(|s| s.index()).collect();
        assert_eq!(v, vec![0, 5, 7]);
    }

    #[test]
    fn forward_shifts_by_colour() {
        let e2 = Bitboard::from_square(Square::parse("e2").unwrap());
        assert_eq!(
            e2.forward(Color::White),
            Bitboard::from_square(Square::parse("e3").unwrap())
        );
        assert_eq!(
            e2.forward(Color::Black),
            Bitboard::from_square(Square::parse("e1").unwrap())
        );
    }

    /// The branch-free `nth` against clearing `k` low bits, on seeded random sets of
    /// every density, every index, and the edge sets (one square, all squares).
    #[test]
    fn nth_matches_the_bit_clearing_loop() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(13);
        let mut sets = vec![Bitboard::FULL, Bitboard(1), Bitboard(1 << 63)];
        for _ in 0..3000 {
            let mut x = rng.gen::<u64>();
            for _ in 0..rng.gen_range(0..4) {
                x &= rng.gen::<u64>();
            }
            sets.push(Bitboard(x));
        }
        for set in sets {
            let mut bits = set.0;
            for k in 0..set.count() {
                assert_eq!(
                    set.nth(k),
                    Square::new(bits.trailing_zeros() as u8),
                    "set {:#x}, k {k}",
                    set.0
                );
                bits &= bits - 1;
            }
        }
    }
}
