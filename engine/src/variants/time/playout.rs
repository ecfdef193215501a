//! Uniform random actions of Time Chess without listing them, for playouts
//! ([`Game::sample_legal_action`](crate::game::Game::sample_legal_action)).
//!
//! A random Time Chess game from the first blind turn lasts about 320 plies, and a
//! playout that lists every action at every ply spends most of its time writing lists it
//! reads one entry of. Here the move generators hand over their moves as target sets (one
//! piece's targets, or every pawn's push of one kind), which [`Batches`] keeps as
//! bitboards with their sizes (popcounts, times four for promotions). One index is drawn
//! uniformly over the total and the set holding it yields the move.
//!
//! Blind turns use [`blind_sets`], the listing generator's own sets, so every listed try
//! has probability 1/n and nothing else can come out. Sighted turns use
//! [`sighted_sets`]: when the mover is in check it is the orthodox legal generator
//! (exact sets; only its king steps when the enemy king gives the check); otherwise it is the same generator without its costliest part, the
//! safety test of every king target against enemy sliders and knights. Every other set is
//! exact (pinned pieces stay on their pin lines, en passant and castling are judged as
//! the orthodox generator judges them); the king's set is a superset of its legal
//! targets, and a draw that lands on an unsafe king target is rejected and drawn again.
//! Drawing uniformly from a superset and rejecting what is outside the legal set is
//! uniform over the legal set. Whether any legal move exists (checkmate and stalemate)
//! needs no king test unless the king's set is the only non-empty one; then the king's
//! set is filtered exactly. Both the judgement and the sets are checked against the
//! listing generator on many random positions by
//! `sighted_sets_match_the_listing_generator`, and the draw's frequencies by
//! `sampled_actions_are_uniform_over_the_listed_set` (chi-square, on sighted, blind,
//! promotion, castling, en passant, check and king-capture positions).
//!
//! Rook and queen attacks here come from [`attacks::lean_rook_attacks`], which needs no 800 KB magic
//! table (its lookups missed the cache at every ply); the draw finds its batch and the
//! n-th square without a branch per step ([`Bitboard::nth`]). Both are checked against the
//! straightforward versions (`lean_rook_attacks_match_the_magic_table`,
//! `nth_matches_the_bit_clearing_loop`).

use crate::attacks::{self, between, line};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::movegen::MoveSink;
use crate::moves::{Move, MoveKind};
use crate::square::{Color, Role, Square};
use rand::{Rng, RngCore};

use super::{castle_path, touching_kings, KingSteps};

/// Most batches one position hands over: 16 pieces with up to two sets each (a pinned
/// pawn), seven set-wise pawn sets, four special moves, with room to spare.
const MAX_BATCHES: usize = 48;

const NORMAL: u8 = 0;
const PROMOTIONS: u8 = 1;
const PAWN_SET: u8 = 2;
const PAWN_PROMOTION_SET: u8 = 3;
const SPECIAL: u8 = 4;

/// No batch: the king's batch index when every set is exact.
const NO_BATCH: usize = usize::MAX;

/// The generator's moves as target sets, with the total number of moves they stand for.
/// Filled in place ([`Batches::reset`]) so a game keeps one buffer for its whole life.
#[derive(Clone)]
pub(super) struct Batches {
    targets: [Bitboard; MAX_BATCHES],
    /// Moves each batch stands for (targets, times four for promotions).
    sizes: [u8; MAX_BATCHES],
    /// Moves the batches before each one stand for (the draw finds its batch by
    /// counting the starts at or below the index, without a branch per batch).
    starts: [u32; MAX_BATCHES],
    kinds: [u8; MAX_BATCHES],
    /// The origin square (per-piece sets), the pawn delta (set-wise pawns, as `i8`), or
    /// the index into `specials`.
    data: [u8; MAX_BATCHES],
    specials: [Move; 4],
    len: usize,
    n_specials: usize,
    total: u32,
    /// Squares no move may land on (the enemy king for sighted moves).
    forbidden: Bitboard,
    /// The batch of king targets not yet tested for safety ([`NO_BATCH`]: all exact).
    lazy_king: usize,
}

