//! Chess Golf (chess-kit seed, Don Kirkby): a one-player puzzle in which the chosen piece
//! kinds must capture one another in as few moves as possible, every piece moving only by
//! *borrowing* the movement of its same-colour neighbours ("the pieces caddy each other").
//!
//! This module is the rule set; the optimal solver lives in `agents::golf`. It implements
//! the seed rules as closed by `docs/RULES.md`, section "Chess Golf":
//!
//! * **Set-up** ([`GolfPosition::setup`]): the 16 non-pawn pieces, shuffled, are laid out
//!   along the ranks leaving the Appendix A gap before each (N 1, B 2, R 3, Q 5, K 6;
//!   [`SetupGaps`]). The printed rules fill from a1 towards h8 ([`FillOrder::FromA1`], the
//!   default); the designer's program (`golf.py`) fills from a8 rank by rank downwards
//!   ([`FillOrder::FromA8`], the vertical mirror) and the published `deck:` cases use it.
//! * **Chosen kinds**: the dealt cards, a multiset of coloured kinds ([`KindCounts`]), e.g.
//!   `Bq` or `NNB`.
//! * **Moves** ([`GolfPosition::legal_moves`]): a piece borrows the movement of every
//!   distinct kind among the same-colour pieces on its 8 neighbouring squares (so never its
//!   own kind unless a neighbour has it). Orthodox geometry, a borrowed king move is one
//!   step, sliders stop at the first occupied square of either colour. No pawns, castling,
//!   en passant or promotion: a move just relocates the piece.
//! * **King steps** ([`KingStep`]): the seed gives every piece of a colour a king step when
//!   that colour has no two adjacent pieces (`no-adjacent-pair`, the default); the
//!   designer's program gives them when the colour has no borrowed move at all
//!   (`no-borrowed-move`; they differ when every adjacent pair is blocked).
//! * **Captures**: only a piece of a chosen kind may capture, and only a piece whose kind is
//!   still owed, counted in (chosen minus taken) after removing one of the mover's own kind.
//!   Colour does not matter otherwise (a black bishop may take the other black bishop when
//!   `bb` is chosen). After the first capture only the piece that made it may capture; it is
//!   tracked as `taking`, which follows it when it moves.
//! * **Solved** ([`GolfPosition::is_solved`]) when (chosen minus taken) sums to at most 1.
//!
//! Decisions where the rules are silent (tested in `engine/tests/golf_cases.rs`):
//!
//! * King steps obey the capture rules like any other move (a king step may capture only
//!   what a borrowed move could capture), as in the designer's program.
//! * `taken` counts every captured piece; owed counts are clamped at zero
//!   (`max(chosen - taken, 0)` per kind), as in the designer's program.
//! * [`GolfPosition::apply_unchecked`] relocates a piece without validating the move (the
//!   published cases apply `e1c1` to a lone king); [`GolfPosition::play`] validates.
//! * A board may hold at most [`MAX_PIECES`] pieces and no pawns; counts in `chosen` and
//!   `taken` are limited to 16 per kind. A `taking` square must hold a piece.
//! * Text formats: see [`text`](self#text-formats) below; parse errors are
//!   [`GolfParseError`]s naming the line or field and the problem.
//! * Between holes of a course ([`GolfPosition::next_hole`]) captured pieces return to
//!   empty squares chosen uniformly at random (the seed says "any empty squares"; the
//!   designer's program does the same), and `chosen`, `taken` and `taking` are cleared.
//! * Dealing ([`CardDeck`]): a 16-card deck (one card per non-pawn piece); when fewer cards
//!   remain than must be dealt, the discard pile is shuffled back together with the
//!   remaining cards (seed: "shuffle the discard pile back in"). A single problem
//!   ([`random_problem`]) deals from a fresh deck. Randomness comes from the caller's RNG
//!   (the lab uses `rand_pcg::Pcg64`), so deals do not reproduce `golf.py`'s for equal seeds.
//! * A move reachable by several borrowed kinds (or by a kind and a king step) is one move;
//!   a slider's first blocker is a capture only if the capture rules allow it, otherwise
//!   it just stops the slide.
//! * Every number of the seed is a [`GolfParams`] field (gaps, cards per hole, holes,
//!   failed-demonstration penalty), loadable from TOML.
//!
//! # Text formats
//!
//! The board format (the one the shared test data uses):
//!
//! ```text
//! . . B . . . R .      8 rows, rank 8 first, files a..h; '.' empty, UPPERCASE white.
//! . . . . . k . .      Squares may be separated by spaces or written together.
//! . r . n . N . .
//! . r . . b . . .
//! R . . . . . q .
//! . B . n . N . .
//! b . . . . . . K
//! . . . . . Q . .
//! chosen: Kb           chosen kinds (multiset, any order); absent = none chosen
//! taking: a2           optional: square of the piece that made the first capture
//! taken: b             optional: kinds already captured
//! ```
//!
//! Blank lines and lines starting with `#` are ignored. The one-line form is
//! `<placement> [chosen=Kb] [taking=a2] [taken=b]`: the placement is FEN's first field
//! (ranks 8 to 1 separated by `/`, digits for runs of empty squares, no pawns); the
//! optional fields follow in any order, separated by spaces; `-` stands for an empty
//! multiset or no `taking` square. [`GolfPosition::to_fen`] prints the fields in the order
//! shown and omits empty ones.

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::random::splitmix64_next;
use crate::square::{Color, Piece, Role, Square};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;

