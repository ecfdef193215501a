//! Search limits of a `uci` agent and the clock chesslab keeps for it.
//!
//! Time controls are written as cutechess and fastchess write them: `moves/time+inc`,
//! `time+inc` or `time`, times in seconds (fractions allowed): `40/60+0.6` is 60 s for
//! every 40 moves plus 0.6 s a move. Tests: `rule_tc_*` below.

use std::time::Duration;

/// What a `go` command asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    Nodes(u64),
    Movetime(u64),
    Depth(u64),
    Clock(TimeControl),
}

/// A time control (milliseconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`None`: the whole game is one period).
    pub moves: Option<u32>,
    pub base_ms: u64,
    pub inc_ms: u64,
}

fn seconds_to_ms(text: &str) -> Option<u64> {
    let v: f64 = text.trim().parse().ok()?;
    (v.is_finite() && (0.0..=1e9).contains(&v)).then(|| (v * 1000.0).round() as u64)
}

impl TimeControl {
    /// Reads `moves/time+inc`, `time+inc` or `time` (seconds).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!(
                "time control '{text}': expected moves/seconds+increment, seconds+increment or seconds (for example 40/60+0.6 or 10+0.1)"
            )
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => {
                let m: u32 = m.trim().parse().map_err(|_| bad())?;
                if m == 0 {
                    return Err(bad());
                }
                (Some(m), r)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (
                seconds_to_ms(b).ok_or_else(bad)?,
                seconds_to_ms(i).ok_or_else(bad)?,
            ),
            None => (seconds_to_ms(rest).ok_or_else(bad)?, 0),
        };
        if base == 0 {
            return Err(bad());
        }
        Ok(TimeControl {
            moves,
            base_ms: base,
            inc_ms: inc,
        })
    }
}

/// One engine's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub tc: TimeControl,
    /// Milliseconds left.
    pub left_ms: u64,
    /// Moves made this game.
    pub moves_made: u32,
    /// Moves left in this period (time controls with periods).
    period_left: Option<u32>,
}

impl Clock {
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            left_ms: tc.base_ms,
            moves_made: 0,
            period_left: tc.moves,
        }
    }

    /// `movestogo` for the next move, when the control has periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.period_left
    }

    /// Charges a move that took `used`. Returns `false` when it overstepped the time
    /// left by more than `margin` (a loss on time); within the margin the clock stops at
    /// zero. Then the increment is added, and a new period's time when one begins.
    pub fn charge(&mut self, used: Duration, margin: Duration) -> bool {
        let used = used.as_millis() as u64;
        if used > self.left_ms + margin.as_millis() as u64 {
            self.left_ms = 0;
            return false;
        }
        self.left_ms = self.left_ms.saturating_sub(used) + self.tc.inc_ms;
        self.moves_made += 1;
        if let (Some(left), Some(m)) = (self.period_left.as_mut(), self.tc.moves) {
            *left -= 1;
            if *left == 0 {
                *left = m;
                self.left_ms += self.tc.base_ms;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_tc_forms_as_cutechess_writes_them() {
        assert_eq!(
            TimeControl::parse("40/60+0.6").unwrap(),
            TimeControl {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 600
            }
        );
        assert_eq!(
            TimeControl::parse("10+0.1").unwrap(),
            TimeControl {
                moves: None,
                base_ms: 10_000,
                inc_ms: 100
            }
        );
        assert_eq!(TimeControl::parse("2.5").unwrap().base_ms, 2500);
        for bad in ["", "0", "x+1", "0/60", "40/", "60+", "-1+0", "nan"] {
            let e = TimeControl::parse(bad).unwrap_err();
            assert!(e.contains("expected moves/seconds+increment"), "{bad}: {e}");
        }
    }

    #[test]
    fn rule_tc_clock_increment_periods_and_time_loss() {
        let tc = TimeControl::parse("2/1+0.1").unwrap();
        let mut c = Clock::new(tc);
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(Duration::from_millis(400), Duration::ZERO));
        assert_eq!(c.left_ms, 700);
        assert_eq!(c.moves_to_go(), Some(1));
        // Second move of the period: a new second arrives with the increment.
        assert!(c.charge(Duration::from_millis(200), Duration::ZERO));
        assert_eq!(c.left_ms, 500 + 100 + 1000);
        assert_eq!(c.moves_to_go(), Some(2));
        // Over the time left, within the margin: the clock stops at zero.
        let mut c = Clock::new(TimeControl::parse("1").unwrap());
        assert!(c.charge(Duration::from_millis(1050), Duration::from_millis(100)));
        assert_eq!(c.left_ms, 0);
        // Beyond the margin: lost on time.
        let mut c = Clock::new(TimeControl::parse("1").unwrap());
        assert!(!c.charge(Duration::from_millis(1200), Duration::from_millis(100)));
    }
}