impl std::fmt::Debug for Batches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batches")
            .field("sets", &self.len)
            .field("moves", &self.total)
            .finish()
    }
}

impl Batches {
    pub(super) fn new(forbidden: Bitboard) -> Batches {
        Batches {
            targets: [Bitboard::EMPTY; MAX_BATCHES],
            sizes: [0; MAX_BATCHES],
            starts: [0; MAX_BATCHES],
            kinds: [0; MAX_BATCHES],
            data: [0; MAX_BATCHES],
            specials: [Move::NULL; 4],
            len: 0,
            n_specials: 0,
            total: 0,
            forbidden,
            lazy_king: NO_BATCH,
        }
    }

    /// Empties the batches for a new position (the arrays are overwritten, not cleared).
    #[inline(always)]
    pub(super) fn reset(&mut self, forbidden: Bitboard) {
        self.len = 0;
        self.n_specials = 0;
        self.total = 0;
        self.forbidden = forbidden;
        self.lazy_king = NO_BATCH;
    }

    #[inline(always)]
    fn push(&mut self, kind: u8, data: u8, targets: Bitboard) {
        let targets = targets - self.forbidden;
        if targets.is_empty() {
            return;
        }
        let per = if kind == PROMOTIONS || kind == PAWN_PROMOTION_SET {
            4
        } else {
            1
        };
        let size = per * targets.count();
        self.targets[self.len] = targets;
        self.sizes[self.len] = size as u8;
        self.starts[self.len] = self.total;
        self.kinds[self.len] = kind;
        self.data[self.len] = data;
        self.len += 1;
        self.total += size;
    }

    /// Whether the batches hold a legal move. Tests the king's targets (and keeps only
    /// the safe ones) only when no other batch holds a move.
    pub(super) fn any_legal(&mut self, b: &Board) -> bool {
        if self.lazy_king == NO_BATCH {
            return self.total > 0;
        }
        let i = self.lazy_king;
        if self.total > self.sizes[i] as u32 {
            return true;
        }
        let king = Square::new(self.data[i]);
        let mut safe = Bitboard::EMPTY;
        for t in self.targets[i] {
            if king_target_safe(b, king, t) {
                safe.set(t);
            }
        }
        let dropped = self.sizes[i] as u32 - safe.count();
        self.total -= dropped;
        for s in &mut self.starts[i + 1..self.len] {
            *s -= dropped;
        }
        self.targets[i] = safe;
        self.sizes[i] = safe.count() as u8;
        self.lazy_king = NO_BATCH;
        self.total > 0
    }

    /// The `k`-th move the batches stand for (`k < total`), with whether it is a king
    /// move still to be tested for safety.
    #[inline]
    fn decode(&self, k: u32) -> (Move, bool) {
        // Batch `i` holds the index when it is the last one starting at or below it
        // (empty batches are never pushed, so starts rise strictly).
        let i = self.starts[1..self.len]
            .iter()
            .map(|&s| (s <= k) as usize)
            .sum::<usize>();
        let k = k - self.starts[i];
        let kind = self.kinds[i];
        if kind == SPECIAL {
            return (self.specials[self.data[i] as usize], false);
        }
        let promo = kind == PROMOTIONS || kind == PAWN_PROMOTION_SET;
        let (t, role) = if promo {
            (k / 4, Some(Role::PROMOTIONS[(k % 4) as usize]))
        } else {
            (k, None)
        };
        let to = self.targets[i].nth(t);
        let from = match kind {
            NORMAL | PROMOTIONS => Square::new(self.data[i]),
            _ => Square::new((to.index() as i8 - self.data[i] as i8) as u8),
        };
        let mv = match role {
            Some(r) => Move::new(from, to, MoveKind::Promotion(r)),
            None => Move::normal(from, to),
        };
        (mv, i == self.lazy_king)
    }

