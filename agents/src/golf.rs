//! Chess Golf optimal solver: proves par (the minimum number of moves that solves a
//! problem, every move counting) for the rules of `engine::variants::golf`.
//!
//! # Method
//!
//! Iterative-deepening A* (IDA*) over the Golf state graph (a state is the board plus the
//! `taking` square; `taken` follows from the board within one problem), with
//!
//! * a transposition table ([`Table`]) keyed by the state's 128-bit Zobrist key (120 bits
//!   kept; a false match, about one chance in 2^100 for a search of 10^6 states, is
//!   treated as impossible) that stores, for every state fully searched with `r` moves to
//!   spare, the proven lower bound on its distance to a solved state (at least `r + 1`,
//!   often more); the table survives across iterations, so each iteration starts from
//!   everything learned before. It holds 16 bytes a state and stops adding states at its
//!   memory limit (256 MB by default), which only costs re-search;
//! * an admissible lower bound [`lower_bound`] (below), recomputed at every node;
//! * a captures-only search when every remaining move must be a capture (`r` moves to
//!   spare, `r` captures missing): it first asks whether any legal capture exists
//!   ([`has_capture`], without generating every move) and then tries only captures; with
//!   one move to spare this is the whole last ply;
//! * an enabling-move filter (`Relevance`, below) with one move to spare beyond the captures
//!   needed and no capture available: the next move must make a capture available, and
//!   only moves of capturers and victims, moves leaving a square between them and moves
//!   arriving next to a capturer can (the argument is on `Relevance`).
//!
//! Every value the search returns for a state is a proven lower bound on its distance
//! (by induction: a leaf returns the admissible bound, an inner node the minimum over its
//! children of `1 +` theirs, a child skipped by a filter counting with the bound the
//! filter proves for it), so the table never prunes an optimal line, with or without
//! cycles in the graph. When an iteration with bound `B` fails, the minimum over the cut
//! frontier is a proven bound for the root and becomes the next `B`; the first solution
//! found has exactly `B` moves and is optimal (every node at depth `g` then has distance at
//! least `B - g`, which is also why the filters may assume no shorter solution exists).
//!
//! Impossibility: a state with no moves, or whose children are all dead, is dead (infinite
//! bound); an iteration that ends with an infinite bound for the root has exhausted the
//! reachable states. Reachable sets with cycles never prove dead that way, so when an
//! iteration adds no state to the table (every reachable state is then within the bound)
//! a plain breadth-first closure ([`bfs`]) runs: if it exhausts the reachable states
//! without reaching a solved one, the answer is [`Outcome::Impossible`]. Before any search,
//! [`missing_piece`] answers impossible when a kind is owed more times than it has pieces
//! on the board. A node or time limit, or the caller's stop flag
//! ([`SolveLimits::stop`], Ctrl-C), stops the search with [`Outcome::ParAbove`]`(n)`, `n`
//! being what was proven (par is larger than `n`), never with a guess.
//!
//! Counting: with [`SolveLimits::count_solutions`], a second pass at the proven par counts
//! every distinct sequence of par moves whose only solved state is the last (memoised by
//! state and moves to spare, pruned by the same bounds and filters).
//!
//! # The lower bound
//!
//! Let `owed` be the number of chosen pieces still owed (sum of chosen minus taken); the
//! problem needs `R = owed - 1` more captures, each one a move, so `h >= R`. For the *next*
//! capture, consider every pair (capturer `a`, victim `b`) the capture rules allow now
//! (only captures change which pieces are on the board, so these are the only pairs that
//! can make the next capture, at whatever squares they will stand):
//!
//! * if a legal capture exists now, the next capture may cost 1 move: `h = R`;
//! * otherwise the next capture costs at least 2 moves: `h = R + 1`;
//! * it costs at least 3 when no pair can meet in two moves. A two-move solution is
//!   `m1, m2` with `m2` the capture `a x b`, made by a borrowed move (whose kind is lent
//!   by a same-colour neighbour of `a`'s square and whose geometry joins the two squares)
//!   or by a king step (adjacent squares). Blockers are ignored throughout, so each test
//!   below only errs towards allowing. Either
//!   - `m1` moved neither piece: `a` and `b` are aligned now (common rank, file, diagonal
//!     or knight jump), and after `m1` the lender is a neighbour of `a` other than `b`,
//!     so it is already there or `m1` brought it: adjacent squares, or a current
//!     neighbour of a joining kind, or a legal move of a same-colour piece of a joining
//!     kind (neither `a` nor `b`) to a square next to `a`;
//!   - `m1` moved `a`: a legal move of `a` to a square from which a king step or a kind
//!     lent by a neighbour (today's pieces minus `a`) joins it to `b`'s square;
//!   - `m1` moved `b`: a legal move of `b` to a square joined to `a`'s square by a king
//!     step or a kind lent by a neighbour of `a` (today's pieces minus `b`; `b` itself
//!     lends only when it lands next to `a`, the king-step case).
//!
//!   If no pair passes any of these tests, `h = R + 2`.
//! * if no pair exists at all, no capture can ever happen: the bound is infinite.
//!
//! The bound is tested against plain breadth-first search on random deals
//! (`agents/tests/golf_solver.rs`).

