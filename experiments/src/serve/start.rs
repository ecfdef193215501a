//! Starting a board: the server's state with every stored game resumed
//! ([`start_server`]), the accept loop and expiry sweep ([`serve_on`]), a server on its
//! own thread for tests and benches ([`spawn_with`]), and `chesslab serve` itself
//! ([`run`]: flags to [`Config`], then bind and serve).

use super::config::{Config, ServeArgs};
use super::drive::drive;
use super::games::{self, AgentRules, Builder, NewGame};
use super::router::app;
use super::{guard, limits, listen, persist, store, visit_any, Server, Shared};
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use store::Store;

/// The server's state for `config`, with every stored game read back and its bots
/// resumed (call inside a tokio runtime).
pub fn start_server(config: &Config) -> Result<Shared> {
    let db = match &config.data {
        Some(dir) => Some(persist::Db::open(dir)?),
        None => None,
    };
    let saved = match &db {
        Some(db) => db.load()?,
        None => Vec::new(),
    };
    let rules = Arc::new(config.rules.clone());
    let server = Arc::new(Server {
        store: Store::new(config.max_games, config.idle, config.quotas.clone(), db),
        results: config.results.clone(),
        rules: rules.clone(),
    });
    let mut resumed = 0;
    for g in &saved {
        let new = NewGame {
            seed: Some(g.seed),
            practice: Some((g.practice, g.practice_why.clone())),
            asked_practice: false,
            rules: rules.clone(),
            opening: g.opening.clone(),
            seats: g.seats.clone(),
        };
        let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            visit_any(&g.variant, Some(&g.params_toml), Builder(new))
        }));
        let session = match built {
            Ok(Ok(Ok(mut s))) => {
                match s.restore(&g.actions, &g.deciders, g.version, g.forfeit.clone()) {
                    Ok(()) => s,
                    Err(e) => {
                        eprintln!("warning: stored game {} not resumed: {}", g.id, e.message);
                        continue;
                    }
                }
            }
            Ok(Ok(Err(e))) => {
                eprintln!("warning: stored game {} not resumed: {}", g.id, e.message);
                continue;
            }
            Ok(Err(e)) => {
                eprintln!(
                    "warning: stored game {} not resumed: {}",
                    g.id,
                    games::chain(&e)
                );
                continue;
            }
            Err(_) => {
                eprintln!(
                    "warning: stored game {} not resumed: the variant panicked",
                    g.id
                );
                continue;
            }
        };
        server.store.restore(g, session);
        if let Ok(entry) = server.store.get(&g.id) {
            drive(server.clone(), entry);
        }
        resumed += 1;
    }
    if !saved.is_empty() {
        eprintln!("resumed {resumed} of {} stored games", saved.len());
    }
    Ok(server)
}

/// Starts a server on `listener` in the background of the current tokio runtime, with
/// the expiry sweep.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    server: Shared,
    hosts: &[String],
    conns: listen::Conns,
) -> Result<()> {
    let local = listener.local_addr()?;
    let allowed = guard::Allowed::new(local, hosts, local.port());
    let sweep = server.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(30));
        loop {
            tick.tick().await;
            sweep.store.expire();
        }
    });
    listen::serve(listener, app(server, allowed), conns).await;
    Ok(())
}

/// Starts a server on `127.0.0.1:0` on its own thread and runtime; returns its address
/// (for tests and benches).
pub fn spawn_local(max_games: usize, idle: Duration, results: Option<PathBuf>) -> Result<String> {
    spawn_with(Config::new(max_games, idle, results))
}

/// [`spawn_local`] with any configuration.
pub fn spawn_with(config: Config) -> Result<String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    let listener = rt
        .block_on(listen::bind("127.0.0.1:0"))
        .context("cannot bind 127.0.0.1:0")?;
    let addr = listener.local_addr()?.to_string();
    let server = {
        let _guard = rt.enter();
        start_server(&config)?
    };
    std::thread::spawn(move || {
        let _ = rt.block_on(serve_on(
            listener,
            server,
            &config.hosts,
            config.conns.clone(),
        ));
    });
    Ok(addr)
}

pub fn run(args: &ServeArgs) -> Result<()> {
    let loopback = matches!(args.bind.as_str(), "127.0.0.1" | "localhost" | "::1");
    if !loopback {
        eprintln!(
            "warning: binding {} exposes the board (and every game's seat tokens in transit) to the network; there is no TLS",
            args.bind
        );
    }
    // The flags' ranges keep these far from overflow; saturating all the same.
    let minutes = |m: u64| Duration::from_secs(m.saturating_mul(60));
    let config = Config {
        max_games: args.max_games,
        idle: minutes(args.idle_minutes),
        results: args.results.clone(),
        data: (!args.no_data).then(|| args.data.clone()),
        hosts: args.hosts.clone(),
        rules: AgentRules {
            limits: args.limits.clone(),
            evals: limits::EvalFiles::from_flags(&args.evals)?,
        },
        quotas: store::Quotas {
            per_client: args.max_games_per_client,
            per_minute: args.max_creates_per_minute,
            unplayed: minutes(args.unplayed_minutes),
        },
        conns: listen::Conns {
            max: args.max_connections,
            per_client: args.max_connections_per_client,
            ..listen::Conns::default()
        },
    };
    if let Some(r) = &args.results {
        let csv = r.join("games.csv");
        if !csv.is_file() {
            anyhow::bail!("--results {}: no games.csv there", r.display());
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    rt.block_on(async {
        let listener = listen::bind((args.bind.as_str(), args.port))
            .await
            .with_context(|| format!("cannot bind {}:{}", args.bind, args.port))?;
        let addr = listener.local_addr()?;
        let server = start_server(&config)?;
        match &config.data {
            Some(d) => println!(
                "chesslab board at http://{addr}/ (games kept in {}; Ctrl-C stops)",
                d.join(persist::FILE).display()
            ),
            None => {
                println!("chesslab board at http://{addr}/ (games in memory only; Ctrl-C stops)")
            }
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
        serve_on(listener, server, &config.hosts, config.conns.clone()).await
    })
}
