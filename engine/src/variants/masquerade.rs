//! Masquerade Chess (chess-kit seed "Masquerade Chess"; docs/RULES.md "Masquerade Chess"):
//! orthodox moves, but every piece above a pawn captures with a secret pattern chosen by
//! the opponent.
//!
//! - Set-up: each player secretly assigns the *opponent's* five piece types (K, Q, R, B,
//!   N) a permutation of the five capture patterns (K = one step, Q/R/B = lines with a
//!   clear path, N = jump). White assigns Black's pieces first, then Black assigns
//!   White's (120 actions each). With `assignment = "random"` both are chance nodes
//!   (1/120 each); `white_assigns` / `black_assigns` fix one side's assignment in the
//!   seed's text form and skip that step.
//! - Non-capturing moves are orthodox, castling included. Pawns capture orthodox,
//!   including en passant and capturing promotions, and always succeed. A promoted piece
//!   captures with its new type's pattern.
//! - Every other capture is an attempt (piece, target), offered when at least one of the
//!   five patterns reaches the target with a clear path. The owner of the assignment
//!   answers: legal -> the capture happens; illegal -> nothing moves and the turn ends.
//!   Both players learn the answer.
//! - No check and no stalemate: kings may stand on or move into attacked squares and
//!   castle out of, through or into attack. Capturing the king wins (`royal-capture`).
//! - Information: a seat knows the assignment it made (for the opponent's pieces) and
//!   never its own; it sees the board, all moves, all attempts and their answers. The
//!   game tracks, per side, the exact set of permutations of its own pieces consistent
//!   with every answer so far ([`Masquerade::consistent`]).
//!
//! Decisions where the texts are silent (tested below):
//! - A side with no action at all (no orthodox non-capture, no pawn capture, no attempt)
//!   passes (`pass`): with no stalemate rule the game goes on, and the pass is a ply that
//!   changes no board, like a failed attempt.
//! - A failed attempt (and a pass) is a ply that changes no board: the turn passes, an en
//!   passant chance lapses, the 50-move counter advances. Repetition is judged on board
//!   and side to move (what the learned answers are does not count), so two failed
//!   attempts by each side in the same position make a threefold repetition.
//! - The ply cap (`ply_cap`, default 400, reason `cap`) counts play plies, not the
//!   assignment steps.
//! - The orthodox insufficient-material draw does not apply (RULES.md), not even to
//!   bare kings: any piece, a king too, may capture with a queen's pattern, and a king
//!   may step into capture since there is no check rule. Repetition and the 50-move
//!   rule do apply (`rule_no_insufficient_material_draw`).
//! - With `assignment = "random"` the draw for a side's pieces is the opponent's
//!   assignment drawn at random (RULES.md: "draw it at random"): the opponent sees it,
//!   the side itself does not.
//! - Openings (`from_opening`, a FEN) may leave the side not to move attacked: the king
//!   merely stands en prise. Touching kings load too: with no check rule play reaches
//!   them (`rule_touching_kings_load_from_fen`).
//! - Fixed assignments from the parameters count as secret from the side they govern
//!   (as if the opponent had written them down at the table): `sample_world` redraws
//!   them like chosen ones.
//! - `sample_world(seat)` draws the seat's own assignment uniformly from its consistent
//!   set (not from any model of how the opponent chooses).
//!
//! Notation: moves in UCI (`e2e4`, castling `e1g1`, pawn captures `e4d5`), attempts as
//! `b1xc3?`, passes `pass`, assignments `assign:KQ,QN,RB,BK,NR` (pairs of piece letter and
//! pattern letter, printed in the order K, Q, R, B, N; any order and `assign:<index>`
//! parse).

use crate::attacks::{self, between};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::game::{
    two_seat_returns, validate_ply_cap, Game, GameError, GameFacts, GameResult, InvalidParams,
    Seat, Turn, VariantParams,
};
use crate::moves::{Move, MoveKind, MoveList};
use crate::square::{Color, Role, Square};
use crate::variants::chess::material_balance;
use crate::variants::{common_draw, pseudo_moves};
use crate::zobrist;
use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};
use std::fmt;

// ----- capture patterns and assignments ---------------------------------------------

/// The five piece types with secret capture patterns, in the order used by
/// [`Assignment`] and its index: K, Q, R, B, N.
pub const PIECE_TYPES: [Role; 5] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
];

const LETTERS: [char; 5] = ['K', 'Q', 'R', 'B', 'N'];

/// The position of `role` in [`PIECE_TYPES`] (`None` for pawns, which never masquerade).
pub fn type_index(role: Role) -> Option<usize> {
    match role {
        Role::King => Some(0),
        Role::Queen => Some(1),
        Role::Rook => Some(2),
        Role::Bishop => Some(3),
        Role::Knight => Some(4),
        Role::Pawn => None,
    }
}

/// A capture pattern: how the piece of that orthodox type captures.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Pattern {
    /// One step in any direction.
    King,
    /// Any line, path clear.
    Queen,
    /// Ranks and files, path clear.
    Rook,
    /// Diagonals, path clear.
    Bishop,
    /// The knight's jump.
    Knight,
}

impl Pattern {
    /// In the order K, Q, R, B, N (the same order as [`PIECE_TYPES`]).
    pub const ALL: [Pattern; 5] = [
        Pattern::King,
        Pattern::Queen,
        Pattern::Rook,
        Pattern::Bishop,
        Pattern::Knight,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        LETTERS[self.index()]
    }

    /// Squares this pattern reaches from `from` with occupancy `occ`.
    pub fn targets(self, from: Square, occ: Bitboard) -> Bitboard {
        match self {
            Pattern::King => attacks::king_attacks(from),
            Pattern::Queen => attacks::queen_attacks(from, occ),
            Pattern::Rook => attacks::rook_attacks(from, occ),
            Pattern::Bishop => attacks::bishop_attacks(from, occ),
            Pattern::Knight => attacks::knight_attacks(from),
        }
    }

    pub fn reaches(self, from: Square, to: Square, occ: Bitboard) -> bool {
        self.targets(from, occ).contains(to)
    }
}

/// The patterns (bit i = `Pattern::ALL[i]`) that reach `to` from `from` with `occ`.
pub fn patterns_reaching(from: Square, to: Square, occ: Bitboard) -> u8 {
    let mut set = 0;
    for p in Pattern::ALL {
        if p.reaches(from, to, occ) {
            set |= 1 << p.index();
        }
    }
    set
}

/// All 120 permutations in lexicographic order: `PERMS[i][t]` is the pattern index of
/// piece type `t` under assignment `i`.
const PERMS: [[u8; 5]; 120] = build_perms();