use engine::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use engine::variants::golf::{GolfMove, GolfParams, GolfPosition, KingStep, MoveTargets};
use engine::Bitboard;
use engine::Role;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// An infinite lower bound: no solution is reachable.
pub const INF: u32 = u32::MAX;

// ---------------------------------------------------------------------------------------
// Rule helpers
// ---------------------------------------------------------------------------------------

/// A kind owed more times than it has pieces on the board: (kind, owed, on the board).
/// Such a problem is impossible, whatever the moves: pieces are never added, every owed
/// piece but the last must be captured, and the last is the capturer itself, whose kind
/// stays owed once while it captures (a piece captures its own kind only when that kind
/// is owed twice). So a solution needs, for every kind, as many pieces as it is owed
/// (`QQ` chosen with one white queen on the board: impossible). Checked before the
/// search, which otherwise only learns it by exhausting the reachable states.
pub fn missing_piece(pos: &GolfPosition) -> Option<(engine::Piece, u32, u32)> {
    let owed = pos.owed();
    if owed.total() <= 1 {
        return None;
    }
    let missing = owed.kinds().find_map(|k| {
        let (need, have) = (owed.get(k) as u32, pos.kind_bb(k).count());
        (have < need).then_some((k, need, have))
    });
    missing
}

/// Number of chosen pieces still owed.
#[inline]
pub fn owed_total(pos: &GolfPosition) -> u32 {
    pos.owed().total()
}

/// The squares of pieces that may make the next capture (the `taking` piece once there
/// is one, else every piece of a chosen kind).
#[inline]
fn capturers(pos: &GolfPosition) -> Bitboard {
    if let Some(t) = pos.taking() {
        return Bitboard::from_square(t);
    }
    let mut bb = Bitboard::EMPTY;
    for kind in pos.chosen().kinds() {
        bb |= pos.kind_bb(kind);
    }
    bb
}

/// Whether any legal capture exists (without generating every move).
pub fn has_capture(pos: &GolfPosition, king_step: KingStep) -> bool {
    let (once, twice) = pos.owed_masks();
    if once == 0 {
        return false;
    }
    for sq in capturers(pos) {
        let Some(p) = pos.piece_at(sq) else { continue };
        let caps = pos.capture_targets(sq, p.index(), once, twice);
        if caps.is_empty() {
            continue;
        }
        if (pos.borrowed_reach(sq, p.color) & caps).any() {
            return true;
        }
        if (king_attacks(sq) & caps).any() && pos.has_king_steps(king_step, p.color) {
            return true;
        }
    }
    false
}

