//! `chesslab serve`: the playtest board (issue 22). A local HTTP server (axum on tokio)
//! with a JSON API over every registered variant and a page (plain HTML, CSS and JS,
//! compiled into the binary with `include_str!`) that uses nothing but that API. The
//! API is documented in `docs/api.md`.
//!
//! Modules: [`api`] (request and response bodies, errors), [`guard`] (Host/Origin, JSON
//! bodies, JSON refusals), [`games`] (a type-erased live game over the registry), `branch`
//! ("branch here"), [`limits`] (what a request's agent specs may ask for), [`store`] (the
//! live games, token hashes, expiry), [`persist`] (the SQLite file that outlives the
//! process), [`golf`] (a Chess Golf hole as a one-seat game, offered beside the registry),
//! `assets/` (the page), `listen` (the accept loop, and hyper's own refusals as JSON);
//! beside the board, [`uci`] serves an agent to UCI programs on
//! standard input and output.
//!
//! The folder may depend on [`crate::run`], [`crate::golf`], [`crate::record`] and
//! [`crate::util`]; never on `cli` or `studies`.
//!
//! The page (issue 38) reads each variant's mechanics from the seat's observation alone
//! (`assets/mechanics.js`: checkers, zombies, hands, prophecies, balances, the blind Time
//! Chess board...), so it never shows more than the seat knows; `assets/board.js` draws
//! and writes SAN, `assets/events.js` the event log in words. Square pairs are clicks,
//! one-square decisions (`bury:c6`, `~e5`, `go:e5`) a click on the square, `ITEM@square`
//! drops from a pocket, forms where a list would be hundreds long (Masquerade's
//! assignment grid, Clairvoyant's guess sheet), buttons for the rest. [`rules`] serves
//! the rules cards and the page's scripts, [`par`] a Golf hole's par. The new-game form
//! has one input per scalar leaf of the variant's default parameters (`fields` of
//! `GET /api/variants/{name}`, nested tables as dotted TOML keys), with a TOML box for the
//! rest. Browser test: `experiments/tests/serve_browser.rs`; load measurement:
//! `experiments/tests/serve_load.rs` (ignored by default).
//!
//! # Decisions (the issue leaves these open)
//! - Hidden information is filtered here, never in the page: a seat's view carries its
//!   [`engine::game::Game::observation`], its own legal actions and nothing else of the
//!   state. The record (every action) and the pending chance outcomes are in a view only
//!   for perfect-information games, once the game is over, or in an audit. Tests
//!   `rule_serve_hidden_views_are_observations` and `rule_serve_tokens_are_enforced`.
//! - Every human seat gets a 128-bit token at creation; the server keeps only its SHA-256
//!   hash. The state of a hidden-information game is given only to the seat's token
//!   holder; a perfect-information game may be watched by anyone (its observation is the
//!   whole state). Bot seats' views are shown only in games without human seats.
//! - Seeds (issue 35): a game with a human seat draws its seed from the operating system
//!   unless the creator gives one, and shows it (`seed` in views) only once over. Games
//!   of bots keep seed 1 by default (they equal the tournament's game). Test
//!   `rule_serve_seeds_hidden_until_the_end`.
//! - Practice (issue 65): what a creator fixes that a seat cannot see (the seed where
//!   there is hidden information, simultaneous moves or chance; a hidden game's opening;
//!   Masquerade's assignments) makes a game against bots practice, and is refused in a
//!   game two people play unless the creator asks for `"practice": true`; every seat's
//!   view says `practice` and `practice_why` (`games::practice_of`). The page's form
//!   sends a seed only when its "Practice game" box is ticked (issue 68). Tests
//!   `rule_serve_creators_cannot_fix_another_persons_secret`
//!   (`experiments/tests/serve_limits.rs`) and the browser test's `secret_seed_form`.
//! - Acts carry the `version` they were chosen at; a stale one is 409 and nothing is
//!   played; versions only grow, across restarts (`persist`). Tests
//!   `rule_serve_stale_acts_are_refused`, `rule_serve_versions_only_grow`.
//! - Requests from elsewhere: Host and Origin must be the server's own (`--host NAME`
//!   adds names); bodies must be `application/json` (415); every refusal is JSON, axum's
//!   own rejections and 405 included ([`guard`]). `--bind` is the address bound (it was
//!   `--host` before issue 35).
//! - Agents beside humans decide from the seat's information only (the registry's
//!   `Reads` fact, not a list here): `agent-act` and bot seats of hidden-information games
//!   with a human refuse `cheat`. Every request's spec is checked against the limits and
//!   may name no file ([`limits`]). Tests `rule_serve_agents_beside_humans_see_only_the_seat`,
//!   `rule_serve_twin_hidden_truths_answer_alike`, `rule_serve_request_files_are_refused`,
//!   `rule_serve_limit_*` (`experiments/tests/serve_security.rs`).
//! - Games are stored in SQLite under `--data DIR` (default `./chesslab-data`) after every
//!   change and resumed at start, bots included ([`persist`]); test
//!   `rule_serve_games_survive_a_restart`.
//! - Bots and chance move after every change (`drive`); a bot decides on a blocking
//!   thread without the game's lock (issue 64: `state` answers at once, `thinking:
//!   true`), asked to stop at `--max-time-ms` and when its game is dropped, and forfeits
//!   on time if it has not answered [`games::GRACE`] later; seeds follow `play_game` (see
//!   [`games`]), so a game of bots equals the tournament's game with the same seed.
//!   Agents that start outside programs (`uci`, `ext`) are refused: a web request must
//!   not run commands. Test `rule_serve_bots_think_without_holding_the_game`.
//! - Simultaneous nodes: each human seat commits its part secretly (a view shows only who
//!   has committed); the bots decide and the joint action is played when every human
//!   seat has committed.
//! - Takeback (`undo`) is for games against bots only: it takes back the seat's last
//!   decision and every action after it; chance is not rewound, so a re-played chance
//!   node may fall differently. In hidden-information games only practice games allow
//!   it (a takeback would probe the hidden part), nor does a takeback across a
//!   simultaneous move outside practice (the bot's part was seen), and no finished game
//!   does (`rule_serve_takeback_is_no_probe`,
//!   `rule_serve_takeback_refused_across_simultaneous_moves`).
//! - Bounds: request bodies over 64 KiB are refused (413), and must arrive in 10 s
//!   ([`guard::read_body`]); at most `--max-games` live games (503 beyond), per client
//!   `--max-games-per-client` and `--max-creates-per-minute` (429), unplayed games dropped
//!   after `--unplayed-minutes` ([`store`]); connections capped in all and per client,
//!   heads in 10 s, idle connections closed (`listen`); a game idle for `--idle-minutes`
//!   is dropped (its row archived, never deleted) and its decision stopped; each game's
//!   bots step on their own blocking thread, so a slow bot holds back only its game
//!   (`rule_serve_slow_bot_holds_back_only_its_game`). Every flag's number has a range
//!   checked as it is read ([`limits::ranged`]). The promises are tabled in
//!   `docs/guide/board.md`.
//! - Watch: `--results DIR` lets the page list `DIR/games.csv` and step through any row
//!   (replayed with the trace's own walk, [`crate::run::trace::trace_record`], with every
//!   seat's observation: the folder is the operator's own, nothing is hidden there).
//! - "Branch here" (`POST /api/games/{id}/branch`): from the position after any number
//!   of the game's actions, optionally under changed parameters (the actions are then
//!   replayed under them), N games of bots are played with the tournament's game loop
//!   ([`crate::run::gameplay::play_game_with`]), game `i` seeded `mix(seed, i)` so every chance
//!   node re-rolls; the answer is the outcome spread. Human seats default to `random`.
//!   A running hidden-information game with human seats cannot be branched (the spread
//!   would leak the true state). Test `rule_serve_branch_here_spreads_outcomes`.
//! - Export: a finished game is offered as a one-row `games.csv` plus its parameters as
//!   TOML, which `chesslab replay --games FILE --row 1 --params P` verifies.

