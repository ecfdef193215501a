//! Tables a finished searcher leaves for the next one on the same thread, so that a
//! fresh searcher does not write megabytes before its first node (issue 36's speed
//! floor: the `agents` bench builds one searcher per search of a few thousand nodes, and
//! `pimc:search=alphabeta` builds one per sampled world per decision; the transposition
//! table alone is 6 MiB at the default `tt_bits` 18).
//!
//! A table taken from here is emptied by its own stamp ([`super::tt::Tt::clear`],
//! [`super::evals::EvalCache::new_search`]), never by writing its slots, so a searcher
//! with a reused table searches exactly the tree of one with a new table (test
//! `alphabeta_reused_tables_change_no_tree` in agents/tests/search.rs). Decisions: the
//! spares are per thread (no lock, and a tournament's worker threads each keep their
//! own), at most [`KEPT`] wait per thread (the oldest goes first), and a table is taken
//! only by a searcher asking for the same type and size.

use std::any::Any;
use std::cell::RefCell;

/// At most this many tables wait on one thread (a game between two `alphabeta` players
/// has two searchers, each with a transposition table and an evaluation cache).
const KEPT: usize = 4;

thread_local! {
    static SPARE: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// A waiting table of type `T` for which `fits` holds, if any.
fn take<T: 'static>(fits: impl Fn(&T) -> bool) -> Option<T> {
    SPARE
        .try_with(|s| {
            let mut s = s.borrow_mut();
            let i = s
                .iter()
                .position(|b| b.downcast_ref::<T>().is_some_and(&fits))?;
            s.remove(i).downcast::<T>().ok().map(|b| *b)
        })
        .ok()
        .flatten()
}

/// A waiting table of type `T` for which `fits` holds, emptied by `empty`; else `make()`.
pub(super) fn take_or<T: 'static>(
    fits: impl Fn(&T) -> bool,
    empty: impl FnOnce(&mut T),
    make: impl FnOnce() -> T,
) -> T {
    match take(fits) {
        Some(mut t) => {
            empty(&mut t);
            t
        }
        None => make(),
    }
}

/// Leaves `table` for the next searcher on this thread (dropped instead while the
/// thread is ending).
pub(super) fn give<T: 'static>(table: T) {
    let _ = SPARE.try_with(|s| {
        let mut s = s.borrow_mut();
        if s.len() == KEPT {
            s.remove(0);
        }
        s.push(Box::new(table));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_taken_back_only_by_its_type_and_size() {
        give(vec![7u32; 8]);
        assert!(take::<Vec<u64>>(|_| true).is_none());
        assert!(take::<Vec<u32>>(|v| v.len() == 16).is_none());
        assert_eq!(take::<Vec<u32>>(|v| v.len() == 8), Some(vec![7u32; 8]));
        assert!(take::<Vec<u32>>(|_| true).is_none());
    }

    #[test]
    fn at_most_kept_tables_wait_and_the_oldest_goes_first() {
        for i in 0..KEPT + 2 {
            give(i);
        }
        let mut left: Vec<usize> = std::iter::from_fn(|| take::<usize>(|_| true)).collect();
        left.sort();
        assert_eq!(left, (2..KEPT + 2).collect::<Vec<_>>());
    }
}