    /// One move drawn uniformly from the legal moves the batches stand for (`None` when
    /// they hold none); `b` is the position they were filled from. A king move onto an
    /// attacked square is rejected and the draw repeated.
    pub(super) fn draw(&self, b: &Board, rng: &mut dyn RngCore) -> Option<Move> {
        if self.total == 0 {
            return None;
        }
        loop {
            let (mv, test) = self.decode(rng.gen_range(0..self.total));
            if !test || king_target_safe(b, mv.from(), mv.to()) {
                return Some(mv);
            }
        }
    }

    /// Every legal move the batches stand for, in batch order (tests).
    #[cfg(test)]
    pub(super) fn moves(&self, b: &Board) -> Vec<Move> {
        (0..self.total)
            .map(|k| self.decode(k))
            .filter(|&(mv, test)| !test || king_target_safe(b, mv.from(), mv.to()))
            .map(|(mv, _)| mv)
            .collect()
    }
}

/// Whether the side to move's king may step from `king` to `t` (neither enemy pawns nor
/// the enemy king attack `t`: the sets leave those squares out): no enemy knight or
/// slider attacks `t` once the king has left `king`.
#[inline]
fn king_target_safe(b: &Board, king: Square, t: Square) -> bool {
    let them = b.turn().other();
    let theirs = b.by_color(them);
    let queens = b.by_role(Role::Queen);
    let occ = b.occupied().without(king);
    (attacks::knight_attacks(t) & theirs & b.by_role(Role::Knight)).is_empty()
        && (attacks::lean_rook_attacks(t, occ) & theirs & (b.by_role(Role::Rook) | queens))
            .is_empty()
        && (attacks::bishop_attacks(t, occ) & theirs & (b.by_role(Role::Bishop) | queens))
            .is_empty()
}

impl MoveSink for Batches {
    const SETWISE_PAWNS: bool = true;

    #[inline(always)]
    fn normal(&mut self, from: Square, targets: Bitboard) {
        self.push(NORMAL, from.index() as u8, targets);
    }

    #[inline(always)]
    fn promotions(&mut self, from: Square, targets: Bitboard) {
        self.push(PROMOTIONS, from.index() as u8, targets);
    }

    #[inline(always)]
    fn special(&mut self, mv: Move) {
        if self.forbidden.contains(mv.to()) && !mv.is_castle() {
            return;
        }
        self.specials[self.n_specials] = mv;
        self.kinds[self.len] = SPECIAL;
        self.data[self.len] = self.n_specials as u8;
        self.targets[self.len] = Bitboard::from_square(mv.to());
        self.sizes[self.len] = 1;
        self.starts[self.len] = self.total;
        self.n_specials += 1;
        self.len += 1;
        self.total += 1;
    }

    #[inline(always)]
    fn pawn_set(&mut self, targets: Bitboard, delta: i8) {
        self.push(PAWN_SET, delta as u8, targets);
    }

    #[inline(always)]
    fn pawn_promotion_set(&mut self, targets: Bitboard, delta: i8) {
        self.push(PAWN_PROMOTION_SET, delta as u8, targets);
    }
}

/// Squares attacked by the pawns of `c` (set-wise).
#[inline(always)]
fn pawn_attacks_of(b: &Board, c: Color) -> Bitboard {
    let p = b.pieces(c, Role::Pawn).0;
    let (west, east) = (p & !Bitboard::FILE_A.0, p & !Bitboard::FILE_H.0);
    Bitboard(match c {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    })
}

