//! The experiments library behind the `chesslab` command, laid out by concept. Arrows
//! point down only (`experiments/tests/layout.rs` keeps it so):
//!
//! - [`cli`]: one small file per subcommand (arguments, help, calling the library,
//!   printing); depends on everything below, nothing depends on it.
//! - [`studies`]: balance and report, tune, values, texel, texel_tables, the README tables, the verdicts page: studies made of
//!   many games; `studies::panel` (a panel of players) sits below the studies that share
//!   it.
//! - [`serve`]: the playtest board (HTTP) and the UCI engine: bots for outside programs.
//! - [`golf`]: Chess Golf problems: deal, solve, generate, score, render.
//! - [`run`]: playing games: game play, matches (the one loop tournament, balance and
//!   tune share), tournaments, openings, shards and merge, adjudication, replay, verify,
//!   traces, interruption.
//! - [`stats`]: Elo, pentanomial, SPRT, standings, metrics, strength.
//! - [`record`] (the `games.csv` format every layer reads) and [`util`] (seeds, digests,
//!   number parsers, standard output): the foundation, depending on nothing else here.

pub mod cli;
pub mod golf;
pub mod record;
pub mod run;
pub mod serve;
pub mod stats;
pub mod studies;
pub mod util;

/// Kept at the crate root for the tests that name it there (`experiments::gameplay`).
pub use run::gameplay;