pub mod api;
mod branch;
pub mod games;
pub mod golf;
pub mod guard;
pub mod limits;
mod listen;
pub mod par;
pub mod persist;
pub mod rules;
pub mod store;
pub mod uci;
mod watch;

use anyhow::{Context, Result};
use api::{
    ActRequest, AgentActRequest, ApiError, CreateRequest, CreateResponse, SeatRequest, SeatView,
};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use clap::Args;
use engine::game::{Game, Seat};
use engine::registry::{self, VariantVisitor};
use games::{AgentRules, Builder, NewGame};
use serde::Deserialize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use store::{Entry, Store};

/// The registry's [`registry::visit`], plus the Golf hole ([`golf`]), which the board
/// offers beside the registered variants.
pub fn visit_any<V: VariantVisitor>(
    name: &str,
    params_toml: Option<&str>,
    visitor: V,
) -> Result<V::Output, engine::game::GameError> {
    if name != golf::NAME {
        return registry::visit(name, params_toml, visitor);
    }
    let p = registry::parse_params(name, params_toml, golf::GolfHoleParams::default())?;
    let p = registry::validated(name, p)?;
    Ok(visitor.visit::<golf::GolfHole>(golf::NAME, p))
}

/// Branch games ("branch here") finished by every server in this process so far; a test
/// reads it to see a branch stop when its client leaves.
pub fn branch_games_played() -> u64 {
    branch::games_played()
}