/// The sighted moves of the side to move (orthodox legal moves minus moves onto the
/// enemy king) into `sets`, refilled in place. In check, or without a king, the orthodox
/// generator fills them exactly; in check by the enemy king (kings touching after a
/// blind move), which that generator does not count, only its exact king steps. Otherwise this is that generator's no-check branch
/// (same pin, en passant and castling tests) except that the king's targets are tested
/// against enemy sliders and knights only when drawn ([`Batches::draw`]) or when they
/// are the only moves ([`Batches::any_legal`]).
pub(super) fn sighted_sets(b: &Board, sets: &mut Batches) {
    let us = b.turn();
    let them = us.other();
    sets.reset(b.pieces(them, Role::King));
    let Some(king) = b.king(us) else {
        b.generate(sets);
        return;
    };
    if let Some((_, their_king)) = touching_kings(b) {
        // Checked by the enemy king: only the king's steps, exact (as the listing).
        b.generate(&mut KingSteps {
            inner: sets,
            king,
            forbidden: Bitboard::from_square(their_king),
        });
        return;
    }
    let occ = b.occupied();
    let ours = b.by_color(us);
    let theirs = b.by_color(them);

    // Checkers and pins in one pass over the enemy sliders that see the king on an
    // empty board (as the orthodox generator finds them).
    let queens = b.by_role(Role::Queen);
    let rq = theirs & (b.by_role(Role::Rook) | queens);
    let bq = theirs & (b.by_role(Role::Bishop) | queens);
    let snipers = (attacks::lean_rook_attacks(king, Bitboard::EMPTY) & rq)
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & bq);
    let leaper_checkers = theirs
        & ((attacks::knight_attacks(king) & b.by_role(Role::Knight))
            | (attacks::pawn_attacks(us, king) & b.by_role(Role::Pawn)));
    if leaper_checkers.any() {
        b.generate(sets);
        return;
    }
    let mut pinned = Bitboard::EMPTY;
    for s in snipers {
        let between = between(king, s) & occ;
        if between.is_empty() {
            b.generate(sets);
            return;
        }
        if !between.more_than_one() {
            pinned |= between;
        }
    }
    pinned &= ours;

    let their_king = match b.king(them) {
        Some(k) => attacks::king_attacks(k),
        None => Bitboard::EMPTY,
    };
    let leaper_danger = pawn_attacks_of(b, them) | their_king;
    let king_targets = attacks::king_attacks(king) - ours - leaper_danger;
    let before = sets.len;
    sets.normal(king, king_targets);
    if sets.len > before {
        sets.lazy_king = before;
    }

    let target_mask = !ours;
    let pin_line = |sq: Square| -> Bitboard {
        if pinned.contains(sq) {
            line(king, sq)
        } else {
            Bitboard::FULL
        }
    };
    for sq in b.pieces(us, Role::Knight) - pinned {
        sets.normal(sq, attacks::knight_attacks(sq) & target_mask);
    }
    let own_queens = b.pieces(us, Role::Queen);
    for sq in b.pieces(us, Role::Bishop) | own_queens {
        sets.normal(
            sq,
            attacks::bishop_attacks(sq, occ) & target_mask & pin_line(sq),
        );
    }
    for sq in b.pieces(us, Role::Rook) | own_queens {
        sets.normal(
            sq,
            attacks::lean_rook_attacks(sq, occ) & target_mask & pin_line(sq),
        );
    }

    let last_rank = Bitboard::relative_rank(us, 7);
    let third_rank = Bitboard::relative_rank(us, 2);
    let empty = !occ;
    let pawns = b.pieces(us, Role::Pawn);
    let free = (pawns - pinned).0;
    let (west, east) = (free & !Bitboard::FILE_A.0, free & !Bitboard::FILE_H.0);
    let (one, west_caps, east_caps, up, w, e) = match us {
        Color::White => (free << 8, west << 7, east << 9, 8i8, 7i8, 9i8),
        Color::Black => (free >> 8, west >> 9, east >> 7, -8, -9, -7),
    };
    let one = Bitboard(one) & empty;
    let two = (one & third_rank).forward(us) & empty;
    let west_caps = Bitboard(west_caps) & theirs;
    let east_caps = Bitboard(east_caps) & theirs;
    if ((one | west_caps | east_caps) & last_rank).any() {
        sets.pawn_promotion_set(one & last_rank, up);
        sets.pawn_promotion_set(west_caps & last_rank, w);
        sets.pawn_promotion_set(east_caps & last_rank, e);
    }
    sets.pawn_set(one - last_rank, up);
    sets.pawn_set(two, 2 * up);
    sets.pawn_set(west_caps - last_rank, w);
    sets.pawn_set(east_caps - last_rank, e);
    for sq in pawns & pinned {
        let one = Bitboard::from_square(sq).forward(us) & empty;
        let two = (one & third_rank).forward(us) & empty;
        let caps = attacks::pawn_attacks(us, sq) & theirs;
        let targets = (one | two | caps) & line(king, sq);
        if (targets & last_rank).any() {
            sets.promotions(sq, targets & last_rank);
            sets.normal(sq, targets - last_rank);
        } else {
            sets.normal(sq, targets);
        }
    }

    if let Some(ep) = b.ep_square() {
        let cap_sq = Square::from_coords(ep.file(), if us == Color::White { 4 } else { 3 });
        for sq in attacks::pawn_attacks(them, ep) & pawns {
            // Judged on the position after it: both pawns leave their squares.
            let occ2 = occ.without(sq).without(cap_sq).with(ep);
            if b.attackers_to(king, them, occ2).without(cap_sq).is_empty() {
                sets.special(Move::new(sq, ep, MoveKind::EnPassant));
            }
        }
    }

    if (b.castling_rights() & ours).any() {
        castles(b, sets, us, king, leaper_danger);
    }
}

