//! The searcher's cache of static evaluations: one slot per low bits of the state key,
//! checked by the whole key and the seat evaluated for, so a position reached again
//! (transpositions, the null-move test then quiescence, re-searches of PVS and the
//! aspiration windows, the next iteration) is scored by one lookup instead of the
//! evaluation (issue 36: the evaluation was a fifth of alphabeta's time).
//!
//! Decisions: the cache holds the evaluation before the noise (the noise is added on
//! every read, as before), so a cached score is the score the evaluation gives; it
//! trusts the 64-bit state key as the transposition table does (`Game::state_key` is a
//! hash of the full state). Slots carry the stamp of the search that wrote them and a
//! new search takes a new stamp, so nothing survives into a search whose evaluator or
//! teams may differ (the config is public) and no search pays for clearing the table
//! (nor a new searcher: it takes the cache a finished one left on its thread,
//! [`super::spare`]).
//! A slot is overwritten by whatever lands on it last. Tests: `evals::tests` below, and
//! `alphabeta_eval_cache_changes_no_tree` (agents/tests/search.rs).

use engine::game::Seat;

/// log2 of the number of slots (16 bytes each: 512 KiB).
pub(super) const EVAL_CACHE_BITS: u32 = 15;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    score: i32,
    seat: u16,
    /// The search that wrote the slot; 0: never written.
    stamp: u16,
}

pub(super) struct EvalCache {
    slots: Vec<Slot>,
    stamp: u16,
}

impl EvalCache {
    /// An empty cache of `2^bits` slots: a spare one of that size from this thread if
    /// there is one ([`super::spare`]), else a new one.
    pub fn new(bits: u32) -> Self {
        let n = 1usize << bits;
        super::spare::take_or(
            |c: &Self| c.slots.len() == n,
            Self::new_search,
            || EvalCache {
                slots: vec![Slot::default(); n],
                stamp: 1,
            },
        )
    }

    /// Where the slots are (tests: which table a searcher holds).
    #[cfg(test)]
    pub fn slots_ptr(&self) -> *const u8 {
        self.slots.as_ptr().cast()
    }

    /// Forgets every score (without touching the slots unless the stamps wrap).
    pub fn new_search(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill(Slot::default());
            self.stamp = 1;
        }
    }

    /// The cached score of the position `key` for `seat`, else `eval()`, kept.
    #[inline]
    pub fn get_or_insert(&mut self, key: u64, seat: Seat, eval: impl FnOnce() -> i32) -> i32 {
        let i = (key as usize) & (self.slots.len() - 1);
        let s = self.slots[i];
        if s.stamp == self.stamp && s.key == key && s.seat as usize == seat {
            return s.score;
        }
        let score = eval();
        self.slots[i] = Slot {
            key,
            score,
            seat: seat as u16,
            stamp: self.stamp,
        };
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{search_weights, Evaluator};
    use engine::game::Game;
    use engine::variants::chess::{Chess, ChessParams};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    fn score(e: &Evaluator, g: &Chess, seat: Seat) -> i32 {
        (e.evaluate(g, seat) * 100.0).round() as i32
    }

    /// Over the positions of random games, read through a small cache (so slots are
    /// shared and overwritten), every score is the evaluation's, for both seats.
    #[test]
    fn cached_scores_equal_the_evaluation_on_random_positions() {
        let e = Evaluator::new(search_weights().clone());
        let mut cache = EvalCache::new(6);
        let mut rng = Pcg64::seed_from_u64(36);
        let mut seen = Vec::new();
        for _ in 0..40 {
            let mut g = Chess::new(&ChessParams::default());
            let mut moves = Vec::new();
            for _ in 0..rng.gen_range(0..80) {
                let Some(b) = g.board() else { break };
                g.legal_actions(b.turn().index(), &mut moves);
                if moves.is_empty() {
                    break;
                }
                g.apply(moves[rng.gen_range(0..moves.len())]);
                seen.push(g.clone());
            }
        }
        assert!(seen.len() > 1000, "{}", seen.len());
        for g in &seen {
            for seat in 0..2 {
                for read in 0..2 {
                    let mut computed = false;
                    let got = cache.get_or_insert(g.state_key(), seat, || {
                        computed = true;
                        score(&e, g, seat)
                    });
                    assert_eq!(got, score(&e, g, seat), "seat {seat} read {read}");
                    // The second read of the same position and seat is the cache's.
                    assert_eq!(computed, read == 0, "seat {seat} read {read}");
                }
            }
        }
        // A last pass after all the overwrites, where recurring positions may hit.
        for g in &seen {
            let got = cache.get_or_insert(g.state_key(), 1, || score(&e, g, 1));
            assert_eq!(got, score(&e, g, 1));
        }
    }

    #[test]
    fn a_new_search_forgets_and_the_seat_is_checked() {
        let mut c = EvalCache::new(4);
        assert_eq!(c.get_or_insert(5, 0, || 7), 7);
        assert_eq!(c.get_or_insert(5, 0, || 8), 7);
        assert_eq!(c.get_or_insert(5, 1, || 9), 9);
        c.new_search();
        assert_eq!(c.get_or_insert(5, 1, || 10), 10);
        // Stamps wrap without reviving old slots.
        for _ in 0..u16::MAX {
            c.new_search();
        }
        assert_ne!(c.stamp, 0);
        assert_eq!(c.get_or_insert(5, 1, || 11), 11);
    }
}