/// Request bodies above this are refused with 413.
pub const MAX_BODY: usize = 64 * 1024;

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

/// The server's shared state.
pub struct Server {
    pub store: Store,
    pub results: Option<PathBuf>,
    pub rules: Arc<AgentRules>,
}

type Shared = Arc<Server>;

/// The whole application: API and page.
pub fn router(server: Shared) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/style.css", get(style))
        .route("/api/variants", get(variants))
        .route("/api/variants/:name", get(variant_defaults))
        .route("/api/agents", get(agent_names))
        .route("/api/games", post(create))
        .route("/api/games/:id/state", get(state))
        .route("/api/games/:id/act", post(act))
        .route("/api/games/:id/agent-act", post(agent_act))
        .route("/api/games/:id/undo", post(undo))
        .route("/api/games/:id/branch", post(branch))
        .route("/api/games/:id/events", get(events))
        .route("/api/games/:id/export", get(export))
        .route("/api/results", get(watch::results_list))
        .route("/api/results/:index", get(watch::results_game))
        .merge(rules::routes())
        .fallback(|| async { ApiError::not_found("no such page or API route") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(server)
}

/// The application behind the request checks ([`guard`]): Host and Origin, JSON bodies,
/// URI length, and every refusal as JSON.
pub fn app(server: Shared, allowed: guard::Allowed) -> Router {
    router(server)
        .layer(axum::middleware::from_fn(guard::read_body))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(allowed),
            guard::check,
        ))
        .layer(axum::middleware::from_fn(guard::json_errors))
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

async fn page() -> Html<&'static str> {
    Html(include_str!("assets/index.html"))
}

async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("assets/app.js"),
    )
        .into_response()
}

async fn style() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("assets/style.css"),
    )
        .into_response()
}

/// A JSON body read by hand, so broken JSON, unknown fields and oversized bodies get
/// messages naming the problem.
fn body<T: serde::de::DeserializeOwned>(raw: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = raw.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::too_large(format!("request body over {MAX_BODY} bytes"))
        } else {
            ApiError::bad_request(format!("cannot read the request body: {e}"))
        }
    })?;
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("broken JSON body: {e}")))
}

