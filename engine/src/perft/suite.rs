//! Perft suites kept as data files, checked by one generic harness for any variant (after
//! shakmaty's `test_perft_file`): the orthodox and Chess960 suites, Half Alice against
//! Alice Chess counts, and any variant a data file is written for.
//!
//! File format, one position per line: `<opening> ; D<depth> <nodes> ; ...`, where the
//! opening is whatever the variant's `from_opening` reads (a FEN for chess-like games) or
//! `startpos` for the variant's start; `#` starts a comment line.

use crate::game::{perft as game_perft, Game};
use thiserror::Error;

/// One position of a suite with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// 1-based line number in the file.
    pub line: usize,
    pub opening: String,
    pub depths: Vec<(u32, u64)>,
}

/// A suite that does not parse, a position that does not load, or a wrong count.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SuiteError {
    #[error("line {line}: '{text}' is not `D<depth> <nodes>`")]
    Syntax { line: usize, text: String },
    #[error("line {line}: '{opening}' does not load: {reason}")]
    Load {
        line: usize,
        opening: String,
        reason: String,
    },
    #[error("line {line}: {opening} depth {depth}: expected {expected}, counted {got}")]
    Mismatch {
        line: usize,
        opening: String,
        depth: u32,
        expected: u64,
        got: u64,
    },
}

/// Reads a suite file.
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, SuiteError> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';').map(str::trim);
        let opening = parts.next().unwrap_or_default().to_string();
        let mut depths = Vec::new();
        for p in parts.filter(|p| !p.is_empty()) {
            let bad = || SuiteError::Syntax {
                line: i + 1,
                text: p.to_string(),
            };
            let (d, n) = p.split_once(' ').ok_or_else(bad)?;
            let d = d.strip_prefix('D').ok_or_else(bad)?;
            depths.push((
                d.parse().map_err(|_| bad())?,
                n.trim().parse().map_err(|_| bad())?,
            ));
        }
        cases.push(PerftCase {
            line: i + 1,
            opening,
            depths,
        });
    }
    Ok(cases)
}

/// Checks every count of `text` for which `select(expected)` holds: `load` builds the
/// position, `count` counts its leaves. Returns how many counts were checked.
pub fn check_suite<T, E: std::fmt::Display>(
    text: &str,
    load: impl Fn(&str) -> Result<T, E>,
    count: impl Fn(&mut T, u32) -> u64,
    select: impl Fn(u64) -> bool,
) -> Result<usize, SuiteError> {
    let mut checked = 0;
    for case in parse_suite(text)? {
        let mut pos = load(&case.opening).map_err(|e| SuiteError::Load {
            line: case.line,
            opening: case.opening.clone(),
            reason: e.to_string(),
        })?;
        for &(depth, expected) in case.depths.iter().filter(|d| select(d.1)) {
            let got = count(&mut pos, depth);
            if got != expected {
                return Err(SuiteError::Mismatch {
                    line: case.line,
                    opening: case.opening,
                    depth,
                    expected,
                    got,
                });
            }
            checked += 1;
        }
    }
    Ok(checked)
}

/// [`check_suite`] for any variant through the game API (`startpos` = `G::new`).
pub fn check_game_suite<G: Game>(
    text: &str,
    params: &G::Params,
    select: impl Fn(u64) -> bool,
) -> Result<usize, SuiteError> {
    check_suite(
        text,
        |opening| {
            if opening == "startpos" {
                Ok(G::new(params))
            } else {
                G::from_opening(params, opening)
            }
        },
        |g, depth| game_perft(g, depth),
        select,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::chess::{Chess, ChessParams};

    #[test]
    fn a_wrong_count_and_bad_syntax_are_reported_with_the_line() {
        let p = ChessParams::default();
        let ok = "# comment\nstartpos ; D1 20 ; D2 400\n";
        assert_eq!(check_game_suite::<Chess>(ok, &p, |_| true), Ok(2));
        let wrong = "startpos ; D1 20\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ; D1 14\n";
        assert!(matches!(
            check_game_suite::<Chess>(wrong, &p, |_| true),
            Err(SuiteError::Mismatch {
                line: 2,
                got: 15,
                ..
            })
        ));
        assert!(matches!(
            parse_suite("startpos ; 1 20"),
            Err(SuiteError::Syntax { line: 1, .. })
        ));
        assert!(matches!(
            check_game_suite::<Chess>("nonsense ; D1 1", &p, |_| true),
            Err(SuiteError::Load { line: 1, .. })
        ));
    }
}
