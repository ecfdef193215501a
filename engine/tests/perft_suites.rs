//! Perft suites kept as data files (copied from the shared verified suites): every
//! position at every depth whose count is small enough for CI; the rest behind
//! `#[ignore]` (run them with `cargo test --release -- --ignored`).

use engine::{perft::perft, Board, CastlingMode};

/// Counts above this many nodes only run in the ignored (deep) tests.
const CI_NODE_LIMIT: u64 = 2_000_000;

struct Case {
    line: usize,
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn parse_suite(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';').map(str::trim);
        let fen = parts.next().unwrap().to_string();
        let depths = parts
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (d, n) = p
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("line {}: {p}", i + 1));
                let d: u32 = d.trim_start_matches('D').parse().unwrap();
                (d, n.trim().parse().unwrap())
            })
            .collect();
        cases.push(Case {
            line: i + 1,
            fen,
            depths,
        });
    }
    cases
}

fn run(text: &str, mode: CastlingMode, deep: bool) -> usize {
    let mut checked = 0;
    for case in parse_suite(text) {
        let mut board = Board::from_fen_with(&case.fen, mode)
            .unwrap_or_else(|e| panic!("line {}: {} rejected: {e}", case.line, case.fen));
        for &(depth, expected) in &case.depths {
            let is_deep = expected > CI_NODE_LIMIT;
            if is_deep != deep {
                continue;
            }
            let got = perft(&mut board, depth);
            assert_eq!(
                got, expected,
                "line {}: {} depth {depth}",
                case.line, case.fen
            );
            checked += 1;
        }
    }
    checked
}

const STANDARD: &str = include_str!("data/perft/standard.txt");
const CHESS960: &str = include_str!("data/perft/chess960.txt");

#[test]
fn standard_suite_shallow() {
    assert!(run(STANDARD, CastlingMode::Standard, false) > 500);
}

#[test]
fn chess960_suite_shallow() {
    assert!(run(CHESS960, CastlingMode::Chess960, false) > 3000);
}

#[test]
#[ignore = "deep perft: minutes in release mode"]
fn standard_suite_deep() {
    run(STANDARD, CastlingMode::Standard, true);
}

#[test]
#[ignore = "deep perft: tens of minutes in release mode"]
fn chess960_suite_deep() {
    run(CHESS960, CastlingMode::Chess960, true);
}