/// The bound on the next capture given the legal moves (see the module documentation):
/// 1, 2, 3 or [`INF`].
fn next_capture_bound(pos: &GolfPosition, targets: &MoveTargets) -> u32 {
    let occ = pos.occupied();
    for (_, to) in targets.entries() {
        if (to & occ).any() {
            return 1;
        }
    }
    let dest = |sq: engine::Square| -> Bitboard {
        targets
            .entries()
            .find(|&(from, _)| from == sq)
            .map_or(Bitboard::EMPTY, |(_, to)| to)
    };
    let (once, twice) = pos.owed_masks();
    let mut any_pair = false;
    for a in capturers(pos) {
        let Some(p) = pos.piece_at(a) else { continue };
        let caps = pos.capture_targets(a, p.index(), once, twice);
        if caps.is_empty() {
            continue;
        }
        any_pair = true;
        let zone_a = amazon(a);
        let dest_a = dest(a);
        for b in caps {
            // Neither moves: a third piece's move lets a take b where they stand ...
            if zone_a.contains(b) && third_party_can_enable(pos, targets, p.color, a, b) {
                return 2;
            }
            // a moves to a square from which it can take b where b stands ...
            for s in dest_a & amazon(b) {
                if can_reach(pos, p.color, a, s, b) {
                    return 2;
                }
            }
            // ... or b moves to a square a can take on from where it stands.
            for t in dest(b) & zone_a {
                if can_reach(pos, p.color, b, a, t) {
                    return 2;
                }
            }
        }
    }
    if any_pair {
        3
    } else {
        INF
    }
}

/// Whether a piece of `color` standing on `from` could move to `to` in the position
/// where the piece on `gone` has left (and nothing else changed, blockers ignored): `to`
/// is next to `from` (a king step, borrowed or not), or a same-colour neighbour of
/// `from` other than `gone` lends a kind whose geometry joins the squares.
#[inline]
fn can_reach(
    pos: &GolfPosition,
    color: engine::Color,
    gone: engine::Square,
    from: engine::Square,
    to: engine::Square,
) -> bool {
    if king_attacks(from).contains(to) {
        return true;
    }
    let friends = (king_attacks(from) & pos.color_bb(color)).without(gone);
    if friends.is_empty() {
        return false;
    }
    let q = pos.role_bb(Role::Queen);
    ((friends & pos.role_bb(Role::Knight)).any() && knight_attacks(from).contains(to))
        || ((friends & (pos.role_bb(Role::Bishop) | q)).any()
            && bishop_attacks(from, Bitboard::EMPTY).contains(to))
        || ((friends & (pos.role_bb(Role::Rook) | q)).any()
            && rook_attacks(from, Bitboard::EMPTY).contains(to))
}

/// Whether one move of a third piece could let the piece of `color` on `a` take the piece
/// on `b` (aligned with it) without either moving: they are adjacent (a king step), or a
/// same-colour neighbour of `a` other than `b` already lends a kind joining them (the
/// line may be blocked, and the third piece may unblock it), or a same-colour piece of
/// such a kind, neither `a` nor `b`, has a legal move next to `a`.
fn third_party_can_enable(
    pos: &GolfPosition,
    targets: &MoveTargets,
    color: engine::Color,
    a: engine::Square,
    b: engine::Square,
) -> bool {
    let around = king_attacks(a);
    if around.contains(b) {
        return true;
    }
    let q = pos.role_bb(Role::Queen);
    let kinds = if knight_attacks(a).contains(b) {
        pos.role_bb(Role::Knight)
    } else if bishop_attacks(a, Bitboard::EMPTY).contains(b) {
        pos.role_bb(Role::Bishop) | q
    } else if rook_attacks(a, Bitboard::EMPTY).contains(b) {
        pos.role_bb(Role::Rook) | q
    } else {
        return false;
    };
    let lenders = (pos.color_bb(color) & kinds).without(a).without(b);
    if (lenders & around).any() {
        return true;
    }
    targets
        .entries()
        .any(|(from, to)| lenders.contains(from) && (to & around).any())
}

/// Squares on a common rank, file, diagonal or knight jump with `sq` (empty board).
#[inline(always)]
fn amazon(sq: engine::Square) -> Bitboard {
    queen_attacks(sq, Bitboard::EMPTY) | knight_attacks(sq)
}