async fn variants() -> Json<serde_json::Value> {
    let list: Vec<_> = registry::VARIANT_INFO
        .iter()
        .map(|v| serde_json::json!({"name": v.name, "about": v.about}))
        .chain(std::iter::once(
            serde_json::json!({"name": golf::NAME, "about": golf::ABOUT}),
        ))
        .collect();
    Json(serde_json::json!(list))
}

/// The default parameters of a variant as TOML (the page's parameter box) and JSON, and
/// its seat names.
async fn variant_defaults(
    UrlPath(name): UrlPath<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    struct Defaults;
    impl VariantVisitor for Defaults {
        type Output = serde_json::Value;
        fn visit<G: Game>(self, name: &'static str, params: G::Params) -> serde_json::Value {
            let g = G::new(&params);
            let json = serde_json::to_value(&params).unwrap_or_default();
            let mut fields = Vec::new();
            param_fields("", &json, &mut fields);
            serde_json::json!({
                "name": name,
                "fields": fields,
                "params": json,
                "params_toml": toml::to_string(&params).unwrap_or_default(),
                "seat_names": (0..g.num_seats()).map(|s| g.seat_name(s)).collect::<Vec<_>>(),
                "perfect_information": g.is_perfect_information(),
            })
        }
    }
    visit_any(&name, None, Defaults)
        .map(Json)
        .map_err(|e| ApiError::not_found(games::chain(&e)))
}

/// The form's fields: every scalar leaf of the default parameters as
/// `{"path": "a.b", "kind": "int"|"float"|"bool"|"string", "value"}` (a dotted TOML key).
/// Arrays and unset options have no field; the page's TOML box covers them.
fn param_fields(prefix: &str, v: &serde_json::Value, out: &mut Vec<serde_json::Value>) {
    use serde_json::Value;
    let kind = match v {
        Value::Object(m) => {
            for (k, x) in m {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                param_fields(&path, x, out);
            }
            return;
        }
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "string",
        Value::Null | Value::Array(_) => return,
    };
    out.push(serde_json::json!({"path": prefix, "kind": kind, "value": v}));
}

/// The agents the server accepts, which of them may advise a human seat, the limits on
/// their settings and the evaluation names `eval=` may take.
async fn agent_names(State(server): State<Shared>) -> Json<serde_json::Value> {
    let names = limits::accepted_names();
    let beside_humans: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| agents::registry::reads(n) == Some(agents::registry::Reads::SeatInformation))
        .collect();
    Json(serde_json::json!({
        "agents": names,
        "beside_humans": beside_humans,
        "limits": server.rules.limits,
        "evals": server.rules.evals.names(),
    }))
}

/// Plays bots and chance until a human must act, telling the watchers after every
/// action (issue 64). The game's lock is held only to start and to end a step, never while
/// a bot thinks: a decision runs on a blocking thread with a stop flag, which is raised at
/// the server's limit (`--max-time-ms`, times the bots deciding at once) and when the game
/// is dropped ([`store::Entry::cancel`]); an agent that has not answered [`games::GRACE`]
/// after that forfeits the game on time (the reason says so; its thread is left to end by
/// itself). A decision in progress at a restart gets only the rest of its limit. One
/// drive at a time steps a game (a second finds the decision out and returns).
fn drive(server: Shared, entry: Arc<Entry>) {
    tokio::spawn(async move {
        loop {
            if entry.is_cancelled() {
                break;
            }
            let step = {
                let mut s = entry.session.lock().await;
                let step =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.begin_step()));
                if matches!(step, Ok(Ok(games::Step::Played))) {
                    server.store.save(&entry, &**s);
                    entry.updates.send_replace(s.version());
                }
                step
            };
            match step {
                Ok(Ok(games::Step::Idle)) => break,
                Ok(Ok(games::Step::Played)) => continue,
                Ok(Ok(games::Step::Think(t))) => {
                    if !think(&server, &entry, t).await {
                        break;
                    }
                }
                Ok(Err(e)) => {
                    eprintln!("note: a game stopped: {e}");
                    break;
                }
                Err(_) => {
                    eprintln!("note: the rules panicked; the game waits");
                    break;
                }
            }
        }
    });
}

