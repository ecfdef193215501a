//! Time for one decision: from `time_ms` (a fixed time a move, like a UCI engine's
//! `movetime`) or from the agent's own clock under `tc=` (cutechess's form, as `uci`).
//!
//! Decisions where the issue is silent: under a clock the agent plans for
//! [`MOVES_AHEAD`] more moves (or the moves left in the period) and adds three quarters
//! of the increment, never more than half of what is left minus a safety margin; the
//! search starts no new iteration after [`SOFT`] of the budget (the next one would
//! rarely finish, and the time saved stays on the clock), and the hard stop is the
//! budget itself, read every 1024 nodes. Under `time_ms` (generation 3) the search runs
//! to the hard stop: a fixed time a move is not saved by stopping early, and the
//! unfinished iteration's move is played when it beat the last best. The
//! clock is charged with the wall time of each decision (set-up, sampled worlds and
//! fallbacks included: the budget is the whole decision's, issue 64). A decision that
//! overruns the clock by more than [`MARGIN`] loses on time (`forfeit-time`), as an
//! outside engine does (`uci`'s `margin_ms` default is the same 500 ms), so `--tc`
//! means the same for every agent; within the margin the clock stops at zero. Tests:
//! `rule_time_*` below and `alphabeta_plays_by_time` in agents/tests/search.rs.

use crate::uci::tc::{Clock, TimeControl};
use std::time::Duration;

/// Moves the agent expects still to play under a clock without periods.
pub const MOVES_AHEAD: u64 = 30;
/// Fraction of the budget after which no new iteration starts.
pub const SOFT: f64 = 0.5;
/// Kept back from the clock for the game loop's own work.
const RESERVE_MS: u64 = 20;
/// How far past its clock a decision may end before it is a loss on time.
pub const MARGIN: Duration = Duration::from_millis(500);

/// The agent's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct GameClock {
    clock: Clock,
}

impl GameClock {
    pub fn new(tc: TimeControl) -> GameClock {
        GameClock {
            clock: Clock::new(tc),
        }
    }

    /// The time to spend on the next move.
    pub fn budget(&self) -> Duration {
        let left = self.clock.left_ms.saturating_sub(RESERVE_MS);
        let ahead = self
            .clock
            .moves_to_go()
            .map_or(MOVES_AHEAD, |m| (m as u64).max(1));
        let inc = self.clock.tc.inc_ms;
        let ms = (left / ahead + inc * 3 / 4).min(left / 2).max(1);
        Duration::from_millis(ms)
    }

    /// Charges a move that took `used`; false when it overran the clock by more than
    /// [`MARGIN`] (a loss on time).
    pub fn charge(&mut self, used: Duration) -> bool {
        self.clock.charge(used, MARGIN)
    }

    pub fn left_ms(&self) -> u64 {
        self.clock.left_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_time_budget_spreads_the_clock() {
        let c = GameClock::new(TimeControl::parse("10+0.1").unwrap());
        // (10000 - 20) / 30 + 75 = 407.
        assert_eq!(c.budget(), Duration::from_millis(407));
        let c = GameClock::new(TimeControl::parse("4/2").unwrap());
        assert_eq!(c.budget(), Duration::from_millis((2000 - 20) / 4));
    }

    #[test]
    fn rule_time_budget_shrinks_and_never_overdraws() {
        let mut c = GameClock::new(TimeControl::parse("1+0.01").unwrap());
        let first = c.budget();
        c.charge(Duration::from_millis(900));
        assert_eq!(c.left_ms(), 100 + 10);
        assert!(c.budget() < first);
        assert!(c.budget().as_millis() as u64 <= c.left_ms() / 2);
        // An overrun within the margin empties the clock without a forfeit; the budget
        // stays positive.
        let over = Duration::from_millis(c.left_ms() + 400);
        assert!(c.charge(over));
        assert_eq!(c.left_ms(), 10);
        assert!(c.budget() >= Duration::from_millis(1));
        // Beyond the margin: a loss on time.
        assert!(!c.charge(Duration::from_millis(10) + MARGIN + Duration::from_millis(1)));
    }
}
