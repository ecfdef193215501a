//! Watch mode: the rows of `--results DIR/games.csv` and any of its games replayed step
//! by step with every seat's observation (the folder is the operator's own, nothing is
//! hidden there). A file that cannot be read is reported on the server's terminal; the
//! answer names only the file, since a parse error may quote its lines.

use super::api::ApiError;
use super::{games, Server, Shared};
use crate::run::trace::{trace_record, Step};
use axum::extract::{Path as UrlPath, State};
use axum::Json;
use engine::game::Game;
use engine::registry::{self, VariantVisitor};
use std::path::PathBuf;

/// A file of the results folder could not be read: the operator's terminal gets the
/// cause, the answer only names the file (a parse error may quote the file's lines).
fn file_error(what: &str, e: &anyhow::Error) -> ApiError {
    eprintln!("note: the results folder's {what}: {e:#}");
    ApiError::internal(format!(
        "the results folder's {what} could not be read (the server's log says why)"
    ))
}

fn results_csv(server: &Server) -> Result<PathBuf, ApiError> {
    server
        .results
        .as_ref()
        .map(|r| r.join("games.csv"))
        .ok_or_else(|| ApiError::not_found("no results folder (start with --results DIR)"))
}

pub(super) async fn results_list(
    State(server): State<Shared>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let path = results_csv(&server)?;
    let loaded = crate::record::load(&path).map_err(|e| file_error("games.csv", &e))?;
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
pub(super) async fn results_game(
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
    let loaded = crate::record::load(path).map_err(|e| file_error("games.csv", &e))?;
    let row = loaded
        .rows
        .into_iter()
        .find(|r| r.index == index)
        .ok_or_else(|| ApiError::not_found(format!("no game with index {index}")))?;
    let params =
        crate::run::replay::params_for(path, None).map_err(|e| file_error("parameters", &e))?;
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
