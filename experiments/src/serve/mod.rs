//! `chesslab serve`: the playtest board (issue 22). A local HTTP server (axum on tokio)
//! with a JSON API over every registered variant and a page (plain HTML, CSS and JS,
//! compiled into the binary with `include_str!`) that uses nothing but that API. The
//! API is documented in `docs/api.md`.
//!
//! Modules: [`api`] (request and response bodies, errors), [`games`] (a type-erased live
//! game over the registry, and the store of live games), [`golf`] (a Chess Golf hole as a
//! one-seat game, offered beside the registry), `assets/` (the page); beside the board,
//! [`uci`] serves an agent to UCI programs on standard input and output.
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
//! - Every human seat gets a 128-bit token at creation. The state of a hidden-information
//!   game is given only to the seat's token holder; a perfect-information game may be
//!   watched by anyone (its observation is the whole state). Bot seats' views are shown
//!   only in games without human seats.
//! - Bots and chance move on a blocking thread (`spawn_blocking`) after every change;
//!   seeds follow `play_game` (see [`games`]), so a game of bots equals the tournament's
//!   game with the same seed. Agents that start outside programs (`uci`, `ext`) are
//!   refused: a web request must not run commands.
//! - Simultaneous nodes: each human seat commits its part secretly (a view shows only who
//!   has committed); the bots decide and the joint action is played when every human
//!   seat has committed.
//! - Takeback (`undo`) is for games against bots only: it takes back the seat's last
//!   decision and every action after it; chance is not rewound, so a re-played chance
//!   node may fall differently.
//! - Bounds: request bodies over 64 KiB are refused (413); at most `--max-games` live
//!   games (503 beyond); a game idle for `--idle-minutes` is dropped.
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
pub mod games;
pub mod golf;
pub mod par;
pub mod rules;
pub mod uci;

use crate::run::trace::{trace_record, Step};
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
use games::{Builder, Entry, NewGame, Store};
use serde::Deserialize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

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

/// Request bodies above this are refused with 413.
pub const MAX_BODY: usize = 64 * 1024;

#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to bind; anything but loopback exposes the board to the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// A results folder whose games.csv the page can open (watch mode).
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Most live games at once.
    #[arg(long, value_parser = crate::util::positive_usize, default_value_t = 1000)]
    pub max_games: usize,
    /// Minutes without a request after which a game is dropped.
    #[arg(long, value_parser = crate::util::positive_u64, default_value_t = 60)]
    pub idle_minutes: u64,
}

/// The server's shared state.
pub struct Server {
    pub store: Store,
    pub results: Option<PathBuf>,
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
        .route("/api/results", get(results_list))
        .route("/api/results/:index", get(results_game))
        .merge(rules::routes())
        .fallback(|| async { ApiError::not_found("no such page or API route") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(server)
}

/// Starts a server on `listener` in the background of the current tokio runtime, with
/// the expiry sweep.
pub async fn serve_on(listener: tokio::net::TcpListener, server: Shared) -> Result<()> {
    let sweep = server.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(30));
        loop {
            tick.tick().await;
            sweep.store.expire();
        }
    });
    axum::serve(listener, router(server))
        .await
        .context("the server stopped")
}

/// Starts a server on `127.0.0.1:0` on its own thread and runtime; returns its address
/// (for tests and benches).
pub fn spawn_local(max_games: usize, idle: Duration, results: Option<PathBuf>) -> Result<String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .context("cannot bind 127.0.0.1:0")?;
    let addr = listener.local_addr()?.to_string();
    let server = Arc::new(Server {
        store: Store::new(max_games, idle),
        results,
    });
    std::thread::spawn(move || {
        let _ = rt.block_on(serve_on(listener, server));
    });
    Ok(addr)
}

