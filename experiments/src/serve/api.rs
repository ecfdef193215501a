//! The JSON bodies of the board's API (documented in `docs/api.md`) and its error type:
//! every refusal is a 4xx (or 503 when full) with `{"error": "..."}` naming the problem.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use engine::game::Seat;
use serde::{Deserialize, Serialize};

/// `POST /api/games`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub variant: String,
    /// TOML text, or a JSON object of the same keys, read over the variant's defaults.
    #[serde(default)]
    pub params: Option<serde_json::Value>,
    /// Default: drawn from the operating system when a human plays (revealed when the
    /// game ends), else 1. Given for a hidden-information game with a human seat, it
    /// makes a practice game.
    #[serde(default)]
    pub seed: Option<u64>,
    #[serde(default)]
    pub opening: Option<String>,
    /// Per seat `"human"` or an agent spec; one entry for every seat; empty: all human.
    #[serde(default)]
    pub seats: Vec<String>,
    /// Allow the audit view (the true state); granted only to games without human seats.
    #[serde(default)]
    pub audit: bool,
    /// Ask for a practice game: the creator may fix the seed and the parameters that fix
    /// hidden state (Masquerade's assignments), every seat's view says `practice`, and
    /// takeback is allowed against bots. Without it, a game two people play in which
    /// something fixes hidden information or chance is refused.
    #[serde(default)]
    pub practice: bool,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct CreateResponse {
    pub id: String,
    /// Per seat: the token of a human seat, `null` for a bot.
    pub tokens: Vec<Option<String>>,
    pub seats: Vec<String>,
    pub seat_names: Vec<String>,
}

/// `POST /api/games/{id}/act`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ActRequest {
    pub seat: Seat,
    pub token: String,
    /// One action in notation; at a simultaneous node this seat's part.
    #[serde(default)]
    pub action: Option<String>,
    /// A joint action (`["e2e4", "d7d5"]`), one part per acting seat in seat order,
    /// instead of `action`; `tokens` then holds each acting seat's token in the same
    /// order (bot seats: any text; their part is ignored and the bot decides).
    #[serde(default)]
    pub joint: Option<Vec<String>>,
    /// Tokens of the other acting seats, for a joint action (hot seat).
    #[serde(default)]
    pub tokens: Vec<String>,
    /// The `version` of the view the action was chosen in: when the game has moved on
    /// since, the action is refused (409) and nothing is played, so a double click plays
    /// once. The page always sends it; a client that leaves it out acts on whatever
    /// position is current.
    #[serde(default)]
    pub version: Option<u64>,
}

/// `POST /api/games/{id}/undo`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    pub seat: Seat,
    pub token: String,
    /// As in [`ActRequest::version`].
    #[serde(default)]
    pub version: Option<u64>,
}

/// `POST /api/games/{id}/agent-act`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AgentActRequest {
    pub seat: Seat,
    pub token: String,
    pub agent: String,
    /// As in [`ActRequest::version`].
    #[serde(default)]
    pub version: Option<u64>,
}

/// `POST /api/games/{id}/branch`: run bot games from a position of this game.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct BranchRequest {
    /// Any human seat and its token (needed when the game has human seats).
    #[serde(default)]
    pub seat: Option<Seat>,
    #[serde(default)]
    pub token: Option<String>,
    /// Start after this many actions of the game (default: the current position).
    /// Starting just before a chance outcome re-rolls it in every game.
    #[serde(default)]
    pub ply: Option<usize>,
    /// How many games (1 to the server's `--max-branch-games`; default 20).
    #[serde(default)]
    pub games: Option<usize>,
    /// Per seat an agent spec; one entry fills every seat; default: the game's bots,
    /// `random` for human seats.
    #[serde(default)]
    pub agents: Vec<String>,
    /// Changed parameters: TOML text or a JSON object read over the game's own; the
    /// game's actions up to `ply` are then replayed under them.
    #[serde(default)]
    pub params: Option<serde_json::Value>,
    /// Seed of the branch's games (default: the game's seed); game `i` uses
    /// `mix(seed, i)` for its bots and chance.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// One seat's share of a branch's outcomes.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct BranchSeat {
    pub seat: Seat,
    pub name: String,
    pub agent: String,
    /// Games with a positive, zero and negative return for the seat.
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub mean_return: f64,
}

/// The outcome spread of a branch.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct BranchOutcome {
    pub from_ply: usize,
    pub games: usize,
    pub seats: Vec<BranchSeat>,
    /// Mean number of actions played after the branch point.
    pub mean_plies: f64,
    /// How the games ended: reason and count, most frequent first.
    pub reasons: Vec<(String, usize)>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TurnView {
    Seat {
        seat: Seat,
    },
    Chance,
    Simultaneous {
        seats: Vec<Seat>,
        committed: Vec<bool>,
    },
    Terminal,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ChanceView {
    pub outcomes: Vec<(String, f64)>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ResultView {
    pub returns: Vec<f64>,
    pub reason: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct AuditView {
    pub state: String,
    pub observations: Vec<String>,
}

/// `GET /api/games/{id}/state`: what one seat may know.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SeatView {
    pub variant: String,
    /// The seat this view is for (`null`: a spectator of a perfect-information game).
    pub seat: Option<Seat>,
    pub seat_names: Vec<String>,
    pub seats: Vec<String>,
    pub perfect_information: bool,
    pub turn: TurnView,
    /// `observation(seat)`: everything the seat knows.
    pub observation: String,
    /// The seat's legal actions in notation when it has a decision to make.
    pub legal: Vec<String>,
    /// The outcomes of a pending chance node (perfect information only).
    pub chance: Option<ChanceView>,
    pub result: Option<ResultView>,
    /// Every action so far: given for perfect information, finished games and audits.
    pub record: Option<Vec<String>>,
    pub plies: usize,
    /// Grows with every change of the game, across restarts too (an act carries the
    /// version it was chosen at; a page ignores views older than the one it shows).
    pub version: u64,
    /// A bot or chance is about to act, or a bot is thinking (the view is answered at
    /// once while it does).
    pub thinking: bool,
    /// A practice game: its creator asked for one, or fixed the seed or a parameter that
    /// fixes hidden state in a game with a human seat and hidden information or
    /// simultaneous moves (takeback allowed against bots; the creator could know the
    /// hidden draws). Every seat's view says so.
    #[serde(default)]
    pub practice: bool,
    /// What made the game practice, in words (`null` when it is not).
    #[serde(default)]
    pub practice_why: Option<String>,
    /// The record in the variant's readable notation (SAN where its moves are
    /// orthodox), beside `record`, when the record is shown.
    #[serde(default)]
    pub record_san: Option<Vec<String>>,
    /// The game's seed, once the game is over.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The game's own parameters (as created, defaults filled in): public rules the page
    /// reads prices, par and counts from. A parameter that fixes hidden state (Masquerade's
    /// `white_assigns`, `black_assigns`) is left out until the game is over
    /// ([`super::rules::public_params`]).
    #[serde(default)]
    pub params: serde_json::Value,
    pub audit: Option<AuditView>,
}

/// An API refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
    pub fn bad_request(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, m)
    }
    pub fn unprocessable(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m)
    }
    pub fn conflict(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, m)
    }
    pub fn not_found(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, m)
    }
    pub fn forbidden(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, m)
    }
    pub fn too_large(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, m)
    }
    pub fn unavailable(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, m)
    }
    pub fn too_many(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, m)
    }
    pub fn internal(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, m)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            axum::Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}
