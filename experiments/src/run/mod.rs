//! Playing games: one game ([`gameplay`], with [`adjudication`]), many games in parallel
//! ([`matches`], the one loop tournament, balance and tune share), tournaments
//! ([`tournament`]) with their openings ([`openings`], [`opening_suite`]), shards
//! ([`shard`]) and merge ([`merge`]), and reading games back: [`replay`], [`verify`],
//! [`trace`]. [`time_control`] is `--tc`; [`interrupt`] is Ctrl-C; [`variant_args`] the `--variant`/`--params` pair;
//! [`progress`] the bar on a terminal or a line per game elsewhere.
//!
//! May depend on [`crate::stats`], [`crate::record`] and [`crate::util`]; never on
//! `cli`, `studies`, `serve` or `golf`.

pub mod adjudication;
pub mod builds;
pub mod ext_bot;
pub mod gameplay;
pub mod interrupt;
pub mod matches;
pub mod merge;
pub mod opening_screen;
pub mod opening_suite;
pub mod openings;
pub mod progress;
pub mod replay;
pub mod shard;
pub mod time_control;
pub mod tournament;
pub mod trace;
pub mod variant_args;
pub mod verify;
