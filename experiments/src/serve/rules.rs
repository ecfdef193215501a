//! The board's rules cards, its page files and the routes issue 38 adds (the rules card,
//! the Golf par of [`super::par`]): `GET /api/variants/{name}/rules`
//! answers a variant's section of `docs/RULES.md` (compiled in with `include_str!`, so
//! the card is always the text the lab implements), and the page's JavaScript modules
//! beside `app.js` are served from here.
//!
//! # Decisions
//! - A section is the text from the variant's `## ` heading to the next `## ` heading or
//!   `---` rule. Orthodox chess has no section of its own: its card is the file's
//!   preamble ("Common to all variants"), which every other card also refers to.
//! - The answer is JSON `{"variant", "title", "text"}` with the section's Markdown as
//!   it stands; the page shows it as preformatted text (no Markdown renderer to vendor).
//! - An unknown variant is a 404 naming the variants that have a card.
//! - The page's files (`board.js`, `mechanics.js`, `events.js`, `play.js`, `board.css`)
//!   are compiled in; with `CHESSLAB_BOARD_ASSETS=DIR` set they are read from DIR at every
//!   request instead (for editing the page without a rebuild; a file missing there falls
//!   back to the compiled-in copy). `index.html` stays compiled in.
//!
//! Tests: `rule_serve_rules_card_is_the_rules_section` and
//! `serve_page_scripts_are_served_and_linked` in `experiments/tests/serve_board.rs`; the
//! browser test opens a card per variant.

use super::api::ApiError;
use axum::extract::{Path as UrlPath, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use std::sync::Arc;

const RULES: &str = include_str!("../../../docs/RULES.md");

/// Variant name to the start of its heading in RULES.md (`None`: the preamble).
const HEADINGS: &[(&str, Option<&str>)] = &[
    ("chess", None),
    ("chess960", Some("## Chess960")),
    ("half-alice", Some("## Half Alice")),
    ("adrenaline", Some("## Adrenaline")),
    ("crowded-house", Some("## Crowded House")),
    ("cassandra", Some("## Cassandra")),
    ("expedition", Some("## Expedition")),
    ("masquerade", Some("## Masquerade")),
    ("two-move", Some("## Two Move")),
    ("synchronous", Some("## Synchronous")),
    ("zombie", Some("## Zombie")),
    ("time", Some("## Time Chess")),
    ("tar-pit", Some("## Tar Pit")),
    ("cooperative", Some("## Cooperative")),
    ("clairvoyant", Some("## Clairvoyant")),
    ("golf", Some("## Chess Golf")),
];

/// The rules card of `variant`: (title, Markdown text).
pub fn rules_card(variant: &str) -> Option<(String, String)> {
    let (_, heading) = HEADINGS.iter().find(|(n, _)| *n == variant)?;
    let lines: Vec<&str> = RULES.lines().collect();
    let (title, body_start) = match heading {
        None => ("Orthodox chess (common to all variants)".to_string(), 1),
        Some(h) => {
            let i = lines.iter().position(|l| l.starts_with(h))?;
            (lines[i].trim_start_matches('#').trim().to_string(), i + 1)
        }
    };
    let end = lines[body_start..]
        .iter()
        .position(|l| l.starts_with("## ") || l.trim() == "---")
        .map_or(lines.len(), |k| body_start + k);
    let text = lines[body_start..end].join("\n").trim().to_string();
    Some((title, text))
}

async fn rules(UrlPath(name): UrlPath<String>) -> Result<Json<serde_json::Value>, ApiError> {
    let (title, text) = rules_card(&name).ok_or_else(|| {
        let known: Vec<&str> = HEADINGS.iter().map(|(n, _)| *n).collect();
        ApiError::not_found(format!(
            "no rules card for variant '{name}' (cards: {})",
            known.join(", ")
        ))
    })?;
    Ok(Json(
        serde_json::json!({"variant": name, "title": title, "text": text}),
    ))
}

/// Parameters that fix hidden state rather than rules, by variant: left out of a running
/// game's views (a seat must not read the other's secret from them).
pub const HIDDEN_PARAMS: &[(&str, &str)] = &[
    ("masquerade", "white_assigns"),
    ("masquerade", "black_assigns"),
];

/// The parameters of [`HIDDEN_PARAMS`] that `params` (a game's, as JSON) sets.
pub fn hidden_params_given(variant: &str, params: &serde_json::Value) -> Vec<&'static str> {
    HIDDEN_PARAMS
        .iter()
        .filter(|(v, key)| *v == variant && params.get(*key).is_some_and(|x| !x.is_null()))
        .map(|(_, key)| *key)
        .collect()
}

