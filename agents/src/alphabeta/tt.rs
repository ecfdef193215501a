//! The transposition table: one entry per slot, indexed by the low bits of the state key
//! and checked by the whole key; an entry is replaced by a different position, or by the
//! same position searched at least as deep. Mate scores are stored relative to the node
//! (`to_tt`/`from_tt`) so they stay right when found again at another ply.

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
}

pub(super) struct Tt<A> {
    slots: Vec<Option<TtEntry<A>>>,
}

impl<A: Copy> Tt<A> {
    pub fn new(bits: u32) -> Self {
        Tt {
            slots: vec![None; 1usize << bits],
        }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|e| *e = None);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry<A>> {
        self.slots[(key as usize) & (self.slots.len() - 1)].filter(|e| e.key == key)
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
        let replace = match self.slots[i] {
            None => true,
            Some(e) => e.key != key || e.depth as i32 <= depth,
        };
        if replace {
            // Keep the known best move when a shallower bound without one replaces it.
            let best = best.or_else(|| self.slots[i].filter(|e| e.key == key).and_then(|e| e.best));
            self.slots[i] = Some(TtEntry {
                key,
                depth: depth as i16,
                bound,
                score: to_tt(score, ply),
                best,
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
