//! Uniform random actions of Time Chess without listing them, for playouts
//! ([`Game::sample_legal_action`](crate::game::Game::sample_legal_action)).
//!
//! A random Time Chess game from the first blind turn lasts about 320 plies, and a
//! playout that lists every action at every ply spends most of its time writing lists it
//! reads one entry of. Here the move generators (the orthodox legal generator for sighted
//! turns, [`blind_sets`] for blind tries) hand over their moves as target sets (one
//! piece's targets, or every pawn's push of one kind), which [`Batches`] keeps as
//! bitboards with their sizes (popcounts, times four for promotions). One index is drawn
//! uniformly over the total and the set holding it yields the move. The sets are exactly
//! the ones the listing generators expand move by move (the same generators, through the
//! same [`MoveSink`] calls), so every action `legal_actions` lists has probability 1/n
//! and no other action can come out; no draw is rejected. The test
//! `sampled_actions_are_uniform_over_the_listed_set` checks membership and frequencies
//! (chi-square) against the listed set on sighted, blind, promotion, castling, en
//! passant and king-capture positions.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::movegen::MoveSink;
use crate::moves::{Move, MoveKind};
use crate::square::{Role, Square};
use rand::{Rng, RngCore};

use super::castle_path;

/// Most batches one position hands over: 16 pieces with up to two sets each (a pinned
/// pawn), seven set-wise pawn sets, four special moves, with room to spare.
const MAX_BATCHES: usize = 48;

const NORMAL: u8 = 0;
const PROMOTIONS: u8 = 1;
const PAWN_SET: u8 = 2;
const PAWN_PROMOTION_SET: u8 = 3;
const SPECIAL: u8 = 4;

/// The generator's moves as target sets, with the total number of moves they stand for.
#[derive(Clone)]
pub(super) struct Batches {
    targets: [Bitboard; MAX_BATCHES],
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
            kinds: [0; MAX_BATCHES],
            data: [0; MAX_BATCHES],
            specials: [Move::NULL; 4],
            len: 0,
            n_specials: 0,
            total: 0,
            forbidden,
        }
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
        self.targets[self.len] = targets;
        self.kinds[self.len] = kind;
        self.data[self.len] = data;
        self.len += 1;
        self.total += per * targets.count();
    }

    /// The number of moves the batches stand for.
    pub(super) fn total(&self) -> u32 {
        self.total
    }

    /// One move drawn uniformly from the batches (`None` when they hold none).
    pub(super) fn draw(&self, rng: &mut dyn RngCore) -> Option<Move> {
        if self.total == 0 {
            return None;
        }
        let mut k = rng.gen_range(0..self.total);
        for i in 0..self.len {
            let kind = self.kinds[i];
            let targets = self.targets[i];
            let promo = kind == PROMOTIONS || kind == PAWN_PROMOTION_SET;
            let size = targets.count() * if promo { 4 } else { 1 };
            if k >= size {
                k -= size;
                continue;
            }
            if kind == SPECIAL {
                return Some(self.specials[self.data[i] as usize]);
            }
            let (t, role) = if promo {
                (k / 4, Some(Role::PROMOTIONS[(k % 4) as usize]))
            } else {
                (k, None)
            };
            let to = nth(targets, t);
            let from = match kind {
                NORMAL | PROMOTIONS => Square::new(self.data[i]),
                _ => Square::new((to.index() as i8 - self.data[i] as i8) as u8),
            };
            return Some(match role {
                Some(r) => Move::new(from, to, MoveKind::Promotion(r)),
                None => Move::normal(from, to),
            });
        }
        None
    }
}

/// The `k`-th square of `set` in ascending order (`k < set.count()`).
#[inline]
fn nth(set: Bitboard, k: u32) -> Square {
    set.into_iter()
        .nth(k as usize)
        .expect("index below the set's size")
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

/// Blind tries of the side to move into `sink`: every move its own pieces allow on a
/// board holding only them (pawn pushes, pawn diagonals onto any square not its own,
/// promotions on the last rank, castling when no own piece stands between king and rook
/// or on their targets). The listing generator feeds a `MoveList`, the sampler
/// [`Batches`], so both see the same sets.
pub(super) fn blind_sets<S: MoveSink>(b: &Board, sink: &mut S) {
    let us = b.turn();
    let own = b.by_color(us);
    let last = Bitboard::relative_rank(us, 7);
    for sq in own {
        let role = b.piece_at(sq).expect("own piece").role;
        if role != Role::Pawn {
            sink.normal(sq, attacks::attacks(role, us, sq, own) - own);
            continue;
        }
        let one = Bitboard::from_square(sq).forward(us) - own;
        let two = one.forward(us) & (Bitboard::relative_rank(us, 3) - own);
        let diag = attacks::pawn_attacks(us, sq) - own;
        let targets = one | two | diag;
        // A pawn's targets are all on its last rank or none is (a double step never
        // reaches it).
        if (targets & last).any() {
            sink.promotions(sq, targets);
        } else {
            sink.normal(sq, targets);
        }
    }
    if let Some(king) = b.king(us) {
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