mod text;

pub use text::GolfParseError;

/// Most pieces a Golf board may hold (the game uses 16; hand-made boards may use more).
pub const MAX_PIECES: usize = 32;
/// Largest count of one kind in `chosen` or `taken`.
pub const MAX_KIND_COUNT: u8 = 16;

/// The non-pawn roles, in the order of Appendix A's gaps.
pub const GOLF_ROLES: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

// ---------------------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------------------

/// When a colour's pieces may make a king step (RULES.md "King steps").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum KingStep {
    /// Seed: every piece of a colour may step like a king when no two pieces of that colour
    /// are adjacent.
    #[default]
    NoAdjacentPair,
    /// Designer's program: every piece of a colour may step like a king when the colour has
    /// no borrowed move at all.
    NoBorrowedMove,
}

impl KingStep {
    /// The parameter spelling (`no-adjacent-pair` / `no-borrowed-move`).
    pub fn name(self) -> &'static str {
        match self {
            KingStep::NoAdjacentPair => "no-adjacent-pair",
            KingStep::NoBorrowedMove => "no-borrowed-move",
        }
    }
}

impl std::str::FromStr for KingStep {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "no-adjacent-pair" => Ok(KingStep::NoAdjacentPair),
            "no-borrowed-move" => Ok(KingStep::NoBorrowedMove),
            _ => Err(format!(
                "unknown king step rule {s:?} (expected no-adjacent-pair or no-borrowed-move)"
            )),
        }
    }
}

/// Where the set-up starts laying out pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum FillOrder {
    /// Printed rules: a1..h1, then a2..h2, ... up to h8.
    #[default]
    FromA1,
    /// Designer's program: a8..h8, then a7..h7, ... down to h1 (the vertical mirror).
    FromA8,
}

/// Empty squares left before each kind when the set-up lays out a piece (Appendix A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SetupGaps {
    pub knight: u8,
    pub bishop: u8,
    pub rook: u8,
    pub queen: u8,
    pub king: u8,
}

impl Default for SetupGaps {
    fn default() -> Self {
        SetupGaps {
            knight: 1,
            bishop: 2,
            rook: 3,
            queen: 5,
            king: 6,
        }
    }
}

impl SetupGaps {
    /// The gap before a piece of `role` (pawns: 0, they are never laid out).
    pub fn gap(&self, role: Role) -> u8 {
        match role {
            Role::Pawn => 0,
            Role::Knight => self.knight,
            Role::Bishop => self.bishop,
            Role::Rook => self.rook,
            Role::Queen => self.queen,
            Role::King => self.king,
        }
    }
}

