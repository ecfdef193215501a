//! A Golf move ([`GolfMove`]), its errors and the move targets of a position
//! ([`MoveTargets`]: a source square and the squares it may go to).

use super::*;

/// A Golf move: the piece on `from` goes to `to` (capturing whatever is there).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct GolfMove {
    pub from: Square,
    pub to: Square,
}

impl GolfMove {
    pub const fn new(from: Square, to: Square) -> GolfMove {
        GolfMove { from, to }
    }

    /// Parses UCI-style `e2e4`.
    pub fn parse(s: &str) -> Option<GolfMove> {
        let s = s.trim();
        if s.len() != 4 || !s.is_ascii() {
            return None;
        }
        Some(GolfMove {
            from: Square::parse(&s[..2])?,
            to: Square::parse(&s[2..])?,
        })
    }
}

impl fmt::Display for GolfMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Errors of [`GolfPosition::play`] and [`GolfPosition::try_apply`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GolfMoveError {
    #[error("move {0}: no piece on the from square")]
    EmptyFrom(GolfMove),
    #[error("move {0}: from and to are the same square")]
    NullMove(GolfMove),
    #[error("move {0} is not legal in this position")]
    Illegal(GolfMove),
}

/// Errors of the set-up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GolfSetupError {
    #[error("the set-up runs off the board at card {card} ({piece}): the gaps are too large")]
    OffBoard { card: usize, piece: char },
    #[error("card {card} is a pawn; the set-up uses only non-pawn pieces")]
    Pawn { card: usize },
    #[error("the deck has {0} cards; at most {MAX_PIECES} pieces fit a Golf board")]
    TooMany(usize),
}

/// Per-piece move targets: for each piece that can move, its square and the bitboard of
/// its destinations (duplicates between borrowed kinds removed).
#[derive(Clone, Copy, Debug)]
pub struct MoveTargets {
    pub(super) from: [Square; MAX_PIECES],
    pub(super) to: [Bitboard; MAX_PIECES],
    pub(super) len: usize,
}

impl MoveTargets {
    pub(super) fn new() -> Self {
        MoveTargets {
            from: [Square::A1; MAX_PIECES],
            to: [Bitboard::EMPTY; MAX_PIECES],
            len: 0,
        }
    }

    #[inline(always)]
    pub(super) fn push(&mut self, from: Square, to: Bitboard) {
        if to.any() {
            self.from[self.len] = from;
            self.to[self.len] = to;
            self.len += 1;
        }
    }

    /// `(from, destinations)` for every piece with at least one move.
    pub fn entries(&self) -> impl Iterator<Item = (Square, Bitboard)> + '_ {
        (0..self.len).map(move |i| (self.from[i], self.to[i]))
    }

    /// Number of moves.
    pub fn count(&self) -> usize {
        self.to[..self.len].iter().map(|b| b.count() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every move, in (from, to) square order of generation.
    pub fn moves(&self) -> impl Iterator<Item = GolfMove> + '_ {
        self.entries()
            .flat_map(|(from, to)| to.map(move |t| GolfMove::new(from, t)))
    }
}
