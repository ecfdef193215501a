//! The endpoints of one game: create, state, act, agent-act, undo, branch, events and
//! export; with the checks they share (JSON bodies read by hand, seat tokens, the
//! version an act was chosen at). Every change saves the game, tells its watchers and
//! lets its bots move ([`drive`]).

use super::api::{
    self, ActRequest, AgentActRequest, ApiError, CreateRequest, CreateResponse, SeatRequest,
    SeatView,
};
use super::drive::drive;
use super::games::{self, Builder, NewGame};
use super::store::Entry;
use super::{visit_any, Shared, MAX_BODY};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use engine::game::Seat;
use serde::Deserialize;
use std::sync::Arc;

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

pub(super) async fn create(
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
pub(super) struct StateQuery {
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

pub(super) async fn state(
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

pub(super) async fn act(
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
pub(super) async fn agent_act(
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

pub(super) async fn undo(
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
pub(super) async fn branch(
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
pub(super) async fn events(
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
pub(super) async fn export(
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