/// Which non-capturing moves can make a capture available.
///
/// Used when the next move cannot be a capture (none is legal) and the move after it must
/// be one: with two moves to spare and one capture missing, or more generally with one
/// move to spare beyond the captures still needed. The move must then enable a capture
/// `a x b`, where `a` ranges over the possible capturers and `b` over their victims. A
/// move of a third piece `p` (neither `a` nor `b`) changes what `a` can do only by
/// (1) arriving next to `a` as a same-colour neighbour (a new borrowed kind), (2) leaving
/// a square between `a` and `b` (unblocking a line), or (3) switching `a`'s colour into
/// king steps (which only helps when `b` is next to `a`). A neighbour leaving or a square
/// being filled only removes moves, and nothing else changes who may capture whom. So the
/// relevant moves are those of capturers and victims, those leaving a square between a
/// capturer and one of its victims, and those arriving next to a capturer of the mover's
/// colour; when a victim stands next to its capturer every move is relevant.
/// `tests/golf_solver.rs` checks this filter against the unfiltered search on random
/// positions.
struct Relevance {
    all: bool,
    captures_only: bool,
    from: Bitboard,
    to: [Bitboard; 2],
}

impl Relevance {
    /// `captures_only`: keep only captures (both remaining moves must be captures).
    fn new(pos: &GolfPosition, captures_only: bool) -> Relevance {
        let mut f = Relevance {
            all: false,
            captures_only,
            from: Bitboard::EMPTY,
            to: [Bitboard::EMPTY; 2],
        };
        if f.captures_only {
            return f;
        }
        let (once, twice) = pos.owed_masks();
        for a in capturers(pos) {
            let Some(p) = pos.piece_at(a) else { continue };
            let caps = pos.capture_targets(a, p.index(), once, twice);
            if caps.is_empty() {
                continue;
            }
            let around = king_attacks(a);
            if (caps & around).any() {
                f.all = true;
                return f;
            }
            f.from |= caps;
            f.from.set(a);
            for b in caps {
                f.from |= between(a, b);
            }
            f.to[p.color.index()] |= around;
        }
        f
    }

    #[inline]
    fn filter(&self, pos: &GolfPosition, from: engine::Square, tos: Bitboard) -> Bitboard {
        if self.all || self.from.contains(from) {
            return tos;
        }
        if self.captures_only {
            return tos & pos.occupied();
        }
        match pos.piece_at(from) {
            Some(p) => tos & self.to[p.color.index()],
            None => Bitboard::EMPTY,
        }
    }
}

/// Admissible lower bound on the number of moves needed to solve `pos` (0 when solved,
/// [`INF`] when provably impossible). See the module documentation.
pub fn lower_bound(pos: &GolfPosition, params: &GolfParams) -> u32 {
    let owed = owed_total(pos);
    if owed <= 1 {
        return 0;
    }
    let targets = pos.move_targets(params);
    match next_capture_bound(pos, &targets) {
        INF => INF,
        l => owed - 2 + l,
    }
}

// ---------------------------------------------------------------------------------------
// Transposition table
// ---------------------------------------------------------------------------------------

/// Open-addressing table from state keys to proven lower bounds (one byte; 255 = dead).
/// 16 bytes a slot; grows by doubling up to a fixed number of slots, then stops adding
/// new states (still correct: a missing entry only costs re-search).
pub struct Table {
    slots: Vec<[u64; 2]>,
    len: usize,
    max_slots: usize,
}

const DEAD: u8 = 255;

impl Table {
    /// A table that will use at most `max_bytes` bytes.
    pub fn new(max_bytes: usize) -> Table {
        let max_slots = (max_bytes / 16).next_power_of_two().max(1 << 10) >> 1;
        Table {
            slots: vec![[0; 2]; 1 << 10],
            len: 0,
            max_slots: max_slots.max(1 << 10),
        }
    }

    #[inline(always)]
    fn split(key: u128) -> (u64, u64) {
        let a = (key as u64).max(1);
        let b = ((key >> 64) as u64) & !0xff;
        (a, b)
    }