/// Castling moves of `us` (not in check), judged by the orthodox generator's rule;
/// `leaper_danger` holds the squares enemy pawns and the enemy king attack.
fn castles(b: &Board, sets: &mut Batches, us: Color, king: Square, leaper_danger: Bitboard) {
    b.legal_castles(us, king, leaper_danger, |m| sets.special(m));
}

/// Blind tries of the side to move into `sink`: every move its own pieces allow on a
/// board holding only them (pawn pushes, pawn diagonals onto any square not its own,
/// promotions on the last rank, castling when no own piece stands between king and rook
/// or on their targets). The listing generator feeds a `MoveList`, the sampler
/// [`Batches`], so both see the same sets. Pieces go role by role and pawns set-wise
/// (pushes, double steps, each diagonal), so no square is looked up.
pub(super) fn blind_sets<S: MoveSink>(b: &Board, sink: &mut S) {
    let us = b.turn();
    let own = b.by_color(us);
    let free = !own;
    for sq in b.pieces(us, Role::Knight) {
        sink.normal(sq, attacks::knight_attacks(sq) & free);
    }
    for sq in b.pieces(us, Role::Bishop) {
        sink.normal(sq, attacks::bishop_attacks(sq, own) & free);
    }
    for sq in b.pieces(us, Role::Rook) {
        sink.normal(sq, attacks::lean_rook_attacks(sq, own) & free);
    }
    for sq in b.pieces(us, Role::Queen) {
        sink.normal(sq, attacks::lean_queen_attacks(sq, own) & free);
    }
    let king = b.king(us);
    for sq in b.pieces(us, Role::King) {
        sink.normal(sq, attacks::king_attacks(sq) & free);
    }

    let pawns = b.pieces(us, Role::Pawn).0;
    let (west, east) = (pawns & !Bitboard::FILE_A.0, pawns & !Bitboard::FILE_H.0);
    let (one, west_diag, east_diag, up, w, e) = match us {
        Color::White => (pawns << 8, west << 7, east << 9, 8i8, 7i8, 9i8),
        Color::Black => (pawns >> 8, west >> 9, east >> 7, -8, -9, -7),
    };
    let one = Bitboard(one) & free;
    let two = (one & Bitboard::relative_rank(us, 2)).forward(us) & free;
    let west_diag = Bitboard(west_diag) & free;
    let east_diag = Bitboard(east_diag) & free;
    let last = Bitboard::relative_rank(us, 7);
    if ((one | west_diag | east_diag) & last).any() {
        sink.pawn_promotion_set(one & last, up);
        sink.pawn_promotion_set(west_diag & last, w);
        sink.pawn_promotion_set(east_diag & last, e);
    }
    sink.pawn_set(one - last, up);
    sink.pawn_set(two, 2 * up);
    sink.pawn_set(west_diag - last, w);
    sink.pawn_set(east_diag - last, e);

    if let Some(king) = king {
        let back = Bitboard::relative_rank(us, 0);
        if back.contains(king) {
            for rook in b.castling_rights() & back & b.pieces(us, Role::Rook) {
                if (castle_path(us, king, rook) & own).is_empty() {
                    sink.special(Move::new(king, rook, MoveKind::Castle));
                }
            }
        }
    }
}