const fn build_perms() -> [[u8; 5]; 120] {
    let mut out = [[0u8; 5]; 120];
    let mut n = 0;
    let mut a = 0;
    while a < 5 {
        let mut b = 0;
        while b < 5 {
            let mut c = 0;
            while c < 5 {
                let mut d = 0;
                while d < 5 {
                    let distinct = a != b && a != c && a != d && b != c && b != d && c != d;
                    if distinct {
                        let e = 10 - a - b - c - d;
                        out[n] = [a as u8, b as u8, c as u8, d as u8, e as u8];
                        n += 1;
                    }
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    out
}

/// `TYPE_MASK[t][p]`: the assignments (as a 120-bit set) giving piece type `t` pattern `p`.
const TYPE_MASK: [[u128; 5]; 5] = build_masks();

const fn build_masks() -> [[u128; 5]; 5] {
    let mut m = [[0u128; 5]; 5];
    let mut i = 0;
    while i < 120 {
        let mut t = 0;
        while t < 5 {
            m[t][PERMS[i][t] as usize] |= 1u128 << i;
            t += 1;
        }
        i += 1;
    }
    m
}

/// Every assignment: the full 120-bit set.
pub const ALL_ASSIGNMENTS: u128 = (1u128 << 120) - 1;

/// The assignments under which piece type `t` (index into [`PIECE_TYPES`]) has one of
/// the patterns in `patterns` (bit set over [`Pattern::ALL`]). Empty for `t >= 5`.
pub fn assignments_with(t: usize, patterns: u8) -> u128 {
    let Some(masks) = TYPE_MASK.get(t) else {
        return 0;
    };
    masks
        .iter()
        .enumerate()
        .filter(|(p, _)| patterns >> p & 1 == 1)
        .fold(0, |m, (_, mask)| m | mask)
}

/// A secret identity table: which capture pattern each of one side's five piece types
/// uses. Indexed 0..120 in lexicographic order of the pattern sequence for (K, Q, R, B,
/// N), pattern order K < Q < R < B < N: index 0 is the orthodox `KK,QQ,RR,BB,NN`, index 1
/// is `KK,QQ,RR,BN,NB`, index 119 is `KN,QB,RR,BQ,NK`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Assignment(u8);

impl Assignment {
    /// How many assignments there are.
    pub const COUNT: usize = 120;
    /// The orthodox assignment (every piece captures as it moves).
    pub const ORTHODOX: Assignment = Assignment(0);

    pub fn from_index(i: usize) -> Option<Assignment> {
        (i < Self::COUNT).then_some(Assignment(i as u8))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// From the pattern of each piece type in the order K, Q, R, B, N; `None` unless a
    /// permutation.
    pub fn from_patterns(patterns: [Pattern; 5]) -> Option<Assignment> {
        let want = patterns.map(|p| p.index() as u8);
        PERMS
            .iter()
            .position(|p| *p == want)
            .map(|i| Assignment(i as u8))
    }

    /// The pattern of each piece type, in the order K, Q, R, B, N.
    pub fn patterns(self) -> [Pattern; 5] {
        PERMS[self.index()].map(|p| Pattern::ALL[p as usize])
    }

    /// The capture pattern of `role` (`None` for pawns).
    pub fn pattern(self, role: Role) -> Option<Pattern> {
        type_index(role).map(|t| Pattern::ALL[PERMS[self.index()][t] as usize])
    }

    /// The 120-bit set holding only this assignment.
    pub fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// Reads the seed's text form: five pairs of piece letter and pattern letter,
    /// separated by commas, any order and case, spaces allowed (`KQ, QN, RB, NR, BK`);
    /// or an index `0..119`.
    pub fn parse(text: &str) -> Result<Assignment, String> {
        let t = text.trim();
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            return t
                .parse::<usize>()
                .ok()
                .and_then(Assignment::from_index)
                .ok_or_else(|| format!("index '{t}' is not in 0..119"));
        }
        let letter = |c: char| LETTERS.iter().position(|&l| l == c.to_ascii_uppercase());
        let mut patterns: [Option<Pattern>; 5] = [None; 5];
        let mut used = [false; 5];
        let pairs: Vec<&str> = t.split(',').map(str::trim).collect();
        if pairs.len() != 5 {
            return Err(format!(
                "'{t}': expected five pairs like 'KQ,QN,RB,NR,BK', found {}",
                pairs.len()
            ));
        }
        for pair in pairs {
            let chars: Vec<char> = pair.chars().filter(|c| !c.is_whitespace()).collect();
            let (Some(piece), Some(pattern)) = (
                chars.first().and_then(|&c| letter(c)),
                chars.get(1).and_then(|&c| letter(c)),
            ) else {
                return Err(format!(
                    "'{pair}' is not a piece letter and a pattern letter (K, Q, R, B, N)"
                ));
            };
            if chars.len() != 2 {
                return Err(format!("'{pair}' is not two letters"));
            }
            if patterns[piece].is_some() {
                return Err(format!("piece {} is assigned twice", LETTERS[piece]));
            }
            if used[pattern] {
                return Err(format!(
                    "pattern {} is given twice (each row and column needs one circle)",
                    LETTERS[pattern]
                ));
            }
            used[pattern] = true;
            patterns[piece] = Some(Pattern::ALL[pattern]);
        }
        let patterns = patterns.map(|p| p.expect("five distinct pieces"));
        Assignment::from_patterns(patterns).ok_or_else(|| format!("'{t}' is not a permutation"))
    }
}

impl fmt::Display for Assignment {
    /// `KQ,QN,RB,BK,NR`: piece letter then pattern letter, pieces in the order K, Q, R, B, N.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pats = PERMS[self.index()];
        for (t, p) in pats.iter().enumerate() {
            if t > 0 {
                write!(f, ",")?;
            }
            write!(f, "{}{}", LETTERS[t], LETTERS[*p as usize])?;
        }
        Ok(())
    }
}

/// The patterns piece type `t` may have under some assignment of `set` (bit set over
/// [`Pattern::ALL`]). Empty for `t >= 5`.
pub fn possible_patterns(set: u128, t: usize) -> u8 {
    let Some(masks) = TYPE_MASK.get(t) else {
        return 0;
    };
    masks
        .iter()
        .enumerate()
        .filter(|(_, mask)| set & *mask != 0)
        .fold(0, |out, (p, _)| out | 1 << p)
}

/// The `k`-th member (0-based, lowest index first) of a 120-bit set.
fn nth_member(mut set: u128, k: u32) -> Assignment {
    for _ in 0..k {
        set &= set - 1;
    }
    Assignment(set.trailing_zeros() as u8)
}

/// Reads a FEN. The orthodox reader refuses a position whose side not to move is
/// attacked, or whose kings touch; with no check rule such a king merely stands en
/// prise, and a king may step next to the other.
pub fn board_from_fen(fen: &str) -> Result<Board, GameError> {
    Board::from_fen_kings_touching(fen).map_err(|e| GameError::opening_fen(fen, e))
}

// ----- parameters ----------------------------------------------------------------------

/// Tunable rules of Masquerade Chess.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct MasqueradeParams {
    pub ply_cap: u32,
    /// How assignments are made: `"choose"` (each player decides) or `"random"` (chance,
    /// uniform over the 120).
    pub assignment: String,
    /// A fixed assignment White gives Black's pieces (seed text form, e.g.
    /// `"KQ,QN,RB,NR,BK"`); skips that step.
    pub white_assigns: Option<String>,
    /// A fixed assignment Black gives White's pieces; skips that step.
    pub black_assigns: Option<String>,
}

impl Default for MasqueradeParams {
    fn default() -> Self {
        MasqueradeParams {
            ply_cap: 400,
            assignment: "choose".into(),
            white_assigns: None,
            black_assigns: None,
        }
    }
}

/// How one side's pieces get their assignment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Source {
    /// The opponent decides (a seat action).
    Choose,
    /// A chance node, uniform over the 120.
    Random,
    /// Given by the parameters.
    Fixed(Assignment),
}

impl VariantParams for MasqueradeParams {
    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        self.sources().map(|_| ())
    }
}

impl MasqueradeParams {
    /// The source of each side's assignment, indexed by the colour whose pieces it
    /// governs (`[white's pieces, black's pieces]`).
    pub fn sources(&self) -> Result<[Source; 2], InvalidParams> {
        let err = |message: String| InvalidParams::new("assignment", message);
        let default = match self.assignment.as_str() {
            "choose" => Source::Choose,
            "random" => Source::Random,
            other => {
                return Err(err(format!(
                    "assignment = '{other}': expected \"choose\" or \"random\" (fix one side \
                     with white_assigns / black_assigns)"
                )))
            }
        };
        let fixed = |text: &Option<String>, name: &str| -> Result<Source, InvalidParams> {
            match text {
                None => Ok(default),
                Some(t) => Assignment::parse(t)
                    .map(Source::Fixed)
                    .map_err(|e| InvalidParams::new(name, e.to_string())),
            }
        };
        // Black assigns White's pieces; White assigns Black's.
        Ok([
            fixed(&self.black_assigns, "black_assigns")?,
            fixed(&self.white_assigns, "white_assigns")?,
        ])
    }
}

// ----- the game ------------------------------------------------------------------------

