//! The position ([`GolfPosition`]): the Zobrist-style keys, the pieces, chosen, taken
//! and `taking`, its accessors and incremental edits, and its printed forms.

use super::*;

const fn key_table<const N: usize>(seed: u64) -> [u128; N] {
    let mut out = [0u128; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, hi) = splitmix64_next(state);
        let (s2, lo) = splitmix64_next(s);
        state = s2;
        out[i] = ((hi as u128) << 64) | lo as u128;
        i += 1;
    }
    out
}

static KEY_PIECE: [u128; 12 * 64] = key_table(0x601f_c0de_0000_0001);
static KEY_TAKING: [u128; 64] = key_table(0x601f_c0de_0000_0002);
/// Indexed by kind * 17 + count; count 0 has key 0 so empty multisets hash to 0.
static KEY_TAKEN: [u128; 12 * 17] = key_table(0x601f_c0de_0000_0003);
static KEY_CHOSEN: [u128; 12 * 17] = key_table(0x601f_c0de_0000_0004);

#[inline(always)]
fn key_piece(kind: usize, sq: Square) -> u128 {
    KEY_PIECE[kind * 64 + sq.index()]
}

#[inline(always)]
fn key_count(table: &[u128; 12 * 17], kind: usize, count: u8) -> u128 {
    if count == 0 {
        0
    } else {
        table[kind * 17 + (count.min(MAX_KIND_COUNT) as usize)]
    }
}

pub(super) const EMPTY_CELL: u8 = 0xff;

/// A Chess Golf state: the pieces, the chosen and taken multisets and the `taking` square.
///
/// Small and `Copy` (about 150 bytes): the solver copies it rather than undoing moves.
#[derive(Clone, Copy)]
pub struct GolfPosition {
    pub(super) by_color: [Bitboard; 2],
    pub(super) by_role: [Bitboard; 6],
    pub(super) occupied: Bitboard,
    /// Piece index (`Piece::index`) per square, or `EMPTY_CELL`.
    pub(super) board: [u8; 64],
    pub(super) chosen: KindCounts,
    pub(super) taken: KindCounts,
    pub(super) taking: Option<Square>,
    pub(super) key: u128,
}

impl PartialEq for GolfPosition {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.chosen == other.chosen
            && self.taken == other.taken
            && self.taking == other.taking
    }
}
impl Eq for GolfPosition {}

impl std::hash::Hash for GolfPosition {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u128(self.key);
    }
}

impl Default for GolfPosition {
    fn default() -> Self {
        GolfPosition::empty()
    }
}

#[inline(always)]
fn piece_from_index(i: u8) -> Piece {
    Piece::new(
        Color::from_index(i as usize / 6),
        Role::from_index(i as usize % 6),
    )
}