pub fn run(args: &ServeArgs) -> Result<()> {
    let loopback = matches!(args.host.as_str(), "127.0.0.1" | "localhost" | "::1");
    if !loopback {
        eprintln!(
            "warning: binding {} exposes the board (and every game's seat tokens in transit) to the network; there is no TLS",
            args.host
        );
    }
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
        let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
            .await
            .with_context(|| format!("cannot bind {}:{}", args.host, args.port))?;
        let addr = listener.local_addr()?;
        println!("chesslab board at http://{addr}/ (Ctrl-C stops)");
        let server = Arc::new(Server {
            store: Store::new(args.max_games, Duration::from_secs(args.idle_minutes * 60)),
            results: args.results.clone(),
        });
        serve_on(listener, server).await
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

async fn agent_names() -> Json<serde_json::Value> {
    let names: Vec<&str> = agents::registry::names()
        .into_iter()
        .filter(|n| !games::REFUSED_AGENTS.contains(n))
        .collect();
    Json(serde_json::json!(names))
}

/// Plays bots and chance on a blocking thread until a human must act, telling the
/// watchers after every action.
fn drive(entry: Arc<Entry>) {
    tokio::task::spawn_blocking(move || loop {
        let mut s = entry.session.blocking_lock();
        let stepped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.step()));
        let v = s.version();
        drop(s);
        entry.updates.send_replace(v);
        match stepped {
            Ok(Ok(true)) => continue,
            Ok(Ok(false)) => break,
            Ok(Err(e)) => {
                eprintln!("note: a game stopped: {e}");
                break;
            }
            Err(_) => {
                eprintln!("note: a bot or the rules panicked; the game waits");
                break;
            }
        }
    });
}

async fn create(
    State(server): State<Shared>,
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
    let new = NewGame {
        seed: req.seed.unwrap_or(1),
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
    let (id, entry) = server.store.insert(session, req.audit)?;
    drive(entry.clone());
    Ok(Json(CreateResponse {
        id,
        tokens: entry.tokens.clone(),
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
    match entry.tokens.get(seat) {
        None => Err(ApiError::bad_request(format!(
            "seat {seat} does not exist (the game has {} seats)",
            entry.tokens.len()
        ))),
        Some(None) => Err(ApiError::forbidden(format!(
            "seat {seat} is played by a bot"
        ))),
        Some(Some(_)) if entry.token_ok(seat, token) => Ok(()),
        Some(Some(_)) => Err(ApiError::forbidden(format!(
            "wrong or missing token for seat {seat}"
        ))),
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
    let seats = entry.tokens.len();
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
            if entry.tokens[seat].is_some() {
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
                    if entry.tokens[seat].is_some() {
                        check_token(&entry, seat, Some(&req.tokens[i]))?;
                    }
                }
                for (i, &seat) in seats.iter().enumerate() {
                    if entry.tokens[seat].is_some() {
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
        let v = s.version();
        entry.updates.send_replace(v);
        s.view(Some(req.seat), false)
    };
    drive(entry);
    Ok(Json(view))
}

async fn agent_act(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let req: AgentActRequest = body(raw)?;
    let entry = server.store.get(&id)?;
    check_token(&entry, req.seat, Some(&req.token))?;
    let e2 = entry.clone();
    let played = tokio::task::spawn_blocking(move || {
        let mut s = e2.session.blocking_lock();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            s.agent_act(req.seat, &req.agent)
        }));
        e2.updates.send_replace(s.version());
        r
    })
    .await
    .map_err(|_| ApiError::internal("the agent's thread failed"))?
    .map_err(|_| ApiError::internal("the agent panicked"))??;
    drive(entry);
    Ok(Json(serde_json::json!({ "action": played })))
}

async fn undo(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let req: SeatRequest = body(raw)?;
    let entry = server.store.get(&id)?;
    check_token(&entry, req.seat, Some(&req.token))?;
    let mut s = entry.session.lock().await;
    let n = s.undo(req.seat)?;
    entry.updates.send_replace(s.version());
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
    let job = {
        let s = entry.session.lock().await;
        if entry.has_humans() && !s.perfect_information() && s.result().is_none() {
            return Err(ApiError::forbidden(
                "a running hidden-information game with human seats cannot be branched (the games would show the hidden state)",
            ));
        }
        s.brancher(&req)?
    };
    let out = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))
    })
    .await
    .map_err(|_| ApiError::internal("the branch thread failed"))?
    .map_err(|_| ApiError::internal("a bot or the rules panicked in a branch game"))??;
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
    if q.get("format").map(String::as_str) == Some("toml") {
        return Ok((
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            s.params_toml(),
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
                "attachment; filename=\"games.csv\"",
            ),
        ],
        bytes,
    )
        .into_response())
}