/// Every Chess Golf number and rule switch, with the seed's values as defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GolfParams {
    /// When king steps are allowed (seed: `no-adjacent-pair`).
    pub king_step: KingStep,
    /// Gaps before each kind in the set-up (Appendix A).
    pub setup_gaps: SetupGaps,
    /// Where the set-up starts (seed: a1).
    pub fill_order: FillOrder,
    /// Cards dealt per hole (seed: 2).
    pub cards: usize,
    /// Holes in a round (seed: 9).
    pub holes: usize,
    /// Penalty added to the maximum of the other players' counts for a failed
    /// demonstration or a refuted "impossible" claim (seed: 1).
    pub penalty: u32,
}

impl Default for GolfParams {
    fn default() -> Self {
        GolfParams {
            king_step: KingStep::NoAdjacentPair,
            setup_gaps: SetupGaps::default(),
            fill_order: FillOrder::FromA1,
            cards: 2,
            holes: 9,
            penalty: 1,
        }
    }
}

/// Decision (the seed is silent): the gaps must let the standard deck's 16 pieces fit
/// the board in any order (16 + the gaps of all 16 cards <= 64), `cards` is 2..=16 as
/// `golf deal` allows, and a round has at least one hole; out-of-range values are refused
/// instead of falling back to the defaults. Tested by `rule_golf_params_ranges`.
impl crate::game::VariantParams for GolfParams {
    fn validate(&self) -> Result<(), crate::game::InvalidParams> {
        use crate::game::InvalidParams;
        let g = &self.setup_gaps;
        // The standard deck: 4 knights, 4 bishops, 4 rooks, 2 queens, 2 kings.
        let squares = 16
            + 4 * (g.knight as u32 + g.bishop as u32 + g.rook as u32)
            + 2 * (g.queen as u32 + g.king as u32);
        if squares > 64 {
            return Err(InvalidParams::new(
                "setup_gaps",
                format!(
                    "the 16 pieces and their gaps take {squares} squares; the board has 64 (the seed's gaps take 62)"
                ),
            ));
        }
        if !(2..=16).contains(&self.cards) {
            return Err(InvalidParams::new(
                "cards",
                format!("must be between 2 and 16 (got {})", self.cards),
            ));
        }
        if self.holes == 0 {
            return Err(InvalidParams::new("holes", "must be at least 1"));
        }
        Ok(())
    }
}

impl GolfParams {
    /// The designer's program's rules: `no-borrowed-move` king steps and the a8 fill order.
    pub fn designer() -> Self {
        GolfParams {
            king_step: KingStep::NoBorrowedMove,
            fill_order: FillOrder::FromA8,
            ..GolfParams::default()
        }
    }

    /// Loads parameters from TOML text (missing fields keep the seed's values).
    pub fn from_toml_str(s: &str) -> Result<Self, toml::de::Error> {
        toml::from_str(s)
    }

    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).expect("GolfParams always serialises")
    }
}

// ---------------------------------------------------------------------------------------
// Multisets of kinds
// ---------------------------------------------------------------------------------------

/// A multiset of coloured piece kinds (chosen cards, taken pieces), indexed by
/// [`Piece::index`]. Pawns are never stored.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct KindCounts([u8; 12]);

impl KindCounts {
    pub const EMPTY: KindCounts = KindCounts([0; 12]);

    #[inline(always)]
    pub fn get(&self, p: Piece) -> u8 {
        self.0[p.index()]
    }

    #[inline(always)]
    pub fn get_index(&self, kind: usize) -> u8 {
        self.0[kind]
    }

    /// Adds one `p` (saturating at 255).
    pub fn add(&mut self, p: Piece) {
        self.0[p.index()] = self.0[p.index()].saturating_add(1);
    }

    /// Removes one `p` if present; returns whether one was present.
    pub fn remove(&mut self, p: Piece) -> bool {
        let c = &mut self.0[p.index()];
        if *c > 0 {
            *c -= 1;
            true
        } else {
            false
        }
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }

