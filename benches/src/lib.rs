//! Shared helpers for the chesslab benchmarks.