    /// Number of states stored.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the table reached its size limit (new states are no longer stored).
    pub fn is_full(&self) -> bool {
        self.slots.len() >= self.max_slots && (self.len + 1) * 2 > self.slots.len()
    }

    /// Bytes allocated.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 16
    }

    #[inline]
    pub fn get(&self, key: u128) -> Option<u8> {
        let (a, b) = Self::split(key);
        let mask = self.slots.len() - 1;
        let mut i = (a >> 7) as usize & mask;
        loop {
            let s = self.slots[i];
            if s[0] == 0 {
                return None;
            }
            if s[0] == a && s[1] & !0xff == b {
                return Some(s[1] as u8);
            }
            i = (i + 1) & mask;
        }
    }

    /// Records `lb` for `key` (keeping the larger of old and new).
    #[inline]
    pub fn put(&mut self, key: u128, lb: u8) {
        let (a, b) = Self::split(key);
        let mask = self.slots.len() - 1;
        let mut i = (a >> 7) as usize & mask;
        loop {
            let s = self.slots[i];
            if s[0] == 0 {
                break;
            }
            if s[0] == a && s[1] & !0xff == b {
                if (s[1] as u8) < lb {
                    self.slots[i][1] = b | lb as u64;
                }
                return;
            }
            i = (i + 1) & mask;
        }
        // New state.
        if (self.len + 1) * 2 > self.slots.len() {
            if self.slots.len() >= self.max_slots {
                return; // full: forget it
            }
            self.grow();
            return self.put(key, lb);
        }
        self.slots[i] = [a, b | lb as u64];
        self.len += 1;
    }

    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![[0; 2]; n]);
        let mask = self.slots.len() - 1;
        for s in old {
            if s[0] == 0 {
                continue;
            }
            let mut i = (s[0] >> 7) as usize & mask;
            while self.slots[i][0] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }
}

#[inline(always)]
fn to_byte(lb: u32) -> u8 {
    if lb == INF {
        DEAD
    } else {
        lb.min(254) as u8
    }
}

#[inline(always)]
fn from_byte(b: u8) -> u32 {
    if b == DEAD {
        INF
    } else {
        b as u32
    }
}

// ---------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------

/// What the solver proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Par proven: the minimum number of moves.
    Par(u32),
    /// The reachable state space was exhausted without reaching a solved state.
    Impossible,
    /// A limit stopped the search: par is proven to be larger than this.
    ParAbove(u32),
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Par(n) => write!(f, "par {n}"),
            Outcome::Impossible => write!(f, "impossible"),
            Outcome::ParAbove(n) => write!(f, "par > {n}"),
        }
    }
}

/// The solver's answer.
#[derive(Clone, Debug)]
pub struct SolveReport {
    pub outcome: Outcome,
    /// One optimal solution when par was proven (empty otherwise, and for par 0).
    pub moves: Vec<GolfMove>,
    /// Number of distinct optimal move sequences, when asked for and within the limits.
    pub optimal_solutions: Option<u64>,
    /// States searched (search-tree nodes visited, all iterations and the count).
    pub states: u64,
    /// Number of legal moves in the problem position.
    pub root_moves: usize,
    /// States held in the transposition table at the end.
    pub table_states: usize,
    pub elapsed: Duration,
}

/// Limits and options of [`solve`].
#[derive(Clone, Debug)]
pub struct SolveLimits {
    /// Stop after this many states (None: no limit).
    pub max_nodes: Option<u64>,
    /// Stop after this much time (None: no limit).
    pub max_time: Option<Duration>,
    /// Also count every optimal solution.
    pub count_solutions: bool,
    /// Memory for the transposition table (the solution-counting memo may use as much
    /// again).
    pub table_bytes: usize,
    /// A flag polled with the clock (Ctrl-C in the `chesslab` command): once raised, the
    /// search stops as it does at a limit, with what it has proven.
    pub stop: Option<&'static AtomicBool>,
}

