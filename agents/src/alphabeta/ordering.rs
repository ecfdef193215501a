//! Move ordering: the TT move, then captures by MVV-LVA, the two killers of the ply,
//! then quiet moves by history (from/to squares where the game names its moves, a hash
//! of the action otherwise), and last the captures that lose material by static
//! exchange (only where the searcher uses SEE, see [`super::see`]). Scores at or above
//! [`KILLER_BASE`] mark moves late-move reductions and pruning leave alone; quiet moves
//! (killers and history, [`is_quiet`]) are the ones that earn history.

use super::search::AlphaBeta;
use crate::common::capture_score;
use engine::game::{Game, Seat};
use std::hash::{Hash, Hasher};

pub(super) const TT_BASE: i32 = 1 << 30;
pub(super) const CAPTURE_BASE: i32 = 1 << 24;
pub(super) const KILLER_BASE: i32 = 1 << 22;
/// History scores stay below the killers.
const HISTORY_MAX: i32 = KILLER_BASE - 1;
/// Captures that lose material come after every quiet move.
const BAD_CAPTURE_BASE: i32 = -(1 << 24);

/// Whether an ordering score is a quiet move's (a killer or history), not a capture's
/// or the TT move's.
#[inline]
pub(super) fn is_quiet(score: i32) -> bool {
    (-HISTORY_MAX..CAPTURE_BASE).contains(&score)
}

impl<G: Game> AlphaBeta<G> {
    /// Fills `bufs[ply]` with the legal actions and their ordering scores, in the
    /// game's order: a caller takes them best first with [`pick`] (or sorts them).
    pub(super) fn order_with(
        &mut self,
        g: &mut G,
        me: Seat,
        ply: usize,
        tt_move: Option<G::Action>,
    ) {
        g.legal_actions(me, &mut self.scratch);
        let mut buf = std::mem::take(&mut self.bufs[ply]);
        buf.clear();
        let killers = self.killers[ply];
        for i in 0..self.scratch.len() {
            let a = self.scratch[i];
            let s = if Some(a) == tt_move {
                TT_BASE
            } else if let Some(c) = capture_score(g, a) {
                if self.losing_capture(g, a) {
                    BAD_CAPTURE_BASE + c
                } else {
                    CAPTURE_BASE + c
                }
            } else if Some(a) == killers[0] {
                KILLER_BASE + 1
            } else if Some(a) == killers[1] {
                KILLER_BASE
            } else {
                self.history[action_index(g, a)]
            };
            buf.push((a, s));
        }
        self.bufs[ply] = buf;
    }

    /// A quiet move caused a cut-off: it becomes the ply's first killer and gains
    /// history; the quiet moves tried before it lose some.
    pub(super) fn reward_quiet(
        &mut self,
        g: &G,
        a: G::Action,
        ply: usize,
        depth: i32,
        tried: &[G::Action],
    ) {
        let k = &mut self.killers[ply];
        if k[0] != Some(a) {
            k[1] = k[0];
            k[0] = Some(a);
        }
        let bonus = depth * depth;
        let h = &mut self.history[action_index(g, a)];
        *h = (*h + bonus).min(HISTORY_MAX);
        for &q in tried {
            let h = &mut self.history[action_index(g, q)];
            *h = (*h - bonus).max(-HISTORY_MAX);
        }
    }
}

/// Brings the best-scored of `moves[i..]` to place `i` and keeps the others in their
/// order, so taking moves by `pick` gives a stable sort's order (best first, ties in the
/// game's order) while a node cut off after a few moves never sorts the rest; test
/// `picking_gives_the_stable_sort_order`.
#[inline]
pub(super) fn pick<A>(moves: &mut [(A, i32)], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].1 > moves[best].1 {
            best = j;
        }
    }
    moves[i..=best].rotate_right(1);
}

/// A 12-bit index of an action for the history table: from/to squares where the game
/// names the move ([`Game::action_move`]), a hash otherwise.
#[inline]
pub(super) fn action_index<G: Game>(g: &G, a: G::Action) -> usize {
    if let Some(m) = g.action_move(a) {
        return (m.code() & 0xFFF) as usize;
    }
    let mut h = FxHasher(0);
    a.hash(&mut h);
    (h.0 >> 52) as usize
}

struct FxHasher(u64);
impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::pick;

    #[test]
    fn picking_gives_the_stable_sort_order() {
        let mut seed = 7u64;
        for len in 0..40 {
            let mut moves: Vec<(usize, i32)> = (0..len)
                .map(|k| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (k, (seed >> 60) as i32 - 8)
                })
                .collect();
            let mut sorted = moves.clone();
            sorted.sort_by_key(|c| std::cmp::Reverse(c.1));
            for i in 0..moves.len() {
                pick(&mut moves, i);
            }
            assert_eq!(moves, sorted, "length {len}");
        }
    }
}
