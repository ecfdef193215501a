//! Perft suites kept as data files (copied from the shared verified suites), all checked
//! by the one harness `engine::perft::suite`: every position at every depth whose count
//! is small enough for CI; the rest behind `#[ignore]` (run them with
//! `cargo test --release -p engine -- --ignored`).
//!
//! - `standard.txt`, `chess960.txt`: orthodox and Chess960 suites (sources in their
//!   headers), counted on the bare `Board` with bulk counting;
//! - `half-alice.txt`: Half Alice against Alice Chess counts from an independent
//!   implementation (pyffish-alice; see its header), counted through the game API.

use engine::perft::perft;
use engine::perft::suite::{check_game_suite, check_suite};
use engine::variants::half_alice::{HalfAlice, HalfAliceParams};
use engine::{Board, CastlingMode};

/// Counts above this many nodes only run in the ignored (deep) tests.
const CI_NODE_LIMIT: u64 = 2_000_000;

const STANDARD: &str = include_str!("data/perft/standard.txt");
const CHESS960: &str = include_str!("data/perft/chess960.txt");
const HALF_ALICE: &str = include_str!("data/perft/half-alice.txt");

fn board_suite(text: &str, mode: CastlingMode, deep: bool) -> usize {
    check_suite(
        text,
        |fen| Board::from_fen_with(fen, mode),
        perft,
        |n| (n > CI_NODE_LIMIT) == deep,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn standard_suite_shallow() {
    assert!(board_suite(STANDARD, CastlingMode::Standard, false) > 500);
}

#[test]
fn chess960_suite_shallow() {
    assert!(board_suite(CHESS960, CastlingMode::Chess960, false) > 3000);
}

#[test]
fn half_alice_perft_matches_independent_alice_counts() {
    let n = check_game_suite::<HalfAlice>(HALF_ALICE, &HalfAliceParams::default(), |_| true)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(n >= 5);
}

#[test]
#[ignore = "deep perft: minutes in release mode"]
fn standard_suite_deep() {
    board_suite(STANDARD, CastlingMode::Standard, true);
}

#[test]
#[ignore = "deep perft: tens of minutes in release mode"]
fn chess960_suite_deep() {
    board_suite(CHESS960, CastlingMode::Chess960, true);
}