/// Runs one bot decision off the game's lock (see [`drive`]); whether to go on.
async fn think(server: &Shared, entry: &Arc<Entry>, t: games::Think) -> bool {
    let seats = t.seats.len().max(1) as u32;
    let full = server.rules.limits.decision_time().saturating_mul(seats);
    let spent = entry.take_spent().min(full);
    let limit = full - spent;
    server.store.thinking(entry, spent);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    entry.watch_stop(&stop);
    let flag = stop.clone();
    let job = t.job;
    let mut handle = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&flag)))
    });
    let out = match tokio::time::timeout(limit, &mut handle).await {
        Ok(r) => Some(r),
        Err(_) => {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            tokio::time::timeout(games::GRACE, &mut handle).await.ok()
        }
    };
    // Raised in any case: the flag is also how `watch_stop` knows it is done with.
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut s = entry.session.lock().await;
    let go_on = match out {
        Some(Ok(Ok(out))) => match s.end_think(t.version, out) {
            Ok(()) => true,
            Err(e) => {
                eprintln!("note: a game stopped: {e}");
                false
            }
        },
        Some(_) => {
            eprintln!("note: a bot panicked; the game waits");
            s.think_failed(t.version, None);
            false
        }
        None => {
            s.think_failed(
                t.version,
                Some(format!(
                    "no answer {} ms after the server's limit of {} ms (--max-time-ms)",
                    games::GRACE.as_millis(),
                    full.as_millis()
                )),
            );
            true
        }
    };
    server.store.save(entry, &**s);
    entry.updates.send_replace(s.version());
    go_on
}

/// Refuses an act prepared at another version of the game (issue 65: a double click, or
/// an act crossing a bot's move, is played once).
fn check_version(given: Option<u64>, now: u64) -> Result<(), ApiError> {
    match given {
        Some(v) if v != now => Err(ApiError::conflict(format!(
            "stale: the action was chosen at version {v}, the game is at version {now}; nothing was played (fetch the state and choose again)"
        ))),
        _ => Ok(()),
    }
}

/// The address of the request's client (set by `listen` on every connection).
#[derive(Clone, Copy, Debug)]
pub struct ClientAddr(pub std::net::IpAddr);

async fn create(
    State(server): State<Shared>,
    client: Option<axum::Extension<ClientAddr>>,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Json<CreateResponse>, ApiError> {
    let req: CreateRequest = body(raw)?;
    let params_toml = match &req.params {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(t)) => Some(t.clone()),
        Some(v @ serde_json::Value::Object(_)) => Some(
            toml::to_string(v)
                .map_err(|e| ApiError::bad_request(format!("params: not a TOML table: {e}")))?,
        ),
        Some(_) => {
            return Err(ApiError::bad_request(
                "params: give TOML text or a JSON object",
            ))
        }
    };
    if let Some(t) = &params_toml {
        let table: toml::Table = toml::from_str(t)
            .map_err(|e| ApiError::bad_request(format!("params: not TOML: {e}")))?;
        games::check_request_params(&table)?;
    }
    let new = NewGame {
        seed: req.seed,
        practice: None,
        asked_practice: req.practice,
        rules: server.rules.clone(),
        opening: req.opening.filter(|o| !o.trim().is_empty()),
        seats: req.seats,
    };
    let session = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        visit_any(&req.variant, params_toml.as_deref(), Builder(new))
    }))
    .map_err(|_| ApiError::bad_request("the variant could not start from this input"))?
    .map_err(|e| match e {
        engine::game::GameError::UnknownVariant(..) => ApiError::not_found(games::chain(&e)),
        _ => ApiError::bad_request(games::chain(&e)),
    })??;
    let seats = session.seat_specs().to_vec();
    let seat_names = (0..seats.len())
        .map(|s| session.view(Some(s), false).seat_names[s].clone())
        .collect();
    let (entry, tokens) =
        server
            .store
            .insert(session, req.audit, client.map(|axum::Extension(c)| c.0))?;
    drive(server.clone(), entry.clone());
    Ok(Json(CreateResponse {
        id: entry.id.clone(),
        tokens,
        seats,
        seat_names,
    }))
}