fn results_csv(server: &Server) -> Result<PathBuf, ApiError> {
    server
        .results
        .as_ref()
        .map(|r| r.join("games.csv"))
        .ok_or_else(|| ApiError::not_found("no results folder (start with --results DIR)"))
}

async fn results_list(State(server): State<Shared>) -> Result<Json<serde_json::Value>, ApiError> {
    let path = results_csv(&server)?;
    let loaded = crate::record::load(&path).map_err(|e| ApiError::internal(format!("{e:#}")))?;
    let rows: Vec<_> = loaded
        .rows
        .iter()
        .map(|r| {
            serde_json::json!({"index": r.index, "variant": r.variant, "agents": r.agents,
                "result": r.result, "reason": r.reason, "plies": r.plies})
        })
        .collect();
    Ok(Json(serde_json::json!(rows)))
}

/// One recorded game, step by step with every seat's observation.
async fn results_game(
    State(server): State<Shared>,
    UrlPath(index): UrlPath<u64>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let path = results_csv(&server)?;
    tokio::task::spawn_blocking(move || watch_game(&path, index))
        .await
        .map_err(|_| ApiError::internal("the replay thread failed"))?
        .map(Json)
}

fn watch_game(path: &std::path::Path, index: u64) -> Result<serde_json::Value, ApiError> {
    let loaded = crate::record::load(path).map_err(|e| ApiError::internal(format!("{e:#}")))?;
    let row = loaded
        .rows
        .into_iter()
        .find(|r| r.index == index)
        .ok_or_else(|| ApiError::not_found(format!("no game with index {index}")))?;
    let params = crate::run::replay::params_for(path, None)
        .map_err(|e| ApiError::internal(format!("{e:#}")))?;
    struct Watch(crate::record::Row);
    impl VariantVisitor for Watch {
        type Output = Result<serde_json::Value, ApiError>;
        fn visit<G: Game>(self, _: &'static str, params: G::Params) -> Self::Output {
            let row = self.0;
            let start = if row.opening.is_empty() {
                G::new(&params)
            } else {
                G::from_opening(&params, &row.opening)
                    .map_err(|e| ApiError::bad_request(games::chain(&e)))?
            };
            let actions: Vec<String> = row.actions.split_whitespace().map(String::from).collect();
            let t = trace_record(&start, &actions, true)
                .map_err(|e| ApiError::unprocessable(format!("the game does not replay: {e:#}")))?;
            let frames: Vec<_> = t
                .steps
                .iter()
                .map(|st| match st {
                    Step::Seat { observations, .. }
                    | Step::Chance { observations, .. }
                    | Step::Simultaneous { observations, .. } => observations.clone(),
                })
                .chain(std::iter::once(t.final_observations.clone()))
                .collect();
            Ok(serde_json::json!({
                "variant": row.variant, "agents": row.agents, "actions": actions,
                "seat_names": (0..start.num_seats()).map(|s| start.seat_name(s)).collect::<Vec<_>>(),
                "frames": frames, "result": t.result,
            }))
        }
    }
    registry::visit(&row.variant, params.as_deref(), Watch(row.clone()))
        .map_err(|e| ApiError::bad_request(games::chain(&e)))?
}