/// An action of a seat (or a chance outcome during random assignment).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MasqueradeAction {
    /// Assign the pieces of the side being set up (the opponent of the actor).
    Assign(Assignment),
    /// An orthodox non-capturing move, castling, or a pawn move (pawn captures and en
    /// passant included: they always succeed).
    Move(Move),
    /// Try to capture the piece on the second square with the piece on the first.
    Attempt(Square, Square),
    /// Only when nothing else is possible.
    Pass,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// The pieces of this colour are being assigned (by the other colour or chance).
    Assign(Color),
    Play,
}

/// One public event of the game, in order (what both seats saw).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Event {
    /// The pieces of `pieces` received their assignment (its value is secret).
    Assigned {
        pieces: Color,
    },
    /// A certain move by `by`.
    Moved {
        by: Color,
        mv: Move,
    },
    /// An attempt by `by` and its answer.
    Attempted {
        by: Color,
        role: Role,
        from: Square,
        to: Square,
        hit: bool,
    },
    Passed {
        by: Color,
    },
}

#[derive(Clone, Debug)]
struct Record {
    event: Event,
    phase: Phase,
    consistent: [u128; 2],
    winner: Option<Color>,
    public: u64,
    /// Board key before the action (repetition is judged on play plies only).
    board_key: u64,
    /// Whether the board took a real move (else a null move, or nothing for assignments).
    board_move: bool,
}

/// A Masquerade Chess game.
#[derive(Clone, Debug)]
pub struct Masquerade {
    board: Board,
    sources: [Source; 2],
    ply_cap: u32,
    phase: Phase,
    /// The true assignment of each colour's pieces (made by the other colour).
    given: [Option<Assignment>; 2],
    /// Per colour, the assignments of its own pieces consistent with its attempts.
    consistent: [u128; 2],
    winner: Option<Color>,
    /// A running hash of the public events (order-sensitive).
    public: u64,
    records: Vec<Record>,
}