    /// Per-kind `max(self - other, 0)`.
    pub fn saturating_sub(&self, other: &KindCounts) -> KindCounts {
        let mut out = [0u8; 12];
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.0[i].saturating_sub(other.0[i]);
        }
        KindCounts(out)
    }

    /// Every element, with multiplicity, in a fixed order (white N B R Q K, then black).
    pub fn pieces(&self) -> Vec<Piece> {
        let mut v = Vec::new();
        for color in Color::BOTH {
            for role in GOLF_ROLES {
                let p = Piece::new(color, role);
                for _ in 0..self.get(p) {
                    v.push(p);
                }
            }
        }
        v
    }

    /// The distinct kinds present.
    pub fn kinds(&self) -> impl Iterator<Item = Piece> + '_ {
        Color::BOTH.into_iter().flat_map(move |c| {
            GOLF_ROLES
                .into_iter()
                .map(move |r| Piece::new(c, r))
                .filter(move |p| self.get(*p) > 0)
        })
    }

    /// Parses letters such as `NNB` or `bq` (no separators; `-` or empty = empty set).
    pub fn parse(s: &str) -> Result<KindCounts, String> {
        let s = s.trim();
        let mut k = KindCounts::EMPTY;
        if s == "-" {
            return Ok(k);
        }
        for c in s.chars() {
            if c.is_whitespace() || c == ',' {
                continue;
            }
            let p = Piece::from_char(c).ok_or_else(|| format!("{c:?} is not a piece letter"))?;
            if p.role == Role::Pawn {
                return Err("pawns take no part in Chess Golf".to_string());
            }
            if k.get(p) >= MAX_KIND_COUNT {
                return Err(format!("more than {MAX_KIND_COUNT} of {c:?}"));
            }
            k.add(p);
        }
        Ok(k)
    }

    pub fn from_pieces(pieces: &[Piece]) -> KindCounts {
        let mut k = KindCounts::EMPTY;
        for &p in pieces {
            k.add(p);
        }
        k
    }
}

impl fmt::Display for KindCounts {
    /// Letters in ASCII order (upper case first), e.g. `BNN`, `Bq`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut letters: Vec<char> = self.pieces().into_iter().map(|p| p.char()).collect();
        letters.sort_unstable();
        for c in letters {
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for KindCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KindCounts({self})")
    }
}

// ---------------------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------------------

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
    from: [Square; MAX_PIECES],
    to: [Bitboard; MAX_PIECES],
    len: usize,
}