impl Default for SolveLimits {
    fn default() -> Self {
        SolveLimits {
            max_nodes: None,
            max_time: None,
            count_solutions: false,
            table_bytes: 256 << 20,
            stop: None,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------------------

struct Abort;

/// Ok(None): solved along `path`; Ok(Some(lb)): proven lower bound.
type Step = Result<Option<u32>, Abort>;

#[derive(Default)]
struct IdHasher(u64);
impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8)) ^ b as u64;
        }
    }
    fn write_u128(&mut self, i: u128) {
        self.0 ^= i as u64 ^ (i >> 64) as u64;
    }
    fn write_u8(&mut self, i: u8) {
        self.0 = self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i as u64;
    }
}
type IdBuild = BuildHasherDefault<IdHasher>;

struct Searcher<'a> {
    king_step: KingStep,
    params: &'a GolfParams,
    tt: Table,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    stop: Option<&'static AtomicBool>,
    path: Vec<GolfMove>,
    memo: HashMap<(u128, u8), u64, IdBuild>,
    /// Most entries the counting memo may hold (about 48 bytes each).
    memo_cap: usize,
}

impl Searcher<'_> {
    #[inline]
    fn tick(&mut self) -> Result<(), Abort> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Err(Abort);
        }
        if self.nodes & 0x3fff == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() > d {
                    return Err(Abort);
                }
            }
            if self.stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
                return Err(Abort);
            }
        }
        Ok(())
    }

    /// Searches `pos` (not solved) with `r >= 1` moves to spare.
    fn dfs(&mut self, pos: &GolfPosition, r: u32) -> Step {
        self.tick()?;
        let need = owed_total(pos) - 1; // captures still needed, >= 1
        if need > r {
            return Ok(Some(need));
        }
        if need == r {
            return self.dfs_captures(pos, r);
        }
        let key = pos.key();
        if let Some(t) = self.tt.get(key) {
            let t = from_byte(t);
            if t > r {
                return Ok(Some(t));
            }
        }
        let targets = pos.move_targets_with(self.king_step);
        let h = match next_capture_bound(pos, &targets) {
            INF => INF,
            l => need - 1 + l,
        };
        if h > r {
            self.tt.put(key, to_byte(h));
            return Ok(Some(h));
        }
        let mut best = INF;
        // With one move to spare beyond the captures needed and no capture available, the
        // next move must make one available.
        let filter = (r == need + 1 && h > need).then(|| Relevance::new(pos, false));
        for (from, tos) in targets.entries() {
            let kept = match &filter {
                Some(f) => f.filter(pos, from, tos),
                None => tos,
            };
            if kept != tos {
                // A skipped child has no capture and `need` captures to make: its bound is
                // `need + 1`.
                best = best.min(need + 2);
            }
            for to in kept {
                let mv = GolfMove::new(from, to);
                let mut child = *pos;
                child.apply_unchecked(mv);
                if child.is_solved() {
                    self.path.push(mv);
                    return Ok(None);
                }
                match self.dfs(&child, r - 1)? {
                    None => {
                        self.path.push(mv);
                        return Ok(None);
                    }
                    Some(v) => best = best.min(v.saturating_add(1)),
                }
            }
        }
        // best > r: every child failed with its own bound.
        self.tt.put(key, to_byte(best));
        Ok(Some(best))
    }

    /// `dfs` when every remaining move must be a capture (`r` = captures needed).
    fn dfs_captures(&mut self, pos: &GolfPosition, r: u32) -> Step {
        // No capture now: the next capture needs two moves, so `r + 1` in all.
        if !has_capture(pos, self.king_step) {
            return Ok(Some(r + 1));
        }
        let occ = pos.occupied();
        let targets = pos.move_targets_with(self.king_step);
        // Non-captures leave `r` captures for `r - 1` moves: bound `1 + r`.
        let mut best = r + 1;
        for (from, tos) in targets.entries() {
            for to in tos & occ {
                let mv = GolfMove::new(from, to);
                let mut child = *pos;
                child.apply_unchecked(mv);
                if child.is_solved() {
                    self.path.push(mv);
                    return Ok(None);
                }
                match self.dfs(&child, r - 1)? {
                    None => {
                        self.path.push(mv);
                        return Ok(None);
                    }
                    Some(v) => best = best.min(v.saturating_add(1)),
                }
            }
        }
        Ok(Some(best))
    }

    /// Number of `r`-move solutions of `pos` (not solved) whose only solved state is the
    /// last, given that `pos` has no shorter solution.
    fn count(&mut self, pos: &GolfPosition, r: u32) -> Result<u64, Abort> {
        self.tick()?;
        let need = owed_total(pos) - 1;
        if need > r {
            return Ok(0);
        }
        let captures_only = need == r;
        if captures_only && !has_capture(pos, self.king_step) {
            return Ok(0);
        }
        let occ = pos.occupied();
        if r == 1 {
            // need == 1: every legal capture solves.
            let targets = pos.move_targets_with(self.king_step);
            return Ok(targets
                .entries()
                .map(|(_, to)| (to & occ).count() as u64)
                .sum());
        }
        if let Some(t) = self.tt.get(pos.key()) {
            if from_byte(t) > r {
                return Ok(0);
            }
        }
        let memo_key = (pos.key(), r as u8);
        if let Some(&c) = self.memo.get(&memo_key) {
            return Ok(c);
        }
        let targets = pos.move_targets_with(self.king_step);
        let h = if captures_only {
            need
        } else {
            match next_capture_bound(pos, &targets) {
                INF => INF,
                l => need - 1 + l,
            }
        };
        if h > r {
            return Ok(0);
        }
        let mut total: u64 = 0;
        let filter = (r == need + 1 && h > need).then(|| Relevance::new(pos, false));
        for (from, tos) in targets.entries() {
            let tos = if captures_only {
                tos & occ
            } else {
                match &filter {
                    // Skipped children have no one-move solution: they add nothing.
                    Some(f) => f.filter(pos, from, tos),
                    None => tos,
                }
            };
            for to in tos {
                let mut child = *pos;
                child.apply_unchecked(GolfMove::new(from, to));
                if !child.is_solved() {
                    total = total.saturating_add(self.count(&child, r - 1)?);
                }
                // A solved child with r > 1 would be a shorter solution: impossible here.
            }
        }
        if self.memo.len() < self.memo_cap {
            self.memo.insert(memo_key, total);
        }
        Ok(total)
    }
}

