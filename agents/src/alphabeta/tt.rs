//! The transposition table: one entry per slot, indexed by the low bits of the state key
//! and checked by the whole key; an entry is replaced by a different position, or by the
//! same position searched at least as deep. Mate scores are stored relative to the node
//! (`to_tt`/`from_tt`) so they stay right when found again at another ply.
//!
//! Entries carry the stamp of the table's current contents: [`Tt::clear`] takes a new
//! stamp instead of writing every slot (the slots are written only when the stamps wrap),
//! and an entry with another stamp is an empty slot. So a table left by a finished
//! searcher ([`super::spare`]) serves the next one as a new table would.

use super::MATE_BOUND;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct TtEntry<A> {
    pub key: u64,
    pub depth: i16,
    pub bound: Bound,
    pub score: i32,
    pub best: Option<A>,
    /// The contents the entry belongs to (see [`Tt::clear`]).
    stamp: u16,
}

pub(super) struct Tt<A> {
    slots: Vec<Option<TtEntry<A>>>,
    stamp: u16,
}

impl<A: Copy + 'static> Tt<A> {
    /// An empty table of `2^bits` slots: a spare one of that size from this thread if
    /// there is one ([`super::spare`]), else a new one.
    pub fn new(bits: u32) -> Self {
        let n = 1usize << bits;
        super::spare::take_or(
            |t: &Self| t.slots.len() == n,
            Self::clear,
            || Tt {
                slots: vec![None; n],
                stamp: 1,
            },
        )
    }

    /// A table with no slots, to stand in for one given away.
    pub fn none() -> Self {
        Tt {
            slots: Vec::new(),
            stamp: 1,
        }
    }

    pub fn has_slots(&self) -> bool {
        !self.slots.is_empty()
    }

    /// Where the slots are (tests: which table a searcher holds).
    #[cfg(test)]
    pub fn slots_ptr(&self) -> *const u8 {
        self.slots.as_ptr().cast()
    }

    /// Empties the table: a new stamp, so no entry of before is found or kept.
    pub fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill(None);
            self.stamp = 1;
        }
    }

    /// The entry of the current contents in `key`'s slot.
    #[inline]
    fn current(&self, i: usize) -> Option<TtEntry<A>> {
        self.slots[i].filter(|e| e.stamp == self.stamp)
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry<A>> {
        self.current((key as usize) & (self.slots.len() - 1))
            .filter(|e| e.key == key)
    }

    /// The score of an entry for this node, and whether it settles the node at `depth`
    /// within (`alpha`, `beta`).
    #[inline]
    pub fn cutoff(e: &TtEntry<A>, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        if (e.depth as i32) < depth {
            return None;
        }
        let sc = from_tt(e.score, ply);
        match e.bound {
            Bound::Exact => Some(sc),
            Bound::Lower if sc >= beta => Some(sc),
            Bound::Upper if sc <= alpha => Some(sc),
            _ => None,
        }
    }

    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        best: Option<A>,
        ply: usize,
    ) {
        let i = (key as usize) & (self.slots.len() - 1);
        let old = self.current(i);
        let replace = match old {
            None => true,
            Some(e) => e.key != key || e.depth as i32 <= depth,
        };
        if replace {
            // Keep the known best move when a shallower bound without one replaces it.
            let best = best.or_else(|| old.filter(|e| e.key == key).and_then(|e| e.best));
            self.slots[i] = Some(TtEntry {
                key,
                depth: depth as i16,
                bound,
                score: to_tt(score, ply),
                best,
                stamp: self.stamp,
            });
        }
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clearing_forgets_every_entry_even_when_the_stamps_wrap() {
        let mut t = Tt::<u16>::new(4);
        for round in 0..70_000u32 {
            let key = 3 + 16 * u64::from(round % 5);
            assert!(t.probe(key).is_none(), "round {round}");
            t.store(key, 2, 10, Bound::Exact, Some(7), 0);
            assert_eq!(t.probe(key).map(|e| (e.score, e.best)), Some((10, Some(7))));
            t.clear();
        }
    }

    #[test]
    fn a_table_left_on_the_thread_is_taken_again_and_empty() {
        let mut t = Tt::<u16>::new(5);
        t.store(9, 3, 1, Bound::Lower, Some(1), 0);
        let slots = t.slots.as_ptr();
        super::super::spare::give(t);
        assert!(
            Tt::<u16>::new(4).probe(9).is_none(),
            "another size is a new table"
        );
        let again = Tt::<u16>::new(5);
        assert_eq!(again.slots.as_ptr(), slots);
        assert!(again.probe(9).is_none());
    }
}