#[derive(Deserialize)]
struct StateQuery {
    seat: Option<Seat>,
    token: Option<String>,
    #[serde(default)]
    audit: bool,
}

/// Checks the token of `seat`.
fn check_token(entry: &Entry, seat: Seat, token: Option<&str>) -> Result<(), ApiError> {
    if seat >= entry.seats() {
        Err(ApiError::bad_request(format!(
            "seat {seat} does not exist (the game has {} seats)",
            entry.seats()
        )))
    } else if !entry.is_human(seat) {
        Err(ApiError::forbidden(format!(
            "seat {seat} is played by a bot"
        )))
    } else if entry.token_ok(seat, token) {
        Ok(())
    } else {
        Err(ApiError::forbidden(format!(
            "wrong or missing token for seat {seat}"
        )))
    }
}

async fn state(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Query(q): Query<StateQuery>,
) -> Result<Json<SeatView>, ApiError> {
    let entry = server.store.get(&id)?;
    let s = entry.session.lock().await;
    let audit = q.audit && entry.audit && !entry.has_humans();
    if q.audit && !audit {
        return Err(ApiError::forbidden(
            "the audit view needs a game created with \"audit\": true and no human seats",
        ));
    }
    let seats = entry.seats();
    if let Some(seat) = q.seat {
        if seat >= seats {
            return Err(ApiError::bad_request(format!(
                "seat {seat} does not exist (the game has {seats} seats)"
            )));
        }
    }
    let open = s.perfect_information() || audit;
    match q.seat {
        Some(seat) if !open => {
            if entry.is_human(seat) {
                check_token(&entry, seat, q.token.as_deref())?;
            } else if entry.has_humans() {
                return Err(ApiError::forbidden(format!(
                    "seat {seat}'s view is hidden while humans play this game"
                )));
            }
        }
        None if !open && entry.has_humans() => {
            return Err(ApiError::forbidden(
                "a hidden-information game is seen through a seat: give seat and token",
            ))
        }
        _ => {}
    }
    // A spectator of a game without humans sees seat 0's view.
    Ok(Json(s.view(q.seat, audit)))
}