impl GolfPosition {
    /// An empty board, nothing chosen.
    pub fn empty() -> GolfPosition {
        GolfPosition {
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 6],
            occupied: Bitboard::EMPTY,
            board: [EMPTY_CELL; 64],
            chosen: KindCounts::EMPTY,
            taken: KindCounts::EMPTY,
            taking: None,
            key: 0,
        }
    }

    // ----- accessors -----

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.board[sq.index()];
        (c != EMPTY_CELL).then(|| piece_from_index(c))
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    #[inline(always)]
    pub fn color_bb(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    #[inline(always)]
    pub fn role_bb(&self, r: Role) -> Bitboard {
        self.by_role[r.index()]
    }

    /// Squares holding pieces of kind `p`.
    #[inline(always)]
    pub fn kind_bb(&self, p: Piece) -> Bitboard {
        self.by_color[p.color.index()] & self.by_role[p.role.index()]
    }

    #[inline(always)]
    pub(super) fn kind_bb_index(&self, kind: usize) -> Bitboard {
        self.by_color[kind / 6] & self.by_role[kind % 6]
    }

    pub fn chosen(&self) -> KindCounts {
        self.chosen
    }

    pub fn taken(&self) -> KindCounts {
        self.taken
    }

    pub fn taking(&self) -> Option<Square> {
        self.taking
    }

    /// Kinds still owed: per-kind `max(chosen - taken, 0)`.
    pub fn owed(&self) -> KindCounts {
        self.chosen.saturating_sub(&self.taken)
    }

    /// Number of pieces on the board.
    pub fn piece_count(&self) -> u32 {
        self.occupied.count()
    }

    /// All pieces with their squares, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .map(move |sq| (sq, piece_from_index(self.board[sq.index()])))
    }

    /// A 128-bit Zobrist key of the whole state (pieces, chosen, taken, taking). Equal
    /// states have equal keys; the solver treats a key collision (probability about
    /// 2^-128 per pair of states) as impossible.
    #[inline(always)]
    pub fn key(&self) -> u128 {
        self.key
    }

    /// The low 64 bits of [`key`](Self::key).
    #[inline(always)]
    pub fn hash64(&self) -> u64 {
        self.key as u64
    }

    // ----- editing -----

    /// Puts `p` on the empty square `sq`. Returns false (and changes nothing) when the
    /// square is occupied, `p` is a pawn or the board is full.
    pub fn put(&mut self, sq: Square, p: Piece) -> bool {
        if self.occupied.contains(sq)
            || p.role == Role::Pawn
            || self.piece_count() as usize >= MAX_PIECES
        {
            return false;
        }
        self.add_piece(sq, p.index() as u8);
        true
    }

    /// Removes and returns the piece on `sq` (clearing `taking` if it pointed there).
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let c = self.board[sq.index()];
        if c == EMPTY_CELL {
            return None;
        }
        self.remove_piece(sq, c);
        if self.taking == Some(sq) {
            self.set_taking(None);
        }
        Some(piece_from_index(c))
    }

    #[inline(always)]
    pub(super) fn add_piece(&mut self, sq: Square, kind: u8) {
        let bb = Bitboard::from_square(sq);
        self.by_color[kind as usize / 6] |= bb;
        self.by_role[kind as usize % 6] |= bb;
        self.occupied |= bb;
        self.board[sq.index()] = kind;
        self.key ^= key_piece(kind as usize, sq);
    }

    #[inline(always)]
    pub(super) fn remove_piece(&mut self, sq: Square, kind: u8) {
        let bb = !Bitboard::from_square(sq);
        self.by_color[kind as usize / 6] &= bb;
        self.by_role[kind as usize % 6] &= bb;
        self.occupied &= bb;
        self.board[sq.index()] = EMPTY_CELL;
        self.key ^= key_piece(kind as usize, sq);
    }

    pub(super) fn set_taking(&mut self, t: Option<Square>) {
        if let Some(old) = self.taking {
            self.key ^= KEY_TAKING[old.index()];
        }
        if let Some(new) = t {
            self.key ^= KEY_TAKING[new.index()];
        }
        self.taking = t;
    }

    pub(super) fn add_taken(&mut self, kind: usize) {
        let old = self.taken.0[kind];
        let new = old.saturating_add(1);
        self.key ^= key_count(&KEY_TAKEN, kind, old) ^ key_count(&KEY_TAKEN, kind, new);
        self.taken.0[kind] = new;
    }

    /// Replaces the chosen multiset.
    pub fn set_chosen(&mut self, chosen: KindCounts) {
        for k in 0..12 {
            self.key ^= key_count(&KEY_CHOSEN, k, self.chosen.0[k]);
            self.key ^= key_count(&KEY_CHOSEN, k, chosen.0[k]);
        }
        self.chosen = chosen;
    }

    /// Replaces the taken multiset.
    pub fn set_taken(&mut self, taken: KindCounts) {
        for k in 0..12 {
            self.key ^= key_count(&KEY_TAKEN, k, self.taken.0[k]);
            self.key ^= key_count(&KEY_TAKEN, k, taken.0[k]);
        }
        self.taken = taken;
    }

    /// Sets the `taking` square; it must hold a piece (or be `None`).
    pub fn set_taking_square(&mut self, t: Option<Square>) -> bool {
        if let Some(sq) = t {
            if !self.occupied.contains(sq) {
                return false;
            }
        }
        self.set_taking(t);
        true
    }

    /// Same pieces, nothing chosen or taken, no `taking` square.
    pub fn board_only(&self) -> GolfPosition {
        let mut p = *self;
        p.set_chosen(KindCounts::EMPTY);
        p.set_taken(KindCounts::EMPTY);
        p.set_taking(None);
        p
    }
}

impl fmt::Debug for GolfPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GolfPosition({})", self.to_fen())
    }
}

impl fmt::Display for GolfPosition {
    /// The board text format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}
