//! The deadline of the decision running on this thread, for the few loops inside a
//! variant that can run long while an agent searches (issue 64): Clairvoyant Chess's
//! search for further drops that end a check ([`crate::variants::clairvoyant::purchases`]),
//! whose work grows with the balance. An agent sets its decision's end (its own time
//! budget, or limits from outside such as a server's time limit and a stop flag) with
//! [`within`]; outside any, [`passed`] is always false, so the game loop, replays and
//! every tool see the exact rules.
//!
//! What a variant may do once the deadline has passed is narrow: leave out of a legal
//! list the actions whose legality it has not finished establishing (every action it
//! lists is still legal), and never leave a list empty that would not be (it then
//! finishes the work). Only the searching agent's own copies of the game see such a
//! list, after its time is up. Kept exact whatever the deadline: whether the game is
//! over (`any_drop`), a recorded action's check (`offered`, replays) and
//! `sample_world` (a cut list would fail a redraw and keep the true world). Tests:
//! `deadline_*` below and `budgets_clairvoyant_cut_lists_are_legal_subsets` in
//! agents/tests/budgets.rs.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// When the running decision must end: a time, a flag raised from another thread, or
/// both.
#[derive(Clone, Debug, Default)]
pub struct Deadline {
    pub at: Option<Instant>,
    pub stop: Option<Arc<AtomicBool>>,
}

impl Deadline {
    /// Whether this deadline has passed (or its flag is raised).
    pub fn passed(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || self.at.is_some_and(|t| Instant::now() >= t)
    }
}

/// This thread's deadline: the earliest time and every flag of the enclosing
/// [`within`] calls.
#[derive(Clone, Debug, Default)]
struct State {
    at: Option<Instant>,
    stops: Vec<Arc<AtomicBool>>,
}

thread_local! {
    static CURRENT: RefCell<Option<State>> = const { RefCell::new(None) };
}

/// Restores the enclosing state when a scope ends (panics included).
struct Restore(Option<State>);

impl Drop for Restore {
    fn drop(&mut self) {
        let old = self.0.take();
        CURRENT.with(|c| *c.borrow_mut() = old);
    }
}

/// Runs `f` with `d` as this thread's deadline. Nested calls keep the earlier time and
/// every flag given so far (an agent's own budget inside a server's limit).
pub fn within<R>(d: Deadline, f: impl FnOnce() -> R) -> R {
    let outer = CURRENT.with(|c| c.borrow().clone());
    let mut merged = outer.clone().unwrap_or_default();
    merged.at = match (merged.at, d.at) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    merged.stops.extend(d.stop);
    let _restore = Restore(outer);
    CURRENT.with(|c| *c.borrow_mut() = Some(merged));
    f()
}

/// Whether this thread's deadline has passed or one of its flags is raised (false
/// outside [`within`]).
#[inline]
pub fn passed() -> bool {
    CURRENT.with(|c| {
        c.borrow().as_ref().is_some_and(|s| {
            s.stops.iter().any(|f| f.load(Ordering::Relaxed))
                || s.at.is_some_and(|t| Instant::now() >= t)
        })
    })
}

/// This thread's deadline time, if any.
pub fn at() -> Option<Instant> {
    CURRENT.with(|c| c.borrow().as_ref().and_then(|s| s.at))
}

/// Runs `f` with no deadline: work whose result must be exact whatever the time (a
/// list that would otherwise come out empty).
pub fn exact<R>(f: impl FnOnce() -> R) -> R {
    let outer = CURRENT.with(|c| c.borrow_mut().take());
    let _restore = Restore(outer);
    f()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn deadline_nests_and_is_restored() {
        assert!(!passed());
        let soon = Instant::now() + Duration::from_secs(3600);
        within(
            Deadline {
                at: Some(soon),
                stop: None,
            },
            || {
                assert!(!passed());
                assert_eq!(at(), Some(soon));
                within(
                    Deadline {
                        at: Some(Instant::now()),
                        stop: None,
                    },
                    || {
                        assert!(passed());
                        assert!(!exact(passed), "no deadline inside exact");
                        assert!(passed(), "restored after exact");
                    },
                );
                assert!(!passed(), "the outer deadline is back");
            },
        );
        assert!(!passed());
        assert_eq!(at(), None);
    }

    #[test]
    fn deadline_flags_stop_from_any_level() {
        let outer = Arc::new(AtomicBool::new(false));
        let inner = Arc::new(AtomicBool::new(false));
        within(
            Deadline {
                at: None,
                stop: Some(outer.clone()),
            },
            || {
                within(
                    Deadline {
                        at: None,
                        stop: Some(inner.clone()),
                    },
                    || {
                        assert!(!passed());
                        outer.store(true, Ordering::Relaxed);
                        assert!(passed(), "the outer flag still stops");
                        outer.store(false, Ordering::Relaxed);
                        inner.store(true, Ordering::Relaxed);
                        assert!(passed());
                    },
                );
            },
        );
        assert!(!passed());
    }
}