/// Proves par for `pos` under `params`, within `limits`.
pub fn solve(pos: &GolfPosition, params: &GolfParams, limits: &SolveLimits) -> SolveReport {
    let start = Instant::now();
    let mut s = Searcher {
        king_step: params.king_step,
        params,
        tt: Table::new(limits.table_bytes),
        nodes: 0,
        limit: limits.max_nodes.unwrap_or(u64::MAX),
        deadline: limits.max_time.map(|d| start + d),
        stop: limits.stop,
        path: Vec::new(),
        memo: HashMap::default(),
        memo_cap: limits.table_bytes / 48,
    };
    let root_moves = pos.move_targets(s.params).count();
    let report = |s: &Searcher, outcome, moves, count| SolveReport {
        outcome,
        moves,
        optimal_solutions: count,
        states: s.nodes,
        root_moves,
        table_states: s.tt.len(),
        elapsed: start.elapsed(),
    };
    if pos.is_solved() {
        return report(&s, Outcome::Par(0), Vec::new(), Some(1));
    }
    if missing_piece(pos).is_some() {
        return report(&s, Outcome::Impossible, Vec::new(), Some(0));
    }
    let mut bound = lower_bound(pos, params);
    let mut proven = bound.saturating_sub(1);
    let mut last_len = usize::MAX;
    loop {
        if bound == INF {
            return report(&s, Outcome::Impossible, Vec::new(), Some(0));
        }
        s.path.clear();
        match s.dfs(pos, bound) {
            Err(Abort) => return report(&s, Outcome::ParAbove(proven), Vec::new(), None),
            Ok(None) => {
                let mut moves = std::mem::take(&mut s.path);
                moves.reverse();
                let count = if limits.count_solutions {
                    s.count(pos, bound).ok()
                } else {
                    None
                };
                return report(&s, Outcome::Par(bound), moves, count);
            }
            Ok(Some(lb)) => {
                debug_assert!(lb > bound);
                if lb != INF {
                    proven = lb - 1;
                }
                bound = lb;
                // In a finite reachable space the table stops growing once the bound
                // exceeds every distance; then a breadth-first closure settles it.
                let grown = s.tt.len();
                if bound != INF && grown == last_len && !s.tt.is_full() {
                    let cap = grown * 2 + 10_000;
                    let closure = bfs(pos, params, cap);
                    s.nodes += closure.states as u64;
                    if closure.complete {
                        match closure.par {
                            None => return report(&s, Outcome::Impossible, Vec::new(), Some(0)),
                            Some(p) => {
                                // Cannot happen with a consistent search (IDA* would have
                                // found it); keep searching at the proven bound.
                                debug_assert!(p >= bound, "closure found par {p} below {bound}");
                            }
                        }
                    }
                }
                last_len = grown;
            }
        }
    }
}

