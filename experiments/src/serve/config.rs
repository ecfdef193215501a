//! `chesslab serve`'s flags ([`ServeArgs`]) and the [`Config`] a server is set up from
//! (the flags make one in `start::run`; tests and benches build one directly). Every
//! number's range is checked as the flag is read ([`super::limits::ranged`]).

use super::games::AgentRules;
use super::{limits, listen, store};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to bind; anything but loopback exposes the board to the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Another name the board may be reached by (repeatable). Requests whose Host or
    /// Origin is not localhost, 127.0.0.1, [::1], the bound address or one of these are
    /// refused (the defence against DNS rebinding and other pages).
    #[arg(long = "host", value_name = "NAME")]
    pub hosts: Vec<String>,
    /// Folder of the games database (games.sqlite), so games survive a restart.
    #[arg(long, default_value = "chesslab-data")]
    pub data: PathBuf,
    /// Keep games in memory only (gone when the server stops).
    #[arg(long, conflicts_with = "data")]
    pub no_data: bool,
    /// An evaluation file requests may name as `eval=NAME` (repeatable; requests never
    /// name paths).
    #[arg(long = "eval", value_name = "NAME=FILE")]
    pub evals: Vec<String>,
    #[command(flatten)]
    pub limits: limits::Limits,
    /// A results folder whose games.csv the page can open (watch mode).
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Most live games at once (at most 100,000).
    #[arg(long, value_parser = limits::ranged_usize(1, 100_000), default_value_t = 1000)]
    pub max_games: usize,
    /// Minutes without a request after which a game is dropped (at most a week, 10,080).
    #[arg(long, value_parser = limits::ranged(1, 10_080), default_value_t = 60)]
    pub idle_minutes: u64,
    /// Most live games one client (one address) may have created.
    #[arg(long, value_parser = limits::ranged_usize(1, 100_000), default_value_t = 100)]
    pub max_games_per_client: usize,
    /// Most games one client may create in a minute.
    #[arg(long, value_parser = limits::ranged_usize(1, 100_000), default_value_t = 60)]
    pub max_creates_per_minute: usize,
    /// Minutes after its creation a game with a human seat is dropped if no human has
    /// acted in it (at most a week).
    #[arg(long, value_parser = limits::ranged(1, 10_080), default_value_t = 10)]
    pub unplayed_minutes: u64,
    /// Most open connections (more wait in the kernel's queue).
    #[arg(long, value_parser = limits::ranged_usize(1, 100_000), default_value_t = 1024)]
    pub max_connections: usize,
    /// Most open connections from one client (one address); more are answered 503 and
    /// closed.
    #[arg(long, value_parser = limits::ranged_usize(1, 100_000), default_value_t = 256)]
    pub max_connections_per_client: usize,
}

/// How a server is set up, beside its listener (`chesslab serve`'s flags; tests and
/// benches build one directly).
#[derive(Debug, Clone)]
pub struct Config {
    pub max_games: usize,
    pub idle: Duration,
    pub results: Option<PathBuf>,
    /// Folder of the games database; `None`: in memory only.
    pub data: Option<PathBuf>,
    pub hosts: Vec<String>,
    pub rules: AgentRules,
    /// What one client may hold and make ([`store::Quotas`]).
    pub quotas: store::Quotas,
    /// Connection limits and timeouts ([`listen::Conns`]).
    pub conns: listen::Conns,
}

impl Config {
    /// A configuration with the flags' defaults for the rest; tests and benches make
    /// many games from one address, so the per-client quotas are off (`usize::MAX`)
    /// unless set.
    pub fn new(max_games: usize, idle: Duration, results: Option<PathBuf>) -> Config {
        Config {
            max_games,
            idle,
            results,
            data: None,
            hosts: Vec::new(),
            rules: AgentRules::default(),
            quotas: store::Quotas {
                per_client: usize::MAX,
                per_minute: usize::MAX,
                ..store::Quotas::default()
            },
            conns: listen::Conns::default(),
        }
    }
}