/// The parameters a seat's view carries: the game's own, less [`HIDDEN_PARAMS`] while the
/// game runs (`reveal`: over, or an audit).
pub fn public_params(variant: &str, params: &serde_json::Value, reveal: bool) -> serde_json::Value {
    let mut p = params.clone();
    if !reveal {
        if let Some(map) = p.as_object_mut() {
            for (_, key) in HIDDEN_PARAMS.iter().filter(|(v, _)| *v == variant) {
                map.remove(*key);
            }
        }
    }
    p
}

/// The page's files served from here: (URL name, content type, compiled-in text).
const ASSETS: &[(&str, &str, &str)] = &[
    ("board.js", JS, include_str!("assets/board.js")),
    ("mechanics.js", JS, include_str!("assets/mechanics.js")),
    ("events.js", JS, include_str!("assets/events.js")),
    ("play.js", JS, include_str!("assets/play.js")),
    (
        "board.css",
        "text/css; charset=utf-8",
        include_str!("assets/board.css"),
    ),
];
const JS: &str = "text/javascript; charset=utf-8";

/// The environment variable naming a folder to read the page's files from at every
/// request instead of the compiled-in copies (editing the page without a rebuild).
pub const ASSETS_ENV: &str = "CHESSLAB_BOARD_ASSETS";

fn asset(name: &str) -> Response {
    let Some(&(_, kind, text)) = ASSETS.iter().find(|(n, _, _)| *n == name) else {
        return ApiError::not_found("no such page file").into_response();
    };
    let body = std::env::var_os(ASSETS_ENV)
        .and_then(|dir| std::fs::read_to_string(std::path::Path::new(&dir).join(name)).ok())
        .unwrap_or_else(|| text.to_string());
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// `GET /api/board`: what the page needs to know of the server before it asks (whether a
/// results folder is open), so it never requests a route that would answer 404 (a
/// console error in the browser).
async fn board_info(State(server): State<Arc<super::Server>>) -> Json<serde_json::Value> {
    Json(serde_json::json!({"results": server.results.is_some()}))
}

/// The rules route, the Golf par, the board's facts and the page's script modules,
/// merged into [`super::router`].
pub fn routes() -> Router<Arc<super::Server>> {
    Router::new()
        .route("/api/board", get(board_info))
        .route("/api/variants/:name/rules", get(rules))
        .route("/api/golf/par", get(super::par::par))
        .route("/board.js", get(|| async { asset("board.js") }))
        .route("/mechanics.js", get(|| async { asset("mechanics.js") }))
        .route("/events.js", get(|| async { asset("events.js") }))
        .route("/play.js", get(|| async { asset("play.js") }))
        .route("/board.css", get(|| async { asset("board.css") }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_a_card() {
        for v in engine::registry::VARIANT_INFO {
            let (title, text) = rules_card(v.name).unwrap_or_else(|| panic!("{}", v.name));
            assert!(!title.is_empty() && text.len() > 40, "{}: {title}", v.name);
            assert!(
                !text.contains("\n## "),
                "{}: runs into the next section",
                v.name
            );
        }
        assert!(rules_card("golf").unwrap().0.starts_with("Chess Golf"));
        assert!(rules_card("zombie").unwrap().1.contains("zombie"));
        assert!(rules_card("nope").is_none());
    }
}