fn mix(h: u64, x: u64) -> u64 {
    zobrist::extra(h.rotate_left(23) ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

fn set_halves(h: u64, s: u128) -> u64 {
    mix(mix(h, s as u64), (s >> 64) as u64)
}

fn event_code(e: Event) -> u64 {
    match e {
        Event::Assigned { pieces } => 1 + pieces.index() as u64,
        Event::Moved { mv, .. } => (1 << 20) | mv.code() as u64,
        Event::Attempted { from, to, hit, .. } => {
            (2 << 20) | (from.index() as u64) << 8 | (to.index() as u64) << 1 | hit as u64
        }
        Event::Passed { .. } => 3 << 20,
    }
}

impl Masquerade {
    /// A game from `board` with assignment sources per colour (`[white's pieces, black's
    /// pieces]`).
    pub fn from_board(board: Board, sources: [Source; 2], ply_cap: u32) -> Masquerade {
        let mut given = [None; 2];
        for (g, s) in given.iter_mut().zip(sources) {
            if let Source::Fixed(a) = s {
                *g = Some(a);
            }
        }
        let mut m = Masquerade {
            public: mix(board.key(), 0x6d61_7371),
            board,
            sources,
            ply_cap,
            phase: Phase::Play,
            given,
            consistent: [ALL_ASSIGNMENTS; 2],
            winner: None,
            records: Vec::new(),
        };
        m.phase = m.next_phase_from(Color::Black);
        m
    }

    fn next_phase_from(&self, pieces: Color) -> Phase {
        // Black's pieces are assigned first (by White), then White's.
        let order = [Color::Black, Color::White];
        let start = order.iter().position(|&c| c == pieces).unwrap_or(0);
        for &c in &order[start..] {
            if self.given[c.index()].is_none() {
                return Phase::Assign(c);
            }
        }
        Phase::Play
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    /// The true assignment of `color`'s pieces (made by the opponent), once made. Only
    /// the opponent (and `cheat`) may look.
    pub fn given(&self, color: Color) -> Option<Assignment> {
        self.given[color.index()]
    }

    /// The assignments of `color`'s own pieces consistent with every answer to its
    /// attempts so far (bit i = assignment index i). Public knowledge.
    pub fn consistent(&self, color: Color) -> u128 {
        self.consistent[color.index()]
    }

    /// Whether play has started (both assignments made).
    pub fn in_play(&self) -> bool {
        self.phase == Phase::Play
    }

    /// The public events so far, oldest first.
    pub fn events(&self) -> impl Iterator<Item = Event> + '_ {
        self.records.iter().map(|r| r.event)
    }

    /// Number of plies of play (moves, attempts, passes) so far.
    pub fn play_plies(&self) -> usize {
        self.board.ply()
    }

    fn actor(&self) -> Option<Color> {
        match self.phase {
            Phase::Assign(pieces) => match self.sources[pieces.index()] {
                Source::Choose => Some(pieces.other()),
                _ => None,
            },
            Phase::Play => Some(self.board.turn()),
        }
    }

    /// Every capture pattern this position allows for the attempt, as a set.
    fn attempt_targets(&self, from: Square) -> Bitboard {
        let occ = self.board.occupied();
        let them = self.board.turn().other();
        // K steps and R/B lines are all queen lines, so Q ∪ N covers all five patterns.
        (attacks::queen_attacks(from, occ) | attacks::knight_attacks(from))
            & self.board.by_color(them)
    }

    fn play_actions(&self, out: &mut Vec<MasqueradeAction>) {
        let b = &self.board;
        let us = b.turn();
        let occ = b.occupied();
        let pawns = b.pieces(us, Role::Pawn);
        let mut list = MoveList::new();
        pseudo_moves(b, &mut list, Bitboard::FULL, |_| occ, |_, _| true);
        for &m in list.iter() {
            // Non-pawn captures are attempts, never certain moves.
            if pawns.contains(m.from()) || !occ.contains(m.to()) {
                out.push(MasqueradeAction::Move(m));
            }
        }
        self.castles(out);
        for from in b.by_color(us) - pawns {
            for to in self.attempt_targets(from) {
                out.push(MasqueradeAction::Attempt(from, to));
            }
        }
        if out.is_empty() {
            out.push(MasqueradeAction::Pass);
        }
    }

    /// Castling with no attack test: empty squares and rights are all it needs.
    fn castles(&self, out: &mut Vec<MasqueradeAction>) {
        let b = &self.board;
        let us = b.turn();
        let Some(king) = b.king(us) else { return };
        let back = Bitboard::relative_rank(us, 0);
        if !back.contains(king) {
            return;
        }
        let occ = b.occupied();
        for rook in b.castling_rights() & back & b.pieces(us, Role::Rook) {
            let (kd, rd) = Board::castle_targets(us, king, rook);
            let must_be_empty = (between(king, kd).with(kd) | between(rook, rd).with(rd))
                .without(king)
                .without(rook);
            if (must_be_empty & occ).is_empty() {
                out.push(MasqueradeAction::Move(Move::new(
                    king,
                    rook,
                    MoveKind::Castle,
                )));
            }
        }
    }

    fn draw_reason(&self) -> Option<&'static str> {
        if self.phase != Phase::Play || self.winner.is_some() {
            return None;
        }
        // No insufficient-material draw (`extra_mating_power`): any piece, a bare king
        // too, may capture with a queen's pattern, and a king may walk into capture.
        common_draw(
            &self.board,
            self.board.ply(),
            self.ply_cap,
            true,
            self.board.key(),
            self.records
                .iter()
                .filter(|r| r.phase == Phase::Play)
                .map(|r| r.board_key),
        )
    }

    fn key_with(&self, seat_view: Option<Seat>) -> u64 {
        match seat_view {
            None => {
                // The truth without the path to it (like a board key): board, phase, both
                // assignments and what each side has learned.
                let phase = match self.phase {
                    Phase::Assign(c) => 1 + c.index() as u64,
                    Phase::Play => 0,
                };
                let mut k = mix(self.board.key(), phase);
                for c in 0..2 {
                    k = mix(k, self.given[c].map_or(0, |a| a.index() as u64 + 1));
                    k = set_halves(k, self.consistent[c]);
                }
                k
            }
            Some(seat) => {
                // What the seat made (the opponent's assignment) plus the public record.
                let made = self.given[1 - seat].map_or(0, |a| a.index() as u64 + 1);
                mix(
                    mix(mix(self.board.key(), self.public), made),
                    7 + seat as u64,
                )
            }
        }
    }

    fn describe_set(set: u128) -> String {
        let mut parts = Vec::new();
        for (t, letter) in LETTERS.iter().enumerate() {
            let pats = possible_patterns(set, t);
            let s: String = (0..5)
                .filter(|p| pats >> p & 1 == 1)
                .map(|p| LETTERS[p])
                .collect();
            parts.push(format!("{letter}:{{{s}}}"));
        }
        format!("{} of 120 possible; {}", set.count_ones(), parts.join(" "))
    }
}

impl Game for Masquerade {
    type Action = MasqueradeAction;
    type Params = MasqueradeParams;

    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC
            .with_hidden_information(true)
            .with_chance(self.sources.contains(&Source::Random))
    }

    /// Parameters should have passed [`MasqueradeParams::validate`] (the registry checks);
    /// invalid ones fall back to the defaults rather than panic.
    fn new(params: &MasqueradeParams) -> Masquerade {
        let sources = params.sources().unwrap_or([Source::Choose; 2]);
        Masquerade::from_board(Board::startpos(), sources, params.ply_cap)
    }

    fn from_opening(params: &MasqueradeParams, opening: &str) -> Result<Masquerade, GameError> {
        let sources = params.sources().unwrap_or([Source::Choose; 2]);
        let board = board_from_fen(opening)?;
        Ok(Masquerade::from_board(board, sources, params.ply_cap))
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.result().is_some() {
            return Turn::Terminal;
        }
        match self.actor() {
            Some(c) => Turn::Seat(c.index()),
            None => Turn::Chance,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<MasqueradeAction>) {
        out.clear();
        if self.actor().map(Color::index) != Some(seat) || self.result().is_some() {
            return;
        }
        match self.phase {
            Phase::Assign(_) => out.extend(
                (0..Assignment::COUNT).map(|i| MasqueradeAction::Assign(Assignment(i as u8))),
            ),
            Phase::Play => self.play_actions(out),
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(MasqueradeAction, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            let p = 1.0 / Assignment::COUNT as f64;
            out.extend(
                (0..Assignment::COUNT).map(|i| (MasqueradeAction::Assign(Assignment(i as u8)), p)),
            );
        }
    }

    fn apply(&mut self, action: MasqueradeAction) {
        let mover = self.board.turn();
        let mut rec = Record {
            event: Event::Passed { by: mover },
            phase: self.phase,
            consistent: self.consistent,
            winner: self.winner,
            public: self.public,
            board_key: self.board.key(),
            board_move: false,
        };
        match (self.phase, action) {
            (Phase::Assign(pieces), MasqueradeAction::Assign(a)) => {
                self.given[pieces.index()] = Some(a);
                self.phase = self.next_phase_from(pieces);
                rec.event = Event::Assigned { pieces };
            }
            (Phase::Play, MasqueradeAction::Move(m)) => {
                let captured = self.board.captured_piece(m);
                self.board.make(m);
                rec.board_move = true;
                if captured.map(|p| p.role) == Some(Role::King) {
                    self.winner = Some(mover);
                }
                rec.event = Event::Moved { by: mover, mv: m };
            }
            (Phase::Play, MasqueradeAction::Attempt(from, to)) => {
                let role = self
                    .board
                    .piece_at(from)
                    .map(|p| p.role)
                    .expect("attempt from an empty square");
                let t = type_index(role).expect("pawns never attempt");
                let occ = self.board.occupied();
                let reaching = patterns_reaching(from, to, occ);
                let truth = self.given[mover.index()]
                    .and_then(|a| a.pattern(role))
                    .expect("play starts after both assignments");
                let hit = reaching >> truth.index() & 1 == 1;
                let allowed = assignments_with(t, reaching);
                let c = &mut self.consistent[mover.index()];
                *c &= if hit {
                    allowed
                } else {
                    ALL_ASSIGNMENTS & !allowed
                };
                if hit {
                    let captured = self.board.piece_at(to);
                    self.board.make(Move::normal(from, to));
                    rec.board_move = true;
                    if captured.map(|p| p.role) == Some(Role::King) {
                        self.winner = Some(mover);
                    }
                } else {
                    self.board.make_null();
                }
                rec.event = Event::Attempted {
                    by: mover,
                    role,
                    from,
                    to,
                    hit,
                };
            }
            (Phase::Play, MasqueradeAction::Pass) => {
                self.board.make_null();
                rec.event = Event::Passed { by: mover };
            }
            (phase, a) => panic!("masquerade: {a:?} does not fit the phase {phase:?}"),
        }
        self.public = mix(self.public, event_code(rec.event));
        self.records.push(rec);
    }

    fn undo(&mut self) {
        let rec = self.records.pop().expect("undo without an action");
        match rec.event {
            Event::Assigned { pieces } => self.given[pieces.index()] = None,
            _ if rec.board_move => {
                self.board.unmake();
            }
            _ => self.board.unmake_null(),
        }
        self.phase = rec.phase;
        self.consistent = rec.consistent;
        self.winner = rec.winner;
        self.public = rec.public;
    }

    fn result(&self) -> Option<GameResult> {
        if let Some(c) = self.winner {
            return Some(GameResult {
                returns: two_seat_returns(Some(c.index())),
                reason: "royal-capture",
            });
        }
        self.draw_reason().map(|reason| GameResult {
            returns: two_seat_returns(None),
            reason,
        })
    }

    fn state_key(&self) -> u64 {
        self.key_with(None)
    }

    fn information_key(&self, seat: Seat) -> u64 {
        self.key_with(Some(seat))
    }

    fn sample_world(&self, seat: Seat, rng: &mut dyn RngCore) -> Masquerade {
        let mut w = self.clone();
        let own = seat.min(1);
        if w.given[own].is_some() {
            let set = self.consistent[own];
            let k = rng.gen_range(0..set.count_ones());
            w.given[own] = Some(nth_member(set, k));
        }
        w
    }

    fn observation(&self, seat: Seat) -> String {
        let me = Color::from_index(seat.min(1));
        let them = me.other();
        let phase = match self.phase {
            Phase::Assign(p) => format!("assigning {}'s pieces", p.name()),
            Phase::Play => format!("{} to play", self.board.turn().name()),
        };
        let made = match self.given[them.index()] {
            Some(a) => a.to_string(),
            None => "not yet".into(),
        };
        let log: Vec<String> = self
            .records
            .iter()
            .filter_map(|r| match r.event {
                Event::Attempted {
                    by, from, to, hit, ..
                } => Some(format!(
                    "{}:{from}x{to}{}",
                    &by.name()[..1],
                    if hit { "+" } else { "-" }
                )),
                _ => None,
            })
            .collect();
        format!(
            "{} | {phase} | you are {}; you assigned {}'s pieces: {made} | your pieces: {} | \
             {}'s pieces: {} | attempts: {}",
            self.board.fen(),
            me.name(),
            them.name(),
            Self::describe_set(self.consistent[me.index()]),
            them.name(),
            Self::describe_set(self.consistent[them.index()]),
            if log.is_empty() {
                "-".into()
            } else {
                log.join(" ")
            }
        )
    }

    fn action_notation(&self, action: MasqueradeAction) -> String {
        match action {
            MasqueradeAction::Assign(a) => format!("assign:{a}"),
            MasqueradeAction::Move(m) => self.board.uci(m),
            MasqueradeAction::Attempt(from, to) => format!("{from}x{to}?"),
            MasqueradeAction::Pass => "pass".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<MasqueradeAction, GameError> {
        let err = |m: &str| GameError::Action {
            action: text.into(),
            message: m.into(),
        };
        let t = text.trim();
        if let Some(rest) = t.strip_prefix("assign:") {
            if !matches!(self.phase, Phase::Assign(_)) {
                return Err(err("no assignment is due now"));
            }
            return Assignment::parse(rest)
                .map(MasqueradeAction::Assign)
                .map_err(|m| err(&m));
        }
        if matches!(self.phase, Phase::Assign(_)) {
            return Err(err("an assignment ('assign:KQ,QN,RB,NR,BK') is due now"));
        }
        if self.result().is_some() {
            return Err(err("the game is over"));
        }
        let mut legal = Vec::new();
        self.play_actions(&mut legal);
        let wanted = if t == "pass" {
            Some(MasqueradeAction::Pass)
        } else if let Some(body) = t.strip_suffix('?') {
            // `b1xc3?`, `b1c3?` or `Nb1xc3?`.
            let body = body.trim_start_matches(|c: char| "KQRBN".contains(c));
            let squares = body.replace('x', "");
            let from = squares.get(0..2).and_then(Square::parse);
            let to = squares.get(2..).and_then(Square::parse);
            match (from, to) {
                (Some(f), Some(to)) => Some(MasqueradeAction::Attempt(f, to)),
                _ => return Err(err("expected an attempt like 'b1xc3?'")),
            }
        } else {
            legal
                .iter()
                .copied()
                .find(|&a| matches!(a, MasqueradeAction::Move(_)) && self.action_notation(a) == t)
        };
        match wanted {
            Some(a) if legal.contains(&a) => Ok(a),
            _ => Err(err(
                "not a legal action here (UCI move 'e2e4', attempt 'b1xc3?', or 'pass')",
            )),
        }
    }

    fn history_len(&self) -> usize {
        self.records.len()
    }

    /// Orthodox material: values are what the pieces move like, and the secret patterns
    /// are a permutation, so the side with more pieces still has more capture power.
    fn material(&self, seat: Seat) -> f64 {
        material_balance(&self.board, Color::from_index(seat.min(1)))
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// Per game: `white_assigned` / `black_assigned` (index 0..119 of the assignment that
    /// side gave the opponent's pieces, -1 if none; labelled in its text form),
    /// `{side}_gave_king` / `{side}_gave_queen` (the pattern index, K Q R B N = 0..4, that
    /// side gave the opponent's king and queen, once assigned), `{side}_attempts`,
    /// `{side}_failed_attempts`, `{side}_knows` (1 if that side's consistent set came down
    /// to one assignment, else 0), `{side}_knows_at_ply` (the play ply, counted from 1,
    /// after which it first did; left out when it never did, so reports average it over
    /// the games where it happened),
    /// `{side}_consistent` (final set size), `{side}_known_types` (piece types whose
    /// pattern the side has pinned down at the end).
    fn tallies(&self) -> Vec<(String, f64)> {
        let mut attempts = [0u32; 2];
        let mut failed = [0u32; 2];
        let mut knows_at = [-1.0f64; 2];
        let mut play_ply = 0u32;
        for (i, r) in self.records.iter().enumerate() {
            if r.phase == Phase::Play {
                play_ply += 1;
            }
            if let Event::Attempted { by, hit, .. } = r.event {
                attempts[by.index()] += 1;
                failed[by.index()] += u32::from(!hit);
            }
            let after = self
                .records
                .get(i + 1)
                .map_or(self.consistent, |n| n.consistent);
            for c in 0..2 {
                if knows_at[c] < 0.0 && after[c].count_ones() == 1 {
                    knows_at[c] = play_ply as f64;
                }
            }
        }
        let mut out = Vec::new();
        // White assigns Black's pieces and vice versa.
        let assigned = |c: usize| self.given[1 - c].map_or(-1.0, |a| a.index() as f64);
        for (c, side) in ["white", "black"].iter().enumerate() {
            let set = self.consistent[c];
            let known = (0..5)
                .filter(|&t| possible_patterns(set, t).count_ones() == 1)
                .count();
            out.push((format!("{side}_assigned"), assigned(c)));
            // The two choices the seed's strategy notes weigh most: what the opponent's
            // king and queen capture like.
            if let Some(a) = self.given[1 - c] {
                for (role, name) in [(Role::King, "king"), (Role::Queen, "queen")] {
                    let pat = a.pattern(role).expect("not a pawn");
                    out.push((format!("{side}_gave_{name}"), pat.index() as f64));
                }
            }
            out.push((format!("{side}_attempts"), attempts[c] as f64));
            out.push((format!("{side}_failed_attempts"), failed[c] as f64));
            out.push((format!("{side}_knows"), f64::from(knows_at[c] >= 0.0)));
            if knows_at[c] >= 0.0 {
                out.push((format!("{side}_knows_at_ply"), knows_at[c]));
            }
            out.push((format!("{side}_consistent"), set.count_ones() as f64));
            out.push((format!("{side}_known_types"), known as f64));
        }
        out
    }

    fn tally_label(&self, name: &str, value: f64) -> Option<String> {
        if name.ends_with("_assigned") {
            return Some(if value < 0.0 {
                "none".into()
            } else {
                Assignment::from_index(value as usize)?.to_string()
            });
        }
        if name.ends_with("_gave_king") || name.ends_with("_gave_queen") {
            let p = Pattern::ALL.get(value as usize)?;
            return Some(format!("captures like {}", p.letter()));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{conformance, replay};
    use crate::registry;
    use std::collections::BTreeSet;

    const ORTHO: &str = "KK,QQ,RR,BB,NN";

    /// A game from `fen` with both assignments fixed: `white_assigns` governs Black's
    /// pieces, `black_assigns` White's.
    fn pos(fen: &str, white_assigns: &str, black_assigns: &str) -> Masquerade {
        let params = MasqueradeParams {
            white_assigns: Some(white_assigns.into()),
            black_assigns: Some(black_assigns.into()),
            ..Default::default()
        };
        Masquerade::from_opening(&params, fen).unwrap()
    }

    #[test]
    fn tally_labels_name_assignments_and_patterns() {
        let g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1", "KQ,QN,RB,NR,BK", ORTHO);
        let t: std::collections::HashMap<String, f64> = g.tallies().into_iter().collect();
        let label = |n: &str| g.tally_label(n, t[n]).unwrap();
        assert_eq!(label("white_assigned"), "KQ,QN,RB,BK,NR");
        assert_eq!(label("black_assigned"), ORTHO);
        assert_eq!(label("white_gave_king"), "captures like Q");
        assert_eq!(label("white_gave_queen"), "captures like N");
        assert_eq!(label("black_gave_queen"), "captures like Q");
        assert_eq!(g.tally_label("white_assigned", -1.0).unwrap(), "none");
        assert_eq!(g.tally_label("white_attempts", 3.0), None);
    }

    fn actions(g: &Masquerade) -> BTreeSet<String> {
        let mut v = Vec::new();
        if let Turn::Seat(s) = g.turn() {
            g.legal_actions(s, &mut v);
        }
        v.into_iter().map(|a| g.action_notation(a)).collect()
    }

    fn attempts(g: &Masquerade) -> BTreeSet<String> {
        actions(g)
            .into_iter()
            .filter(|a| a.ends_with('?'))
            .collect()
    }

    fn set(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn masquerade_conforms_to_the_game_api_in_every_assignment_mode() {
        let choose = Masquerade::new(&MasqueradeParams::default());
        conformance::check(&choose, 4, 1);
        let random = Masquerade::new(&MasqueradeParams {
            assignment: "random".into(),
            ..Default::default()
        });
        conformance::check(&random, 4, 2);
        let fixed = Masquerade::new(&MasqueradeParams {
            white_assigns: Some("KQ,QN,RB,NR,BK".into()),
            black_assigns: Some("KN,QB,RR,BQ,NK".into()),
            ..Default::default()
        });
        conformance::check(&fixed, 4, 3);
        let half = Masquerade::new(&MasqueradeParams {
            assignment: "random".into(),
            white_assigns: Some("KQ,QN,RB,NR,BK".into()),
            ..Default::default()
        });
        conformance::check(&half, 2, 4);
    }

    #[test]
    fn rule_assignment_is_a_permutation() {
        let mut seen = BTreeSet::new();
        for i in 0..Assignment::COUNT {
            let a = Assignment::from_index(i).unwrap();
            let mut pats: Vec<usize> = a.patterns().iter().map(|p| p.index()).collect();
            pats.sort();
            assert_eq!(pats, vec![0, 1, 2, 3, 4], "{a}");
            assert_eq!(Assignment::parse(&a.to_string()), Ok(a));
            assert_eq!(Assignment::parse(&i.to_string()), Ok(a));
            assert!(seen.insert(a.to_string()));
            if i > 0 {
                let prev = Assignment::from_index(i - 1).unwrap().patterns();
                let key = |p: [Pattern; 5]| p.map(|x| x.index());
                assert!(key(prev) < key(a.patterns()), "lexicographic order");
            }
        }
        assert_eq!(Assignment::from_index(120), None);
        assert_eq!(Assignment::ORTHODOX.to_string(), ORTHO);
        assert_eq!(
            Assignment::from_index(119).unwrap().to_string(),
            "KN,QB,RR,BQ,NK"
        );
        // The seed's example, in its own order and spacing.
        let seed = Assignment::parse("KQ, QN, RB, NR, BK").unwrap();
        assert_eq!(seed.to_string(), "KQ,QN,RB,BK,NR");
        assert_eq!(seed.pattern(Role::King), Some(Pattern::Queen));
        assert_eq!(seed.pattern(Role::Queen), Some(Pattern::Knight));
        assert_eq!(seed.pattern(Role::Knight), Some(Pattern::Rook));
        assert_eq!(seed.pattern(Role::Pawn), None);
        for bad in [
            "KQ,QQ,RB,NR,BK",
            "KQ,KN,RB,NR,BK",
            "KQ,QN,RB,NR",
            "KQ,QN,RB,NR,BK,KK",
            "KX,QN,RB,NR,BK",
            "KQQ,QN,RB,NR,BK",
            "",
            "120",
        ] {
            assert!(Assignment::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rule_bad_parameters_are_errors() {
        let bad = MasqueradeParams {
            white_assigns: Some("KQ,QQ,RR,BB,NN".into()),
            ..Default::default()
        };
        assert!(bad.validate().is_err());
        let bad = MasqueradeParams {
            assignment: "sometimes".into(),
            ..Default::default()
        };
        assert!(bad.validate().is_err());
        assert!(MasqueradeParams::default().validate().is_ok());
        struct Build;
        impl registry::VariantVisitor for Build {
            type Output = usize;
            fn visit<G: Game>(self, _: &'static str, p: G::Params) -> usize {
                G::new(&p).num_seats()
            }
        }
        assert!(registry::visit("masquerade", Some("black_assigns = \"KK,QQ\""), Build).is_err());
        assert!(registry::visit("masquerade", Some("colour = 1"), Build).is_err());
        assert_eq!(
            registry::visit("masquerade", Some("assignment = \"random\""), Build),
            Ok(2)
        );
    }

    #[test]
    fn rule_white_assigns_black_then_black_assigns_white() {
        let g = Masquerade::new(&MasqueradeParams::default());
        assert_eq!(g.turn(), Turn::Seat(0));
        assert_eq!(actions(&g).len(), 120);
        let g = replay(g, &["assign:KQ,QN,RB,NR,BK"]).unwrap();
        assert_eq!(g.given(Color::Black).unwrap().to_string(), "KQ,QN,RB,BK,NR");
        assert_eq!(g.given(Color::White), None);
        assert_eq!(g.turn(), Turn::Seat(1));
        assert_eq!(actions(&g).len(), 120);
        let g = replay(g, &["assign:7"]).unwrap();
        assert_eq!(g.given(Color::White), Assignment::from_index(7));
        assert!(g.in_play());
        assert_eq!(g.turn(), Turn::Seat(0));
        assert_eq!(actions(&g).len(), 20);
        assert_eq!(g.play_plies(), 0);
    }

    #[test]
    fn rule_random_assignment_is_a_uniform_chance_node() {
        let g = Masquerade::new(&MasqueradeParams {
            assignment: "random".into(),
            ..Default::default()
        });
        assert_eq!(g.turn(), Turn::Chance);
        let mut out = Vec::new();
        g.chance_outcomes(&mut out);
        assert_eq!(out.len(), 120);
        assert!(out.iter().all(|&(_, p)| (p - 1.0 / 120.0).abs() < 1e-12));
        let g = replay(g, &["assign:3", "assign:99"]).unwrap();
        assert_eq!(g.given(Color::Black), Assignment::from_index(3));
        assert_eq!(g.given(Color::White), Assignment::from_index(99));
        assert_eq!(g.turn(), Turn::Seat(0));
    }

    #[test]
    fn rule_fixed_assignment_skips_its_step() {
        let g = Masquerade::new(&MasqueradeParams {
            white_assigns: Some("KQ,QN,RB,NR,BK".into()),
            ..Default::default()
        });
        assert_eq!(g.turn(), Turn::Seat(1), "black assigns white's pieces next");
        let g = replay(g, &["assign:0"]).unwrap();
        assert!(g.in_play());
        let g = pos(&Board::startpos().fen(), ORTHO, ORTHO);
        assert!(g.in_play());
    }

    #[test]
    fn rule_non_captures_are_orthodox_castling_included() {
        let fen = "r3k2r/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R3K2R w KQkq - 0 1";
        let g = pos(fen, ORTHO, ORTHO);
        let b = Board::from_fen(fen).unwrap();
        let orthodox: BTreeSet<String> = b
            .legal_moves()
            .iter()
            .filter(|m| b.captured_piece(**m).is_none())
            .map(|&m| b.uci(m))
            .collect();
        let ours: BTreeSet<String> = actions(&g)
            .into_iter()
            .filter(|a| !a.ends_with('?'))
            .collect();
        assert_eq!(ours, orthodox);
        assert!(ours.contains("e1g1") && ours.contains("e1c1"));
        let start = pos(&Board::startpos().fen(), ORTHO, ORTHO);
        assert_eq!(actions(&start).len(), 20, "no attempts at the start");
    }

    #[test]
    fn rule_pawn_captures_are_orthodox_and_certain() {
        // White's pieces all capture oddly; the pawn still takes as a pawn.
        let g = pos("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", ORTHO, "KN,QB,RR,BQ,NK");
        let acts = actions(&g);
        assert!(acts.contains("e4d5"));
        assert!(!acts.iter().any(|a| a.starts_with("e4") && a.ends_with('?')));
        let g = replay(g, &["e4d5"]).unwrap();
        assert_eq!(
            g.board_ref().piece_at(sq("d5")).map(|p| p.role),
            Some(Role::Pawn)
        );
        assert_eq!(g.consistent(Color::White), ALL_ASSIGNMENTS);
    }

    #[test]
    fn rule_pawns_capture_en_passant() {
        let g = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", ORTHO, "KN,QB,RR,BQ,NK");
        let g = replay(g, &["d7d5"]).unwrap();
        let mut v = Vec::new();
        g.legal_actions(0, &mut v);
        assert!(v.iter().any(|a| matches!(a,
            MasqueradeAction::Move(m) if m.kind() == MoveKind::EnPassant)));
        let g = replay(g, &["e5d6"]).unwrap();
        assert_eq!(g.board_ref().piece_at(sq("d5")), None);
        assert_eq!(
            g.board_ref().piece_at(sq("d6")).map(|p| p.role),
            Some(Role::Pawn)
        );
    }

    #[test]
    fn rule_promoted_piece_uses_its_new_types_pattern() {
        let fen = "4k3/1P6/2n5/8/8/8/8/4K3 w - - 0 1";
        // White's queens capture like knights.
        let g = pos(fen, ORTHO, "KK,QN,RR,BB,NQ");
        let g = replay(g, &["b7b8q", "e8f7", "b8xc6?"]).unwrap();
        assert_eq!(
            g.board_ref().piece_at(sq("c6")).map(|p| p.role),
            Some(Role::Queen),
            "knight pattern: the jump b8-c6 succeeds"
        );
        // With orthodox queens the same jump fails.
        let g = pos(fen, ORTHO, ORTHO);
        let g = replay(g, &["b7b8q", "e8f7", "b8xc6?"]).unwrap();
        assert_eq!(
            g.board_ref().piece_at(sq("b8")).map(|p| p.role),
            Some(Role::Queen)
        );
        assert_eq!(
            g.board_ref().piece_at(sq("c6")).map(|p| p.role),
            Some(Role::Knight)
        );
    }

    #[test]
    fn rule_successful_attempt_captures() {
        let g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1", ORTHO, ORTHO);
        let g = replay(g, &["a1xa5?"]).unwrap();
        assert_eq!(
            g.board_ref().piece_at(sq("a5")).map(|p| p.role),
            Some(Role::Rook)
        );
        assert_eq!(g.board_ref().piece_at(sq("a1")), None);
        assert_eq!(g.turn(), Turn::Seat(1));
        // The rook captures along a line: Q or R.
        assert_eq!(g.consistent(Color::White).count_ones(), 48);
        assert_eq!(g.board_ref().halfmoves(), 0);
    }

    #[test]
    fn rule_failed_attempt_moves_nothing_and_ends_the_turn() {
        // White's rooks capture like bishops.
        let g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1", ORTHO, "KK,QQ,RB,BR,NN");
        let before = g.board_ref().clone();
        let g = replay(g, &["a1xa5?"]).unwrap();
        assert_eq!(g.turn(), Turn::Seat(1), "the turn is over");
        assert_eq!(g.board_ref().occupied(), before.occupied());
        assert_eq!(
            g.board_ref().fen().split(' ').next(),
            before.fen().split(' ').next()
        );
        assert_eq!(
            g.consistent(Color::White).count_ones(),
            72,
            "rook is K, B or N"
        );
        assert_eq!(
            g.events().last(),
            Some(Event::Attempted {
                by: Color::White,
                role: Role::Rook,
                from: sq("a1"),
                to: sq("a5"),
                hit: false
            })
        );
    }

    #[test]
    fn rule_offered_attempts_are_the_union_of_patterns_with_a_clear_path() {
        let g = pos("4k3/8/8/n7/1p1p4/1p6/p1p5/R3K3 w - - 0 1", ORTHO, ORTHO);
        assert_eq!(
            attempts(&g),
            set(&["a1xa2?", "a1xb3?", "a1xc2?", "a1xd4?", "e1xc2?", "e1xe8?", "e1xb4?"])
        );
        // Own pieces are never targets; pawns never attempt.
        let g = pos("4k3/8/8/8/8/8/3pP3/R2NK3 w - - 0 1", ORTHO, ORTHO);
        assert_eq!(attempts(&g), set(&["d1xd2?", "e1xd2?"]));
    }

    #[test]
    fn rule_no_check_king_may_move_into_attack_and_ignore_it() {
        let g = pos("4k3/4r3/8/8/8/8/P7/4K3 w - - 0 1", ORTHO, ORTHO);
        let acts = actions(&g);
        assert!(acts.contains("e1e2"), "into the rook's file");
        assert!(acts.contains("a2a3"), "ignoring the attack on the king");
        let g = replay(g, &["a2a3"]).unwrap();
        assert!(g.result().is_none());
    }

    #[test]
    fn rule_king_may_castle_out_of_through_and_into_attack() {
        for fen in [
            "4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1",
            "4k3/8/8/5r2/8/8/8/R3K2R w KQ - 0 1",
            "4k3/8/8/6r1/8/8/8/R3K2R w KQ - 0 1",
        ] {
            let g = pos(fen, ORTHO, ORTHO);
            let acts = actions(&g);
            assert!(acts.contains("e1g1") && acts.contains("e1c1"), "{fen}");
        }
        let g = pos("4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1", ORTHO, ORTHO);
        let g = replay(g, &["e1g1"]).unwrap();
        assert_eq!(
            g.board_ref().piece_at(sq("g1")).map(|p| p.role),
            Some(Role::King)
        );
        assert_eq!(
            g.board_ref().piece_at(sq("f1")).map(|p| p.role),
            Some(Role::Rook)
        );
        // Castling still needs empty squares between.
        let g = pos("4k3/8/8/8/8/8/8/R2QK1NR w KQ - 0 1", ORTHO, ORTHO);
        let acts = actions(&g);
        assert!(!acts.contains("e1g1") && !acts.contains("e1c1"));
    }

    #[test]
    fn rule_capturing_the_king_wins() {
        let g = pos("3k4/8/8/8/8/8/8/3QK3 w - - 0 1", ORTHO, ORTHO);
        let g = replay(g, &["d1xd8?"]).unwrap();
        let r = g.result().unwrap();
        assert_eq!(
            (r.reason, r.returns[0], r.returns[1]),
            ("royal-capture", 1.0, -1.0)
        );
        assert_eq!(g.turn(), Turn::Terminal);
        assert!(actions(&g).is_empty());
        // A failed try on the king changes nothing.
        let g = pos("3k4/8/8/8/8/8/8/3QK3 w - - 0 1", ORTHO, "KK,QN,RR,BB,NQ");
        let g = replay(g, &["d1xd8?"]).unwrap();
        assert!(g.result().is_none());
        // A pawn takes the king for certain.
        let g = pos("8/8/8/8/8/3k4/4P3/4K3 w - - 0 1", ORTHO, "KN,QB,RR,BQ,NK");
        let g = replay(g, &["e2d3"]).unwrap();
        assert_eq!(g.result().unwrap().returns[0], 1.0);
    }

    #[test]
    fn rule_no_stalemate_between_kings_a_king_may_take_the_king() {
        let g = pos("8/p7/8/8/8/3k4/7P/4K3 w - - 0 1", ORTHO, ORTHO);
        let g = replay(g, &["e1e2"]).unwrap();
        assert!(attempts(&g).contains("d3xe2?"));
        let g = replay(g, &["d3xe2?"]).unwrap();
        let r = g.result().unwrap();
        assert_eq!((r.reason, r.returns[1]), ("royal-capture", 1.0));
    }

    #[test]
    fn rule_both_players_learn_the_answer() {
        let fen = "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1";
        let hit = replay(pos(fen, ORTHO, "KK,QQ,RR,BB,NN"), &["a1xa5?"]).unwrap();
        let miss = replay(pos(fen, ORTHO, "KK,QQ,RB,BR,NN"), &["a1xa5?"]).unwrap();
        for seat in 0..2 {
            assert_ne!(hit.information_key(seat), miss.information_key(seat));
        }
        for seat in 0..2 {
            assert!(miss.observation(seat).contains("w:a1xa5-"));
            assert!(miss
                .observation(seat)
                .contains("72 of 120 possible; K:{KQRBN} Q:{KQRBN} R:{KBN}"));
            assert!(hit.observation(seat).contains("w:a1xa5+"));
        }
    }

    #[test]
    fn rule_a_seat_knows_the_assignment_it_made_never_its_own() {
        // Two games that differ only in White's (secret) assignment.
        let fen = "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1";
        let a = pos(fen, ORTHO, "KK,QQ,RR,BN,NB");
        let b = pos(fen, ORTHO, "KN,QQ,RR,BB,NK");
        assert_eq!(a.information_key(0), b.information_key(0));
        assert_eq!(a.observation(0), b.observation(0));
        assert_ne!(a.information_key(1), b.information_key(1));
        assert_ne!(a.state_key(), b.state_key());
        // Choosing: the seat whose pieces are assigned does not see the choice.
        let g = Masquerade::new(&MasqueradeParams::default());
        let x = replay(g.clone(), &["assign:5"]).unwrap();
        let y = replay(g, &["assign:77"]).unwrap();
        assert_eq!(x.information_key(1), y.information_key(1));
        assert_eq!(x.observation(1), y.observation(1));
        assert_ne!(x.information_key(0), y.information_key(0));
        assert!(x
            .observation(0)
            .contains(&Assignment::from_index(5).unwrap().to_string()));
        assert!(!x.is_perfect_information());
    }

    #[test]
    fn rule_a_random_draw_is_seen_by_the_assigner_only() {
        let g = Masquerade::new(&MasqueradeParams {
            assignment: "random".into(),
            ..Default::default()
        });
        let x = replay(g.clone(), &["assign:5"]).unwrap();
        let y = replay(g, &["assign:77"]).unwrap();
        assert_eq!(x.information_key(1), y.information_key(1));
        assert_ne!(x.information_key(0), y.information_key(0));
    }

    #[test]
    fn openings_may_leave_a_king_en_prise() {
        let params = MasqueradeParams::default();
        let g = Masquerade::from_opening(&params, "3k4/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert_eq!(g.board_ref().fen(), "3k4/8/8/8/8/8/8/3QK3 w - - 0 1");
        let g = Masquerade::from_opening(&params, "r3k3/8/8/8/B7/8/8/R3K3 w Qq - 3 9").unwrap();
        assert_eq!(g.board_ref().fen(), "r3k3/8/8/8/B7/8/8/R3K3 w Qq - 3 9");
        for bad in [
            "8/8/8/8/8/8/3KK3/8 w - - 0 1",
            "nonsense",
            "8/8/8/8/8/8/8/8 w - - 0 1",
        ] {
            assert!(matches!(
                Masquerade::from_opening(&params, bad),
                Err(GameError::Opening { .. })
            ));
        }
    }

    #[test]
    fn rule_a_side_without_any_action_passes() {
        let g = pos("RQBKBRRQ/PPPPPPPP/8/8/8/8/8/k7 w - - 0 1", ORTHO, ORTHO);
        assert_eq!(actions(&g), set(&["pass"]));
        let before = g.board_ref().occupied();
        let g = replay(g, &["pass"]).unwrap();
        assert_eq!(g.board_ref().occupied(), before);
        assert_eq!(g.turn(), Turn::Seat(1));
        assert_eq!(g.board_ref().halfmoves(), 1);
        assert!(g.parse_action("pass").is_err(), "black has moves");
    }

    #[test]
    fn rule_failed_attempts_count_for_fifty_moves_and_repetition() {
        // Each side's piece on the a-file captures like a bishop: every try fails.
        let g = pos(
            "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1",
            "KK,QQ,RR,BN,NB",
            "KK,QQ,RB,BR,NN",
        );
        let g = replay(g, &["a1xa5?", "a5xa1?", "a1xa5?"]).unwrap();
        assert_eq!(g.board_ref().halfmoves(), 3);
        assert!(g.result().is_none());
        let g = replay(g, &["a5xa1?"]).unwrap();
        assert_eq!(g.result().unwrap().reason, "repetition");
        let mut fifty = pos(
            "4k3/8/8/n7/8/8/8/R3K3 w - - 99 60",
            "KK,QQ,RR,BN,NB",
            "KK,QQ,RB,BR,NN",
        );
        fifty.apply(fifty.parse_action("a1xa5?").unwrap());
        assert_eq!(fifty.result().unwrap().reason, "fifty-moves");
    }

    #[test]
    fn rule_failed_attempt_lets_en_passant_lapse() {
        let g = pos(
            "4k3/3p4/8/n3P3/8/8/8/R3K3 b - - 0 1",
            ORTHO,
            "KK,QQ,RB,BR,NN",
        );
        let g = replay(g, &["d7d5", "a1xa5?", "e8e7"]).unwrap();
        assert!(!actions(&g).contains("e5d6"));
    }

    #[test]
    fn rule_no_insufficient_material_draw() {
        // Bare kings play on: with the queen's pattern the e1 king takes e8 at once.
        let g = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1", ORTHO, "KQ,QK,RR,BB,NN");
        assert!(g.result().is_none());
        assert!(actions(&g).contains("e1xe8?"));
        let g = replay(g, &["e1xe8?"]).unwrap();
        assert_eq!(g.result().unwrap().reason, "royal-capture");
        // King and minor against king play on too.
        let g = pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1", ORTHO, ORTHO);
        assert!(g.result().is_none());
        // The 50-move rule still ends bare kings.
        let g = pos("4k3/8/8/8/8/8/8/4K3 w - - 99 60", ORTHO, ORTHO);
        let g = replay(g, &["e1d1"]).unwrap();
        assert_eq!(g.result().unwrap().reason, "fifty-moves");
    }

    #[test]
    fn rule_touching_kings_load_from_fen() {
        // Issue 11: reachable in play (the white king stepped next to the black one).
        let fen = "8/p7/8/8/8/3k4/4K3/8 b - - 1 1";
        let g = pos(fen, ORTHO, ORTHO);
        assert_eq!(g.board.fen(), fen);
        // Black's king may try to take the white king next door.
        assert!(actions(&g).contains("d3xe2?"));
        // Two kings of one colour are still refused.
        assert!(Masquerade::from_opening(
            &MasqueradeParams::default(),
            "8/8/8/8/8/3K4/4K3/8 b - - 0 1"
        )
        .is_err());
    }

    #[test]
    fn rule_ply_cap_counts_play_plies_only() {
        let g = Masquerade::new(&MasqueradeParams {
            ply_cap: 2,
            ..Default::default()
        });
        let g = replay(g, &["assign:0", "assign:0", "e2e4"]).unwrap();
        assert!(g.result().is_none());
        let g = replay(g, &["e7e5"]).unwrap();
        assert_eq!(g.result().unwrap().reason, "cap");
        assert_eq!(g.turn(), Turn::Terminal);
    }

    #[test]
    fn notation_round_trips_and_bad_input_is_an_error() {
        let g = Masquerade::new(&MasqueradeParams::default());
        for bad in [
            "e2e4",
            "assign:KQ",
            "assign:KK,QQ,RR,BB,BB",
            "pass",
            "",
            "xx?",
        ] {
            assert!(g.parse_action(bad).is_err(), "{bad}");
        }
        let g = pos("4k3/8/8/n7/1p1p4/1p6/p1p5/R3K3 w - - 0 1", ORTHO, ORTHO);
        assert_eq!(
            g.parse_action("Ra1xb3?"),
            Ok(MasqueradeAction::Attempt(sq("a1"), sq("b3")))
        );
        assert_eq!(g.parse_action("a1b3?"), g.parse_action("a1xb3?"));
        for bad in [
            "a1xb4?", "a1a5", "assign:0", "e1e3", "a1xh9?", "é?", "?", "a1x",
        ] {
            assert!(g.parse_action(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn tallies_follow_the_history_and_undo() {
        let fen = "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1";
        let mut g = pos(fen, "KK,QQ,RR,BN,NB", "KK,QQ,RB,BR,NN");
        let get =
            |g: &Masquerade, k: &str| g.tallies().into_iter().find(|(n, _)| n == k).unwrap().1;
        assert_eq!(
            get(&g, "white_assigned"),
            Assignment::parse("KK,QQ,RR,BN,NB").unwrap().index() as f64
        );
        g.apply(g.parse_action("a1xa5?").unwrap());
        g.apply(g.parse_action("e8e7").unwrap());
        assert_eq!(get(&g, "white_attempts"), 1.0);
        assert_eq!(get(&g, "white_failed_attempts"), 1.0);
        assert_eq!(get(&g, "black_attempts"), 0.0);
        assert_eq!(get(&g, "white_knows"), 0.0);
        assert!(!g.tallies().iter().any(|(n, _)| n == "white_knows_at_ply"));
        assert_eq!(get(&g, "white_consistent"), 72.0);
        g.undo();
        g.undo();
        assert_eq!(get(&g, "white_attempts"), 0.0);
        assert_eq!(get(&g, "white_consistent"), 120.0);
    }

    #[test]
    fn knows_at_ply_is_the_first_play_ply_with_one_candidate() {
        // Real play needs many informative attempts to get there (the property tests in
        // tests/masquerade_info.rs check it on playouts); here the set is planted.
        let mut g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1", ORTHO, ORTHO);
        g.apply(g.parse_action("e1d1").unwrap());
        g.apply(g.parse_action("e8d8").unwrap());
        g.records[1].consistent[0] = Assignment::ORTHODOX.bit();
        let t = g.tallies();
        let v = t.iter().find(|(n, _)| n == "white_knows_at_ply").unwrap().1;
        assert_eq!(v, 1.0);
        let knows = t.iter().find(|(n, _)| n == "white_knows").unwrap().1;
        assert_eq!(knows, 1.0);
    }
}