/// Result of [`bfs`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BfsReport {
    /// `Some(par)`, or `None` when no solution was found.
    pub par: Option<u32>,
    /// Whether the search finished (found par or exhausted the reachable states).
    pub complete: bool,
    /// Distinct states seen.
    pub states: usize,
}

/// Plain breadth-first search, the reference the solver is tested against.
pub fn bfs(pos: &GolfPosition, params: &GolfParams, max_states: usize) -> BfsReport {
    if pos.is_solved() {
        return BfsReport {
            par: Some(0),
            complete: true,
            states: 1,
        };
    }
    let mut seen: HashSet<u128, IdBuild> = HashSet::default();
    seen.insert(pos.key());
    let mut frontier = vec![*pos];
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for p in &frontier {
            for mv in p.move_targets(params).moves() {
                let mut c = *p;
                c.apply_unchecked(mv);
                if c.is_solved() {
                    return BfsReport {
                        par: Some(depth),
                        complete: true,
                        states: seen.len(),
                    };
                }
                if seen.insert(c.key()) {
                    if seen.len() > max_states {
                        return BfsReport {
                            par: None,
                            complete: false,
                            states: seen.len(),
                        };
                    }
                    next.push(c);
                }
            }
        }
        frontier = next;
    }
    BfsReport {
        par: None,
        complete: true,
        states: seen.len(),
    }
}

/// Breadth-first layer sizes: the number of distinct unsolved states first reached at
/// depth 0, 1, 2, ... (solved states are neither counted nor expanded). Only complete
/// layers are returned; generation stops before the states seen would exceed
/// `max_states`.
pub fn bfs_layers(pos: &GolfPosition, params: &GolfParams, max_states: usize) -> Vec<usize> {
    if pos.is_solved() {
        return Vec::new();
    }
    let mut seen: HashSet<u128, IdBuild> = HashSet::default();
    seen.insert(pos.key());
    let mut layers = vec![1];
    let mut frontier = vec![*pos];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for p in &frontier {
            for mv in p.move_targets(params).moves() {
                let mut c = *p;
                c.apply_unchecked(mv);
                if c.is_solved() {
                    continue;
                }
                if seen.insert(c.key()) {
                    if seen.len() > max_states {
                        return layers;
                    }
                    next.push(c);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        layers.push(next.len());
        frontier = next;
    }
    layers
}

/// The moves the solver examines when no capture is legal and the next move must make one
/// available (see `Relevance`); exposed so tests can check that every other move leaves
/// a position without a legal capture. Meaningful only when `pos` has no legal capture
/// (the search never filters otherwise).
pub fn enabling_candidates(pos: &GolfPosition, params: &GolfParams) -> Vec<GolfMove> {
    let f = Relevance::new(pos, false);
    let mut out = Vec::new();
    for (from, tos) in pos.move_targets(params).entries() {
        for to in f.filter(pos, from, tos) {
            out.push(GolfMove::new(from, to));
        }
    }
    out
}
