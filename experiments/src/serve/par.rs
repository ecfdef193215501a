//! `GET /api/golf/par?position=FEN`: the par of a Chess Golf hole for the board's Golf
//! panel (issue 38: "the par and the player's count"). The hole's observation does not
//! carry its par, and the page cannot search, so the server runs the solver
//! ([`agents::golf::solve`]) under small limits on a blocking thread.
//!
//! # Decisions
//! - Limits: at most [`MAX_STATES`] states, [`MAX_SECONDS`] seconds and a 16 MiB table, so
//!   a request never holds the server long; past them the answer is "par above N", said
//!   as such (`{"par": null, "above": N}`).
//! - The rules are the game's own: the page sends its view's `params.rules` (a Golf
//!   hole's rules, JSON) as `rules=`; without it, Golf's defaults. Rules that do not
//!   validate are a 400 naming the field.
//!
//! Tests: `rule_serve_golf_par_is_the_solvers` and `rule_serve_golf_par_uses_the_given_rules`
//! in `experiments/tests/serve_board.rs`.

use super::api::ApiError;
use agents::golf::{solve, Outcome, SolveLimits};
use axum::extract::Query;
use axum::Json;
use engine::game::VariantParams;
use engine::variants::golf::{GolfParams, GolfPosition};
use serde::Deserialize;
use std::time::Duration;

/// Most states one par request may search.
pub const MAX_STATES: u64 = 2_000_000;
/// Most seconds one par request may search.
pub const MAX_SECONDS: f64 = 2.0;

#[derive(Deserialize)]
pub struct ParQuery {
    position: String,
    /// The hole's rules as JSON (`GolfParams`); default: Golf's defaults.
    #[serde(default)]
    rules: Option<String>,
}

/// The rules a par request names: `text` is JSON of [`GolfParams`] (defaults filled in).
pub fn rules_from(text: Option<&str>) -> Result<GolfParams, ApiError> {
    let Some(text) = text else {
        return Ok(GolfParams::default());
    };
    let rules: GolfParams = serde_json::from_str(text)
        .map_err(|e| ApiError::bad_request(format!("rules: not Golf rules: {e}")))?;
    rules
        .validate()
        .map_err(|e| ApiError::bad_request(format!("rules.{}: {}", e.field, e.reason)))?;
    Ok(rules)
}

/// The par of `position` under `rules`, as JSON.
pub fn par_json(position: &str, rules: &GolfParams) -> Result<serde_json::Value, ApiError> {
    let pos = GolfPosition::parse_any(position.trim())
        .map_err(|e| ApiError::bad_request(format!("position: not a Golf hole: {e}")))?;
    let limits = SolveLimits {
        max_nodes: Some(MAX_STATES),
        max_time: Some(Duration::from_secs_f64(MAX_SECONDS)),
        table_bytes: 16 << 20,
        ..SolveLimits::default()
    };
    let r = solve(&pos, rules, &limits);
    Ok(match r.outcome {
        Outcome::Par(n) => serde_json::json!({"par": n, "above": null, "impossible": false}),
        Outcome::ParAbove(n) => serde_json::json!({"par": null, "above": n, "impossible": false}),
        Outcome::Impossible => serde_json::json!({"par": null, "above": null, "impossible": true}),
    })
}

pub async fn par(Query(q): Query<ParQuery>) -> Result<Json<serde_json::Value>, ApiError> {
    if q.position.len() > 200 {
        return Err(ApiError::bad_request("position: longer than a hole can be"));
    }
    if q.rules.as_ref().is_some_and(|r| r.len() > 2000) {
        return Err(ApiError::bad_request(
            "rules: longer than Golf's rules can be",
        ));
    }
    let rules = rules_from(q.rules.as_deref())?;
    tokio::task::spawn_blocking(move || par_json(&q.position, &rules))
        .await
        .map_err(|_| ApiError::internal("the solver's thread failed"))?
        .map(Json)
}