async fn act(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Json<SeatView>, ApiError> {
    let req: ActRequest = body(raw)?;
    let entry = server.store.get(&id)?;
    check_token(&entry, req.seat, Some(&req.token))?;
    let view = {
        let mut s = entry.session.lock().await;
        check_version(req.version, s.version())?;
        match (&req.action, &req.joint) {
            (Some(a), None) => s.act(req.seat, a)?,
            (None, Some(parts)) => {
                let view = s.view(Some(req.seat), false);
                let api::TurnView::Simultaneous { seats, .. } = view.turn else {
                    return Err(ApiError::conflict(
                        "a joint action needs a simultaneous node",
                    ));
                };
                if parts.len() != seats.len() || req.tokens.len() != seats.len() {
                    return Err(ApiError::bad_request(format!(
                        "joint: {} acting seats, {} parts and {} tokens given",
                        seats.len(),
                        parts.len(),
                        req.tokens.len()
                    )));
                }
                for (i, &seat) in seats.iter().enumerate() {
                    if entry.is_human(seat) {
                        check_token(&entry, seat, Some(&req.tokens[i]))?;
                    }
                }
                for (i, &seat) in seats.iter().enumerate() {
                    if entry.is_human(seat) {
                        s.act(seat, &parts[i])?;
                    }
                }
            }
            _ => {
                return Err(ApiError::bad_request(
                    "give exactly one of \"action\" or \"joint\"",
                ))
            }
        }
        entry.mark_played();
        let v = s.version();
        server.store.save(&entry, &**s);
        entry.updates.send_replace(v);
        s.view(Some(req.seat), false)
    };
    drive(server, entry);
    Ok(Json(view))
}

/// Raises its flag when dropped: with the handler's future when the client leaves.
struct CancelOnDrop(Arc<std::sync::atomic::AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// An agent's decision for a human seat (issue 64): prepared under the game's lock,
/// decided without it on a blocking thread, stopped at the server's limit or when the
/// client leaves; answered 503 if the agent has not answered [`games::GRACE`] after the
/// limit (nothing is played), 409 if the game moved on meanwhile.
async fn agent_act(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let req: AgentActRequest = body(raw)?;
    let entry = server.store.get(&id)?;
    check_token(&entry, req.seat, Some(&req.token))?;
    let advice = {
        let s = entry.session.lock().await;
        check_version(req.version, s.version())?;
        s.advise(req.seat, &req.agent)?
    };
    let cancel = CancelOnDrop(Arc::new(std::sync::atomic::AtomicBool::new(false)));
    entry.watch_stop(&cancel.0);
    let flag = cancel.0.clone();
    let job = advice.job;
    let mut handle = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&flag)))
    });
    let limit = server.rules.limits.decision_time();
    let out = match tokio::time::timeout(limit, &mut handle).await {
        Ok(r) => Some(r),
        Err(_) => {
            cancel.0.store(true, std::sync::atomic::Ordering::Relaxed);
            tokio::time::timeout(games::GRACE, &mut handle).await.ok()
        }
    };
    drop(cancel);
    let text = match out {
        Some(Ok(Ok(r))) => r?,
        Some(Ok(Err(_))) => return Err(ApiError::internal("the agent panicked")),
        Some(Err(_)) => return Err(ApiError::internal("the agent's thread failed")),
        None => {
            return Err(ApiError::unavailable(format!(
                "the agent did not answer within the server's limit of {} ms (--max-time-ms); nothing was played",
                limit.as_millis()
            )))
        }
    };
    {
        let mut s = entry.session.lock().await;
        if s.version() != advice.version {
            return Err(ApiError::conflict(
                "stale: the game changed while the agent thought; nothing was played",
            ));
        }
        s.act(req.seat, &text)?;
        entry.mark_played();
        server.store.save(&entry, &**s);
        entry.updates.send_replace(s.version());
    }
    drive(server, entry);
    Ok(Json(serde_json::json!({ "action": text })))
}

async fn undo(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let req: SeatRequest = body(raw)?;
    let entry = server.store.get(&id)?;
    check_token(&entry, req.seat, Some(&req.token))?;
    let n = {
        let mut s = entry.session.lock().await;
        check_version(req.version, s.version())?;
        let n = s.undo(req.seat)?;
        entry.mark_played();
        server.store.save(&entry, &**s);
        entry.updates.send_replace(s.version());
        n
    };
    // A bot whose decision was taken back decides again.
    drive(server, entry);
    Ok(Json(serde_json::json!({ "taken_back": n })))
}

