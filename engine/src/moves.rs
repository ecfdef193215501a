//! `Move`: a compact 16-bit move, and `MoveList`, a fixed-capacity list that lives on
//! the stack so move generation never allocates.

use crate::square::{Role, Square};
use std::fmt;
use std::mem::MaybeUninit;

/// What kind of move a `Move` is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    Normal,
    EnPassant,
    /// Castling, encoded as "king takes own rook": `to` is the rook's square. This one
    /// encoding serves orthodox chess and Chess960 alike.
    Castle,
    Promotion(Role),
}

/// A move: from-square, to-square and kind in 16 bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_EP: u16 = 1;
const KIND_CASTLE: u16 = 2;
const KIND_PROMO: u16 = 4; // 4 + (role - Knight)

impl Move {
    /// A placeholder that is never legal (a1a1).
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let k = match kind {
            MoveKind::Normal => KIND_NORMAL,
            MoveKind::EnPassant => KIND_EP,
            MoveKind::Castle => KIND_CASTLE,
            MoveKind::Promotion(r) => KIND_PROMO + r as u16 - 1,
        };
        Move(from.index() as u16 | (to.index() as u16) << 6 | k << 12)
    }

    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_NORMAL => MoveKind::Normal,
            KIND_EP => MoveKind::EnPassant,
            KIND_CASTLE => MoveKind::Castle,
            k => MoveKind::Promotion(Role::from_index((k - KIND_PROMO + 1) as usize)),
        }
    }

    #[inline(always)]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == KIND_CASTLE
    }

    /// The raw 16-bit code (stable; usable as a table index).
    #[inline(always)]
    pub const fn code(self) -> u16 {
        self.0
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        match self.kind() {
            MoveKind::Normal => Ok(()),
            MoveKind::EnPassant => write!(f, "(ep)"),
            MoveKind::Castle => write!(f, "(castle)"),
            MoveKind::Promotion(r) => write!(f, "{}", r.char()),
        }
    }
}

/// Most legal moves in any reachable chess position is 218; 256 leaves room for
/// variants and for odd test positions (the suite's queen-heavy edge case has 270,
/// which is why the capacity is larger still).
pub const MAX_MOVES: usize = 320;

/// A stack-allocated list of moves. The storage is left uninitialised (only the first
/// `len` entries are ever read), so creating a list costs nothing.
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        debug_assert!(self.len <= MAX_MOVES);
        // SAFETY: entries below `len` were all written by `push` (`len` only grows
        // through `push`, which writes first, and only shrinks otherwise), and
        // `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        debug_assert!(self.len <= MAX_MOVES);
        // SAFETY: as in `as_slice`; the borrow is unique.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Removes entry `i` (which must be below `len()`), moving the last one into its place.
    pub fn swap_remove(&mut self, i: usize) -> Move {
        let slice = self.as_mut_slice();
        let m = slice[i];
        let last = slice.len() - 1;
        slice[i] = slice[last];
        self.len -= 1;
        m
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_encoding_round_trips() {
        let e7 = Square::parse("e7").unwrap();
        let e8 = Square::parse("e8").unwrap();
        for kind in [
            MoveKind::Normal,
            MoveKind::EnPassant,
            MoveKind::Castle,
            MoveKind::Promotion(Role::Knight),
            MoveKind::Promotion(Role::Bishop),
            MoveKind::Promotion(Role::Rook),
            MoveKind::Promotion(Role::Queen),
        ] {
            let m = Move::new(e7, e8, kind);
            assert_eq!((m.from(), m.to(), m.kind()), (e7, e8, kind));
        }
    }
}
