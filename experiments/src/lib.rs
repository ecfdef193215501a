//! The experiments library behind the `chesslab` command: game play ([`gameplay`]),
//! match scheduling and parallel play ([`matches`]), records ([`record`]), statistics
//! ([`stats`], [`standings`]), and one module per command (`*_cmd`, [`tournament`]),
//! each a thin driver over those pieces. Tournaments, balance runs and the tuner all play
//! their games through [`matches::run`].

pub mod adjudication;
pub mod gameplay;
pub mod golf_cmd;
pub mod matches;
pub mod merge_cmd;
pub mod metrics;
pub mod openings;
pub mod openings_cmd;
pub mod perft_cmd;
pub mod play_cmd;
pub mod record;
pub mod replay_cmd;
pub mod report_cmd;
pub mod report_plots;
pub mod serve;
pub mod shard;
pub mod standings;
pub mod stats;
pub mod strength;
pub mod tournament;
pub mod trace_cmd;
pub mod tune;
pub mod uci_cmd;
pub mod util;
pub mod values;
pub mod variant_args;
pub mod verify_cmd;
