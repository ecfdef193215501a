//! The routes of the board's application ([`router`]) and the request checks around them
//! ([`app`]); with the endpoints that read no game: the page and its assets, the
//! variants with their default parameters, and the agents the server accepts. The
//! endpoints of one game are in `handlers`.

use super::api::ApiError;
use super::handlers::{act, agent_act, branch, create, events, export, state, undo};
use super::{games, golf, guard, limits, rules, visit_any, watch, Shared, MAX_BODY};
use axum::extract::{DefaultBodyLimit, Path as UrlPath, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use engine::game::Game;
use engine::registry::{self, VariantVisitor};
use std::sync::Arc;

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