/// "Branch here": N bot games from a position of this game (see [`api::BranchRequest`]).
/// A hidden-information game with human seats may be branched only once it is over: the
/// outcome spread of games from the true state would tell a player what it cannot see.
async fn branch(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Json<api::BranchOutcome>, ApiError> {
    let req: api::BranchRequest = body(raw)?;
    let entry = server.store.get(&id)?;
    if entry.has_humans() {
        let Some(seat) = req.seat else {
            return Err(ApiError::forbidden(
                "a game with human seats is branched by one of them: give seat and token",
            ));
        };
        check_token(&entry, seat, req.token.as_deref())?;
    }
    let (job, time) = {
        let s = entry.session.lock().await;
        if entry.has_humans() && !s.perfect_information() && s.result().is_none() {
            return Err(ApiError::forbidden(
                "a running hidden-information game with human seats cannot be branched (the games would show the hidden state)",
            ));
        }
        (s.brancher(&req)?, s.branch_time())
    };
    // Dropped with this handler when the client leaves: the games stop at the next
    // decision, and a search that honours the flag at once.
    let cancel = CancelOnDrop(Arc::new(std::sync::atomic::AtomicBool::new(false)));
    entry.watch_stop(&cancel.0);
    let flag = cancel.0.clone();
    let mut handle = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&flag)))
    });
    let out = match tokio::time::timeout(time, &mut handle).await {
        Ok(r) => Some(r),
        Err(_) => {
            cancel.0.store(true, std::sync::atomic::Ordering::Relaxed);
            tokio::time::timeout(games::GRACE, &mut handle).await.ok()
        }
    };
    drop(cancel);
    let out = match out {
        Some(r) => r
            .map_err(|_| ApiError::internal("the branch thread failed"))?
            .map_err(|_| ApiError::internal("a bot or the rules panicked in a branch game"))??,
        None => {
            return Err(ApiError::unprocessable(format!(
                "the branch ran over the server's limit of {} s (--max-branch-seconds) and its games did not stop in time; ask for fewer games or faster agents",
                time.as_secs()
            )))
        }
    };
    Ok(Json(out))
}

/// Server-sent events: `version` with the game's new version number after every change
/// (no content: a client fetches its own view with its token).
async fn events(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
) -> Result<impl IntoResponse, ApiError> {
    let entry = server.store.get(&id)?;
    let rx = entry.updates.subscribe();
    drop(entry);
    let stream = futures_util::stream::unfold((rx, true), |(mut rx, first)| async move {
        if !first && rx.changed().await.is_err() {
            return None;
        }
        let v = *rx.borrow_and_update();
        Some((
            Ok::<_, std::convert::Infallible>(
                Event::default().event("version").data(v.to_string()),
            ),
            (rx, false),
        ))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// A finished game as a one-row games.csv (`format=csv`, default) or its parameters as
/// TOML (`format=toml`).
async fn export(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let entry = server.store.get(&id)?;
    let s = entry.session.lock().await;
    let Some(result) = s.result() else {
        return Err(ApiError::conflict("the game is not over yet"));
    };
    let practice = if s.practice() { "true" } else { "false" };
    if q.get("format").map(String::as_str) == Some("toml") {
        let mut text = String::new();
        if s.practice() {
            text.push_str("# practice game: its seed was chosen by its creator\n");
        }
        text.push_str(&s.params_toml());
        return Ok((
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                (
                    header::HeaderName::from_static("x-chesslab-practice"),
                    practice,
                ),
            ],
            text,
        )
            .into_response());
    }
    let seats = s.seat_specs().len();
    let row = crate::record::Row {
        index: 0,
        seed: s.seed(),
        variant: s.variant().to_string(),
        params_digest: s.params_digest(),
        pair: 0,
        opening: s.opening().unwrap_or("").to_string(),
        players: (0..seats).collect(),
        agents: s.seat_specs().to_vec(),
        result: crate::util::result_text(&result.returns),
        returns: result.returns.clone(),
        reason: result.reason.clone(),
        plies: s.actions().len(),
        actions: s.actions().join(" "),
    };
    let mut bytes = crate::record::header_line();
    bytes.extend(row.to_line());
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                if s.practice() {
                    "attachment; filename=\"games-practice.csv\""
                } else {
                    "attachment; filename=\"games.csv\""
                },
            ),
            (
                header::HeaderName::from_static("x-chesslab-practice"),
                practice,
            ),
        ],
        bytes,
    )
        .into_response())
}