impl MoveTargets {
    fn new() -> Self {
        MoveTargets {
            from: [Square::A1; MAX_PIECES],
            to: [Bitboard::EMPTY; MAX_PIECES],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, from: Square, to: Bitboard) {
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

// ---------------------------------------------------------------------------------------
// Hash keys
// ---------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------
// Position
// ---------------------------------------------------------------------------------------

const EMPTY_CELL: u8 = 0xff;

/// A Chess Golf state: the pieces, the chosen and taken multisets and the `taking` square.
///
/// Small and `Copy` (about 150 bytes): the solver copies it rather than undoing moves.
#[derive(Clone, Copy)]
pub struct GolfPosition {
    by_color: [Bitboard; 2],
    by_role: [Bitboard; 6],
    occupied: Bitboard,
    /// Piece index (`Piece::index`) per square, or `EMPTY_CELL`.
    board: [u8; 64],
    chosen: KindCounts,
    taken: KindCounts,
    taking: Option<Square>,
    key: u128,
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
    fn kind_bb_index(&self, kind: usize) -> Bitboard {
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
    fn add_piece(&mut self, sq: Square, kind: u8) {
        let bb = Bitboard::from_square(sq);
        self.by_color[kind as usize / 6] |= bb;
        self.by_role[kind as usize % 6] |= bb;
        self.occupied |= bb;
        self.board[sq.index()] = kind;
        self.key ^= key_piece(kind as usize, sq);
    }

    #[inline(always)]
    fn remove_piece(&mut self, sq: Square, kind: u8) {
        let bb = !Bitboard::from_square(sq);
        self.by_color[kind as usize / 6] &= bb;
        self.by_role[kind as usize % 6] &= bb;
        self.occupied &= bb;
        self.board[sq.index()] = EMPTY_CELL;
        self.key ^= key_piece(kind as usize, sq);
    }

    fn set_taking(&mut self, t: Option<Square>) {
        if let Some(old) = self.taking {
            self.key ^= KEY_TAKING[old.index()];
        }
        if let Some(new) = t {
            self.key ^= KEY_TAKING[new.index()];
        }
        self.taking = t;
    }

    fn add_taken(&mut self, kind: usize) {
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

    // ----- rules -----

    /// Solved: at most one chosen piece is still owed.
    #[inline]
    pub fn is_solved(&self) -> bool {
        let mut owed = 0u32;
        for k in 0..12 {
            owed += self.chosen.0[k].saturating_sub(self.taken.0[k]) as u32;
        }
        owed <= 1
    }

    /// The kinds (roles) of the same-colour pieces on the 8 squares around `sq`
    /// (empty when `sq` is empty), in the order N B R Q K.
    pub fn neighbour_types(&self, sq: Square) -> Vec<Role> {
        let Some(p) = self.piece_at(sq) else {
            return Vec::new();
        };
        let friends = king_attacks(sq) & self.by_color[p.color.index()];
        GOLF_ROLES
            .into_iter()
            .filter(|r| (friends & self.by_role[r.index()]).any())
            .collect()
    }

    /// Squares a piece on `sq` of colour `color` reaches with the moves it borrows from
    /// its neighbours (ignoring what it may capture): the union of the attacks of every
    /// kind among its same-colour neighbours, a borrowed king move being one step.
    #[inline(always)]
    pub fn borrowed_reach(&self, sq: Square, color: Color) -> Bitboard {
        let friends = king_attacks(sq) & self.by_color[color.index()];
        if friends.is_empty() {
            return Bitboard::EMPTY;
        }
        let mut t = Bitboard::EMPTY;
        if (friends & self.by_role[Role::Knight.index()]).any() {
            t |= knight_attacks(sq);
        }
        let q = self.by_role[Role::Queen.index()];
        if (friends & (self.by_role[Role::Bishop.index()] | q)).any() {
            t |= bishop_attacks(sq, self.occupied);
        }
        if (friends & (self.by_role[Role::Rook.index()] | q)).any() {
            t |= rook_attacks(sq, self.occupied);
        }
        if (friends & self.by_role[Role::King.index()]).any() {
            t |= king_attacks(sq);
        }
        t
    }

    /// Bitmask over kind indices of the kinds owed at least once / at least twice.
    #[inline(always)]
    pub fn owed_masks(&self) -> (u16, u16) {
        let mut once = 0u16;
        let mut twice = 0u16;
        for k in 0..12 {
            let o = self.chosen.0[k].saturating_sub(self.taken.0[k]);
            if o >= 1 {
                once |= 1 << k;
            }
            if o >= 2 {
                twice |= 1 << k;
            }
        }
        (once, twice)
    }

    /// Squares the piece of kind `mover` standing on `sq` may capture (empty when it may
    /// not capture at all), given the owed masks from [`owed_masks`](Self::owed_masks).
    #[inline(always)]
    pub fn capture_targets(&self, sq: Square, mover: usize, once: u16, twice: u16) -> Bitboard {
        if self.chosen.0[mover] == 0 {
            return Bitboard::EMPTY;
        }
        if let Some(t) = self.taking {
            if t != sq {
                return Bitboard::EMPTY;
            }
        }
        let mut kinds = once & !(1 << mover) | (twice & (1 << mover));
        let mut bb = Bitboard::EMPTY;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            bb |= self.kind_bb_index(k);
        }
        bb
    }

    /// Every legal move, grouped by piece.
    pub fn move_targets(&self, params: &GolfParams) -> MoveTargets {
        self.move_targets_with(params.king_step)
    }

    /// [`move_targets`](Self::move_targets) with only the king-step rule given.
    pub fn move_targets_with(&self, king_step: KingStep) -> MoveTargets {
        let mut out = MoveTargets::new();
        let (once, twice) = self.owed_masks();
        let empty = !self.occupied;
        for color in Color::BOTH {
            let start = out.len;
            let mine = self.by_color[color.index()];
            let mut has_pair = false;
            for sq in mine {
                let reach = self.borrowed_reach(sq, color);
                if (king_attacks(sq) & mine).any() {
                    has_pair = true;
                }
                if reach.is_empty() {
                    continue;
                }
                let kind = self.board[sq.index()] as usize;
                let caps = self.capture_targets(sq, kind, once, twice);
                out.push(sq, reach & (empty | caps));
            }
            let king_steps = match king_step {
                KingStep::NoAdjacentPair => !has_pair,
                KingStep::NoBorrowedMove => out.len == start,
            };
            if king_steps {
                // Only reachable with no borrowed move, so nothing was pushed for `color`.
                out.len = start;
                for sq in mine {
                    let kind = self.board[sq.index()] as usize;
                    let caps = self.capture_targets(sq, kind, once, twice);
                    out.push(sq, king_attacks(sq) & (empty | caps));
                }
            }
        }
        out
    }

    /// Whether `color` currently moves by king steps (see [`KingStep`]).
    pub fn has_king_steps(&self, king_step: KingStep, color: Color) -> bool {
        let mine = self.by_color[color.index()];
        match king_step {
            KingStep::NoAdjacentPair => mine
                .into_iter()
                .all(|sq| (king_attacks(sq) & mine).is_empty()),
            KingStep::NoBorrowedMove => {
                let (once, twice) = self.owed_masks();
                let empty = !self.occupied;
                mine.into_iter().all(|sq| {
                    let reach = self.borrowed_reach(sq, color);
                    let kind = self.board[sq.index()] as usize;
                    (reach & (empty | self.capture_targets(sq, kind, once, twice))).is_empty()
                })
            }
        }
    }

    /// Every legal move, sorted by (from, to).
    pub fn legal_moves(&self, params: &GolfParams) -> Vec<GolfMove> {
        let mut v: Vec<GolfMove> = self.move_targets(params).moves().collect();
        v.sort_unstable();
        v
    }

    pub fn is_legal(&self, mv: GolfMove, params: &GolfParams) -> bool {
        self.move_targets(params)
            .entries()
            .any(|(from, to)| from == mv.from && to.contains(mv.to))
    }

    /// Applies `mv` without checking legality: the piece on `from` goes to `to`, capturing
    /// what stands there (which is added to `taken` and makes the mover the `taking`
    /// piece); a moving `taking` piece takes the mark along. `from` must hold a piece and
    /// differ from `to` (checked only in debug builds; see [`try_apply`](Self::try_apply)).
    #[inline]
    pub fn apply_unchecked(&mut self, mv: GolfMove) {
        let kind = self.board[mv.from.index()];
        debug_assert!(kind != EMPTY_CELL && mv.from != mv.to);
        let victim = self.board[mv.to.index()];
        self.remove_piece(mv.from, kind);
        if victim != EMPTY_CELL {
            self.remove_piece(mv.to, victim);
            self.add_taken(victim as usize);
            self.set_taking(Some(mv.to));
        } else if self.taking == Some(mv.from) {
            self.set_taking(Some(mv.to));
        }
        self.add_piece(mv.to, kind);
    }

    /// Applies `mv` without checking its legality, but refusing a move from an empty
    /// square or to the same square.
    pub fn try_apply(&self, mv: GolfMove) -> Result<GolfPosition, GolfMoveError> {
        if mv.from == mv.to {
            return Err(GolfMoveError::NullMove(mv));
        }
        if !self.occupied.contains(mv.from) {
            return Err(GolfMoveError::EmptyFrom(mv));
        }
        let mut p = *self;
        p.apply_unchecked(mv);
        Ok(p)
    }

    /// Plays a legal move, or explains why it is not legal.
    pub fn play(&self, mv: GolfMove, params: &GolfParams) -> Result<GolfPosition, GolfMoveError> {
        if !self.occupied.contains(mv.from) {
            return Err(GolfMoveError::EmptyFrom(mv));
        }
        if !self.is_legal(mv, params) {
            return Err(GolfMoveError::Illegal(mv));
        }
        self.try_apply(mv)
    }

    /// Replays `moves`, each legal, and checks that only the last one reaches a solved
    /// state. Returns the final position or a description of the first failure.
    pub fn verify_solution(
        &self,
        moves: &[GolfMove],
        params: &GolfParams,
    ) -> Result<GolfPosition, String> {
        if self.is_solved() {
            return if moves.is_empty() {
                Ok(*self)
            } else {
                Err("the position is already solved".to_string())
            };
        }
        if moves.is_empty() {
            return Err("no moves and the position is not solved".to_string());
        }
        let mut pos = *self;
        for (i, &mv) in moves.iter().enumerate() {
            pos = pos
                .play(mv, params)
                .map_err(|e| format!("move {}: {e}", i + 1))?;
            let last = i + 1 == moves.len();
            if pos.is_solved() != last {
                return Err(if last {
                    "the last move does not solve the problem".to_string()
                } else {
                    format!("move {} ({mv}) already solves the problem", i + 1)
                });
            }
        }
        Ok(pos)
    }

    // ----- set-up, deal, next hole -----

    /// Lays out `deck` in order leaving `gaps` empty squares before each piece, starting
    /// at a1 or a8 according to `order`. Nothing is chosen.
    pub fn setup(
        deck: &[Piece],
        gaps: &SetupGaps,
        order: FillOrder,
    ) -> Result<GolfPosition, GolfSetupError> {
        if deck.len() > MAX_PIECES {
            return Err(GolfSetupError::TooMany(deck.len()));
        }
        let mut pos = GolfPosition::empty();
        let mut next = 0usize; // linear index of the next free square in fill order
        for (i, &p) in deck.iter().enumerate() {
            if p.role == Role::Pawn {
                return Err(GolfSetupError::Pawn { card: i + 1 });
            }
            let idx = next + gaps.gap(p.role) as usize;
            if idx >= 64 {
                return Err(GolfSetupError::OffBoard {
                    card: i + 1,
                    piece: p.char(),
                });
            }
            let (file, row) = ((idx % 8) as u8, (idx / 8) as u8);
            let rank = match order {
                FillOrder::FromA1 => row,
                FillOrder::FromA8 => 7 - row,
            };
            pos.put(Square::from_coords(file, rank), p);
            next = idx + 1;
        }
        Ok(pos)
    }

    /// A shuffled standard deck laid out with `params`' gaps and fill order.
    pub fn random_setup<R: Rng + ?Sized>(rng: &mut R, params: &GolfParams) -> GolfPosition {
        let mut deck = standard_deck().to_vec();
        deck.shuffle(rng);
        // The standard gaps always fit (16 pieces + 46 gaps = 62 squares); large custom
        // gaps fall back to the seed's.
        GolfPosition::setup(&deck, &params.setup_gaps, params.fill_order).unwrap_or_else(|_| {
            GolfPosition::setup(&deck, &SetupGaps::default(), params.fill_order)
                .expect("the seed's gaps fit the board")
        })
    }

    /// The start of the next hole: the same pieces, captured pieces put back on empty
    /// squares chosen uniformly at random, nothing chosen, taken or taking.
    pub fn next_hole<R: Rng + ?Sized>(&self, rng: &mut R) -> GolfPosition {
        let mut pos = self.board_only();
        for p in self.taken.pieces() {
            let empties: Vec<Square> = (!pos.occupied).collect();
            if let Some(&sq) = empties.choose(rng) {
                pos.put(sq, p);
            }
        }
        pos
    }

    /// This position with `chosen` as the dealt cards (taken and taking cleared).
    pub fn with_chosen(&self, chosen: KindCounts) -> GolfPosition {
        let mut p = self.board_only();
        p.set_chosen(chosen);
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

/// The 16 non-pawn pieces in the designer's order `NNBBRRQKnnbbrrqk`.
pub fn standard_deck() -> [Piece; 16] {
    let mut out = [Piece::new(Color::White, Role::Knight); 16];
    for (i, c) in "NNBBRRQKnnbbrrqk".chars().enumerate() {
        out[i] = Piece::from_char(c).expect("valid letter");
    }
    out
}

/// The card deck that deals chosen kinds: one card per non-pawn piece.
#[derive(Clone, Debug)]
pub struct CardDeck {
    draw: Vec<Piece>,
    discard: Vec<Piece>,
}

impl CardDeck {
    /// A freshly shuffled 16-card deck.
    pub fn shuffled<R: Rng + ?Sized>(rng: &mut R) -> CardDeck {
        let mut draw = standard_deck().to_vec();
        draw.shuffle(rng);
        CardDeck {
            draw,
            discard: Vec::new(),
        }
    }

    /// Cards left to draw.
    pub fn remaining(&self) -> usize {
        self.draw.len()
    }

    /// Deals `k` cards (at most 16). When fewer than `k` remain, the discard pile is
    /// shuffled back in with the remaining cards first. Dealt cards go to the discard
    /// pile once dealt (they are face up for the hole).
    pub fn deal<R: Rng + ?Sized>(&mut self, k: usize, rng: &mut R) -> Vec<Piece> {
        let k = k.min(16);
        if self.draw.len() < k {
            self.draw.append(&mut self.discard);
            self.draw.shuffle(rng);
        }
        let dealt: Vec<Piece> = self.draw.drain(..k).collect();
        self.discard.extend_from_slice(&dealt);
        dealt
    }
}

/// Deals `k` cards from a fresh shuffled deck (a single problem).
pub fn deal_cards<R: Rng + ?Sized>(rng: &mut R, k: usize) -> KindCounts {
    let mut deck = CardDeck::shuffled(rng);
    KindCounts::from_pieces(&deck.deal(k, rng))
}

/// A random problem: a shuffled set-up with `k` cards dealt from a fresh deck.
pub fn random_problem<R: Rng + ?Sized>(rng: &mut R, params: &GolfParams, k: usize) -> GolfPosition {
    let pos = GolfPosition::random_setup(rng, params);
    let chosen = deal_cards(rng, k);
    pos.with_chosen(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_round_trip_toml() {
        let p = GolfParams::designer();
        let s = p.to_toml_string();
        assert!(s.contains("king_step = \"no-borrowed-move\""), "{s}");
        assert_eq!(GolfParams::from_toml_str(&s).unwrap(), p);
        assert_eq!(
            GolfParams::from_toml_str("").unwrap(),
            GolfParams::default()
        );
        assert!(GolfParams::from_toml_str("king_step = \"sometimes\"").is_err());
    }

    #[test]
    fn key_is_incremental() {
        let mut rng = rand_pcg::Pcg64::new(1, 2);
        let mut pos = random_problem(&mut rng, &GolfParams::default(), 3);
        for _ in 0..200 {
            let moves = pos.legal_moves(&GolfParams::default());
            if moves.is_empty() || pos.is_solved() {
                break;
            }
            pos.apply_unchecked(moves[rng.gen_range(0..moves.len())]);
            let fresh = GolfPosition::parse_text(&pos.to_text()).unwrap();
            assert_eq!(fresh.key(), pos.key());
            assert_eq!(fresh, pos);
        }
    }

    #[test]
    fn card_deck_reshuffles_discards() {
        let mut rng = rand_pcg::Pcg64::new(7, 9);
        let mut deck = CardDeck::shuffled(&mut rng);
        let mut all = Vec::new();
        for _ in 0..8 {
            all.extend(deck.deal(2, &mut rng));
        }
        assert_eq!(deck.remaining(), 0);
        let mut sorted: Vec<char> = all.iter().map(|p| p.char()).collect();
        sorted.sort_unstable();
        let mut std: Vec<char> = standard_deck().iter().map(|p| p.char()).collect();
        std.sort_unstable();
        assert_eq!(sorted, std);
        assert_eq!(deck.deal(3, &mut rng).len(), 3);
        assert_eq!(deck.remaining(), 13);
    }
}
